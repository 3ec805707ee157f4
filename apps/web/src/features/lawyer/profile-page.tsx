import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useParams } from 'react-router';
import { Camera, Pencil, UserRound } from 'lucide-react';
import { EXPERTISE, LAWYER_EDITABLE_FIELDS, LIMITS } from '@legalmarket/contracts/constants';
import { emailChanging, profileEditForm, scnChanging } from '@legalmarket/contracts/profiles';
import { messages } from '@legalmarket/contracts/messages';
import { localPhoneNumber } from '@legalmarket/contracts/common';
import { Button } from '@/components/button';
import { CurrentPasswordField } from '@/components/current-password-field';
import { ErrorState, Loading } from '@/components/feedback';
import { Field, TextArea } from '@/components/field';
import { Modal } from '@/components/modal';
import { PhoneField } from '@/components/phone-field';
import { SectionBoundary } from '@/components/section-boundary';
import { UploadProgress } from '@/components/upload-progress';
import { useFormDraft } from '@/lib/drafts';
import { useFocusOnSwitch } from '@/lib/focus-on-switch';
import { useSession } from '@/lib/use-session';
import { fileProblem } from '@/lib/file-problem';
import { currentUploadLimits } from '@/lib/public-config';
import { getErrorMessage } from '@/lib/http';
import { useLawyerProfile, type LawyerProfile } from './api/get-lawyer-profile';
import { useUpdateProfile, type ProfileChanges } from './api/update-profile';
import { VerificationBanner } from './components/verification-banner';
import { LawyerReviewsSection } from '@/features/reviews/lawyer-reviews';
import { DataProtectionSection } from '@/features/privacy/data-protection-section';

/**
 * /lawyer/profile/{lawyerId}: the lawyer's own profile (GET /api/userprofile; the server refuses any other
 * id), or any lawyer's when an admin looks (GET /api/lawyer/{id}). Only the lawyer edits.
 */
export default function LawyerProfilePage() {
  const params = useParams();
  const session = useSession();
  const asAdmin = session?.userType === 'admin';
  const id = params.lawyerId ?? session?.userId;
  const profile = useLawyerProfile(id, asAdmin);
  const [editing, setEditing] = useState(false);
  const canEdit = !asAdmin && profile.data?._id === session?.userId;
  useFocusOnSwitch(editing && canEdit, { on: 'edit-title', off: 'profile-edit-button' });

  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <SectionBoundary>
        {profile.isLoading ? (
          <Loading label="Loading profile..." />
        ) : profile.isError ? (
          <ErrorState message={getErrorMessage(profile.error)} onRetry={() => profile.refetch()} />
        ) : profile.data ? (
          <>
            {canEdit && !profile.data.verified && <VerificationBanner />}
            {editing && canEdit ? (
              <ProfileForm profile={profile.data} onDone={() => setEditing(false)} />
            ) : (
              <ProfileView profile={profile.data} canEdit={canEdit} onEdit={() => setEditing(true)} />
            )}
            <LawyerReviewsSection lawyerId={profile.data._id} />
            {canEdit && !editing && <DataProtectionSection />}
          </>
        ) : null}
      </SectionBoundary>
    </div>
  );
}

function Avatar({ url, size = 'size-28' }: { url?: string | null; size?: string }) {
  return url ? (
    <img src={url} alt="Profile picture" className={`${size} rounded-full object-cover`} />
  ) : (
    <span className={`flex ${size} items-center justify-center rounded-full bg-sand text-brand`}>
      <UserRound className="size-1/2" aria-hidden />
    </span>
  );
}

function ProfileView({
  profile: p,
  canEdit,
  onEdit,
}: {
  profile: LawyerProfile;
  canEdit: boolean;
  onEdit: () => void;
}) {
  const rows: Array<[string, string | null]> = [
    ['Email', p.officialEmail],
    ['SCN', p.scn],
    ['Bio', p.yourBio],
    ['Year of call', p.yearOfCall],
    ['Phone number', p.phoneNumber],
    ['Alternate email', p.alternativeEmailAddress],
  ];
  return (
    <article aria-labelledby="profile-name" className="grid gap-6 md:grid-cols-[16rem_1fr]">
      <div className="flex flex-col items-center rounded-xl border border-slate-200 bg-white p-5 text-center shadow-sm">
        <Avatar url={p.profileImage?.url} />
        <h1 id="profile-name" className="heading-title mt-3 text-ink">
          {p.name}
        </h1>
        <p className="text-sm text-slate-600">
          Legal Practitioner
          {p.verified ? ' · Verified' : p.verificationRejection ? ' · Verification declined' : ' · Not verified yet'}
        </p>
        {canEdit && (
          <Button id="profile-edit-button" variant="secondary" className="mt-4" onClick={onEdit}>
            <Pencil className="size-4" aria-hidden /> Update your details
          </Button>
        )}
      </div>
      <div className="space-y-4">
        <section
          aria-labelledby="expertise-title"
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="expertise-title" className="heading-card text-ink">
            Expertise
          </h2>
          {p.areasOfPractise.length ? (
            <ul className="mt-2 flex flex-wrap gap-2">
              {p.areasOfPractise.map((a) => (
                <li key={a} className="rounded-full bg-brand/10 px-3 py-1 text-sm font-medium text-brand">
                  {a}
                </li>
              ))}
            </ul>
          ) : canEdit ? (
            <Button variant="secondary" className="mt-2" onClick={onEdit}>
              Add Expertise
            </Button>
          ) : (
            <p className="mt-2 text-sm text-slate-600">No areas of practice yet.</p>
          )}
        </section>
        <section aria-labelledby="details-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="details-title" className="heading-card text-ink">
            Details
          </h2>
          <dl className="mt-2 divide-y divide-slate-100">
            {rows.map(([label, value]) => (
              <div key={label} className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr]">
                <dt className="text-sm font-medium text-slate-600">{label}</dt>
                <dd className="whitespace-pre-line wrap-anywhere text-ink">{value || '—'}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </article>
  );
}

type Values = Record<(typeof LAWYER_EDITABLE_FIELDS)[number] | 'currentPassword', string>;

function ProfileForm({ profile: p, onDone }: { profile: LawyerProfile; onDone: () => void }) {
  const [progress, setProgress] = useState(0);
  const update = useUpdateProfile(p._id, setProgress);
  const fileInput = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const [areas, setAreas] = useState<string[]>(p.areasOfPractise);
  const form = useForm<Values>({
    resolver: zodResolver(profileEditForm(p.officialEmail, LAWYER_EDITABLE_FIELDS, p)),
    defaultValues: {
      officialEmail: p.officialEmail,
      scn: p.scn ?? '',
      yourBio: p.yourBio ?? '',
      yearOfCall: p.yearOfCall ?? '',
      phoneNumber: p.phoneNumber,
      alternativeEmailAddress: p.alternativeEmailAddress ?? '',
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
  const [result, setResult] = useState<{ ok: boolean; text: string; note?: string } | null>(null);
  const changingEmail = emailChanging(p.officialEmail, watch('officialEmail'));
  const reverifying = p.verified && scnChanging(p.scn, watch('scn'));

  useEffect(() => {
    if (!image) return;
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const toggle = (area: string) =>
    setAreas((old) => (old.includes(area) ? old.filter((a) => a !== area) : [...old, area]));

  const submit = handleSubmit(
    ({ currentPassword, ...v }) => {
      const changes: ProfileChanges = {
        ...v,
        phoneNumber: localPhoneNumber(v.phoneNumber),
        areasOfPractise: areas,
        profileImage: image,
        currentPassword: changingEmail ? currentPassword : undefined,
      };
      setProgress(0);
      update.mutate(changes, {
        onSuccess: (res) => {
          clearBio();
          setResult({ ok: true, text: res.message, note: changingEmail ? messages.checkNewInbox : undefined });
        },
        onError: (err) => setResult({ ok: false, text: getErrorMessage(err) }),
      });
    },
    // The missing password is told in the result dialog, as a refused save is.
    (invalid) => {
      if (invalid.currentPassword?.message) setResult({ ok: false, text: invalid.currentPassword.message });
    },
  );
  const closeResult = () => {
    const ok = result?.ok;
    setResult(null);
    if (ok) onDone();
  };
  const left = LIMITS.bioHint - watch('yourBio').length;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="edit-title"
    >
      <h1 id="edit-title" tabIndex={-1} className="heading-title text-ink">
        Update your details
      </h1>
      <div className="mt-4 flex items-center gap-4">
        <div className="relative">
          <Avatar url={preview ?? p.profileImage?.url} size="size-24" />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            className="absolute -bottom-1 -right-1 flex size-11 items-center justify-center rounded-full bg-brand text-white shadow hover:bg-brand-dark"
            aria-label="Upload a profile picture"
          >
            <Camera className="size-5" aria-hidden />
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            tabIndex={-1}
            aria-hidden
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              // A picture the server would refuse is not taken: the one shown before stays (decision 2291).
              const problem = f && fileProblem(f, 'image', currentUploadLimits());
              setImageProblem(problem ? `${f.name}: ${problem}` : null);
              e.target.value = '';
              if (!problem) setImage(f);
            }}
          />
        </div>
        <p className="text-sm text-slate-600">{image ? image.name : 'PNG, JPEG or WebP, up to 5 MB.'}</p>
      </div>
      {imageProblem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {imageProblem}
        </p>
      )}

      <fieldset className="mt-6">
        <legend className="text-sm font-medium text-slate-800">Expertise</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {EXPERTISE.map((area) => {
            const on = areas.includes(area);
            return (
              <button
                key={area}
                type="button"
                aria-pressed={on}
                onClick={() => toggle(area)}
                className={`min-h-11 rounded-full border px-3 text-sm font-medium ${
                  on ? 'border-brand bg-brand text-white' : 'border-slate-300 text-slate-700 hover:bg-slate-50'
                }`}
              >
                {area}
              </button>
            );
          })}
        </div>
      </fieldset>

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Field
          label="Email Address"
          type="email"
          autoComplete="email"
          error={errors.officialEmail?.message}
          {...register('officialEmail')}
        />
        {changingEmail && (
          <CurrentPasswordField
            aria-invalid={errors.currentPassword ? true : undefined}
            {...register('currentPassword')}
          />
        )}
        <Field
          label="SCN"
          error={errors.scn?.message}
          hint={reverifying ? messages.scnChangeNeedsVerification : undefined}
          {...register('scn')}
        />
        <TextArea
          className="sm:col-span-2"
          label="Your Bio"
          {...register('yourBio')}
          hint={left >= 0 ? `${left} characters left` : `${-left} characters over the suggested length`}
        />
        <Field
          label="Year of Call"
          inputMode="numeric"
          error={errors.yearOfCall?.message}
          {...register('yearOfCall')}
        />
        <PhoneField label="Phone Number" error={errors.phoneNumber?.message} {...register('phoneNumber')} />
        <Field
          label="Alternate Email"
          type="email"
          error={errors.alternativeEmailAddress?.message}
          {...register('alternativeEmailAddress')}
        />
      </div>
      {update.isPending && image && (
        <div className="mt-6">
          <UploadProgress name={image.name} fraction={progress} />
        </div>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button
          variant="ghost"
          onClick={() => {
            clearBio();
            onDone();
          }}
          disabled={update.isPending}
        >
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
      </div>
      <Modal
        open={result !== null}
        title={result?.ok ? 'Success' : 'Could not save'}
        tone={result?.ok ? 'success' : 'error'}
        onClose={closeResult}
        footer={<Button onClick={closeResult}>Close</Button>}
      >
        <p>{result?.text}</p>
        {result?.note && <p className="mt-2">{result.note}</p>}
      </Modal>
    </form>
  );
}
