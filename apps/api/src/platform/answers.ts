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
   * Sends the remembered answer of `key` for this user when nothing changed since it was made; else
   * makes it with `produce` (checked against `schema` when given, as the route's serializer would),
   * remembers and sends it. Errors thrown by `produce` are not remembered.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    produce: () => Promise<{ value: unknown; headers?: Record<string, string> }>,
    schema?: ZodType,
  ): Promise<void>;
  /** Figures for tests and the benchmark. */
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

interface Entry {
  /** The sum of the counters it depends on, read before it was made. */
  version: number;
  /** The tables read to make it (undefined: every counter). */
  depends?: readonly string[];
  /** What the entry holds in memory: key, body and compressed copies counted as made. */
  size: number;
  prepared: PreparedBody;
  headers?: Record<string, string>;
}

export function createAnswerCache(db: Db, opts: { maxBytes?: number } = {}): AnswerCache {
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
  const deliver = (request: FastifyRequest, reply: FastifyReply, e: Entry) => {
    if (e.headers) reply.headers(e.headers);
    void sendPrepared(request, reply, e.prepared);
  };

  return {
    async send(request, reply, produce, schema) {
      const user = request.user;
      if (!user) throw new Error('answer cache used on a route without a signed-in user');
      // The route, the caller and the validated query (defaults filled in) name the answer. A route
      // without a query schema ignores its query, so junk queries must not make new entries.
      const query = request.routeOptions.schema?.querystring ? JSON.stringify(request.query ?? null) : '';
      const key = `${request.routeOptions.url}\u0000${user.id}\u0000${query}`;
      const now = await changes.snapshot();
      const hit = entries.get(key);
      if (hit && hit.version === now.of(hit.depends)) {
        hits += 1;
        // Oldest first out: a hit moves to the back.
        entries.delete(key);
        entries.set(key, hit);
        return deliver(request, reply, hit);
      }
      misses += 1;
      drop(key);
      // The tables its queries read are what it depends on; none at all (an answer made without
      // the database) depends on everything.
      const { value: made, tables } = await changes.recording(produce);
      const depends = tables.length ? tables : undefined;
      const prepared = prepare(JSON.stringify(schema ? schema.parse(made.value) : made.value));
      const size = key.length * 2 + prepared.body.length * 2 + 64 * tables.length; // (room for a compressed copy)
      const entry: Entry = { version: now.of(depends), depends, size, prepared, headers: made.headers };
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
