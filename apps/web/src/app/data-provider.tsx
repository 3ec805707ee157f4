import { createContext, useContext, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { onClearData } from '@/lib/data-cache';
import { getOwnProfile, ownProfileKey } from '@/lib/own-profile';
import { cartCountQuery } from '@/features/cart/cart-count';

/** One query cache for the whole session, loaded with the first page that reads server data. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, err) => count < 2 && !('status' in (err as object)),
      refetchOnWindowFocus: false,
    },
  },
});
onClearData(() => queryClient.clear());

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
