import { expect, test, type Page } from '@playwright/test';
import { createAccount, loginAs } from './helpers';

// Issue 18: installable, readable offline, and never a signed-in answer in the service worker's caches
// (docs/decisions/1840-service-worker-and-manifest.md). The other journeys block service workers.
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker controls the page (it claims open pages when it activates). */
async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** Every request the service worker's caches hold: address and whether it carried a bearer token. */
const cached = (page: Page) =>
  page.evaluate(async () => {
    const out: Array<{ cache: string; url: string; authorization: boolean }> = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys())
        out.push({ cache: name, url: new URL(req.url).pathname, authorization: req.headers.has('authorization') });
    }
    return out;
  });

test('the app is installable: a manifest with a name, icons and the brand colour', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = (await (await page.request.get(href!)).json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    icons: Array<{ src: string; sizes: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ short_name: 'LegalMarket', start_url: '/', display: 'standalone' });
  expect(manifest.theme_color).toBe('#0f3d3e');
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).status(), icon.src).toBe(200);
});

test('after a first visit the catalogue reads offline, and another page says it is offline', async ({
  page,
  context,
}) => {
  await page.goto('/products');
  await controlled(page);
  // Now under the service worker: the page is kept, and the product the visitor opens (its data is
  // fetched by the app when reached from the list) goes into the catalogue cache.
  await page.reload();
  const card = page.getByRole('link', { name: /Non-Disclosure Agreement/ }).first();
  await card.click();
  await expect(page).toHaveURL(/\/pre-cart\/[0-9a-f-]{36}$/);
  const productPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Non-Disclosure Agreement');
  await expect
    .poll(async () => (await cached(page)).filter((c) => c.cache === 'lm-catalogue').map((c) => c.url))
    .toContain(`/product-api/product/${productPath.split('/').pop()}`);
  expect((await cached(page)).filter((c) => c.cache === 'lm-pages').map((c) => c.url)).toContain('/products');

  await context.setOffline(true);
  try {
    // The list page, as kept from the first visit (its HTML carries the catalogue it showed).
    await page.goto('/products');
    await expect(page.getByRole('link', { name: /Non-Disclosure Agreement/ }).first()).toBeVisible();
    // A client-side move to the product reads it from the catalogue cache.
    await page
      .getByRole('link', { name: /Non-Disclosure Agreement/ })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`${productPath}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Non-Disclosure Agreement');

    // A page never visited: the offline page, not the browser's error.
    await page.goto('/about-us');
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try again' })).toBeVisible();
    // A signed-in page is never kept: offline it is the offline page too.
    await page.goto('/company/dashboard');
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});

test('a signed-in answer is never in the service worker caches', async ({ page, request }) => {
  const email = await createAccount(request, 'company');
  await page.goto('/products');
  await controlled(page);
  await loginAs(page, email);
  // Signed in, the app asks the signed-in APIs (cart, jobs, profile, notifications) and the catalogue
  // with its bearer token.
  for (const url of ['/products', '/cart', '/company/dashboard', '/notifications', '/products']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  const seen = await cached(page);
  expect(seen.length, 'the app shell is precached').toBeGreaterThan(10);
  const signedIn = seen.filter((c) => c.authorization || /^\/(api|job-api|ratings-api|uploads|dev)(\/|$)/.test(c.url));
  expect(signedIn).toEqual([]);
  // Nothing a signed-in page shows is kept as a page either.
  expect(seen.filter((c) => c.cache === 'lm-pages').map((c) => c.url)).not.toContain('/cart');
});
