import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type {
  PayoutDifference,
  PayoutStatus,
  ReconciliationDifference,
  ReconciliationQuery,
  ReconciliationResponse,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import {
  ledgerEntries,
  ledgerTransactions,
  orders,
  payouts,
  refunds,
  subscriptionPayments,
  users,
} from '../../db/schema.js';
import { AppError } from '../../platform/errors.js';
import {
  merchantFee,
  ProviderUnavailable,
  type PaymentProvider,
  type ProviderRefund,
  type ProviderTransaction,
  type ProviderTransfer,
} from '../../platform/payments/index.js';

const DAY_MS = 86_400_000;
const naira = (kobo: number) => kobo / 100;
/** The Lagos day (YYYY-MM-DD) of a moment: WAT is UTC+1 all year. */
const lagosDay = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00+01:00`);
/** What a payment leaves in the merchant's balance: its amount less the fee the merchant bore (decision 2348). */
const settled = (t: ProviderTransaction) => t.amount - merchantFee(t);
const shift = (day: string, days: number) => lagosDay(new Date(startOf(day).getTime() + days * DAY_MS));

interface LedgerPayment {
  transactionId: number;
  createdAt: Date;
  /** Null for a monthly plan's payment, which pays no order. */
  orderId: string | null;
  txRef: string;
  providerTransactionId: string | null;
  paymentType: string | null;
  amount: number;
  /** The provider's fee posted for the order (kobo). */
  fee: number;
  jobId: string | null;
  /**
   * A monthly plan's payment, or a payment that paid nothing and is refunded (decision 2250): compared
   * before the provider's fee, which the ledger does not post for them.
   */
  plan: boolean;
}

interface LedgerRefund {
  transactionId: number;
  createdAt: Date;
  refundId: string;
  providerRefundId: string | null;
  orderId: string | null;
  txRef: string;
  jobId: string | null;
  amount: number;
}

interface LedgerPayout {
  /** The `payout` posting, made when an admin approved it and it was sent. */
  transactionId: number;
  createdAt: Date;
  payoutId: string;
  status: PayoutStatus;
  providerTransferId: string | null;
  /** Kobo the posting put in transit. */
  amount: number;
  /** The transfer's fee posted for it (kobo). */
  fee: number;
  lawyerId: string;
  lawyerName: string;
}

/** The fields every difference starts with, before either side has said anything. */
const EMPTY_DIFFERENCE_FIELDS = {
  providerId: null,
  ledgerAmount: null,
  providerAmount: null,
  providerCurrency: null,
  ledgerTransactionId: null,
} as const;

/** Our transfer references are payout ids; anything else names no payout (and is no uuid to query by). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ReconciliationDeps extends Pick<Shared, 'db' | 'clock'> {
  provider: PaymentProvider;
}

/**
 * Compares the ledger's payments and refunds of a period with the provider's transactions and refunds
 * (docs/decisions/1730-bank-transfer-and-reconciliation.md), and its lawyer payouts with the provider's
 * transfers (docs/decisions/2229-payouts-in-the-reconciliation.md). Both sides are read a day wider than the
 * period, so a payment verified just after midnight still meets its transaction; a difference is listed
 * on the day of the record that has it.
 */
export function createReconciliation(deps: ReconciliationDeps) {
  const { db, clock, provider } = deps;

  /**
   * Payment postings through this provider, of orders and of monthly plans (first payments and
   * renewals, decision 1902): by posting time, or by the provider's transaction ids.
   */
  async function ledgerPayments(by: { from: Date; to: Date } | { ids: string[] }): Promise<LedgerPayment[]> {
    const [forOrders, forPlans, forUnapplied] =
      'ids' in by
        ? [
            inArray(orders.providerTransactionId, by.ids),
            inArray(subscriptionPayments.providerTransactionId, by.ids),
            inArray(refunds.providerTransactionId, by.ids),
          ]
        : [undefined, undefined, undefined];
    const posted =
      'ids' in by
        ? undefined
        : and(gte(ledgerTransactions.createdAt, by.from), lt(ledgerTransactions.createdAt, by.to));
    return [
      ...(await orderPayments(and(posted, forOrders))),
      ...(await planPayments(and(posted, forPlans))),
      ...(await unappliedPayments(and(posted, forUnapplied))),
    ];
  }

  /**
   * Payments that paid no order (paid twice, or after the order closed), posted into the provider's cash
   * when their refund was opened (`unapplied`, decision 2250): matched by the transaction the refund gives
   * back, before the provider's fee (none is posted for them), like a plan payment.
   */
  async function unappliedPayments(where: ReturnType<typeof and>): Promise<LedgerPayment[]> {
    const rows = await db
      .select({
        transactionId: ledgerTransactions.id,
        createdAt: ledgerTransactions.createdAt,
        orderId: refunds.orderId,
        // A plan payment's refund has no order: it names the payment's reference (decision 2262).
        txRef: sql<string>`coalesce(${refunds.reference}, ${orders.txRef})`,
        providerTransactionId: refunds.providerTransactionId,
        amount: sql<string>`coalesce((select sum(${ledgerEntries.amount}) from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${ledgerEntries.account} = 'provider_cash'), 0)`,
      })
      .from(ledgerTransactions)
      .innerJoin(refunds, eq(refunds.id, ledgerTransactions.refundId))
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(ledgerTransactions.kind, 'unapplied'), eq(refunds.provider, provider.name), where));
    return rows
      .map((r) => ({ ...r, paymentType: null, jobId: null, amount: Number(r.amount), fee: 0, plan: true }))
      .filter((r) => r.amount > 0);
  }

  /** Plan payments hold no fee posting: they are matched on the amount charged (decision 1902). */
  async function planPayments(where: ReturnType<typeof and>): Promise<LedgerPayment[]> {
    const rows = await db
      .select({
        transactionId: ledgerTransactions.id,
        createdAt: ledgerTransactions.createdAt,
        txRef: subscriptionPayments.txRef,
        providerTransactionId: subscriptionPayments.providerTransactionId,
        paymentType: subscriptionPayments.paymentMethod,
        amount: sql<string>`coalesce((select sum(${ledgerEntries.amount}) from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${ledgerEntries.account} = 'provider_cash'), 0)`,
      })
      .from(ledgerTransactions)
      .innerJoin(subscriptionPayments, eq(subscriptionPayments.id, ledgerTransactions.subscriptionPaymentId))
      .where(and(eq(ledgerTransactions.kind, 'plan_payment'), eq(subscriptionPayments.provider, provider.name), where));
    return rows.map((r) => ({ ...r, orderId: null, jobId: null, amount: Number(r.amount), fee: 0, plan: true }));
  }

  async function orderPayments(where: ReturnType<typeof and>): Promise<LedgerPayment[]> {
    const rows = await db
      .select({
        transactionId: ledgerTransactions.id,
        createdAt: ledgerTransactions.createdAt,
        orderId: orders.id,
        txRef: orders.txRef,
        providerTransactionId: orders.providerTransactionId,
        paymentType: orders.paymentMethod,
        amount: sql<string>`coalesce((select sum(${ledgerEntries.amount}) from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${ledgerEntries.account} = 'provider_cash'), 0)`,
        fee: sql<string>`coalesce((select sum(e.amount_kobo) from ledger_transactions f join ledger_entries e on e.transaction_id = f.id where f.order_id = ${orders.id} and f.kind = 'fee' and e.account = 'provider_fees'), 0)`,
        jobId: sql<string | null>`(select j.id from jobs j where j.order_id = ${orders.id} order by j.line_no limit 1)`,
      })
      .from(ledgerTransactions)
      .innerJoin(orders, eq(orders.id, ledgerTransactions.orderId))
      .where(and(eq(ledgerTransactions.kind, 'payment'), eq(orders.provider, provider.name), where));
    return rows.map((r) => ({ ...r, amount: Number(r.amount), fee: Number(r.fee), plan: false }));
  }

  /** Refund postings (money out to a company) of refunds sent through this provider. */
  async function ledgerRefunds(where: ReturnType<typeof and>): Promise<LedgerRefund[]> {
    const rows = await db
      .select({
        transactionId: ledgerTransactions.id,
        createdAt: ledgerTransactions.createdAt,
        refundId: refunds.id,
        providerRefundId: refunds.providerRefundId,
        orderId: refunds.orderId,
        txRef: sql<string>`coalesce(${refunds.reference}, ${orders.txRef})`,
        jobId: refunds.jobId,
        amount: sql<string>`coalesce((select -sum(${ledgerEntries.amount}) from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${ledgerEntries.account} = 'provider_cash'), 0)`,
      })
      .from(ledgerTransactions)
      .innerJoin(refunds, eq(refunds.id, ledgerTransactions.refundId))
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(ledgerTransactions.kind, 'refund'), eq(refunds.provider, provider.name), where));
    return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  }

  /** Payout postings of payouts sent through this provider, with the transfer fees posted for them. */
  async function ledgerPayouts(where: ReturnType<typeof and>): Promise<LedgerPayout[]> {
    const rows = await db
      .select({
        transactionId: ledgerTransactions.id,
        createdAt: ledgerTransactions.createdAt,
        payoutId: payouts.id,
        status: payouts.status,
        providerTransferId: payouts.providerTransferId,
        amount: sql<string>`coalesce((select -sum(${ledgerEntries.amount}) from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${ledgerEntries.account} = 'payouts_in_transit'), 0)`,
        fee: sql<string>`coalesce((select sum(e.amount_kobo) from ledger_transactions f join ledger_entries e on e.transaction_id = f.id where f.payout_id = ${payouts.id} and f.kind = 'fee' and e.account = 'provider_fees'), 0)`,
        lawyerId: payouts.lawyerId,
        lawyerName: users.name,
      })
      .from(ledgerTransactions)
      .innerJoin(payouts, eq(payouts.id, ledgerTransactions.payoutId))
      .innerJoin(users, eq(users.id, payouts.lawyerId))
      .where(and(eq(ledgerTransactions.kind, 'payout'), eq(payouts.provider, provider.name), where));
    return rows.map((r) => ({ ...r, amount: Number(r.amount), fee: Number(r.fee) }));
  }

  /**
   * Payouts against transfers, matched by the transfer's reference (the payout id). A payout still
   * `sending` is in flight (the answer, the webhook or the reconciler settles it): only its amount and
   * currency are compared, since settling refuses a transfer that differs and leaves it sending.
   */
  async function comparePayouts(
    ours: LedgerPayout[],
    transfers: ProviderTransfer[],
    inPeriod: (d: Date) => boolean,
    start: Date,
  ): Promise<ReconciliationResponse['payouts']> {
    const differences: PayoutDifference[] = [];
    const base = {
      ...EMPTY_DIFFERENCE_FIELDS,
      providerStatus: null,
      ledgerStatus: null,
      payoutId: null,
      lawyerId: null,
      lawyerName: null,
    };
    const madeOn = (t: ProviderTransfer) => (t.createdAt ? new Date(t.createdAt) : start);
    const byReference = new Map(transfers.map((t) => [t.reference, t]));
    const posted = new Set(ours.map((p) => p.payoutId));
    for (const p of ours) {
      if (!inPeriod(p.createdAt)) continue;
      const ledgerSide = {
        ...base,
        reference: p.payoutId,
        providerId: p.providerTransferId,
        ledgerAmount: naira(p.amount),
        ledgerStatus: p.status,
        date: p.createdAt.toISOString(),
        ledgerTransactionId: String(p.transactionId),
        payoutId: p.payoutId,
        lawyerId: p.lawyerId,
        lawyerName: p.lawyerName,
      };
      let theirs = byReference.get(p.payoutId) ?? null;
      // Paid or failed but not listed (made after the wider window, by a late resend): asked for.
      if (!theirs && p.status !== 'sending')
        theirs = await ask(() =>
          p.providerTransferId ? provider.fetchTransfer(p.providerTransferId) : provider.findTransfer(p.payoutId),
        );
      if (!theirs) {
        // A failed payout without a transfer was refused before any was made.
        if (p.status === 'paid') differences.push({ ...ledgerSide, kind: 'missing_at_provider' });
        continue;
      }
      const seen = {
        ...ledgerSide,
        providerId: theirs.id,
        providerAmount: naira(theirs.amount),
        providerCurrency: theirs.currency,
        providerStatus: theirs.providerStatus ?? theirs.status,
      };
      // Paid needs a successful transfer; failed (the money back with the lawyer) needs a failed one.
      const statusDiffers =
        (p.status === 'paid' && theirs.status !== 'successful') ||
        (p.status === 'failed' && theirs.status !== 'failed');
      if (statusDiffers) differences.push({ ...seen, kind: 'status_differs' });
      else if (theirs.currency !== 'NGN') differences.push({ ...seen, kind: 'currency_differs' });
      else if (theirs.amount !== p.amount) differences.push({ ...seen, kind: 'amount_differs' });
    }
    // Money that left or is leaving with no posted payout behind it; a failed transfer moved nothing.
    const unmatched = transfers.filter((t) => t.status !== 'failed' && inPeriod(madeOn(t)) && !posted.has(t.reference));
    const named = unmatched.map((t) => t.reference).filter((r) => UUID.test(r));
    const rows = named.length
      ? await db
          .select({ id: payouts.id, status: payouts.status, lawyerId: payouts.lawyerId, lawyerName: users.name })
          .from(payouts)
          .innerJoin(users, eq(users.id, payouts.lawyerId))
          .where(and(eq(payouts.provider, provider.name), inArray(payouts.id, named)))
      : [];
    for (const t of unmatched) {
      const payout = rows.find((r) => r.id === t.reference.toLowerCase());
      // Posted outside the wider window (approved long before its transfer was made): compared on its day.
      if (payout && payout.status !== 'requested' && payout.status !== 'rejected') continue;
      differences.push({
        ...base,
        kind: 'missing_in_ledger',
        reference: t.reference,
        providerId: t.id,
        providerAmount: naira(t.amount),
        providerCurrency: t.currency,
        providerStatus: t.providerStatus ?? t.status,
        ledgerStatus: payout?.status ?? null,
        date: madeOn(t).toISOString(),
        payoutId: payout?.id ?? null,
        lawyerId: payout?.lawyerId ?? null,
        lawyerName: payout?.lawyerName ?? null,
      });
    }
    differences.sort((a, b) => a.date.localeCompare(b.date) || a.reference.localeCompare(b.reference));
    const paid = ours.filter((p) => inPeriod(p.createdAt) && p.status === 'paid');
    const sent = transfers.filter((t) => t.status === 'successful' && inPeriod(madeOn(t)));
    const total = (xs: { amount: number; fee?: number }[]) => ({
      payouts: xs.length,
      paidOut: naira(xs.reduce((s, x) => s + x.amount, 0)),
      fees: naira(xs.reduce((s, x) => s + (x.fee ?? 0), 0)),
    });
    return { ledger: total(paid), atProvider: total(sent), differences };
  }

  async function run(q: ReconciliationQuery): Promise<Omit<ReconciliationResponse, 'status'>> {
    const to = q.to ?? (q.from ? shift(q.from, 6) : lagosDay(clock.now()));
    const from = q.from ?? shift(to, -6);
    const start = startOf(from);
    const end = new Date(startOf(to).getTime() + DAY_MS);
    const inPeriod = (d: Date) => d >= start && d < end;
    const wide = and(
      gte(ledgerTransactions.createdAt, new Date(start.getTime() - DAY_MS)),
      lt(ledgerTransactions.createdAt, new Date(end.getTime() + DAY_MS)),
    );

    let txs: ProviderTransaction[];
    let theirRefunds: ProviderRefund[];
    let theirTransfers: ProviderTransfer[];
    const payments = await ledgerPayments({
      from: new Date(start.getTime() - DAY_MS),
      to: new Date(end.getTime() + DAY_MS),
    });
    const ours = await ledgerRefunds(wide);
    const ourPayouts = await ledgerPayouts(wide);
    try {
      const period = { from: shift(from, -1), to: shift(to, 1) };
      [txs, theirRefunds, theirTransfers] = await Promise.all([
        provider.listTransactions(period),
        provider.listRefunds(period),
        provider.listTransfers(period),
      ]);
    } catch (err) {
      if (err instanceof ProviderUnavailable) throw unreachable();
      throw err;
    }
    const providerDay = (iso: string | undefined) => (iso ? new Date(iso) : null);
    const differences: ReconciliationDifference[] = [];
    const base = { ...EMPTY_DIFFERENCE_FIELDS, providerStatus: null, paymentType: null, orderId: null, jobId: null };

    // Payments: matched by the provider's transaction id, which fulfilment recorded on the order.
    const txById = new Map(txs.map((t) => [t.id, t]));
    const paymentsById = new Map(
      payments.filter((p) => p.providerTransactionId).map((p) => [p.providerTransactionId!, p]),
    );
    for (const p of payments) {
      if (!inPeriod(p.createdAt)) continue;
      const ledgerSide = {
        ...base,
        subject: 'payment' as const,
        reference: p.txRef,
        providerId: p.providerTransactionId,
        ledgerAmount: naira(p.plan ? p.amount : p.amount - p.fee),
        paymentType: p.paymentType,
        date: p.createdAt.toISOString(),
        ledgerTransactionId: String(p.transactionId),
        orderId: p.orderId,
        jobId: p.jobId,
      };
      // Recorded long before the period (a late webhook): asked for by id rather than listed.
      const theirs = p.providerTransactionId
        ? (txById.get(p.providerTransactionId) ?? (await ask(() => provider.verifyById(p.providerTransactionId!))))
        : null;
      if (!theirs) {
        differences.push({ ...ledgerSide, kind: 'missing_at_provider' });
        continue;
      }
      const seen = {
        ...ledgerSide,
        providerAmount: naira(p.plan ? theirs.amount : settled(theirs)),
        providerCurrency: theirs.currency,
        providerStatus: theirs.status,
        paymentType: theirs.paymentType ?? p.paymentType,
      };
      if (theirs.status !== 'successful') differences.push({ ...seen, kind: 'status_differs' });
      else if (theirs.currency !== 'NGN') differences.push({ ...seen, kind: 'currency_differs' });
      // Net of the fee: a fee the ledger missed or got wrong is a difference too.
      else if (p.plan ? theirs.amount !== p.amount : settled(theirs) !== p.amount - p.fee)
        differences.push({ ...seen, kind: 'amount_differs' });
    }
    const received = txs.filter((t) => t.status === 'successful' && inPeriod(providerDay(t.createdAt) ?? start));
    const unmatched = received.filter((t) => !paymentsById.has(t.id));
    // Posted outside the wider window (a very late fulfilment) is still posted.
    const postedElsewhere = unmatched.length ? await ledgerPayments({ ids: unmatched.map((t) => t.id) }) : [];
    const posted = new Set(postedElsewhere.map((p) => p.providerTransactionId));
    const stray = unmatched.filter((t) => !posted.has(t.id));
    const ordersByRef = stray.length
      ? await db
          .select({ id: orders.id, txRef: orders.txRef })
          .from(orders)
          .where(
            inArray(
              orders.txRef,
              stray.map((t) => t.txRef),
            ),
          )
      : [];
    for (const t of stray)
      differences.push({
        ...base,
        kind: 'missing_in_ledger',
        subject: 'payment',
        reference: t.txRef,
        providerId: t.id,
        providerAmount: naira(settled(t)),
        providerCurrency: t.currency,
        providerStatus: t.status,
        paymentType: t.paymentType ?? null,
        date: t.createdAt ?? start.toISOString(),
        orderId: ordersByRef.find((o) => o.txRef === t.txRef)?.id ?? null,
      });

    // Refunds: matched by the provider's refund id our refund row keeps.
    const refundById = new Map(theirRefunds.map((r) => [r.id, r]));
    const oursById = new Map(ours.filter((r) => r.providerRefundId).map((r) => [r.providerRefundId!, r]));
    for (const r of ours) {
      if (!inPeriod(r.createdAt)) continue;
      const ledgerSide = {
        ...base,
        subject: 'refund' as const,
        reference: r.txRef,
        providerId: r.providerRefundId,
        ledgerAmount: naira(r.amount),
        date: r.createdAt.toISOString(),
        ledgerTransactionId: String(r.transactionId),
        orderId: r.orderId,
        jobId: r.jobId,
      };
      const theirs = r.providerRefundId
        ? (refundById.get(r.providerRefundId) ?? (await ask(() => provider.fetchRefund(r.providerRefundId!))))
        : null;
      if (!theirs) {
        differences.push({ ...ledgerSide, kind: 'missing_at_provider' });
        continue;
      }
      const seen = { ...ledgerSide, providerAmount: naira(theirs.amount), providerStatus: theirs.status };
      if (theirs.status !== 'completed') differences.push({ ...seen, kind: 'status_differs' });
      else if (theirs.amount !== r.amount) differences.push({ ...seen, kind: 'amount_differs' });
    }
    const refunded = theirRefunds.filter(
      (r) => r.status === 'completed' && inPeriod(providerDay(r.createdAt) ?? start),
    );
    const refundsUnmatched = refunded.filter((r) => !oursById.has(r.id));
    const refundsElsewhere = refundsUnmatched.length
      ? await ledgerRefunds(
          inArray(
            refunds.providerRefundId,
            refundsUnmatched.map((r) => r.id),
          ),
        )
      : [];
    const refundPosted = new Set(refundsElsewhere.map((r) => r.providerRefundId));
    const strayRefunds = refundsUnmatched.filter((r) => !refundPosted.has(r.id));
    const paidBy = strayRefunds.length
      ? await db
          .select({ id: orders.id, txRef: orders.txRef, providerTransactionId: orders.providerTransactionId })
          .from(orders)
          .where(
            and(
              eq(orders.provider, provider.name),
              inArray(
                orders.providerTransactionId,
                strayRefunds.map((r) => r.transactionId),
              ),
            ),
          )
      : [];
    for (const r of strayRefunds) {
      const order = paidBy.find((o) => o.providerTransactionId === r.transactionId);
      differences.push({
        ...base,
        kind: 'missing_in_ledger',
        subject: 'refund',
        reference: order?.txRef ?? `refund ${r.id}`,
        providerId: r.id,
        providerAmount: naira(r.amount),
        providerStatus: r.status,
        date: r.createdAt ?? start.toISOString(),
        orderId: order?.id ?? null,
      });
    }

    differences.sort((a, b) => a.date.localeCompare(b.date) || a.reference.localeCompare(b.reference));
    const ledgerPaid = payments.filter((p) => inPeriod(p.createdAt));
    const ledgerRefunded = ours.filter((r) => inPeriod(r.createdAt));
    const sum = (xs: { amount: number }[]) => naira(xs.reduce((s, x) => s + x.amount, 0));
    const fees = (xs: { fee?: number }[]) => naira(xs.reduce((s, x) => s + (x.fee ?? 0), 0));
    return {
      from,
      to,
      provider: provider.name,
      ledger: {
        payments: ledgerPaid.length,
        refunds: ledgerRefunded.length,
        paid: sum(ledgerPaid),
        fees: fees(ledgerPaid),
        refunded: sum(ledgerRefunded),
      },
      atProvider: {
        payments: received.length,
        refunds: refunded.length,
        paid: sum(received),
        fees: naira(received.reduce((s, t) => s + merchantFee(t), 0)),
        refunded: sum(refunded),
      },
      differences,
      payouts: await comparePayouts(ourPayouts, theirTransfers, inPeriod, start),
    };
  }

  function unreachable() {
    const who = provider.name === 'flutterwave' ? 'Flutterwave' : 'The payment provider';
    return new AppError(503, `${who} could not be reached; try again in a minute`);
  }

  async function ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ProviderUnavailable) throw unreachable();
      throw err;
    }
  }

  return { run };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
