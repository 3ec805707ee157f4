import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The change counter the read caches are checked against (docs/decisions/0701-change-counter.md).
 *
 * A cached answer is kept with the counter read *before* it was made and is good for exactly as long
 * as the counter has not moved. The counter moves after every write that committed through this
 * process, before the writer's caller sees the write done; so once a client has its answer to a
 * write, no cache answers what was there before.
 *
 * - PGlite: this process is the only one that can open the data directory, so the counter is a
 *   number in memory and reading it costs nothing.
 * - PostgreSQL: several instances share the database. Writes bump the sequence `lm_changes` after
 *   they commit (and once inside a transaction at its first write); `version()` answers a value read
 *   by a query that *started after the call*, shared by every caller waiting at that moment (one
 *   small query per burst of requests, not per request).
 */
export interface Changes {
  version(): number | Promise<number>;
}

const registry = new WeakMap<object, Changes>();

/** The counter of a database opened by openDatabase; a database opened otherwise never caches. */
export function changesOf(db: object): Changes {
  return registry.get(db) ?? never;
}

export function registerChanges(db: object, changes: Changes) {
  registry.set(db, changes);
}

/** Every call a different number: nothing is ever answered from a cache. */
let tick = 0;
const never: Changes = { version: () => --tick };

/** Statements that read and nothing else (a locking read changes no data either). */
const READ = /^\s*\(?\s*(select|show|explain|begin|start transaction|set|savepoint|release)\b/i;
const ENDS = /^\s*(commit|end|rollback)\b/i;
const textOf = (q: unknown): string =>
  typeof q === 'string' ? q : typeof q === 'object' && q && 'text' in q ? String((q as { text: unknown }).text) : '';

/** Wraps a PGlite instance (before drizzle gets it) so that every write moves the counter. */
export function trackPglite(client: PGlite): Changes {
  let counter = 0;
  const bump = () => {
    counter += 1;
  };
  type AnyFn = (...a: unknown[]) => Promise<unknown>;
  const query = client.query.bind(client) as AnyFn;
  const exec = client.exec.bind(client) as AnyFn;
  const transaction = client.transaction.bind(client) as AnyFn;
  const wrap =
    (fn: AnyFn, isWrite: (...a: unknown[]) => boolean) =>
    async (...a: unknown[]): Promise<unknown> => {
      try {
        return await fn(...a);
      } finally {
        if (isWrite(...a)) bump();
      }
    };
  Object.assign(client, {
    query: wrap(query, (q) => !READ.test(textOf(q))),
    exec: wrap(exec, (q) => !READ.test(textOf(q))),
    // Inside a transaction nobody else runs (PGlite has one connection); moving after it ends is enough.
    transaction: wrap(transaction, () => true),
  });
  return { version: () => counter };
}

type Queryable = { query: (...a: unknown[]) => Promise<unknown> };
const WRAPPED = Symbol('lm-changes');

/** Wraps a node-postgres pool so that every write moves the shared sequence; see Changes. */
export function trackPool(pool: pg.Pool): Changes {
  let latest = 0;
  const read = async () => {
    const res = (await originalQuery('select last_value::text as v, is_called from lm_changes')) as {
      rows: Array<{ v: string; is_called: boolean }>;
    };
    const row = res.rows[0];
    const v = row?.is_called ? Number(row.v) : 0;
    if (v > latest) latest = v;
    return v;
  };
  const bump = async (via: Queryable = { query: originalQuery }) => {
    const res = (await via.query("select nextval('lm_changes')::text as v")) as { rows: Array<{ v: string }> };
    const v = Number(res.rows[0]?.v ?? 0);
    if (v > latest) latest = v;
  };
  const originalQuery = pool.query.bind(pool) as Queryable['query'];

  pool.query = (async (...a: unknown[]) => {
    const result = await originalQuery(...a);
    if (!READ.test(textOf(a[0])) && !ENDS.test(textOf(a[0]))) await bump();
    return result;
  }) as typeof pool.query;

  const BEGIN = /^\s*(begin|start transaction)\b/i;
  const wrapClient = (client: pg.PoolClient) => {
    const marked = client as pg.PoolClient & { [WRAPPED]?: true };
    if (marked[WRAPPED]) return client;
    marked[WRAPPED] = true;
    const state = { inTx: false, dirty: false };
    const q = client.query.bind(client) as Queryable['query'];
    client.query = ((...a: unknown[]) => {
      const text = textOf(a[0]);
      if (BEGIN.test(text)) {
        state.inTx = true;
        state.dirty = false;
      } else if (state.inTx && ENDS.test(text)) {
        const dirty = state.dirty;
        state.inTx = false;
        state.dirty = false;
        // On the same connection: another one from the pool might never come while they all wait here.
        if (dirty) return (q(...a) as Promise<unknown>).finally(() => bump({ query: q }));
      } else if (state.inTx && !state.dirty && !READ.test(text)) {
        // Moved once inside the transaction too, so a process that dies between its commit and the
        // bump after it cannot leave the other instances' caches on the old state.
        state.dirty = true;
        return bump({ query: q }).then(() => q(...a));
      }
      return q(...a);
    }) as typeof client.query;
    return client;
  };
  // pg's own pool.query checks a client out with a callback; drizzle's transactions with a promise.
  const connect = pool.connect.bind(pool) as (cb?: (...r: unknown[]) => void) => Promise<pg.PoolClient> | void;
  pool.connect = ((cb?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => {
    if (cb)
      return connect((err, client, done) =>
        cb(err as Error | undefined, client ? wrapClient(client as pg.PoolClient) : undefined, done),
      );
    return (connect() as Promise<pg.PoolClient>).then(wrapClient);
  }) as typeof pool.connect;

  // One read in flight; callers arriving while it runs wait for the next one (it must start after them).
  let running: Promise<number> | null = null;
  let queued: Promise<number> | null = null;
  const version = (): Promise<number> => {
    if (!running) {
      const p = read().finally(() => {
        if (running === p) running = null;
      });
      running = p;
      return p;
    }
    if (!queued) {
      const after = running;
      queued = after
        .catch(() => undefined)
        .then(() => {
          queued = null;
          return version();
        });
    }
    return queued;
  };
  return { version };
}
