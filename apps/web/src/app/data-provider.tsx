import { createContext, useContext, type ReactNode } from 'react';
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

const RequestClient = createContext<QueryClient | null>(null);
/** On the server, each request's own cache (src/entry-server.tsx), never the module's shared one. */
export const ServerQueryClient = RequestClient.Provider;

export function DataProvider({ children }: { children: ReactNode }) {
  const client = useContext(RequestClient) ?? queryClient;
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
