import { expect, test, type Page } from '@playwright/test';

// Issue 20, item 2: founders find a service on a phone; the filters live in the address (decision 2010).
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const noSideways = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

test('search and filter on a phone; the address keeps them across a reload', async ({ page }) => {
  await page.goto('/products');
  const cards = page.getByRole('list', { name: 'Products' });
  await expect(cards.getByRole('link', { name: /Non-Disclosure Agreement/ })).toBeVisible();
  // Each card shows what you get, its delivery time and its rating.
  const nda = cards.getByRole('listitem').filter({ hasText: 'Non-Disclosure Agreement' });
  await expect(nda.getByText('A mutual or one-way NDA drafted for your situation under Nigerian law')).toBeVisible();
  await expect(nda.getByText('Delivered within 10 working days')).toBeVisible();
  await expect(nda.getByText('No reviews yet')).toBeVisible();
  await noSideways(page);

  const form = page.getByRole('search', { name: 'Find a service' });
  await form.getByLabel('Search services').fill('agreement');
  await form.getByLabel('Max', { exact: true }).fill('60000');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/products\?q=agreement&max=60000$/);
  await expect(cards.getByRole('link', { name: /Non-Disclosure Agreement/ })).toBeVisible();
  await expect(cards.getByRole('link', { name: /Shareholders' Agreement/ })).toHaveCount(0);
  await expect(page.getByText(/\d+ services? found/)).toBeVisible();
  await noSideways(page);

  // An area applies at once.
  await form.getByLabel('Area of law').selectOption('Employment and Labour');
  await expect(page).toHaveURL(/\/products\?q=agreement&area=Employment\+and\+Labour&max=60000$/);

  await form.getByLabel('Search services').fill('employment contract');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/products\?q=employment\+contract&area=Employment\+and\+Labour&max=60000$/);
  await expect(cards.getByRole('link', { name: /Employment Contract/ })).toBeVisible();
  await expect(cards.getByRole('link', { name: /Non-Disclosure Agreement/ })).toHaveCount(0);

  await page.reload();
  await expect(page).toHaveURL(/\/products\?q=employment\+contract&area=Employment\+and\+Labour&max=60000$/);
  const again = page.getByRole('search', { name: 'Find a service' });
  await expect(again.getByLabel('Search services')).toHaveValue('employment contract');
  await expect(again.getByLabel('Area of law')).toHaveValue('Employment and Labour');
  await expect(again.getByLabel('Max', { exact: true })).toHaveValue('60000');
  await expect(cards.getByRole('link', { name: /Employment Contract/ })).toBeVisible();
  await expect(cards.getByRole('link', { name: /Non-Disclosure Agreement/ })).toHaveCount(0);
  await noSideways(page);

  // Back goes to the previous filters.
  await page.goBack();
  await expect(page).toHaveURL(/\/products\?q=agreement&area=Employment\+and\+Labour&max=60000$/);
  await expect(page.getByRole('search').getByLabel('Search services')).toHaveValue('agreement');
});

test('nothing found says so and clears the filters', async ({ page }) => {
  await page.goto('/products?q=submarine+cables');
  await expect(page.getByText('No services match your search.')).toBeVisible();
  await noSideways(page);
  await page.getByRole('link', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole('search').getByLabel('Search services')).toHaveValue('');
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem')).not.toHaveCount(0);
});

test("the landing page's service links filter by area, rendered by the server", async ({ page, request }) => {
  // The server's HTML already holds the filtered list (the first page is rendered on the server).
  const html = await (await request.get('/products?area=Intellectual%20Property')).text();
  const root = html.slice(html.indexOf('<div id="root">'));
  expect(root).toContain('Trademark Search and Registration Filing');
  expect(root).not.toContain('Employment Contract');

  await page.goto('/products');
  const cards = page.getByRole('list', { name: 'Products' });
  await expect(cards.getByRole('listitem').first()).toBeVisible();
  const all = await cards.getByRole('listitem').count();

  // Whatever names the landing page links with (its own, or the areas'), each opens a real filter.
  await page.goto('/');
  const links = page.locator('main a[href^="/products?area="]');
  expect(await links.count()).toBe(3);
  const first = links.first();
  const href = (await first.getAttribute('href'))!;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[?+]/g, '\\$&')}$`));
  const form = page.getByRole('search', { name: 'Find a service' });
  await expect(form.getByLabel('Area of law')).not.toHaveValue('');
  await expect(cards.getByRole('listitem').first()).toBeVisible();
  expect(await cards.getByRole('listitem').count()).toBeLessThan(all);
  await expect(page.getByText(/\d+ services? found/)).toBeVisible();
  await noSideways(page);
});

test('the product page lists what is included and keeps price and Reserve in reach', async ({ page }) => {
  await page.goto('/products?area=Contracts+and+Commercial');
  await page.getByRole('link', { name: /Non-Disclosure Agreement/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Non-Disclosure Agreement' })).toBeVisible();
  await expect(page.getByRole('heading', { name: "What's included" })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What you provide' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Not included' })).toBeVisible();
  await expect(page.getByText('No reviews yet').first()).toBeVisible();
  await noSideways(page);
  // The sticky bar stays on the screen at the top of the page and after scrolling.
  const bar = page.locator('div.fixed.bottom-0').filter({ has: page.getByRole('button', { name: 'Reserve' }) });
  await expect(bar).toBeInViewport();
  await expect(bar.getByText('₦25,000')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(bar).toBeInViewport();
  await bar.getByRole('button', { name: 'Reserve' }).click();
  await expect(page).toHaveURL(/\/cart$/);
});
