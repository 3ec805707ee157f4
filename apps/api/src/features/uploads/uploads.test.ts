import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { testConfig } from '../../config.js';
import { cartItems, jobs, orders, products, uploads } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import {
  docBytes,
  docxBytes,
  htmlBytes,
  jpegBytes,
  multipart,
  pdfBytes,
  pngBytes,
  svgBytes,
  webpBytes,
} from '../../../test/upload-helpers.js';

type Headers = Record<string, string>;
const IMAGE_LIMIT = 20_000;
const DOCUMENT_LIMIT = 40_000;

describe('upload limits configuration', () => {
  it('defaults to 5 MB for images and 10 MB for documents', () => {
    const c = testConfig();
    expect(c.UPLOAD_MAX_IMAGE_BYTES).toBe(5 * 1024 * 1024);
    expect(c.UPLOAD_MAX_DOCUMENT_BYTES).toBe(10 * 1024 * 1024);
  });
});

describeEachDb('uploads', (kind) => {
  let t: TestApp;
  let company: Awaited<ReturnType<typeof signupAndLogin>>;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      UPLOAD_MAX_IMAGE_BYTES: String(IMAGE_LIMIT),
      UPLOAD_MAX_DOCUMENT_BYTES: String(DOCUMENT_LIMIT),
    });
    company = await signupAndLogin(t, 'company');
  });
  afterAll(() => t.close());

  async function upload(
    headers: Headers | undefined,
    file: { data: Buffer; filename: string; type?: string },
    kindValue?: 'image' | 'document',
    via: 'query' | 'field' = 'query',
  ) {
    const body = await multipart([
      ...(kindValue && via === 'field' ? [{ name: 'kind', value: kindValue }] : []),
      { name: 'file', file },
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/uploads${kindValue && via === 'query' ? `?kind=${kindValue}` : ''}`,
      headers: { ...body.headers, ...headers },
      payload: body.payload,
    });
  }

  it('refuses a guest', async () => {
    const res = await upload(undefined, { data: pngBytes(), filename: 'a.png' }, 'image');
    expect(res.statusCode).toBe(401);
    expect(res.json().status).toBe('fail');
    expect(await t.rt.database.db.select().from(uploads)).toHaveLength(0);
  });

  it('stores an image under a random key, answers its name and URL, and serves it publicly with safe headers', async () => {
    const data = pngBytes(8, 8);
    const res = await upload(company.headers, { data, filename: 'Our Logo (final).png', type: 'image/png' }, 'image');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe('success');
    expect(body.data.fileName).toBe('Our Logo (final).png');
    expect(body.data.url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    expect(body.data.url).not.toContain('Logo');
    const key = body.data.url.split('/').pop();
    const [row] = await t.rt.database.db.select().from(uploads).where(eq(uploads.key, key));
    expect(row).toMatchObject({ kind: 'image', contentType: 'image/png', size: data.length, ownerId: company.id });

    const served = await t.app.inject({ method: 'GET', url: body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(Buffer.compare(served.rawPayload, data)).toBe(0);
  });

  it('accepts JPEG and WebP images, with kind sent as a form field too', async () => {
    const jpg = await upload(company.headers, { data: jpegBytes(), filename: 'me.jpeg' }, 'image', 'field');
    expect(jpg.statusCode).toBe(201);
    expect(jpg.json().data).toMatchObject({ contentType: 'image/jpeg', kind: 'image' });
    expect(jpg.json().data.url).toMatch(/\.jpg$/);
    const webp = await upload(company.headers, { data: webpBytes(), filename: 'me.webp' }, 'image');
    expect(webp.statusCode).toBe(201);
    expect(webp.json().data.contentType).toBe('image/webp');
  });

  it('refuses an HTML page named x.png, as an image and as a document', async () => {
    for (const k of ['image', 'document'] as const) {
      const res = await upload(company.headers, { data: htmlBytes(), filename: 'x.png', type: 'image/png' }, k);
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe(k === 'image' ? messages.imageTypeRefused : messages.documentTypeRefused);
    }
  });

  it('refuses an SVG carrying a script, whatever it is called', async () => {
    for (const filename of ['logo.svg', 'logo.png']) {
      const res = await upload(company.headers, { data: svgBytes(), filename, type: 'image/svg+xml' }, 'image');
      expect(res.statusCode).toBe(415);
      const doc = await upload(company.headers, { data: svgBytes(), filename, type: 'image/svg+xml' }, 'document');
      expect(doc.statusCode).toBe(415);
    }
  });

  it('refuses a PDF where an image is expected, and an empty or missing file', async () => {
    const pdf = await upload(company.headers, { data: pdfBytes(), filename: 'scan.png' }, 'image');
    expect(pdf.statusCode).toBe(415);
    const empty = await upload(company.headers, { data: Buffer.alloc(0), filename: 'empty.pdf' }, 'document');
    expect(empty.statusCode).toBe(400);
    const body = await multipart([{ name: 'kind', value: 'document' }]);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...body.headers, ...company.headers },
      payload: body.payload,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(messages.chooseFile);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: company.headers,
      payload: { a: 1 },
    });
    expect(json.statusCode).toBe(415);
  });

  it('accepts PDF, DOCX, DOC and pictures as documents; refuses another OLE file', async () => {
    const cases: Array<[Buffer, string, string]> = [
      [pdfBytes(), 'brief.pdf', 'application/pdf'],
      [docxBytes(), 'agreement.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [docBytes(), 'old-agreement.doc', 'application/msword'],
      [pngBytes(), 'scan.png', 'image/png'],
    ];
    for (const [data, filename, type] of cases) {
      const res = await upload(company.headers, { data, filename }, 'document');
      expect(res.statusCode, filename).toBe(201);
      expect(res.json().data).toMatchObject({ fileName: filename, contentType: type, kind: 'document' });
    }
    const xls = await upload(company.headers, { data: docBytes(), filename: 'numbers.xls' }, 'document');
    expect(xls.statusCode).toBe(415);
  });

  it('answers 413 over the size limits of each kind', async () => {
    const big = pngBytes(4, 4, IMAGE_LIMIT + 10);
    const img = await upload(company.headers, { data: big, filename: 'big.png' }, 'image');
    expect(img.statusCode).toBe(413);
    expect(img.json().message).toMatch(/too large/);
    // The same bytes fit the larger document limit.
    const asDoc = await upload(company.headers, { data: big, filename: 'big.png' }, 'document');
    expect(asDoc.statusCode).toBe(201);
    const tooBigDoc = await upload(
      company.headers,
      { data: pngBytes(4, 4, DOCUMENT_LIMIT + 10), filename: 'big.png' },
      'document',
    );
    expect(tooBigDoc.statusCode).toBe(413);
    // A declared length far past the limit is refused before the body is read.
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?kind=image',
      headers: {
        ...company.headers,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(50_000_000),
      },
      payload: Buffer.from('--x\r\n'),
    });
    expect(early.statusCode).toBe(413);
    const keys = (await t.rt.database.db.select().from(uploads)).filter(
      (u) => u.size > IMAGE_LIMIT && u.kind === 'image',
    );
    expect(keys).toHaveLength(0);
  });

  describe('confidential documents', () => {
    let doc: { url: string; key: string };
    let other: Awaited<ReturnType<typeof signupAndLogin>>;
    let admin: Awaited<ReturnType<typeof signupAndLogin>>;
    let lawyer: Awaited<ReturnType<typeof signupAndLogin>>;
    beforeAll(async () => {
      const res = await upload(
        company.headers,
        { data: pdfBytes('secret terms'), filename: 'Térms; (v2).pdf' },
        'document',
      );
      doc = { url: res.json().data.url, key: res.json().data.url.split('/').pop() };
      other = await signupAndLogin(t, 'company');
      admin = await signupAndLogin(t, 'admin');
      lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    });

    const link = (headers: Headers | undefined) =>
      t.app.inject({ method: 'GET', url: `/api/files/${doc.key}/link`, headers });

    it('is not served to a guest or to another company, even with a bearer header', async () => {
      expect((await t.app.inject({ method: 'GET', url: doc.url })).statusCode).toBe(401);
      expect((await link(undefined)).statusCode).toBe(401);
      expect((await link(other.headers)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: doc.url, headers: other.headers })).statusCode).toBe(403);
      expect((await link(lawyer.headers)).statusCode).toBe(403);
    });

    it('is served to its uploader through a short-lived signed link, as an attachment', async () => {
      const res = await link(company.headers);
      expect(res.statusCode).toBe(200);
      const url = res.json().data.url as string;
      expect(url.startsWith(`${doc.url}?t=`)).toBe(true);
      const file = await t.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="T_rms; (v2).pdf"; filename*=UTF-8''T%C3%A9rms%3B%20%28v2%29.pdf`,
      );
      expect(file.headers['cache-control']).toBe('private, no-store');
      expect(file.body).toContain('secret terms');
      // A forged or altered token opens nothing.
      const forged = url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(401);
      const otherKeyUrl = url.replace(
        doc.key,
        doc.key.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      );
      expect((await t.app.inject({ method: 'GET', url: otherKeyUrl })).statusCode).toBe(404);
      // After five minutes the link is dead.
      t.clock.advance(5 * 60_000 + 1000);
      const late = await t.app.inject({ method: 'GET', url });
      expect(late.statusCode).toBe(403);
      expect(late.json().message).toBe(messages.fileLinkExpired);
    });

    it('is served to an admin', async () => {
      expect((await link(admin.headers)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: doc.url, headers: admin.headers })).statusCode).toBe(200);
    });

    it('is served to the lawyer assigned to a job of its company, never for a reference in another cart', async () => {
      const db = t.rt.database.db;
      const [product] = await db
        .insert(products)
        .values({ productName: 'NDA', productPrice: 1_500_000, productDescription: 'x', productImage: '/x.png' })
        .returning();
      // Another company's cart line naming the file (the old code let a client write that) opens
      // nothing: read access follows the uploader and the job, never a reference (issue 14).
      await db
        .insert(cartItems)
        .values({ companyId: other.id, productId: product.id, quantity: 1, file: `http://localhost:3000${doc.url}` });
      expect((await link(other.headers)).statusCode).toBe(403);

      expect((await link(lawyer.headers)).statusCode).toBe(403);
      const [order] = await db
        .insert(orders)
        .values({
          companyId: company.id,
          txRef: `tx-${Date.now()}`,
          amount: 1_500_000,
          provider: 'sandbox',
          title: 'NDA',
          lines: [],
        })
        .returning();
      await db.insert(jobs).values({
        orderId: order.id,
        lineNo: 1,
        companyId: company.id,
        productId: product.id,
        quantity: 1,
        amount: 1_500_000,
        companyFile: doc.url,
        status: 'pending',
        assignedTo: lawyer.id,
      });
      expect((await link(lawyer.headers)).statusCode).toBe(200);
      const otherLawyer = await signupAndLogin(t, 'lawyer', { verified: true });
      expect((await link(otherLawyer.headers)).statusCode).toBe(403);
    });

    it('answers 404 for unknown or malformed keys', async () => {
      expect(
        (await t.app.inject({ method: 'GET', url: '/uploads/0123456789abcdef0123456789abcdef.pdf' })).statusCode,
      ).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/uploads/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
      expect(
        (
          await link(company.headers).then(() =>
            t.app.inject({ method: 'GET', url: '/api/files/nope/link', headers: company.headers }),
          )
        ).statusCode,
      ).toBe(404);
    });
  });
});
