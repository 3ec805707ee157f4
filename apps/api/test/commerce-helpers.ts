import { Writable } from 'node:stream';
import pino from 'pino';
import { expect } from 'vitest';
import { products, subscriptions } from '../src/db/schema.js';
import { createTestApp, type DbKind, type TestApp } from './helpers.js';

/** The sandbox's card that pays (Flutterwave's test card: PIN 3310, OTP 12345). */
export const SUCCESS_CARD = { paymentType: 'card', cardNumber: '5531 8866 5214 2950', pin: '3310', otp: '12345' };

/** Inserts a live catalogue product (price in naira, stored as kobo) and answers its id. */
export async function insertProduct(t: TestApp, name: string, priceNaira: number) {
  const [row] = await t.rt.database.db
    .insert(products)
    .values({
      productName: name,
      productPrice: Math.round(priceNaira * 100),
      productDescription: `${name}: drafted and reviewed by a Nigerian lawyer.`,
      productImage: `/uploads/${'a'.repeat(32)}.png`,
    })
    .returning({ id: products.id });
  return row.id;
}

/** The app to send requests to, and who sends them: a login as signupAndLogin makes it. */
type Sender = Pick<TestApp, 'app'>;
type Holder = { headers: Record<string, string> };

/** Pays a started checkout through the sandbox with SUCCESS_CARD and verifies it, as the checkout page does. */
export async function paySandbox(t: Sender, who: Holder, reference: string, amount: number) {
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  const charged = await post('/api/checkout/sandbox/charge', { reference, amount, currency: 'NGN', ...SUCCESS_CARD });
  const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
  expect((await post('/api/checkout/verify', { reference, transactionId })).statusCode).toBe(200);
}

/** Buys one of the product as `buyer`: put in the cart, checked out and paid through the sandbox. */
export async function buyOne(t: Sender, buyer: Holder, productId: string) {
  const cart = await t.app.inject({
    method: 'POST',
    url: '/api/cart',
    headers: buyer.headers,
    payload: { productId, quantity: 1 },
  });
  expect(cart.statusCode).toBeLessThan(300);
  const started = await t.app.inject({ method: 'POST', url: '/api/checkout', headers: buyer.headers });
  expect(started.statusCode, started.body).toBe(200);
  const { reference, amount, orderId } = started.json().data as { reference: string; amount: number; orderId: string };
  await paySandbox(t, buyer, reference, amount);
  return { reference, amount, orderId };
}

/** Security events written through shared.securityLog by an app built with `captureSecurityLog`. */
export interface SecurityEvents {
  events: Array<Record<string, unknown> & { security: string }>;
  of(name: string): Array<Record<string, unknown>>;
}

/**
 * createTestApp with a logger that keeps security events in memory, so tests can prove that a
 * refused payment was logged.
 */
export async function createLoggedTestApp(
  kind: DbKind,
  overrides: Record<string, string> = {},
): Promise<TestApp & { security: SecurityEvents }> {
  const events: SecurityEvents['events'] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line.trim()) continue;
        try {
          const o = JSON.parse(line) as Record<string, unknown>;
          if (typeof o.security === 'string') events.push(o as SecurityEvents['events'][number]);
        } catch {
          /* not JSON */
        }
      }
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  // A fixed start: cart tests move this clock between adds so line order is stable.
  const t = await createTestApp(kind, overrides, { logger, clockStart: new Date('2026-11-21T09:00:00Z') });
  return { ...t, security: { events, of: (name) => events.filter((e) => e.security === name) } };
}

/**
 * A company's Silver plan row written straight to the table (the provider's flow is not what is
 * tested): a month ending in 30 days, its card token `CARD-TOKEN-OF-THE-COMPANY`; `values` override.
 */
export async function insertPlan(
  t: TestApp,
  company: { id: string; email: string },
  values: Partial<typeof subscriptions.$inferInsert> = {},
) {
  const now = t.clock.now();
  const zero = { review: 0, draft: 0, opinion: 0, policy: 0 };
  const [plan] = await t.rt.database.db
    .insert(subscriptions)
    .values({
      companyId: company.id,
      tier: 'silver',
      status: 'active',
      provider: 'sandbox',
      customerEmail: company.email,
      cardToken: 'CARD-TOKEN-OF-THE-COMPANY',
      periodStart: now,
      periodEnd: new Date(now.getTime() + 30 * 86_400_000),
      credits: { review: 2, draft: 3, opinion: 1, policy: 1 },
      creditsUsed: zero,
      creditValue: 1_142_857,
      ...values,
    })
    .returning();
  return plan;
}
