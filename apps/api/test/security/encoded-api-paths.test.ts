import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_HEADERS } from '../../src/platform/security-headers.js';
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
});
