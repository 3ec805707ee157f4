import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { cartItems, jobEvents, jobs, uploads } from '../../src/db/schema.js';
import { createUploadsService, ORPHAN_DOCUMENT_MS } from '../../src/features/uploads/service.js';
import type { Storage } from '../../src/platform/storage.js';
import {
  createTestApp,
  describeEachDb,
  otherConnection,
  signupAndLogin,
  waitingOnLock,
  type TestApp,
} from '../helpers.js';
import { buyOne, insertProduct } from '../commerce-helpers.js';
import { pdfBytes, pngBytes, uploadAs } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// A confidential document uploaded and never attached (the form was abandoned, the file replaced before
// sending) stayed in the store for ever, opened by nobody but its uploader and every admin, copied by
// every backup. The sweep removes such documents after a week and never one that anything names, even
// while an attach races it (decision 2360).
describeEachDb('documents nobody attached', (kind) => {
  let t: TestApp;
  let product: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'NDA Review', 20_000);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const keyOf = (url: string) => url.split('/').pop()!;
  const stored = async (url: string) => Boolean(await t.rt.storage.get(keyOf(url)));
  const row = async (url: string) =>
    (
      await db()
        .select()
        .from(uploads)
        .where(eq(uploads.key, keyOf(url)))
    )[0];
  /** Uploaded eight days ago, past the sweep's week. */
  const age = (url: string) =>
    db()
      .update(uploads)
      .set({ createdAt: sql`now() - make_interval(secs => ${(ORPHAN_DOCUMENT_MS + 86_400_000) / 1000})` })
      .where(eq(uploads.key, keyOf(url)));
  /** One instance's pass, as app.ts runs it hourly on each. */
  const sweep = (storage: Storage = t.rt.storage, logger?: { warn: (...args: unknown[]) => void }) =>
    createUploadsService({
      db: db(),
      storage,
      clock: t.clock,
      config: t.config,
      hashToken: (v) => v,
      logger,
    }).sweepOrphans();
  const message = (who: Login, jobId: string, note: string, file: { url: string; name: string }) =>
    t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${jobId}/actions/message`,
      headers: who.headers,
      payload: { note, files: [file] },
    });

  async function paidJob(company: Login) {
    const { orderId } = await buyOne(t, company, product);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job;
  }

  // First in the file: no upload is a week old yet. Every pass used to read every reference table
  // (users, products, cart lines, jobs, events, orders) even then, hourly on each instance.
  it('reads no reference when no document is old enough, and sweeps once one is', async () => {
    const company = await signupAndLogin(t, 'company');
    const fresh = await uploadAs(t.app, company.headers, 'document', pdfBytes('FRESH-ONLY'), 'fresh.pdf');
    const transactions = vi.spyOn(db(), 'transaction');
    try {
      expect(await sweep()).toBe(0);
      expect(transactions).not.toHaveBeenCalled();
      await age(fresh.url);
      expect(await sweep()).toBe(1);
      expect(transactions).toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
  });

  // The store refused a delete (a permission, an outage): the row went anyway and the confidential
  // bytes stayed for ever with nothing pointing at them, out of reach of any later pass or erasure.
  it('keeps the row of a document whose bytes could not be removed, logs its key, and retries next pass', async () => {
    const company = await signupAndLogin(t, 'company');
    const stuck = await uploadAs(t.app, company.headers, 'document', pdfBytes('STUCK'), 'stuck.pdf');
    await age(stuck.url);
    const refusing: Storage = {
      ...t.rt.storage,
      remove: async () => {
        throw Object.assign(new Error('AccessDenied'), { code: 'EACCES' });
      },
    };
    const warn = vi.fn();
    expect(await sweep(refusing, { warn })).toBe(0);
    expect(await row(stuck.url)).toBeDefined();
    expect(await stored(stuck.url)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ key: keyOf(stuck.url) }), expect.any(String));
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await row(stuck.url)).toBeUndefined();
    expect(await stored(stuck.url)).toBe(false);
  });

  it('removes an old unattached document, row and bytes, and keeps every one something names', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await paidJob(company);
    const doc = (name: string) => uploadAs(t.app, company.headers, 'document', pdfBytes(name), `${name}.pdf`);
    const abandoned = await doc('ABANDONED');
    const fresh = await doc('FRESH');
    const inThread = await doc('IN-THREAD');
    const inCart = await doc('IN-CART');
    const picture = await uploadAs(t.app, company.headers, 'image', pngBytes(), 'logo.png');
    expect((await message(company, job.id, 'Here it is', inThread)).statusCode).toBe(200);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: company.headers,
      payload: { productId: product, file: inCart.url, fileName: 'in-cart.pdf' },
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    expect(await db().select().from(cartItems).where(eq(cartItems.file, inCart.url))).toHaveLength(1);
    for (const old of [abandoned, inThread, inCart, picture]) await age(old.url);

    expect(await sweep()).toBe(1);
    expect(await row(abandoned.url)).toBeUndefined();
    expect(await stored(abandoned.url)).toBe(false);
    for (const kept of [fresh, inThread, inCart, picture]) {
      expect(await row(kept.url), kept.name).toBeDefined();
      expect(await stored(kept.url), kept.name).toBe(true);
    }
    // The job's lawyer and the company still open the thread's file.
    const link = await t.app.inject({
      method: 'GET',
      url: `/api/files/${keyOf(inThread.url)}/link`,
      headers: company.headers,
    });
    expect(link.statusCode).toBe(200);
    expect(await sweep()).toBe(0);
  });

  // A lawyer uploads on day 0 (the page uploads as soon as a file is picked, the draft keeps it) and
  // presses Deliver on day 8: the answer must say which of the files to upload again.
  it('names the swept file a late send still attaches, by the name it was sent under', async () => {
    const company = await signupAndLogin(t, 'company');
    const job = await paidJob(company);
    const kept = await uploadAs(t.app, company.headers, 'document', pdfBytes('KEPT'), 'kept.pdf');
    const swept = await uploadAs(t.app, company.headers, 'document', pdfBytes('SWEPT'), 'swept.pdf');
    await age(swept.url);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    const res = await t.app.inject({
      method: 'POST',
      url: `/job-api/jobs/${job.id}/actions/message`,
      headers: company.headers,
      payload: { note: 'Both files', files: [kept, { url: swept.url, name: 'Signed lease.pdf' }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message.startsWith(messages.attachedFileNotFound)).toBe(true);
    expect(res.json().file).toBe('Signed lease.pdf');
    const cart = await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: company.headers,
      payload: { productId: product, file: swept.url, fileName: 'Lease scan.pdf' },
    });
    expect(cart.statusCode, cart.body).toBe(400);
    expect(cart.json().file).toBe('Lease scan.pdf');
  });

  it('tells a reserved document swept meanwhile apart from one that is not yours', async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    const swept = await uploadAs(t.app, company.headers, 'document', pdfBytes('RESERVED'), 'reserved.pdf');
    const theirs = await uploadAs(t.app, other.headers, 'document', pdfBytes('THEIRS'), 'theirs.pdf');
    await age(swept.url);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await row(swept.url)).toBeUndefined();
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/cart/reservations',
      headers: company.headers,
      payload: {
        items: [
          { reservationId: randomUUID(), productId: product, file: swept.url, fileName: 'reserved.pdf' },
          { reservationId: randomUUID(), productId: product, file: theirs.url, fileName: 'theirs.pdf' },
        ],
      },
    });
    expect(moved.statusCode, moved.body).toBeLessThan(300);
    const notes: string[] = moved.json().notes;
    expect(notes.filter((n) => n.includes('was not found'))).toHaveLength(1);
    expect(notes.filter((n) => n.includes('is not yours to attach'))).toHaveLength(1);
  });

  // Several instances sweep, and an attach may come while one does: PostgreSQL only (PGlite has one
  // connection, so nothing interleaves).
  it.runIf(kind === 'postgres')(
    'skips a document an attach holds, and an attach after the sweep took it is refused',
    async () => {
      const company = await signupAndLogin(t, 'company');
      const job = await paidJob(company);
      const held = await uploadAs(t.app, company.headers, 'document', pdfBytes('HELD'), 'held.pdf');
      const taken = await uploadAs(t.app, company.headers, 'document', pdfBytes('TAKEN'), 'taken.pdf');
      await age(held.url);
      await age(taken.url);
      const other = await otherConnection(t);
      // A third session watches: pg_stat_activity is read once per transaction, and `other` is in one.
      const watcher = await otherConnection(t);
      try {
        // An attach under way holds its row: the sweep passes over it, and the attach then names it.
        await other.query('begin');
        await other.query(`select 1 from uploads where key = $1 for share`, [keyOf(held.url)]);
        expect(await sweep()).toBe(1); // `taken` only
        expect(await row(held.url)).toBeDefined();
        await other.query('commit');
        expect(await row(taken.url)).toBeUndefined();

        // A sweep that took a row first: the attach waits for it, then finds the file gone (400), and no
        // thread names a file that no longer exists.
        const late = await uploadAs(t.app, company.headers, 'document', pdfBytes('LATE'), 'late.pdf');
        await age(late.url);
        await other.query('begin');
        await other.query(`select 1 from uploads where key = $1 for update`, [keyOf(late.url)]);
        const attach = message(company, job.id, 'Attaching now', late);
        expect(await waitingOnLock(watcher, '%"uploads"%for share%')).toBe(true);
        await other.query(`delete from uploads where key = $1`, [keyOf(late.url)]);
        await other.query('commit');
        const answer = await attach;
        expect(answer.statusCode, answer.body).toBe(400);
        expect(answer.json().message).toBe(messages.attachedFileNotFound);
        const events = await db().select().from(jobEvents).where(eq(jobEvents.jobId, job.id));
        expect(JSON.stringify(events.map((e) => e.files))).not.toContain(keyOf(late.url));
      } finally {
        await other.query('rollback').catch(() => undefined);
        await other.end();
        await watcher.end();
      }
    },
  );
});
