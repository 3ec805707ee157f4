import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { emailOutbox, subscriptions } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { addMonth, type createPlansService } from './service.js';
import { planServices, reloggingInject, subscribeInSandbox } from './plan-test-kit.js';

const HOUR = 3_600_000;
const lagosDay = (iso: string) => new Date(new Date(iso).getTime() + HOUR).toISOString().slice(0, 10);

describe('plan months in Lagos', () => {
  it('renews on the same Lagos day next month for a plan started in the first hour of a Lagos day', () => {
    // 00:30 on 1 March in Lagos is still 28 February in UTC: the plan renews on 1 April in Lagos.
    expect(addMonth(new Date('2026-02-28T23:30:00Z')).toISOString()).toBe('2026-03-31T23:30:00.000Z');
    // 00:15 on 31 January in Lagos: the last day of February, in Lagos.
    expect(addMonth(new Date('2026-01-30T23:15:00Z')).toISOString()).toBe('2026-02-27T23:15:00.000Z');
  });
});

describeEachDb('the plan scheduler when a step fails or the hour is late', (kind) => {
  let t: TestApp;
  let plans: ReturnType<typeof createPlansService>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ plans } = planServices(t));
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const inject = reloggingInject(() => t);
  const mine = async (who: Awaited<ReturnType<typeof signupAndLogin>>) =>
    (await inject('GET', '/api/plans/mine', who)).json().data as PlanView;

  it('renews the plans due after one whose step fails, and that one on the next pass', async () => {
    const [stuckCo, fineCo] = [await signupAndLogin(t, 'company'), await signupAndLogin(t, 'company')];
    const stuck = (await subscribeInSandbox(inject, stuckCo, 'silver')).plan;
    const fine = (await subscribeInSandbox(inject, fineCo, 'bronze')).plan;
    // The stuck plan is due first; claiming it fails (a fault in the database for that row).
    await db()
      .update(subscriptions)
      .set({ periodEnd: new Date(t.clock.now().getTime() - 2 * HOUR) })
      .where(eq(subscriptions.id, stuck._id));
    await db()
      .update(subscriptions)
      .set({ periodEnd: new Date(t.clock.now().getTime() - HOUR) })
      .where(eq(subscriptions.id, fine._id));
    await db().execute(
      sql.raw(`create function plan_stuck() returns trigger language plpgsql as $$
        begin raise exception 'the database refused this plan'; end $$`),
    );
    await db().execute(
      sql.raw(`create trigger plan_stuck before update on subscriptions for each row
        when (new.id = '${stuck._id}') execute function plan_stuck()`),
    );
    try {
      await expect(plans.tick()).rejects.toThrow(/1 plan\(s\) failed/);
      expect((await mine(fineCo)).periodStart).not.toBe(fine.periodStart);
      expect((await mine(stuckCo)).periodStart).toBe(stuck.periodStart);
    } finally {
      await db().execute(sql.raw('drop trigger plan_stuck on subscriptions'));
      await db().execute(sql.raw('drop function plan_stuck()'));
    }
    await plans.tick();
    const renewed = await mine(stuckCo);
    expect(renewed.status).toBe('active');
    expect(renewed.periodStart).not.toBe(stuck.periodStart);
  });

  it('names the renewal day in its mail as the plan page does, in Lagos, for a plan started after midnight there', async () => {
    // The next 23:30 UTC: 00:30 in Lagos, a day later than UTC.
    const now = t.clock.now().getTime();
    const target = Math.ceil((now - 23.5 * HOUR) / (24 * HOUR)) * 24 * HOUR + 23.5 * HOUR;
    t.clock.advance(target + 24 * HOUR - now);
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribeInSandbox(inject, company, 'silver');
    expect(lagosDay(plan.renewsAt)).toBe(lagosDay(new Date(addMonth(new Date(plan.periodStart))).toISOString()));
    const mail = await db().select().from(emailOutbox).where(eq(emailOutbox.to, company.email));
    const receipt = mail.find((m) => /renews on/.test(m.text ?? ''));
    expect(receipt?.text).toContain(`renews on ${lagosDay(plan.renewsAt)}`);
    // The account deletion's blocker names the same day.
    const deletion = await inject('GET', '/api/account/deletion', company);
    expect(JSON.stringify(deletion.json())).toContain(`renews on ${lagosDay(plan.renewsAt)}.`);
  });
});
