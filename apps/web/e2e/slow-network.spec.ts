import { expect, test } from '@playwright/test';
import { loginAs, paidJob } from './helpers';

/**
 * A founder on a dead mobile line (decision 2306): a send whose answer never comes is given up after
 * 30 s with a message that says to try again; sent again, the server takes it once (the job page's key,
 * decision 1600). The browser's clock is driven, so the test does not wait the 30 s.
 */
test('a message whose answer is lost is given up, and sent again it shows once', async ({ page, request }) => {
  const paid = await paidJob(request, `Slow line ${Date.now()} please review our term sheet`);
  await page.clock.install();
  await loginAs(page, paid.companyEmail);
  const jobs = (await (
    await page.request.get('/job-api/company/pendingjobs', { headers: paid.company.headers })
  ).json()) as Array<{ _id: string }>;
  await page.goto(`/jobs/${jobs[0]._id}`);
  const timeline = page.getByRole('list', { name: 'Timeline and messages' });
  const text = 'Is the valuation cap fixed?';

  // The request reaches the server and is taken; its answer never reaches the phone.
  let reached!: () => void;
  const taken = new Promise<void>((resolve) => (reached = resolve));
  await page.route('**/job-api/jobs/*/actions/message', async (route) => {
    await route.fetch();
    reached();
  });
  await page.getByLabel('Message or note').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await taken;
  await page.clock.runFor(30_000);
  await expect(page.getByRole('alert')).toHaveText('No answer from the server. Check your connection and try again.');
  await expect(page.getByLabel('Message or note')).toHaveValue(text);

  // Back online: the same send again.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Message or note')).toHaveValue('');
  await expect(timeline.getByText(text, { exact: true })).toHaveCount(1);
  await page.reload();
  await expect(timeline.getByText(text, { exact: true })).toHaveCount(1);
});

/**
 * A keyboard or screen-reader user sends with Enter on a slow line: the busy Send keeps focus (a natively
 * disabled button dropped it to the page, and the reader lost their place), and Enter again sends nothing.
 */
test('Send keeps focus while its message is on its way, and a second Enter sends nothing', async ({
  page,
  request,
}) => {
  const paid = await paidJob(request, `Focus ${Date.now()} please review our share transfer`);
  await loginAs(page, paid.companyEmail);
  const jobs = (await (
    await page.request.get('/job-api/company/pendingjobs', { headers: paid.company.headers })
  ).json()) as Array<{ _id: string }>;
  await page.goto(`/jobs/${jobs[0]._id}`);
  let sends = 0;
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/job-api/jobs/*/actions/message', async (route) => {
    sends++;
    await held;
    await route.continue();
  });
  await page.getByLabel('Message or note').fill('Who signs for the company?');
  const send = page.getByRole('button', { name: 'Send' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(send).toHaveAttribute('aria-busy', 'true');
  await expect(send).toBeFocused();
  await page.keyboard.press('Enter');
  answer();
  await expect(page.getByLabel('Message or note')).toHaveValue('');
  await expect(send).toBeFocused();
  expect(sends).toBe(1);
});
