import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import {
  cartItems,
  jobApplications,
  jobEvents,
  jobs,
  lawyerReviews,
  orders,
  payoutDetails,
  payouts,
  reviews,
  subscriptionPayments,
  users,
} from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  otherConnection,
  signupAndLogin,
  waitingOnLock,
  type TestApp,
} from '../helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * Every signed-in write against an account erased from another tab while the write was under way
 * (decision 2246, as 2230 did for uploads and profiles): the session was checked when the request began,
 * so the write must find the account gone under the erasure's lock, answer 401 and keep nothing.
 */
describeEachDb('writes onto an account erased mid-request (2246)', (kind) => {
  let t: TestApp;
  let product: string;

  const inject = (method: 'POST' | 'PUT', url: string, who: Login, payload: object = {}) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  const erase = (who: Login) => inject('POST', '/api/account/delete', who, { password: PASSWORD });

  /**
   * Runs `write` with its session checked, then erases `who` before the write's first transaction
   * begins: the interleaving of a write that passed its guards while another tab erased the account.
   */
  async function erasedBeforeWrite(who: Login, write: () => Promise<Answer>) {
    const db = t.rt.database.db;
    const original = db.transaction.bind(db);
    let armed = true;
    const spy = vi.spyOn(db, 'transaction').mockImplementation((async (...args: Parameters<typeof original>) => {
      if (armed) {
        armed = false;
        const erased = await erase(who);
        expect(erased.statusCode, erased.body).toBe(200);
      }
      return original(...args);
    }) as typeof db.transaction);
    try {
      const res = await write();
      expect(armed, 'the write began a transaction').toBe(false);
      return res;
    } finally {
      spy.mockRestore();
    }
  }

  async function expectErased(who: Login, res: Answer) {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toBe(messages.notSignedIn);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, who.id));
    expect(row.deletedAt).not.toBeNull();
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    product = (await insertProduct(t, 'Trademark Registration')).id;
  }, 120_000);
  afterAll(async () => t?.close());

  it('adds no cart line for an erased company', async () => {
    const company = await signupAndLogin(t, 'company');
    const res = await erasedBeforeWrite(company, () => inject('POST', '/api/cart', company, { productId: product }));
    await expectErased(company, res);
    expect(await t.rt.database.db.select().from(cartItems).where(eq(cartItems.companyId, company.id))).toEqual([]);
  });

  it('moves no reservation into an erased company’s cart', async () => {
    const company = await signupAndLogin(t, 'company');
    const res = await erasedBeforeWrite(company, () =>
      inject('POST', '/api/cart/reservations', company, {
        items: [{ productId: product, reservationId: '0b8f8e1c-8a4f-4f6e-9a43-2f1f3b6c2d11' }],
      }),
    );
    await expectErased(company, res);
    expect(await t.rt.database.db.select().from(cartItems).where(eq(cartItems.companyId, company.id))).toEqual([]);
  });

  it('keeps no product review or lawyer review of an erased company', async () => {
    const company = await signupAndLogin(t, 'company');
    const rated = await erasedBeforeWrite(company, () =>
      inject('POST', '/api/rating', company, {
        productId: product,
        reviewTitle: 'Quick and clear',
        review: 'Filed within the week.',
        status: 5,
      }),
    );
    await expectErased(company, rated);
    expect(await t.rt.database.db.select().from(reviews).where(eq(reviews.companyId, company.id))).toEqual([]);

    const other = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, other.id, { productId: product, status: 'completed', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'completed' }).where(eq(jobs.id, job.id));
    const reviewed = await erasedBeforeWrite(other, () =>
      inject('POST', '/api/lawyer-reviews', other, {
        jobId: job.id,
        stars: 5,
        reviewTitle: 'Thorough',
        review: 'Answered every question.',
      }),
    );
    await expectErased(other, reviewed);
    expect(await t.rt.database.db.select().from(lawyerReviews).where(eq(lawyerReviews.jobId, job.id))).toEqual([]);
  });

  it("writes no reply of an erased lawyer onto a company's review (2276)", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { productId: product, status: 'completed', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'completed' }).where(eq(jobs.id, job.id));
    const [review] = await t.rt.database.db
      .insert(lawyerReviews)
      .values({
        jobId: job.id,
        companyId: company.id,
        lawyerId: lawyer.id,
        stars: 3,
        reviewTitle: 'Fine',
        review: 'Ok.',
      })
      .returning();
    const res = await erasedBeforeWrite(lawyer, () =>
      inject('POST', `/api/lawyer-reviews/${review.id}/reply`, lawyer, { reply: 'Thank you, Chidi Okeke' }),
    );
    await expectErased(lawyer, res);
    const [row] = await t.rt.database.db.select().from(lawyerReviews).where(eq(lawyerReviews.id, review.id));
    expect(row.reply).toBeNull();
  });

  it('sends no job message from an erased admin; a party with the job open cannot be erased', async () => {
    const company = await signupAndLogin(t, 'company');
    // Another admin stays: the only admin cannot be erased.
    await signupAndLogin(t, 'admin');
    const admin = await signupAndLogin(t, 'admin');
    const job = await insertJob(t, company.id, { productId: product });
    const res = await erasedBeforeWrite(admin, () =>
      inject('POST', `/job-api/jobs/${job.id}/actions/message`, admin, { note: 'Any update?' }),
    );
    await expectErased(admin, res);
    expect(await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.actorId, admin.id))).toEqual([]);

    // What held: a company or lawyer with the job open is refused the erasure (409), so its message or
    // delivery lands on a live account.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const open = await insertJob(t, company.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'in_progress' }).where(eq(jobs.id, open.id));
    expect((await erase(lawyer)).statusCode).toBe(409);
    expect((await erase(company)).statusCode).toBe(409);
  });

  it('keeps no job application of an erased lawyer', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { productId: product });
    const res = await erasedBeforeWrite(lawyer, () => inject('POST', `/job-api/applyforjob/${job.id}`, lawyer, {}));
    await expectErased(lawyer, res);
    const db = t.rt.database.db;
    expect(await db.select().from(jobApplications).where(eq(jobApplications.lawyerId, lawyer.id))).toEqual([]);
    expect(await db.select().from(jobEvents).where(eq(jobEvents.actorId, lawyer.id))).toEqual([]);
  });

  it('keeps no payout details or payout request of an erased lawyer', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const added = await erasedBeforeWrite(lawyer, () =>
      inject('POST', '/api/add-payment-details', lawyer, {
        accountNumber: '0123456789',
        accountName: 'Chidi Okeke',
        bank: 'Zenith Bank',
      }),
    );
    await expectErased(lawyer, added);
    const db = t.rt.database.db;
    expect(await db.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id))).toEqual([]);

    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    const asked = await erasedBeforeWrite(other, () => inject('POST', '/api/lawyer/payouts', other, {}));
    await expectErased(other, asked);
    expect(await db.select().from(payouts).where(eq(payouts.lawyerId, other.id))).toEqual([]);
  });

  it('starts no checkout or plan payment for an erased company', async () => {
    const company = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/cart', company, { productId: product })).statusCode).toBe(201);
    const started = await erasedBeforeWrite(company, () => inject('POST', '/api/checkout', company));
    await expectErased(company, started);
    const db = t.rt.database.db;
    expect(await db.select().from(orders).where(eq(orders.companyId, company.id))).toEqual([]);

    const other = await signupAndLogin(t, 'company');
    const plan = await erasedBeforeWrite(other, () =>
      inject('POST', '/api/plans/subscribe', other, { tier: 'bronze' }),
    );
    await expectErased(other, plan);
    expect(await db.select().from(subscriptionPayments).where(eq(subscriptionPayments.companyId, other.id))).toEqual(
      [],
    );
  });

  // The other order, on the server only (PGlite has one connection): a write whose transaction is under
  // way when the erasure comes holds the account's row, so the erasure waits for it and then erases it.
  it.runIf(kind === 'postgres')('makes an erasure that comes second wait for the write and erase it', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { productId: product });
    const db = t.rt.database.db;
    const watcher = await otherConnection(t);
    const original = db.transaction.bind(db);
    let erasure: Promise<Answer> | undefined;
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce((async (
      run: Parameters<typeof original>[0],
      ...rest: unknown[]
    ) =>
      original(
        async (tx) => {
          const result = await run(tx);
          // Written, not yet committed: the erasure starts now, and must wait for this commit.
          erasure = erase(lawyer);
          const waited = await waitingOnLock(watcher);
          expect(waited, 'the erasure waited for the write').toBe(true);
          return result;
        },
        ...(rest as []),
      )) as typeof db.transaction);
    try {
      const applied = await inject('POST', `/job-api/applyforjob/${job.id}`, lawyer, {});
      expect(applied.statusCode, applied.body).toBe(200);
      expect((await erasure!).statusCode).toBe(200);
    } finally {
      spy.mockRestore();
      await watcher.end();
    }
    expect(await db.select().from(jobApplications).where(eq(jobApplications.lawyerId, lawyer.id))).toEqual([]);
  });
});
