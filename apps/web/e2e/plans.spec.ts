import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { apiLogin, createAccount, loginAs, PASSWORD } from './helpers';

/**
 * Monthly plans (issue 19): a visitor presses Buy on Silver, signs up and is brought back to it, pays,
 * sees the plan's discount in the cart and on the receipt, spends a draft credit on a ₦0 job that goes
 * through the workspace, and cancels.
 */
const PDF = (name: string) =>
  Buffer.from(`%PDF-1.4\n% ${name}\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);

async function payWithSandboxCard(page: Page) {
  const dialog = page.getByTestId('sandbox-checkout');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Card number').fill('5531 8866 5214 2950');
  await dialog.getByLabel('Valid till').fill('09/32');
  await dialog.getByLabel('CVV').fill('564');
  await dialog.getByRole('button', { name: /^Pay ₦/ }).click();
  await dialog.getByLabel('Card PIN').fill('3310');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByLabel('OTP').fill('12345');
  await dialog.getByRole('button', { name: 'Authorize payment' }).click();
}

test('subscribe to Silver, see the discount in the cart and receipt, spend a draft credit, cancel', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const request = page.request;

  // A visitor presses Buy on Silver: sign-up first, then the log-in brings it back to the tier.
  await page.goto('/products');
  await page.getByRole('tab', { name: 'Packages' }).click();
  await page.getByRole('link', { name: 'Buy the Silver package' }).click();
  await expect(page).toHaveURL(/\/signup\/asacompany$/);
  const companyEmail = await createAccount(request, 'company');
  await page.goto('/login');
  await page.getByLabel('Email address').fill(companyEmail);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/company\/plan\?tier=silver$/, { timeout: 10_000 });
  await expect(page.getByRole('radio', { name: 'Silver' })).toBeChecked();
  await expect(page.getByText('Unused credits do not carry over')).toBeVisible();

  await page.getByRole('button', { name: /^Subscribe to Silver/ }).click();
  await payWithSandboxCard(page);
  await expect(page.getByTestId('plan-status')).toContainText('Active');
  await expect(page.getByText('10% off all single products while it is active.')).toBeVisible();
  await expect(page.getByTestId('credits-left-draft')).toHaveText('3');

  // A single product costs 10 % less in the cart, at checkout and on the receipt.
  const company = await apiLogin(request, companyEmail);
  const catalogue = (await (await request.get('/product-api/products')).json()) as {
    products: Array<{ _id: string; productName: string; productPrice: number }>;
  };
  const product = catalogue.products[0];
  expect(product, 'the seeded catalogue has a product').toBeTruthy();
  expect(
    (
      await request.post('/api/cart', { headers: company.headers, data: { productId: product._id, quantity: 1 } })
    ).status(),
  ).toBe(201);
  const discounted = Math.round(product.productPrice * 90) / 100;
  await page.goto('/cart');
  await expect(page.getByTestId('line-discount')).toContainText('10% plan discount');
  await expect(page.getByTestId('cart-discount')).toContainText('Plan discount (10%)');
  await expect(page.getByTestId('cart-total')).toHaveText(`₦${Math.round(discounted).toLocaleString('en-NG')}`);
  await page.getByRole('button', { name: 'Purchase' }).click();
  await expect(page.getByTestId('sandbox-amount')).toContainText(Math.round(discounted).toLocaleString('en-NG'));
  await payWithSandboxCard(page);
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();

  await page.goto('/company/dashboard');
  const payments = page.getByRole('complementary', { name: 'Your payments' });
  const download = page.waitForEvent('download');
  await payments.getByRole('button', { name: /^Receipt for payment LM-/ }).click();
  const receipt = await readFile(await (await download).path());
  const { extractText, getDocumentProxy } = await import('unpdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(receipt)), { mergePages: true });
  // A long product name wraps the line, so words are compared with single spaces.
  expect(text.replace(/\s+/g, ' ')).toContain('plan discount: 10% off');

  // A draft credit: a ₦0 job in the workspace, named after the plan.
  await page.goto('/company/plan');
  await page.getByLabel('Kind of work').selectOption('draft');
  await page.getByLabel('Give details').fill('A distribution agreement with our Kano partner');
  await page.getByRole('button', { name: 'Request with a credit' }).click();
  await expect(page.getByText('Your request is in the job workspace')).toBeVisible();
  await expect(page.getByTestId('credits-left-draft')).toHaveText('2');
  await page.getByRole('link', { name: 'open the job' }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  const jobId = /\/jobs\/([0-9a-f-]{36})$/.exec(page.url())![1];
  await expect(page.getByRole('heading', { name: 'Draft (Silver plan)' })).toBeVisible();
  await expect(page.getByText('₦0', { exact: true })).toBeVisible();

  // An admin assigns it, the lawyer delivers, the company accepts on the job page.
  const adminEmail = await createAccount(request, 'admin');
  const admin = await apiLogin(request, adminEmail);
  const lawyer = await apiLogin(request, await createAccount(request, 'lawyer'));
  expect(
    (
      await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } })
    ).status(),
  ).toBe(200);
  expect(
    (await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } })).status(),
  ).toBe(200);
  const upload = await request.post('/api/uploads?kind=document', {
    headers: lawyer.headers,
    multipart: { file: { name: 'agreement.pdf', mimeType: 'application/pdf', buffer: PDF('agreement') } },
  });
  const { url } = ((await upload.json()) as { data: { url: string } }).data;
  expect(
    (
      await request.post(`/job-api/jobs/${jobId}/actions/deliver`, {
        headers: lawyer.headers,
        data: { files: [{ url, name: 'agreement.pdf' }] },
      })
    ).status(),
  ).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('dialog', { name: 'Accept' }).getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();

  // Cancel: the month paid for stays.
  await page.goto('/company/plan');
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByTestId('plan-status')).toContainText('Cancelled: ends on');
  await expect(page.getByTestId('credits-left-draft')).toHaveText('2');

  // The admin sees the subscriber: tier, status, renewal date and credits used.
  const adminPage = page;
  await loginAs(adminPage, adminEmail);
  await adminPage.goto('/admin/subscribers');
  const row = adminPage.getByTestId('subscriber').filter({ hasText: 'Ada Ventures Ltd' }).first();
  await expect(row).toContainText('Silver');
  await expect(row).toContainText('cancelled');
  await expect(row).toContainText('Draft 1/3');
});
