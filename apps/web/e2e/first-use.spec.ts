import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, apiLogin, createAccount, linkIn, loginAs, uniqueEmail, waitForMail } from './helpers';

// Issue 18, traps 1, 4 and 5: nothing a new user typed or chose is lost on the way to paying.

interface Line {
  productId: string;
  quantity: number;
  detail: string | null;
}

async function serverCart(request: APIRequestContext, email: string): Promise<Line[]> {
  const { headers } = await apiLogin(request, email);
  const res = await request.get('/api/cart', { headers });
  if (res.status() === 404) return [];
  expect(res.status()).toBe(200);
  return ((await res.json()) as Array<{ products: Line[] }>)[0].products;
}

/** A visitor reserves the NDA (quantity 2, a brief) from its product page and presses Purchase. */
async function reserveAndPurchase(page: Page, brief: string) {
  await page.goto('/products');
  await page
    .getByRole('link', { name: /Non-Disclosure Agreement/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/pre-cart\/[0-9a-f-]{36}$/);
  const productId = page.url().split('/').pop()!;
  await page.getByLabel('Quantity').selectOption('2');
  await page.getByLabel('Give details').fill(brief);
  await page.getByRole('button', { name: 'Reserve' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText(brief)).toBeVisible();
  await page.getByRole('button', { name: 'Purchase' }).click();
  await expect(page).toHaveURL(/\/signup\/asacompany$/);
  return productId;
}

async function logInThroughThePage(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Welcome back')).toBeVisible();
}

test('trap 1: reservations survive a log-in and move into the server cart once', async ({ page, request }) => {
  const email = await createAccount(request, 'company');
  const brief = 'Mutual NDA with a supplier in Kano';
  const productId = await reserveAndPurchase(page, brief);
  const reserved = await page.evaluate(() => localStorage.getItem('reservedItems'));
  expect(reserved, 'Purchase keeps the reservations until they are in the cart').not.toBeNull();

  await logInThroughThePage(page, email);
  // The company lands on its cart, where the reserved line now is.
  await expect(page).toHaveURL(/\/cart$/, { timeout: 8_000 });
  await expect(page.getByText(brief)).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('reservedItems'))).toBeNull();
  expect(await serverCart(request, email)).toEqual([
    expect.objectContaining({ productId, quantity: 2, detail: brief }),
  ]);

  // A retry (or a second tab that still holds the same reservations) does not add them again.
  await page.evaluate((r) => localStorage.setItem('reservedItems', r!), reserved);
  await page.reload();
  await expect(page.getByText(brief)).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('reservedItems'))).toBeNull();
  expect(await serverCart(request, email)).toEqual([
    expect.objectContaining({ productId, quantity: 2, detail: brief }),
  ]);
});

test('trap 1: reservations survive sign-up and e-mail confirmation', async ({ page, request }) => {
  const brief = 'NDA before a seed round with two angels';
  const productId = await reserveAndPurchase(page, brief);
  const email = uniqueEmail('reserver');
  await page.getByLabel('Company name').fill('Kano Grains Ltd');
  await page.getByLabel('Contact name').fill('Aisha Bello');
  await page.getByLabel('Contact phone number').fill('08031234567');
  await page.getByLabel('Official email').fill(email);
  await page.getByLabel('Office address').fill('4 Bompai Road, Kano');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Industry').fill('Agriculture');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel(/I am 18 or older/).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('dialog')).toContainText('click the link in that email');

  const mail = await waitForMail(request, email, /Confirm/);
  await page.goto(linkIn(mail.text));
  await expect(page.getByRole('dialog')).toContainText('Email confirmed successfully');
  await logInThroughThePage(page, email);
  await expect(page).toHaveURL(/\/cart$/, { timeout: 8_000 });
  await expect(page.getByText(brief)).toBeVisible();
  expect(await serverCart(request, email)).toEqual([
    expect.objectContaining({ productId, quantity: 2, detail: brief }),
  ]);
});

test('trap 4: adding a product already in the cart adds to its line and says so', async ({ page, request }) => {
  const email = await createAccount(request, 'company');
  await loginAs(page, email);
  await page.goto('/products');
  await page
    .getByRole('link', { name: /Contract Review/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/pre-cart\/[0-9a-f-]{36}$/);
  const productUrl = page.url();
  const productId = productUrl.split('/').pop()!;
  await page.getByLabel('Give details').fill('Supply agreement with a Lagos wholesaler');
  await page.getByRole('button', { name: 'Reserve' }).click();
  await expect(page.getByRole('status')).toContainText('You have successfully added to cart');
  await expect(page).toHaveURL(/\/cart$/, { timeout: 10_000 });

  await page.goto(productUrl);
  await page.getByLabel('Quantity').selectOption('2');
  await page.getByLabel('Give details').fill('Lease of our Ikeja office');
  await page.getByRole('button', { name: 'Reserve' }).click();
  // The spec's message, and what happened to the line that was already there.
  await expect(page.getByRole('status')).toContainText('You have successfully added to cart');
  await expect(page.getByRole('status')).toContainText('quantity is now 3');
  await expect(page).toHaveURL(/\/cart$/, { timeout: 10_000 });
  await expect(page.getByText('Supply agreement with a Lagos wholesaler')).toBeVisible();
  await expect(page.getByText('Lease of our Ikeja office')).toBeVisible();

  const [line] = await serverCart(request, email);
  expect(line).toMatchObject({ productId, quantity: 3 });
  expect(line.detail).toContain('Supply agreement with a Lagos wholesaler');
  expect(line.detail).toContain('Lease of our Ikeja office');
});

test('trap 5: company sign-up keeps step 1 over a refresh and Back returns to it', async ({ page }) => {
  await page.goto('/products');
  await page.goto('/signup/asacompany');
  await page.getByLabel('Company name').fill('Lekki Logistics Ltd');
  await page.getByLabel('Contact name').fill('Tunde Bakare');
  await page.getByLabel('Contact phone number').fill('08051234567');
  await page.getByLabel('Official email').fill('tunde@lekki-logistics.ng');
  await page.getByLabel('Office address').fill('7 Admiralty Way, Lekki');

  await page.reload();
  await expect(page.getByLabel('Company name')).toHaveValue('Lekki Logistics Ltd');
  await expect(page.getByLabel('Office address')).toHaveValue('7 Admiralty Way, Lekki');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByLabel('Industry')).toBeVisible();
  await page.getByLabel('Industry').fill('Logistics');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);

  // A refresh on step 2 keeps step 2 and step 1's values, never the passwords.
  await page.reload();
  await expect(page.getByLabel('Industry')).toBeVisible();
  await expect(page.getByLabel('Industry')).toHaveValue('Logistics');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
  expect(stored).toContain('Lekki Logistics Ltd');
  expect(stored).not.toContain(PASSWORD);

  // The browser's Back returns to step 1 with its values, not to the previous page.
  await page.goBack();
  await expect(page).toHaveURL(/\/signup\/asacompany/);
  await expect(page.getByLabel('Company name')).toBeVisible();
  await expect(page.getByLabel('Company name')).toHaveValue('Lekki Logistics Ltd');
  await expect(page.getByLabel('Contact phone number')).toHaveValue('08051234567');
});
