import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../db/schema.js';
import { companyBody, createTestApp, uniqueEmail, type TestApp } from '../../test/helpers.js';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server process-local to the test: what arrives is what nodemailer really sent. */
function startSmtp(opts: { failFirst?: number } = {}) {
  const received: Received[] = [];
  let refuse = opts.failFirst ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (refuse > 0) {
        refuse -= 1;
        cb(new Error('451 mailbox busy, try later'));
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  return new Promise<{ port: number; received: Received[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({ port, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

describe('mail through the outbox and SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp({ failFirst: 1 });
    t = await createTestApp('pglite', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('writes the confirmation mail with the account, retries after an SMTP failure and delivers it', async () => {
    const email = uniqueEmail('smtp');
    await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const [row] = await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    expect(row.sentAt).toBeNull();

    // First attempt: the server refuses the recipient; the mail stays and is retried later.
    expect(await t.rt.mail.runOnce()).toBe(0);
    const [failed] = await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, row.id));
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/busy/);
    expect(failed.sentAt).toBeNull();
    expect(await t.rt.mail.runOnce()).toBe(0); // not due yet

    t.clock.advance(11_000);
    expect(await t.rt.mail.runOnce()).toBe(1);
    const [sent] = await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, row.id));
    expect(sent.sentAt).not.toBeNull();
    const arrived = smtp.received.find((m) => m.to.includes(email));
    expect(arrived?.raw).toMatch(/Subject: Confirm your LegalMarket email address/);
    expect(arrived?.raw).toMatch(/confirm-email\?token=/);
    // Delivered once only.
    expect(await t.rt.mail.runOnce()).toBe(0);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});

describe('mail without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('keeps mail in the outbox, readable at /dev/mailbox as JSON and HTML', async () => {
    const email = uniqueEmail('box');
    await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const json = await t.app.inject({ method: 'GET', url: `/dev/mailbox?format=json&to=${encodeURIComponent(email)}` });
    expect(json.json().data.mails[0]).toMatchObject({ to: email, subject: 'Confirm your LegalMarket email address' });
    const html = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain(email);
  });

  it('has no mailbox in production', async () => {
    const prod = await createTestApp('pglite', { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
