import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobPageResponse } from '@legalmarket/contracts';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Outside tenancy audit of the job workspace: who a job's thread shows, and bad input on its read mark.
 */
describeEachDb('job workspace tenancy audit', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let rival: Login;
  let jobId: string;

  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    company = await signupAndLogin(t, 'company');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    rival = await signupAndLogin(t, 'lawyer', { verified: true });
    const productId = (await insertProduct(t, 'Share Purchase Agreement Review')).id;
    jobId = (await insertJob(t, company.id, { productId })).id;
    for (const who of [rival, lawyer])
      expect((await inject('POST', `/job-api/applyforjob/${jobId}`, who)).statusCode).toBe(200);
    const assigned = await inject('POST', '/job-api/assign', admin, { jobId, lawyerId: lawyer.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }, 120_000);
  afterAll(async () => t?.close());

  // Decision 0301: "other applicants are never shown (only admins see appliedLawer)"; the job view
  // honours it (appliedLawer is [] for the company and the lawyer), but the thread's `apply` events
  // named every applicant, with their user id, to the company and to the lawyer who got the job. The
  // timeline keeps the count of applications (issue 16), each as "A lawyer applied".
  it('names who applied for a job to admins only; its company and assigned lawyer see how many applied', async () => {
    const anonymous = { _id: null, name: 'A lawyer' };
    for (const who of [company, lawyer]) {
      const page = await inject('GET', `/job-api/jobs/${jobId}`, who);
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json() as JobPageResponse;
      expect(body.job.appliedLawer).toEqual([]);
      const applied = body.events.filter((e) => e.action === 'apply');
      expect(applied.map((e) => ({ _id: e.actor._id, name: e.actor.name }))).toEqual([anonymous, anonymous]);
      expect(page.body).not.toContain(rival.id);
      const polled = await inject('GET', `/job-api/jobs/${jobId}/events?after=0`, who);
      expect(polled.statusCode, polled.body).toBe(200);
      expect(polled.body).not.toContain(rival.id);
      const polledApplied = (polled.json() as { events: JobPageResponse['events'] }).events.filter(
        (e) => e.action === 'apply',
      );
      expect(polledApplied.map((e) => ({ _id: e.actor._id, name: e.actor.name }))).toEqual([anonymous, anonymous]);
      const earlier = await inject('GET', `/job-api/jobs/${jobId}/events?before=${Number.MAX_SAFE_INTEGER}`, who);
      expect(earlier.statusCode, earlier.body).toBe(200);
      expect(earlier.body).not.toContain(rival.id);
    }
    // Admins choose among the applicants: they still see them, in the view and in the thread.
    const asAdmin = (await inject('GET', `/job-api/jobs/${jobId}`, admin)).json() as JobPageResponse;
    expect(
      asAdmin.events
        .filter((e) => e.action === 'apply')
        .map((e) => e.actor._id)
        .sort(),
    ).toEqual([lawyer.id, rival.id].sort());
  });

  // The read mark's id is a string of digits without a length bound: past bigint it reached the
  // database and answered 500 (Number('1e20') out of range, or Infinity for 400 digits).
  it('answers 400, never 500, to a read mark past any event id', async () => {
    for (const lastEventId of ['99999999999999999999', `1${'0'.repeat(400)}`]) {
      const res = await inject('POST', `/job-api/jobs/${jobId}/read`, company, { lastEventId });
      expect(res.statusCode, res.body).toBe(400);
    }
    const ok = await inject('POST', `/job-api/jobs/${jobId}/read`, company, { lastEventId: '1' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('names what is missing when a lawyer or company asks for a job that is not theirs to see', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [who, method, url] of [
      [rival, 'GET', `/job-api/job/${jobId}`],
      [rival, 'GET', `/job-api/job/${unknown}`],
      [rival, 'POST', `/job-api/applyforjob/${unknown}`],
    ] as const) {
      const res = await inject(method, url, who);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('Job not found');
    }
  });

  it('keeps a read mark at the newest event, so what is written after it stays unread', async () => {
    const far = await inject('POST', `/job-api/jobs/${jobId}/read`, company, { lastEventId: '999999999999999' });
    expect(far.statusCode, far.body).toBe(200);
    const sent = await inject('POST', `/job-api/jobs/${jobId}/actions/message`, lawyer, { note: 'A question' });
    expect(sent.statusCode, sent.body).toBe(200);
    const page = (await inject('GET', `/job-api/jobs/${jobId}`, company)).json() as JobPageResponse;
    const message = page.events.find((e) => e.action === 'message' && e.note === 'A question')!;
    expect(Number(page.lastReadEventId)).toBeLessThan(Number(message._id));
  });
});
