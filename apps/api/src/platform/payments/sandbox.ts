import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  sandboxPaymentPlans,
  sandboxRefunds,
  sandboxSubscriptions,
  sandboxTransactions,
  sandboxTransfers,
} from '../../db/schema.js';
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import {
  RefundRefused,
  TransferRefused,
  type PaymentProvider,
  type ProviderPeriod,
  type ProviderRefund,
  type ProviderTransaction,
  type ProviderTransfer,
} from './types.js';
import { collectionFee, transferFee } from './fees.js';

type Row = typeof sandboxTransactions.$inferSelect;
const refundView = (r: typeof sandboxRefunds.$inferSelect): ProviderRefund => ({
  id: String(r.id),
  transactionId: String(r.transactionId),
  status: r.status as ProviderRefund['status'],
  amount: r.amount,
  createdAt: r.createdAt.toISOString(),
});
const view = (r: Row): ProviderTransaction => ({
  id: String(r.id),
  txRef: r.txRef,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  paymentType: r.paymentType,
  createdAt: r.createdAt.toISOString(),
  // Flutterwave charges only what it collected.
  fee: r.status === 'successful' ? collectionFee(r.amount) : 0,
  ...(r.paymentPlan ? { paymentPlan: String(r.paymentPlan) } : {}),
  ...(r.paymentPlan && r.customerEmail ? { cardToken: sandboxCardToken(r.customerEmail) } : {}),
  ...(r.customerEmail ? { customerEmail: r.customerEmail } : {}),
});

/** The sandbox's saved-card token for a customer (Flutterwave's `card.token` looks like flw-t1nf-...). */
export const sandboxCardToken = (email: string) =>
  `flw-t1nf-${createHash('sha256').update(email).digest('hex').slice(0, 24)}-m03k`;

/** A period's bounds as Lagos days (00:00 WAT is 23:00 UTC the day before), the end exclusive. */
const bounds = (p: ProviderPeriod) => ({
  from: new Date(`${p.from}T00:00:00+01:00`),
  until: new Date(new Date(`${p.to}T00:00:00+01:00`).getTime() + 86_400_000),
});

/**
 * The sandbox bank's account holders, by the account number's last digit (the sandbox knows every
 * account but those ending in 0000); Flutterwave answers names in capitals too.
 */
export const SANDBOX_ACCOUNT_HOLDERS = [
  'ADAEZE NWOSU',
  'NGOZI EZE',
  'TUNDE BAKARE',
  'AMINA YUSUF',
  'EMEKA OBI',
  'FUNKE ADEYEMI',
  'IBRAHIM MUSA',
  'KEMI AJAYI',
  'OBINNA NWOSU',
  'CHIDI OKEKE',
] as const;

/**
 * How a sandbox transfer ends, by the account number: ending in 1111 it fails, ending in 2222 it stays
 * pending (until POST /api/admin/payouts/{id}/sandbox-outcome), any other succeeds at once.
 */
function sandboxTransferStatus(accountNumber: string): 'SUCCESSFUL' | 'FAILED' | 'PENDING' {
  if (accountNumber.endsWith('1111')) return 'FAILED';
  if (accountNumber.endsWith('2222')) return 'PENDING';
  return 'SUCCESSFUL';
}

const transferView = (r: typeof sandboxTransfers.$inferSelect): ProviderTransfer => ({
  id: String(r.id),
  reference: r.reference,
  status: r.status === 'SUCCESSFUL' ? 'successful' : r.status === 'FAILED' ? 'failed' : 'pending',
  amount: r.amount,
  currency: 'NGN',
  message: r.completeMessage,
  fee: transferFee(r.amount),
  providerStatus: r.status.toLowerCase(),
  createdAt: r.createdAt.toISOString(),
});

/**
 * The offline provider: our own dialog records Flutterwave-shaped transactions in
 * `sandbox_transactions`, and verification reads them back through the same interface.
 * It has no webhooks (the background re-verification covers a lost confirmation); its refunds complete
 * at once and are recorded in `sandbox_refunds`. The clock dates refunds and transfers as the app dates its
 * transactions, so the reconciliation's periods see both sides alike.
 */
export function sandboxProvider(db: Db, clock?: Clock): PaymentProvider {
  return {
    name: 'sandbox',
    publicSettings: () => ({ testMode: true }),
    async verifyById(id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const rows = await db
        .select()
        .from(sandboxTransactions)
        .where(eq(sandboxTransactions.id, Number(id)))
        .limit(1);
      return rows[0] ? view(rows[0]) : null;
    },
    async verifyByReference(txRef) {
      const ok = await db
        .select()
        .from(sandboxTransactions)
        .where(and(eq(sandboxTransactions.txRef, txRef), eq(sandboxTransactions.status, 'successful')))
        .orderBy(desc(sandboxTransactions.id))
        .limit(1);
      if (ok[0]) return view(ok[0]);
      const any = await db
        .select()
        .from(sandboxTransactions)
        .where(eq(sandboxTransactions.txRef, txRef))
        .orderBy(desc(sandboxTransactions.id))
        .limit(1);
      return any[0] ? view(any[0]) : null;
    },
    /** Completes at once, as Flutterwave does from the available balance; never more than was paid. */
    async refund(transactionId, amount) {
      return db.transaction(async (tx) => {
        if (!/^\d{1,15}$/.test(transactionId)) throw new RefundRefused('No transaction was found for this id');
        const [paid] = await tx
          .select()
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.id, Number(transactionId)))
          .for('update');
        if (!paid || paid.status !== 'successful') throw new RefundRefused('No transaction was found for this id');
        const [done] = await tx
          .select({ kobo: sql<string>`coalesce(sum(${sandboxRefunds.amount}), 0)` })
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.transactionId, paid.id));
        if (Number(done?.kobo ?? 0) + amount > paid.amount)
          throw new RefundRefused('Refund amount cannot be more than the amount left on the transaction');
        const [row] = await tx
          .insert(sandboxRefunds)
          .values({ transactionId: paid.id, amount, status: 'completed', ...(clock ? { createdAt: clock.now() } : {}) })
          .returning();
        return refundView(row);
      });
    },
    async fetchRefund(id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const [row] = await db
        .select()
        .from(sandboxRefunds)
        .where(eq(sandboxRefunds.id, Number(id)));
      return row ? refundView(row) : null;
    },
    async listTransactions(period) {
      const { from, until } = bounds(period);
      const rows = await db
        .select()
        .from(sandboxTransactions)
        .where(and(gte(sandboxTransactions.createdAt, from), lt(sandboxTransactions.createdAt, until)))
        .orderBy(asc(sandboxTransactions.id));
      return rows.map(view);
    },
    async listRefunds(period) {
      const { from, until } = bounds(period);
      const rows = await db
        .select()
        .from(sandboxRefunds)
        .where(and(gte(sandboxRefunds.createdAt, from), lt(sandboxRefunds.createdAt, until)))
        .orderBy(asc(sandboxRefunds.id));
      return rows.map(refundView);
    },
    async listTransfers(period) {
      const { from, until } = bounds(period);
      const rows = await db
        .select()
        .from(sandboxTransfers)
        .where(and(gte(sandboxTransfers.createdAt, from), lt(sandboxTransfers.createdAt, until)))
        .orderBy(asc(sandboxTransfers.id));
      return rows.map(transferView);
    },
    async resolveAccount(accountNumber, bankCode) {
      if (!/^\d{10}$/.test(accountNumber) || !bankCode || accountNumber.endsWith('0000')) return null;
      return { accountName: SANDBOX_ACCOUNT_HOLDERS[Number(accountNumber.at(-1))] };
    },
    /** Records the transfer once per reference; a repeated reference answers the transfer already made. */
    async transfer(req) {
      if (!/^\d{10}$/.test(req.accountNumber) || req.accountNumber.endsWith('0000'))
        throw new TransferRefused('Account resolve failed');
      const status = sandboxTransferStatus(req.accountNumber);
      const [made] = await db
        .insert(sandboxTransfers)
        .values({
          reference: req.reference,
          amount: req.amount,
          bankCode: req.bankCode,
          accountNumber: req.accountNumber,
          narration: req.narration,
          status,
          completeMessage: status === 'FAILED' ? 'DISBURSE FAILED: Beneficiary account is dormant' : null,
          ...(clock ? { createdAt: clock.now() } : {}),
        })
        .onConflictDoNothing()
        .returning();
      if (made) return transferView(made);
      const [before] = await db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, req.reference));
      return transferView(before);
    },
    async fetchTransfer(id) {
      if (!/^\d{1,15}$/.test(id)) return null;
      const [row] = await db
        .select()
        .from(sandboxTransfers)
        .where(eq(sandboxTransfers.id, Number(id)));
      return row ? transferView(row) : null;
    },
    async findTransfer(reference) {
      const [row] = await db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, reference));
      return row ? transferView(row) : null;
    },
    async createPaymentPlan(plan) {
      const [row] = await db
        .insert(sandboxPaymentPlans)
        .values({ name: plan.name, amount: plan.amount, interval: plan.interval })
        .returning();
      return { id: String(row.id) };
    },
    /**
     * Charges the saved card on the plan, once per reference. It fails (Insufficient Funds) while the
     * customer's subscription is marked to fail (setSandboxRenewalFailure), as a declined renewal would.
     */
    async chargePlan(req) {
      return db.transaction(async (tx) => {
        if (!/^\d{1,15}$/.test(req.planId)) throw new Error('unknown sandbox plan');
        const planId = Number(req.planId);
        await tx.insert(sandboxSubscriptions).values({ planId, customerEmail: req.email }).onConflictDoNothing();
        // The subscription row serialises charges of one customer's plan.
        const [sub] = await tx
          .select()
          .from(sandboxSubscriptions)
          .where(and(eq(sandboxSubscriptions.planId, planId), eq(sandboxSubscriptions.customerEmail, req.email)))
          .for('update');
        const [made] = await tx
          .select()
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.txRef, req.reference))
          .limit(1);
        if (made) return view(made);
        const fail = sub.failRenewals || req.token !== sandboxCardToken(req.email);
        const [row] = await tx
          .insert(sandboxTransactions)
          .values({
            txRef: req.reference,
            amount: req.amount,
            currency: 'NGN',
            status: fail ? 'failed' : 'successful',
            paymentType: 'card',
            customerEmail: req.email,
            processorResponse: fail ? 'Insufficient Funds' : 'Approved by Financial Institution',
            paymentPlan: planId,
            ...(clock ? { createdAt: clock.now() } : {}),
          })
          .returning();
        return view(row);
      });
    },
    async cancelPlanSubscription(planId, email) {
      if (!/^\d{1,15}$/.test(planId)) return;
      await db
        .update(sandboxSubscriptions)
        .set({ status: 'cancelled' })
        .where(and(eq(sandboxSubscriptions.planId, Number(planId)), eq(sandboxSubscriptions.customerEmail, email)));
    },
    authenticWebhook: () => false,
  };
}

/** Sandbox only: this customer's renewal charges fail (true) or succeed again (false), on every plan. */
export async function setSandboxRenewalFailure(db: Db, email: string, fail: boolean) {
  await db
    .update(sandboxSubscriptions)
    .set({ failRenewals: fail })
    .where(eq(sandboxSubscriptions.customerEmail, email));
}

/** Sandbox only: a pending transfer ends as the admin says (what the bank would report). */
export async function finishSandboxTransfer(db: Db, reference: string, status: 'SUCCESSFUL' | 'FAILED') {
  const [row] = await db
    .update(sandboxTransfers)
    .set({ status, completeMessage: status === 'FAILED' ? 'DISBURSE FAILED: Declined by the sandbox admin' : null })
    .where(and(eq(sandboxTransfers.reference, reference), inArray(sandboxTransfers.status, ['NEW', 'PENDING'])))
    .returning();
  return row ? String(row.id) : null;
}
