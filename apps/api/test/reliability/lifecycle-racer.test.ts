import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { emailOutbox, holidays, jobEvents, jobTimers, jobs, ledgerTransactions } from '../../src/db/schema.js';
import { addWorkingDays } from '../../src/platform/working-days.js';
import { createTestApp, describeEachDb, otherConnection, signupAndLogin, type TestApp } from '../helpers.js';
import { insertProduct } from '../commerce-helpers.js';
import { secondInstance } from '../second-instance.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { handOverKit, type Login } from '../../src/features/jobs/hand-over-test-kit.js';

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
type App = TestApp['app'];

/**
 * The clock's transitions raced by people on the other instance: a company answering a delivery at the
 * moment it is accepted for it, an admin ending a job while its reminders fall due, several instances'
 * timer passes over the same due timers. Whatever wins, the timeline is coherent (never both sent back
 * and accepted), each step is told and mailed once, and no reminder is mailed about a job already ended.
 * Races show on the PostgreSQL server; PGlite runs the same requests in turn.
 */
describeEachDb('lifecycle racer: the clock against people on two instances', (kind) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let product: string;
  const ROUNDS = kind === 'postgres' ? 5 : 1;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    other = await secondInstance(t, kind);
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    product = await insertProduct(t, 'Tenancy Agreement', 30_000);
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const { db, act, assign, pay, upload } = handOverKit(() => ({ t, admin, product }));
  const on = (app: App, who: Login, url: string, payload: object = {}) =>
    app.inject({ method: 'POST', url, headers: who.headers, payload });
  const actOn = (app: App, who: Login, id: string, action: string, body: object = {}) =>
    on(app, who, `/job-api/jobs/${id}/actions/${action}`, body);
  /** A timer pass on `app` as if `days` had gone by (the development route the scheduler's tests use). */
  const tickOn = (app: App, days: number) => on(app, admin, '/dev/scheduler/tick', { days });
  const only = (all: Res[], allowed: number[]) =>
    expect(
      all.filter((r) => !allowed.includes(r.statusCode)).map((r) => `${r.statusCode} ${r.body}`),
      'unexpected answers',
    ).toEqual([]);

  async function assignedJob() {
    const job = await pay(company);
    expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
    return job.id;
  }
  async function deliveredJob() {
    const id = await assignedJob();
    const doc = await upload(lawyer, 'draft');
    const res = await act(lawyer, id, 'deliver', { files: [{ url: doc.url, name: 'draft.pdf' }] });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }
  const lastOutboxId = async () =>
    (await db().select({ id: emailOutbox.id }).from(emailOutbox).orderBy(asc(emailOutbox.id))).at(-1)?.id ?? 0;
  /** The mails written since `after` to `to`, by subject. */
  const mailsTo = async (to: string, after: number) =>
    (
      await db()
        .select({ subject: emailOutbox.subject })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, to), gt(emailOutbox.id, after)))
    ).map((m) => m.subject);
  const eventsOf = (id: string) =>
    db().select().from(jobEvents).where(eq(jobEvents.jobId, id)).orderBy(asc(jobEvents.id));
  const earnings = async (id: string) =>
    (
      await db()
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.jobId, id), eq(ledgerTransactions.kind, 'earning')))
    ).length;

  /** Each event leaves from the stage the one before it reached; the job stands at the last one's. */
  async function chained(id: string) {
    const events = await eventsOf(id);
    for (let i = 1; i < events.length; i++)
      expect(events[i].fromStage, `${events[i].action} after ${events[i - 1].action}`).toBe(events[i - 1].toStage);
    const [job] = await db().select().from(jobs).where(eq(jobs.id, id));
    expect(events.at(-1)!.toStage).toBe(job.stage);
    return { job, events };
  }

  it('a request for changes racing the automatic acceptance on the other instance: one of them, told once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const mark = await lastOutboxId();
      const all = await Promise.all([
        actOn(t.app, company, id, 'request_changes', { note: 'Clause 4 names the wrong landlord' }),
        tickOn(other.app, 10),
        tickOn(t.app, 10),
      ]);
      only(all, [200, 409]);
      // A later pass never accepts the delivery that was sent back.
      expect((await tickOn(other.app, 30)).statusCode).toBe(200);
      const { job, events } = await chained(id);
      const answers = events.filter((e) => e.action === 'request_changes' || e.action === 'auto_accept');
      expect(answers.map((e) => e.action)).toEqual([all[0].statusCode === 200 ? 'request_changes' : 'auto_accept']);
      expect(job.stage).toBe(all[0].statusCode === 200 ? 'changes_requested' : 'completed');
      expect(await earnings(id)).toBe(job.stage === 'completed' ? 1 : 0);
      // The lawyer hears of the one answer once (a late reminder may follow a request for changes).
      const lawyerMails = await mailsTo(lawyer.email, mark);
      const about = (a: string) => events.filter((e) => e.action === a).length;
      expect(lawyerMails.length).toBe(
        about('request_changes') + about('auto_accept') + about('remind_due') + about('remind_late'),
      );
      // The company is mailed the automatic acceptance only when it happened (and its reminder if it fired).
      expect((await mailsTo(company.email, mark)).length).toBe(about('auto_accept') + about('remind_company'));
    }
  });

  it("the company's acceptance racing both instances' automatic acceptance: one completion, one mail each", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const mark = await lastOutboxId();
      const all = await Promise.all([tickOn(other.app, 10), actOn(t.app, company, id, 'accept'), tickOn(t.app, 10)]);
      only(all, [200, 409]);
      const { job, events } = await chained(id);
      expect(job.stage).toBe('completed');
      const ends = events.filter((e) => e.toStage === 'completed');
      expect(ends).toHaveLength(1);
      expect(ends[0].action).toBe(all[1].statusCode === 200 ? 'accept' : 'auto_accept');
      expect(await earnings(id)).toBe(1);
      expect(await mailsTo(lawyer.email, mark)).toHaveLength(1);
      expect(await mailsTo(admin.email, mark)).toHaveLength(1);
      const reminded = events.filter((e) => e.action === 'remind_company').length;
      expect(reminded).toBeLessThanOrEqual(1);
      expect(await mailsTo(company.email, mark)).toHaveLength((ends[0].action === 'auto_accept' ? 1 : 0) + reminded);
    }
  });

  it("an admin ending a job while both instances' passes fire its reminders: no reminder after the end", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await assignedJob();
      const ending = round % 2 ? 'cancel' : 'complete';
      const mark = await lastOutboxId();
      const all = await Promise.all([
        tickOn(other.app, 60),
        actOn(t.app, admin, id, ending, ending === 'cancel' ? { note: 'The company withdrew' } : {}),
        tickOn(t.app, 60),
      ]);
      only(all, [200]);
      const { job, events } = await chained(id);
      expect(job.stage).toBe(ending === 'cancel' ? 'cancelled' : 'completed');
      const end = events.findIndex((e) => e.action === ending);
      expect(events.slice(end + 1).map((e) => e.action)).toEqual([]);
      // Each reminder fired once at most, and its timer is spent whichever way the race went.
      for (const a of ['remind_due', 'remind_late'])
        expect(events.filter((e) => e.action === a).length).toBeLessThanOrEqual(1);
      const pending = await db()
        .select()
        .from(jobTimers)
        .where(and(eq(jobTimers.jobId, id), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
      expect(pending.filter((p) => p.firedAt === null)).toEqual([]);
      // The lawyer's mails: one per reminder fired before the end, and the end's.
      const reminders = events.filter((e) => e.action === 'remind_due' || e.action === 'remind_late').length;
      expect((await mailsTo(lawyer.email, mark)).length).toBe(reminders + 1);
    }
  });

  it('many silent deliveries accepted by three passes on two instances at once: each once, mailed once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < (kind === 'postgres' ? 8 : 3); i++) ids.push(await deliveredJob());
    const mark = await lastOutboxId();
    const all = await Promise.all([tickOn(other.app, 10), tickOn(t.app, 10), tickOn(other.app, 10)]);
    only(all, [200]);
    const fired = all.map((r) => (r.json() as { fired: number }).fired);
    for (const id of ids) {
      const { job, events } = await chained(id);
      expect(job.stage).toBe('completed');
      expect(events.filter((e) => e.action === 'auto_accept')).toHaveLength(1);
      expect(await earnings(id)).toBe(1);
    }
    // Every timer that fired was counted by the one pass that fired it (the company's reminders too).
    const firedEvents = (
      await db()
        .select()
        .from(jobEvents)
        .where(and(inArray(jobEvents.jobId, ids), eq(jobEvents.actorRole, 'clock')))
    ).length;
    expect(fired.reduce((a, b) => a + b, 0)).toBe(firedEvents);
    const companyMails = await mailsTo(company.email, mark);
    expect(companyMails.length).toBe(firedEvents);
  });

  it('an instance stopped while it fires an automatic acceptance: the other instance fires it once, or the company', async () => {
    if (kind !== 'postgres') return; // A pass held open on its own connection needs the server.
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const mark = await lastOutboxId();
      // The stopped instance's pass: the timer and the job taken as tick() takes them, its first writes
      // made, then the process gone before it commits.
      const dying = await otherConnection(t);
      await dying.query('begin');
      await dying.query(
        `select id from job_timers where job_id = $1 and action = 'auto_accept' for update skip locked`,
        [id],
      );
      await dying.query('select id from jobs where id = $1 for update', [id]);
      await dying.query(`update jobs set stage = 'completed' where id = $1`, [id]);
      const racing = Promise.all([tickOn(other.app, 10), actOn(t.app, company, id, 'accept')]);
      await new Promise((r) => setTimeout(r, 150));
      await dying.end(); // The connection closes without a commit: the server rolls its work back.
      const all = await racing;
      only(all, [200, 409]);
      // The timer the stopped pass held is still due: the next pass takes it (or finds the job moved on).
      expect((await tickOn(other.app, 10)).statusCode).toBe(200);
      const { job, events } = await chained(id);
      expect(job.stage).toBe('completed');
      expect(events.filter((e) => e.toStage === 'completed')).toHaveLength(1);
      expect(await earnings(id)).toBe(1);
      expect(await mailsTo(lawyer.email, mark)).toHaveLength(1);
      const [timer] = await db()
        .select()
        .from(jobTimers)
        .where(and(eq(jobTimers.jobId, id), eq(jobTimers.action, 'auto_accept')));
      expect(timer.firedAt).not.toBeNull();
    }
  });

  it('a holiday declared on the other instance while the lawyer delivers: the acceptance moment counts it', async () => {
    for (let round = 0; round < ROUNDS * 2; round++) {
      const id = await assignedJob();
      const doc = await upload(lawyer, 'final');
      const before = new Set((await db().select().from(holidays)).map((h) => h.day));
      // The next working day (its Lagos date), inside the five working days the delivery starts.
      const next = addWorkingDays(t.clock.now(), 1, before);
      const day = new Date(next.getTime() + 3600_000).toISOString().slice(0, 10);
      const all = await Promise.all([
        actOn(t.app, lawyer, id, 'deliver', { files: [{ url: doc.url, name: 'final.pdf' }] }),
        on(other.app, admin, '/api/admin/holidays', { date: day, name: `Declared ${round}` }),
      ]);
      only(all, [200]);
      const hs = new Set((await db().select().from(holidays)).map((h) => h.day));
      const [job] = await db().select().from(jobs).where(eq(jobs.id, id));
      const [timer] = await db()
        .select()
        .from(jobTimers)
        .where(and(eq(jobTimers.jobId, id), eq(jobTimers.action, 'auto_accept')));
      expect(timer.fireAt.toISOString(), `round ${round}`).toBe(addWorkingDays(job.deliveredAt!, 5, hs).toISOString());
    }
  });
});
