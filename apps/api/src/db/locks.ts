import { and, eq, isNull, sql } from 'drizzle-orm';
import { unauthorized } from '../platform/errors.js';
import type { Executor } from './client.js';
import { users } from './schema.js';

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

/**
 * The shared form of lockSetting's lock: readers of a setting hold it together, and wait only for a
 * change (lockSetting) under the same key, which in turn waits for them.
 */
export const readSetting = (tx: Executor, key: string) =>
  tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${`lm-setting:${key}`}, 0))`);

/**
 * Reads the signed-in account's row FOR SHARE, for a write it owns: an account erased since its session
 * was checked (from another tab) answers 401 and the write keeps nothing, and an erasure that comes second
 * waits for the write's commit and then erases what it wrote. Call it after the advisory locks the write
 * takes: the erasure takes those first and this row last (docs/decisions/2246).
 */
export async function lockLiveAccount(tx: Executor, userId: string): Promise<{ verified: boolean }> {
  const [live] = await tx
    .select({ id: users.id, verified: users.verified })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for('share');
  if (!live) throw unauthorized();
  // As the row stands under the lock: a withdrawal of verification waits for this write, or it sees it.
  return { verified: live.verified };
}
