import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { emailOutbox, jobEvents, jobs, jobTimers, users } from '../../db/schema.js';
import {
  createTestApp,
  describeEachDb,
  otherConnection,
  PASSWORD,
  signupAndLogin,
  type TestApp,
} from '../../../test/helpers.js';
import { insertProduct } from '../../../test/commerce-helpers.js';
import { handOverKit, type Login } from './hand-over-test-kit.js';

// A lawyer whose verification is withdrawn while assigned (decision 2310): reads the job, adds nothing
// to it; the company keeps the work; an admin passes the job to another verified lawyer.
describeEachDb('a lawyer who loses verification while assigned to a job', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Share Transfer', 50_000);
  });
  afterAll(() => t.close());

  const { db, inject, act, login, assign, pay, upload } = handOverKit(() => ({ t, admin, product }));

  const page = async (who: Login, jobId: string) => {
    const res = await inject('GET', `/job-api/jobs/${jobId}`, who);
    return { status: res.statusCode, body: res.statusCode === 200 ? (res.json() as Record<string, unknown>) : null };
  };
  const deliveredFiles = (body: Record<string, unknown> | null) =>
    ((body?.events ?? []) as Array<{ action: string; files: Array<{ name: string }> }>)
      .filter((e) => e.action.startsWith('deliver'))
      .flatMap((e) => e.files.map((f) => f.name));

  it('cannot deliver or write on the job, keeps its work with the job, and an admin passes it on', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: 'Ada First' }).where(eq(users.id, first.id));
    await db().update(users).set({ name: 'Bola Second' }).where(eq(users.id, second.id));
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'FIRST-DRAFT')] })).statusCode).toBe(200);
    expect((await act(company, job.id, 'request_changes', { note: 'Add the board resolution.' })).statusCode).toBe(200);
    // While the lawyer is verified, the job is not passed on.
    expect((await assign(job.id, second.id)).json()).toMatchObject({ message: messages.jobAlreadyAssigned });

    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    const withdrawn = await login(first.email, first.id);

    for (const [action, body] of [
      ['deliver_again', { files: [await upload(withdrawn, 'SECOND-DRAFT')] }],
      ['message', { note: 'I am still on it.' }],
      ['request_details', { note: 'Which board?' }],
    ] as const) {
      const res = await act(withdrawn, job.id, action, body);
      expect(res.statusCode, action).toBe(403);
      expect(res.json()).toMatchObject({ message: messages.assignedLawyerUnverified });
    }
    const asked = await inject('POST', `/job-api/requestmorejobdetails/${job.id}`, withdrawn, {
      detail: 'Which board?',
    });
    expect(asked.statusCode).toBe(403);
    // The lawyer still reads the job, with no action offered; the company still has the first draft.
    const read = await page(withdrawn, job.id);
    expect(read.status).toBe(200);
    expect(read.body?.actions).toEqual([]);
    expect(deliveredFiles((await page(company, job.id)).body)).toEqual(['FIRST-DRAFT.pdf']);

    // The admin passes the job to a verified lawyer (never to the withdrawn one).
    expect((await assign(job.id, first.id)).json()).toMatchObject({ message: messages.lawyerNotVerifiedForAssign });
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    const [moved] = await db().select().from(jobs).where(eq(jobs.id, job.id));
    expect(moved).toMatchObject({ assignedTo: second.id, stage: 'changes_requested' });
    expect((await page(withdrawn, job.id)).status).toBe(403);
    const seen = await page(second, job.id);
    expect(deliveredFiles(seen.body)).toEqual(['FIRST-DRAFT.pdf']);
    expect((await act(second, job.id, 'deliver_again', { files: [await upload(second, 'FINAL')] })).statusCode).toBe(
      200,
    );
    expect((await act(company, job.id, 'accept', {})).statusCode).toBe(200);

    // The withdrawn lawyer deletes the account: the company's "assigned to" notice of it loses the name,
    // the second lawyer's stays.
    expect((await inject('POST', '/api/account/delete', withdrawn, { password: PASSWORD })).statusCode).toBe(200);
    const texts = (
      (await inject('GET', '/api/notifications', company)).json().notifications as Array<{
        jobId: string;
        action: string;
        text: string;
      }>
    )
      .filter((n) => n.jobId === job.id && n.action === 'assign')
      .map((n) => n.text);
    expect(texts).toEqual(['Share Transfer is assigned to Bola Second', 'Share Transfer is assigned to Deleted user']);
  });

  it('a delivered job waits for the company before it is passed on', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'DRAFT')] })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    const res = await assign(job.id, second.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: messages.reassignDelivered });
  });

  /** A job assigned to `first`, then passed to `second` after `first`'s verification was withdrawn. */
  async function handedOn(
    company: Login,
    first: Login,
    second: Login,
    beforeHandOver?: (jobId: string) => Promise<void>,
  ) {
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    await beforeHandOver?.(job.id);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    return job;
  }

  it("the company's erasure takes its name out of the replaced lawyer's assignment mail too", async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ companyName: 'Zephyrine Holdings' }).where(eq(users.id, company.id));
    const job = await handedOn(company, first, second);
    expect((await act(second, job.id, 'deliver', { files: [await upload(second, 'DONE')] })).statusCode).toBe(200);
    expect((await act(company, job.id, 'accept', {})).statusCode).toBe(200);

    expect((await inject('POST', '/api/account/delete', company, { password: PASSWORD })).statusCode).toBe(200);

    // The first lawyer had the assignment mail; the second the hand-over's (decision 2316).
    for (const [lawyer, subject] of [
      [first, 'You have been assigned a job'],
      [second, 'A job has been passed to you'],
    ] as const) {
      const mails = await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, lawyer.email))
        .orderBy(asc(emailOutbox.id));
      const assigned = mails.find((m) => m.subject.startsWith(subject))!;
      expect(assigned.text, lawyer.email).toContain('"Share Transfer" for Deleted user.');
      expect(mails.map((m) => `${m.subject}\n${m.text}\n${m.html}`).join('\n')).not.toContain('Zephyrine');
    }
  });

  it('gives the new lawyer a fresh due window and reminders of their own', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    const now = () => t.clock.now().getTime();
    const tickIn = (days: number) => t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days } });
    const reminders = async (jobId: string) =>
      (await db().select().from(jobEvents).where(eq(jobEvents.jobId, jobId)))
        .map((e) => e.action)
        .filter((a) => a === 'remind_due' || a === 'remind_late')
        .sort();
    const job = await handedOn(company, first, second, async (jobId) => {
      // The first lawyer ran late: both reminders went out to them.
      await db()
        .update(jobs)
        .set({ dueAt: new Date(now() - 3600_000) })
        .where(eq(jobs.id, jobId));
      await db()
        .update(jobTimers)
        .set({ fireAt: new Date(now() - 7200_000) })
        .where(and(eq(jobTimers.jobId, jobId), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
      expect((await tickIn(0)).statusCode).toBe(200);
      expect(await reminders(jobId)).toEqual(['remind_due', 'remind_late']);
    });

    // Ten working days from the hand-over (at least twelve calendar days), and not late.
    const [row] = await db().select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.dueAt.getTime()).toBeGreaterThanOrEqual(now() + 12 * 86_400_000);
    expect((await page(second, job.id)).body?.job).toMatchObject({ late: false });
    await tickIn(0);
    expect(await reminders(job.id)).toEqual(['remind_due', 'remind_late']);
    // Its reminders come to the new lawyer as the new date nears and passes.
    await tickIn(30);
    expect(await reminders(job.id)).toEqual(['remind_due', 'remind_due', 'remind_late', 'remind_late']);
    const told = (
      (await inject('GET', '/api/notifications', second)).json().notifications as Array<{
        jobId: string;
        action: string;
      }>
    ).filter((n) => n.jobId === job.id && n.action.startsWith('remind'));
    expect(told.map((n) => n.action).sort()).toEqual(['remind_due', 'remind_late']);
  });

  // On the server only (PGlite has one connection): the timer pass holds a reminder while it waits for
  // its job; a hand-over that held the job and then deleted that reminder would deadlock with it.
  it.runIf(kind === 'postgres')(
    'hands a job on while the timer pass takes its reminders, without a deadlock',
    async () => {
      const company = await signupAndLogin(t, 'company');
      const first = await signupAndLogin(t, 'lawyer', { verified: true });
      const second = await signupAndLogin(t, 'lawyer', { verified: true });
      const job = await pay(company);
      expect((await assign(job.id, first.id)).statusCode).toBe(200);
      // Its reminders are due (first in the pass's order), not yet sent.
      await db()
        .update(jobTimers)
        .set({ fireAt: new Date(t.clock.now().getTime() - 40 * 86_400_000) })
        .where(and(eq(jobTimers.jobId, job.id), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
      expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);

      const other = await otherConnection(t);
      // Backends waiting on `other`'s lock (the hand-over), and backends waiting on those (a pass
      // holding a reminder and waiting for the job the hand-over holds).
      const blocked = async () => {
        const { rows } = await other.query(
          `select (select count(*) from pg_stat_activity b where pg_backend_pid() = any(pg_blocking_pids(b.pid)))::int as first,
                  (select count(*) from pg_stat_activity a where exists (
                     select 1 from pg_stat_activity b
                      where pg_backend_pid() = any(pg_blocking_pids(b.pid)) and b.pid = any(pg_blocking_pids(a.pid))))::int as second`,
        );
        return rows[0] as { first: number; second: number };
      };
      const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
      try {
        // The new lawyer's row is held, so the hand-over stops there with its locks taken so far.
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [second.id]);
        const handing = assign(job.id, second.id);
        for (let i = 0; i < 100 && !(await blocked()).first; i++) await pause();
        expect((await blocked()).first, 'the hand-over waits for the lawyer row').toBe(1);
        // The pass comes now: it either finds the reminders taken and ends, or holds one and waits for
        // the job the hand-over holds.
        const ticking = t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days: 0 } });
        let ticked = false;
        void ticking.then(() => (ticked = true));
        for (let i = 0; i < 100 && !ticked && !(await blocked()).second; i++) await pause();
        await other.query('commit');
        const [handed, tick] = await Promise.all([handing, ticking]);
        expect(handed.statusCode, handed.body).toBe(200);
        expect(tick.statusCode, tick.body).toBe(200);
      } finally {
        await other.end();
      }
      // The first lawyer's reminders went with the hand-over, unsent; the new lawyer's are not due yet.
      expect(
        (await t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days: 0 } })).statusCode,
      ).toBe(200);
      const sent = (await db().select().from(jobEvents).where(eq(jobEvents.jobId, job.id))).filter((e) =>
        e.action.startsWith('remind'),
      );
      expect(sent).toEqual([]);
      const [moved] = await db().select().from(jobs).where(eq(jobs.id, job.id));
      expect(moved.assignedTo).toBe(second.id);
    },
  );

  it("sets the new lawyer's reminders again after a request for changes, whatever the old lawyer had", async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    const now = () => t.clock.now().getTime();
    const tickIn = (days: number) => t.app.inject({ method: 'POST', url: '/dev/scheduler/tick', payload: { days } });
    const overdue = async (jobId: string) => {
      await db()
        .update(jobs)
        .set({ dueAt: new Date(now() - 3600_000) })
        .where(eq(jobs.id, jobId));
      await db()
        .update(jobTimers)
        .set({ fireAt: new Date(now() - 7200_000) })
        .where(and(eq(jobTimers.jobId, jobId), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
      expect((await tickIn(0)).statusCode).toBe(200);
    };
    const lateTo = async (who: Login, jobId: string) =>
      (
        (await inject('GET', '/api/notifications', who)).json().notifications as Array<{
          jobId: string;
          action: string;
        }>
      ).filter((n) => n.jobId === jobId && n.action === 'remind_late').length;
    const job = await handedOn(company, first, second, (jobId) => overdue(jobId));
    const lateEvents = async () =>
      (await db().select().from(jobEvents).where(eq(jobEvents.jobId, job.id))).filter(
        (e) => e.action === 'remind_late',
      );
    expect(await lateEvents()).toHaveLength(1);
    // The new lawyer delivers early; the new date passes while the delivery waits (no reminder then).
    expect((await act(second, job.id, 'deliver', { files: [await upload(second, 'EARLY')] })).statusCode).toBe(200);
    await overdue(job.id);
    expect(await lateTo(second, job.id)).toBe(0);
    expect((await act(company, job.id, 'request_changes', { note: 'Add clause 9.' })).statusCode).toBe(200);
    await tickIn(0);
    expect(await lateTo(second, job.id)).toBe(1);
    expect(await lateEvents()).toHaveLength(2);
  });
});
