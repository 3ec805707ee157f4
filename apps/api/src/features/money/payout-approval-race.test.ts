import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { payoutMessages } from '@legalmarket/contracts';
import { auditLog, sandboxTransfers } from '../../db/schema.js';
import { describeEachDb, type signupAndLogin } from '../../../test/helpers.js';
import { AppError } from '../../platform/errors.js';
import { afterFirstSelect } from './money-test-kit.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * One admin approving a payout while another rejects it: the approval looks at the payout without a lock
 * first, so a rejection can land between that look and the approval's locked read. The approval must
 * then answer 409, never 200 "approved" for a payout that ends rejected.
 */
describeEachDb('a single payout approval racing its rejection', (kind) => {
  const k = payoutTestKit(kind, { product: 'Partnership Deed' });
  let t: PayoutTestApp;
  let admin: Login;
  beforeAll(() => {
    ({ t, admin } = k.suite);
  });
  const reject = (id: string) =>
    k.inject('POST', `/api/admin/payouts/${id}/reject`, admin, { reason: 'Racing the approval' });
  const auditOf = async (id: string) =>
    (await k.db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, id))).map(
      (a) => a.action,
    );

  it('a rejection landing between the approval’s first look and its lock makes the approval a 409', async () => {
    const lawyer = await k.earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    let rejected = 0;
    // The rejection runs right after the approval's unlocked look at the payout, before its transaction.
    const racing = k.instance(
      undefined,
      afterFirstSelect(k.db(), async () => {
        rejected = (await reject(id)).statusCode;
      }),
    );
    const user = { id: admin.id } as Parameters<typeof racing.approve>[0];
    const outcome = await racing.approve(user, id).then(
      (v) => v,
      (e: unknown) => e,
    );
    expect(rejected).toBe(200);
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).statusCode).toBe(409);
    expect((outcome as AppError).message).toBe(payoutMessages.notRequested);
    expect(await k.statusOf(id)).toBe('rejected');
    expect(await k.kinds(id)).toEqual([]);
    expect(await auditOf(id)).toEqual(['payout.reject']);
    expect(await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id))).toEqual(
      [],
    );
    expect((await k.mine(lawyer)).withdrawable).toBe(20_000);
  });

  it('approvals and rejections at once over HTTP: every 200 "approved" means the payout was paid', async () => {
    for (let round = 0; round < (kind === 'postgres' ? 6 : 2); round++) {
      const lawyer = await k.earner();
      const id = (await k.request(lawyer)).json().payout._id as string;
      const calls = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? k.approve(id) : reject(id)).then((r) => ({ i, r }))),
      );
      const status = await k.statusOf(id);
      for (const { i, r } of calls.filter((c) => c.i % 2 === 0)) {
        if (status === 'rejected') {
          expect(r.statusCode, `round ${round} approval ${i}`).toBe(409);
          expect(r.json().message).toBe(payoutMessages.notRequested);
        } else expect(r.statusCode, `round ${round} approval ${i}`).toBe(200);
      }
    }
  });
});
