import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox, jobs, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/commerce-helpers.js';
import { insertJob } from '../../../test/admin-fixtures.js';
import { handOverKit, type Login } from './hand-over-test-kit.js';

// An admin passes a job on from a lawyer who lost verification (decisions 2310, 2316): the old lawyer,
// the new one and the company are each told, and an erasure still takes the names out of those texts.
describeEachDb('the notices of a job passed to another lawyer', (kind) => {
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

  const mailsTo = async (email: string) =>
    (await db().select().from(emailOutbox).where(eq(emailOutbox.to, email))).map((m) => ({
      subject: m.subject,
      text: m.text,
      html: m.html ?? '',
    }));
  const adminView = async (jobId: string) =>
    (await inject('GET', `/job-api/admin/job/${jobId}`, admin)).json().data.job as {
      assignedTo: Array<{ name: string; verified?: boolean }>;
    };

  async function handedOver() {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ companyName: 'Kola Holdings' }).where(eq(users.id, company.id));
    await db().update(users).set({ name: 'Ada First' }).where(eq(users.id, first.id));
    await db().update(users).set({ name: 'Bola Second' }).where(eq(users.id, second.id));
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await adminView(job.id)).assignedTo).toMatchObject([{ name: 'Ada First', verified: true }]);
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'DRAFT')] })).statusCode).toBe(200);
    expect((await act(company, job.id, 'request_changes', { note: 'Add the board resolution.' })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    // The admin's job answer says the lawyer lost verification (the assign page offers the hand-over by it).
    expect((await adminView(job.id)).assignedTo).toMatchObject([{ name: 'Ada First', verified: false }]);
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    return { company, first: await login(first.email, first.id), second, job };
  }

  it('tells the old lawyer, the new lawyer and the company, each in the bell and by mail', async () => {
    const { company, first, second, job } = await handedOver();
    const bell = async (who: Login) =>
      (
        (await inject('GET', '/api/notifications', who)).json().notifications as Array<{
          jobId: string;
          action: string;
          text: string;
        }>
      )
        .filter((n) => n.jobId === job.id && n.action === 'assign')
        .map((n) => n.text);
    expect(await bell(first)).toEqual([
      'Share Transfer was passed to another lawyer',
      'Share Transfer is assigned to Ada First',
    ]);
    expect(await bell(second)).toEqual(['Share Transfer is assigned to Bola Second']);

    const old = await mailsTo(first.email);
    const told = old.find((m) => m.subject === 'Share Transfer was passed to another lawyer');
    expect(told?.text).toContain('has passed the job "Share Transfer" to another lawyer');
    // It names neither the new lawyer nor links the job, which no longer opens for them.
    expect(told?.text).not.toContain('Bola Second');
    expect(told?.text).not.toContain(`/jobs/${job.id}`);

    const passed = (await mailsTo(second.email)).find(
      (m) => m.subject === 'A job has been passed to you: Share Transfer',
    );
    expect(passed?.text).toContain('passed you the job "Share Transfer" for Kola Holdings.');
    expect(passed?.text).toContain('stays at its stage (changes requested)');
    expect(passed?.text).toContain('thread, files and deliveries');
    expect(passed?.text).toContain(`/jobs/${job.id}`);

    const companyMail = (await mailsTo(company.email)).find(
      (m) => m.subject === 'Another lawyer is now working on Share Transfer',
    );
    expect(companyMail?.text).toContain('has passed it to Bola Second, who will carry it on.');
    expect(companyMail?.text).toContain('thread, files and deliveries are kept');
    expect(companyMail?.text).not.toContain('Ada First');
    expect((await adminView(job.id)).assignedTo).toMatchObject([{ name: 'Bola Second', verified: true }]);
  });

  it('leads the old lawyer from their notices to their projects, as the job page answers them 403 (2332)', async () => {
    const { company, first, second, job } = await handedOver();
    const entries = async (who: Login) =>
      (
        (await inject('GET', '/api/notifications', who)).json().notifications as Array<{
          jobId: string;
          text: string;
          jobOpens?: false;
        }>
      ).filter((n) => n.jobId === job.id);
    expect((await inject('GET', `/job-api/jobs/${job.id}`, first)).statusCode).toBe(403);
    const old = await entries(first);
    expect(old.map((n) => n.text)).toContain('Share Transfer was passed to another lawyer');
    // Every entry of the job, the hand-over's and those from before it: none opens for them now.
    expect(old.map((n) => n.jobOpens)).toEqual(old.map(() => false));
    for (const who of [second, company, admin]) {
      const theirs = await entries(who);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.map((n) => n.jobOpens)).toEqual(theirs.map(() => undefined));
      expect((await inject('GET', `/job-api/jobs/${job.id}`, who)).statusCode).toBe(200);
    }
  });

  it("a new job and another user's write leave a reader's notices cached; a change to the job does not", async () => {
    const { company, first, job } = await handedOver();
    /** Whether the old lawyer's notices were answered from memory, and their entries of the job. */
    const read = async () => {
      const before = t.app.cacheStats().responses.hits;
      const res = await inject('GET', '/api/notifications', first);
      expect(res.statusCode).toBe(200);
      const entries = (res.json().notifications as Array<{ jobId: string; jobOpens?: false }>).filter(
        (n) => n.jobId === job.id,
      );
      return { cached: t.app.cacheStats().responses.hits === before + 1, opens: entries.map((n) => n.jobOpens) };
    };
    await read();
    expect((await read()).cached).toBe(true);
    // Another user signs up and changes their name (users writes), and a job is made (a jobs insert;
    // a paid checkout also writes its notices, which make every list again).
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await read()).cached).toBe(true);
    await db().update(users).set({ name: 'Chidi Other' }).where(eq(users.id, other.id));
    expect((await read()).cached).toBe(true);
    await insertJob(t, company.id, { productId: product });
    expect((await read()).cached).toBe(true);
    // The job handed back to them (no notice written): made again, and it opens for them.
    const before = await read();
    expect(before.opens.length).toBeGreaterThan(0);
    expect(before.opens).toEqual(before.opens.map(() => false));
    await db().update(jobs).set({ assignedTo: first.id }).where(eq(jobs.id, job.id));
    const after = await read();
    expect(after.cached).toBe(false);
    expect(after.opens).toEqual(after.opens.map(() => undefined));
  });

  it("an erasure of the new lawyer takes the name out of the company's hand-over mail", async () => {
    const { company, first, second, job } = await handedOver();
    // Cancelled, the job no longer keeps the lawyer's account from being deleted.
    expect((await act(admin, job.id, 'cancel', { note: 'The company asked.' })).statusCode).toBe(200);
    expect((await inject('POST', '/api/account/delete', second, { password: PASSWORD })).statusCode).toBe(200);
    const companyMail = (await mailsTo(company.email)).find(
      (m) => m.subject === 'Another lawyer is now working on Share Transfer',
    );
    expect(companyMail?.text).toContain('has passed it to Deleted user, who will carry it on.');
    expect(`${companyMail?.text}${companyMail?.html}`).not.toContain('Bola Second');
    // The old lawyer's notice named nobody: the erasure leaves it whole.
    const bell = (await inject('GET', '/api/notifications', first)).json().notifications as Array<{ text: string }>;
    expect(bell.map((n) => n.text)).toContain('Share Transfer was passed to another lawyer');
  });

  it("an erasure of the company takes its name out of the new lawyer's hand-over mail", async () => {
    const { company, second, job } = await handedOver();
    expect((await act(second, job.id, 'deliver_again', { files: [await upload(second, 'FINAL')] })).statusCode).toBe(
      200,
    );
    expect((await act(company, job.id, 'accept', {})).statusCode).toBe(200);
    expect((await inject('POST', '/api/account/delete', company, { password: PASSWORD })).statusCode).toBe(200);
    const passed = (await mailsTo(second.email)).find(
      (m) => m.subject === 'A job has been passed to you: Share Transfer',
    );
    expect(passed?.text).toContain('passed you the job "Share Transfer" for Deleted user.');
    expect(`${passed?.text}${passed?.html}`).not.toContain('Kola Holdings');
  });
});
