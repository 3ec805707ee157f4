import { expect, test } from '@playwright/test';
import { collectionFee } from '../../api/src/platform/payments/fees';
import { apiLogin, createAccount, loginAs } from './helpers';

const naira = (n: number) => `₦${Math.round(n).toLocaleString('en-NG')}`;

test('a company pays by bank transfer in the sandbox; the admin sees the books agree and the refund', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const request = page.request;
  const catalogue = (await (await request.get('/product-api/products')).json()) as {
    products: Array<{ _id: string; productName: string; productPrice: number }>;
  };
  const product = catalogue.products[0];
  expect(product, 'the seeded catalogue has a product').toBeTruthy();

  const companyEmail = await createAccount(request, 'company');
  const company = await apiLogin(request, companyEmail);
  expect(
    (
      await request.post('/api/cart', {
        headers: company.headers,
        data: { productId: product._id, quantity: 1, detail: 'Our supplier agreement with Lagos Foods' },
      })
    ).status(),
  ).toBe(201);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await loginAs(page, companyEmail);

  await page.goto('/cart');
  await page.getByRole('button', { name: 'Purchase' }).click();
  const dialog = page.getByTestId('sandbox-checkout');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('tab', { name: 'Bank Transfer' }).click();

  // The temporary account: number, bank, the exact amount and the reference, each with a copy button.
  const transfer = dialog.getByTestId('bank-transfer');
  await expect(transfer).toBeVisible();
  const accountNumber = (await transfer.getByText(/^\d{10}$/).textContent())!;
  await expect(transfer.getByText('WEMA Bank (test)')).toBeVisible();
  await expect(transfer.getByText(`Transfer exactly ${naira(product.productPrice)} to this account`)).toBeVisible();
  await expect(transfer.getByText(/^LM-\d+-[0-9a-f]{10}$/)).toBeVisible();
  for (const what of ['account number', 'bank name', 'amount', 'reference'])
    await expect(transfer.getByRole('button', { name: `Copy ${what}` })).toBeVisible();
  await transfer.getByRole('button', { name: 'Copy account number' }).click();
  await expect(transfer.getByRole('button', { name: 'Copy account number' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountNumber);
  await transfer.getByRole('button', { name: 'Copy amount' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(product.productPrice.toFixed(2));

  // On a 360 px phone the account details fit without sideways scrolling.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
  await dialog.getByRole('button', { name: 'I have sent the money' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();
  await expect(page).toHaveURL(/\/products$/, { timeout: 10_000 });

  await page.goto('/company/dashboard');
  await expect(page.getByRole('heading', { name: product.productName })).toBeVisible();

  // The admin: reconciliation agrees; cancelling the job refunds it, and the books still agree.
  const adminEmail = await createAccount(request, 'admin');
  const admin = await apiLogin(request, adminEmail);
  const adminPage = await (await browser.newContext()).newPage();
  await loginAs(adminPage, adminEmail);
  await adminPage.goto('/admin/reconciliation');
  await expect(adminPage.getByText(/Ledger and the sandbox agree/)).toBeVisible();
  // Earlier journeys share this server's ledger: count this payment among theirs.
  await expect(adminPage.getByText(/^Payments in the ledger \([1-9]\d*\)$/)).toBeVisible();

  const jobs = (await (
    await request.get('/job-api/company/pendingjobs', { headers: company.headers })
  ).json()) as Array<{ _id: string }>;
  const jobId = jobs[0]._id;
  const cancelled = await request.post(`/job-api/jobs/${jobId}/actions/cancel`, {
    headers: admin.headers,
    data: { note: 'The company found the agreement already signed.' },
  });
  expect(cancelled.status()).toBe(200);

  await adminPage.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Refunds' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/refunds$/);
  const refund = adminPage.getByTestId('refund').first();
  await expect(refund).toContainText(product.productName);
  await expect(refund).toContainText('Completed');
  await expect(refund).toContainText(naira(product.productPrice));
  await expect(refund.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  await adminPage.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Reconciliation' }).click();
  await expect(adminPage.getByText(/Ledger and the sandbox agree/)).toBeVisible();
  await expect(adminPage.getByText(/^Refunds in the ledger \([1-9]\d*\)$/)).toBeVisible();

  // A short transfer pays nothing and is listed as money the ledger does not have.
  const otherEmail = await createAccount(request, 'company');
  const other = await apiLogin(request, otherEmail);
  await request.post('/api/cart', { headers: other.headers, data: { productId: product._id, quantity: 1 } });
  const started = (await (await request.post('/api/checkout', { headers: other.headers })).json()) as {
    data: { reference: string; amount: number };
  };
  const short = await request.post('/api/checkout/sandbox/charge', {
    headers: other.headers,
    data: {
      reference: started.data.reference,
      amount: started.data.amount - 1000,
      currency: 'NGN',
      paymentType: 'banktransfer',
    },
  });
  expect(short.status()).toBe(200);
  const refused = await request.post('/api/checkout/verify', {
    headers: other.headers,
    data: { reference: started.data.reference },
  });
  expect(refused.status()).toBe(400);
  await adminPage.setViewportSize({ width: 360, height: 740 });
  await adminPage.reload();
  await expect(adminPage.getByRole('heading', { name: '1 difference' })).toBeVisible();
  const difference = adminPage.getByTestId('difference');
  await expect(difference).toContainText('Not in the ledger · Payment');
  await expect(difference).toContainText(started.data.reference);
  // The sandbox's side is what it settled: the amount paid less its app_fee.
  const paid = started.data.amount - 1000;
  await expect(difference).toContainText(naira((Math.round(paid * 100) - collectionFee(Math.round(paid * 100))) / 100));
  await expect(difference).toContainText('bank transfer');
  expect(await adminPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
