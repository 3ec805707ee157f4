import { expect, it } from 'vitest';
import { and, asc, eq, gt, like, max } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema.js';
import { PASSWORD, describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { multipart } from '../../../test/upload-helpers.js';
import { payoutTestKit } from '../money/payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * An erasure takes the person's name out of the admins' mails about them (decision 2296). Those mails
 * name a lawyer by name only, so the erasure found them by the name: any lawyer's withdrawal and SCN
 * mails under the same name were rewritten too. Names are not unique, and anyone may sign up as a
 * lawyer under any name and delete the account at once: the admins' record of another lawyer's
 * withdrawal then read "Deleted user asked to withdraw". Only the mails of the person's own withdrawals
 * (their amounts) and SCN changes (their address) lose the name.
 */
describeEachDb("an erasure and another lawyer's admin mails under the same name", (kind) => {
  const k = payoutTestKit(kind, { product: 'Employment Contract Review' });
  const adminMails = async () =>
    (
      await k
        .db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, k.suite.admin.email))
        .orderBy(asc(emailOutbox.id))
    ).map((m) => `${m.subject}\n${m.text}\n${m.html ?? ''}`);
  const changeScn = async (who: Login, scn: string) => {
    const body = await multipart([{ name: 'scn', value: scn }]);
    const res = await k.suite.t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('rewrites the erased lawyer’s own withdrawal and SCN mails, not a namesake’s', async () => {
    // Both are "Chidi Okeke" (the sign-up body's name); each earned ₦20,000.
    const namesake = await k.earner('0123456781');
    const leaving = await k.earner('0123456782');
    const asked = await k.request(namesake, 15_000);
    expect(asked.statusCode, asked.body).toBe(201);
    await changeScn(namesake, 'SCN111111');

    const own = await k.request(leaving);
    expect(own.statusCode, own.body).toBe(201);
    expect((await k.approve(own.json().payout._id)).statusCode).toBe(200);
    await changeScn(leaving, 'SCN222222');
    const deleted = await k.inject('POST', '/api/account/delete', leaving, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const mails = await adminMails();
    const about = (words: string) => mails.filter((m) => m.includes(words));
    // The namesake's mails keep the name.
    expect(about('₦15,000 is waiting')).toHaveLength(1);
    expect(about('₦15,000 is waiting')[0]).toContain('Chidi Okeke asked to withdraw ₦15,000.');
    expect(about('SCN111111')).toHaveLength(1);
    expect(about('SCN111111')[0]).toContain('Verify again: Chidi Okeke changed their SCN');
    expect(about('SCN111111')[0]).toContain(`Chidi Okeke, a verified lawyer, changed`);
    // The erased lawyer's own lose it.
    expect(about('₦20,000 is waiting')).toHaveLength(1);
    expect(about('₦20,000 is waiting')[0]).toContain('Deleted user asked to withdraw ₦20,000.');
    expect(about('₦20,000 is waiting')[0]).not.toContain('Chidi Okeke');
    expect(about('SCN222222')).toHaveLength(1);
    expect(about('SCN222222')[0]).toContain('Verify again: Deleted user changed their SCN');
    expect(about('SCN222222')[0]).not.toContain('Chidi Okeke');
  });

  // The amount alone did not tell them apart: two "Chidi Okeke"s each withdrawing ₦20,000 read alike.
  it('keeps the name in a namesake’s withdrawal mail of the same amount', async () => {
    const namesake = await k.earner('0123456784');
    const leaving = await k.earner('0123456785');
    const before = (await adminMails()).length;
    expect((await k.request(namesake)).statusCode).toBe(201);
    k.suite.t.clock.advance(1_000);
    const own = await k.request(leaving);
    expect(own.statusCode, own.body).toBe(201);
    expect((await k.approve(own.json().payout._id)).statusCode).toBe(200);
    const deleted = await k.inject('POST', '/api/account/delete', leaving, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const waiting = (await adminMails()).slice(before).filter((m) => m.includes('₦20,000 is waiting'));
    expect(waiting).toHaveLength(2);
    expect(waiting[0]).toContain('Chidi Okeke asked to withdraw ₦20,000.');
    expect(waiting[0]).not.toContain('Deleted user');
    expect(waiting[1]).toContain('Deleted user asked to withdraw ₦20,000.');
    expect(waiting[1]).not.toContain('Chidi Okeke');
  });

  it('a lawyer who signs up under a name and deletes the account at once rewrites nobody’s mails', async () => {
    const namesake = await k.earner('0123456783');
    expect((await k.request(namesake, 12_500)).statusCode).toBe(201);
    const stranger = await signupAndLogin(k.suite.t, 'lawyer');
    const deleted = await k.inject('POST', '/api/account/delete', stranger, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const waiting = (await adminMails()).filter((m) => m.includes('₦12,500 is waiting'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain('Chidi Okeke asked to withdraw ₦12,500.');
  });
  // Before a withdrawal's mails took the payout's time, they took their transaction's start: a few
  // milliseconds after the payout's. An erasure still finds them as the lawyer's own.
  it('rewrites the erased lawyer’s withdrawal mail written a moment after the payout, as older mails were', async () => {
    const leaving = await k.earner('0123456786');
    const before = (await adminMails()).length;
    const [{ last }] = await k
      .db()
      .select({ last: max(emailOutbox.id) })
      .from(emailOutbox);
    const own = await k.request(leaving);
    expect(own.statusCode, own.body).toBe(201);
    const at = new Date(new Date(own.json().payout.createdAt as string).getTime() + 180);
    await k
      .db()
      .update(emailOutbox)
      .set({ createdAt: at })
      .where(and(gt(emailOutbox.id, last ?? 0), like(emailOutbox.text, '%asked to withdraw ₦20,000.%')));
    expect((await k.approve(own.json().payout._id)).statusCode).toBe(200);
    const deleted = await k.inject('POST', '/api/account/delete', leaving, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const asked = (await adminMails()).slice(before).filter((m) => m.includes('asked to withdraw ₦20,000.'));
    expect(asked.length).toBeGreaterThan(0);
    for (const m of asked) expect(m).toContain('Deleted user asked to withdraw ₦20,000.');
  });
});
