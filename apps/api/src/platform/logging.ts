import pino, { type DestinationStream, type Logger } from 'pino';
import { routerPath } from './api-paths.js';

/** Query keys whose values are secrets: reset grants, codes, e-mail and "not me" link tokens, a file link's `t`. */
const SECRET_QUERY_KEYS = new Set(['token', 'resettoken', 'code', 'otp', 'signature', 't']);
/** The spec's new-password page carries the reset grant in its path: /new-password/{resetToken}/{userEmail}. */
const SECRET_PATH = /^\/new-password\/[^/]+/i;
/** The same keys written plainly anywhere in the query (`?a=1?token=…`): never logged either. */
const SECRET_QUERY_TEXT = /([?&#](?:token|resetToken|code|otp|signature|t)=)[^&#]*/gi;

/** A query key as the query parser (fast-querystring) reads it: `+` a space, percent-escapes decoded. */
function queryKey(raw: string): string {
  const key = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}

/**
 * Strips secrets carried in query strings and in the new-password page's path (a reload of that page
 * asks the server for it) before a URL is logged. Both are read as the router reads them: a pattern on
 * the raw text let `//new-password/…`, `/new-%70assword/…`, `GET http://host/new-password/… HTTP/1.1`
 * and `?%74oken=…` through with the secret. A redacted path is logged as the router read it.
 */
function redactUrl(url: string): string {
  // The router's query starts at the first `?` or `#` (find-my-way); an origin has neither.
  const cut = url.search(/[?#]/);
  const rawPath = cut < 0 ? url : url.slice(0, cut);
  const path = routerPath(rawPath);
  const logged = SECRET_PATH.test(path) ? path.replace(SECRET_PATH, '/new-password/[redacted]') : rawPath;
  if (cut < 0) return logged;
  const query = url
    .slice(cut + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && SECRET_QUERY_KEYS.has(queryKey(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${logged}${`${url[cut]}${query}`.replace(SECRET_QUERY_TEXT, '$1[redacted]')}`;
}

/** Fields of database errors that name what went wrong without the values written (PostgreSQL's
 * `detail` repeats the failing row, `where` and `internalQuery` the statement's context). */
const ERROR_FIELDS = ['code', 'statusCode', 'severity', 'table', 'column', 'constraint', 'routine'] as const;

/**
 * Logs an error without what a query carried: Drizzle's DrizzleQueryError puts the parameters in its
 * message and `params` (a failed sign-up logged the password hash), PostgreSQL's `detail` the failing row.
 * Keeps the statement text, the error codes, the stack frames and the cause chain.
 */
function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & Record<string, unknown>;
  const type = e.constructor?.name ?? e.name;
  const message = typeof e.query === 'string' && 'params' in e ? `Failed query: ${e.query}` : e.message;
  const at = e.stack?.indexOf('\n    at ') ?? -1;
  const out: Record<string, unknown> = {
    type,
    message,
    stack: `${type}: ${message}${at >= 0 ? e.stack!.slice(at) : ''}`,
  };
  for (const field of ERROR_FIELDS) if (e[field] !== undefined) out[field] = e[field];
  if (e.cause !== undefined && depth < 5) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/**
 * Structured JSON lines with ISO UTC time. Passwords, tokens, codes and card fields are redacted
 * wherever they appear in a logged object; URLs lose secret query values; errors lose query parameters.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.passwordConfirm',
          '*.token',
          '*.resetToken',
          '*.otp',
          '*.code',
          '*.cardNumber',
          '*.cvv',
          '*.pin',
          'password',
          'token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        err: (err: unknown) => serializeError(err),
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
    },
    destination,
  );
}
