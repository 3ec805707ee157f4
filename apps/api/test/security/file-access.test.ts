import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { cartItems, jobs } from '../../src/db/schema.js';
import { insertJob } from '../admin-fixtures.js';
import { SUCCESS_CARD, insertProduct } from '../commerce-helpers.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { multipart, pngBytes, uploadDocument } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
interface Job {
  _id: string;
  detail: string | null;
  companyDetail: string | null;
  companyFile: string | null;
  companyFileName: string | null;
  adminDetail: string | null;
  adminFile: string | null;
  adminFileName: string | null;
  briefWithheld?: boolean;
}

const BRIEF = 'Confidential: our merger with Zenith Foods closes on 1 March; review the share purchase agreement.';

/**
 * Issue 14, security item 2, played as the outside test played it: a lawyer who just signed up lists
 * the open jobs, takes a company's document key from the answer, and a company of the attacker's names
 * that key in its own cart line and job details, then asks for a link to the document. Each step used
 * to succeed; now the key is never shown, naming it is refused, and a reference grants no access.
 */
describeEachDb('confidential documents (issue 14)', (kind) => {
  let t: TestApp;
  let victim: Login;
  let attacker: Login;
  let unverified: Login;
  let verified: Login;
  let assigned: Login;
  let admin: Login;
  let otherAdmin: Login;
  let product: string;
  let doc: { url: string; key: string; fileName: string };
  let openJob: string;
  let attackerJob: string;

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who: Login | null,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const openJobs = async (who: Login) => {
    const res = await inject('GET', '/job-api/jobs?sort=recent&limit=50', who);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, job: (res.json() as Job[]).find((j) => j._id === openJob)! };
  };
  const link = (who: Login, key: string) => inject('GET', `/api/files/${key}/link`, who);
  const login = async (who: Login): Promise<Login> => {
    const res = await inject('POST', '/api/login', null, { officialEmail: who.email, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json().token as string;
    return { ...who, token, headers: { authorization: `Bearer ${token}` } };
  };

  /** The victim buys through the API: a cart line with its brief and document, paid in the sandbox. */
  async function buy(company: Login, line: object) {
    expect((await inject('POST', '/api/cart', company, { productId: product, quantity: 1, ...line })).statusCode).toBe(
      201,
    );
    const start = (await inject('POST', '/api/checkout', company)).json().data as { reference: string; amount: number };
    const charge = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference: start.reference,
      amount: start.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const paid = await inject('POST', '/api/checkout/verify', company, {
      reference: start.reference,
      transactionId: charge.json().data.transaction_id,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, company.id));
    return job.id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    victim = await signupAndLogin(t, 'company');
    attacker = await signupAndLogin(t, 'company');
    unverified = await signupAndLogin(t, 'lawyer');
    verified = await signupAndLogin(t, 'lawyer', { verified: true });
    assigned = await signupAndLogin(t, 'lawyer', { verified: true });
    admin = await signupAndLogin(t, 'admin');
    otherAdmin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Share Purchase Agreement Review', 25000);
    doc = await uploadDocument(t.app, victim.headers, 'zenith-merger-spa.pdf', 'share purchase agreement');
    openJob = await buy(victim, { detail: BRIEF, file: doc.url, fileName: doc.fileName });
    attackerJob = (await insertJob(t, attacker.id, { productId: product })).id;
  }, 120_000);
  afterAll(async () => t?.close());

  it('shows no lawyer who is not assigned the key of an open job’s document, and no unverified lawyer the brief', async () => {
    // Step 1 of the attack: a lawyer who just signed up lists the open jobs.
    const seen = await openJobs(unverified);
    expect(seen.body).not.toContain(doc.key);
    expect(seen.body).not.toContain(BRIEF);
    expect(seen.body).not.toContain('zenith-merger');
    expect(seen.job).toMatchObject({
      detail: null,
      companyDetail: null,
      companyFile: null,
      companyFileName: null,
      adminFile: null,
      briefWithheld: true,
    });
    // Product and amount stay: that is what an unverified lawyer may know of the marketplace.
    expect(seen.job).toMatchObject({ amount: 25000, productId: { productName: 'Share Purchase Agreement Review' } });
    const one = await inject('GET', `/job-api/job/${openJob}`, unverified);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(doc.key);
    expect(one.body).not.toContain(BRIEF);

    // A verified lawyer reads the brief and the file's name, never its key.
    const read = await openJobs(verified);
    expect(read.body).not.toContain(doc.key);
    expect(read.job).toMatchObject({ detail: BRIEF, companyFile: null, companyFileName: doc.fileName });
    expect(read.job.briefWithheld).toBeUndefined();
    expect((await inject('GET', `/job-api/job/${openJob}`, verified)).body).not.toContain(doc.key);

    // The owner and admins see the key.
    const own = await inject('GET', '/job-api/company/pendingjobs', victim);
    expect((own.json() as Job[]).find((j) => j._id === openJob)!.companyFile).toBe(doc.url);
    expect((await openJobs(admin)).job.companyFile).toBe(doc.url);
    expect((await inject('GET', `/job-api/admin/job/${openJob}`, admin)).body).toContain(doc.key);
  });

  it('refuses a company that names another company’s document in its cart or job details, and opens nothing', async () => {
    // Steps 2-4 with a key that leaked some other way: cart line, job details, then the link.
    const cart = await inject('POST', '/api/cart', attacker, { productId: product, file: doc.url, fileName: 'x.pdf' });
    expect(cart.statusCode).toBe(403);
    expect(cart.json()).toEqual({ status: 'fail', message: messages.fileNotYours });
    // An absolute URL on any host names the same key.
    const absolute = await inject('POST', '/api/cart', attacker, {
      productId: product,
      file: `https://evil.example${doc.url}`,
    });
    expect(absolute.statusCode).toBe(403);
    const details = await inject('PUT', `/job-api/company/editjobdetails/${attackerJob}`, attacker, {
      detail: 'See the attached file',
      file: doc.url,
      fileName: 'x.pdf',
    });
    expect(details.statusCode).toBe(403);
    expect(details.json().message).toBe(messages.fileNotYours);
    expect(await t.rt.database.db.select().from(cartItems).where(eq(cartItems.companyId, attacker.id))).toEqual([]);
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, attackerJob));
    expect(job.companyFile).toBeNull();
    expect(job.companyDetail).toBeNull();

    expect((await link(attacker, doc.key)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: doc.url, headers: attacker.headers })).statusCode,
      'the file itself with a bearer header',
    ).toBe(403);
    expect((await link(unverified, doc.key)).statusCode).toBe(403);
    expect((await link(verified, doc.key)).statusCode).toBe(403);
  });

  it('grants nothing for a reference written before the fix: cart lines and jobs naming another’s key', async () => {
    // What the old code let the attacker store, written straight into the tables.
    const db = t.rt.database.db;
    await db.insert(cartItems).values({ companyId: attacker.id, productId: product, quantity: 1, file: doc.url });
    await db.update(jobs).set({ companyFile: doc.url, adminFile: doc.url }).where(eq(jobs.id, attackerJob));
    expect((await link(attacker, doc.key)).statusCode).toBe(403);
    // Even the lawyer assigned to the attacker's job: the file is not that job's company's.
    await db
      .update(jobs)
      .set({ status: 'pending', assignedTo: assigned.id, assignedAt: t.clock.now() })
      .where(eq(jobs.id, attackerJob));
    expect((await link(assigned, doc.key)).statusCode).toBe(403);
    await db.delete(cartItems).where(eq(cartItems.companyId, attacker.id));
  });

  it('still opens the document for its owner, admins and the lawyer assigned to the job', async () => {
    expect((await link(victim, doc.key)).statusCode).toBe(200);
    expect((await link(admin, doc.key)).statusCode).toBe(200);
    expect((await link(assigned, doc.key)).statusCode).toBe(403);
    expect((await inject('POST', `/job-api/applyforjob/${openJob}`, assigned, {})).statusCode).toBe(200);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: openJob, lawyerId: assigned.id })).statusCode).toBe(
      200,
    );
    expect((await link(assigned, doc.key)).statusCode).toBe(200);
    const pending = await inject('GET', '/job-api/lawyer/pendingjobs', assigned);
    expect((pending.json() as Job[]).find((j) => j._id === openJob)).toMatchObject({
      companyFile: doc.url,
      detail: BRIEF,
    });
    // The company's own file may be sent again unchanged; the owner attaches its own uploads.
    const again = await inject('PUT', `/job-api/company/editjobdetails/${openJob}`, victim, {
      detail: 'Same file, more words',
      file: doc.url,
      fileName: doc.fileName,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await link(verified, doc.key)).statusCode).toBe(403);
  });

  it('lets admins attach only documents an admin uploaded, and the job’s own document again', async () => {
    const job = await insertJob(t, victim.id, { productId: product });
    const put = (who: Login, file: string) =>
      inject('PUT', `/job-api/editjobdetails/${job.id}`, who, {
        detail: 'Checklist attached',
        file,
        fileName: 'c.pdf',
      });
    const refused = await put(admin, doc.url);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.fileNotYours);
    const checklist = await uploadDocument(t.app, admin.headers, 'checklist.pdf');
    expect((await put(admin, checklist.url)).statusCode).toBe(200);
    // Another admin sends the form back with the document already on the job (the web does).
    expect((await put(otherAdmin, checklist.url)).statusCode).toBe(200);
    const theirs = await uploadDocument(t.app, otherAdmin.headers, 'theirs.pdf');
    expect((await put(admin, theirs.url)).statusCode).toBe(200);
    // The admin's document opens for the job's company, not for another company or a browsing lawyer.
    expect((await link(victim, theirs.key)).statusCode).toBe(200);
    expect((await link(attacker, theirs.key)).statusCode).toBe(403);
    expect((await link(verified, theirs.key)).statusCode).toBe(403);
  });

  it('answers 400 for a document that does not exist and keeps links elsewhere', async () => {
    for (const file of ['/uploads/0123456789abcdef0123456789abcdef.pdf', '/uploads/not-a-key.pdf']) {
      const res = await inject('POST', '/api/cart', attacker, { productId: product, file });
      expect(res.statusCode, file).toBe(400);
      expect(res.json().message).toBe(messages.attachedFileNotFound);
    }
    const elsewhere = await inject('POST', '/api/cart', attacker, {
      productId: product,
      file: 'https://drive.example.com/d/brief.pdf',
      fileName: 'brief.pdf',
    });
    expect(elsewhere.statusCode).toBe(201);
    // A line keeps one document (adding again adds to the line, issue 18): empty it for the next one.
    expect((await inject('DELETE', `/api/cart/${product}`, attacker)).statusCode).toBe(200);
    const own = await uploadDocument(t.app, attacker.headers, 'own.pdf');
    expect((await inject('POST', '/api/cart', attacker, { productId: product, file: own.url })).statusCode).toBe(201);
    expect((await link(attacker, own.key)).statusCode).toBe(200);
  });

  it('refuses a public picture as a job’s, cart’s or thread’s document: it would open for anyone, cached a year', async () => {
    // An upload with kind=image is public (product and profile pictures) and cached by any shared
    // cache; attached to a job it would leave the job's access rules behind.
    const upload = async (who: Login, uploadKind: 'image' | 'document') => {
      const body = await multipart([
        { name: 'file', file: { data: pngBytes(), filename: 'signed-spa.png', type: 'image/png' } },
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/uploads?kind=${uploadKind}`,
        headers: { ...who.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.url as string;
    };
    const picture = await upload(victim, 'image');
    const served = await t.app.inject({ method: 'GET', url: picture });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('public');

    const job = await insertJob(t, victim.id, { productId: product });
    const refusals = [
      await inject('POST', '/api/cart', victim, { productId: product, file: picture, fileName: 'spa.png' }),
      await inject('PUT', `/job-api/company/editjobdetails/${job.id}`, victim, { detail: 'Scan', file: picture }),
      await inject('POST', `/job-api/jobs/${job.id}/actions/message`, victim, {
        note: 'The signed copy',
        files: [{ url: picture, name: 'spa.png' }],
      }),
      await inject('PUT', `/job-api/editjobdetails/${job.id}`, admin, {
        detail: 'Scan',
        file: await upload(admin, 'image'),
      }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(messages.attachDocumentOnly);
    }
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect([row.companyFile, row.adminFile]).toEqual([null, null]);

    // The same picture uploaded as a document is confidential and attaches.
    const scan = await upload(victim, 'document');
    const sent = await inject('POST', `/job-api/jobs/${job.id}/actions/message`, victim, {
      note: 'The signed copy',
      files: [{ url: scan, name: 'spa.png' }],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: scan })).statusCode).toBe(401);
  });

  it('never serves a remembered list of one verification state to the other', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const job = await insertJob(t, victim.id, { productId: product });
    const detailOf = async (who: Login) =>
      ((await inject('GET', '/job-api/jobs?sort=recent&limit=50', who)).json() as Job[]).find((j) => j._id === job.id)!
        .detail;
    expect(await detailOf(lawyer)).toBeNull();
    expect(await detailOf(lawyer)).toBeNull(); // now remembered
    expect((await inject('PATCH', `/api/verifylawyer/${lawyer.id}`, admin, { verified: true })).statusCode).toBe(200);
    const now = await login(lawyer);
    expect(await detailOf(now)).toBe('Please register our trademark in class 9.');
    expect((await inject('PATCH', `/api/verifylawyer/${lawyer.id}`, admin, { verified: false })).statusCode).toBe(200);
    const after = await login(lawyer);
    expect(await detailOf(after)).toBeNull();
  });
});
