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

/**
 * A uuid (RFC 9562 version 8) made from SHA-256 of `text`: the id of what a client key asks for, one per
 * owner and key, never the key itself, so no one chooses a stored id or meets another owner's.
 */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
