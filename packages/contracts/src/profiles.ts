import { z } from 'zod';
import { PHONE_PATTERN } from './common.js';
import { messages } from './messages.js';

/** Whether a typed sign-in address differs from the current one (the server compares them lower-cased). */
export function emailChanging(current: string, typed: string) {
  const next = typed.trim().toLowerCase();
  return next !== '' && next !== current.trim().toLowerCase();
}

/**
 * The profile edit form (PATCH /api/updateprofile) for a user whose sign-in address is `currentEmail`:
 * a phone number, when given, has 11 digits, and a new sign-in address needs the current password
 * (docs/decisions/0210). The server checks the rest of each field and answers with its own message.
 * `fields` are the role's other editable text fields (COMPANY_EDITABLE_FIELDS, LAWYER_EDITABLE_FIELDS).
 */
export const profileEditForm = <K extends string>(currentEmail: string, fields: readonly K[]) =>
  z
    .object({
      ...(Object.fromEntries(fields.map((f) => [f, z.string()])) as Record<K, z.ZodString>),
      officialEmail: z.string(),
      phoneNumber: z.string().refine((v) => v === '' || PHONE_PATTERN.test(v), messages.phoneRule),
      currentPassword: z.string(),
    })
    .superRefine((values, ctx) => {
      const v = values as { officialEmail: string; currentPassword: string };
      if (emailChanging(currentEmail, v.officialEmail) && !v.currentPassword)
        ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: messages.currentPasswordRequired });
    });
