import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { openDatabase, rowsOf, type Database } from '../src/db/client.js';
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
  const app = await buildApp({
    config: t.config,
    db: otherDb?.db ?? t.rt.database.db,
    clock: t.clock,
    storage: t.rt.storage,
    rateLimits: t.rt.rateLimits,
    mail: t.rt.mail,
    secret: t.rt.secret,
    logger: false,
    webDist: null,
  });
  await app.ready();
  return {
    app,
    db: otherDb,
    async close() {
      await app.close();
      await otherDb?.close();
    },
  };
}
