import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { messages, type JobPageResponse } from '@legalmarket/contracts';
import { emailOutbox, jobEvents, notifications, users } from '../../db/schema.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** A second outside tester's findings on the job workspace (issue 16), each kept as a test. */
describeEachDb('job workspace: keys, shared admin files, deleted admins, invisible notes', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let otherCompany: Login;
  let lawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, otherCompany, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Tenancy Agreement')).id;
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
    expect(res.statusCode, res.body).toBe(200);
    return job.id;
  }
  const notes = async (id: string, action: string) =>
    (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id)))
      .filter((e) => e.action === action)
      .map((e) => e.note);

  it('refuses a key sent again with other words or documents instead of dropping them as done', async () => {
    const id = await assignedJob();
    const key = 'compose-0001-abcdef';
    expect((await act(id, 'message', company, { note: 'Please see clause 4', key })).statusCode).toBe(200);
    // The same request again (a retry) is answered as done, blanks around the note or not.
    expect((await act(id, 'message', company, { note: '  Please see clause 4 ', key })).statusCode).toBe(200);
    // Other words under the same key: a client that kept its key; a 200 would lose this message.
    const other = await act(id, 'message', company, { note: 'And clause 9 too', key });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(messages.actionKeyReused);
    expect(await notes(id, 'message')).toEqual(['Please see clause 4']);

    // A delivery sent again with another document under its key is refused too; the same one is done.
    const first = await uploadDocument(t.app, lawyer.headers, 'draft.pdf');
    const second = await uploadDocument(t.app, lawyer.headers, 'final.pdf');
    const deliver = (url: string, name: string) =>
      act(id, 'deliver', lawyer, { files: [{ url, name }], key: 'deliver-0001-abcdef' });
    expect((await deliver(first.url, 'draft.pdf')).statusCode).toBe(200);
    expect((await deliver(first.url, 'draft.pdf')).statusCode).toBe(200);
    expect((await deliver(second.url, 'final.pdf')).statusCode).toBe(422);
    const delivered = (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).filter(
      (e) => e.action === 'deliver',
    );
    expect(delivered.map((e) => e.files)).toEqual([[{ url: first.url, name: 'draft.pdf' }]]);
  });

  it("opens a document one admin uploaded and another attached to the thread for the job's parties", async () => {
    const id = await assignedJob();
    const colleague = await signupAndLogin(t, 'admin');
    const doc = await uploadDocument(t.app, colleague.headers, 'court filing.pdf');
    const sent = await act(id, 'message', admin, { note: 'The filing', files: [{ url: doc.url, name: 'filing.pdf' }] });
    expect(sent.statusCode, sent.body).toBe(200);
    const shown = (sent.json() as JobPageResponse).events.at(-1)!;
    expect(shown.files).toEqual([{ url: doc.url, name: 'filing.pdf' }]);
    const link = (who: Login) =>
      t.app.inject({ method: 'GET', url: `/api/files/${doc.key}/link`, headers: who.headers });
    expect((await link(company)).statusCode).toBe(200);
    expect((await link(lawyer)).statusCode).toBe(200);
    expect((await link(otherCompany)).statusCode).toBe(403);
    const file = await t.app.inject({ method: 'GET', url: doc.url, headers: company.headers });
    expect(file.statusCode).toBe(200);
  });

  it('tells a deleted admin nothing more: no notification, no e-mail to the erased address', async () => {
    const gone = await signupAndLogin(t, 'admin');
    const del = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: gone.headers,
      payload: { password: PASSWORD },
    });
    expect(del.statusCode, del.body).toBe(200);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, gone.id));
    expect(row.deletedAt).not.toBeNull();
    const id = await assignedJob();
    expect((await act(id, 'message', company, { note: 'Any news?' })).statusCode).toBe(200);
    const told = await t.rt.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.jobId, id), eq(notifications.action, 'message')));
    expect(told.map((n) => n.userId)).toContain(admin.id);
    expect(told.map((n) => n.userId)).not.toContain(gone.id);
    expect(await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, row.officialEmail))).toEqual([]);
  });

  it('refuses a message or a request for changes of invisible characters only', async () => {
    const id = await assignedJob();
    for (const note of ['\u200b\u200b', '\u200d\u2060', '\u3164', '\u00ad \u200c']) {
      const res = await act(id, 'message', company, { note });
      expect(res.statusCode, JSON.stringify(note)).toBe(400);
      expect(res.json().message).toBe(messages.messageMissing);
    }
    // A word joined by invisible characters still shows, and is kept as written.
    expect((await act(id, 'message', company, { note: '\u200bok\u200b' })).statusCode).toBe(200);
    const doc = await uploadDocument(t.app, lawyer.headers, 'work.pdf');
    expect((await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'work.pdf' }] })).statusCode).toBe(200);
    const changes = await act(id, 'request_changes', company, { note: '\u200b' });
    expect(changes.statusCode).toBe(400);
    expect(changes.json().message).toBe(messages.changesNoteMissing);
    expect(await notes(id, 'message')).toEqual(['\u200bok\u200b']);
  });
  // A variation selector (U+FE0F, the emoji one) is a mark, not a format character: alone it shows
  // nothing, yet a note of it was kept as a message.
  it('refuses a message of variation selectors only, and keeps an emoji written with one', async () => {
    const id = await assignedJob();
    for (const note of ['\ufe0f', '\ufe0f\ufe0f \ufe0e', '\u200b\ufe0f']) {
      const res = await act(id, 'message', company, { note });
      expect(res.statusCode, JSON.stringify(note)).toBe(400);
      expect(res.json().message).toBe(messages.messageMissing);
    }
    expect((await act(id, 'message', company, { note: '\u2764\ufe0f' })).statusCode).toBe(200);
    expect(await notes(id, 'message')).toEqual(['\u2764\ufe0f']);
  });

  it('e-mails a chatty thread once until its reader opens it; the bell still counts every message', async () => {
    const id = await assignedJob();
    const threadMails = async (email: string) =>
      (await mailsTo(t, email)).filter((m) => m.subject.includes('sent a message') && m.text.includes(`/jobs/${id}`));
    const before = (await threadMails(company.email)).length;
    const beforeAdmin = (await threadMails(admin.email)).length;
    expect(before + beforeAdmin).toBe(0);
    for (const note of ['Question one', 'Question two', 'Question three'])
      expect((await act(id, 'message', lawyer, { note })).statusCode).toBe(200);
    // One e-mail to the company and one to the admin, not three each; three unread notifications.
    expect((await threadMails(company.email)).length).toBe(before + 1);
    expect((await threadMails(admin.email)).length).toBe(beforeAdmin + 1);
    const unread = await t.rt.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.jobId, id), eq(notifications.userId, company.id), eq(notifications.action, 'message')),
      );
    expect(unread.filter((n) => n.readAt === null)).toHaveLength(3);

    // The company reads the thread: the next message is e-mailed again; the admin, who has not, waits.
    const jobPage = (
      await t.app.inject({ method: 'GET', url: `/job-api/jobs/${id}`, headers: company.headers })
    ).json();
    const read = await t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${id}/read`,
      headers: company.headers,
      payload: { lastEventId: (jobPage as JobPageResponse).events.at(-1)!._id },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect((await act(id, 'message', lawyer, { note: 'Question four' })).statusCode).toBe(200);
    expect((await threadMails(company.email)).length).toBe(before + 2);
    expect((await threadMails(admin.email)).length).toBe(beforeAdmin + 1);
    // The lawyer, not told of their own messages, is e-mailed the company's answer.
    expect((await act(id, 'message', company, { note: 'Answers attached' })).statusCode).toBe(200);
    expect((await threadMails(lawyer.email)).length).toBe(1);
  });
  it('lets a poller of the timeline see every application, even one that commits after a later one', async () => {
    const job = await insertJob(t, company.id, { productId });
    const [slow, quick] = await Promise.all([
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    const db = t.rt.database.db;
    // The slow lawyer's application takes its event id, then stays uncommitted for a while.
    await db.execute(
      sql.raw(`create or replace function slow_apply_for_test() returns trigger language plpgsql as $$
      begin if new.action = 'apply' and new.actor_id = '${slow.id}' then perform pg_sleep(0.8); end if; return new; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger slow_apply_for_test after insert on job_events
      for each row execute function slow_apply_for_test()`),
    );
    try {
      const apply = (who: Login) =>
        t.app.inject({ method: 'POST', url: `/job-api/applyforjob/${job.id}`, headers: who.headers, payload: {} });
      const first = apply(slow);
      await new Promise((r) => setTimeout(r, 200));
      const second = apply(quick);
      await Promise.race([second, new Promise((r) => setTimeout(r, 300))]);
      // The admin's job page asks for what happened after the newest event it holds, as the web does.
      const poll = async (after: number) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/job-api/jobs/${job.id}/events?after=${after}`,
            headers: admin.headers,
          })
        ).json() as { events: Array<{ _id: number; action: string }> };
      const seen = (await poll(0)).events;
      expect((await first).statusCode).toBe(200);
      expect((await second).statusCode).toBe(200);
      seen.push(...(await poll(Math.max(0, ...seen.map((e) => e._id)))).events);
      expect(seen.filter((e) => e.action === 'apply')).toHaveLength(2);
    } finally {
      await db.execute(sql.raw('drop trigger slow_apply_for_test on job_events'));
      await db.execute(sql.raw('drop function slow_apply_for_test()'));
    }
  });
  it('answers a poll from the start of a long thread in pieces, saying more remain', async () => {
    const id = await assignedJob();
    const base = t.clock.now().getTime();
    await t.rt.database.db.insert(jobEvents).values(
      Array.from({ length: 205 }, (_, i) => ({
        jobId: id,
        action: 'message',
        actorId: company.id,
        actorRole: 'company',
        note: `Message ${i + 1}`,
        files: [],
        fromStage: 'in_progress',
        toStage: 'in_progress',
        createdAt: new Date(base + i),
      })),
    );
    const poll = async (after: string | number) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/job-api/jobs/${id}/events?after=${after}`,
        headers: lawyer.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { events: Array<{ _id: string; note: string | null }>; later: boolean };
    };
    const first = await poll(0);
    expect(first.events).toHaveLength(200);
    expect(first.later).toBe(true);
    const rest = await poll(first.events.at(-1)!._id);
    expect(rest.later).toBe(false);
    // Nothing skipped, nothing twice: the assignment, then the 205 messages in order.
    const notes = [...first.events, ...rest.events].map((e) => e.note).filter((n) => n?.startsWith('Message '));
    expect(notes).toEqual(Array.from({ length: 205 }, (_, i) => `Message ${i + 1}`));
  });
});
