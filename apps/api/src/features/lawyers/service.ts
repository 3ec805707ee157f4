import { and, eq, gt, isNull } from 'drizzle-orm';
import { LIMITS, messages, type AccountDetails } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { oneTimeTokens, payoutDetails, users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { randomCode } from '../../platform/tokens.js';
import { toProfile } from '../profiles/mapper.js';
import { payoutChangedMail, payoutCodeMail } from './emails.js';

type Deps = Pick<Shared, 'db' | 'clock' | 'config' | 'hashToken' | 'mailWritten' | 'securityLog' | 'accounts'>;

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
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(payoutDetails)
          .values({ lawyerId: lawyer.id, ...input, createdAt: now, updatedAt: now })
          .onConflictDoNothing({ target: payoutDetails.lawyerId })
          .returning();
        if (inserted[0]) {
          await enqueueMail(tx, render(payoutChangedMail(lawyer.officialEmail, 'added', input)));
          return 'added' as const;
        }
        const existing = await current(tx, lawyer.id);
        const same =
          existing &&
          existing.accountNumber === input.accountNumber &&
          existing.accountName === input.accountName &&
          existing.bank === input.bank;
        if (!same) throw conflict(messages.paymentDetailsExist);
        return 'unchanged' as const;
      });
      if (outcome === 'added') {
        deps.mailWritten();
        deps.securityLog('payout_details_added', { actor: lawyer.id, bank: input.bank });
      }
      return [input];
    },

    /** E-mails a six-digit code; only one code is live at a time. */
    async sendCode(lawyer: AuthUser) {
      if (!(await current(db, lawyer.id))) throw notFound(messages.noPaymentDetails);
      const code = randomCode();
      await db.transaction(async (tx) => {
        await storeToken(tx, lawyer.id, OTP, deps.hashToken(code));
        await enqueueMail(tx, render(payoutCodeMail(lawyer.officialEmail, code, LIMITS.codeTtlMinutes)));
      });
      deps.mailWritten();
      deps.securityLog('payout_otp_sent', { actor: lawyer.id });
    },

    /** Checks the code (shared rules of accounts.checkCode) and opens a 10-minute edit window. */
    async confirmCode(lawyer: AuthUser, code: string) {
      const ok = await deps.accounts.checkCode(lawyer.id, OTP, code);
      if (!ok) {
        deps.securityLog('payout_otp_refused', { actor: lawyer.id });
        throw badRequest(messages.codeInvalid);
      }
      await db.transaction((tx) => storeToken(tx, lawyer.id, GRANT, grantHash(lawyer)));
      deps.securityLog('payout_otp_confirmed', { actor: lawyer.id });
    },

    /** Changes saved details; needs the grant of a code confirmed by this session in the last 10 minutes, used once. */
    async editDetails(lawyer: AuthUser, input: AccountDetails, claimedIds: Array<string | undefined>) {
      if (claimedIds.some((id) => id !== undefined && id !== lawyer.id)) {
        deps.securityLog('payout_edit_refused', { actor: lawyer.id, reason: 'mismatched lawyer id' });
        throw forbidden(messages.forbidden);
      }
      const now = clock.now();
      const updated = await db.transaction(async (tx) => {
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
          .set({ ...input, updatedAt: now })
          .where(eq(payoutDetails.lawyerId, lawyer.id))
          .returning();
        if (!rows[0]) throw notFound(messages.noPaymentDetails);
        await enqueueMail(tx, render(payoutChangedMail(lawyer.officialEmail, 'changed', input)));
        return toDetails(rows[0]);
      });
      if (!updated) {
        deps.securityLog('payout_edit_refused', { actor: lawyer.id, reason: 'no confirmed code' });
        throw forbidden(messages.payoutCodeRequired);
      }
      deps.mailWritten();
      deps.securityLog('payout_details_changed', { actor: lawyer.id, bank: input.bank });
      return [updated];
    },
  };
}
export type LawyersService = ReturnType<typeof createLawyersService>;
