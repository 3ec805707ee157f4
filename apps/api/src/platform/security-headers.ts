import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** The Content-Security-Policy and helmet's other defaults, as the web app and the API docs need them. */
export const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
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
