import { expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { holidays, jobTimers, jobs } from '../../db/schema.js';
import { addWorkingDays } from '../../platform/working-days.js';
import { describeEachDb, otherConnection, waitingOnLock } from '../../../test/helpers.js';
import { insertJob } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { jobFlowSuite } from './job-flow-test-kit.js';

/**
 * Decision 2356: a holiday removed while a transition that starts working-day timers is under way (it
 * read the holidays, not yet committed) left that transition's timer counted over the removed day for
 * good: the recount did not see the uncommitted timer, and the transition never counted again.
 * On the server only: PGlite has one connection, so nothing runs between the read and the commit.
 */
describeEachDb('a holiday removed while a timer is being set', (kind) => {
  const { ctx, act, assignedJob } = jobFlowSuite(kind, 'Holiday Race Deed');
  const lagosDate = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);
  const holidaySet = async () => new Set((await ctx.t.rt.database.db.select().from(holidays)).map((h) => h.day));
  const timerOf = async (jobId: string, action: string) =>
    (await ctx.t.rt.database.db.select().from(jobTimers).where(eq(jobTimers.jobId, jobId))).find(
      (r) => r.action === action,
    )?.fireAt;

  /**
   * Runs `request` with the holiday `day` removed by an admin after its transaction has done its work
   * and before it commits (the removal left to wait there if it must).
   */
  async function removedMidway(day: string, request: () => Promise<{ statusCode: number; body: string }>) {
    const db = ctx.t.rt.database.db;
    const watcher = await otherConnection(ctx.t);
    const original = db.transaction.bind(db);
    let removal: Promise<{ statusCode: number }> | undefined;
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce((async (
      run: Parameters<typeof original>[0],
      ...rest: unknown[]
    ) =>
      original(
        async (tx) => {
          const result = await run(tx);
          removal = ctx.t.app.inject({
            method: 'DELETE',
            url: `/api/admin/holidays/${day}`,
            headers: ctx.admin.headers,
          });
          // Done at once, or waiting for this transaction: either way it has gone as far as it can.
          await Promise.race([removal, waitingOnLock(watcher, '%pg_advisory_xact_lock%')]);
          return result;
        },
        ...(rest as []),
      )) as typeof db.transaction);
    try {
      const res = await request();
      expect(res.statusCode, res.body).toBe(200);
      expect((await removal!).statusCode).toBe(200);
    } finally {
      spy.mockRestore();
      await watcher.end();
    }
    expect(await holidaySet()).not.toContain(day);
  }

  it.runIf(kind === 'postgres')('counts an assignment’s due-soon reminder without the removed day', async () => {
    const job = await insertJob(ctx.t, ctx.company.id, { productId: ctx.productId });
    const [{ dueAt }] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    const none = await holidaySet();
    // A day off inside the lawyer's last two working days: counted, the reminder comes a day earlier.
    const day = lagosDate(addWorkingDays(dueAt, -1, none));
    await ctx.t.rt.database.db.insert(holidays).values({ day, name: 'Declared In Error' });
    await removedMidway(day, () =>
      ctx.t.app.inject({
        method: 'POST',
        url: '/job-api/assign',
        headers: ctx.admin.headers,
        payload: { jobId: job.id, lawyerId: ctx.lawyer.id },
      }),
    );
    expect((await timerOf(job.id, 'remind_due'))?.toISOString()).toBe(addWorkingDays(dueAt, -2, none).toISOString());
  });

  it.runIf(kind === 'postgres')('counts a delivery’s company reminder without the removed day', async () => {
    const job = { id: await assignedJob() };
    const none = await holidaySet();
    // A day off inside the company's three working days after the delivery.
    const day = lagosDate(addWorkingDays(ctx.t.clock.now(), 1, none));
    await ctx.t.rt.database.db.insert(holidays).values({ day, name: 'Declared In Error' });
    const doc = await uploadDocument(ctx.t.app, ctx.lawyer.headers, 'deed.pdf');
    await removedMidway(day, () => act(job.id, 'deliver', ctx.lawyer, { files: [{ url: doc.url, name: 'deed.pdf' }] }));
    const [{ deliveredAt }] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect((await timerOf(job.id, 'remind_company'))?.toISOString()).toBe(
      addWorkingDays(deliveredAt!, 3, none).toISOString(),
    );
  });
});
