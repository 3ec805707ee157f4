import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { JobStage } from '@legalmarket/contracts';
import { jobEvents, jobs, ledgerTransactions, notifications } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { buyOne, insertProduct } from '../../../test/commerce-helpers.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { createLedger } from '../money/ledger.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Res = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * The job workspace raced as impatient users and busy admins race it: two tabs, double clicks, an
 * admin's override and the clock at the same moment. Whatever wins, a job moves one step at a time,
 * completes or cancels once, and its money moves once (issue 16). Races only show on the PostgreSQL
 * server; on PGlite the same requests run one after another and must hold the same invariants.
 */
describeEachDb('job workspace races', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    product = await insertProduct(t, 'Shareholders Agreement', 40_000);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const act = (id: string, action: string, who: Login, payload: object = {}) =>
    inject('POST', `/job-api/jobs/${id}/actions/${action}`, who, payload);

  /** A job paid through the sandbox (its money held), assigned to the lawyer. */
  async function assignedJob() {
    const { orderId } = await buyOne(t, company, product);
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId));
    const assigned = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return job.id;
  }
  async function deliver(id: string, action = 'deliver') {
    const doc = await uploadDocument(t.app, lawyer.headers, 'draft.pdf');
    const res = await act(id, action, lawyer, { files: [{ url: doc.url, name: 'draft.pdf' }] });
    expect(res.statusCode, res.body).toBe(200);
    return doc;
  }
  async function deliveredJob() {
    const id = await assignedJob();
    await deliver(id);
    return id;
  }

  /**
   * What every race must leave: a timeline whose every event leaves from the stage the one before it
   * reached (no step skipped, none twice), the job at the last event's stage, at most one completion or
   * cancellation with exactly its one posting, and each event told once to each recipient.
   */
  async function invariants(id: string) {
    const db = t.rt.database.db;
    const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
    const events = await db.select().from(jobEvents).where(eq(jobEvents.jobId, id)).orderBy(asc(jobEvents.id));
    for (let i = 1; i < events.length; i++)
      expect(events[i].fromStage, `${events[i].action} after ${events[i - 1].action}`).toBe(events[i - 1].toStage);
    expect(events.at(-1)!.toStage).toBe(job.stage);
    const reached = (stage: JobStage) => events.filter((e) => e.toStage === stage && e.fromStage !== stage);
    expect(reached('completed')).toHaveLength(job.stage === 'completed' ? 1 : 0);
    expect(reached('cancelled')).toHaveLength(job.stage === 'cancelled' ? 1 : 0);
    const posted = async (k: 'earning' | 'cancellation') =>
      (
        await db
          .select()
          .from(ledgerTransactions)
          .where(and(eq(ledgerTransactions.jobId, id), eq(ledgerTransactions.kind, k)))
      ).length;
    expect(await posted('earning')).toBe(job.stage === 'completed' ? 1 : 0);
    expect(await posted('cancellation')).toBe(job.stage === 'cancelled' ? 1 : 0);
    const told = await db.select().from(notifications).where(eq(notifications.jobId, id));
    const pairs = told.map((n) => `${n.eventId}:${n.userId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    return { job, events };
  }
  const codes = (all: Res[]) => all.map((r) => r.statusCode);
  const only = (all: Res[], allowed: number[]) =>
    expect(
      all.filter((r) => !allowed.includes(r.statusCode)).map((r) => `${r.statusCode} ${r.body}`),
      'unexpected answers',
    ).toEqual([]);

  const ROUNDS = kind === 'postgres' ? 4 : 1;

  it('two tabs and a double click accepting at once: one acceptance, one earning, the others 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const all = await Promise.all([1, 2, 3].map(() => act(id, 'accept', company)));
      only(all, [200, 409]);
      expect(codes(all).filter((c) => c === 200)).toHaveLength(1);
      const { job, events } = await invariants(id);
      expect(job.stage).toBe('completed');
      expect(events.filter((e) => e.action === 'accept')).toHaveLength(1);
    }
  });

  it('an acceptance racing a request for changes: exactly one of them happens', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const all = await Promise.all([
        act(id, 'accept', company),
        act(id, 'request_changes', company, { note: 'Clause 7 is missing' }),
      ]);
      only(all, [200, 409]);
      expect(codes(all).filter((c) => c === 200)).toHaveLength(1);
      const { job, events } = await invariants(id);
      const won = events.filter((e) => e.action === 'accept' || e.action === 'request_changes');
      expect(won).toHaveLength(1);
      expect(job.stage).toBe(won[0].action === 'accept' ? 'completed' : 'changes_requested');
    }
  });

  it("an acceptance racing an admin's completion (page and spec route) and cancellation: one final step", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const all = await Promise.all([
        act(id, 'accept', company),
        act(id, 'complete', admin),
        inject('PUT', `/job-api/completejob/${id}`, admin),
        act(id, 'cancel', admin, { note: 'Duplicate order' }),
      ]);
      only(all, [200, 409]);
      expect(codes(all).filter((c) => c === 200)).toHaveLength(1);
      const { job } = await invariants(id);
      expect(['completed', 'cancelled']).toContain(job.stage);
    }
  });

  it('an acceptance racing the automatic acceptance of a silent delivery: completed once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const all = await Promise.all([
        act(id, 'accept', company),
        inject('POST', '/dev/scheduler/tick', admin, { days: 10 }),
        inject('POST', '/dev/scheduler/tick', admin, { days: 10 }),
      ]);
      only(all, [200, 409]);
      const { job, events } = await invariants(id);
      expect(job.stage).toBe('completed');
      expect(events.filter((e) => e.action === 'accept' || e.action === 'auto_accept')).toHaveLength(1);
    }
  });

  it('a lawyer delivering twice at once and again while the company accepts: one delivery per round', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await assignedJob();
      const [a, b] = await Promise.all([
        uploadDocument(t.app, lawyer.headers, 'one.pdf'),
        uploadDocument(t.app, lawyer.headers, 'two.pdf'),
      ]);
      const first = await Promise.all([
        act(id, 'deliver', lawyer, { files: [{ url: a.url, name: 'one.pdf' }] }),
        act(id, 'deliver', lawyer, { files: [{ url: b.url, name: 'two.pdf' }] }),
        act(id, 'accept', company),
      ]);
      only(first, [200, 409]);
      // Accept can win only after a delivery: the delivery and possibly the acceptance.
      const { events } = await invariants(id);
      expect(events.filter((e) => e.action === 'deliver')).toHaveLength(1);
    }
  });

  it('an admin assigning another lawyer or cancelling while the lawyer delivers: never a delivery by a stranger', async () => {
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    for (let round = 0; round < ROUNDS; round++) {
      const id = await assignedJob();
      const doc = await uploadDocument(t.app, lawyer.headers, 'final.pdf');
      const all = await Promise.all([
        act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'final.pdf' }] }),
        inject('POST', '/job-api/assign', admin, { jobId: id, lawyerId: other.id }),
        act(id, 'cancel', admin, { note: 'The company withdrew' }),
      ]);
      only(all, [200, 409]);
      // A job is assigned once: the second assignment is refused whatever else happened.
      expect(all[1].statusCode).toBe(409);
      const { job, events } = await invariants(id);
      expect(job.assignedTo).toBe(lawyer.id);
      expect(events.filter((e) => e.action === 'assign').map((e) => e.actorId)).toEqual([admin.id]);
      // The delivery lands only if it came before the cancellation.
      const delivered = events.some((e) => e.action === 'deliver');
      expect(delivered).toBe(all[0].statusCode === 200);
      expect(job.stage).toBe(all[2].statusCode === 200 ? 'cancelled' : 'delivered');
    }
  });

  it('everything at once on a delivered job, from every party and the clock: the invariants hold', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await deliveredJob();
      const doc = await uploadDocument(t.app, lawyer.headers, 'again.pdf');
      const all = await Promise.all([
        act(id, 'accept', company),
        act(id, 'request_changes', company, { note: 'Please add the schedule' }),
        act(id, 'deliver_again', lawyer, { files: [{ url: doc.url, name: 'again.pdf' }] }),
        act(id, 'message', lawyer, { note: 'Sent the final copy' }),
        act(id, 'message', company, { note: 'Looking now' }),
        act(id, 'complete', admin),
        act(id, 'cancel', admin, { note: 'Refund asked' }),
        inject('POST', '/dev/scheduler/tick', admin, { days: 10 }),
        act(id, 'accept', company),
      ]);
      only(all, [200, 409]);
      const { events } = await invariants(id);
      // Every message answered 200 is in the timeline once; none answered 409 is.
      const sent = [all[3], all[4]].filter((r) => r.statusCode === 200).length;
      expect(events.filter((e) => e.action === 'message')).toHaveLength(sent);
    }
  });
});
