import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

// Page tests wait for answers and re-renders; on a loaded machine (two cores, several test runs) that
// takes longer than Testing Library's 1 s default for findBy and waitFor.
configure({ asyncUtilTimeout: 5_000 });

/**
 * Renders `element` at `path` (a route pattern) opened at `at`, with a query cache the test fills
 * beforehand; data put there is fresh for the whole test, so nothing is asked of the server unless a
 * test stubs fetch for it.
 */
export function renderPage(element: ReactNode, { path = '/', at = '/', client = testQueryClient() } = {}) {
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, client };
}

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false }, mutations: { retry: false } } });

/** A fetch stub answering JSON by `METHOD path` (query string ignored); anything else fails the test. */
export function jsonFetch(
  routes: Record<
    string,
    (init: RequestInit | undefined, url: URL) => { status?: number; body: unknown; headers?: Record<string, string> }
  >,
) {
  const calls: Array<{ method: string; url: URL; init: RequestInit | undefined }> = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push({ method, url, init });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) throw new Error(`unexpected request: ${method} ${url.pathname}`);
    const { status = 200, body, headers = {} } = handler(init, url);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  };
  return { fn, calls };
}
