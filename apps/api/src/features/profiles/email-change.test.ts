import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipart } from '../../../test/upload-helpers.js';
import { asc, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { emailOutbox, users } from '../../db/schema.js';
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
} from '../../../test/helpers.js';

/**
 * Issue 14, security item 3 and the last part of item 6: a session alone cannot move the sign-in
 * address (docs/decisions/0210), and the answer does not tell a taken address from a free one.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('changing the sign-in e-mail', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const patch = async (who: Login, fields: Array<[string, string]>, ip = '127.0.0.1') => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
      remoteAddress: ip,
    });
  };
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  const login = (officialEmail: string, password = PASSWORD) => post('/api/login', { officialEmail, password });
  const mailsTo = (to: string) =>
    t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(asc(emailOutbox.id));
  const emailOf = async (id: string) =>
    (await t.rt.database.db.select().from(users).where(eq(users.id, id)))[0].officialEmail;
  const me = (who: Login) =>
    t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${who.id}`, headers: who.headers });

  it('needs the current password: none answers 400, a wrong one 403, and nothing changes or is mailed', async () => {
    const who = await signupAndLogin(t, 'company');
    const next = uniqueEmail('next');
    const none = await patch(who, [['officialEmail', next]]);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(messages.currentPasswordRequired);
    const wrong = await patch(who, [
      ['officialEmail', next],
      ['currentPassword', 'Wrong!Pass1'],
      ['website', 'https://moved.ng'],
    ]);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(messages.currentPasswordWrong);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, who.id));
    expect(row.officialEmail).toBe(who.email);
    expect(row.website).toBeNull();
    expect(await mailsTo(next)).toHaveLength(0);
    // The spec's form sends the current address with every save: that needs no password.
    const same = await patch(who, [
      ['officialEmail', who.email.toUpperCase()],
      ['yourBio', 'Unchanged address'],
    ]);
    expect(same.statusCode).toBe(200);
    expect(same.json().company).toMatchObject({ officialEmail: who.email, yourBio: 'Unchanged address' });
  });

  it('keeps the old address until the new one confirms, then moves sign-in, and tells the old address', async () => {
    const who = await signupAndLogin(t, 'lawyer', { verified: true });
    const next = uniqueEmail('moved');
    const res = await patch(who, [
      ['officialEmail', next.toUpperCase()],
      ['currentPassword', PASSWORD],
      ['scn', 'SCN777'],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.profileUpdated);
    expect(res.json().lawyer).toMatchObject({ officialEmail: who.email, scn: 'SCN777' });

    const confirmMail = await lastMailTo(t, next);
    expect(confirmMail?.subject).toMatch(/Confirm your new LegalMarket sign-in address/);
    const token = linkToken(confirmMail!.text)!;
    expect(confirmMail!.text).toContain(`http://localhost:3000/confirm-email-change?token=${token}`);
    const notice = await lastMailTo(t, who.email);
    expect(notice?.subject).toMatch(/change of your LegalMarket sign-in address was requested/);
    expect(notice!.text).toMatch(/\/undo-email-change\?token=/);
    expect(notice!.text).not.toContain(next); // the new address is the requester's text

    // Until confirmed: sign-in, reset codes and payout codes stay with the old address.
    expect((await login(next)).statusCode).toBe(401);
    expect((await login(who.email)).statusCode).toBe(200);
    expect((await post('/api/forgot-password', { officialEmail: who.email })).statusCode).toBe(200);
    expect((await lastMailTo(t, who.email))!.subject).toMatch(/password reset code/);
    expect((await post('/api/forgot-password', { officialEmail: next })).statusCode).toBe(200);
    expect((await mailsTo(next)).filter((m) => /reset code/.test(m.subject))).toHaveLength(0);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-payment-details',
      headers: who.headers,
      payload: { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' },
    });
    expect(add.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/api/send-otp', headers: who.headers })).statusCode).toBe(200);
    expect((await lastMailTo(t, who.email))!.subject).toMatch(/payment details code/);
    expect((await me(who)).json().officialEmail).toBe(who.email);

    // The link from the new inbox makes the change, once.
    const confirmed = await post('/api/confirm-email-change', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(messages.emailChangeConfirmed);
    expect(await emailOf(who.id)).toBe(next);
    // The remembered session and profile answers see the change at once.
    expect((await me(who)).json().officialEmail).toBe(next);
    expect((await post('/api/confirm-email-change', { token })).statusCode).toBe(400);
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(who.email)).statusCode).toBe(401);
    const done = await lastMailTo(t, who.email);
    expect(done?.subject).toMatch(/sign-in address was changed/);
    expect(done!.text).toMatch(/\/undo-email-change\?token=/);
    expect((await t.app.inject({ method: 'POST', url: '/api/send-otp', headers: who.headers })).statusCode).toBe(200);
    expect(sixDigits((await lastMailTo(t, next))!.text)).toBeTruthy();
  });

  it('a confirmation link expires after 24 hours and only the latest request counts', async () => {
    const who = await signupAndLogin(t, 'company');
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await patch(who, [
      ['officialEmail', first],
      ['currentPassword', PASSWORD],
    ]);
    const firstToken = linkToken((await lastMailTo(t, first))!.text)!;
    await patch(who, [
      ['officialEmail', second],
      ['currentPassword', PASSWORD],
    ]);
    expect((await post('/api/confirm-email-change', { token: firstToken })).statusCode).toBe(400);
    const secondToken = linkToken((await lastMailTo(t, second))!.text)!;
    t.clock.advance(24 * 3600_000 + 1000);
    const late = await post('/api/confirm-email-change', { token: secondToken });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(messages.linkInvalid);
    expect(await emailOf(who.id)).toBe(who.email);
  });

  it('the old address cancels a pending change: the link dies and every session ends', async () => {
    const who = await signupAndLogin(t, 'company');
    const next = uniqueEmail('thief');
    await patch(who, [
      ['officialEmail', next],
      ['currentPassword', PASSWORD],
    ]);
    const confirmToken = linkToken((await lastMailTo(t, next))!.text)!;
    const undoToken = linkToken((await lastMailTo(t, who.email))!.text)!;
    const undo = await post('/api/undo-email-change', { token: undoToken });
    expect(undo.statusCode).toBe(200);
    expect(undo.json().message).toBe(messages.emailChangeCancelled);
    expect((await me(who)).statusCode).toBe(401);
    expect((await post('/api/confirm-email-change', { token: confirmToken })).statusCode).toBe(400);
    expect(await emailOf(who.id)).toBe(who.email);
    expect((await post('/api/undo-email-change', { token: undoToken })).statusCode).toBe(400);
  });

  it('the old address reverts a completed change within 7 days, even after a second change', async () => {
    const who = await signupAndLogin(t, 'company');
    const b = uniqueEmail('b');
    const c = uniqueEmail('c');
    await patch(who, [
      ['officialEmail', b],
      ['currentPassword', PASSWORD],
    ]);
    const ownerUndo = linkToken((await lastMailTo(t, who.email))!.text)!;
    expect(
      (await post('/api/confirm-email-change', { token: linkToken((await lastMailTo(t, b))!.text)! })).statusCode,
    ).toBe(200);
    // The thief moves on from b to c; the owner's first link must still work.
    const thief = await login(b);
    const thiefLogin = { ...who, email: b, headers: { authorization: `Bearer ${thief.json().token}` } };
    await patch(thiefLogin, [
      ['officialEmail', c],
      ['currentPassword', PASSWORD],
    ]);
    expect(
      (await post('/api/confirm-email-change', { token: linkToken((await lastMailTo(t, c))!.text)! })).statusCode,
    ).toBe(200);
    expect(await emailOf(who.id)).toBe(c);
    const thiefUndo = linkToken((await lastMailTo(t, b))!.text)!;

    t.clock.advance(6 * 24 * 3600_000);
    const undo = await post('/api/undo-email-change', { token: ownerUndo });
    expect(undo.statusCode).toBe(200);
    expect(undo.json().message).toBe(messages.emailChangeReverted);
    expect(await emailOf(who.id)).toBe(who.email);
    expect((await me(thiefLogin)).statusCode).toBe(401);
    expect((await me(who)).statusCode).toBe(401);
    expect((await login(c)).statusCode).toBe(401);
    expect((await login(who.email)).statusCode).toBe(200);
    // Every other undo link died with it.
    expect((await post('/api/undo-email-change', { token: thiefUndo })).statusCode).toBe(400);
  });

  it("a thief's undo link from a later address cannot kill the owner's undo link", async () => {
    const who = await signupAndLogin(t, 'company');
    const b = uniqueEmail('b');
    const c = uniqueEmail('c');
    await patch(who, [
      ['officialEmail', b],
      ['currentPassword', PASSWORD],
    ]);
    const ownerUndo = linkToken((await lastMailTo(t, who.email))!.text)!;
    expect(
      (await post('/api/confirm-email-change', { token: linkToken((await lastMailTo(t, b))!.text)! })).statusCode,
    ).toBe(200);
    // Now holding b, the thief asks to move on to c: the "requested" notice and its undo link go to b.
    const thief = await login(b);
    const thiefLogin = { ...who, email: b, headers: { authorization: `Bearer ${thief.json().token}` } };
    await patch(thiefLogin, [
      ['officialEmail', c],
      ['currentPassword', PASSWORD],
    ]);
    const thiefUndo = linkToken((await lastMailTo(t, b))!.text)!;
    // The thief "cancels" his own request with that link: it must not take the owner's link with it.
    expect((await post('/api/undo-email-change', { token: thiefUndo })).statusCode).toBe(200);
    expect(await emailOf(who.id)).toBe(b);

    const undo = await post('/api/undo-email-change', { token: ownerUndo });
    expect(undo.statusCode).toBe(200);
    expect(undo.json().message).toBe(messages.emailChangeReverted);
    expect(await emailOf(who.id)).toBe(who.email);
  });

  it('a password reset cancels a pending e-mail change, as undo does', async () => {
    const who = await signupAndLogin(t, 'company');
    const next = uniqueEmail('pending');
    await patch(who, [
      ['officialEmail', next],
      ['currentPassword', PASSWORD],
    ]);
    const confirmToken = linkToken((await lastMailTo(t, next))!.text)!;
    // The owner, warned, resets the password rather than using the undo link.
    expect((await post('/api/forgot-password', { officialEmail: who.email })).statusCode).toBe(200);
    const code = sixDigits((await lastMailTo(t, who.email))!.text)!;
    const grant = await post('/api/confirm-reset-token', { officialEmail: who.email, token: code });
    expect(grant.statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/api/reset-password?userEmail=${encodeURIComponent(who.email)}&token=${grant.json().resetToken}`,
      payload: { password: 'N3w!Passw0rd', passwordConfirm: 'N3w!Passw0rd' },
    });
    expect(reset.statusCode).toBe(200);
    // The thief's pending link must no longer move the sign-in address.
    expect((await post('/api/confirm-email-change', { token: confirmToken })).statusCode).toBe(400);
    expect(await emailOf(who.id)).toBe(who.email);
  });

  it('undo links expire after 7 days', async () => {
    const who = await signupAndLogin(t, 'company');
    await patch(who, [
      ['officialEmail', uniqueEmail('late')],
      ['currentPassword', PASSWORD],
    ]);
    const undoToken = linkToken((await lastMailTo(t, who.email))!.text)!;
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    expect((await post('/api/undo-email-change', { token: undoToken })).statusCode).toBe(400);
    expect((await login(who.email)).statusCode).toBe(200);
  });

  it('answers a taken address exactly like a free one and mails its owner a notice instead, rate-limited', async () => {
    const who = await signupAndLogin(t, 'company');
    const owner = await signupAndLogin(t, 'lawyer');
    const free = uniqueEmail('free');
    const taken = await patch(who, [
      ['officialEmail', owner.email],
      ['currentPassword', PASSWORD],
    ]);
    const open = await patch(who, [
      ['officialEmail', free],
      ['currentPassword', PASSWORD],
    ]);
    expect(taken.statusCode).toBe(200);
    expect(open.statusCode).toBe(200);
    expect(taken.json()).toEqual(open.json());
    const notice = await lastMailTo(t, owner.email);
    expect(notice?.subject).toMatch(/Someone tried to use your email address/);
    expect(linkToken(notice!.text)).toBeUndefined();
    expect(await emailOf(owner.id)).toBe(owner.email);
    // At most 5 requests per target address per window, taken or free, the same 429 for both.
    for (let i = 0; i < 4; i++)
      expect(
        (
          await patch(who, [
            ['officialEmail', owner.email],
            ['currentPassword', PASSWORD],
          ])
        ).statusCode,
      ).toBe(200);
    const limited = await patch(who, [
      ['officialEmail', owner.email],
      ['currentPassword', PASSWORD],
    ]);
    expect(limited.statusCode).toBe(429);
    expect((await mailsTo(owner.email)).filter((m) => /Someone tried/.test(m.subject))).toHaveLength(5);
  });

  it('counts current-password guesses with the login limit, before the hash: a burst of 40 evaluates at most 10', async () => {
    const who = await signupAndLogin(t, 'company');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        patch(
          who,
          [
            ['officialEmail', uniqueEmail('guess')],
            ['currentPassword', `Wrong!Pass${i}`],
          ],
          `10.9.${i >> 8}.${i & 255}`,
        ),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 403)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
    expect((await login(who.email)).statusCode).toBe(429);
  });
});
