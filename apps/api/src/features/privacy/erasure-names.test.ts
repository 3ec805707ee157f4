import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { auditLog, emailOutbox, jobs, notifications, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { buyOne, insertProduct } from '../../../test/commerce-helpers.js';
import { pdfBytes, uploadAs } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// The name an erased account leaves in other accounts' notifications and kept mails (decision 2296).
describeEachDb("erasure takes the person's name out of other accounts' notifications and mails", (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    // A second admin: the job mails and notifications go to every admin.
    await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Lawful Trademark', 50_000);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: unknown) =>
    t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
  const act = async (who: Login, jobId: string, action: string, body: Record<string, unknown> = {}) => {
    const res = await inject('POST', `/job-api/jobs/${jobId}/actions/${action}`, who, body);
    expect(res.statusCode, res.body).toBe(200);
  };
  const rename = (id: string, set: Partial<typeof users.$inferInsert>) =>
    db().update(users).set(set).where(eq(users.id, id));

  async function pay(company: Login) {
    const { orderId } = await buyOne(t, company, product);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job;
  }

  const upload = (who: Login) => uploadAs(t.app, who.headers, 'document', pdfBytes('WORK'), 'work.pdf');

  /** The reader's notification texts of this job, newest first, as the notification centre answers them. */
  async function texts(who: Login, jobId: string) {
    const res = await inject('GET', '/api/notifications', who);
    expect(res.statusCode).toBe(200);
    return (res.json().notifications as Array<{ jobId: string; text: string }>)
      .filter((n) => n.jobId === jobId)
      .map((n) => n.text);
  }

  const mailsTo = (email: string) =>
    db().select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(asc(emailOutbox.id));

  it("replaces an erased company's name, renamed or not, and leaves the lawyer's name and the product's", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    // A name inside the other party's name and the product's: only the erased company's place changes.
    await rename(company.id, { companyName: 'Law' });
    await rename(lawyer.id, { name: 'Law Lawyer' });
    const job = await pay(company);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    await act(company, job.id, 'message', { note: 'COMPANY-NOTE' });
    await act(lawyer, job.id, 'message', { note: 'LAWYER-NOTE' });
    // Renamed since the texts above were written.
    await rename(company.id, { companyName: 'Lex Ltd' });
    await act(lawyer, job.id, 'deliver', { files: [await upload(lawyer)] });
    await act(company, job.id, 'accept', { delivery: 1 });
    expect(await texts(lawyer, job.id)).toEqual([
      'Lex Ltd accepted the work on Lawful Trademark',
      'Law sent a message on Lawful Trademark',
      'Lawful Trademark is assigned to Law Lawyer',
    ]);

    expect((await inject('POST', '/api/account/delete', company, { password: PASSWORD })).statusCode).toBe(200);

    expect(await texts(lawyer, job.id)).toEqual([
      'Deleted user accepted the work on Lawful Trademark',
      'Deleted user sent a message on Lawful Trademark',
      'Lawful Trademark is assigned to Law Lawyer',
    ]);
    expect(await texts(admin, job.id)).toEqual([
      'Deleted user accepted the work on Lawful Trademark',
      'Law Lawyer sent a message on Lawful Trademark',
      'Deleted user sent a message on Lawful Trademark',
      'New job: Lawful Trademark for Deleted user',
    ]);
    // The mails kept of them, and the assignment's own mail to the lawyer, in text and HTML.
    const lawyerMails = await mailsTo(lawyer.email);
    expect(lawyerMails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        'Deleted user accepted the work on Lawful Trademark',
        'Deleted user sent a message on Lawful Trademark',
      ]),
    );
    const assigned = lawyerMails.find((m) => m.subject.startsWith('You have been assigned a job'))!;
    expect(assigned.text).toContain('"Lawful Trademark" for Deleted user.');
    expect(assigned.html).toContain('&quot;Lawful Trademark&quot; for Deleted user.');
    const adminMails = await mailsTo(admin.email);
    const everything = [...lawyerMails, ...adminMails].map((m) => `${m.subject}\n${m.text}\n${m.html}`).join('\n');
    // "Law" stands only in the lawyer's name and the product's.
    expect(everything).not.toMatch(/\bLaw\b(?! Lawyer)/);
    expect(everything).not.toContain('Lex Ltd');
    expect(everything).toContain('COMPANY-NOTE');
  });

  it("replaces an erased lawyer's name in the company's and the admins' notifications and mails", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    await rename(company.id, { companyName: 'Chidi Okeke Holdings' });
    const job = await pay(company);
    await inject('POST', `/job-api/applyforjob/${job.id}`, lawyer, {});
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    await act(lawyer, job.id, 'message', { note: 'LAWYER-NOTE' });
    await act(company, job.id, 'message', { note: 'COMPANY-NOTE' });
    await act(admin, job.id, 'cancel');

    expect((await inject('POST', '/api/account/delete', lawyer, { password: PASSWORD })).statusCode).toBe(200);

    expect(await texts(company, job.id)).toEqual([
      'Lawful Trademark was cancelled',
      'Deleted user sent a message on Lawful Trademark',
      'Lawful Trademark is assigned to Deleted user',
      'New job: Lawful Trademark for Chidi Okeke Holdings',
    ]);
    expect(await texts(admin, job.id)).toEqual([
      'Chidi Okeke Holdings sent a message on Lawful Trademark',
      'Deleted user sent a message on Lawful Trademark',
      'Deleted user applied for Lawful Trademark',
      'New job: Lawful Trademark for Chidi Okeke Holdings',
    ]);
    const companyMails = await mailsTo(company.email);
    const assigned = companyMails.find((m) => m.subject.startsWith('A lawyer is now working on'))!;
    expect(assigned.text).toContain('has been assigned to Deleted user, who will contact you.');
    const everything = [...companyMails, ...(await mailsTo(admin.email))]
      .map((m) => `${m.subject}\n${m.text}\n${m.html}`)
      .join('\n');
    expect(everything).not.toMatch(/Chidi Okeke(?! Holdings)/);
    // The admin's audit entry of the assignment keeps the lawyer's id, not the name.
    const [assignment] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.assign'), eq(auditLog.targetId, job.id)));
    expect(assignment.details).toMatchObject({ lawyerId: lawyer.id, lawyerName: 'Deleted user' });
  });
  it('replaces the name in more notifications than one statement has parameters for', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    await rename(company.id, { companyName: 'Bulk Ltd' });
    const job = await pay(company);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    await act(company, job.id, 'message', { note: 'BULK-NOTE' });
    await act(lawyer, job.id, 'deliver', { files: [await upload(lawyer)] });
    await act(company, job.id, 'accept', { delivery: 1 });
    // 33,000 copies of the lawyer's notification of the company's message: two parameters a row pass
    // PostgreSQL's 65,535 a statement. Inserted in SQL, so the test stays quick.
    const copies = 33_000;
    await db().execute(sql`insert into ${notifications} (user_id, job_id, event_id, action, text)
      select n.user_id, n.job_id, n.event_id, n.action, n.text
      from ${notifications} n, generate_series(1, ${copies}::int) g
      where n.user_id = ${lawyer.id} and n.job_id = ${job.id} and n.action = 'message'`);

    expect((await inject('POST', '/api/account/delete', company, { password: PASSWORD })).statusCode).toBe(200);

    const [left] = await db()
      .select({
        named: sql<number>`count(*) filter (where ${notifications.text} like 'Bulk Ltd%')::int`,
        erased: sql<number>`count(*) filter (where ${notifications.text} like 'Deleted user %')::int`,
      })
      .from(notifications)
      .where(and(eq(notifications.userId, lawyer.id), eq(notifications.jobId, job.id)));
    expect(left).toEqual({ named: 0, erased: copies + 2 });
  }, 60_000);
});
