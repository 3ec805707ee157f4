import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { pagePreloads } from './page-preloads.js';
import { appDeps, openRuntime } from '../runtime.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-a1.js"></script></head><body></body></html>';

/** A built web app: index.html and the page chunks the build lists in .vite/preloads.json. */
async function webDist(dir: string, preloads?: unknown) {
  await mkdir(path.join(dir, '.vite'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX);
  if (preloads) await writeFile(path.join(dir, '.vite', 'preloads.json'), JSON.stringify(preloads));
}

const PRELOADS = {
  pages: [
    { path: '/products', modules: ['/assets/products-page-b2.js', '/assets/query-c3.js'] },
    { path: '/pre-cart/:productId', modules: ['/assets/pre-cart-page-d4.js', '"><script>alert(1)</script>'] },
    { path: '/about-us', modules: [] },
  ],
};

describe("index.html preloads each page's chunks", () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'lm-preloads-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('adds modulepreload links for the page of the path, and nothing elsewhere', async () => {
    const dist = path.join(base, 'a');
    await webDist(dist, PRELOADS);
    const html = await pagePreloads(dist, INDEX);
    const links = (url: string) => [...html(url).matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
    expect(links('/products').map((m) => m[1])).toEqual(['/assets/products-page-b2.js', '/assets/query-c3.js']);
    expect(links('/products/').length).toBe(2);
    expect(html('/products')).toContain('</script><link rel="modulepreload"');
    // A route parameter matches one segment; anything not an asset file name is left out.
    expect(links('/pre-cart/0b6c-41d2').map((m) => m[1])).toEqual(['/assets/pre-cart-page-d4.js']);
    expect(html('/pre-cart/0b6c-41d2')).not.toContain('alert');
    for (const url of ['/', '/pre-cart/a/b', '/pre-cart/', '/productsx', '/about-us', '/nowhere'])
      expect(html(url), url).toBe(INDEX);
  });

  it('serves index.html unchanged when the build wrote no preloads', async () => {
    const dist = path.join(base, 'b');
    await webDist(dist);
    expect((await pagePreloads(dist, INDEX))('/products')).toBe(INDEX);
  });

  it('the server sends the page with its preloads', async () => {
    const dist = path.join(base, 'c');
    await webDist(dist, PRELOADS);
    const rt = await openRuntime(testConfig());
    const app = await buildApp({ ...appDeps(rt), logger: false, webDist: dist });
    try {
      const page = await app.inject({ url: '/pre-cart/0b6c-41d2?from=home' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<link rel="modulepreload" crossorigin href="/assets/pre-cart-page-d4.js">');
      expect((await app.inject({ url: '/' })).body).toBe(INDEX);
    } finally {
      await app.close();
      await rt.close();
    }
  });
});
