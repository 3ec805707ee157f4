import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, uploads } from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { hasUnsafeCharacter } from '@legalmarket/contracts';
import { PASSWORD, createTestApp, describeEachDb, lastMailTo, signupAndLogin, type TestApp } from '../helpers.js';
import { uploadDocument } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Siblings of issue 14 found by the file audit (docs/decisions/2140): references to a file that grant
 * nothing must not change what happens to it either.
 */
describeEachDb('file references audit', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let product: string;

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const link = (who: Login, key: string) => inject('GET', `/api/files/${key}/link`, who);
  const rowOf = async (key: string) =>
    (await t.rt.database.db.select().from(uploads).where(eq(uploads.key, key)))[0] ?? null;
  /** A job of `company` assigned to the lawyer and being worked on, so its parties may write on it. */
  async function workingJob(company: Login) {
    const job = await insertJob(t, company.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'in_progress' }).where(eq(jobs.id, job.id));
    return job;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    await signupAndLogin(t, 'admin'); // so an admin could delete its account too
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    product = (await insertProduct(t, 'Share Purchase Agreement Review')).id;
  }, 120_000);
  afterAll(async () => t?.close());

  // The erasure kept every upload whose key appeared anywhere in any job's file column or any thread's
  // files (names included), whoever wrote it. A company that knew a key (a lawyer once assigned to the
  // victim's job does) could pin the victim's document past its erasure, with a link ending in the key
  // or a document of its own named after it; admins could still open it.
  it('erases a company’s document that only others name, and keeps the one its own job opens', async () => {
    const victim = await signupAndLogin(t, 'company');
    const attacker = await signupAndLogin(t, 'company');
    const secret = await uploadDocument(t.app, victim.headers, 'board-minutes.pdf', 'BOARD MINUTES');
    const brief = await uploadDocument(t.app, victim.headers, 'brief.pdf', 'THE BRIEF');

    // The attacker names the key on its own job twice: as a link elsewhere, and as a document's name.
    const theirs = await workingJob(attacker);
    const named = await inject('PUT', `/job-api/company/editjobdetails/${theirs.id}`, attacker, {
      detail: 'See the link',
      file: `https://evil.example/${secret.key}`,
      fileName: 'minutes.pdf',
    });
    expect(named.statusCode, named.body).toBe(200);
    const decoy = await uploadDocument(t.app, attacker.headers, 'decoy.pdf');
    const message = await inject('POST', `/job-api/jobs/${theirs.id}/actions/message`, attacker, {
      note: 'Attached',
      files: [{ url: decoy.url, name: secret.key }],
    });
    expect(message.statusCode, message.body).toBe(200);

    // The victim's own finished job carries the brief, as the checkout writes it.
    const own = await insertJob(t, victim.id, { productId: product, status: 'completed', lawyerId: lawyer.id });
    await t.rt.database.db
      .update(jobs)
      .set({ stage: 'completed', companyFile: `http://localhost:3000${brief.url}`, companyFileName: brief.fileName })
      .where(eq(jobs.id, own.id));
    expect((await link(lawyer, brief.key)).statusCode).toBe(200);

    const deleted = await inject('POST', '/api/account/delete', victim, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);

    expect(await rowOf(secret.key)).toBeNull();
    expect(await t.rt.storage.get(secret.key)).toBeNull();
    expect((await link(admin, secret.key)).statusCode).toBe(404);
    // The brief stays with the job it was bought for: its lawyer still opens it.
    expect(await rowOf(brief.key)).not.toBeNull();
    expect((await link(lawyer, brief.key)).statusCode).toBe(200);
    expect((await link(attacker, brief.key)).statusCode).toBe(403);
  });

  // The same rule for an admin's files: admins share them, so any admin's attaching keeps them.
  it('keeps an erased admin’s documents that a job opens, and erases the rest', async () => {
    const leaving = await signupAndLogin(t, 'admin');
    const colleague = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const job = await workingJob(company);
    const checklist = await uploadDocument(t.app, leaving.headers, 'checklist.pdf');
    const memo = await uploadDocument(t.app, leaving.headers, 'memo.pdf');
    const notes = await uploadDocument(t.app, leaving.headers, 'private-notes.pdf');
    const added = await inject('PUT', `/job-api/editjobdetails/${job.id}`, leaving, {
      detail: 'Checklist attached',
      file: checklist.url,
      fileName: checklist.fileName,
    });
    expect(added.statusCode, added.body).toBe(200);
    const sent = await inject('POST', `/job-api/jobs/${job.id}/actions/message`, colleague, {
      note: 'The memo',
      files: [{ url: memo.url, name: memo.fileName }],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await inject('POST', '/api/account/delete', leaving, { password: PASSWORD })).statusCode).toBe(200);
    expect(await rowOf(notes.key)).toBeNull();
    for (const kept of [checklist, memo]) {
      expect((await link(company, kept.key)).statusCode, kept.fileName).toBe(200);
      expect((await link(lawyer, kept.key)).statusCode, kept.fileName).toBe(200);
    }
  });

  // A name was cut at 200 UTF-16 units: inside an emoji, half of it stayed. The upload answered that
  // name while the database stored U+FFFD, the web's message with the answered name was refused
  // (400, a character not allowed), and a message naming the file so got a 500 (jsonb refuses it).
  it('answers the name it stores for a long unicode name, and attaches the file under it', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await workingJob(company);
    const long = `${'a'.repeat(199)}😀 final.pdf`;
    const doc = await uploadDocument(t.app, company.headers, long);
    expect(hasUnsafeCharacter(doc.fileName)).toBe(false);
    expect(doc.fileName).toBe((await rowOf(doc.key))!.originalName);
    for (const name of [doc.fileName, long]) {
      const sent = await inject('POST', `/job-api/jobs/${job.id}/actions/message`, company, {
        note: 'The agreement',
        files: [{ url: doc.url, name }],
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    // Direction overrides go too: `brief‮fdp.docx` would read as a Word file's name backwards.
    const reversed = await uploadDocument(t.app, company.headers, 'brief\u202efdp.docx');
    expect(reversed.fileName).toBe('brieffdp.docx.pdf');
  });

  // A file name given with a job's details was stored and mailed as sent: its line breaks started
  // lines of their own in the e-mail we send the job's lawyer and admins, under our name.
  it('keeps a file name from writing lines of its own into the e-mails of a job’s parties', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await workingJob(company);
    const doc = await uploadDocument(t.app, company.headers, 'brief.pdf');
    const given = await inject('PUT', `/job-api/company/editjobdetails/${job.id}`, company, {
      detail: 'The signed copy',
      file: doc.url,
      fileName: 'brief.pdf\r\n\r\nYour payout is on hold: reply with your bank details.',
    });
    expect(given.statusCode, given.body).toBe(200);
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.companyFileName).toBe('brief.pdfYour payout is on hold: reply with your bank details.');
    const mail = (await lastMailTo(t, lawyer.email))!;
    expect(mail.text).toContain('Documents: brief.pdf');
    expect(mail.text).not.toMatch(/\nYour payout/);
  });
});
