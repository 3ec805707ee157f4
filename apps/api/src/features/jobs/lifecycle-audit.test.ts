import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobEvents, jobTimers, jobs, notifications } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { auditFor, insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { sandboxProvider } from '../../platform/payments/sandbox.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createJobLifecycle } from './lifecycle-service.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** An outside tester's findings on the job workspace (issue 16), each kept as a test. */
describeEachDb('job workspace: refusals and notifications an audit found', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Loan Agreement Review')).id;
  });
  afterAll(() => t.close());

  const act = (id: string, action: string, who: Login, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: `/job-api/jobs/${id}/actions/${action}`, headers: who.headers, payload });
  async function assignedJob() {
    const job = await insertJob(t, company.id, { productId });
    const res = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: job.id, lawyerId: lawyer.id },
    });
    expect(res.statusCode).toBe(200);
    return job.id;
  }
  const row = async (id: string) => (await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const eventCount = async (id: string) =>
    (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).length;

  it("audits an admin's details and completion taken from the job page, as the spec's routes do", async () => {
    // A company of its own: the other tests count the main company's e-mails.
    const own = await signupAndLogin(t, 'company');
    const job = await insertJob(t, own.id, { productId });
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: job.id, lawyerId: lawyer.id },
    });
    expect(assigned.statusCode).toBe(200);
    const id = job.id;
    expect((await act(id, 'add_details', admin, { note: 'Use the 2023 template.' })).statusCode).toBe(200);
    expect(await auditFor(t, 'job.add_details', id)).toHaveLength(1);
    expect((await act(id, 'complete', admin)).statusCode).toBe(200);
    expect(await auditFor(t, 'job.complete', id)).toHaveLength(1);
    // A company's or lawyer's own actions are not admin actions.
    const other = (await insertJob(t, own.id, { productId, status: 'pending', lawyerId: lawyer.id })).id;
    expect((await act(other, 'give_details', own, { note: 'Two directors.' })).statusCode).toBe(200);
    expect(await auditFor(t, 'job.give_details', other)).toHaveLength(0);
  });

  it('refuses details given or added from the job page without any text, keeping the ones there', async () => {
    const id = await assignedJob();
    expect((await act(id, 'give_details', company, { note: 'Two lenders, one borrower.' })).statusCode).toBe(200);
    expect((await act(id, 'add_details', admin, { note: 'Governing law: Lagos State.' })).statusCode).toBe(200);
    const events = await eventCount(id);
    for (const [action, who] of [
      ['give_details', company],
      ['add_details', admin],
    ] as const)
      for (const payload of [{}, { note: '  \n ' }]) {
        const res = await act(id, action, who, payload);
        expect(res.statusCode, `${action} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().message).toBe(messages.kindlyAddDetails);
      }
    expect(await row(id)).toMatchObject({
      companyDetail: 'Two lenders, one borrower.',
      adminDetail: 'Governing law: Lagos State.',
    });
    expect(await eventCount(id)).toBe(events);
  });

  it("answers an oversized note and too many documents in the thread's own words", async () => {
    const id = await assignedJob();
    const long = await act(id, 'message', company, { note: 'x'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(messages.messageTooLong);
    const many = await act(id, 'message', company, {
      note: 'six files',
      files: Array.from({ length: 6 }, (_, i) => ({ url: `/api/files/k${i}`, name: `${i}.pdf` })),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toBe('Please attach at most 5 documents');
    // The limit counts the note as it is kept: blanks around it are not part of it.
    const padded = await act(id, 'message', company, { note: `${'y'.repeat(5000)}\n\n  ` });
    expect(padded.statusCode, padded.body).toBe(200);
  });

  it('tells the lawyer by e-mail too when an admin marks the job completed on the spec route', async () => {
    const id = await assignedJob();
    const before = (await mailsTo(t, lawyer.email)).length;
    const res = await t.app.inject({ method: 'PUT', url: `/job-api/completejob/${id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const lawyerMails = (await mailsTo(t, lawyer.email)).slice(before);
    expect(lawyerMails.map((m) => m.subject)).toEqual(['Loan Agreement Review was marked completed']);
    expect(lawyerMails[0]!.text).toContain(`/jobs/${id}`);
    // The company keeps the spec's own e-mail, once.
    const companyMails = (await mailsTo(t, company.email)).filter((m) => m.subject.includes('completed'));
    expect(companyMails.map((m) => m.subject)).toEqual(['Your job is completed: Loan Agreement Review']);
  });

  it('takes a message or an acceptance sent twice at once with one key once: one event, one notification', async () => {
    const id = await assignedJob();
    const sends = await Promise.all(
      [1, 2, 3].map(() => act(id, 'message', company, { note: 'Please see clause 4', key: 'msg-0001-abcdef' })),
    );
    expect(sends.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const events = async (action: string) =>
      (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).filter(
        (e) => e.action === action,
      );
    expect(await events('message')).toHaveLength(1);
    const told = await t.rt.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.jobId, id), eq(notifications.action, 'message')));
    expect(told.map((n) => n.userId).sort()).toEqual([lawyer.id, admin.id].sort());
    // A new key is a new message, even with the same words.
    expect(
      (await act(id, 'message', company, { note: 'Please see clause 4', key: 'msg-0002-abcdef' })).statusCode,
    ).toBe(200);
    expect(await events('message')).toHaveLength(2);

    // An acceptance sent twice: the second answers the completed page instead of 409.
    const doc = await uploadDocument(t.app, lawyer.headers, 'final.pdf');
    expect((await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'final.pdf' }] })).statusCode).toBe(200);
    const accepts = await Promise.all([1, 2].map(() => act(id, 'accept', company, { key: 'accept-abcdef01' })));
    expect(accepts.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(accepts.map((r) => r.json().job.stage)).toEqual(['completed', 'completed']);
    expect(await events('accept')).toHaveLength(1);
    // Without a key a second acceptance is still refused, naming the stage.
    expect((await act(id, 'accept', company)).statusCode).toBe(409);
    expect((await act(id, 'message', company, { note: 'x', key: 'bad key!' })).statusCode).toBe(400);
  });

  it('never lets one failing timer hold back the timers due after it', async () => {
    const [stuck, fine] = [await assignedJob(), await assignedJob()];
    const db = t.rt.database.db;
    const now = t.clock.now().getTime();
    // The stuck job's reminders are due first; firing them fails (a fault in the database).
    await db
      .update(jobTimers)
      .set({ fireAt: new Date(now - 2 * 86_400_000) })
      .where(eq(jobTimers.jobId, stuck));
    await db
      .update(jobTimers)
      .set({ fireAt: new Date(now - 86_400_000) })
      .where(eq(jobTimers.jobId, fine));
    await db.execute(
      sql.raw(`create function audit_stuck_job() returns trigger language plpgsql as $$
        begin raise exception 'the database refused this event'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger audit_stuck_job before insert on job_events for each row
        when (new.job_id = '${stuck}') execute function audit_stuck_job()`),
    );
    try {
      const deps = { db, clock: t.clock, config: t.config, mailWritten: () => {} };
      const ledger = createLedger(deps);
      const lifecycle = createJobLifecycle(deps, {
        ledger,
        refunds: createRefunds({ ...deps, provider: sandboxProvider(db), ledger }),
      });
      await expect(lifecycle.tick()).rejects.toThrow(/2 job timer\(s\) failed/);
      const timers = await db
        .select()
        .from(jobTimers)
        .where(inArray(jobTimers.jobId, [stuck, fine]));
      // The other job's reminders fired; the stuck ones wait for the next tick.
      expect(timers.filter((x) => x.jobId === fine).every((x) => x.firedAt)).toBe(true);
      expect(timers.filter((x) => x.jobId === stuck).every((x) => !x.firedAt)).toBe(true);
      const fineEvents = await db.select().from(jobEvents).where(eq(jobEvents.jobId, fine));
      expect(fineEvents.map((e) => e.action)).toEqual(['assign', 'remind_due', 'remind_late']);
    } finally {
      await db.execute(sql.raw('drop trigger audit_stuck_job on job_events'));
      await db.execute(sql.raw('drop function audit_stuck_job()'));
    }
  });
});
