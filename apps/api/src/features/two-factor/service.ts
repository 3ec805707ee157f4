import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { LIMITS, TWO_FACTOR, twoFactorMessages, type UserType } from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { oneTimeTokens, sessions, twoFactor, twoFactorChecks, twoFactorRecoveryCodes, users } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError, badRequest, conflict, unauthorized } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { hashPassword } from '../../platform/passwords.js';
import { randomToken } from '../../platform/tokens.js';
import { TWO_FACTOR_NOT_ME } from '../accounts/service.js';
import type { Shared } from '../shared.js';
import { twoFactorDisabledMail, twoFactorEnabledMail, twoFactorNotMeMail } from './emails.js';

const PERIOD_SECONDS = 30;
const NOT_ME_WORDS = {
  unknown: twoFactorMessages.notMeLinkUnknown,
  used: twoFactorMessages.notMeLinkUsed,
  expired: twoFactorMessages.notMeLinkExpired,
  addressChanged: twoFactorMessages.notMeAddressChanged,
};
const ISSUER = 'LegalMarket';
const CHALLENGE_PURPOSE = 'two_factor_login';
/** No 0/O, 1/I/L: a recovery code is read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const totpFor = (secret: Secret, label = 'account') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret });

const normaliseRecovery = (code: string) => code.replace(/-/g, '').toLowerCase();

/** Where the audit page links an entry about this account. */
const targetTypeOf = (userType: UserType) => (userType === 'admin' ? 'user' : userType);

/**
 * An account with two-factor on must have proved a code in this session within
 * TWO_FACTOR.stepUpMinutes, or the action answers 428 and the web asks for one. `ex` may be a caller's
 * transaction, when whether the step-up applies is read from rows it holds locked (a plan's tier change).
 */
export async function assertRecentCode(ex: Executor, now: Date, user: { id: string; sessionId: string }) {
  const [row] = await ex
    .select({ enabledAt: twoFactor.enabledAt, checkedAt: twoFactorChecks.checkedAt })
    .from(twoFactor)
    .leftJoin(twoFactorChecks, eq(twoFactorChecks.sessionId, user.sessionId))
    .where(eq(twoFactor.userId, user.id))
    .limit(1);
  if (!row?.enabledAt) return;
  const fresh = row.checkedAt && now.getTime() - row.checkedAt.getTime() <= TWO_FACTOR.stepUpMinutes * 60_000;
  if (!fresh) throw new AppError(TWO_FACTOR.stepUpStatus, twoFactorMessages.stepUpRequired);
}

/**
 * Authenticator-app sign-in, recovery codes and the step-up of actions on money
 * (docs/decisions/2020-two-factor-authentication.md).
 */
export function createTwoFactorService(shared: Shared) {
  const { db, clock, limits, hashToken } = shared;
  const render = mailRenderer(shared.config);
  const resetUrl = `${shared.config.PUBLIC_URL}/password-reset`;
  // AES-256-GCM under a key derived from the server secret: a copy of the database alone reveals no secret.
  const key = Buffer.from(hashToken('legalmarket two-factor secret key v1'), 'base64url');

  const encrypt = (plain: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      ':',
    );
  };
  const decrypt = (stored: string) => {
    const [, iv, tag, body] = stored.split(':');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  };

  /**
   * The owner is told that two-factor went on, in the enabling transaction, with a "This wasn't me" link
   * for this enrolment and this address alone (decision 2220): one token, used once, for
   * TWO_FACTOR.notMeLinkDays.
   */
  async function sendNotMeLink(tx: Executor, userId: string, officialEmail: string, enrolmentId: string) {
    const token = await shared.accounts.issueNotMeLink(tx, {
      userId,
      purpose: TWO_FACTOR_NOT_ME,
      email: officialEmail,
      days: TWO_FACTOR.notMeLinkDays,
      twoFactorEnrolmentId: enrolmentId,
    });
    const url = `${shared.config.PUBLIC_URL}/two-factor-not-me?token=${token}`;
    await enqueueMail(tx, render(twoFactorEnabledMail(officialEmail, url, TWO_FACTOR.notMeLinkDays, resetUrl)));
  }

  /**
   * A "This wasn't me" link as it stands, or the 4xx that names why it cannot be used: unknown (404),
   * used (409), expired (410), for an enrolment that has ended since (409), or mailed to an address the
   * account no longer signs in with (409: the undo link of that change comes first). With `tx`, under the
   * account's row lock `FOR UPDATE`, taken before the token is read again, as every writer that kills an
   * account's tokens locks the row first (decision 2181).
   */
  async function notMeLink(token: string, tx?: Executor) {
    let enabledAt: Date | null = null;
    const { link, user } = await shared.accounts.readNotMeLink(TWO_FACTOR_NOT_ME, token, NOT_ME_WORDS, {
      tx,
      stillApplies: async (ex, found, userId) => {
        const [enrolment] = await ex.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
        if (!enrolment?.enabledAt || enrolment.enrolmentId !== found.twoFactorEnrolmentId)
          throw conflict(twoFactorMessages.notMeLinkStale);
        enabledAt = enrolment.enabledAt;
      },
    });
    return { link, user, enabledAt: enabledAt! as Date };
  }

  async function rowOf(userId: string) {
    const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
    return row;
  }

  /** The time step a right 6-digit code was made for (one step either side of now), or null. */
  function stepOf(secretEnc: string, code: string) {
    const now = clock.now().getTime();
    const delta = totpFor(Secret.fromBase32(decrypt(secretEnc))).validate({ token: code, timestamp: now, window: 1 });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  }

  /**
   * Takes a step once: the row moves forward only past the last step accepted, in one statement, so
   * the same code (or an older one) never works twice, even from two requests at the same instant.
   */
  async function takeStep(userId: string, step: number) {
    const taken = await db
      .update(twoFactor)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(twoFactor.userId, userId),
          sql`${twoFactor.enabledAt} is not null`,
          or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
        ),
      )
      .returning({ userId: twoFactor.userId });
    return taken.length === 1;
  }

  /**
   * Checks a code of an enrolled account: a 6-digit code from the app, or a recovery code (used up).
   * The try is counted first (limits.claimSecondFactorAttempt: 429 past the limit), a right code refunds it.
   */
  async function checkCode(userId: string, code: string): Promise<boolean> {
    await limits.claimSecondFactorAttempt(userId);
    const row = await rowOf(userId);
    if (!row?.enabledAt) return false;
    let ok = false;
    if (/^\d{6}$/.test(code)) {
      const step = stepOf(row.secretEnc, code);
      ok = step !== null && (await takeStep(userId, step));
    } else {
      const used = await db
        .update(twoFactorRecoveryCodes)
        .set({ usedAt: clock.now() })
        .where(
          and(
            eq(twoFactorRecoveryCodes.userId, userId),
            eq(twoFactorRecoveryCodes.codeHash, hashToken(normaliseRecovery(code))),
            isNull(twoFactorRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: twoFactorRecoveryCodes.id });
      ok = used.length === 1;
      if (ok) shared.securityLog('two_factor_recovery_code_used', { actor: userId });
    }
    if (ok) await limits.secondFactorSucceeded(userId);
    else shared.securityLog('two_factor_code_refused', { actor: userId });
    return ok;
  }

  /** The step-up on the service's own database and clock (assertRecentCode). */
  function checkRecentCode(user: { id: string; sessionId: string }) {
    return assertRecentCode(db, clock.now(), user);
  }

  /** Notes that this session proved a code now (sign-in, enrolment, step-up). */
  async function markChecked(sessionId: string) {
    const now = clock.now();
    await db
      .insert(twoFactorChecks)
      .values({ sessionId, checkedAt: now })
      .onConflictDoUpdate({ target: twoFactorChecks.sessionId, set: { checkedAt: now } });
  }

  return {
    /** Whether sign-in must ask this account for a code. */
    async enabledFor(userId: string) {
      return Boolean((await rowOf(userId))?.enabledAt);
    },

    async status(userId: string) {
      const row = await rowOf(userId);
      const [{ n }] = await db
        .select({ n: count() })
        .from(twoFactorRecoveryCodes)
        .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
      return {
        enabled: Boolean(row?.enabledAt),
        enabledAt: row?.enabledAt?.toISOString() ?? null,
        recoveryCodesLeft: row?.enabledAt ? Number(n) : 0,
      };
    },

    /**
     * Step one of enrolling: a new secret, shown this once. A second call before the first code replaces
     * it, but not within the repeat window (decision 2221): a double tap or a retry then gets the secret
     * the first call stored, so the app the user scans makes the codes `enable` checks. An account with
     * two-factor on gets 409.
     */
    async setup(user: { id: string; officialEmail: string }) {
      const fresh = new Secret({ size: 20 });
      const secretEnc = encrypt(fresh.base32);
      const now = clock.now();
      const repeatSince = new Date(now.getTime() - LIMITS.repeatWindowSeconds * 1000);
      // On PostgreSQL a racing call waits on the row, then sees the first one's createdAt and leaves it.
      const saved = await db
        .insert(twoFactor)
        .values({ userId: user.id, secretEnc, createdAt: now })
        .onConflictDoUpdate({
          target: twoFactor.userId,
          set: { secretEnc, lastUsedStep: null, createdAt: now },
          setWhere: and(isNull(twoFactor.enabledAt), lt(twoFactor.createdAt, repeatSince)),
        })
        .returning({ userId: twoFactor.userId });
      let secret = fresh;
      if (!saved.length) {
        const row = await rowOf(user.id);
        if (!row || row.enabledAt) throw conflict(twoFactorMessages.alreadyEnabled);
        secret = Secret.fromBase32(decrypt(row.secretEnc));
      }
      return { secret: secret.base32, otpauthUri: totpFor(secret, user.officialEmail).toString() };
    },

    /**
     * Step two: the first code turns it on, answers the recovery codes (shown once) and counts as this
     * session's check. Every other session of the account ends in the same transaction (decision 2181):
     * one signed in with the password alone must not outlive the second factor.
     */
    async enable(user: { id: string; userType: UserType; sessionId: string; officialEmail: string }, code: string) {
      const row = await rowOf(user.id);
      if (row?.enabledAt) throw conflict(twoFactorMessages.alreadyEnabled);
      if (!row) throw badRequest(twoFactorMessages.noEnrolment);
      await limits.claimSecondFactorAttempt(user.id);
      const step = stepOf(row.secretEnc, code);
      if (step === null) throw badRequest(twoFactorMessages.codeWrong);
      const recoveryCodes = Array.from({ length: TWO_FACTOR.recoveryCodes }, () => {
        const c = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
        return `${c.slice(0, 5)}-${c.slice(5)}`;
      });
      await db.transaction(async (tx) => {
        // The user row first, as a password sign-in locks it (FOR SHARE) before it writes its session and
        // then asks whether a second factor is on: it either commits before this and its session is
        // revoked below, or waits and sees the second factor on (platform/auth.ts `issue`).
        const [owner] = await tx
          .select({ officialEmail: users.officialEmail })
          .from(users)
          .where(eq(users.id, user.id))
          .for('update');
        const [taken] = await tx
          .update(twoFactor)
          .set({ enabledAt: clock.now(), lastUsedStep: step })
          .where(
            and(eq(twoFactor.userId, user.id), isNull(twoFactor.enabledAt), eq(twoFactor.secretEnc, row.secretEnc)),
          )
          .returning({ enrolmentId: twoFactor.enrolmentId });
        if (!taken || !owner) throw conflict(twoFactorMessages.alreadyEnabled);
        // A session ended meanwhile (an undo, a reset, "This wasn't me", under this same lock) enrols nothing:
        // the thief's app must not outlive the owner's recovery (decision 2232).
        const [live] = await tx
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(eq(sessions.id, user.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())));
        if (!live) throw unauthorized();
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
        await shared.auth.revokeAllSessions(tx, user.id, user.sessionId);
        await tx
          .insert(twoFactorRecoveryCodes)
          .values(recoveryCodes.map((c) => ({ userId: user.id, codeHash: hashToken(normaliseRecovery(c)) })));
        await recordAudit(tx, {
          actorId: user.id,
          action: 'two_factor.enable',
          targetType: targetTypeOf(user.userType),
          targetId: user.id,
        });
        await sendNotMeLink(tx, user.id, owner.officialEmail, taken.enrolmentId);
      });
      shared.mailWritten();
      await limits.secondFactorSucceeded(user.id);
      await markChecked(user.sessionId);
      shared.securityLog('two_factor_enabled', { actor: user.id });
      return recoveryCodes;
    },

    /** Turning it off needs a code (or a recovery code); the secret and the recovery codes are deleted. */
    async disable(user: { id: string; userType: UserType; officialEmail: string }, code: string) {
      if (!(await this.enabledFor(user.id))) throw conflict(twoFactorMessages.notEnabled);
      if (!(await checkCode(user.id, code))) throw badRequest(twoFactorMessages.codeWrong);
      await db.transaction(async (tx) => {
        // The notice goes to the address the row holds under its lock: a confirmed address change may
        // have committed since the session was read.
        const [owner] = await tx
          .select({ officialEmail: users.officialEmail })
          .from(users)
          .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
          .for('update');
        if (!owner) throw unauthorized();
        await tx.delete(twoFactor).where(eq(twoFactor.userId, user.id));
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
        await recordAudit(tx, {
          actorId: user.id,
          action: 'two_factor.disable',
          targetType: targetTypeOf(user.userType),
          targetId: user.id,
        });
        await enqueueMail(tx, render(twoFactorDisabledMail(owner.officialEmail, resetUrl)));
      });
      shared.mailWritten();
      shared.securityLog('two_factor_disabled', { actor: user.id });
    },

    /** Whether a "This wasn't me" link can be used, changing nothing: a mail scanner's visit is harmless. */
    async checkNotMe(token: string) {
      const { link, enabledAt } = await notMeLink(token);
      return { enabledAt: enabledAt.toISOString(), expiresAt: link.expiresAt.toISOString() };
    },

    /**
     * "This wasn't me" (decision 2220): in one transaction under the account's row lock, the link is used,
     * two-factor is turned off (secret and recovery codes deleted), and whoever knew the password is shut
     * out (`accounts.shutOut`: password unusable, codes and grants dead, every session ended), and the
     * address is mailed a code to set a new password. Of two confirmations at once, the second waits for
     * the lock and finds the link used (409).
     */
    async notMe(token: string) {
      // The link is checked first (read again under the lock below): a guessed or spent token costs a
      // lookup, never the argon2 hash.
      await notMeLink(token);
      // Hashed before the lock is taken: the password nobody knows.
      const unusableHash = await hashPassword(randomToken());
      const user = await db.transaction(async (tx) => {
        const { link, user } = await notMeLink(token, tx);
        await shared.accounts.useNotMeLink(tx, link.id, NOT_ME_WORDS);
        await tx.delete(twoFactor).where(eq(twoFactor.userId, user.id));
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
        const resetCode = await shared.accounts.shutOut(tx, user.id, unusableHash);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'two_factor.not_me',
          targetType: targetTypeOf(user.userType as UserType),
          targetId: user.id,
        });
        await enqueueMail(
          tx,
          render(twoFactorNotMeMail(user.officialEmail, resetCode, LIMITS.codeTtlMinutes, resetUrl)),
        );
        return user;
      });
      shared.mailWritten();
      shared.securityLog('two_factor_not_me', { actor: user.id });
      return { officialEmail: user.officialEmail };
    },

    /** A fresh code for this session: actions on money are allowed for TWO_FACTOR.stepUpMinutes. */
    async verify(user: { id: string; sessionId: string }, code: string) {
      if (!(await this.enabledFor(user.id))) throw conflict(twoFactorMessages.notEnabled);
      if (!(await checkCode(user.id, code))) throw badRequest(twoFactorMessages.codeWrong);
      await markChecked(user.sessionId);
    },

    /** After a right password: a challenge the second call of the sign-in answers with a code. */
    async challenge(userId: string) {
      const token = randomToken();
      const expiresAt = new Date(clock.now().getTime() + TWO_FACTOR.challengeMinutes * 60_000);
      // Several may be live (two devices signing in); the account's tries are limited across all of them.
      await db
        .insert(oneTimeTokens)
        .values({ userId, purpose: CHALLENGE_PURPOSE, tokenHash: hashToken(token), expiresAt });
      return { challengeToken: token, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The second call of the sign-in. The challenge dies after LIMITS.codeMaxAttempts wrong codes (and
     * after its minutes); the account's tries are limited across challenges too (429).
     */
    async login(challengeToken: string, code: string, ip: string) {
      const now = clock.now();
      const [challenge] = await db
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(
          and(
            eq(oneTimeTokens.tokenHash, hashToken(challengeToken)),
            eq(oneTimeTokens.purpose, CHALLENGE_PURPOSE),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, now),
            lt(oneTimeTokens.attempts, LIMITS.codeMaxAttempts),
          ),
        )
        .returning({ id: oneTimeTokens.id, userId: oneTimeTokens.userId, attempts: oneTimeTokens.attempts });
      if (!challenge) throw unauthorized(twoFactorMessages.challengeExpired);
      if (!(await checkCode(challenge.userId, code))) {
        if (challenge.attempts >= LIMITS.codeMaxAttempts)
          await db.update(oneTimeTokens).set({ usedAt: now }).where(eq(oneTimeTokens.id, challenge.id));
        shared.securityLog('login_two_factor_failure', { actor: challenge.userId, ip });
        throw unauthorized(twoFactorMessages.codeWrong);
      }
      // The user row first, as a password reset or a deletion locks it before killing the challenges and
      // revoking the sessions: one that commits first leaves this challenge dead, one that waits revokes
      // the session started here.
      const issued = await db.transaction(async (tx) => {
        const [user] = await tx
          .select()
          .from(users)
          .where(and(eq(users.id, challenge.userId), isNull(users.deletedAt)))
          .for('share');
        if (!user) return null;
        const used = await tx
          .update(oneTimeTokens)
          .set({ usedAt: now })
          .where(and(eq(oneTimeTokens.id, challenge.id), isNull(oneTimeTokens.usedAt)))
          .returning({ id: oneTimeTokens.id });
        if (!used.length) return null;
        return { user, ...(await shared.auth.issue(user, { tx })) };
      });
      if (!issued) throw unauthorized(twoFactorMessages.challengeExpired);
      const { user, token, sessionId } = issued;
      await markChecked(sessionId);
      shared.securityLog('login_success', { actor: user.id, ip, secondFactor: true });
      return { token, sessionId, user: { _id: user.id, userType: user.userType as UserType } };
    },

    /** Development only: this session's last code is forgotten, as if the step-up window had passed. */
    async forgetCheck(sessionId: string) {
      await db.delete(twoFactorChecks).where(eq(twoFactorChecks.sessionId, sessionId));
    },

    /** For a service that decides from the request's content whether the step-up applies (an e-mail change). */
    checkRecentCode,

    /** preHandler after auth.require: the step-up of a route that always needs it (checkRecentCode). */
    requireRecentCode: async (request: FastifyRequest) => {
      if (!request.user) throw unauthorized();
      await checkRecentCode(request.user);
    },
  };
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
