import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cacheVersionsOf } from '../src/db/cache-versions.js';
import { rowsOf, type Database } from '../src/db/client.js';
import { jobs } from '../src/db/schema.js';
import { insertJob, insertProduct } from './admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { secondInstance } from './second-instance.js';
import { multipart, pngBytes } from './upload-helpers.js';

/**
 * The caches of issue 7 (docs/decisions/1500-declared-cache-invalidation.md) and the job counters
 * (migration 0001_job_counts). A second app stands for another instance: on PostgreSQL it has its own
 * connection pool (as another process would); PGlite cannot be opened twice, so there it shares the
 * database.
 */
describeEachDb('performance: caches and counters', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let otherDb: Database | null = null;
  let closeOther: () => Promise<void>;
  let admin: Awaited<ReturnType<typeof signupAndLogin>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ app: other, db: otherDb, close: closeOther } = await secondInstance(t, kind));
    admin = await signupAndLogin(t, 'admin');
  });
  afterAll(async () => {
    await closeOther();
    await t.close();
  });

  async function createProduct(name: string) {
    const body = await multipart([
      { name: 'productName', value: name },
      { name: 'productPrice', value: '45000' },
      { name: 'productDescription', value: `${name}, reviewed by a lawyer.` },
      { name: 'productImage', file: { data: pngBytes(6, 6), filename: 'p.png', type: 'image/png' } },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/create',
      headers: { ...body.headers, ...admin.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.product._id as string;
  }
  const names = async (app: FastifyInstance) =>
    ((await app.inject({ url: '/product-api/products' })).json().products as Array<{ productName: string }>).map(
      (p) => p.productName,
    );

  it('the cache versions: reads leave them, every committed write moves those of its tables', async () => {
    const versions = cacheVersionsOf(t.rt.database.db);
    const names = async () =>
      rowsOf<{ name: string }>(await t.rt.database.db.execute(sql`select name from cache_versions`)).map((r) => r.name);
    const now = async (keys?: string[]) => (await versions.read()).of(keys ?? (await names()));
    const v0 = await now();
    const p0 = await now(['products']);
    const c0 = await now(['cart_items']);
    await t.rt.database.db.execute(sql`select count(*) from users`);
    await t.app.inject({ url: '/product-api/products' });
    expect(await now()).toBe(v0);
    await insertProduct(t);
    const v1 = await now();
    expect(v1).toBeGreaterThan(v0);
    expect(await now(['products'])).toBeGreaterThan(p0);
    // A table the write did not touch keeps its counter.
    expect(await now(['cart_items'])).toBe(c0);
    const p1 = await now(['products:changed']);
    await t.rt.database.db.transaction(async (tx) => {
      await tx.execute(sql`update products set updated_at = updated_at`);
    });
    expect(await now()).toBeGreaterThan(v1);
    expect(await now(['products:changed'])).toBeGreaterThan(p1);
    // The other instance reads the same versions (from the shared database).
    if (otherDb) {
      const [here, there] = [await versions.read(), await cacheVersionsOf(otherDb.db).read()];
      for (const keys of [await names(), ['products'], ['products:changed'], ['cart_items']])
        expect(there.of(keys)).toBe(here.of(keys));
    }
  });

  it('catalogue: a change is answered at once here and on another instance, with a new ETag', async () => {
    await createProduct('First Product');
    expect(await names(t.app)).toContain('First Product');
    expect(await names(other)).toContain('First Product');
    const before = await other.inject({ url: '/product-api/products' });
    const etag = before.headers.etag as string;
    expect((await other.inject({ url: '/product-api/products', headers: { 'if-none-match': etag } })).statusCode).toBe(
      304,
    );

    const id = await createProduct('Second Product');
    // No stale answer, not even once, on either instance.
    expect(await names(t.app)).toContain('Second Product');
    expect((await t.app.inject({ url: `/product-api/product/${id}` })).statusCode).toBe(200);
    expect(await names(other)).toContain('Second Product');
    const after = await other.inject({ url: '/product-api/products', headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete/${id}`, headers: admin.headers });
    expect(del.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/product-api/product/${id}` })).statusCode).toBe(404);
    expect((await other.inject({ url: `/product-api/product/${id}` })).statusCode).toBe(404);
  });

  it('catalogue: rows written around the service (a seed, a script) are seen at once', async () => {
    await names(t.app);
    await names(other);
    await t.rt.database.db.execute(
      sql`insert into products (product_name, product_price_kobo, product_description, product_image) values ('Scripted Product', 100000, 'x', '/uploads/x.png')`,
    );
    expect(await names(t.app)).toContain('Scripted Product');
    expect(await names(other)).toContain('Scripted Product');
  });

  it('catalogue: compressed once per change, sent as the client accepts', async () => {
    const plain = await t.app.inject({ url: '/product-api/products' });
    const br = await t.app.inject({ url: '/product-api/products', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.app.inject({ url: '/product-api/products', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('sessions: logout is refused at once, here and on another instance', async () => {
    const company = await signupAndLogin(t, 'company');
    const profile = (app: FastifyInstance) =>
      app.inject({ url: `/api/userprofile?_id=${company.id}`, headers: company.headers });
    expect((await profile(t.app)).statusCode).toBe(200);
    expect((await profile(other)).statusCode).toBe(200); // now remembered by the other instance
    expect((await profile(other)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: company.headers });
    expect(out.statusCode).toBe(200);
    expect((await profile(t.app)).statusCode).toBe(401);
    expect((await profile(other)).statusCode).toBe(401);
  });

  it('cached responses: served again while nothing changed, never after a change on any instance', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const product = await insertProduct(t);
    const cart = async (app: FastifyInstance) => {
      const res = await app.inject({ url: '/api/cart', headers: company.headers });
      return res.statusCode === 404 ? null : (res.json()[0].products[0]?.quantity as number);
    };
    expect(await cart(other)).toBeNull();
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: company.headers,
      payload: { productId: product.id, quantity: 2 },
    });
    expect(add.statusCode, add.body).toBe(201);
    expect(await cart(other)).toBe(2);
    expect(await cart(t.app)).toBe(2);
    expect(await cart(t.app)).toBe(2);
    // Straight in the database: both instances answer the new quantity on the next request.
    await t.rt.database.db.execute(sql`update cart_items set quantity = 5`);
    expect(await cart(t.app)).toBe(5);
    expect(await cart(other)).toBe(5);

    const pending = async (app: FastifyInstance) =>
      (await app.inject({ url: '/job-api/company/pendingjobs', headers: company.headers })).json().length as number;
    const open = async (app: FastifyInstance) =>
      Number((await app.inject({ url: '/job-api/jobs?limit=1', headers: lawyer.headers })).headers['x-total-count']);
    const unassigned = async (app: FastifyInstance) =>
      (await app.inject({ url: '/job-api/unassign?page=1&limit=1', headers: admin.headers })).json().total as number;
    const read = async (app: FastifyInstance) => [await pending(app), await open(app), await unassigned(app)];
    const start = await read(other);
    expect(await read(t.app)).toEqual(start);
    expect(await read(other)).toEqual(start);
    await insertJob(t, company.id);
    expect(await read(other)).toEqual(start.map((n) => n + 1));
    expect(await read(t.app)).toEqual(start.map((n) => n + 1));

    // Sent as bytes, compressed once as the client accepts; the same JSON either way.
    await insertJob(t, company.id);
    const url = '/job-api/company/pendingjobs';
    const plain = await t.app.inject({ url, headers: company.headers });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    for (let i = 0; i < 2; i++) {
      const br = await t.app.inject({ url, headers: { ...company.headers, 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gz = await other.inject({ url, headers: { ...company.headers, 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('sessions: a remembered session still ends when its token expires', async () => {
    const company = await signupAndLogin(t, 'company');
    const url = `/api/userprofile?_id=${company.id}`;
    expect((await t.app.inject({ url, headers: company.headers })).statusCode).toBe(200);
    t.clock.advance(t.config.TOKEN_TTL_HOURS * 3600_000 + 1000);
    expect((await t.app.inject({ url, headers: company.headers })).statusCode).toBe(401);
  });

  it('job counters: list totals equal a real count after inserts, updates and deletes, direct SQL included', async () => {
    // (the test before moved the clock past the first admin's token)
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const exact = async () =>
      rowsOf<{ status: string; n: number }>(
        await t.rt.database.db.execute(sql`select status, count(*)::int as n from jobs group by status`),
      );
    const totals = async () => {
      const out: Record<string, number> = {};
      for (const [status, url] of [
        ['unassigned', '/job-api/unassign'],
        ['pending', '/job-api/pendingjobs'],
        ['completed', '/job-api/completedjobs'],
      ]) {
        const res = await t.app.inject({ url: `${url}?page=1&limit=1`, headers: admin.headers });
        expect(res.statusCode, res.body).toBe(200);
        out[status] = res.json().total;
      }
      const open = await t.app.inject({ url: '/job-api/jobs?limit=1', headers: lawyer.headers });
      out.open = Number(open.headers['x-total-count']);
      return out;
    };
    const expectExact = async () => {
      const real = Object.fromEntries((await exact()).map((r) => [r.status, r.n]));
      const [{ n: open }] = rowsOf<{ n: number }>(
        await t.rt.database.db.execute(
          sql`select count(*)::int as n from jobs where status = 'unassigned' and assigned_to is null`,
        ),
      );
      expect(await totals()).toEqual({
        unassigned: real.unassigned ?? 0,
        pending: real.pending ?? 0,
        completed: real.completed ?? 0,
        open,
      });
    };
    await expectExact();
    const a = await insertJob(t, company.id);
    const b = await insertJob(t, company.id);
    await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    await expectExact();
    // Through the API (the lifecycle) and straight in the database: the counters follow both.
    const assign = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: a.id, lawyerId: lawyer.id },
    });
    expect(assign.statusCode, assign.body).toBe(200);
    await expectExact();
    await t.rt.database.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.status, 'pending'));
    await t.rt.database.db.update(jobs).set({ companyDetail: 'no state change' }).where(eq(jobs.id, b.id));
    await expectExact();
    await t.rt.database.db.delete(jobs).where(eq(jobs.id, b.id));
    await expectExact();
  });
});
