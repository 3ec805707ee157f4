import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { changesOf } from '../db/changes.js';
import type { Db } from '../db/client.js';
import { prepare, sendPrepared, type PreparedBody } from './prepared.js';

/**
 * Answers of the busiest signed-in reads (the cart, the company's and the lawyer's job lists, the
 * admin job lists), kept as JSON text per user and query, for exactly as long as the change counters
 * (db/changes.ts) of the tables it was read from have not moved: a committed write to one of them, on
 * any instance, retires it, so an answer never outlives the data it was made from, and a write
 * elsewhere (a cart, while job lists are read) leaves it alone. Kept as bytes, with compressed copies
 * made when first asked for (platform/prepared.ts). docs/decisions/0701-change-counter.md, 0702.
 */
export interface AnswerCache {
  /**
   * Sends the remembered answer of this route, user and query when none of the tables in `reads`
   * (the tables `produce` reads) changed since it was made; else makes it with `produce` (checked
   * against `schema` when given, as the route's serializer would), remembers and sends it. Errors
   * thrown by `produce` are not remembered. With `checkReads` (tests), a `produce` that reads a table
   * missing from `reads` fails loudly.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    reads: readonly string[],
    produce: () => Promise<{ value: unknown; headers?: Record<string, string> }>,
    schema?: ZodType,
  ): Promise<void>;
  /** Figures for the tests. */
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

interface Entry {
  /** The sum of the counters of the tables it was read from, read before it was made. */
  version: number;
  /** What the entry holds in memory: key, body and compressed copies counted as made. */
  size: number;
  prepared: PreparedBody;
  headers?: Record<string, string>;
}

export function createAnswerCache(db: Db, opts: { maxBytes?: number; checkReads?: boolean } = {}): AnswerCache {
  const changes = changesOf(db);
  const maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) {
      bytes -= e.size;
      entries.delete(key);
    }
  };
  /**
   * Runs `produce` recording the tables its queries name (an AsyncLocalStorage: tests only, it costs
   * every promise of the process something) and fails when one is not in `reads`.
   */
  const checked = async <T>(request: FastifyRequest, reads: readonly string[], produce: () => Promise<T>) => {
    const { value, tables } = await changes.recording(produce);
    const missing = tables.filter((t) => !reads.includes(t));
    if (missing.length)
      throw new Error(`${request.routeOptions.url} read ${missing.join(', ')} without naming it in its reads`);
    return value;
  };
  const deliver = (request: FastifyRequest, reply: FastifyReply, e: Entry) => {
    if (e.headers) reply.headers(e.headers);
    void sendPrepared(request, reply, e.prepared);
  };

  return {
    async send(request, reply, reads, produce, schema) {
      const user = request.user;
      if (!user) throw new Error('answer cache used on a route without a signed-in user');
      // The route, the caller and the validated query (defaults filled in) name the answer. A route
      // without a query schema ignores its query, so junk queries must not make new entries.
      const query = request.routeOptions.schema?.querystring ? JSON.stringify(request.query ?? null) : '';
      // The verification state too: a lawyer's job lists are redacted by it (decision 0860), and the
      // key keeps a redacted answer from ever being served unredacted, whatever the counters say.
      const key = `${request.routeOptions.url}\u0000${user.id}\u0000${user.verified ? 'v' : 'u'}\u0000${query}`;
      const version = (await changes.snapshot()).of(reads);
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        hits += 1;
        // Oldest first out: a hit moves to the back.
        entries.delete(key);
        entries.set(key, hit);
        return deliver(request, reply, hit);
      }
      misses += 1;
      drop(key);
      const made = opts.checkReads ? await checked(request, reads, produce) : await produce();
      const prepared = prepare(JSON.stringify(schema ? schema.parse(made.value) : made.value));
      const size = key.length * 2 + prepared.body.length * 2; // (room for a compressed copy)
      const entry: Entry = { version, size, prepared, headers: made.headers };
      if (size <= maxBytes / 8) {
        entries.set(key, entry);
        bytes += size;
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
