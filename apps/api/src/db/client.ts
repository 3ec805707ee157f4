import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';
import { logStatement } from './cache-versions.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

interface OpenOptions {
  /** postgres://… — when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests use one each); created when missing. */
  schemaName?: string;
  poolSize?: number;
  /** Milliseconds to wait for a new connection (default CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

/**
 * Without a bound, node-postgres waits for the OS to give up on a blackholed server (about two minutes)
 * and every request hangs that long; after it the request fails as database unavailable (503).
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/** The pool's settings for a PostgreSQL server (exported for the test of its bounds). */
export function poolConfig(opts: OpenOptions & { url: string }): pg.PoolConfig {
  return {
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    options: opts.schemaName ? `-c search_path=${opts.schemaName}` : undefined,
  };
}

/** Hands statements to the tests' check of what a cached route reads (db/cache-versions.ts). */
const logger = { logQuery: logStatement };

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const schemaName = opts.schemaName;
    if (schemaName && !/^[a-z_][a-z0-9_]*$/.test(schemaName)) throw new Error('bad schema name');
    const pool = new pg.Pool(poolConfig({ ...opts, url: opts.url }));
    // A broken idle connection must not take the process down.
    pool.on('error', () => undefined);
    // Nor one in use: pg-pool listens only while a client is idle, so a backend ended mid-request
    // (restart, failover, pg_terminate_backend) emitted an unheard 'error' and killed the process.
    // The request's query fails on its own (answered 503) and the pool drops the dead client.
    pool.on('connect', (client) => client.on('error', () => undefined));
    if (schemaName) await pool.query(`create schema if not exists ${schemaName}`);
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const client = new PGlite(opts.dataDir ?? 'memory://');
  await client.waitReady;
  const db = drizzlePglite(client, { schema, logger }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}

/** The rows of a raw `execute` (node-postgres and PGlite both answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the SQL files drizzle-kit generated, in order, once each, under an advisory lock so
 * several instances starting together migrate once. Schema-qualified names are stripped so the
 * same files work in any schema (tests use one schema each on a shared server).
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(774411)`);
    await tx.execute(
      sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = rowsOf<{ name: string }>(await tx.execute(sql`select name from schema_migrations`));
    const doneNames = new Set(done.map((r) => r.name));
    for (const file of files) {
      if (doneNames.has(file)) continue;
      const text = (await readFile(path.join(MIGRATIONS_DIR, file), 'utf8')).replaceAll('"public".', '');
      for (const statement of text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into schema_migrations (name) values (${file})`);
      applied.push(file);
    }
  });
  return applied;
}
