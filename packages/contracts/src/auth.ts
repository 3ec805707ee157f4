import { z } from 'zod';
import { areasInText, EXPERTISE, USER_TYPES } from './constants.js';
import {
  emailField,
  okMessage,
  optionalText,
  passwordField,
  requiredPhoneField,
  requiredText,
  withoutNulls,
} from './common.js';
import { messages } from './messages.js';
import { termsVersionField } from './privacy.js';

const withConfirm = <T extends z.ZodRawShape>(shape: T, rule?: string) =>
  z
    .object({
      ...shape,
      password: passwordField(rule),
      passwordConfirm: z.string({ error: messages.confirmPassword }).min(1, messages.confirmPassword).max(128),
    })
    .refine((v) => (v as { password: string }).password === (v as { passwordConfirm: string }).passwordConfirm, {
      message: messages.passwordsDoNotMatch,
      path: ['passwordConfirm'],
    });

export const companySignupStep1 = z.object({
  companyName: requiredText('company name'),
  contactName: requiredText('contact name'),
  phoneNumber: requiredPhoneField('contact phone number'),
  officialEmail: emailField,
  officeAddress: requiredText('office address', 300),
});

/** The sign-up form's fields (our web form always sends `companyName`). */
export const companySignupForm = withConfirm({
  ...companySignupStep1.shape,
  cac: optionalText('CAC registration number', 50),
  industry: requiredText('industry', 100),
  termsVersion: termsVersionField,
});
/**
 * The names a spec-written client may send for a field, each standing in for a missing field: spec
 * section 3 names the company "companyName or name", and section 5's sign-up rule calls the optional
 * fields cacNumber and firmName (our fields cac and lawFirmName). The optional fields sent null are
 * not sent (decision 2210). The company document names no field for "confirm password": the screen's
 * label, `confirmPassword`, stands for `passwordConfirm` (decision 2234).
 */
const withAliases = (aliases: Record<string, string>, optional: readonly string[]) => (v: unknown) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const out = { ...(v as Record<string, unknown>) };
  for (const [alias, field] of Object.entries(aliases))
    if (out[field] === undefined && out[alias] !== undefined) out[field] = out[alias];
  return withoutNulls(optional, out);
};

/** `areasOfPractise` sent as one text holds the list, as the profile form's value does (decision 2234). */
const withAreaList = (v: unknown) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const areas = (v as { areasOfPractise?: unknown }).areasOfPractise;
  return typeof areas === 'string' ? { ...v, areasOfPractise: areasInText(areas).filter(Boolean) } : v;
};

/** The API's company sign-up body: the form's fields, or the spec's names for them. */
export const companySignupInput = z.preprocess(
  withAliases({ name: 'companyName', cacNumber: 'cac', confirmPassword: 'passwordConfirm' }, ['cac']),
  companySignupForm,
);
export type CompanySignupInput = z.input<typeof companySignupForm>;

/** The lawyer sign-up form's fields. */
export const lawyerSignupForm = withConfirm({
  name: requiredText('name'),
  officialEmail: emailField,
  phoneNumber: requiredPhoneField('phone number'),
  areasOfPractise: z
    .array(z.enum(EXPERTISE, 'Please choose your areas of practice from the expertise list'), {
      error: 'Please enter your areas of practise',
    })
    .min(1, 'Please enter your areas of practise')
    .max(EXPERTISE.length)
    .transform((v) => [...new Set(v)]),
  scn: requiredText('SCN', 50),
  cac: optionalText('CAC number', 50),
  lawFirmName: optionalText('law firm name'),
  lawFirmAddress: optionalText('law firm address', 300),
  termsVersion: termsVersionField,
});
/** The API's lawyer sign-up body: the form's fields, or the spec's names for them. */
export const lawyerSignupInput = z.preprocess(
  (v) =>
    withAreaList(
      withAliases({ cacNumber: 'cac', firmName: 'lawFirmName', confirmPassword: 'passwordConfirm' }, [
        'cac',
        'lawFirmName',
        'lawFirmAddress',
      ])(v),
    ),
  lawyerSignupForm,
);
export type LawyerSignupInput = z.input<typeof lawyerSignupForm>;

export const adminSignupInput = withConfirm({
  name: requiredText('name'),
  phoneNumber: requiredPhoneField('phone number'),
  officialEmail: emailField,
  inviteCode: requiredText('invite code', 200),
  termsVersion: termsVersionField,
});
export type AdminSignupInput = z.input<typeof adminSignupInput>;

export const loginInput = z.object({
  officialEmail: emailField,
  password: z.string({ error: messages.enterPassword }).min(1, messages.enterPassword).max(128),
});
export type LoginInput = z.input<typeof loginInput>;

const userTypeSchema = z.enum(USER_TYPES);

const sessionUser = z.object({ _id: z.string(), userType: userTypeSchema });

/** POST /api/login: the user is spec section 3's user session, `_id`, `userType` and `officialEmail` (decision 2303). */
export const loginResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  token: z.string(),
  data: z.object({ user: sessionUser.extend({ officialEmail: z.string() }) }),
});
/** POST /api/login/two-factor, the second step (decision 2020): `_id` and `userType`, as its tests pin. */
export const twoFactorLoginResponse = loginResponse.extend({ data: z.object({ user: sessionUser }) });
/** What both sign-in answers carry: the web reads only this. */
export type LoginResponse = z.infer<typeof twoFactorLoginResponse>;

export const emailOnlyInput = z.object({ officialEmail: emailField });
export type EmailOnlyInput = z.input<typeof emailOnlyInput>;

export const otpField = z
  .string({ error: 'Please enter the 6-digit code' })
  .regex(/^\d{6}$/, 'Please enter the 6-digit code');

export const confirmResetTokenInput = z.object({ token: otpField, officialEmail: emailField });

/**
 * A code sent as a number: the joined digits made a number lose their leading zeros (Number('012345')
 * is 12345); padded back to six digits it is the code typed (decision 2234). Anything else as it is.
 */
export const codeAsText = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 999_999 ? String(v).padStart(6, '0') : v;

/** POST /api/confirm-reset-token as the API reads it: `token` may be the code as a number. */
export const confirmResetTokenBody = z.preprocess(
  (v) =>
    // The spec's client holds the address as `userEmail` (its /otp/{userEmail} page, the reset call's
    // query): read it, or `email`, when `officialEmail` is not sent (decision 2326).
    withAliases(
      { userEmail: 'officialEmail', email: 'officialEmail' },
      [],
    )(
      v && typeof v === 'object' && !Array.isArray(v) && 'token' in v
        ? { ...v, token: codeAsText((v as { token: unknown }).token) }
        : v,
    ),
  confirmResetTokenInput,
);
export const confirmResetTokenResponse = okMessage.extend({ resetToken: z.string() });

export const resetPasswordQuery = z.object({
  userType: z.string().max(20).optional(),
  // Built from the route's address without encoding, a `+` in the address arrives as a space, which no
  // address holds (decision 2234).
  userEmail: z.preprocess((v) => (typeof v === 'string' ? v.trim().replaceAll(' ', '+') : v), emailField),
  token: z.string({ error: messages.linkInvalid }).min(10, messages.linkInvalid).max(200),
});
export const resetPasswordInput = withConfirm({}, messages.passwordRuleNew);

export const confirmEmailInput = z.object({
  token: z.string({ error: messages.linkInvalid }).min(10, messages.linkInvalid).max(200),
});

/** The link token of an e-mail change: confirming it from the new address, or undoing it from the old one. */
export const emailChangeTokenInput = confirmEmailInput;

/** POST /api/logout/others: how many other sessions of the account ended (decision 2245). */
export const logoutOthersResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({ ended: z.number().int().nonnegative() }),
});
export type LogoutOthersResponse = z.infer<typeof logoutOthersResponse>;
