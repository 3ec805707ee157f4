import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { auditLog } from '../../db/schema.js';
import { createTestApp, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { docxBytes, pdfBytes } from '../../../test/upload-helpers.js';

describe('configuration', () => {
  it('lists every bad variable in one line', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x' });
    } catch (err) {
      const m = (err as Error).message;
      expect(m).not.toContain('\n');
      expect(m).toMatch(/^Invalid configuration: /);
      for (const v of ['PORT', 'DATABASE_URL', 'SMTP_URL']) expect(m).toContain(v);
    }
  });

  it('requires a JWT secret in production and the Flutterwave keys for that provider', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'flutterwave' })).toThrow(/FLW_SECRET_KEY/);
  });

  // Issue 14, item 7: a development server listened on 0.0.0.0, so anyone who could reach it read every
  // mailed code at /dev/mailbox.
  it('listens on 127.0.0.1 unless HOST is set, and on every interface by default only in production', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    const secret = 'x'.repeat(32);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('defaults to port 3000, ./data and the sandbox provider', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PAYMENT_PROVIDER: 'sandbox',
      PUBLIC_URL: 'http://localhost:3000',
    });
  });
});

describe('security baseline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('sends the security headers: CSP without inline scripts, frame-ancestors none, nosniff', async () => {
    // A page (the OpenAPI viewer here; the web app's pages get the same set): helmet's headers, our CSP.
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    // The API's answers: a policy that allows nothing, no framing, no sniffing; no document headers.
    for (const url of ['/api/health', '/product-api/products', '/job-api/jobs', '/ratings-api/x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends HSTS when served over https behind a trusted proxy', async () => {
    const proxied = await createTestApp('pglite', { TRUST_PROXY: 'true' });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await proxied.close();
    }
  });

  it('refuses bodies over the limit with 413 and malformed JSON with 400, without stack traces', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ officialEmail: 'a@b.ng', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().status).toBe('fail');
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"officialEmail":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().status).toBe('fail');
    expect(broken.body).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('answers validation errors with a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/userprofile?_id=1',
      headers: (await signupAndLogin(t, 'company')).headers,
    });
    expect(res.statusCode).toBe(400);
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/lawyer/signup',
      payload: { areasOfPractise: 'Tax' },
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().issues.length).toBeGreaterThan(1);
  });

  it('answers unknown API paths with a JSON 404 and rejects forged tokens', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'fail', message: 'Not found' });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"x","sid":"y","exp":9999999999}').toString('base64url')}.`;
    // Not POST /api/logout: it answers 200 with no session to end (idempotent, issue 14).
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/cart',
      headers: { authorization: `Bearer ${none}` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('rejects a token after it expires (12 hours)', async () => {
    const user = await signupAndLogin(t, 'company');
    const url = `/api/userprofile?_id=${user.id}`;
    expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(200);
    t.clock.advance(12 * 3600_000 + 1000);
    expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(401);
  });

  it('serves the Remuneration Order once an admin uploads a PDF, and only admins may upload', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/remuneration-order' })).statusCode).toBe(404);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
    const company = await signupAndLogin(t, 'company');
    const put = (headers: Record<string, string>, body: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/remuneration-order',
        headers: { ...headers, 'content-type': 'application/pdf' },
        payload: body,
      });
    expect((await put({}, pdf)).statusCode).toBe(401);
    expect((await put(company.headers, pdf)).statusCode).toBe(403);
    const admin = await signupAndLogin(t, 'admin');
    expect((await put(admin.headers, Buffer.from('<html>not a pdf</html>'))).statusCode).toBe(400);
    expect((await put(admin.headers, pdf)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/remuneration-order' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it('checks the Remuneration Order as an uploaded document, replaces it, and writes each upload to the audit log', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const put = (body: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/remuneration-order',
        headers: { ...admin.headers, 'content-type': 'application/pdf' },
        payload: body,
      });
    const first = pdfBytes('first order');
    const second = pdfBytes('second order');
    // Starts like a PDF but is cut short (no %%EOF): refused by the upload service's structure check.
    const cut = await put(first.subarray(0, first.length - 8));
    expect(cut.statusCode).toBe(422);
    expect(cut.json().message).toBe(messages.fileDamaged);
    // A Word file, or an image: a document the upload service accepts, but not a PDF.
    const docx = await put(docxBytes());
    expect(docx.statusCode).toBe(400);
    expect(docx.json().message).toBe('The file must be a PDF');
    expect((await put(Buffer.alloc(0))).statusCode).toBe(400);

    expect((await put(first)).statusCode).toBe(200);
    expect((await put(second)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/remuneration-order' });
    expect(res.rawPayload.equals(second)).toBe(true);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/remuneration-order' });
    expect(head.statusCode).toBe(200);

    const entries = await t.rt.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.action, 'remuneration_order.upload')))
      .orderBy(auditLog.id);
    expect(entries.map((e) => (e.details as { size: number }).size)).toEqual([first.length, second.length]);
    expect(entries[1].details).toEqual({ size: second.length, replaced: true });
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/company/signup', '/api/forgot-password']),
    );
    expect(doc.paths['/api/login'].post.description).toMatch(/token/);
  });
});
