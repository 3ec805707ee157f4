import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** The Content-Security-Policy and helmet's other defaults, as the web app and the API docs need them. */
const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://checkout.flutterwave.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'https://checkout.flutterwave.com', 'https://*.flutterwave.com'],
      frameAncestors: ["'none'"],
      objectSrc: ["'self'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  hsts: false,
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets, worked out once: helmet itself is run on a stand-in response and what it
 * set is kept. Every answer then gets the same object (the Fastify plugin ran helmet's middleware
 * chain, directives parsed again, on every request: 13 % of the CPU of a cached catalogue read).
 */
export function securityHeaders(options = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * The headers of the API's own answers (JSON, and the few files it serves itself): they are never shown
 * as a page, so helmet's document headers (COOP, Origin-Agent-Cluster, DNS prefetch, X-XSS-Protection,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies) do nothing there, and a policy that allows
 * nothing replaces the page CSP (OWASP REST Security cheat sheet). Measured on a cached product
 * answer (CPU of the API process over 200,000 requests): 34–38 µs per request with helmet's set,
 * 29–34 µs with this one, 28 µs without any. docs/decisions/0703-api-security-headers.md.
 * X-Frame-Options stays SAMEORIGIN, as in the page set: the remuneration order PDF is shown framed by our
 * own page (its route allows that in its own CSP).
 * Cache-Control `private, no-store` unless the route says otherwise (the catalogue, the showcase, public
 * files): most answers are one signed-in user's data, which no cache on the way may keep or hand on.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'private, no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
};
