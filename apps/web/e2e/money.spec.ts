import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { collectionFee, transferFee } from '../../api/src/platform/payments/fees';
import { apiLogin, createAccount, loginAs, waitForMail } from './helpers';

/**
 * Issue 17's money flow end to end: a company pays by bank transfer and gets its receipt, the job is
 * delivered and accepted, the lawyer withdraws its share, the admin approves, and every page agrees.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n% final\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** As `formatNairaExact` writes it (`<Naira exact>`, dialogs): kobo, as two digits, only when there are any. */
const nairaExact = (n: number) =>
  Number.isInteger(n)
    ? `₦${n.toLocaleString('en-NG')}`
    : `₦${n.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const naira = (n: number) => `₦${Math.round(n).toLocaleString('en-NG')}`;
const kobo = (n: number) => Math.round(n * 100);

interface Balances {
  providerCash: number;
  heldForJobs: number;
  platformCommission: number;
  owedToLawyers: number;
  payoutsInTransit: number;
}

const balances = async (request: APIRequestContext, headers: Record<string, string>) => {
  const res = await request.get('/api/admin/ledger?limit=1', { headers });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { balances: Balances }).balances;
};

test('pay by bank transfer, receipt by e-mail, job accepted, lawyer withdraws, admin approves, books agree', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const request = page.request;
  const adminEmail = await createAccount(request, 'admin');
  const admin = await apiLogin(request, adminEmail);
  const settings = (commissionPercent: number, holdDays: number) =>
    request.put('/api/admin/money-settings', { headers: admin.headers, data: { commissionPercent, holdDays } });
  // The lawyer's share is available at once; the defaults come back whatever happens.
  expect((await settings(20, 0)).status()).toBe(200);
  try {
    const catalogue = (await (await request.get('/product-api/products')).json()) as {
      products: Array<{ _id: string; productName: string; productPrice: number }>;
    };
    const product = catalogue.products[0];
    expect(product, 'the seeded catalogue has a product').toBeTruthy();
    const price = product.productPrice;
    const commission = kobo(price * 0.2) / 100;
    const share = (kobo(price) - kobo(commission)) / 100;
    const before = await balances(request, admin.headers);

    // 1. The company pays for its cart by bank transfer in the sandbox dialog.
    const companyEmail = await createAccount(request, 'company');
    const company = await apiLogin(request, companyEmail);
    expect(
      (
        await request.post('/api/cart', {
          headers: company.headers,
          data: { productId: product._id, quantity: 1, detail: 'Our distribution agreement with Kano Mills' },
        })
      ).status(),
    ).toBe(201);
    await loginAs(page, companyEmail);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Purchase' }).click();
    const dialog = page.getByTestId('sandbox-checkout');
    await dialog.getByRole('tab', { name: 'Bank Transfer' }).click();
    const transfer = dialog.getByTestId('bank-transfer');
    await expect(transfer.getByText(`Transfer exactly ${naira(price)} to this account`)).toBeVisible();
    const reference = (await transfer.getByText(/^LM-\d+-[0-9a-f]{10}$/).textContent())!;
    await dialog.getByRole('button', { name: 'I have sent the money' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();
    await expect(page).toHaveURL(/\/products$/, { timeout: 10_000 });

    // 2. The confirmation e-mail carries the receipt; the dashboard offers it too.
    const mail = await waitForMail(request, companyEmail, new RegExp(`^Payment received: .*\\(${reference}\\)$`));
    // A receipt always shows the kobo.
    const receiptNaira = `₦${price.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(mail.subject).toBe(`Payment received: ${receiptNaira} (${reference})`);
    const attachment = (mail as unknown as { attachments: Array<{ filename: string; url: string }> }).attachments[0];
    expect(attachment.filename).toBe(`receipt-${reference}.pdf`);
    const file = await request.get(attachment.url);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await page.goto('/company/dashboard');
    const payments = page.getByRole('complementary', { name: 'Your payments' });
    const download = page.waitForEvent('download');
    await payments.getByRole('button', { name: `Receipt for payment ${reference}` }).click();
    const receipt = await download;
    expect(receipt.suggestedFilename()).toBe(`receipt-${reference}.pdf`);
    expect((await readFile(await receipt.path())).subarray(0, 5).toString()).toBe('%PDF-');

    // 3. The admin assigns a verified lawyer, the lawyer delivers, the company accepts on the job page.
    const jobs = (await (
      await request.get('/job-api/company/pendingjobs', { headers: company.headers })
    ).json()) as Array<{ _id: string }>;
    expect(jobs).toHaveLength(1);
    const jobId = jobs[0]._id;
    const lawyerEmail = await createAccount(request, 'lawyer');
    const lawyer = await apiLogin(request, lawyerEmail);
    expect(
      (
        await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } })
      ).status(),
    ).toBe(200);
    expect(
      (
        await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } })
      ).status(),
    ).toBe(200);
    const upload = await request.post('/api/uploads?kind=document', {
      headers: lawyer.headers,
      multipart: { file: { name: 'distribution-agreement.pdf', mimeType: 'application/pdf', buffer: PDF } },
    });
    expect(upload.status()).toBe(201);
    const { url } = ((await upload.json()) as { data: { url: string } }).data;
    expect(
      (
        await request.post(`/job-api/jobs/${jobId}/actions/deliver`, {
          headers: lawyer.headers,
          data: { files: [{ url, name: 'distribution-agreement.pdf' }] },
        })
      ).status(),
    ).toBe(200);
    await page.goto(`/jobs/${jobId}`);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('dialog', { name: 'Accept' }).getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();

    // 4. The lawyer adds payout details (an account the sandbox bank pays) and withdraws its share.
    // Pages show the account masked: a last four of its own finds this lawyer's payout among others.
    const last4 = String(3000 + (Date.now() % 7000));
    const accountNumber = `501763${last4}`;
    const masked = `•••• ${last4}`;
    const lawyerPage = await (await browser.newContext()).newPage();
    await loginAs(lawyerPage, lawyerEmail);
    await lawyerPage.goto('/lawyer/get-paid');
    await lawyerPage.getByLabel('Account Number').fill(accountNumber);
    await lawyerPage.getByLabel('Account Name').fill('Chidi Okeke');
    await lawyerPage.getByLabel('Bank').selectOption('Access Bank');
    await lawyerPage.getByRole('button', { name: 'Add Payment Details' }).click();
    await lawyerPage
      .getByRole('dialog', { name: 'Success' })
      .getByRole('button', { name: 'Close', exact: true })
      .last()
      .click();
    await expect(lawyerPage.getByLabel(`Account number ${accountNumber}`)).toBeVisible();

    await lawyerPage.goto('/lawyer/get-paid?tab=get-paid');
    const available = lawyerPage
      .getByText('Available to withdraw', { exact: true })
      .locator('xpath=following-sibling::p');
    await expect(available).toHaveText(nairaExact(share));
    await expect(lawyerPage.getByRole('row', { name: new RegExp(product.productName) })).toContainText(
      nairaExact(commission),
    );
    await expect(lawyerPage.getByLabel('Amount (₦)')).toHaveValue(String(share));
    await lawyerPage.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await lawyerPage
      .getByRole('dialog', { name: 'Confirm withdrawal' })
      .getByRole('button', { name: `Withdraw ${nairaExact(share)}` })
      .click();
    await lawyerPage
      .getByRole('dialog', { name: 'Success' })
      .getByRole('button', { name: 'Close', exact: true })
      .last()
      .click();
    // The request holds the money back from another withdrawal.
    await expect(available).toHaveText('₦0');
    await expect(lawyerPage.getByText('Nothing is available to withdraw right now.')).toBeVisible();
    await expect(lawyerPage.getByText('Waiting for approval')).toBeVisible();

    // 5. The admin approves it on Payouts; it is paid.
    const adminPage = await (await browser.newContext()).newPage();
    await loginAs(adminPage, adminEmail);
    await adminPage.goto('/admin/payouts');
    const waiting = adminPage.getByRole('listitem').filter({ hasText: masked });
    await expect(waiting).toContainText(nairaExact(share));
    await waiting.getByRole('button', { name: /^Approve/ }).click();
    const approve = adminPage.getByRole('dialog', { name: 'Approve payouts' });
    await expect(approve).toContainText(`Send ${nairaExact(share)} to Chidi Okeke by bank transfer`);
    await approve.getByRole('button', { name: 'Approve and send' }).click();
    await adminPage
      .getByRole('dialog', { name: 'Success' })
      .getByRole('button', { name: 'Close', exact: true })
      .last()
      .click();
    const recent = adminPage
      .getByRole('region', { name: 'Recent payouts' })
      .getByRole('listitem')
      .filter({ hasText: masked });
    await expect(async () => {
      await adminPage.reload();
      await expect(recent).toContainText('Paid', { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(recent).toContainText(nairaExact(share));

    // 6. The lawyer has nothing left to withdraw and sees the withdrawal paid.
    await lawyerPage.reload();
    await expect(available).toHaveText('₦0');
    const withdrawal = lawyerPage.getByRole('listitem').filter({ hasText: masked });
    await expect(withdrawal).toContainText(nairaExact(share));
    await expect(withdrawal).toContainText('Paid');

    // The ledger: this lawyer's rows are its earning, the payout sent and settled; the balances moved only
    // by the commission (the journeys run one at a time, so the difference is this job's alone).
    await adminPage.goto(`/admin/ledger?lawyerId=${lawyer.id}`);
    const rows = adminPage.getByRole('list', { name: 'Ledger transactions' }).getByRole('listitem');
    const row = (kind: string) => rows.filter({ has: adminPage.getByText(kind, { exact: true }) });
    await expect(rows).toHaveCount(3);
    await expect(row('Lawyer earning')).toContainText(nairaExact(share));
    await expect(row('Lawyer earning')).toContainText(nairaExact(commission));
    await expect(row('Payout sent')).toContainText(nairaExact(share));
    await expect(row('Payout settled')).toContainText(nairaExact(share));
    const after = await balances(request, admin.headers);
    expect(kobo(after.platformCommission) - kobo(before.platformCommission)).toBe(kobo(commission));
    expect(after.owedToLawyers).toBe(before.owedToLawyers);
    expect(after.heldForJobs).toBe(before.heldForJobs);
    expect(after.payoutsInTransit).toBe(before.payoutsInTransit);
    // What Flutterwave keeps (the payment's app_fee, the transfer's fee) leaves its cash too.
    const fees = collectionFee(kobo(price)) + transferFee(kobo(share));
    expect(kobo(after.providerCash) - kobo(before.providerCash)).toBe(kobo(commission) - fees);
    const figures = adminPage.locator('dl[aria-label="Balances"]');
    for (const [label, value] of [
      ['Held by Flutterwave', after.providerCash],
      ['Held for open jobs', after.heldForJobs],
      ['Platform commission', after.platformCommission],
      ['Owed to lawyers', after.owedToLawyers],
      ['Payouts in transit', after.payoutsInTransit],
    ] as const)
      await expect(figures.getByText(label).locator('..')).toContainText(nairaExact(value));

    // Reconciliation: nothing about this payment differs between the ledger and the sandbox.
    await adminPage.goto('/admin/reconciliation');
    await expect(
      adminPage.getByText(/Ledger and the sandbox agree/).or(adminPage.getByRole('heading', { name: /difference/ })),
    ).toBeVisible();
    await expect(adminPage.getByTestId('difference').filter({ hasText: reference })).toHaveCount(0);
    if ((await adminPage.getByTestId('difference').count()) === 0)
      await expect(adminPage.getByText(/Ledger and the sandbox agree/)).toBeVisible();
  } finally {
    expect((await settings(20, 7)).status()).toBe(200);
  }
});
