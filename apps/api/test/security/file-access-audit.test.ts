import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, uploads, users } from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { multipart, pngBytes, pdfBytes, uploadDocument, type Part } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The file audit of decision 2230, played with a valid account of each role. What held is listed in
 * the decision; the first test keeps what held, the others the three places where it did not.
 */
describeEachDb('file access audit (2230)', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let product: string;

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const link = (who: Login, key: string) => inject('GET', `/api/files/${key}/link`, who);
  const delete_ = (who: Login) => inject('POST', '/api/account/delete', who, { password: PASSWORD });

  /**
   * Sends a multipart form whose last bytes arrive only after `meanwhile` ran: the session was checked
   * when the request began, as a slow upload's is.
   */
  async function sendHeldOpen(
    who: Login,
    method: 'POST' | 'PATCH',
    url: string,
    parts: Part[],
    meanwhile: () => Promise<void>,
  ) {
    const body = await multipart(parts);
    const stream = new PassThrough();
    const cut = body.payload.length - 16;
    stream.write(body.payload.subarray(0, cut));
    const answer = t.app.inject({ method, url, headers: { ...who.headers, ...body.headers }, payload: stream });
    // The request is past its guards and reading the body.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await meanwhile();
    stream.end(body.payload.subarray(cut));
    return answer;
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    product = (await insertProduct(t, 'Share Purchase Agreement Review')).id;
  }, 120_000);
  afterAll(async () => t?.close());

  // What held (decision 2230), kept as it is: another company's document under every spelling of its
  // address, as a reference and as a request, opens nothing and is never answered in part.
  it('opens another company’s document under no spelling, method or reference', async () => {
    const owner = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, owner.headers, 'spa.pdf', 'SHARE PURCHASE AGREEMENT');
    const job = await insertJob(t, other.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'in_progress' }).where(eq(jobs.id, job.id));

    for (const method of ['GET', 'HEAD'] as const)
      for (const url of [
        doc.url,
        `${doc.url}?x=1`,
        `/uploads/%2e%2e/uploads/${doc.key}`,
        doc.url.replace(/\.pdf$/, '%2epdf'),
      ]) {
        const guest = await t.app.inject({ method, url });
        const stranger = await t.app.inject({ method, url, headers: { ...other.headers, range: 'bytes=0-8' } });
        expect([guest.statusCode, stranger.statusCode], `${method} ${url}`).toEqual([401, 403]);
        expect(stranger.body).not.toContain('SHARE PURCHASE');
      }
    for (const url of [`${doc.url}/`, `/uploads//${doc.key}`, doc.url.toUpperCase(), `${doc.url}%2f`]) {
      const res = await t.app.inject({ url, headers: other.headers });
      expect(res.headers['content-type'], url).not.toBe('application/pdf');
      expect(res.body, url).not.toContain('SHARE PURCHASE');
    }

    const refused = async (file: string) => [
      (
        await inject('POST', `/job-api/jobs/${job.id}/actions/message`, other, {
          note: 'x',
          files: [{ url: file, name: 'a.pdf' }],
        })
      ).statusCode,
      (
        await inject('POST', `/job-api/jobs/${job.id}/actions/deliver`, lawyer, {
          note: 'x',
          files: [{ url: file, name: 'a.pdf' }],
        })
      ).statusCode,
      (
        await inject('PUT', `/job-api/company/editjobdetails/${job.id}`, other, {
          detail: 'x',
          file,
          fileName: 'a.pdf',
        })
      ).statusCode,
    ];
    for (const file of [doc.url, `http://localhost:3000${doc.url}`, `https://evil.example${doc.url}`])
      expect(await refused(file), file).toEqual([403, 403, 403]);
    for (const file of [`${doc.url}?`, `/uploads/./${doc.key}`, `/uploads/${doc.key.toUpperCase()}`])
      expect(await refused(file), file).toEqual([400, 400, 400]);
    // A link elsewhere whose path ends in the key is kept as a link, and opens nothing.
    const elsewhere = `https://evil.example/x${doc.url}`;
    const kept = await inject('PUT', `/job-api/company/editjobdetails/${job.id}`, other, {
      detail: 'See the link',
      file: elsewhere,
      fileName: 'spa.pdf',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await link(other, doc.key)).statusCode).toBe(403);
    expect((await link(lawyer, doc.key)).statusCode).toBe(403);
  });

  // A document still arriving when its account is erased (another tab, a slow phone) must not outlive
  // the erasure, owned by nobody and readable by admins.
  it('keeps no document of an account erased while its upload was arriving', async () => {
    const company = await signupAndLogin(t, 'company');
    const res = await sendHeldOpen(
      company,
      'POST',
      '/api/uploads?kind=document',
      [{ name: 'file', file: { data: pdfBytes('BOARD MINUTES'), filename: 'minutes.pdf', type: 'application/pdf' } }],
      async () => expect((await delete_(company)).statusCode).toBe(200),
    );
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toBe(messages.notSignedIn);
    expect(await t.rt.database.db.select().from(uploads).where(eq(uploads.ownerId, company.id))).toEqual([]);
  });

  // A slow profile form whose account was erased meanwhile must save nothing onto the erased row.
  it('writes no profile or picture onto an account erased while the form was arriving', async () => {
    // A picture sent as the address of a public one (the form may send an address or a file).
    const picture = await multipart([
      { name: 'file', file: { data: pngBytes(), filename: 'me.png', type: 'image/png' } },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=image',
      headers: { ...admin.headers, ...picture.headers },
      payload: picture.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const sent: Part[][] = [
      [
        { name: 'yourBio', value: 'Partner at Adeyemi & Co, Lagos' },
        { name: 'profileImage', value: uploaded.json().data.url },
      ],
      [{ name: 'profileImage', file: { data: pngBytes(), filename: 'me.png', type: 'image/png' } }],
    ];
    // Each form from its own account, erased while that form arrives.
    for (const parts of sent) {
      const who = await signupAndLogin(t, 'lawyer');
      const res = await sendHeldOpen(who, 'PATCH', `/api/updateprofile?_id=${who.id}`, parts, async () => {
        expect((await delete_(who)).statusCode).toBe(200);
      });
      expect(res.statusCode, res.body).toBe(401);
      const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, who.id));
      expect(row.deletedAt).not.toBeNull();
      expect([row.yourBio, row.profileImage]).toEqual([null, null]);
      expect(await t.rt.database.db.select().from(uploads).where(eq(uploads.ownerId, who.id))).toEqual([]);
    }
  });

  // A document given by its full address (a client that prefixes the site's host) is one of ours: the
  // thread must keep opening it for the job's other party after a later file replaces it.
  it('keeps opening a document given by its full address after the job’s file is replaced', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await insertJob(t, company.id, { productId: product, status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db.update(jobs).set({ stage: 'in_progress' }).where(eq(jobs.id, job.id));
    const give = (file: string) =>
      inject('PUT', `/job-api/company/editjobdetails/${job.id}`, company, {
        detail: 'Attached',
        file,
        fileName: 'x.pdf',
      });
    const add = (file: string) =>
      inject('PUT', `/job-api/editjobdetails/${job.id}`, admin, { detail: 'Checklist', file, fileName: 'c.pdf' });

    const first = await uploadDocument(t.app, company.headers, 'first-draft.pdf');
    const second = await uploadDocument(t.app, company.headers, 'second-draft.pdf');
    expect((await give(`http://localhost:3000${first.url}`)).statusCode).toBe(200);
    expect((await give(second.url)).statusCode).toBe(200);
    const checklist = await uploadDocument(t.app, admin.headers, 'checklist.pdf');
    const update = await uploadDocument(t.app, admin.headers, 'checklist-2.pdf');
    expect((await add(`https://legalmarket.example${checklist.url}`)).statusCode).toBe(200);
    expect((await add(update.url)).statusCode).toBe(200);

    const page = await inject('GET', `/job-api/jobs/${job.id}`, lawyer);
    const shown = (page.json().events as { files: { url: string }[] }[]).flatMap((e) => e.files.map((f) => f.url));
    expect(shown).toEqual(expect.arrayContaining([first.url, checklist.url]));
    expect((await link(lawyer, first.key)).statusCode).toBe(200);
    expect((await link(lawyer, checklist.key)).statusCode).toBe(200);
    expect((await link(company, checklist.key)).statusCode).toBe(200);
    // Nobody else: the address names the document, it does not share it.
    const other = await signupAndLogin(t, 'company');
    expect((await link(other, first.key)).statusCode).toBe(403);
  });
});
