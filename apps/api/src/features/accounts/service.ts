import { and, desc, eq, gt, gte, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import {
  LIMITS,
  messages,
  type adminSignupInput,
  type companySignupInput,
  type lawyerSignupInput,
  type UserType,
} from '@legalmarket/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { oneTimeTokens, sessions, twoFactor, twoFactorRecoveryCodes, users } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { SecondFactorTurnedOn, type Auth } from '../../platform/auth.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import { randomCode, randomToken, safeEqual } from '../../platform/tokens.js';
import { toProfile } from '../profiles/mapper.js';
import {
  alreadyRegisteredMail,
  confirmEmailChangeMail,
  confirmEmailMail,
  emailChangeNoticeMail,
  emailChangeTakenMail,
  passwordChangedMail,
  resetCodeMail,
  undoShutOutMail,
} from './emails.js';

type NewUser = typeof users.$inferInsert;

interface AccountsDeps {
  db: Db;
  auth: Auth;
  clock: Clock;
  hashToken: (t: string) => string;
  publicUrl: string;
  /** Named in every mail's footer. */
  supportEmail: string;
  adminInviteCode?: string;
  /** Called after a commit that wrote mail. */
  mailWritten: () => void;
  securityLog: (event: string, fields: Record<string, unknown>) => void;
}

const minutes = (n: number) => n * 60_000;
const hours = (n: number) => n * 3600_000;

/** A unique-index refusal, from node-postgres or PGlite, maybe wrapped by drizzle. */
const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};
/** The purpose of the "This wasn't me" link mailed when two-factor is turned on (decision 2220). */
export const TWO_FACTOR_NOT_ME = 'two_factor_not_me';
/** The purpose of the "This wasn't me" link mailed when payout details are added or changed (decision 2244). */
export const PAYOUT_DETAILS_NOT_ME = 'payout_details_not_me';
/** Links that outlive a reset and an address change: the owner's way out of what a thief did (2220, 2244). */
const NOT_ME_PURPOSES = [TWO_FACTOR_NOT_ME, PAYOUT_DETAILS_NOT_ME];

/** What a "This wasn't me" link's refusals say, per kind of link. */
export interface NotMeWords {
  unknown: string;
  used: string;
  expired: string;
  addressChanged: string;
}

/** The least time forgot-password and resend-confirmation take to answer, existing account or not (docs/decisions/0800). */
const FORGOT_PASSWORD_MIN_MS = 150;

/** Runs `work` and answers no sooner than `ms` after it began, whatever path it took. */
async function atLeast<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const rest = ms - (performance.now() - started);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
}

export function createAccountsService(deps: AccountsDeps) {
  const { db, clock } = deps;
  const link = (path: string) => `${deps.publicUrl}${path}`;
  const render = mailRenderer({ PUBLIC_URL: deps.publicUrl, SUPPORT_EMAIL: deps.supportEmail });

  async function findByEmail(ex: Executor, email: string) {
    const rows = await ex.select().from(users).where(eq(users.officialEmail, email)).limit(1);
    return rows[0];
  }

  /**
   * Locks the account's row for a writer of its codes and links: two requests at once take turns, so the
   * second sees the first's code or link (one live, the one last mailed) instead of writing beside it.
   */
  async function lockAccount(tx: Executor, userId: string) {
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    return row;
  }

  /**
   * Whether a live code of that purpose was mailed within the repeat window: asked for again (a double
   * tap, a retry after a lost answer), the code already mailed stands and nothing more is sent
   * (docs/decisions/2221). Issued = expiry - ttl, both on the app's clock. Call it under lockAccount.
   */
  async function sentJustNow(tx: Executor, userId: string, purpose: string, ttlMs: number) {
    const issuedAfter = clock.now().getTime() - LIMITS.repeatWindowSeconds * 1000;
    const rows = await tx
      .select({ id: oneTimeTokens.id })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.userId, userId),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, new Date(issuedAfter + ttlMs)),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Kills earlier live tokens of that purpose and stores a new one; answers the clear token. */
  async function newToken(tx: Executor, userId: string, purpose: string, token: string, ttlMs: number) {
    await killTokens(tx, userId, { purpose });
    return storeToken(tx, userId, purpose, token, ttlMs);
  }

  /** `email`: the address an e-mail change moves to or an undo restores; `sessionId`: who asked for a change. */
  async function storeToken(
    tx: Executor,
    userId: string,
    purpose: string,
    token: string,
    ttlMs: number,
    about: { email?: string; sessionId?: string } = {},
  ) {
    await tx.insert(oneTimeTokens).values({
      userId,
      purpose,
      tokenHash: deps.hashToken(token),
      email: about.email ?? null,
      sessionId: about.sessionId ?? null,
      expiresAt: new Date(clock.now().getTime() + ttlMs),
    });
    return token;
  }

  /**
   * Marks the user's live tokens used: those of one `purpose`, or all of them, or with `keepUndo` all but
   * the undo links (issued before that time, when it is a date) and the "This wasn't me" links. An undo
   * link goes to the address the account had when it was issued, so an older one belongs to an earlier,
   * likelier rightful, owner: neither a thief's later undo link nor a password reset by whoever holds the
   * address now may take it away (docs/decisions/0210). A "This wasn't me" link is the owner's only way
   * out of a thief's two-factor enrolment: a reset or an address change must not end it (decision 2220).
   */
  async function killTokens(tx: Executor, userId: string, opts: { purpose?: string; keepUndo?: true | Date } = {}) {
    const { purpose, keepUndo } = opts;
    const notUndo = ne(oneTimeTokens.purpose, 'email_change_undo');
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: clock.now() })
      .where(
        and(
          eq(oneTimeTokens.userId, userId),
          purpose ? eq(oneTimeTokens.purpose, purpose) : undefined,
          isNull(oneTimeTokens.usedAt),
          keepUndo ? notInArray(oneTimeTokens.purpose, NOT_ME_PURPOSES) : undefined,
          keepUndo === true ? notUndo : keepUndo ? or(notUndo, gte(oneTimeTokens.createdAt, keepUndo)) : undefined,
        ),
      );
  }

  /**
   * Uses a live link token of that purpose once (at `now`) and answers it with its account, locked
   * `FOR UPDATE`, or undefined. The account's row is locked before the token's: every writer that kills
   * an account's links (a reset, a new e-mail change, an undo, an erasure) locks the row first, and
   * taking the two in the other order deadlocks with them on PostgreSQL.
   */
  async function useLinkToken(tx: Executor, purpose: string, token: string, now = clock.now()) {
    const [live] = await tx
      .select({ userId: oneTimeTokens.userId })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.tokenHash, deps.hashToken(token)),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now),
        ),
      )
      .limit(1);
    if (!live) return undefined;
    const [user] = await tx.select().from(users).where(eq(users.id, live.userId)).for('update');
    if (!user) return undefined;
    // Still live under the lock: whoever held the row may have used or killed it meanwhile.
    const rows = await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(oneTimeTokens.tokenHash, deps.hashToken(token)),
          eq(oneTimeTokens.userId, user.id),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now),
        ),
      )
      .returning({
        userId: oneTimeTokens.userId,
        email: oneTimeTokens.email,
        sessionId: oneTimeTokens.sessionId,
        createdAt: oneTimeTokens.createdAt,
      });
    return rows[0] ? { ...rows[0], user } : undefined;
  }

  /**
   * Stores a "This wasn't me" link (decision 2220) of `purpose` in the caller's transaction and answers its
   * token: 32 random bytes, HMAC-hashed, mailed to `email` and valid `days`. Its createdAt is the database's
   * (the transaction's start), so a later link of the same purpose is younger on every instance.
   */
  async function issueNotMeLink(
    tx: Executor,
    link: { userId: string; purpose: string; email: string; days: number; twoFactorEnrolmentId?: string },
  ) {
    const token = randomToken();
    await tx.insert(oneTimeTokens).values({
      userId: link.userId,
      purpose: link.purpose,
      tokenHash: deps.hashToken(token),
      email: link.email,
      twoFactorEnrolmentId: link.twoFactorEnrolmentId ?? null,
      expiresAt: new Date(clock.now().getTime() + link.days * 24 * 3600_000),
    });
    return token;
  }

  /**
   * A "This wasn't me" link as it stands, or the 4xx that names why it cannot be used: unknown (404), used
   * (409), expired (410), or mailed to an address the account no longer signs in with (409: the undo link
   * of that change comes first). With `tx`, under the account's row lock `FOR UPDATE`, taken before the
   * token is read again, as every writer that kills an account's tokens locks the row first (decision
   * 2181); `beforeRow` takes any lock that must come before the row's (a payout's, decision 2244), and
   * `stillApplies` refuses a link whose subject has changed since (before the address is compared).
   */
  async function readNotMeLink(
    purpose: string,
    token: string,
    words: NotMeWords,
    opts: {
      tx?: Executor;
      beforeRow?: (userId: string) => Promise<unknown>;
      stillApplies?: (ex: Executor, link: typeof oneTimeTokens.$inferSelect, userId: string) => Promise<void>;
    } = {},
  ) {
    const { tx, beforeRow } = opts;
    const ex = tx ?? db;
    const byHash = and(eq(oneTimeTokens.tokenHash, deps.hashToken(token)), eq(oneTimeTokens.purpose, purpose));
    const [found] = await ex.select({ userId: oneTimeTokens.userId }).from(oneTimeTokens).where(byHash).limit(1);
    if (!found) throw notFound(words.unknown);
    if (tx && beforeRow) await beforeRow(found.userId);
    const account = ex
      .select()
      .from(users)
      .where(and(eq(users.id, found.userId), isNull(users.deletedAt)));
    const [user] = tx ? await account.for('update') : await account;
    const [link] = await ex.select().from(oneTimeTokens).where(byHash).limit(1);
    if (!user || !link) throw notFound(words.unknown);
    if (link.usedAt) throw conflict(words.used);
    if (link.expiresAt.getTime() <= clock.now().getTime()) throw new AppError(410, words.expired);
    await opts.stillApplies?.(ex, link, user.id);
    if (user.officialEmail !== link.email) throw conflict(words.addressChanged);
    return { link, user };
  }

  /** Marks a link used once, under the row lock readNotMeLink took: a second confirmation finds it used. */
  async function useNotMeLink(tx: Executor, linkId: string, words: NotMeWords) {
    const used = await tx
      .update(oneTimeTokens)
      .set({ usedAt: clock.now() })
      .where(and(eq(oneTimeTokens.id, linkId), isNull(oneTimeTokens.usedAt)))
      .returning({ id: oneTimeTokens.id });
    if (!used.length) throw conflict(words.used);
  }

  /**
   * Whoever knew the password is shut out, in the caller's transaction under the account's row lock: the
   * password becomes `unusableHash` (the hash of a secret nobody keeps), every token but the undo and "This
   * wasn't me" links dies, every session ends, and a password reset code is stored and answered.
   */
  async function shutOut(tx: Executor, userId: string, unusableHash: string): Promise<string> {
    await tx.update(users).set({ passwordHash: unusableHash, updatedAt: clock.now() }).where(eq(users.id, userId));
    await killTokens(tx, userId, { keepUndo: true });
    await deps.auth.revokeAllSessions(tx, userId);
    return storeToken(tx, userId, 'password_reset', randomCode(), minutes(LIMITS.codeTtlMinutes));
  }

  /**
   * Under the row lock of an undo that leaves the account at `address` (decision 2232): a two-factor
   * enrolment turned on after the undo link was issued (`since`, while the account was at `address`) and
   * announced to another address was made while this one was away, by whoever moved it, and the owner
   * never got its "This wasn't me" link. It is turned off and, as that link would, the password made
   * unusable with a reset code mailed here. An enrolment from before the link, or announced here (the
   * owner's), or from before those links existed, stays. Answers whether it shut out.
   */
  async function disableEnrolmentAnnouncedElsewhere(
    tx: Executor,
    user: { id: string; userType: string },
    address: string,
    since: Date,
  ) {
    const [enrolment] = await tx.select().from(twoFactor).where(eq(twoFactor.userId, user.id));
    if (!enrolment?.enabledAt) return false;
    // Both times are the database's (token rows' createdAt): the enrolment's link came after the undo link.
    const [away] = await tx
      .select({ id: oneTimeTokens.id })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.userId, user.id),
          eq(oneTimeTokens.purpose, TWO_FACTOR_NOT_ME),
          eq(oneTimeTokens.twoFactorEnrolmentId, enrolment.enrolmentId),
          ne(oneTimeTokens.email, address),
          gt(oneTimeTokens.createdAt, since),
        ),
      )
      .limit(1);
    if (!away) return false;
    await tx.delete(twoFactor).where(eq(twoFactor.userId, user.id));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    // Hashed under the lock: this path is rare (an undo that finds a thief's enrolment), and only it pays.
    const resetCode = await shutOut(tx, user.id, await hashPassword(randomToken()));
    await recordAudit(tx, {
      actorId: user.id,
      action: 'two_factor.undo_email_change',
      targetType: user.userType === 'admin' ? 'user' : user.userType,
      targetId: user.id,
    });
    await enqueueMail(tx, render(undoShutOutMail(address, resetCode, LIMITS.codeTtlMinutes, link('/password-reset'))));
    return true;
  }

  /**
   * Deletes an unconfirmed account (its tokens go with it), in a savepoint: anything that refers to it
   * (nothing should, it never signed in) keeps it, and the caller answers as for a taken address.
   */
  async function deleteUnconfirmedHolder(tx: Executor, userId: string) {
    try {
      await tx.transaction((sp) => sp.delete(users).where(and(eq(users.id, userId), isNull(users.emailConfirmedAt))));
      return true;
    } catch (err) {
      const e = err as { code?: string; cause?: { code?: string } };
      if (e.code === '23503' || e.cause?.code === '23503') return false;
      throw err;
    }
  }

  /**
   * An undo link for the old address. Earlier undo links stay alive (no `newToken`): a second change
   * must not kill the link the first one sent to the rightful owner.
   */
  async function sendUndoLink(tx: Executor, userId: string, oldEmail: string, stage: 'requested' | 'done') {
    const token = await storeToken(
      tx,
      userId,
      'email_change_undo',
      randomToken(),
      hours(24 * LIMITS.emailChangeUndoDays),
      { email: oldEmail },
    );
    await enqueueMail(
      tx,
      render(
        emailChangeNoticeMail(oldEmail, stage, link(`/undo-email-change?token=${token}`), LIMITS.emailChangeUndoDays),
      ),
    );
  }

  async function sendConfirmation(tx: Executor, user: { id: string; officialEmail: string }) {
    const token = await newToken(tx, user.id, 'email_confirm', randomToken(), LIMITS.confirmLinkTtlHours * 3600_000);
    await enqueueMail(
      tx,
      render(confirmEmailMail(user.officialEmail, link(`/confirm-email?token=${token}`), LIMITS.confirmLinkTtlHours)),
    );
  }

  /**
   * One sign-up path for the three roles. The answer is the same whether or not the address
   * already has an account (the owner gets an e-mail instead), so sign-up cannot be used to
   * find out who is a customer.
   */
  async function signup(values: Omit<NewUser, 'passwordHash'>, password: string, termsVersion?: string) {
    const passwordHash = await hashPassword(password);
    // Consent as ticked on the form (decision 2030); a spec client that sends no version records none.
    if (termsVersion) Object.assign(values, { termsVersion, termsAcceptedAt: clock.now() });
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(users)
        .values({ ...values, passwordHash })
        .onConflictDoNothing({ target: users.officialEmail })
        .returning();
      const user = inserted[0];
      if (user) await sendConfirmation(tx, user);
      else
        await enqueueMail(
          tx,
          render(alreadyRegisteredMail(values.officialEmail, link('/login'), link('/password-reset'))),
        );
    });
    deps.mailWritten();
    deps.securityLog('signup', { userType: values.userType });
  }

  return {
    signupCompany: (i: z.output<typeof companySignupInput>) =>
      signup(
        {
          userType: 'company',
          name: i.companyName,
          companyName: i.companyName,
          contactName: i.contactName,
          phoneNumber: i.phoneNumber,
          officialEmail: i.officialEmail,
          officeAddress: i.officeAddress,
          cac: i.cac || null,
          industry: i.industry,
        },
        i.password,
        i.termsVersion,
      ),

    signupLawyer: (i: z.output<typeof lawyerSignupInput>) =>
      signup(
        {
          userType: 'lawyer',
          name: i.name,
          officialEmail: i.officialEmail,
          phoneNumber: i.phoneNumber,
          areasOfPractise: i.areasOfPractise,
          scn: i.scn,
          cac: i.cac || null,
          lawFirmName: i.lawFirmName || null,
          lawFirmAddress: i.lawFirmAddress || null,
          verified: false,
        },
        i.password,
        i.termsVersion,
      ),

    async signupAdmin(i: z.output<typeof adminSignupInput>) {
      if (!deps.adminInviteCode) throw forbidden(messages.adminSignupClosed);
      if (!safeEqual(i.inviteCode, deps.adminInviteCode)) {
        deps.securityLog('admin_signup_refused', { reason: 'bad invite code' });
        throw forbidden(messages.adminInviteInvalid);
      }
      await signup(
        { userType: 'admin', name: i.name, officialEmail: i.officialEmail, phoneNumber: i.phoneNumber },
        i.password,
        i.termsVersion,
      );
    },

    /** Creates a confirmed admin directly (command line). */
    async createAdmin(i: { officialEmail: string; name: string; phoneNumber: string; password: string }) {
      const passwordHash = await hashPassword(i.password);
      const rows = await db
        .insert(users)
        .values({
          userType: 'admin',
          officialEmail: i.officialEmail,
          name: i.name,
          phoneNumber: i.phoneNumber,
          passwordHash,
          emailConfirmedAt: clock.now(),
        })
        .onConflictDoNothing({ target: users.officialEmail })
        .returning();
      if (!rows[0]) throw new AppError(409, `An account with ${i.officialEmail} already exists`);
      return rows[0];
    },

    /**
     * `needsSecondFactor`: asked after a right password; when it says yes no session is started and the
     * caller asks for the code (decision 2020).
     */
    async login(email: string, password: string, ip: string, needsSecondFactor?: (userId: string) => Promise<boolean>) {
      const user = await findByEmail(db, email);
      const ok = await verifyPassword(user?.passwordHash, password);
      if (!user || !ok) {
        deps.securityLog('login_failure', { email, ip });
        return { ok: false as const };
      }
      if (!user.emailConfirmedAt) {
        deps.securityLog('login_unconfirmed', { actor: user.id, ip });
        return { ok: true as const, confirmed: false as const };
      }
      const askCode = () => {
        deps.securityLog('login_second_factor_asked', { actor: user.id, ip });
        return { ok: true as const, confirmed: true as const, secondFactor: true as const, userId: user.id };
      };
      if (needsSecondFactor && (await needsSecondFactor(user.id))) return askCode();
      // Only while the password and address checked above are still the account's and no second factor
      // is on: a reset, an e-mail change or two-factor turned on committing meanwhile wins.
      let issued: { token: string; sessionId: string };
      try {
        issued = await deps.auth.issue(user, { passwordHash: user.passwordHash });
      } catch (err) {
        if (err instanceof SecondFactorTurnedOn && needsSecondFactor) return askCode();
        throw err;
      }
      const { token, sessionId } = issued;
      deps.securityLog('login_success', { actor: user.id, ip });
      return {
        ok: true as const,
        confirmed: true as const,
        secondFactor: false as const,
        token,
        sessionId,
        user: { _id: user.id, userType: user.userType as UserType, officialEmail: user.officialEmail },
      };
    },

    /**
     * Confirms the address of the link's account: 'confirmed', or 'already' when the link was used
     * (or replaced, or expired) and its account is confirmed, as when a link is opened twice.
     */
    async confirmEmail(token: string): Promise<'confirmed' | 'already'> {
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        // The same `now` stamps the token and the confirmation.
        const row = await useLinkToken(tx, 'email_confirm', token, now);
        if (row) {
          await tx
            .update(users)
            .set({ emailConfirmedAt: now, updatedAt: now })
            .where(and(eq(users.id, row.userId), isNull(users.emailConfirmedAt)));
          return 'confirmed' as const;
        }
        const [spent] = await tx
          .select({ confirmedAt: users.emailConfirmedAt })
          .from(oneTimeTokens)
          .innerJoin(users, eq(users.id, oneTimeTokens.userId))
          .where(and(eq(oneTimeTokens.tokenHash, deps.hashToken(token)), eq(oneTimeTokens.purpose, 'email_confirm')))
          .limit(1);
        return spent?.confirmedAt ? ('already' as const) : null;
      });
      if (!outcome) throw badRequest(messages.linkInvalid);
      return outcome;
    },

    /** Writes a link only for an unconfirmed account, so it answers on the same floor as forgot-password. */
    resendConfirmation: (email: string) =>
      atLeast(FORGOT_PASSWORD_MIN_MS, async () => {
        const user = await findByEmail(db, email);
        if (!user || user.emailConfirmedAt) return;
        // Under the account's lock: a new link replaces the old one even when two are asked for at once.
        const sent = await db.transaction(async (tx) => {
          const row = await lockAccount(tx, user.id);
          // Read again under the lock: an address changed or an account erased meanwhile gets nothing.
          if (!row || row.emailConfirmedAt || row.deletedAt || row.officialEmail !== user.officialEmail) return false;
          await sendConfirmation(tx, row);
          return true;
        });
        if (sent) deps.mailWritten();
      }),

    /**
     * Writes a code and its mail only for an existing account, so by itself the answer would come
     * later for a customer than for a stranger. Both answer no sooner than FORGOT_PASSWORD_MIN_MS after
     * the request began, which is well above the cost of the write (docs/decisions/0800).
     */
    forgotPassword: (email: string) =>
      atLeast(FORGOT_PASSWORD_MIN_MS, async () => {
        const user = await findByEmail(db, email);
        if (!user) return;
        const code = randomCode();
        const sent = await db.transaction(async (tx) => {
          const row = await lockAccount(tx, user.id);
          // Read again under the lock: a code for an address that moved meanwhile would go to the old
          // inbox and, live, hold off the new address's request for the repeat window.
          if (!row || row.deletedAt || row.officialEmail !== user.officialEmail) return false;
          // Asked again at once: the code just mailed stands (2221); its grant, if any, is already dead.
          if (await sentJustNow(tx, user.id, 'password_reset', minutes(LIMITS.codeTtlMinutes))) return false;
          // Asking again starts again: a reset token the earlier code was exchanged for dies with it.
          await killTokens(tx, user.id, { purpose: 'password_reset_grant' });
          await newToken(tx, user.id, 'password_reset', code, minutes(LIMITS.codeTtlMinutes));
          await enqueueMail(tx, render(resetCodeMail(row.officialEmail, code, LIMITS.codeTtlMinutes)));
          return true;
        });
        if (!sent) return;
        deps.mailWritten();
        deps.securityLog('password_reset_requested', { actor: user.id });
      }),

    /**
     * Checks a six-digit code. Each try is counted atomically before the comparison, so however
     * many guesses arrive at once, at most `codeMaxAttempts` are ever compared before the code dies.
     * `ex`: the caller's transaction, when the check must take turns with others under a lock it holds.
     */
    async checkCode(
      userId: string | undefined,
      purpose: string,
      code: string,
      opts: { ex?: Executor } = {},
    ): Promise<boolean> {
      if (!userId) return false;
      const ex = opts.ex ?? db;
      const now = clock.now();
      const live = await ex
        .select({ id: oneTimeTokens.id })
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.userId, userId),
            eq(oneTimeTokens.purpose, purpose),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, now),
          ),
        )
        .orderBy(desc(oneTimeTokens.createdAt))
        .limit(1);
      if (!live[0]) return false;
      const claimed = await ex
        .update(oneTimeTokens)
        .set({ attempts: sql`${oneTimeTokens.attempts} + 1` })
        .where(
          and(
            eq(oneTimeTokens.id, live[0].id),
            isNull(oneTimeTokens.usedAt),
            sql`${oneTimeTokens.attempts} < ${LIMITS.codeMaxAttempts}`,
          ),
        )
        .returning({ attempts: oneTimeTokens.attempts, tokenHash: oneTimeTokens.tokenHash });
      const row = claimed[0];
      if (!row) return false;
      if (safeEqual(row.tokenHash, deps.hashToken(code))) {
        const used = await ex
          .update(oneTimeTokens)
          .set({ usedAt: now })
          .where(and(eq(oneTimeTokens.id, live[0].id), isNull(oneTimeTokens.usedAt)))
          .returning({ id: oneTimeTokens.id });
        return used.length === 1;
      }
      if (row.attempts >= LIMITS.codeMaxAttempts)
        await ex.update(oneTimeTokens).set({ usedAt: now }).where(eq(oneTimeTokens.id, live[0].id));
      return false;
    },

    async confirmResetCode(email: string, code: string) {
      const user = await findByEmail(db, email);
      const ok = await this.checkCode(user?.id, 'password_reset', code);
      if (!ok || !user) {
        deps.securityLog('password_reset_code_refused', { actor: user?.id ?? null });
        throw badRequest(messages.codeInvalid);
      }
      const resetToken = await db.transaction((tx) =>
        newToken(tx, user.id, 'password_reset_grant', randomToken(), minutes(LIMITS.codeTtlMinutes)),
      );
      return resetToken;
    },

    async resetPassword(email: string, token: string, password: string) {
      const user = await findByEmail(db, email);
      const now = clock.now();
      const liveGrant = (userId: string) =>
        and(
          eq(oneTimeTokens.userId, userId),
          eq(oneTimeTokens.tokenHash, deps.hashToken(token)),
          eq(oneTimeTokens.purpose, 'password_reset_grant'),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now),
        );
      // A lookup before the hash: an unknown address or a guessed token must not cost an argon2 hash.
      const known =
        user && (await db.select({ id: oneTimeTokens.id }).from(oneTimeTokens).where(liveGrant(user.id)).limit(1));
      if (!user || !known?.length) throw badRequest(messages.linkInvalid);
      const passwordHash = await hashPassword(password);
      const done = await db.transaction(async (tx) => {
        // The account's row before the grant's, as every writer that kills its tokens takes them (a new
        // code, "This wasn't me", an e-mail change, a deletion): the other order deadlocks (decision 2225).
        const row = await lockAccount(tx, user.id);
        // Read again under the lock: the grant was earned with a code mailed to that address; one that
        // moved or an account erased meanwhile gets nothing.
        if (!row || row.deletedAt || row.officialEmail !== user.officialEmail) return false;
        const grant = await tx
          .update(oneTimeTokens)
          .set({ usedAt: now })
          .where(liveGrant(user.id))
          .returning({ id: oneTimeTokens.id });
        if (!grant[0]) return false;
        // Whoever resets the password by e-mail has proven the address too.
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: now, emailConfirmedAt: row.emailConfirmedAt ?? now })
          .where(eq(users.id, user.id));
        // Whoever knew the old password may have a change of address pending, or codes: they die with
        // the sessions. Undo links stay: they belong to the addresses the account had before.
        await killTokens(tx, user.id, { keepUndo: true });
        await deps.auth.revokeAllSessions(tx, user.id);
        await enqueueMail(tx, render(passwordChangedMail(row.officialEmail, link('/password-reset'))));
        return true;
      });
      if (!done) throw badRequest(messages.linkInvalid);
      deps.mailWritten();
      deps.securityLog('password_reset', { actor: user!.id });
    },

    /**
     * "This wasn't me" (docs/decisions/2220), in the caller's transaction, which holds the account's row
     * `FOR UPDATE`: whoever knew the password is shut out. The password becomes `unusableHash` (the hash
     * of a secret nobody keeps), every code, reset token, payout grant and two-factor sign-in dies (the
     * owner's undo and "This wasn't me" links stay), every session ends, and a password reset code is
     * stored. Answers the code; the caller mails it to the account's address.
     */
    shutOut,
    issueNotMeLink,
    readNotMeLink,
    useNotMeLink,

    /**
     * "Sign out of all other devices" (decision 2245): every session of the account but the caller's ends,
     * with 2181's revokeAllSessions, under the account's row lock, the lock every revoker and a password
     * sign-in (auth.issue) take: a sign-in checked just before either commits first and is ended here, or
     * waits. A caller whose own session ended meanwhile gets 401 and ends nothing. Answers how many ended.
     */
    async endOtherSessions(user: { id: string; sessionId: string; userType: UserType }) {
      const ended = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
          .for('update');
        const [live] = await tx
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(eq(sessions.id, user.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())));
        if (!row || !live) throw unauthorized();
        const n = await deps.auth.revokeAllSessions(tx, user.id, user.sessionId);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'sessions.end_others',
          targetType: user.userType === 'admin' ? 'user' : user.userType,
          targetId: user.id,
          details: { ended: n },
        });
        return n;
      });
      deps.securityLog('other_sessions_ended', { actor: user.id, ended });
      return ended;
    },

    /**
     * Checks a signed-in user's current password (the caller counts the try first). Answers the hash it
     * matched, or null: a caller that writes later checks under the row lock that it is still the one.
     */
    async checkPassword(userId: string, password: string): Promise<string | null> {
      const rows = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return (await verifyPassword(rows[0]?.passwordHash, password)) ? rows[0].passwordHash : null;
    },

    /**
     * Step one of changing the sign-in e-mail (docs/decisions/0210); the caller proved the current
     * password. The account does not change: a free address gets a confirmation link, a taken one a
     * notice to its owner instead (the caller sees the same either way), and the old address is told,
     * with a link that cancels. `sessionId`: the session asking, the one the confirmation keeps signed in.
     */
    async requestEmailChange(
      tx: Executor,
      user: { id: string; officialEmail: string; sessionId: string },
      newEmail: string,
    ) {
      await killTokens(tx, user.id, { purpose: 'email_change' });
      if (await findByEmail(tx, newEmail))
        await enqueueMail(tx, render(emailChangeTakenMail(newEmail, link('/password-reset'))));
      else {
        const token = await storeToken(tx, user.id, 'email_change', randomToken(), hours(LIMITS.emailChangeTtlHours), {
          email: newEmail,
          sessionId: user.sessionId,
        });
        await enqueueMail(
          tx,
          render(
            confirmEmailChangeMail(newEmail, link(`/confirm-email-change?token=${token}`), LIMITS.emailChangeTtlHours),
          ),
        );
      }
      await sendUndoLink(tx, user.id, user.officialEmail, 'requested');
      deps.securityLog('email_change_requested', { actor: user.id });
    },

    /**
     * Step two: the link from the new address makes the change; the old address gets an undo link. Every
     * other session ends and every code, grant and sign-in challenge of the old address dies with it
     * (docs/decisions/2181): only the session that asked stays signed in.
     */
    async confirmEmailChange(token: string) {
      let actor: string | undefined;
      try {
        const outcome = await db.transaction(async (tx) => {
          const row = await useLinkToken(tx, 'email_change', token);
          if (!row?.email) return 'invalid' as const;
          const { user } = row;
          actor = user.id;
          if (await findByEmail(tx, row.email)) return 'taken' as const;
          await tx.update(users).set({ officialEmail: row.email, updatedAt: clock.now() }).where(eq(users.id, user.id));
          await killTokens(tx, user.id, { keepUndo: true });
          await deps.auth.revokeAllSessions(tx, user.id, row.sessionId);
          await sendUndoLink(tx, user.id, user.officialEmail, 'done');
          return 'done' as const;
        });
        if (outcome === 'invalid') throw badRequest(messages.linkInvalid);
        if (outcome === 'taken') throw new AppError(409, messages.emailTaken);
      } catch (err) {
        // Another account took the address between the check and the write: the unique index decides.
        if (isUniqueViolation(err)) throw new AppError(409, messages.emailTaken);
        throw err;
      }
      deps.mailWritten();
      deps.securityLog('email_changed', { actor });
    },

    /**
     * The link sent to the old address: logs out every device and kills every live token (pending
     * change, codes, other undo links); when the change was already made, it restores the old address.
     * One transaction under the account's row lock (taken first, by useLinkToken): the kills and the
     * restore commit together, so no code, grant or session for the address being undone can be had
     * between them. Decision 2232: an address held by a sign-up nobody confirmed is released, and a
     * two-factor enrolment announced elsewhere while the address was away is turned off (disableEnrolmentAnnouncedElsewhere).
     */
    async undoEmailChange(token: string): Promise<'cancelled' | 'reverted' | 'blocked'> {
      let released: string | undefined;
      const found = await db.transaction(async (tx) => {
        const row = await useLinkToken(tx, 'email_change_undo', token);
        if (!row?.email) return undefined;
        const { user } = row;
        // Undo links issued before this one stay alive: using the link sent to an address a thief moved
        // on from must not take the owner's earlier link away.
        await killTokens(tx, user.id, { keepUndo: row.createdAt });
        await deps.auth.revokeAllSessions(tx, user.id);
        const restore = row.email;
        // Back at the address the link was sent to, a second factor set up while it was away goes (2232).
        const done = async (outcome: 'cancelled' | 'reverted' | 'blocked') => ({
          userId: user.id,
          outcome,
          shutOut:
            outcome !== 'blocked' && (await disableEnrolmentAnnouncedElsewhere(tx, user, restore, row.createdAt)),
        });
        if (user.officialEmail === restore) return done('cancelled');
        if (await findByEmail(tx, restore)) {
          // Taken while away. A sign-up nobody confirmed cannot be the address's owner (its link went to this
          // inbox, the owner's): it is a squat that would make this link useless, and it goes (decision 2232).
          const [squat] = await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.officialEmail, restore), isNull(users.emailConfirmedAt), isNull(users.deletedAt)))
            .for('update');
          if (!squat || !(await deleteUnconfirmedHolder(tx, squat.id))) return done('blocked');
          released = squat.id;
        }
        try {
          // A savepoint: another account taking the address meanwhile must not undo the kills above.
          await tx.transaction((sp) =>
            sp.update(users).set({ officialEmail: restore, updatedAt: clock.now() }).where(eq(users.id, user.id)),
          );
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          return done('blocked');
        }
        return done('reverted');
      });
      if (!found) throw badRequest(messages.linkInvalid);
      if (released) deps.securityLog('email_change_squat_released', { actor: found.userId, squat: released });
      if (found.shutOut) deps.mailWritten();
      deps.securityLog('email_change_undone', { actor: found.userId, outcome: found.outcome, shutOut: found.shutOut });
      return found.outcome;
    },

    async getOwnProfile(userId: string, requestedId: string) {
      if (userId !== requestedId) throw forbidden(messages.noPermissionProfile);
      const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!rows[0]) throw unauthorized();
      return toProfile(rows[0]);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
