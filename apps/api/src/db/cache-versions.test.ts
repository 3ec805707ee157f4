import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cacheVersionsOf, tablesReadBy } from './cache-versions.js';
import { rowsOf } from './client.js';
import { jobs, users } from './schema.js';
import { CART_READS } from '../features/cart/service.js';
import { JOB_PAGE_READS, JOB_THREAD_READS, JOB_VIEW_READS, NOTIFICATION_READS } from '../features/jobs/view.js';
import { insertJob, insertProduct } from '../../test/admin-fixtures.js';
import { buyOne, insertProduct as insertCatalogueProduct } from '../../test/commerce-helpers.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../test/helpers.js';

/** Decision 1500: what the database moves for a write, and that the app's writes leave other caches alone. */
describeEachDb('cache versions: the database', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('every table a cache reads is watched', async () => {
    const watched = rowsOf<{ name: string }>(
      await t.rt.database.db.execute(sql`
        select c.relname as name from pg_class c join pg_trigger g on g.tgrelid = c.oid
        where c.relnamespace = current_schema()::regnamespace and g.tgname like 'cache_note_%'
        group by c.relname having count(*) = 4`),
    ).map((r) => r.name);
    const read = [
      ...CART_READS,
      ...JOB_VIEW_READS,
      ...JOB_PAGE_READS,
      ...JOB_THREAD_READS,
      ...NOTIFICATION_READS,
      'products',
      'reviews',
      'app_settings',
      'sessions',
      'users',
    ];
    expect(watched).toEqual(expect.arrayContaining([...new Set(read)]));
  });

  it('an insert moves its table; update, delete and truncate also `:changed`; cascades and triggers too', async () => {
    const db = t.rt.database.db;
    const versions = cacheVersionsOf(db);
    const moved = async (write: () => Promise<unknown>) => {
      const names = rowsOf<{ name: string }>(await db.execute(sql`select name from cache_versions`)).map((r) => r.name);
      const before = await versions.read();
      await write();
      const after = await versions.read();
      const all = new Set([
        ...names,
        ...rowsOf<{ name: string }>(await db.execute(sql`select name from cache_versions`)).map((r) => r.name),
      ]);
      return [...all].filter((n) => after.of([n]) !== before.of([n])).sort();
    };
    const company = await signupAndLogin(t, 'company');
    const product = await insertProduct(t);
    expect(
      await moved(() =>
        db.execute(
          sql`insert into cart_items (company_id, product_id, quantity) values (${company.id}, ${product.id}, 1)`,
        ),
      ),
    ).toEqual(['cart_items']);
    expect(await moved(() => db.execute(sql`update cart_items set quantity = 2`))).toEqual([
      'cart_items',
      'cart_items:changed',
    ]);
    // A statement that changed no row moves nothing.
    expect(await moved(() => db.execute(sql`update cart_items set quantity = 3 where false`))).toEqual([]);
    // Jobs keep job_counts by a trigger; a deleted user takes its sessions with it.
    const job = await insertJob(t, company.id);
    expect(await moved(() => db.delete(jobs).where(eq(jobs.id, job.id)))).toEqual(
      expect.arrayContaining(['job_counts', 'job_counts:changed', 'jobs', 'jobs:changed']),
    );
    const gone = await signupAndLogin(t, 'company');
    const removed = await moved(() => db.delete(users).where(eq(users.id, gone.id)));
    for (const name of ['users:changed', 'sessions:changed']) expect(removed).toContain(name);
    expect(await moved(() => db.execute(sql`truncate table cart_items`))).toEqual(['cart_items', 'cart_items:changed']);
    // Nothing is left pending once a transaction committed.
    expect(rowsOf(await db.execute(sql`select 1 from cache_changes`))).toEqual([]);
  });

  it('a cart write leaves the job lists cached, a login the sessions', async () => {
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
    const cached = async (url: string, headers: Record<string, string>) => {
      const before = t.app.cacheStats();
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const after = t.app.cacheStats();
      return {
        response: after.responses.hits === before.responses.hits + 1,
        session: after.sessions.hits === before.sessions.hits + 1,
      };
    };
    expect((await cached(pendingUrl, company.headers)).response).toBe(false);
    expect(await cached(pendingUrl, company.headers)).toEqual({ response: true, session: true });
    // Another write to the cart, a new login, a lawyer's list read: the company's job list and session
    // stay remembered.
    expect((await add(1)).statusCode).toBe(201); // adds to the line of 1 (decision 1800)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: other.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect((await cached('/job-api/jobs', lawyer.headers)).response).toBe(false);
    expect(await cached(pendingUrl, company.headers)).toEqual({ response: true, session: true });
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
    expect((await cached('/job-api/jobs', lawyer.headers)).response).toBe(false);
    expect((await cached(pendingUrl, company.headers)).response).toBe(true);
    // A job changes: the company's list is made again and shows it.
    await t.rt.database.db.update(jobs).set({ companyDetail: 'New details' }).where(eq(jobs.id, job.id));
    expect((await cached(pendingUrl, company.headers)).response).toBe(false);
    const pendingAfter = await t.app.inject({ url: pendingUrl, headers: company.headers });
    expect(pendingAfter.body).not.toBe(pendingBefore);
    expect(pendingAfter.json()[0].companyDetail).toBe('New details');
    // A changed user (verification, name) is looked up again.
    await t.rt.database.db.update(users).set({ name: 'Renamed Ltd' }).where(eq(users.id, company.id));
    expect((await cached(pendingUrl, company.headers)).session).toBe(false);
    // Logging out ends the cached session at once.
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: company.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: pendingUrl, headers: company.headers })).statusCode).toBe(401);
  });

  // A paid checkout tells the admins of the new job: it moved the whole table's version, and every
  // reader's bell and notification centre was made again on its next poll (every 30 s, every reader).
  it('a paid checkout leaves the bell and notification centre of a reader it told nothing cached', async () => {
    const admins = [await signupAndLogin(t, 'admin')];
    const db = t.rt.database.db;
    for (const r of rowsOf<{ id: string }>(await db.execute(sql`select id from users where user_type = 'admin'`)))
      admins.push({ id: r.id } as (typeof admins)[number]);
    // A reader outside every admin's share (notificationReadsOf): one in 256 shares one.
    let reader = await signupAndLogin(t, 'lawyer', { verified: true });
    while (admins.some((a) => a.id.slice(0, 2) === reader.id.slice(0, 2)))
      reader = await signupAndLogin(t, 'lawyer', { verified: true });
    const buyer = await signupAndLogin(t, 'company');
    const product = await insertCatalogueProduct(t, 'Deed of Gift', 10_000);
    const cachedAnswer = async (url: string, headers: Record<string, string>) => {
      const before = t.app.cacheStats().responses.hits;
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, res.body).toBe(200);
      return t.app.cacheStats().responses.hits === before + 1;
    };
    const urls = ['/api/notifications', '/api/notifications/unread'];
    for (const url of urls) await cachedAnswer(url, reader.headers);
    for (const url of urls) expect(await cachedAnswer(url, reader.headers), url).toBe(true);
    for (const url of urls) await cachedAnswer(url, admins[0].headers);

    await buyOne(t, buyer, product);
    for (const url of urls) expect(await cachedAnswer(url, reader.headers), url).toBe(true);
    // The admins were told: theirs is made again, and shows it.
    expect(await cachedAnswer('/api/notifications/unread', admins[0].headers)).toBe(false);
    expect(await cachedAnswer('/api/notifications', admins[0].headers)).toBe(false);
  });

  // The other half of migration 0037's per-reader versions: what concerns the reader must still retire
  // their copies, or the bell keeps a count the reader cleared, or misses a notification they got.
  it('a notification to the reader and the reader’s own mark-read make their bell and centre again', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const reader = await signupAndLogin(t, 'lawyer', { verified: true });
    const company = await signupAndLogin(t, 'company');
    const product = await insertProduct(t, 'Deed of Lease');
    const read = async (url: string) => {
      const before = t.app.cacheStats().responses.hits;
      const res = await t.app.inject({ url, headers: reader.headers });
      expect(res.statusCode, res.body).toBe(200);
      return { hit: t.app.cacheStats().responses.hits === before + 1, body: res.json() };
    };
    const bell = '/api/notifications/unread';
    const centre = '/api/notifications';
    const cachedBoth = async () => {
      for (const url of [bell, centre]) await read(url);
      for (const url of [bell, centre]) expect((await read(url)).hit, url).toBe(true);
    };
    await cachedBoth();
    const unreadBefore = (await read(bell)).body.unread as number;

    // An admin assigns the reader a job: they are told of it.
    const job = await insertJob(t, company.id, { productId: product.id });
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: job.id, lawyerId: reader.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const told = await read(bell);
    expect(told.hit).toBe(false);
    expect(told.body.unread).toBe(unreadBefore + 1);
    const list = await read(centre);
    expect(list.hit).toBe(false);
    expect(list.body.notifications[0]).toMatchObject({ jobId: job.id, readAt: null });

    // The reader marks it read: the bell and the centre say so at once.
    await cachedBoth();
    const marked = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: reader.headers,
      payload: { ids: [list.body.notifications[0]._id] },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    const cleared = await read(bell);
    expect(cleared.hit).toBe(false);
    expect(cleared.body.unread).toBe(unreadBefore);
    const after = await read(centre);
    expect(after.hit).toBe(false);
    expect(after.body.notifications[0].readAt).not.toBeNull();
  });

  it('a signed-in cached read checks the versions once; the embedded database answers them without a query', async () => {
    const company = await signupAndLogin(t, 'company');
    const url = '/job-api/company/pendingjobs';
    expect((await t.app.inject({ url, headers: company.headers })).statusCode).toBe(200);
    // (awaited inside: an inject starts when awaited)
    const read = await tablesReadBy(
      t.rt.database.db,
      async () => await t.app.inject({ url, headers: company.headers }),
    );
    expect(read.value.statusCode).toBe(200);
    // A server is read once per request (the session and the response share it); PGlite not at all.
    expect(read.tables).toEqual(kind === 'pglite' ? [] : ['cache_versions']);
    expect(read.statements).toBe(kind === 'pglite' ? 0 : 1);
    // A write that bypasses the app's query builder is still seen by the very next read.
    const versions = cacheVersionsOf(t.rt.database.db);
    const before = (await versions.read()).of(['users:changed']);
    const raw = (t.rt.database.db as unknown as { $client: { query(text: string): Promise<unknown> } }).$client;
    await raw.query(`update users set name = 'Outside Ltd' where id = '${company.id}'`);
    expect((await versions.read()).of(['users:changed'])).toBe(before + 1);
    // ... and so the session cached before it is looked up again.
    const sessions = t.app.cacheStats().sessions.misses;
    expect((await t.app.inject({ url, headers: company.headers })).statusCode).toBe(200);
    expect(t.app.cacheStats().sessions.misses).toBe(sessions + 1);
  });

  it("a page's first requests with a new token share one session lookup", async () => {
    const company = await signupAndLogin(t, 'company');
    const before = t.app.cacheStats().sessions;
    const urls = ['/job-api/company/pendingjobs', '/job-api/company/completedjobs', '/api/notifications'];
    const answers = await Promise.all(urls.map((url) => t.app.inject({ url, headers: company.headers })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const after = t.app.cacheStats().sessions;
    expect(after.lookups - before.lookups).toBe(1);
    // A forged token shares nothing: it is refused.
    const forged = { authorization: `${company.headers.authorization}x` };
    expect((await t.app.inject({ url: urls[0], headers: forged })).statusCode).toBe(401);
  });
});
