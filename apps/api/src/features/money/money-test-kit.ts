import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs, ledgerEntries, ledgerTransactions, orders, refunds } from '../../db/schema.js';
import { PASSWORD, signupAndLogin, type DbKind } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { SECRET_HASH, flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import { reconcilePendingOrders } from '../checkout/reconciler.js';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index.js';
import { createLedger } from './ledger.js';
import { createRefunds } from './refunds.js';
import type { Db } from '../../db/client.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
export type MoneyTestApp = Awaited<ReturnType<typeof createLoggedTestApp>>;
/** `raw` posted to `app`'s webhook as Flutterwave signs it (HMAC-SHA256 with the secret hash). */
export const signedWebhookTo = (app: Pick<FastifyInstance, 'inject'>, raw: string) =>
  app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'flutterwave-signature': createHmac('sha256', SECRET_HASH).update(raw).digest('base64'),
    },
    payload: raw,
  });

/** A checkout started by a company: what POST /api/checkout answered. */
export type Started = { who: Login; reference: string; amount: number; orderId: string };

/** What the kit's `beforeAll` builds; read it in the suite's own hooks and tests, not before. */
export interface MoneySuite {
  t: MoneyTestApp;
  /** The stand-in's settings the app was built with (FLW_API_URL and the keys). */
  config: Awaited<ReturnType<typeof listenStandIn>>;
  /** With `products`: an NDA at ₦25,000 and a trademark registration at ₦150,000. */
  nda: string;
  tm: string;
}

/**
 * The set-up the money suites shared, for the body of a `describeEachDb`: the logged test app paying
 * through a Flutterwave stand-in (on the app's clock unless `standInClock: 'real'`), both closed after
 * the suite; with `products` the two products; with `ledgerAudit` the stand-in's refunds made to
 * complete again and the ledger audited clean after each test. The helpers pay, verify and read
 * refunds as a company and the background job would.
 */
export function moneyTestKit(
  kind: DbKind,
  opts: { products?: boolean; ledgerAudit?: boolean; standInClock?: 'app' | 'real' } = {},
) {
  const suite = {} as MoneySuite;
  const flw = flutterwaveStandIn(opts.standInClock === 'real' ? {} : { now: () => suite.t.clock.now() });

  beforeAll(async () => {
    suite.config = await listenStandIn(flw);
    suite.t = await createLoggedTestApp(kind, suite.config);
    if (opts.products) {
      suite.nda = await insertProduct(suite.t, 'Non-Disclosure Agreement', 25_000);
      suite.tm = await insertProduct(suite.t, 'Trademark Registration', 150_000);
    }
  });
  afterAll(async () => {
    await suite.t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  if (opts.ledgerAudit)
    afterEach(async () => {
      flw.setRefundMode('completed');
      expect(await createLedger({ db: db(), clock: suite.t.clock }).audit()).toEqual([]);
    });

  const db = () => suite.t.rt.database.db;
  const ledger = () => createLedger({ db: db(), clock: suite.t.clock });
  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: Record<string, unknown>) =>
    suite.t.app.inject({ method, url, headers: who.headers, payload });
  /** Sessions last 12 hours: signed in again after the clock moved on. */
  const again = async (who: Login): Promise<Login> => {
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    return { ...who, headers: { authorization: `Bearer ${(res.json() as { token: string }).token}` } };
  };
  const add = async (who: Login, productId: string, quantity = 1) => {
    suite.t.clock.advance(1000);
    expect((await inject('POST', '/api/cart', who, { productId, quantity })).statusCode).toBe(201);
  };
  const start = async (who: Login): Promise<Started> => {
    suite.t.clock.advance(1000);
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return { who, ...(res.json().data as Omit<Started, 'who'>) };
  };
  const verify = (o: Started, transactionId?: number | string) =>
    inject('POST', '/api/checkout/verify', o.who, {
      reference: o.reference,
      ...(transactionId === undefined ? {} : { transactionId: String(transactionId) }),
    });
  /** A webhook body as Flutterwave signs it (HMAC-SHA256 with the secret hash). */
  const signedWebhook = (raw: string) => signedWebhookTo(suite.t.app, raw);
  const paymentWebhook = (id: number, txRef: string, amount: number) =>
    signedWebhook(
      JSON.stringify({
        event: 'charge.completed',
        data: { id, tx_ref: txRef, amount, currency: 'NGN', charged_amount: amount, status: 'successful' },
      }),
    );
  const refundWebhook = (id: number) => signedWebhook(JSON.stringify({ event: 'refund.completed', data: { id } }));
  /** One pass of the background job, over orders of any age. */
  const reconcile = () =>
    reconcilePendingOrders(
      { config: suite.t.config, db: db(), clock: suite.t.clock, logger: { info() {}, warn() {}, error() {} } },
      { minAgeMs: 0 },
    );
  /**
   * The background job sending due refunds again while an admin presses retry on `refundId` right after
   * the job has claimed it, the retry reaching the provider slowly: what the retry answered or threw.
   */
  const resendRacingRetry = async (refundId: string): Promise<unknown> => {
    const real = createPaymentProvider(suite.t.config, db(), suite.t.clock);
    const atProvider = latch();
    const gate = latch();
    const slow: PaymentProvider = {
      ...real,
      async refund(...a) {
        atProvider.open();
        await gate.opened;
        return real.refund(...a);
      },
    };
    const shared = { clock: suite.t.clock, config: suite.t.config, mailWritten: () => {} };
    const byAdmin = createRefunds({ ...shared, db: db(), provider: slow, ledger: ledger() });
    let retried: Promise<unknown> = Promise.resolve();
    const job = createRefunds({
      ...shared,
      db: afterFirstUpdate(db(), async () => {
        retried = byAdmin.retry(refundId).then(
          (v) => v,
          (e: unknown) => e,
        );
        await Promise.race([atProvider.opened, retried]);
      }),
      provider: real,
      ledger: ledger(),
    });
    await job.resendDue();
    gate.open();
    return retried;
  };
  const orderOf = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0];
  /** The order's refunds with no job. */
  const strays = (orderId: string) =>
    db()
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), isNull(refunds.jobId)));
  /** The refunds Flutterwave made of one transaction (naira). */
  const madeAtProvider = (transactionId: number | string) =>
    [...flw.refunds.values()].filter((r) => r.tx_id === Number(transactionId) && r.status !== 'failed');
  const postingsOf = (refundId: string) =>
    db()
      .select({ kind: ledgerTransactions.kind, account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerTransactions.refundId, refundId))
      .orderBy(ledgerEntries.id);
  /**
   * A new company pays, in one order, for `products` (verified as the browser would); its job for the
   * first of them, and the provider's payment id.
   */
  async function paidJob(products: string[]) {
    const who = await signupAndLogin(suite.t, 'company');
    for (const productId of products) await add(who, productId);
    const o = await start(who);
    const paid = flw.pay(o.reference, o.amount);
    expect((await verify(o, paid)).statusCode).toBe(200);
    const [job] = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.orderId, o.orderId), eq(jobs.productId, products[0])));
    return { who, paid, job };
  }
  /** The admin cancels the job from its page, which refunds the company. */
  const cancelJob = (admin: Login, jobId: string) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/cancel`, admin, { note: 'The company closed the deal.' });
  const refundOfJob = async (jobId: string) => (await db().select().from(refunds).where(eq(refunds.jobId, jobId)))[0];
  /** Naira due to companies, over the whole ledger (+ 0: an empty balance reads -0). */
  const refundsDue = async () => (await ledger().balances()).refundsDue + 0;

  return {
    suite,
    flw,
    db,
    ledger,
    inject,
    again,
    add,
    start,
    verify,
    signedWebhook,
    paymentWebhook,
    refundWebhook,
    reconcile,
    resendRacingRetry,
    orderOf,
    strays,
    madeAtProvider,
    postingsOf,
    refundsDue,
    paidJob,
    cancelJob,
    refundOfJob,
  };
}

/** A promise held until `open` is called: where a test holds one side of a race. */
export function latch() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

/**
 * The database with `hook` run once, right after the first UPDATE made through it has completed and
 * before its caller goes on: puts another request exactly between two statements of one caller.
 */
export function afterFirstUpdate(db: Db, hook: () => Promise<void>): Db {
  return afterFirst(db, 'update', hook);
}

/** As `afterFirstUpdate`, after the first SELECT made through `db` (outside a transaction). */
export function afterFirstSelect(db: Db, hook: () => Promise<void>): Db {
  return afterFirst(db, 'select', hook);
}

function afterFirst(db: Db, method: 'update' | 'select', hook: () => Promise<void>): Db {
  let armed = true;
  const chain = (b: object): object =>
    new Proxy(b, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop === 'then')
          return (ok: (x: unknown) => unknown, ko: (e: unknown) => unknown) =>
            (target as PromiseLike<unknown>)
              .then(async (rows) => {
                if (armed) {
                  armed = false;
                  await hook();
                }
                return rows;
              })
              .then(ok, ko);
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => {
          const r = (v as (...x: unknown[]) => unknown).apply(target, a);
          return r && typeof r === 'object' ? chain(r) : r;
        };
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === method) return (...a: unknown[]) => chain((v as (...x: unknown[]) => object).apply(target, a));
      return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
    },
  });
}
