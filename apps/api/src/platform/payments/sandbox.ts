import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sandboxTransactions } from '../../db/schema.js';
import type { PaymentProvider, ProviderTransaction } from './types.js';

type Row = typeof sandboxTransactions.$inferSelect;
const view = (r: Row): ProviderTransaction => ({
  id: String(r.id),
  txRef: r.txRef,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
});

/**
 * The offline provider: our own dialog records Flutterwave-shaped transactions in
 * `sandbox_transactions`, and verification reads them back through the same interface.
 * It has no webhooks (the background re-verification covers a lost confirmation).
 */
export function sandboxProvider(db: Db): PaymentProvider {
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
    authenticWebhook: () => false,
  };
}
