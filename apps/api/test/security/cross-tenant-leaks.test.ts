import { afterAll, beforeAll, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Ids of one company's jobs and orders reach nobody but that company, the job's assigned lawyer (the
 * job, not the order) and admins: the authorization matrix's secrets ('A-job', 'A-private'). Two reads
 * the matrix cannot see through: a lawyer's reviews (A's completed job, not in the matrix's world) and
 * the data-protection export (a deflated zip, so a text search of the body finds nothing).
 */
describeEachDb('ids of one company reach no other party', (kind) => {
  let t: TestApp;
  let companyA: Login;
  let companyB: Login;
  let lawyer: Login;
  let otherLawyer: Login;
  let unverified: Login;
  let admin: Login;
  let jobId: string;
  let orderId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [companyA, companyB, lawyer, otherLawyer, unverified, admin] = await Promise.all([
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer'),
      signupAndLogin(t, 'admin'),
    ]);
    const product = await insertProduct(t, 'Shareholder Agreement');
    const job = await insertJob(t, companyA.id, { productId: product.id, status: 'completed', lawyerId: lawyer.id });
    jobId = job.id;
    orderId = job.orderId;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lawyer-reviews',
      headers: companyA.headers,
      payload: { jobId, stars: 5, reviewTitle: 'Clear', review: 'Explained every clause.' },
    });
    expect(res.statusCode).toBe(201);
  }, 120_000);
  afterAll(() => t?.close());

  const reviewsAs = (who: Login) =>
    t.app.inject({ method: 'GET', url: `/api/lawyers/${lawyer.id}/reviews`, headers: who.headers });

  it("shows a lawyer's reviews to every signed-in user without the reviewing company's job id", async () => {
    for (const who of [companyB, otherLawyer, unverified]) {
      const res = await reviewsAs(who);
      expect(res.statusCode).toBe(200);
      const [review] = res.json().data.reviews;
      expect(review.companyId._id).toBe(companyA.id); // the company's name and id are public, as on products
      expect(review.jobId).toBeNull();
      expect(res.body).not.toContain(jobId);
    }
    // The job's parties and admins still see which job a review is of.
    for (const who of [companyA, lawyer, admin])
      expect((await reviewsAs(who)).json().data.reviews[0].jobId).toBe(jobId);
  });

  it("gives a lawyer's data export the jobs done, without the company's order or plan ids", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: lawyer.headers });
    expect(res.statusCode).toBe(200);
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    const [exported] = JSON.parse(strFromU8(zip['jobs.json']));
    expect(exported.id).toBe(jobId);
    const all = Object.values(zip)
      .map((f) => strFromU8(f))
      .join('\n');
    expect(all).not.toContain(orderId);
    expect(exported).not.toHaveProperty('subscriptionId');
    expect(all).not.toContain(companyA.email);
    // The company's own archive keeps its order.
    const own = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: companyA.headers });
    const ownJobs = JSON.parse(strFromU8(unzipSync(new Uint8Array(own.rawPayload))['jobs.json']));
    expect(ownJobs[0].orderId).toBe(orderId);
  });
});
