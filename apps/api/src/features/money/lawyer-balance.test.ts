import { beforeAll, expect, it } from 'vitest';
import type { EarningsResponse, LawyerPayoutsResponse } from '@legalmarket/contracts';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';
import type { Db } from '../../db/client.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The database (and any transaction begun on it) with `hook` run right after the first SELECT made
 * through it has completed, and every later SELECT held until the hook is done: puts another request
 * exactly between the first read of a caller and the rest, even reads it sends at once.
 */
function afterFirstRead(db: Db, hook: () => Promise<void>): Db {
  let first = true;
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  type Then = (ok: (x: unknown) => unknown, ko: (e: unknown) => unknown) => unknown;
  const chain = (b: object): object =>
    new Proxy(b, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (prop === 'then') {
          const query = target as PromiseLike<unknown>;
          if (!first) return ((ok, ko) => done.then(() => query).then(ok, ko)) as Then;
          first = false;
          return ((ok, ko) =>
            query
              .then(async (rows) => {
                try {
                  await hook();
                } finally {
                  release();
                }
                return rows;
              })
              .then(ok, ko)) as Then;
        }
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => {
          const r = (v as (...x: unknown[]) => unknown).apply(target, a);
          return r && typeof r === 'object' ? chain(r) : r;
        };
      },
    });
  const wrap = <T extends object>(ex: T): T =>
    new Proxy(ex, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'select') return (...a: unknown[]) => chain((v as (...x: unknown[]) => object).apply(target, a));
        if (prop === 'transaction')
          return (run: (tx: object) => unknown, ...rest: unknown[]) =>
            (v as (...x: unknown[]) => unknown).call(target, (tx: object) => run(wrap(tx)), ...rest);
        return (v as (...x: unknown[]) => unknown).bind(target);
      },
    });
  return wrap(db);
}

/**
 * The lawyer's Get Paid tab explains its withdrawable amount (decision 2314): what was earned, less what is
 * held, paid, being sent and waiting for approval. The sums are over every payout and earning.
 */
describeEachDb('payout figures that add up for the lawyer and the admin', (kind) => {
  const k = payoutTestKit(kind, { product: 'Lease Agreement' });
  let t: PayoutTestApp;
  let admin: Login;
  beforeAll(() => {
    ({ t, admin } = k.suite);
  });
  const earnings = async (lawyer: Login) =>
    ((await k.inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse).data;
  const payoutsOf = async (lawyer: Login) =>
    (await k.inject('GET', '/api/lawyer/payouts', lawyer)).json() as LawyerPayoutsResponse;

  it('earned less held, paid, sending and requested is what may be withdrawn; rejected money is back', async () => {
    // Transfers to an account ending in 2222 stay pending at the sandbox until told otherwise.
    const lawyer = await k.earner('0123452222', 2);
    const ask = async (amount: number) => (await k.request(lawyer, amount)).json().payout._id as string;

    const paid = await ask(1_000);
    expect((await k.approve(paid)).json().payout.status).toBe('sending');
    const done = await k.inject('POST', `/api/admin/payouts/${paid}/sandbox-outcome`, admin, {
      status: 'SUCCESSFUL',
    });
    expect(done.json().payout.status).toBe('paid');
    const sending = await ask(2_000.5);
    expect((await k.approve(sending)).json().payout.status).toBe('sending');
    await ask(3_000);
    const rejected = await ask(500);
    const no = await k.inject('POST', `/api/admin/payouts/${rejected}/reject`, admin, { reason: 'Not this one' });
    expect(no.statusCode).toBe(200);

    const p = await payoutsOf(lawyer);
    expect(p.totals).toEqual({ earned: 40_000, held: 0, paid: 1_000, sending: 2_000.5, requested: 3_000 });
    expect(p.withdrawable).toBe(33_999.5);
    const sum = p.totals!;
    expect(sum.earned - sum.held - sum.paid - sum.sending - sum.requested).toBe(p.withdrawable);
    // The ledger's available share is the same money before the requests waiting for approval.
    expect((await earnings(lawyer)).available).toBe(p.withdrawable + sum.requested);
  });

  // On the server only (PGlite has one connection, so nothing lands between its reads).
  it.runIf(kind === 'postgres')('the figures add up when an approval lands between their reads', async () => {
    // Transfers to an account ending in 2222 stay pending at the sandbox: the approved payout stays sending.
    const lawyer = await k.earner('0123452222', 1);
    const id = (await k.request(lawyer, 1_000)).json().payout._id as string;
    let approved = false;
    const read = k.instance(
      undefined,
      afterFirstRead(k.db(), async () => {
        expect((await k.approve(id)).json().payout.status).toBe('sending');
        approved = true;
      }),
    );
    const p = await read.forLawyer(lawyer.id);
    expect(approved, 'the approval landed between the reads').toBe(true);
    const sum = p.totals;
    expect(sum.earned - sum.held - sum.paid - sum.sending - sum.requested).toBe(p.withdrawable);
    // All before the approval (or all after it): the list and the totals say the same of the payout.
    const listed = p.payouts.find((x) => x._id === id)!.status;
    expect(sum).toMatchObject(
      listed === 'requested' ? { requested: 1_000, sending: 0 } : { requested: 0, sending: 1_000 },
    );
    expect(await k.statusOf(id)).toBe('sending');
  });

  it('a share still in its holding period is earned and held, not withdrawable', async () => {
    await k.holdDays(7);
    try {
      const lawyer = await k.earner('0123456789', 1);
      const p = await payoutsOf(lawyer);
      expect(p.totals).toEqual({ earned: 20_000, held: 20_000, paid: 0, sending: 0, requested: 0 });
      expect(p.withdrawable).toBe(0);
      expect((await earnings(lawyer)).pending).toBe(20_000);
    } finally {
      await k.holdDays(0);
    }
  });

  it("the admin's list counts every waiting payout beside their total", async () => {
    const before = (await k.inject('GET', '/api/admin/payouts', admin)).json();
    const lawyer = await k.earner('0123456789', 1);
    expect((await k.request(lawyer, 1_000)).statusCode).toBe(201);
    expect((await k.request(lawyer, 2_500.25)).statusCode).toBe(201);
    const after = (await k.inject('GET', '/api/admin/payouts', admin)).json();
    expect(after.waitingCount).toBe(before.waitingCount + 2);
    expect(after.waitingTotal).toBeCloseTo(before.waitingTotal + 3_500.25, 2);
    expect(after.waitingCount).toBe(after.payouts.filter((p: { status: string }) => p.status === 'requested').length);
  });

  it('a lawyer with nothing earned has zero figures', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await payoutsOf(lawyer)).totals).toEqual({ earned: 0, held: 0, requested: 0, sending: 0, paid: 0 });
  });
});
