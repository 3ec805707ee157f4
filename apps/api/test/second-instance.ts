import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { openDatabase, rowsOf, type Database } from '../src/db/client.js';
import { appDeps } from '../src/runtime.js';
import type { DbKind, TestApp } from './helpers.js';

/**
 * A second app standing for another instance behind the load balancer, on the test app's database: on
 * PostgreSQL with its own connection pool on the same schema, as another process would have; PGlite cannot
 * be opened twice, so there it shares the database (`db` is then null). Close it before the test app.
 */
export async function secondInstance(
  t: TestApp,
  kind: DbKind,
): Promise<{ app: FastifyInstance; db: Database | null; close(): Promise<void> }> {
  let otherDb: Database | null = null;
  if (kind === 'postgres') {
    const [{ schema }] = rowsOf<{ schema: string }>(
      await t.rt.database.db.execute(sql`select current_schema() as schema`),
    );
    otherDb = await openDatabase({ url: t.config.DATABASE_URL, schemaName: schema });
  }
  // The test app's clock, storage, rate limits, mail and signing secret; only the pool is its own.
  const app = await buildApp({ ...appDeps(t.rt), db: otherDb?.db ?? t.rt.database.db, logger: false, webDist: null });
  await app.ready();
  const close = async () => {
    await app.close();
    await otherDb?.close();
  };
  return { app, db: otherDb, close };
}
