/**
 * The first page rendered on the server: the API imports the build of this file (dist/.vite/ssr) and
 * puts its markup and the page's data into index.html, so the page's largest element paints from the
 * HTML instead of after the app's code has arrived and run; src/main.tsx then hydrates it.
 * Public pages, rendered as a visitor sees them, and /cart with the cart of the company whose page
 * cookie the server checked (decision 2100): no session or token reaches this code, only the data.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { App } from '@/app/app';
import { preloadPage } from '@/app/router';
import { ServerQueryClient } from '@/app/data-provider';
import { pageDataUrl } from '@/early';
import { productsListKey } from '@/components/product-carousel';
import { ServerPageData } from '@/lib/page-data';
import { cartQueryOf } from '@/features/cart/server-data';

export { pageDataUrl };

/** The query a page's data answers and its value, as the page's own query holds it (each feature's api/ folder). */
function queryOf(url: string, body: unknown): readonly [readonly unknown[], unknown] | null {
  if (url === '/product-api/products' || url.startsWith('/product-api/products?')) return [productsListKey(url), body];
  if (url === '/api/cart') return cartQueryOf(body);
  const product = /^\/product-api\/product\/([^/]+)$/.exec(url);
  return product ? [['products', decodeURIComponent(product[1])], body] : null;
}

/**
 * The markup of the page at `pathname` with its query `search` (/products renders its filters from
 * it), with `data` (the response of pageDataUrl's GET) in its query.
 */
export async function render(pathname: string, data?: { url: string; body: unknown }, search = ''): Promise<string> {
  await preloadPage(pathname);
  // One cache per request: nothing rendered for one request is seen by another.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const query = data && queryOf(data.url, data.body);
  if (query) client.setQueryData(query[0], query[1]);
  return renderToString(
    <StrictMode>
      <ServerQueryClient value={client}>
        {/* Pages without the query library (the landing page) read their data from here. */}
        <ServerPageData value={data ?? null}>
          <StaticRouter location={pathname + search}>
            <App />
          </StaticRouter>
        </ServerPageData>
      </ServerQueryClient>
    </StrictMode>,
  );
}
