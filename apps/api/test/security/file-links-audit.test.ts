import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs } from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { uploadDocument } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Decision 2254: a document's signed link opens it only while the session that asked for it is live and
 * its user may still read the document. Before, a link answered the file to whoever held it for its
 * five minutes, whatever happened to the session meanwhile: a thief's links outlived "sign out of all
 * other devices", a lawyer's outlived the withdrawal of the verification that logged them out.
 */
describeEachDb('signed document links follow the session that asked (2254)', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const signedUrl = async (who: Login, key: string) => {
    const res = await inject('GET', `/api/files/${key}/link`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.url as string;
  };
  /** Follows a link as a browser does: no bearer header. */
  const follow = (url: string) => t.app.inject({ method: 'GET', url });
  const login = async (email: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${res.json().token as string}` };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    product = (await insertProduct(t, 'Shareholders Agreement')).id;
  }, 120_000);
  afterAll(async () => t?.close());

  it('still opens for whoever follows it while the session that asked is live', async () => {
    const company = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, company.headers, 'sha.pdf', 'SHAREHOLDERS AGREEMENT');
    const res = await follow(await signedUrl(company, doc.key));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('SHAREHOLDERS AGREEMENT');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('dies with the session that asked for it: a log-out', async () => {
    const company = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, company.headers, 'minutes.pdf', 'BOARD MINUTES');
    const url = await signedUrl(company, doc.key);
    expect((await inject('POST', '/api/logout', company)).statusCode).toBe(200);
    const res = await follow(url);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe(messages.fileLinkExpired);
    expect(res.body).not.toContain('BOARD MINUTES');
  });

  it('dies when the owner signs a thief out of every other device', async () => {
    const owner = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, owner.headers, 'term-sheet.pdf', 'TERM SHEET');
    // The thief holds a second session of the same account and takes a link for each document.
    const thief = { ...owner, headers: await login(owner.email) };
    const stolen = await signedUrl(thief, doc.key);
    const ended = await inject('POST', '/api/logout/others', owner);
    expect(ended.statusCode, ended.body).toBe(200);
    const res = await follow(stolen);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).not.toContain('TERM SHEET');
    // The owner's own link, from the session that stayed, still opens.
    expect((await follow(await signedUrl(owner, doc.key))).statusCode).toBe(200);
  });

  it('dies when a lawyer’s verification is withdrawn, which logs the lawyer out', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const doc = await uploadDocument(t.app, company.headers, 'brief.pdf', 'CONFIDENTIAL BRIEF');
    const job = await insertJob(t, company.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db
      .update(jobs)
      .set({ stage: 'in_progress', companyFile: doc.url, companyFileName: 'brief.pdf' })
      .where(eq(jobs.id, job.id));
    const url = await signedUrl(lawyer, doc.key);
    const withdrawn = await inject('PATCH', `/api/verifylawyer/${lawyer.id}`, admin, { verified: false });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const res = await follow(url);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).not.toContain('CONFIDENTIAL BRIEF');
  });

  it('dies when the account that asked for it is erased, though the job keeps the document', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const doc = await uploadDocument(t.app, company.headers, 'spa.pdf', 'SHARE PURCHASE AGREEMENT');
    const job = await insertJob(t, company.id, { productId: product, status: 'completed', lawyerId: lawyer.id });
    await t.rt.database.db
      .update(jobs)
      .set({ stage: 'completed', companyFile: doc.url, companyFileName: 'spa.pdf' })
      .where(eq(jobs.id, job.id));
    const url = await signedUrl(lawyer, doc.key);
    const erased = await inject('POST', '/api/account/delete', lawyer, { password: PASSWORD });
    expect(erased.statusCode, erased.body).toBe(200);
    const res = await follow(url);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).not.toContain('SHARE PURCHASE');
    // The company still opens its document.
    expect((await follow(await signedUrl(company, doc.key))).statusCode).toBe(200);
  });

  it('refuses a link whose session part was swapped for another live session', async () => {
    const company = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, company.headers, 'nda.pdf', 'NDA');
    const url = await signedUrl(company, doc.key);
    const [path, token] = url.split('?t=');
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    // The signature covers the session: naming another one (an admin's, say) breaks it.
    const adminLink = new URL(await signedUrl(admin, doc.key), 'http://x').searchParams.get('t')!;
    const swapped = `${path}?t=${parts[0]}.${adminLink.split('.')[1]}.${parts[2]}`;
    expect((await follow(swapped)).statusCode).toBe(401);
    // A link in the old two-part form is no link.
    expect((await follow(`${path}?t=${parts[0]}.${parts[2]}`)).statusCode).toBe(401);
  });
});
