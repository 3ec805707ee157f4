/**
 * Benchmark data generator: realistic, repeatable (seeded) rows inserted in bulk straight through SQL.
 *
 * Sizes (see SIZES): 200 products, 2,000 companies, 500 lawyers (80 % verified), one admin, 100,000 jobs
 * (in orders of two lines), about 1.5 applications per job, 4,000 reviews, carts for 300 companies.
 * Everything comes from one PRNG (mulberry32) started from `seed`, so two runs with the same seed write
 * the same rows (ids included). Times are spread over the two years before a fixed date, not "now".
 *
 * Jobs are written in two steps so the benchmark can measure growth: `insertJobs(db, 0, 1000)` first
 * (the bench company's 40 jobs are among them), then `insertJobs(db, 1000, 100000)`. The bench company,
 * lawyer and admin own the same rows in both steps, so their lists answer the same amount of data with
 * 1,000 and with 100,000 jobs in the table: only the table grows.
 *
 * Every account's password is BENCH_PASSWORD (one argon2id hash computed once, with the app's parameters).
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { EXPERTISE as AREAS } from '@legalmarket/contracts';
import type { Db } from '../apps/api/src/db/client.js';
import { hashPassword } from '../apps/api/src/platform/passwords.js';

export const SIZES = {
  products: 200,
  companies: 2000,
  lawyers: 500,
  jobs: 100_000,
  growthBaseJobs: 1000,
  reviews: 4000,
  cartCompanies: 300,
};
export const BENCH_PASSWORD = 'Bench-password-1';
export const benchEmail = {
  admin: 'admin@bench.legalmarket.test',
  company: (i: number) => `company${i}@bench.legalmarket.test`,
  lawyer: (i: number) => `lawyer${i}@bench.legalmarket.test`,
};
/** The bench company (company 0) owns exactly this many jobs, all among the first 1,000. */
const BENCH_COMPANY_JOBS = 40;
const DAY = 86_400_000;
const EPOCH = Date.UTC(2026, 0, 1);

/** mulberry32: small, fast, good enough for test data, and the same everywhere. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]) => list[int(list.length)];
  const uuid = () => {
    const h = Array.from({ length: 16 }, () => int(256));
    h[6] = (h[6] & 0x0f) | 0x40;
    h[8] = (h[8] & 0x3f) | 0x80;
    const s = h.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  return { next, int, pick, uuid };
}

const WORDS =
  'agreement company shares founder lawyer contract clause party notice term payment review draft registration licence employee trademark office deadline signature'.split(
    ' ',
  );
// The areas lawyers and products share (issue 20), so Best fit has matches to put first.
const EXPERTISE = [...AREAS];
const INDUSTRIES = ['Fintech', 'Agritech', 'Logistics', 'Health', 'Retail', 'Education', 'Media'];

/** Ids depend only on the seed and the entity's number, so the two job steps agree on them. */
export function ids(seed: number) {
  const r = prng(seed ^ 0x5eed);
  const make = (n: number) => Array.from({ length: n }, () => r.uuid());
  return {
    admin: make(1)[0],
    companies: make(SIZES.companies),
    lawyers: make(SIZES.lawyers),
    products: make(SIZES.products),
  };
}

type Row = Record<string, unknown>;

/** One INSERT … SELECT FROM jsonb_to_recordset per batch: one round trip for thousands of rows. */
async function bulk(db: Db, table: string, columns: Record<string, string>, rows: Row[], batch = 4000) {
  const names = Object.keys(columns);
  const defs = names.map((c) => `${c} ${columns[c]}`).join(', ');
  for (let i = 0; i < rows.length; i += batch) {
    const json = JSON.stringify(rows.slice(i, i + batch));
    await db.execute(
      sql`${sql.raw(`insert into ${table} (${names.join(', ')}) select ${names.join(', ')} from jsonb_to_recordset(`)}${json}${sql.raw(`::jsonb) as t(${defs}) on conflict do nothing`)}`,
    );
  }
}

const text = (r: ReturnType<typeof prng>, words: number) =>
  Array.from({ length: words }, () => r.pick(WORDS)).join(' ');
const iso = (ms: number) => new Date(ms).toISOString();

/** Users, products (with their pictures in `uploadsDir`), reviews and carts. */
export async function insertBase(db: Db, opts: { seed: number; uploadsDir: string; seedImagesDir: string }) {
  const id = ids(opts.seed);
  const r = prng(opts.seed);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const users: Row[] = [];
  const created = () => iso(EPOCH - 730 * DAY - r.int(60 * DAY));
  users.push({
    id: id.admin,
    user_type: 'admin',
    official_email: benchEmail.admin,
    password_hash: passwordHash,
    name: 'Bench Admin',
    phone_number: '2348000000001',
    email_confirmed_at: created(),
    verified: true,
    created_at: created(),
  });
  id.companies.forEach((cid, i) =>
    users.push({
      id: cid,
      user_type: 'company',
      official_email: benchEmail.company(i),
      password_hash: passwordHash,
      name: `Contact ${i}`,
      phone_number: `23480${String(10_000_000 + i)}`,
      email_confirmed_at: created(),
      company_name: `Bench Company ${i} Ltd`,
      contact_name: `Contact ${i}`,
      office_address: `${1 + r.int(200)} Allen Avenue, Ikeja, Lagos`,
      industry: r.pick(INDUSTRIES),
      website: `https://company${i}.example.ng`,
      cac: `RC${100000 + i}`,
      verified: false,
      created_at: created(),
    }),
  );
  id.lawyers.forEach((lid, i) =>
    users.push({
      id: lid,
      user_type: 'lawyer',
      official_email: benchEmail.lawyer(i),
      password_hash: passwordHash,
      name: `Lawyer ${i}`,
      phone_number: `23481${String(10_000_000 + i)}`,
      email_confirmed_at: created(),
      scn: `SCN${200000 + i}`,
      law_firm_name: `Firm ${i % 80} & Partners`,
      law_firm_address: `${1 + r.int(90)} Broad Street, Lagos`,
      areas_of_practise: [r.pick(EXPERTISE), r.pick(EXPERTISE)].filter((v, k, a) => a.indexOf(v) === k),
      year_of_call: String(1995 + r.int(28)),
      your_bio: text(r, 40),
      // lawyer 0 (the bench lawyer) is verified; 80 % of the others are.
      verified: i === 0 || r.next() < 0.8,
      created_at: created(),
    }),
  );
  await bulk(
    db,
    'users',
    {
      id: 'uuid',
      user_type: 'text',
      official_email: 'text',
      password_hash: 'text',
      name: 'text',
      phone_number: 'text',
      email_confirmed_at: 'timestamptz',
      company_name: 'text',
      contact_name: 'text',
      office_address: 'text',
      industry: 'text',
      website: 'text',
      cac: 'text',
      your_bio: 'text',
      scn: 'text',
      law_firm_name: 'text',
      law_firm_address: 'text',
      areas_of_practise: 'text[]',
      year_of_call: 'text',
      verified: 'boolean',
      created_at: 'timestamptz',
    },
    // jsonb_to_recordset cannot read a JSON array into text[]: send the Postgres array literal.
    users.map((u) => ({
      areas_of_practise: '{}',
      ...u,
      ...(Array.isArray(u.areas_of_practise)
        ? { areas_of_practise: `{${(u.areas_of_practise as string[]).map((v) => `"${v}"`).join(',')}}` }
        : {}),
    })),
  );

  // Ten pictures (the starting catalogue's) shared by the 200 products, stored like uploads.
  await mkdir(opts.uploadsDir, { recursive: true });
  const images = [
    'contract-review.png',
    'copyright-licence.png',
    'employee-handbook.png',
    'employment-contract.png',
    'ip-ownership.png',
    'nda.png',
    'service-agreement.png',
    'shareholders-agreement.png',
    'termination-advice.png',
    'trademark-registration.png',
  ];
  const uploadRows: Row[] = [];
  for (const [k, name] of images.entries()) {
    // Keys in the shape the app gives uploads (32 hex digits): /uploads/<key> answers 404 to any other.
    const key = `${createHash('md5').update(`bench-image-${k}`).digest('hex')}.png`;
    await copyFile(path.join(opts.seedImagesDir, name), path.join(opts.uploadsDir, key));
    uploadRows.push({
      id: r.uuid(),
      key,
      original_name: name,
      content_type: 'image/png',
      size: 0,
      kind: 'image',
      owner_id: id.admin,
    });
  }
  await bulk(
    db,
    'uploads',
    {
      id: 'uuid',
      key: 'text',
      original_name: 'text',
      content_type: 'text',
      size: 'integer',
      kind: 'text',
      owner_id: 'uuid',
    },
    uploadRows,
  );
  const products = id.products.map((pid, i) => {
    const at = iso(EPOCH - 800 * DAY + i * DAY);
    return {
      id: pid,
      product_name: `${r.pick(['Contract', 'Agreement', 'Licence', 'Policy', 'Registration'])} service ${i + 1}`,
      product_price_kobo: (20 + r.int(480)) * 1000 * 100,
      product_description: text(r, 60),
      product_image: `/uploads/${uploadRows[i % uploadRows.length].key}`,
      category: r.next() < 0.2 ? 'package' : 'single',
      // One product in eight has no area; the rest cycle through the areas (no draw, so the rest of the
      // generated data stays what it was).
      area: i % 8 === 7 ? null : EXPERTISE[i % EXPERTISE.length],
      created_at: at,
      updated_at: at,
    };
  });
  await bulk(
    db,
    'products',
    {
      id: 'uuid',
      product_name: 'text',
      product_price_kobo: 'bigint',
      product_description: 'text',
      product_image: 'text',
      category: 'text',
      area: 'text',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    products,
  );
  // The bench product (product 0) gets 30 reviews, the rest are spread.
  const reviews: Row[] = Array.from({ length: SIZES.reviews }, (_, i) => {
    const at = iso(EPOCH - r.int(700 * DAY));
    return {
      id: r.uuid(),
      company_id: id.companies[1 + r.int(SIZES.companies - 1)],
      product_id: i < 30 ? id.products[0] : r.pick(id.products),
      review_title: text(r, 4),
      review: text(r, 30),
      status: 1 + r.int(5),
      date: at,
      created_at: at,
      updated_at: at,
    };
  });
  await bulk(
    db,
    'reviews',
    {
      id: 'uuid',
      company_id: 'uuid',
      product_id: 'uuid',
      review_title: 'text',
      review: 'text',
      status: 'integer',
      date: 'timestamptz',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    reviews,
  );
  // Carts: the bench company holds three lines, 299 other companies one or two.
  const cart: Row[] = [];
  for (let c = 0; c < SIZES.cartCompanies; c++) {
    const lines = c === 0 ? 3 : 1 + r.int(2);
    for (let l = 0; l < lines; l++)
      cart.push({
        company_id: id.companies[c],
        product_id: id.products[c === 0 ? l : r.int(SIZES.products)],
        quantity: 1 + r.int(3),
        detail: text(r, 12),
        created_at: iso(EPOCH - r.int(30 * DAY)),
      });
  }
  await bulk(
    db,
    'cart_items',
    { company_id: 'uuid', product_id: 'uuid', quantity: 'integer', detail: 'text', created_at: 'timestamptz' },
    cart,
  );
  return { products: products.length, users: users.length, reviews: reviews.length, cartLines: cart.length };
}

/**
 * Jobs number `from` to `to - 1` (orders of two lines each, with applications). Job k is decided by
 * its own PRNG stream (seed + k), so any range can be written on its own and gives the same rows.
 */
export async function insertJobs(db: Db, opts: { seed: number; from: number; to: number }) {
  const id = ids(opts.seed);
  const ordersRows: Row[] = [];
  const jobsRows: Row[] = [];
  const apps: Row[] = [];
  const verifiedLawyers = id.lawyers; // assignment needs verification; good enough for reads
  for (let o = Math.floor(opts.from / 2); o < Math.ceil(opts.to / 2); o++) {
    const r = prng((opts.seed * 1_000_003 + o) >>> 0);
    const benchCompany = o * 2 < BENCH_COMPANY_JOBS;
    const companyIdx = benchCompany ? 0 : 1 + r.int(SIZES.companies - 1);
    const createdMs = EPOCH - r.int(730 * DAY);
    const orderId = r.uuid();
    const lines: Row[] = [];
    let total = 0;
    for (let line = 1; line <= 2; line++) {
      const k = o * 2 + line - 1;
      if (k < opts.from || k >= opts.to) continue;
      const productIdx = r.int(SIZES.products);
      const price = (20 + (productIdx % 480)) * 100_000;
      const quantity = 1 + r.int(2);
      const roll = r.next();
      // The bench company: jobs 0-9 unassigned, 10-19 pending, 20-39 completed.
      const status = benchCompany
        ? k < 10
          ? 'unassigned'
          : k < 20
            ? 'pending'
            : 'completed'
        : roll < 0.3
          ? 'unassigned'
          : roll < 0.55
            ? 'pending'
            : 'completed';
      // The bench lawyer (lawyer 0) holds 1 in 50 of the assigned jobs of the first 1,000 only.
      const lawyerIdx = status === 'unassigned' ? -1 : k < 1000 && r.next() < 0.02 ? 0 : 1 + r.int(SIZES.lawyers - 1);
      const jobId = r.uuid();
      const assignedMs = createdMs + (1 + r.int(3)) * DAY;
      jobsRows.push({
        id: jobId,
        order_id: orderId,
        line_no: line,
        company_id: id.companies[companyIdx],
        product_id: id.products[productIdx],
        status,
        quantity,
        amount_kobo: price * quantity,
        detail: text(r, 15),
        company_detail: r.next() < 0.3 ? text(r, 10) : null,
        assigned_to: lawyerIdx >= 0 ? verifiedLawyers[lawyerIdx] : null,
        assigned_at: lawyerIdx >= 0 ? iso(assignedMs) : null,
        completed_at: status === 'completed' ? iso(assignedMs + (2 + r.int(10)) * DAY) : null,
        created_at: iso(createdMs),
        updated_at: iso(createdMs),
      });
      // Applicants: the assignee, plus up to two others (never the bench lawyer in the 99,000 added later).
      const applicants = new Set<number>();
      if (lawyerIdx >= 0) applicants.add(lawyerIdx);
      for (let a = r.int(3); a > 0; a--) applicants.add(1 + r.int(SIZES.lawyers - 1));
      for (const l of applicants)
        apps.push({ job_id: jobId, lawyer_id: id.lawyers[l], created_at: iso(createdMs + r.int(DAY)) });
      lines.push({
        lineNo: line,
        productId: id.products[productIdx],
        unitPrice: price,
        quantity,
        amount: price * quantity,
      });
      total += price * quantity;
    }
    ordersRows.push({
      id: orderId,
      company_id: id.companies[companyIdx],
      tx_ref: `bench-${opts.seed}-${o}`,
      amount_kobo: total,
      status: 'paid',
      provider: 'sandbox',
      title: `Order ${o}`,
      lines,
      created_at: iso(createdMs),
      paid_at: iso(createdMs),
      updated_at: iso(createdMs),
    });
  }
  await bulk(
    db,
    'orders',
    {
      id: 'uuid',
      company_id: 'uuid',
      tx_ref: 'text',
      amount_kobo: 'bigint',
      status: 'text',
      provider: 'text',
      title: 'text',
      lines: 'jsonb',
      created_at: 'timestamptz',
      paid_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    ordersRows,
  );
  await bulk(
    db,
    'jobs',
    {
      id: 'uuid',
      order_id: 'uuid',
      line_no: 'integer',
      company_id: 'uuid',
      product_id: 'uuid',
      status: 'text',
      quantity: 'integer',
      amount_kobo: 'bigint',
      detail: 'text',
      company_detail: 'text',
      assigned_to: 'uuid',
      assigned_at: 'timestamptz',
      completed_at: 'timestamptz',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    jobsRows,
  );
  await bulk(db, 'job_applications', { job_id: 'uuid', lawyer_id: 'uuid', created_at: 'timestamptz' }, apps);
  await db.execute(sql`analyze`);
  return { orders: ordersRows.length, jobs: jobsRows.length, applications: apps.length };
}

/** Row counts of the tables the benchmark reads. */
export async function tableSizes(db: Db) {
  const res = (await db.execute(
    sql`select (select count(*) from users)::int as users, (select count(*) from products)::int as products,
        (select count(*) from jobs)::int as jobs, (select count(*) from job_applications)::int as applications,
        (select count(*) from orders)::int as orders, (select count(*) from reviews)::int as reviews,
        (select count(*) from cart_items)::int as cart_lines`,
  )) as unknown as { rows: Record<string, number>[] };
  return res.rows[0];
}

/** One signed-in session per company and lawyer, as platform/auth.ts stores a login. */
export interface BenchSession {
  sessionId: string;
  userId: string;
  userType: 'company' | 'lawyer';
  officialEmail: string;
  name: string;
  phoneNumber: string;
}

/** The sessions of the cold rows: ids come from the seed, so the runner can sign their tokens. */
export function benchSessions(seed: number): { companies: BenchSession[]; lawyers: BenchSession[] } {
  const id = ids(seed);
  const r = prng(seed ^ 0x5e55);
  return {
    companies: id.companies.map((userId, i) => ({
      sessionId: r.uuid(),
      userId,
      userType: 'company',
      officialEmail: benchEmail.company(i),
      name: `Contact ${i}`,
      phoneNumber: `23480${String(10_000_000 + i)}`,
    })),
    lawyers: id.lawyers.map((userId, i) => ({
      sessionId: r.uuid(),
      userId,
      userType: 'lawyer',
      officialEmail: benchEmail.lawyer(i),
      name: `Lawyer ${i}`,
      phoneNumber: `23481${String(10_000_000 + i)}`,
    })),
  };
}

/**
 * Session rows for every company and lawyer, so the cold rows sign in 2,500 users without 2,500
 * argon2 logins inside the measurement. `expiresAt` must lie after the run.
 */
export async function insertSessions(db: Db, opts: { seed: number; expiresAt: Date }) {
  const { companies, lawyers } = benchSessions(opts.seed);
  const rows = [...companies, ...lawyers].map((s) => ({
    id: s.sessionId,
    user_id: s.userId,
    created_at: iso(EPOCH),
    expires_at: opts.expiresAt.toISOString(),
  }));
  await bulk(
    db,
    'sessions',
    { id: 'uuid', user_id: 'uuid', created_at: 'timestamptz', expires_at: 'timestamptz' },
    rows,
  );
  return rows.length;
}

/**
 * Threads for the job page rows (issue 16): the newest in-progress job of each of the first
 * `companies` companies gets `messages` messages, alternately from the company and its lawyer, and the
 * company `notifications` notifications of them. Answers each company's index and job id.
 */
export async function insertThreads(
  db: Db,
  opts: { seed: number; companies: number; messages: number; notifications: number },
): Promise<Array<{ company: number; jobId: string }>> {
  const companyIds = ids(opts.seed).companies.slice(0, opts.companies);
  const picked = (await db.execute(
    sql`select distinct on (company_id) id, company_id from jobs
        where company_id in (${sql.join(
          companyIds.map((c) => sql`${c}::uuid`),
          sql`, `,
        )}) and stage = 'in_progress' and assigned_to is not null
        order by company_id, created_at desc`,
  )) as unknown as { rows: Array<{ id: string; company_id: string }> };
  const jobIds = picked.rows.map((r) => r.id);
  if (!jobIds.length) return [];
  const inList = sql.join(
    jobIds.map((j) => sql`${j}::uuid`),
    sql`, `,
  );
  await db.execute(sql`insert into job_events (job_id, action, actor_id, actor_role, note, files, from_stage, to_stage, created_at)
    select j.id, 'message', case when g % 2 = 0 then j.company_id else j.assigned_to end,
      case when g % 2 = 0 then 'company' else 'lawyer' end,
      'Message ' || g || ': please find my comments on clause ' || g || ' of the draft; the indemnity cap and the governing law need another look before we sign.',
      case when g % 20 = 0 then ('[{"url":"/uploads/bench-draft.pdf","name":"Draft agreement v' || g || '.pdf"}]')::jsonb else '[]'::jsonb end,
      'in_progress', 'in_progress', now() - (${opts.messages} - g) * interval '1 minute'
    from jobs j, generate_series(1, ${opts.messages}) g where j.id in (${inList})`);
  await db.execute(sql`insert into notifications (user_id, job_id, event_id, action, text, created_at, read_at)
    select e.actor_id_company, e.job_id, e.id, 'message', 'Lawyer sent a message on the job', e.created_at,
      case when e.rn > 10 then e.created_at else null end
    from (select ev.id, ev.job_id, ev.created_at, j.company_id as actor_id_company,
            row_number() over (partition by ev.job_id order by ev.id desc) as rn
          from job_events ev join jobs j on j.id = ev.job_id
          where ev.job_id in (${inList}) and ev.actor_role = 'lawyer') e
    where e.rn <= ${opts.notifications}`);
  await db.execute(sql`analyze job_events`);
  await db.execute(sql`analyze notifications`);
  const byCompany = new Map(picked.rows.map((r) => [r.company_id, r.id]));
  return companyIds.flatMap((c, i) => (byCompany.has(c) ? [{ company: i, jobId: byCompany.get(c)! }] : []));
}
