import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { messages, transitionOf, type JobAction } from '@legalmarket/contracts';
import { jobEvents, jobs, notifications, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** A third audit of the job workspace (issue 16): a spec client, hostile text and documents, each kept as a test. */
describeEachDb('job workspace: a third audit', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let otherCompany: Login;
  let lawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [admin, company, otherCompany, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Lease Review')).id;
  }, 120_000);
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const act = (id: string, action: string, who: Login, payload: object = {}) =>
    inject('POST', `/job-api/jobs/${id}/actions/${action}`, who, payload);
  async function assignedJob(owner = company) {
    const job = await insertJob(t, owner.id, { productId });
    const res = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id });
    expect(res.statusCode, res.body).toBe(200);
    return job.id;
  }
  const events = async (id: string) =>
    (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).map((e) => e.action);

  // The spec's lists show a delivered job as pending, with the lawyer's last request beside it. The
  // lawyer's "Request more details" answered 404 "Job not found" for a job in its own pending list.
  it('answers a detail request or answer on a delivered job with 409 naming the stage, never "not found"', async () => {
    const id = await assignedJob();
    const asked = await inject('POST', `/job-api/requestmorejobdetails/${id}`, lawyer, { detail: 'The title deed?' });
    expect(asked.statusCode, asked.body).toBe(200);
    const doc = await uploadDocument(t.app, lawyer.headers, 'lease.pdf');
    expect((await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'lease.pdf' }] })).statusCode).toBe(200);
    const before = await events(id);

    const again = await inject('POST', `/job-api/requestmorejobdetails/${id}`, lawyer, { detail: 'And the survey?' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toBe('This job is delivered: “Request more details” is not possible now.');
    const answer = await inject('PUT', `/job-api/company/editjobdetails/${id}`, company, { detail: 'Attached.' });
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().message).toBe('This job is delivered: “Give details” is not possible now.');
    expect(await events(id)).toEqual(before);
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ lawyerRequestedDetail: 'The title deed?', companyDetail: null, stage: 'delivered' });

    // Another lawyer's job and a cancelled one still answer as they always have.
    const rival = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await inject('POST', `/job-api/requestmorejobdetails/${id}`, rival, { detail: 'x' })).statusCode).toBe(404);
    const cancelled = await assignedJob();
    expect((await act(cancelled, 'cancel', admin)).statusCode).toBe(200);
    const closed = await inject('POST', `/job-api/requestmorejobdetails/${cancelled}`, lawyer, { detail: 'x' });
    expect(closed.statusCode).toBe(404);
  });

  // A note longer than the mail's preview was cut at 400 UTF-16 units: an emoji across the cut lost
  // half of itself and the mail showed U+FFFD.
  it("cuts a long note's e-mail preview between characters, and escapes what the note says", async () => {
    const id = await assignedJob();
    const note = `${'a'.repeat(399)}😀 <img src=x onerror=alert(1)> and more`;
    expect((await act(id, 'message', lawyer, { note })).statusCode).toBe(200);
    const [mail] = (await mailsTo(t, company.email)).filter((m) => m.text.includes(`/jobs/${id}`));
    expect(mail.text).toContain(`“${'a'.repeat(399)}😀…”`);
    for (const body of [mail.text, mail.html!]) expect(body).not.toContain('\ufffd');
    // A note the preview keeps whole shows its markup as text, never as markup.
    expect((await act(id, 'message', company, { note: '<img src=x onerror=alert(1)> & <b>bold</b>' })).statusCode).toBe(
      200,
    );
    const [toLawyer] = (await mailsTo(t, lawyer.email)).filter((m) => m.text.includes(`/jobs/${id}`));
    expect(toLawyer.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(toLawyer.html).not.toContain('<img');
  });

  // A company named "Ada\u202e Ventures" turned every notification about it around for the lawyer and
  // the admins ("Ada no egassem a tnes ..."), and a line break in a name started a line of its own.
  it("keeps direction controls and line breaks of a name out of the other party's notifications and mails", async () => {
    const named = await signupAndLogin(t, 'company');
    await t.rt.database.db
      .update(users)
      .set({ companyName: 'Ada\u202e Ventures\r\nPay to 0123456789' })
      .where(eq(users.id, named.id));
    const id = await assignedJob(named);
    expect((await act(id, 'message', named, { note: 'Please start with clause 2' })).statusCode).toBe(200);
    const [told] = await t.rt.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.jobId, id), eq(notifications.userId, lawyer.id), eq(notifications.action, 'message')),
      );
    expect(told.text).toBe('Ada Ventures Pay to 0123456789 sent a message on Lease Review');
    const [mail] = (await mailsTo(t, lawyer.email)).filter((m) => m.text.includes(`/jobs/${id}`));
    expect(mail.subject).toBe(told.text);
    for (const body of [mail.subject, mail.text, mail.html!])
      expect(body).not.toMatch(/[\u202a-\u202e\u2066-\u2069]|Ventures\r?\n/);
  });

  it('refuses one document attached twice to a message or a delivery, naming the problem', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(t.app, lawyer.headers, 'draft.pdf');
    const before = await events(id);
    for (const [action, files] of [
      [
        'message',
        [
          { url: doc.url, name: 'draft.pdf' },
          { url: doc.url, name: 'draft again.pdf' },
        ],
      ],
      [
        'deliver',
        [
          { url: doc.url, name: 'draft.pdf' },
          { url: `https://legalmarket.example${doc.url}`, name: 'final.pdf' },
        ],
      ],
    ] as const) {
      const res = await act(id, action, lawyer, { note: 'See the draft', files });
      expect(res.statusCode, `${action} ${res.body}`).toBe(400);
      expect(res.json().message).toBe(messages.documentAttachedTwice);
    }
    expect(await events(id)).toEqual(before);
    expect((await act(id, 'deliver', lawyer, { files: [{ url: doc.url, name: 'draft.pdf' }] })).statusCode).toBe(200);
  });

  it("opens nothing for an address of another company's document written in a message", async () => {
    const secret = await uploadDocument(t.app, company.headers, 'board minutes.pdf');
    const theirs = await assignedJob(otherCompany);
    const note = `See ${secret.url} and http://localhost:3000${secret.url}`;
    expect((await act(theirs, 'message', otherCompany, { note })).statusCode).toBe(200);
    for (const who of [otherCompany, lawyer]) {
      expect((await inject('GET', `/api/files/${secret.key}/link`, who)).statusCode).toBe(403);
      expect((await inject('GET', secret.url, who)).statusCode).toBe(403);
    }
    // Sent as an attachment instead, it is refused as someone else's.
    const attached = await act(theirs, 'message', otherCompany, {
      note: 'minutes',
      files: [{ url: secret.url, name: 'minutes.pdf' }],
    });
    expect(attached.statusCode).toBe(403);
    expect(attached.json().message).toBe(messages.fileNotYours);
  });

  // Issue 16: each transition's notifications come from the table. Walked through every action a
  // party takes on the page, each event tells exactly the table's recipients other than its actor,
  // once each, and no one else (not an applicant, not another company).
  it("tells exactly the table's recipients of each step, once each, never the actor or a stranger", async () => {
    const applicant = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { productId });
    expect((await inject('POST', `/job-api/applyforjob/${job.id}`, applicant)).statusCode).toBe(200);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    const id = job.id;
    const doc = () => uploadDocument(t.app, lawyer.headers, 'work.pdf');
    const steps: Array<[string, Login, object]> = [
      ['message', company, { note: 'Hello' }],
      ['message', lawyer, { note: 'Hello back' }],
      ['message', admin, { note: 'Welcome both' }],
      ['request_details', lawyer, { note: 'The lease, please' }],
      ['give_details', company, { note: 'Attached soon' }],
      ['add_details', admin, { note: 'Lagos law applies' }],
      ['deliver', lawyer, {}],
      ['request_changes', company, { note: 'Clause 3' }],
      ['deliver_again', lawyer, {}],
      ['accept', company, {}],
    ];
    for (const [action, who, payload] of steps) {
      const files = action.startsWith('deliver') ? { files: [{ url: (await doc()).url, name: 'work.pdf' }] } : {};
      const res = await act(id, action, who, { ...payload, ...files });
      expect(res.statusCode, `${action} ${res.body}`).toBe(200);
    }
    const db = t.rt.database.db;
    const admins = (await db.select({ id: users.id }).from(users).where(eq(users.userType, 'admin'))).map((u) => u.id);
    const ids = { company: [company.id], lawyer: [lawyer.id], admins };
    const all = await db.select().from(jobEvents).where(eq(jobEvents.jobId, id)).orderBy(asc(jobEvents.id));
    const told = await db.select().from(notifications).where(eq(notifications.jobId, id));
    expect(all.map((e) => e.action)).toEqual(['apply', 'assign', ...steps.map(([a]) => a)]);
    for (const e of all) {
      const expected = new Set(transitionOf(e.action as JobAction).notify.flatMap((r) => ids[r]));
      if (e.actorId) expected.delete(e.actorId);
      const got = told.filter((n) => n.eventId === e.id).map((n) => n.userId);
      expect(got.sort(), e.action).toEqual([...expected].sort());
    }
    expect(told.some((n) => n.userId === applicant.id || n.userId === otherCompany.id)).toBe(false);
    // The work stays on the platform: nothing sent about the job carries the other party's address or phone.
    const sent = async (to: string) =>
      (await mailsTo(t, to)).filter((m) => m.text.includes(`/jobs/${id}`) || m.text.includes('/dashboard'));
    for (const [reader, other, phone] of [
      [company, lawyer, '08087654321'],
      [lawyer, company, '08012345678'],
    ] as const) {
      const texts = [
        ...told.filter((n) => n.userId === reader.id).map((n) => n.text),
        ...(await sent(reader.email)).flatMap((m) => [m.subject, m.text, m.html ?? '']),
      ];
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) {
        expect(text).not.toContain(other.email);
        expect(text).not.toContain(phone);
      }
    }
  });
});
