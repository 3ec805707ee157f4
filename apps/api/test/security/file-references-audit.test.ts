import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, uploads } from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
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
});
