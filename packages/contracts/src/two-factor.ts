import { z } from 'zod';
import { loginResponse } from './auth.js';
import { dataResponse } from './common.js';
import { TWO_FACTOR } from './constants.js';

/**
 * Two-factor authentication with an authenticator app (TOTP, RFC 6238) and recovery codes
 * (docs/decisions/2020-two-factor-authentication.md).
 */
export { TWO_FACTOR } from './constants.js';

export const twoFactorMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  codeWrong: 'The code is incorrect. Check your authenticator app and try again.',
  challengeExpired: 'Your sign-in has expired. Please log in again.',
  stepUpRequired: 'Enter the code from your authenticator app to continue',
  alreadyEnabled: 'Two-factor authentication is already on',
  notEnabled: 'Two-factor authentication is not on',
  noEnrolment: 'Start the set-up again: no authenticator app is waiting for its first code',
  enabled: 'Two-factor authentication is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor authentication is off',
  verified: 'Code accepted',
  // The "This wasn't me" link of the two-factor-on e-mail (decision 2220).
  notMeLinkIncomplete: 'This link is incomplete. Please open the link from the email again.',
  notMeLinkUnknown:
    'This link is not valid. Check that you opened the whole link from the email about two-factor authentication.',
  notMeLinkUsed: 'This link has already been used. Reset your password to sign in, or contact support.',
  notMeLinkExpired: `This link has expired: it worked for ${TWO_FACTOR.notMeLinkDays} days after two-factor authentication was turned on. Contact support to get back into your account.`,
  notMeLinkStale:
    'Two-factor authentication was turned off or set up again since this email was sent, so this link no longer applies. Use the link in the latest email about it, or contact support.',
  notMeAddressChanged:
    'The sign-in email address of this account was changed after this email was sent. First undo that change with the link we emailed to this address, then open this link again.',
  notMeDone:
    'Two-factor authentication is off, every device is logged out and your old password no longer works. We emailed you a code to set a new password.',
} as const;

/** A 6-digit TOTP code, or a recovery code (xxxxx-xxxxx, case and the dash ignored). */
export const twoFactorCodeField = z
  .string({ error: twoFactorMessages.codeRequired })
  .trim()
  .min(6, twoFactorMessages.codeRequired)
  .max(32, 'code: must be at most 32 characters')
  .regex(/^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, twoFactorMessages.codeRequired);

export const twoFactorCodeInput = z.object({ code: twoFactorCodeField });
export type TwoFactorCodeInput = z.input<typeof twoFactorCodeInput>;

/** Only a 6-digit code from the app confirms an enrolment (a recovery code does not exist yet). */
export const twoFactorEnableInput = z.object({
  code: z
    .string({ error: twoFactorMessages.codeRequired })
    .trim()
    .regex(/^\d{6}$/, twoFactorMessages.codeRequired),
});
export type TwoFactorEnableInput = z.input<typeof twoFactorEnableInput>;

export const twoFactorLoginInput = z.object({
  challengeToken: z
    .string({ error: 'challengeToken is required' })
    .min(20, 'challengeToken is not valid')
    .max(200, 'challengeToken is not valid'),
  code: twoFactorCodeField,
});
export type TwoFactorLoginInput = z.input<typeof twoFactorLoginInput>;

/** POST /api/login for an account with two-factor on: no token yet, a challenge for the second call. */
export const twoFactorChallengeResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  twoFactorRequired: z.literal(true),
  challengeToken: z.string(),
  /** When the challenge stops working (ISO time). */
  expiresAt: z.string(),
});
export type TwoFactorChallengeResponse = z.infer<typeof twoFactorChallengeResponse>;

/** The two answers of POST /api/login: the spec's, or the challenge. */
export const loginOrChallengeResponse = z.union([loginResponse, twoFactorChallengeResponse]);
export type LoginOrChallengeResponse = z.infer<typeof loginOrChallengeResponse>;

export const twoFactorStatusResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    enabled: z.boolean(),
    enabledAt: z.string().nullable(),
    recoveryCodesLeft: z.number(),
  }),
});
export type TwoFactorStatusResponse = z.infer<typeof twoFactorStatusResponse>;

export const twoFactorSetupResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    /** Base32, to type into the app by hand. */
    secret: z.string(),
    /** otpauth://totp/... to scan (or open on the phone). */
    otpauthUri: z.string(),
  }),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponse>;

export const twoFactorEnableResponse = dataResponse('recoveryCodes', z.array(z.string()));
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponse>;

/** The token of a "This wasn't me" link: the query of its check, the body of its confirmation. */
export const twoFactorNotMeInput = z.object({
  token: z
    .string({ error: twoFactorMessages.notMeLinkIncomplete })
    .min(20, twoFactorMessages.notMeLinkUnknown)
    .max(200, twoFactorMessages.notMeLinkUnknown),
});
export type TwoFactorNotMeInput = z.input<typeof twoFactorNotMeInput>;

/** GET /api/two-factor/not-me: the link can be used; what the page shows before asking for confirmation. */
export const twoFactorNotMeCheckResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    /** When two-factor authentication was turned on (ISO time). */
    enabledAt: z.string(),
    /** When the link stops working (ISO time). */
    expiresAt: z.string(),
  }),
});
export type TwoFactorNotMeCheckResponse = z.infer<typeof twoFactorNotMeCheckResponse>;

/** POST /api/two-factor/not-me: done; the reset code went to this address, the one the link was mailed to. */
export const twoFactorNotMeResponse = dataResponse('officialEmail', z.string());
export type TwoFactorNotMeResponse = z.infer<typeof twoFactorNotMeResponse>;
