import { beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { payouts } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createPaymentProvider, TransferRefused } from '../../platform/payments/index.js';
import { payoutTestKit, until, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * A lawyer (or a thief with its session) trying to take out more than it earned, or earned money twice,
 * on the paths the other payout suites leave alone: many keyed withdrawals at once, two admins approving
 * the same batch in opposite orders, a failure, an approval and withdrawals all at once, and a reversal
 * racing the daily look and new withdrawals. Races show on the PostgreSQL server.
 */
describeEachDb('payout attacks from the lawyer side (Flutterwave stand-in)', (kind) => {
  const k = payoutTestKit(kind, { product: 'Employment Contract', provider: 'flutterwave' });
  const { flw, inject, db, instance, payout, kinds, owed, transfersOf } = k;
  let t: PayoutTestApp;
  let admin: Login;
  let admin2: Login;
  const ROUNDS = kind === 'postgres' ? 4 : 1;
  beforeAll(async () => {
    ({ t, admin } = k.suite);
    admin2 = await signupAndLogin(t, 'admin');
  });

  /** Kobo out or on its way out, or reserved: everything the lawyer has taken or asked for. */
  const taken = async (lawyerId: string) =>
    (
      await db()
        .select()
        .from(payouts)
        .where(and(eq(payouts.lawyerId, lawyerId), inArray(payouts.status, ['requested', 'sending', 'paid'])))
    ).reduce((s, p) => s + p.amount, 0);
  const webhook = (id: number) => k.transferWebhook({ id });
  /** Each withdrawal under a key of its own. */
  const request = (lawyer: Login, amount?: number) => k.request(lawyer, amount, crypto.randomUUID());

  /** A lawyer with checked details who earned ₦20,000 per job, available now. */
  async function earner(jobsDone = 1) {
    const lawyer = await k.earner('0123456789', jobsDone);
    expect(await owed(lawyer.id)).toBe(jobsDone * 2_000_000);
    return lawyer;
  }

  it('withdrawals under many keys at once never reserve more than is available', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const lawyer = await earner();
      const res = await Promise.all([
        ...Array.from({ length: 10 }, () => request(lawyer, 12_000)),
        ...Array.from({ length: 10 }, () => request(lawyer)),
      ]);
      expect(res.every((r) => r.statusCode === 201 || r.statusCode === 400)).toBe(true);
      expect(await taken(lawyer.id)).toBeLessThanOrEqual(2_000_000);
      expect(await taken(lawyer.id)).toBe(2_000_000);
    }
  });

  it('two admins approving the same batch in opposite orders approve each once, without a deadlock', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const lawyer = await earner();
      const a = (await request(lawyer, 12_000)).json().payout._id as string;
      const b = (await request(lawyer, 8_000)).json().payout._id as string;
      const res = await Promise.all([
        inject('POST', '/api/admin/payouts/approve', admin, { ids: [a, b] }),
        inject('POST', '/api/admin/payouts/approve', admin2, { ids: [b, a] }),
        inject('POST', `/api/admin/payouts/${a}/approve`, admin2, {}),
        inject('POST', `/api/admin/payouts/${b}/approve`, admin, {}),
      ]);
      expect(res.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect([transfersOf(a).length, transfersOf(b).length]).toEqual([1, 1]);
      expect(await kinds(a)).toEqual(['payout']);
      expect(await kinds(b)).toEqual(['payout']);
      expect(await owed(lawyer.id)).toBe(0);
    }
  });

  it('a failure, an approval and withdrawals at once take out no more than was earned', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const lawyer = await earner();
      const sent = (await request(lawyer, 10_000)).json().payout._id as string;
      expect((await inject('POST', `/api/admin/payouts/${sent}/approve`, admin, {})).statusCode).toBe(200);
      const waiting = (await request(lawyer, 5_000)).json().payout._id as string;
      const [tr] = transfersOf(sent);
      flw.completeTransfer(tr.id, 'FAILED');
      await Promise.all([
        ...Array.from({ length: 5 }, () => webhook(tr.id)),
        ...Array.from({ length: 3 }, () => inject('POST', `/api/admin/payouts/${waiting}/approve`, admin, {})),
        ...Array.from({ length: 6 }, () => request(lawyer)),
        ...Array.from({ length: 6 }, () => request(lawyer, 15_000)),
      ]);
      await until(async () => (await payout(sent)).status === 'failed');
      expect(await kinds(sent)).toEqual(['payout', 'payout_failed']);
      expect(await taken(lawyer.id)).toBeLessThanOrEqual(2_000_000);
      expect(await owed(lawyer.id)).toBeGreaterThanOrEqual(0);
    }
  });

  it('a reversal racing the daily look and new withdrawals gives the money back once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // A day passes each round: sessions signed in before it have ended.
      admin = await k.signInAdmin();
      const lawyer = await earner();
      const id = (await request(lawyer)).json().payout._id as string;
      await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {});
      const [tr] = transfersOf(id);
      flw.completeTransfer(tr.id, 'SUCCESSFUL');
      await webhook(tr.id);
      await until(async () => (await payout(id)).status === 'paid');
      flw.reverseTransfer(tr.id);
      t.clock.advance(86_400_000 + 1000);
      await Promise.all([
        ...Array.from({ length: 6 }, () => webhook(tr.id)),
        instance().recheckPaid(),
        instance().recheckPaid(),
        ...Array.from({ length: 8 }, () => request(lawyer)),
      ]);
      await until(async () => (await payout(id)).status === 'failed');
      await new Promise((r) => setTimeout(r, 100));
      expect(await kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
      const all = await db().select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
      expect(all.filter((p) => p.status === 'requested').reduce((s, p) => s + p.amount, 0)).toBeLessThanOrEqual(
        2_000_000,
      );
      expect(await owed(lawyer.id)).toBe(2_000_000);
    }
  });

  it('a transfer reported successful after it failed moves no money and is left to the admins', async () => {
    // Earlier tests move the clock on by days: sessions signed in before them have ended.
    admin = await k.signInAdmin();
    const lawyer = await earner();
    const id = (await request(lawyer)).json().payout._id as string;
    expect((await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).statusCode).toBe(200);
    const [tr] = transfersOf(id);
    flw.completeTransfer(tr.id, 'FAILED');
    await webhook(tr.id);
    await until(async () => (await payout(id)).status === 'failed');
    expect(await owed(lawyer.id)).toBe(2_000_000);
    // Outside Flutterwave's contract: the same transfer now says it went through.
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    expect((await webhook(tr.id)).statusCode).toBe(200);
    await until(() => t.security.of('payout_paid_after_failure').some((e) => e.payoutId === id));
    const told = t.security.of('payout_paid_after_failure').filter((e) => e.payoutId === id);
    expect(
      told.map(({ payoutId, lawyerId, amountKobo, transferId }) => ({ payoutId, lawyerId, amountKobo, transferId })),
    ).toEqual([{ payoutId: id, lawyerId: lawyer.id, amountKobo: 2_000_000, transferId: String(tr.id) }]);
    expect((await payout(id)).status).toBe('failed');
    expect(await kinds(id)).toEqual(['payout', 'payout_failed']);
  });

  it('a send refused while another pass sent the payout never returns its money: only the bank does', async () => {
    // B's transfer is paid and settled before A applies its refusal, or is still on its way then.
    for (const meanwhile of ['paid', 'on its way'] as const) {
      // The rounds move the clock past the sessions' lifetime.
      admin = await k.signInAdmin();
      const lawyer = await earner();
      const id = (await request(lawyer)).json().payout._id as string;
      // Approved while Flutterwave was down: sending, never sent, due for the reconciler a minute on.
      flw.setDown(true);
      expect((await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).json().payout.status).toBe(
        'sending',
      );
      flw.setDown(false);
      t.clock.advance(61_000);

      // Pass A: Flutterwave refuses its transfer (the balance was short at that moment) and its lookup by
      // our reference finds nothing yet. Before A applies that refusal, pass B (a minute on, another
      // instance) sends the payout, and Flutterwave takes it (and pays it, and its webhook settles it).
      const real = createPaymentProvider(t.config, t.rt.database.db);
      let lookups = 0;
      let seen: { transferId: string | null; made: string } | null = null;
      const refusing = {
        ...real,
        transfer: async () => {
          throw new TransferRefused('Insufficient balance in your wallet');
        },
        findTransfer: async (reference: string) => {
          // The pass's first lookup (before it sends) is answered as it is.
          if (++lookups === 1) return real.findTransfer(reference);
          t.clock.advance(61_000);
          await instance().reconcile();
          const [tr] = transfersOf(id);
          // Checked after the pass: the pass swallows what its lookup throws.
          seen = { transferId: (await payout(id)).providerTransferId, made: String(tr.id) };
          if (meanwhile === 'paid') {
            flw.completeTransfer(tr.id, 'SUCCESSFUL');
            await webhook(tr.id);
            await until(async () => (await payout(id)).status === 'paid');
          }
          return null;
        },
      };
      await instance(refusing).reconcile();
      const [tr] = transfersOf(id);
      expect(lookups, meanwhile).toBe(2);
      expect(seen, meanwhile).toEqual({ transferId: String(tr.id), made: String(tr.id) });
      if (meanwhile === 'on its way') {
        expect((await payout(id)).status, meanwhile).toBe('sending');
        flw.completeTransfer(tr.id, 'SUCCESSFUL');
        await webhook(tr.id);
        await until(async () => (await payout(id)).status === 'paid');
      }

      // The lawyer was paid once, by B's transfer; A's refusal moved no money back.
      expect(transfersOf(id).map((x) => x.status)).toEqual(['SUCCESSFUL']);
      expect((await payout(id)).status, meanwhile).toBe('paid');
      expect(await kinds(id), meanwhile).toEqual(['payout', 'payout_settled', 'fee']);
      expect(await owed(lawyer.id), meanwhile).toBe(0);
    }
  });

  it('a send refused after another pass took the payout leaves it to that pass, even before its transfer is known', async () => {
    admin = await k.signInAdmin();
    const lawyer = await earner();
    const id = (await request(lawyer)).json().payout._id as string;
    flw.setDown(true);
    expect((await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).json().payout.status).toBe('sending');
    flw.setDown(false);
    t.clock.advance(61_000);

    // Pass A is refused and finds nothing by our reference. Before it applies the refusal, pass B (a minute
    // on) takes the payout and Flutterwave makes B's transfer, but every answer to B is lost: B's transfer
    // is not known here yet.
    const real = createPaymentProvider(t.config, t.rt.database.db);
    let lookups = 0;
    let seen: { transfers: number; transferId: string | null } | null = null;
    const refusing = {
      ...real,
      transfer: async () => {
        throw new TransferRefused('Insufficient balance in your wallet');
      },
      findTransfer: async (reference: string) => {
        if (++lookups === 1) return real.findTransfer(reference);
        t.clock.advance(61_000);
        flw.setTransferMode('lose');
        await instance().reconcile();
        flw.setTransferMode('queue');
        // Checked after the pass: the pass swallows what its lookup throws.
        seen = { transfers: transfersOf(id).length, transferId: (await payout(id)).providerTransferId };
        return null;
      },
    };
    await instance(refusing).reconcile();
    expect(lookups).toBe(2);
    expect(seen).toEqual({ transfers: 1, transferId: null });
    expect((await payout(id)).status).toBe('sending');
    expect(await kinds(id)).toEqual(['payout']);

    // B's transfer goes through and its webhook settles the payout: the lawyer is paid once.
    const [tr] = transfersOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    await webhook(tr.id);
    await until(async () => (await payout(id)).status === 'paid');
    expect(await kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect(await owed(lawyer.id)).toBe(0);
  });
});
