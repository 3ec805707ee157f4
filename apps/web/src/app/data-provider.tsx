import { createContext, useContext, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { onClearData } from '@/lib/data-cache';
import { retryQuery } from '@/lib/query-retry';
import { getSession, subscribeSession, type Session } from '@/lib/session';
import { getOwnProfile, ownProfileKey } from '@/lib/own-profile';
import { cartCountQuery } from '@/features/cart/cart-count';

/** One query cache for the whole session, loaded with the first page that reads server data. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: retryQuery,
      refetchOnWindowFocus: false,
    },
  },
});
onClearData(() => queryClient.clear());

/** Whose data the cache holds: the stored session's user (its token for a session stored without an id). */
const userOf = (s: Session | null) => (s ? `${s.userType}|${s.userId || s.userToken}` : null);
let filledFor = typeof localStorage === 'undefined' ? null : userOf(getSession());
/**
 * Another tab logged out, or in as someone else: this tab's session changes under its pages, so the
 * previous user's answers go (signed out: all of them; another user: every query is reset and the
 * ones on screen asked again with the new session). This tab's own log-in and log-out clear it too.
 */
if (typeof window !== 'undefined')
  subscribeSession(() => {
    const user = userOf(getSession());
    if (user === filledFor) return;
    filledFor = user;
    if (user === null) queryClient.clear();
    else void queryClient.resetQueries();
  });

const RequestClient = createContext<QueryClient | null>(null);
/** On the server, each request's own cache (src/entry-server.tsx), never the module's shared one. */
export const ServerQueryClient = RequestClient.Provider;

export function DataProvider({ children }: { children: ReactNode }) {
  const client = useContext(RequestClient) ?? queryClient;
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/**
 * The navbar's picture, read from the signed-in user's profile in this cache (loaded by the navbar
 * only when someone is signed in). Saving a profile invalidates that entry, so the bar shows a new
 * picture without a reload. Returns the unsubscribe.
 */
export function watchProfilePicture(userId: string, onPicture: (url: string | null) => void) {
  const observer = new QueryObserver(queryClient, {
    queryKey: ownProfileKey(userId),
    queryFn: ({ signal }) => getOwnProfile(userId, signal),
    select: (profile) => profile.profileImage?.url ?? null,
    staleTime: Infinity,
    retry: false,
  });
  const current = observer.getCurrentResult();
  if (current.isSuccess) onPicture(current.data);
  return observer.subscribe((result) => {
    if (result.isSuccess) onPicture(result.data);
  });
}

/** The signed-in company's cart line count for the top bar, kept current by the cart's own query. */
export function watchCartCount(onCount: (n: number) => void) {
  const observer = new QueryObserver(queryClient, { ...cartCountQuery(), retry: false });
  const current = observer.getCurrentResult();
  if (current.isSuccess) onCount(current.data);
  return observer.subscribe((result) => {
    if (result.isSuccess) onCount(result.data);
  });
}
