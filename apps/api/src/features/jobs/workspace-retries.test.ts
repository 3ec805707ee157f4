import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, refunds } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, insertProduct } from '../../../test/commerce-helpers.js';
import { createLedger } from '../money/ledger.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The job workspace used by impatient people on slow networks: a retry after a lost answer, sent with
 * the same key but not the same request, and an action taken on a page that no longer shows the job
 * as it is (issue 16).
 */
describeEachDb('job workspace: retries and stale pages', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    product = await insertProduct(t, 'Employment Contract', 40_000);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const act = (id: string, action: string, who: Login, payload: object = {}) =>
    inject('POST', `/job-api/jobs/${id}/actions/${action}`, who, payload);

  /** A job paid through the sandbox (its ₦40,000 held), assigned to the lawyer. */
  async function assignedJob() {
    expect((await inject('POST', '/api/cart', company, { productId: product, quantity: 1 })).statusCode).toBeLessThan(
      300,
    );
    const started = await inject('POST', '/api/checkout', company);
    expect(started.statusCode, started.body).toBe(200);
    const { reference, amount, orderId } = started.json().data;
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId));
    const assigned = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return job.id;
  }
  const refundsOf = (id: string) =>
    t.rt.database.db
      .select({ amount: refunds.amount })
      .from(refunds)
      .where(and(eq(refunds.jobId, id)));

  it('refuses a cancellation sent again under its key with another refund, instead of answering it as made', async () => {
    const id = await assignedJob();
    const first = await act(id, 'cancel', admin, { note: 'Ordered twice', refund: 10_000, key: 'cancel-partial-01' });
    expect(first.statusCode, first.body).toBe(200);
    // The admin's answer was lost; the form is sent again with the whole amount, under the same key.
    for (const payload of [
      { note: 'Ordered twice', refund: 40_000, key: 'cancel-partial-01' },
      { note: 'Ordered twice', key: 'cancel-partial-01' },
    ]) {
      const again = await act(id, 'cancel', admin, payload);
      expect(again.statusCode, again.body).toBe(422);
      expect(again.json().message).toBe(messages.cancelKeyReused);
    }
    // The same request again is answered as done; the one refund stands as first asked.
    const same = await act(id, 'cancel', admin, { note: 'Ordered twice', refund: 10_000, key: 'cancel-partial-01' });
    expect(same.statusCode, same.body).toBe(200);
    expect(await refundsOf(id)).toEqual([{ amount: 1_000_000 }]);

    // A full refund by default: sent again without a refund, or naming the whole amount, is the same request.
    const full = await assignedJob();
    expect((await act(full, 'cancel', admin, { key: 'cancel-full-0001' })).statusCode).toBe(200);
    expect((await act(full, 'cancel', admin, { key: 'cancel-full-0001' })).statusCode).toBe(200);
    expect((await act(full, 'cancel', admin, { refund: 40_000, key: 'cancel-full-0001' })).statusCode).toBe(200);
    expect((await act(full, 'cancel', admin, { refund: 0, key: 'cancel-full-0001' })).statusCode).toBe(422);
    expect(await refundsOf(full)).toEqual([{ amount: 4_000_000 }]);
  });
});
