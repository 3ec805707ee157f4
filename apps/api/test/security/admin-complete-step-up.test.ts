import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { TWO_FACTOR, twoFactorMessages } from '@legalmarket/contracts';
import { jobs, ledgerEntries, ledgerTransactions } from '../../src/db/schema.js';
import { SUCCESS_CARD, insertProduct } from '../commerce-helpers.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { twoFactorKit } from '../two-factor-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const MINUTE = 60_000;

/**
 * A stolen admin session whose owner has two-factor on (decision 2282): an admin's "Mark as Completed"
 * releases what the company paid and is still held for the job to the lawyer (less the commission), from
 * any working stage, nothing delivered, and the earning then leaves through a payout the owner approves
 * as routine. So it asks for a fresh code, as the admin's cancel, which refunds the same money, does.
 */
describeEachDb('an admin marking a job completed', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let product: string;
  const { call, codeOf, nextStep, enrol } = twoFactorKit(() => t);

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    product = await insertProduct(t, 'Shareholders Agreement', 80_000);
  }, 120_000);
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  /** A job a company paid for through the sandbox, assigned to the lawyer and being worked on. */
  async function paidJob(by: Login = admin) {
    const company = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/cart', company, { productId: product, quantity: 1 })).statusCode).toBe(201);
    const started = (await inject('POST', '/api/checkout', company)).json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference: started.reference,
      amount: started.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    expect(charged.statusCode, charged.body).toBe(200);
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    const verified = await inject('POST', '/api/checkout/verify', company, {
      reference: started.reference,
      transactionId,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, started.orderId));
    const assigned = await inject('POST', '/job-api/assign', by, { jobId: job.id, lawyerId: lawyer.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return job.id;
  }
  const stageOf = async (id: string) => (await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id)))[0].stage;
  const earningsOf = (id: string) =>
    t.rt.database.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.jobId, id), eq(ledgerEntries.account, 'lawyer_earnings')));

  it('asks a session whose last code is stale for a fresh one, on the spec route and on the job page', async () => {
    const secret = await enrol(admin);
    const jobId = await paidJob();
    // What a thief holds: the owner's session, its last code older than the step-up window.
    t.clock.advance((TWO_FACTOR.stepUpMinutes + 1) * MINUTE);
    for (const [method, url] of [
      ['PUT', `/job-api/completejob/${jobId}`],
      ['POST', `/job-api/jobs/${jobId}/actions/complete`],
    ] as const) {
      const res = await inject(method, url, admin, {});
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(TWO_FACTOR.stepUpStatus);
      expect(res.json().message).toBe(twoFactorMessages.stepUpRequired);
    }
    // Nothing moved: the job is still being worked on and the lawyer earned nothing from it.
    expect(await stageOf(jobId)).toBe('in_progress');
    expect(await earningsOf(jobId)).toEqual([]);

    // The owner proves a code, as the web's step-up prompt does, and the same click goes through.
    nextStep();
    expect((await call('POST', '/api/two-factor/verify', admin, { code: codeOf(secret) })).statusCode).toBe(200);
    const done = await inject('POST', `/job-api/jobs/${jobId}/actions/complete`, admin, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(await stageOf(jobId)).toBe('completed');
    expect(await earningsOf(jobId)).toHaveLength(1);
    const viaSpec = await paidJob();
    expect((await inject('PUT', `/job-api/completejob/${viaSpec}`, admin, {})).statusCode).toBe(200);
  });

  it('does not ask an admin without two-factor, nor anyone for the job page’s other admin actions', async () => {
    const plain = await signupAndLogin(t, 'admin');
    const jobId = await paidJob(plain);
    const note = await inject('POST', `/job-api/jobs/${jobId}/actions/message`, plain, { note: 'Checking in' });
    expect(note.statusCode, note.body).toBe(200);
    expect((await inject('PUT', `/job-api/completejob/${jobId}`, plain, {})).statusCode).toBe(200);
    expect(await earningsOf(jobId)).toHaveLength(1);
  });
});
