import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { emailOutbox, jobs, ledgerEntries, ledgerTransactions, payouts, users } from '../../db/schema.js';
import { PASSWORD, describeEachDb, otherConnection, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct, type SecurityEvents } from '../../../test/commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../../../test/flutterwave-standin.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { createPaymentProvider } from '../../platform/payments/index.js';
import { createLedger } from './ledger.js';
import { createPayouts, UNCLAIMED_NOTE } from './payouts.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const EARNED_KOBO = 2_000_000; // ₦25,000 less the 20 % commission
const erasedEmail = (id: string) => `deleted-${id}@deleted.invalid`;

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
}

/**
 * A paid lawyer payout the bank sends back after the lawyer deleted its account (decision 2228): the
 * ledger records it kobo exact, nothing is mailed to the erased placeholder, and the admins are told.
 */
describeEachDb('a payout reversed after its lawyer deleted the account', (kind) => {
  const flw = flutterwaveStandIn();
  let t: TestApp & { security: SecurityEvents };
  let admin: Login;
  let product: string;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  const db = () => t.rt.database.db;
  const ledger = () => createLedger({ db: db(), clock: t.clock });
  const statusOf = async (id: string) => (await db().select().from(payouts).where(eq(payouts.id, id)))[0];
  const kinds = async (id: string) =>
    (
      await db()
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.payoutId, id))
        .orderBy(ledgerTransactions.id)
    ).map((r) => r.kind);
  /** What the ledger owes this lawyer id, in kobo. */
  const owed = async (lawyerId: string) =>
    Number(
      (
        await db()
          .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.lawyerId, lawyerId), eq(ledgerEntries.account, 'lawyer_earnings')))
      )[0].kobo,
    );
  const failedMailsTo = async (to: string) =>
    (await mailsTo(t, to)).filter((m) => m.subject.includes('did not go through'));
  const adminAlerts = async () =>
    (await mailsTo(t, admin.email)).filter((m) => m.subject.includes('came back to a deleted account'));
  const webhook = (id: number, status: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'verif-hash': SECRET_HASH },
      payload: JSON.stringify({ event: 'transfer.completed', 'event.type': 'Transfer', data: { id, status } }),
    });
  const transferOf = (reference: string) => [...flw.transfers.values()].find((x) => x.reference === reference)!;
  const security: Array<{ event: string; fields: Record<string, unknown> }> = [];
  /** The payouts service as the reconciler's timer builds it, its security log kept. */
  const timerPayouts = () =>
    createPayouts({
      db: db(),
      clock: t.clock,
      config: t.config,
      mailWritten: () => {},
      securityLog: (event, fields) => security.push({ event, fields }),
      provider: createPaymentProvider(t.config, db()),
      ledger: ledger(),
      sleep: async () => {},
    });

  /** A verified lawyer whose ₦20,000 was withdrawn and reported paid by Flutterwave. */
  async function paidLawyer() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const details = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
    expect((await inject('POST', '/api/add-payment-details', lawyer, details)).statusCode).toBe(201);
    const company = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', company, { productId: product, quantity: 1 });
    const { reference, amount } = (await inject('POST', '/api/checkout', company)).json().data;
    const paid = flw.pay(reference, amount);
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId: paid })).statusCode).toBe(
      200,
    );
    const [job] = await db().select().from(jobs).where(eq(jobs.companyId, company.id));
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    const id = (await inject('POST', '/api/lawyer/payouts', lawyer, {})).json().payout._id as string;
    expect((await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).statusCode).toBe(200);
    const tr = transferOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    await webhook(tr.id, 'SUCCESSFUL');
    await until(async () => (await statusOf(id)).status === 'paid');
    expect(await owed(lawyer.id)).toBe(0);
    return { lawyer, id, tr };
  }
  const deleteAccount = (who: Login) => inject('POST', '/api/account/delete', who, { password: PASSWORD });

  /** Everything decision 2228 promises once the money came back to an erased account. */
  async function expectHeldForAdmins(lawyer: Login, id: string, events: Array<Record<string, unknown>>) {
    const row = await statusOf(id);
    expect(row.status).toBe('failed');
    expect(row.failure).toContain(UNCLAIMED_NOTE);
    expect(await kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
    // Kobo exact: back in the provider's balance, still owed to that account, nobody else's.
    expect(await owed(lawyer.id)).toBe(EARNED_KOBO);
    expect(await ledger().audit()).toEqual([]);
    // No mail to the erased placeholder, nor to the address the person deleted.
    expect(await mailsTo(t, erasedEmail(lawyer.id))).toEqual([]);
    expect(await failedMailsTo(lawyer.email)).toEqual([]);
    const alerts = await adminAlerts();
    expect(alerts.filter((m) => m.text.includes(id))).toHaveLength(1);
    expect(alerts.find((m) => m.text.includes(id))!.text).toContain('₦20,000');
    expect(events.filter((e) => e.payoutId === id)).toEqual([
      expect.objectContaining({ payoutId: id, lawyerId: lawyer.id, amountKobo: EARNED_KOBO, reversal: true }),
    ]);
  }

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Shareholders Agreement', 25_000);
    expect(
      (await inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 20, holdDays: 0 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  afterEach(async () => expect(await ledger().audit()).toEqual([]));

  it('reversed by a webhook after the erasure: held in the ledger, no mail to the placeholder, admins told once', async () => {
    const { lawyer, id, tr } = await paidLawyer();
    expect((await deleteAccount(lawyer)).statusCode).toBe(200);
    flw.reverseTransfer(tr.id, 'REVERSED');
    const hooks = await Promise.all(Array.from({ length: 10 }, () => webhook(tr.id, 'REVERSED')));
    expect(hooks.every((h) => h.statusCode === 200)).toBe(true);
    await until(async () => (await statusOf(id)).status === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    await expectHeldForAdmins(
      lawyer,
      id,
      t.security.of('payout_returned_to_deleted_account') as Array<Record<string, unknown>>,
    );
    // The admin list says why, and names nobody.
    const listed = (await inject('GET', '/api/admin/payouts?status=failed', admin)).json().payouts as Array<{
      _id: string;
      lawyerName: string;
      failure: string;
    }>;
    expect(listed.find((p) => p._id === id)).toMatchObject({ lawyerName: 'Deleted user' });
    expect(listed.find((p) => p._id === id)!.failure).toContain(UNCLAIMED_NOTE);
  });

  it('a reversal whose webhook was lost is found by the daily look the same way', async () => {
    const { lawyer, id, tr } = await paidLawyer();
    expect((await deleteAccount(lawyer)).statusCode).toBe(200);
    flw.reverseTransfer(tr.id, 'FAILED');
    await db()
      .update(payouts)
      .set({ settledAt: new Date(t.clock.now().getTime() - 25 * 3_600_000), reversalCheckedAt: null })
      .where(eq(payouts.id, id));
    await Promise.all([timerPayouts().recheckPaid(), timerPayouts().recheckPaid()]);
    await expectHeldForAdmins(
      lawyer,
      id,
      security.filter((s) => s.event === 'payout_returned_to_deleted_account').map((s) => s.fields),
    );
  });

  it('an unverified lawyer (not deleted) gets the money and the mail back, and no admin is alarmed', async () => {
    const { lawyer, id, tr } = await paidLawyer();
    await db().update(users).set({ verified: false }).where(eq(users.id, lawyer.id));
    const alertsBefore = (await adminAlerts()).length;
    flw.reverseTransfer(tr.id, 'REVERSED');
    await webhook(tr.id, 'REVERSED');
    await until(async () => (await statusOf(id)).status === 'failed');
    expect((await statusOf(id)).failure).not.toContain(UNCLAIMED_NOTE);
    expect(await owed(lawyer.id)).toBe(EARNED_KOBO);
    expect(await failedMailsTo(lawyer.email)).toHaveLength(1);
    expect((await adminAlerts()).length).toBe(alertsBefore);
    expect(t.security.of('payout_returned_to_deleted_account').filter((e) => e.payoutId === id)).toEqual([]);
    // Still its own money: withdrawable again.
    expect((await inject('POST', '/api/lawyer/payouts', lawyer, {})).statusCode).toBe(201);
    const [open] = await db()
      .select()
      .from(payouts)
      .where(and(eq(payouts.lawyerId, lawyer.id), eq(payouts.status, 'requested')));
    expect(
      (await inject('POST', `/api/admin/payouts/${open.id}/reject`, admin, { reason: 'test over' })).statusCode,
    ).toBe(200);
  });

  it.runIf(kind === 'postgres')(
    'a reversal arriving while the erasure runs waits for it, then holds the money for the admins',
    async () => {
      const { lawyer, id, tr } = await paidLawyer();
      // Another transaction holds the lawyer's row, as a running erasure does between its blockers and commit.
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [lawyer.id]);
        // The erasure queues for the row first, then the reversal arrives.
        const deletion = deleteAccount(lawyer);
        await new Promise((r) => setTimeout(r, 150));
        flw.reverseTransfer(tr.id, 'REVERSED');
        expect((await webhook(tr.id, 'REVERSED')).statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 300));
        // Not applied under the erasure's feet: it waits for the lawyer's row.
        expect((await statusOf(id)).status).toBe('paid');
        await other.query('commit');
        expect((await deletion).statusCode).toBe(200);
      } finally {
        await other.end();
      }
      await until(async () => (await statusOf(id)).status === 'failed');
      await expectHeldForAdmins(
        lawyer,
        id,
        t.security.of('payout_returned_to_deleted_account') as Array<Record<string, unknown>>,
      );
      // Nothing is left in the outbox for the deleted person's own address.
      expect(await db().select().from(emailOutbox).where(like(emailOutbox.to, lawyer.email))).toEqual([]);
    },
  );
});
