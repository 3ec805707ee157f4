import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema.js';
import { createTestApp, PASSWORD, signupAndLogin, type DbKind, type TestApp } from '../../../test/helpers.js';
import { buyOne, insertProduct } from '../../../test/commerce-helpers.js';
import { pdfBytes, uploadAs } from '../../../test/upload-helpers.js';

export type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The steps the hand-over tests (decisions 2310, 2316) share: a paid job, the admin's assignment, a
 * lawyer's or company's action and upload. `ctx` is read at call time, as the app is built in beforeAll.
 */
export function handOverKit(ctx: () => { t: TestApp; admin: Login; product: string }) {
  const db = () => ctx().t.rt.database.db;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login, payload?: unknown) =>
    ctx().t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
  const act = (who: Login, jobId: string, action: string, body: Record<string, unknown> = {}) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/${action}`, who, body);
  const login = async (email: string, id: string): Promise<Login> => {
    const res = await ctx().t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { token: string }).token;
    return { email, id, token, headers: { authorization: `Bearer ${token}` } };
  };
  const assign = (jobId: string, lawyerId: string) =>
    inject('POST', '/job-api/assign', ctx().admin, { jobId, lawyerId });

  async function pay(company: Login) {
    const { orderId } = await buyOne(ctx().t, company, ctx().product);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job;
  }

  const upload = (who: Login, text: string) =>
    uploadAs(ctx().t.app, who.headers, 'document', pdfBytes(text), `${text}.pdf`);

  return { db, inject, act, login, assign, pay, upload };
}

/**
 * The app each hand-over test file builds in beforeAll (an admin and a Share Transfer at 50,000 kobo),
 * closed in afterAll, with the kit's steps bound to it. Call it inside the describe block.
 */
export function handOverSuite(kind: DbKind) {
  const ctx = {} as { t: TestApp; admin: Login; product: string };
  beforeAll(async () => {
    ctx.t = await createTestApp(kind);
    ctx.admin = await signupAndLogin(ctx.t, 'admin');
    ctx.product = await insertProduct(ctx.t, 'Share Transfer', 50_000);
  });
  afterAll(() => ctx.t.close());

  /** A company, then `lawyers` verified lawyers, signed up in that order. */
  async function companyAndLawyers(lawyers: number): Promise<Login[]> {
    const people = [await signupAndLogin(ctx.t, 'company')];
    for (let i = 0; i < lawyers; i++) people.push(await signupAndLogin(ctx.t, 'lawyer', { verified: true }));
    return people;
  }

  return { ctx, companyAndLawyers, ...handOverKit(() => ctx) };
}
