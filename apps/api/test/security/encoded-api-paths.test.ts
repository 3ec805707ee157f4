import { createHmac, randomUUID } from 'node:crypto';
import net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_HEADERS } from '../../src/platform/security-headers.js';
import { jobEvents } from '../../src/db/schema.js';
import { insertJob } from '../admin-fixtures.js';
import { insertProduct as insertCatalogueProduct } from '../commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../flutterwave-standin.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';

/**
 * The router decodes percent-escapes before it matches (`/%61pi/userprofile` is `/api/userprofile`), so
 * the API's own headers, JSON 404 and OPTIONS answer must read the path the same way: a client's private
 * answer sent without `cache-control: private, no-store` may be kept by a cache on the way.
 */
describeEachDb('an API path written with percent-escapes', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('gets the API headers the plain path gets, on the answer the router gives it', async () => {
    const company = await signupAndLogin(t, 'company');
    const headersOf = (h: Record<string, unknown>) => Object.keys(API_HEADERS).map((name) => [name, h[name]]);
    const profile = `userprofile?_id=${company.id}`;
    const rows: Array<[plain: string, escaped: string[]]> = [
      [`/api/${profile}`, [`/%61pi/${profile}`, `//%61pi/${profile}`, `/%61%70%69/${profile}`, `/%61pi//${profile}`]],
      ['/job-api/company/pendingjobs', ['/%6Aob-api/company/pendingjobs', '/job-api/company/%70endingjobs']],
    ];
    for (const [plainUrl, variants] of rows) {
      const plain = await t.app.inject({ method: 'GET', url: plainUrl, headers: company.headers });
      expect(plain.statusCode, plainUrl).toBe(200);
      expect(plain.headers['cache-control'], plainUrl).toMatch(/no-store/);
      expect(plain.headers['content-security-policy'], plainUrl).toBe(API_HEADERS['content-security-policy']);
      for (const url of variants) {
        const res = await t.app.inject({ method: 'GET', url, headers: company.headers });
        expect([res.statusCode, res.body], url).toEqual([200, plain.body]);
        expect(headersOf(res.headers), url).toEqual(headersOf(plain.headers));
      }
    }
  });

  // Decision 2358: a uuid is one id in either case. The session's own id in capitals answered 403
  // ("You do not have permission…") where the same id in lower case answered 200.
  it('reads an id written in capitals as the same id, in the path, the query and the body', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id);
    const upper = (id: string) => id.toUpperCase();
    const calls: Array<
      [
        method: 'GET' | 'POST',
        url: (id: (s: string) => string) => string,
        who: typeof company,
        body?: (id: (s: string) => string) => object,
      ]
    > = [
      ['GET', (id) => `/api/userprofile?_id=${id(company.id)}`, company],
      ['GET', (id) => `/api/account/export?_id=${id(company.id)}`, company],
      ['GET', (id) => `/job-api/job/${id(job.id)}?lawyerId=${id(lawyer.id)}`, lawyer],
      ['POST', (id) => `/job-api/applyforjob/${id(job.id)}`, lawyer, (id) => ({ lawyerId: id(lawyer.id) })],
    ];
    for (const [method, url, who, body] of calls) {
      const plain = await t.app.inject({ method, url: url((s) => s), headers: who.headers, payload: body?.((s) => s) });
      expect(plain.statusCode, `${url((s) => s)}: ${plain.body}`).toBe(200);
      const res = await t.app.inject({ method, url: url(upper), headers: who.headers, payload: body?.(upper) });
      expect([res.statusCode, res.headers['content-type']], url(upper)).toEqual([200, plain.headers['content-type']]);
    }
  });

  // The other half of decision 2358: only ids are lowered. A client key, a note and a raw body are the
  // sender's words, and the webhook's signature covers its exact bytes.
  it('keeps the case of what is not an id: a key, a note, a non-uuid id, a raw webhook body', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await insertJob(t, company.id);
    const upper = randomUUID().toUpperCase();
    const note = `Please quote reference ${upper}.`;
    const sent = await t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${job.id}/actions/message`,
      headers: company.headers,
      payload: { note, key: upper },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [event] = await t.rt.database.db
      .select({ note: jobEvents.note, key: jobEvents.clientKey })
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, job.id), eq(jobEvents.action, 'message')));
    expect(event).toEqual({ note, key: upper });

    const flw = flutterwaveStandIn();
    const paying = await createTestApp(kind, await listenStandIn(flw));
    try {
      // A non-uuid id keeps its case: the provider is asked for the transaction as the browser named it.
      const buyer = await signupAndLogin(paying, 'company');
      const product = await insertCatalogueProduct(paying, 'Deed of Gift', 10_000);
      expect(
        (
          await paying.app.inject({
            method: 'POST',
            url: '/api/cart',
            headers: buyer.headers,
            payload: { productId: product, quantity: 1 },
          })
        ).statusCode,
      ).toBe(201);
      const { reference } = (
        await paying.app.inject({ method: 'POST', url: '/api/checkout', headers: buyer.headers })
      ).json().data;
      await paying.app.inject({
        method: 'POST',
        url: '/api/checkout/verify',
        headers: buyer.headers,
        payload: { reference, transactionId: 'FlwTx-AbC123' },
      });
      expect(
        flw.calls.some((c) => c.includes('FlwTx-AbC123')),
        flw.calls.join('\n'),
      ).toBe(true);
      // The webhook's body, an upper-case uuid and a `transaction_id` in it, reaches the check byte for byte.
      const raw = JSON.stringify({
        event: 'charge.completed',
        data: { id: 1, tx_ref: reference, transaction_id: upper, customerId: upper },
      });
      const hook = await paying.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: {
          'content-type': 'application/json',
          'flutterwave-signature': createHmac('sha256', SECRET_HASH).update(raw).digest('hex'),
        },
        payload: raw,
      });
      expect([hook.statusCode, hook.json().message]).toEqual([200, 'received']);
    } finally {
      await paying.close();
      await new Promise((r) => flw.server.close(r));
    }
  });

  it('answers OPTIONS, another method and an unknown call as the plain path does', async () => {
    const options = await t.app.inject({ method: 'OPTIONS', url: '/%61pi/login' });
    expect([options.statusCode, options.headers.allow, options.body]).toEqual([204, 'POST', '']);
    const put = await t.app.inject({ method: 'PUT', url: '/%61pi/login' });
    expect([put.statusCode, put.headers.allow]).toEqual([405, 'POST']);
    const none = await t.app.inject({ method: 'GET', url: '/%61pi/no-such-call' });
    expect([none.statusCode, none.json().message, none.headers['content-security-policy']]).toEqual([
      404,
      'Not found',
      API_HEADERS['content-security-policy'],
    ]);
    // An escaped slash is no slash to the router: `/api%2Flogin` is no API address.
    const escaped = await t.app.inject({ method: 'OPTIONS', url: '/api%2Flogin' });
    expect(escaped.headers.allow).toBeUndefined();
  });

  /** The head of the answer (lower case) to a request line written by hand on a real socket. */
  const rawHead = async (authorization: string) => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    // light-my-request sends the path alone, so the request line is written by hand.
    return (target: string, method = 'GET', whole = false) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(
            `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('end', () => resolve(whole ? text : text.split('\r\n\r\n')[0].toLowerCase()));
        socket.on('error', reject);
      });
  };

  it('reads an absolute-form request target (`GET http://host/api/...`) as its path, on a real socket', async () => {
    const company = await signupAndLogin(t, 'company');
    const head = await rawHead(company.headers.authorization);
    const profile = `/api/userprofile?_id=${company.id}`;
    const plain = await head(profile);
    expect(plain).toMatch(/^http\/1\.1 200/);
    for (const target of [`http://localhost${profile}`, `HTTP://localhost/%61pi/userprofile?_id=${company.id}`]) {
      const res = await head(target);
      expect(res.split('\r\n')[0], target).toBe('http/1.1 200 ok');
      expect(res, target).toContain('cache-control: private, no-store');
      expect(res, target).toContain(`content-security-policy: ${API_HEADERS['content-security-policy']}`);
    }
    const options = await head('http://localhost/api/login', 'OPTIONS');
    expect(options.split('\r\n')[0]).toBe('http/1.1 204 no content');
    expect(options).toContain('allow: post');
  });

  // The router skips a target's first character unread: `*api/userprofile` reached the route, but every
  // path check read no API path, so the client's profile went out without `cache-control: no-store`.
  it('refuses a request target that is neither a path nor a URL, before any route answers', async () => {
    const company = await signupAndLogin(t, 'company');
    const head = await rawHead(company.headers.authorization);
    for (const target of [`*api/userprofile?_id=${company.id}`, `*/api/userprofile?_id=${company.id}`]) {
      const res = await head(target, 'GET', true);
      expect(res.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
      expect(res.toLowerCase(), target).toContain(`content-security-policy: ${API_HEADERS['content-security-policy']}`);
      expect(res, target).toContain('The address is not valid: it must start with /');
      expect(res, target).not.toContain(company.id);
    }
  });

  // The path's fast reading kept `#...` where the slow one cut it: `/api#%41` was the API's JSON 404 but
  // `/api#x` the web app's page (here, unbuilt, its "not built yet" 404). The router cuts both.
  it('reads a path with a `#` or a `?` as the router does, with or without escapes', async () => {
    const head = await rawHead('Bearer none');
    for (const target of ['/api#x', '/api#%41', '/job-api#x', '/api?x#y']) {
      const res = await head(target, 'GET', true);
      expect(res.split('\r\n')[0], target).toBe('HTTP/1.1 404 Not Found');
      expect(res, target).toContain('"message":"Not found"');
    }
  });
});
