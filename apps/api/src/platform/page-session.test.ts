import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../test/helpers.js';
import { insertProduct } from '../../test/commerce-helpers.js';
import { tokenHasher } from './tokens.js';

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-a1.js"></script></head><body><div id="root"></div></body></html>`;

/**
 * A stand-in for the web build's server renderer (apps/web/src/entry-server.tsx, whose own test renders
 * the real cart page): it writes the cart lines' briefs it was given, or "shell".
 */
const RENDERER = `
export function pageDataUrl() { return null; }
export async function render(pathname, data) {
  if (!data) return '<main><h1>page ' + pathname + '</h1><p>shell</p></main>';
  const briefs = data.body.flatMap((cart) => cart.products.map((line) => line.detail));
  return '<main><h1>page ' + pathname + '</h1><p>' + (briefs.join(' | ') || 'empty') + '</p></main>';
}
`;

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('a company’s /cart rendered on the server with its page cookie (decision 2100)', (kind) => {
  let t: TestApp;
  let dist: string;
  let a: Login;
  let b: Login;
  let productId: string;
  let otherProductId: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'lm-page-session-'));
    await mkdir(path.join(dist, '.vite', 'ssr'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), INDEX);
    await writeFile(path.join(dist, '.vite', 'ssr', 'entry-server.js'), RENDERER);
    t = await createTestApp(kind, {}, { webDist: dist });
    a = await signupAndLogin(t, 'company');
    b = await signupAndLogin(t, 'company');
    productId = await insertProduct(t, 'Shareholders agreement', 90_000);
    otherProductId = await insertProduct(t, 'Board resolution', 25_000);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const login = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { officialEmail: email, password: PASSWORD } });
  /** The page cookie a sign-in answer set, as a browser would send it back. */
  const cookieOf = (res: { headers: Record<string, unknown> }) => {
    const set = String(res.headers['set-cookie']);
    return set.slice(0, set.indexOf(';'));
  };
  const cartPage = (cookie?: string) => t.app.inject({ url: '/cart', headers: cookie ? { cookie } : {} });
  const addLine = (who: Login, detail: string, product = productId) =>
    t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: who.headers,
      payload: { productId: product, quantity: 1, detail },
    });

  /** A page cookie's value: the session id and an HMAC of it, never the API token. */
  const PAGE_COOKIE =
    /^lm_page_session=([0-9a-f-]{36})\.([\w-]{43}); Max-Age=43200; Path=\/cart; HttpOnly; SameSite=Lax$/;

  it('a company’s sign-in sets a cookie for /cart alone, HttpOnly, naming the session, not carrying its token', async () => {
    const res = await login(a.email);
    expect(res.statusCode).toBe(200);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(PAGE_COOKIE);
    expect(set).not.toContain(res.json().token);
    // The session it names is the token's.
    const sid = JSON.parse(Buffer.from(res.json().token.split('.')[1], 'base64url').toString()).sid;
    expect(PAGE_COOKIE.exec(set)![1]).toBe(sid);
  });

  it('is Secure on a site served over https, behind a proxy the app does not trust too', async () => {
    const https = await createTestApp(kind, { PUBLIC_URL: 'https://legalmarket.ng' }, { webDist: dist });
    try {
      const company = await signupAndLogin(https, 'company');
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: company.email, password: PASSWORD },
      });
      expect(res.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      const out = await https.app.inject({ method: 'POST', url: '/api/logout', headers: company.headers });
      expect(out.headers['set-cookie']).toBe('lm_page_session=; Max-Age=0; Path=/cart; HttpOnly; SameSite=Lax; Secure');
    } finally {
      await https.close();
    }
  });

  it('renders the company’s own cart into /cart, private and never stored, and each company only its own', async () => {
    expect((await addLine(a, 'Brief of company A: three founders')).statusCode).toBe(201);
    expect((await addLine(b, 'Brief of company B: one founder')).statusCode).toBe(201);
    const pageA = await cartPage(cookieOf(await login(a.email)));
    expect(pageA.statusCode).toBe(200);
    expect(pageA.headers['cache-control']).toBe('private, no-store');
    expect(pageA.headers.vary).toContain('cookie');
    expect(pageA.body).toContain('<p>Brief of company A: three founders</p>');
    expect(pageA.body).not.toContain('company B');
    // The data tag names its owner, for the browser to check against the session it keeps.
    expect(pageA.body).toContain(`id="page-data" data-url="/api/cart" data-user="${a.id}"`);
    const pageB = await cartPage(cookieOf(await login(b.email)));
    expect(pageB.body).toContain('<p>Brief of company B: one founder</p>');
    expect(pageB.body).not.toContain('company A');
    // A visitor right after them gets the shell: no rendered cart is reused for another request.
    const visitor = await cartPage();
    expect(visitor.body).toContain('<p>shell</p>');
    expect(visitor.body).not.toContain('page-data');
    expect(visitor.headers['cache-control']).toBe('no-cache');
  });

  it('renders a change at once, and an empty cart as empty', async () => {
    const cookie = cookieOf(await login(a.email));
    t.clock.advance(1000); // lines are listed in the order they were added
    expect((await addLine(a, 'A second brief', otherProductId)).statusCode).toBe(201);
    expect((await cartPage(cookie)).body).toContain('Brief of company A: three founders | A second brief');
    expect((await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: a.headers })).statusCode).toBe(200);
    expect((await cartPage(cookie)).body).toContain('<p>empty</p>');
  });

  it('renders the shell for a forged, malformed, revoked or other-role cookie', async () => {
    const res = await login(a.email);
    const token = res.json().token as string;
    const cookie = cookieOf(res);
    const [, sid] = /=([^.]+)\./.exec(cookie)!;
    const sign = tokenHasher(t.rt.secret);
    expect((await cartPage(cookie)).body).toContain('<p>empty</p>'); // (rendered: the cart was emptied above)
    // Another session's id under this one's HMAC, a made-up HMAC, the API token itself, junk.
    const other = cookieOf(await login(a.email)).split('.')[0];
    expect((await cartPage(`${other}.${cookie.split('.')[1]}`)).body).toContain('<p>shell</p>');
    expect((await cartPage(`lm_page_session=${sid}.${'A'.repeat(43)}`)).body).toContain('<p>shell</p>');
    expect((await cartPage(`lm_page_session=${token}`)).body).toContain('<p>shell</p>');
    expect((await cartPage('lm_page_session=not-a-token')).body).toContain('<p>shell</p>');
    expect((await cartPage(`lm_page_session=${'x'.repeat(15_000)}; a=b; ;=;`)).statusCode).toBe(200);
    // Logging out clears the cookie, and the session it named renders nothing any more.
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.headers['set-cookie']).toBe('lm_page_session=; Max-Age=0; Path=/cart; HttpOnly; SameSite=Lax');
    const revoked = await cartPage(cookie);
    expect(revoked.body).toContain('<p>shell</p>');
    expect(revoked.headers['cache-control']).toBe('no-cache');
    // A lawyer's sign-in clears any company cookie left in the browser; a lawyer's session renders no cart.
    const lawyer = await signupAndLogin(t, 'lawyer');
    const lawyerLogin = await login(lawyer.email);
    expect(lawyerLogin.headers['set-cookie']).toBe('lm_page_session=; Max-Age=0; Path=/cart; HttpOnly; SameSite=Lax');
    const lawyerSid = JSON.parse(Buffer.from(lawyer.token.split('.')[1], 'base64url').toString()).sid as string;
    const forLawyer = `lm_page_session=${lawyerSid}.${sign(`page-session:${lawyerSid}`)}`;
    expect((await cartPage(forLawyer)).body).toContain('<p>shell</p>');
    // (the same HMAC for a live company session does render: the check above is the role's)
    const live = cookieOf(await login(a.email))
      .split('=')[1]
      .split('.')[0];
    expect((await cartPage(`lm_page_session=${live}.${sign(`page-session:${live}`)}`)).body).toContain('<p>empty</p>');
  });

  it('is no credential for the API: as a cookie or as a bearer token, the cart calls are refused', async () => {
    const cookie = cookieOf(await login(a.email));
    const bearer = { authorization: `Bearer ${cookie.split('=')[1]}` };
    expect((await t.app.inject({ url: '/api/cart', headers: bearer })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/cart', headers: { cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/clear-cart', headers: { cookie } })).statusCode).toBe(401);
  });
});
