import { Hourglass } from 'lucide-react';
import { messages } from '@legalmarket/contracts/messages';
import { useSession } from '@/lib/use-session';
import { useLawyerProfile } from '../api/get-lawyer-profile';

/**
 * Told to a signed-in lawyer who is not verified yet: that verification is pending and what happens
 * next. Nothing shows while the profile loads or once the lawyer is verified.
 */
export function VerificationBanner({ className = '' }: { className?: string }) {
  const session = useSession();
  const own = session?.userType === 'lawyer' ? session.userId : undefined;
  const profile = useLawyerProfile(own, false);
  if (!profile.data || profile.data.verified) return null;
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
