import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages } from '@legalmarket/contracts';
import { auditLog } from '../../src/db/schema.js';
import { buildApp } from '../../src/app.js';
import { openDatabase, rowsOf, type Database } from '../../src/db/client.js';
import { insertProduct } from '../admin-fixtures.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * "Sign out of all other devices" (decision 2245): every other session of the caller ends on every
 * instance at once (a second app stands for another instance, its own pool on PostgreSQL), the caller's
 * own goes on working.
 */
describeEachDb('signing out of all other devices', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let otherDb: Database | null = null;
  beforeAll(async () => {
    t = await createTestApp(kind);
    if (kind === 'postgres') {
      const [{ schema }] = rowsOf<{ schema: string }>(
        await t.rt.database.db.execute(sql`select current_schema() as schema`),
      );
      otherDb = await openDatabase({ url: t.config.DATABASE_URL, schemaName: schema });
    }
    other = await buildApp({
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
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await otherDb?.close();
    await t.close();
  });

  const secondSession = async (who: Login): Promise<Login> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json().token as string;
    return { ...who, token, headers: { authorization: `Bearer ${token}` } };
  };
  /** The profile and the cart from both instances: each remembers the session once it has answered it. */
  const answers = async (who: Login) => {
    const out = [];
    for (const app of [t.app, other])
      for (const url of [`/api/userprofile?_id=${who.id}`, '/api/cart'])
        out.push((await app.inject({ method: 'GET', url, headers: who.headers })).statusCode);
    return out;
  };
  const endOthers = (app: FastifyInstance, who: Login) =>
    app.inject({ method: 'POST', url: '/api/logout/others', headers: who.headers });

  it('ends the other sessions on both instances, keeps the caller’s, and says how many', async () => {
    const phone = await signupAndLogin(t, 'company');
    // A cart line, so the cart answers 200 (and from each instance's cache once read).
    const product = await insertProduct(t);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: phone.headers,
      payload: { productId: product.id, quantity: 1 },
    });
    expect(add.statusCode, add.body).toBe(201);
    const laptop = await secondSession(phone);
    const tablet = await secondSession(phone);
    // Someone else's session is not touched.
    const stranger = await signupAndLogin(t, 'company');
    expect(await answers(laptop)).toEqual([200, 200, 200, 200]);
    expect(await answers(tablet)).toEqual([200, 200, 200, 200]);
    expect(await answers(phone)).toEqual([200, 200, 200, 200]);

    const res = await endOthers(other, phone);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'success', message: messages.otherSessionsEnded, data: { ended: 2 } });

    expect(await answers(laptop)).toEqual([401, 401, 401, 401]);
    expect(await answers(tablet)).toEqual([401, 401, 401, 401]);
    expect(await answers(phone)).toEqual([200, 200, 200, 200]);
    expect((await answers(stranger))[0]).toBe(200);

    // Again: nothing left to end, the caller still signed in.
    const again = await endOthers(t.app, phone);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ ended: 0 });
    expect(await answers(phone)).toEqual([200, 200, 200, 200]);

    const audit = await t.rt.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, phone.id), eq(auditLog.action, 'sessions.end_others')));
    expect(audit.map((a) => a.details)).toEqual([{ ended: 2 }, { ended: 0 }]);
  });

  it('every role may use it; a session ended meanwhile may not, and a guest gets 401', async () => {
    for (const role of ['company', 'lawyer', 'admin'] as const) {
      const me = await signupAndLogin(t, role);
      const other2 = await secondSession(me);
      const res = await endOthers(t.app, me);
      expect(res.statusCode, `${role} ${res.body}`).toBe(200);
      expect(res.json().data.ended).toBe(1);
      // The ended session cannot end the caller's in turn.
      expect((await endOthers(t.app, other2)).statusCode).toBe(401);
      expect((await answers(me))[0]).toBe(200);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/logout/others' })).statusCode).toBe(401);
  });
});
