import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { migrate, openDatabase, rowsOf, type Database } from '../db/client.js';
import { createResponseCache, type ResponseCache } from './response-cache.js';
import { describeEachDb } from '../../test/helpers.js';

/** The response cache itself (platform/response-cache.ts, decision 1500), on a bare Fastify app. */
describeEachDb('response cache', (kind) => {
  let database: Database;
  let cache: ResponseCache;
  let made = 0;
  let clockMs = Date.parse('2026-11-27T10:00:00.000Z');
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
    await migrate(database.db);
    // Tables of the test's own, watched as the migration watches the schema's.
    for (const table of ['notes', 'lines', 'others']) {
      await database.db.execute(sql.raw(`create table ${table} (n int)`));
      await database.db.execute(sql`select cache_watch(${table}::regclass)`);
    }
    cache = createResponseCache(database.db, { maxBytes: 64 * 1024 });
    const checking = createResponseCache(database.db, { checkReads: true });
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
      const rows = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from lines`));
      return { value: { made, lines: rows[0]!.n } };
    };
    app.get('/lines', (request, reply) => cache.send(request, reply, ['lines'], counted));
    // A body that reads differently from `dueAt` on, made while the clock passes that time.
    const timed = createResponseCache(database.db, { now: () => new Date(clockMs) });
    app.get('/due', (request, reply) =>
      timed.send(
        request,
        reply,
        ['notes'],
        async () => {
          made += 1;
          const body = { made, dueAt: new Date(clockMs + 5).toISOString(), late: false };
          clockMs += 10;
          return { value: body };
        },
        undefined,
        {
          // As the job views' changesAt: the body's due time, when it is after `at`.
          changesAt: (text, at) => {
            const due = new Date((JSON.parse(text) as { dueAt: string }).dueAt);
            return due > at ? due : undefined;
          },
        },
      ),
    );
    app.get('/lines-named', (request, reply) => checking.send(request, reply, ['lines'], counted));
    app.get('/lines-unnamed', (request, reply) => checking.send(request, reply, ['others'], counted));
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

  it('sends again from memory until a write, per user', async () => {
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
    // Another table: still cached.
    await database.db.execute(sql`insert into others values (1)`);
    expect((await app.inject({ url: '/lines' })).body).toBe(first.body);
    // Its own table: made again, with the new row.
    await database.db.execute(sql`insert into lines values (1)`);
    const after = await app.inject({ url: '/lines' });
    expect(after.json().lines).toBe(first.json().lines + 1);
    // Inside a transaction, and an update (rows already there).
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update lines set n = n + 1`);
    });
    expect((await app.inject({ url: '/lines' })).json().made).toBeGreaterThan(after.json().made);
  });

  it('with checkReads, a response that reads a table it did not name fails instead of going stale', async () => {
    expect((await app.inject({ url: '/lines-named' })).statusCode).toBe(200);
    const res = await app.inject({ url: '/lines-unnamed' });
    expect(res.statusCode).toBe(500);
    expect(checkingErrors.at(-1)).toMatch(/\/lines-unnamed read lines without naming it/);
  });

  it('an entry that turns stale by the clock while it is made is not served again', async () => {
    // The body says "not late" for a due time the clock passed while the body was made.
    const first = (await app.inject({ url: '/due' })).json();
    expect(first.late).toBe(false);
    expect(Date.parse(first.dueAt)).toBeLessThan(clockMs);
    expect((await app.inject({ url: '/due' })).json().made).toBe(first.made + 1);
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

  it('a write made outside the app (a raw statement, no drizzle) retires the cached response', async () => {
    const first = await app.inject({ url: '/lines' });
    expect((await app.inject({ url: '/lines' })).body).toBe(first.body);
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`insert into ${schemaName}.lines values (7)`);
      await c.end();
    } else {
      await (database.db as unknown as { $client: { query(q: string): Promise<unknown> } }).$client.query(
        'insert into lines values (7)',
      );
    }
    expect((await app.inject({ url: '/lines' })).json().lines).toBe(first.json().lines + 1);
  });

  it.runIf(kind === 'postgres')(
    'two transactions writing the same tables in opposite orders never deadlock',
    async () => {
      const clients = [0, 1].map(() => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }));
      await Promise.all(clients.map((c) => c.connect()));
      try {
        for (let round = 0; round < 20; round++) {
          // Each writes its first table, waits until the other did too, then writes the second.
          const [a, b] = clients as [pg.Client, pg.Client];
          await a.query(`begin; insert into ${schemaName}.notes values (1)`);
          await b.query(`begin; insert into ${schemaName}.lines values (1)`);
          await a.query(`insert into ${schemaName}.lines values (2)`);
          await b.query(`insert into ${schemaName}.notes values (2)`);
          await Promise.all([a.query('commit'), b.query('commit')]);
        }
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
      const pending = rowsOf(await database.db.execute(sql`select 1 from cache_changes`));
      expect(pending).toEqual([]);
    },
  );

  it.runIf(kind === 'postgres')(
    'a read racing an uncommitted write never caches old data under the new version',
    async () => {
      const writer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await writer.connect();
      try {
        const before = (await app.inject({ url: '/lines' })).json().lines as number;
        await writer.query(`begin; insert into ${schemaName}.lines values (9)`);
        // While the write is open: the old data, cached under the old version.
        expect((await app.inject({ url: '/lines' })).json().lines).toBe(before);
        expect((await app.inject({ url: '/lines' })).json().lines).toBe(before);
        await writer.query('commit');
        expect((await app.inject({ url: '/lines' })).json().lines).toBe(before + 1);
      } finally {
        await writer.end();
      }
    },
  );
});
