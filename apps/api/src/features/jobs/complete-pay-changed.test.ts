import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobEvents, ledgerEntries, users } from '../../db/schema.js';
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

  const { db, inject, act, assign, pay } = handOverKit(() => ({ t, admin, product }));
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
    const refused = await complete(job.id, { payOnComplete: { lawyerId: shown.lawyerId, amount: shown.amount } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This job now pays Ada Lawyer ₦35,000, not ₦40,000: the commission changed after you opened it. Check the job and mark it completed again.',
    );
    expect(await earned(job.id)).toEqual([]);

    const ok = await complete(job.id, { payOnComplete: { lawyerId: lawyer.id, amount: 35_000 } });
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

    const refused = await complete(job.id, { payOnComplete: { lawyerId: first.id, amount: 40_000 } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This job now pays Bola Second ₦40,000: another admin passed it to them after you opened it. Check the job and mark it completed again.',
    );
    expect(await earned(job.id)).toEqual([]);
    // The spec's bodiless call still completes (no check asked).
    expect((await complete(job.id)).statusCode).toBe(200);
    expect(await earned(job.id)).toEqual([{ lawyerId: second.id, amount: -4_000_000 }]);
  });
  it("the job page's Complete checks what its confirmation showed as the spec's route does", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: 'Chi Lawyer' }).where(eq(users.id, lawyer.id));
    const job = await pay(company);
    expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
    const shown = (await inject('GET', `/job-api/admin/job/${job.id}`, admin)).json().data.job.payOnComplete;

    await setCommission(30);
    const payOnComplete = { lawyerId: shown.lawyerId, amount: shown.amount };
    const refused = await act(admin, job.id, 'complete', { payOnComplete });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This job now pays Chi Lawyer ₦35,000, not ₦40,000: the commission changed after you opened it. Check the job and mark it completed again.',
    );
    expect(await earned(job.id)).toEqual([]);
    // Only a completion takes it.
    expect((await act(admin, job.id, 'add_details', { note: 'x', payOnComplete })).statusCode).toBe(400);

    const ok = await act(admin, job.id, 'complete', { payOnComplete: { lawyerId: lawyer.id, amount: 35_000 } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await earned(job.id)).toEqual([{ lawyerId: lawyer.id, amount: -3_500_000 }]);
    await setCommission(20);
  });

  it('a payOnComplete naming only the lawyer, or the amount as text, is refused with 400 naming the field', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await pay(company);
    expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);

    const onlyLawyer = await complete(job.id, { payOnComplete: { lawyerId: lawyer.id } });
    expect(onlyLawyer.statusCode).toBe(400);
    expect(onlyLawyer.json().message).toMatch(/amount/);
    const textAmount = await complete(job.id, { payOnComplete: { lawyerId: lawyer.id, amount: '40000' } });
    expect(textAmount.statusCode).toBe(400);
    expect(textAmount.json().message).toMatch(/amount/);
    const onlyAmount = await complete(job.id, { payOnComplete: { amount: 40_000 } });
    expect(onlyAmount.statusCode).toBe(400);
    expect(onlyAmount.json().message).toMatch(/lawyerId/);
    expect(await earned(job.id)).toEqual([]);
    // A body without payOnComplete is tolerated as before, top-level fields of the same names included
    // (the spec's call reads no body: the authorization matrix sends such fields and expects them ignored).
    expect((await complete(job.id, { note: 'done', amount: 1, lawyerId: 'x' })).statusCode).toBe(200);
    expect(await earned(job.id)).toEqual([{ lawyerId: lawyer.id, amount: -4_000_000 }]);
  });

  // Decision 2357: the admin whose answer was lost (the connection dropped after the commit) sends the
  // same confirmation again and was told 409 "already completed" for a completion that had succeeded.
  it('the same confirmation sent again after a lost answer: 200 with the job, paid and recorded once', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await pay(company);
    expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
    const shown = (await inject('GET', `/job-api/admin/job/${job.id}`, admin)).json().data.job.payOnComplete;
    const payOnComplete = { lawyerId: shown.lawyerId, amount: shown.amount };
    const first = await complete(job.id, { payOnComplete });
    expect(first.statusCode, first.body).toBe(200);
    const events = async () =>
      (await db().select().from(jobEvents).where(eq(jobEvents.jobId, job.id))).filter((e) => e.action === 'complete');

    const again = await complete(job.id, { payOnComplete });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe(messages.jobCompleted);
    expect(again.json().data.job).toMatchObject({ _id: job.id, status: 'completed' });
    expect(await earned(job.id)).toEqual([{ lawyerId: lawyer.id, amount: -4_000_000 }]);
    expect(await events()).toHaveLength(1);

    // Another amount, another payee, another admin or no confirmation at all is not that request.
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    for (const [who, body] of [
      [admin, { payOnComplete: { ...payOnComplete, amount: 1 } }],
      [admin, { payOnComplete: { ...payOnComplete, lawyerId: other.id } }],
      [admin2, { payOnComplete }],
      [admin, undefined],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/job-api/completejob/${job.id}`,
        headers: who.headers,
        ...(body ? { payload: body } : {}),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(messages.jobAlreadyCompleted);
    }
    expect(await earned(job.id)).toEqual([{ lawyerId: lawyer.id, amount: -4_000_000 }]);
    expect(await events()).toHaveLength(1);
  });
});
