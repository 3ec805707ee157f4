import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { LIMITS, NIGERIAN_BANKS, messages } from '@legalmarket/contracts';
import { Secret, TOTP } from 'otpauth';
import {
  auditLog,
  cartItems,
  emailOutbox,
  jobApplications,
  jobEvents,
  jobs,
  lawyerReviews,
  notifications,
  oneTimeTokens,
  orders,
  payoutDetails,
  payouts,
  products,
  refunds,
  reviews,
  sandboxTransfers,
  subscriptions,
  users,
} from '../../src/db/schema.js';
import { createLedger } from '../../src/features/money/ledger.js';
import {
  PASSWORD,
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  lawyerBody,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { SUCCESS_CARD, insertProduct } from '../commerce-helpers.js';
import { multipart, pdfBytes, pngBytes, uploadDocument } from '../upload-helpers.js';
import { TABLE } from '../security/authz-table.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
interface Req {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

const INVITE = 'double-submit-invite-0123456789';
const DAY = 86_400_000;
const REPEAT_MS = LIMITS.repeatWindowSeconds * 1000;

/**
 * An impatient user on a slow phone network: every call that changes something is sent again at the
 * same moment with the same body (a double tap, a retry after a timeout). Whatever the order, no
 * answer is a 5xx, the second gets the same success or a 4xx naming the problem, and what the call does
 * happens once: one account, one live code and one e-mail, one application, one event and one
 * notification, one transfer, one refund, one posting. Races show on the PostgreSQL server; on PGlite
 * the same requests run one after another and must leave the same.
 */
describeEachDb('double submit: state-changing calls sent twice at once', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;
  let otherProduct: string;
  /** Every route key (as in the authorization table) these tests sent twice. */
  const tried = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp(kind, {
      ADMIN_INVITE_CODE: INVITE,
      IP_MAX_REQUESTS: '100000',
      // Mail limits per account raised: the repeats must be refused by the rule, not by the limiter.
      EMAIL_ACTION_MAX: '1000',
    });
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    otherProduct = await insertProduct(t, 'Trademark Registration', 40_000);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const send = (who: Login | null, r: Req) =>
    t.app.inject({
      method: r.method,
      url: r.url,
      payload: r.payload as string,
      headers: { ...(who?.headers ?? {}), ...(r.headers ?? {}) },
    });

  /**
   * Sends the same request `n` times at once (a builder is called once per copy, for multipart bodies,
   * which carry the same fields each time) and checks every answer is one of `allowed`: never a 5xx,
   * and each 4xx with a message.
   */
  async function atOnce(key: string, who: Login | null, req: Req | (() => Promise<Req>), allowed: number[], n = 2) {
    tried.add(key);
    const reqs = await Promise.all(Array.from({ length: n }, () => (typeof req === 'function' ? req() : req)));
    const answers = await Promise.all(reqs.map((r) => send(who, r)));
    for (const a of answers) {
      expect(a.statusCode, `${key}: ${a.body}`).toBeLessThan(500);
      expect(allowed, `${key} answered ${a.statusCode}: ${a.body}`).toContain(a.statusCode);
      if (a.statusCode >= 400) expect(typeof a.json().message, `${key}: ${a.body}`).toBe('string');
    }
    return answers;
  }
  const statuses = (rs: Res[]) => rs.map((r) => r.statusCode).sort();
  /** Exactly one of the answers is `won`, the others `lost`. */
  const oneWins = (rs: Res[], won: number, lost: number) =>
    expect(statuses(rs)).toEqual([won, ...Array<number>(rs.length - 1).fill(lost)].sort());

  const mailsTo = (email: string) =>
    db().select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(emailOutbox.id);
  const liveTokens = (userId: string, purpose: string) =>
    db()
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  const eventsOf = (jobId: string, action: string) =>
    db()
      .select()
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, jobId), eq(jobEvents.action, action)));
  const notificationsOf = (jobId: string, action: string) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.jobId, jobId), eq(notifications.action, action)));
  const auditsOf = (action: string, targetId: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

  async function relogin(who: Login): Promise<Login> {
    const res = await send(null, {
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json().token as string;
    return { ...who, token, headers: { authorization: `Bearer ${token}` } };
  }

  /** A job paid through the sandbox dialog, as the browser pays it. */
  async function paidJob(company: Login, productId = product) {
    expect(
      (await send(company, { method: 'POST', url: '/api/cart', payload: { productId, quantity: 1 } })).statusCode,
    ).toBe(201);
    const { reference, amount, orderId } = (await send(company, { method: 'POST', url: '/api/checkout' })).json().data;
    const charged = await send(company, {
      method: 'POST',
      url: '/api/checkout/sandbox/charge',
      payload: { reference, amount, currency: 'NGN', ...SUCCESS_CARD },
    });
    const transactionId = charged.json().data.transaction_id;
    expect(
      (await send(company, { method: 'POST', url: '/api/checkout/verify', payload: { reference, transactionId } }))
        .statusCode,
    ).toBe(200);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job.id;
  }
  async function assignedJob(company: Login, lawyer: Login) {
    const jobId = await paidJob(company);
    const assigned = await send(admin, {
      method: 'POST',
      url: '/job-api/assign',
      payload: { jobId, lawyerId: lawyer.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return jobId;
  }

  // ---- the defects this audit found: each test failed before its fix (the locks: on PostgreSQL) ----

  it('a confirmation resent five times at once leaves one live link, the one in the last mail, and it confirms', async () => {
    const email = uniqueEmail('resend');
    expect(
      (await send(null, { method: 'POST', url: '/api/company/signup', payload: companyBody(email) })).statusCode,
    ).toBe(201);
    const [user] = await db().select().from(users).where(eq(users.officialEmail, email));
    const answers = await atOnce(
      'POST /api/resendconfirmemail',
      null,
      { method: 'POST', url: '/api/resendconfirmemail', payload: { officialEmail: email } },
      [200],
      5,
    );
    expect(answers.map((a) => a.json().message)).toEqual(Array(5).fill(messages.confirmationEmailSent));
    // Each resend replaces the link before it (as one after another does), never leaving two beside each other.
    expect(await liveTokens(user.id, 'email_confirm')).toHaveLength(1);
    const link = linkToken((await lastMailTo(t, email))!.text);
    const confirmed = await send(null, { method: 'POST', url: '/api/confirm-email', payload: { token: link } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(messages.emailConfirmed);
  });

  it('a password reset asked for five times at once mails one code, the one live, and it works', async () => {
    const who = await signupAndLogin(t, 'company');
    const before = (await mailsTo(who.email)).length;
    await atOnce(
      'POST /api/forgot-password',
      null,
      { method: 'POST', url: '/api/forgot-password', payload: { officialEmail: who.email } },
      [200],
      5,
    );
    expect(await mailsTo(who.email)).toHaveLength(before + 1);
    expect(await liveTokens(who.id, 'password_reset')).toHaveLength(1);
    const code = sixDigits((await lastMailTo(t, who.email))!.text)!;
    const grants = await atOnce(
      'POST /api/confirm-reset-token',
      null,
      { method: 'POST', url: '/api/confirm-reset-token', payload: { officialEmail: who.email, token: code } },
      [200, 400],
    );
    oneWins(grants, 200, 400);
    const resetToken = grants.find((g) => g.statusCode === 200)!.json().resetToken as string;
    const reset = await atOnce(
      'PATCH /api/reset-password',
      null,
      {
        method: 'PATCH',
        url: `/api/reset-password?userEmail=${encodeURIComponent(who.email)}&token=${resetToken}`,
        payload: { password: 'N3w!Password', passwordConfirm: 'N3w!Password' },
      },
      [200, 400],
    );
    oneWins(reset, 200, 400);
    // The code mail and one "your password was changed".
    expect(await mailsTo(who.email)).toHaveLength(before + 2);
    // A minute after the code was used, asking again sends a new one.
    t.clock.advance(REPEAT_MS + 1000);
    await send(null, { method: 'POST', url: '/api/forgot-password', payload: { officialEmail: who.email } });
    expect(await mailsTo(who.email)).toHaveLength(before + 3);
  });

  it('a payout code asked for five times at once mails one code, and the code in that mail confirms', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const account = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: NIGERIAN_BANKS[0] };
    await atOnce(
      'POST /api/add-payment-details',
      lawyer,
      { method: 'POST', url: '/api/add-payment-details', payload: account },
      [201],
    );
    expect(await db().select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id))).toHaveLength(1);
    const afterAdd = (await mailsTo(lawyer.email)).length;
    await atOnce('POST /api/send-otp', lawyer, { method: 'POST', url: '/api/send-otp' }, [200], 5);
    expect(await mailsTo(lawyer.email)).toHaveLength(afterAdd + 1);
    expect(await liveTokens(lawyer.id, 'payout_otp')).toHaveLength(1);
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    const confirmed = await atOnce(
      'POST /api/confirm-otp',
      lawyer,
      { method: 'POST', url: '/api/confirm-otp', payload: { otp } },
      [200, 400],
    );
    oneWins(confirmed, 200, 400);
    const edited = await atOnce(
      'PATCH /api/edit-payment-details',
      lawyer,
      { method: 'PATCH', url: '/api/edit-payment-details', payload: { ...account, accountNumber: '0123456780' } },
      [200, 403],
    );
    oneWins(edited, 200, 403);
    const [saved] = await db().select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id));
    expect(saved.accountNumber).toBe('0123456780');
    // One code, one "your payout details changed".
    expect(await mailsTo(lawyer.email)).toHaveLength(afterAdd + 2);
  });

  it('an account deletion sent twice at once: both answer that it is deleted, erased and audited once', async () => {
    const who = await signupAndLogin(t, 'company');
    const answers = await atOnce(
      'POST /api/account/delete',
      who,
      { method: 'POST', url: '/api/account/delete', payload: { password: PASSWORD } },
      [200],
    );
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const [row] = await db().select().from(users).where(eq(users.id, who.id));
    expect(row.deletedAt).not.toBeNull();
    expect(await auditsOf('account.delete', who.id)).toHaveLength(1);
    // Sent again after the answer: the session ended with the account.
    expect(
      (await send(who, { method: 'POST', url: '/api/account/delete', payload: { password: PASSWORD } })).statusCode,
    ).toBe(401);
  });

  it("the spec's detail routes sent twice at once record one event, one notification each and one e-mail", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const jobId = await assignedJob(company, lawyer);
    const companyMails = (await mailsTo(company.email)).length;

    await atOnce(
      'POST /job-api/requestmorejobdetails/:id',
      lawyer,
      {
        method: 'POST',
        url: `/job-api/requestmorejobdetails/${jobId}`,
        payload: { detail: 'Please send the CAC certificate' },
      },
      [200],
    );
    expect(await eventsOf(jobId, 'request_details')).toHaveLength(1);
    expect(await notificationsOf(jobId, 'request_details')).toHaveLength(1);
    expect(await mailsTo(company.email)).toHaveLength(companyMails + 1);

    const doc = await uploadDocument(t.app, company.headers, 'cac.pdf');
    await atOnce(
      'PUT /job-api/company/editjobdetails/:jobId',
      company,
      {
        method: 'PUT',
        url: `/job-api/company/editjobdetails/${jobId}`,
        payload: { detail: 'Here is the certificate', file: doc.url, fileName: 'cac.pdf' },
      },
      [200],
    );
    expect(await eventsOf(jobId, 'give_details')).toHaveLength(1);
    // The lawyer and each admin, once each.
    const told = (await notificationsOf(jobId, 'give_details')).map((n) => n.userId);
    expect(told).toContain(lawyer.id);
    expect(told).toContain(admin.id);
    expect(new Set(told).size).toBe(told.length);

    await atOnce(
      'PUT /job-api/editjobdetails/:id',
      admin,
      { method: 'PUT', url: `/job-api/editjobdetails/${jobId}`, payload: { detail: 'Filed with the CAC today' } },
      [200],
    );
    expect(await eventsOf(jobId, 'add_details')).toHaveLength(1);
    expect((await notificationsOf(jobId, 'add_details')).map((n) => n.userId).sort()).toEqual(
      [company.id, lawyer.id].sort(),
    );
    expect(await auditsOf('job.add_details', jobId)).toHaveLength(1);

    // Other words, or the same words a minute on, are another request.
    const asked = (await mailsTo(company.email)).length;
    const ask = (detail: string) =>
      send(lawyer, { method: 'POST', url: `/job-api/requestmorejobdetails/${jobId}`, payload: { detail } });
    expect((await ask('And the board resolution')).statusCode).toBe(200);
    t.clock.advance(REPEAT_MS + 1000);
    expect((await ask('And the board resolution')).statusCode).toBe(200);
    expect(await eventsOf(jobId, 'request_details')).toHaveLength(3);
    expect(await mailsTo(company.email)).toHaveLength(asked + 2);
  });

  // ---- every other state-changing route, tried the same way ----

  it('a sign-up sent five times at once makes one account, and the link it mails confirms it', async () => {
    const bodies = {
      company: (email: string) => companyBody(email),
      lawyer: (email: string) => lawyerBody(email),
      admin: (email: string) => ({
        name: 'New Admin',
        phoneNumber: '08011112222',
        officialEmail: email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        inviteCode: INVITE,
      }),
    };
    for (const role of ['company', 'lawyer', 'admin'] as const) {
      const email = uniqueEmail(`twice-${role}`);
      const answers = await atOnce(
        `POST /api/${role}/signup`,
        null,
        { method: 'POST', url: `/api/${role}/signup`, payload: bodies[role](email) },
        [201],
        5,
      );
      expect(new Set(answers.map((a) => a.body)).size, role).toBe(1);
      expect(await db().select().from(users).where(eq(users.officialEmail, email)), role).toHaveLength(1);
      // One confirmation link; the others were told the address has an account, as a later sign-up is
      // (accounts.test.ts: the answer never says which).
      const mails = await mailsTo(email);
      const links = mails.filter((m) => linkToken(m.text) && /confirm-email\?token=/.test(m.text));
      expect(links, role).toHaveLength(1);
      expect(mails, role).toHaveLength(5);
      const confirmed = await send(null, {
        method: 'POST',
        url: '/api/confirm-email',
        payload: { token: linkToken(links[0].text) },
      });
      expect(confirmed.statusCode, role).toBe(200);
    }
  });

  it('account routes: confirm, log in and out, two-factor, e-mail change and profile', async () => {
    const email = uniqueEmail('confirm-twice');
    await send(null, { method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const token = linkToken((await lastMailTo(t, email))!.text);
    const confirmed = await atOnce(
      'POST /api/confirm-email',
      null,
      { method: 'POST', url: '/api/confirm-email', payload: { token } },
      [200],
    );
    expect(confirmed.map((c) => c.json().message).sort()).toEqual(
      [messages.emailAlreadyConfirmed, messages.emailConfirmed].sort(),
    );

    const who = await signupAndLogin(t, 'company');
    await atOnce(
      'POST /api/login',
      null,
      { method: 'POST', url: '/api/login', payload: { officialEmail: who.email, password: PASSWORD } },
      [200],
      5,
    );
    const throwaway = await relogin(who);
    await atOnce('POST /api/logout', throwaway, { method: 'POST', url: '/api/logout' }, [200]);
    // Signing out the other devices twice at once ends each other session once (the five sign-ins above
    // and one more) and keeps the caller's (decision 2245).
    const other = await relogin(who);
    const outs = await atOnce('POST /api/logout/others', who, { method: 'POST', url: '/api/logout/others' }, [200]);
    expect(outs.reduce((n, a) => n + (a.json().data.ended as number), 0)).toBe(6);
    const unread = (l: Login) => t.app.inject({ method: 'GET', url: '/api/notifications/unread', headers: l.headers });
    expect((await unread(other)).statusCode).toBe(401);
    expect((await unread(who)).statusCode).toBe(200);

    // Two-factor: two set-ups at once answer the one secret kept (decision 2221); it turns it on once,
    // and each code is taken once.
    const setups = await atOnce(
      'POST /api/two-factor/setup',
      who,
      { method: 'POST', url: '/api/two-factor/setup', payload: { password: PASSWORD } },
      [200],
    );
    const codeAt = (secret: string) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    let secret: string | undefined;
    for (const s of new Set(setups.map((a) => a.json().data.secret as string))) {
      const on = await atOnce(
        'POST /api/two-factor/enable',
        who,
        { method: 'POST', url: '/api/two-factor/enable', payload: { code: codeAt(s) } },
        [200, 400, 409],
      );
      if (on.some((a) => a.statusCode === 200)) {
        oneWins(on, 200, 409);
        secret = s;
        break;
      }
    }
    expect(secret).toBeDefined();
    t.clock.advance(31_000);
    oneWins(
      await atOnce(
        'POST /api/two-factor/verify',
        who,
        { method: 'POST', url: '/api/two-factor/verify', payload: { code: codeAt(secret!) } },
        [200, 400],
      ),
      200,
      400,
    );
    t.clock.advance(31_000);
    const challengeToken = (
      await send(null, { method: 'POST', url: '/api/login', payload: { officialEmail: who.email, password: PASSWORD } })
    ).json().challengeToken as string;
    oneWins(
      await atOnce(
        'POST /api/login/two-factor',
        null,
        { method: 'POST', url: '/api/login/two-factor', payload: { challengeToken, code: codeAt(secret!) } },
        [200, 401],
      ),
      200,
      401,
    );
    await atOnce(
      'POST /dev/two-factor/forget-code',
      who,
      { method: 'POST', url: '/dev/two-factor/forget-code' },
      [200],
    );
    t.clock.advance(31_000);
    const off = await atOnce(
      'POST /api/two-factor/disable',
      who,
      { method: 'POST', url: '/api/two-factor/disable', payload: { code: codeAt(secret!) } },
      [200, 400, 409],
    );
    expect(off.filter((a) => a.statusCode === 200)).toHaveLength(1);

    // Profile: the same form twice saves it once, as it was sent.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const form = async (): Promise<Req> => {
      const b = await multipart([
        { name: 'yourBio', value: 'Technology and tax.' },
        { name: 'scn', value: 'SCN998877' },
        { name: 'profileImage', file: { data: pngBytes(), filename: 'me.png', type: 'image/png' } },
      ]);
      return { method: 'PATCH', url: `/api/updateprofile?_id=${lawyer.id}`, payload: b.payload, headers: b.headers };
    };
    await atOnce('PATCH /api/updateprofile', lawyer, form, [200]);
    // A verified lawyer's new SCN withdraws the badge and tells the admins once (decision 1810).
    expect(await auditsOf('lawyer.scn_change', lawyer.id)).toHaveLength(1);

    // A new sign-in e-mail: one change, whichever link is used, and the undo link works once.
    const mover = await signupAndLogin(t, 'company');
    const next = uniqueEmail('moving');
    const ask = async (): Promise<Req> => {
      const b = await multipart([
        { name: 'officialEmail', value: next },
        { name: 'currentPassword', value: PASSWORD },
      ]);
      return { method: 'PATCH', url: `/api/updateprofile?_id=${mover.id}`, payload: b.payload, headers: b.headers };
    };
    await atOnce('PATCH /api/updateprofile', mover, ask, [200]);
    const link = linkToken((await lastMailTo(t, next))!.text);
    oneWins(
      await atOnce(
        'POST /api/confirm-email-change',
        null,
        { method: 'POST', url: '/api/confirm-email-change', payload: { token: link } },
        [200, 400],
      ),
      200,
      400,
    );
    expect(await db().select().from(users).where(eq(users.officialEmail, next))).toHaveLength(1);
    const undo = linkToken((await lastMailTo(t, mover.email))!.text);
    oneWins(
      await atOnce(
        'POST /api/undo-email-change',
        null,
        { method: 'POST', url: '/api/undo-email-change', payload: { token: undo } },
        [200, 400],
      ),
      200,
      400,
    );
    expect((await db().select().from(users).where(eq(users.id, mover.id)))[0].officialEmail).toBe(mover.email);
  });

  it('cart, checkout and payment: one line, one pending order, one set of jobs', async () => {
    const company = await signupAndLogin(t, 'company');
    const line = () => db().select().from(cartItems).where(eq(cartItems.companyId, company.id));
    // A product added again adds to its line (decision 1800): one line, both quantities.
    await atOnce(
      'POST /api/cart',
      company,
      { method: 'POST', url: '/api/cart', payload: { productId: product, quantity: 1, detail: 'For our supplier' } },
      [201],
    );
    expect((await line()).map((l) => [l.productId, l.quantity, l.detail])).toEqual([[product, 2, 'For our supplier']]);
    const reservationId = crypto.randomUUID();
    await atOnce(
      'POST /api/cart/reservations',
      company,
      {
        method: 'POST',
        url: '/api/cart/reservations',
        payload: { items: [{ reservationId, productId: otherProduct, quantity: 1 }] },
      },
      [200],
      5,
    );
    expect((await line()).find((l) => l.productId === otherProduct)?.quantity).toBe(1);
    await atOnce('DELETE /api/cart/:productId', company, { method: 'DELETE', url: `/api/cart/${otherProduct}` }, [200]);
    await atOnce('POST /api/clear-cart', company, { method: 'POST', url: '/api/clear-cart' }, [200]);
    expect(await line()).toHaveLength(0);

    await send(company, { method: 'POST', url: '/api/cart', payload: { productId: product, quantity: 1 } });
    const started = await atOnce('POST /api/checkout', company, { method: 'POST', url: '/api/checkout' }, [200], 5);
    expect(new Set(started.map((s) => s.json().data.reference)).size).toBe(1);
    const pending = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.companyId, company.id), eq(orders.status, 'pending')));
    expect(pending).toHaveLength(1);
    const { reference, amount } = started[0].json().data;
    const accounts = await atOnce(
      'POST /api/checkout/sandbox/virtual-account',
      company,
      { method: 'POST', url: '/api/checkout/sandbox/virtual-account', payload: { reference } },
      [200],
    );
    expect(new Set(accounts.map((a) => a.json().data.accountNumber)).size).toBe(1);
    // The sandbox stands for the provider: a card charged twice is two charges there (the second is
    // logged for a refund when it arrives, decision 2130); the order is paid once.
    const charged = await atOnce(
      'POST /api/checkout/sandbox/charge',
      company,
      {
        method: 'POST',
        url: '/api/checkout/sandbox/charge',
        payload: { reference, amount, currency: 'NGN', ...SUCCESS_CARD },
      },
      [200],
    );
    const transactionId = charged[0].json().data.transaction_id;
    await atOnce(
      'POST /api/checkout/verify',
      company,
      { method: 'POST', url: '/api/checkout/verify', payload: { reference, transactionId } },
      [200],
      5,
    );
    expect(await db().select().from(jobs).where(eq(jobs.companyId, company.id))).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(orders)
        .where(and(eq(orders.companyId, company.id), eq(orders.status, 'paid'))),
    ).toHaveLength(1);
  });

  it('reviews: one review per product and per job, one reply', async () => {
    const company = await signupAndLogin(t, 'company');
    const posted = await atOnce(
      'POST /api/rating',
      company,
      {
        method: 'POST',
        url: '/api/rating',
        payload: { productId: product, reviewTitle: 'Quick', review: 'Clear work.', status: 4 },
      },
      [200, 201],
    );
    expect(await db().select().from(reviews).where(eq(reviews.companyId, company.id))).toHaveLength(1);
    const id = posted[0].json()._id as string;
    await atOnce(
      'PATCH /api/rating/:id',
      company,
      {
        method: 'PATCH',
        url: `/api/rating/${id}`,
        payload: { productId: product, reviewTitle: 'Quick', review: 'Very clear.', status: 5 },
      },
      [200],
    );
    oneWins(
      await atOnce('DELETE /api/rating/:id', company, { method: 'DELETE', url: `/api/rating/${id}` }, [200, 404]),
      200,
      404,
    );

    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const jobId = await assignedJob(company, lawyer);
    expect(
      (await send(admin, { method: 'POST', url: `/job-api/jobs/${jobId}/actions/complete`, payload: {} })).statusCode,
    ).toBe(200);
    const review = await atOnce(
      'POST /api/lawyer-reviews',
      company,
      {
        method: 'POST',
        url: '/api/lawyer-reviews',
        payload: { jobId, stars: 4, reviewTitle: 'On time', review: 'Clear.' },
      },
      [201, 409],
    );
    oneWins(review, 201, 409);
    expect(await db().select().from(lawyerReviews).where(eq(lawyerReviews.jobId, jobId))).toHaveLength(1);
    const reviewId = review.find((r) => r.statusCode === 201)!.json().data.review._id as string;
    await atOnce(
      'PATCH /api/lawyer-reviews/:id',
      company,
      {
        method: 'PATCH',
        url: `/api/lawyer-reviews/${reviewId}`,
        payload: { stars: 5, reviewTitle: 'On time', review: 'Clear and quick.' },
      },
      [200],
    );
    const before = (await mailsTo(company.email)).length;
    oneWins(
      await atOnce(
        'POST /api/lawyer-reviews/:id/reply',
        lawyer,
        { method: 'POST', url: `/api/lawyer-reviews/${reviewId}/reply`, payload: { reply: 'Thank you.' } },
        [200, 409],
      ),
      200,
      409,
    );
    expect((await mailsTo(company.email)).length - before).toBeLessThanOrEqual(1);
  });

  it('a job from application to acceptance, and an admin cancelling: one step each, money moved once', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const jobId = await paidJob(company);
    await atOnce(
      'POST /job-api/applyforjob/:id',
      lawyer,
      { method: 'POST', url: `/job-api/applyforjob/${jobId}`, payload: {} },
      [200],
      5,
    );
    expect(await db().select().from(jobApplications).where(eq(jobApplications.jobId, jobId))).toHaveLength(1);
    expect(await eventsOf(jobId, 'apply')).toHaveLength(1);
    const told = (await notificationsOf(jobId, 'apply')).map((n) => n.userId);
    expect(told).toContain(admin.id);
    expect(new Set(told).size).toBe(told.length);
    oneWins(
      await atOnce(
        'POST /job-api/assign',
        admin,
        { method: 'POST', url: '/job-api/assign', payload: { jobId, lawyerId: lawyer.id } },
        [200, 409],
      ),
      200,
      409,
    );
    const act = (who: Login, action: string, payload: object, n = 2, allowed = [200, 409]) =>
      atOnce(
        'POST /job-api/jobs/:id/actions/:action',
        who,
        { method: 'POST', url: `/job-api/jobs/${jobId}/actions/${action}`, payload },
        allowed,
        n,
      );
    await act(company, 'message', { note: 'Any news?', key: 'msg-key-0001' }, 5, [200]);
    expect(await eventsOf(jobId, 'message')).toHaveLength(1);
    const draft = await uploadDocument(t.app, lawyer.headers, 'draft.pdf');
    oneWins(await act(lawyer, 'deliver', { files: [{ url: draft.url, name: 'draft.pdf' }] }), 200, 409);
    oneWins(await act(company, 'request_changes', { note: 'Clause 4, please.' }), 200, 409);
    const again = await uploadDocument(t.app, lawyer.headers, 'draft-2.pdf');
    oneWins(await act(lawyer, 'deliver_again', { files: [{ url: again.url, name: 'draft-2.pdf' }] }), 200, 409);
    oneWins(await act(company, 'accept', {}), 200, 409);
    expect(await eventsOf(jobId, 'accept')).toHaveLength(1);
    const newest = (await eventsOf(jobId, 'accept'))[0].id;
    await atOnce(
      'POST /job-api/jobs/:id/read',
      company,
      { method: 'POST', url: `/job-api/jobs/${jobId}/read`, payload: { lastEventId: String(newest) } },
      [200],
    );
    await atOnce(
      'POST /api/notifications/read',
      lawyer,
      { method: 'POST', url: '/api/notifications/read', payload: { all: true } },
      [200],
    );

    const other = await assignedJob(company, lawyer);
    oneWins(
      await atOnce(
        'PUT /job-api/completejob/:id',
        admin,
        { method: 'PUT', url: `/job-api/completejob/${other}`, payload: {} },
        [200, 409],
      ),
      200,
      409,
    );
    const cancelled = await paidJob(company);
    const cancels = await atOnce(
      'POST /job-api/jobs/:id/actions/:action',
      admin,
      { method: 'POST', url: `/job-api/jobs/${cancelled}/actions/cancel`, payload: {} },
      [200, 409],
      5,
    );
    oneWins(cancels, 200, 409);
    expect(await db().select().from(refunds).where(eq(refunds.jobId, cancelled))).toHaveLength(1);
    const [refund] = await db().select().from(refunds).where(eq(refunds.jobId, cancelled));
    // Already settled by the sandbox: both are told so.
    await atOnce(
      'POST /api/admin/refunds/:id/retry',
      admin,
      { method: 'POST', url: `/api/admin/refunds/${refund.id}/retry`, payload: {} },
      [409],
    );
    await atOnce('POST /dev/scheduler/tick', null, { method: 'POST', url: '/dev/scheduler/tick', payload: {} }, [200]);
  });

  it('payouts: one request takes the money, one transfer per approval, a rejection mailed once', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    for (let i = 0; i < 2; i++) {
      const company = await signupAndLogin(t, 'company');
      const jobId = await assignedJob(company, lawyer);
      expect(
        (await send(admin, { method: 'POST', url: `/job-api/jobs/${jobId}/actions/complete`, payload: {} })).statusCode,
      ).toBe(200);
    }
    // Ending in 2222: the sandbox keeps its transfers pending until the admin says how they end.
    await send(lawyer, {
      method: 'POST',
      url: '/api/add-payment-details',
      payload: { accountNumber: '0123452222', accountName: 'Chidi Okeke', bank: NIGERIAN_BANKS[0] },
    });
    t.clock.advance(8 * DAY);
    admin = await relogin(admin);
    const me = await relogin(lawyer);
    const mine = () => db().select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
    oneWins(
      await atOnce(
        'POST /api/lawyer/payouts',
        me,
        { method: 'POST', url: '/api/lawyer/payouts', payload: { amount: 30_000 } },
        [201, 400],
      ),
      201,
      400,
    );
    expect(await mine()).toHaveLength(1);
    const [first] = await mine();
    await atOnce(
      'POST /api/admin/payouts/:id/approve',
      admin,
      { method: 'POST', url: `/api/admin/payouts/${first.id}/approve`, payload: {} },
      [200],
      5,
    );
    expect(await db().select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, first.id))).toHaveLength(1);
    oneWins(
      await atOnce(
        'POST /api/admin/payouts/:id/sandbox-outcome',
        admin,
        { method: 'POST', url: `/api/admin/payouts/${first.id}/sandbox-outcome`, payload: { status: 'SUCCESSFUL' } },
        [200, 409],
      ),
      200,
      409,
    );
    const second = (await send(me, { method: 'POST', url: '/api/lawyer/payouts', payload: { amount: 1_000 } })).json()
      .payout._id as string;
    const third = (await send(me, { method: 'POST', url: '/api/lawyer/payouts', payload: { amount: 1_000 } })).json()
      .payout._id as string;
    await atOnce(
      'POST /api/admin/payouts/approve',
      admin,
      { method: 'POST', url: '/api/admin/payouts/approve', payload: { ids: [second] } },
      [200],
    );
    expect(await db().select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, second))).toHaveLength(1);
    const before = (await mailsTo(lawyer.email)).length;
    await atOnce(
      'POST /api/admin/payouts/:id/reject',
      admin,
      {
        method: 'POST',
        url: `/api/admin/payouts/${third}/reject`,
        payload: { reason: 'Details do not match the contract' },
      },
      [200],
    );
    expect(await mailsTo(lawyer.email)).toHaveLength(before + 1);
    expect(await auditsOf('payout.reject', third)).toHaveLength(1);
    // The lawyer's own cancel pressed again while the first is on its way: cancelled once, mailed once.
    const fourth = (await send(me, { method: 'POST', url: '/api/lawyer/payouts', payload: { amount: 1_000 } })).json()
      .payout._id as string;
    const beforeCancel = (await mailsTo(lawyer.email)).length;
    await atOnce(
      'POST /api/lawyer/payouts/:id/cancel',
      me,
      { method: 'POST', url: `/api/lawyer/payouts/${fourth}/cancel`, payload: {} },
      [200],
      5,
    );
    expect(await mailsTo(lawyer.email)).toHaveLength(beforeCancel + 1);
    expect(await auditsOf('payout.cancel', fourth)).toHaveLength(1);
  });

  it('monthly plans: one plan for a payment confirmed five times, one cancel', async () => {
    const company = await signupAndLogin(t, 'company');
    const starts = await atOnce(
      'POST /api/plans/subscribe',
      company,
      { method: 'POST', url: '/api/plans/subscribe', payload: { tier: 'silver' } },
      [200],
    );
    expect(new Set(starts.map((s) => s.json().data.reference)).size).toBe(1);
    const { reference, amount } = starts[0].json().data;
    const charged = await send(company, {
      method: 'POST',
      url: '/api/checkout/sandbox/charge',
      payload: { reference, amount, currency: 'NGN', ...SUCCESS_CARD },
    });
    const transactionId = charged.json().data.transaction_id;
    await atOnce(
      'POST /api/plans/confirm',
      company,
      { method: 'POST', url: '/api/plans/confirm', payload: { reference, transactionId } },
      [200],
      5,
    );
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(1);
    await atOnce(
      'POST /api/plans/mine/tier',
      company,
      { method: 'POST', url: '/api/plans/mine/tier', payload: { tier: 'gold' } },
      [200],
    );
    await atOnce(
      'POST /api/plans/mine/requests',
      company,
      {
        method: 'POST',
        url: '/api/plans/mine/requests',
        payload: { kind: 'draft', detail: 'A distribution agreement', key: 'plan-draft-0001' },
      },
      [200, 201],
      5,
    );
    expect(await db().select().from(jobs).where(eq(jobs.companyId, company.id))).toHaveLength(1);
    oneWins(
      await atOnce(
        'POST /api/plans/mine/cancel',
        company,
        { method: 'POST', url: '/api/plans/mine/cancel', payload: {} },
        [200, 409],
      ),
      200,
      409,
    );
  });

  it('admin routes: a lawyer verified or refused once, settings and the catalogue saved as sent', async () => {
    const toVerify = await signupAndLogin(t, 'lawyer');
    await atOnce(
      'PATCH /api/verifylawyer/:id',
      admin,
      { method: 'PATCH', url: `/api/verifylawyer/${toVerify.id}`, payload: { verified: true } },
      [200],
    );
    expect(await auditsOf('lawyer.verify', toVerify.id)).toHaveLength(1);
    const toRefuse = await signupAndLogin(t, 'lawyer');
    const before = (await mailsTo(toRefuse.email)).length;
    await atOnce(
      'POST /api/rejectlawyer/:id',
      admin,
      {
        method: 'POST',
        url: `/api/rejectlawyer/${toRefuse.id}`,
        payload: { reason: 'Your SCN does not match the roll.' },
      },
      [200],
    );
    expect(await mailsTo(toRefuse.email)).toHaveLength(before + 1);

    await atOnce(
      'PUT /api/admin/money-settings',
      admin,
      { method: 'PUT', url: '/api/admin/money-settings', payload: { commissionPercent: 20, holdDays: 7 } },
      [200],
    );
    await atOnce(
      'PUT /api/admin/settlement-account',
      admin,
      {
        method: 'PUT',
        url: '/api/admin/settlement-account',
        payload: { accountNumber: '0987654321', accountName: 'LegalMarket Ltd', bank: NIGERIAN_BANKS[1] },
      },
      [200],
    );
    await atOnce(
      'POST /api/admin/holidays',
      admin,
      { method: 'POST', url: '/api/admin/holidays', payload: { date: '2031-02-03', name: 'A holiday' } },
      [200],
    );
    oneWins(
      await atOnce(
        'DELETE /api/admin/holidays/:date',
        admin,
        { method: 'DELETE', url: '/api/admin/holidays/2031-02-03' },
        [200, 404],
      ),
      200,
      404,
    );
    await atOnce(
      'PUT /api/remuneration-order',
      admin,
      {
        method: 'PUT',
        url: '/api/remuneration-order',
        payload: pdfBytes('order'),
        headers: { 'content-type': 'application/pdf' },
      },
      [200],
    );

    const form =
      (fields: Array<{ name: string; value: string }>, image = false) =>
      async (): Promise<Req> => {
        const b = await multipart([
          ...fields,
          ...(image
            ? [{ name: 'productImage', file: { data: pngBytes(), filename: 'p.png', type: 'image/png' } }]
            : []),
        ]);
        return { method: 'POST', url: '', payload: b.payload, headers: b.headers };
      };
    const fields = [
      { name: 'productName', value: 'Employment Contract' },
      { name: 'productPrice', value: '30000' },
      { name: 'productDescription', value: 'Drafted for your staff.' },
    ];
    // No key names a product: two taps are two products (left to the admin; see the report).
    await atOnce(
      'POST /api/create',
      admin,
      async () => ({ ...(await form(fields, true)()), url: '/api/create' }),
      [201],
    );
    await atOnce(
      'PUT /api/update/:id',
      admin,
      async () => ({ ...(await form(fields)()), method: 'PUT', url: `/api/update/${otherProduct}` }),
      [200],
    );
    const doomed = await insertProduct(t, 'Doomed', 1_000);
    await atOnce('DELETE /api/delete/:id', admin, { method: 'DELETE', url: `/api/delete/${doomed}` }, [200, 404]);
    expect((await db().select().from(products).where(eq(products.id, doomed)))[0].deletedAt).not.toBeNull();

    const upload = async (): Promise<Req> => {
      const b = await multipart([
        { name: 'file', file: { data: pdfBytes(), filename: 'a.pdf', type: 'application/pdf' } },
      ]);
      return { method: 'POST', url: '/api/uploads?kind=document', payload: b.payload, headers: b.headers };
    };
    await atOnce('POST /api/uploads', admin, upload, [201]);
  });

  it('tried every state-changing route of the authorization table', () => {
    // Proven elsewhere: a signed delivery the sandbox provider here does not send, a link mailed on enrolment.
    const elsewhere: Record<string, string> = {
      'POST /api/payments/webhook':
        'test/reliability/payments-attack.test.ts: the same genuine webhook 50 times at once fulfils once',
      'POST /api/two-factor/not-me':
        'test/security/two-factor-not-me.test.ts: three confirmations at once take effect once',
      'POST /api/payment-details/not-me':
        'test/security/payout-details-not-me.test.ts: three confirmations at once take effect once',
    };
    const changing = Object.keys(TABLE).filter((k) => !k.startsWith('GET '));
    const missing = changing.filter((k) => !tried.has(k) && !elsewhere[k]);
    expect(missing).toEqual([]);
  });
});
