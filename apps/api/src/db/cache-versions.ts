import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL } from 'drizzle-orm';

/** The database (db/client.ts's Db, named by what is used here so the two files import one way). */
type Db = { execute(query: SQL): Promise<unknown> };

/**
 * The versions every cache is checked against, kept by the database (migration 0004_cache_versions,
 * docs/decisions/1500-declared-cache-invalidation.md): `<table>` moves with any committed write to the
 * table, `<table>:changed` only when rows already there changed or went. They move inside the writing
 * transaction, so no reader sees a new version with old data, whoever wrote (this instance, another
 * one, psql). A cache entry keeps the sum of the versions it depends on, read before it was made, and
 * is good while that sum has not moved.
 */
interface Versions {
  of(names: readonly string[]): number;
}

interface CacheVersions {
  /**
   * The versions read by a query that started after this call, shared by every caller waiting at that
   * moment: one small query per burst of requests, not per request.
   */
  read(): Promise<Versions>;
}

const byDb = new WeakMap<Db, CacheVersions>();

/** One reader per database, so the catalogue, the sessions and the response cache share bursts. */
export function cacheVersionsOf(db: Db): CacheVersions {
  let found = byDb.get(db);
  if (!found) byDb.set(db, (found = createReader(db)));
  return found;
}

function createReader(db: Db): CacheVersions {
  const query = async (): Promise<Versions> => {
    const res = (await db.execute(sql`select name, version::text as version from cache_versions`)) as unknown as {
      rows: { name: string; version: string }[];
    };
    const values = new Map(res.rows.map((r) => [r.name, Number(r.version)]));
    return { of: (names) => names.reduce((sum, n) => sum + (values.get(n) ?? 0), 0) };
  };
  let running: Promise<Versions> | null = null;
  let queued: Promise<Versions> | null = null;
  const read = (): Promise<Versions> => {
    if (!running) {
      const p = query().finally(() => {
        if (running === p) running = null;
      });
      return (running = p);
    }
    // A query already running may have started before this caller's request: wait for the next one.
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return read();
      });
    return queued;
  };
  return { read };
}

/** The statements drizzle runs inside `statementsOf` (tests only: see the drizzle logger in client.ts). */
const recording = new AsyncLocalStorage<{ text: string; params: unknown[] }[]>();
export const logStatement = (text: string, params: unknown[]) => recording.getStore()?.push({ text, params });

/**
 * Runs `work` and answers the tables its statements read, as PostgreSQL plans them (`EXPLAIN`): the
 * check that a cached route names every table it reads, without reading SQL text.
 */
export async function tablesReadBy<T>(db: Db, work: () => Promise<T>): Promise<{ value: T; tables: string[] }> {
  const statements: { text: string; params: unknown[] }[] = [];
  const value = await recording.run(statements, work);
  const client = (db as unknown as { $client: { query(t: string, p: unknown[]): Promise<{ rows: unknown[] }> } })
    .$client;
  const tables = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const rel = (node as Record<string, unknown>)['Relation Name'];
    if (typeof rel === 'string') tables.add(rel);
    for (const child of Object.values(node)) walk(child);
  };
  for (const s of statements) walk((await client.query(`explain (format json) ${s.text}`, s.params)).rows);
  return { value, tables: [...tables] };
}
