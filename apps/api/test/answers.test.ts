import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { openDatabase, rowsOf, type Database } from '../src/db/client.js';
import { createAnswerCache, type AnswerCache } from '../src/platform/answers.js';
import { describeEachDb } from './helpers.js';

/** The remembered answers themselves (platform/answers.ts, decision 0701), on a bare Fastify app. */
describeEachDb('remembered answers', (kind) => {
  let database: Database;
  let cache: AnswerCache;
  let made = 0;
  const schemaName = `a_${Date.now().toString(36)}${kind === 'postgres' ? 'p' : 'l'}`;
  const app = Fastify();
  const checkingErrors: string[] = [];
  app.setErrorHandler((err, _request, reply) => {
    checkingErrors.push((err as Error).message);
    void reply.status(500).send({ message: 'error' });
  });
  app.setValidatorCompiler(validatorCompiler);
  beforeAll(async () => {
    database =
      kind === 'postgres'
        ? await openDatabase({ url: process.env.TEST_DATABASE_URL, schemaName })
        : await openDatabase({ dataDir: 'memory://' });
    await database.db.execute(sql`create table if not exists notes (n int)`);
    // Two tables by names the schema knows (so the counters place writes to them), without the rest.
    await database.db.execute(sql`create table if not exists cart_items (n int)`);
    await database.db.execute(sql`create table if not exists products (n int)`);
    cache = createAnswerCache(database.db, { maxBytes: 64 * 1024 });
    const checking = createAnswerCache(database.db, { checkReads: true });
    app.decorateRequest('user', null);
    app.addHook('preHandler', async (request) => {
      request.user = {
        id: String(request.headers['x-user'] ?? 'u1'),
        userType: 'company',
        officialEmail: 'a@example.ng',
        name: 'A',
        phoneNumber: '2348000000000',
        verified: true,
        sessionId: 's',
      };
    });
    const produce = async () => {
      made += 1;
      return { value: { made, pad: 'x'.repeat(2000) }, headers: { 'x-made': String(made) } };
    };
    app.get('/plain', (request, reply) => cache.send(request, reply, ['notes'], produce));
    app.get('/paged', { schema: { querystring: z.object({ page: z.coerce.number().default(1) }) } }, (request, reply) =>
      cache.send(request, reply, ['notes'], produce),
    );
    const counted = async () => {
      made += 1;
      const rows = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from cart_items`));
      return { value: { made, lines: rows[0]!.n } };
    };
    app.get('/lines', (request, reply) => cache.send(request, reply, ['cart_items'], counted));
    app.get('/lines-named', (request, reply) => checking.send(request, reply, ['cart_items'], counted));
    app.get('/lines-unnamed', (request, reply) => checking.send(request, reply, ['products'], counted));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schemaName} cascade`);
      await c.end();
    }
  });

  it('answers again from memory until a write, per user', async () => {
    const first = await app.inject({ url: '/plain' });
    const again = await app.inject({ url: '/plain' });
    expect(again.body).toBe(first.body);
    expect(again.headers['x-made']).toBe(first.headers['x-made']);
    const other = await app.inject({ url: '/plain', headers: { 'x-user': 'u2' } });
    expect(other.body).not.toBe(first.body);
    await database.db.execute(sql`insert into notes values (1)`);
    const after = await app.inject({ url: '/plain' });
    expect(after.body).not.toBe(first.body);
  });

  it('is retired by a write to a table it reads, and only by those', async () => {
    const first = await app.inject({ url: '/lines' });
    expect((await app.inject({ url: '/lines' })).body).toBe(first.body);
    // Another table: still remembered.
    await database.db.execute(sql`insert into products values (1)`);
    expect((await app.inject({ url: '/lines' })).body).toBe(first.body);
    // Its own table: made again, with the new row.
    await database.db.execute(sql`insert into cart_items values (1)`);
    const after = await app.inject({ url: '/lines' });
    expect(after.json().lines).toBe(first.json().lines + 1);
    // Inside a transaction, and an update (rows already there).
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update cart_items set n = n + 1`);
    });
    expect((await app.inject({ url: '/lines' })).json().made).toBeGreaterThan(after.json().made);
  });

  it('with checkReads, an answer that reads a table it did not name fails instead of going stale', async () => {
    expect((await app.inject({ url: '/lines-named' })).statusCode).toBe(200);
    const res = await app.inject({ url: '/lines-unnamed' });
    expect(res.statusCode).toBe(500);
    expect(checkingErrors.at(-1)).toMatch(/\/lines-unnamed read cart_items without naming it/);
  });

  it('a route without a query schema keeps one entry whatever junk query it gets', async () => {
    const before = cache.stats().entries;
    const base = await app.inject({ url: '/plain' });
    for (let i = 0; i < 200; i++) {
      const res = await app.inject({ url: `/plain?junk${i}=${'y'.repeat(4000)}` });
      expect(res.body).toBe(base.body);
    }
    expect(cache.stats().entries).toBeLessThanOrEqual(before + 1);
  });

  it('keeps within its memory, keys counted', async () => {
    for (let i = 1; i <= 100; i++) await app.inject({ url: `/paged?page=${i}` });
    expect(cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.stats().entries).toBeLessThan(100);
  });
});
