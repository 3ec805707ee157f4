import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, signupAndLogin, type DbKind, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

export type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The app the job-flow tests build in beforeAll: an admin, a company and a verified lawyer signed up
 * together, and a product by `productName`; closed in afterAll. `beforeSignups` runs on the new app
 * first (a test that moves the clock before anyone signs in). Call it inside the describe block.
 */
export function jobFlowSuite(kind: DbKind, productName: string, beforeSignups?: (t: TestApp) => void) {
  const ctx = {} as { t: TestApp; admin: Login; company: Login; lawyer: Login; productId: string };
  beforeAll(async () => {
    ctx.t = await createTestApp(kind);
    beforeSignups?.(ctx.t);
    [ctx.admin, ctx.company, ctx.lawyer] = await Promise.all([
      signupAndLogin(ctx.t, 'admin'),
      signupAndLogin(ctx.t, 'company'),
      signupAndLogin(ctx.t, 'lawyer', { verified: true }),
    ]);
    ctx.productId = (await insertProduct(ctx.t, productName)).id;
  });
  afterAll(() => ctx.t.close());

  const act = (id: string, action: string, who: Login, payload: Record<string, unknown> = {}) =>
    ctx.t.app.inject({ method: 'POST', url: `/job-api/jobs/${id}/actions/${action}`, headers: who.headers, payload });

  /** The company's job for the product, assigned to the lawyer by the admin. */
  async function assignedJob() {
    const job = await insertJob(ctx.t, ctx.company.id, { productId: ctx.productId });
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: ctx.admin.headers,
      payload: { jobId: job.id, lawyerId: ctx.lawyer.id },
    });
    expect(res.statusCode).toBe(200);
    return job.id;
  }

  /** The lawyer uploads `fileName` and delivers it on the job. */
  async function deliver(id: string, fileName: string) {
    const doc = await uploadDocument(ctx.t.app, ctx.lawyer.headers, fileName);
    expect((await act(id, 'deliver', ctx.lawyer, { files: [{ url: doc.url, name: fileName }] })).statusCode).toBe(200);
  }

  /** An assigned job the lawyer has delivered `fileName` on: its auto-acceptance timer stands. */
  async function deliveredJob(fileName: string) {
    const id = await assignedJob();
    await deliver(id, fileName);
    return id;
  }

  return { ctx, act, assignedJob, deliver, deliveredJob };
}
