import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, users } from '../../db/schema.js';
import {
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';
import { insertProduct } from '../../../test/commerce-helpers.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// A real 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body built by hand (no extra dependency); `files` are [field, name, type, bytes]. */
function multipart(fields: Array<[string, string]>, files: Array<[string, string, string, Buffer]> = []) {
  const boundary = `----lm${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of fields)
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const [k, name, type, data] of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
    );
    chunks.push(data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describeEachDb('company workspace', (kind) => {
  let t: TestApp;
  let a: Login;
  let b: Login;
  let nda: string;
  let tm: string;

  /** Pays through the sandbox like the browser does, so the jobs come from a real order. */
  async function buy(who: Login, lines: Array<[string, number, string?]>) {
    for (const [productId, quantity, detail] of lines) {
      await t.app.inject({
        method: 'POST',
        url: '/api/cart',
        headers: who.headers,
        payload: { productId, quantity, detail },
      });
      t.clock.advance(1000);
    }
    const c = (await t.app.inject({ method: 'POST', url: '/api/checkout', headers: who.headers })).json().data;
    const tx = (
      await t.app.inject({
        method: 'POST',
        url: '/api/checkout/sandbox/charge',
        headers: who.headers,
        payload: { reference: c.reference, amount: c.amount, currency: 'NGN', paymentType: 'ussd' },
      })
    ).json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/checkout/verify',
      headers: who.headers,
      payload: { reference: c.reference, transactionId: tx.transaction_id },
    });
    expect(res.statusCode).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signupAndLogin(t, 'company');
    b = await signupAndLogin(t, 'company');
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25000);
    tm = await insertProduct(t, 'Trademark Registration', 150000);
    await buy(a, [
      [nda, 2, 'Mutual NDA'],
      [tm, 1],
    ]);
    await buy(b, [[tm, 1, 'B only']]);
  });
  afterAll(async () => t?.close());

  const get = (who: Login, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const edit = (who: Login, jobId: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/job-api/company/editjobdetails/${jobId}`, headers: who.headers, payload });

  it('lists pending jobs (unassigned included) and completed jobs, only the company’s own', async () => {
    const pending = (await get(a, '/job-api/company/pendingjobs')).json();
    expect(pending).toHaveLength(2);
    expect(pending.map((j: { productId: { productName: string } }) => j.productId.productName).sort()).toEqual([
      'Non-Disclosure Agreement',
      'Trademark Registration',
    ]);
    expect(pending.every((j: { status: string }) => j.status === 'unassigned')).toBe(true);
    const ndaJob = pending.find((j: { productId: { _id: string } }) => j.productId._id === nda);
    expect(ndaJob).toMatchObject({ amount: 50000, quantity: 2, detail: 'Mutual NDA', companyId: { _id: a.id } });
    expect((await get(a, '/job-api/company/completedjobs')).json()).toEqual([]);

    // The database takes only the lifecycle's steps: in progress first, then completed.
    await t.rt.database.db.update(jobs).set({ status: 'pending' }).where(eq(jobs.id, ndaJob._id));
    await t.rt.database.db
      .update(jobs)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(jobs.id, ndaJob._id));
    expect((await get(a, '/job-api/company/pendingjobs')).json()).toHaveLength(1);
    const completed = (await get(a, '/job-api/company/completedjobs')).json();
    expect(completed.map((j: { _id: string }) => j._id)).toEqual([ndaJob._id]);

    const bJobs = (await get(b, '/job-api/company/pendingjobs')).json();
    expect(bJobs).toHaveLength(1);
    expect(bJobs[0].companyId._id).toBe(b.id);
  });

  it('edits job details with the spec messages, own jobs only', async () => {
    const [job] = (await get(a, '/job-api/company/pendingjobs')).json();
    const [bJob] = (await get(b, '/job-api/company/pendingjobs')).json();
    const empty = await edit(a, job._id, { detail: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(messages.kindlyAddDetails);
    expect((await edit(a, job._id, {})).json().message).toBe(messages.kindlyAddDetails);

    const logo = (await uploadDocument(t.app, a.headers, 'logo.pdf')).url;
    const ok = await edit(a, job._id, {
      detail: 'Our brand is LegalMarket',
      file: logo,
      fileName: 'logo.pdf',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'success',
      message: messages.editedSuccessfully,
      data: {
        companyDetail: 'Our brand is LegalMarket',
        companyFile: logo,
        companyFileName: 'logo.pdf',
      },
    });

    const other = await edit(a, bJob._id, { detail: 'Not mine' });
    expect(other.statusCode).toBe(404);
    const [bRow] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, bJob._id));
    expect(bRow.companyDetail).toBeNull();

    const lawyer = await signupAndLogin(t, 'lawyer');
    expect((await edit(lawyer, job._id, { detail: 'x' })).statusCode).toBe(403);
    expect((await get(lawyer, '/job-api/company/pendingjobs')).statusCode).toBe(403);
    expect((await edit(a, job._id, { detail: 'x', file: 'javascript:alert(1)' })).statusCode).toBe(400);

    const [done] = (await get(a, '/job-api/company/completedjobs')).json();
    expect((await edit(a, done._id, { detail: 'Too late' })).statusCode).toBe(409);
  });

  const patch = (
    who: Login,
    id: string,
    fields: Array<[string, string]>,
    files: Array<[string, string, string, Buffer]> = [],
  ) => {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('updates only the non-empty allowed fields of the caller’s own company profile', async () => {
    const res = await patch(
      a,
      a.id,
      [
        ['website', 'https://ada.ng'],
        ['yourBio', 'We build payment rails.'],
        ['phoneNumber', '0803-123-4567'],
        ['alternativeEmailAddress', 'Hello@Ada.ng'],
        ['officeAddress', ''],
        ['userType', 'admin'],
        ['verified', 'true'],
        ['companyName', 'Renamed'],
      ],
      [['profileImage', 'me.png', 'image/png', PNG]],
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(messages.profileUpdated);
    expect(body.company).toMatchObject({
      _id: a.id,
      userType: 'company',
      website: 'https://ada.ng',
      yourBio: 'We build payment rails.',
      phoneNumber: '08031234567',
      alternativeEmailAddress: 'hello@ada.ng',
      officeAddress: '12 Marina, Lagos',
      companyName: 'Ada Ventures Ltd',
    });
    expect(body).not.toHaveProperty('lawyer');
    expect(body.company.profileImage.url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const img = await t.app.inject({ method: 'GET', url: body.company.profileImage.url });
    expect(img.statusCode).toBe(200);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, a.id));
    expect(row.userType).toBe('company');
  });

  it("refuses another user's id, bad values, a fake image and a taken e-mail", async () => {
    const other = await patch(a, b.id, [['website', 'https://evil.ng']]);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(messages.noPermissionProfile);
    const [bRow] = await t.rt.database.db.select().from(users).where(eq(users.id, b.id));
    expect(bRow.website).toBeNull();

    expect((await patch(a, a.id, [['phoneNumber', '123']])).json().message).toBe(messages.phoneRule);
    expect((await patch(a, a.id, [['alternativeEmailAddress', 'not-an-email']])).statusCode).toBe(400);
    expect((await patch(a, a.id, [['website', 'javascript:alert(1)']])).statusCode).toBe(400);
    const html = await patch(
      a,
      a.id,
      [],
      [['profileImage', 'x.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')]],
    );
    expect(html.statusCode).toBe(415);
    // Issue 14: a taken address no longer answers 409 (that told who has an account); without the
    // current password any new address is refused, and with it a taken one answers like a free one.
    const noPassword = await patch(a, a.id, [['officialEmail', b.email]]);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe(messages.currentPasswordRequired);
    const taken = await patch(a, a.id, [
      ['officialEmail', b.email],
      ['currentPassword', 'Str0ng!Pass'],
    ]);
    expect(taken.statusCode).toBe(200);
    expect(taken.json().company.officialEmail).toBe(a.email);
  });

  it('reads the profile form with the one multipart reader: one picture at a time, as uploads answer', async () => {
    const two = await patch(
      a,
      a.id,
      [],
      [
        ['profileImage', 'a.png', 'image/png', PNG],
        ['profileImage', 'b.png', 'image/png', PNG],
      ],
    );
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe('Send one file at a time');
    const wrongField = await patch(a, a.id, [], [['picture', 'a.png', 'image/png', PNG]]);
    expect(wrongField.json().message).toBe('Send the picture as profileImage');
  });

  it('changes the official e-mail once the new address confirms, tells the old address, and the new one logs in', async () => {
    const who = await signupAndLogin(t, 'company');
    const next = uniqueEmail('moved');
    const res = await patch(who, who.id, [
      ['officialEmail', next.toUpperCase()],
      ['currentPassword', 'Str0ng!Pass'],
    ]);
    expect(res.statusCode).toBe(200);
    // Issue 14: nothing changes until the link sent to the new address is used (docs/decisions/0210).
    expect(res.json().company.officialEmail).toBe(who.email);
    expect((await lastMailTo(t, who.email))?.subject).toMatch(/sign-in address was requested/);
    const token = linkToken((await lastMailTo(t, next))!.text);
    const confirm = await t.app.inject({ method: 'POST', url: '/api/confirm-email-change', payload: { token } });
    expect(confirm.statusCode).toBe(200);
    expect((await lastMailTo(t, who.email))?.subject).toMatch(/sign-in address was changed/);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: next, password: 'Str0ng!Pass' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('lets a lawyer update its own profile with repeated areasOfPractise', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const res = await patch(lawyer, lawyer.id, [
      ['scn', 'SCN999'],
      ['yearOfCall', '2015'],
      ['areasOfPractise', 'Maritime'],
      ['areasOfPractise', 'Technology'],
      ['verified', 'true'],
      ['website', 'https://ignored.ng'],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().lawyer).toMatchObject({
      _id: lawyer.id,
      scn: 'SCN999',
      yearOfCall: '2015',
      areasOfPractise: ['Maritime', 'Technology'],
      verified: false,
    });
    expect((await patch(lawyer, lawyer.id, [['areasOfPractise', 'Cooking']])).statusCode).toBe(400);
    expect((await patch(lawyer, a.id, [['scn', 'x']])).statusCode).toBe(403);
  });

  it('clears every area of practice when the list is sent empty, and keeps it when left out', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const areasOf = async () =>
      (await t.rt.database.db.select().from(users).where(eq(users.id, lawyer.id)))[0].areasOfPractise;
    expect((await patch(lawyer, lawyer.id, [['areasOfPractise', 'Maritime']])).statusCode).toBe(200);
    expect(await areasOf()).toEqual(['Maritime']);
    // Left out: unchanged.
    expect((await patch(lawyer, lawyer.id, [['scn', 'SCN123']])).statusCode).toBe(200);
    expect(await areasOf()).toEqual(['Maritime']);
    // Sent empty: cleared (before, an empty list was silently ignored).
    expect((await patch(lawyer, lawyer.id, [['areasOfPractise', '']])).statusCode).toBe(200);
    expect(await areasOf()).toEqual([]);
    // A bad value next to an empty one is still refused, naming the field in words.
    const bad = await patch(lawyer, lawyer.id, [
      ['areasOfPractise', ''],
      ['areasOfPractise', 'Cooking'],
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Areas of practice: Cooking is not in the expertise list');
  });

  it('GET /api/company/{id} is for admins only', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const res = await get(admin, `/api/company/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().company).toMatchObject({ _id: a.id, companyName: 'Ada Ventures Ltd', userType: 'company' });
    expect(JSON.stringify(res.json())).not.toMatch(/password/i);
    expect((await get(b, `/api/company/${a.id}`)).statusCode).toBe(403);
    expect((await get(admin, `/api/company/${admin.id}`)).statusCode).toBe(404);
  });
});
