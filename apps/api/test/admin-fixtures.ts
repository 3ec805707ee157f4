import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { JobStatus } from '@legalmarket/contracts';
import { auditLog, emailOutbox, jobApplications, jobs, orders, products, users } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';

/** Direct inserts for admin tests: the catalogue, checkout and lawyer features are built elsewhere. */
export async function insertProduct(t: TestApp, name = 'Trademark Registration', priceKobo = 5_000_000) {
  const [p] = await t.rt.database.db
    .insert(products)
    .values({
      productName: name,
      productPrice: priceKobo,
      productDescription: `${name}: we file and follow it up for you.`,
      productImage: '/uploads/product-image.png',
    })
    .returning();
  return p;
}

export async function insertOrder(
  t: TestApp,
  companyId: string,
  opts: { status?: 'pending' | 'paid' | 'failed' | 'expired'; amountKobo?: number; createdAt?: Date } = {},
) {
  const status = opts.status ?? 'paid';
  const [o] = await t.rt.database.db
    .insert(orders)
    .values({
      companyId,
      txRef: `tx-${randomBytes(6).toString('hex')}`,
      amount: opts.amountKobo ?? 5_000_000,
      status,
      provider: 'sandbox',
      providerTransactionId: status === 'paid' ? `sbx-${randomBytes(4).toString('hex')}` : null,
      title: 'Legal services',
      lines: [],
      createdAt: opts.createdAt ?? t.clock.now(),
      paidAt: status === 'paid' ? (opts.createdAt ?? t.clock.now()) : null,
    })
    .returning();
  return o;
}

/** A paid order with one job per requested state (lawyerId needed for pending/completed). */
export async function insertJob(
  t: TestApp,
  companyId: string,
  opts: { status?: JobStatus; lawyerId?: string; productId?: string; createdAt?: Date; appliedBy?: string[] } = {},
) {
  const db = t.rt.database.db;
  const productId = opts.productId ?? (await insertProduct(t)).id;
  const order = await insertOrder(t, companyId);
  const status = opts.status ?? 'unassigned';
  const [job] = await db
    .insert(jobs)
    .values({
      orderId: order.id,
      lineNo: 1,
      companyId,
      productId,
      status,
      quantity: 1,
      amount: 5_000_000,
      detail: 'Please register our trademark in class 9.',
      assignedTo: status === 'unassigned' ? null : (opts.lawyerId ?? null),
      assignedAt: status === 'unassigned' ? null : t.clock.now(),
      completedAt: status === 'completed' ? t.clock.now() : null,
      createdAt: opts.createdAt ?? t.clock.now(),
    })
    .returning();
  for (const lawyerId of opts.appliedBy ?? []) await db.insert(jobApplications).values({ jobId: job.id, lawyerId });
  return job;
}

export async function jobRow(t: TestApp, id: string) {
  const [j] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id));
  return j;
}

export async function auditFor(t: TestApp, action: string, targetId?: string) {
  return t.rt.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), targetId ? eq(auditLog.targetId, targetId) : undefined));
}

export async function mailsTo(t: TestApp, to: string) {
  return t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id);
}

/** Bulk users without going through sign-up (paging tests need many). */
export async function insertUsers(
  t: TestApp,
  type: 'company' | 'lawyer',
  n: number,
  opts: { verified?: boolean } = {},
) {
  const base = t.clock.now().getTime();
  const rows = Array.from({ length: n }, (_, i) => ({
    userType: type,
    officialEmail: `${type}-bulk-${randomBytes(5).toString('hex')}@example.ng`,
    passwordHash: 'x',
    name: `${type} ${i}`,
    companyName: type === 'company' ? `Company ${i}` : null,
    phoneNumber: '08000000000',
    scn: type === 'lawyer' ? `SCN${i}` : null,
    verified: opts.verified ?? false,
    emailConfirmedAt: new Date(base),
    createdAt: new Date(base - (i + 1) * 60_000),
  }));
  return t.rt.database.db.insert(users).values(rows).returning();
}
