import { randomUUID } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { THREAD_PAGE, type JobPageResponse } from '@legalmarket/contracts';
import { jobEvents, jobReads, jobs, notifications, orders, products, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct } from '../../../test/admin-fixtures.js';
import { findJobViews, forCompany, jobViewsJsonQuery, withApplicants } from './view.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The job lists are built as JSON by the database (jobViewsJsonQuery); toJobView is the reference shape.
 * Every field must come out the same: ids, naira with kobo fractions, ISO timestamps, nulls, the
 * assigned lawyer, `late`, a company without a company name, and the order of the page.
 */
describeEachDb('job views built by the database', (kind) => {
  let t: TestApp;
  let companyId: string;
  let lawyerId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    companyId = company.id;
    lawyerId = lawyer.id;
    const db = t.rt.database.db;
    const [product] = await db
      .insert(products)
      .values({
        productName: 'Share “Agreement” — ₦ \\ "quoted"',
        // ₦12,345.67 and ₦0.1: fractions that a decimal rendering would write differently.
        productPrice: 1_234_567,
        productDescription: 'Line one\nLine two\ttabbed </script>',
        productImage: '/uploads/p.png',
      })
      .returning();
    const [cheap] = await db
      .insert(products)
      .values({ productName: 'Cheap', productPrice: 10, productDescription: 'd', productImage: '/uploads/c.png' })
      .returning();
    const [order] = await db
      .insert(orders)
      .values({
        companyId,
        txRef: `tx-${randomUUID()}`,
        amount: 1_234_577,
        status: 'paid',
        provider: 'sandbox',
        title: 'Products',
        lines: [],
        paidAt: t.clock.now(),
      })
      .returning();
    const now = Date.now();
    const rows: Array<Partial<typeof jobs.$inferInsert>> = [
      // Open, due long ago: late.
      { productId: product.id, amount: 1_234_567, dueAt: new Date(now - 86_400_000 * 3) },
      // Assigned and being worked on, with every brief field and files, due later.
      {
        productId: cheap.id,
        amount: 10,
        quantity: 3,
        stage: 'in_progress',
        assignedTo: lawyerId,
        assignedAt: new Date(now - 5_000),
        detail: 'Brief with "quotes" and émoji 🙂',
        companyDetail: 'More',
        companyFile: 'abc.pdf',
        companyFileName: 'contract final.pdf',
        lawyerRequestedDetail: 'Need the CAC form',
        adminDetail: 'Admin note',
        adminFile: 'def.pdf',
        adminFileName: 'notes.pdf',
        dueAt: new Date(now + 86_400_000 * 5 + 123),
      },
      // Completed long ago: not late, with completedAt.
      {
        productId: product.id,
        amount: 1,
        stage: 'completed',
        assignedTo: lawyerId,
        completedAt: new Date(now - 86_400_000 + 789),
        dueAt: new Date(now - 86_400_000 * 10),
      },
    ];
    for (const [i, values] of rows.entries()) {
      const at = new Date(now - (rows.length - i) * 60_000 + 456);
      const [row] = await db
        .insert(jobs)
        .values({
          orderId: order.id,
          lineNo: i + 1,
          companyId,
          quantity: 1,
          detail: null,
          createdAt: at,
          updatedAt: at,
          ...values,
        } as typeof jobs.$inferInsert)
        .returning({ id: jobs.id });
      ids.push(row.id);
    }
  });
  afterAll(() => t.close());

  const both = async (where = inArray(jobs.id, ids), opts: Omit<Parameters<typeof findJobViews>[2], 'now'> = {}) => {
    const db = t.rt.database.db;
    const now = new Date();
    return {
      expected: await findJobViews(db, where, { ...opts, now }),
      actual: JSON.parse(
        (await jobViewsJsonQuery(db, where, opts).execute({ now: now.toISOString() }))[0].json,
      ) as unknown,
    };
  };

  it('answers exactly what toJobView answers, in the same order', async () => {
    const { expected, actual } = await both();
    expect(expected).toHaveLength(3);
    expect(actual).toEqual(expected);
    // Same keys in every job, not only the same values where present.
    expect((actual as object[]).map((j) => Object.keys(j).sort())).toEqual(expected.map((j) => Object.keys(j).sort()));
  });

  it('writes timestamps with microseconds as JavaScript does (milliseconds, cut not rounded)', async () => {
    await t.rt.database.db
      .update(jobs)
      .set({ updatedAt: sql`'2026-11-26T01:02:03.456789Z'::timestamptz` })
      .where(eq(jobs.id, ids[0]));
    const { expected, actual } = await both(eq(jobs.id, ids[0]));
    expect(expected[0].updatedAt).toBe('2026-11-26T01:02:03.456Z');
    expect(actual).toEqual(expected);
  });

  it('keeps the order and the page it is given', async () => {
    const opts = { order: [asc(jobs.amount)], limit: 2, offset: 1 };
    const { expected, actual } = await both(inArray(jobs.id, ids), opts);
    expect(expected.map((j) => j.amount)).toEqual([0.1, 12345.67]);
    expect(actual).toEqual(expected);
  });

  it('answers a company what forCompany makes of toJobView: the lawyer named, without contacts (decision 2238)', async () => {
    const db = t.rt.database.db;
    const now = new Date();
    const where = inArray(jobs.id, ids);
    const expected = (await findJobViews(db, where, { now })).map(forCompany);
    const actual = JSON.parse(
      (await jobViewsJsonQuery(db, where, { lawyerContacts: 'hidden' }).execute({ now: now.toISOString() }))[0].json,
    ) as unknown;
    expect(expected.some((j) => j.assignedTo[0]?.name)).toBe(true);
    expect(actual).toEqual(expected);
  });

  it('falls back to the person’s name when a company has no company name, and answers [] for none', async () => {
    await t.rt.database.db.update(users).set({ companyName: null }).where(eq(users.id, companyId));
    const { expected, actual } = await both();
    expect(expected[0].companyId.companyName).not.toBe('');
    expect(actual).toEqual(expected);
    const none = await both(eq(jobs.id, randomUUID()));
    expect(none.actual).toEqual([]);
    expect(none.expected).toEqual([]);
  });
});

/**
 * The job page is read in one statement whose parts the database builds (jobPageJsonQuery). The
 * references are the reads that map rows in JavaScript: the job views of the lists (findJobViews,
 * withApplicants for admins) and the thread's events as the open page's poll answers them (toEvent).
 */
describeEachDb('the job page built by the database', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let jobId: string;
  let eventIds: number[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    const applicant = await signupAndLogin(t, 'lawyer', { verified: true });
    const db = t.rt.database.db;
    await db.update(users).set({ profileImage: '/uploads/face "one".png' }).where(eq(users.id, applicant.id));
    const product = await insertProduct(t, 'Trademark “Registration” \\ </script>', 1_234_567);
    const job = await insertJob(t, company.id, { productId: product.id, appliedBy: [applicant.id, lawyer.id] });
    jobId = job.id;
    await db
      .update(jobs)
      .set({ assignedTo: lawyer.id, stage: 'in_progress', status: 'pending', detail: 'Brief with "quotes" 🙂' })
      .where(eq(jobs.id, jobId));
    // Every kind of author: each party, an admin with and without a name, the clock, the payment, a
    // deleted user or admin; notes with quotes and new lines, files, and more events than one page holds.
    const authors: Array<{ actorId: string | null; actorRole: string }> = [
      { actorId: company.id, actorRole: 'company' },
      { actorId: lawyer.id, actorRole: 'lawyer' },
      { actorId: admin.id, actorRole: 'admin' },
      { actorId: null, actorRole: 'admin' },
      { actorId: null, actorRole: 'clock' },
      { actorId: null, actorRole: 'payment' },
      { actorId: null, actorRole: 'company' },
    ];
    const rows = Array.from({ length: THREAD_PAGE + 5 }, (_, i) => ({
      jobId,
      action: 'message',
      ...authors[i % authors.length],
      note: i % 3 ? `Note ${i} with "quotes"\nand a second line` : null,
      files: i % 4 ? [] : [{ url: `/uploads/doc-${i}.pdf`, name: `Draft ${i} “final”.pdf` }],
      fromStage: 'in_progress',
      toStage: 'in_progress',
      createdAt: sql`now() - make_interval(secs => ${THREAD_PAGE + 5 - i}) + interval '0.000789 seconds'`,
    }));
    eventIds = (
      await db
        .insert(jobEvents)
        .values(rows as never)
        .returning({ id: jobEvents.id })
    ).map((r) => r.id);
    await db.insert(jobReads).values({ jobId, userId: company.id, lastEventId: eventIds[40] });
  });
  afterAll(() => t.close());

  const get = async (url: string, who: Login) => {
    const r = await t.app.inject({ method: 'GET', url, headers: who.headers });
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };

  it('answers the views, events and read mark the JavaScript reads answer, for each party', async () => {
    const db = t.rt.database.db;
    const view = (await findJobViews(db, eq(jobs.id, jobId), { now: t.clock.now() }))[0];
    const [withApplied] = await withApplicants(db, [view]);
    expect(withApplied.appliedLawer).toHaveLength(2);
    for (const [who, expectedView, read] of [
      // The company reads its lawyer without contacts (decision 2238), as its lists do.
      [company, forCompany(view), String(eventIds[40])],
      [lawyer, view, '0'],
      [admin, withApplied, '0'],
    ] as const) {
      const page = (await get(`/job-api/jobs/${jobId}`, who)) as JobPageResponse;
      const poll = await get(`/job-api/jobs/${jobId}/events?before=${Number.MAX_SAFE_INTEGER}`, who);
      expect(page.job).toEqual(expectedView);
      expect(Object.keys(page.job)).toEqual(Object.keys(expectedView));
      expect(page.events).toEqual(poll.events);
      expect(page.events.map((e) => Number(e._id))).toEqual(eventIds.slice(-THREAD_PAGE));
      expect(page.earlier).toBe(true);
      expect(page.lastReadEventId).toBe(read);
    }
  });

  it('names every kind of author as the poll does, and keeps files and notes as written', async () => {
    const page = (await get(`/job-api/jobs/${jobId}`, admin)) as JobPageResponse;
    const names = new Set(page.events.map((e) => `${e.actor.role}:${e.actor.name}`));
    expect(names).toContain('clock:LegalMarket');
    expect(names).toContain('payment:Payment');
    expect(names).toContain('company:Former user');
    expect(names).toContain('admin:Administrator (admin)');
    expect([...names].filter((n) => n.startsWith('admin:') && n.endsWith(' (admin)'))).toHaveLength(2);
    const withFile = page.events.find((e) => e.files.length)!;
    expect(withFile.files[0].name).toMatch(/^Draft \d+ “final”\.pdf$/);
    expect(page.events.some((e) => e.note?.includes('"quotes"\nand'))).toBe(true);
  });

  it('pages the notification centre in one statement: 20 newest, then the rest, with the unread count', async () => {
    const db = t.rt.database.db;
    const readAt = new Date('2026-11-20T10:11:12.345Z');
    const rows = eventIds.slice(0, 25).map((eventId, i) => ({
      userId: lawyer.id,
      jobId,
      eventId,
      action: 'message',
      text: `Ada Ventures wrote “note ${i}” \\ "quoted"`,
      readAt: i % 5 === 0 ? readAt : null,
    }));
    const ids = (await db.insert(notifications).values(rows).returning({ id: notifications.id })).map((r) => r.id);
    const expected = (await db.select().from(notifications).where(eq(notifications.userId, lawyer.id)))
      .sort((a, b) => b.id - a.id)
      .map((n) => ({
        _id: String(n.id),
        jobId: n.jobId,
        action: n.action,
        text: n.text,
        createdAt: n.createdAt.toISOString(),
        readAt: n.readAt?.toISOString() ?? null,
      }));
    const first = await get('/api/notifications', lawyer);
    expect(first).toEqual({ notifications: expected.slice(0, 20), unread: 20, hasMore: true });
    const next = await get(`/api/notifications?before=${first.notifications[19]._id}`, lawyer);
    expect(next).toEqual({ notifications: expected.slice(20), unread: 20, hasMore: false });
    expect(next.notifications.map((n: { _id: string }) => Number(n._id))).toEqual(ids.slice(0, 5).reverse());
    // Someone with none: an empty page, not an error.
    expect(await get('/api/notifications', admin)).toEqual({ notifications: [], unread: 0, hasMore: false });
  });

  it('answers a job with no events and says nothing earlier remains', async () => {
    const job = await insertJob(t, company.id);
    const page = (await get(`/job-api/jobs/${job.id}`, company)) as JobPageResponse;
    expect(page.events).toEqual([]);
    expect(page.earlier).toBe(false);
    expect(page.lastReadEventId).toBe('0');
    expect(page.job).toEqual((await findJobViews(t.rt.database.db, eq(jobs.id, job.id), { now: t.clock.now() }))[0]);
  });
});
