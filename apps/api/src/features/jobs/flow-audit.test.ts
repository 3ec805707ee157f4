import { expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { holidays, jobEvents, jobTimers, jobs } from '../../db/schema.js';
import { addWorkingDays } from '../../platform/working-days.js';
import { describeEachDb } from '../../../test/helpers.js';
import { insertJob } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { jobFlowSuite, type Login } from './job-flow-test-kit.js';

const DAY_MS = 86_400_000;

/** An audit of the job's flow against issue 16's "Must work" list, each finding kept as a test. */
describeEachDb('job flow: findings of an end-to-end audit', (kind) => {
  let saturday: number;
  const { ctx, act, assignedJob, deliveredJob } = jobFlowSuite(kind, 'Shareholders Agreement', (t) => {
    // The next Friday 23:30 UTC, 00:30 on Saturday in Lagos, before anyone signs in (sessions end).
    const now = t.clock.now().getTime();
    saturday = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T23:30:00.000Z`);
    while (new Date(saturday).getUTCDay() !== 5 || saturday <= now) saturday += DAY_MS;
    t.clock.advance(saturday - now - 60_000);
  });
  const tickTo = (at: Date) =>
    ctx.t.app.inject({
      method: 'POST',
      url: '/dev/scheduler/tick',
      payload: { days: (at.getTime() - ctx.t.clock.now().getTime()) / DAY_MS },
    });

  // Decision 2335: a delivery just after midnight on a Saturday in Lagos (still Friday in UTC) was
  // auto-accepted at 00:30 the next Friday, four working days and half an hour later.
  it('gives a delivery made at 00:30 on a Saturday in Lagos five whole working days before auto-accepting', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(ctx.t.app, ctx.lawyer.headers, 'agreement.pdf');
    ctx.t.clock.advance(saturday - ctx.t.clock.now().getTime());
    const delivered = await act(id, 'deliver', ctx.lawyer, { files: [{ url: doc.url, name: 'agreement.pdf' }] });
    expect(delivered.statusCode, delivered.body).toBe(200);
    const stage = async () => (await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id)))[0].stage;
    // Monday to Thursday whole and Friday's first minutes: not five working days.
    const fridayEarly = new Date(saturday + 6 * DAY_MS + 60_000);
    expect((await tickTo(fridayEarly)).statusCode).toBe(200);
    expect(await stage()).toBe('delivered');
    const [timer] = await ctx.t.rt.database.db
      .select()
      .from(jobTimers)
      .where(and(eq(jobTimers.jobId, id), eq(jobTimers.action, 'auto_accept')));
    // The end of that Friday in Lagos.
    expect(timer.fireAt.getTime()).toBe(saturday + 6 * DAY_MS + 23.5 * 3600_000 - 1);
    expect((await tickTo(new Date(saturday + 7 * DAY_MS))).statusCode).toBe(200);
    expect(await stage()).toBe('completed');
  });

  // Decision 2336: "at most 5,000 characters" counted UTF-16 units, so 2,501 emoji or 1,667 Yoruba
  // letters with their tone and dot marks were refused as too long.
  it('counts a note in characters as a reader does: emoji and Yoruba letters with their marks are one each', async () => {
    const id = await assignedJob();
    const note = `${'🙏'.repeat(2000)}${'e\u0323\u0301'.repeat(1000)} 🇳🇬`;
    const sent = await act(id, 'message', ctx.company, { note });
    expect(sent.statusCode, sent.body).toBe(200);
    const [kept] = await ctx.t.rt.database.db
      .select({ note: jobEvents.note })
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, id), eq(jobEvents.action, 'message')));
    expect(kept.note).toBe(note);
    for (const long of ['🙏'.repeat(5001), 'ẹ́'.repeat(5001), `a${'\u0301'.repeat(60_000)}`]) {
      const res = await act(id, 'message', ctx.company, { note: long });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.messageTooLong);
    }
  });

  // Decision 2336: segmenting grows faster than the text, and a note of 49,999 letters was counted in
  // full, twice per request (~430 ms of event loop before its 400). Measured in segments, not time.
  it('counts a long note once per request, and stops counting once it is past the limit', async () => {
    const id = await assignedJob();
    let visited = 0;
    let fullPasses = 0;
    const segment = Intl.Segmenter.prototype.segment;
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, text) {
      const segments = segment.call(this, text);
      return Object.assign(Object.create(segments), {
        [Symbol.iterator]() {
          const it = segments[Symbol.iterator]();
          return {
            next() {
              const step = it.next();
              if (step.done) fullPasses++;
              else visited++;
              return step;
            },
          };
        },
      });
    });
    try {
      // 6,000 Yoruba letters with their marks typed apart (18,000 units): refused after 5,001 of them.
      const long = await act(id, 'message', ctx.company, { note: 'e\u0323\u0301'.repeat(6000) });
      expect([long.statusCode, long.json().message]).toEqual([400, messages.messageTooLong]);
      expect(visited).toBeLessThanOrEqual(5001);
      // Past 4 units a character (20,001 units) it is refused unread, whatever it counts (here one).
      visited = 0;
      const piled = await act(id, 'message', ctx.company, { note: `a${'\u0301'.repeat(20_000)}` });
      expect([piled.statusCode, piled.json().message]).toEqual([400, messages.messageTooLong]);
      expect(visited).toBe(0);
      // A note within the limit is counted through once, not again by the service.
      fullPasses = 0;
      const sent = await act(id, 'message', ctx.company, { note: 'e\u0323\u0301'.repeat(4000) });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(fullPasses).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  // Decision 2337: an admin assigning a job cancelled while it waited for a lawyer was told it was
  // "already assigned to a lawyer", which it never was.
  it('says a cancelled job is cancelled when an admin tries to assign it, never "already assigned"', async () => {
    const waiting = (await insertJob(ctx.t, ctx.company.id, { productId: ctx.productId })).id;
    const working = await assignedJob();
    for (const id of [waiting, working]) {
      const cancelled = await act(id, 'cancel', ctx.admin, { note: 'The company withdrew the order.' });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/job-api/assign',
        headers: ctx.admin.headers,
        payload: { jobId: id, lawyerId: ctx.lawyer.id },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(messages.jobCancelledNoAssign);
      expect((await ctx.t.rt.database.db.select().from(jobs).where(eq(jobs.id, id)))[0].stage).toBe('cancelled');
    }
  });

  // A reminder set again when a job came back from a delivery carried that round's number; delivered
  // and sent back once more before it fell due, the job's count moved on and the timer was passed over
  // as stale, while the new round set none as one still stood: the lawyer was never told.
  it('reminds the lawyer after a second request for changes, when the first one set the reminders again', async () => {
    const id = await assignedJob();
    const db = ctx.t.rt.database.db;
    const doc = await uploadDocument(ctx.t.app, ctx.lawyer.headers, 'draft.pdf');
    const files = [{ url: doc.url, name: 'draft.pdf' }];
    expect((await act(id, 'deliver', ctx.lawyer, { files })).statusCode).toBe(200);
    // Both reminders fall due while the delivery waits: passed over.
    await db
      .update(jobTimers)
      .set({ fireAt: new Date(ctx.t.clock.now().getTime() - 1000) })
      .where(and(eq(jobTimers.jobId, id), eq(jobTimers.cycle, 0)));
    expect((await tickTo(new Date(ctx.t.clock.now().getTime() + 60_000))).statusCode).toBe(200);
    const reminders = async () =>
      (await db.select().from(jobEvents).where(eq(jobEvents.jobId, id)))
        .map((e) => e.action)
        .filter((a) => a === 'remind_due' || a === 'remind_late');
    expect(await reminders()).toEqual([]);
    expect((await act(id, 'request_changes', ctx.company, { note: 'Clause 2' })).statusCode).toBe(200);
    expect((await act(id, 'deliver_again', ctx.lawyer, { files })).statusCode).toBe(200);
    expect((await act(id, 'request_changes', ctx.company, { note: 'Clause 4 as well' })).statusCode).toBe(200);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect((await tickTo(new Date(row.dueAt.getTime() + 60_000))).statusCode).toBe(200);
    expect((await reminders()).sort()).toEqual(['remind_due', 'remind_late']);
    expect((await tickTo(new Date(row.dueAt.getTime() + 2 * DAY_MS))).statusCode).toBe(200);
    expect((await reminders()).sort()).toEqual(['remind_due', 'remind_late']);
  });

  // The job page refuses a note that shows nothing (zero-width spaces, a word joiner); the spec's
  // details routes took one as the company's, admin's or lawyer's details, told and mailed it.
  it("refuses details that show nothing on the spec's routes, as the job page does", async () => {
    const id = await assignedJob();
    const db = ctx.t.rt.database.db;
    const blank = '\u200b\u2060 \u200d';
    const inject = (method: 'PUT' | 'POST', url: string, who: Login) =>
      ctx.t.app.inject({ method, url, headers: who.headers, payload: { detail: blank } });
    const events = async () => (await db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).length;
    const before = await events();
    for (const [res, message] of [
      [await inject('PUT', `/job-api/company/editjobdetails/${id}`, ctx.company), messages.kindlyAddDetails],
      [await inject('PUT', `/job-api/editjobdetails/${id}`, ctx.admin), messages.kindlyAddDetails],
      [await inject('POST', `/job-api/requestmorejobdetails/${id}`, ctx.lawyer), messages.kindlyRequestDetails],
    ] as const) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await events()).toBe(before);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect([row.companyDetail, row.adminDetail, row.lawyerRequestedDetail]).toEqual([null, null, null]);
    // The job page says the same.
    const page = await act(id, 'give_details', ctx.company, { note: blank });
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toBe(messages.kindlyAddDetails);
  });

  // Holidays are declared at short notice: one added after a delivery, on the day its five working days
  // ended, let the clock accept the work on that holiday, a working day short. (Last: it adds a holiday.)
  it('puts off an auto-acceptance that falls on a public holiday declared after the delivery', async () => {
    const db = ctx.t.rt.database.db;
    const id = await deliveredJob('final.pdf');
    const timer = async () =>
      (
        await db
          .select()
          .from(jobTimers)
          .where(and(eq(jobTimers.jobId, id), eq(jobTimers.action, 'auto_accept')))
      )[0];
    const first = (await timer()).fireAt;
    const day = new Date(first.getTime() + 3600_000).toISOString().slice(0, 10);
    await db.insert(holidays).values({ day, name: 'Declared holiday' });
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    const later = addWorkingDays(row.deliveredAt!, 5, new Set([day]));
    expect(later.getTime()).toBeGreaterThan(first.getTime());
    expect((await tickTo(new Date(first.getTime() + 60_000))).statusCode).toBe(200);
    const [waiting] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(waiting.stage).toBe('delivered');
    expect((await timer()).fireAt.toISOString()).toBe(later.toISOString());
    expect((await tickTo(new Date(later.getTime() + 60_000))).statusCode).toBe(200);
    const [done] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(done.stage).toBe('completed');
    const accepted = (await db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).filter(
      (e) => e.action === 'auto_accept',
    );
    expect(accepted).toHaveLength(1);
  });
});
