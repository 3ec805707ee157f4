import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../db/schema.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.js';
import { multipart } from '../../test/upload-helpers.js';

/** Bodies as they reached the SMTP server, quoted-printable undone. */
function startSmtp() {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, '').replace(/=3D/g, '='));
        cb();
      });
    },
  });
  return new Promise<{ port: number; received: string[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({ port, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/**
 * Decision 2233: once the worker has sent a mail, the outbox keeps it without its one-time codes and link
 * tokens, so a database reader or a backup finds no live code or link there; what was sent is unchanged.
 */
describeEachDb('the outbox keeps no live code or link once a mail is sent (decision 2233)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const db = () => t.rt.database.db;
  const call = (method: 'POST' | 'PATCH', url: string, payload?: object, headers = {}) =>
    t.app.inject({ method, url, payload, headers });
  const rowsTo = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id);

  it('a reset code: mailed as written, blanked in the outbox once sent, and it still works', async () => {
    const who = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await call('POST', '/api/forgot-password', { officialEmail: who.email })).statusCode).toBe(200);
    const [waiting] = (await rowsTo(who.email)).slice(-1);
    const code = sixDigits(waiting.text)!;
    expect(waiting.html).toContain(`>${code}</p>`);
    await t.rt.mail.runOnce();

    const [sent] = (await rowsTo(who.email)).slice(-1);
    expect(sent.sentAt).not.toBeNull();
    expect(sent.subject).toBe(waiting.subject);
    for (const part of [sent.text, sent.html!]) {
      expect(part).not.toContain(code);
      expect(part).toContain('[removed once sent]');
    }
    expect(sent.text).toContain('Your password reset code is:');
    expect(smtp.received.some((m) => m.includes(code) && m.includes(who.email))).toBe(true);
    // The owner's inbox has it; the code works.
    const grant = await call('POST', '/api/confirm-reset-token', { officialEmail: who.email, token: code });
    expect(grant.statusCode).toBe(200);
  });

  it('link tokens (confirmation, change of address, undo) and a payout code are blanked once sent', async () => {
    const who = await signupAndLogin(t, 'lawyer', { verified: true });
    const next = uniqueEmail('next');
    const form = await multipart([
      { name: 'officialEmail', value: next },
      { name: 'currentPassword', value: PASSWORD },
    ]);
    const asked = await t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...form.headers },
      payload: form.payload,
    });
    expect(asked.statusCode).toBe(200);
    const account = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' };
    expect((await call('POST', '/api/add-payment-details', account, who.headers)).statusCode).toBe(201);
    expect((await call('POST', '/api/send-otp', undefined, who.headers)).statusCode).toBe(200);
    const before = [...(await rowsTo(next)), ...(await rowsTo(who.email))].filter((m) => !m.sentAt);
    const secrets = before.flatMap((m) => [linkToken(m.text), /^ {4}(\d{6})$/m.exec(m.text)?.[1]]).filter(Boolean);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    while ((await t.rt.mail.runOnce()) > 0);

    const after = [...(await rowsTo(next)), ...(await rowsTo(who.email))];
    expect(after.every((m) => m.sentAt)).toBe(true);
    for (const m of after) for (const s of secrets) expect(`${m.text}${m.html}`).not.toContain(s!);
    for (const s of secrets) expect(smtp.received.some((m) => m.includes(s!))).toBe(true);
    // The confirmation link the new inbox got still works.
    const confirmToken = secrets.find((s) => before.some((m) => m.to === next && m.text.includes(s!)))!;
    expect((await call('POST', '/api/confirm-email-change', { token: confirmToken })).statusCode).toBe(200);
  });
});
