import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/client.js';
import { openRuntime } from '../../src/runtime.js';
import type { TestApp } from '../helpers.js';

/**
 * A second API instance on the same PostgreSQL schema as `t` (same config, same signing secret): what
 * a load balancer's second backend is. Only for PostgreSQL; PGlite has one writer.
 */
export async function secondInstance(t: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  if (!t.config.DATABASE_URL) throw new Error('a second instance needs PostgreSQL');
  const [{ schema }] = rowsOf<{ schema: string }>(
    await t.rt.database.db.execute(sql`select current_schema() as schema`),
  );
  const rt = await openRuntime(t.config, { clock: t.clock, schemaName: schema });
  const app = await buildApp({
    config: t.config,
    db: rt.database.db,
    clock: t.clock,
    storage: t.rt.storage,
    rateLimits: rt.rateLimits,
    mail: rt.mail,
    secret: t.rt.secret,
    logger: false,
    webDist: null,
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await rt.close();
    },
  };
}

/** Waits until `probe` answers the same value for `quietMs` (background work has settled). */
export async function settled<T>(probe: () => T | Promise<T>, quietMs = 300, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  let last = JSON.stringify(await probe());
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    const now = JSON.stringify(await probe());
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
  throw new Error('background work did not settle');
}

/**
 * Waits until `done` holds: what a webhook does after its answer. `settled` alone returned as soon as
 * nothing had moved for its quiet time, before a handler slowed by a busy machine had moved anything.
 */
export async function until(done: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() >= end) throw new Error('background work did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `tasks` with at most `width` in flight, keeping their order in the answer. */
export async function inBatches<T>(tasks: Array<() => Promise<T>>, width = 50): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]();
      }
    }),
  );
  return out;
}
