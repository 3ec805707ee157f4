import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random token for e-mailed links and grants. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** A six-digit code, uniformly drawn. */
export const randomCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Codes are few (a million); an HMAC with the server secret keeps a leaked table from revealing them. */
export const tokenHasher = (secret: string) => (token: string) =>
  createHmac('sha256', secret).update(token).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
