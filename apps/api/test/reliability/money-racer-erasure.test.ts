import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { payouts, users } from '../../src/db/schema.js';
import { describeEachDb, PASSWORD, type signupAndLogin } from '../helpers.js';
import { secondInstance } from '../second-instance.js';
import { SECRET_HASH } from '../flutterwave-standin.js';
import { payoutTestKit, until, type PayoutTestApp } from '../../src/features/money/payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type App = PayoutTestApp['app'];

/**
 * A lawyer deleting the account on two instances while its last payout settles there: the transfer's
 * webhook on both instances, both instances' reconciler passes, and new withdrawals. Whatever wins, the
 * payout settles once, and an account is erased only with nothing owed to it and nothing on its way.
 */
describeEachDb('money racer: a lawyer erased while its payout settles, on two instances', (kind) => {
  const k = payoutTestKit(kind, { product: 'Tenancy Agreement', provider: 'flutterwave' });
  const { flw, db, request, approve, payout, kinds, owed, instance, transfersOf, transferHookBody } = k;
  let t: PayoutTestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  const ROUNDS = kind === 'postgres' ? 8 : 2;

  beforeAll(async () => {
    t = k.suite.t;
    other = await secondInstance(t, kind);
  });
  afterAll(async () => {
    await other?.close();
  });

  const hookOn = (app: App, id: number) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'verif-hash': SECRET_HASH },
      payload: transferHookBody({ id }),
    });
  const deleteOn = (app: App, who: Login) =>
    app.inject({ method: 'POST', url: '/api/account/delete', headers: who.headers, payload: { password: PASSWORD } });
  const withdrawOn = (app: App, who: Login) =>
    app.inject({ method: 'POST', url: '/api/lawyer/payouts', headers: who.headers, payload: {} });

  it('deletion, webhooks, reconciler passes and withdrawals at once: erased only when nothing is owed', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const admin = await k.signInAdmin();
      const lawyer = await k.earner();
      const id = (await request(lawyer)).json().payout._id as string;
      expect((await approve(id, admin)).statusCode).toBe(200);
      const [tr] = transfersOf(id);
      // Every other round the bank pays it; the others it refuses, and the money comes back.
      const paid = round % 2 === 0;
      flw.completeTransfer(tr.id, paid ? 'SUCCESSFUL' : 'FAILED');
      t.clock.advance(61_000);
      const sends = [
        () => deleteOn(other.app, lawyer),
        () => hookOn(t.app, tr.id),
        () => hookOn(other.app, tr.id),
        () => instance().reconcile(),
        () => deleteOn(t.app, lawyer),
        () => instance().reconcile(),
        () => withdrawOn(other.app, lawyer),
      ];
      const all = await Promise.all(sends.map((_, i) => sends[(i + round) % sends.length]()));
      for (const r of all)
        if (typeof r === 'object')
          expect([200, 201, 400, 401, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      await until(async () => (await payout(id)).status !== 'sending');
      await new Promise((r) => setTimeout(r, 100));
      expect(await kinds(id), `round ${round}`).toEqual(
        paid ? ['payout', 'payout_settled', 'fee'] : ['payout', 'payout_failed'],
      );
      const [row] = await db().select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, lawyer.id));
      const left = await db().select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
      if (row.deletedAt) {
        expect(await owed(lawyer.id), `round ${round}: erased while owed`).toBe(0);
        expect(left.filter((p) => p.status === 'requested' || p.status === 'sending')).toEqual([]);
      }
      // Never more taken out than earned: what is on its way or paid, and what is still asked for.
      const out = left
        .filter((p) => p.status !== 'rejected' && p.status !== 'failed')
        .reduce((s, p) => s + p.amount, 0);
      expect(out).toBeLessThanOrEqual(2_000_000);
      outcomes.push(`${paid ? 'paid' : 'failed'}:${row.deletedAt ? 'erased' : 'kept'}`);
    }
    // The paid rounds can erase (nothing owed once settled); the failed ones never can.
    expect(outcomes.filter((o) => o === 'failed:erased')).toEqual([]);
    // And a paid round does: an erasure refused every time would pass the line above as well.
    expect(outcomes, 'no paid round erased the account').toContain('paid:erased');
  });
});
