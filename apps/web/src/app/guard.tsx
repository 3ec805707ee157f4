import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import type { UserType } from '@legalmarket/contracts';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';

const WHO: Record<UserType, string> = { company: 'companies', lawyer: 'lawyers', admin: 'admins' };

/**
 * The route guard of spec section 6: no stored role goes to /; an admin with a stored token passes
 * every guarded route; a signed-in user of another role is told whose page it is (`'wrong-role'`,
 * issue 18: sending them to /login looked like being logged out); a role without a token goes to /login.
 */
export function guardTarget(session: { userType: string; userToken: string } | null, allowed: readonly UserType[]) {
  if (!session?.userType) return '/';
  if (session.userType === 'admin' && session.userToken) return null;
  if ((allowed as readonly string[]).includes(session.userType)) return null;
  return session.userToken && Object.hasOwn(WHO, session.userType) ? 'wrong-role' : '/login';
}
const DASHBOARD: Record<UserType, () => string> = {
  company: paths.companyDashboard,
  lawyer: paths.lawyerDashboard,
  admin: paths.adminDashboard,
};

/** "This page is for lawyers", with the way back to the signed-in user's own dashboard. */
function WrongRole({ allowed, userType }: { allowed: readonly UserType[]; userType: UserType }) {
  const whom = allowed.map((t) => WHO[t]).join(' and ');
  return (
    <section aria-labelledby="wrong-role-title" className="mx-auto max-w-xl px-4 py-16 text-center">
      <ShieldAlert className="mx-auto size-10 text-brand" aria-hidden />
      <h1 id="wrong-role-title" className="heading-title mt-4 text-ink">
        This page is for {whom}
      </h1>
      <p className="mt-2 text-slate-600">
        You are signed in as {userType === 'admin' ? 'an admin' : `a ${userType}`}, so it is not open to you.
      </p>
      <Link
        to={DASHBOARD[userType]()}
        className="mt-6 inline-flex min-h-11 items-center rounded-lg bg-brand px-5 font-semibold text-white hover:bg-brand-dark"
      >
        Go to your dashboard
      </Link>
    </section>
  );
}

export function RequireRole({ allowed, children }: { allowed: readonly UserType[]; children: ReactNode }) {
  const session = useSession();
  const target = guardTarget(session, allowed);
  if (target === 'wrong-role') return <WrongRole allowed={allowed} userType={session!.userType as UserType} />;
  if (target) return <Navigate to={target} replace />;
  return <>{children}</>;
}
