import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiLogin, codeIn, createAccount, loginAs, paidJob, waitForMail } from './helpers';

/**
 * The lawyer's journey. Set-up goes through the real API (docs: ARCHITECTURE "Tests against the real
 * thing"): an admin signs up with the e2e invite code, a company pays for a product with the sandbox's
 * success card, the admin verifies the lawyer and later assigns the job, the company answers the lawyer.
 */

const tokenFor = (request: APIRequestContext, email: string) => apiLogin(request, email);

const createAdmin = async (request: APIRequestContext) => apiLogin(request, await createAccount(request, 'admin'));

test('a verified lawyer applies, works a pending project with the company, and manages payout details', async ({
  page,
  request,
}) => {
  const tag = `E2E-${Date.now()}`;
  const admin = await createAdmin(request);
  const { company, productName } = await paidJob(
    request,
    `${tag} please review our supplier agreement before the board meeting next week thank you`,
  );
  const lawyerEmail = await createAccount(request, 'lawyer');
  const lawyerId = (await tokenFor(request, lawyerEmail)).id;
  const verify = await request.patch(`/api/verifylawyer/${lawyerId}`, {
    headers: admin.headers,
    data: { verified: true },
  });
  expect(verify.status()).toBe(200);

  // The lawyer finds the paid job among the available jobs and applies.
  await loginAs(page, lawyerEmail);
  await page.goto(`/lawyer/available-jobs/${lawyerId}`);
  await expect(page.getByRole('heading', { name: 'Available Jobs' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Best fit' })).toHaveAttribute('aria-selected', 'true');
  const card = page.getByRole('complementary', { name: 'Your profile' });
  await expect(card.getByText('Legal Practitioner', { exact: true })).toBeVisible();
  await expect(card.getByText('Chidi Okeke')).toBeVisible();
  // Name, e-mail, phone, SCN and one area of practice of nine profile fields: 56 percent, not a fixed 60.
  await expect(card.getByRole('progressbar', { name: 'Profile Status' })).toHaveAttribute('aria-valuenow', '56');
  for (const name of ['Complete Profile', 'Get Paid', 'Dashboard'])
    await expect(card.getByRole('link', { name })).toBeVisible();
  await page.getByRole('tab', { name: 'Recent jobs' }).click();
  const item = page.getByRole('listitem').filter({ hasText: tag });
  await expect(item).toBeVisible();
  await item.getByRole('link', { name: productName }).click();
  await expect(page).toHaveURL(/\/lawyer\/available-job-item\/[0-9a-f-]{36}\?lawyerId=/);
  const jobId = /available-job-item\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByRole('heading', { name: productName, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Apply now' }).click();
  await expect(page.getByRole('dialog')).toContainText('Job applied successfully');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('You have applied for this job')).toBeVisible();

  // An admin assigns the job to the lawyer who applied.
  const assigned = await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId } });
  expect(assigned.status()).toBe(200);

  // The lawyer finds it under Pending projects and asks for more details.
  await page.goto('/lawyer/dashboard');
  await expect(page.getByRole('tab', { name: 'Pending projects' })).toHaveAttribute('aria-selected', 'true');
  const project = page
    .getByRole('list', { name: 'Pending projects' })
    .getByRole('listitem')
    .filter({ hasText: productName });
  // Talking to the company happens on the job page's thread (issue 16), not by phone or e-mail.
  await expect(project.getByRole('link', { name: /Messages and files/ })).toHaveAttribute('href', `/jobs/${jobId}`);
  await project.getByRole('button', { name: 'Request more details' }).click();
  const ask = page.getByRole('dialog', { name: 'Request more details' });
  await ask.getByRole('button', { name: 'Send' }).click();
  await expect(ask.getByRole('alert')).toHaveText('Kindly request details');
  await ask.getByLabel('What details do you need?').fill('Please share the signed supplier agreement.');
  await ask.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Request sent successfully');
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'Close' }).first().click();

  // The company answers; the lawyer sees it in Notifications.
  const answer = `${tag} here is the signed agreement summary: parties, term of two years, renewal by notice and the governing law clause.`;
  const answered = await request.put(`/job-api/company/editjobdetails/${jobId}`, {
    headers: company.headers,
    data: { detail: answer },
  });
  expect(answered.status()).toBe(200);
  await page.reload();
  const notes = page.getByRole('complementary', { name: 'Notifications' });
  await expect(notes).toContainText(tag);
  await expect(notes).toContainText('...');
  await notes.getByRole('button', { name: 'View more details' }).first().click();
  await expect(page.getByRole('dialog', { name: productName })).toContainText('governing law clause');
  await page.getByRole('dialog', { name: productName }).getByRole('button', { name: 'Close' }).first().click();

  // Payout details: add them, then change them with the e-mailed code.
  await page.goto('/lawyer/get-paid');
  await expect(page.getByRole('navigation', { name: 'Payment menu' })).toContainText('Get Paid');
  await page.getByLabel('Account Number').fill('01234abc56789');
  await expect(page.getByLabel('Account Number')).toHaveValue('0123456789');
  await page.getByLabel('Account Name').fill('Chidi Okeke');
  await page.getByLabel('Bank').selectOption('Zenith Bank');
  await page.getByRole('button', { name: 'Add Payment Details' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(
    'You have successfully added payment details',
  );
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('0123456789')).toBeVisible();
  await waitForMail(request, lawyerEmail, /Payment details added/);

  await page.getByRole('button', { name: /Edit payment details/ }).click();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/lawyer\/otp$/);
  const mail = await waitForMail(request, lawyerEmail, /payment details code/);
  await page.getByLabel('Digit 1 of 6').fill(codeIn(mail.text));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/lawyer\/get-paid$/);
  await page.getByLabel('Account Number').fill('9876543210');
  await page.getByLabel('Bank').selectOption('Access Bank');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText(
    'You have successfully updated your payment details',
  );
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('9876543210')).toBeVisible();
  await expect(page.getByText('Access Bank')).toBeVisible();
  await waitForMail(request, lawyerEmail, /payment details were changed/);

  // Get Paid lists real figures (nothing completed yet).
  await page.getByRole('button', { name: 'Get Paid' }).click();
  await expect(page.getByRole('heading', { name: 'Get Paid' })).toBeVisible();
  await expect(page.getByText('No completed jobs yet')).toBeVisible();
});

test('an unverified lawyer sees open jobs without their brief, and the server refuses the application', async ({
  page,
  request,
}) => {
  const tag = `E2E-U-${Date.now()}`;
  const { company, productName } = await paidJob(
    request,
    `${tag} an unverified lawyer should not be able to apply for this job at all`,
  );
  const pending = await request.get('/job-api/company/pendingjobs', { headers: company.headers });
  const jobId = ((await pending.json()) as Array<{ _id: string }>)[0]._id;
  const email = await createAccount(request, 'lawyer');
  const { data } = await loginAs(page, email);
  // The list shows open jobs, but an unverified lawyer reads no company's brief (decision 0860).
  await page.goto(`/lawyer/available-jobs/${data.user._id}`);
  await page.getByRole('tab', { name: 'Recent jobs' }).click();
  await expect(page.getByRole('list', { name: 'Open jobs' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByText('shown to verified lawyers only').first()).toBeVisible();
  await expect(page.getByText(tag)).toHaveCount(0);
  await page.goto(`/lawyer/available-job-item/${jobId}?lawyerId=${data.user._id}`);
  await expect(page.getByRole('heading', { name: productName, level: 1 })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('shown to verified lawyers only');
  await expect(page.getByText(tag)).toHaveCount(0);
  await page.getByRole('button', { name: 'Apply now' }).click();
  await expect(page.getByRole('dialog')).toContainText(
    'Unverified lawyers cannot apply for a job. Kindly contact the provider for further enquiry on verification process',
  );
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAE0lEQVR4nGNQSFgARAwLEhSACAAfjgSBXOAMLAAAAABJRU5ErkJggg==',
  'base64',
);

test('a lawyer edits its own profile; another lawyer is refused; an admin reads it', async ({ page, request }) => {
  const email = await createAccount(request, 'lawyer');
  const { data } = await loginAs(page, email);
  const id = data.user._id;
  await page.goto(`/lawyer/profile/${id}`);
  await expect(page.getByRole('heading', { name: 'Chidi Okeke' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Expertise' })).toContainText('Technology');
  await page.getByRole('button', { name: 'Update your details' }).click();

  const bio = page.getByLabel('Your Bio');
  await expect(page.getByText('400 characters left')).toBeVisible();
  await bio.fill('Commercial lawyer in Lagos.');
  await expect(page.getByText('373 characters left')).toBeVisible();
  await page.getByLabel('Phone Number').fill('0803-555-1234 ext');
  await expect(page.getByLabel('Phone Number')).toHaveValue('08035551234');
  await page.getByLabel('Year of Call').fill('2015');
  await page.getByRole('button', { name: 'Maritime' }).click();
  await expect(page.getByRole('button', { name: 'Maritime' })).toHaveAttribute('aria-pressed', 'true');
  await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Success' })).toContainText('Profile Updated Successfully');
  await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('Commercial lawyer in Lagos.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Expertise' })).toContainText('Maritime');
  await expect(page.getByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', /^\/uploads\//);

  // The side card's bar follows: all nine fields but the alternate e-mail are filled now.
  await page.goto(`/lawyer/available-jobs/${id}`);
  await expect(page.getByRole('progressbar', { name: 'Profile Status' })).toHaveAttribute('aria-valuenow', '89');

  // Another lawyer cannot read it.
  const other = await createAccount(request, 'lawyer');
  await loginAs(page, other);
  await page.goto(`/lawyer/profile/${id}`);
  await expect(page.getByRole('alert')).toContainText('You do not have permission to view these profile details.');

  // An admin reads any lawyer's profile, without the edit action.
  const admin = await createAdmin(request);
  await page.evaluate((h) => localStorage.setItem('userToken', h.authorization.slice(7)), admin.headers);
  await page.evaluate(() => localStorage.setItem('userType', 'admin'));
  await page.evaluate((aid) => localStorage.setItem('userId', aid), admin.id);
  await page.goto(`/lawyer/profile/${id}`);
  await expect(page.getByText('Commercial lawyer in Lagos.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update your details' })).toHaveCount(0);
});

test('on a 360 px phone the projects tabs become a select', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const email = await createAccount(request, 'lawyer');
  await loginAs(page, email);
  await page.goto('/lawyer/dashboard');
  const select = page.getByRole('combobox', { name: 'Projects' });
  await expect(select).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending projects' })).toBeHidden();
  await expect(page.getByText('No projects')).toBeVisible();
  await select.selectOption('completed');
  await expect(page.getByText('No projects')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
});
