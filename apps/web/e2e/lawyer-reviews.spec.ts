import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiLogin, createAccount, loginAs, paidJob } from './helpers';

/**
 * Reviews of lawyers (issue 20, item 1; decision 2000): once its job is completed, the company reviews
 * the lawyer from the job page, and the admin sees the lawyer's average and count, completed jobs and
 * on-time rate when assigning the next job.
 */

const PDF = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/** The company's newest pending job. */
async function pendingJobOf(request: APIRequestContext, headers: Record<string, string>) {
  const jobs = (await (await request.get('/job-api/company/pendingjobs', { headers })).json()) as Array<{
    _id: string;
  }>;
  return jobs[0]._id;
}

test('a company reviews its lawyer after completion and the admin sees it on the assign page', async ({
  page,
  request,
}) => {
  const admin = await apiLogin(request, await createAccount(request, 'admin'));
  const adminEmail = await createAccount(request, 'admin');
  const lawyerEmail = await createAccount(request, 'lawyer');
  const lawyer = await apiLogin(request, lawyerEmail);
  expect(
    (
      await request.patch(`/api/verifylawyer/${lawyer.id}`, { headers: admin.headers, data: { verified: true } })
    ).status(),
  ).toBe(200);

  // Paid, assigned, delivered and accepted, as in job-workspace.spec.ts (through the API here).
  const paid = await paidJob(request, `Reviews ${Date.now()} please draft our shareholders agreement`);
  const jobId = await pendingJobOf(request, paid.company.headers);
  expect(
    (await request.post('/job-api/assign', { headers: admin.headers, data: { jobId, lawyerId: lawyer.id } })).status(),
  ).toBe(200);
  const upload = await request.post('/api/uploads?kind=document', {
    headers: lawyer.headers,
    multipart: { file: { name: 'final.pdf', mimeType: 'application/pdf', buffer: PDF('final') } },
  });
  expect(upload.status()).toBe(201);
  const { url } = ((await upload.json()) as { data: { url: string } }).data;
  const delivered = await request.post(`/job-api/jobs/${jobId}/actions/deliver`, {
    headers: lawyer.headers,
    data: { files: [{ url, name: 'final.pdf' }] },
  });
  expect(delivered.status()).toBe(200);

  // Before acceptance the company has nothing to review yet.
  await loginAs(page, paid.companyEmail);
  await page.goto(`/jobs/${jobId}`);
  await expect(page.getByRole('heading', { name: "Chidi Okeke's reviews" })).toBeVisible();
  await expect(page.getByText('No reviews yet. 0 reviews')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Review the lawyer' })).toHaveCount(0);

  // The company accepts the delivery on the page; the review form appears.
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('dialog', { name: 'Accept' }).getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  const form = page.getByRole('form', { name: 'Review the lawyer' });
  await expect(form).toBeVisible();
  // Submitting empty names each missing field with the contract's messages.
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(form.getByText('Please choose a star rating from 1 to 5')).toBeVisible();
  await form.getByRole('radio', { name: '4 stars' }).click();
  await expect(form.getByText('Very good')).toBeVisible();
  await form.getByLabel('Title').fill('Clear and on time');
  await form.getByLabel('Your review').fill('Drafted our agreement within the week and explained every clause.');
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review Submitted Successfully' })).toBeVisible();
  const rating = page.getByTestId('lawyer-rating');
  await expect(rating).toContainText('4.0');
  await expect(rating).toContainText('1 review');
  await expect(page.getByRole('list', { name: 'Your review of this job' })).toContainText('Clear and on time');
  await expect(page.getByRole('button', { name: 'Edit your review' })).toBeVisible();

  // The next job: the lawyer applies, and the admin picks by track record.
  const next = await paidJob(request, `Reviews ${Date.now()} next job for the same lawyer`);
  const nextJobId = await pendingJobOf(request, next.company.headers);
  expect(
    (await request.post(`/job-api/applyforjob/${nextJobId}`, { headers: lawyer.headers, data: {} })).status(),
  ).toBe(200);
  await loginAs(page, adminEmail);
  await page.goto(`/admin/assign-job/${nextJobId}`);
  await page.getByLabel('Sort by').selectOption('rating');
  const panel = page.getByRole('tabpanel', { name: 'Applied Lawyers' });
  const row = panel.getByRole('listitem').filter({ hasText: 'Chidi Okeke' });
  await expect(row.getByTestId('track-record')).toHaveText('4.0 ★ (1 review) · 1 completed · 100% on time');
});
