import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIST_LIMIT_MAX, messages } from '@legalmarket/contracts';
import { jobApplications, jobs, orders, products } from '../../db/schema.js';
import { createTestApp, describeEachDb, lastMailTo, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { multipart, pdfBytes } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const WORDS =
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen';

/** A paid order with one job per line, written straight into the tables (checkout is another feature). */
async function paidJobs(t: TestApp, company: Login, n: number, opts: { minutesApart?: number } = {}) {
  const db = t.rt.database.db;
  const [product] = await db
    .insert(products)
    .values({
      productName: `Contract review ${randomUUID().slice(0, 6)}`,
      productPrice: 5_000_000,
      productDescription: `Review of a commercial contract ${WORDS}`,
      productImage: '/uploads/product.png',
    })
    .returning();
  const [order] = await db
    .insert(orders)
    .values({
      companyId: company.id,
      txRef: `tx-${randomUUID()}`,
      amount: 5_000_000 * n,
      status: 'paid',
      provider: 'sandbox',
      title: product.productName,
      lines: [],
      paidAt: t.clock.now(),
    })
    .returning();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(t.clock.now().getTime() + i * (opts.minutesApart ?? 1) * 60_000);
    const [job] = await db
      .insert(jobs)
      .values({
        orderId: order.id,
        lineNo: i + 1,
        companyId: company.id,
        productId: product.id,
        quantity: 1,
        amount: 5_000_000 + i * 100,
        detail: `Detail ${i} ${WORDS}`,
        companyFile: `/uploads/confidential-${i}-${randomUUID()}.pdf`,
        companyFileName: `brief-${i}.pdf`,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: jobs.id });
    ids.push(job.id);
  }
  return ids;
}

async function assign(t: TestApp, jobId: string, lawyerId: string, status: 'pending' | 'completed' = 'pending') {
  const now = t.clock.now();
  // The database allows only the lifecycle's steps: assigned first, completed after.
  await t.rt.database.db
    .update(jobs)
    .set({ status: 'pending', assignedTo: lawyerId, assignedAt: now })
    .where(eq(jobs.id, jobId));
  if (status === 'completed')
    await t.rt.database.db.update(jobs).set({ status, completedAt: now }).where(eq(jobs.id, jobId));
}

describeEachDb('lawyer jobs: available jobs, applications, projects', (kind) => {
  let t: TestApp;
  let company: Login;
  let lawyerA: Login;
  let lawyerB: Login;
  let unverified: Login;
  let admin: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    company = await signupAndLogin(t, 'company');
    lawyerA = await signupAndLogin(t, 'lawyer', { verified: true });
    lawyerB = await signupAndLogin(t, 'lawyer', { verified: true });
    unverified = await signupAndLogin(t, 'lawyer');
    admin = await signupAndLogin(t, 'admin');
  });
  afterAll(() => t.close());

  const get = (url: string, who: Login) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const post = (url: string, who: Login, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('lists only open jobs, in both sort orders, paged, for verified and unverified lawyers', async () => {
    const ids = await paidJobs(t, company, 5);
    await assign(t, ids[1], lawyerA.id, 'pending');
    await assign(t, ids[3], lawyerB.id, 'completed');
    const open = [ids[0], ids[2], ids[4]];

    const best = await get('/job-api/jobs', lawyerA);
    expect(best.statusCode).toBe(200);
    expect(best.headers['x-total-count']).toBe('3');
    const bestIds = (best.json() as Array<{ _id: string }>).map((j) => j._id);
    expect(bestIds).toEqual(open);

    const recent = await get('/job-api/jobs?sort=recent', unverified);
    expect(recent.statusCode).toBe(200);
    expect((recent.json() as Array<{ _id: string }>).map((j) => j._id)).toEqual([...open].reverse());

    const page2 = await get('/job-api/jobs?sort=recent&page=2&limit=2', lawyerA);
    expect((page2.json() as Array<{ _id: string }>).map((j) => j._id)).toEqual([ids[0]]);
    expect(page2.headers['x-total-count']).toBe('3');

    const job = best.json()[0];
    expect(job).toMatchObject({
      status: 'unassigned',
      amount: 50_000,
      productId: { productPrice: 50_000 },
      assignedTo: [],
      appliedLawer: [],
      applied: false,
    });
    // The company's contact stays with the marketplace until the job is assigned to this lawyer.
    expect(job.companyId.officialEmail).toBe('');
    expect(job.companyId.phoneNumber).toBe('');
    expect(best.body).not.toContain(company.email);

    // A page holds at most 50; without `page` the whole list is asked for, up to LIST_LIMIT_MAX (decision 0901).
    expect((await get('/job-api/jobs?page=1&limit=500', lawyerA)).statusCode).toBe(400);
    expect((await get(`/job-api/jobs?limit=${LIST_LIMIT_MAX + 1}`, lawyerA)).statusCode).toBe(400);
    expect((await get('/job-api/jobs?sort=sideways', lawyerA)).json().message).toMatch(/sort/);
    expect((await get('/job-api/jobs', company)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/job-api/jobs' })).statusCode).toBe(401);
    expect((await get('/job-api/jobs', admin)).statusCode).toBe(200);
  });

  it('refuses unverified lawyers, and applying twice changes nothing', async () => {
    const [jobId] = await paidJobs(t, company, 1);
    const refused = await post(`/job-api/applyforjob/${jobId}`, unverified, { lawyerId: unverified.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.unverifiedCannotApply);

    const a1 = await post(`/job-api/applyforjob/${jobId}`, lawyerA, { lawyerId: lawyerA.id });
    expect(a1.statusCode).toBe(200);
    expect(a1.json()).toEqual({ status: 'success', message: messages.jobApplied });
    const a2 = await post(`/job-api/applyforjob/${jobId}`, lawyerA, { lawyerId: lawyerA.id });
    expect(a2.json()).toEqual(a1.json());
    const a3 = await post(`/job-api/applyforjob/${jobId}`, lawyerA);
    expect(a3.statusCode).toBe(200);

    // Many at once (double clicks, retries) still make one application.
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => post(`/job-api/applyforjob/${jobId}`, lawyerA, { lawyerId: lawyerA.id })),
    );
    expect(burst.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await t.rt.database.db.select().from(jobApplications).where(eq(jobApplications.jobId, jobId));
    expect(rows.map((r) => r.lawyerId)).toEqual([lawyerA.id]);

    const view = await get(`/job-api/job/${jobId}?lawyerId=${lawyerA.id}`, lawyerA);
    expect(view.json().applied).toBe(true);
    expect((await get(`/job-api/job/${jobId}`, lawyerB)).json().applied).toBe(false);
    // Admins see who applied; lawyers never see the other applicants.
    expect((await get(`/job-api/job/${jobId}`, admin)).json().appliedLawer.map((l: { _id: string }) => l._id)).toEqual([
      lawyerA.id,
    ]);
    expect((await get(`/job-api/job/${jobId}`, lawyerB)).json().appliedLawer).toEqual([]);
  });

  it('applies only for the caller and only to open jobs', async () => {
    const [jobId, taken] = await paidJobs(t, company, 2);
    await assign(t, taken, lawyerB.id);
    const other = await post(`/job-api/applyforjob/${jobId}`, lawyerA, { lawyerId: lawyerB.id });
    expect(other.statusCode).toBe(403);
    const gone = await post(`/job-api/applyforjob/${taken}`, lawyerA, { lawyerId: lawyerA.id });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe(messages.jobNotOpen);
    expect((await post(`/job-api/applyforjob/${randomUUID()}`, lawyerA)).statusCode).toBe(404);
    expect((await post(`/job-api/applyforjob/not-an-id`, lawyerA)).statusCode).toBe(400);
    expect((await post(`/job-api/applyforjob/${jobId}`, company)).statusCode).toBe(403);
    const rows = await t.rt.database.db
      .select()
      .from(jobApplications)
      .where(and(eq(jobApplications.jobId, taken), eq(jobApplications.lawyerId, lawyerA.id)));
    expect(rows).toHaveLength(0);
  });

  it('keeps each lawyer to its own projects: lists, job, files and requests', async () => {
    const [mine, theirs, done] = await paidJobs(t, company, 3);
    await assign(t, mine, lawyerA.id);
    await assign(t, theirs, lawyerB.id);
    await assign(t, done, lawyerA.id, 'completed');
    const [theirsRow] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, theirs));

    const pendingA = await get('/job-api/lawyer/pendingjobs', lawyerA);
    expect(pendingA.statusCode).toBe(200);
    const pendingIds = (pendingA.json() as Array<{ _id: string }>).map((j) => j._id);
    expect(pendingIds).toContain(mine);
    expect(pendingIds).not.toContain(theirs);
    expect(pendingIds).not.toContain(done);
    expect(pendingA.body).not.toContain(theirsRow.companyFile!);
    const own = (pendingA.json() as Array<{ _id: string; companyId: { officialEmail: string } }>).find(
      (j) => j._id === mine,
    )!;
    expect(own.companyId.officialEmail).toBe(company.email);

    const completedA = await get('/job-api/lawyer/completedjobs', lawyerA);
    expect((completedA.json() as Array<{ _id: string }>).map((j) => j._id)).toContain(done);
    expect((completedA.json() as Array<{ _id: string }>).map((j) => j._id)).not.toContain(mine);
    const completedB = await get('/job-api/lawyer/completedjobs', lawyerB);
    expect(completedB.body).not.toContain(done);

    // Another lawyer's job: not readable (so neither are its files), not requestable.
    const peek = await get(`/job-api/job/${theirs}?lawyerId=${lawyerA.id}`, lawyerA);
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain(theirsRow.companyFile!);
    const ask = await post(`/job-api/requestmorejobdetails/${theirs}`, lawyerA, { detail: 'Send the contract' });
    expect(ask.statusCode).toBe(404);
    const [after] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, theirs));
    expect(after.lawyerRequestedDetail).toBeNull();

    // Its own job it reads in full, including the company's contact and file.
    const mineView = await get(`/job-api/job/${mine}`, lawyerA);
    expect(mineView.statusCode).toBe(200);
    expect(mineView.json().companyId.phoneNumber).toBe('08012345678');
    expect(mineView.json().companyFile).toMatch(/^\/uploads\/confidential-/);
    // The lawyer id in the query must be the caller's.
    expect((await get(`/job-api/job/${mine}?lawyerId=${lawyerB.id}`, lawyerA)).statusCode).toBe(403);
    // A company reads only its own jobs.
    const otherCompany = await signupAndLogin(t, 'company');
    expect((await get(`/job-api/job/${mine}`, otherCompany)).statusCode).toBe(404);
    expect((await get(`/job-api/job/${mine}`, company)).statusCode).toBe(200);
    expect((await get('/job-api/lawyer/pendingjobs', company)).statusCode).toBe(403);
  });

  it("opens a job's company file for the assigned lawyer only", async () => {
    const body = await multipart([
      { name: 'file', file: { data: pdfBytes('board minutes'), filename: 'minutes.pdf' } },
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=document',
      headers: { ...company.headers, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(201);
    const url: string = up.json().data.url;
    const key = url.split('/').pop();
    const [openJob, assigned] = await paidJobs(t, company, 2);
    for (const id of [openJob, assigned])
      await t.rt.database.db
        .update(jobs)
        .set({ companyFile: url, companyFileName: 'minutes.pdf' })
        .where(eq(jobs.id, id));
    await assign(t, assigned, lawyerA.id);
    const link = (who: Login) => get(`/api/files/${key}/link`, who);
    expect((await link(lawyerA)).statusCode).toBe(200);
    // Not to another lawyer, and not to lawyers browsing the open job either (decision 0301).
    expect((await link(lawyerB)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url, headers: lawyerB.headers })).statusCode).toBe(403);
    await t.rt.database.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.id, assigned));
    expect((await link(lawyerB)).statusCode).toBe(403);
  });

  it('requests more details on an own pending job and e-mails the company', async () => {
    const [jobId, finished] = await paidJobs(t, company, 2);
    await assign(t, jobId, lawyerA.id);
    await assign(t, finished, lawyerA.id, 'completed');

    const empty = await post(`/job-api/requestmorejobdetails/${jobId}`, lawyerA, { detail: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(messages.kindlyRequestDetails);
    const missing = await post(`/job-api/requestmorejobdetails/${jobId}`, lawyerA, {});
    expect(missing.json().message).toBe(messages.kindlyRequestDetails);

    const sent = await post(`/job-api/requestmorejobdetails/${jobId}`, lawyerA, {
      detail: 'Please share the signed MoU',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ status: 'success', message: messages.requestSent });
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row.lawyerRequestedDetail).toBe('Please share the signed MoU');
    const mail = await lastMailTo(t, company.email);
    expect(mail!.subject).toMatch(/more details/);
    expect(mail!.text).toContain('Please share the signed MoU');
    expect(mail!.text).toContain('http://localhost:3000/company/dashboard');

    const view = await get(`/job-api/job/${jobId}`, lawyerA);
    expect(view.json().lawyerRequestedDetail).toBe('Please share the signed MoU');

    const late = await post(`/job-api/requestmorejobdetails/${finished}`, lawyerA, { detail: 'More?' });
    expect(late.statusCode).toBe(404);
  });

  it('adds up the completed work of the lawyer only', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const empty = await get('/job-api/lawyer/earnings', lawyer);
    expect(empty.json()).toEqual({
      status: 'success',
      data: {
        total: 0,
        count: 0,
        currency: 'NGN',
        available: 0,
        pending: 0,
        commissionPercent: 20,
        holdDays: 7,
        jobs: [],
      },
    });
    const [a, b, c] = await paidJobs(t, company, 3);
    await assign(t, a, lawyer.id, 'completed');
    await assign(t, b, lawyer.id, 'completed');
    await assign(t, c, lawyer.id, 'pending');
    const res = await get('/job-api/lawyer/earnings', lawyer);
    // What companies paid for the completed jobs; the lawyer's share comes from the ledger (money tests).
    expect(res.json().data).toMatchObject({ total: 50_000 + 50_001, count: 2, currency: 'NGN' });
  });

  it('lets admins, and only admins, read a lawyer profile by id', async () => {
    const res = await get(`/api/lawyer/${lawyerA.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().lawyer).toMatchObject({
      _id: lawyerA.id,
      officialEmail: lawyerA.email,
      scn: 'SCN001234',
      verified: true,
      areasOfPractise: ['Technology', 'Tax Practise'],
    });
    expect(res.body).not.toContain('argon2');
    expect((await get(`/api/lawyer/${company.id}`, admin)).statusCode).toBe(404);
    expect((await get(`/api/lawyer/${lawyerA.id}`, lawyerB)).statusCode).toBe(403);
    expect((await get(`/api/lawyer/${lawyerA.id}`, lawyerA)).statusCode).toBe(403);
    expect((await get(`/api/lawyer/${lawyerA.id}`, company)).statusCode).toBe(403);
    // A lawyer reads only its own profile through the profile lookup.
    const other = await get(`/api/userprofile?_id=${lawyerA.id}`, lawyerB);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(messages.noPermissionProfile);
    expect((await get(`/api/userprofile?_id=${lawyerA.id}`, lawyerA)).statusCode).toBe(200);
  });
});
