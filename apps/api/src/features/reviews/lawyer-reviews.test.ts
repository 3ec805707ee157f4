import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LAWYER_REVIEW_EDIT_MS, messages } from '@legalmarket/contracts';
import { jobs, lawyerReviews } from '../../db/schema.js';
import { insertJob, insertProduct } from '../../../test/admin-fixtures.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 24 * 3600_000;

describeEachDb('lawyer reviews', (kind) => {
  let t: TestApp;
  let companyA: Login;
  let companyB: Login;
  let lawyer: Login;
  let otherLawyer: Login;
  let admin: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [companyA, companyB, lawyer, otherLawyer, admin] = await Promise.all([
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'admin'),
    ]);
    productId = (await insertProduct(t, 'Shareholder Agreement')).id;
  });
  afterAll(() => t.close());

  const completedJob = (company: Login, by: Login = lawyer) =>
    insertJob(t, company.id, { productId, status: 'completed', lawyerId: by.id });
  const body = (jobId: string, over: Record<string, unknown> = {}) => ({
    jobId,
    stars: 4,
    reviewTitle: 'Clear and on time',
    review: 'Drafted our shareholder agreement in a week and explained every clause.',
    ...over,
  });
  const post = (who: Login | null, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/lawyer-reviews', headers: who?.headers, payload });
  const patch = (who: Login | null, id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/lawyer-reviews/${id}`, headers: who?.headers, payload });
  const answer = (who: Login | null, id: string, reply: string) =>
    t.app.inject({ method: 'POST', url: `/api/lawyer-reviews/${id}/reply`, headers: who?.headers, payload: { reply } });
  const reviewsOf = (who: Login, lawyerId: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/lawyers/${lawyerId}/reviews${query}`, headers: who.headers });
  const relogin = async (who: Login): Promise<Login> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    const token = res.json().token as string;
    return { ...who, token, headers: { authorization: `Bearer ${token}` } };
  };
  const countFor = async (jobId: string) =>
    (await t.rt.database.db.select().from(lawyerReviews).where(eq(lawyerReviews.jobId, jobId))).length;

  it('refuses a review before the job is completed (409), whatever stage it is in', async () => {
    for (const status of ['unassigned', 'pending', 'cancelled'] as const) {
      const job = await insertJob(t, companyA.id, {
        productId,
        status: status === 'cancelled' ? 'pending' : status,
        lawyerId: lawyer.id,
      });
      if (status === 'cancelled')
        await t.rt.database.db.update(jobs).set({ stage: 'cancelled' }).where(eq(jobs.id, job.id));
      const res = await post(companyA, body(job.id));
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toEqual({ status: 'fail', message: messages.lawyerReviewNeedsCompletedJob });
      expect(await countFor(job.id)).toBe(0);
    }
  });

  it("refuses another company's job (403), an unknown job (404), lawyers, admins and guests", async () => {
    const job = await completedJob(companyA);
    const other = await post(companyB, body(job.id));
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(messages.lawyerReviewNotYourJob);
    expect((await post(companyA, body('4f1c7e2a-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    expect((await post(lawyer, body(job.id))).statusCode).toBe(403);
    expect((await post(admin, body(job.id))).statusCode).toBe(403);
    expect((await post(null, body(job.id))).statusCode).toBe(401);
    expect(await countFor(job.id)).toBe(0);
  });

  it('names the field of a bad review (400)', async () => {
    const job = await completedJob(companyA);
    const cases: Array<[Record<string, unknown>, string]> = [
      [body(job.id, { stars: 0 }), messages.chooseStars],
      [body(job.id, { stars: 6 }), messages.chooseStars],
      [body(job.id, { stars: 2.5 }), messages.chooseStars],
      [body(job.id, { stars: undefined }), messages.chooseStars],
      [body(job.id, { reviewTitle: ' ' }), messages.enterReviewTitle],
      [body(job.id, { review: undefined }), messages.enterReviewText],
      [body('nope'), 'jobId must be a valid id'],
    ];
    for (const [payload, message] of cases) {
      const res = await post(companyA, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toMatchObject({ status: 'fail', message });
    }
    expect(await countFor(job.id)).toBe(0);
  });

  it('takes one review per completed job, of the lawyer who did it; a second is refused (409)', async () => {
    // Assigned first (refused), then completed: the stage decides, as the lifecycle leaves it.
    const job = await insertJob(t, companyA.id, { productId, status: 'pending', lawyerId: otherLawyer.id });
    expect((await post(companyA, body(job.id))).statusCode).toBe(409);
    await t.rt.database.db
      .update(jobs)
      .set({ stage: 'completed', completedAt: t.clock.now() })
      .where(eq(jobs.id, job.id));
    const first = await post(companyA, body(job.id, { stars: 5 }));
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      status: 'success',
      message: messages.lawyerReviewSubmitted,
      data: {
        review: {
          jobId: job.id,
          lawyerId: otherLawyer.id,
          stars: 5,
          reviewTitle: 'Clear and on time',
          productName: 'Shareholder Agreement',
          companyId: { _id: companyA.id, companyName: 'Ada Ventures Ltd' },
          reply: null,
          editableUntil: new Date(t.clock.now().getTime() + LAWYER_REVIEW_EDIT_MS).toISOString(),
        },
      },
    });
    const second = await post(companyA, body(job.id, { stars: 1 }));
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(messages.lawyerReviewOnce);
    expect(await countFor(job.id)).toBe(1);
  });

  it('lets the reviewed lawyer answer once; another lawyer or a company cannot', async () => {
    const job = await completedJob(companyB);
    const id = (await post(companyB, body(job.id))).json().data.review._id as string;
    expect((await answer(otherLawyer, id, 'Thanks')).statusCode).toBe(403);
    expect((await answer(companyB, id, 'Thanks')).statusCode).toBe(403);
    expect((await answer(admin, id, 'Thanks')).statusCode).toBe(403);
    expect((await answer(lawyer, id, '  ')).json()).toMatchObject({ status: 'fail', message: messages.enterReply });
    const first = await answer(lawyer, id, 'Thank you, glad it helped.');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.review).toMatchObject({ reply: 'Thank you, glad it helped.' });
    const second = await answer(lawyer, id, 'Edited answer');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(messages.lawyerReplyOnce);
    const [row] = await t.rt.database.db.select().from(lawyerReviews).where(eq(lawyerReviews.id, id));
    expect(row.reply).toBe('Thank you, glad it helped.');
  });

  it("shows a lawyer's average, count and reviews to every signed-in user, one job's with jobId", async () => {
    const fresh = await signupAndLogin(t, 'lawyer', { verified: true });
    const empty = await reviewsOf(companyA, fresh.id);
    expect(empty.json()).toEqual({ status: 'success', data: { average: null, count: 0, reviews: [] } });
    const j1 = await completedJob(companyA, fresh);
    const j2 = await completedJob(companyB, fresh);
    const j3 = await completedJob(companyB, fresh);
    await post(companyA, body(j1.id, { stars: 5 }));
    t.clock.advance(1000);
    await post(companyB, body(j2.id, { stars: 4 }));
    t.clock.advance(1000);
    await post(companyB, body(j3.id, { stars: 4 }));
    // Newest first; which job a review is of only to the job's company, its lawyer and admins.
    const seen = new Map([
      [companyA, [null, null, j1.id]],
      [companyB, [j3.id, j2.id, null]],
      [lawyer, [null, null, null]],
      [fresh, [j3.id, j2.id, j1.id]],
      [admin, [j3.id, j2.id, j1.id]],
    ]);
    for (const [who, jobIds] of seen) {
      const res = await reviewsOf(who, fresh.id);
      expect(res.statusCode).toBe(200);
      // (5 + 4 + 4) / 3 = 4.33 -> 4.3
      expect(res.json().data).toMatchObject({ average: 4.3, count: 3 });
      expect(res.json().data.reviews.map((r: { stars: number }) => r.stars)).toEqual([4, 4, 5]);
      expect(res.json().data.reviews.map((r: { jobId: string | null }) => r.jobId)).toEqual(jobIds);
    }
    const one = (await reviewsOf(companyA, fresh.id, `?jobId=${j1.id}`)).json().data;
    expect(one).toMatchObject({ average: 4.3, count: 3 });
    expect(one.reviews.map((r: { jobId: string }) => r.jobId)).toEqual([j1.id]);
    expect((await reviewsOf(companyA, fresh.id, '?limit=1')).json().data.reviews).toHaveLength(1);
    expect((await reviewsOf(companyA, companyB.id)).statusCode).toBe(404);
    expect((await reviewsOf(companyA, fresh.id, '?jobId=x')).statusCode).toBe(400);
    const guest = await t.app.inject({ method: 'GET', url: `/api/lawyers/${fresh.id}/reviews` });
    expect(guest.statusCode).toBe(401);
  });

  it("gives the admin each lawyer's average, count, completed jobs and on-time rate, sorted on the server", async () => {
    const [slow, starred] = [
      await signupAndLogin(t, 'lawyer', { verified: true }),
      await signupAndLogin(t, 'lawyer', { verified: true }),
    ];
    // slow: two completed jobs, one after its due date; starred: one on time, reviewed 5.
    const late = await completedJob(companyA, slow);
    await t.rt.database.db
      .update(jobs)
      .set({ dueAt: new Date(t.clock.now().getTime() - DAY) })
      .where(eq(jobs.id, late.id));
    await completedJob(companyA, slow);
    const good = await completedJob(companyB, starred);
    await post(companyB, body(good.id, { stars: 5 }));
    await post(companyA, body(late.id, { stars: 2 }));
    const open = await insertJob(t, companyA.id, { productId, appliedBy: [slow.id, starred.id] });

    const records = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/lawyer-records${query}`,
        headers: admin.headers,
      });
      expect(res.statusCode, query).toBe(200);
      return res.json() as {
        total: number;
        lawyers: Array<{
          _id: string;
          average: number | null;
          reviews: number;
          completedJobs: number;
          onTimeRate: number | null;
        }>;
      };
    };
    const applied = await records(`?jobId=${open.id}&sort=completed`);
    expect(applied.total).toBe(2);
    expect(applied.lawyers).toMatchObject([
      { _id: slow.id, average: 2, reviews: 1, completedJobs: 2, onTimeJobs: 1, onTimeRate: 0.5 },
      { _id: starred.id, average: 5, reviews: 1, completedJobs: 1, onTimeJobs: 1, onTimeRate: 1 },
    ]);
    expect((await records(`?jobId=${open.id}&sort=rating`)).lawyers.map((l) => l._id)).toEqual([starred.id, slow.id]);
    expect((await records(`?jobId=${open.id}&sort=onTime`)).lawyers.map((l) => l._id)).toEqual([starred.id, slow.id]);
    const everyone = await records('?sort=rating&limit=100');
    expect(everyone.lawyers.map((l) => l._id)).toEqual(expect.arrayContaining([slow.id, starred.id, lawyer.id]));
    const averages = everyone.lawyers.map((l) => l.average ?? -1);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
    const fresh = everyone.lawyers.find((l) => l._id === lawyer.id)!;
    expect(fresh.completedJobs).toBeGreaterThan(0);
    expect((await records('?limit=1&page=2')).lawyers).toHaveLength(1);
    for (const who of [companyA, lawyer]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/lawyer-records', headers: who.headers });
      expect(res.statusCode).toBe(403);
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/lawyer-records?sort=best',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^sort must be one of/);
  });

  it.runIf(kind === 'postgres')('makes one review of two posts at once for one job (PostgreSQL)', async () => {
    for (let round = 0; round < 5; round++) {
      const job = await completedJob(companyA);
      const answers = await Promise.all([
        post(companyA, body(job.id, { stars: 5 })),
        post(companyA, body(job.id, { stars: 1 })),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await countFor(job.id)).toBe(1);
    }
  });
  it('lets the company edit for 14 days by the clock, then refuses (409); nobody else may edit', async () => {
    const job = await completedJob(companyA);
    const id = (await post(companyA, body(job.id, { stars: 2 }))).json().data.review._id as string;
    const edit = { stars: 3, reviewTitle: 'Better after a call', review: 'The lawyer fixed the clause.' };
    expect((await patch(companyB, id, edit)).statusCode).toBe(403);
    expect((await patch(lawyer, id, edit)).statusCode).toBe(403);
    expect((await patch(admin, id, edit)).statusCode).toBe(403);
    expect((await patch(null, id, edit)).statusCode).toBe(401);
    expect((await patch(companyA, '4f1c7e2a-0000-4000-8000-000000000000', edit)).statusCode).toBe(404);
    expect((await patch(companyA, id, { ...edit, stars: 9 })).json()).toMatchObject({
      status: 'fail',
      message: messages.chooseStars,
    });
    // Last in the file: moving the clock two weeks ends every session, so the company signs in again.
    t.clock.advance(14 * DAY - 60_000);
    const company = await relogin(companyA);
    const ok = await patch(company, id, edit);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: messages.lawyerReviewUpdated, data: { review: { _id: id, ...edit } } });
    t.clock.advance(2 * 60_000);
    const late = await patch(company, id, { ...edit, stars: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(messages.lawyerReviewEditClosed);
    const [row] = await t.rt.database.db.select().from(lawyerReviews).where(eq(lawyerReviews.id, id));
    expect(row.stars).toBe(3);
  });
});
