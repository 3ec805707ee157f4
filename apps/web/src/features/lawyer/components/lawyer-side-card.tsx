import { Link } from 'react-router';
import { UserRound } from 'lucide-react';
import { profileCompleteness } from '@legalmarket/contracts/lawyers';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { useSession } from '@/lib/use-session';
import { useLawyerProfile } from '../api/get-lawyer-profile';

/**
 * Side card of the available jobs and job pages: picture, name, Legal Practitioner, how much of the
 * profile is filled in (the spec's bar was fixed at 60 percent; docs/decisions/0302) and three links.
 */
export function LawyerSideCard() {
  const session = useSession();
  const isLawyer = session?.userType === 'lawyer';
  const profile = useLawyerProfile(isLawyer ? session.userId : undefined, false);
  const p = profile.data;
  const share = p ? profileCompleteness(p) : 0;
  const link =
    'flex min-h-11 items-center justify-center rounded-md border border-brand px-3 text-sm font-semibold text-brand hover:bg-brand/5';
  if (!isLawyer) return null;
  return (
    <aside aria-label="Your profile" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col items-center text-center">
        {p?.profileImage?.url ? (
          <img src={p.profileImage.url} alt="" className="size-20 rounded-full object-cover" />
        ) : (
          <span className="flex size-20 items-center justify-center rounded-full bg-sand text-brand">
            <UserRound className="size-10" aria-hidden />
          </span>
        )}
        <p className="mt-3 text-lg font-semibold text-ink">{p?.name ?? (profile.isLoading ? 'Loading...' : '')}</p>
        <p className="text-sm text-slate-600">Legal Practitioner</p>
      </div>
      {/* A failed read is no empty profile: "Profile Status 0%" would send the lawyer to fill in what is there. */}
      {profile.isError && !p ? (
        <div className="mt-4 text-sm text-red-800">
          <p role="alert">Your profile could not be loaded. {getErrorMessage(profile.error)}</p>
          <button
            type="button"
            className="mt-1 min-h-11 font-semibold underline disabled:opacity-60"
            disabled={profile.isFetching}
            onClick={() => void profile.refetch()}
          >
            Load your profile again
          </button>
        </div>
      ) : (
        <div className="mt-4">
          <div className="flex justify-between text-sm">
            <span id="profile-status-label" className="font-medium text-slate-800">
              Profile Status
            </span>
            <span className="text-slate-600">{share}%</span>
          </div>
          <div
            role="progressbar"
            aria-labelledby="profile-status-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={share}
            className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-brand" style={{ width: `${share}%` }} />
          </div>
        </div>
      )}
      <nav aria-label="Lawyer shortcuts" className="mt-5 grid gap-2">
        <Link to={paths.lawyerProfile(session.userId)} className={link}>
          Complete Profile
        </Link>
        <Link to={paths.lawyerGetPaid()} className={link}>
          Get Paid
        </Link>
        <Link to={paths.lawyerDashboard()} className={link}>
          Dashboard
        </Link>
        <Link to={paths.twoFactor()} className={link}>
          Two-factor authentication
        </Link>
      </nav>
    </aside>
  );
}
