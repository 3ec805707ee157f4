import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import {
  FINAL_STAGES,
  JOB_LIFECYCLE,
  JOB_STAGES,
  THREAD_PAGE,
  allowedJobActions,
  messages,
  type JobPageResponse,
  type JobStage,
  type JobTransition,
} from '@legalmarket/contracts';
import { holidays, jobEvents, jobTimers, jobs } from '../../db/schema.js';
import { addWorkingDays } from '../../platform/working-days.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { sandboxProvider } from '../../platform/payments/sandbox.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const here = path.dirname(fileURLToPath(import.meta.url));

describe('job lifecycle table (packages/contracts/src/job-lifecycle.ts)', () => {
  const steps = JOB_LIFECYCLE.filter((t) => t.to !== 'same' && t.from !== 'start').flatMap((t) =>
    (t.from as readonly JobStage[]).map((f) => `${f}->${t.to}`),
  );

  it('reaches every stage from payment, and only completed and cancelled are dead ends', () => {
    const reached = new Set<JobStage>(['unassigned']);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of JOB_LIFECYCLE)
        if (t.from !== 'start' && t.to !== 'same' && t.from.some((f) => reached.has(f)) && !reached.has(t.to)) {
          reached.add(t.to);
          grew = true;
        }
    }
    expect([...reached].sort()).toEqual([...JOB_STAGES].sort());
    for (const stage of JOB_STAGES) {
      const leaves = JOB_LIFECYCLE.some(
        (t) => t.from !== 'start' && t.to !== 'same' && (t.from as readonly JobStage[]).includes(stage),
      );
      expect(leaves, stage).toBe(!FINAL_STAGES.includes(stage));
    }
  });

  it("names each action's actors: only the lawyer delivers, only the company accepts, only the clock auto-accepts", () => {
    const actors = Object.fromEntries(JOB_LIFECYCLE.map((t) => [t.action, [...t.actors].sort()]));
    expect(actors.deliver).toEqual(['assigned_lawyer']);
    expect(actors.deliver_again).toEqual(['assigned_lawyer']);
    expect(actors.accept).toEqual(['company']);
    expect(actors.request_changes).toEqual(['company']);
    expect(actors.auto_accept).toEqual(['clock']);
    expect(actors.complete).toEqual(['admin']);
    expect(actors.cancel).toEqual(['admin']);
    expect(actors.message).toEqual(['admin', 'assigned_lawyer', 'company']);
    for (const t of JOB_LIFECYCLE.filter((x) => x.actors.includes('clock' as never)))
      expect((t as JobTransition).at, t.action).toBeDefined();
    expect(allowedJobActions('delivered', 'company').sort()).toEqual(['accept', 'message', 'request_changes']);
    expect(allowedJobActions('completed', 'admin')).toEqual([]);
    expect(allowedJobActions('cancelled', 'company')).toEqual([]);
  });

  it("the database's allowed steps are exactly the table's", () => {
    const sql = readFileSync(path.join(here, '../../db/migrations/0005_job_lifecycle.sql'), 'utf8');
    const body = /job_stage_step_allowed[\s\S]*?IN \(([\s\S]*?)\)\s*\$\$/.exec(sql)![1];
    const pairs = [...body.matchAll(/\('(\w+)', '(\w+)'\)/g)].map((m) => `${m[1]}->${m[2]}`);
    expect(pairs.sort()).toEqual([...new Set(steps)].sort());
  });
});

describeEachDb('job workspace: the lifecycle end to end', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let otherCompany: Login;
  let lawyer: Login;
  let otherLawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, otherCompany, lawyer, otherLawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Shareholders Agreement')).id;
  });
  afterAll(() => t.close());

  const page = (id: string, who: Login) =>
    t.app.inject({ method: 'GET', url: `/job-api/jobs/${id}`, headers: who.headers });
  const act = (id: string, action: string, who: Login, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: `/job-api/jobs/${id}/actions/${action}`, headers: who.headers, payload });
  const assign = (id: string) =>
    t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: id, lawyerId: lawyer.id },
    });
  async function assignedJob() {
    const job = await insertJob(t, company.id, { productId });
    expect((await assign(job.id)).statusCode).toBe(200);
    return job.id;
  }

  it('takes a job from assignment through messages, delivery, changes and acceptance', async () => {
    const id = await assignedJob();
    const asCompany = (await page(id, company)).json() as JobPageResponse;
    expect(asCompany.viewer).toBe('company');
    expect(asCompany.job).toMatchObject({ status: 'pending', stage: 'in_progress', late: false });
    expect(asCompany.actions.sort()).toEqual(['give_details', 'message']);
    const asLawyer = (await page(id, lawyer)).json() as JobPageResponse;
    expect(asLawyer.actions.sort()).toEqual(['deliver', 'message', 'request_details']);
    expect(asLawyer.events.map((e) => e.action)).toEqual(['assign']);

    // Messages both ways, one with a document the other party can then open.
    const doc = await uploadDocument(t.app, lawyer.headers, 'draft terms.pdf');
    const m1 = await act(id, 'message', lawyer, {
      note: 'Hello, I have started.',
      files: [{ url: doc.url, name: 'Draft terms.pdf' }],
    });
    expect(m1.statusCode, m1.body).toBe(200);
    expect((await act(id, 'message', company, { note: 'Thank you!' })).statusCode).toBe(200);
    const link = (who: Login) =>
      t.app.inject({ method: 'GET', url: `/api/files/${doc.key}/link`, headers: who.headers });
    expect((await link(company)).statusCode).toBe(200);
    expect((await link(otherCompany)).statusCode).toBe(403);
    expect((await link(otherLawyer)).statusCode).toBe(403);

    // A delivery needs a document; a request for changes needs a note.
    const noFile = await act(id, 'deliver', lawyer, { note: 'Done' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe(messages.deliveryNeedsDocument);
    const final = await uploadDocument(t.app, lawyer.headers, 'agreement.pdf');
    const delivered = await act(id, 'deliver', lawyer, { files: [{ url: final.url, name: 'agreement.pdf' }] });
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect((delivered.json() as JobPageResponse).job.stage).toBe('delivered');
    expect((await act(id, 'accept', lawyer)).statusCode).toBe(403);
    const noNote = await act(id, 'request_changes', company, { note: '   ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe(messages.changesNoteMissing);
    expect((await act(id, 'request_changes', company, { note: 'Please add a vesting clause.' })).statusCode).toBe(200);
    expect((await act(id, 'deliver', lawyer, { files: [{ url: final.url, name: 'v2.pdf' }] })).statusCode).toBe(409);
    expect((await act(id, 'deliver_again', lawyer, { files: [{ url: final.url, name: 'v2.pdf' }] })).statusCode).toBe(
      200,
    );
    const accepted = await act(id, 'accept', company);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const done = accepted.json() as JobPageResponse;
    expect(done.job).toMatchObject({ status: 'completed', stage: 'completed' });
    expect(done.actions).toEqual([]);
    expect(done.events.map((e) => e.action)).toEqual([
      'assign',
      'message',
      'message',
      'deliver',
      'request_changes',
      'deliver_again',
      'accept',
    ]);
    // Closed: nothing more, and the spec's completed list shows it.
    const late = await act(id, 'message', company, { note: 'One more thing' });
    expect(late.statusCode).toBe(409);
    const completed = await t.app.inject({
      method: 'GET',
      url: '/job-api/company/completedjobs',
      headers: company.headers,
    });
    expect((completed.json() as Array<{ _id: string }>).some((j) => j._id === id)).toBe(true);
    // The lawyer was told of the request for changes and the acceptance, by notification and e-mail.
    const mails = (await mailsTo(t, lawyer.email)).map((m) => m.subject);
    expect(mails.some((s) => s.includes('asked for changes'))).toBe(true);
    expect(mails.some((s) => s.includes('accepted the work'))).toBe(true);
  });

  it('keeps strangers out: other companies, other lawyers, applicants and guests', async () => {
    const id = await assignedJob();
    expect((await page(id, otherCompany)).statusCode).toBe(403);
    expect((await page(id, otherLawyer)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/job-api/jobs/${id}` })).statusCode).toBe(401);
    expect((await act(id, 'message', otherLawyer, { note: 'hi' })).statusCode).toBe(403);
    expect((await act(id, 'message', otherCompany, { note: 'hi' })).statusCode).toBe(403);
    expect((await page('00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    const events = await t.app.inject({
      method: 'GET',
      url: `/job-api/jobs/${id}/events?after=0`,
      headers: otherLawyer.headers,
    });
    expect(events.statusCode).toBe(403);
    // A company cannot cancel or complete; an admin can cancel, and a cancelled job is in no spec list.
    expect((await act(id, 'cancel', company)).statusCode).toBe(403);
    expect((await act(id, 'cancel', admin, { note: 'Refunded at the company’s request' })).statusCode).toBe(200);
    const pending = await t.app.inject({
      method: 'GET',
      url: '/job-api/company/pendingjobs',
      headers: company.headers,
    });
    expect((pending.json() as Array<{ _id: string }>).some((j) => j._id === id)).toBe(false);
    expect(((await page(id, company)).json() as JobPageResponse).job).toMatchObject({
      status: 'cancelled',
      stage: 'cancelled',
    });
  });

  it('refuses empty, oversized and foreign-file messages with clear 400/403s', async () => {
    const id = await assignedJob();
    const empty = await act(id, 'message', company, { note: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(messages.messageMissing);
    expect((await act(id, 'message', company, { note: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect((await act(id, 'message', company, { note: 'x'.repeat(5000) })).statusCode).toBe(200);
    const theirs = await uploadDocument(t.app, otherCompany.headers, 'not yours.pdf');
    const foreign = await act(id, 'message', company, {
      note: 'see file',
      files: [{ url: theirs.url, name: 'x.pdf' }],
    });
    expect(foreign.statusCode).toBe(403);
    expect((await act(id, 'wave', company, { note: 'x' })).statusCode).toBe(400);
    expect((await act(id, 'message', company, { note: 'x', files: 'nope' })).statusCode).toBe(400);
  });

  it('the database refuses a step the lifecycle does not have', async () => {
    const job = await insertJob(t, company.id, { productId });
    const db = t.rt.database.db;
    await expect(db.update(jobs).set({ stage: 'delivered' }).where(eq(jobs.id, job.id))).rejects.toThrow();
    await expect(db.update(jobs).set({ status: 'completed' }).where(eq(jobs.id, job.id))).rejects.toThrow();
    await expect(
      db
        .update(jobs)
        .set({ stage: 'nonsense' as never })
        .where(eq(jobs.id, job.id)),
    ).rejects.toThrow();
    const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ stage: 'unassigned', status: 'unassigned' });
  });

  it('polls new events cheaply and marks the thread and its notifications read', async () => {
    const id = await assignedJob();
    const first = (await page(id, company)).json() as JobPageResponse;
    const last = first.events.at(-1)!._id;
    const none = await t.app.inject({
      method: 'GET',
      url: `/job-api/jobs/${id}/events?after=${last}`,
      headers: company.headers,
    });
    expect(none.json().events).toEqual([]);
    await act(id, 'message', lawyer, { note: 'A question for you' });
    const some = await t.app.inject({
      method: 'GET',
      url: `/job-api/jobs/${id}/events?after=${last}`,
      headers: company.headers,
    });
    expect(some.json().events.map((e: { note: string }) => e.note)).toEqual(['A question for you']);
    const unread = () =>
      t.app
        .inject({ method: 'GET', url: '/api/notifications/unread', headers: company.headers })
        .then((r) => r.json().unread as number);
    const before = await unread();
    expect(before).toBeGreaterThan(0);
    const list = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: company.headers });
    expect(list.json().notifications[0]).toMatchObject({ jobId: id, action: 'message', readAt: null });
    const read = await t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${id}/read`,
      headers: company.headers,
      payload: { lastEventId: some.json().events[0]._id },
    });
    expect(read.statusCode).toBe(200);
    expect(await unread()).toBeLessThan(before);
    expect(((await page(id, company)).json() as JobPageResponse).lastReadEventId).toBe(some.json().events[0]._id);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: company.headers,
      payload: { all: true },
    });
    expect(all.json()).toEqual({ unread: 0 });
    // The bell and the list are cached per reader: each write shows on the next read.
    expect(await unread()).toBe(0);
    expect(await unread()).toBe(0);
    await act(id, 'message', lawyer, { note: 'And another' });
    expect(await unread()).toBe(1);
    const fresh = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: company.headers });
    expect(fresh.json().notifications[0]).toMatchObject({ jobId: id, text: expect.any(String), readAt: null });
    expect(fresh.headers['cache-control']).toBe('no-store');
  });

  it('sends the newest events in pages, older ones on request, and a fresh page after every write', async () => {
    const id = await assignedJob();
    // A long thread: 60 messages after the assignment, alternating between the parties.
    for (let i = 1; i <= 60; i++)
      expect((await act(id, 'message', i % 2 ? lawyer : company, { note: `Message ${i}` })).statusCode).toBe(200);
    const first = (await page(id, company)).json() as JobPageResponse;
    expect(first.events).toHaveLength(THREAD_PAGE);
    expect(first.earlier).toBe(true);
    expect(first.events.at(-1)!.note).toBe('Message 60');
    expect(first.events[0]!.note).toBe(`Message ${61 - THREAD_PAGE}`);
    const older = await t.app.inject({
      method: 'GET',
      url: `/job-api/jobs/${id}/events?before=${first.events[0]!._id}`,
      headers: company.headers,
    });
    expect(older.statusCode).toBe(200);
    expect(older.json().earlier).toBe(false);
    expect(older.json().events.map((e: { action: string; note: string | null }) => e.note ?? e.action)).toEqual([
      'assign',
      ...Array.from({ length: 61 - THREAD_PAGE - 1 }, (_, i) => `Message ${i + 1}`),
    ]);
    const both = await t.app.inject({
      method: 'GET',
      url: `/job-api/jobs/${id}/events?before=5&after=1`,
      headers: company.headers,
    });
    expect(both.statusCode).toBe(400);

    // The page is a cached response: the same bytes again, then the lawyer's new message at once.
    const again = await page(id, company);
    expect(again.body).toBe(JSON.stringify(first));
    await act(id, 'message', lawyer, { note: 'One more thing' });
    const after = (await page(id, company)).json() as JobPageResponse;
    expect(after.events.at(-1)!.note).toBe('One more thing');
    // ... per reader and per job: the lawyer's own page and another job's page are their own.
    expect(((await page(id, lawyer)).json() as JobPageResponse).viewer).toBe('assigned_lawyer');
    const other = await assignedJob();
    expect(((await page(other, company)).json() as JobPageResponse).job._id).toBe(other);
    expect(((await page(id, company)).json() as JobPageResponse).job._id).toBe(id);
    // A read mark written elsewhere shows on the next read.
    await t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${id}/read`,
      headers: company.headers,
      payload: { lastEventId: after.events.at(-1)!._id },
    });
    expect(((await page(id, company)).json() as JobPageResponse).lastReadEventId).toBe(after.events.at(-1)!._id);
  });

  it('auto-accepts five working days after a silent delivery, reminds the company at three, once each', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(t.app, lawyer.headers, 'deliverable.pdf');
    expect((await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'deliverable.pdf' }] })).statusCode).toBe(
      200,
    );
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const hs = new Set((await t.rt.database.db.select().from(holidays)).map((h) => h.day));
    const tick = (at: Date) =>
      t.app.inject({
        method: 'POST',
        url: '/dev/scheduler/tick',
        payload: { days: (at.getTime() - t.clock.now().getTime()) / 86_400_000 },
      });
    const remindAt = addWorkingDays(row.deliveredAt!, 3, hs);
    const acceptAt = addWorkingDays(row.deliveredAt!, 5, hs);
    const actionsOf = async () =>
      (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).map((e) => e.action);
    await tick(new Date(remindAt.getTime() - 60_000));
    expect(await actionsOf()).not.toContain('remind_company');
    await tick(remindAt);
    expect((await actionsOf()).filter((a) => a === 'remind_company')).toHaveLength(1);
    await tick(new Date(acceptAt.getTime() - 60_000));
    expect(((await page(id, company)).json() as JobPageResponse).job.stage).toBe('delivered');
    await tick(acceptAt);
    await tick(acceptAt);
    const after = (await page(id, company)).json() as JobPageResponse;
    expect(after.job.stage).toBe('completed');
    expect(after.events.filter((e) => e.action === 'auto_accept')).toHaveLength(1);
    expect(after.events.filter((e) => e.action === 'remind_company')).toHaveLength(1);
  });

  it('a request for changes retires the delivery timers: no auto-acceptance of a superseded delivery', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(t.app, lawyer.headers, 'first.pdf');
    await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'first.pdf' }] });
    await act(id, 'request_changes', company, { note: 'Not yet' });
    const fired = await t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days: 30 } });
    expect(fired.statusCode).toBe(200);
    const after = (await page(id, company)).json() as JobPageResponse;
    expect(after.job.stage).toBe('changes_requested');
    expect(after.events.map((e) => e.action)).not.toContain('auto_accept');
    // The lawyer's reminders still fire while the job is being worked on: due soon, then late.
    expect(after.events.map((e) => e.action)).toEqual(expect.arrayContaining(['remind_due', 'remind_late']));
  });

  it('reminds the lawyer of a late job whose reminders fell due while it sat delivered, once', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(t.app, lawyer.headers, 'early.pdf');
    await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'early.pdf' }] });
    // The due date passes while the delivery waits (its reminders are passed over), before auto-acceptance.
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    const dueNow = new Date(t.clock.now().getTime() + 3600_000);
    await t.rt.database.db.update(jobs).set({ dueAt: dueNow }).where(eq(jobs.id, id));
    await t.rt.database.db
      .update(jobTimers)
      .set({ fireAt: new Date(dueNow.getTime() - 1000) })
      .where(and(eq(jobTimers.jobId, id), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
    expect(row.stage).toBe('delivered');
    const tickBy = (ms: number) =>
      t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days: ms / 86_400_000 } });
    expect((await tickBy(2 * 3600_000)).statusCode).toBe(200);
    const lateOf = async () =>
      (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).filter(
        (e) => e.action === 'remind_late',
      );
    expect(await lateOf()).toHaveLength(0);
    t.clock.advance(2 * 3600_000);
    expect((await act(id, 'request_changes', company, { note: 'Clause 7 is missing' })).statusCode).toBe(200);
    await tickBy(60_000);
    await tickBy(60_000);
    expect(await lateOf()).toHaveLength(1);
    // Delivered and sent back again: the lawyer was told already.
    await act(id, 'deliver_again', lawyer, { files: [{ url: doc.url, name: 'early.pdf' }] });
    await act(id, 'request_changes', company, { note: 'And clause 8' });
    await tickBy(60_000);
    expect(await lateOf()).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')('fires each timer exactly once when two schedulers tick together', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => assignedJob()));
    const doc = await uploadDocument(t.app, lawyer.headers, 'race.pdf');
    for (const id of ids) await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'race.pdf' }] });
    const later = new Date(t.clock.now().getTime() + 30 * 86_400_000);
    const { createJobLifecycle } = await import('./lifecycle-service.js');
    const deps = { db: t.rt.database.db, clock: t.clock, config: t.config, mailWritten: () => {} };
    const money = () => {
      const ledger = createLedger(deps);
      return { ledger, refunds: createRefunds({ ...deps, provider: sandboxProvider(deps.db), ledger }) };
    };
    const a = createJobLifecycle(deps, money());
    const b = createJobLifecycle(deps, money());
    const [na, nb] = await Promise.all([a.tick(later), b.tick(later)]);
    // Per job: remind_company, then auto_accept; the lawyer's reminders come after and find it completed.
    expect(na + nb).toBe(ids.length * 2);
    for (const id of ids) {
      const events = await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id));
      expect(
        events.filter((e) => e.action === 'auto_accept'),
        id,
      ).toHaveLength(1);
      const timers = await t.rt.database.db.select().from(jobTimers).where(eq(jobTimers.jobId, id));
      expect(timers.every((x) => x.firedAt)).toBe(true);
    }
  });
});
