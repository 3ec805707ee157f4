import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onClearData } from '@/lib/data-cache';

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

export function DataProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
