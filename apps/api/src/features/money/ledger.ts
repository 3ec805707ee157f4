import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_COMMISSION_PERCENT,
  DEFAULT_HOLD_DAYS,
  EARNINGS_PAGE,
  LEDGER_KIND_WORDS,
  type LedgerAccount,
  type LedgerBalances,
  type LedgerKind,
  type LedgerQuery,
  type LedgerTransaction,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { rowsOf, type Executor } from '../../db/client.js';
import { lockSetting } from '../../db/locks.js';
import { recordAudit } from '../../platform/audit.js';
import { appSettings, jobs, ledgerEntries, ledgerTransactions, orders, products, users } from '../../db/schema.js';

type Job = typeof jobs.$inferSelect;
type Order = typeof orders.$inferSelect;

interface LedgerLine {
  account: LedgerAccount;
  /** Kobo: debit positive, credit negative. */
  amount: number;
  jobId?: string | null;
  companyId?: string | null;
  lawyerId?: string | null;
  availableAt?: Date | null;
}

interface LedgerHead {
  kind: LedgerKind;
  memo: string;
  orderId?: string;
  jobId?: string;
  payoutId?: string;
  refundId?: string;
  /** A plan payment's postings (decision 1900). */
  subscriptionPaymentId?: number;
}

export const MONEY_SETTINGS_KEY = 'money';
interface MoneySettings {
  commissionPercent: number;
  holdDays: number;
}

const DAY_MS = 86_400_000;
const naira = (kobo: number) => kobo / 100;

/** The platform's share of a job, in whole kobo; the lawyer gets the rest, so the two always add up. */
const commissionOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);

/**
 * The one ledger: every movement of money is posted here inside the transaction that causes it. Balances
 * are sums of entries. The database refuses an unbalanced transaction at commit, any update or delete,
 * and a second payment, earning, refund or payout step for the same thing (migration 0006_ledger).
 */
export function createLedger(shared: Pick<Shared, 'db' | 'clock'>) {
  const { db, clock } = shared;

  async function settings(ex: Executor = db): Promise<MoneySettings> {
    const [row] = await ex.select().from(appSettings).where(eq(appSettings.key, MONEY_SETTINGS_KEY)).limit(1);
    const v = (row?.value ?? {}) as Partial<MoneySettings>;
    return {
      commissionPercent: typeof v.commissionPercent === 'number' ? v.commissionPercent : DEFAULT_COMMISSION_PERCENT,
      holdDays: typeof v.holdDays === 'number' ? v.holdDays : DEFAULT_HOLD_DAYS,
    };
  }

  /**
   * Posts one balanced ledger transaction. Returns its id, or null when this step was already posted
   * (the unique indexes decide), so a repeated or raced caller moves no money twice.
   */
  async function post(tx: Executor, head: LedgerHead, lines: LedgerLine[]): Promise<number | null> {
    const moving = lines.filter((l) => l.amount !== 0);
    if (moving.some((l) => !Number.isSafeInteger(l.amount))) throw new Error('ledger amounts are whole kobo');
    const total = moving.reduce((s, l) => s + l.amount, 0);
    if (total !== 0) throw new Error(`ledger transaction ${head.kind} does not balance (off by ${total} kobo)`);
    const now = clock.now();
    const [t] = await tx
      .insert(ledgerTransactions)
      .values({ ...head, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: ledgerTransactions.id });
    if (!t) return null;
    if (moving.length)
      await tx.insert(ledgerEntries).values(
        moving.map((l) => ({
          transactionId: t.id,
          account: l.account,
          amount: l.amount,
          jobId: l.jobId ?? null,
          companyId: l.companyId ?? null,
          lawyerId: l.lawyerId ?? null,
          availableAt: l.availableAt ?? null,
          createdAt: now,
        })),
      );
    return t.id;
  }

  /** What is still held for a job, in kobo (its payment less anything already released). */
  async function heldFor(tx: Executor, jobId: string): Promise<number> {
    const [held] = await tx
      .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.jobId, jobId), eq(ledgerEntries.account, 'held_for_jobs')));
    return Number(held?.kobo ?? 0);
  }

  return {
    settings,
    post,

    /** Changes the commission and holding period for jobs completed from now on, audited. */
    async saveSettings(adminId: string, next: MoneySettings): Promise<MoneySettings> {
      return db.transaction(async (tx) => {
        await lockSetting(tx, MONEY_SETTINGS_KEY);
        const before = await settings(tx);
        // Saving what is already set changes nothing, so it records nothing.
        if (before.commissionPercent === next.commissionPercent && before.holdDays === next.holdDays) return before;
        await tx
          .insert(appSettings)
          .values({ key: MONEY_SETTINGS_KEY, value: next, updatedAt: clock.now() })
          .onConflictDoUpdate({ target: appSettings.key, set: { value: next, updatedAt: clock.now() } });
        await recordAudit(tx, {
          actorId: adminId,
          action: 'money_settings.update',
          targetType: 'settings',
          targetId: MONEY_SETTINGS_KEY,
          details: { before, after: next },
        });
        return next;
      });
    },

    /** A company's payment: the provider holds the money, held against each of the order's jobs. */
    recordPayment(tx: Executor, order: Order, opened: Pick<Job, 'id' | 'amount'>[]) {
      const forJobs = opened.reduce((s, j) => s + j.amount, 0);
      return post(tx, { kind: 'payment', orderId: order.id, memo: `Payment ${order.txRef}` }, [
        { account: 'provider_cash', amount: order.amount, companyId: order.companyId },
        ...opened.map((j) => ({
          account: 'held_for_jobs' as const,
          amount: -j.amount,
          jobId: j.id,
          companyId: order.companyId,
        })),
        // What an order paid beyond its jobs (none in practice) stays held against the order.
        { account: 'held_for_jobs', amount: -(order.amount - forJobs), companyId: order.companyId },
      ]);
    },

    /**
     * A completed job releases what is still held for it: the commission to the platform, the rest to
     * the lawyer, withdrawable after the holding period.
     */
    async recordEarning(tx: Executor, job: Job) {
      if (!job.assignedTo) return null;
      const amount = await heldFor(tx, job.id);
      if (amount <= 0) return null;
      const s = await settings(tx);
      const commission = commissionOf(amount, s.commissionPercent);
      const now = clock.now();
      return post(tx, { kind: 'earning', jobId: job.id, memo: 'Earning for a completed job' }, [
        { account: 'held_for_jobs', amount, jobId: job.id, companyId: job.companyId },
        { account: 'platform_commission', amount: -commission, jobId: job.id },
        {
          account: 'lawyer_earnings',
          amount: -(amount - commission),
          jobId: job.id,
          lawyerId: job.assignedTo,
          availableAt: new Date(now.getTime() + s.holdDays * DAY_MS),
        },
      ]);
    },

    heldFor,

    /** What the job's lawyer would earn if it completed now, in kobo: what recordEarning posts (2322). */
    async earningFor(ex: Executor, jobId: string): Promise<number> {
      const amount = await heldFor(ex, jobId);
      if (amount <= 0) return 0;
      return amount - commissionOf(amount, (await settings(ex)).commissionPercent);
    },

    /**
     * What a job's cancellation posted, in kobo: what it released (`held`) and what of it became due to
     * the company (`refund`); null for a job not cancelled.
     */
    async cancellationOf(ex: Executor, jobId: string): Promise<{ held: number; refund: number } | null> {
      const [row] = await ex
        .select({
          held: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.account} = 'held_for_jobs'), 0)`,
          refund: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.account} = 'refunds_due'), 0)`,
        })
        .from(ledgerTransactions)
        .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
        .where(and(eq(ledgerTransactions.jobId, jobId), eq(ledgerTransactions.kind, 'cancellation')))
        .groupBy(ledgerTransactions.id);
      return row ? { held: Number(row.held), refund: Number(row.refund) } : null;
    },

    /**
     * A cancelled job releases what is held for it: `refund` kobo become due to the company, the rest is
     * kept by the platform. Posted once per job (a job earns or is cancelled, never both); a plan job's
     * returned credit is posted before it (`plan_credit_return`), leaving nothing held.
     */
    recordCancellation(tx: Executor, job: Job, held: number, refund: number, memo = 'Job cancelled') {
      return post(tx, { kind: 'cancellation', jobId: job.id, memo }, [
        { account: 'held_for_jobs', amount: held, jobId: job.id, companyId: job.companyId },
        { account: 'refunds_due', amount: -refund, jobId: job.id, companyId: job.companyId },
        { account: 'platform_commission', amount: -(held - refund), jobId: job.id },
      ]);
    },

    /** The provider completed a refund: what was due to the company leaves the provider's balance. */
    recordRefund(tx: Executor, r: { id: string; jobId: string | null; amount: number; companyId: string }) {
      const jobId = r.jobId ?? undefined;
      return post(tx, { kind: 'refund', refundId: r.id, jobId, memo: 'Refund to the company' }, [
        { account: 'refunds_due', amount: r.amount, jobId, companyId: r.companyId },
        { account: 'provider_cash', amount: -r.amount, companyId: r.companyId },
      ]);
    },

    /**
     * Money a payment paid for nothing becomes due back to the company, once per refund (decision 2250):
     * a payment that paid no order (paid twice, or after its order closed) comes into the provider's cash
     * here; the lines of a paid order another order bought leave what is held against the order.
     */
    recordUnapplied(
      tx: Executor,
      u: {
        refundId: string;
        orderId: string | null;
        companyId: string;
        amount: number;
        from: 'cash' | 'held';
        memo: string;
      },
    ) {
      return post(tx, { kind: 'unapplied', refundId: u.refundId, orderId: u.orderId ?? undefined, memo: u.memo }, [
        u.from === 'cash'
          ? { account: 'provider_cash', amount: u.amount, companyId: u.companyId }
          : { account: 'held_for_jobs', amount: u.amount, companyId: u.companyId },
        { account: 'refunds_due', amount: -u.amount, companyId: u.companyId },
      ]);
    },

    /**
     * What the provider kept from a payment or charged for a transfer: the platform's cost, taken from
     * the money it holds for us. Posted once per order, plan payment or payout, in the caller's transaction.
     */
    recordFee(
      tx: Executor,
      head: { orderId: string } | { subscriptionPaymentId: number } | { payoutId: string },
      fee: number | undefined,
    ) {
      if (!fee || fee <= 0) return Promise.resolve(null);
      const memo =
        'orderId' in head
          ? 'Provider fee on a payment'
          : 'subscriptionPaymentId' in head
            ? 'Provider fee on a plan payment'
            : 'Provider fee on a transfer';
      return post(tx, { kind: 'fee', memo, ...head }, [
        { account: 'provider_fees', amount: fee },
        { account: 'provider_cash', amount: -fee },
      ]);
    },

    /** A lawyer's balances and earnings per job, in naira, from the ledger alone. */
    /**
     * The lawyer's balance and completed jobs, newest first, EARNINGS_PAGE at a time: `before` (the
     * `older` of the page before) answers the next (paged as the notifications are).
     */
    async lawyerEarnings(lawyerId: string, before?: number) {
      const now = clock.now();
      const [b] = await db
        .select({
          available: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.availableAt} is null or ${ledgerEntries.availableAt} <= ${now}), 0)`,
          pending: sql<string>`coalesce(-sum(${ledgerEntries.amount}) filter (where ${ledgerEntries.availableAt} > ${now}), 0)`,
        })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.lawyerId, lawyerId), eq(ledgerEntries.account, 'lawyer_earnings')));
      const rows = await db
        .select({
          jobId: jobs.id,
          productName: products.productName,
          companyName: sql<string>`coalesce(${users.companyName}, ${users.name})`,
          completedAt: jobs.completedAt,
          earned: sql<string>`-${ledgerEntries.amount}`,
          availableAt: ledgerEntries.availableAt,
          transactionId: ledgerEntries.transactionId,
          entryId: ledgerEntries.id,
        })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .innerJoin(jobs, eq(jobs.id, ledgerEntries.jobId))
        .innerJoin(products, eq(products.id, jobs.productId))
        .innerJoin(users, eq(users.id, jobs.companyId))
        .where(
          and(
            eq(ledgerEntries.lawyerId, lawyerId),
            eq(ledgerEntries.account, 'lawyer_earnings'),
            eq(ledgerTransactions.kind, 'earning'),
            before !== undefined ? lt(ledgerEntries.id, before) : undefined,
          ),
        )
        .orderBy(desc(ledgerEntries.id))
        // One more than a page: whether older ones remain.
        .limit(EARNINGS_PAGE + 1);
      const page = rows.slice(0, EARNINGS_PAGE);
      const commissions = page.length
        ? await db
            .select({ transactionId: ledgerEntries.transactionId, kobo: ledgerEntries.amount })
            .from(ledgerEntries)
            .where(
              and(
                inArray(
                  ledgerEntries.transactionId,
                  page.map((r) => r.transactionId),
                ),
                eq(ledgerEntries.account, 'platform_commission'),
              ),
            )
        : [];
      const commissionBy = new Map(commissions.map((c) => [c.transactionId, -c.kobo]));
      return {
        available: naira(Number(b?.available ?? 0)),
        pending: naira(Number(b?.pending ?? 0)),
        jobs: page.map((r) => {
          const earned = Number(r.earned);
          const commission = commissionBy.get(r.transactionId) ?? 0;
          return {
            jobId: r.jobId,
            productName: r.productName,
            companyName: r.companyName,
            amount: naira(earned + commission),
            commission: naira(commission),
            earned: naira(earned),
            completedAt: r.completedAt?.toISOString() ?? null,
            availableAt: r.availableAt?.toISOString() ?? null,
          };
        }),
        // Only when older ones remain, so a lawyer with one page reads the answer as before.
        ...(rows.length > EARNINGS_PAGE ? { older: String(page.at(-1)!.entryId) } : {}),
      };
    },

    /** Every account's balance in naira, from the ledger alone (debit positive for cash, credits shown positive). */
    async balances(ex: Executor = db): Promise<LedgerBalances> {
      const rows = await ex
        .select({ account: ledgerEntries.account, kobo: sql<string>`sum(${ledgerEntries.amount})` })
        .from(ledgerEntries)
        .groupBy(ledgerEntries.account);
      const of = (a: LedgerAccount) => Number(rows.find((r) => r.account === a)?.kobo ?? 0);
      return {
        providerCash: naira(of('provider_cash')),
        heldForJobs: naira(-of('held_for_jobs')),
        platformCommission: naira(-of('platform_commission')),
        owedToLawyers: naira(-of('lawyer_earnings')),
        // Approval credits it and settling debits it (decision 1710): a credit balance, shown positive.
        payoutsInTransit: naira(-of('payouts_in_transit')),
        refundsDue: naira(-of('refunds_due')),
        providerFees: naira(of('provider_fees')),
      };
    },

    /** The admin's ledger: transactions newest first with their entries, filtered. */
    async list(q: LedgerQuery): Promise<{ transactions: LedgerTransaction[]; total: number }> {
      const where = whereOf(q);
      const [{ n }] = await db
        .select({ n: sql<string>`count(*)` })
        .from(ledgerTransactions)
        .where(where);
      const heads = await db
        .select()
        .from(ledgerTransactions)
        .where(where)
        .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      const entries = heads.length
        ? await db
            .select()
            .from(ledgerEntries)
            .where(
              inArray(
                ledgerEntries.transactionId,
                heads.map((h) => h.id),
              ),
            )
            .orderBy(asc(ledgerEntries.id))
        : [];
      return {
        total: Number(n),
        transactions: heads.map((h) => ({
          _id: String(h.id),
          kind: h.kind,
          memo: h.memo,
          orderId: h.orderId,
          jobId: h.jobId,
          createdAt: h.createdAt.toISOString(),
          entries: entries
            .filter((e) => e.transactionId === h.id)
            .map((e) => ({
              account: e.account,
              amount: naira(e.amount),
              jobId: e.jobId,
              companyId: e.companyId,
              lawyerId: e.lawyerId,
              availableAt: e.availableAt?.toISOString() ?? null,
            })),
        })),
      };
    },

    /** The same filter as list, every entry as one CSV row (naira with two decimals). */
    async csv(q: LedgerQuery): Promise<string> {
      const rows = await db
        .select({
          id: ledgerTransactions.id,
          kind: ledgerTransactions.kind,
          memo: ledgerTransactions.memo,
          createdAt: ledgerTransactions.createdAt,
          orderId: ledgerTransactions.orderId,
          account: ledgerEntries.account,
          amount: ledgerEntries.amount,
          jobId: ledgerEntries.jobId,
          companyId: ledgerEntries.companyId,
          lawyerId: ledgerEntries.lawyerId,
        })
        .from(ledgerTransactions)
        .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
        .where(whereOf(q))
        .orderBy(asc(ledgerTransactions.createdAt), asc(ledgerTransactions.id), asc(ledgerEntries.id))
        .limit(100_000);
      const head = 'transaction,date,kind,memo,account,amount_ngn,order_id,job_id,company_id,lawyer_id';
      const lines = rows.map((r) =>
        [
          r.id,
          r.createdAt.toISOString(),
          LEDGER_KIND_WORDS[r.kind],
          r.memo,
          r.account,
          (r.amount / 100).toFixed(2),
          r.orderId ?? '',
          r.jobId ?? '',
          r.companyId ?? '',
          r.lawyerId ?? '',
        ]
          .map(csvCell)
          .join(','),
      );
      return [head, ...lines].join('\r\n') + '\r\n';
    },

    /**
     * What must always hold, as a list of problems (empty when the books are right): each transaction
     * balances, no balance is negative, every paid order is paid once in the ledger and matches.
     */
    async audit(ex: Executor = db): Promise<string[]> {
      const problems: string[] = [];
      const unbalanced = await ex.execute(
        sql`select transaction_id, sum(amount_kobo)::text as off from ledger_entries group by transaction_id having sum(amount_kobo) <> 0`,
      );
      for (const r of rowsOf<{ transaction_id: string; off: string }>(unbalanced))
        problems.push(`transaction ${r.transaction_id} is off by ${r.off} kobo`);
      const negative = await ex.execute(sql`
        select 'held for job ' || job_id as what, -sum(amount_kobo) as balance from ledger_entries
          where account = 'held_for_jobs' and job_id is not null group by job_id having -sum(amount_kobo) < 0
        union all
        select 'lawyer ' || lawyer_id, -sum(amount_kobo) from ledger_entries
          where account = 'lawyer_earnings' group by lawyer_id having -sum(amount_kobo) < 0
        union all
        -- Fees are the platform's cost, covered from its own funds (decision 1700): what companies paid in
        -- must cover what went back out to companies and lawyers.
        select 'provider cash before fees', sum(amount_kobo) from ledger_entries
          where account in ('provider_cash', 'provider_fees') having sum(amount_kobo) < 0
        union all
        select 'provider fees', sum(amount_kobo) from ledger_entries
          where account = 'provider_fees' having sum(amount_kobo) < 0
        union all
        select 'platform commission', -sum(amount_kobo) from ledger_entries
          where account = 'platform_commission' having -sum(amount_kobo) < 0
        union all
        select 'refunds due', -sum(amount_kobo) from ledger_entries
          where account = 'refunds_due' having -sum(amount_kobo) < 0
        union all
        -- Per company and job too: a company refunded more than it was owed hides behind what others are owed.
        select 'refunds due to company ' || company_id || coalesce(' for job ' || job_id, ''), -sum(amount_kobo)
          from ledger_entries where account = 'refunds_due'
          group by company_id, job_id having -sum(amount_kobo) < 0`);
      for (const r of rowsOf<{ what: string; balance: string }>(negative))
        problems.push(`${r.what} is negative (${r.balance} kobo)`);
      const payments = await ex.execute(sql`
        select o.id, o.amount_kobo::text as amount, count(t.id)::int as n,
          coalesce(sum(e.amount_kobo) filter (where e.account = 'provider_cash'), 0)::text as cash
        from orders o
        left join ledger_transactions t on t.order_id = o.id and t.kind = 'payment'
        left join ledger_entries e on e.transaction_id = t.id
        where o.status = 'paid' group by o.id, o.amount_kobo`);
      for (const r of rowsOf<{ id: string; amount: string; n: number; cash: string }>(payments)) {
        if (r.n === 0) problems.push(`paid order ${r.id} is not in the ledger`);
        else if (r.cash !== r.amount) problems.push(`paid order ${r.id}: ledger ${r.cash} kobo, order ${r.amount}`);
      }
      const stray = await ex.execute(sql`
        select t.order_id from ledger_transactions t join orders o on o.id = t.order_id
        where t.kind = 'payment' and o.status <> 'paid'`);
      for (const r of rowsOf<{ order_id: string }>(stray)) problems.push(`unpaid order ${r.order_id} has a payment`);
      // A plan payment as an order: paid once into the provider's cash at its amount, and only when paid.
      const planPayments = await ex.execute(sql`
        select sp.id::text as id, sp.status, sp.amount_kobo::text as amount, count(distinct t.id)::int as n,
          coalesce(sum(e.amount_kobo) filter (where e.account = 'provider_cash'), 0)::text as cash
        from subscription_payments sp
        left join ledger_transactions t on t.subscription_payment_id = sp.id and t.kind = 'plan_payment'
        left join ledger_entries e on e.transaction_id = t.id
        group by sp.id, sp.status, sp.amount_kobo
        having sp.status = 'paid' or count(t.id) > 0
        order by sp.id`);
      for (const r of rowsOf<{ id: string; status: string; amount: string; n: number; cash: string }>(planPayments)) {
        if (r.status !== 'paid') problems.push(`${r.status} plan payment ${r.id} has a payment posted`);
        else if (r.n === 0) problems.push(`paid plan payment ${r.id} is not in the ledger`);
        else if (r.n > 1 || r.cash !== r.amount)
          problems.push(`paid plan payment ${r.id}: ledger ${r.cash} kobo in ${r.n} postings, payment ${r.amount}`);
      }
      const earned = await ex.execute(sql`
        select t.job_id, t.kind, j.stage from ledger_transactions t join jobs j on j.id = t.job_id
        where (t.kind = 'earning' and j.stage <> 'completed') or (t.kind = 'cancellation' and j.stage <> 'cancelled')
        order by t.id`);
      // Named as posted: a cancellation on a job still at work sends the reader to the refund, not the lawyer.
      for (const r of rowsOf<{ job_id: string; kind: string; stage: string }>(earned))
        problems.push(
          r.kind === 'earning'
            ? `job ${r.job_id} earned but is ${r.stage}`
            : `job ${r.job_id} has its cancellation posted but is ${r.stage}`,
        );
      // A job that ended released everything held for it: to its lawyer and the platform, or to the refund.
      const stuck = await ex.execute(sql`
        select j.id, j.stage, -sum(e.amount_kobo) as held from ledger_entries e join jobs j on j.id = e.job_id
          where e.account = 'held_for_jobs' and j.stage in ('completed', 'cancelled')
          group by j.id, j.stage having sum(e.amount_kobo) <> 0`);
      for (const r of rowsOf<{ id: string; stage: string; held: string }>(stuck))
        problems.push(`job ${r.id} is ${r.stage} but ${r.held} kobo are still held for it`);
      // A plan credit goes back only from a cancelled plan job (decision 1900).
      const returned = await ex.execute(sql`
        select t.job_id from ledger_transactions t join jobs j on j.id = t.job_id
        where t.kind = 'plan_credit_return' and (j.stage <> 'cancelled' or j.subscription_id is null)`);
      for (const r of rowsOf<{ job_id: string }>(returned))
        problems.push(`job ${r.job_id} gave a plan credit back but is not a cancelled plan job`);
      const refunded = await ex.execute(sql`
        select r.id, r.status, r.amount_kobo::text as amount,
          coalesce((select sum(e.amount_kobo) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
            where t.refund_id = r.id and t.kind = 'refund' and e.account = 'refunds_due'), 0)::text as posted
        from refunds r`);
      for (const r of rowsOf<{ id: string; status: string; amount: string; posted: string }>(refunded)) {
        const want = r.status === 'completed' ? r.amount : '0';
        if (r.posted !== want) problems.push(`refund ${r.id} (${r.status}) posted ${r.posted} kobo, expected ${want}`);
      }
      // A refund with no job (decision 2250) made its amount due once, when it was opened.
      const unapplied = await ex.execute(sql`
        select r.id, r.amount_kobo::text as amount,
          coalesce((select -sum(e.amount_kobo) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
            where t.refund_id = r.id and t.kind = 'unapplied' and e.account = 'refunds_due'), 0)::text as due
        from refunds r where r.job_id is null`);
      for (const r of rowsOf<{ id: string; amount: string; due: string }>(unapplied))
        if (r.due !== r.amount) problems.push(`refund ${r.id} made ${r.due} kobo due, expected ${r.amount}`);
      // What a company's plans hold (no job, no order: decision 1900) is what their live plans' credits are
      // worth: an ended or lapsed plan's credits can no longer be used, so its expiry must have released them.
      const pools = await ex.execute(sql`
        with pool as (
          select e.company_id, -sum(e.amount_kobo) as held from ledger_entries e
            join ledger_transactions t on t.id = e.transaction_id
            where e.account = 'held_for_jobs' and e.job_id is null and t.order_id is null
            group by e.company_id),
        credits as (
          select s.company_id, sum(s.credit_value_kobo * (select coalesce(sum(c.value::bigint), 0)
            from jsonb_each_text(s.credits) c)) as worth
            from subscriptions s where s.status in ('active', 'grace') group by s.company_id)
        select coalesce(pool.company_id, credits.company_id) as company_id,
          coalesce(pool.held, 0)::text as held, coalesce(credits.worth, 0)::text as worth
        from pool full join credits on credits.company_id = pool.company_id
        where coalesce(pool.held, 0) <> coalesce(credits.worth, 0)`);
      for (const r of rowsOf<{ company_id: string; held: string; worth: string }>(pools))
        problems.push(`plans of company ${r.company_id} hold ${r.held} kobo for credits worth ${r.worth} kobo`);
      // Held against an order (not a job) never goes below zero: lines refunded were paid for. Nor does it
      // stay above: what a payment held for no job (lines another order bought) is refunded in its transaction.
      const heldOrders = await ex.execute(sql`
        select t.order_id, -sum(e.amount_kobo) as balance from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
          where e.account = 'held_for_jobs' and e.job_id is null and t.order_id is not null
          group by t.order_id having sum(e.amount_kobo) <> 0 order by t.order_id`);
      for (const r of rowsOf<{ order_id: string; balance: string }>(heldOrders))
        problems.push(
          Number(r.balance) < 0
            ? `held for order ${r.order_id} is negative (${r.balance} kobo)`
            : `order ${r.order_id} holds ${r.balance} kobo for no job and no refund`,
        );
      // Payouts (decision 1710): in transit never negative, and each payout posted as its status says.
      const transit = await ex.execute(sql`
        select -sum(amount_kobo) as balance from ledger_entries
          where account = 'payouts_in_transit' having -sum(amount_kobo) < 0`);
      for (const r of rowsOf<{ balance: string }>(transit))
        problems.push(`payouts in transit is negative (${r.balance} kobo)`);
      const paidOut = await ex.execute(sql`
        select p.id, p.status, p.amount_kobo::text as amount,
          coalesce(string_agg(t.kind, ',' order by t.kind) filter (where t.kind <> 'fee'), '') as kinds,
          coalesce((select sum(e.amount_kobo) from ledger_transactions t2 join ledger_entries e on e.transaction_id = t2.id
            where t2.payout_id = p.id and t2.kind = 'payout' and e.account = 'lawyer_earnings'), 0)::text as posted
        from payouts p left join ledger_transactions t on t.payout_id = p.id
        group by p.id, p.status, p.amount_kobo`);
      const expected: Record<string, string> = {
        requested: '',
        sending: 'payout',
        paid: 'payout,payout_settled',
        failed: 'payout,payout_failed',
        // Turned down before it was sent: nothing was posted, the reservation simply ends.
        rejected: '',
      };
      // Paid, then reversed by the bank: failed, with the amount given back from the provider's balance.
      const reversed = 'payout,payout_reversed,payout_settled';
      for (const r of rowsOf<{ id: string; status: string; amount: string; kinds: string; posted: string }>(paidOut)) {
        if (r.kinds !== expected[r.status] && !(r.status === 'failed' && r.kinds === reversed))
          problems.push(`payout ${r.id} (${r.status}) has postings [${r.kinds}], expected [${expected[r.status]}]`);
        else if (r.status !== 'requested' && r.status !== 'rejected' && r.posted !== r.amount)
          problems.push(`payout ${r.id} posted ${r.posted} kobo, expected ${r.amount}`);
      }
      // Withdrawals waiting for approval reserve earnings without a posting: never more than the lawyer is
      // owed, or two requests took the same money and approving both would overdraw it.
      const reservedOver = await ex.execute(sql`
        select p.lawyer_id, sum(p.amount_kobo)::text as reserved,
          coalesce((select -sum(e.amount_kobo) from ledger_entries e
            where e.account = 'lawyer_earnings' and e.lawyer_id = p.lawyer_id), 0)::text as owed
        from payouts p where p.status = 'requested' group by p.lawyer_id
        having sum(p.amount_kobo) > coalesce((select -sum(e.amount_kobo) from ledger_entries e
          where e.account = 'lawyer_earnings' and e.lawyer_id = p.lawyer_id), 0)
        order by p.lawyer_id`);
      for (const r of rowsOf<{ lawyer_id: string; reserved: string; owed: string }>(reservedOver))
        problems.push(`lawyer ${r.lawyer_id} has ${r.reserved} kobo of payouts requested but is owed ${r.owed} kobo`);
      // Fees (decision 1700): only on a paid order, plan payment or payout, once, each leaving the provider's cash.
      // A reversed payout's transfer went through before it came back, so its fee stays charged.
      const fees = await ex.execute(sql`
        select t.id, coalesce(o.status,
            case when p.status = 'failed' and exists (select 1 from ledger_transactions s
              where s.payout_id = p.id and s.kind = 'payout_settled') then 'paid' else p.status end,
            sp.status, 'nothing') as status,
          coalesce(sum(e.amount_kobo) filter (where e.account = 'provider_fees'), 0) as fee,
          coalesce(sum(e.amount_kobo) filter (where e.account = 'provider_cash'), 0) as cash
        from ledger_transactions t
        left join orders o on o.id = t.order_id
        left join payouts p on p.id = t.payout_id
        left join subscription_payments sp on sp.id = t.subscription_payment_id
        left join ledger_entries e on e.transaction_id = t.id
        where t.kind = 'fee' group by t.id, o.status, p.id, p.status, sp.status`);
      for (const r of rowsOf<{ id: string; status: string; fee: string; cash: string }>(fees)) {
        if (r.status !== 'paid') problems.push(`fee ${r.id} is posted for something ${r.status}`);
        else if (Number(r.fee) <= 0 || Number(r.fee) !== -Number(r.cash))
          problems.push(`fee ${r.id} moves ${r.fee} kobo of fees against ${r.cash} kobo of cash`);
      }
      return problems;
    },
  };
}

function whereOf(q: LedgerQuery): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.kind) parts.push(eq(ledgerTransactions.kind, q.kind));
  // Dates are Lagos days: a day runs from 00:00 WAT (23:00 UTC the day before).
  if (q.from) parts.push(gte(ledgerTransactions.createdAt, new Date(`${q.from}T00:00:00+01:00`)));
  if (q.to)
    parts.push(lt(ledgerTransactions.createdAt, new Date(new Date(`${q.to}T00:00:00+01:00`).getTime() + DAY_MS)));
  for (const [column, id] of [
    [ledgerEntries.companyId, q.companyId],
    [ledgerEntries.lawyerId, q.lawyerId],
  ] as const)
    if (id)
      parts.push(
        sql`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.transactionId} = ${ledgerTransactions.id} and ${column} = ${id})`,
      );
  return parts.length ? and(...parts) : undefined;
}

/** Spreadsheet-safe CSV: quoted when needed, and a leading = + - @ cannot start a formula. */
function csvCell(v: unknown): string {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export type Ledger = ReturnType<typeof createLedger>;
