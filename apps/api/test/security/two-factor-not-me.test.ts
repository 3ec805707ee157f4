import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { messages, TWO_FACTOR, twoFactorMessages } from '@legalmarket/contracts';
import { auditLog, oneTimeTokens, twoFactorRecoveryCodes } from '../../src/db/schema.js';
import {
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  otherConnection,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { NEW_PASSWORD, RESET_SUBJECT, TWO_FACTOR_ON_SUBJECT, twoFactorKit } from '../two-factor-kit.js';

/**
 * "This wasn't me" (decision 2220): a thief holding a session and the password turns two-factor on with
 * their own app, which signs the owner out everywhere (decision 2181) and survives a password reset.
 * The two-factor-on e-mail's link gives the owner the account back. Called as the web page and a mail
 * scanner would, through the API.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ACCOUNT = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' };

describeEachDb('"This wasn\'t me" undoes a two-factor enrolment (decision 2220)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const kit = twoFactorKit(() => t);
  const { call, login, me, codeOf, nextStep, anotherSession, enrol, mailsTo } = kit;
  const { notMeToken, liveSessions, enrolment, userRow, askToMove } = kit;
  const check = (token: string) => call('GET', `/api/two-factor/not-me?token=${encodeURIComponent(token)}`, null);
  const confirm = (token: string, who: Login | null = null) => call('POST', '/api/two-factor/not-me', who, { token });
  const mailsAbout = async (to: string, subject: string) => (await mailsTo(to)).filter((m) => m.subject === subject);
  const liveTokens = async (userId: string) =>
    (
      await db()
        .select({ purpose: oneTimeTokens.purpose })
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt)))
    )
      .map((r) => r.purpose)
      .sort();

  /** The owner signs in; the thief signs in with the stolen password and enrols their own app. */
  async function stolen(type: 'company' | 'lawyer' = 'company') {
    const owner = await signupAndLogin(t, type, { verified: true });
    const thief = await anotherSession(owner);
    const secret = await enrol(thief);
    return { owner, thief, secret, token: await notMeToken(owner.email) };
  }
  /** The reset code e-mailed after the link was confirmed sets a new password. */
  async function resetWithMailedCode(email: string) {
    const mail = (await mailsAbout(email, RESET_SUBJECT)).at(-1);
    expect(mail).toBeTruthy();
    const code = sixDigits(mail!.text)!;
    const grant = await call('POST', '/api/confirm-reset-token', null, { officialEmail: email, token: code });
    expect(grant.statusCode).toBe(200);
    const done = await call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(email)}&token=${grant.json().resetToken}`,
      null,
      { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
    );
    expect(done.statusCode).toBe(200);
  }

  it('the two-factor-on e-mail carries the link, in HTML and in text', async () => {
    const { owner } = await stolen();
    const [mail] = await mailsAbout(owner.email, TWO_FACTOR_ON_SUBJECT);
    const token = linkToken(mail.text)!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const url = `http://localhost:3000/two-factor-not-me?token=${token}`;
    expect(mail.text).toContain(`This wasn’t me: ${url}`);
    expect(mail.text).toContain(`works once, for ${TWO_FACTOR.notMeLinkDays} days`);
    expect(mail.html).toContain(`<a href="${url}"`);
    expect(mail.html).toContain('This wasn’t me</a>');
    // Stored hashed, for that enrolment and that address.
    const [row] = await db()
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, owner.id), eq(oneTimeTokens.purpose, 'two_factor_not_me')));
    expect(row.tokenHash).not.toBe(token);
    expect(row.twoFactorEnrolmentId).toBe((await enrolment(owner.id)).enrolmentId);
    expect(row.email).toBe(owner.email);
    expect(row.expiresAt.getTime() - t.clock.now().getTime()).toBe(TWO_FACTOR.notMeLinkDays * DAY);
  });

  it('opening the link (GET) changes nothing, however often a scanner opens it', async () => {
    const { owner, thief, token } = await stolen();
    const before = { user: await userRow(owner.id), mails: (await mailsTo(owner.email)).length };
    for (let i = 0; i < 3; i++) {
      const res = await check(token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        enabledAt: (await enrolment(owner.id)).enabledAt!.toISOString(),
        expiresAt: new Date(t.clock.now().getTime() + TWO_FACTOR.notMeLinkDays * DAY).toISOString(),
      });
    }
    expect((await enrolment(owner.id)).enabledAt).not.toBeNull();
    expect((await me(thief)).statusCode).toBe(200);
    expect(await userRow(owner.id)).toEqual(before.user);
    expect((await mailsTo(owner.email)).length).toBe(before.mails);
    expect(await liveTokens(owner.id)).toEqual(['two_factor_not_me']);
    expect((await login(owner.email)).json().twoFactorRequired).toBe(true);
  });

  it('confirming turns two-factor off, ends the thief, kills what is open, refuses the old password and mails a reset that works', async () => {
    const { owner, thief, secret, token } = await stolen('lawyer');
    // What the thief leaves open: a sign-in waiting for its code, a change of address to their inbox
    // (their enrolment stamped the step-up), a payout grant and a payout code, a reset token.
    const challengeToken = (await login(owner.email)).json().challengeToken as string;
    expect(challengeToken).toBeTruthy();
    const thiefInbox = uniqueEmail('thief');
    const changeToken = await askToMove(owner, thief, thiefInbox);
    expect((await call('POST', '/api/add-payment-details', thief, ACCOUNT)).statusCode).toBe(201);
    expect((await call('POST', '/api/send-otp', thief)).statusCode).toBe(200);
    const payoutCode = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    expect((await call('POST', '/api/confirm-otp', thief, { otp: payoutCode })).statusCode).toBe(200);
    expect((await call('POST', '/api/send-otp', thief)).statusCode).toBe(200);
    expect((await call('POST', '/api/forgot-password', null, { officialEmail: owner.email })).statusCode).toBe(200);
    const resetCode = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grant = await call('POST', '/api/confirm-reset-token', null, {
      officialEmail: owner.email,
      token: resetCode,
    });
    expect(grant.statusCode).toBe(200);
    expect(await liveTokens(owner.id)).toEqual([
      'email_change',
      'email_change_undo',
      'password_reset_grant',
      'payout_details_not_me',
      'payout_grant',
      'payout_otp',
      'two_factor_login',
      'two_factor_not_me',
    ]);

    const res = await confirm(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      message: twoFactorMessages.notMeDone,
      data: { officialEmail: owner.email },
    });
    // Two-factor off: the thief's app and recovery codes are gone.
    expect(await enrolment(owner.id)).toBeUndefined();
    expect(await db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, owner.id))).toEqual(
      [],
    );
    // The thief is out and stays out.
    expect((await me(thief)).statusCode).toBe(401);
    expect(await liveSessions(owner.id)).toBe(0);
    const old = await login(owner.email);
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(messages.invalidCredentials);
    nextStep();
    const second = await call('POST', '/api/login/two-factor', null, { challengeToken, code: codeOf(secret) });
    expect(second.statusCode).toBe(401);
    expect((await call('POST', '/api/confirm-email-change', null, { token: changeToken })).statusCode).toBe(400);
    expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
    const oldGrant = await call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
      null,
      { password: 'Th1ef!Passw0rd', passwordConfirm: 'Th1ef!Passw0rd' },
    );
    expect(oldGrant.statusCode).toBe(400);
    // Only the new reset code and the owner's links are left: the address change's undo, and the
    // "This wasn't me" of the payout account the thief saved (decision 2244).
    expect(await liveTokens(owner.id)).toEqual(['email_change_undo', 'password_reset', 'payout_details_not_me']);
    expect((await mailsAbout(owner.email, RESET_SUBJECT)).length).toBe(1);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, owner.id), eq(auditLog.action, 'two_factor.not_me')));
    expect(audit.targetId).toBe(owner.id);

    // The owner sets a new password with the mailed code and signs in without a second factor.
    await resetWithMailedCode(owner.email);
    const back = await login(owner.email, NEW_PASSWORD);
    expect(back.statusCode).toBe(200);
    expect(back.json().token).toBeTruthy();
    expect(back.json().twoFactorRequired).toBeUndefined();
  });

  it('works once: a second confirmation and a later check say the link was used, and change nothing', async () => {
    const { owner, token } = await stolen();
    expect((await confirm(token)).statusCode).toBe(200);
    await resetWithMailedCode(owner.email);
    const mails = (await mailsTo(owner.email)).length;
    for (const res of [await confirm(token), await check(token)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(twoFactorMessages.notMeLinkUsed);
    }
    expect((await mailsTo(owner.email)).length).toBe(mails);
    expect((await login(owner.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a link of an enrolment that was turned off, or turned off and on again, no longer applies', async () => {
    const owner = await signupAndLogin(t, 'company');
    const secret = await enrol(owner);
    const first = await notMeToken(owner.email);
    nextStep();
    expect((await call('POST', '/api/two-factor/disable', owner, { code: codeOf(secret) })).statusCode).toBe(200);
    // Off: the link has nothing to undo.
    let res = await check(first);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(twoFactorMessages.notMeLinkStale);
    // On again (a new enrolment, a new e-mail): the old link still does nothing.
    const again = await enrol(owner);
    const second = await notMeToken(owner.email);
    expect(second).not.toBe(first);
    for (res of [await check(first), await confirm(first)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(twoFactorMessages.notMeLinkStale);
    }
    expect((await enrolment(owner.id)).enabledAt).not.toBeNull();
    expect((await me(owner)).statusCode).toBe(200);
    nextStep();
    expect((await call('POST', '/api/two-factor/verify', owner, { code: codeOf(again) })).statusCode).toBe(200);
    // The latest link works.
    expect((await confirm(second)).statusCode).toBe(200);
    expect(await enrolment(owner.id)).toBeUndefined();
  });

  it(`expires after ${TWO_FACTOR.notMeLinkDays} days`, async () => {
    const { owner, thief, token } = await stolen();
    t.clock.advance(TWO_FACTOR.notMeLinkDays * DAY - MINUTE);
    expect((await check(token)).statusCode).toBe(200);
    t.clock.advance(2 * MINUTE);
    for (const res of [await check(token), await confirm(token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json().message).toBe(twoFactorMessages.notMeLinkExpired);
    }
    expect((await enrolment(owner.id)).enabledAt).not.toBeNull();
    expect(await liveSessions(owner.id)).toBe(1);
    expect((await login(owner.email)).json().twoFactorRequired).toBe(true);
    expect(thief.id).toBe(owner.id);
  });

  it('an unknown, cut or missing token is named as such, never a 500', async () => {
    const unknown = 'x'.repeat(43);
    for (const res of [await check(unknown), await confirm(unknown)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(twoFactorMessages.notMeLinkUnknown);
    }
    for (const res of [await check('abc'), await confirm('abc')]) {
      expect(res.statusCode).toBe(400);
      // A validation answer names the field it refuses.
      expect(res.json().message).toBe(`token: ${twoFactorMessages.notMeLinkUnknown}`);
    }
    for (const res of [
      await call('GET', '/api/two-factor/not-me', null),
      await call('POST', '/api/two-factor/not-me', null, {}),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(`token: ${twoFactorMessages.notMeLinkIncomplete}`);
    }
  });

  it('two confirmations at once: exactly one takes effect, the other says the link was used', async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, token } = await stolen();
      const answers = await Promise.all([confirm(token), confirm(token), confirm(token)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      for (const a of answers.filter((r) => r.statusCode === 409))
        expect(a.json().message).toBe(twoFactorMessages.notMeLinkUsed);
      expect((await mailsAbout(owner.email, RESET_SUBJECT)).length).toBe(1);
      expect(await liveTokens(owner.id)).toEqual(['password_reset']);
      const audits = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, owner.id), eq(auditLog.action, 'two_factor.not_me')));
      expect(audits).toHaveLength(1);
      await resetWithMailedCode(owner.email);
    }
  });

  // Both confirmations are surely in flight together: another connection holds the account's row until
  // both have arrived, then lets go; the one that gets the lock first takes effect, the other finds the
  // link used under the same lock.
  it.runIf(kind === 'postgres')(
    'two confirmations held at the account row lock on another connection: exactly one takes effect',
    async () => {
      const { owner, token } = await stolen();
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [owner.id]);
        const both = Promise.all([confirm(token), confirm(token)]);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const answers = await both;
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
        expect((await mailsAbout(owner.email, RESET_SUBJECT)).length).toBe(1);
        expect(await enrolment(owner.id)).toBeUndefined();
      } finally {
        await other.end();
      }
    },
  );

  it('survives the password reset a locked-out owner tries first', async () => {
    const { owner, token } = await stolen();
    expect((await call('POST', '/api/forgot-password', null, { officialEmail: owner.email })).statusCode).toBe(200);
    const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grant = await call('POST', '/api/confirm-reset-token', null, { officialEmail: owner.email, token: code });
    const reset = await call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
      null,
      { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
    );
    expect(reset.statusCode).toBe(200);
    // Still shut out: the thief's app guards the sign-in.
    expect((await login(owner.email, NEW_PASSWORD)).json().twoFactorRequired).toBe(true);
    expect((await confirm(token)).statusCode).toBe(200);
    await resetWithMailedCode(owner.email);
    expect((await login(owner.email, NEW_PASSWORD)).json().token).toBeTruthy();
  });

  it('waits for the undo of an address the thief moved, and then mails the owner, not the thief', async () => {
    const { owner, thief, token } = await stolen();
    const thiefInbox = uniqueEmail('thief');
    const move = await askToMove(owner, thief, thiefInbox);
    expect((await call('POST', '/api/confirm-email-change', null, { token: move })).statusCode).toBe(200);
    expect((await userRow(owner.id)).officialEmail).toBe(thiefInbox);
    for (const res of [await check(token), await confirm(token)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(twoFactorMessages.notMeAddressChanged);
    }
    expect(await mailsAbout(thiefInbox, RESET_SUBJECT)).toEqual([]);
    // The owner undoes the move with the link the old address got, then the link works.
    const undo = linkToken((await lastMailTo(t, owner.email))!.text)!;
    expect((await call('POST', '/api/undo-email-change', null, { token: undo })).statusCode).toBe(200);
    expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
    expect((await confirm(token)).statusCode).toBe(200);
    expect(await mailsAbout(owner.email, RESET_SUBJECT)).toHaveLength(1);
    expect(await mailsAbout(thiefInbox, RESET_SUBJECT)).toEqual([]);
  });

  it('a bearer token sent along changes nothing about whose account it is', async () => {
    const { owner, token } = await stolen();
    const bystander = await signupAndLogin(t, 'lawyer');
    const res = await confirm(token, bystander);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.officialEmail).toBe(owner.email);
    expect((await me(bystander)).statusCode).toBe(200);
    expect((await login(bystander.email)).statusCode).toBe(200);
  });
});
