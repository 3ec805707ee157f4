import pino, { type DestinationStream, type Logger } from 'pino';

const SECRET_QUERY = /([?&](?:token|resetToken|code|otp|signature|t)=)[^&#]*/gi;
/** The spec's new-password page carries the reset grant in its path: /new-password/{resetToken}/{userEmail}. */
const SECRET_PATH = /^(\/new-password\/)[^/?#]+/i;

/**
 * Strips secrets carried in query strings (reset grants, codes, a document link's `t`) and in the
 * new-password page's path (a reload of that page asks the server for it) before a URL is logged.
 */
const redactUrl = (url: string) => url.replace(SECRET_PATH, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');

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
