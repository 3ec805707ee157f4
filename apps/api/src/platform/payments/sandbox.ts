import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sandboxRefunds, sandboxTransactions } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import {
  RefundRefused,
  type PaymentProvider,
  type ProviderPeriod,
  type ProviderRefund,
  type ProviderTransaction,
} from './types.js';

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
});

/** A period's bounds as Lagos days (00:00 WAT is 23:00 UTC the day before), the end exclusive. */
const bounds = (p: ProviderPeriod) => ({
  from: new Date(`${p.from}T00:00:00+01:00`),
  until: new Date(new Date(`${p.to}T00:00:00+01:00`).getTime() + 86_400_000),
});

/**
 * The offline provider: our own dialog records Flutterwave-shaped transactions in
 * `sandbox_transactions`, and verification reads them back through the same interface.
 * It has no webhooks (the background re-verification covers a lost confirmation); its refunds complete
 * at once and are recorded in `sandbox_refunds`. The clock dates refunds as the app dates its
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
    authenticWebhook: () => false,
  };
}
