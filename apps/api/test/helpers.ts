import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { testConfig, type Config } from '../src/config.js';
import { emailOutbox, users } from '../src/db/schema.js';
import { manualClock } from '../src/platform/clock.js';
import { openRuntime, type Runtime, appDeps } from '../src/runtime.js';

export type DbKind = 'pglite' | 'postgres';

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL is set. */
export const databases: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Runs a suite once per available database. */
export function describeEachDb(name: string, fn: (kind: DbKind) => void) {
  for (const kind of databases) describe(`${name} [${kind}]`, () => fn(kind));
}

export interface TestApp {
  app: FastifyInstance;
  rt: Runtime;
  clock: ReturnType<typeof manualClock>;
  config: Config;
  close(): Promise<void>;
}

/** A fresh app on a fresh database: in-memory PGlite, or a new schema on the PostgreSQL server. */
export async function createTestApp(
  kind: DbKind = 'pglite',
  overrides: Record<string, string> = {},
  opts: { logger?: import('pino').Logger; clockStart?: Date; webDist?: string } = {},
): Promise<TestApp> {
  const schemaName = kind === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const config = testConfig({
    ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {}),
    PUBLIC_URL: 'http://localhost:3000',
    SEED_CATALOGUE: 'false',
    ...overrides,
  });
  // Starts at the real time: database defaults (now()) and the app's clock must agree.
  const clock = manualClock(opts.clockStart ?? new Date());
  const rt = await openRuntime(config, { clock, schemaName, logger: opts.logger });
  const app = await buildApp({ ...appDeps(rt), logger: opts.logger ?? false, webDist: opts.webDist ?? null });
  await app.ready();
  return {
    app,
    rt,
    clock,
    config,
    async close() {
      await app.close();
      await rt.close();
      if (schemaName) {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(`drop schema if exists ${schemaName} cascade`);
        await c.end();
      }
    },
  };
}

export async function lastMailTo(t: TestApp, to: string) {
  const rows = await t.rt.database.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, to))
    .orderBy(desc(emailOutbox.id))
    .limit(1);
  return rows[0];
}

export const linkToken = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
export const sixDigits = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

export const PASSWORD = 'Str0ng!Pass';

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}${++seq}-${randomBytes(3).toString('hex')}@example.ng`;

export const companyBody = (email: string) => ({
  companyName: 'Ada Ventures Ltd',
  contactName: 'Ada Obi',
  phoneNumber: '08012345678',
  officialEmail: email,
  officeAddress: '12 Marina, Lagos',
  cac: 'RC123456',
  industry: 'Fintech',
  password: PASSWORD,
  passwordConfirm: PASSWORD,
});

export const lawyerBody = (email: string) => ({
  name: 'Chidi Okeke',
  officialEmail: email,
  phoneNumber: '08087654321',
  areasOfPractise: ['Technology', 'Tax Practise'],
  scn: 'SCN001234',
  password: PASSWORD,
  passwordConfirm: PASSWORD,
});

/** Signs up through the API, confirms through the e-mailed link, logs in. */
export async function signupAndLogin(
  t: TestApp,
  type: 'company' | 'lawyer' | 'admin',
  opts: { email?: string; verified?: boolean } = {},
) {
  const email = opts.email ?? uniqueEmail(type);
  if (type === 'admin') {
    const { createAccountsServiceForTests } = await import('./service-access.js');
    await createAccountsServiceForTests(t).createAdmin({
      officialEmail: email,
      name: 'Admin',
      phoneNumber: '08000000000',
      password: PASSWORD,
    });
  } else {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${type}/signup`,
      payload: type === 'company' ? companyBody(email) : lawyerBody(email),
    });
    if (res.statusCode !== 201) throw new Error(`signup failed: ${res.body}`);
    const mail = await lastMailTo(t, email);
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-email',
      payload: { token: linkToken(mail!.text) },
    });
    if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.body}`);
    if (type === 'lawyer' && opts.verified)
      await t.rt.database.db.update(users).set({ verified: true }).where(eq(users.officialEmail, email));
  }
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { officialEmail: email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const body = login.json() as { token: string; data: { user: { _id: string } } };
  return { email, token: body.token, id: body.data.user._id, headers: { authorization: `Bearer ${body.token}` } };
}

/**
 * Whether some other session of the test database waits on a row lock, in a statement matching `query`
 * (ILIKE), within a second and a half. `watcher` must be in no transaction: pg_stat_activity is read
 * once per transaction.
 */
export async function waitingOnLock(
  watcher: Awaited<ReturnType<typeof otherConnection>>,
  query = '%"users"%for update%',
): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    const { rows } = await watcher.query(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
      [query],
    );
    if ((rows[0] as { n: number }).n > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** A second connection to the test's schema (PostgreSQL), for a transaction held open across a request. */
export async function otherConnection(t: TestApp) {
  const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await other.connect();
  const schema = (await t.rt.database.db.execute(`select current_schema() as s`)) as unknown as {
    rows: Array<{ s: string }>;
  };
  await other.query(`set search_path = ${schema.rows[0].s}`);
  return other;
}
