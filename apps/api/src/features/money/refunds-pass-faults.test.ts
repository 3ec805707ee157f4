import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { emailOutbox, refunds } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { moneyTestKit, type MoneyTestApp } from './money-test-kit.js';

const MIGRATION = fileURLToPath(
  new URL('../../db/migrations/0035_job_timers_cache_and_first_refusals.sql', import.meta.url),
);
/** The statement of migration 0035 that sets the first refusal of the refunds already refused. */
const backfill = () =>
  readFileSync(MIGRATION, 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => /UPDATE "refunds"/.test(s));

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * Decision 2334: the background pass over refused refunds passes over a refund whose claim fails, and
 * gives a refund up three days after its first refusal, not three days after it was opened.
 */
describeEachDb('the refund pass: a failing row, and days counted from the first refusal', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, inject, reconcile } = kit;
  const { paidJob: paidJobOf, cancelJob: cancel, refundOfJob: refundOf } = kit;
  let t: MoneyTestApp;
  let nda: string;
  beforeAll(() => {
    ({ t, nda } = kit.suite);
  });
  afterEach(async () => {
    flw.setDown(false);
    await db().execute(sql`drop trigger if exists refund_fault_2334 on refunds`);
  });

  const paidJob = () => paidJobOf([nda]);
  const sendsOf = (paid: number) => flw.calls.filter((c) => c === `POST /v3/transactions/${paid}/refund`).length;

  it('a refund whose claim fails is left for the next pass; the refunds due after it are still sent', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const first = await paidJob();
    const second = await paidJob();
    flw.setRefundMode('refuse');
    expect((await cancel(admin, first.job.id)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await cancel(admin, second.job.id)).statusCode).toBe(200);
    const stuck = await refundOf(first.job.id);
    expect(stuck).toMatchObject({ status: 'failed' });
    expect(await refundOf(second.job.id)).toMatchObject({ status: 'failed' });
    // The first in the pass's order (refused first) cannot be written: its claim throws.
    await db().execute(
      sql.raw(`create or replace function refund_fault_2334() returns trigger language plpgsql as $$
        begin
          if new.id = '${stuck.id}' then raise exception 'injected fault on refund %', new.id; end if;
          return new;
        end $$`),
    );
    await db().execute(
      sql`create trigger refund_fault_2334 before update on refunds for each row execute function refund_fault_2334()`,
    );
    flw.setRefundMode('completed');
    t.clock.advance(HOUR + 2 * 60_000);
    await reconcile();
    expect(await refundOf(second.job.id)).toMatchObject({ status: 'completed' });
    expect(await refundOf(first.job.id)).toMatchObject({ status: 'failed' });
    expect(sendsOf(first.paid)).toBe(1);
    // The fault gone, the next pass sends the one it passed over.
    await db().execute(sql`drop trigger refund_fault_2334 on refunds`);
    await reconcile();
    expect(await refundOf(first.job.id)).toMatchObject({ status: 'completed' });
    expect(sendsOf(first.paid)).toBe(2);
  });

  it('a refund opened days ago and first refused now is sent again, and given up three days after that', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { paid, job } = await paidJob();
    flw.setDown(true);
    expect((await cancel(admin, job.id)).statusCode).toBe(200);
    const waiting = await refundOf(job.id);
    expect(waiting).toMatchObject({ status: 'pending', providerRefundId: null });
    const toldAdmins = async () =>
      (
        await db()
          .select({ subject: emailOutbox.subject })
          .from(emailOutbox)
          .where(sql`strpos(${emailOutbox.text}, ${waiting.id}) > 0`)
      ).filter((m) => m.subject === 'A refund of ₦25,000 is still refused by the provider').length;
    // The provider unreachable for four days: the refund waits unsent, which is no refusal.
    t.clock.advance(4 * DAY);
    await reconcile();
    expect(await refundOf(job.id)).toMatchObject({ status: 'pending', providerRefundId: null });
    // Calls the stand-in saw while it was down (answered with an outage) are no refusals.
    const base = sendsOf(paid);
    flw.setDown(false);
    flw.setRefundMode('refuse');
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect(sendsOf(paid)).toBe(base + 1);
    expect(await refundOf(job.id)).toMatchObject({ status: 'failed' });
    // An hour after its first refusal: sent again, nobody told.
    t.clock.advance(HOUR + 60_000);
    await reconcile();
    expect(sendsOf(paid)).toBe(base + 2);
    expect(await toldAdmins()).toBe(0);
    // Three days after the first refusal: not sent again, the admins told.
    t.clock.advance(3 * DAY);
    await reconcile();
    expect(sendsOf(paid)).toBe(base + 2);
    expect(await toldAdmins()).toBeGreaterThan(0);
    expect(await refundOf(job.id)).toMatchObject({ status: 'failed' });
  });

  it('migration 0035: a refund given up before it, retried by an admin and refused again, is given up at the next pass', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const gone = await paidJob();
    const refusedOnce = await paidJob();
    flw.setRefundMode('refuse');
    expect((await cancel(admin, gone.job.id)).statusCode).toBe(200);
    const opened = await refundOf(gone.job.id);
    expect(opened).toMatchObject({ status: 'failed' });
    const toldAdmins = async () =>
      (
        await db()
          .select({ subject: emailOutbox.subject })
          .from(emailOutbox)
          .where(sql`strpos(${emailOutbox.text}, ${opened.id}) > 0`)
      ).filter((m) => m.subject === 'A refund of ₦25,000 is still refused by the provider').length;
    // Refused for three days: given up, the admins told.
    for (let hour = 0; hour < 3 * 24 + 1; hour += 12) {
      t.clock.advance(12 * HOUR);
      await reconcile();
    }
    const given = await refundOf(gone.job.id);
    expect(given.failure).toMatch(/^Not sent again by itself: /);
    const told = await toldAdmins();
    expect(told).toBeGreaterThan(0);
    // Another one refused just now (the admin signed in afresh: the first one's session ended days ago).
    const admin2 = await signupAndLogin(t, 'admin');
    expect((await cancel(admin2, refusedOnce.job.id)).statusCode).toBe(200);
    expect(await refundOf(refusedOnce.job.id)).toMatchObject({ status: 'failed' });
    // The database as it was before 0035: no first refusal kept; the given-up one's updated_at is
    // when it was given up, a day before the migration.
    await db()
      .update(refunds)
      .set({ firstRefusedAt: null })
      .where(sql`${refunds.jobId} in (${gone.job.id}, ${refusedOnce.job.id})`);
    t.clock.advance(DAY);
    for (const statement of backfill()) await db().execute(sql.raw(statement));
    expect((await refundOf(gone.job.id)).firstRefusedAt).toEqual(opened.createdAt);
    const stillRefused = await refundOf(refusedOnce.job.id);
    expect(stillRefused.firstRefusedAt).toEqual(stillRefused.updatedAt);
    // An admin retries it; refused again, it is given up at the next pass, not sent for two more days.
    const later = await signupAndLogin(t, 'admin');
    expect((await inject('POST', `/api/admin/refunds/${opened.id}/retry`, later)).statusCode).toBe(200);
    expect(await refundOf(gone.job.id)).toMatchObject({
      status: 'failed',
      failure: expect.not.stringMatching(/^Not sent/),
    });
    const sent = sendsOf(gone.paid);
    t.clock.advance(HOUR + 60_000);
    await reconcile();
    expect(sendsOf(gone.paid)).toBe(sent);
    expect(await toldAdmins()).toBeGreaterThan(told);
    expect((await refundOf(gone.job.id)).failure).toMatch(/^Not sent again by itself: /);
  });
});
