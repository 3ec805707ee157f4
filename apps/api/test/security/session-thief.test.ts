import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { messages, twoFactorMessages } from '@legalmarket/contracts';
import { auditLog, emailOutbox, users } from '../../src/db/schema.js';
import { insertProduct } from '../admin-fixtures.js';
import { multipart } from '../upload-helpers.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  lawyerBody,
  linkToken,
  otherConnection,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { secondInstance } from '../second-instance.js';
import { NEW_PASSWORD, TWO_FACTOR_ON_SUBJECT, twoFactorKit } from '../two-factor-kit.js';

/**
 * A thief who holds a session and the password, and an inbox of their own, against the owner's undo link
 * of an address change and "This wasn't me" link (decisions 0210, 2220, 2232). Played through the API.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('a thief with a session and the password against the owner’s links (decision 2232)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const kit = twoFactorKit(() => t);
  const { call, login, me, codeOf, nextStep, anotherSession, enrol, mailsTo } = kit;
  const { notMeToken, liveSessions, enrolment, userRow, askToMove } = kit;
  /** The thief moves the sign-in address to `inbox` and confirms it there; answers the owner's undo token. */
  async function move(owner: Login, thief: Login, inbox: string) {
    const from = (await userRow(owner.id)).officialEmail;
    const link = await askToMove(owner, thief, inbox);
    expect((await call('POST', '/api/confirm-email-change', null, { token: link })).statusCode).toBe(200);
    expect((await userRow(owner.id)).officialEmail).toBe(inbox);
    return linkToken((await lastMailTo(t, from))!.text)!;
  }
  /** The owner, back at the address, sets a password with the code mailed there and signs in without a code. */
  async function ownerBackIn(email: string) {
    const code = sixDigits((await lastMailTo(t, email))!.text)!;
    const grant = await call('POST', '/api/confirm-reset-token', null, { officialEmail: email, token: code });
    expect(grant.statusCode).toBe(200);
    const reset = await call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(email)}&token=${grant.json().resetToken}`,
      null,
      { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
    );
    expect(reset.statusCode).toBe(200);
    const back = await login(email, NEW_PASSWORD);
    expect(back.statusCode).toBe(200);
    expect(back.json().twoFactorRequired).toBeUndefined();
    expect(back.json().token).toBeTruthy();
  }

  it('two-factor turned on after the address moved: the owner’s undo turns it off and shuts the thief out', async () => {
    const owner = await signupAndLogin(t, 'lawyer', { verified: true });
    const thief = await anotherSession(owner);
    const thiefInbox = uniqueEmail('thief');
    const undo = await move(owner, thief, thiefInbox);
    // The thief's enrolment is announced to the thief's inbox: the owner never sees its link.
    await enrol(thief);
    expect(await notMeToken(thiefInbox)).toBeTruthy();
    expect((await mailsTo(owner.email)).filter((m) => m.subject === TWO_FACTOR_ON_SUBJECT)).toEqual([]);

    const res = await call('POST', '/api/undo-email-change', null, { token: undo });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.emailChangeReverted);
    expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
    expect(await enrolment(owner.id)).toBeUndefined();
    expect(await liveSessions(owner.id)).toBe(0);
    expect((await me(thief)).statusCode).toBe(401);
    // The stolen password no longer signs in: the thief cannot race the owner to the account again.
    expect((await login(owner.email)).statusCode).toBe(401);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, owner.id), eq(auditLog.action, 'two_factor.undo_email_change')));
    expect(audit?.targetId).toBe(owner.id);
    await ownerBackIn(owner.email);
  });

  it('a thief who moved the address and enrolled again cannot leave the owner locked out (the stale link)', async () => {
    const owner = await signupAndLogin(t, 'company');
    const thief = await anotherSession(owner);
    const secret = await enrol(thief);
    const first = await notMeToken(owner.email);
    const thiefInbox = uniqueEmail('thief');
    const undo = await move(owner, thief, thiefInbox);
    // Off and on again: the second enrolment's link goes to the thief's inbox.
    nextStep();
    expect((await call('POST', '/api/two-factor/disable', thief, { code: codeOf(secret) })).statusCode).toBe(200);
    await enrol(thief);
    expect(await notMeToken(thiefInbox)).toBeTruthy();

    expect((await call('POST', '/api/undo-email-change', null, { token: undo })).statusCode).toBe(200);
    expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
    // Without the thief's second enrolment the owner is not locked out, and the password is reset by mail.
    expect(await enrolment(owner.id)).toBeUndefined();
    expect((await login(owner.email)).statusCode).toBe(401);
    // The first link has nothing left to undo.
    const stale = await call('POST', '/api/two-factor/not-me', null, { token: first });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(twoFactorMessages.notMeLinkStale);
    await ownerBackIn(owner.email);
  });

  it('a sign-up under the address the thief moved away from does not make the owner’s undo useless', async () => {
    const owner = await signupAndLogin(t, 'company');
    const thief = await anotherSession(owner);
    const undo = await move(owner, thief, uniqueEmail('thief'));
    // The address is free now: the thief signs a new account up with it (its link goes to the owner).
    const squat = await call('POST', '/api/lawyer/signup', null, lawyerBody(owner.email));
    expect(squat.statusCode).toBe(201);
    const squatLink = linkToken((await lastMailTo(t, owner.email))!.text)!;

    const res = await call('POST', '/api/undo-email-change', null, { token: undo });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.emailChangeReverted);
    expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
    expect(await db().select().from(users).where(eq(users.officialEmail, owner.email))).toHaveLength(1);
    expect((await call('POST', '/api/confirm-email', null, { token: squatLink })).statusCode).toBe(400);
    expect((await login(owner.email)).statusCode).toBe(200);
  });

  it('an address confirmed by its inbox since is not taken back: the undo still answers 409', async () => {
    const owner = await signupAndLogin(t, 'company');
    const thief = await anotherSession(owner);
    const undo = await move(owner, thief, uniqueEmail('thief'));
    // Whoever reads the owner's inbox confirmed a new account there: that is no squat.
    const other = await signupAndLogin(t, 'lawyer', { email: owner.email });
    const res = await call('POST', '/api/undo-email-change', null, { token: undo });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.emailChangeRevertBlocked);
    expect((await me(other)).statusCode).toBe(200);
  });

  it('the owner’s own enrolment survives an undo link the thief sent to their own inbox', async () => {
    // A stolen session that proved a code lately, and the password: the thief moves the address to T, asks
    // to move it on, and uses the undo link that request sent to T. The owner's app must not go with it.
    const owner = await signupAndLogin(t, 'company');
    await enrol(owner);
    const thiefInbox = uniqueEmail('thief');
    await move(owner, owner, thiefInbox);
    const form = await multipart([
      { name: 'officialEmail', value: uniqueEmail('later') },
      { name: 'currentPassword', value: PASSWORD },
    ]);
    const asked = await t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${owner.id}`,
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    expect(asked.statusCode).toBe(200);
    const thiefUndo = linkToken((await lastMailTo(t, thiefInbox))!.text)!;
    const res = await call('POST', '/api/undo-email-change', null, { token: thiefUndo });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.emailChangeCancelled);
    expect((await enrolment(owner.id))?.enabledAt).not.toBeNull();
    expect((await login(thiefInbox)).json().twoFactorRequired).toBe(true);
    expect((await mailsTo(thiefInbox)).filter((m) => m.subject.startsWith('Set a new password'))).toEqual([]);
  });

  it('an enrolment announced to the address the undo restores stays, and so does the password', async () => {
    const owner = await signupAndLogin(t, 'company');
    const secret = await enrol(owner);
    // The owner's own change, undone by the owner: the owner's own app still guards the account.
    nextStep();
    await call('POST', '/api/two-factor/verify', owner, { code: codeOf(secret) });
    const next = uniqueEmail('next');
    const undo = await move(owner, owner, next);
    expect((await call('POST', '/api/undo-email-change', null, { token: undo })).statusCode).toBe(200);
    expect((await enrolment(owner.id))?.enabledAt).not.toBeNull();
    expect((await login(owner.email)).json().twoFactorRequired).toBe(true);
  });

  it.runIf(kind === 'postgres')(
    'the undo and the thief’s enrolment at the same moment: the thief’s app never outlives the undo',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const thief = await anotherSession(owner);
      const thiefInbox = uniqueEmail('thief');
      const undo = await move(owner, thief, thiefInbox);
      const setup = await call('POST', '/api/two-factor/setup', thief, { password: PASSWORD });
      const secret = setup.json().data.secret as string;
      nextStep();
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [owner.id]);
        const both = Promise.all([
          call('POST', '/api/two-factor/enable', thief, { code: codeOf(secret) }),
          call('POST', '/api/undo-email-change', null, { token: undo }),
        ]);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const [enabled, undone] = await both;
        expect(undone.statusCode).toBe(200);
        expect([200, 401, 409]).toContain(enabled.statusCode);
      } finally {
        await other.end();
      }
      expect((await userRow(owner.id)).officialEmail).toBe(owner.email);
      // Either the undo came second and turned it off, or first and the enrolment found its session ended.
      expect((await enrolment(owner.id))?.enabledAt ?? null).toBeNull();
      expect(await liveSessions(owner.id)).toBe(0);
    },
  );

  // The thief's session is checked (live) before the owner's reset commits; the enrolment then waits for
  // the row the reset holds. Another connection holds the row so that the reset queues first.
  it.runIf(kind === 'postgres')(
    'a two-factor enrolment from a session the owner’s reset ended meanwhile turns nothing on',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const thief = await anotherSession(owner);
      const setup = await call('POST', '/api/two-factor/setup', thief, { password: PASSWORD });
      const secret = setup.json().data.secret as string;
      nextStep();
      expect((await call('POST', '/api/forgot-password', null, { officialEmail: owner.email })).statusCode).toBe(200);
      const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
      const grant = await call('POST', '/api/confirm-reset-token', null, { officialEmail: owner.email, token: code });
      const other = await otherConnection(t);
      let enabled;
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [owner.id]);
        const reset = call(
          'PATCH',
          `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
          null,
          { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
        );
        await new Promise((r) => setTimeout(r, 500));
        const enable = call('POST', '/api/two-factor/enable', thief, { code: codeOf(secret) });
        await new Promise((r) => setTimeout(r, 300));
        await other.query('commit');
        expect((await reset).statusCode).toBe(200);
        enabled = await enable;
      } finally {
        await other.end();
      }
      expect(enabled.statusCode).toBe(401);
      expect((await enrolment(owner.id))?.enabledAt ?? null).toBeNull();
      expect(await liveSessions(owner.id)).toBe(0);
      const back = await login(owner.email, NEW_PASSWORD);
      expect(back.json().twoFactorRequired).toBeUndefined();
      expect(back.json().token).toBeTruthy();
    },
  );
});

/**
 * The owner's recovery ends the thief's session on every instance at once, cached or not: a second app
 * stands for another instance (its own pool on PostgreSQL), and the thief's session is remembered by both,
 * with a cached answer (the cart) on both, before the owner acts.
 */
describeEachDb('the owner’s recovery ends a stolen session on every instance at once', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let closeOther: () => Promise<void>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ app: other, close: closeOther } = await secondInstance(t, kind));
  });
  afterAll(async () => {
    await closeOther();
    await t.close();
  });

  const call = (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, headers = {}, payload?: object) =>
    app.inject({ method, url, headers, payload });
  const asThief = async (thief: Login) => {
    const answers = [];
    for (const app of [t.app, other])
      for (const url of [`/api/userprofile?_id=${thief.id}`, '/api/cart'])
        answers.push((await call(app, 'GET', url, thief.headers)).statusCode);
    return answers;
  };
  const thiefOf = async (owner: Login): Promise<Login> => {
    const res = await call(t.app, 'POST', '/api/login', {}, { officialEmail: owner.email, password: PASSWORD });
    const token = res.json().token as string;
    return { ...owner, token, headers: { authorization: `Bearer ${token}` } };
  };
  const withCart = async (who: Login) => {
    const product = await insertProduct(t);
    const add = await call(t.app, 'POST', '/api/cart', who.headers, { productId: product.id, quantity: 1 });
    expect(add.statusCode, add.body).toBe(201);
  };

  it('a password reset, an undo link and "This wasn\'t me", each from either instance', async () => {
    for (const recovery of ['reset', 'undo', 'not-me'] as const) {
      const owner = await signupAndLogin(t, 'company');
      const thief = await thiefOf(owner);
      await withCart(thief);
      let act: () => Promise<void>;
      if (recovery === 'reset') {
        expect((await call(other, 'POST', '/api/forgot-password', {}, { officialEmail: owner.email })).statusCode).toBe(
          200,
        );
        const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
        const grant = await call(
          t.app,
          'POST',
          '/api/confirm-reset-token',
          {},
          { officialEmail: owner.email, token: code },
        );
        act = async () => {
          const url = `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`;
          const res = await call(other, 'PATCH', url, {}, { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
          expect(res.statusCode).toBe(200);
        };
      } else if (recovery === 'undo') {
        const form = await multipart([
          { name: 'officialEmail', value: uniqueEmail('thief') },
          { name: 'currentPassword', value: PASSWORD },
        ]);
        const asked = await t.app.inject({
          method: 'PATCH',
          url: `/api/updateprofile?_id=${owner.id}`,
          headers: { ...thief.headers, ...form.headers },
          payload: form.payload,
        });
        expect(asked.statusCode).toBe(200);
        const undo = linkToken((await lastMailTo(t, owner.email))!.text)!;
        act = async () => {
          expect((await call(t.app, 'POST', '/api/undo-email-change', {}, { token: undo })).statusCode).toBe(200);
        };
      } else {
        const setup = await call(t.app, 'POST', '/api/two-factor/setup', thief.headers, { password: PASSWORD });
        const secret = setup.json().data.secret as string;
        t.clock.advance(30_000);
        const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
        expect((await call(t.app, 'POST', '/api/two-factor/enable', thief.headers, { code })).statusCode).toBe(200);
        const link = linkToken(
          (await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, owner.email)))
            .filter((m) => m.subject === TWO_FACTOR_ON_SUBJECT)
            .at(-1)!.text,
        )!;
        act = async () => {
          expect((await call(other, 'POST', '/api/two-factor/not-me', {}, { token: link })).statusCode).toBe(200);
        };
      }
      // Remembered by both instances, the cart answered from both caches.
      expect(await asThief(thief)).toEqual([200, 200, 200, 200]);
      expect(await asThief(thief)).toEqual([200, 200, 200, 200]);
      await act();
      expect(await asThief(thief), recovery).toEqual([401, 401, 401, 401]);
    }
  });
});
