import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { users } from './schema.js';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { createLogger } from '../platform/logging.js';
import { hashPassword } from '../platform/passwords.js';
import { appDeps, openRuntime, type Runtime } from '../runtime.js';
import { describeEachDb, PASSWORD, uniqueEmail } from '../../test/helpers.js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';

/**
 * Issue 14, item 5: a failed insert logged its parameters (Drizzle puts them in the error's message and
 * `params`, PostgreSQL's `detail` repeats the failing row), the password hash included. And text the
 * database cannot store answers 400 even when it reaches an insert (the input check is the first guard).
 */
describeEachDb('database errors', (kind) => {
  const lines: string[] = [];
  let rt: Runtime;
  let app: FastifyInstance;
  let hash: string;
  const schemaName = kind === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const logger = createLogger('info', sink);
    const config = testConfig({
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {}),
      SEED_CATALOGUE: 'false',
    });
    rt = await openRuntime(config, { schemaName, logger });
    app = await buildApp({ ...appDeps(rt), logger, webDist: null });
    hash = await hashPassword(PASSWORD);
    // Test-only routes: inserts that fail in the database itself, as a route's insert would.
    const row = (name: unknown) => ({
      userType: 'company' as const,
      officialEmail: uniqueEmail(),
      passwordHash: hash,
      name: name as string,
      phoneNumber: '08012345678',
    });
    app.post('/test/insert-null-name', async () => rt.database.db.insert(users).values(row(null)));
    app.post('/test/insert-nul-name', async () => rt.database.db.insert(users).values(row('Ada\u0000Obi')));
    const taken = uniqueEmail();
    app.post('/test/insert-taken-email', async () =>
      rt.database.db.insert(users).values({ ...row('Ada Obi'), officialEmail: taken }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rt?.close();
    if (schemaName) {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schemaName} cascade`);
      await c.end();
    }
  });

  it('logs a failed insert without its parameters or the failing row, and keeps the statement and the code', async () => {
    lines.length = 0;
    const res = await app.inject({ method: 'POST', url: '/test/insert-null-name' });
    expect(res.statusCode).toBe(500);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'unhandled error');
    expect(logged, lines.join('\n')).toBeDefined();
    const text = JSON.stringify(logged);
    expect(text).not.toContain(hash);
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('08012345678');
    expect(text).not.toMatch(/params|Failing row/);
    const err = logged!.err as { type: string; message: string; stack: string; cause: { code: string } };
    expect(err.type).toBe('DrizzleQueryError');
    expect(err.message).toMatch(/^Failed query: insert into "users"/);
    expect(err.stack).toMatch(/\n {4}at /);
    expect(err.cause.code).toBe('23502'); // not_null_violation
  });

  it('answers 409, not 500, when a write loses a race at a unique index, and saves nothing', async () => {
    expect((await app.inject({ method: 'POST', url: '/test/insert-taken-email' })).statusCode).toBe(200);
    const before = (await rt.database.db.select().from(users)).length;
    const res = await app.inject({ method: 'POST', url: '/test/insert-taken-email' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ status: 'fail', message: expect.stringMatching(/another request/) });
    expect((await rt.database.db.select().from(users)).length).toBe(before);
  });

  it('answers 400, not 500, when text with NUL reaches an insert, and logs nothing of it', async () => {
    lines.length = 0;
    const res = await app.inject({ method: 'POST', url: '/test/insert-nul-name' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ status: 'fail', message: 'The request contains a character that is not allowed' });
    expect(lines.join('\n')).not.toContain(hash);
  });
});
