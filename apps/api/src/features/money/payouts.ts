import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  LIMITS,
  maskAccountNumber,
  MIN_PAYOUT,
  payoutMessages,
  toKobo,
  type PayoutStatus,
  type PayoutView,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { ledgerEntries, ledgerTransactions, oneTimeTokens, payoutDetails, payouts, users } from '../../db/schema.js';
import { liveAdmin } from '../../db/admins.js';
import { recordAudit } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { uuidFrom } from '../../platform/tokens.js';
import { enqueueMail } from '../../platform/mailer.js';
import {
  finishSandboxTransfer,
  ProviderUnavailable,
  TransferRefused,
  type PaymentProvider,
  type ProviderTransfer,
} from '../../platform/payments/index.js';
import {
  payoutCancelledMail,
  payoutFailedMail,
  payoutPaidMail,
  payoutRejectedMail,
  payoutUnclaimedMail,
  payoutWaitingMail,
} from './emails.js';
import type { Ledger } from './ledger.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { hashPassword } from '../../platform/passwords.js';
import { randomToken } from '../../platform/tokens.js';
import { PAYOUT_DETAILS_NOT_ME } from '../accounts/service.js';
import { payoutNotMeMail } from '../lawyers/emails.js';
import { lockLawyerPayouts, lockLiveAccount } from '../../db/locks.js';

/** The provider's transfer, or a send's refusal with the row's `updatedAt` that send read (decision 2277). */
type Outcome = ProviderTransfer | { status: 'failed'; message: string; readAt: Date };

/**
 * What `settle` applied, for what it says once committed: the payout paid or failed and its lawyer
 * mailed; its money back to a deleted account (the admins mailed and told); or reported paid after it
 * failed, nothing moved (told, left to the admins).
 */
type Settlement =
  | { kind: 'settled' }
  | {
      kind: 'returnedToDeletedAccount';
      event: { payoutId: string; lawyerId: string; amountKobo: number; reversal: boolean; reason: string };
    }
  | {
      kind: 'paidAfterFailure';
      event: { payoutId: string; lawyerId: string; amountKobo: number; transferId: string };
    };

/** A payout approved but never answered by the provider is sent again (same reference) after this long. */
const PAYOUT_RESEND_AFTER_MS = 60_000;
/** Paid payouts are looked up again for a reversal once a day for this long after they settle. */
const REVERSAL_WATCH_MS = 30 * 86_400_000;
const REVERSAL_RECHECK_MS = 86_400_000;
/** Tries of one send while the provider is unreachable, and the pause before each retry. */
const SEND_RETRIES_MS = [200, 1000];
/** What every payout is sent in (the provider's transfer request names it). */
const PAYOUT_CURRENCY = 'NGN';
/** What the admin list shows beside the bank's reason when the money came back to a deleted account. */
export const UNCLAIMED_NOTE = 'the account was deleted, so the amount is held for an admin to pay by hand';

interface PayoutsDeps extends Pick<Shared, 'db' | 'clock' | 'config' | 'mailWritten' | 'securityLog'> {
  /** The "This wasn't me" links and the shut-out (decision 2244); tests of the money alone leave it out. */
  accounts?: Shared['accounts'];
  provider: PaymentProvider;
  ledger: Ledger;
  log?: { warn: (o: object, m?: string) => void; error: (o: object, m?: string) => void };
  /** Pauses between send retries (tests pass a quick one). */
  sleep?: (ms: number) => Promise<void>;
}

const NOT_ME_WORDS = {
  unknown: payoutMessages.notMeLinkUnknown,
  used: payoutMessages.notMeLinkUsed,
  expired: payoutMessages.notMeLinkExpired,
  addressChanged: payoutMessages.notMeAddressChanged,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the payout a lawyer asks for under a client key (the key is the transfer reference's source). */
const payoutIdFor = (lawyerId: string, key: string) => uuidFrom(`payout:${lawyerId}:${key}`);

/**
 * Lawyer payouts (docs/decisions/1710-lawyer-payouts.md). A request reserves its amount from the
 * available share (open requests count against it); an admin's approval posts `payout` and marks it
 * `sending` under the payout's row lock, and only that approval sends it, after the commit, with the
 * payout id as the transfer reference; the provider's answer, its webhook or the reconciler settles it
 * once (`payout_settled` or `payout_failed`, which returns the money to the available balance).
 */
export function createPayouts(deps: PayoutsDeps) {
  const { db, clock, provider, ledger } = deps;
  const render = mailRenderer(deps.config);
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const earningsUrl = () => `${deps.config.PUBLIC_URL}/lawyer/get-paid`;
  /** What every mail about one payout says: to whom, how much, to which account, and where to look. */
  const payoutMailFields = (
    lawyer: { email: string; name: string },
    p: { amount: number; bank: string; accountNumber: string },
  ) => ({
    to: lawyer.email,
    name: lawyer.name,
    amount: p.amount / 100,
    bank: p.bank,
    accountNumber: p.accountNumber,
    url: earningsUrl(),
  });
  const accounts = () => {
    if (!deps.accounts) throw new Error('payouts: the accounts service is needed for "This wasn\'t me"');
    return deps.accounts;
  };

  /** The lawyer's share withdrawable from the ledger now, in kobo. */
  async function available(ex: Executor, lawyerId: string): Promise<number> {
    const [row] = await ex
      .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.lawyerId, lawyerId),
          eq(ledgerEntries.account, 'lawyer_earnings'),
          or(isNull(ledgerEntries.availableAt), lte(ledgerEntries.availableAt, clock.now())),
        ),
      );
    return Number(row?.kobo ?? 0);
  }

  /** Kobo asked for and not yet approved: reserved, so two requests cannot take the same money. */
  async function reserved(ex: Executor, lawyerId: string): Promise<number> {
    const [row] = await ex
      .select({ kobo: sql<string>`coalesce(sum(${payouts.amount}), 0)` })
      .from(payouts)
      .where(and(eq(payouts.lawyerId, lawyerId), eq(payouts.status, 'requested')));
    return Number(row?.kobo ?? 0);
  }

  const withdrawable = async (ex: Executor, lawyerId: string) =>
    Math.max(0, (await available(ex, lawyerId)) - (await reserved(ex, lawyerId)));

  async function views(where: ReturnType<typeof and>, limit = 200, ex: Executor = db): Promise<PayoutView[]> {
    const rows = await ex
      .select({ p: payouts, lawyerName: users.name, detailsAddedAt: payoutDetails.updatedAt })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.lawyerId))
      // The account's age as the lawyer's saved details: a payout to one saved minutes ago, by whoever held
      // the session, is what an admin should look at twice (decision 2244).
      .leftJoin(
        payoutDetails,
        and(
          eq(payoutDetails.lawyerId, payouts.lawyerId),
          eq(payoutDetails.accountNumber, payouts.accountNumber),
          eq(payoutDetails.bank, payouts.bank),
        ),
      )
      .where(where)
      .orderBy(sql`(${payouts.status} = 'requested') desc`, desc(payouts.createdAt), desc(payouts.id))
      .limit(limit);
    return rows.map(({ p, lawyerName, detailsAddedAt }) => ({
      _id: p.id,
      lawyerId: p.lawyerId,
      lawyerName,
      amount: p.amount / 100,
      status: p.status,
      bank: p.bank,
      accountNumber: maskAccountNumber(p.accountNumber),
      accountName: p.accountName,
      failure: p.failure ?? p.rejectionReason,
      createdAt: p.createdAt.toISOString(),
      approvedAt: p.approvedAt?.toISOString() ?? null,
      settledAt: p.settledAt?.toISOString() ?? null,
      detailsAddedAt: detailsAddedAt?.toISOString() ?? null,
      cancelled: cancelledByLawyer(p),
    }));
  }
  const viewOf = async (id: string) => (await views(eq(payouts.id, id), 1))[0];

  /** Applies the provider's word to a payout being sent, once, under its row lock. */
  async function settle(payoutId: string, outcome: Outcome): Promise<boolean> {
    const done = await db.transaction(async (tx): Promise<Settlement | null> => {
      // Money coming back must see an erasure of its lawyer that is under way: the lawyer's row is
      // locked before the payout's, the order erasure takes them in (a payout's lawyer never changes).
      if (outcome.status === 'failed') {
        const [head] = await tx.select({ lawyerId: payouts.lawyerId }).from(payouts).where(eq(payouts.id, payoutId));
        if (!head) return null;
        await tx.select({ id: users.id }).from(users).where(eq(users.id, head.lawyerId)).for('share');
      }
      const [p] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
      // A paid payout is settled again only by a reversal: the bank sent the money back to our balance.
      const reversal = p?.status === 'paid' && outcome.status === 'failed';
      // Reported successful after it was reported failed (outside Flutterwave's contract): the money may
      // be both at the bank and back in the lawyer's balance, so it is left to the admins, told below.
      if (
        p?.status === 'failed' &&
        outcome.status === 'successful' &&
        'id' in outcome &&
        outcome.id === p.providerTransferId
      )
        return {
          kind: 'paidAfterFailure',
          event: { payoutId: p.id, lawyerId: p.lawyerId, amountKobo: p.amount, transferId: outcome.id },
        };
      if (!p || (p.status !== 'sending' && !reversal)) return null;
      // A failure of another transfer than the one known to carry this payout (outside Flutterwave's
      // contract: a reference names one transfer) returns nothing: the known one may pay, or has paid.
      if (
        outcome.status === 'failed' &&
        'id' in outcome &&
        p.providerTransferId &&
        outcome.id !== p.providerTransferId
      ) {
        deps.log?.warn(
          { payoutId: p.id, transferId: outcome.id, known: p.providerTransferId },
          'failure of another transfer under this payout; left as it is',
        );
        return null;
      }
      // A send's refusal names no transfer: applied once another pass took the payout (its `updatedAt`
      // moved) or its transfer is known (sent, or paid), it would return money that transfer carries.
      // Only the transfer's outcome settles it then (decision 2277).
      if (!('id' in outcome) && (p.providerTransferId || p.updatedAt.getTime() !== outcome.readAt.getTime()))
        return null;
      const now = clock.now();
      const providerTransferId = 'id' in outcome ? outcome.id : p.providerTransferId;
      // Ours are naira transfers: the same number in another currency is another sum of money.
      if (
        'id' in outcome &&
        (outcome.reference !== p.id || outcome.amount !== p.amount || outcome.currency !== PAYOUT_CURRENCY)
      ) {
        deps.log?.warn(
          {
            payoutId: p.id,
            reference: outcome.reference,
            amount: outcome.amount,
            currency: outcome.currency,
            expected: p.amount,
          },
          'transfer does not match its payout; left as it is',
        );
        return null;
      }
      if (outcome.status === 'pending') {
        if (providerTransferId !== p.providerTransferId)
          await tx.update(payouts).set({ providerTransferId, updatedAt: now }).where(eq(payouts.id, p.id));
        return null;
      }
      const [lawyer] = await tx
        .select({ email: users.officialEmail, name: users.name, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, p.lawyerId));
      const mail = payoutMailFields(lawyer, p);
      if (outcome.status === 'successful') {
        await tx
          .update(payouts)
          .set({ status: 'paid', providerTransferId, settledAt: now, updatedAt: now })
          .where(eq(payouts.id, p.id));
        await ledger.post(tx, { kind: 'payout_settled', payoutId: p.id, memo: 'Payout paid by the provider' }, [
          { account: 'payouts_in_transit', amount: p.amount, lawyerId: p.lawyerId },
          { account: 'provider_cash', amount: -p.amount },
        ]);
        // Flutterwave charges the fee only for a transfer that went through.
        if ('fee' in outcome && outcome.fee !== undefined && outcome.fee < p.amount)
          await ledger.recordFee(tx, { payoutId: p.id }, outcome.fee);
        await enqueueMail(tx, render(payoutPaidMail(mail)));
        return { kind: 'settled' };
      }
      const reason = outcome.message || (reversal ? 'reversed by the bank' : 'refused by the bank');
      // Erasure waits for every payout still moving, so only a paid one comes back to a deleted account:
      // nobody can withdraw it from the app, so the admins are told and the row says why (decision 2228).
      const erased = lawyer.deletedAt !== null;
      await tx
        .update(payouts)
        .set({
          status: 'failed',
          providerTransferId,
          failure: erased ? `${reason}; ${UNCLAIMED_NOTE}` : reason,
          settledAt: now,
          updatedAt: now,
        })
        .where(eq(payouts.id, p.id));
      // The money is the lawyer's again, available at once: from transit, or, reversed after it was
      // settled, from the provider's balance it came back to.
      if (reversal)
        await ledger.post(
          tx,
          {
            kind: 'payout_reversed',
            payoutId: p.id,
            memo: erased
              ? 'Payout reversed after the account was deleted; held for an admin'
              : 'Payout reversed; returned to the lawyer',
          },
          [
            { account: 'provider_cash', amount: p.amount },
            { account: 'lawyer_earnings', amount: -p.amount, lawyerId: p.lawyerId, availableAt: null },
          ],
        );
      else
        await ledger.post(
          tx,
          { kind: 'payout_failed', payoutId: p.id, memo: 'Payout failed; returned to the lawyer' },
          [
            { account: 'payouts_in_transit', amount: p.amount, lawyerId: p.lawyerId },
            { account: 'lawyer_earnings', amount: -p.amount, lawyerId: p.lawyerId, availableAt: null },
          ],
        );
      if (!erased) {
        await enqueueMail(tx, render(payoutFailedMail({ ...mail, reason })));
        return { kind: 'settled' };
      }
      const admins = await tx.select({ email: users.officialEmail }).from(users).where(liveAdmin).limit(20);
      for (const a of admins)
        await enqueueMail(
          tx,
          render(
            payoutUnclaimedMail({
              to: a.email,
              payoutId: p.id,
              amount: p.amount / 100,
              bank: p.bank,
              accountNumber: p.accountNumber,
              reason,
              url: `${deps.config.PUBLIC_URL}/admin/payouts`,
            }),
          ),
        );
      return {
        kind: 'returnedToDeletedAccount',
        event: { payoutId: p.id, lawyerId: p.lawyerId, amountKobo: p.amount, reversal, reason },
      };
    });
    if (!done) return false;
    if (done.kind === 'paidAfterFailure') {
      deps.securityLog('payout_paid_after_failure', done.event);
      return false;
    }
    deps.mailWritten();
    // Logged like the other money an admin must act on (plan_paid_twice, payment_for_deleted_account).
    if (done.kind === 'returnedToDeletedAccount') deps.securityLog('payout_returned_to_deleted_account', done.event);
    return true;
  }

  /**
   * Sends an approved payout to the provider (reference = payout id, so a second send of the same payout
   * is the same transfer); retries while the provider is unreachable, then leaves it to the reconciler.
   */
  async function send(payoutId: string) {
    const [p] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
    if (!p || p.status !== 'sending' || p.providerTransferId) return;
    let outcome: Outcome | null = null;
    for (let attempt = 0; outcome === null; attempt++) {
      try {
        outcome = await provider.transfer({
          reference: p.id,
          amount: p.amount,
          bankCode: p.bankCode,
          accountNumber: p.accountNumber,
          narration: `LegalMarket payout ${p.id.slice(0, 8)}`,
        });
      } catch (err) {
        if (err instanceof TransferRefused) {
          // An earlier send we never heard back from may have made this transfer, whatever this refusal
          // says (a duplicate reference, or the balance that send spent): look it up by our reference
          // before giving the money back; the reconciler tries again if the lookup cannot say.
          let found: ProviderTransfer | null;
          try {
            found = await provider.findTransfer(p.id);
          } catch {
            deps.log?.warn({ payoutId }, 'transfer refused and not looked up; the reconciler retries');
            return;
          }
          if (found) {
            deps.log?.warn({ payoutId }, 'transfer refused, but one with this reference exists; settling by it');
            await settle(payoutId, found);
            return;
          }
          if (/reference/i.test(err.message) && /exist|duplicate/i.test(err.message)) return;
          outcome = { status: 'failed', message: err.message, readAt: p.updatedAt };
        } else if (err instanceof ProviderUnavailable && attempt < SEND_RETRIES_MS.length) {
          await sleep(SEND_RETRIES_MS[attempt]);
        } else if (err instanceof ProviderUnavailable) {
          deps.log?.warn({ err, payoutId }, 'payout not sent: provider unavailable; the reconciler retries');
          return;
        } else throw err;
      }
    }
    await settle(payoutId, outcome);
  }

  /**
   * Ends a `requested` payout the caller holds under its row lock: `rejected` with who, when and why,
   * audit-logged, the lawyer e-mailed the reason. Nothing was posted for a request (it only reserved its
   * amount), so the ledger needs no entry and the amount is withdrawable again.
   */
  async function rejectRequested(
    tx: Executor,
    p: typeof payouts.$inferSelect,
    by: string,
    reason: string,
    action: 'payout.reject' | 'payout.cancel' = 'payout.reject',
  ) {
    const now = clock.now();
    await tx
      .update(payouts)
      .set({ status: 'rejected', rejectedBy: by, rejectedAt: now, rejectionReason: reason, updatedAt: now })
      .where(eq(payouts.id, p.id));
    await recordAudit(tx, {
      actorId: by,
      action,
      targetType: 'payout',
      targetId: p.id,
      details: { lawyerId: p.lawyerId, amountKobo: p.amount, reason },
    });
    const [lawyer] = await tx
      .select({ email: users.officialEmail, name: users.name })
      .from(users)
      .where(eq(users.id, p.lawyerId));
    const fields = payoutMailFields(lawyer, p);
    await enqueueMail(
      tx,
      render(action === 'payout.cancel' ? payoutCancelledMail(fields) : payoutRejectedMail({ ...fields, reason })),
    );
  }

  /** Whether a payout was ended by its own lawyer's cancel (decision 2344), not by an admin or "This wasn't me". */
  const cancelledByLawyer = (p: {
    status: PayoutStatus;
    rejectedBy: string | null;
    lawyerId: string;
    rejectionReason: string | null;
  }) => p.status === 'rejected' && p.rejectedBy === p.lawyerId && p.rejectionReason === payoutMessages.cancelledReason;

  /**
   * A payout-details "This wasn't me" link as it stands, with the details it announced, or the 4xx that
   * says why not (accounts.readNotMeLink, 2220's checks; stale when the details were removed or a newer
   * link, of newer details, was mailed since). With `tx`: under the lawyer's payout lock, then its row's
   * `FOR UPDATE`, the order of a withdrawal, an approval and an erasure.
   */
  async function detailsNotMeLink(token: string, tx?: Executor) {
    let details: typeof payoutDetails.$inferSelect | undefined;
    const found = await accounts().readNotMeLink(PAYOUT_DETAILS_NOT_ME, token, NOT_ME_WORDS, {
      tx,
      beforeRow: tx ? (userId) => lockLawyerPayouts(tx, userId) : undefined,
      stillApplies: async (ex, link, userId) => {
        [details] = await ex.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, userId));
        // Both times are the database's (each link's createdAt defaults to its transaction's start).
        const [newer] = await ex
          .select({ id: oneTimeTokens.id })
          .from(oneTimeTokens)
          .where(
            and(
              eq(oneTimeTokens.userId, userId),
              eq(oneTimeTokens.purpose, PAYOUT_DETAILS_NOT_ME),
              ne(oneTimeTokens.id, link.id),
              // In SQL: the database keeps microseconds, a JS Date only milliseconds.
              sql`${oneTimeTokens.createdAt} > (select o.created_at from one_time_tokens o where o.id = ${link.id})`,
            ),
          )
          .limit(1);
        if (!details || newer) throw conflict(payoutMessages.notMeLinkStale);
      },
    });
    return { ...found, details: details! };
  }

  /** Marks one requested payout approved and posts it, once; answers whether this call must send it. */
  async function approveOne(admin: AuthUser, payoutId: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      // The lawyer's payout lock before the payout's row, the order of a "This wasn't me" that rejects the
      // lawyer's requests (lm-payout, lawyer row, payout rows; decision 2244): the other order deadlocks.
      const [head] = await tx.select({ lawyerId: payouts.lawyerId }).from(payouts).where(eq(payouts.id, payoutId));
      if (!head) throw notFound(payoutMessages.notFound);
      await lockLawyerPayouts(tx, head.lawyerId);
      const [p] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
      if (!p) throw notFound(payoutMessages.notFound);
      // Rejected since the caller's unlocked look: a 409, never a 200 "approved" for a payout that ends rejected.
      if (p.status === 'rejected') throw conflict(payoutMessages.notRequested);
      // Approved already (a retried or duplicated approval): nothing moves, answered as it is.
      if (p.status !== 'requested') return false;
      if ((await available(tx, p.lawyerId)) < p.amount)
        throw conflict('The lawyer’s available balance no longer covers this payout');
      await approveLocked(tx, admin, p);
      return true;
    });
  }

  /**
   * Sets a `requested` payout the caller holds under its lawyer's payout lock and its row lock `sending`,
   * posts `payout` and audits it; the caller checked the lawyer's balance under those locks.
   */
  async function approveLocked(tx: Executor, admin: AuthUser, p: typeof payouts.$inferSelect) {
    const now = clock.now();
    await tx
      .update(payouts)
      .set({ status: 'sending', approvedBy: admin.id, approvedAt: now, updatedAt: now })
      .where(eq(payouts.id, p.id));
    await ledger.post(tx, { kind: 'payout', payoutId: p.id, memo: 'Payout approved and sent' }, [
      { account: 'lawyer_earnings', amount: p.amount, lawyerId: p.lawyerId },
      { account: 'payouts_in_transit', amount: -p.amount, lawyerId: p.lawyerId },
    ]);
    await recordAudit(tx, {
      actorId: admin.id,
      action: 'payout.approve',
      targetType: 'payout',
      targetId: p.id,
      details: { lawyerId: p.lawyerId, amountKobo: p.amount },
    });
  }

  /** What the batch's 409 says of a payout that cannot be approved: lawyer, amount, id and why. */
  async function refusalOf(tx: Executor, p: typeof payouts.$inferSelect, why: string) {
    const [lawyer] = await tx.select({ name: users.name }).from(users).where(eq(users.id, p.lawyerId));
    return { lawyerName: lawyer?.name ?? 'a lawyer', amount: p.amount / 100, id: p.id, why };
  }

  return {
    settle,
    send,

    /** The lawyer's withdrawable amount, whether its details were checked, and its payouts. */
    async forLawyer(lawyerId: string) {
      // One snapshot: read apart, an approval, request or failure landing between the reads made the
      // withdrawable amount disagree with its breakdown (2314), or the list with the totals.
      const [w, details, list, sums, [share]] = await db.transaction(
        (ex) =>
          Promise.all([
            withdrawable(ex, lawyerId),
            ex
              .select({ resolvedAt: payoutDetails.resolvedAt })
              .from(payoutDetails)
              .where(eq(payoutDetails.lawyerId, lawyerId)),
            views(eq(payouts.lawyerId, lawyerId), 100, ex),
            // Over every payout, not the 100 listed: the lawyer's balance is explained by these (2314).
            ex
              .select({ status: payouts.status, kobo: sql<string>`coalesce(sum(${payouts.amount}), 0)` })
              .from(payouts)
              .where(and(eq(payouts.lawyerId, lawyerId), inArray(payouts.status, ['requested', 'sending', 'paid'])))
              .groupBy(payouts.status),
            ex
              .select({
                earned: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerTransactions.kind} = 'earning'), 0)`,
                held: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.availableAt} > ${clock.now()}), 0)`,
              })
              .from(ledgerEntries)
              .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
              .where(and(eq(ledgerEntries.lawyerId, lawyerId), eq(ledgerEntries.account, 'lawyer_earnings'))),
          ]),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      const sumOf = (status: PayoutStatus) => Number(sums.find((r) => r.status === status)?.kobo ?? 0) / 100;
      return {
        withdrawable: w / 100,
        detailsResolved: Boolean(details[0]?.resolvedAt),
        payouts: list,
        totals: {
          earned: Number(share?.earned ?? 0) / 100,
          held: Number(share?.held ?? 0) / 100,
          requested: sumOf('requested'),
          sending: sumOf('sending'),
          paid: sumOf('paid'),
        },
      };
    },

    /**
     * A lawyer asks for `amountNaira` (or everything withdrawable) to its checked payout details. Under
     * a client `key` (the Idempotency-Key header) it is asked once: the payout's id is made from the
     * lawyer and the key, so the same request sent again finds it under the lock and answers it as it
     * is, rather than a second withdrawal or a 400 for money the first took (decision 2241).
     */
    async request(lawyer: AuthUser, amountNaira: number | undefined, key?: string) {
      const keyedId = key ? payoutIdFor(lawyer.id, key) : undefined;
      const id = await db.transaction(async (tx) => {
        await lockLawyerPayouts(tx, lawyer.id);
        await lockLiveAccount(tx, lawyer.id);
        if (keyedId) {
          const [taken] = await tx.select({ amount: payouts.amount }).from(payouts).where(eq(payouts.id, keyedId));
          if (taken) {
            // A key reused for another amount would otherwise drop that request silently.
            if (amountNaira !== undefined && toKobo(amountNaira) !== taken.amount)
              throw new AppError(422, payoutMessages.requestKeyReused);
            return null;
          }
        }
        const [details] = await tx.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id));
        if (!details) throw badRequest(payoutMessages.noDetails);
        if (!details.resolvedAt || !details.bankCode) throw badRequest(payoutMessages.detailsNotResolved);
        const w = await withdrawable(tx, lawyer.id);
        const amount = amountNaira === undefined ? w : toKobo(amountNaira);
        if (w <= 0) throw badRequest(payoutMessages.nothingAvailable);
        if (amount > w) throw badRequest(payoutMessages.aboveAvailable(w / 100));
        if (amount < toKobo(MIN_PAYOUT)) throw badRequest(payoutMessages.belowMinimum);
        const now = clock.now();
        const [row] = await tx
          .insert(payouts)
          .values({
            ...(keyedId ? { id: keyedId } : {}),
            lawyerId: lawyer.id,
            amount,
            bank: details.bank,
            bankCode: details.bankCode,
            accountNumber: details.accountNumber,
            accountName: details.accountName,
            provider: provider.name,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: payouts.id });
        const admins = await tx.select({ email: users.officialEmail }).from(users).where(liveAdmin).limit(20);
        for (const a of admins)
          await enqueueMail(
            tx,
            render(
              payoutWaitingMail({
                to: a.email,
                lawyerName: lawyer.name,
                amount: amount / 100,
                url: `${deps.config.PUBLIC_URL}/admin/payouts`,
              }),
            ),
            // The payout's own time: the erasure tells this mail from a namesake's of the same amount by it.
            now,
          );
        return row.id;
      });
      // Asked already under this key: answered as it is now, nothing written or mailed again.
      if (id === null) return viewOf(keyedId!);
      deps.mailWritten();
      deps.securityLog('payout_requested', { actor: lawyer.id, payoutId: id });
      return viewOf(id);
    },

    /**
     * An admin approves one payout: posted and marked `sending` once under its row lock, then sent by the
     * call that approved it. Approving one already approved changes nothing and answers it as it is.
     */
    async approve(admin: AuthUser, payoutId: string) {
      if (!UUID.test(payoutId)) throw notFound(payoutMessages.notFound);
      const [known] = await db.select({ status: payouts.status }).from(payouts).where(eq(payouts.id, payoutId));
      if (!known) throw notFound(payoutMessages.notFound);
      // A rejected request is never paid; one rejected after this look is refused under the lock (approveOne).
      if (known.status === 'rejected') throw conflict(payoutMessages.notRequested);
      if (await approveOne(admin, payoutId)) {
        deps.securityLog('payout_approved', { actor: admin.id, payoutId });
        await send(payoutId);
      }
      return viewOf(payoutId);
    },

    /**
     * An admin approves a batch, all or nothing (decision 2295): one transaction takes every lawyer's
     * payout lock and then every payout's row lock, each in id order so two batches in opposite orders
     * queue rather than deadlock. Payouts rejected, or no longer covered by their lawyer's balance, refuse
     * the whole batch with a 409 naming each; those already approved are answered as they are. Only after
     * the commit are the ones this call approved sent, one by one.
     */
    async approveBatch(admin: AuthUser, ids: string[]) {
      const unique = [...new Set(ids)];
      if (unique.some((id) => !UUID.test(id))) throw notFound(payoutMessages.notFound);
      const known = await db
        .select({ id: payouts.id, lawyerId: payouts.lawyerId })
        .from(payouts)
        .where(inArray(payouts.id, unique));
      if (known.length !== unique.length) throw notFound(payoutMessages.notFound);
      const approved = await db.transaction(async (tx) => {
        // Lawyers' locks before rows, as a single approval and a "This wasn't me" take them (decision 2244).
        for (const lawyerId of [...new Set(known.map((p) => p.lawyerId))].sort()) await lockLawyerPayouts(tx, lawyerId);
        const done: string[] = [];
        const refused: Awaited<ReturnType<typeof refusalOf>>[] = [];
        for (const id of [...unique].sort()) {
          const [p] = await tx.select().from(payouts).where(eq(payouts.id, id)).for('update');
          if (!p) throw notFound(payoutMessages.notFound);
          if (p.status === 'rejected')
            refused.push(
              await refusalOf(
                tx,
                p,
                cancelledByLawyer(p) ? payoutMessages.batchWhyCancelled : payoutMessages.batchWhyRejected,
              ),
            );
          if (p.status !== 'requested') continue;
          // Earlier payouts of the same lawyer in this batch are posted already, so this sees what they took.
          if ((await available(tx, p.lawyerId)) < p.amount) {
            refused.push(await refusalOf(tx, p, payoutMessages.batchWhyShort));
            continue;
          }
          await approveLocked(tx, admin, p);
          done.push(p.id);
        }
        // Every payout in the way is named, in the order sent, and the rollback undoes the rest.
        if (refused.length)
          throw conflict(
            payoutMessages.batchRefused(
              refused.sort((x, y) => unique.indexOf(x.id) - unique.indexOf(y.id)),
              unique.length,
            ),
          );
        return done;
      });
      for (const id of approved) {
        deps.securityLog('payout_approved', { actor: admin.id, payoutId: id });
        await send(id);
      }
      return { approved: approved.length, payouts: await Promise.all(unique.map(viewOf)) };
    },

    /**
     * A signed `transfer.*` webhook: the transfer is fetched from the provider (the payload is never
     * trusted) and settles the payout its reference names.
     */
    async onWebhook(payload: unknown) {
      const data = (payload as { data?: { id?: unknown } } | null)?.data;
      const id = typeof data?.id === 'number' || typeof data?.id === 'string' ? String(data.id) : null;
      if (!id) return { result: 'ignored' as const };
      const found = await provider.fetchTransfer(id);
      if (!found || !UUID.test(found.reference)) return { result: 'ignored' as const };
      const [mine] = await db
        .select({ id: payouts.id })
        .from(payouts)
        .where(and(eq(payouts.id, found.reference), eq(payouts.provider, provider.name)));
      if (!mine) return { result: 'ignored' as const };
      await settle(mine.id, found);
      return { result: found.status };
    },

    /**
     * The reconciler's pass: payouts sent a while ago and still unsettled are asked about again (or sent
     * again with the same reference when the provider never answered).
     */
    async reconcile(limit = 50) {
      const cutoff = new Date(clock.now().getTime() - PAYOUT_RESEND_AFTER_MS);
      // The longest unasked first: one asked about and still unsettled goes to the back (below), so
      // transfers the provider holds for days never keep the payouts after them out of every pass.
      const due = await db
        .select()
        .from(payouts)
        .where(and(eq(payouts.status, 'sending'), lte(payouts.updatedAt, cutoff)))
        .orderBy(asc(payouts.updatedAt), asc(payouts.id))
        .limit(limit);
      for (const p of due) {
        try {
          if (!p.providerTransferId) {
            // Every instance runs this pass: the payout is taken first (one statement under its row
            // lock), so one pass sends it and the others leave it for a minute. Two sends at once could
            // end with one refused and failing the payout while the other's transfer pays it.
            const [taken] = await db
              .update(payouts)
              .set({ updatedAt: clock.now() })
              .where(
                and(
                  eq(payouts.id, p.id),
                  eq(payouts.status, 'sending'),
                  isNull(payouts.providerTransferId),
                  lte(payouts.updatedAt, cutoff),
                ),
              )
              .returning({ id: payouts.id });
            if (!taken) continue;
            // The send's answer was lost (and perhaps its webhook): ask by our reference first. Only when
            // the provider has no such transfer is it sent again, with the same reference, which
            // Flutterwave refuses to pay twice.
            const found = await provider.findTransfer(p.id);
            if (found) await settle(p.id, found);
            else await send(p.id);
          } else {
            try {
              const found = await provider.fetchTransfer(p.providerTransferId);
              if (found) await settle(p.id, found);
            } finally {
              // Asked about: to the back of the queue while it stays unsettled (it has a transfer id, so no
              // send's refusal reads this time, decision 2277), a failed lookup too: else 50 failing
              // lookups would stay first and keep the rest out of every pass (2318).
              await db
                .update(payouts)
                .set({ updatedAt: clock.now() })
                .where(and(eq(payouts.id, p.id), eq(payouts.status, 'sending')));
            }
          }
        } catch (err) {
          deps.log?.error({ err, payoutId: p.id }, 'payout reconciliation failed');
        }
      }
      return due.length;
    },

    /**
     * A bank can send a paid transfer back days later, and Flutterwave tells us by a webhook; if that
     * webhook is lost the lawyer's money sits in our balance unaccounted. So each paid payout is asked
     * about once a day for 30 days after it settled, and a reversal found settles it as the webhook
     * would (once, under the payout's lock). Answers how many were asked about.
     */
    async recheckPaid() {
      const now = clock.now().getTime();
      const due = await db
        .select({ id: payouts.id, providerTransferId: payouts.providerTransferId })
        .from(payouts)
        .where(
          and(
            eq(payouts.status, 'paid'),
            eq(payouts.provider, provider.name),
            gte(payouts.settledAt, new Date(now - REVERSAL_WATCH_MS)),
            lte(sql`coalesce(${payouts.reversalCheckedAt}, ${payouts.settledAt})`, new Date(now - REVERSAL_RECHECK_MS)),
          ),
        )
        .orderBy(asc(payouts.settledAt))
        .limit(50);
      for (const p of due) {
        try {
          const found = p.providerTransferId ? await provider.fetchTransfer(p.providerTransferId) : null;
          if (found?.status === 'failed' && (await settle(p.id, found))) continue;
          await db.update(payouts).set({ reversalCheckedAt: clock.now() }).where(eq(payouts.id, p.id));
        } catch (err) {
          deps.log?.error({ err, payoutId: p.id }, 'payout reversal check failed');
        }
      }
      return due.length;
    },

    /**
     * An admin turns a request down before it is sent, with a reason the lawyer is e-mailed. Under the
     * payout's row lock, like an approval, so of a rejection and an approval racing exactly one wins.
     * Nothing was posted for a request (it only reserved its amount), so ending it makes the amount
     * withdrawable again and the ledger needs no entry. Rejecting it again answers it as it is.
     */
    async reject(admin: AuthUser, payoutId: string, reason: string) {
      if (!UUID.test(payoutId)) throw notFound(payoutMessages.notFound);
      const rejected = await db.transaction(async (tx) => {
        const [p] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
        if (!p) throw notFound(payoutMessages.notFound);
        if (p.status === 'rejected') return false;
        if (p.status !== 'requested') throw conflict(payoutMessages.notRequested);
        await rejectRequested(tx, p, admin.id, reason);
        return true;
      });
      if (rejected) {
        deps.mailWritten();
        deps.securityLog('payout_rejected', { actor: admin.id, payoutId });
      }
      return viewOf(payoutId);
    },

    /**
     * A lawyer cancels its own withdrawal while it still waits for approval (decision 2344): in one
     * transaction under its payout lock and then the payout's row lock, the order of an approval and of
     * "This wasn't me", so of a cancel and an approval racing exactly one wins. Ended as a rejection is
     * (no ledger entry, the reservation ends), audited as the lawyer's `payout.cancel`. Another lawyer's
     * payout is not found; cancelling again answers it as it is; 409 once approved or rejected by an admin.
     */
    async cancel(lawyer: AuthUser, payoutId: string) {
      if (!UUID.test(payoutId)) throw notFound(payoutMessages.notFound);
      const cancelled = await db.transaction(async (tx) => {
        // The caller's lock: a payout of another lawyer is never locked, only not found.
        await lockLawyerPayouts(tx, lawyer.id);
        const [p] = await tx
          .select()
          .from(payouts)
          .where(and(eq(payouts.id, payoutId), eq(payouts.lawyerId, lawyer.id)))
          .for('update');
        if (!p) throw notFound(payoutMessages.notFound);
        if (cancelledByLawyer(p)) return false;
        if (p.status !== 'requested') throw conflict(payoutMessages.cancelTooLate);
        await rejectRequested(tx, p, lawyer.id, payoutMessages.cancelledReason, 'payout.cancel');
        return true;
      });
      if (cancelled) {
        deps.mailWritten();
        deps.securityLog('payout_cancelled', { actor: lawyer.id, payoutId });
      }
      return viewOf(payoutId);
    },

    /** Whether a payout-details "This wasn't me" link can be used, changing nothing (a mail scanner's visit). */
    async checkDetailsNotMe(token: string) {
      const { link, details } = await detailsNotMeLink(token);
      return {
        bank: details.bank,
        accountNumber: maskAccountNumber(details.accountNumber),
        accountName: details.accountName,
        savedAt: details.updatedAt.toISOString(),
        expiresAt: link.expiresAt.toISOString(),
      };
    },

    /**
     * "This wasn't me" for payout details (decision 2244), in one transaction under the lawyer's payout
     * lock, its row's and then each waiting payout's: the link is used once; the lawyer's payouts still
     * `requested` to those details are rejected as an admin's rejection would (no ledger entry, the
     * reservation ends); the details are deleted; and whoever held the session is shut out
     * (accounts.shutOut: every session ends, the password stops working, a reset code is mailed).
     */
    async detailsNotMe(token: string) {
      // Checked first without locks: a guessed or spent token costs a lookup, never the argon2 hash.
      await detailsNotMeLink(token);
      const unusableHash = await hashPassword(randomToken());
      const done = await db.transaction(async (tx) => {
        const { link, user, details } = await detailsNotMeLink(token, tx);
        await accounts().useNotMeLink(tx, link.id, NOT_ME_WORDS);
        const waiting = await tx
          .select()
          .from(payouts)
          .where(
            and(
              eq(payouts.lawyerId, user.id),
              eq(payouts.status, 'requested'),
              eq(payouts.accountNumber, details.accountNumber),
              eq(payouts.bank, details.bank),
            ),
          )
          .for('update');
        for (const p of waiting) await rejectRequested(tx, p, user.id, payoutMessages.notMeRejection);
        await tx.delete(payoutDetails).where(eq(payoutDetails.lawyerId, user.id));
        const resetCode = await accounts().shutOut(tx, user.id, unusableHash);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'payout_details.not_me',
          targetType: 'lawyer',
          targetId: user.id,
          details: { bank: details.bank, payoutsStopped: waiting.map((p) => p.id) },
        });
        await enqueueMail(
          tx,
          render(
            payoutNotMeMail(
              user.officialEmail,
              resetCode,
              LIMITS.codeTtlMinutes,
              `${deps.config.PUBLIC_URL}/password-reset`,
              waiting.length,
            ),
          ),
        );
        return { officialEmail: user.officialEmail, lawyerId: user.id, payoutsStopped: waiting.length };
      });
      deps.mailWritten();
      deps.securityLog('payout_details_not_me', { actor: done.lawyerId, payoutsStopped: done.payoutsStopped });
      return { officialEmail: done.officialEmail, payoutsStopped: done.payoutsStopped };
    },

    /** Sandbox provider only: a transfer still pending at the sandbox ends as the admin says. */
    async finishOnSandbox(payoutId: string, status: 'SUCCESSFUL' | 'FAILED') {
      if (!UUID.test(payoutId)) throw notFound(payoutMessages.notFound);
      const [p] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
      if (!p) throw notFound(payoutMessages.notFound);
      const transferId =
        provider.name === 'sandbox' && p.status === 'sending' ? await finishSandboxTransfer(db, p.id, status) : null;
      if (!transferId) throw conflict(payoutMessages.notSandbox);
      const found = await provider.fetchTransfer(transferId);
      if (found) await settle(p.id, found);
      return viewOf(p.id);
    },

    /** Admin list: everything waiting for approval first, then the latest others; or one status. */
    async list(status: PayoutStatus | undefined) {
      const [list, [waiting]] = await Promise.all([
        views(status ? eq(payouts.status, status) : undefined, 300),
        db
          .select({ kobo: sql<string>`coalesce(sum(${payouts.amount}), 0)`, n: sql<string>`count(*)` })
          .from(payouts)
          .where(eq(payouts.status, 'requested')),
      ]);
      return {
        payouts: list,
        waitingTotal: Number(waiting?.kobo ?? 0) / 100,
        waitingCount: Number(waiting?.n ?? 0),
      };
    },
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
