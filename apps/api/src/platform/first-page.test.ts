import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { products } from '../db/schema.js';
import { appDeps, openRuntime, type Runtime } from '../runtime.js';

const FONT = '<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/face-c3.woff2">';
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-a1.js"></script><link rel="stylesheet" crossorigin href="/assets/initial-b2.css">${FONT}</head><body><div id="root"></div></body></html>`;
// Over 1 KB, as real styles are: the page is then compressed.
const CSS = 'body{color:#1b1f23}' + '.p-1{padding:.25rem}'.repeat(80);

/**
 * A stand-in for the web build's server renderer (apps/web/src/entry-server.tsx, whose own test
 * renders the real pages): it shows what it was given, so the test sees what the server passed.
 */
const RENDERER = `
export function pageDataUrl(pathname, userType, search) {
  if (pathname === '/') return '/api/showcase';
  if (pathname === '/products') return '/product-api/products' + (search && search.includes('q=') ? search : '');
  const m = /^\\/pre-cart\\/([^/]+)$/.exec(pathname);
  return m ? '/product-api/product/' + m[1] : null;
}
export async function render(pathname, data, search) {
  globalThis.__renders = (globalThis.__renders ?? 0) + 1;
  if (search && search.includes('q=')) return '<main><h1>page ' + pathname + search + '</h1><p>' + data.body.products.length + ' found</p></main>';
  if (pathname === '/pre-cart/boom') throw new Error('render failed');
  const body = data ? data.body : null;
  const names = body ? (body.products ?? [body.product ?? body]).map((p) => p.productName).join(', ') : '';
  // The first picture as the real pages write it: the landing's inline, the catalogue's first card's a file.
  const picture = { '/': 'data:image/svg+xml,%3csvg/%3e', '/products': '/uploads/first.png' }[pathname];
  const img = picture ? '<img src="' + picture + '" alt="" fetchPriority="high"/>' : '';
  return '<main><h1>page ' + pathname + '</h1><p>' + names + '</p>' + img + '</main>';
}
`;

describe('the server renders the first page into index.html', () => {
  let base: string;
  let rt: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let productId: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'lm-first-page-'));
    await mkdir(path.join(base, '.vite', 'ssr'), { recursive: true });
    await writeFile(path.join(base, 'index.html'), INDEX);
    await mkdir(path.join(base, 'assets'));
    await writeFile(path.join(base, 'assets', 'initial-b2.css'), CSS);
    await writeFile(path.join(base, '.vite', 'ssr', 'entry-server.js'), RENDERER);
    rt = await openRuntime(testConfig({ SEED_CATALOGUE: 'false' }));
    const [row] = await rt.database.db
      .insert(products)
      .values({
        productName: 'Board resolution </script><script>alert(1)</script>',
        productPrice: 500_000,
        productDescription: 'Drafted and reviewed by a Nigerian lawyer.',
        productImage: `/uploads/${'a'.repeat(32)}.png`,
      })
      .returning({ id: products.id });
    productId = row.id;
    app = await buildApp({ ...appDeps(rt), logger: false, webDist: base });
  });
  afterAll(async () => {
    await app?.close();
    await rt?.close();
    await rm(base, { recursive: true, force: true });
  });

  const dataOf = (html: string) => {
    const m = /<script type="application\/json" id="page-data" data-url="([^"]+)">([^<]*)<\/script>/.exec(html);
    return m ? { url: m[1], body: JSON.parse(m[2]) as unknown } : null;
  };

  it('answers / with the landing page rendered with its figures and featured products', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root"><main><h1>page /</h1><p>Board resolution');
    // The figures the page shows are the API's own answer (decision 1830), sent for the app to take over.
    const data = dataOf(res.body);
    expect(data?.url).toBe('/api/showcase');
    expect(data?.body).toEqual((await app.inject({ url: '/api/showcase' })).json());
    expect(data?.body).toMatchObject({ verifiedLawyers: 0, jobsCompleted: 0 });
    // The styles come with the page: it paints without another round trip.
    expect(res.body).toContain(`<style>${CSS}</style>`);
    expect(res.body).not.toContain('initial-b2.css');
  });

  it('answers /products with the catalogue in the markup and the data for the app', async () => {
    const res = await app.inject({ url: '/products?from=home' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><main><h1>page /products</h1><p>Board resolution');
    // The product's name holds `</script>`: the data is escaped so that it cannot close its tag.
    // A marker first in <head> for src/early.ts; the data after the markup, not to hold back pictures.
    expect(res.body.indexOf('<head><meta name="page-data">')).toBe(res.body.indexOf('<head>'));
    expect(res.body.indexOf('id="page-data"')).toBeGreaterThan(res.body.indexOf('<div id="root"><main>'));
    const data = dataOf(res.body);
    expect(data?.url).toBe('/product-api/products');
    expect(data?.body).toEqual((await app.inject({ url: '/product-api/products' })).json());
    expect(res.headers['cache-control']).toBe('no-cache');
    const compressed = await app.inject({ url: '/products', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toContain('accept-encoding');
  });

  it('renders /products?q=... with its query and the filtered list the API answers for it', async () => {
    const res = await app.inject({ url: '/products?q=resolution' });
    expect(res.body).toContain('<div id="root"><main><h1>page /products?q=resolution</h1><p>1 found');
    expect(dataOf(res.body)?.url).toBe('/product-api/products?q=resolution');
    const none = await app.inject({ url: '/products?q=lease' });
    expect(none.body).toContain('<h1>page /products?q=lease</h1><p>0 found');
    // A bad filter (the API's 400): the app renders in the browser and shows the problem.
    const bad = await app.inject({ url: `/products?q=${'x'.repeat(101)}` });
    expect(bad.body).toContain('<div id="root"></div>');
  });

  it('answers /pre-cart/{id} with the product', async () => {
    const res = await app.inject({ url: `/pre-cart/${productId}` });
    expect(res.body).toContain(`<h1>page /pre-cart/${productId}</h1><p>Board resolution`);
    expect(dataOf(res.body)?.url).toBe(`/product-api/product/${productId}`);
  });

  it('does not serve the renderer itself', async () => {
    const res = await app.inject({ url: '/.vite/ssr/entry-server.js' });
    expect(res.body).not.toContain('pageDataUrl');
  });

  it('asks first for the first picture the page fetches, not one the HTML carries', async () => {
    const products = await app.inject({ url: '/products' });
    expect(products.body).toContain('<link rel="preload" as="image" href="/uploads/first.png" fetchpriority="high">');
    const landing = await app.inject({ url: '/' });
    expect(landing.body).toContain('<img src="data:image/svg+xml,%3csvg/%3e"');
    expect(landing.body).not.toContain('rel="preload" as="image"');
  });

  it('leaves out the typeface preload where the styles come inline (it would hold the first paint)', async () => {
    for (const url of ['/', '/products', `/pre-cart/${productId}`, '/cart']) {
      const res = await app.inject({ url });
      expect(res.body, url).toContain('<style>');
      expect(res.body, url).not.toContain('as="font"');
    }
    // A page the browser renders keeps it: its styles come in a file, which names the font late.
    expect((await app.inject({ url: '/login' })).body).toContain(FONT);
  });

  it('renders /cart as its shell, without anybody’s cart: no data goes with it', async () => {
    const res = await app.inject({ url: '/cart' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><main><h1>page /cart</h1><p></p></main></div>');
    expect(res.body).not.toContain('page-data');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('leaves signed-in pages, unknown products and failed renders to the browser', async () => {
    for (const url of [
      '/company/dashboard',
      '/login',
      '/pre-cart/boom',
      '/pre-cart/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('renders a page again when the data it shows changed or after a minute, and reuses it meanwhile', async () => {
    const renders = () => (globalThis as { __renders?: number }).__renders ?? 0;
    const url = `/pre-cart/${productId}`;
    const first = await app.inject({ url });
    const before = renders();
    const again = await app.inject({ url });
    expect(renders()).toBe(before);
    expect(again.body).toBe(first.body);
    // The data is read for every request: a new price is a new render, with the new data in the page.
    await rt.database.db.update(products).set({ productPrice: 600_000 }).where(eq(products.id, productId));
    const changed = await app.inject({ url });
    expect(renders()).toBe(before + 1);
    expect(changed.body).not.toBe(first.body);
    await app.inject({ url: '/cart' });
    const cart = renders();
    await app.inject({ url: '/cart' });
    expect(renders()).toBe(cart);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      await app.inject({ url: '/cart' });
      expect(renders()).toBe(cart + 1);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
