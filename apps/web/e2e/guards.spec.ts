import { expect, test } from '@playwright/test';
import { createAccount, loginAs } from './helpers';

test('a guest hitting a company page is sent to /', async ({ page }) => {
  await page.goto('/company/dashboard');
  await expect(page).toHaveURL(/\/$/);
});

test('a company hitting an admin page is told it is for admins, not sent to /login', async ({ page }) => {
  const email = await createAccount(page.request, 'company');
  await loginAs(page, email);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'This page is for admins' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('an unknown path redirects to /', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
});
