import type { UserType } from '@legalmarket/contracts';

/** The browser-stored session of the spec: userToken, userType, userId in localStorage. */
export interface Session {
  userToken: string;
  userType: UserType;
  userId: string;
}

const KEYS = ['userToken', 'userType', 'userId'] as const;
type Listener = () => void;
const listeners = new Set<Listener>();

export function getSession(): Session | null {
  const userToken = localStorage.getItem('userToken');
  const userType = localStorage.getItem('userType') as UserType | null;
  const userId = localStorage.getItem('userId');
  // Logged in means both userType and userToken are stored.
  if (!userToken || !userType) return null;
  return { userToken, userType, userId: userId ?? '' };
}

export function setSession(s: Session) {
  localStorage.setItem('userToken', s.userToken);
  localStorage.setItem('userType', s.userType);
  localStorage.setItem('userId', s.userId);
  listeners.forEach((l) => l());
}

/** Where lib/drafts.ts keeps what a user is typing (decision 2226). */
export const DRAFT_PREFIX = 'draft:';

/**
 * Ends the session in this browser and drops every draft with it, so the next person on a shared phone
 * finds none. `keepDrafts` when the server ended it (a 401): the same user signs in again and finds them.
 */
export function clearSession({ keepDrafts = false } = {}) {
  KEYS.forEach((k) => localStorage.removeItem(k));
  for (let i = localStorage.length - 1; !keepDrafts && i >= 0; i--) {
    const k = localStorage.key(i);
    if (k?.startsWith(DRAFT_PREFIX)) localStorage.removeItem(k);
  }
  listeners.forEach((l) => l());
}

export function subscribeSession(l: Listener) {
  listeners.add(l);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || (KEYS as readonly string[]).includes(e.key)) l();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}
