import { and, asc, eq, gt, inArray, isNull, ne, or } from 'drizzle-orm';
import {
  bankCodeOf,
  LIMITS,
  messages,
  namesClearlyDiffer,
  PAYOUT_NOT_ME_LINK_DAYS,
  payoutMessages,
  type AccountDetails,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { oneTimeTokens, payoutDetails, payouts, sessions, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { ProviderUnavailable, type PaymentProvider } from '../../platform/payments/index.js';
import { enqueueMail } from '../../platform/mailer.js';
import { randomCode } from '../../platform/tokens.js';
import { PAYOUT_DETAILS_NOT_ME } from '../accounts/service.js';
import { toProfile } from '../profiles/mapper.js';
import { payoutChangedMail, payoutCodeMail } from './emails.js';

type Deps = Pick<Shared, 'db' | 'clock' | 'config' | 'hashToken' | 'mailWritten' | 'securityLog' | 'accounts'> & {
  /** Resolves an account with the bank before it is saved (decision 1710). */
  provider: PaymentProvider;
};

/** What is saved: the bank's own name for the account, the typed one kept only when it clearly differs. */
interface Resolved {
  accountNumber: string;
  accountName: string;
  bank: string;
  bankCode: string;
  typedName: string | null;
}

const OTP = 'payout_otp';
const GRANT = 'payout_grant';
const ttlMs = LIMITS.codeTtlMinutes * 60_000;

const toDetails = (r: typeof payoutDetails.$inferSelect): AccountDetails => ({
  accountNumber: r.accountNumber,
  accountName: r.accountName,
  bank: r.bank,
});

/**
 * Lawyer payout details and the admin lawyer lookup.
 *
 * Changing saved details needs a fresh e-mailed code: send-otp stores a `payout_otp` code,
 * confirm-otp checks it with the accounts service's `checkCode` (10 minutes, once, 5 tries) and
 * stores a `payout_grant` bound to the confirming session; edit consumes that grant in the same
 * transaction as the change.
 */
export function createLawyersService(deps: Deps) {
  const { db, clock } = deps;
  const render = mailRenderer(deps.config);
  /** The grant belongs to the session that confirmed the code, not just to the account. */
  const grantHash = (lawyer: AuthUser) => deps.hashToken(`${GRANT}:${lawyer.sessionId}`);

  async function current(ex: Executor, lawyerId: string) {
    const rows = await ex.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyerId)).limit(1);
    return rows[0];
  }

  /**
   * Asks the provider whose account this is. Unknown: 400; provider unreachable: 503. The bank's name
   * is what is saved (decision 1710), whatever was typed.
   */
  async function resolve(lawyer: AuthUser, input: AccountDetails): Promise<Resolved> {
    const bankCode = bankCodeOf(input.bank);
    if (!bankCode) throw badRequest(messages.bankRule);
    let found: { accountName: string } | null;
    try {
      found = await deps.provider.resolveAccount(input.accountNumber, bankCode);
    } catch (err) {
      if (err instanceof ProviderUnavailable) throw new AppError(503, payoutMessages.bankCheckUnavailable);
      throw err;
    }
    if (!found) {
      deps.securityLog('payout_account_unresolved', { actor: lawyer.id, bank: input.bank });
      throw badRequest(payoutMessages.accountNotFound);
    }
    return {
      accountNumber: input.accountNumber,
      accountName: found.accountName,
      bank: input.bank,
      bankCode,
      typedName: namesClearlyDiffer(input.accountName, found.accountName) ? input.accountName : null,
    };
  }

  /**
   * Locks the account's row, before any token's as every account flow takes them, and answers the address
   * it holds then (undefined once erased): mail written in this transaction goes there, never to the
   * address the session was read with, which a confirmed change may have left meanwhile.
   */
  async function lockAccount(tx: Executor, userId: string) {
    const [account] = await tx
      .select({ officialEmail: users.officialEmail })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for('update');
    return account;
  }

  /**
   * Whether the session is still live. Call it under lockAccount: sessions are revoked under that same
   * lock (another session's address change, an erasure), so one live here is live at commit.
   */
  async function sessionLive(tx: Executor, lawyer: AuthUser, now: Date) {
    const [live] = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, lawyer.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
    return !!live;
  }

  /**
   * The "This wasn't me" link of the details just saved (decision 2244, the link of 2220): a newer one,
   * of newer details, makes it stale, so it only ever removes the details it announced.
   */
  async function notMeLink(tx: Executor, lawyerId: string, officialEmail: string) {
    const token = await deps.accounts.issueNotMeLink(tx, {
      userId: lawyerId,
      purpose: PAYOUT_DETAILS_NOT_ME,
      email: officialEmail,
      days: PAYOUT_NOT_ME_LINK_DAYS,
    });
    return { url: `${deps.config.PUBLIC_URL}/payment-details-not-me?token=${token}`, days: PAYOUT_NOT_ME_LINK_DAYS };
  }

  /** Kills earlier live tokens of that purpose and stores a new one. */
  async function storeToken(tx: Executor, userId: string, purpose: string, hash: string) {
    const now = clock.now();
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
    await tx
      .insert(oneTimeTokens)
      .values({ userId, purpose, tokenHash: hash, expiresAt: new Date(now.getTime() + ttlMs), createdAt: now });
  }

  return {
    /** Admins read any lawyer's profile (spec: Lawyer by id, `lawyer` at the top). */
    async lawyerById(id: string) {
      const rows = await db
        .select()
        .from(users)
        .where(and(eq(users.id, id), eq(users.userType, 'lawyer')))
        .limit(1);
      if (!rows[0]) throw notFound('Lawyer not found');
      return toProfile(rows[0]);
    },

    async getDetails(lawyer: AuthUser) {
      const row = await current(db, lawyer.id);
      return {
        _id: lawyer.id,
        name: lawyer.name,
        officialEmail: lawyer.officialEmail,
        accountDetails: row ? [toDetails(row)] : [],
      };
    },

    /**
     * First payout details. A `lawyerId` that is not the caller's is the spec's "mismatched" case.
     * Sending the very same details again answers success and changes nothing; different details
     * when some exist are refused (changing them needs the code step).
     */
    async addDetails(lawyer: AuthUser, input: AccountDetails, claimedIds: Array<string | undefined>) {
      if (claimedIds.some((id) => id !== undefined && id !== lawyer.id)) {
        deps.securityLog('payout_add_refused', { actor: lawyer.id, reason: 'mismatched lawyer id' });
        throw forbidden(messages.paymentAdditionUnsuccessful);
      }
      const sameAccount = (r: { accountNumber: string; bank: string }) =>
        r.accountNumber === input.accountNumber && r.bank === input.bank;
      const before = await current(db, lawyer.id);
      // Other details while some are saved need the code step; the bank is not asked for nothing.
      if (before && !sameAccount(before)) throw conflict(messages.paymentDetailsExist);
      const resolved = await resolve(lawyer, input);
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const account = await lockAccount(tx, lawyer.id);
        // Erased meanwhile (the erasure deleted the account's details), or this session ended meanwhile
        // (another session's address change): nothing is written after it.
        if (!account || !(await sessionLive(tx, lawyer, now))) throw unauthorized();
        const inserted = await tx
          .insert(payoutDetails)
          .values({ lawyerId: lawyer.id, ...resolved, resolvedAt: now, createdAt: now, updatedAt: now })
          .onConflictDoNothing({ target: payoutDetails.lawyerId })
          .returning();
        if (inserted[0]) {
          const notMe = await notMeLink(tx, lawyer.id, account.officialEmail);
          await enqueueMail(tx, render(payoutChangedMail(account.officialEmail, 'added', resolved, notMe)));
          return { kind: 'added' as const, row: inserted[0] };
        }
        const existing = await current(tx, lawyer.id);
        if (!existing || !sameAccount(existing)) throw conflict(messages.paymentDetailsExist);
        // The same account again: a safe retry, and the way details saved before resolution get checked.
        if (existing.resolvedAt && existing.accountName === resolved.accountName)
          return { kind: 'unchanged' as const, row: existing };
        const [row] = await tx
          .update(payoutDetails)
          .set({ ...resolved, resolvedAt: now, updatedAt: now })
          .where(eq(payoutDetails.lawyerId, lawyer.id))
          .returning();
        return { kind: 'resolved' as const, row };
      });
      if (outcome.kind === 'added') {
        deps.mailWritten();
        deps.securityLog('payout_details_added', { actor: lawyer.id, bank: input.bank });
      }
      if (outcome.kind === 'resolved')
        deps.securityLog('payout_details_resolved', { actor: lawyer.id, bank: input.bank });
      return {
        accountDetails: [toDetails(outcome.row)],
        nameFromBank: resolved.typedName ? resolved.accountName : null,
      };
    },

    /**
     * E-mails a six-digit code; only one code is live at a time. Under the account's row lock, so two
     * requests at once take turns; asked again within the repeat window, the code just mailed stands and
     * nothing more is sent (docs/decisions/2221). The code goes to the address the row holds under that
     * lock, never the one the session was signed in with: a confirmed address change may have committed
     * since. A session ended meanwhile (another session's address change, an erasure) gets 401 and no code.
     */
    async sendCode(lawyer: AuthUser) {
      if (!(await current(db, lawyer.id))) throw notFound(messages.noPaymentDetails);
      const code = randomCode();
      const sent = await db.transaction(async (tx) => {
        const now = clock.now();
        const account = await lockAccount(tx, lawyer.id);
        if (!account || !(await sessionLive(tx, lawyer, now))) throw unauthorized();
        const [recent] = await tx
          .select({ createdAt: oneTimeTokens.createdAt })
          .from(oneTimeTokens)
          .where(
            and(
              eq(oneTimeTokens.userId, lawyer.id),
              eq(oneTimeTokens.purpose, OTP),
              isNull(oneTimeTokens.usedAt),
              gt(oneTimeTokens.expiresAt, now),
              gt(oneTimeTokens.createdAt, new Date(now.getTime() - LIMITS.repeatWindowSeconds * 1000)),
            ),
          )
          .limit(1);
        if (recent) {
          const waitMs = recent.createdAt.getTime() + LIMITS.repeatWindowSeconds * 1000 - now.getTime();
          return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
        }
        await storeToken(tx, lawyer.id, OTP, deps.hashToken(code));
        await enqueueMail(tx, render(payoutCodeMail(account.officialEmail, code, LIMITS.codeTtlMinutes)));
        return null;
      });
      // Nothing new was mailed: the caller says so, and when a new code may be asked for (decision 2312).
      if (sent) return sent;
      deps.mailWritten();
      deps.securityLog('payout_otp_sent', { actor: lawyer.id });
      return null;
    },

    /**
     * Checks the code (shared rules of accounts.checkCode) and opens a 10-minute edit window. A code
     * works once, even for a retry whose first answer was lost (decision 2312): the web handles that.
     * Under the account's row lock, so two confirms of one code take turns and the grant is stored
     * with the code's use.
     */
    async confirmCode(lawyer: AuthUser, code: string) {
      const confirmed = await db.transaction(async (tx) => {
        // Erased meanwhile: nothing to confirm. No throw in here: a wrong try must stay counted.
        if (!(await lockAccount(tx, lawyer.id))) return false;
        if (!(await deps.accounts.checkCode(lawyer.id, OTP, code, { ex: tx }))) return false;
        await storeToken(tx, lawyer.id, GRANT, grantHash(lawyer));
        return true;
      });
      if (!confirmed) {
        deps.securityLog('payout_otp_refused', { actor: lawyer.id });
        throw badRequest(messages.codeInvalid);
      }
      deps.securityLog('payout_otp_confirmed', { actor: lawyer.id });
    },

    /** Changes saved details; needs the grant of a code confirmed by this session in the last 10 minutes, used once. */
    async editDetails(lawyer: AuthUser, input: AccountDetails, claimedIds: Array<string | undefined>) {
      if (claimedIds.some((id) => id !== undefined && id !== lawyer.id)) {
        deps.securityLog('payout_edit_refused', { actor: lawyer.id, reason: 'mismatched lawyer id' });
        throw forbidden(messages.forbidden);
      }
      // Checked with the bank first: an unknown account does not spend the confirmed code.
      const resolved = await resolve(lawyer, input);
      const now = clock.now();
      const updated = await db.transaction(async (tx) => {
        // Erased meanwhile: the erasure deleted the grant too, so this answers as a missing grant does.
        const account = await lockAccount(tx, lawyer.id);
        if (!account) return null;
        // Ended meanwhile by another session (its two-factor enrolment, an address change): its grant,
        // when it outlived the session, changes nothing.
        if (!(await sessionLive(tx, lawyer, now))) throw unauthorized();
        const grant = await tx
          .update(oneTimeTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(oneTimeTokens.userId, lawyer.id),
              eq(oneTimeTokens.purpose, GRANT),
              eq(oneTimeTokens.tokenHash, grantHash(lawyer)),
              isNull(oneTimeTokens.usedAt),
              gt(oneTimeTokens.expiresAt, now),
            ),
          )
          .returning({ id: oneTimeTokens.id });
        if (!grant[0]) return null;
        const rows = await tx
          .update(payoutDetails)
          .set({ ...resolved, resolvedAt: now, updatedAt: now })
          .where(eq(payoutDetails.lawyerId, lawyer.id))
          .returning();
        if (!rows[0]) throw notFound(messages.noPaymentDetails);
        const notMe = await notMeLink(tx, lawyer.id, account.officialEmail);
        // Withdrawals asked for earlier still go to the account they named (payouts copy it): the mail
        // names them, so an owner correcting a thief's details can cancel them on Get Paid (decision 2344).
        const waiting = await tx
          .select({
            amount: payouts.amount,
            bank: payouts.bank,
            accountNumber: payouts.accountNumber,
            createdAt: payouts.createdAt,
            status: payouts.status,
          })
          .from(payouts)
          .where(
            and(
              eq(payouts.lawyerId, lawyer.id),
              // Approved ones on their way are named too, though only support can still act on them.
              inArray(payouts.status, ['requested', 'sending']),
              // The bank code names the account; the bank's name may be spelled another way.
              or(ne(payouts.accountNumber, resolved.accountNumber), ne(payouts.bankCode, resolved.bankCode)),
            ),
          )
          .orderBy(asc(payouts.createdAt));
        const stillWaiting = waiting.length
          ? {
              payouts: waiting.map((p) => ({ ...p, amount: p.amount / 100, sending: p.status === 'sending' })),
              url: `${deps.config.PUBLIC_URL}/lawyer/get-paid?tab=get-paid`,
            }
          : undefined;
        await enqueueMail(
          tx,
          render(payoutChangedMail(account.officialEmail, 'changed', resolved, notMe, stillWaiting)),
        );
        return toDetails(rows[0]);
      });
      if (!updated) {
        deps.securityLog('payout_edit_refused', { actor: lawyer.id, reason: 'no confirmed code' });
        throw forbidden(messages.payoutCodeRequired);
      }
      deps.mailWritten();
      deps.securityLog('payout_details_changed', { actor: lawyer.id, bank: input.bank });
      return { accountDetails: [updated], nameFromBank: resolved.typedName ? resolved.accountName : null };
    },
  };
}
export type LawyersService = ReturnType<typeof createLawyersService>;
