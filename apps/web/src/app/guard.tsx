import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { UserType } from '@legalmarket/contracts';
import { useSession } from '@/lib/use-session';

/**
 * The route guard of spec section 6: no stored role goes to /; an admin with a stored token passes
 * every guarded route; otherwise the role must be allowed, else /login.
 */
export function guardTarget(session: { userType: string; userToken: string } | null, allowed: readonly UserType[]) {
  if (!session?.userType) return '/';
  if (session.userType === 'admin' && session.userToken) return null;
  if ((allowed as readonly string[]).includes(session.userType)) return null;
  return '/login';
}

export function RequireRole({ allowed, children }: { allowed: readonly UserType[]; children: ReactNode }) {
  const session = useSession();
  const target = guardTarget(session, allowed);
  if (target) return <Navigate to={target} replace />;
  return <>{children}</>;
}
