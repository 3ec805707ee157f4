import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../test/helpers.js';

describeEachDb('a JSON body with a prototype-poisoning key', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { ...headers, 'content-type': 'application/json' } });

  it('is refused with a 400 naming the key, not "Body is not valid JSON"', async () => {
    const company = await signupAndLogin(t, 'company');
    const cases: Array<[url: string, payload: string, key: string]> = [
      ['/api/login', '{"officialEmail":"a@b.ng","password":"x","__proto__":{"isAdmin":true}}', '__proto__'],
      // Escaped, the key is still __proto__ once parsed.
      ['/api/login', '{"officialEmail":"a@b.ng","\\u005f_proto__":{"role":"admin"}}', '__proto__'],
      ['/api/cart', '{"items":[{"x":{"__proto__":null}}]}', '__proto__'],
      ['/api/login', '{"constructor":{"prototype":{"isAdmin":true}}}', 'constructor.prototype'],
    ];
    for (const [url, payload, key] of cases) {
      const res = await post(url, payload, company.headers);
      expect([res.statusCode, res.json()], payload).toEqual([
        400,
        { status: 'fail', message: `Invalid request: the body may not use the key ${key}` },
      ]);
    }
  });

  it('still answers broken JSON as before, and takes a constructor key that holds no prototype', async () => {
    const broken = await post('/api/login', '{"officialEmail":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^Invalid request: Body is not valid JSON/);
    const plain = await post(
      '/api/login',
      '{"officialEmail":"nobody@firm.ng","password":"Wr0ng!Pass","constructor":1}',
    );
    expect(plain.statusCode).not.toBe(400);
  });
});
