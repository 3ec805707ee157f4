import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index.js';
import { createJobLifecycle } from '../jobs/lifecycle-service.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createCheckoutService } from './service.js';

interface ReconcilerOptions {
  config: Config;
  db: Db;
  clock: Clock;
  logger: {
    info: (o: object, m?: string) => void;
    warn: (o: object, m?: string) => void;
    error: (o: object, m?: string) => void;
  };
  provider?: PaymentProvider;
  intervalMs?: number;
}

/** One pass of the background job: re-verify pending orders, fulfil or expire them. Tests call this. */
export async function reconcilePendingOrders(
  opts: Omit<ReconcilerOptions, 'intervalMs'>,
  pass: { minAgeMs?: number; expireAfterMs?: number; limit?: number; lateLimit?: number } = {},
) {
  const ledger = createLedger(opts);
  const provider = opts.provider ?? createPaymentProvider(opts.config, opts.db, opts.clock);
  const shared = { db: opts.db, clock: opts.clock, config: opts.config, mailWritten: () => {} };
  const refunds = createRefunds({ ...shared, provider, ledger, log: opts.logger });
  const service = createCheckoutService({
    db: opts.db,
    clock: opts.clock,
    provider,
    securityLog: (event, fields) => opts.logger.info({ security: event, ...fields }, `security:${event}`),
    log: opts.logger,
    mailConfig: opts.config,
    // Jobs paid here open like any other: due date, event, notifications (the mail worker polls).
    lifecycle: createJobLifecycle(shared, { ledger, refunds }),
    ledger,
    refunds,
  });
  let counts: Awaited<ReturnType<typeof service.reconcile>>;
  try {
    counts = await service.reconcile(pass);
  } catch (err) {
    // The refunds due never wait on an order that fails: sent all the same, then the pass fails as before.
    await refunds.resendDue().catch((e: unknown) => opts.logger.error({ err: e }, 'refunds due not resent'));
    throw err;
  }
  // Refunds left unsent (the provider unreachable, a stop after the commit) or refused: a cancelled
  // job's as well as one of money paid for nothing (decisions 2251, 2284).
  return { ...counts, refundsSent: await refunds.resendDue() };
}

/**
 * Starts the background job every minute (call before app.listen; it stops when the app closes).
 * Webhooks can arrive late, twice or never: this makes sure a customer who paid gets its jobs.
 */
export function startPaymentReconciler(app: FastifyInstance, opts: ReconcilerOptions) {
  let running = false;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (running) return;
    running = true;
    current = reconcilePendingOrders(opts)
      .then((c) => {
        if (c.fulfilled || c.expired) opts.logger.info(c, 'pending orders reconciled');
      })
      .catch((err) => opts.logger.error({ err }, 'pending order reconciliation failed'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(tick, opts.intervalMs ?? 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await current;
  });
  return { tick, stop: () => clearInterval(timer) };
}
