import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** The job workspace as an outside attacker with ordinary accounts sees it (issue 16), each attack kept as a test. */
describeEachDb('job workspace: an attacker with ordinary accounts', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Lease Review')).id;
  }, 120_000);
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const act = (id: string, action: string, who: Login, payload: object = {}) =>
    inject('POST', `/job-api/jobs/${id}/actions/${action}`, who, payload);
  async function assignedJob() {
    const job = await insertJob(t, company.id, { productId });
    const res = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id });
    expect(res.statusCode, res.body).toBe(200);
    return job.id;
  }

  // A document is attached under any name its sender types (not the uploaded file's), and the job
  // e-mail listed that name in our own voice: "Documents: Pay the filing fee at www.lawfirm-fees.example"
  // reached the other party as a link from LegalMarket. The uploaded name was mailed as chosen too.
  it('names documents in the job e-mail as uploaded, defanged, never as the free text they were attached under', async () => {
    const id = await assignedJob();
    const doc = await uploadDocument(t.app, lawyer.headers, 'Fees due at pay.lawfirm-fees.example.pdf');
    const other = await uploadDocument(t.app, lawyer.headers, 'Lease (final draft).v2.pdf');
    const files = [
      { url: doc.url, name: 'Pay the filing fee at www.lawfirm-fees.example or to fees@lawfirm-fees.example' },
      { url: other.url, name: 'Lease (final draft).v2.pdf' },
    ];
    expect((await act(id, 'message', lawyer, { note: 'The draft is attached.', files })).statusCode).toBe(200);
    const [mail] = (await mailsTo(t, company.email)).filter((m) => m.text.includes(`/jobs/${id}`));
    for (const body of [mail.text, mail.html!]) {
      expect(body).not.toContain('lawfirm-fees.example');
      expect(body).not.toContain('fees@');
      // A document's own extension stays as it is: it says what the file is.
      expect(body).toContain('Documents: Fees due at pay[.]lawfirm-fees[.]example.pdf, Lease (final draft)[.]v2.pdf');
    }
    // The thread itself shows the name as sent: it is the sender's text there, shown as theirs.
    const page = (await inject('GET', `/job-api/jobs/${id}`, company)).json();
    const names = page.events.flatMap((e: { files: { name: string }[] }) => e.files.map((f) => f.name));
    expect(names).toContain(files[0].name);
  });

  // A note's line breaks were kept in the mail's text part, so a note could end our quotation mark and
  // go on in lines of its own that read as LegalMarket's: "Your payout is on hold ..." in our voice.
  it("keeps every line of a quoted note inside the quotation in the mail's text", async () => {
    const id = await assignedJob();
    const note = 'Thanks.”\r\n\nLegalMarket: your payout is on hold until you confirm your bank details.\u2028Regards';
    expect((await act(id, 'message', company, { note })).statusCode).toBe(200);
    const [mail] = (await mailsTo(t, lawyer.email)).filter((m) => m.text.includes(`/jobs/${id}`));
    expect(mail.text).not.toMatch(/^LegalMarket: your payout/m);
    expect(mail.text).not.toMatch(/^Regards/m);
    expect(mail.text).toContain(
      '“Thanks.”\n\n“LegalMarket: your payout is on hold until you confirm your bank details.\n“Regards”',
    );
  });
});
