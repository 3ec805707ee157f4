import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiLogin, createAccount, loginAs, paidJob } from './helpers';

/**
 * The job done on the platform (issue 16): the company and the assigned lawyer talk and hand over
 * documents on the job page, the lawyer delivers, the company asks for changes and accepts; a silent
 * company's delivery is accepted by the clock; the bell shows and clears what happened.
 */

const PDF = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/** A paid job assigned to a verified lawyer; the accounts to act as. */
async function assignedJob(request: APIRequestContext) {
  const admin = await apiLogin(request, await createAccount(request, 'admin'));
  const paid = await paidJob(request, `Workspace ${Date.now()} please draft our shareholders agreement`);
  const jobs = (await (
    await request.get('/job-api/company/pendingjobs', { headers: paid.company.headers })
  ).json()) as Array<{
    _id: string;
  }>;
  const jobId = jobs[0]._id;
  const lawyerEmail = await createAccount(request, 'lawyer');
  const lawyer = await apiLogin(request, lawyerEmail);
  expect(
    (
      await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } })
    ).status(),
  ).toBe(200);
  expect(
    (await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } })).status(),
  ).toBe(200);
  return { jobId, productName: paid.productName, companyEmail: paid.companyEmail, lawyer, lawyerEmail };
}

async function attach(page: Page, name: string) {
  await page.getByLabel('Attach a document').setInputFiles({ name, mimeType: 'application/pdf', buffer: PDF(name) });
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
}

const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline and messages' });

test('pay, assign, talk both ways with a file, deliver, request changes, deliver again, accept', async ({
  page,
  browser,
  request,
}) => {
  const job = await assignedJob(request);
  // The company opens the thread from its dashboard's Chat with a lawyer.
  await loginAs(page, job.companyEmail);
  await page.goto('/company/dashboard');
  await page.getByRole('link', { name: 'Chat with a lawyer' }).first().click();
  await expect(page).toHaveURL(`/jobs/${job.jobId}`);
  await expect(page.getByRole('heading', { name: job.productName, level: 1 })).toBeVisible();
  await expect(page.getByText('In progress')).toBeVisible();
  await page.getByLabel('Message or note').fill('Hello! Our cap table is attached.');
  await attach(page, 'cap-table.pdf');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(timeline(page).getByText('Hello! Our cap table is attached.')).toBeVisible();

  // The lawyer, in a browser of its own, reads it and answers.
  const lawyerContext = await browser.newContext();
  const lawyerPage = await lawyerContext.newPage();
  await loginAs(lawyerPage, job.lawyerEmail);
  await lawyerPage.goto(`/jobs/${job.jobId}`);
  await expect(timeline(lawyerPage).getByText('Hello! Our cap table is attached.')).toBeVisible();
  await expect(timeline(lawyerPage).getByText('cap-table.pdf')).toBeVisible();
  await lawyerPage.getByLabel('Message or note').fill('Thank you, I will send a first draft on Friday.');
  await lawyerPage.getByRole('button', { name: 'Send' }).click();
  // The company sees it within 5 seconds, without a reload.
  await expect(timeline(page).getByText('Thank you, I will send a first draft on Friday.')).toBeVisible({
    timeout: 6_000,
  });

  // Deliver needs a document; then the company asks for changes.
  await attach(lawyerPage, 'shareholders-agreement-v1.pdf');
  await lawyerPage.getByRole('button', { name: 'Deliver', exact: true }).click();
  await expect(lawyerPage.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(page.getByText('Delivered', { exact: true })).toBeVisible({ timeout: 6_000 });
  await page.getByRole('button', { name: 'Request changes' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please say what should change');
  await page.getByLabel('Message or note').fill('Please add a drag-along clause.');
  await page.getByRole('button', { name: 'Request changes' }).click();
  await expect(page.getByText('Changes requested', { exact: true })).toBeVisible();

  await expect(lawyerPage.getByRole('button', { name: 'Deliver again' })).toBeVisible({ timeout: 6_000 });
  await attach(lawyerPage, 'shareholders-agreement-v2.pdf');
  await lawyerPage.getByRole('button', { name: 'Deliver again' }).click();
  await expect(page.getByRole('button', { name: 'Accept' })).toBeVisible({ timeout: 6_000 });
  // The lawyer leaves the thread first: an open thread reads its own notifications as they arrive.
  await lawyerPage.goto('/lawyer/dashboard');
  await page.getByRole('button', { name: 'Accept' }).click();
  const confirm = page.getByRole('dialog', { name: 'Accept' });
  await confirm.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);

  // The lawyer's bell counts what happened; the list clears it.
  await lawyerPage.reload();
  const bell = lawyerPage.getByRole('link', { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(lawyerPage.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(lawyerPage.getByText(/accepted the work on/).first()).toBeVisible();
  await lawyerPage.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(lawyerPage.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible();
  await lawyerContext.close();

  // The job page fits a 360 px phone: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/jobs/${job.jobId}`);
  await expect(timeline(page)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('a delivery the company leaves unanswered is accepted automatically after five working days', async ({
  page,
  request,
}) => {
  const job = await assignedJob(request);
  const upload = await request.post('/api/uploads?kind=document', {
    headers: job.lawyer.headers,
    multipart: { file: { name: 'final.pdf', mimeType: 'application/pdf', buffer: PDF('final') } },
  });
  expect(upload.status()).toBe(201);
  const { url } = ((await upload.json()) as { data: { url: string } }).data;
  const delivered = await request.post(`/job-api/jobs/${job.jobId}/actions/deliver`, {
    headers: job.lawyer.headers,
    data: { files: [{ url, name: 'final.pdf' }] },
  });
  expect(delivered.status()).toBe(200);
  // Two weeks on, five working days have passed whatever the weekday and holidays.
  const tick = await request.post('/dev/scheduler/tick', { data: { days: 14 } });
  expect(tick.status()).toBe(200);
  await loginAs(page, job.lawyerEmail);
  await page.goto(`/jobs/${job.jobId}`);
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  await expect(timeline(page).getByText(/accepted the work automatically/)).toBeVisible();
});
