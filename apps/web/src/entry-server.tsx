/**
 * The first page rendered on the server: the API imports the build of this file (dist/.vite/ssr) and
 * puts its markup and the page's data into index.html, so the page's largest element paints from the
 * HTML instead of after the app's code has arrived and run; src/main.tsx then hydrates it.
 * Only public pages, rendered as a visitor sees them: no session reaches this code.
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

export { pageDataUrl };

/** The query a page's data answers, as the page's own query names it (see features/catalogue/api). */
function queryKey(url: string): readonly unknown[] | null {
  if (url === '/product-api/products' || url.startsWith('/product-api/products?')) return productsListKey(url);
  const product = /^\/product-api\/product\/([^/]+)$/.exec(url);
  return product ? ['products', decodeURIComponent(product[1])] : null;
}

/**
 * The markup of the page at `pathname` with its query `search` (/products renders its filters from
 * it), with `data` (the response of pageDataUrl's GET) in its query.
 */
export async function render(pathname: string, data?: { url: string; body: unknown }, search = ''): Promise<string> {
  await preloadPage(pathname);
  // One cache per request: nothing rendered for one request is seen by another.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const key = data && queryKey(data.url);
  if (key) client.setQueryData(key, data.body);
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
