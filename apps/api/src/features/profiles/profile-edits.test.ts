import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipart } from '../../../test/upload-helpers.js';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { auditLog, emailOutbox, users } from '../../db/schema.js';
import {
  companyBody,
  createTestApp,
  describeEachDb,
  PASSWORD,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';

/**
 * Issue 18, traps 2, 6, 7 and the field names of 9: the phone number in its international form, clearing
 * optional fields, a verified lawyer's new SCN (docs/decisions/1810), and messages in words.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('profile edits on first use', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const patch = async (who: Login, fields: Array<[string, string]>) => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const row = async (id: string) => (await t.rt.database.db.select().from(users).where(eq(users.id, id)))[0];
  const mailsTo = (to: string) =>
    t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id);

  it('saves an international phone number as its 11-digit local form and never cuts one', async () => {
    const company = await signupAndLogin(t, 'company');
    for (const typed of ['+234 803 123 4567', '234-803-123-4567', '+234 (0) 803 123 4567', '002348031234567']) {
      await t.rt.database.db.update(users).set({ phoneNumber: '08012345678' }).where(eq(users.id, company.id));
      const res = await patch(company, [['phoneNumber', typed]]);
      expect(res.statusCode, typed).toBe(200);
      expect(res.json().company.phoneNumber, typed).toBe('08031234567');
    }
    for (const typed of ['+234 803 123 456', '+44 20 7946 0958', '+234 803 123 45678', '0803 123 4567 ext 2']) {
      const res = await patch(company, [['phoneNumber', typed]]);
      expect(res.statusCode, typed).toBe(400);
      expect(res.json().message, typed).toBe(messages.phoneRule);
    }
    expect((await row(company.id)).phoneNumber).toBe('08031234567');

    // Sign-up takes the same form through the shared contract.
    const email = uniqueEmail('intl');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/company/signup',
      payload: { ...companyBody(email), phoneNumber: '+234 803 123 4567' },
    });
    expect(signup.statusCode).toBe(201);
    const [saved] = await t.rt.database.db.select().from(users).where(eq(users.officialEmail, email));
    expect(saved.phoneNumber).toBe('08031234567');
  });

  it('clears optional fields sent empty and keeps required ones', async () => {
    const company = await signupAndLogin(t, 'company');
    const filled = await patch(company, [
      ['website', 'https://ada.ng'],
      ['yourBio', 'We build payment rails.'],
      ['alternativeEmailAddress', 'hello@ada.ng'],
    ]);
    expect(filled.json().company).toMatchObject({ website: 'https://ada.ng', yourBio: 'We build payment rails.' });
    const cleared = await patch(company, [
      ['website', ''],
      ['yourBio', '  '],
      ['alternativeEmailAddress', ''],
      ['officeAddress', ''],
      ['phoneNumber', ''],
      ['officialEmail', ''],
    ]);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().company).toMatchObject({
      website: null,
      yourBio: null,
      alternativeEmailAddress: null,
      officeAddress: '12 Marina, Lagos',
      phoneNumber: '08012345678',
      officialEmail: company.email,
    });
    // Left out, a field is kept.
    await patch(company, [['website', 'https://ada.ng']]);
    expect((await patch(company, [['yourBio', 'Back again']])).json().company.website).toBe('https://ada.ng');

    const lawyer = await signupAndLogin(t, 'lawyer');
    await patch(lawyer, [
      ['yourBio', 'Tech lawyer'],
      ['yearOfCall', '2015'],
    ]);
    const res = await patch(lawyer, [
      ['yourBio', ''],
      ['yearOfCall', ''],
      ['scn', ''],
      ['areasOfPractise', ''],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().lawyer).toMatchObject({ yourBio: null, yearOfCall: null, scn: 'SCN001234', areasOfPractise: [] });
  });

  it('tells no admin who deleted the account that an SCN changed', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const gone = await signupAndLogin(t, 'admin');
    const del = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: gone.headers,
      payload: { password: PASSWORD },
    });
    expect(del.statusCode, del.body).toBe(200);
    const erased = (await row(gone.id)).officialEmail;
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await patch(lawyer, [['scn', 'SCN007777']])).statusCode).toBe(200);
    expect((await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject))).toHaveLength(1);
    expect(await mailsTo(erased)).toEqual([]);
  });

  it('links the SCN mail to the Unverified tab, where the lawyer now waits (decision 2338)', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await patch(lawyer, [['scn', 'SCN005555']])).statusCode).toBe(200);
    const [told] = (await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject));
    // /admin/lawyers opens on its Verified tab; the lawyer is under Unverified now.
    expect(told.text).toContain('Review unverified lawyers: http://localhost:3000/admin/lawyers?tab=unverified\n');
    expect(told.html).toContain('<a href="http://localhost:3000/admin/lawyers?tab=unverified"');
  });

  it("withdraws a verified lawyer's badge when the SCN changes, tells the admins, and records it", async () => {
    const admin = await signupAndLogin(t, 'admin');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });

    // The same number with other case or spaces is no change.
    const same = await patch(lawyer, [['scn', ' scn001234 ']]);
    expect(same.json().lawyer.verified).toBe(true);
    expect((await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject))).toHaveLength(0);

    const res = await patch(lawyer, [['scn', 'SCN009999']]);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.profileUpdated);
    expect(res.json().lawyer).toMatchObject({ scn: 'SCN009999', verified: false });
    expect((await row(lawyer.id)).verified).toBe(false);
    const told = (await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject));
    expect(told).toHaveLength(1);
    expect(told[0].subject).toBe('Verify again: Chidi Okeke changed their SCN');
    expect(told[0].text).toContain('SCN009999');
    expect(told[0].text).toContain('SCN001234');
    const audit = await t.rt.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'lawyer.scn_change'), eq(auditLog.targetId, lawyer.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ from: 'SCN001234', to: 'SCN009999' });
    // The lawyer is now among the unverified lawyers an admin reviews.
    const pending = await t.app.inject({ method: 'GET', url: '/api/unverifiedlawyers', headers: admin.headers });
    expect(JSON.stringify(pending.json())).toContain(lawyer.id);

    // Unverified, a further change tells no one again; verified anew, it does.
    await patch(lawyer, [['scn', 'SCN008888']]);
    expect((await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject))).toHaveLength(1);
    const verify = await t.app.inject({
      method: 'PATCH',
      url: `/api/verifylawyer/${lawyer.id}`,
      headers: admin.headers,
      payload: { verified: true },
    });
    expect(verify.statusCode).toBe(200);
    expect((await patch(lawyer, [['scn', 'SCN007777']])).json().lawyer.verified).toBe(false);
    expect((await mailsTo(admin.email)).filter((m) => /SCN/.test(m.subject))).toHaveLength(2);
  });

  it('names fields in words in its messages, never by their payload names', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const cases: Array<[Login, [string, string], string]> = [
      [lawyer, ['yearOfCall', 'soon'], messages.yearOfCallRule],
      [lawyer, ['scn', 'S'.repeat(51)], 'SCN must be at most 50 characters'],
      [lawyer, ['yourBio', 'b'.repeat(2001)], 'Your bio must be at most 2000 characters'],
      [lawyer, ['areasOfPractise', 'Cooking'], 'Areas of practice: Cooking is not in the expertise list'],
      [company, ['website', 'not a site'], 'Website must be a web address such as https://example.ng'],
      [company, ['website', 'ftp://ada.ng'], 'Website must start with http:// or https://'],
      [company, ['officeAddress', 'a'.repeat(301)], 'Office address must be at most 300 characters'],
      [company, ['alternativeEmailAddress', 'not-an-email'], 'Please enter a valid email address'],
    ];
    for (const [who, field, message] of cases) {
      const res = await patch(who, [field]);
      expect(res.statusCode, field[0]).toBe(400);
      expect(res.json().message, field[0]).toBe(message);
    }
  });
});
