import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../src/db/schema.js';
import { insertJob, insertProduct, mailsTo } from '../admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { uploadDocument } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * A job's file column may still hold another company's key, written before issue 14 was fixed (or
 * carried onto a job by a cart line of that time): it opens nothing (file-access.test.ts). The details
 * forms let that reference be sent back unchanged, and the mail of the details named each document by
 * the name it was uploaded under, whoever uploaded it: the victim's own file name went to the job's
 * other party. A mail names a document by its upload only when the sender could have attached it.
 */
describeEachDb('a planted reference sent back unchanged', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let attacker: Login;
  let victim: Login;
  let product: string;
  const SECRET = 'Zenith-takeover-term-sheet.pdf';

  const put = (url: string, who: Login, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: who.headers, payload });
  /** Every mail to `who`, subjects, texts and HTML, as one text. */
  const mailText = async (who: Login) => {
    const mails = await mailsTo(t, who.email);
    return mails.map((m) => `${m.subject}\n${m.text}\n${m.html ?? ''}`).join('\n---\n');
  };
  /** The attacker's job, assigned to the lawyer and being worked on, naming the victim's document. */
  async function plantedJob(column: 'companyFile' | 'adminFile', url: string) {
    const job = await insertJob(t, attacker.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db
      .update(jobs)
      .set({ stage: 'in_progress', [column]: url, [`${column}Name`]: 'brief.pdf' })
      .where(eq(jobs.id, job.id));
    return job.id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    attacker = await signupAndLogin(t, 'company');
    victim = await signupAndLogin(t, 'company');
    product = (await insertProduct(t, 'Due Diligence Report')).id;
  }, 120_000);
  afterAll(async () => t?.close());

  it("mails the company's details without the name the victim's document was uploaded under", async () => {
    const doc = await uploadDocument(t.app, victim.headers, SECRET, 'TERM SHEET');
    const id = await plantedJob('companyFile', doc.url);
    const sent = await put(`/job-api/company/editjobdetails/${id}`, attacker, {
      detail: 'Please read the brief again',
      file: doc.url,
      fileName: 'brief.pdf',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await mailText(lawyer);
    expect(mail).toContain('Please read the brief again');
    expect(mail).toContain('brief.pdf');
    expect(mail).not.toContain('Zenith-takeover');
    // Nor does the reference open for the lawyer through the event it now sits in.
    const link = await t.app.inject({ method: 'GET', url: `/api/files/${doc.key}/link`, headers: lawyer.headers });
    expect(link.statusCode).toBe(403);
  });

  it("mails an admin's details without the name another account's document was uploaded under", async () => {
    const doc = await uploadDocument(t.app, victim.headers, SECRET, 'TERM SHEET');
    const id = await plantedJob('adminFile', doc.url);
    const sent = await put(`/job-api/editjobdetails/${id}`, admin, {
      detail: 'Checklist for the review',
      file: doc.url,
      fileName: 'checklist.pdf',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    for (const reader of [attacker, lawyer]) {
      const mail = await mailText(reader);
      expect(mail).toContain('Checklist for the review');
      expect(mail).not.toContain('Zenith-takeover');
    }
  });

  it('still names a document by its upload when the sender uploaded it', async () => {
    const own = await uploadDocument(t.app, attacker.headers, 'Our-signed-NDA.pdf', 'NDA');
    const job = await insertJob(t, attacker.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'in_progress' }).where(eq(jobs.id, job.id));
    const sent = await put(`/job-api/company/editjobdetails/${job.id}`, attacker, {
      detail: 'The signed NDA',
      file: own.url,
      fileName: 'nda',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    // The name it was uploaded under, ending in what the bytes are (decision 2297).
    expect(await mailText(lawyer)).toContain('Our-signed-NDA.pdf');
  });
});
