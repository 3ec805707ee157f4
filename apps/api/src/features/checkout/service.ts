import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import {
  DEFAULT_PRODUCT_TITLE,
  PAYMENT_OPTIONS,
  SANDBOX_OTP,
  messages,
  planMessages,
  toKobo,
  type CheckoutData,
  type OrderView,
  type SandboxChargeInput,
  type SandboxVirtualAccount,
} from '@legalmarket/contracts';
import type { Db, Executor } from '../../db/client.js';
import {
  cartItems,
  jobs,
  orders,
  sandboxSubscriptions,
  sandboxTransactions,
  subscriptionPayments,
  users,
} from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import type { Config } from '../../config.js';
import {
  merchantFee,
  ProviderUnavailable,
  type PaymentProvider,
  type ProviderTransaction,
} from '../../platform/payments/index.js';
import { billOf, readPricedCart } from '../cart/service.js';
import type { JobLifecycle } from '../jobs/lifecycle-service.js';
import { paymentReceivedMail, receiptAttachment } from '../money/emails.js';
import type { Ledger } from '../money/ledger.js';
import type { Refunds } from '../money/refunds.js';
import { companyAsBilled } from '../money/receipts.js';
import { lockCompany, lockLiveAccount } from '../../db/locks.js';

/** A cart line as frozen into an order at checkout (kobo). */
export interface OrderLine {
  lineNo: number;
  productId: string;
  productName: string;
  unitPrice: number;
  quantity: number;
  amount: number;
  /** With a plan discount only: the catalogue price (kobo) and the percent off (decision 1900). */
  listPrice?: number;
  percentOff?: number;
  detail: string | null;
  file: string | null;
  fileName: string | null;
}

type OrderRow = typeof orders.$inferSelect;

interface CheckoutDeps {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  securityLog: (event: string, fields: Record<string, unknown>) => void;
  /** Opens each paid line's job through the job lifecycle (event, due date, notifications). */
  lifecycle?: JobLifecycle;
  /** Posts the payment, held against each job, in the same transaction. */
  ledger: Ledger;
  /**
   * Opens the refund of money a payment paid for nothing in the transaction that finds it and sends it
   * after the commit (decision 2250).
   */
  refunds: Pick<Refunds, 'openUnapplied' | 'givenBack' | 'send'>;
  /** The site's address and support line, for the payment confirmation e-mail. */
  mailConfig: Pick<Config, 'PUBLIC_URL' | 'SUPPORT_EMAIL'>;
  log?: {
    info: (o: object, m?: string) => void;
    warn: (o: object, m?: string) => void;
    error: (o: object, m?: string) => void;
  };
}

export type Outcome =
  /** `refundId`: a refund this call opened for money the payment paid for nothing, to send after the commit. */
  | { result: 'paid'; order: OrderRow; newlyPaid: boolean; refundId?: string | null }
  | { result: 'pending'; order: OrderRow }
  | { result: 'failed'; order: OrderRow }
  | { result: 'refused'; order: OrderRow; reason: string; refundId?: string | null }
  | { result: 'unknown'; order: OrderRow }
  | { result: 'unavailable'; order: OrderRow };

/** Pending orders older than this are re-verified by the background job. */
const RECONCILE_AFTER_MS = 2 * 60_000;
/** Pending orders with no successful payment after this are expired (a late payment still fulfils them). */
const EXPIRE_AFTER_MS = 24 * 3600_000;
/** Orders expired within this long are asked about again (a payment near expiry whose webhook was lost)... */
const LATE_CHECK_FOR_MS = 24 * 3600_000;
/** ...each at most this often, so a day of abandoned carts costs at most 24 look-ups apiece. */
const LATE_CHECK_EVERY_MS = 3600_000;
/**
 * A payment made (by the provider's clock) and verified (by ours) more than this after its order was
 * started pays nothing: the order froze the day's prices and discount, and a payment of a long-closed
 * reference must not buy at them. The background job stops asking at the same age.
 */
const PAYABLE_FOR_MS = EXPIRE_AFTER_MS + LATE_CHECK_FOR_MS;
/** How long the sandbox's temporary transfer account is shown as open (Flutterwave's default is an hour). */
const VIRTUAL_ACCOUNT_MS = 3600_000;
/** What a refund of money paid for nothing says, on the admin's list, the e-mail and the credit note. */
export const UNAPPLIED_REASONS = {
  paidTwice: 'Paid twice: the order was already paid',
  closed: 'Paid after the order closed (orders are payable for two days)',
  boughtTwice: 'Lines another order already bought',
} as const;
const SANDBOX_TRANSFER_BANK = 'WEMA Bank (test)';

const sameLines = (a: OrderLine[], b: OrderLine[]) =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i];
    return (
      x.lineNo === y.lineNo &&
      x.productId === y.productId &&
      x.productName === y.productName &&
      x.unitPrice === y.unitPrice &&
      x.quantity === y.quantity &&
      x.amount === y.amount &&
      (x.percentOff ?? 0) === (y.percentOff ?? 0) &&
      (x.detail ?? null) === (y.detail ?? null) &&
      (x.file ?? null) === (y.file ?? null) &&
      (x.fileName ?? null) === (y.fileName ?? null)
    );
  });

export const toOrderView = (o: OrderRow): OrderView => ({
  _id: o.id,
  reference: o.txRef,
  status: o.status,
  amount: o.amount / 100,
  currency: o.currency,
  title: o.title,
  provider: o.provider,
  createdAt: o.createdAt.toISOString(),
  paidAt: o.paidAt?.toISOString() ?? null,
});

export function createCheckoutService(deps: CheckoutDeps) {
  const { db, clock, provider, securityLog } = deps;
  const renderMail = mailRenderer(deps.mailConfig);
  const newReference = () => `LM-${clock.now().getTime()}-${randomBytes(5).toString('hex')}`;

  /** Snapshots the cart at catalogue prices into the company's one pending order. */
  async function start(user: AuthUser): Promise<CheckoutData> {
    const order = await db.transaction(async (tx) => {
      await lockCompany(tx, user.id);
      await lockLiveAccount(tx, user.id);
      const cart = await readPricedCart(tx, user.id);
      if (!cart.length) throw notFound(messages.cartEmpty);
      const lines: OrderLine[] = cart.map((l, i) => ({
        lineNo: i + 1,
        productId: l.productId,
        productName: l.productName,
        unitPrice: l.unitPrice,
        quantity: l.quantity,
        amount: l.unitPrice * l.quantity,
        ...(l.percentOff ? { listPrice: l.listPrice, percentOff: l.percentOff } : {}),
        detail: l.detail,
        file: l.file,
        fileName: l.fileName,
      }));
      const amount = billOf(cart);
      // The first product's name (the spec), and how many more the order holds, so the window names the order.
      const first = cart[0]?.productName?.trim() || DEFAULT_PRODUCT_TITLE;
      const title = cart.length > 1 ? `${first} and ${cart.length - 1} more` : first;
      const now = clock.now();
      const [pending] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.companyId, user.id), eq(orders.status, 'pending')))
        .for('update');
      if (pending) {
        const unchanged =
          pending.amount === amount &&
          pending.provider === provider.name &&
          sameLines(pending.lines as OrderLine[], lines);
        // Handed out again only while it is open, so a reference given now can be paid for a day at least.
        const open = now.getTime() - pending.createdAt.getTime() < EXPIRE_AFTER_MS;
        if (unchanged && open) return pending;
        // The cart changed: the old order is set aside whole (a payment for it may be settling, and it
        // must buy exactly its own lines), and the new cart gets an order of its own.
        await tx
          .update(orders)
          .set({ status: unchanged ? 'expired' : 'replaced', updatedAt: now })
          .where(eq(orders.id, pending.id));
      }
      const [created] = await tx
        .insert(orders)
        .values({
          companyId: user.id,
          txRef: newReference(),
          amount,
          currency: 'NGN',
          status: 'pending',
          provider: provider.name,
          title,
          lines,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return created;
    });
    return {
      orderId: order.id,
      reference: order.txRef,
      amount: order.amount / 100,
      currency: 'NGN',
      title: order.title,
      paymentOptions: PAYMENT_OPTIONS,
      customer: { email: user.officialEmail, phone: user.phoneNumber, name: user.name },
      provider: { name: provider.name, ...provider.publicSettings() },
    };
  }

  /**
   * Marks the order paid, creates one job per line and empties those lines from the cart, in one
   * transaction under a row lock: any number of concurrent confirmations fulfil it once. The
   * provider's transaction is checked against the row as locked here, not as read before: only a
   * payment of exactly this order's reference, amount and currency pays it.
   */
  async function fulfil(orderId: string, companyId: string, tx: ProviderTransaction, via: string) {
    return db.transaction(async (t): Promise<Outcome> => {
      await lockCompany(t, companyId);
      const [o] = await t.select().from(orders).where(eq(orders.id, orderId)).for('update');
      if (!o) throw notFound(messages.orderNotFound);
      // Paid by another transaction (two tabs): this one is refunded, opened here under the order's lock.
      if (o.status === 'paid')
        return { result: 'paid', order: o, newlyPaid: false, refundId: await paidTwice(o, tx, via, t) };
      const problem = check(o, tx, via);
      if (problem === 'closed')
        return { result: 'refused', order: o, reason: problem, refundId: await refundClosed(t, o, tx) };
      if (problem) return { result: 'refused', order: o, reason: problem };
      // Refunded whole as made after the close by an instance whose clock had passed it (this one's is
      // behind): the same payment never buys the order too (decision 2347).
      if (await deps.refunds.givenBack(t, o.provider, tx.id))
        return refusedLogged('payment_refunded_before', 'refunded', o, tx, via);
      // Read under the company lock erasure takes: whichever commits first, the other sees it.
      const [company] = await t.select().from(users).where(eq(users.id, o.companyId));
      // An erased account buys nothing (decision 2170): no jobs, nothing posted; the money is
      // refunded by an admin, and the reconciliation report lists it as missing in the ledger.
      if (company.deletedAt) return refusedLogged('payment_for_deleted_account', 'account_deleted', o, tx, via);
      const now = clock.now();
      // The receipt prints the company as it is when it pays, and the method the provider reports.
      const billedTo = companyAsBilled(company);
      const [paid] = await t
        .update(orders)
        .set({
          status: 'paid',
          paidAt: now,
          providerTransactionId: tx.id,
          paymentMethod: tx.paymentType?.slice(0, 40) || null,
          billedTo,
          updatedAt: now,
        })
        .where(eq(orders.id, o.id))
        .returning();
      const lines = o.lines as OrderLine[];
      const { left: toOpen, refundDue } = await unbought(t, o, lines, tx, via);
      let opened: (typeof jobs.$inferSelect)[] = [];
      if (lines.length) {
        const dueAt = deps.lifecycle ? await deps.lifecycle.dueAtFor(t, now) : undefined;
        opened = !toOpen.length
          ? []
          : await t
              .insert(jobs)
              .values(
                toOpen.map((l) => ({
                  orderId: o.id,
                  lineNo: l.lineNo,
                  companyId: o.companyId,
                  productId: l.productId,
                  status: 'unassigned' as const,
                  quantity: l.quantity,
                  amount: l.amount,
                  detail: l.detail,
                  companyFile: l.file,
                  companyFileName: l.fileName,
                  ...(dueAt ? { dueAt } : {}),
                  createdAt: now,
                  updatedAt: now,
                })),
              )
              .onConflictDoNothing({ target: [jobs.orderId, jobs.lineNo] })
              .returning();
        for (const job of opened) await deps.lifecycle?.record(t, job, 'paid', { payment: true });
        // What was bought leaves the cart; a line changed since checkout (or added again after it)
        // stays, so a late payment never takes away what the customer put in the cart.
        await t
          .delete(cartItems)
          .where(
            and(
              eq(cartItems.companyId, o.companyId),
              or(
                ...lines.map((l) =>
                  and(
                    eq(cartItems.productId, l.productId),
                    eq(cartItems.quantity, l.quantity),
                    sql`${cartItems.detail} is not distinct from ${l.detail ?? null}`,
                    sql`${cartItems.file} is not distinct from ${l.file ?? null}`,
                  ),
                ),
              ),
            ),
          );
      }
      await deps.ledger.recordPayment(t, paid, opened);
      // The fee the platform bore: none when the customer paid it on top (decision 2348).
      await deps.ledger.recordFee(
        t,
        { orderId: paid.id },
        merchantFee(tx, (figures) => securityLog('payment_fee_implausible', { transactionId: tx.id, ...figures })),
      );
      // Lines another order bought: what this payment held for them goes back (decision 2250).
      const refundId =
        refundDue > 0
          ? await deps.refunds.openUnapplied(t, {
              order: paid,
              transactionId: tx.id,
              amount: refundDue,
              reason: UNAPPLIED_REASONS.boughtTwice,
              from: 'held',
            })
          : null;
      if (billedTo.email)
        await enqueueMail(t, {
          ...renderMail(
            paymentReceivedMail({
              to: billedTo.email,
              name: billedTo.name,
              reference: paid.txRef,
              amount: paid.amount,
              items: lines.length,
              url: `${deps.mailConfig.PUBLIC_URL}/company/dashboard`,
            }),
          ),
          attachments: [receiptAttachment(paid.id, paid.txRef)],
        });
      return { result: 'paid', order: paid, newlyPaid: true, refundId };
    });
  }

  /** A payment `fulfil` refuses after the checks, logged for an admin with the provider's transaction. */
  function refusedLogged(event: string, reason: string, o: OrderRow, tx: ProviderTransaction, via: string): Outcome {
    securityLog(event, {
      via,
      orderId: o.id,
      companyId: o.companyId,
      reference: o.txRef,
      transactionId: tx.id,
      amount: tx.amount,
      currency: tx.currency,
    });
    return { result: 'refused', order: o, reason };
  }

  /** A payment of an order closed for two days (`check` said `closed`): the whole of it comes back. */
  function refundClosed(t: Executor, order: OrderRow, tx: ProviderTransaction) {
    return deps.refunds.openUnapplied(t, {
      order,
      transactionId: tx.id,
      amount: tx.amount,
      reason: UNAPPLIED_REASONS.closed,
      from: 'cash',
    });
  }

  /**
   * Sends a refund this call opened, after its commit. A provider unreachable leaves it pending for the
   * background job (`resendDue`); nothing here changes the payment's answer.
   */
  async function sendOpened(refundId: string | null | undefined) {
    if (!refundId) return;
    try {
      await deps.refunds.send(refundId);
    } catch (err) {
      deps.log?.error({ err, refundId }, 'refund of an unapplied payment not sent; the background job retries');
    }
  }

  /**
   * The order's lines less what another paid order of the company bought after this one was started
   * (a replaced order paid in its old window and its replacement, in either order): both froze the same
   * cart line, which the company had once. Read under the company lock `fulfil` holds, so the second
   * fulfilment sees the first's jobs. What is left unbought is logged (decision 2243) and its amount,
   * `refundDue`, refunded from what the order holds (decision 2250).
   */
  async function unbought(
    t: Executor,
    o: OrderRow,
    lines: OrderLine[],
    ptx: ProviderTransaction,
    via: string,
  ): Promise<{ left: OrderLine[]; refundDue: number }> {
    if (!lines.length) return { left: lines, refundDue: 0 };
    const rows = await t
      .select({
        productId: jobs.productId,
        detail: jobs.detail,
        file: jobs.companyFile,
        quantity: sql<number>`sum(${jobs.quantity})::int`,
        refs: sql<string[]>`array_agg(distinct ${orders.txRef})`,
      })
      .from(jobs)
      .innerJoin(orders, eq(orders.id, jobs.orderId))
      .where(
        and(
          eq(orders.companyId, o.companyId),
          ne(orders.id, o.id),
          eq(orders.status, 'paid'),
          // Paid after this order froze its lines: both froze the same cart line. One paid before it
          // was started had already left the cart, so a line here is the product bought again.
          gt(orders.paidAt, o.createdAt),
          inArray(
            jobs.productId,
            lines.map((l) => l.productId),
          ),
        ),
      )
      .groupBy(jobs.productId, jobs.detail, jobs.companyFile);
    if (!rows.length) return { left: lines, refundDue: 0 };
    // The same brief and document: a brief changed in between asks for other work.
    const keyOf = (productId: string, detail: string | null, file: string | null) =>
      JSON.stringify([productId, detail ?? null, file ?? null]);
    const had = new Map(rows.map((r) => [keyOf(r.productId, r.detail, r.file), { ...r, left: Number(r.quantity) }]));
    const left: OrderLine[] = [];
    const skipped: { lineNo: number; productId: string; quantity: number; amount: number }[] = [];
    const boughtBy = new Set<string>();
    for (const l of lines) {
      const prior = had.get(keyOf(l.productId, l.detail, l.file));
      const taken = Math.min(prior?.left ?? 0, l.quantity);
      if (prior && taken) {
        prior.left -= taken;
        prior.refs.forEach((r) => boughtBy.add(r));
        skipped.push({ lineNo: l.lineNo, productId: l.productId, quantity: taken, amount: l.unitPrice * taken });
      }
      if (l.quantity > taken)
        left.push({ ...l, quantity: l.quantity - taken, amount: l.unitPrice * (l.quantity - taken) });
    }
    const refundDue = skipped.reduce((s, x) => s + x.amount, 0);
    if (skipped.length)
      securityLog('payment_lines_bought_twice', {
        via,
        orderId: o.id,
        companyId: o.companyId,
        reference: o.txRef,
        transactionId: ptx.id,
        amount: ptx.amount,
        currency: ptx.currency,
        lines: skipped,
        refundDue,
        boughtBy: [...boughtBy].sort(),
      });
    return { left, refundDue };
  }

  /** Compares what the provider says with the order; logs anything that looks like tampering. */
  /** `quietClosed`: a first look before the order's lock, where `closed` is logged by `fulfil`'s own look. */
  function check(order: OrderRow, tx: ProviderTransaction | null, via: string, quietClosed = false): string | null {
    const base = { via, orderId: order.id, companyId: order.companyId, reference: order.txRef };
    if (!tx) {
      securityLog('payment_unknown_transaction', base);
      return 'unknown';
    }
    const seen = { ...base, transactionId: tx.id, txRef: tx.txRef, amount: tx.amount, currency: tx.currency };
    if (tx.txRef !== order.txRef) {
      securityLog('payment_reference_mismatch', seen);
      return 'reference';
    }
    if (tx.status !== 'successful') return 'not_successful';
    if (tx.currency !== 'NGN' || tx.currency !== order.currency) {
      securityLog('payment_currency_mismatch', seen);
      return 'currency';
    }
    if (tx.amount !== order.amount) {
      securityLog(tx.amount < order.amount ? 'payment_amount_too_low' : 'payment_amount_mismatch', {
        ...seen,
        expected: order.amount,
      });
      return 'amount';
    }
    // The customer must have been charged at least that much (a fee passed on makes it more).
    if (tx.chargedAmount !== undefined && tx.chargedAmount < order.amount) {
      securityLog('payment_amount_too_low', { ...seen, charged: tx.chargedAmount, expected: order.amount });
      return 'amount';
    }
    // Made and verified long after the order closed (an old reference paid at its old prices): refused,
    // logged for a refund. One made in time and verified late (a transfer pending for days) still pays.
    // A payment whose time the provider does not give is taken as made now: nothing shows it was in time.
    const closesAt = order.createdAt.getTime() + PAYABLE_FOR_MS;
    const stated = tx.createdAt ? Date.parse(tx.createdAt) : Number.NaN;
    const madeAt = Number.isNaN(stated) ? clock.now().getTime() : stated;
    if (madeAt > closesAt && clock.now().getTime() > closesAt) {
      if (!quietClosed)
        securityLog('payment_for_closed_order', { ...seen, paidAt: tx.createdAt, orderCreatedAt: order.createdAt });
      return 'closed';
    }
    return null;
  }

  /**
   * A successful payment of an order already paid by another transaction (two tabs, a dialog paid
   * twice): it buys nothing more, the order's lines are bought once. It is logged, and its refund opened
   * (in `t`, or a transaction of its own) once per transaction, to be sent after the commit (decision
   * 2250). Returns the refund's id when this call opened it.
   */
  async function paidTwice(order: OrderRow, tx: ProviderTransaction, via: string, t?: Executor) {
    if (tx.status !== 'successful' || tx.txRef !== order.txRef || tx.id === order.providerTransactionId) return null;
    securityLog('payment_paid_twice', {
      via,
      orderId: order.id,
      companyId: order.companyId,
      reference: order.txRef,
      transactionId: tx.id,
      paidBy: order.providerTransactionId,
      amount: tx.amount,
      currency: tx.currency,
    });
    // Only naira is refunded here (the refund's amount is kobo); another currency stays with the log.
    if (tx.currency !== 'NGN') return null;
    // Charged less than its amount (the provider's answer contradicts itself): left logged for an admin,
    // as a plan's (decision 2262): a refund of the amount would give back more than was taken.
    if (tx.chargedAmount !== undefined && tx.chargedAmount < tx.amount) return null;
    const open = (ex: Executor) =>
      deps.refunds.openUnapplied(ex, {
        order,
        transactionId: tx.id,
        amount: tx.amount,
        reason: UNAPPLIED_REASONS.paidTwice,
        from: 'cash',
      });
    // Its own transaction takes the company lock first, as `fulfil` (whose `t` holds it) and erasure do.
    return t
      ? open(t)
      : db.transaction(async (ex) => {
          await lockCompany(ex, order.companyId);
          return open(ex);
        });
  }

  /** The transaction a caller names for an order already paid, asked about when it is not the one that paid it. */
  async function checkRepeat(order: OrderRow, transactionId: string | undefined, via: string) {
    if (!transactionId || transactionId === order.providerTransactionId) return;
    try {
      const tx = await provider.verifyById(transactionId);
      if (tx) await sendOpened(await paidTwice(order, tx, via));
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
    }
  }

  /** Asks the provider and fulfils when everything matches. Never trusts the caller's word. */
  async function settle(order: OrderRow, transactionId: string | undefined, via: string): Promise<Outcome> {
    let tx: ProviderTransaction | null;
    try {
      tx = transactionId ? await provider.verifyById(transactionId) : await provider.verifyByReference(order.txRef);
      // A transaction id for another reference is refused; for a pending one, look up by reference too.
    } catch (err) {
      if (err instanceof ProviderUnavailable) {
        deps.log?.warn({ err, orderId: order.id }, 'payment provider unavailable');
        return { result: 'unavailable', order };
      }
      throw err;
    }
    const problem = check(order, tx, via, true);
    if (problem === 'unknown') return { result: 'unknown', order };
    if (problem === 'not_successful')
      return tx!.status === 'pending' ? { result: 'pending', order } : { result: 'failed', order };
    // A payment made after its order closed is refunded under the order's lock (decision 2265): `order`
    // was read before the provider answered, and the same transaction may have paid it since (made in
    // time by the provider's clock, or with no time given, and verified by another caller first).
    if (problem && problem !== 'closed') return { result: 'refused', order, reason: problem };
    const outcome = await fulfil(order.id, order.companyId, tx!, via);
    if (outcome.result === 'paid' && outcome.newlyPaid) {
      deps.log?.info({ orderId: order.id, via, transactionId: tx!.id }, 'order paid');
      deps.lifecycle?.mailWritten();
    }
    if (outcome.result === 'paid' || outcome.result === 'refused') await sendOpened(outcome.refundId);
    return outcome;
  }

  async function findByReference(reference: string) {
    const rows = await db.select().from(orders).where(eq(orders.txRef, reference)).limit(1);
    return rows[0];
  }

  /** Browser confirmation after the dialog reported success. */
  async function confirm(user: AuthUser, reference: string, transactionId?: string) {
    const order = await findByReference(reference);
    if (!order) {
      securityLog('payment_unknown_reference', { actor: user.id, reference });
      throw notFound(messages.orderNotFound);
    }
    if (order.companyId !== user.id) {
      securityLog('payment_other_company', { actor: user.id, orderId: order.id, owner: order.companyId });
      throw forbidden(messages.orderNotYours);
    }
    if (order.status === 'paid') {
      await checkRepeat(order, transactionId || undefined, 'browser');
      return { result: 'paid', order, newlyPaid: false } as Outcome;
    }
    const outcome = await settle(order, transactionId || undefined, 'browser');
    if (outcome.result === 'paid' || outcome.result === 'pending') return outcome;
    if (outcome.result === 'unavailable') throw new AppError(503, messages.paymentPending);
    throw badRequest(messages.paymentFailed);
  }

  /** A signed webhook: re-verifies with the provider (the payload is never trusted) and fulfils. */
  async function onWebhook(payload: unknown) {
    const data = (payload as { data?: { id?: unknown; tx_ref?: unknown; txRef?: unknown } } | null)?.data;
    const reference =
      typeof data?.tx_ref === 'string' ? data.tx_ref : typeof data?.txRef === 'string' ? data.txRef : null;
    if (!reference) return { result: 'ignored' as const };
    const order = await findByReference(reference);
    if (!order) {
      securityLog('webhook_unknown_reference', { reference });
      // No order has it: the route asks the plans (a charge the provider made on a payment plan).
      return { result: 'no_order' as const };
    }
    const id = typeof data?.id === 'number' || typeof data?.id === 'string' ? String(data.id) : undefined;
    if (order.status === 'paid') {
      await checkRepeat(order, id, 'webhook');
      return { result: 'paid' as const };
    }
    const outcome = await settle(order, id, 'webhook');
    return { result: outcome.result };
  }

  /**
   * The background job: re-verifies orders left pending (a lost webhook, a closed tab) and fulfils
   * them, or expires them after EXPIRE_AFTER_MS with no successful payment; expired ones are asked
   * about again for a day.
   */
  async function reconcile(
    opts: { minAgeMs?: number; expireAfterMs?: number; limit?: number; lateLimit?: number } = {},
  ) {
    const now = clock.now().getTime();
    const minAge = opts.minAgeMs ?? RECONCILE_AFTER_MS;
    const expireAfter = opts.expireAfterMs ?? EXPIRE_AFTER_MS;
    const due = await db
      .select()
      .from(orders)
      .where(and(inArray(orders.status, ['pending', 'replaced']), lt(orders.updatedAt, new Date(now - minAge))))
      .orderBy(asc(orders.updatedAt))
      .limit(opts.limit ?? 100);
    const counts = { checked: 0, fulfilled: 0, expired: 0 };
    for (const order of due) {
      counts.checked++;
      const outcome = await settle(order, undefined, 'reconcile');
      if (outcome.result === 'paid') {
        if (outcome.newlyPaid) counts.fulfilled++;
        continue;
      }
      const expire =
        now - order.createdAt.getTime() >= expireAfter &&
        outcome.result !== 'unavailable' &&
        outcome.result !== 'pending';
      // Checked and still unpaid goes to the back of the queue, so a hundred old orders cannot keep the
      // job from reaching newer ones.
      const done = await db
        .update(orders)
        .set(expire ? { status: 'expired', updatedAt: clock.now() } : { updatedAt: clock.now() })
        .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
        .returning({ id: orders.id });
      if (expire && done.length) counts.expired++;
    }
    // A payment made just before or after expiry whose webhook was lost: expired orders of the last day
    // are asked about again, once an hour each. A match is fulfilled (0200: a customer who paid gets
    // its jobs); anything else is refused and logged for a refund by the same check.
    const late = await db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.status, 'expired'),
          gt(orders.createdAt, new Date(now - expireAfter - LATE_CHECK_FOR_MS)),
          lt(orders.updatedAt, new Date(now - LATE_CHECK_EVERY_MS)),
        ),
      )
      .orderBy(asc(orders.updatedAt))
      .limit(opts.lateLimit ?? 20);
    for (const order of late) {
      counts.checked++;
      const outcome = await settle(order, undefined, 'reconcile');
      if (outcome.result === 'paid') {
        if (outcome.newlyPaid) counts.fulfilled++;
        continue;
      }
      await db
        .update(orders)
        .set({ updatedAt: clock.now() })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'expired')));
    }
    return counts;
  }

  async function listOrders(companyId: string) {
    const rows = await db
      .select()
      .from(orders)
      .where(and(eq(orders.companyId, companyId), notInArray(orders.status, ['expired', 'replaced'])))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(200);
    return rows.map(toOrderView);
  }

  /** The offline dialog's charge: Flutterwave's test cards, mobile money and USSD, recorded for verification. */
  async function sandboxCharge(user: AuthUser, input: SandboxChargeInput) {
    const order = await findByReference(input.reference);
    // A monthly plan's first payment is charged on the tier's payment plan (decision 1900).
    const [plan] = order
      ? []
      : await db
          .select({ companyId: subscriptionPayments.companyId, planId: subscriptionPayments.providerPlanId })
          .from(subscriptionPayments)
          .where(and(eq(subscriptionPayments.txRef, input.reference), eq(subscriptionPayments.kind, 'first')));
    if ((order ?? plan)?.companyId !== user.id) throw notFound(messages.orderNotFound);
    // Flutterwave's payment plans recur on cards only, and the plan's window offers nothing else (2190).
    if (plan && input.paymentType !== 'card') throw badRequest(planMessages.cardOnly);
    const paymentPlan = plan && /^\d{1,15}$/.test(plan.planId) ? Number(plan.planId) : null;
    let status: 'successful' | 'failed' = 'successful';
    let processorResponse = 'Approved by Financial Institution';
    if (input.paymentType === 'card') {
      const card = (input.cardNumber ?? '').replace(/\D/g, '');
      if (card === '5531886652142950') {
        if (input.pin !== '3310') throw badRequest('Incorrect PIN');
        if (input.otp !== SANDBOX_OTP) throw badRequest('Incorrect OTP');
      } else if (card === '5258585922666506') {
        status = 'failed';
        processorResponse = 'Insufficient Funds';
      } else if (card === '5399834697894723') {
        // Flutterwave's "Declined (Incorrect PIN)" test card: a failed transaction saying so.
        status = 'failed';
        processorResponse = 'Incorrect PIN';
      } else {
        status = 'failed';
        processorResponse = 'Card declined. Use one of the test cards shown.';
      }
    } else if (input.paymentType === 'mobilemoney') {
      if (input.otp !== SANDBOX_OTP) throw badRequest('Incorrect OTP');
      processorResponse = 'Approved';
    } else if (input.paymentType === 'banktransfer') {
      // What arrived in the temporary account: the amount and currency the company sent, which the
      // verification then compares with the order like any other payment.
      processorResponse = 'Transfer received';
    } else {
      processorResponse = 'Transaction completed via USSD';
    }
    const [row] = await db
      .insert(sandboxTransactions)
      .values({
        txRef: input.reference,
        amount: toKobo(input.amount),
        currency: input.currency.toUpperCase(),
        status,
        // Flutterwave's verify answer names a transfer `bank_transfer` (the checkout option is `banktransfer`).
        paymentType: input.paymentType === 'banktransfer' ? 'bank_transfer' : input.paymentType,
        customerEmail: user.officialEmail,
        processorResponse,
        paymentPlan,
        createdAt: clock.now(),
      })
      .returning();
    // A successful charge on a payment plan subscribes the card to it, as Flutterwave does.
    if (paymentPlan && status === 'successful')
      await db
        .insert(sandboxSubscriptions)
        .values({ planId: paymentPlan, customerEmail: user.officialEmail })
        .onConflictDoUpdate({
          target: [sandboxSubscriptions.planId, sandboxSubscriptions.customerEmail],
          set: { status: 'active' },
        });
    return {
      status,
      transaction_id: String(row.id),
      tx_ref: row.txRef,
      amount: row.amount / 100,
      currency: row.currency,
      processor_response: processorResponse,
    };
  }

  /**
   * The temporary account a sandbox bank transfer goes to, like the one Flutterwave's checkout shows: a
   * number derived from the reference (the same every time the dialog opens), the order's exact amount
   * and an hour to pay. Nothing is stored: the transfer itself is recorded by sandboxCharge.
   */
  async function sandboxVirtualAccount(user: AuthUser, reference: string): Promise<SandboxVirtualAccount> {
    const order = await findByReference(reference);
    if (!order || order.companyId !== user.id) throw notFound(messages.orderNotFound);
    if (order.status === 'paid') throw conflict('This order is already paid');
    if (order.status !== 'pending')
      throw conflict('This order is no longer open for payment; start again from the cart');
    const digits = BigInt(`0x${createHash('sha256').update(order.txRef).digest('hex').slice(0, 15)}`) % 10n ** 8n;
    return {
      accountNumber: `78${digits.toString().padStart(8, '0')}`,
      bankName: SANDBOX_TRANSFER_BANK,
      accountName: 'LegalMarket Sandbox FLW',
      amount: order.amount / 100,
      currency: 'NGN',
      reference: order.txRef,
      expiresAt: new Date(clock.now().getTime() + VIRTUAL_ACCOUNT_MS).toISOString(),
    };
  }

  return {
    start,
    confirm,
    onWebhook,
    reconcile,
    listOrders,
    sandboxCharge,
    sandboxVirtualAccount,
    fulfil,
    settle,
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
