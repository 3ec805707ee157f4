/**
 * The first script of every page: index.html loads it `async`, ahead of the app's entry, and it asks for
 * the data the page shows first. On a phone (150 ms round trips) that answer then arrives together with
 * the app's code instead of being asked for once the code has arrived and run. lib/http hands the answer
 * to the page's query (as initial data, or to its first GET). No imports, so it stays a few hundred bytes
 * and runs one round trip after the HTML; the entry imports it too (the same module, run once).
 */

/** An answer as far as lib/http's api() needs it. */
export interface Received {
  status: number;
  ok: boolean;
  text: string;
}

interface Early {
  /** The session token it was asked with (lib/http hands it only to the same session). */
  token: string | null;
  at: number;
  response: Promise<Received>;
  /** Set once the whole answer is in. */
  arrived?: Received;
}

/** GETs asked for ahead of the page, by URL; lib/http takes each one once. */
export const early = new Map<string, Early>();

/** The data URLs this page's HTML was rendered with and this browser took (see sentWithPage). */
const sentUrls = new Set<string>();
/** Whether the server rendered this page's HTML with `url`'s answer, for this browser's session. */
export const sentWithHtml = (url: string) => sentUrls.has(url);

/** The stored session's token, as lib/session reads it (signed in = token and type both stored). */
const sessionToken = () =>
  localStorage.getItem('userToken') && localStorage.getItem('userType') ? localStorage.getItem('userToken') : null;

/** Starts a GET of `path` now, for the page about to render; answers once the whole body is in. */
export function prefetch(path: string): Promise<Received> {
  const token = sessionToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const entry = { token, at: Date.now() } as Early;
  entry.response = fetch(path, { headers }).then(async (res) => {
    entry.arrived = { status: res.status, ok: res.ok, text: await res.text() };
    return entry.arrived;
  });
  // A failure is the taker's to report, as if it had asked itself.
  entry.response.catch(() => undefined);
  early.set(path, entry);
  return entry.response;
}

/** The catalogue filters a /products address keeps (`?q=&area=&min=&max=`), in this order. */
export const PRODUCT_FILTERS = ['q', 'area', 'min', 'max'] as const;

/**
 * The catalogue GET for a /products address with `search` (`?q=...`): its filters, blank ones left
 * out, in a fixed order, so the server's render, this script and the page's query ask for one URL.
 */
export function productsDataUrl(search: string): string {
  const from = new URLSearchParams(search);
  const to = new URLSearchParams();
  for (const name of PRODUCT_FILTERS) {
    const value = from.get(name)?.trim();
    if (value) to.set(name, value);
  }
  const query = to.toString();
  return query ? `/product-api/products?${query}` : '/product-api/products';
}

/**
 * The URL of the data the page at `pathname` (with `search`) shows first, exactly as that page's query
 * asks for it, or null. A visitor's cart lives in this browser: only a signed-in company's is asked for.
 */
export function pageDataUrl(pathname: string, userType: string | null, search = ''): string | null {
  // The landing page's figures and featured products (features/public/showcase.ts).
  if (/^\/(home\/?)?$/.test(pathname)) return '/api/showcase';
  if (/^\/products\/?$/.test(pathname)) return productsDataUrl(search);
  const product = /^\/pre-cart\/([^/]+)\/?$/.exec(pathname);
  if (product) {
    try {
      // As features/catalogue/api/get-product.ts builds it from the route parameter.
      return `/product-api/product/${encodeURIComponent(decodeURIComponent(product[1]))}`;
    } catch {
      return null; // a malformed address: the page shows its own error
    }
  }
  if (/^\/cart\/?$/.test(pathname) && userType === 'company' && sessionToken()) return '/api/cart';
  return null;
}

/** The first card's picture is /products' largest element: fetched as soon as its address is known. */
function preloadFirstPicture(response: Received) {
  try {
    const src = response.ok
      ? (JSON.parse(response.text) as { products: Array<{ productImage?: string }> }).products[0]?.productImage
      : undefined;
    if (!src) return;
    const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'image', href: src });
    link.setAttribute('fetchpriority', 'high');
    document.head.append(link);
  } catch {
    // not the answer we know: the page shows what it can
  }
}

/**
 * The data the server sent with the page's HTML (a page it rendered, src/entry-server.tsx), taken as
 * if it had been asked for here, so the first render shows exactly what the HTML shows.
 */
export function readSentData() {
  sentUrls.clear();
  const tag = document.getElementById('page-data');
  const url = tag?.dataset.url;
  if (!tag || !url) return;
  // A signed-in page's data (a company's cart, decision 2100) is taken only by the session it belongs to.
  const owner = tag.dataset.user;
  if (owner !== undefined && (!sessionToken() || localStorage.getItem('userId') !== owner)) return;
  const arrived = { status: 200, ok: true, text: tag.textContent ?? '' };
  early.set(url, { token: sessionToken(), at: Date.now(), response: Promise.resolve(arrived), arrived });
  sentUrls.add(url);
}

/** Its tag ends the body (not to hold back the page's pictures): read once the HTML is parsed. */
function sentWithPage(): Promise<unknown> {
  if (document.readyState !== 'loading') return Promise.resolve(readSentData());
  return new Promise((done) =>
    document.addEventListener('DOMContentLoaded', () => done(readSentData()), { once: true }),
  );
}

/** Asks for the current page's data; in once this settles (at once for a page without any). */
function start(): Promise<unknown> {
  // The server marks a page it sent with its data.
  if (document.querySelector('meta[name="page-data"]')) return sentWithPage();
  const url = pageDataUrl(location.pathname, localStorage.getItem('userType'), location.search);
  if (!url) return Promise.resolve();
  const response = prefetch(url);
  if (url.startsWith('/product-api/products')) void response.then(preloadFirstPicture, () => undefined);
  return response.catch(() => undefined);
}

/** The current page's data, asked for when this script first ran. */
export const pageData = typeof document === 'undefined' ? Promise.resolve() : start();
