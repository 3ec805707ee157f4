import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ledgerEntries, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/commerce-helpers.js';
import { handOverKit, type Login } from './hand-over-test-kit.js';

// Mark as Completed asks first, naming whom it pays and how much (decision 2322). Another admin may hand
// the job on or change the commission while that dialog is open: the completion then pays what the admin
// confirmed or nothing, with a 409 naming the new payee and amount (decision 2340).
describeEachDb('Mark as Completed after another admin changed the pay', (kind) => {
  let t: TestApp;
  let admin: Login;
  let admin2: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, admin2] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'admin')]);
    product = await insertProduct(t, 'Share Transfer', 50_000);
  });
  afterAll(() => t.close());

  const { db, inject, assign, pay } = handOverKit(() => ({ t, admin, product }));
  const complete = (jobId: string, body?: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: `/job-api/completejob/${jobId}`,
      headers: admin.headers,
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  const earned = (jobId: string) =>
    db()
      .select({ lawyerId: ledgerEntries.lawyerId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.jobId, jobId), eq(ledgerEntries.account, 'lawyer_earnings')));
  const setCommission = async (commissionPercent: number) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/money-settings',
      headers: admin2.headers,
      payload: { commissionPercent, holdDays: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('a commission changed after the dialog opened: 409 naming the new amount, nothing paid; the new amount then pays', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: 'Ada Lawyer' }).where(eq(users.id, lawyer.id));
    const job = await pay(company);
    expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
    const shown = (await inject('GET', `/job-api/admin/job/${job.id}`, admin)).json().data.job.payOnComplete;
    expect(shown).toMatchObject({ lawyerId: lawyer.id, amount: 40_000 });

    await setCommission(30);
    const refused = await complete(job.id, { lawyerId: shown.lawyerId, amount: shown.amount });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This job now pays Ada Lawyer ₦35,000, not ₦40,000: the commission changed after you opened it. Check the job and mark it completed again.',
    );
    expect(await earned(job.id)).toEqual([]);

    const ok = await complete(job.id, { lawyerId: lawyer.id, amount: 35_000 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await earned(job.id)).toEqual([{ lawyerId: lawyer.id, amount: -3_500_000 }]);
    await setCommission(20);
  });

  it('a job handed to another lawyer after the dialog opened: 409 naming them, nothing paid', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: 'Bola Second' }).where(eq(users.id, second.id));
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin2, { verified: false })).statusCode).toBe(200);
    expect((await assign(job.id, second.id)).statusCode).toBe(200);

    const refused = await complete(job.id, { lawyerId: first.id, amount: 40_000 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This job now pays Bola Second ₦40,000: another admin passed it to them after you opened it. Check the job and mark it completed again.',
    );
    expect(await earned(job.id)).toEqual([]);
    // The spec's bodiless call still completes (no check asked).
    expect((await complete(job.id)).statusCode).toBe(200);
    expect(await earned(job.id)).toEqual([{ lawyerId: second.id, amount: -4_000_000 }]);
  });
});
