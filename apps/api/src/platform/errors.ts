import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '@legalmarket/contracts';

/** A failure the client can act on: answered as `{ status: "fail", message }` with `statusCode`. */
export class AppError extends Error {
  constructor(
    public statusCode: number,
    message: string,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
  /** Fields answered beside `message`, e.g. `file`: which of the files sent the message is about. */
  details?: Record<string, string>;
}

export const badRequest = (m: string) => new AppError(400, m);
export const unauthorized = (m: string = messages.notSignedIn) => new AppError(401, m);
export const forbidden = (m: string = messages.forbidden) => new AppError(403, m);
export const notFound = (m: string = messages.notFound) => new AppError(404, m);
export const conflict = (m: string) => new AppError(409, m);
export const tooMany = (retryAfterSeconds: number, m: string = messages.tooManyAttempts) =>
  new AppError(429, m, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

interface Issue {
  path: string;
  message: string;
}

const SPEC_TEXTS = new Set<string>(Object.values(messages));

/** Keeps the spec's own texts and messages that already name their field; otherwise prefixes the field. */
function describe(issue: { instancePath?: string; message?: string }, where: string): Issue {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  // A body that is no object (a list, or JSON text sent as text/plain) names no field: say what to send
  // rather than zod's "Invalid input: expected object, received string" (decision 2234).
  if (!path && where === 'body' && /expected object/.test(issue.message ?? ''))
    return { path: where, message: messages.bodyNotObject };
  const message = issue.message ?? 'is invalid';
  const field = path
    .split('.')
    .filter((p) => !/^\d+$/.test(p))
    .pop();
  const named =
    !field ||
    SPEC_TEXTS.has(message) ||
    /^Please /.test(message) ||
    // "Product name must..." names productName: compared without spaces and case.
    message.toLowerCase().replace(/\s+/g, '').includes(field.toLowerCase());
  return { path: path || where, message: named ? message : `${field}: ${message}` };
}

/** The first of `codes` PostgreSQL put on the error, or on the causes Drizzle wraps it in; else null. */
function postgresCode(err: unknown, codes: readonly string[]): string | null {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (typeof e.code === 'string' && codes.includes(e.code)) return e.code;
  return null;
}
/** "Invalid byte sequence" (a NUL in text) and "untranslatable character" (\u0000 in jsonb). */
const UNSTORABLE_TEXT = ['22021', '22P05'];
/** A write that lost a race with another one: a unique index, a serialisation failure, a deadlock. */
const LOST_RACE = ['23505', '40001', '40P01'];

/**
 * The database went away or stopped the statement, not the request's fault: the connection lost
 * (class 08, a backend ended by a restart or failover 57P01/57P02, not accepting connections 57P03,
 * too many connections 53300) or the statement cancelled (statement_timeout 57014, lock_timeout 55P03).
 * A statement failing inside the transaction rolled it back; a connection lost during COMMIT may have
 * kept the write, so a retry relies on the action's own idempotency (decision 2342).
 */
const DATABASE_UNAVAILABLE = [
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '55P03',
];
/**
 * The database server's socket refused, reset or unreachable (server down, network cut): Node's codes.
 * Another service's socket failing the same way is as retryable, so it is not told apart.
 */
const SOCKET_FAILED = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'];
/** node-postgres' own words when the socket closed or no connection came in time (they carry no code). */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

function databaseUnavailable(err: unknown): boolean {
  if (postgresCode(err, DATABASE_UNAVAILABLE)) return true;
  // A client aborting mid-body is Node's Error('aborted') with ECONNRESET, marked 400 by Fastify: the
  // client's socket, not the database's, so its 4xx stands.
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  const clientError = typeof status === 'number' && status >= 400 && status < 500;
  if (!clientError && postgresCode(err, SOCKET_FAILED)) return true;
  for (
    let e = err as { message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  )
    if (typeof e.message === 'string' && CONNECTION_LOST.test(e.message)) return true;
  return false;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const issues = err.validation.map((i) => describe(i, where));
      return reply.status(400).send({ status: 'fail', message: issues[0]?.message ?? 'Invalid input', issues });
    }
    if (err instanceof AppError) {
      // Our side failed (a store, a provider): the cause is for the operator, the message for the client.
      if (err.statusCode >= 500 && err.cause) request.log.error({ err: err.cause, reqId: request.id }, err.message);
      return reply
        .status(err.statusCode)
        .headers(err.headers)
        .send({ ...err.details, status: 'fail', message: err.message });
    }
    if (postgresCode(err, UNSTORABLE_TEXT)) {
      // Belt and braces behind the input check (refuseUnsafeText): text PostgreSQL cannot store is the
      // client's, not a fault of ours.
      return reply
        .status(400)
        .send({ status: 'fail', message: 'The request contains a character that is not allowed' });
    }
    const raced = postgresCode(err, LOST_RACE);
    if (raced) {
      // The rules are checked under locks; what still reaches a unique index is a request that raced
      // another one doing the same thing. Nothing was saved by this one; the other's result stands.
      request.log.warn({ reqId: request.id, code: raced }, 'lost race');
      return reply.status(409).send({
        status: 'fail',
        message: 'This was changed by another request at the same moment. Please reload and try again.',
      });
    }
    if (databaseUnavailable(err)) {
      // A client (and the web app) can retry a 503 after Retry-After; a 500 reads as final.
      request.log.error({ err, reqId: request.id }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({
        status: 'error',
        message: 'The service is briefly unavailable. Please try again in a few seconds.',
      });
    }
    const code = err.statusCode ?? 500;
    if (code >= 400 && code < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type...).
      const message =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 413
          ? 'The request is too large'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 415
            ? // A route with a body schema reads JSON only: a form (multipart or urlencoded) is told so
              // (decision 2234). The multipart routes read their form themselves and have none.
              request.routeOptions.schema?.body
              ? messages.bodyNotObject
              : 'Unsupported content type'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is empty'
              : code === 400
                ? `Invalid request: ${err.message.replace(/\s+at .*/s, '').slice(0, 200)}`
                : err.message;
      return reply.status(code).send({ status: 'fail', message });
    }
    request.log.error({ err, reqId: request.id }, 'unhandled error');
    return reply
      .status(500)
      .send({ status: 'error', message: `Something went wrong on our side (reference ${request.id}).` });
  });
}
