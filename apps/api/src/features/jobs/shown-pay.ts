import { eq } from 'drizzle-orm';
import { completePayChanged, completePayeeChanged, formatNairaExact } from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { lockSetting } from '../../db/locks.js';
import { jobs, users } from '../../db/schema.js';
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
