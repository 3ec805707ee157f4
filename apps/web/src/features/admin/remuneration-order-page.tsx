import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { FileText } from 'lucide-react';
import { REMUNERATION_ORDER_MAX_BYTES, remunerationOrderUpload } from '@legalmarket/contracts/admin';
import { paths } from '@/lib/paths';
import { Button } from '@/components/button';
import { ErrorState, Loading, SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { REMUNERATION_ORDER_URL, usePublishedOrder, useUploadOrder } from './api/remuneration-order';

const MB = 1024 * 1024;
const megabytes = (n: number) => `${Math.max(0.1, Math.round((n / MB) * 10) / 10)} MB`;

type OrderUploadValues = z.input<typeof remunerationOrderUpload>;

/**
 * /admin/remuneration-order: uploads or replaces the Legal Practitioners Remuneration Order 2023 PDF
 * that the public page embeds (docs/decisions/0900-spec-gaps-found-by-an-audit.md, item 5).
 */
export default function AdminRemunerationOrderPage() {
  const id = useId();
  const published = usePublishedOrder();
  const upload = useUploadOrder();
  const input = useRef<HTMLInputElement | null>(null);
  const [progress, setProgress] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const { control, handleSubmit, reset, trigger, clearErrors, watch, formState } = useForm<
    OrderUploadValues,
    unknown,
    z.output<typeof remunerationOrderUpload>
  >({ resolver: zodResolver(remunerationOrderUpload), defaultValues: { file: null } });
  const file = watch('file');

  // On a refusal the form focuses the file input (its ref is the Controller's).
  const submit = handleSubmit(
    (v) => {
      setDone(null);
      setProgress(0);
      upload.mutate(
        { file: v.file, onProgress: setProgress },
        {
          onSuccess: (res) => {
            setDone(res.message || 'Remuneration Order uploaded');
            reset();
            if (input.current) input.current.value = '';
          },
        },
      );
    },
    () => setDone(null),
  );

  const available = published.data?.available;
  const error = formState.errors.file?.message ?? (upload.isError ? getErrorMessage(upload.error) : null);
  return (
    <AdminLayout title="Remuneration Order">
      <div className="max-w-2xl space-y-6">
        <section
          aria-labelledby={`${id}-current`}
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
          aria-busy={published.isFetching || undefined}
        >
          <h2 id={`${id}-current`} className="heading-card text-ink">
            Published PDF
          </h2>
          {published.isPending ? (
            <Loading label="Checking the published PDF..." />
          ) : published.isError ? (
            <ErrorState message={getErrorMessage(published.error)} onRetry={() => void published.refetch()} />
          ) : available ? (
            <div className="mt-2 space-y-2 text-sm">
              <p>
                Visitors see the Legal Practitioners Remuneration Order 2023
                {published.data.size ? ` (${megabytes(published.data.size)})` : ''} on its page.
              </p>
              <p className="flex flex-wrap gap-x-4">
                <a
                  href={REMUNERATION_ORDER_URL}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand underline underline-offset-2"
                >
                  <FileText aria-hidden className="size-4" /> Open the PDF
                </a>
                <Link
                  to={paths.remunerationOrder()}
                  className="inline-flex min-h-11 items-center font-semibold text-brand underline underline-offset-2"
                >
                  See the public page
                </Link>
              </p>
            </div>
          ) : (
            <p className="mt-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              No PDF has been uploaded yet. Visitors of the Remuneration Order page are told it is not available.
            </p>
          )}
        </section>

        <form
          onSubmit={submit}
          noValidate
          className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
          aria-labelledby={`${id}-upload`}
        >
          <h2 id={`${id}-upload`} className="heading-card text-ink">
            {available ? 'Replace the PDF' : 'Upload the PDF'}
          </h2>
          <div>
            <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium text-slate-800">
              Remuneration Order (PDF)
            </label>
            <Controller
              control={control}
              name="file"
              render={({ field }) => (
                <input
                  ref={(el) => {
                    input.current = el;
                    field.ref(el);
                  }}
                  id={`${id}-file`}
                  type="file"
                  accept="application/pdf,.pdf"
                  aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                  aria-invalid={error ? true : undefined}
                  disabled={upload.isPending}
                  onBlur={field.onBlur}
                  onChange={(e) => {
                    const f = e.target.files?.[0] ?? null;
                    field.onChange(f);
                    setDone(null);
                    upload.reset();
                    // Say at once what is wrong with a chosen file; choosing none clears the message.
                    if (f) void trigger('file');
                    else clearErrors('file');
                  }}
                  className="block w-full min-w-0 text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-brand file:bg-white file:px-4 file:font-semibold file:text-brand"
                />
              )}
            />
            <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
              PDF only, up to {REMUNERATION_ORDER_MAX_BYTES / MB} MB. It replaces the published one at once.
            </p>
          </div>
          {upload.isPending && (
            <progress
              className="h-2 w-full"
              max={100}
              value={Math.round(progress * 100)}
              aria-label={`Uploading ${file?.name ?? 'the PDF'}`}
            />
          )}
          <div id={`${id}-error`}>
            <FormError message={error} />
          </div>
          {done && <SuccessNote>{done}</SuccessNote>}
          <Button type="submit" loading={upload.isPending}>
            {available ? 'Replace PDF' : 'Upload PDF'}
          </Button>
        </form>
      </div>
    </AdminLayout>
  );
}
