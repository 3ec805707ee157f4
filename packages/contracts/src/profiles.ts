import { z } from 'zod';
import { localPhoneNumber, PHONE_PATTERN } from './common.js';
import { enterYour, messages } from './messages.js';

export const YEAR_OF_CALL_PATTERN = /^(19|20)\d{2}$/;

/** The year in Lagos (UTC+1, no summer time): a call to the bar on 1 January is that year's from midnight there. */
export const lagosYear = (now: Date) => new Date(now.getTime() + 60 * 60 * 1000).getUTCFullYear();

/**
 * What is wrong with a typed year of call, or null: it is a year, and not one still to come, since no
 * lawyer has been called to the bar in a later year than this one (decision 2273).
 */
export function yearOfCallProblem(value: string, thisYear: number): string | null {
  if (!YEAR_OF_CALL_PATTERN.test(value)) return messages.yearOfCallRule;
  if (Number(value) > thisYear) return `Year of call cannot be later than ${thisYear}`;
  return null;
}

/** Fields the profile form may not leave empty (required at sign-up), with the message it shows. */
const REQUIRED_IN_PROFILE: Record<string, string> = {
  officialEmail: messages.enterEmail,
  phoneNumber: messages.phoneRule,
  scn: enterYour('SCN'),
  officeAddress: enterYour('office address'),
};

/** Whether a typed sign-in address differs from the current one (the server compares them lower-cased). */
export function emailChanging(current: string, typed: string) {
  const next = typed.trim().toLowerCase();
  return next !== '' && next !== current.trim().toLowerCase();
}

/**
 * The profile edit form (PATCH /api/updateprofile) for a user whose sign-in address is `currentEmail`:
 * the fields required at sign-up stay filled, the phone number is taken in local or international
 * form, a year of call is a year, and a new sign-in address needs the
 * current password (docs/decisions/0210). The server checks the rest and answers with its own message.
 * `fields` are the role's other editable text fields (COMPANY_EDITABLE_FIELDS, LAWYER_EDITABLE_FIELDS).
 */
export const profileEditForm = <K extends string>(
  currentEmail: string,
  fields: readonly K[],
  /** The saved profile: a required field it never had may stay empty (the server keeps it as it is). */
  saved: Partial<Record<string, unknown>> = {},
) =>
  z
    .object({
      ...(Object.fromEntries(fields.map((f) => [f, z.string()])) as Record<K, z.ZodString>),
      officialEmail: z.string(),
      // Checked in its local form; the server saves that form (localPhoneNumber) whichever was typed.
      phoneNumber: z
        .string()
        .refine(
          (v) => (v.trim() === '' && !saved.phoneNumber) || PHONE_PATTERN.test(localPhoneNumber(v)),
          messages.phoneRule,
        ),
      currentPassword: z.string(),
    })
    .superRefine((values, ctx) => {
      const v = values as Record<string, string>;
      for (const [field, message] of Object.entries(REQUIRED_IN_PROFILE))
        if (field !== 'phoneNumber' && field in v && !v[field].trim() && saved[field])
          ctx.addIssue({ code: 'custom', path: [field], message });
      const yearProblem =
        'yearOfCall' in v && v.yearOfCall.trim() && yearOfCallProblem(v.yearOfCall.trim(), lagosYear(new Date()));
      if (yearProblem) ctx.addIssue({ code: 'custom', path: ['yearOfCall'], message: yearProblem });
      if (emailChanging(currentEmail, v.officialEmail) && !v.currentPassword)
        ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: messages.currentPasswordRequired });
    });

/** Whether a typed SCN differs from the saved one (case and spaces aside). */
export const scnChanging = (saved: string | null | undefined, typed: string) =>
  typed.trim() !== '' && typed.replace(/\s+/g, '').toUpperCase() !== (saved ?? '').replace(/\s+/g, '').toUpperCase();
