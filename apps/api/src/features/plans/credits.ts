import { eq } from 'drizzle-orm';
import { PLAN_CREDIT_WORDS, type PlanStatus } from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { jobs, subscriptionEvents, subscriptions } from '../../db/schema.js';
import type { Shared } from '../shared.js';
import type { Ledger } from '../money/ledger.js';
import { lockCompany } from '../../db/locks.js';

type Job = typeof jobs.$inferSelect;

const LIVE: PlanStatus[] = ['active', 'grace'];

/**
 * Before a job's row is locked for its cancellation: a plan job's company lock, taken first as the credit
 * request takes it (company, then the plan's row), so a cancel, a credit request and a renewal of one
 * company queue in one order and never deadlock. The job's company and plan never change.
 */
export async function lockPlanOfJob(tx: Executor, jobId: string) {
  const [job] = await tx
    .select({ companyId: jobs.companyId, subscriptionId: jobs.subscriptionId })
    .from(jobs)
    .where(eq(jobs.id, jobId));
  if (job?.subscriptionId) await lockCompany(tx, job.companyId);
}

/**
 * A plan job cancelled (decision 1900), inside the cancel's transaction with the company lock taken
 * (lockPlanOfJob) and the job locked: under the plan's row lock, the credit goes back to the plan when
 * the job's month is the plan's current one and the plan is active or in grace; its value is then held
 * against the plan again (`plan_credit_return`) and expires with the month's other unused credits.
 * Otherwise (the month renewed, the plan ended or lapsed) the credit's value goes where unused credits
 * go: to the platform, with the cancellation. No money leaves for the company either way.
 */
export async function cancelPlanJob(
  tx: Executor,
  deps: Pick<Shared, 'clock'> & { ledger: Ledger },
  job: Job,
): Promise<{ returned: boolean; heldKobo: number }> {
  const { clock, ledger } = deps;
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, job.subscriptionId!)).for('update');
  const held = await ledger.heldFor(tx, job.id);
  const kind = job.planCreditKind;
  const now = clock.now();
  const returned =
    !!sub &&
    !!kind &&
    LIVE.includes(sub.status) &&
    job.planPeriod === sub.period &&
    // What the credit moved to the job is what one credit of this month is worth (nothing was paid out).
    held === sub.creditValue;
  const words = kind ? PLAN_CREDIT_WORDS[kind] : 'Plan';
  if (returned) {
    await ledger.post(tx, { kind: 'plan_credit_return', jobId: job.id, memo: 'Plan credit returned: job cancelled' }, [
      { account: 'held_for_jobs', amount: held, jobId: job.id, companyId: job.companyId },
      { account: 'held_for_jobs', amount: -held, companyId: job.companyId },
    ]);
    await tx
      .update(subscriptions)
      .set({
        credits: { ...sub.credits, [kind]: sub.credits[kind] + 1 },
        creditsUsed: { ...sub.creditsUsed, [kind]: Math.max(0, sub.creditsUsed[kind] - 1) },
        updatedAt: now,
      })
      .where(eq(subscriptions.id, sub.id));
    await ledger.recordCancellation(tx, job, 0, 0);
  } else {
    // The month's unused credits were already expired (or the plan stopped): this one follows them.
    await ledger.recordCancellation(tx, job, held, 0, 'Plan job cancelled after its month: the credit expired');
  }
  if (sub)
    await tx.insert(subscriptionEvents).values({
      subscriptionId: sub.id,
      kind: 'job_cancelled',
      note: returned
        ? `${words} job cancelled; its credit is back`
        : `${words} job cancelled after its month; the credit had expired`,
      createdAt: now,
    });
  return { returned, heldKobo: held };
}
