import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logging.js';
import { PASSWORD, createTestApp, lastMailTo, signupAndLogin, sixDigits, type TestApp } from '../../test/helpers.js';
import { uploadDocument } from '../../test/upload-helpers.js';

describe('security events in the logs', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    t = await createTestApp('pglite', {}, { logger: createLogger('info', sink) });
  });
  afterAll(() => t.close());

  it('logs login success and failure, lockout and password reset as JSON lines with UTC time, actor and address, and never a secret', async () => {
    const user = await signupAndLogin(t, 'company');
    const secrets = new Set<string>([PASSWORD, user.token]);
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: user.email, password },
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < 11; i++) await login(`Wrong!Pass${i}`);
    secrets.add('Wrong!Pass3');

    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: user.email } });
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    secrets.add(code);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-reset-token',
      payload: { officialEmail: user.email, token: code },
    });
    const grant = ok.json().resetToken as string;
    secrets.add(grant);
    const fresh = 'Fr3sh!Passw0rd';
    secrets.add(fresh);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/reset-password?userEmail=${encodeURIComponent(user.email)}&token=${grant}`,
      payload: { password: fresh, passwordConfirm: fresh },
    });

    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.security);
    const kinds = events.map((e) => e.security);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'login_success',
        'login_failure',
        'rate_limited',
        'password_reset_requested',
        'password_reset',
      ]),
    );
    const failure = events.find((e) => e.security === 'login_failure')!;
    expect(failure.ip).toBe('203.0.113.9');
    expect(String(failure.at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(String(failure.time)).toMatch(/Z$/);
    expect(events.find((e) => e.security === 'password_reset')!.actor).toBe(user.id);

    const all = lines.join('\n');
    for (const s of secrets) expect(all, `secret ${s.slice(0, 4)}… leaked`).not.toContain(s);
  });

  it('never logs the signature of a document link: whoever reads the log could open the file', async () => {
    const user = await signupAndLogin(t, 'company');
    const doc = await uploadDocument(t.app, user.headers, 'merger.pdf');
    const link = await t.app.inject({ method: 'GET', url: `/api/files/${doc.key}/link`, headers: user.headers });
    const url = link.json().data.url as string;
    const signature = new URL(url, 'http://x').searchParams.get('t')!;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const requests = lines.filter((l) => l.includes(doc.key));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.join('\n')).not.toContain(signature);
    expect(requests.join('\n')).toContain(`${doc.url}?t=[redacted]`);
  });

  it('never logs the reset token of the new-password page, whose path carries it (a reload asks the server)', async () => {
    const user = await signupAndLogin(t, 'company');
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: user.email } });
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-reset-token',
      payload: { officialEmail: user.email, token: code },
    });
    const grant = ok.json().resetToken as string;
    const before = lines.length;
    await t.app.inject({ method: 'GET', url: `/new-password/${grant}/${encodeURIComponent(user.email)}` });
    const logged = lines.slice(before).join('\n');
    expect(logged).toContain('/new-password/[redacted]/');
    expect(logged).not.toContain(grant);
    // Still good for the owner: the page's own call sets the password.
    const fresh = 'Fr3sh!Passw0rd';
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/api/reset-password?userEmail=${encodeURIComponent(user.email)}&token=${grant}`,
      payload: { password: fresh, passwordConfirm: fresh },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('never logs a secret in a path or query the router reads as the plain one (doubled slash, escapes, absolute form)', async () => {
    const grant = `g${crypto.randomUUID().replaceAll('-', '')}`;
    const email = encodeURIComponent('ada@firm.ng');
    const escaped = `%${grant.charCodeAt(0).toString(16)}${grant.slice(1)}`;
    const forms = [
      `//new-password/${grant}/${email}`,
      `/new-%70assword/${grant}/${email}`,
      `/NEW-PASSWORD/${grant}/${email}`,
      `/new-password/${escaped}/${email}`,
      `/confirm-email?%74oken=${grant}`,
      `/payment-details-not-me?to%6Ben=${grant}&x=1`,
      `/two-factor-not-me?x=1?token=${grant}`,
      `/api/reset-password?userEmail=${email}&%54oken=${grant}`,
    ];
    const before = lines.length;
    for (const url of forms) await t.app.inject({ method: 'GET', url });
    // light-my-request sends the path alone (no origin, no fragment): those request lines are written by hand.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    for (const target of [`http://localhost/new-password/${grant}/${email}`, `/uploads/some-key#t=${grant}`])
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
        );
        socket.on('data', () => undefined);
        socket.on('end', () => resolve());
        socket.on('error', reject);
      });
    const logged = lines.slice(before).join('\n');
    expect(logged.match(/new-password\/\[redacted\]\//g)).toHaveLength(5);
    expect(logged).toContain('/confirm-email?%74oken=[redacted]');
    expect(logged).toContain('/uploads/some-key#t=[redacted]');
    expect(logged).not.toContain(grant.slice(1));
  });
});
