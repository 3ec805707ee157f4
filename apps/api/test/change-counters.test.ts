import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesOf } from '../src/db/changes.js';
import { rowsOf } from '../src/db/client.js';
import { cartItems, jobs, products, sessions, users } from '../src/db/schema.js';
import { ANY, KNOWN_TABLES, TRIGGER_WRITES, keysOfStatement, tablesRead } from '../src/db/write-effects.js';
import { insertJob, insertProduct } from './admin-fixtures.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from './helpers.js';

/** Decision 0702: which counters a statement moves, and that the app's own writes are all understood. */
describe('change counters: what a statement moves', () => {
  // Drizzle's own SQL for the statements the services build (no database needed to print them).
  const db = drizzle.mock();
  const keys = (q: { toSQL(): { sql: string } }) => [...keysOfStatement(q.toSQL().sql)].sort();
  const id = '00000000-0000-0000-0000-000000000000';

  it('an insert moves its table; an upsert, update or delete also the table’s existing rows', () => {
    expect(
      keys(
        db.insert(products).values({ productName: 'a', productPrice: 1, productDescription: 'd', productImage: 'i' }),
      ),
    ).toEqual(['products']);
    const upsert = db
      .insert(cartItems)
      .values({ companyId: id, productId: id, quantity: 1 })
      .onConflictDoUpdate({ target: [cartItems.companyId, cartItems.productId], set: { quantity: 2 } });
    // (`do update set` names no table called "set".)
    expect(keys(upsert)).toEqual(['cart_items', 'cart_items!']);
    expect(keys(db.update(cartItems).set({ quantity: 3 }).where(eq(cartItems.companyId, id)))).toEqual([
      'cart_items',
      'cart_items!',
    ]);
    expect(keys(db.delete(cartItems).where(and(eq(cartItems.companyId, id), eq(cartItems.productId, id))))).toEqual([
      'cart_items',
      'cart_items!',
    ]);
  });

  it('follows foreign keys and triggers: what the database changes behind a write moves too', () => {
    const removed = keys(db.delete(users).where(eq(users.id, id)));
    for (const child of ['sessions!', 'cart_items!', 'job_applications!', 'reviews!', 'one_time_tokens!', 'uploads!'])
      expect(removed).toContain(child);
    // A new user changes no other table.
    expect(
      keys(
        db
          .insert(users)
          .values({ userType: 'company', officialEmail: 'a@b.ng', name: 'A', passwordHash: 'x', phoneNumber: '1' }),
      ),
    ).toEqual(['users']);
    // Every write to jobs keeps job_counts (trigger of migration 0001).
    expect(keys(db.update(jobs).set({ detail: 'x' }).where(eq(jobs.id, id)))).toEqual(
      ['job_counts', 'job_counts!', 'jobs', 'jobs!'].sort(),
    );
    expect(keys(db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, id)))).toEqual([
      'sessions',
      'sessions!',
    ]);
  });

  it('moves `*` for what it cannot place, nothing for a read that starts with `with`', () => {
    expect([...keysOfStatement('create table notes (n int)')]).toEqual([ANY]);
    expect([...keysOfStatement('insert into notes values (1)')]).toEqual([ANY]);
    expect([...keysOfStatement('insert into "public"."products" default values')]).toEqual(['products']);
    expect([...keysOfStatement('TRUNCATE TABLE cart_items')].sort()).toEqual(['cart_items', 'cart_items!']);
    expect([...keysOfStatement('with x as (select 1) select * from x')]).toEqual([]);
    expect(
      [...keysOfStatement('with gone as (delete from "reviews" returning 1) select count(*) from gone')].sort(),
    ).toEqual(['reviews', 'reviews!']);
    expect([...keysOfStatement('do $$ begin perform 1; end $$')]).toEqual([ANY]);
  });

  it('names the schema tables a read reads, joins and subqueries included', () => {
    const q = db
      .select({
        id: jobs.id,
        n: sql`(select count(*) from "job_applications" where "job_applications"."job_id" = ${jobs.id})`,
      })
      .from(jobs)
      .innerJoin(users, eq(users.id, jobs.companyId))
      .leftJoin(products, eq(products.id, jobs.productId));
    const into = new Set<string>();
    tablesRead(q.toSQL().sql, into);
    expect([...into].sort()).toEqual(['job_applications', 'jobs', 'products', 'users']);
    const none = new Set<string>();
    tablesRead('select extract(epoch from now()) from generate_series(1, 3)', none);
    expect([...none]).toEqual([]);
  });
});

describeEachDb('change counters: the database', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('every trigger in the database is declared in TRIGGER_WRITES; every table is known', async () => {
    const triggers = rowsOf<{ table: string }>(
      await t.rt.database.db.execute(sql`
        select distinct c.relname as table from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where not g.tgisinternal and c.relnamespace = current_schema()::regnamespace`),
    ).map((r) => r.table);
    expect(triggers.length).toBeGreaterThan(0);
    for (const table of triggers) expect(Object.keys(TRIGGER_WRITES)).toContain(table);
    const tables = rowsOf<{ name: string }>(
      await t.rt.database.db.execute(sql`
        select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`),
    ).map((r) => r.name);
    expect([...tables].sort()).toEqual([...KNOWN_TABLES].sort());
  });

  it('the app’s own writes are all placed (never `*`), and a cart write leaves the job lists remembered', async () => {
    const changes = changesOf(t.rt.database.db);
    const any = async () => (await changes.snapshot()).of([ANY]);
    const before = await any();
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const other = await signupAndLogin(t, 'company');
    const product = await insertProduct(t);
    const job = await insertJob(t, company.id);
    const add = (quantity: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/cart',
        headers: company.headers,
        payload: { productId: product.id, quantity },
      });
    expect((await add(1)).statusCode).toBe(201);
    const pendingUrl = '/job-api/company/pendingjobs';
    /** Whether the request was answered from memory: its answer, and its session. */
    const remembered = async (url: string, headers: Record<string, string>) => {
      const before = t.app.cacheStats();
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const after = t.app.cacheStats();
      return {
        answer: after.answers.hits === before.answers.hits + 1,
        session: after.sessions.hits === before.sessions.hits + 1,
      };
    };
    expect((await remembered(pendingUrl, company.headers)).answer).toBe(false);
    expect(await remembered(pendingUrl, company.headers)).toEqual({ answer: true, session: true });
    // Another write to the cart, a new login, a lawyer's list read: the company's job list and session
    // stay remembered.
    expect((await add(2)).statusCode).toBe(201);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: other.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect((await remembered('/job-api/jobs', lawyer.headers)).answer).toBe(false);
    expect(await remembered(pendingUrl, company.headers)).toEqual({ answer: true, session: true });
    // The cart itself is read again after its write, and is right.
    const cart = await t.app.inject({ url: '/api/cart', headers: company.headers });
    expect(cart.json()[0].products[0].quantity).toBe(2);
    // A lawyer applies: the job lists are made again, and show it.
    const applied = await t.app.inject({
      method: 'POST',
      url: `/job-api/applyforjob/${job.id}`,
      headers: lawyer.headers,
      payload: {},
    });
    expect(applied.statusCode, applied.body).toBeLessThan(300);
    // The lawyer's list reads the applications and is made again; the company's does not (its
    // applicants are not shown to companies) and stays remembered, unchanged.
    const pendingBefore = (await t.app.inject({ url: pendingUrl, headers: company.headers })).body;
    expect((await remembered('/job-api/jobs', lawyer.headers)).answer).toBe(false);
    expect((await remembered(pendingUrl, company.headers)).answer).toBe(true);
    // A job changes: the company's list is made again and shows it.
    await t.rt.database.db.update(jobs).set({ companyDetail: 'New details' }).where(eq(jobs.id, job.id));
    expect((await remembered(pendingUrl, company.headers)).answer).toBe(false);
    const pendingAfter = await t.app.inject({ url: pendingUrl, headers: company.headers });
    expect(pendingAfter.body).not.toBe(pendingBefore);
    expect(pendingAfter.json()[0].companyDetail).toBe('New details');
    // A changed user (verification, name) is looked up again.
    await t.rt.database.db.update(users).set({ name: 'Renamed Ltd' }).where(eq(users.id, company.id));
    expect((await remembered(pendingUrl, company.headers)).session).toBe(false);
    // Removing from the cart, logging out: still no write the counters could not place.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/cart/${product.id}`, headers: company.headers })).statusCode,
    ).toBeLessThan(300);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: company.headers })).statusCode).toBe(200);
    expect(await any()).toBe(before);
  });
});
