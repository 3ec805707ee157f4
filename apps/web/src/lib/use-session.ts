import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from '@/lib/session';

let cached: { key: string; value: Session | null } = { key: '', value: null };
function snapshot(): Session | null {
  const s = getSession();
  const key = s ? `${s.userToken}|${s.userType}|${s.userId}` : '';
  if (key !== cached.key) cached = { key, value: s };
  return cached.value;
}

/** The stored session, re-rendering on login, logout and changes in other tabs. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, snapshot, () => null);
}
