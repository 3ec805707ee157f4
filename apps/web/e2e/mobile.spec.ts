import { expect, test } from '@playwright/test';
import { createAccount, loginAs } from './helpers';

// Founders use phones: the public and account pages must fit a 360 px wide screen without sideways scrolling.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

for (const path of [
  '/',
  '/about-us',
  '/login',
  '/signup/asacompany',
  '/signup/asalawyer',
  '/password-reset',
  '/resend-confirm',
  '/legal-practitioners-remuneration-order',
]) {
  test(`${path} fits a 360 px screen`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('the mobile menu opens by keyboard and offers the guest links', async ({ page }) => {
  await page.goto('/about-us');
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Products' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
});

test('the footer opens the Terms of use with the spec terms', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of use' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  const terms = page.getByRole('article', { name: 'Terms of use' });
  await expect(terms).toContainText('18 years of age or older');
  await expect(terms).toContainText('All sales are final');
  await expect(terms).toContainText('arbitration panel of 2');
});

test('on a phone the admin page comes first and one line at the top leads to the menu, by keyboard too', async ({
  page,
  request,
}) => {
  await loginAs(page, await createAccount(request, 'admin'));
  await page.goto('/admin/jobs');
  // The title in the first screenful: the menu's sixteen items wrapped onto rows above it.
  const title = page.getByRole('heading', { level: 1, name: 'Jobs' });
  await expect(title).toBeInViewport();
  expect((await title.boundingBox())!.y).toBeLessThan(200);
  const jump = page.getByRole('link', { name: 'Go to the admin menu' });
  await jump.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  await expect(menu).toBeFocused();
  await expect(menu).toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  // The menu is below the page: the page chosen opens at its title, not scrolled past it.
  const dashboard = page.getByRole('heading', { level: 1, name: 'Dashboard' });
  await expect(dashboard).toBeInViewport();
  await expect(dashboard).toBeFocused();
});

test('on a wide screen the link to the admin menu shows when focused, so the keyboard reaches the menu first', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(page, await createAccount(request, 'admin'));
  await page.goto('/admin/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  // The page comes before its menu in the page's order: without this link a keyboard tabs through it all.
  const jump = page.getByRole('link', { name: 'Go to the admin menu' });
  await jump.focus();
  await expect(jump).toBeFocused();
  expect((await jump.boundingBox())!.width).toBeGreaterThan(40);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Admin menu' })).toBeFocused();
});
