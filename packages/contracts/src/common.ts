import { z } from 'zod';
import { enterYour, messages } from './messages.js';

/** The one error shape of every 4xx/5xx answer. */
export const errorBody = z.object({
  status: z.enum(['fail', 'error']),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const okMessage = z.object({ status: z.literal('success'), message: z.string() });
export type OkMessage = z.infer<typeof okMessage>;

/** A text field that must be filled: missing, non-text and blank all answer "Please enter your {label}". */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: enterYour(label) })
    .trim()
    .min(1, enterYour(label))
    .max(max, `${label} must be at most ${max} characters`);

export const optionalText = (label: string, max = 200) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional();

export const emailField = z
  .string({ error: messages.enterEmail })
  .trim()
  .min(1, messages.enterEmail)
  .max(254, 'Email address is too long')
  .pipe(z.email('Please enter a valid email address'))
  .transform((v) => v.toLowerCase());

/** Spec section 5: at least 8, a lowercase, an uppercase, a digit and one of @$!%*?&, only those characters. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;

export const passwordField = (rule: string = messages.passwordRuleSignup) =>
  z
    .string({ error: messages.enterPassword })
    .min(1, messages.enterPassword)
    .max(128, 'Password must be at most 128 characters')
    .regex(PASSWORD_PATTERN, rule);

export const PHONE_PATTERN = /^\d{11}$/;
export const phoneField = z.string({ error: messages.phoneRule }).trim().regex(PHONE_PATTERN, messages.phoneRule);

/** Keeps only digits, at most `max` of them (phone and price inputs). */
export const digitsOnly = (value: string, max?: number) => {
  const d = value.replace(/\D+/g, '');
  return max === undefined ? d : d.slice(0, max);
};

export const idParam = z.object({ id: z.uuid('id must be a valid id') });

/** Mongo-style `_id` exposed to clients, as the spec's payloads name it. */
export const idString = z.string();
