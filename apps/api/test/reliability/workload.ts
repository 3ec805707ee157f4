import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { cartItems, emailOutbox, jobs, orders, products, users } from '../../src/db/schema.js';
import { rowsOf } from '../../src/db/client.js';
import { signupAndLogin, type TestApp } from '../helpers.js';
import { insertProduct } from '../commerce-helpers.js';
import type { ReceivedMail } from './process.js';

/**
 * The marketplace the crash and instance tests run against, set up in-process before a server
 * process starts on the same data, and the invariants they check afterwards.
 */
export type Login = Awaited<ReturnType<typeof signupAndLogin>>;

export interface Payer {
  who: Login;
  reference: string;
  transactionId: string;
  orderId: string;
}

export interface World {
  admin: Login;
  lawyers: Login[];
  productIds: string[];
  /** Companies with a pending order paid at the (sandbox) provider, not yet confirmed. */
  payers: Payer[];
  /** Unassigned jobs of paid orders, ready for the admin to assign. */
  openJobs: string[];
  /** Companies that only change their carts. */
  shoppers: Login[];
}

const SUCCESS_CARD = { paymentType: 'card', cardNumber: '5531 8866 5214 2950', pin: '3310', otp: '12345' };

export async function buildWorld(
  t: TestApp,
  n: { payers: number; prepaid: number; shoppers: number; lawyers: number },
): Promise<World> {
  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  const productIds = [
    await insertProduct(t, 'Non-Disclosure Agreement', 25000),
    await insertProduct(t, 'Trademark Registration', 150000),
    await insertProduct(t, 'Employment Contract', 40000),
  ];
  const admin = await signupAndLogin(t, 'admin');
  const lawyers: Login[] = [];
  for (let i = 0; i < n.lawyers; i++) lawyers.push(await signupAndLogin(t, 'lawyer', { verified: true }));

  const pay = async (lines: number): Promise<Payer> => {
    const who = await signupAndLogin(t, 'company');
    for (let i = 0; i < lines; i++) {
      const res = await inject('POST', '/api/cart', who, {
        productId: productIds[i],
        quantity: i + 1,
        detail: `Line ${i + 1}`,
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      t.clock.advance(1000);
    }
    const start = await inject('POST', '/api/checkout', who);
    const c = start.json().data as { reference: string; amount: number; orderId: string };
    const charge = await inject('POST', '/api/checkout/sandbox/charge', who, {
      reference: c.reference,
      amount: c.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    return { who, reference: c.reference, orderId: c.orderId, transactionId: charge.json().data.transaction_id };
  };

  const payers: Payer[] = [];
  for (let i = 0; i < n.payers; i++) payers.push(await pay(2));
  const openJobs: string[] = [];
  for (let i = 0; i < n.prepaid; i++) {
    const p = await pay(3);
    const res = await inject('POST', '/api/checkout/verify', p.who, {
      reference: p.reference,
      transactionId: p.transactionId,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    const made = await t.rt.database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.orderId, p.orderId));
    openJobs.push(...made.map((j) => j.id));
  }
  const shoppers: Login[] = [];
  for (let i = 0; i < n.shoppers; i++) {
    const who = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', who, { productId: productIds[0], quantity: 1 });
    shoppers.push(who);
  }
  return { admin, lawyers, productIds, payers, openJobs, shoppers };
}

/** One HTTP call of the burst and what became of it. */
export interface Call {
  label: string;
  status: number | 'lost';
}

export async function call(
  base: string,
  method: string,
  url: string,
  who: Login,
  body?: unknown,
): Promise<number | 'lost'> {
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'lost'; // the connection died with the process: committed or not, we cannot know
  }
}

/** A cart operation and the cart it leaves (productId → quantity). */
export type CartOp =
  { kind: 'add'; productId: string; quantity: number } | { kind: 'remove'; productId: string } | { kind: 'clear' };

export function applyCartOp(cart: Map<string, number>, op: CartOp) {
  const next = new Map(cart);
  // Adding a product already in the cart adds to its line (issue 18).
  if (op.kind === 'add') next.set(op.productId, (cart.get(op.productId) ?? 0) + op.quantity);
  else if (op.kind === 'remove') next.delete(op.productId);
  else next.clear();
  return next;
}

/** An add that keeps the line within the 10 a line may hold, or a remove when the line is full. */
export function addWithin(cart: Map<string, number>, productId: string, quantity: number): CartOp {
  const room = 10 - (cart.get(productId) ?? 0);
  return room > 0 ? { kind: 'add', productId, quantity: Math.min(quantity, room) } : { kind: 'remove', productId };
}

export async function sendCartOp(base: string, who: Login, op: CartOp) {
  if (op.kind === 'add')
    return call(base, 'POST', '/api/cart', who, { productId: op.productId, quantity: op.quantity });
  if (op.kind === 'remove') return call(base, 'DELETE', `/api/cart/${op.productId}`, who);
  return call(base, 'POST', '/api/clear-cart', who, {});
}

export const cartOk = (status: number | 'lost') => status === 200 || status === 201;

/**
 * Whether the company's cart already is `expected` (productId → quantity) on `base`: what a careful
 * client checks before repeating a call whose answer was lost, since an add is not safe to repeat (the
 * lost call may have committed before its process died).
 */
export async function cartIs(base: string, who: Login, expected: Map<string, number>) {
  const res = await fetch(`${base}/api/cart`, { headers: who.headers, signal: AbortSignal.timeout(15_000) });
  const lines =
    res.status === 200
      ? ((await res.json()) as Array<{ products: Array<{ productId: string; quantity: number }> }>)[0].products
      : [];
  if (res.status !== 200 && res.status !== 404) return false;
  const now = new Map(lines.map((l) => [l.productId, l.quantity]));
  return now.size === expected.size && [...expected].every(([id, q]) => now.get(id) === q);
}

/**
 * The invariants of issue 8, item 7, on whatever the processes left behind. Answers a list of
 * violations (empty when all hold) and counts for the report.
 */
export async function checkInvariants(t: TestApp) {
  const db = t.rt.database.db;
  const problems: string[] = [];
  const paid = await db.select().from(orders).where(eq(orders.status, 'paid'));
  for (const o of paid) {
    const lines = o.lines as Array<{ lineNo: number; productId: string; quantity: number; amount: number }>;
    const made = await db.select().from(jobs).where(eq(jobs.orderId, o.id));
    const got = made.map((j) => `${j.lineNo}:${j.productId}:${j.quantity}:${j.amount}`).sort();
    const want = lines.map((l) => `${l.lineNo}:${l.productId}:${l.quantity}:${l.amount}`).sort();
    if (JSON.stringify(got) !== JSON.stringify(want))
      problems.push(`paid order ${o.id} has jobs ${got} for lines ${want}`);
    // Fulfilment removed the paid lines from the cart in the same transaction.
    for (const l of lines) {
      const left = await db
        .select()
        .from(cartItems)
        .where(
          and(
            eq(cartItems.companyId, o.companyId),
            eq(cartItems.productId, l.productId),
            sql`${cartItems.updatedAt} <= ${o.paidAt}`,
          ),
        );
      if (left.length) problems.push(`cart of ${o.companyId} still holds a paid line of order ${o.id}`);
    }
  }
  const orphans = await db
    .select({ id: jobs.id })
    .from(jobs)
    .leftJoin(orders, eq(orders.id, jobs.orderId))
    .where(sql`${orders.id} is null or ${orders.status} <> 'paid'`);
  if (orphans.length) problems.push(`${orphans.length} jobs without a paid order`);
  const badLines = await db
    .select()
    .from(cartItems)
    .leftJoin(products, eq(products.id, cartItems.productId))
    .leftJoin(users, eq(users.id, cartItems.companyId))
    .where(
      sql`${products.id} is null or ${users.id} is null or ${cartItems.quantity} < 1 or ${cartItems.quantity} > 10 or (${cartItems.file} is null and ${cartItems.fileName} is not null)`,
    );
  if (badLines.length) problems.push(`${badLines.length} half-written cart lines`);
  const pendingPerCompany = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from orders where status = 'pending' group by company_id having count(*) > 1`,
    ),
  );
  if (pendingPerCompany.length) problems.push('a company has two pending orders');
  // Every assignment committed its two mails with it.
  const assigned = await db.select().from(jobs).where(ne(jobs.status, 'unassigned'));
  const assignMails = await db
    .select()
    .from(emailOutbox)
    .where(sql`${emailOutbox.subject} like 'You have been assigned a job:%'`);
  if (assignMails.length !== assigned.length)
    problems.push(`${assigned.length} assignments but ${assignMails.length} assignment mails`);
  const unsent = await db.select({ id: emailOutbox.id }).from(emailOutbox).where(isNull(emailOutbox.sentAt));
  return {
    problems,
    paidOrders: paid.length,
    jobs: (await db.select({ id: jobs.id }).from(jobs)).length,
    assigned: assigned.length,
    cartLines: (await db.select({ id: cartItems.productId }).from(cartItems)).length,
    outbox: (await db.select({ id: emailOutbox.id }).from(emailOutbox)).length,
    unsent: unsent.length,
  };
}

/** Decodes RFC 2047 subjects (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) as nodemailer writes them. */
export function decodeSubject(s: string) {
  return s.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** Committed mails the SMTP server never received (at-least-once: duplicates are allowed). */
export async function undelivered(t: TestApp, received: ReceivedMail[]) {
  const rows = await t.rt.database.db.select().from(emailOutbox);
  const got = new Map<string, number>();
  for (const m of received)
    for (const to of m.to) {
      const k = `${to.toLowerCase()}|${decodeSubject(m.subject)}`;
      got.set(k, (got.get(k) ?? 0) + 1);
    }
  const missing: string[] = [];
  for (const r of rows) {
    const k = `${r.to.toLowerCase()}|${r.subject}`;
    const n = got.get(k) ?? 0;
    if (n > 0) got.set(k, n - 1);
    else missing.push(k);
  }
  return { committed: rows.length, received: received.length, missing };
}
