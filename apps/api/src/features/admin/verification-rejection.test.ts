import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipart } from '../../../test/upload-helpers.js';
import { eq, sql } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { auditFor } from '../../../test/admin-fixtures.js';

/**
 * A refused verification is a state (docs/decisions/1860): the lawyer and the admins read it after a
 * reload, the lawyer's next change to the profile or a verification ends it, erasure takes it, and
 * migration 0020 carries over the refusals the audit log held.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const MIGRATION = fileURLToPath(new URL('../../db/migrations/0020_verification_rejection.sql', import.meta.url));
const backfill = () =>
  readFileSync(MIGRATION, 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => /UPDATE "users"/.test(s));

describeEachDb('a refused verification is kept until the lawyer changes the profile', (kind) => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  const get = (url: string, who: Login) => t.app.inject({ method: 'GET', url, headers: who.headers });
  const reject = (id: string, reason: string) =>
    t.app.inject({ method: 'POST', url: `/api/rejectlawyer/${id}`, headers: admin.headers, payload: { reason } });
  const patch = async (who: Login, fields: Array<[string, string]>) => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };
  /** The refusal as the lawyer, the admin's lawyer page and the admin's unverified list each read it. */
  const seen = async (lawyer: Login) => {
    const own = (await get(`/api/userprofile?_id=${lawyer.id}`, lawyer)).json();
    const byAdmin = (await get(`/api/lawyer/${lawyer.id}`, admin)).json().lawyer;
    const listed = (await get('/api/unverifiedlawyers?limit=100', admin))
      .json()
      .lawyers.find((l: { _id: string }) => l._id === lawyer.id);
    return {
      own: own.verificationRejection,
      byAdmin: byAdmin.verificationRejection,
      listed: listed?.verificationRejection,
    };
  };

  it('keeps the reason and time for the lawyer and the admins; the same reason again changes nothing', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    expect(await seen(lawyer)).toEqual({ own: null, byAdmin: null, listed: null });

    const reason = 'Your SCN does not match the NBA roll; please send your call certificate.';
    const res = await reject(lawyer.id, `  ${reason} `);
    expect(res.statusCode).toBe(200);
    const rejection = { reason, rejectedAt: t.clock.now().toISOString() };
    expect(res.json().data.lawyer.verificationRejection).toEqual(rejection);
    expect(await seen(lawyer)).toEqual({ own: rejection, byAdmin: rejection, listed: rejection });

    t.clock.advance(60_000);
    expect((await reject(lawyer.id, reason)).json().data.lawyer.verificationRejection).toEqual(rejection);
    const other = 'Please add your year of call too.';
    expect((await reject(lawyer.id, other)).json().data.lawyer.verificationRejection).toEqual({
      reason: other,
      rejectedAt: t.clock.now().toISOString(),
    });
    expect(await auditFor(t, 'lawyer.reject', lawyer.id)).toHaveLength(2);
  });

  it("ends with the lawyer's next real change, not with the same fields sent again", async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    await reject(lawyer.id, 'Please add your year of call.');
    // The form sends every field; the same SCN in other case and the same phone are no change.
    expect(
      (
        await patch(lawyer, [
          ['scn', ' scn001234 '],
          ['phoneNumber', '08087654321'],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await seen(lawyer)).own).toMatchObject({ reason: 'Please add your year of call.' });
    expect(await auditFor(t, 'lawyer.resubmit', lawyer.id)).toHaveLength(0);

    const res = await patch(lawyer, [
      ['scn', 'SCN001234'],
      ['yearOfCall', '2015'],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().lawyer).toMatchObject({ verified: false, verificationRejection: null, yearOfCall: '2015' });
    expect(await seen(lawyer)).toEqual({ own: null, byAdmin: null, listed: null });
    const [resubmit] = await auditFor(t, 'lawyer.resubmit', lawyer.id);
    expect(resubmit.actorId).toBe(lawyer.id);
    expect(resubmit.details).toMatchObject({ fields: ['yearOfCall'] });

    // A new SCN counts as much as anything else; the admin may refuse again.
    await reject(lawyer.id, 'The new SCN is not on the roll either.');
    await patch(lawyer, [['scn', 'SCN009999']]);
    expect((await seen(lawyer)).own).toBeNull();
  });

  it('ends with a verification; the database refuses a verified lawyer who is also refused', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    await reject(lawyer.id, 'Your SCN does not match the NBA roll.');
    const verify = await t.app.inject({
      method: 'PATCH',
      url: `/api/verifylawyer/${lawyer.id}`,
      headers: admin.headers,
      payload: { verified: true },
    });
    expect(verify.json().data.lawyer).toMatchObject({ verified: true, verificationRejection: null });
    const [row] = await db().select().from(users).where(eq(users.id, lawyer.id));
    expect(row).toMatchObject({ verificationRejectedAt: null, verificationRejectionReason: null });

    const at = t.clock.now();
    await expect(
      db()
        .update(users)
        .set({ verificationRejectedAt: at, verificationRejectionReason: 'x' })
        .where(eq(users.id, lawyer.id)),
    ).rejects.toThrow();
    await db().update(users).set({ verified: false }).where(eq(users.id, lawyer.id));
    await expect(
      db().update(users).set({ verificationRejectedAt: at }).where(eq(users.id, lawyer.id)),
    ).rejects.toThrow();
  });

  it('erasing the account erases the reason', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    await reject(lawyer.id, 'Your SCN does not match the NBA roll.');
    const del = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: lawyer.headers,
      payload: { password: PASSWORD },
    });
    expect(del.statusCode).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, lawyer.id));
    expect(row).toMatchObject({ verificationRejectedAt: null, verificationRejectionReason: null });
  });

  it('migration 0020 keeps a refusal the audit log held, unless the lawyer changed the profile since', async () => {
    const [kept, edited, verified, withdrawn] = await Promise.all([
      signupAndLogin(t, 'lawyer'),
      signupAndLogin(t, 'lawyer'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer'),
    ]);
    const day = (d: number) => new Date(Date.UTC(2026, 9, d, 12));
    const entry = (targetId: string, action: string, d: number, reason?: string) => ({
      actorId: admin.id,
      action,
      targetType: 'lawyer',
      targetId,
      details: reason ? { reason } : {},
      createdAt: day(d),
    });
    // The database as it was before 0020: refusals only in the audit log.
    for (const l of [kept, edited, verified, withdrawn])
      await db()
        .update(users)
        .set({ updatedAt: day(1) })
        .where(eq(users.id, l.id));
    await db()
      .update(users)
      .set({ updatedAt: day(5) })
      .where(eq(users.id, edited.id));
    await db()
      .insert(auditLog)
      .values([
        entry(kept.id, 'lawyer.reject', 2, 'An older reason.'),
        entry(kept.id, 'lawyer.reject', 3, 'The latest reason.'),
        entry(edited.id, 'lawyer.reject', 3, 'Refused, then edited.'),
        entry(verified.id, 'lawyer.reject', 3, 'Refused, then verified.'),
        entry(withdrawn.id, 'lawyer.reject', 2, 'Refused, then verified and withdrawn.'),
        entry(withdrawn.id, 'lawyer.verify', 3),
        entry(withdrawn.id, 'lawyer.unverify', 4),
      ]);
    for (const statement of backfill()) await db().execute(sql.raw(statement));
    const rejection = async (id: string) =>
      (await db().select().from(users).where(eq(users.id, id)))[0].verificationRejectionReason;
    expect(await rejection(kept.id)).toBe('The latest reason.');
    expect((await db().select().from(users).where(eq(users.id, kept.id)))[0].verificationRejectedAt).toEqual(day(3));
    expect(await rejection(edited.id)).toBeNull();
    expect(await rejection(verified.id)).toBeNull();
    expect(await rejection(withdrawn.id)).toBeNull();
  });
});
