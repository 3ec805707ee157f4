import { expect, test, type Page } from '@playwright/test';
import { apiLogin, createAccount } from './helpers';

// Issue 18, "A brand people trust": the landing and About pages, the typeface, no sideways scroll.

interface Showcase {
  verifiedLawyers: number;
  jobsCompleted: number;
  products: Array<{ _id: string; productName: string }>;
}
const count = (n: number) => new Intl.NumberFormat('en-NG').format(n);

/** One more verified lawyer, so the figure the page shows is one the data has just moved. */
async function verifiedLawyer(page: Page) {
  const admin = await apiLogin(page.request, await createAccount(page.request, 'admin'));
  const lawyer = await apiLogin(page.request, await createAccount(page.request, 'lawyer'));
  const res = await page.request.patch(`/api/verifylawyer/${lawyer.id}`, {
    headers: admin.headers,
    data: { verified: true },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

const showcase = async (page: Page) => (await (await page.request.get('/api/showcase')).json()) as Showcase;

/** The brand face is loaded and used: the heading's own computed family names it first. */
async function expectBrandFace(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].some((f) => f.family.includes('Plus Jakarta Sans') && f.status === 'loaded');
      }),
    )
    .toBe(true);
  const family = await page.locator('h1').evaluate((h) => getComputedStyle(h).fontFamily);
  expect(family.startsWith('"Plus Jakarta Sans"')).toBe(true);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the page is no wider than the screen').toBeLessThanOrEqual(client);
}

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the landing page shows the hero, figures from the data, steps, featured products and a FAQ', async ({
    page,
  }) => {
    const before = await showcase(page);
    await verifiedLawyer(page);
    const data = await showcase(page);
    expect(data.verifiedLawyers).toBe(before.verifiedLawyers + 1);

    // The server renders the figures into the HTML itself.
    const html = await (await page.request.get('/')).text();
    expect(html).toContain(`data-testid="verified-lawyers"`);
    expect(html).toMatch(new RegExp(`data-testid="verified-lawyers">.*?${count(data.verifiedLawyers)}</dd>`));

    await page.goto('/');
    const hero = page.getByRole('img', { name: /A contract with a signature and a verified seal/ });
    await expect(hero).toBeVisible();
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // The proof strip: the counts the API gives, the delivery promise, the payment marks.
    const figures = page.getByRole('region', { name: 'LegalMarket in figures' });
    await expect(figures.getByTestId('verified-lawyers')).toHaveText(count(data.verifiedLawyers));
    await expect(figures.getByTestId('jobs-completed')).toHaveText(count(data.jobsCompleted));
    await expect(figures).toContainText('Working days to delivery, after purchase');
    await expect(figures).toContainText('7–10');
    for (const mark of ['Flutterwave', 'Visa', 'Mastercard', 'Verve'])
      await expect(figures.getByRole('img', { name: mark, exact: true })).toBeVisible();

    // How it Works: three numbered steps side by side, no tabs.
    const how = page.getByRole('region', { name: 'How it Works' });
    await expect(how.getByRole('tab')).toHaveCount(0);
    const steps = how.getByRole('listitem');
    await expect(steps).toHaveCount(3);
    for (const [i, label] of ['Join us', 'Choose a product', 'Purchase or reserve'].entries())
      await expect(steps.nth(i).getByRole('heading')).toHaveText(`Step ${i + 1}: ${label}`);
    await expect(steps.nth(0)).toContainText('Account verification takes about one hour.');
    const tops = await steps.evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(new Set(tops).size, 'side by side').toBe(1);

    // Featured products: the catalogue's first three, with the catalogue's card and price.
    const featured = page.getByRole('list', { name: 'Featured products' }).getByRole('listitem');
    await expect(featured).toHaveCount(data.products.length);
    expect(data.products.length).toBeGreaterThan(0);
    for (const [i, p] of data.products.entries()) {
      await expect(featured.nth(i)).toContainText(p.productName);
      await expect(featured.nth(i)).toContainText('₦');
      await expect(featured.nth(i).getByRole('link')).toHaveAttribute('href', `/pre-cart/${p._id}`);
    }

    // The FAQ opens from the keyboard: Tab reaches each question, Enter and Space open it.
    const faq = page.getByRole('region', { name: 'Questions founders ask' });
    const first = faq.locator('summary').first();
    await page.getByRole('link', { name: 'See all products' }).focus();
    for (let i = 0; i < 10 && !(await first.evaluate((s) => s === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(first).toBeFocused();
    await expect(faq.getByText(/Supreme Court Number \(SCN\)/)).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(faq.locator('details').first()).toHaveAttribute('open', '');
    await expect(faq.getByText(/Supreme Court Number \(SCN\)/)).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(faq.locator('summary').nth(1)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(faq.getByText('Delivery is 7-10 working days after purchase', { exact: false })).toBeVisible();

    await expectBrandFace(page);
    // No link to the networks' home pages: only our own accounts from the settings (none set here).
    await expect(
      page.getByRole('contentinfo').locator('a[href^="https://x.com"], a[href^="https://www.linkedin.com"]'),
    ).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('landing-1280.png'), fullPage: true });
  });

  test('the About page says how lawyers are verified, shows the team and the figures, and has no empty half', async ({
    page,
  }) => {
    const data = await showcase(page);
    await page.goto('/about-us');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    const verify = page.getByRole('region', { name: 'How we verify lawyers' });
    await expect(verify).toContainText('Supreme Court Number (SCN)');
    await expect(verify).toContainText('Nigerian Bar Association');
    await expect(verify.getByRole('listitem')).toHaveCount(3);
    const team = page.getByRole('region', { name: 'Our team' });
    await expect(team.getByRole('heading', { name: 'Adaeze Nwosu' })).toBeVisible();
    await expect(team.getByRole('heading', { name: 'Tunde Bakare' })).toBeVisible();
    await expect(page.getByTestId('about-verified-lawyers')).toHaveText(count(data.verifiedLawyers));
    await expect(page.getByTestId('about-jobs-completed')).toHaveText(count(data.jobsCompleted));
    await expect(page.getByRole('button', { name: 'Contact' }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get started' }).first()).toBeVisible();

    // No empty half page: the content runs down to the footer, with no blank screen before it.
    const gap = await page.locator('main').evaluate((main) => {
      const bottoms = [...main.querySelectorAll('section')].map((s) => s.getBoundingClientRect().bottom);
      return main.getBoundingClientRect().bottom - Math.max(...bottoms);
    });
    expect(gap).toBeLessThan(80);
    await expectBrandFace(page);
    await page.screenshot({ path: test.info().outputPath('about-1280.png'), fullPage: true });
  });
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('the landing and About pages never scroll sideways, and the steps stack', async ({ page }) => {
    await page.goto('/');
    const hero = page.getByRole('img', { name: /A contract with a signature/ });
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const steps = page.getByRole('region', { name: 'How it Works' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    const boxes = await steps.evaluateAll((items) => items.map((li) => li.getBoundingClientRect()));
    expect(boxes[1].top, 'stacked').toBeGreaterThanOrEqual(boxes[0].bottom);
    expect(boxes[2].top, 'stacked').toBeGreaterThanOrEqual(boxes[1].bottom);
    // Every answer open: the longest the FAQ gets.
    for (const summary of await page.locator('summary').all()) await summary.click();
    await expectNoSidewaysScroll(page);
    await expectBrandFace(page);
    await page.screenshot({ path: test.info().outputPath('landing-360.png'), fullPage: true });

    await page.goto('/about-us');
    await expect(page.getByRole('region', { name: 'How we verify lawyers' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath('about-360.png'), fullPage: true });
  });
});

// Issue 15: on a phone the hero picture is the landing's largest element; it comes inside the HTML.
test.describe('before the page’s code runs', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 412, height: 823 }, isMobile: true });

  test('the landing page’s HTML carries its hero picture: nothing more to fetch for it', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto('/');
    const hero = page.getByRole('img', { name: /A contract with a signature/ });
    await expect(hero).toBeVisible();
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await hero.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    expect(asked.filter((p) => p.includes('hero-illustration'))).toEqual([]);
  });
});
