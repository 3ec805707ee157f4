import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { cartItems, jobs, orders } from '../../src/db/schema.js';
import { describeEachDb } from '../helpers.js';
import { openInProcess, startServer, startSmtp, type ServerProcess } from './process.js';
import {
  addWithin,
  applyCartOp,
  buildWorld,
  call,
  cartOk,
  checkInvariants,
  sendCartOp,
  undelivered,
  type CartOp,
  type World,
} from './workload.js';

/**
 * Issue 8, item 7: crash safety. A real server process (apps/api/src/main.ts) takes a burst of payment
 * confirmations, assignments and cart changes and is killed with SIGKILL in the middle; a new process
 * starts on the same data (PGlite directory, or PostgreSQL schema) and the invariants are checked.
 */
describeEachDb('crash safety (SIGKILL in the middle of a burst)', (kind) => {
  let dataDir: string;
  let env: Record<string, string>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let world: World;
  const schema = `crash_${randomBytes(5).toString('hex')}`;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lm-crash-'));
    smtp = await startSmtp({ delayMs: 20 });
    env = {
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      SEED_CATALOGUE: 'false',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
    };
    const t = await openInProcess(env);
    try {
      world = await buildWorld(t, { payers: 8, prepaid: 5, shoppers: 4, lawyers: 3 });
    } finally {
      await t.close();
    }
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.kill();
    await smtp?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });

  it('loses nothing that was acknowledged and keeps every invariant', async () => {
    const serverEnv = { ...env, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_POLL_MS: '100' };
    const first = await startServer(serverEnv);
    servers.push(first);
    const base = first.url;
    let killed = false;

    // The burst: every payer confirms (three times each, at once), the admin assigns every open job,
    // and each shopper changes its cart one call after another until the process dies.
    let respondedSoFar = 0;
    const started = Date.now();
    const firstResponseMs: number[] = [];
    const note = (status: number | 'lost') => {
      if (status !== 'lost') {
        respondedSoFar++;
        if (firstResponseMs.length < 1) firstResponseMs.push(Date.now() - started);
      }
      return status;
    };
    const confirmations = world.payers.flatMap((p, i) =>
      [0, 1, 2].map(async (k) => {
        await new Promise((r) => setTimeout(r, i * 40 + k * 5));
        const status = note(
          await call(base, 'POST', '/api/checkout/verify', p.who, {
            reference: p.reference,
            transactionId: p.transactionId,
          }),
        );
        return { orderId: p.orderId, status };
      }),
    );
    const assignments = world.openJobs.map(async (jobId, i) => {
      await new Promise((r) => setTimeout(r, i * 30));
      const lawyer = world.lawyers[i % world.lawyers.length];
      const status = note(await call(base, 'POST', '/job-api/assign', world.admin, { jobId, lawyerId: lawyer.id }));
      return { jobId, lawyerId: lawyer.id, status };
    });
    const shopping = world.shoppers.map(async (who, s) => {
      let cart = new Map<string, number>([[world.productIds[0], 1]]);
      /** The cart after the last acknowledged call, and the one the call in flight would leave. */
      const states = { acked: cart, inFlight: null as Map<string, number> | null, calls: 0 };
      for (let i = 0; !killed && i < 400; i++) {
        const r = (i * 7 + s * 3) % 10;
        const productId = world.productIds[(i + s) % world.productIds.length];
        const op: CartOp =
          r < 6
            ? addWithin(cart, productId, 1 + ((i + s) % 10))
            : r < 9
              ? { kind: 'remove', productId }
              : { kind: 'clear' };
        const next = applyCartOp(cart, op);
        states.inFlight = next;
        const status = await sendCartOp(base, who, op);
        if (status === 'lost') break;
        expect(cartOk(status), `cart call answered ${status}`).toBe(true);
        cart = next;
        states.acked = next;
        states.inFlight = null;
        states.calls++;
      }
      return { who, ...states };
    });

    // Kill it in the middle: once some of each kind were answered, while the rest are in flight.
    const total = world.payers.length * 3 + world.openJobs.length;
    while (respondedSoFar < Math.min(6, total / 4) && Date.now() - started < 30_000)
      await new Promise((r) => setTimeout(r, 5));
    const killAfterMs = Date.now() - started;
    const pidFile = path.join(dataDir, 'server.pid');
    if (kind === 'pglite') expect(existsSync(pidFile)).toBe(true);
    await first.kill('SIGKILL');
    killed = true;

    const confirmed = await Promise.all(confirmations);
    const assigned = await Promise.all(assignments);
    const carts = await Promise.all(shopping);
    const answered = [...confirmed, ...assigned].filter((c) => c.status !== 'lost').length;
    const lost = [...confirmed, ...assigned].filter((c) => c.status === 'lost').length;
    const cartCalls = carts.reduce((n, c) => n + c.calls, 0);
    // The kill really fell in the middle of the burst.
    expect(answered).toBeGreaterThan(0);
    expect(lost).toBeGreaterThan(0);
    expect(cartCalls).toBeGreaterThan(0);
    // A SIGKILLed server leaves its lock behind; the next start accepts the stale lock.
    if (kind === 'pglite') expect(Number(await readFile(pidFile, 'utf8'))).toBe(first.child.pid);
    const mailBeforeRestart = smtp.received.length;

    const second = await startServer(serverEnv);
    servers.push(second);
    // The restarted server takes new work at once.
    const again = world.payers.find((p, i) => confirmed[i * 3].status === 'lost') ?? world.payers[0];
    expect(
      await call(second.url, 'POST', '/api/checkout/verify', again.who, {
        reference: again.reference,
        transactionId: again.transactionId,
      }),
    ).toBe(200);
    // Let the outbox drain: nothing new arrives for a second.
    let last = -1;
    for (let i = 0; i < 100 && last !== smtp.received.length; i++) {
      last = smtp.received.length;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await second.kill('SIGTERM')).toBe(0);
    if (kind === 'pglite') expect(existsSync(pidFile)).toBe(false);

    const t = await openInProcess(env);
    try {
      const report = await checkInvariants(t);
      expect(report.problems).toEqual([]);
      expect(report.unsent).toBe(0);
      const db = t.rt.database.db;
      // No acknowledged write is lost.
      for (const c of confirmed.filter((x) => x.status === 200)) {
        const [o] = await db.select().from(orders).where(eq(orders.id, c.orderId));
        expect(o.status, `confirmed order ${c.orderId}`).toBe('paid');
      }
      for (const a of assigned.filter((x) => x.status === 200)) {
        const [j] = await db.select().from(jobs).where(eq(jobs.id, a.jobId));
        expect([j.status, j.assignedTo]).toEqual(['pending', a.lawyerId]);
      }
      // Each cart is what its last acknowledged call left, or what the call in flight would have left.
      for (const c of carts) {
        const rows = await db.select().from(cartItems).where(eq(cartItems.companyId, c.who.id));
        const now = JSON.stringify(rows.map((r) => [r.productId, r.quantity]).sort());
        const allowed = [c.acked, c.inFlight]
          .filter((m): m is Map<string, number> => m !== null)
          .map((m) => JSON.stringify([...m.entries()].sort()));
        expect(allowed, `cart of shopper ${c.who.email}`).toContain(now);
      }
      // The outbox sent every mail it committed, before or after the crash (at least once).
      const mail = await undelivered(t, smtp.received);
      expect(mail.missing).toEqual([]);
      const paidOrders = await db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.status, 'paid'),
            inArray(
              orders.id,
              world.payers.map((p) => p.orderId),
            ),
          ),
        );
      console.info(
        `[crash ${kind}] first answer after ${firstResponseMs[0]} ms, killed after ${killAfterMs} ms with ${answered} answered and ${lost} lost confirmations/assignments, ${cartCalls} cart calls; ` +
          `after restart: ${paidOrders.length}/${world.payers.length} burst orders paid, ${report.paidOrders} paid orders with ${report.jobs} jobs, ` +
          `${report.assigned} assigned, ${report.cartLines} cart lines, ${mail.committed} mails committed, ${mail.received} received ` +
          `(${mailBeforeRestart} before the restart), 0 missing`,
      );
    } finally {
      await t.close();
    }
  }, 180_000);
});
