import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { PayoutView } from '@legalmarket/contracts';
import { jobs, ledgerEntries, ledgerTransactions, payouts } from '../../db/schema.js';
import { PASSWORD, signupAndLogin, type DbKind } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct, paySandbox } from '../../../test/commerce-helpers.js';
import { SECRET_HASH, flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index.js';
import { createLedger } from './ledger.js';
import { createPayouts } from './payouts.js';
import type { Db } from '../../db/client.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
export type PayoutTestApp = Awaited<ReturnType<typeof createLoggedTestApp>>;

/** What the kit's `beforeAll` builds; read it in the suite's own hooks and tests, not before. */
export interface PayoutSuite {
  t: PayoutTestApp;
  /** The admin the kit's steps act as; `signInAdmin` replaces it once the clock outlived its session. */
  admin: Login;
  /** A ₦25,000 product: a job of it earns its lawyer ₦20,000 (the 20 % commission taken). */
  product: string;
}

/** Asks again every 25 ms, for up to 10 seconds, until `check` holds: webhooks are handled after their answer. */
export async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
}

/**
 * The set-up the payout suites shared, for the body of a `describeEachDb`: the logged test app paying
 * and sending transfers through the sandbox provider or, with `provider: 'flutterwave'`, a Flutterwave
 * stand-in (its modes put back after each test), both closed after the suite; an admin, the product
 * (`product` names it), earnings withdrawable at once (20 % commission, no holding days), and the ledger
 * audited clean after each test. The helpers earn, ask for and approve payouts as the lawyer and the
 * admin would, and read what the ledger and the provider made of them.
 */
export function payoutTestKit(kind: DbKind, opts: { product: string; provider?: 'sandbox' | 'flutterwave' }) {
  const suite = {} as PayoutSuite;
  const flutterwave = opts.provider === 'flutterwave';
  // Listened to only with `provider: 'flutterwave'`.
  const flw = flutterwaveStandIn();

  const db = () => suite.t.rt.database.db;
  const inject = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    url: string,
    who: Login | null,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    suite.t.app.inject({
      method,
      url,
      headers: { ...(who?.headers ?? {}), ...headers },
      payload: payload as Record<string, unknown>,
    });

  /** Earnings are withdrawable at once unless a test says otherwise. */
  const holdDays = async (days: number) =>
    expect(
      (await inject('PUT', '/api/admin/money-settings', suite.admin, { commissionPercent: 20, holdDays: days }))
        .statusCode,
    ).toBe(200);

  beforeAll(async () => {
    suite.t = await createLoggedTestApp(kind, flutterwave ? await listenStandIn(flw) : {});
    suite.admin = await signupAndLogin(suite.t, 'admin');
    suite.product = await insertProduct(suite.t, opts.product, 25_000);
    await holdDays(0);
  });
  afterAll(async () => {
    await suite.t?.close();
    if (flutterwave) await new Promise((r) => flw.server.close(r));
  });
  afterEach(async () => {
    if (flutterwave) {
      flw.setTransferMode('queue');
      flw.setDown(false);
    }
    expect(await createLedger({ db: db(), clock: suite.t.clock }).audit()).toEqual([]);
  });

  /** A new session after the clock moved past the old one's lifetime. */
  async function relogin(who: Login) {
    const res = await inject('POST', '/api/login', null, { officialEmail: who.email, password: PASSWORD });
    who.headers = { authorization: `Bearer ${res.json().token}` };
  }
  /** Another admin, signed in now, for the kit's steps to act as: the clock moved past the old one's session. */
  async function signInAdmin() {
    suite.admin = await signupAndLogin(suite.t, 'admin');
    return suite.admin;
  }

  /** The company's payment, verified, as the suite's provider takes it. */
  async function pay(reference: string, amount: number, company: Login) {
    if (flutterwave) {
      const transactionId = flw.pay(reference, amount);
      expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(
        200,
      );
      return;
    }
    await paySandbox(suite.t, company, reference, amount);
  }
  /** A job of the product bought by a new company, paid, assigned to `lawyer` and completed. */
  async function earn(lawyer: Login) {
    const { admin, product } = suite;
    const company = await signupAndLogin(suite.t, 'company');
    await inject('POST', '/api/cart', company, { productId: product, quantity: 1 });
    const { reference, amount } = (await inject('POST', '/api/checkout', company)).json().data;
    await pay(reference, amount, company);
    const [job] = await db().select().from(jobs).where(eq(jobs.companyId, company.id));
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    return job;
  }
  const addDetails = (lawyer: Login, accountNumber: string, accountName = 'Chidi Okeke', bank = 'Zenith Bank') =>
    inject('POST', '/api/add-payment-details', lawyer, { accountNumber, accountName, bank });
  /** A verified lawyer with checked details who earned ₦20,000 from each of `jobsDone` jobs. */
  async function earner(accountNumber = '0123456789', jobsDone = 1) {
    const lawyer = await signupAndLogin(suite.t, 'lawyer', { verified: true });
    expect((await addDetails(lawyer, accountNumber)).statusCode).toBe(201);
    for (let i = 0; i < jobsDone; i++) await earn(lawyer);
    return lawyer;
  }

  const mine = async (lawyer: Login) =>
    (await inject('GET', '/api/lawyer/payouts', lawyer)).json() as {
      withdrawable: number;
      detailsResolved: boolean;
      payouts: PayoutView[];
    };
  /** The lawyer's withdrawal (all that is withdrawable without `amount`), under an Idempotency-Key if given. */
  const request = (lawyer: Login, amount?: number, key?: string) =>
    inject(
      'POST',
      '/api/lawyer/payouts',
      lawyer,
      amount === undefined ? {} : { amount },
      key === undefined ? {} : { 'idempotency-key': key },
    );
  const approve = (id: string, who = suite.admin) => inject('POST', `/api/admin/payouts/${id}/approve`, who, {});
  const payout = async (id: string) => (await db().select().from(payouts).where(eq(payouts.id, id)))[0];
  const statusOf = async (id: string) => (await payout(id)).status;
  /** The kinds of the ledger's transactions about one payout, in the order they were posted. */
  const kinds = async (payoutId: string) =>
    (
      await db()
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.payoutId, payoutId))
        .orderBy(ledgerTransactions.id)
    ).map((r) => r.kind);
  const available = async (lawyer: Login) =>
    (await inject('GET', '/job-api/lawyer/earnings', lawyer)).json().data.available as number;
  /** What the ledger owes this lawyer, in kobo, whether available yet or not. */
  const owed = async (lawyerId: string) => {
    const [row] = await db()
      .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.lawyerId, lawyerId), eq(ledgerEntries.account, 'lawyer_earnings')));
    return Number(row.kobo);
  };

  /**
   * The payouts service as each instance's timer builds it (main.ts), on the real provider unless given
   * one, and on the suite's database unless given one (a test's `afterFirstSelect` wrapper).
   */
  const instance = (provider: PaymentProvider = createPaymentProvider(suite.t.config, db()), database: Db = db()) =>
    createPayouts({
      db: database,
      clock: suite.t.clock,
      config: suite.t.config,
      mailWritten: () => {},
      securityLog: () => {},
      provider,
      ledger: createLedger({ db: db(), clock: suite.t.clock }),
      sleep: async () => {},
    });

  /** The stand-in's transfers made under this reference (a payout's id). */
  const transfersOf = (reference: string) => [...flw.transfers.values()].filter((x) => x.reference === reference);
  const transferPosts = () => flw.calls.filter((c) => c === 'POST /v3/transfers').length;
  /** Flutterwave's `transfer.completed` body; only `data.id` counts, the transfer is fetched. */
  const transferHookBody = (data: Record<string, unknown>) =>
    JSON.stringify({ event: 'transfer.completed', 'event.type': 'Transfer', data });
  /** The webhook as Flutterwave sends it, with its secret hash unless other headers are given. */
  const transferWebhook = (
    data: Record<string, unknown>,
    headers: Record<string, string> = { 'verif-hash': SECRET_HASH },
  ) =>
    suite.t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload: transferHookBody(data),
    });

  return {
    suite,
    flw,
    db,
    inject,
    holdDays,
    relogin,
    signInAdmin,
    earn,
    addDetails,
    earner,
    mine,
    request,
    approve,
    payout,
    statusOf,
    kinds,
    available,
    owed,
    instance,
    transfersOf,
    transferPosts,
    transferHookBody,
    transferWebhook,
  };
}
