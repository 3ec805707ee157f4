import { and, desc, eq, sql } from 'drizzle-orm';
import { completePayChanged, completePayeeChanged, formatNairaExact, toKobo } from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { lockSetting } from '../../db/locks.js';
import { jobEvents, jobs, ledgerEntries, users } from '../../db/schema.js';
import { conflict } from '../../platform/errors.js';
import { MONEY_SETTINGS_KEY, type Ledger } from '../money/ledger.js';

/** Whom and how much an admin's Mark as Completed confirmation showed it pays (payOnComplete). */
export type ShownPay = { lawyerId: string; amount: number };

/**
 * Refuses a completion that would pay another lawyer or another amount than the admin confirmed
 * (decision 2340). Called with the job's row locked; the money settings' lock is then held to the
 * commit, so a commission change waits for this completion, or it for the change.
 */
export async function checkShownPay(
  tx: Executor,
  ledger: Ledger,
  job: Pick<typeof jobs.$inferSelect, 'id' | 'assignedTo'>,
  shown: ShownPay | undefined,
): Promise<void> {
  if (!shown || !job.assignedTo) return;
  await lockSetting(tx, MONEY_SETTINGS_KEY);
  const amount = (await ledger.earningFor(tx, job.id)) / 100;
  const [payee] = await tx.select({ name: users.name }).from(users).where(eq(users.id, job.assignedTo));
  if (job.assignedTo !== shown.lawyerId)
    throw conflict(completePayeeChanged(payee?.name ?? 'another lawyer', formatNairaExact(amount)));
  if (amount !== shown.amount)
    throw conflict(
      completePayChanged(payee?.name ?? 'the lawyer', formatNairaExact(amount), formatNairaExact(shown.amount)),
    );
}

/**
 * Whether a completed job is the completion `actorId` asks for again (a retry after a lost answer): their
 * own Mark as Completed made it the job's newest event, and it paid the lawyer and amount shown, no other
 * (decision 2357). Called with the job's row locked.
 */
export async function completedAsShown(
  tx: Executor,
  job: Pick<typeof jobs.$inferSelect, 'id' | 'assignedTo' | 'stage'>,
  actorId: string,
  shown: ShownPay,
): Promise<boolean> {
  if (job.stage !== 'completed' || job.assignedTo !== shown.lawyerId) return false;
  const [last] = await tx
    .select({ action: jobEvents.action, actorId: jobEvents.actorId })
    .from(jobEvents)
    .where(eq(jobEvents.jobId, job.id))
    .orderBy(desc(jobEvents.id))
    .limit(1);
  if (last?.action !== 'complete' || last.actorId !== actorId) return false;
  const [paid] = await tx
    .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.jobId, job.id),
        eq(ledgerEntries.account, 'lawyer_earnings'),
        eq(ledgerEntries.lawyerId, shown.lawyerId),
      ),
    );
  return Number(paid?.kobo ?? 0) === toKobo(shown.amount);
}
