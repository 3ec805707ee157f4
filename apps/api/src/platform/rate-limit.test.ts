import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.js';

const login = (t: TestApp, officialEmail: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { officialEmail, password }, remoteAddress: ip });

describeEachDb('login limits per account', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('allows 10 failures, answers the 11th attempt with 429 and Retry-After, and works again after the window', async () => {
    const user = await signupAndLogin(t, 'company');
    for (let i = 0; i < 10; i++) expect((await login(t, user.email, 'Wrong!Pass1')).statusCode).toBe(401);
    const limited = await login(t, user.email, PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(limited.json()).toMatchObject({ status: 'fail', message: expect.stringMatching(/try again/i) });
    // Another account is unaffected.
    const other = await signupAndLogin(t, 'company');
    expect((await login(t, other.email, PASSWORD)).statusCode).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await login(t, user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('limits unknown accounts the same way, so the limit reveals nothing', async () => {
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 10; i++) expect((await login(t, ghost, 'Wrong!Pass1')).statusCode).toBe(401);
    expect((await login(t, ghost, 'Wrong!Pass1')).statusCode).toBe(429);
  });

  it('limits forgot-password per account', async () => {
    const user = await signupAndLogin(t, 'company');
    const send = () =>
      t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: user.email } });
    for (let i = 0; i < 5; i++) expect((await send()).statusCode).toBe(200);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('limits per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { IP_MAX_REQUESTS: '20' });
  });
  afterAll(() => t.close());

  it('counts every attempt from one address, generously, and leaves other addresses alone', async () => {
    const emails = Array.from({ length: 21 }, () => uniqueEmail('spray'));
    for (const e of emails.slice(0, 20))
      expect((await login(t, e, 'Wrong!Pass1', '198.51.100.7')).statusCode).toBe(401);
    expect((await login(t, emails[20], 'Wrong!Pass1', '198.51.100.7')).statusCode).toBe(429);
    expect((await login(t, emails[20], 'Wrong!Pass1', '198.51.100.8')).statusCode).toBe(401);
  });

  it('counts an IPv6 client by its /64: the addresses a line or server may pick from are one address', async () => {
    // Every subscriber line or server gets a whole /64; counted address by address, one client sent from a
    // new one each time and was never limited.
    const emails = Array.from({ length: 22 }, () => uniqueEmail('v6spray'));
    for (const [i, e] of emails.slice(0, 20).entries())
      expect((await login(t, e, 'Wrong!Pass1', `2001:db8:77:1:${(i + 1).toString(16)}::9`)).statusCode).toBe(401);
    expect((await login(t, emails[20], 'Wrong!Pass1', '2001:db8:77:1:ffff:ffff:ffff:fffe')).statusCode).toBe(429);
    // The next /64 is another client.
    expect((await login(t, emails[21], 'Wrong!Pass1', '2001:db8:77:2::1')).statusCode).toBe(401);
  });

  it('counts an IPv4 address written IPv4-mapped as that IPv4 address', async () => {
    const emails = Array.from({ length: 21 }, () => uniqueEmail('mapped'));
    for (const e of emails.slice(0, 10)) expect((await login(t, e, 'Wrong!Pass1', '192.0.2.44')).statusCode).toBe(401);
    for (const e of emails.slice(10, 20))
      expect((await login(t, e, 'Wrong!Pass1', '::ffff:192.0.2.44')).statusCode).toBe(401);
    expect((await login(t, emails[20], 'Wrong!Pass1', '::ffff:c000:22c')).statusCode).toBe(429);
  });

  it('Mastodon style per address: the 20th request passes, the 21st gets 429 with Retry-After, and after the window it works', async () => {
    // Issue 8: the limit is generous (IP_MAX_REQUESTS, 300 per 15 minutes by default; 20 here) because
    // offices and mobile carriers put many people behind one address.
    const from = '203.0.113.9';
    const user = await signupAndLogin(t, 'company');
    for (let i = 0; i < 19; i++)
      expect((await login(t, uniqueEmail('office'), 'Wrong!Pass1', from)).statusCode).toBe(401);
    expect((await login(t, user.email, PASSWORD, from)).statusCode).toBe(200); // the 20th: at the limit, no 429
    const limited = await login(t, user.email, PASSWORD, from);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.json()).toMatchObject({ status: 'fail', message: expect.any(String) });
    t.clock.advance(retryAfter * 1000 + 1000);
    expect((await login(t, user.email, PASSWORD, from)).statusCode).toBe(200);
  });
});

describe('limits per address behind a proxy (TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { TRUST_PROXY: 'true', IP_MAX_REQUESTS: '5' });
  });
  afterAll(() => t.close());

  const viaProxy = (officialEmail: string, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail, password: 'Wrong!Pass1' },
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('counts the address the proxy wrote, not one the client put in front of it', async () => {
    // A load balancer that appends: the client sends its own X-Forwarded-For, the proxy adds the real
    // address at the end. Taking the first entry let every request choose a new address.
    for (let i = 1; i <= 5; i++)
      expect((await viaProxy(uniqueEmail('xff'), `203.0.113.${i}, 198.51.100.30`)).statusCode).toBe(401);
    expect((await viaProxy(uniqueEmail('xff'), '203.0.113.99, 198.51.100.30')).statusCode).toBe(429);
    // A proxy that overwrites the header (deploy/nginx.conf): each client is still its own address.
    expect((await viaProxy(uniqueEmail('xff'), '198.51.100.31')).statusCode).toBe(401);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('limits shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // Two instances on one database and one Redis, as behind a load balancer.
    a = await createTestApp('pglite', { REDIS_URL: process.env.TEST_REDIS_URL!, LOGIN_MAX_FAILURES: '4' });
    b = await createTestApp('pglite', { REDIS_URL: process.env.TEST_REDIS_URL!, LOGIN_MAX_FAILURES: '4' });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts failures on both instances together', async () => {
    const email = uniqueEmail('redis');
    expect((await login(a, email, 'Wrong!Pass1')).statusCode).toBe(401);
    expect((await login(b, email, 'Wrong!Pass1')).statusCode).toBe(401);
    expect((await login(a, email, 'Wrong!Pass1')).statusCode).toBe(401);
    expect((await login(b, email, 'Wrong!Pass1')).statusCode).toBe(401);
    const limited = await login(a, email, 'Wrong!Pass1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(b, email, 'Wrong!Pass1')).statusCode).toBe(429);
  });
});
