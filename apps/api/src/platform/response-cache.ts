import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { ZodType } from 'zod';
import { cacheVersionsOf, tablesReadBy } from '../db/cache-versions.js';
import type { Db } from '../db/client.js';

/**
 * JSON made once and sent many times: the text, and brotli/gzip copies made the first time a client
 * asks for one (the catalogue, cached responses). `effort` 'max' for what is made a few times a day.
 */
export class PreparedBody {
  private readonly copies: { br?: Buffer; gzip?: Buffer; identity?: Buffer } = {};
  constructor(
    readonly body: string,
    private readonly effort: 'max' | 'fast' = 'fast',
  ) {}
  /** The text as UTF-8 bytes, made once: a string is encoded again on every write to the socket. */
  get bytes(): Buffer {
    return (this.copies.identity ??= Buffer.from(this.body));
  }
  encoded(encoding: 'br' | 'gzip'): Buffer {
    const max = this.effort === 'max';
    return (this.copies[encoding] ??=
      encoding === 'br'
        ? brotliCompressSync(this.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: max ? 9 : 4 } })
        : gzipSync(this.body, { level: max ? 9 : 6 }));
  }
}

/** Sends prepared JSON, compressed as the client accepts (from 1 KB). */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, prepared: PreparedBody) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const accepts = request.headers['accept-encoding'];
  if (accepts && prepared.body.length >= 1024) {
    for (const encoding of ['br', 'gzip'] as const) {
      if (acceptsEncoding(accepts, encoding))
        return reply.header('content-encoding', encoding).send(prepared.encoded(encoding));
    }
  }
  return reply.send(prepared.bytes);
}

/** Sends JSON text made elsewhere (the database) as it is: the compress plugin still encodes it. */
export function sendJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Whether an Accept-Encoding header allows this coding (`;q=0` refuses it). */
function acceptsEncoding(header: string, encoding: string) {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== encoding && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * Responses of the busiest signed-in reads (cart, job lists, admin lists) per route, user and query,
 * good while the versions (db/cache-versions.ts) of the tables they read have not moved. A miss costs
 * the response's JSON text and a map insert; copies are compressed only when a client asks for them.
 */
export interface ResponseCache {
  /**
   * Sends the cached response of this route, user and query when none of `reads` (the tables
   * `produce` reads, or `<table>:changed` for one whose new rows cannot change it) changed since it was made; else makes it with `produce` (checked against
   * `schema` when given, as the route's serializer would), caches and sends it. Errors are not cached.
   * With `checkReads` (tests), a `produce` that reads a table missing from `reads` fails loudly.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    reads: readonly string[],
    produce: () => Promise<Produced>,
    schema?: ZodType,
    options?: SendOptions,
  ): Promise<void>;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/**
 * A response to cache: a value to serialise, or `json` text the database built already (then `schema`
 * is checked only when reads are checked, in tests: the text skips the parse and stringify a value needs).
 */
type Produced = ({ value: unknown } | { json: string }) & {
  headers?: Record<string, string>;
  /** Good only before this time, whatever the body shows (an order decided by the clock). */
  until?: Date;
};

export interface SendOptions {
  /**
   * For a response that changes with time alone (a job turns `late` at its due time): the first time,
   * after `now` (when the response began to be made), at which this body would read differently. The
   * entry is good until then.
   */
  changesAt?: (body: string, now: Date) => Date | undefined;
}

interface Entry {
  /** The sum of the versions of `reads`, read before the response was made. */
  version: number;
  /** Key and text, with room counted for its bytes and one compressed copy. */
  size: number;
  prepared: PreparedBody;
  headers?: Record<string, string>;
  /** Good before this time (ms) only (SendOptions.changesAt). */
  until?: number;
}

export function createResponseCache(
  db: Db,
  opts: { maxBytes?: number; checkReads?: boolean; now?: () => Date } = {},
): ResponseCache {
  const now = opts.now ?? (() => new Date());
  const versions = cacheVersionsOf(db);
  const maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  let [bytes, hits, misses] = [0, 0, 0];

  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) {
      bytes -= e.size;
      entries.delete(key);
    }
  };
  const checked = async <T>(request: FastifyRequest, reads: readonly string[], produce: () => Promise<T>) => {
    const { value, tables } = await tablesReadBy(db, produce);
    // `<table>:changed` names a table whose new rows cannot change the response (db/cache-versions.ts).
    // `<table>@<share>` names the rows of one share of its readers (migration 0037).
    const missing = tables.filter(
      (t) => !reads.includes(t) && !reads.includes(`${t}:changed`) && !reads.some((r) => r.startsWith(`${t}@`)),
    );
    if (missing.length)
      throw new Error(`${request.routeOptions.url} read ${missing.join(', ')} without naming it in its reads`);
    return value;
  };
  const deliver = (request: FastifyRequest, reply: FastifyReply, e: Entry) => {
    if (e.headers) reply.headers(e.headers);
    void sendPrepared(request, reply, e.prepared);
  };

  return {
    async send(request, reply, reads, produce, schema, options) {
      const user = request.user;
      if (!user) throw new Error('response cache used on a route without a signed-in user');
      // A route without a query schema ignores its query, so junk queries must not make entries. The
      // verification state is in the key: a lawyer's job lists are redacted by it (decision 0860).
      const query = request.routeOptions.schema?.querystring ? JSON.stringify(request.query ?? null) : '';
      const params = request.routeOptions.schema?.params ? JSON.stringify(request.params ?? null) : '';
      const key = `${request.routeOptions.url}\u0000${user.id}\u0000${user.verified ? 'v' : 'u'}\u0000${query}\u0000${params}`;
      const version = (await versions.readFor(request)).of(reads);
      const hit = entries.get(key);
      if (hit && hit.version === version && (hit.until === undefined || now().getTime() < hit.until)) {
        hits += 1;
        entries.delete(key); // (oldest first out: a hit moves to the back)
        entries.set(key, hit);
        return deliver(request, reply, hit);
      }
      misses += 1;
      drop(key);
      // Before the response is made: a due time passed while it was made still ends the entry at once.
      const producedAt = now();
      const made = opts.checkReads ? await checked(request, reads, produce) : await produce();
      let body: string;
      if ('json' in made) {
        if (opts.checkReads && schema) schema.parse(JSON.parse(made.json));
        body = made.json;
      } else body = JSON.stringify(schema ? schema.parse(made.value) : made.value);
      const prepared = new PreparedBody(body);
      const entry: Entry = { version, size: (key.length + prepared.body.length) * 3, prepared, headers: made.headers };
      const ends = [options?.changesAt?.(body, producedAt), made.until].filter((d) => d !== undefined);
      if (ends.length) entry.until = Math.min(...ends.map((d) => d.getTime()));
      if (entry.size <= maxBytes / 8) {
        entries.set(key, entry);
        bytes += entry.size;
        for (const k of entries.keys()) {
          if (bytes <= maxBytes) break;
          drop(k);
        }
      }
      return deliver(request, reply, entry);
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
