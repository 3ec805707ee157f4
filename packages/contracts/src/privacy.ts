import { z } from 'zod';
import { okMessage } from './common.js';
import { TERMS_VERSION } from './terms-version.js';

/** The version of the Terms of use and Privacy policy the sign-up forms show: terms-version.ts. */
export { TERMS_VERSION };

export const privacyMessages = {
  termsVersionOutdated: `The terms and privacy policy have changed. Please reload the page and accept version ${TERMS_VERSION}.`,
  exportOthersRefused: 'You can only download your own data.',
  deletePasswordRequired: 'Please enter your password to delete your account',
  deletePasswordWrong: 'Your password is not correct',
  accountDeleted:
    'Your account has been deleted. Your personal data has been erased; the invoices and payment records the law requires us to keep no longer carry your name.',
  deleteBlockedIntro: 'Your account cannot be deleted yet:',
} as const;

/**
 * Sign-up's consent: the version of the terms the person ticked. Optional so that a client sending the
 * spec's fields alone still signs up (no consent is then recorded; decision 2030); when sent it must be
 * the current version.
 */
export const termsVersionField = z
  .string({ error: privacyMessages.termsVersionOutdated })
  .max(40, privacyMessages.termsVersionOutdated)
  .refine((v) => v === TERMS_VERSION, privacyMessages.termsVersionOutdated)
  .optional();

export const accountExportQuery = z.object({
  _id: z.uuid(privacyMessages.exportOthersRefused).optional(),
});

export const deleteAccountInput = z.object({
  password: z
    .string({ error: privacyMessages.deletePasswordRequired })
    .min(1, privacyMessages.deletePasswordRequired)
    .max(128, privacyMessages.deletePasswordWrong),
});
export type DeleteAccountInput = z.input<typeof deleteAccountInput>;
export const deleteAccountResponse = okMessage;

/** What stands in the way of deleting an account, each named (open jobs, money still owed). */
export const deletionBlocker = z.object({
  kind: z.enum([
    'open_job',
    'lawyer_balance',
    'pending_payout',
    'pending_refund',
    'payment_in_progress',
    'live_plan',
    'last_admin',
  ]),
  message: z.string(),
});
export type DeletionBlocker = z.infer<typeof deletionBlocker>;
export const deletionCheckResponse = z.object({
  status: z.literal('success'),
  data: z.object({ canDelete: z.boolean(), blockers: z.array(deletionBlocker) }),
});
export type DeletionCheckResponse = z.infer<typeof deletionCheckResponse>;
