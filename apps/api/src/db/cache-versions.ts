import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite } from '@electric-sql/pglite';
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
   * Versions that include every write committed before this call: on a server, read by a query that
   * started after it (one per burst of callers); on the embedded database, kept from its notices.
   */
  read(): Promise<Versions>;
  /** The same, read once for `request` and shared by every cache it passes (its session, its response). */
  readFor(request: object): Promise<Versions>;
}

const byDb = new WeakMap<Db, CacheVersions>();

/** One reader per database, so the catalogue, the sessions and the response cache share bursts. */
export function cacheVersionsOf(db: Db): CacheVersions {
  let found = byDb.get(db);
  if (!found) {
    const client = (db as { $client?: unknown }).$client;
    const read = client instanceof PGlite ? createListener(db, client) : createReader(db);
    const perRequest = new WeakMap<object, Promise<Versions>>();
    found = {
      read,
      readFor(request) {
        let versions = perRequest.get(request);
        if (!versions) perRequest.set(request, (versions = read()));
        return versions;
      },
    };
    byDb.set(db, found);
  }
  return found;
}

async function queryVersions(db: Db): Promise<Map<string, number>> {
  const res = (await db.execute(sql`select name, version::text as version from cache_versions`)) as unknown as {
    rows: { name: string; version: string }[];
  };
  return new Map(res.rows.map((r) => [r.name, Number(r.version)]));
}

const versionsOf = (values: Map<string, number>): Versions => ({
  of: (names) => names.reduce((sum, n) => sum + (values.get(n) ?? 0), 0),
});

/**
 * A server's database is shared with other instances and psql, so its versions are read: one query per
 * burst of callers, started after each of them arrived.
 */
function createReader(db: Db): () => Promise<Versions> {
  let running: Promise<Versions> | null = null;
  let queued: Promise<Versions> | null = null;
  const read = (): Promise<Versions> => {
    if (!running) {
      const p = queryVersions(db)
        .then(versionsOf)
        .finally(() => {
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
  return read;
}

/**
 * The embedded database lives in this process, and every write to it goes through this client: it
 * sends each moved version as a notice (migration 0012) while the writing statement's result is read,
 * so the versions are known without a query, and a write is seen by the very next read.
 */
function createListener(db: Db, client: PGlite): () => Promise<Versions> {
  // Replaced, never changed, so a Versions already handed out keeps the values it was read with.
  let values = new Map<string, number>();
  let current: Versions | null = null;
  const merge = (name: string, version: number) => {
    if (version > (values.get(name) ?? 0)) values = new Map(values).set(name, version);
  };
  const ready = (async () => {
    await client.exec(`set legalmarket.cache_notify = 'on'`);
    await client.listen('cache_versions', (payload) => {
      const [name, version] = payload.split(' ');
      merge(name, Number(version));
      if (current) current = versionsOf(values);
    });
    for (const [name, version] of await queryVersions(db)) merge(name, version);
    current = versionsOf(values);
  })();
  return () => (current ? Promise.resolve(current) : ready.then(() => current!));
}

/** The statements drizzle runs inside `tablesReadBy` (tests only: see the drizzle logger in client.ts). */
const recording = new AsyncLocalStorage<{ text: string; params: unknown[] }[]>();
export const logStatement = (text: string, params: unknown[]) => recording.getStore()?.push({ text, params });

/**
 * Runs `work` and answers the tables its statements read, as PostgreSQL plans them (`EXPLAIN`): the
 * check that a cached route names every table it reads, without reading SQL text.
 */
export async function tablesReadBy<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ value: T; tables: string[]; statements: number }> {
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
  return { value, tables: [...tables], statements: statements.length };
}
