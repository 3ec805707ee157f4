import { afterEach, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { emailOutbox, refunds } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { moneyTestKit, type MoneyTestApp } from './money-test-kit.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * Decision 2284: a cancelled job's refund that was never sent (the provider unreachable, a stop after
 * the commit) or was refused is sent again by the background job, as one of money paid for nothing is
 * (2251): the provider's refunds asked first, claimed in one statement against an admin's retry (2264).
 */
describeEachDb('refunds of cancelled jobs sent again by the background job', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, inject, reconcile, resendRacingRetry, madeAtProvider, postingsOf } = kit;
  const { paidJob: paidJobOf, cancelJob: cancel, refundOfJob: refundOf } = kit;
  const { refundsDue } = kit;
  let t: MoneyTestApp;
  let nda: string;
  let tm: string;
  beforeAll(() => {
    ({ t, nda, tm } = kit.suite);
  });
  afterEach(() => flw.setDown(false));

  /**
   * A company that paid ₦175,000 for the NDA and a trademark, and the NDA's job: its ₦25,000 refund
   * fits twice in the payment, so the provider would make a second one.
   */
  const paidJob = () => paidJobOf([nda, tm]);
  const refundPostings = async (refundId: string) =>
    (await postingsOf(refundId)).filter((p) => p.kind === 'refund' && p.account === 'refunds_due');
  const refundMails = async (email: string) =>
    (await mailsTo(t, email)).filter((m) => m.subject === 'Your refund of ₦25,000 is on its way');

  it('the provider unreachable when the job is cancelled: the background job sends its refund once it answers', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { who, paid, job } = await paidJob();
    flw.setDown(true);
    expect((await cancel(admin, job.id)).statusCode).toBe(200);
    const waiting = await refundOf(job.id);
    expect(waiting).toMatchObject({ status: 'pending', providerRefundId: null, amount: 2_500_000 });
    // Still down a minute on: the pass tries and leaves it pending.
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect(await refundOf(job.id)).toMatchObject({ status: 'pending', providerRefundId: null });
    flw.setDown(false);
    // Within the minute after that try: not sent yet.
    await reconcile();
    expect(madeAtProvider(paid)).toEqual([]);
    t.clock.advance(2 * 60_000);
    const passes = await Promise.all([reconcile(), reconcile(), reconcile()]);
    expect(passes.reduce((s, p) => s + p.refundsSent, 0)).toBe(1);
    expect(await refundOf(job.id)).toMatchObject({ status: 'completed' });
    expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]);
    expect(await refundPostings(waiting.id)).toEqual([{ kind: 'refund', account: 'refunds_due', amount: 2_500_000 }]);
    expect(await refundMails(who.email)).toHaveLength(1);
    t.clock.advance(2 * HOUR);
    await reconcile();
    expect(madeAtProvider(paid)).toHaveLength(1);
    expect(await refundsDue()).toBe(0);
  });

  it('refused when the job is cancelled: failed for the admin, then sent by the background job an hour on', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { paid, job } = await paidJob();
    flw.setRefundMode('refuse');
    expect((await cancel(admin, job.id)).statusCode).toBe(200);
    expect(await refundOf(job.id)).toMatchObject({ status: 'failed' });
    flw.setRefundMode('completed');
    // Within the hour: left failed.
    t.clock.advance(30 * 60_000);
    await reconcile();
    expect(await refundOf(job.id)).toMatchObject({ status: 'failed' });
    t.clock.advance(31 * 60_000);
    await reconcile();
    expect(await refundOf(job.id)).toMatchObject({ status: 'completed' });
    expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]);
    expect(await refundsDue()).toBe(0);
  });

  it('refused for three days: the admins are told once and the background job stops sending it (2309)', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { paid, job } = await paidJob();
    flw.setRefundMode('refuse');
    expect((await cancel(admin, job.id)).statusCode).toBe(200);
    const refused = await refundOf(job.id);
    expect(refused).toMatchObject({ status: 'failed' });
    const sends = () => flw.calls.filter((c) => c === `POST /v3/transactions/${paid}/refund`).length;
    const toldAdmins = async () =>
      (
        await db()
          .select({ subject: emailOutbox.subject })
          .from(emailOutbox)
          .where(sql`strpos(${emailOutbox.text}, ${refused.id}) > 0`)
      ).filter((m) => m.subject === 'A refund of ₦25,000 is still refused by the provider').length;
    expect(sends()).toBe(1);
    // Two days on: still sent again, refused again, nobody told yet.
    t.clock.advance(2 * DAY);
    await reconcile();
    expect(sends()).toBe(2);
    expect(await toldAdmins()).toBe(0);
    // Past three days: not sent, the admins told, the refund left failed for them.
    t.clock.advance(DAY + 60_000);
    await Promise.all([reconcile(), reconcile()]);
    expect(sends()).toBe(2);
    const told = await toldAdmins();
    expect(told).toBeGreaterThan(0);
    expect(await refundOf(job.id)).toMatchObject({ status: 'failed' });
    // Hours on: neither sent nor told again.
    for (let hour = 0; hour < 3; hour++) {
      t.clock.advance(HOUR + 60_000);
      await reconcile();
    }
    expect(sends()).toBe(2);
    expect(await toldAdmins()).toBe(told);
    // An admin's retry still sends it (signed in afresh: the first admin's session ended days ago).
    flw.setRefundMode('completed');
    const later = await signupAndLogin(t, 'admin');
    expect((await inject('POST', `/api/admin/refunds/${refused.id}/retry`, later)).statusCode).toBe(200);
    expect(await refundOf(job.id)).toMatchObject({ status: 'completed' });
    expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]);
    expect(await refundsDue()).toBe(0);
  });

  it('an answer lost on the way back: the background job takes the refund the provider made, never a second', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { who, paid, job } = await paidJob();
    flw.setRefundMode('lose');
    expect((await cancel(admin, job.id)).statusCode).toBe(200);
    const lost = await refundOf(job.id);
    expect(lost).toMatchObject({ status: 'pending', providerRefundId: null });
    const [made] = madeAtProvider(paid);
    expect(made.amount_refunded).toBe(25_000);
    flw.setRefundMode('completed');
    t.clock.advance(2 * 60_000);
    await Promise.all([reconcile(), reconcile()]);
    expect(await refundOf(job.id)).toMatchObject({ status: 'completed', providerRefundId: String(made.id) });
    expect(madeAtProvider(paid)).toHaveLength(1);
    expect(await refundPostings(lost.id)).toHaveLength(1);
    expect(await refundMails(who.email)).toHaveLength(1);
    t.clock.advance(2 * HOUR);
    await reconcile();
    expect(madeAtProvider(paid)).toHaveLength(1);
    expect(await refundsDue()).toBe(0);
  });

  it('the background job and an admin retrying at the same moment send a cancelled job’s refund once', async () => {
    for (const left of ['refused', 'unsent'] as const) {
      const admin = await signupAndLogin(t, 'admin');
      const { paid, job } = await paidJob();
      if (left === 'refused') flw.setRefundMode('refuse');
      else flw.setDown(true);
      expect((await cancel(admin, job.id)).statusCode).toBe(200);
      const due = await refundOf(job.id);
      expect(due.status).toBe(left === 'refused' ? 'failed' : 'pending');
      flw.setRefundMode('completed');
      flw.setDown(false);
      t.clock.advance(left === 'refused' ? HOUR + 60_000 : 2 * 60_000);
      // The admin's retry (POST /api/admin/refunds/:id/retry) reaches the provider slowly, pressed right
      // after the background job has claimed the refund.
      const answer = await resendRacingRetry(due.id);
      // The retry was told the refund is being sent (409), and sent nothing.
      expect(answer).toMatchObject({ statusCode: 409 });
      expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]);
      expect(await refundOf(job.id)).toMatchObject({ status: 'completed' });
      t.clock.advance(2 * HOUR);
      await reconcile();
      expect(madeAtProvider(paid)).toHaveLength(1);
    }
    expect(await refundsDue()).toBe(0);
  });

  it.runIf(kind === 'postgres')(
    'rounds of the background job and admin retries of a cancelled job’s refund at once: sent once each',
    async () => {
      for (let round = 0; round < 3; round++) {
        const admin = await signupAndLogin(t, 'admin');
        const { paid, job } = await paidJob();
        flw.setRefundMode(round === 1 ? 'lose' : 'refuse');
        expect((await cancel(admin, job.id)).statusCode).toBe(200);
        const due = await refundOf(job.id);
        flw.setRefundMode('completed');
        t.clock.advance(HOUR + 60_000);
        const retry = () => inject('POST', `/api/admin/refunds/${due.id}/retry`, admin);
        const [, one, , two] = await Promise.all([reconcile(), retry(), reconcile(), retry()]);
        for (const answer of [one, two]) expect([200, 409]).toContain(answer.statusCode);
        t.clock.advance(2 * HOUR);
        await reconcile();
        expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]);
        expect(await refundOf(job.id)).toMatchObject({ status: 'completed' });
        expect(await refundPostings(due.id)).toHaveLength(1);
      }
      expect(await refundsDue()).toBe(0);
    },
  );

  it('a refund whose hand-over to an admin fails holds back none of the refunds due after it', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const stuck = await paidJob();
    const fine = await paidJob();
    flw.setRefundMode('refuse');
    expect((await cancel(admin, stuck.job.id)).statusCode).toBe(200);
    flw.setRefundMode('completed');
    flw.setDown(true);
    expect((await cancel(admin, fine.job.id)).statusCode).toBe(200);
    flw.setDown(false);
    const [refused, waiting] = [await refundOf(stuck.job.id), await refundOf(fine.job.id)];
    expect(refused).toMatchObject({ status: 'failed' });
    expect(waiting).toMatchObject({ status: 'pending', providerRefundId: null });
    // Refused four days ago (so it is given up) and first in the pass's order; the other unsent for minutes.
    const now = t.clock.now().getTime();
    await db()
      .update(refunds)
      .set({
        createdAt: new Date(now - 4 * DAY),
        firstRefusedAt: new Date(now - 4 * DAY),
        updatedAt: new Date(now - 2 * HOUR),
      })
      .where(eq(refunds.id, refused.id));
    await db()
      .update(refunds)
      .set({ updatedAt: new Date(now - 2 * 60_000) })
      .where(eq(refunds.id, waiting.id));
    // Giving the refused one up fails (a fault in the database on its row).
    await db().execute(
      sql.raw(`create function refund_stuck() returns trigger language plpgsql as $$
        begin raise exception 'the database refused this refund'; end $$`),
    );
    await db().execute(
      sql.raw(`create trigger refund_stuck before update on refunds for each row
        when (new.id = '${refused.id}') execute function refund_stuck()`),
    );
    try {
      await reconcile().catch(() => undefined);
      expect(await refundOf(fine.job.id)).toMatchObject({ status: 'completed' });
      expect(madeAtProvider(fine.paid).map((r) => r.amount_refunded)).toEqual([25_000]);
      expect((await refundOf(stuck.job.id)).failure ?? '').not.toMatch(/^Not sent again by itself/);
    } finally {
      await db().execute(sql.raw('drop trigger refund_stuck on refunds'));
      await db().execute(sql.raw('drop function refund_stuck()'));
    }
    // The next pass gives the refused one up.
    await reconcile();
    expect((await refundOf(stuck.job.id)).failure).toMatch(/^Not sent again by itself/);
  });
});
