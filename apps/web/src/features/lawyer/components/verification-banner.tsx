import { CircleAlert, Hourglass } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { messages } from '@legalmarket/contracts/messages';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { useLawyerProfile } from '../api/get-lawyer-profile';

/**
 * Told to a signed-in lawyer who is not verified yet: that verification is pending and what happens
 * next, or, while an admin's refusal stands (decision 1860), the reason and how to be checked again.
 * Nothing shows while the profile loads or once the lawyer is verified.
 */
export function VerificationBanner({ className = '' }: { className?: string }) {
  const session = useSession();
  const own = session?.userType === 'lawyer' ? session.userId : undefined;
  const profile = useLawyerProfile(own, false);
  const { pathname } = useLocation();
  if (!profile.data || profile.data.verified) return null;
  const rejection = profile.data.verificationRejection;
  if (rejection) {
    const profilePath = paths.lawyerProfile(profile.data._id);
    return (
      <div
        role="status"
        className={`mb-6 flex gap-3 rounded-xl border border-rose-300 bg-rose-50 p-4 text-rose-950 ${className}`}
      >
        <CircleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div>
          <p className="font-semibold">{messages.verificationDeclined}</p>
          <p className="mt-1 text-sm whitespace-pre-line">{rejection.reason}</p>
          <p className="mt-1 text-sm">
            {messages.verificationDeclinedNext}
            {pathname !== profilePath && (
              <>
                {' '}
                <Link to={profilePath} className="font-semibold underline">
                  Update your details
                </Link>
              </>
            )}
          </p>
        </div>
      </div>
    );
  }
  return (
    <div
      role="status"
      className={`mb-6 flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 ${className}`}
    >
      <Hourglass className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div>
        <p className="font-semibold">{messages.verificationPending}</p>
        <p className="mt-1 text-sm">{messages.verificationNext}</p>
      </div>
    </div>
  );
}
