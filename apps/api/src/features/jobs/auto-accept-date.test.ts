import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { JobPageResponse } from '@legalmarket/contracts';
import { holidays, jobTimers, jobs } from '../../db/schema.js';
import { addWorkingDays } from '../../platform/working-days.js';
import { describeEachDb } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { lagosWhen } from './emails.js';
import { jobFlowSuite, type Login } from './job-flow-test-kit.js';

/** Decision 2331: a delivered job says when the clock will accept it, on its page and in the company's mail. */
describeEachDb('the automatic acceptance date of a delivered job', (kind) => {
  const { ctx, act, assignedJob, deliver, deliveredJob } = jobFlowSuite(kind, 'Deed of Assignment');
  const page = async (id: string, who: Login) =>
    (
      await ctx.t.app.inject({ method: 'GET', url: `/job-api/jobs/${id}`, headers: who.headers })
    ).json() as JobPageResponse;
  // The tests below find the company's reminder by its subject: a delivery left standing would send
  // its own reminder in their ticks, so one is answered once its test is done.
  const settle = async (id: string) =>
    expect((await act(id, 'request_changes', ctx.company, { note: 'Please add the witness.' })).statusCode).toBe(200);

  it('names the moment the clock accepts, counted in working days past a public holiday', async () => {
    const id = await assignedJob();
    expect((await page(id, ctx.company)).autoAcceptAt ?? null).toBeNull();

    // A public holiday two working days ahead: the acceptance moves a working day later.
    const holiday = addWorkingDays(ctx.t.clock.now(), 2, new Set());
    const day = new Date(holiday.getTime() + 3600_000).toISOString().slice(0, 10);
    await ctx.t.rt.database.db.insert(holidays).values({ day, name: 'Test Day' }).onConflictDoNothing();

    const before = (await mailsTo(ctx.t, ctx.company.email)).length;
    await deliver(id, 'deed.pdf');
    const [row] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const hs = new Set((await ctx.t.rt.database.db.select().from(holidays)).map((h) => h.day));
    const at = addWorkingDays(row.deliveredAt!, 5, hs);
    expect(at.getTime()).toBeGreaterThan(addWorkingDays(row.deliveredAt!, 5, new Set()).getTime());

    expect((await page(id, ctx.company)).autoAcceptAt).toBe(at.toISOString());
    expect((await page(id, ctx.lawyer)).autoAcceptAt).toBe(at.toISOString());

    const mails = (await mailsTo(ctx.t, ctx.company.email)).slice(before);
    const delivered = mails.find((m) => m.subject.includes('delivered Deed of Assignment'));
    expect(delivered?.text).toContain(
      `it will be accepted automatically on ${lagosWhen(at)} (Lagos time), five working days after the delivery.`,
    );
    // The lawyer is not the one to answer the delivery: their mails say nothing of it.
    for (const m of await mailsTo(ctx.t, ctx.lawyer.email)) expect(m.text).not.toContain('accepted automatically on');

    // Asked for changes, the delivery's timer stands no more: the page names no date.
    expect((await act(id, 'request_changes', ctx.company, { note: 'Please add the witness.' })).statusCode).toBe(200);
    expect((await page(id, ctx.company)).autoAcceptAt).toBeNull();
  });
  // A holiday added after the delivery moved the timers only when they came due: until then the page
  // named the old moment, a working day too early.
  it('moves the date at once when a public holiday is added inside the delivery window, and only later', async () => {
    const id = await deliveredJob('deed.pdf');
    const [row] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const holidaySet = async () => new Set((await ctx.t.rt.database.db.select().from(holidays)).map((h) => h.day));
    const timers = async () =>
      Object.fromEntries(
        (
          await ctx.t.rt.database.db
            .select()
            .from(jobTimers)
            .where(and(eq(jobTimers.jobId, id), eq(jobTimers.cycle, 1)))
        ).map((r) => [r.action, r.fireAt.toISOString()]),
      );
    const first = addWorkingDays(row.deliveredAt!, 5, await holidaySet());
    expect((await page(id, ctx.company)).autoAcceptAt).toBe(first.toISOString());

    // The second working day after the delivery (its Lagos date), made a holiday by an admin.
    const inside = addWorkingDays(row.deliveredAt!, 2, await holidaySet());
    const day = new Date(inside.getTime() + 3600_000).toISOString().slice(0, 10);
    const saved = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/admin/holidays',
      headers: ctx.admin.headers,
      payload: { date: day, name: 'Declared Holiday' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const hs = await holidaySet();
    const later = addWorkingDays(row.deliveredAt!, 5, hs);
    expect(later.getTime()).toBeGreaterThan(first.getTime());
    expect((await page(id, ctx.company)).autoAcceptAt).toBe(later.toISOString());
    expect(await timers()).toEqual({
      auto_accept: later.toISOString(),
      remind_company: addWorkingDays(row.deliveredAt!, 3, hs).toISOString(),
    });

    // Removed again, the date the page and the delivery mail now name stands (only ever later).
    const removed = await ctx.t.app.inject({
      method: 'DELETE',
      url: `/api/admin/holidays/${day}`,
      headers: ctx.admin.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await page(id, ctx.company)).autoAcceptAt).toBe(later.toISOString());
    await settle(id);
  });

  it('names the same moment in the reminder the company gets three working days after the delivery (decision 2339)', async () => {
    const id = await deliveredJob('deed.pdf');
    const [row] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const hs = new Set((await ctx.t.rt.database.db.select().from(holidays)).map((h) => h.day));
    const at = addWorkingDays(row.deliveredAt!, 5, hs);
    const before = (await mailsTo(ctx.t, ctx.company.email)).length;
    const remindAt = addWorkingDays(row.deliveredAt!, 3, hs);
    const ticked = await ctx.t.app.inject({
      method: 'POST',
      url: '/dev/scheduler/tick',
      payload: { days: (remindAt.getTime() - ctx.t.clock.now().getTime()) / 86_400_000 },
    });
    expect(ticked.statusCode).toBe(200);
    const reminder = (await mailsTo(ctx.t, ctx.company.email))
      .slice(before)
      .find((m) => m.subject === 'Deed of Assignment was delivered: please accept it or ask for changes');
    // The reminder asks for an answer: it says by when, or the clock answers for the company.
    expect(reminder?.text).toContain(
      `it will be accepted automatically on ${lagosWhen(at)} (Lagos time), five working days after the delivery.`,
    );
    expect(reminder?.html).toContain(`accepted automatically on ${lagosWhen(at)} (Lagos time)`);
  });

  // Decision 2356: a holiday removed (or moved: removed, then added on another day) left the company's
  // reminder a working day late, and no holiday change moved the lawyer's due-soon reminder at all.
  it('counts the reminders again when a holiday is added or removed; the acceptance never earlier', async () => {
    const db = ctx.t.rt.database.db;
    const holidaySet = async () => new Set((await db.select().from(holidays)).map((h) => h.day));
    const timersOf = async (id: string) =>
      Object.fromEntries(
        (await db.select().from(jobTimers).where(eq(jobTimers.jobId, id))).map((r) => [
          r.action,
          r.fireAt.toISOString(),
        ]),
      );
    const lagosDate = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);
    const holiday = (method: 'POST' | 'DELETE', day: string) =>
      ctx.t.app.inject({
        method,
        url: method === 'POST' ? '/api/admin/holidays' : `/api/admin/holidays/${day}`,
        headers: ctx.admin.headers,
        ...(method === 'POST' ? { payload: { date: day, name: 'Moved Holiday' } } : {}),
      });

    const delivered = await deliveredJob('deed.pdf');
    const working = await assignedJob();
    const [d] = await db.select().from(jobs).where(eq(jobs.id, delivered));
    const [w] = await db.select().from(jobs).where(eq(jobs.id, working));
    const none = await holidaySet();
    const original = await timersOf(delivered);
    expect(original.remind_company).toBe(addWorkingDays(d.deliveredAt!, 3, none).toISOString());
    const dueSoon = addWorkingDays(w.dueAt, -2, none);
    expect((await timersOf(working)).remind_due).toBe(dueSoon.toISOString());

    // One day off inside the company's three working days, one inside the lawyer's last two.
    const early = lagosDate(addWorkingDays(d.deliveredAt!, 1, none));
    const beforeDue = lagosDate(addWorkingDays(w.dueAt, -1, none));
    for (const day of [early, beforeDue]) expect((await holiday('POST', day)).statusCode).toBe(200);
    const added = await holidaySet();
    const later = await timersOf(delivered);
    expect(later.remind_company).toBe(addWorkingDays(d.deliveredAt!, 3, added).toISOString());
    expect(later.auto_accept).toBe(addWorkingDays(d.deliveredAt!, 5, added).toISOString());
    expect(new Date(later.remind_company).getTime()).toBeGreaterThan(new Date(original.remind_company).getTime());
    expect((await timersOf(working)).remind_due).toBe(addWorkingDays(w.dueAt, -2, added).toISOString());
    expect(new Date((await timersOf(working)).remind_due).getTime()).toBeLessThan(dueSoon.getTime());

    // Declared on the wrong day: removed, each reminder is where it was; the acceptance the page named stands.
    for (const day of [early, beforeDue]) expect((await holiday('DELETE', day)).statusCode).toBe(200);
    expect(await timersOf(delivered)).toEqual({ ...original, auto_accept: later.auto_accept });
    expect((await page(delivered, ctx.company)).autoAcceptAt).toBe(later.auto_accept);
    expect((await timersOf(working)).remind_due).toBe(dueSoon.toISOString());
    await settle(delivered);
  });

  it('a reminder sent after its acceptance moment (both due in one tick after downtime) names no past moment', async () => {
    const id = await deliveredJob('deed.pdf');
    const [row] = await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const hs = new Set((await ctx.t.rt.database.db.select().from(holidays)).map((h) => h.day));
    const at = addWorkingDays(row.deliveredAt!, 5, hs);
    const before = (await mailsTo(ctx.t, ctx.company.email)).length;
    // The scheduler was down past the acceptance: the reminder and the acceptance come due together.
    // (The last test here: the app's clock stays moved on.)
    ctx.t.clock.advance(at.getTime() + 3600_000 - ctx.t.clock.now().getTime());
    const ticked = await ctx.t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days: 0 } });
    expect(ticked.statusCode).toBe(200);
    const reminder = (await mailsTo(ctx.t, ctx.company.email))
      .slice(before)
      .find((m) => m.subject === 'Deed of Assignment was delivered: please accept it or ask for changes');
    expect(reminder).toBeDefined();
    expect(reminder?.text).not.toContain('accepted automatically on');
    expect(reminder?.html).not.toContain('accepted automatically on');
  });
});
