import { matchPath } from 'react-router';
import { prefetch } from '@/lib/http';
import { getSession } from '@/lib/session';

/**
 * The data each page shows first, as its query asks for it (lib/http hands the answer to that query).
 * `signedInAs`: only asked for with that kind of session (a visitor's cart lives in this browser).
 */
const PAGE_DATA: Array<{ page: string; data: (params: Record<string, string>) => string; signedInAs?: string }> = [
  { page: '/products', data: () => '/product-api/products' },
  // As features/catalogue/api/get-product.ts builds it from the route parameter.
  { page: '/pre-cart/:productId', data: (p) => `/product-api/product/${encodeURIComponent(p.productId)}` },
  { page: '/cart', data: () => '/api/cart', signedInAs: 'company' },
];

/**
 * Asks for the data the page at `pathname` shows first as soon as the entry runs, while the page's own
 * chunk is still on its way: on a phone's 150 ms round trips the answer is there when the page renders,
 * and the page renders with it at once. Answers once that data is in (or at once without any).
 */
export function startPageData(pathname: string): Promise<unknown> {
  for (const { page, data, signedInAs } of PAGE_DATA) {
    const match = matchPath(page, pathname);
    if (!match || (signedInAs && getSession()?.userType !== signedInAs)) continue;
    let url: string;
    try {
      const params = Object.fromEntries(Object.entries(match.params).map(([k, v]) => [k, decodeURIComponent(v!)]));
      url = data(params);
    } catch {
      return Promise.resolve(); // a malformed address: the page shows its own error
    }
    const answer = prefetch(url);
    if (page === '/products') void answer.then(preloadFirstPicture, () => undefined);
    return answer.catch(() => undefined);
  }
  return Promise.resolve();
}

/** The first card's picture is /products' largest element: fetched as soon as its address is known. */
function preloadFirstPicture(answer: { ok: boolean; text: string }) {
  if (!answer.ok) return;
  try {
    const src = (JSON.parse(answer.text) as { data: { products: Array<{ productImage?: string }> } }).data.products[0]
      ?.productImage;
    if (!src) return;
    const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'image', href: src });
    link.setAttribute('fetchpriority', 'high');
    document.head.append(link);
  } catch {
    // not the answer we know: the page shows what it can
  }
}
