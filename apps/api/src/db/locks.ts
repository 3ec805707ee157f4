import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';

/**
 * Transaction-long advisory locks that several features must take under the same key, written once so
 * the keys cannot drift apart.
 */

/**
 * One company's checkout, cart merges, plan changes, plan-job cancellations and account erasure queue
 * behind one another: each reads and writes the company's money and lines without a lost update.
 */
export const lockCompany = (tx: Executor, companyId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lm-company:${companyId}`}, 0))`);

/** One lawyer's withdrawals, approvals and erasure never interleave: the available balance is checked under it. */
export const lockLawyerPayouts = (tx: Executor, lawyerId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lm-payout:${lawyerId}`}, 0))`);

/** Settlements naming one provider refund queue behind one another: only one refund here may hold it. */
export const lockProviderRefund = (tx: Executor, provider: string, providerRefundId: string) =>
  tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`lm-provider-refund:${provider}:${providerRefundId}`}, 0))`,
  );

/**
 * One app setting's changes queue behind one another, even before its row exists (a row lock needs the
 * row): each audit entry's `before` is what the change really replaced.
 */
export const lockSetting = (tx: Executor, key: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lm-setting:${key}`}, 0))`);
