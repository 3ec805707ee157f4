import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiLogin, createAccount, loginAs, waitForMail } from './helpers';

// A valid 1x1 PNG (product picture) and a small PDF (the admin's job document).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% brief\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const tokenOf = async (request: APIRequestContext, email: string) => (await apiLogin(request, email)).headers;

const signupAdmin = (request: APIRequestContext) => createAccount(request, 'admin');

async function createProduct(request: APIRequestContext, admin: Record<string, string>, productName: string) {
  const created = await request.post('/api/create', {
    headers: admin,
    multipart: {
      productName,
      productPrice: '45000',
      productDescription: 'We search, file and follow up your trademark with the registry.',
      productImage: { name: 'trademark.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { product: { _id: string } } }).data.product._id;
}

test('an admin verifies a lawyer, assigns, details and completes a paid job and edits the settlement account', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // --- people
  const adminEmail = await signupAdmin(request);
  const companyEmail = await createAccount(request, 'company');
  const lawyerEmail = await createAccount(request, 'lawyer');
  const admin = await tokenOf(request, adminEmail);
  const company = await tokenOf(request, companyEmail);
  const lawyer = await tokenOf(request, lawyerEmail);

  // --- a product of our own (unique name), bought and paid for by the company through checkout
  const productName = `Trademark Filing ${Date.now()}`;
  const productId = await createProduct(request, admin, productName);

  expect(
    (
      await request.post('/api/cart', {
        headers: company,
        data: { productId, quantity: 1, detail: 'Our brand is Kola Pay, class 36.' },
      })
    ).status(),
  ).toBe(201);
  const checkout = await request.post('/api/checkout', { headers: company });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { reference, amount } = ((await checkout.json()) as { data: { reference: string; amount: number } }).data;
  const charge = await request.post('/api/checkout/sandbox/charge', {
    headers: company,
    data: { reference, amount, currency: 'NGN', paymentType: 'ussd' },
  });
  expect(charge.status(), await charge.text()).toBe(200);
  const transactionId = ((await charge.json()) as { data: { transaction_id: string } }).data.transaction_id;
  const verified = await request.post('/api/checkout/verify', { headers: company, data: { reference, transactionId } });
  expect(verified.status(), await verified.text()).toBe(200);

  // --- the admin, in the browser
  await loginAs(page, adminEmail);
  await page.goto('/admin/dashboard');
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  for (const item of ['Dashboard', 'Companies', 'Lawyers', 'Jobs', 'Payment', 'Ratings'])
    await expect(menu.getByRole('link', { name: item })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Create Product/ })).toHaveAttribute('href', '/admin/new-product');
  await expect(page.getByTestId('tile-jobs')).toContainText(/open jobs?/);
  await expect(page.getByTestId('tile-lawyers')).toContainText('awaiting verification');

  // verify the new lawyer
  await menu.getByRole('link', { name: 'Lawyers' }).click();
  await page.getByRole('tab', { name: 'Unverified' }).click();
  const lawyerRow = page.getByRole('listitem').filter({ hasText: lawyerEmail });
  await lawyerRow.getByRole('button', { name: /View more/ }).click();
  const lawyerDialog = page.getByRole('dialog');
  await expect(lawyerDialog.getByRole('link', { name: 'Go to profile' })).toBeVisible();
  await lawyerDialog.getByRole('button', { name: 'Verify Lawyer' }).click();
  // Verifying cannot be undone by closing a window: it asks first (issue 18).
  await expect(lawyerDialog.getByRole('heading', { name: /^Verify .*\?$/ })).toBeVisible();
  await lawyerDialog.getByRole('button', { name: 'Verify Lawyer' }).click();
  await expect(lawyerDialog.getByText('Verification Successful')).toBeVisible();
  await lawyerDialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: lawyerEmail })).toHaveCount(0);
  await waitForMail(request, lawyerEmail, /verified/i);

  // the verified lawyer applies for the paid job
  // Without `page` the list is an array of jobs (decision 0901).
  const open = await request.get('/job-api/unassign', { headers: admin });
  const jobs = (await open.json()) as Array<{ _id: string; productId: { _id: string } }>;
  const jobId = jobs.find((j) => j.productId._id === productId)!._id;
  const applied = await request.post(`/job-api/applyforjob/${jobId}`, { headers: lawyer, data: {} });
  expect(applied.status(), await applied.text()).toBe(200);

  // assign it from the jobs list
  await menu.getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `View more: ${productName}` }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Assign' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/assign-job/${jobId}$`));
  await expect(page.getByText('Our brand is Kola Pay, class 36.')).toBeVisible();
  await page.getByRole('button', { name: 'ASSIGN' }).click();
  await expect(page.getByText('Please select a lawyer to assign the job.')).toBeVisible();
  await page.getByRole('tab', { name: 'Applied Lawyers' }).click();
  await page.getByRole('checkbox', { name: 'Select Chidi Okeke' }).check();
  await page.getByRole('button', { name: 'ASSIGN' }).click();
  await expect(page.getByText('Job assigned successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/jobs$/);
  await waitForMail(request, lawyerEmail, /assigned/i);

  // add details with a document on the pending job
  await page.getByRole('tab', { name: 'Pending jobs' }).click();
  await page.getByRole('button', { name: `Add details: ${productName}` }).click();
  const details = page.getByRole('dialog');
  await details.getByRole('button', { name: 'Send' }).click();
  await expect(details.getByText('Kindly add/edit details')).toBeVisible();
  const textarea = details.getByLabel('Give more details');
  await expect(textarea).toHaveAttribute('placeholder', 'Start typing...');
  await textarea.fill('The registry needs the signed power of attorney attached here.');
  await details
    .locator('input[type=file]')
    .setInputFiles({ name: 'brief.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(details.getByRole('link', { name: 'brief.pdf' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Remove brief.pdf' })).toBeVisible();
  await details.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Edited successfully' })).toBeVisible();

  // mark it completed from View more
  await page.getByRole('button', { name: `View more: ${productName}` }).click();
  const view = page.getByRole('dialog');
  await expect(view.getByText('Assigned to Chidi Okeke')).toBeVisible();
  await expect(view.getByText('The registry needs the signed power of attorney attached here.')).toBeVisible();
  await expect(view.getByRole('link', { name: 'brief.pdf' })).toBeVisible();
  await view.getByRole('checkbox', { name: 'Mark as Completed' }).click();
  await expect(view.getByRole('heading', { name: 'Mark this job as completed?' })).toBeVisible();
  await view.getByRole('button', { name: 'Mark as Completed' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Job completed successfully' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Completed jobs' }).click();
  await expect(page.getByRole('button', { name: `View more: ${productName}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Add details: ${productName}` })).toHaveCount(0);

  // edit the settlement account; the ledger shows the company's payment
  await menu.getByRole('link', { name: 'Payment' }).click();
  await page.getByRole('button', { name: 'Edit settlement account' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Account number').fill('0123456789');
  await edit.getByLabel('Account name').fill('LegalMarket Nigeria Ltd');
  await edit.getByLabel('Bank').fill('GTBank');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('settlement-account')).toContainText('0123456789');
  await expect(page.getByTestId('settlement-account')).toContainText('LegalMarket Nigeria Ltd');
  await expect(page.getByText(reference)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('settlement-account')).toContainText('GTBank');

  // the dashboard shows what the admin did
  await menu.getByRole('link', { name: 'Dashboard' }).click();
  const activity = page.getByRole('region', { name: 'Recent activity' });
  await expect(activity).toContainText('changed the settlement account');
  await expect(activity).toContainText('marked a job completed');

  // the ledger holds the company's payment and the completed job's split between platform and lawyer
  await menu.getByRole('link', { name: 'Ledger' }).click();
  const ledger = page.getByRole('list', { name: 'Ledger transactions' });
  await expect(ledger.getByText(`Payment ${reference}`)).toBeVisible();
  await expect(ledger.getByText('Lawyer earning').first()).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '₦' }).first()).toBeVisible();
  await expect(page.getByLabel('Balances')).toContainText('Owed to lawyers');

  // --- the company finds the job under Completed
  const done = await request.get('/job-api/company/completedjobs', { headers: company });
  expect(((await done.json()) as Array<{ _id: string }>).map((j) => j._id)).toContain(jobId);
  await loginAs(page, companyEmail);
  await page.goto('/company/dashboard');
  await page.getByRole('tab', { name: /Completed/ }).click();
  await expect(page.getByText(productName).first()).toBeVisible();
});

test('an admin removes an abusive review after confirming', async ({ page, request }) => {
  const adminEmail = await signupAdmin(request);
  const companyEmail = await createAccount(request, 'company');
  const admin = await tokenOf(request, adminEmail);
  const company = await tokenOf(request, companyEmail);
  const productId = await createProduct(request, admin, `Contract Review ${Date.now()}`);
  const reviewTitle = `Rude words ${Date.now()}`;
  const review = await request.post('/api/rating', {
    headers: company,
    data: { reviewTitle, review: 'An abusive review that breaks the rules.', status: 1, productId },
  });
  expect(review.status(), await review.text()).toBeLessThan(300);

  await loginAs(page, adminEmail);
  await page.goto('/admin/ratings');
  await expect(page.getByRole('heading', { name: 'Ratings', level: 1 })).toBeVisible();
  const reviewItem = page.getByTestId('admin-review').filter({ hasText: reviewTitle });
  await expect(reviewItem).toContainText('Ada Ventures Ltd');
  await expect(reviewItem.getByRole('img', { name: '1 out of 5 stars' })).toBeVisible();
  await reviewItem.getByRole('button', { name: /Remove review/ }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(reviewTitle);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(reviewItem).toBeVisible();
  await reviewItem.getByRole('button', { name: /Remove review/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove review' }).click();
  await expect(page.getByTestId('admin-review').filter({ hasText: reviewTitle })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ratings', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading reviews...')).toHaveCount(0);
  await expect(page.getByTestId('admin-review').filter({ hasText: reviewTitle })).toHaveCount(0);
  // the removal is in the audit log on the dashboard
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText(`removed a review: ${reviewTitle}`);
});

test('on a 360 px phone an admin uploads the Remuneration Order by keyboard, and visitors then see it', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const adminEmail = await signupAdmin(request);
  await loginAs(page, adminEmail);
  await page.goto('/admin/dashboard');
  await page.getByRole('link', { name: /Remuneration Order Upload or replace/ }).click();
  await expect(page).toHaveURL(/\/admin\/remuneration-order$/);
  await expect(page.getByRole('heading', { name: 'Remuneration Order', level: 1 })).toBeVisible();
  // Another run may have published one already: the button says Upload or Replace accordingly.
  const submit = page.getByRole('button', { name: /^(Upload|Replace) PDF$/ });
  await expect(submit).toBeVisible();

  const input = page.getByLabel('Remuneration Order (PDF)');
  await input.setInputFiles({ name: 'remuneration-order-2023.pdf', mimeType: 'application/pdf', buffer: PDF });
  await input.focus();
  await page.keyboard.press('Tab');
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Remuneration Order uploaded' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the PDF' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);

  // The upload is in the audit log.
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText('uploaded the Remuneration Order');

  // A visitor (signed out) sees the PDF embedded.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/legal-practitioners-remuneration-order');
  await expect(page.getByLabel('Legal Practitioners Remuneration Order 2023 (PDF)')).toHaveAttribute(
    'data',
    '/api/remuneration-order',
  );
  const pdf = await request.get('/api/remuneration-order');
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).equals(PDF)).toBe(true);
});
