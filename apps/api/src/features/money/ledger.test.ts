import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { EarningsResponse, LedgerResponse } from '@legalmarket/contracts';
import { jobs, ledgerEntries, ledgerTransactions, orders, refunds } from '../../db/schema.js';
import { rowsOf } from '../../db/client.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, insertProduct } from '../../../test/commerce-helpers.js';
import { createLedger } from './ledger.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

/** The database's own message for a refused statement (drizzle wraps it as the cause). */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
  return 'not refused';
}

describeEachDb('one ledger: payments, earnings, balances', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let nda: string;
  let tm: string;
  let ledger: ReturnType<typeof createLedger>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    tm = await insertProduct(t, 'Trademark Registration', 150_001.57);
    ledger = createLedger({ db: t.rt.database.db, clock: t.clock });
  });
  afterAll(() => t.close());
  // Whatever a test did, the books must still be right.
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });

  /** Pays for the products through the sandbox as a real company does; returns the order and its jobs. */
  async function pay(company: Login, lines: { productId: string; quantity: number }[]) {
    for (const l of lines) {
      expect((await inject('POST', '/api/cart', company, l)).statusCode).toBeLessThan(300);
      t.clock.advance(1000);
    }
    const started = await inject('POST', '/api/checkout', company);
    expect(started.statusCode).toBe(200);
    const { reference, amount, orderId } = started.json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    expect(charged.statusCode).toBe(200);
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const opened = await t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId)).orderBy(jobs.lineNo);
    return { orderId, reference, transactionId, amount, jobs: opened };
  }

  const entriesOf = (where: ReturnType<typeof eq>) =>
    t.rt.database.db
      .select({ kind: ledgerTransactions.kind, account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(where)
      .orderBy(ledgerEntries.id);

  const complete = (jobId: string) => inject('POST', `/job-api/jobs/${jobId}/actions/complete`, admin, {});
  const assign = (jobId: string) => inject('POST', '/job-api/assign', admin, { jobId, lawyerId: lawyer.id });

  it('posts a payment once: the provider holds it, held against each job, repeats post nothing', async () => {
    const company = await signupAndLogin(t, 'company');
    const paid = await pay(company, [
      { productId: nda, quantity: 2 },
      { productId: tm, quantity: 1 },
    ]);
    expect(paid.amount).toBe(200_001.57);
    // The browser, a retry and a second tab confirm again: nothing more is posted.
    await Promise.all(
      [1, 2, 3].map(() =>
        inject('POST', '/api/checkout/verify', company, {
          reference: paid.reference,
          transactionId: paid.transactionId,
        }),
      ),
    );
    const rows = await entriesOf(eq(ledgerTransactions.orderId, paid.orderId));
    expect(rows).toEqual([
      { kind: 'payment', account: 'provider_cash', amount: 20_000_157 },
      { kind: 'payment', account: 'held_for_jobs', amount: -5_000_000 },
      { kind: 'payment', account: 'held_for_jobs', amount: -15_000_157 },
      // Flutterwave's fee (1.4 % is ₦2,800.02, capped at ₦2,000), once, from the cash it settles.
      { kind: 'fee', account: 'provider_fees', amount: 200_000 },
      { kind: 'fee', account: 'provider_cash', amount: -200_000 },
    ]);
    const held = await t.rt.database.db
      .select({ jobId: ledgerEntries.jobId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.account, 'held_for_jobs'));
    for (const j of paid.jobs) expect(held.filter((h) => h.jobId === j.id).map((h) => h.amount)).toEqual([-j.amount]);
  });

  it("a completed job pays the lawyer's share after the holding period and the commission to the platform", async () => {
    const company = await signupAndLogin(t, 'company');
    const paid = await pay(company, [{ productId: tm, quantity: 1 }]);
    const job = paid.jobs[0];
    expect((await assign(job.id)).statusCode).toBe(200);
    const before = (await inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse;
    expect((await complete(job.id)).statusCode).toBe(200);

    const rows = await entriesOf(eq(ledgerTransactions.jobId, job.id));
    // 20 % of 15,000,157 kobo is 3,000,031.4, rounded to 3,000,031; the lawyer gets the rest, so nothing is lost.
    expect(rows).toEqual([
      { kind: 'earning', account: 'held_for_jobs', amount: 15_000_157 },
      { kind: 'earning', account: 'platform_commission', amount: -3_000_031 },
      { kind: 'earning', account: 'lawyer_earnings', amount: -12_000_126 },
    ]);

    const after = (await inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse;
    expect(after.data.count).toBe(before.data.count + 1);
    expect(after.data.pending).toBeCloseTo(before.data.pending + 120_001.26, 2);
    expect(after.data.available).toBe(before.data.available);
    expect(after.data).toMatchObject({ commissionPercent: 20, holdDays: 7 });
    expect(after.data.jobs[0]).toMatchObject({
      jobId: job.id,
      productName: 'Trademark Registration',
      amount: 150_001.57,
      commission: 30_000.31,
      earned: 120_001.26,
    });

    // Seven days later the share is available to withdraw (read through a ledger whose clock is a week
    // ahead: moving the app's clock would expire every session of this suite).
    const weekLater = createLedger({
      db: t.rt.database.db,
      clock: { now: () => new Date(t.clock.now().getTime() + 7 * DAY + 1000) },
    });
    const later = await weekLater.lawyerEarnings(lawyer.id);
    expect(later.available).toBeCloseTo(after.data.available + after.data.pending, 2);
    expect(later.pending).toBe(0);

    // Completing again is refused by the lifecycle and posts nothing.
    expect((await complete(job.id)).statusCode).toBe(409);
    expect(await entriesOf(eq(ledgerTransactions.jobId, job.id))).toHaveLength(3);
  });

  it('twenty concurrent completions of one job post one earning', async () => {
    const company = await signupAndLogin(t, 'company');
    const paid = await pay(company, [{ productId: nda, quantity: 1 }]);
    const job = paid.jobs[0];
    expect((await assign(job.id)).statusCode).toBe(200);
    const codes = (await Promise.all(Array.from({ length: 20 }, () => complete(job.id)))).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200 && c !== 409)).toEqual([]);
    const earnings = await t.rt.database.db
      .select()
      .from(ledgerTransactions)
      .where(sql`${ledgerTransactions.jobId} = ${job.id} and ${ledgerTransactions.kind} = 'earning'`);
    expect(earnings).toHaveLength(1);
  });

  it('the commission and holding period are settings: admins change them, later completions use them', async () => {
    expect((await inject('GET', '/api/admin/money-settings', admin)).json().settings).toEqual({
      commissionPercent: 20,
      holdDays: 7,
    });
    const refused = await inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 80, holdDays: 7 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/commissionPercent/);
    expect(
      (await inject('PUT', '/api/admin/money-settings', lawyer, { commissionPercent: 0, holdDays: 0 })).statusCode,
    ).toBe(403);
    const saved = await inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 12.5, holdDays: 0 });
    expect(saved.statusCode).toBe(200);
    try {
      const company = await signupAndLogin(t, 'company');
      const paid = await pay(company, [{ productId: nda, quantity: 1 }]);
      await assign(paid.jobs[0].id);
      const before = (await inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse;
      expect((await complete(paid.jobs[0].id)).statusCode).toBe(200);
      const rows = await entriesOf(eq(ledgerTransactions.jobId, paid.jobs[0].id));
      expect(rows.find((r) => r.account === 'platform_commission')?.amount).toBe(-312_500);
      const after = (await inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse;
      // No holding period: available at once.
      expect(after.data.available).toBeCloseTo(before.data.available + 21_875, 2);
    } finally {
      await inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 20, holdDays: 7 });
    }
  });

  it("the admin's ledger lists, filters and exports; balances add up; others are refused", async () => {
    const company = await signupAndLogin(t, 'company');
    const paid = await pay(company, [{ productId: nda, quantity: 1 }]);
    const all = (await inject('GET', '/api/admin/ledger?limit=200', admin)).json() as LedgerResponse;
    for (const tx of all.transactions) expect(tx.entries.reduce((s, e) => s + Math.round(e.amount * 100), 0)).toBe(0);
    const b = all.balances;
    // Cash in less the provider's fees = held + commission + owed to lawyers (no refunds or payouts yet).
    expect(b.providerFees).toBeGreaterThan(0);
    expect(Math.round((b.providerCash + b.providerFees) * 100)).toBe(
      Math.round((b.heldForJobs + b.platformCommission + b.owedToLawyers + b.payoutsInTransit) * 100),
    );

    const mine = (await inject('GET', `/api/admin/ledger?companyId=${company.id}`, admin)).json() as LedgerResponse;
    expect(mine.total).toBe(1);
    expect(mine.transactions[0]).toMatchObject({ kind: 'payment', orderId: paid.orderId });
    const earnings = (await inject('GET', `/api/admin/ledger?kind=earning&lawyerId=${lawyer.id}`, admin)).json();
    expect(earnings.transactions.every((x: { kind: string }) => x.kind === 'earning')).toBe(true);
    expect(earnings.total).toBeGreaterThan(0);
    const fees = (await inject('GET', '/api/admin/ledger?kind=fee&limit=200', admin)).json() as LedgerResponse;
    expect(fees.transactions.find((x) => x.orderId === paid.orderId)).toMatchObject({
      kind: 'fee',
      entries: [
        { account: 'provider_fees', amount: 350 },
        { account: 'provider_cash', amount: -350 },
      ],
    });
    expect(fees.transactions.every((x) => x.kind === 'fee')).toBe(true);
    const feeCsv = (await inject('GET', '/api/admin/ledger.csv?kind=fee', admin)).body.trim().split('\r\n');
    expect(feeCsv.slice(1).every((l) => l.split(',')[2] === 'Provider fee')).toBe(true);
    expect(
      feeCsv
        .slice(1)
        .filter((l) => l.includes(paid.orderId))
        .map((l) => l.split(',').slice(4, 6)),
    ).toEqual([
      ['provider_fees', '350.00'],
      ['provider_cash', '-350.00'],
    ]);
    const future = (await inject('GET', '/api/admin/ledger?from=2099-01-01', admin)).json() as LedgerResponse;
    expect(future.total).toBe(0);

    const csv = await inject('GET', `/api/admin/ledger.csv?companyId=${company.id}`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('transaction,date,kind,memo,account,amount_ngn,order_id,job_id,company_id,lawyer_id');
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['25000.00', '-25000.00']);

    for (const [url, code] of [
      ['/api/admin/ledger?kind=gift', 400],
      ['/api/admin/ledger?from=2026-13-40', 400],
      ['/api/admin/ledger?companyId=nope', 400],
      ['/api/admin/ledger?limit=100000', 400],
    ] as const) {
      const res = await inject('GET', url, admin);
      expect(res.statusCode, url).toBe(code);
      expect(res.json().message, url).toBeTruthy();
    }
    expect((await inject('GET', '/api/admin/ledger', company)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/ledger.csv', lawyer)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/ledger', null)).statusCode).toBe(401);
  });

  it('the audit names a job completed and refunded both, and money left held for a job that ended', async () => {
    const db = t.rt.database.db;
    const [a, b, c] = [
      await pay(await signupAndLogin(t, 'company'), [{ productId: nda, quantity: 1 }]),
      await pay(await signupAndLogin(t, 'company'), [{ productId: nda, quantity: 1 }]),
      await pay(await signupAndLogin(t, 'company'), [{ productId: nda, quantity: 1 }]),
    ];
    const [jobA, jobB, jobC] = [a.jobs[0], b.jobs[0], c.jobs[0]];
    for (const j of [jobB, jobC]) expect((await assign(j.id)).statusCode).toBe(200);
    expect((await complete(jobB.id)).statusCode).toBe(200);
    const held = 2_500_000;
    await expect(
      refusal(
        db.transaction(async (tx) => {
          // A's job cancelled with its refund still to be sent: A is owed the whole of it...
          const [cancelled] = await tx.update(jobs).set({ stage: 'cancelled' }).where(eq(jobs.id, jobA.id)).returning();
          await ledger.recordCancellation(tx, cancelled, held, held);
          // ...while B's job, completed and its lawyer paid, is refunded too: B was owed nothing.
          const [r] = await tx
            .insert(refunds)
            .values({ jobId: jobB.id, orderId: b.orderId, amount: held, status: 'completed', provider: 'sandbox' })
            .returning();
          await ledger.recordRefund(tx, { id: r.id, jobId: jobB.id, amount: held, companyId: jobB.companyId });
          // C's job completed with no earning: what it paid stays held, its lawyer is never paid.
          await tx.update(jobs).set({ stage: 'completed' }).where(eq(jobs.id, jobC.id));
          expect(await ledger.audit(tx)).toEqual([
            `refunds due to company ${jobB.companyId} for job ${jobB.id} is negative (-${held} kobo)`,
            `job ${jobC.id} is completed but ${held} kobo are still held for it`,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
  });

  it('the audit says which posting a job contradicts: an earning or a cancellation', async () => {
    const db = t.rt.database.db;
    const { jobs: paid } = await pay(await signupAndLogin(t, 'company'), [
      { productId: nda, quantity: 1 },
      { productId: tm, quantity: 1 },
    ]);
    await expect(
      refusal(
        db.transaction(async (tx) => {
          // One job released for its lawyer, the other for a refund, both while still waiting for a lawyer.
          const held = await ledger.heldFor(tx, paid[1].id);
          await ledger.recordEarning(tx, { ...paid[0], assignedTo: lawyer.id });
          await ledger.recordCancellation(tx, paid[1], held, held);
          expect(await ledger.audit(tx)).toEqual([
            `job ${paid[0].id} earned but is unassigned`,
            `job ${paid[1].id} has its cancellation posted but is unassigned`,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
  });

  it('the audit names a paid order that kept money for no job and gave none of it back', async () => {
    const db = t.rt.database.db;
    const company = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/cart', company, { productId: nda, quantity: 1 })).statusCode).toBeLessThan(300);
    const { orderId } = (await inject('POST', '/api/checkout', company)).json().data as { orderId: string };
    await expect(
      refusal(
        db.transaction(async (tx) => {
          // Paid, but its line opened no job (taken for one another order bought) and no refund was opened.
          const [paid] = await tx
            .update(orders)
            .set({ status: 'paid', paidAt: t.clock.now(), providerTransactionId: 'lost-line' })
            .where(eq(orders.id, orderId))
            .returning();
          await ledger.recordPayment(tx, paid, []);
          expect(await ledger.audit(tx)).toEqual([
            `order ${orderId} holds ${paid.amount} kobo for no job and no refund`,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
  });

  it('the audit names a lawyer whose waiting withdrawals reserve more than it is owed', async () => {
    const db = t.rt.database.db;
    const earner = await signupAndLogin(t, 'lawyer', { verified: true });
    const { jobs: paid } = await pay(await signupAndLogin(t, 'company'), [{ productId: nda, quantity: 1 }]);
    expect(
      (await inject('POST', '/job-api/assign', admin, { jobId: paid[0].id, lawyerId: earner.id })).statusCode,
    ).toBe(200);
    expect((await complete(paid[0].id)).statusCode).toBe(200);
    // ₦25,000 at the default commission: what the ledger owes this lawyer, held or available.
    const [{ owed }] = rowsOf<{ owed: string }>(
      await db.execute(
        sql`select (-sum(amount_kobo))::text as owed from ledger_entries where account = 'lawyer_earnings' and lawyer_id = ${earner.id}`,
      ),
    );
    const ask = { lawyerId: earner.id, bank: 'Zenith Bank', bankCode: '057', accountName: 'A', provider: 'sandbox' };
    await expect(
      refusal(
        db.transaction(async (tx) => {
          // Two requests that each fit, taking the same money: both waiting, together more than is owed.
          await tx.execute(sql`insert into payouts (lawyer_id, amount_kobo, bank, bank_code, account_number, account_name, provider)
            values (${ask.lawyerId}, ${Number(owed)}, ${ask.bank}, ${ask.bankCode}, '0123456789', ${ask.accountName}, ${ask.provider}),
                   (${ask.lawyerId}, 100000, ${ask.bank}, ${ask.bankCode}, '0123456789', ${ask.accountName}, ${ask.provider})`);
          expect(await ledger.audit(tx)).toEqual([
            `lawyer ${earner.id} has ${Number(owed) + 100_000} kobo of payouts requested but is owed ${owed} kobo`,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
  });

  it('the audit names a plan payment paid with no posting, and one posted that was never paid', async () => {
    const db = t.rt.database.db;
    const company = await signupAndLogin(t, 'company');
    const payment = (ex: Parameters<Parameters<typeof db.transaction>[0]>[0], txRef: string, status: string) =>
      ex.execute(sql`insert into subscription_payments (company_id, tier, kind, tx_ref, amount_kobo, status, provider, provider_plan_id)
        values (${company.id}, 'silver', 'first', ${txRef}, 5000000, ${status}, 'sandbox', '') returning id::text as id`);
    await expect(
      refusal(
        db.transaction(async (tx) => {
          const [{ id: lost }] = rowsOf<{ id: string }>(await payment(tx, `LM-PLAN-LOST-${company.id}`, 'paid'));
          const [{ id: unpaid }] = rowsOf<{ id: string }>(await payment(tx, `LM-PLAN-UNPAID-${company.id}`, 'pending'));
          // Paid with nothing posted; and a payment posted for a window nobody paid.
          await ledger.post(tx, { kind: 'plan_payment', subscriptionPaymentId: Number(unpaid), memo: 'x' }, [
            { account: 'provider_cash', amount: 5_000_000, companyId: company.id },
            { account: 'platform_commission', amount: -5_000_000 },
          ]);
          expect(await ledger.audit(tx)).toEqual([
            `paid plan payment ${lost} is not in the ledger`,
            `pending plan payment ${unpaid} has a payment posted`,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
  });

  it('the database keeps the ledger append-only and balanced, whoever writes', async () => {
    const db = t.rt.database.db;
    await pay(await signupAndLogin(t, 'company'), [{ productId: nda, quantity: 1 }]);
    await expect(refusal(db.execute(sql`update ledger_entries set amount_kobo = amount_kobo + 1`))).resolves.toMatch(
      /append-only/,
    );
    await expect(refusal(db.execute(sql`delete from ledger_transactions`))).resolves.toMatch(/append-only/);
    await expect(refusal(db.execute(sql`truncate ledger_entries, ledger_transactions`))).resolves.toMatch(
      /append-only/,
    );
    await expect(
      refusal(
        db.transaction(async (tx) => {
          const [h] = await tx
            .insert(ledgerTransactions)
            .values({ kind: 'payment', memo: 'forged' })
            .returning({ id: ledgerTransactions.id });
          await tx.insert(ledgerEntries).values({ transactionId: h.id, account: 'provider_cash', amount: 100 });
        }),
      ),
    ).resolves.toMatch(/does not balance/);
    // A fee is held to one per order, and one for an order not paid is what the audit reports.
    const [order] = rowsOf<{ id: string }>(await db.execute(sql`select id from orders where status = 'paid' limit 1`));
    expect(await ledger.recordFee(db, { orderId: order.id }, 5)).toBeNull();
    const company = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', company, { productId: nda, quantity: 1 });
    const unpaid = (await inject('POST', '/api/checkout', company)).json().data.orderId as string;
    await expect(
      refusal(
        db.transaction(async (tx) => {
          await ledger.recordFee(tx, { orderId: unpaid }, 100);
          expect(await ledger.audit(tx)).toEqual([expect.stringMatching(/^fee \d+ is posted for something pending$/)]);
          throw new Error('rolled back');
        }),
      ),
    ).resolves.toMatch(/rolled back/);
    // The service refuses before the database has to.
    await expect(
      ledger.post(db, { kind: 'refund', memo: 'x' }, [{ account: 'provider_cash', amount: -1 }]),
    ).rejects.toThrow(/does not balance/);
  });
});
