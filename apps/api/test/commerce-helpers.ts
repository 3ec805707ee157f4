import { Writable } from 'node:stream';
import pino from 'pino';
import { products } from '../src/db/schema.js';
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
