import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REMUNERATION_ORDER_MAX_BYTES, remunerationOrderUpload } from './admin.js';
import { companySignupInput, loginInput } from './auth.js';
import {
  findUnsafeText,
  hasUnsafeCharacter,
  localPhoneNumber,
  PASSWORD_PATTERN,
  PASSWORD_SYMBOLS,
  passwordHint,
  phoneInputText,
  refuseUnsafeText,
  requiredText,
} from './common.js';
import {
  formatNaira,
  formatNairaExact,
  formatOrdinalDate,
  ordinal,
  previewWords,
  ratingLabel,
  starLabel,
} from './format.js';
import { allowedJobActions, findJobTransition } from './job-lifecycle.js';
import { matchBank, NIGERIAN_BANKS, payoutDetailsInput } from './lawyers.js';
import { messages } from './messages.js';
import { lagosYear, profileEditForm } from './profiles.js';
import { LAWYER_EDITABLE_FIELDS } from './constants.js';
import { VAT_RATE_PERCENT, vatIncludedKobo, wholeKobo } from './money.js';

describe('password rule', () => {
  it.each([
    ['Str0ng!Pass', true],
    ['short1!A', true],
    ['short1!', false],
    ['nouppercase1!', false],
    ['NOLOWERCASE1!', false],
    ['NoDigits!!', false],
    ['NoSpecial11', false],
    ['Has Space1!', false],
    ['Emoji1!😀a', false],
    ['Hash#Sign1!', false],
  ])('%s → %s', (pw, ok) => expect(PASSWORD_PATTERN.test(pw)).toBe(ok));
});

describe('sign-up and login schemas', () => {
  it('answers the spec texts for empty fields', () => {
    const r = loginInput.safeParse({ officialEmail: '', password: '' });
    expect(r.success).toBe(false);
    const texts = r.error!.issues.map((i) => i.message);
    expect(texts).toContain(messages.enterEmail);
    expect(texts).toContain(messages.enterPassword);
  });
  it('lower-cases and trims the e-mail address', () => {
    const r = loginInput.parse({ officialEmail: '  Ada@Example.NG ', password: 'x' });
    expect(r.officialEmail).toBe('ada@example.ng');
  });
  it('needs exactly 11 digits for the phone', () => {
    const base = {
      companyName: 'A',
      contactName: 'B',
      officialEmail: 'a@b.ng',
      officeAddress: 'C',
      industry: 'D',
      password: 'Str0ng!Pass',
      passwordConfirm: 'Str0ng!Pass',
    };
    expect(companySignupInput.safeParse({ ...base, phoneNumber: '08012345678' }).success).toBe(true);
    for (const bad of ['0801234567', '080123456789', '0801234567a'])
      expect(companySignupInput.safeParse({ ...base, phoneNumber: bad }).error?.issues[0].message).toBe(
        messages.phoneRule,
      );
    // Empty or missing: the generic sign-up rule, "Please enter your {label}" (spec section 5).
    for (const phoneNumber of ['', ' ', undefined])
      expect(companySignupInput.safeParse({ ...base, phoneNumber }).error?.issues.map((i) => i.message)).toEqual([
        'Please enter your contact phone number',
      ]);
  });
});

describe('phone numbers in local and international form (issue 18, trap 2)', () => {
  it('gives the 11-digit local form of an international number and never cuts one', () => {
    for (const typed of ['+234 803 123 4567', '2348031234567', '00234-803-123-4567', '+234 (0) 803 123 4567'])
      expect(localPhoneNumber(typed), typed).toBe('08031234567');
    expect(localPhoneNumber('0803 123 4567')).toBe('08031234567');
    // Not a Nigerian number of the right length: left for the 11-digit rule to refuse.
    for (const typed of ['+234 803 123 45678', '+44 20 7946 0958', '+234 803 123 456'])
      expect(localPhoneNumber(typed), typed).not.toMatch(/^\d{11}$/);
  });
  it('keeps an international number as typed in the input and a local one to 11 digits', () => {
    expect(phoneInputText('+234 803 123 4567')).toBe('+234 803 123 4567');
    expect(phoneInputText('0801-234-5678x9')).toBe('08012345678');
  });
});

describe('password hint', () => {
  it('lists every symbol the rule accepts, and the rule accepts each of them', () => {
    for (const symbol of PASSWORD_SYMBOLS) {
      expect(passwordHint).toContain(` ${symbol}`);
      expect(PASSWORD_PATTERN.test(`Abcdefg1${symbol}`), symbol).toBe(true);
    }
    expect(PASSWORD_PATTERN.test('Abcdefg1#')).toBe(false);
  });
});

describe('formatting', () => {
  it('shows naira with thousands separators', () => {
    expect(formatNaira(1234567)).toBe('₦1,234,567');
    expect(formatNaira(50000)).toBe('₦50,000');
  });
  it('cuts previews at 17 words with ...', () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(previewWords(words)).toBe(`${words.split(' ').slice(0, 17).join(' ')}...`);
    expect(previewWords('short text')).toBe('short text');
    expect(previewWords(null)).toBe('');
  });
  it('writes ordinal dates', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
    expect(formatOrdinalDate('2026-11-21T10:00:00Z')).toBe('21st November 2026');
  });
  it('writes ordinal dates as the day in Lagos', () => {
    // 00:30 on 1 December in Lagos is still 30 November in UTC.
    expect(formatOrdinalDate('2026-11-30T23:30:00Z')).toBe('1st December 2026');
    expect(formatOrdinalDate(new Date('2026-12-31T23:00:00Z'))).toBe('1st January 2027');
    expect(formatOrdinalDate('2026-11-30T22:59:59Z')).toBe('30th November 2026');
    // A bare day is that day.
    expect(formatOrdinalDate('2026-11-21')).toBe('21st November 2026');
  });
  it('labels average ratings by the spec bands', () => {
    expect([0, 1.9, 2, 2.9, 3, 3.9, 4, 4.4, 4.5, 5].map(ratingLabel)).toEqual([
      'Terrible',
      'Terrible',
      'Poor',
      'Poor',
      'Average',
      'Average',
      'Very Good',
      'Very Good',
      'Excellent',
      'Excellent',
    ]);
  });
  it("names one review's stars with the admin scale's words, agreeing with the bands", () => {
    expect([1, 2, 3, 4, 5].map(starLabel)).toEqual(['Terrible', 'Poor', 'Average', 'Very good', 'Excellent']);
    expect([1, 2, 3, 4, 5].map((n) => starLabel(n).toLowerCase())).toEqual(
      [1, 2, 3, 4, 5].map((n) => ratingLabel(n).toLowerCase()),
    );
  });
});

describe('job lifecycle table', () => {
  it('lets only admins assign unassigned jobs and complete pending ones', () => {
    expect(findJobTransition('assign', 'unassigned', 'admin')?.to).toBe('in_progress');
    expect(findJobTransition('assign', 'in_progress', 'admin')).toBeNull();
    expect(findJobTransition('assign', 'unassigned', 'applicant')).toBeNull();
    expect(findJobTransition('complete', 'in_progress', 'admin')?.to).toBe('completed');
    expect(findJobTransition('complete', 'unassigned', 'admin')).toBeNull();
    expect(findJobTransition('complete', 'completed', 'admin')).toBeNull();
    expect(allowedJobActions('completed', 'admin')).not.toContain('assign');
  });
});

describe("the spec's client's words (issue 14)", () => {
  const company = {
    contactName: 'B',
    phoneNumber: '08012345678',
    officialEmail: 'a@b.ng',
    officeAddress: 'C',
    industry: 'D',
    password: 'Str0ng!Pass',
    passwordConfirm: 'Str0ng!Pass',
  };
  it('takes `name` for a missing companyName at sign-up; companyName wins when both come', () => {
    expect(companySignupInput.parse({ ...company, name: 'Ada Ltd' }).companyName).toBe('Ada Ltd');
    expect(companySignupInput.parse({ ...company, name: 'X', companyName: 'Ada Ltd' }).companyName).toBe('Ada Ltd');
    expect(companySignupInput.safeParse(company).error?.issues[0].message).toBe('Please enter your company name');
  });

  it.each([
    ['GTBank', 'Guaranty Trust Bank (GTBank)'],
    ['gtbank', 'Guaranty Trust Bank (GTBank)'],
    ['GTB', 'Guaranty Trust Bank (GTBank)'],
    ['Guaranty Trust Bank', 'Guaranty Trust Bank (GTBank)'],
    ['guaranty trust bank plc', 'Guaranty Trust Bank (GTBank)'],
    ['Access', 'Access Bank'],
    ['ACCESS BANK PLC', 'Access Bank'],
    ['Zenith', 'Zenith Bank'],
    ['UBA', 'United Bank for Africa (UBA)'],
    ['United Bank for Africa', 'United Bank for Africa (UBA)'],
    ['First Bank', 'First Bank of Nigeria'],
    ['FirstBank', 'First Bank of Nigeria'],
    ['FCMB', 'First City Monument Bank (FCMB)'],
    ['Stanbic', 'Stanbic IBTC Bank'],
    ['Kuda', 'Kuda Microfinance Bank'],
    ['Union Bank', 'Union Bank of Nigeria'],
    ['Ecobank', 'Ecobank Nigeria'],
    ['opay', 'OPay'],
  ])('matches the bank %s to %s', (typed, bank) => {
    expect(matchBank(typed)).toBe(bank);
    expect(payoutDetailsInput.parse({ accountNumber: '0123456789', accountName: 'A', bank: typed }).bank).toBe(bank);
  });

  it('matches every listed name to itself and refuses what names no bank', () => {
    for (const bank of NIGERIAN_BANKS) expect(matchBank(bank)).toBe(bank);
    for (const typed of ['Bank of Atlantis', 'Bank', '', 'First City']) expect(matchBank(typed), typed).toBeNull();
    expect(
      payoutDetailsInput.safeParse({ accountNumber: '0123456789', accountName: 'A', bank: 'Bank of Atlantis' }).error
        ?.issues[0].message,
    ).toBe(messages.bankRule);
  });
});

describe('text PostgreSQL cannot store (issue 14, item 5)', () => {
  it.each([
    ['plain', false],
    ['🦄 paired surrogates', false],
    ['a\u0000b', true],
    ['\ud800', true],
    ['end\udbff', true],
    ['\udc00start', true],
    ['\udfff\ud800', true],
  ])('%j unsafe: %s', (value, unsafe) => expect(hasUnsafeCharacter(value)).toBe(unsafe));

  it('finds the first such string or key, at any depth, without recursion', () => {
    expect(findUnsafeText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual(['a', 1, 'c']);
    expect(findUnsafeText({ x: { 'k\ud800': 1 } })).toEqual(['x', 'k\ud800']);
    expect(findUnsafeText({ a: 'ok', n: 1, b: null })).toBeNull();
    let deep: unknown = '\udc00';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeText(deep)).toHaveLength(200_000);
  });

  it('refuses it before the schema runs, naming the field, and in the text helpers', () => {
    const schema = refuseUnsafeText(z.object({ companyName: z.string(), tags: z.array(z.string()) }));
    const res = schema.safeParse({ companyName: 'Ada', tags: ['a', 'b\u0000'] });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]).toMatchObject({
      path: ['tags', 1],
      message: 'tags contains a character that is not allowed',
    });
    expect(schema.safeParse({ companyName: 'Ada', tags: ['a'] }).success).toBe(true);
    expect(requiredText('companyName').safeParse('Ada\ud800').error?.issues[0]?.message).toBe(
      'companyName contains a character that is not allowed',
    );
  });
});

describe('VAT included in a price (cart and receipt)', () => {
  it.each([
    [10_750_000, 750_000], // ₦107,500 holds exactly ₦7,500
    [6_000_050, 418_608], // 418,608.14 kobo rounds down
    [2_000_000, 139_535], // 139,534.88 rounds up
    [43, 3], // exactly 3 kobo (a half never occurs: 3k/43 has no .5)
    [0, 0],
  ])('%i kobo includes %i kobo of VAT at 7.5%%', (total, vat) => {
    expect(VAT_RATE_PERCENT).toBe(7.5);
    expect(vatIncludedKobo(total)).toBe(vat);
  });
});

describe('the Remuneration Order upload (PUT /api/remuneration-order)', () => {
  const message = (file: unknown) => remunerationOrderUpload.safeParse({ file }).error?.issues[0]?.message;
  const pdf = (name = 'order.pdf', type = 'application/pdf') => new File(['%PDF-1.4'], name, { type });

  it('takes a PDF by its type or its name, and gives it back as the File', () => {
    const file = pdf();
    expect(remunerationOrderUpload.parse({ file }).file).toBe(file);
    expect(message(pdf('ORDER.PDF', ''))).toBeUndefined();
  });

  it("refuses with the admin page's words: none, empty, not a PDF, over the limit", () => {
    expect(message(null)).toBe('Choose the PDF to upload');
    expect(message(new File([], 'order.pdf', { type: 'application/pdf' }))).toBe(
      'The file is empty. Choose the PDF again.',
    );
    expect(message(pdf('order.docx', 'application/msword'))).toBe('The file must be a PDF');
    const large = pdf();
    Object.defineProperty(large, 'size', { value: REMUNERATION_ORDER_MAX_BYTES + 1 });
    expect(message(large)).toBe('The file is too large: the limit is 20 MB');
  });
});

describe('formatNairaExact', () => {
  it('writes kobo as two digits, or none for whole naira', () => {
    expect(formatNairaExact(5_000.5)).toBe('₦5,000.50');
    expect(formatNairaExact(12_345.67)).toBe('₦12,345.67');
    expect(formatNairaExact(0.05)).toBe('₦0.05');
    expect(formatNairaExact(1_500)).toBe('₦1,500');
  });
});

describe('the profile form’s year of call (decision 2273)', () => {
  it('refuses a year still to come, as the API does, and takes this year', () => {
    const thisYear = lagosYear(new Date());
    const form = profileEditForm('ada@example.ng', LAWYER_EDITABLE_FIELDS);
    const filled = (yearOfCall: string) => ({
      officialEmail: 'ada@example.ng',
      phoneNumber: '08012345678',
      scn: 'SCN001234',
      yourBio: '',
      alternativeEmailAddress: '',
      yearOfCall,
      currentPassword: '',
    });
    const problems = (yearOfCall: string) =>
      form.safeParse(filled(yearOfCall)).error?.issues.map((i) => i.message) ?? [];
    expect(problems(String(thisYear + 1))).toEqual([`Year of call cannot be later than ${thisYear}`]);
    expect(problems(String(thisYear))).toEqual([]);
    expect(problems('soon')).toEqual([messages.yearOfCallRule]);
  });

  it('counts the year in Lagos: 23:30 UTC on 31 December is already the next year there', () => {
    expect(lagosYear(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
    expect(lagosYear(new Date('2026-12-31T22:30:00Z'))).toBe(2026);
  });
});

describe('whole kobo', () => {
  const [whole] = wholeKobo('amount');
  it('takes a large sum in whole kobo, which floating point puts off its kobo by more than 1e-6', () => {
    for (const n of [310_786_835.84, 149_773_283.55, 538_662_172.05, 999_999_999.99, 0.01, 100.01, 12_345.67])
      expect(whole(n), String(n)).toBe(true);
  });
  it('still refuses a fraction of a kobo', () => {
    for (const n of [0.004, 1.005, 123.456, 100.005, 24_999.999, 310_786_835.845, 999_999_999.999])
      expect(whole(n), String(n)).toBe(false);
  });
});
