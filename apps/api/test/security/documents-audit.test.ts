import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { emailOutbox, jobs, users } from '../../src/db/schema.js';
import { createLogger } from '../../src/platform/logging.js';
import { mailRenderer, type MailTemplate } from '../../src/platform/mail-templates.js';
import { sandboxProvider } from '../../src/platform/payments/sandbox.js';
import {
  alreadyRegisteredMail,
  confirmEmailChangeMail,
  confirmEmailMail,
  emailChangeNoticeMail,
  emailChangeTakenMail,
  passwordChangedMail,
  resetCodeMail,
} from '../../src/features/accounts/emails.js';
import { lawyerRejectedMail, lawyerUnverifiedMail, lawyerVerifiedMail } from '../../src/features/admin/emails.js';
import {
  companyAssignedMail,
  detailsRequestedMail,
  jobCompletedMail,
  jobEventMail,
  lawyerAssignedMail,
} from '../../src/features/jobs/emails.js';
import { createJobLifecycle } from '../../src/features/jobs/lifecycle-service.js';
import { payoutChangedMail, payoutCodeMail } from '../../src/features/lawyers/emails.js';
import {
  paymentReceivedMail,
  payoutFailedMail,
  payoutPaidMail,
  payoutRejectedMail,
  payoutWaitingMail,
} from '../../src/features/money/emails.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { createRefunds } from '../../src/features/money/refunds.js';
import { createPlansService } from '../../src/features/plans/service.js';
import { scnChangedMail } from '../../src/features/profiles/emails.js';
import {
  twoFactorDisabledMail,
  twoFactorEnabledMail,
  twoFactorNotMeMail,
} from '../../src/features/two-factor/emails.js';
import { SUCCESS_CARD, insertProduct } from '../commerce-helpers.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { multipart, uploadDocument } from '../upload-helpers.js';
import { pdfText, startSmtp } from '../document-helpers.js';

/**
 * An outside audit of everything that leaves the platform: every e-mail (the templates of each
 * feature's emails.ts, the refund mail of money/refunds.ts and the plan mails of plans/service.ts, all
 * drawn by platform/mail-templates.ts) and every PDF (money/receipts.ts: receipts and credit notes).
 * What another party wrote must not reach a header, a link or another line; money must match the
 * ledger to the kobo; a mail must go to the account's address now, and a document to its owner only.
 */

/** Everything a hostile party can put into a name: markup, a link, a header line, direction and line controls. */
const HOSTILE =
  'Eve <script>alert(1)</script><a href="http://evil.example/login">pay</a>\r\nBcc: victim@evil.example\u202e\t\u2028Reset at http://evil.example/reset';
/** A product's name is the admins' text, not another party's: it still must not break a subject line. */
const PRODUCT = 'Lease Review\r\n\tSecond line';
const SITE = 'http://localhost:3000';
const render = mailRenderer({ PUBLIC_URL: SITE, SUPPORT_EMAIL: 'help@legalmarket.example' });

/** Characters that end a header line or a line of text, or turn a line around. */
// eslint-disable-next-line no-control-regex
const LINE_OR_DIRECTION = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Every template, fed the hostile text in every field a person can write; `others` are the fields someone else chose. */
const TEMPLATES: Array<{ name: string; mail: MailTemplate; others: boolean }> = [
  {
    name: 'confirmEmailMail',
    mail: confirmEmailMail('a@example.ng', `${SITE}/confirm-email?token=t1`, 24),
    others: false,
  },
  {
    name: 'alreadyRegisteredMail',
    mail: alreadyRegisteredMail('a@example.ng', `${SITE}/login`, `${SITE}/password-reset`),
    others: false,
  },
  { name: 'resetCodeMail', mail: resetCodeMail('a@example.ng', '482913', 15), others: false },
  { name: 'passwordChangedMail', mail: passwordChangedMail('a@example.ng', `${SITE}/password-reset`), others: false },
  {
    name: 'confirmEmailChangeMail',
    mail: confirmEmailChangeMail('a@example.ng', `${SITE}/confirm-email-change?token=t2`, 24),
    others: false,
  },
  { name: 'emailChangeTakenMail', mail: emailChangeTakenMail('a@example.ng', `${SITE}/password-reset`), others: false },
  ...(['requested', 'done'] as const).map((stage) => ({
    name: `emailChangeNoticeMail ${stage}`,
    mail: emailChangeNoticeMail('a@example.ng', stage, `${SITE}/undo-email-change?token=t3`, 7),
    others: false,
  })),
  {
    name: 'lawyerVerifiedMail',
    mail: lawyerVerifiedMail('l@example.ng', 'Chidi', `${SITE}/lawyer/jobs`),
    others: false,
  },
  {
    name: 'lawyerRejectedMail',
    mail: lawyerRejectedMail(
      'l@example.ng',
      'Chidi',
      'The SCN does not match the roll',
      `${SITE}/lawyer/profile`,
      'h@x.ng',
    ),
    others: false,
  },
  { name: 'lawyerUnverifiedMail', mail: lawyerUnverifiedMail('l@example.ng', 'Chidi', 'h@x.ng'), others: false },
  {
    // The lifecycle builds `text` with plainName; the product name is the admin's.
    name: 'jobEventMail',
    mail: jobEventMail('l@example.ng', {
      text: `Ada sent a message on ${HOSTILE}`,
      note: HOSTILE,
      files: [HOSTILE],
      url: `${SITE}/jobs/1`,
      thread: true,
    }),
    others: false,
  },
  {
    name: 'lawyerAssignedMail',
    mail: lawyerAssignedMail('l@example.ng', {
      lawyerName: 'Chidi',
      productName: PRODUCT,
      companyName: HOSTILE,
      url: `${SITE}/lawyer/dashboard`,
    }),
    others: true,
  },
  {
    name: 'companyAssignedMail',
    mail: companyAssignedMail('c@example.ng', {
      companyName: 'Ada Ventures',
      productName: PRODUCT,
      lawyerName: HOSTILE,
      url: `${SITE}/company/dashboard`,
    }),
    others: true,
  },
  {
    name: 'jobCompletedMail',
    mail: jobCompletedMail('c@example.ng', {
      companyName: 'Ada',
      productName: HOSTILE,
      url: `${SITE}/company/dashboard`,
    }),
    others: false,
  },
  {
    name: 'detailsRequestedMail',
    mail: detailsRequestedMail({
      to: 'c@example.ng',
      companyName: 'Ada',
      productName: 'Lease Review',
      lawyerName: HOSTILE,
      request: 'Please send the signed MoU',
      url: `${SITE}/company/dashboard`,
    }),
    others: true,
  },
  { name: 'payoutCodeMail', mail: payoutCodeMail('l@example.ng', '123456', 15), others: false },
  {
    name: 'payoutChangedMail',
    mail: payoutChangedMail('l@example.ng', 'changed', {
      accountNumber: '0123456789',
      accountName: 'CHIDI OKEKE',
      bank: 'Access Bank',
    }),
    others: false,
  },
  ...[payoutPaidMail, payoutFailedMail, payoutRejectedMail].map((m) => ({
    name: m.name,
    mail: m({
      to: 'l@example.ng',
      name: 'Chidi',
      amount: 5_000.5,
      bank: 'Access Bank',
      accountNumber: '0123456789',
      url: `${SITE}/lawyer/earnings`,
      reason: 'Account closed',
    }),
    others: false,
  })),
  {
    name: 'payoutWaitingMail',
    mail: payoutWaitingMail({
      to: 'admin@example.ng',
      lawyerName: HOSTILE,
      amount: 5_000,
      url: `${SITE}/admin/payouts`,
    }),
    others: true,
  },
  {
    name: 'paymentReceivedMail',
    mail: paymentReceivedMail({
      to: 'c@example.ng',
      name: 'Ada',
      reference: 'LM-1',
      amount: 6_000_050,
      items: 2,
      url: `${SITE}/company/dashboard`,
    }),
    others: false,
  },
  {
    name: 'scnChangedMail',
    mail: scnChangedMail({
      to: 'admin@example.ng',
      lawyerName: HOSTILE,
      lawyerEmail: 'l@example.ng',
      oldScn: 'SCN1',
      newScn: 'SCN2',
      url: `${SITE}/admin/lawyers`,
    }),
    others: true,
  },
  {
    name: 'twoFactorEnabledMail',
    mail: twoFactorEnabledMail('a@example.ng', `${SITE}/two-factor-not-me?token=abc`, 7, `${SITE}/password-reset`),
    others: false,
  },
  {
    name: 'twoFactorDisabledMail',
    mail: twoFactorDisabledMail('a@example.ng', `${SITE}/password-reset`),
    others: false,
  },
  {
    name: 'twoFactorNotMeMail',
    mail: twoFactorNotMeMail('a@example.ng', '123456', 10, `${SITE}/password-reset`),
    others: false,
  },
];

/** The words a reader sees in the HTML part: tags and the head dropped, entities read back. */
const wordsOfHtml = (html: string) =>
  words(
    html
      .replace(/<head>.*<\/head>/s, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(
        /&(amp|lt|gt|quot|#39);/g,
        (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
      ),
  );
const words = (s: string) => new Set(s.split(/[\s,.:;“”"()?!-]+/).filter(Boolean));
const linksOf = (s: string) =>
  new Set([...s.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0].replace(/[.,;:)]+$/, '')));
const hrefsOf = (html: string) =>
  new Set([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&')));

describe('every mail template, fed what a hostile party writes', () => {
  it.each(TEMPLATES)('$name: one subject line, escaped HTML, the same words and links in both parts', ({ mail }) => {
    const out = render(mail);
    expect(out.subject).not.toMatch(LINE_OR_DIRECTION);
    expect(out.subject.trim()).not.toBe('');
    expect(out.to).toMatch(/^[^\s,;<>]+@[^\s,;<>]+$/);
    // Nothing written by a person becomes markup: the only tags are the layout's own.
    expect(out.html).not.toMatch(/<script|<a href="http:\/\/evil/i);
    for (const href of hrefsOf(out.html!)) expect(href.startsWith(SITE)).toBe(true);
    // The same facts and the same links in the text and the HTML part.
    expect(wordsOfHtml(out.html!)).toEqual(words(out.text));
    expect(hrefsOf(out.html!)).toEqual(new Set([...linksOf(out.text)].filter((l) => l.startsWith(SITE))));
  });

  it.each(TEMPLATES.filter((t) => t.others))(
    "$name: someone else's name is one defanged line, linking nowhere",
    ({ mail }) => {
      const out = render(mail);
      for (const part of [out.subject, out.text, out.html!]) {
        expect(part).not.toContain('http://evil.example');
        expect(part).not.toContain('victim@evil.example');
        expect(part).not.toMatch(/^Bcc:/m);
        expect(part).not.toMatch(/[\u202e\u2028]/);
      }
      expect(out.text).toContain('evil[.]example');
    },
  );

  it('masks account numbers in every payout mail', () => {
    for (const { mail } of TEMPLATES.filter((t) => /^payout(Paid|Failed|Rejected|Changed)Mail/.test(t.name))) {
      const out = render(mail);
      expect(`${out.subject}${out.text}${out.html}`).not.toContain('0123456789');
      expect(out.text).toContain('•••• 6789');
    }
  });

  it('cuts a long quoted message between two graphemes: a flag or a family is never split', () => {
    for (const emoji of ['🇳🇬', '👩‍👩‍👧', '👍🏾']) {
      const note = `${'a'.repeat(399)}${emoji}${'b'.repeat(50)}`;
      const out = render(jobEventMail('c@example.ng', { text: 'Ada sent a message on Lease Review', note, url: SITE }));
      expect(out.text).toContain(`${'a'.repeat(399)}${emoji}…”`);
      expect(out.html).toContain(`${'a'.repeat(399)}${emoji}…”`);
    }
  });
});

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('documents that leave the platform', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: Login;
  let lawyer: Login;
  let nda: string;
  const logLines: string[] = [];
  const db = () => t.rt.database.db;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  const mailsTo = (to: string) =>
    db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(asc(emailOutbox.id));
  const patch = async (who: Login, fields: Array<[string, string]>) => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    // The production logger (redaction included), kept in memory: what an operator would read.
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(
      kind,
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
      { logger: createLogger('debug', stream), clockStart: new Date('2026-11-21T09:00:00Z') },
    );
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  afterEach(async () => expect(await createLedger({ db: db(), clock: t.clock }).audit()).toEqual([]));

  /** Pays a cart of `quantity` NDAs by card through the sandbox dialog. */
  async function paidOrder(company: Login, quantity = 1) {
    await inject('POST', '/api/cart', company, { productId: nda, quantity });
    const { reference, amount, orderId } = (await inject('POST', '/api/checkout', company)).json().data;
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id as string;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return { reference: reference as string, orderId: orderId as string, job };
  }

  it("tells the admins of a lawyer's new SCN in one header line, with the lawyer's name defanged", async () => {
    const eve = await signupAndLogin(t, 'lawyer', { verified: true });
    await db().update(users).set({ name: HOSTILE }).where(eq(users.id, eve.id));
    expect((await patch(eve, [['scn', 'SCN424242']])).statusCode).toBe(200);
    const mail = await lastMailTo(t, admin.email);
    expect(mail!.subject).toMatch(/^Verify again: Eve .* changed their SCN$/);
    expect(mail!.subject).not.toMatch(LINE_OR_DIRECTION);
    for (const part of [mail!.subject, mail!.text, mail!.html!]) {
      expect(part).not.toContain('http://evil.example');
      expect(part).not.toMatch(/[\u202e\u2028]/);
    }
    expect(mail!.html).not.toMatch(/<script|<a href="http:\/\/evil/);

    // On the wire: one recipient, and the name never became a header of its own.
    await t.rt.mail.runOnce();
    const arrived = smtp.received.filter((m) => m.raw.includes('SCN424242'));
    expect(arrived.length).toBeGreaterThan(0);
    for (const m of arrived) {
      expect(m.to).toEqual([admin.email]);
      const headers = m.raw.slice(0, m.raw.indexOf('\r\n\r\n'));
      expect(headers).not.toMatch(/^Bcc:/im);
      expect(headers.match(/^Subject:/gim)).toHaveLength(1);
    }
  });

  it('a partial refund with kobo: the mail, the credit note and the receipt agree with the ledger', async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    const { reference, orderId, job } = await paidOrder(company, 2);
    const receiptBefore = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, company);
    expect(receiptBefore.statusCode).toBe(200);
    // The same order gives the same bytes while nothing was refunded.
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, admin)).rawPayload).toEqual(
      receiptBefore.rawPayload,
    );

    const cancelled = await inject('POST', `/job-api/jobs/${job.id}/actions/cancel`, admin, {
      note: 'Only the first NDA was needed.',
      refund: 12_345.67,
    });
    expect(cancelled.statusCode).toBe(200);
    const mail = (await mailsTo(company.email)).find((m) => m.subject.startsWith('Your refund of'));
    expect(mail!.subject).toBe('Your refund of ₦12,345.67 is on its way');
    expect(mail!.text).toContain('₦12,345.67 has been refunded');
    expect(mail!.html).toContain('₦12,345.67 has been refunded');

    const refundId = (await inject('GET', '/api/refunds', company)).json().refunds[0]._id as string;
    const note = await pdfText((await inject('GET', `/api/refunds/${refundId}/credit-note.pdf`, company)).rawPayload);
    expect(note).toContain('Total refunded (NGN) ₦12,345.67');
    expect(note).toContain('Partial refund: ₦12,345.67 of the ₦50,000.00 paid for this line');
    // ₦12,345.67 does not split into two whole-kobo unit prices: no unit price that does not add up.
    expect(note).not.toContain('₦6,172.84');
    expect(note).not.toContain('₦6,172.83');

    const receipt = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, company);
    const text = await pdfText(receipt.rawPayload);
    expect(text).toContain('Total paid (NGN) ₦50,000.00');
    expect(text).toContain(`Refunded (credit note CN-${reference}-${job.lineNo}) -₦12,345.67`);
    expect(text).toContain('Paid after refunds (NGN) ₦37,654.33');
    // Still the company's and the admins' only.
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, other)).statusCode).toBe(404);
    expect((await inject('GET', `/api/orders/${orderId}/receipt.pdf`, lawyer)).statusCode).toBe(403);
    expect((await inject('GET', `/api/refunds/${refundId}/credit-note.pdf`, other)).statusCode).toBe(404);
    expect((await inject('GET', `/api/refunds/${refundId}/credit-note.pdf`, lawyer)).statusCode).toBe(403);
  });

  it("mails a job's brief and documents to its parties only, with names and no file keys", async () => {
    const company = await signupAndLogin(t, 'company');
    const applicant = await signupAndLogin(t, 'lawyer', { verified: true });
    const { job } = await paidOrder(company);
    expect((await inject('POST', `/job-api/applyforjob/${job.id}`, applicant)).statusCode).toBe(200);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    const brief = 'Confidential: the counterparty is Zenith Holdings';
    const doc = await uploadDocument(t.app, company.headers, 'zenith-term-sheet.pdf');
    const given = await inject('POST', `/job-api/jobs/${job.id}/actions/give_details`, company, {
      note: brief,
      files: [{ url: doc.url, name: 'zenith-term-sheet.pdf' }],
    });
    expect(given.statusCode).toBe(200);
    const toLawyer = (await mailsTo(lawyer.email)).filter((m) => m.text.includes(brief));
    expect(toLawyer).toHaveLength(1);
    expect(toLawyer[0].text).toContain('Documents: zenith-term-sheet.pdf');
    expect(toLawyer[0].text).toContain(`${SITE}/jobs/${job.id}`);
    // The document is named, never linked: its key opens it only through the job page's signed link.
    for (const part of [toLawyer[0].text, toLawyer[0].html!]) expect(part).not.toContain(doc.key);
    for (const m of await mailsTo(applicant.email))
      expect(`${m.subject}${m.text}${m.html}`).not.toMatch(/Zenith|zenith/);
  });

  it('keeps one-time codes and link tokens out of the logs, and sends them to the sign-in address only', async () => {
    const who = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/forgot-password', null, { officialEmail: who.email })).statusCode).toBe(200);
    const code = sixDigits((await lastMailTo(t, who.email))!.text)!;
    expect(code).toMatch(/^\d{6}$/);
    const signup = uniqueEmail('fresh');
    await inject('POST', '/api/company/signup', null, {
      companyName: 'Fresh Ltd',
      contactName: 'Fresh',
      phoneNumber: '08012345678',
      officialEmail: signup,
      officeAddress: '1 Marina',
      industry: 'Retail',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    const token = linkToken((await lastMailTo(t, signup))!.text)!;
    expect((await lastMailTo(t, signup))!.text).toContain(`${SITE}/confirm-email?token=${token}`);
    await inject('GET', `/confirm-email?token=${token}`, null);
    expect((await inject('POST', '/api/confirm-email', null, { token })).statusCode).toBe(200);
    await t.rt.mail.runOnce();
    const logged = logLines.join('');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).not.toContain(code);
    expect(logged).not.toContain(token);
  });
  // Last: it moves the clock a month on, past every session of the suite.
  it('sends the mails of a plan to the address the company signs in with now, not the one it subscribed with', async () => {
    const deps = { db: db(), clock: t.clock, config: t.config, mailWritten: () => {}, securityLog: () => {} };
    const ledger = createLedger(deps);
    const provider = sandboxProvider(deps.db, t.clock);
    const refunds = createRefunds({ ...deps, provider, ledger });
    const lifecycle = createJobLifecycle(deps, { ledger, refunds });
    const plans = createPlansService(deps, { provider, ledger, lifecycle, refunds });

    const company = await signupAndLogin(t, 'company');
    const started = (await inject('POST', '/api/plans/subscribe', company, { tier: 'silver' })).json().data;
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference: started.reference,
      amount: started.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const confirmed = await inject('POST', '/api/plans/confirm', company, {
      reference: started.reference,
      transactionId: charged.json().data.transaction_id,
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await lastMailTo(t, company.email))!.subject).toBe('Your plan is active: Silver plan');

    // The company moves its sign-in address (the old one may be a former employee's inbox).
    const moved = uniqueEmail('moved');
    expect(
      (
        await patch(company, [
          ['officialEmail', moved],
          ['currentPassword', PASSWORD],
        ])
      ).statusCode,
    ).toBe(200);
    const token = linkToken((await lastMailTo(t, moved))!.text)!;
    expect((await inject('POST', '/api/confirm-email-change', null, { token })).statusCode).toBe(200);
    const oldBefore = (await mailsTo(company.email)).length;

    t.clock.advance(new Date(confirmed.json().data.renewsAt).getTime() + 60_000 - t.clock.now().getTime());
    await plans.tick();
    const renewed = (await mailsTo(moved)).find((m) => m.subject === 'Your plan renewed: Silver plan');
    expect(renewed?.text).toContain('Receipt: SUB-');
    expect((await mailsTo(company.email)).slice(oldBefore).map((m) => m.subject)).toEqual([]);
  });
});
