import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { subscriptions } from '../../db/schema.js';
import { PASSWORD, describeEachDb, lastMailTo, linkToken, signupAndLogin, uniqueEmail } from '../../../test/helpers.js';
import { createLoggedTestApp } from '../../../test/commerce-helpers.js';
import { multipart } from '../../../test/upload-helpers.js';
import { flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import type { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createPlansService } from './service.js';
import { planServices, standInProvider, standInSubscription } from './plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const COMPANIES = 8;
const pause = (ms: number) => (ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * Decision 2236: Flutterwave ties a saved card's token, and the subscription a charge on a payment plan
 * makes, to the e-mail the charge was made with ("This has to be the exact email address passed during
 * the initial charge"). A company whose sign-in address moves while its first plan payment is being
 * verified keeps a plan whose renewals are charged, and whose provider subscription is cancelled, under
 * the address the card was charged with.
 */
describeEachDb('a plan started while the sign-in address moves', (kind) => {
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  const flw = flutterwaveStandIn({ now: () => t.clock.now() });
  let plans: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;
  /** A scheduler whose provider cancels go through and then wait, while `hold` is set, before answering. */
  let held: ReturnType<typeof createPlansService>;
  let hold: { email: string; reached: () => void; release: Promise<void> } | null = null;

  beforeAll(async () => {
    const config = await listenStandIn(flw);
    t = await createLoggedTestApp(kind, config);
    const { deps, provider, lifecycle, ...built } = planServices(t, { provider: standInProvider(config) });
    ({ plans, ledger } = built);
    const slow = {
      ...provider,
      async cancelPlanSubscription(planId: string, email: string) {
        await provider.cancelPlanSubscription(planId, email);
        if (hold?.email === email) {
          hold.reached();
          await hold.release;
        }
      },
    };
    const refunds = createRefunds({ ...deps, provider: slow, ledger });
    held = createPlansService(deps, { provider: slow, ledger, lifecycle, refunds });
  });
  afterAll(async () => {
    await t.close();
    flw.server.close();
  });

  const inject = (method: 'POST' | 'PATCH', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  const subscriptionAt = (planId: string, email: string) => standInSubscription(flw, planId, email);

  /** Asks for a new sign-in address; answers the confirmation link's token from the new inbox. */
  async function askToMove(who: Login, next: string) {
    const body = await multipart([
      { name: 'officialEmail', value: next },
      { name: 'currentPassword', value: PASSWORD },
    ]);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    return linkToken((await lastMailTo(t, next))!.text)!;
  }

  it('renews on the card and cancels its provider subscription under the e-mail it was charged with', async () => {
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => signupAndLogin(t, 'company')));
    const started = await Promise.all(
      companies.map(async (who, i) => {
        const data = (await inject('POST', '/api/plans/subscribe', who, { tier: 'silver' })).json().data as {
          reference: string;
          amount: number;
          paymentPlan: string;
          customer: { email: string };
        };
        // The window charges the card under the address the answer gave it.
        expect(data.customer.email).toBe(who.email);
        const id = flw.pay(data.reference, data.amount, { email: who.email, paymentPlan: Number(data.paymentPlan) });
        const token = await askToMove(who, uniqueEmail(`moved${i}`));
        return { who, data, id, token };
      }),
    );
    // The new address's link and the payment's confirmation at once, either first by a millisecond;
    // every fourth company confirms its new address first, as when the background pass verifies later.
    const confirmed = await Promise.all(
      started.map(async ({ who, data, id, token }, i) => {
        const move = () => t.app.inject({ method: 'POST', url: '/api/confirm-email-change', payload: { token } });
        const pay = () =>
          inject('POST', '/api/plans/confirm', who, { reference: data.reference, transactionId: String(id) });
        if (i % 4 === 3) {
          expect((await move()).statusCode).toBe(200);
          return pay();
        }
        const [moved, paid] = await Promise.all([
          pause(i % 4 === 1 ? 1 : 0).then(move),
          pause(i % 4 === 2 ? 1 : 0).then(pay),
        ]);
        expect(moved.statusCode).toBe(200);
        return paid;
      }),
    );
    for (const res of confirmed) expect(res.statusCode).toBe(200);

    // The scheduler's next minute cancels the subscriptions the first charges made at the provider.
    await plans.tick();
    for (const { who, data } of started)
      expect(subscriptionAt(data.paymentPlan, who.email)?.status, who.email).toBe('cancelled');

    // A month on, each renewal is charged to the saved card under that e-mail, and pays.
    const renewsAt = (confirmed[0].json().data as PlanView).renewsAt;
    t.clock.advance(new Date(renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    for (const { who } of started) {
      const [sub] = await t.rt.database.db.select().from(subscriptions).where(eq(subscriptions.companyId, who.id));
      expect({ status: sub.status, period: sub.period }).toEqual({ status: 'active', period: 2 });
      const renewal = [...flw.txs.values()].find((x) => x.tx_ref === `SUB-${sub.id}-2-1`);
      expect({ status: renewal?.status, email: renewal?.customer.email }).toEqual({
        status: 'successful',
        email: who.email,
      });
      expect(sub.customerEmail).toBe(who.email);
    }
    expect(await ledger.audit()).toEqual([]);
  }, 120_000);

  it('a second charge that subscribes the card while the first one’s cancel is on its way is cancelled too', async () => {
    const who = await signupAndLogin(t, 'company');
    const data = (await inject('POST', '/api/plans/subscribe', who, { tier: 'bronze' })).json().data as {
      reference: string;
      amount: number;
      paymentPlan: string;
    };
    const charge = () =>
      flw.pay(data.reference, data.amount, { email: who.email, paymentPlan: Number(data.paymentPlan) });
    const first = charge();
    const ok = await inject('POST', '/api/plans/confirm', who, {
      reference: data.reference,
      transactionId: String(first),
    });
    expect(ok.statusCode).toBe(200);
    // The scheduler cancels the subscription the first charge made; the provider has done it, the answer is on its way...
    let reached!: () => void;
    const atProvider = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    hold = { email: who.email, reached, release: new Promise<void>((r) => (release = r)) };
    const pass = held.tick();
    await atProvider;
    expect(subscriptionAt(data.paymentPlan, who.email)?.status).toBe('cancelled');
    // ...when the window, paid again in another tab, subscribes the card again; its confirmation and
    // webhook arrive at once.
    const second = charge();
    expect(subscriptionAt(data.paymentPlan, who.email)?.status).toBe('active');
    const [again] = await Promise.all([
      inject('POST', '/api/plans/confirm', who, { reference: data.reference, transactionId: String(second) }),
      plans.onWebhook({ data: { id: second, tx_ref: data.reference } }),
    ]);
    expect(again.statusCode).toBe(409);
    hold = null;
    release();
    await pass;
    // The next minute's pass cancels it again: Flutterwave never charges the card on its own cycle.
    await plans.tick();
    expect(subscriptionAt(data.paymentPlan, who.email)?.status).toBe('cancelled');
    expect(await ledger.audit()).toEqual([]);
  });

  // Decision 2247: a first payment that started no plan keeps its charge's e-mail, so its provider
  // subscription is cancelled under it though the company moved its address before the cancel ran.
  it('cancels a payment that started no plan under the e-mail it was charged with', async () => {
    const who = await signupAndLogin(t, 'company');
    const data = (await inject('POST', '/api/plans/subscribe', who, { tier: 'bronze' })).json().data as {
      reference: string;
      amount: number;
      paymentPlan: string;
    };
    // The wrong amount: it pays nothing here, but the charge on the payment plan subscribed the card.
    const id = flw.pay(data.reference, data.amount - 1, { email: who.email, paymentPlan: Number(data.paymentPlan) });
    const refused = await inject('POST', '/api/plans/confirm', who, {
      reference: data.reference,
      transactionId: String(id),
    });
    expect(refused.statusCode, refused.body).toBe(400);
    const token = await askToMove(who, uniqueEmail('moved'));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/confirm-email-change', payload: { token } })).statusCode,
    ).toBe(200);
    expect(subscriptionAt(data.paymentPlan, who.email)?.status).toBe('active');
    await plans.tick();
    expect(subscriptionAt(data.paymentPlan, who.email)?.status).toBe('cancelled');
  });
});
