import { expect } from 'vitest';
import type { PlanView } from '@legalmarket/contracts';
import type { PaymentProvider } from '../../platform/payments/types.js';
import { flutterwaveProvider } from '../../platform/payments/flutterwave.js';
import { sandboxProvider } from '../../platform/payments/sandbox.js';
import { PASSWORD, type TestApp, type signupAndLogin } from '../../../test/helpers.js';
import { SUCCESS_CARD } from '../../../test/commerce-helpers.js';
import { PUBLIC_KEY, SECRET_HASH, SECRET_KEY, type flutterwaveStandIn } from '../../../test/flutterwave-standin.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createJobLifecycle } from '../jobs/lifecycle-service.js';
import type { Shared } from '../shared.js';
import { createPlansService } from './service.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type FlutterwaveStandIn = ReturnType<typeof flutterwaveStandIn>;
type Tier = 'bronze' | 'silver' | 'gold';

/**
 * A scheduler's plan services on the test app's database, as another instance would build them: the
 * sandbox provider unless one is given. `deps`, `provider`, `ledger` and `lifecycle` come back too, for
 * suites that build a second scheduler or other services on them.
 */
export function planServices(
  t: TestApp,
  opts: { provider?: PaymentProvider; securityLog?: Shared['securityLog'] } = {},
) {
  const deps = {
    db: t.rt.database.db,
    clock: t.clock,
    config: t.config,
    mailWritten: () => {},
    securityLog: opts.securityLog ?? (() => {}),
  };
  const provider = opts.provider ?? sandboxProvider(deps.db, t.clock);
  const ledger = createLedger(deps);
  const refunds = createRefunds({ ...deps, provider, ledger });
  const lifecycle = createJobLifecycle(deps, { ledger, refunds });
  const plans = createPlansService(deps, { provider, ledger, lifecycle, refunds });
  return { deps, provider, ledger, lifecycle, plans, refunds };
}

/**
 * A request; a session the moved clock expired is renewed by logging in again (a login that fails
 * answers the first 401). `app` is read on each call, since suites build their app in `beforeAll`.
 */
export function reloggingInject(app: () => TestApp) {
  return async function inject(method: 'GET' | 'POST', url: string, who: Login | null, payload?: unknown) {
    const send = () =>
      app().app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
    const res = await send();
    if (res.statusCode !== 401 || !who) return res;
    const login = await app().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    if (login.statusCode !== 200) return res;
    who.headers.authorization = `Bearer ${(login.json() as { token: string }).token}`;
    return send();
  };
}

type Inject = ReturnType<typeof reloggingInject>;

/** Pays a started payment in the sandbox dialog, as the browser does; answers its transaction id. */
export async function sandboxCharge(inject: Inject, who: Login, d: { reference: string; amount: number }) {
  const charged = await inject('POST', '/api/checkout/sandbox/charge', who, {
    reference: d.reference,
    amount: d.amount,
    currency: 'NGN',
    ...SUCCESS_CARD,
  });
  expect(charged.statusCode).toBe(200);
  return (charged.json().data as { transaction_id: string }).transaction_id;
}

/** A plan's first month started and charged in the sandbox dialog, not yet confirmed. */
export async function startPlanInSandbox(inject: Inject, who: Login, tier: Tier) {
  const started = await inject('POST', '/api/plans/subscribe', who, { tier });
  expect(started.statusCode).toBe(200);
  const d = started.json().data as { reference: string; amount: number; paymentPlan: string };
  return { ...d, transactionId: await sandboxCharge(inject, who, d) };
}

/** Subscribes through the sandbox dialog as the browser does. */
export async function subscribeInSandbox(inject: Inject, who: Login, tier: Tier) {
  const d = await startPlanInSandbox(inject, who, tier);
  const confirmed = await inject('POST', '/api/plans/confirm', who, {
    reference: d.reference,
    transactionId: d.transactionId,
  });
  expect(confirmed.statusCode).toBe(200);
  return { ...d, plan: confirmed.json().data as PlanView };
}

/** Our Flutterwave client, pointed at the stand-in whose configuration `listenStandIn` answered. */
export const standInProvider = (config: { FLW_API_URL: string }) =>
  flutterwaveProvider({
    publicKey: PUBLIC_KEY,
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    apiUrl: config.FLW_API_URL,
  });

/** Flutterwave's signed `charge.completed` webhook for a transaction. */
export const flutterwaveWebhook = (t: TestApp, tx: { id: number; tx_ref: string; status: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'verif-hash': SECRET_HASH, 'content-type': 'application/json' },
    payload: JSON.stringify({ event: 'charge.completed', data: { id: tx.id, tx_ref: tx.tx_ref, status: tx.status } }),
  });

/** The stand-in's subscription of this customer's card to a payment plan. */
export const standInSubscription = (flw: FlutterwaveStandIn, planId: string | number, email: string) =>
  [...flw.subscriptions.values()].find((s) => s.plan === Number(planId) && s.customer.customer_email === email);

/**
 * Starts a plan and pays it in Flutterwave's inline checkout, on the payment plan (which subscribes the
 * card to it); answers the confirmation, to send when the test wants.
 */
export async function startOnFlutterwave(t: TestApp, flw: FlutterwaveStandIn, who: Login, tier: Tier) {
  const inject = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  const started = await inject('/api/plans/subscribe', { tier });
  expect(started.statusCode).toBe(200);
  const d = started.json().data as { reference: string; amount: number; paymentPlan: string };
  // The inline checkout's charge with `payment_plan`: Flutterwave subscribes the card to the plan.
  const id = flw.pay(d.reference, d.amount, { email: who.email, paymentPlan: Number(d.paymentPlan) });
  return async () => {
    const confirmed = await inject('/api/plans/confirm', { reference: d.reference, transactionId: String(id) });
    return { ...d, status: confirmed.statusCode, plan: confirmed.json().data as PlanView };
  };
}

/** A plan started and paid on Flutterwave, and confirmed. */
export async function subscribeOnFlutterwave(t: TestApp, flw: FlutterwaveStandIn, who: Login, tier: Tier = 'silver') {
  const out = await (await startOnFlutterwave(t, flw, who, tier))();
  expect(out.status).toBe(200);
  return out;
}
