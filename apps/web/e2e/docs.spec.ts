import { expect, test } from '@playwright/test';

test('the OpenAPI document renders at /api/docs under our CSP', async ({ page }) => {
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  await page.goto('/api/docs');
  await expect(page.getByText('LegalMarket API').first()).toBeVisible();
  await expect(page.getByText('/api/login').first()).toBeVisible();
  expect(blocked).toEqual([]);
});
