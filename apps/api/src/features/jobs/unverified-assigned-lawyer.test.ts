import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, insertProduct } from '../../../test/commerce-helpers.js';
import { multipart, pdfBytes } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// A lawyer whose verification is withdrawn while assigned (decision 2310): reads the job, adds nothing
// to it; the company keeps the work; an admin passes the job to another verified lawyer.
describeEachDb('a lawyer who loses verification while assigned to a job', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Share Transfer', 50_000);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login, payload?: unknown) =>
    t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
  const act = (who: Login, jobId: string, action: string, body: Record<string, unknown> = {}) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/${action}`, who, body);
  const login = async (email: string, id: string): Promise<Login> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { token: string }).token;
    return { email, id, token, headers: { authorization: `Bearer ${token}` } };
  };
  const assign = (jobId: string, lawyerId: string) => inject('POST', '/job-api/assign', admin, { jobId, lawyerId });

  async function pay(company: Login) {
    expect((await inject('POST', '/api/cart', company, { productId: product, quantity: 1 })).statusCode).toBeLessThan(
      300,
    );
    const started = await inject('POST', '/api/checkout', company);
    const { reference, amount, orderId } = started.json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job;
  }

  async function upload(who: Login, text: string) {
    const body = await multipart([
      { name: 'kind', value: 'document' },
      { name: 'file', file: { data: pdfBytes(text), filename: `${text}.pdf`, type: 'application/pdf' } },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...body.headers, ...who.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const saved = res.json().data as { url: string; fileName: string };
    return { url: saved.url, name: saved.fileName };
  }

  const page = async (who: Login, jobId: string) => {
    const res = await inject('GET', `/job-api/jobs/${jobId}`, who);
    return { status: res.statusCode, body: res.statusCode === 200 ? (res.json() as Record<string, unknown>) : null };
  };
  const deliveredFiles = (body: Record<string, unknown> | null) =>
    ((body?.events ?? []) as Array<{ action: string; files: Array<{ name: string }> }>)
      .filter((e) => e.action.startsWith('deliver'))
      .flatMap((e) => e.files.map((f) => f.name));

  it('cannot deliver or write on the job, keeps its work with the job, and an admin passes it on', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: 'Ada First' }).where(eq(users.id, first.id));
    await db().update(users).set({ name: 'Bola Second' }).where(eq(users.id, second.id));
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'FIRST-DRAFT')] })).statusCode).toBe(200);
    expect((await act(company, job.id, 'request_changes', { note: 'Add the board resolution.' })).statusCode).toBe(200);
    // While the lawyer is verified, the job is not passed on.
    expect((await assign(job.id, second.id)).json()).toMatchObject({ message: messages.jobAlreadyAssigned });

    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    const withdrawn = await login(first.email, first.id);

    for (const [action, body] of [
      ['deliver_again', { files: [await upload(withdrawn, 'SECOND-DRAFT')] }],
      ['message', { note: 'I am still on it.' }],
      ['request_details', { note: 'Which board?' }],
    ] as const) {
      const res = await act(withdrawn, job.id, action, body);
      expect(res.statusCode, action).toBe(403);
      expect(res.json()).toMatchObject({ message: messages.assignedLawyerUnverified });
    }
    const asked = await inject('POST', `/job-api/requestmorejobdetails/${job.id}`, withdrawn, {
      detail: 'Which board?',
    });
    expect(asked.statusCode).toBe(403);
    // The lawyer still reads the job, with no action offered; the company still has the first draft.
    const read = await page(withdrawn, job.id);
    expect(read.status).toBe(200);
    expect(read.body?.actions).toEqual([]);
    expect(deliveredFiles((await page(company, job.id)).body)).toEqual(['FIRST-DRAFT.pdf']);

    // The admin passes the job to a verified lawyer (never to the withdrawn one).
    expect((await assign(job.id, first.id)).json()).toMatchObject({ message: messages.lawyerNotVerifiedForAssign });
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    const [moved] = await db().select().from(jobs).where(eq(jobs.id, job.id));
    expect(moved).toMatchObject({ assignedTo: second.id, stage: 'changes_requested' });
    expect((await page(withdrawn, job.id)).status).toBe(403);
    const seen = await page(second, job.id);
    expect(deliveredFiles(seen.body)).toEqual(['FIRST-DRAFT.pdf']);
    expect((await act(second, job.id, 'deliver_again', { files: [await upload(second, 'FINAL')] })).statusCode).toBe(
      200,
    );
    expect((await act(company, job.id, 'accept', {})).statusCode).toBe(200);

    // The withdrawn lawyer deletes the account: the company's "assigned to" notice of it loses the name,
    // the second lawyer's stays.
    expect((await inject('POST', '/api/account/delete', withdrawn, { password: PASSWORD })).statusCode).toBe(200);
    const texts = (
      (await inject('GET', '/api/notifications', company)).json().notifications as Array<{
        jobId: string;
        action: string;
        text: string;
      }>
    )
      .filter((n) => n.jobId === job.id && n.action === 'assign')
      .map((n) => n.text);
    expect(texts).toEqual(['Share Transfer is assigned to Bola Second', 'Share Transfer is assigned to Deleted user']);
  });

  it('a delivered job waits for the company before it is passed on', async () => {
    const company = await signupAndLogin(t, 'company');
    const first = await signupAndLogin(t, 'lawyer', { verified: true });
    const second = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'DRAFT')] })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(200);
    const res = await assign(job.id, second.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: messages.reassignDelivered });
  });
});
