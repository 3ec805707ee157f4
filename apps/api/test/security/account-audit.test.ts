import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { privacyMessages } from '@legalmarket/contracts';
import { users } from '../../src/db/schema.js';
import { PASSWORD, companyBody, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';

/** What an outside attacker tried on sign-up, reset and erasure, and found still open (decision 2120). */
describeEachDb('account surface audit', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;

  it("refuses to sign up under the address an erasure gives an account, so no one can block a company's deletion", async () => {
    // A company's id is public (its reviews name it); its erased address is deleted-<id>@deleted.invalid.
    const victim = await signupAndLogin(t, 'company');
    const squat = await t.app.inject({
      method: 'POST',
      url: '/api/company/signup',
      payload: companyBody(`deleted-${victim.id}@deleted.invalid`),
    });
    expect(squat.statusCode).toBe(400);
    expect(squat.json().message).toMatch(/valid email address/);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: victim.headers,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe(privacyMessages.accountDeleted);
    const [row] = await db().select().from(users).where(eq(users.id, victim.id));
    expect(row.officialEmail).toBe(`deleted-${victim.id}@deleted.invalid`);
  });

  it("counts a stolen session's password guesses at account deletion with the login tries", async () => {
    // Login allows 10 wrong passwords per 15 minutes; deletion's own 5 came on top of them, and a right
    // guess there deletes the account.
    const owner = await signupAndLogin(t, 'company');
    for (let i = 0; i < 8; i++) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: owner.email, password: `Wrong!Pass${i}` },
      });
      expect(login.statusCode).toBe(401);
    }
    const guess = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/account/delete', headers: owner.headers, payload: { password } });
    expect((await guess('Wrong!Guess1')).statusCode).toBe(403);
    expect((await guess('Wrong!Guess2')).statusCode).toBe(403);
    const limited = await guess(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const [row] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(row.deletedAt).toBeNull();
  });
});
