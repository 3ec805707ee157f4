import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema.js';
import { plainName } from '../../platform/mail-templates.js';
import {
  PASSWORD,
  createTestApp,
  lastMailTo,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';

/**
 * Issue 14, item 6: sign-up mails an address at most 5 times per window, and a name someone chose
 * reaches nobody else's inbox as a link (docs/decisions/0211).
 */
describe('names in e-mails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('sends the confirmation link to an unproven address without the name the sign-up chose', async () => {
    for (const name of ['Visit http://evil.example now', 'evil.example']) {
      const email = uniqueEmail('victim');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/lawyer/signup',
        payload: {
          name,
          officialEmail: email,
          phoneNumber: '08087654321',
          areasOfPractise: ['Technology'],
          scn: 'SCN001234',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
        },
      });
      expect(res.statusCode).toBe(201);
      const mail = await lastMailTo(t, email);
      expect(mail?.subject).toMatch(/Confirm your LegalMarket email address/);
      for (const text of [mail!.text, mail!.html!]) {
        expect(text).not.toContain('evil');
        expect(text).toContain('localhost:3000/confirm-email?token=');
      }
    }
  });

  it('shows names written by someone else as text no mail client links: no dot inside a word, no scheme', () => {
    const linkish = /(\w:\/\/)|(\w[.。．｡]\w)|@/;
    for (const name of ['Visit http://evil.example now', 'evil.example', 'www.EVIL.example/pay', 'me@evil.example'])
      expect(plainName(name)).not.toMatch(linkish);
    expect(plainName('evil.example')).toBe('evil[.]example');
    expect(plainName('Visit http://evil.example now')).toBe('Visit http[:]//evil[.]example now');
    // Ordinary names are left as they are.
    expect(plainName('Okeke & Co. Chambers')).toBe('Okeke & Co. Chambers');
    expect(plainName('J. Okeke')).toBe('J. Okeke');
  });

  it('mails the owner of an existing address at most 5 times per window through sign-up, answering alike', async () => {
    const owner = await signupAndLogin(t, 'company');
    const fresh = uniqueEmail('fresh');
    const signup = (officialEmail: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/company/signup',
        payload: {
          companyName: 'Ada Ventures Ltd',
          contactName: 'Ada Obi',
          phoneNumber: '08012345678',
          officialEmail,
          officeAddress: '12 Marina, Lagos',
          industry: 'Fintech',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
        },
        remoteAddress: `10.7.0.${Math.floor(Math.random() * 250)}`,
      });
    const ownerCodes: number[] = [];
    const freshCodes: number[] = [];
    for (let i = 0; i < 8; i++) {
      ownerCodes.push((await signup(owner.email)).statusCode);
      freshCodes.push((await signup(fresh)).statusCode);
    }
    // The owner's own sign-up was the first of the five, existing account or not.
    expect(ownerCodes).toEqual([201, 201, 201, 201, 429, 429, 429, 429]);
    expect(freshCodes).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const notices = await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, owner.email));
    expect(notices.filter((m) => /already have a LegalMarket account/.test(m.subject))).toHaveLength(4);
  });
});
