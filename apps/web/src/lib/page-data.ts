import { createContext, useContext, useEffect, useState } from 'react';
import { sentWithHtml } from '@/early';
import { api, takeArrived } from './http';

/**
 * The data the server rendered a page with (src/entry-server.tsx sets it for one request); null in
 * the browser, where the same answer arrives through src/early.ts.
 */
export const ServerPageData = createContext<{ url: string; body: unknown } | null>(null);

/**
 * Whether this page's markup was rendered with `url`'s answer: on the server, its render's data; in the
 * browser, the data the HTML carried (while React takes the page over, it must render the same).
 */
export function useRenderedWith(url: string): boolean {
  const server = useContext(ServerPageData);
  return server ? server.url === url : sentWithHtml(url);
}

/** A kept answer is asked for again in the background once it is this old. */
const FRESH_MS = 60_000;
const kept = new Map<string, { body: unknown; at: number }>();

/**
 * A public GET a static page shows (the landing and About pages), without the query library, which
 * those pages do not ship on a phone's first visit. The first render has the answer when the server
 * sent it with the page (so hydration matches) or src/early.ts already has it; otherwise it is asked
 * for once the page is up. Kept for the visit, refreshed after a minute.
 */
export function usePageData<T>(url: string): T | undefined {
  const server = useContext(ServerPageData);
  const [data, setData] = useState<T | undefined>(() => {
    if (server) return server.url === url ? (server.body as T) : undefined;
    if (!kept.has(url)) {
      const arrived = takeArrived<T>(url);
      if (arrived !== undefined) kept.set(url, { body: arrived, at: Date.now() });
    }
    return kept.get(url)?.body as T | undefined;
  });
  useEffect(() => {
    const entry = kept.get(url);
    if (entry && Date.now() - entry.at < FRESH_MS) return;
    let live = true;
    api<T>(url).then(
      (body) => {
        kept.set(url, { body, at: Date.now() });
        if (live) setData(body);
      },
      () => undefined, // the page shows what it has; the figures are not essential
    );
    return () => {
      live = false;
    };
  }, [url]);
  return data;
}
