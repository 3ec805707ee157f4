import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useParams } from 'react-router';
import { Camera, Pencil, UserRound } from 'lucide-react';
import { CLEARABLE_PROFILE_FIELDS, COMPANY_EDITABLE_FIELDS, DELAYS_MS, LIMITS } from '@legalmarket/contracts/constants';
import { localPhoneNumber } from '@legalmarket/contracts/common';
import { emailChanging, profileEditForm } from '@legalmarket/contracts/profiles';
import { messages } from '@legalmarket/contracts/messages';
import { useSession } from '@/lib/use-session';
import { Button } from '@/components/button';
import { CurrentPasswordField } from '@/components/current-password-field';
import { ErrorState, Loading } from '@/components/feedback';
import { Field, FormError, TextArea } from '@/components/field';
import { Modal } from '@/components/modal';
import { PhoneField } from '@/components/phone-field';
import { SectionBoundary } from '@/components/section-boundary';
import { UploadProgress } from '@/components/upload-progress';
import { fileProblem } from '@/lib/file-problem';
import { currentUploadLimits } from '@/lib/public-config';
import { getErrorMessage, HttpError } from '@/lib/http';
import { useFormDraft } from '@/lib/drafts';
import { useFocusOnSwitch } from '@/lib/focus-on-switch';
import { paths } from '@/lib/paths';
import { useCompanyProfile, useUpdateProfile, type CompanyProfile } from './api/profile';
import { DataProtectionSection } from '@/features/privacy/data-protection-section';

const FIELDS = [
  ['officialEmail', 'Email Address', 'email'],
  ['website', 'Website', 'url'],
  ['phoneNumber', 'Phone Number', 'tel'],
  ['alternativeEmailAddress', 'Alternate Email', 'email'],
  ['officeAddress', 'Office Address', 'text'],
] as const;
type Values = Record<(typeof COMPANY_EDITABLE_FIELDS)[number] | 'currentPassword', string>;

function Row({ label, value, className = '' }: { label: string; value?: string | null; className?: string }) {
  return (
    <div className={`py-2 ${className}`}>
      <dt className="text-xs font-semibold text-slate-500 uppercase">{label}</dt>
      <dd className="wrap-anywhere text-ink">
        {value?.trim() ? value : <span className="text-slate-500">Not added yet</span>}
      </dd>
    </div>
  );
}

function Avatar({ url, name }: { url?: string | null; name: string }) {
  return url ? (
    <img
      src={url}
      alt={`${name} profile picture`}
      className="size-24 rounded-full border border-slate-200 object-cover"
    />
  ) : (
    <span className="flex size-24 items-center justify-center rounded-full bg-slate-100 text-slate-400" aria-hidden>
      <UserRound className="size-12" />
    </span>
  );
}

function EditForm({
  profile,
  onCancel,
  onSaved,
}: {
  profile: CompanyProfile;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const [progress, setProgress] = useState(0);
  const update = useUpdateProfile(profile._id, setProgress);
  const fileInput = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(profileEditForm(profile.officialEmail ?? '', COMPANY_EDITABLE_FIELDS, profile)),
    defaultValues: {
      officialEmail: profile.officialEmail ?? '',
      website: profile.website ?? '',
      phoneNumber: profile.phoneNumber ?? '',
      alternativeEmailAddress: profile.alternativeEmailAddress ?? '',
      officeAddress: profile.officeAddress ?? '',
      yourBio: profile.yourBio ?? '',
      currentPassword: '',
    },
  });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = form;
  // The bio is kept while written: a reload or a dropped tab loses nothing; Cancel drops it (decision 2226).
  const clearBio = useFormDraft('bio', form, ['yourBio']);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [emailSent, setEmailSent] = useState(false);
  const changingEmail = emailChanging(profile.officialEmail, watch('officialEmail'));
  // The server's refusal speaks of what was sent: it goes as soon as a field changes.
  useEffect(() => {
    const sub = watch(() => setError(null));
    return () => sub.unsubscribe();
  }, [watch]);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  useEffect(() => {
    // "Check your new inbox" stays until it is closed; a plain save closes by itself.
    if (!done || emailSent) return;
    const t = window.setTimeout(onSaved, DELAYS_MS.afterSuccess);
    return () => window.clearTimeout(t);
  }, [done, emailSent, onSaved]);

  const submit = handleSubmit(
    ({ currentPassword, ...values }) => {
      // Non-empty fields are sent (spec section 5), and a saved optional one also when emptied, which
      // clears it; the phone number goes in its 11-digit local form.
      const form = new FormData();
      for (const k of COMPANY_EDITABLE_FIELDS) {
        const v = k === 'phoneNumber' ? localPhoneNumber(values[k]) : values[k].trim();
        if (v || ((CLEARABLE_PROFILE_FIELDS as readonly string[]).includes(k) && profile[k])) form.append(k, v);
      }
      if (changingEmail) form.append('currentPassword', currentPassword);
      if (image) form.append('profileImage', image);
      setProgress(0);
      update.mutate(form, {
        onSuccess: () => {
          clearBio();
          setEmailSent(changingEmail);
          setDone(true);
        },
        onError: (err) => setError(getErrorMessage(err)),
      });
    },
    () => setError(null),
  );

  const left = LIMITS.bioHint - watch('yourBio').length;
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-labelledby="company-edit-title">
      {/* The page's heading while editing: the view's (the company's name) goes with the view. */}
      <h1 id="company-edit-title" tabIndex={-1} className="heading-title text-ink">
        Update your details
      </h1>
      <div className="flex items-center gap-4">
        <div className="relative">
          <Avatar url={preview ?? profile.profileImage?.url} name={profile.companyName ?? profile.name} />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            aria-label="Upload a profile picture"
            className="absolute -right-1 -bottom-1 flex size-11 items-center justify-center rounded-full bg-brand text-white shadow hover:bg-brand-dark"
          >
            <Camera aria-hidden className="size-5" />
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            tabIndex={-1}
            aria-hidden
            data-testid="profile-image-input"
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              // A picture the server would refuse is not taken: the one shown before stays (decision 2291).
              const problem = f && fileProblem(f, 'image', currentUploadLimits());
              setImageProblem(problem ? `${f.name}: ${problem}` : null);
              e.target.value = '';
              if (problem) return;
              setImage(f);
              setPreview(f ? URL.createObjectURL(f) : null);
            }}
          />
        </div>
        {image && <p className="text-sm text-slate-600">New picture: {image.name}</p>}
      </div>
      {imageProblem && (
        <p role="alert" className="text-sm text-red-700">
          {imageProblem}
        </p>
      )}
      {FIELDS.map(([k, label, type]) =>
        k === 'phoneNumber' ? (
          <PhoneField key={k} label={label} error={errors.phoneNumber?.message} {...register(k)} />
        ) : (
          <Field key={k} label={label} type={type} error={errors[k]?.message} {...register(k)} />
        ),
      )}
      {changingEmail && (
        <CurrentPasswordField error={errors.currentPassword?.message} {...register('currentPassword')} />
      )}
      <TextArea label="Your Bio" {...register('yourBio')} hint={`${Math.max(0, left)} characters left`} />
      {update.isPending && image && <UploadProgress name={image.name} fraction={progress} />}
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        <Button
          variant="secondary"
          onClick={() => {
            clearBio();
            onCancel();
          }}
          disabled={update.isPending}
        >
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
      </div>
      <Modal open={done} title={messages.profileUpdated} tone="success" onClose={onSaved}>
        {emailSent && <p>{messages.checkNewInbox}</p>}
      </Modal>
    </form>
  );
}

/** /company/profile/{companyId} (spec screen 12); admins view any company. */
export default function CompanyProfilePage() {
  const { companyId = '' } = useParams();
  const session = useSession();
  const asAdmin = session?.userType === 'admin';
  const profile = useCompanyProfile(companyId, asAdmin);
  const [editing, setEditing] = useState(false);
  useFocusOnSwitch(editing, { on: 'company-edit-title', off: 'profile-edit-button' });

  let body;
  if (profile.isPending) body = <Loading label="Loading profile..." />;
  else if (profile.isError || profile.data?._id !== companyId) {
    const denied =
      !profile.isError || (profile.error instanceof HttpError && [400, 403].includes(profile.error.status));
    body = denied ? (
      <ErrorState message={messages.noPermissionProfile} />
    ) : (
      <ErrorState message={getErrorMessage(profile.error)} onRetry={() => void profile.refetch()} />
    );
  } else {
    const p = profile.data;
    const canEdit = !asAdmin && session?.userId === p._id;
    body = editing ? (
      <EditForm profile={p} onCancel={() => setEditing(false)} onSaved={() => setEditing(false)} />
    ) : (
      <>
        <div className="flex flex-wrap items-center gap-4">
          <Avatar url={p.profileImage?.url} name={p.companyName ?? p.name} />
          <div className="min-w-0 flex-1">
            <h1 className="heading-title wrap-anywhere text-ink">{p.companyName ?? p.name}</h1>
            {p.contactName && <p className="text-slate-600">{p.contactName}</p>}
          </div>
          {canEdit && (
            <Button id="profile-edit-button" variant="secondary" onClick={() => setEditing(true)}>
              <Pencil aria-hidden className="size-4" /> Update your details
            </Button>
          )}
        </div>
        <dl className="mt-6 grid gap-x-8 sm:grid-cols-2">
          <Row label="Email" value={p.officialEmail} />
          <Row label="Website" value={p.website} />
          <Row label="Phone" value={p.phoneNumber} />
          <Row label="Physical address" value={p.officeAddress} />
          <Row label="Alternate email" value={p.alternativeEmailAddress} />
          {/* A <dl> holds only <div> groups of <dt> and <dd>: the wide row is the group itself. */}
          <Row label="Bio" value={p.yourBio} className="sm:col-span-2" />
        </dl>
        {canEdit && (
          <Link
            to={paths.twoFactor()}
            className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
          >
            Two-factor authentication
          </Link>
        )}
        {canEdit && <DataProtectionSection />}
      </>
    );
  }
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <SectionBoundary>{body}</SectionBoundary>
      </div>
    </section>
  );
}
