import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { Download, ShieldCheck, Trash2 } from 'lucide-react';
import { deleteAccountInput, type DeleteAccountInput } from '@legalmarket/contracts/privacy';
import { Button } from '@/components/button';
import { Loading } from '@/components/feedback';
import { FormError, PasswordField } from '@/components/field';
import { Modal } from '@/components/modal';
import { downloadPdf } from '@/components/pdf-download';
import { getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/session';
import { useDeleteAccount, useDeletionCheck } from './api/privacy-api';

/**
 * The rights of Nigeria's Data Protection Act 2023 on one's own profile (decision 2030): a zip of
 * everything we hold about the person, and deleting the account after the password.
 */
export function DataProtectionSection() {
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadPdf('/api/account/export', 'legalmarket-data.zip');
    } catch (err) {
      setDownloadError(getErrorMessage(err));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section
      aria-labelledby="your-data-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="your-data-title" className="heading-card flex items-center gap-2 text-ink">
        <ShieldCheck aria-hidden className="size-5 text-brand" /> Your data
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        Nigeria&apos;s Data Protection Act 2023 gives you the right to a copy of your data and to have it erased. See
        our{' '}
        <Link to={paths.privacy()} className="font-semibold text-brand underline">
          Privacy policy
        </Link>{' '}
        for what we keep and why.
      </p>
      <div className="mt-4">
        <Button variant="secondary" loading={downloading} onClick={download}>
          <Download aria-hidden className="size-4" /> Download my data
        </Button>
        <p className="mt-1 text-xs text-slate-500">
          One zip file: your profile, orders, jobs with their messages, reviews, payouts and every file you uploaded.
        </p>
        {downloadError && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {downloadError}
          </p>
        )}
      </div>

      <h3 className="mt-6 font-semibold text-ink">Delete my account</h3>
      <p className="mt-2 text-sm text-slate-700">
        Your name, e-mail addresses, phone, addresses, picture, bank details and the files only you need are erased,
        your name also from the other party&apos;s notifications and e-mails about your jobs together. Invoices,
        receipts and payment records, which the law makes us keep, stay without your name.
      </p>
      <Button variant="danger" className="mt-3" onClick={() => setConfirming(true)}>
        <Trash2 aria-hidden className="size-4" /> Delete my account
      </Button>
      <DeleteAccountDialog open={confirming} onClose={() => setConfirming(false)} />
    </section>
  );
}

/** Asked only when the dialog opens (a profile view costs no extra request): what blocks, else the password. */
function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const check = useDeletionCheck(open);
  const blockers = check.data?.blockers ?? [];
  const remove = useDeleteAccount();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<DeleteAccountInput>({ resolver: zodResolver(deleteAccountInput), defaultValues: { password: '' } });
  const close = () => {
    reset();
    setAlert(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      await remove.mutateAsync(values);
      clearSession();
      // A full load, not a client-side move: nothing of the deleted account stays in this tab's memory,
      // and no guard of the page being left can redirect first.
      window.location.replace(paths.accountDeleted());
    } catch (err) {
      setAlert(getErrorMessage(err));
    }
  });
  return (
    <Modal open={open} onClose={close} title="Delete your account?" tone="error">
      {check.isPending ? (
        <Loading label="Checking your account..." />
      ) : check.isError ? (
        <p role="alert" className="text-red-700">
          {getErrorMessage(check.error)}
        </p>
      ) : blockers.length ? (
        <div role="status">
          <p className="font-semibold">Your account cannot be deleted yet:</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {blockers.map((b) => (
              <li key={b.message} className="wrap-anywhere">
                {b.message}
              </li>
            ))}
          </ul>
          <div className="mt-4 flex justify-end">
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-3">
          <p>
            This cannot be undone. You will be signed out everywhere and your e-mail address can be used to sign up
            again.
          </p>
          <PasswordField
            label="Your password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <FormError message={alert} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={isSubmitting}>
              Delete permanently
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
