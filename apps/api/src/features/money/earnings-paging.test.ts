import { afterAll, beforeAll, expect, it } from 'vitest';
import { EARNINGS_PAGE, type EarningsResponse } from '@legalmarket/contracts';
import { jobs, ledgerEntries, ledgerTransactions } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertOrder, insertProduct } from '../../../test/admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Get Paid's earnings per job page on past EARNINGS_PAGE, as the notifications do, instead of stopping there. */
describeEachDb('the lawyer’s earnings, page by page', (kind) => {
  let t: TestApp;
  let lawyer: Login;
  const COUNT = EARNINGS_PAGE + 5;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const company = await signupAndLogin(t, 'company');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const db = t.rt.database.db;
    const productId = (await insertProduct(t, 'Board Resolution')).id;
    const order = await insertOrder(t, company.id, { amountKobo: COUNT * 1_000_000 });
    const now = t.clock.now();
    // COUNT completed jobs at ₦10,000, each earned once: ₦2,000 commission, ₦8,000 to the lawyer.
    const made = await db
      .insert(jobs)
      .values(
        Array.from({ length: COUNT }, (_, i) => ({
          orderId: order.id,
          lineNo: i + 1,
          companyId: company.id,
          productId,
          status: 'completed' as const,
          stage: 'completed' as const,
          quantity: 1,
          amount: 1_000_000,
          assignedTo: lawyer.id,
          assignedAt: now,
          completedAt: new Date(now.getTime() + i * 1000),
          createdAt: now,
        })),
      )
      .returning({ id: jobs.id });
    await db.transaction(async (tx) => {
      const posted = await tx
        .insert(ledgerTransactions)
        .values(made.map((j) => ({ kind: 'earning' as const, jobId: j.id, memo: 'Earning for a completed job' })))
        .returning({ id: ledgerTransactions.id, jobId: ledgerTransactions.jobId });
      await tx.insert(ledgerEntries).values(
        posted.flatMap((p) => [
          { transactionId: p.id, account: 'held_for_jobs' as const, amount: 1_000_000, jobId: p.jobId },
          { transactionId: p.id, account: 'platform_commission' as const, amount: -200_000, jobId: p.jobId },
          {
            transactionId: p.id,
            account: 'lawyer_earnings' as const,
            amount: -800_000,
            jobId: p.jobId,
            lawyerId: lawyer.id,
            availableAt: now,
          },
        ]),
      );
    });
  });
  afterAll(() => t.close());

  const earnings = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/job-api/lawyer/earnings${query}`, headers: lawyer.headers });
    expect(res.statusCode).toBe(200);
    return (res.json() as EarningsResponse).data;
  };

  it('answers the newest page with `older`, then the rest by `before`, every job once', async () => {
    const first = await earnings();
    expect(first.count).toBe(COUNT);
    expect(first.available).toBe(COUNT * 8_000);
    expect(first.jobs).toHaveLength(EARNINGS_PAGE);
    expect(first.jobs[0]).toMatchObject({ amount: 10_000, commission: 2_000, earned: 8_000 });
    expect(first.older).toEqual(expect.any(String));
    const next = await earnings(`?before=${first.older}`);
    expect(next.jobs).toHaveLength(COUNT - EARNINGS_PAGE);
    expect(next.older).toBeUndefined();
    // The figures are the whole account's on every page.
    expect(next).toMatchObject({ count: COUNT, available: COUNT * 8_000 });
    const ids = [...first.jobs, ...next.jobs].map((j) => j.jobId);
    expect(new Set(ids).size).toBe(COUNT);
  });

  it('refuses a `before` that is no earnings cursor with a clear 400', async () => {
    for (const bad of ['abc', '0', '-3', '1.5']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/job-api/lawyer/earnings?before=${bad}`,
        headers: lawyer.headers,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('before must be the older of an earnings answer');
    }
  });
});
