import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { ANY, COUNTER_KEYS, keysOfStatement, tablesRead } from './write-effects.js';

/**
 * The change counters the read caches are checked against (docs/decisions/0701-change-counter.md,
 * 0702-counters-per-table.md).
 *
 * Each table has counters (db/write-effects.ts says which keys a write moves); a cached answer keeps
 * the sum of the counters it depends on, read *before* it was made, and is good for exactly as long as
 * that sum has not moved. The counters move after every write that committed through this process,
 * before the writer's caller sees the write done; so once a client has its answer to a write, no cache
 * answers what was there before — and a write to a table an answer does not read leaves it alone.
 *
 * - PGlite: this process is the only one that can open the data directory, so the counters are
 *   numbers in memory and reading them costs nothing.
 * - PostgreSQL: several instances share the database. Each key has a sequence (`lm_any` for `*`,
 *   `lm_c_<table>`, `lm_u_<table>` for `<table>!`) and `lm_changes` counts every write; writes call
 *   `nextval` on theirs, then on `lm_changes`, after they commit (and once inside a transaction at the
 *   first write of each key); `snapshot()` answers values read by a query that *started after the
 *   call*, shared by every caller waiting at that moment (one small query per burst of requests, not
 *   per request: `lm_changes` alone, and all the counters only when it moved).
 */
export interface Changes {
  /** The counters now (PGlite answers without waiting). */
  snapshot(): ChangeSnapshot | Promise<ChangeSnapshot>;
  /**
   * Runs `work` and answers with it the schema tables its reads named (platform/answers.ts, tests only:
   * an active AsyncLocalStorage costs every promise of the process on Node 20).
   */
  recording<T>(work: () => Promise<T>): Promise<{ value: T; tables: string[] }>;
}

export interface ChangeSnapshot {
  /**
   * One number for the keys given (`t`, `t!`) and `*`: it changes whenever one of them moved. With no
   * keys, every counter counts.
   */
  of(keys?: readonly string[]): number;
}

const registry = new WeakMap<object, Changes>();

/** The counters of a database opened by openDatabase; a database opened otherwise never caches. */
export function changesOf(db: object): Changes {
  return registry.get(db) ?? never;
}

export function registerChanges(db: object, changes: Changes) {
  registry.set(db, changes);
}

/** Every call a different number: nothing is ever answered from a cache. */
let tick = 0;
const never: Changes = {
  snapshot: () => ({ of: () => --tick }),
  recording: async (work) => ({ value: await work(), tables: [] }),
};

/** Statements that read and nothing else (a locking read changes no data either). */
const READ =
  /^\s*\(?\s*(select|show|explain|begin|start transaction|set|savepoint|release|rollback\s+(?:(?:work|transaction)\s+)?to)\b/i;
const ENDS = /^\s*(commit|end|rollback)\b/i;
const textOf = (q: unknown): string =>
  typeof q === 'string' ? q : typeof q === 'object' && q && 'text' in q ? String((q as { text: unknown }).text) : '';

/** The tables read while producing a cached answer (one set per `recording` call). */
const reads = new AsyncLocalStorage<Set<string>>();
const noteRead = (text: string) => {
  const into = reads.getStore();
  if (into) tablesRead(text, into);
};
const recording = async <T>(work: () => Promise<T>) => {
  const tables = new Set<string>();
  const outer = reads.getStore();
  try {
    return { value: await reads.run(tables, work), tables: [...tables] };
  } finally {
    // (Recordings nest: what an inner one read, the outer one read too.)
    for (const t of tables) outer?.add(t);
  }
};

function sumOf(values: ReadonlyMap<string, number>, total: number, keys?: readonly string[]): number {
  if (!keys) return total;
  let sum = values.get(ANY) ?? 0;
  for (const k of keys) if (k !== ANY) sum += values.get(k) ?? 0;
  return sum;
}

/** Wraps a PGlite instance (before drizzle gets it) so that every write moves its counters. */
export function trackPglite(client: PGlite): Changes {
  const counters = new Map<string, number>();
  let total = 0;
  let frozen: ChangeSnapshot | null = null;
  const bump = (keys: Iterable<string>) => {
    for (const k of keys) counters.set(k, (counters.get(k) ?? 0) + 1);
    total += 1;
    frozen = null;
  };
  type AnyFn = (...a: unknown[]) => Promise<unknown>;
  /** Runs a statement; a write moves its keys when it finished (committed or not: moving is harmless). */
  const tracked =
    (fn: AnyFn, pending?: Set<string>) =>
    async (...a: unknown[]): Promise<unknown> => {
      const text = textOf(a[0]);
      if (READ.test(text)) {
        noteRead(text);
        return fn(...a);
      }
      const keys = keysOfStatement(text);
      if (!keys.size) noteRead(text); // (`with … select`)
      if (pending) {
        // Inside a transaction nobody else runs (PGlite has one connection): moved once it ends.
        for (const k of keys) pending.add(k);
        return fn(...a);
      }
      try {
        return await fn(...a);
      } finally {
        if (keys.size) bump(keys);
      }
    };
  const transaction = client.transaction.bind(client) as (cb: (tx: unknown) => Promise<unknown>) => Promise<unknown>;
  Object.assign(client, {
    query: tracked(client.query.bind(client) as AnyFn),
    exec: tracked(client.exec.bind(client) as AnyFn),
    transaction: async (cb: (tx: unknown) => Promise<unknown>) => {
      const pending = new Set<string>();
      try {
        return await transaction((tx) => {
          const t = tx as { query: AnyFn; exec: AnyFn; sql: unknown };
          t.query = tracked(t.query, pending);
          t.exec = tracked(t.exec, pending);
          // (Tagged-template queries are not used by drizzle; a transaction using them moves `*`.)
          const sqlFn = t.sql as AnyFn;
          t.sql = (...a: unknown[]) => {
            pending.add(ANY);
            return sqlFn(...a);
          };
          return cb(tx);
        });
      } finally {
        if (pending.size) bump(pending);
      }
    },
  });
  return {
    snapshot() {
      if (!frozen) {
        const copy = new Map(counters);
        const at = total;
        frozen = { of: (keys) => sumOf(copy, at, keys) };
      }
      return frozen;
    },
    recording,
  };
}

type Queryable = { query: (...a: unknown[]) => Promise<unknown> };
const WRAPPED = Symbol('lm-changes');

/** The sequence behind a counter key (PostgreSQL). */
export const sequenceOf = (key: string) =>
  key === ANY ? 'lm_any' : key.endsWith('!') ? `lm_u_${key.slice(0, -1)}` : `lm_c_${key}`;
/** Moved by every write, after its keys: one cheap read tells whether any counter moved. */
const TOTAL = 'lm_changes';
const valueOf = (seq: string) => `(select case when is_called then last_value else 0 end from ${seq})::text`;

/** Creates the sequences of every counter (each instance at start; racing instances are fine). */
export async function createCounterSequences(pool: pg.Pool) {
  for (const seq of [TOTAL, ...COUNTER_KEYS.map(sequenceOf)]) {
    await pool.query(`create sequence if not exists ${seq} as bigint`).catch((err: { code?: string }) => {
      if (err.code !== '23505' && err.code !== '42P07') throw err;
    });
  }
}

/** Wraps a node-postgres pool so that every write moves its shared sequences; see Changes. */
export function trackPool(pool: pg.Pool): Changes {
  const originalQuery = pool.query.bind(pool) as Queryable['query'];
  const totalText = `select ${valueOf(TOTAL)}`;
  // The total first: a write moves it after its keys, so keys read after a total are at least as new.
  const allText = `select ${[TOTAL, ...COUNTER_KEYS.map(sequenceOf)].map(valueOf).join(', ')}`;
  let last: { total: number; snapshot: ChangeSnapshot } | null = null;
  const read = async (): Promise<ChangeSnapshot> => {
    // Most bursts find nothing written since the last full read: one value, not 34.
    if (last) {
      const res = (await originalQuery({ text: totalText, rowMode: 'array' })) as { rows: string[][] };
      if (Number(res.rows[0]?.[0] ?? 0) === last.total) return last.snapshot;
    }
    const res = (await originalQuery({ text: allText, rowMode: 'array' })) as { rows: string[][] };
    const row = res.rows[0] ?? [];
    const total = Number(row[0] ?? 0);
    const values = new Map<string, number>();
    COUNTER_KEYS.forEach((k, i) => values.set(k, Number(row[i + 1] ?? 0)));
    const snapshot: ChangeSnapshot = { of: (keys) => sumOf(values, total, keys) };
    if (!last || total >= last.total) last = { total, snapshot };
    return snapshot;
  };
  const bump = async (keys: Iterable<string>, via: Queryable = { query: originalQuery }) => {
    const list = [...keys];
    if (list.length)
      await via.query(`select ${[...list.map(sequenceOf), TOTAL].map((q) => `nextval('${q}')`).join(', ')}`);
  };

  pool.query = (async (...a: unknown[]) => {
    const text = textOf(a[0]);
    if (READ.test(text) || ENDS.test(text)) {
      noteRead(text);
      return originalQuery(...a);
    }
    const keys = keysOfStatement(text);
    if (!keys.size) noteRead(text); // (`with … select`)
    const result = await originalQuery(...a);
    await bump(keys);
    return result;
  }) as typeof pool.query;

  const BEGIN = /^\s*(begin|start transaction)\b/i;
  const wrapClient = (client: pg.PoolClient) => {
    const marked = client as pg.PoolClient & { [WRAPPED]?: true };
    if (marked[WRAPPED]) return client;
    marked[WRAPPED] = true;
    const state = { inTx: false, dirty: new Set<string>() };
    const q = client.query.bind(client) as Queryable['query'];
    client.query = ((...a: unknown[]) => {
      const text = textOf(a[0]);
      if (BEGIN.test(text)) {
        state.inTx = true;
        state.dirty = new Set();
      } else if (state.inTx && READ.test(text)) {
        noteRead(text); // (outside a transaction pool.query notes it)
      } else if (state.inTx && ENDS.test(text)) {
        const dirty = state.dirty;
        state.inTx = false;
        state.dirty = new Set();
        // On the same connection: another one from the pool might never come while they all wait here.
        if (dirty.size) return (q(...a) as Promise<unknown>).finally(() => bump(dirty, { query: q }));
      } else if (state.inTx) {
        // Moved once inside the transaction too, at the first write of each key, so a process that
        // dies between its commit and the bump after it cannot leave the other instances on the old state.
        const keys = keysOfStatement(text);
        if (!keys.size) noteRead(text);
        const fresh = [...keys].filter((k) => !state.dirty.has(k));
        if (fresh.length) {
          for (const k of fresh) state.dirty.add(k);
          return bump(fresh, { query: q }).then(() => q(...a));
        }
      }
      // (A write outside a transaction came through pool.query, which moves its keys itself.)
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
  let running: Promise<ChangeSnapshot> | null = null;
  let queued: Promise<ChangeSnapshot> | null = null;
  const snapshot = (): Promise<ChangeSnapshot> => {
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
          return snapshot();
        });
    }
    return queued;
  };
  return { snapshot, recording };
}
