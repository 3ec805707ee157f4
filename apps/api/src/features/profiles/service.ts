import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  COMPANY_EDITABLE_FIELDS,
  EXPERTISE,
  emailField,
  LAWYER_EDITABLE_FIELDS,
  messages,
  PHONE_PATTERN,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { users } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { badRequest, forbidden, unauthorized } from '../../platform/errors.js';
import { toProfile } from './mapper.js';
import { keyOfUrl, type ReceivedFile, type UploadsService } from '../uploads/service.js';

type Changes = Partial<typeof users.$inferInsert>;

/** Text fields each role may change; everything else a client sends (role, verified, name...) is ignored. */
const EDITABLE = { company: COMPANY_EDITABLE_FIELDS, lawyer: LAWYER_EDITABLE_FIELDS } as const;

const website = z
  .string()
  .max(200, 'website must be at most 200 characters')
  .regex(/^(https?:\/\/)?[^\s/$.?#][^\s]*\.[^\s]{2,}$/i, 'website must be a web address such as https://example.ng')
  .refine(
    (v) => !/^[a-z][a-z0-9+.-]*:/i.test(v) || /^https?:\/\//i.test(v),
    'website must start with http:// or https://',
  );

const rules: Record<string, z.ZodType<string>> = {
  officialEmail: emailField,
  alternativeEmailAddress: emailField.refine(Boolean, 'alternativeEmailAddress must be an email address'),
  phoneNumber: z
    .string()
    .transform((v) => v.replace(/\D+/g, ''))
    .pipe(z.string().regex(PHONE_PATTERN, messages.phoneRule)),
  website,
  yourBio: z.string().max(2000, 'yourBio must be at most 2000 characters'),
  officeAddress: z.string().max(300, 'officeAddress must be at most 300 characters'),
  scn: z.string().max(50, 'scn must be at most 50 characters'),
  yearOfCall: z.string().regex(/^(19|20)\d{2}$/, 'yearOfCall must be a year such as 2015'),
};

function validate(field: string, value: string): string {
  const r = rules[field].safeParse(value);
  if (!r.success) {
    const msg = r.error.issues[0]?.message ?? 'is invalid';
    throw badRequest(
      msg.toLowerCase().includes(field.toLowerCase()) || msg.startsWith('Please') ? msg : `${field}: ${msg}`,
    );
  }
  return r.data;
}

/** What the profile form carried: every text field (repeated ones kept) and at most one picture. */
export interface ProfileForm {
  fields: Map<string, string[]>;
  file: ReceivedFile | null;
}

type Deps = Pick<Shared, 'db' | 'clock' | 'limits' | 'accounts' | 'securityLog' | 'mailWritten'> & {
  uploads: UploadsService;
};

/** A company's or lawyer's own profile: which fields each may change, their rules, and the e-mail change. */
export function createProfilesService({ db, clock, limits, accounts, securityLog, mailWritten, uploads }: Deps) {
  return {
    /** Applies the form to the caller's own profile and answers the saved profile. */
    async update(me: AuthUser, role: 'company' | 'lawyer', { fields, file }: ProfileForm) {
      const changes: Changes = {};
      for (const field of EDITABLE[role]) {
        const raw = fields.get(field)?.at(-1)?.trim();
        if (!raw) continue;
        (changes as Record<string, string>)[field] = validate(field, raw);
      }
      if (role === 'lawyer') {
        // Sent at all, the field is the whole list: one empty value clears it (a multipart form cannot
        // carry an empty list); left out, the list stays as it is.
        const sent = fields.get('areasOfPractise');
        if (sent) {
          const areas = sent.map((a) => a.trim()).filter(Boolean);
          const bad = areas.find((a) => !(EXPERTISE as readonly string[]).includes(a));
          if (bad) throw badRequest(`areasOfPractise: ${bad} is not in the expertise list`);
          changes.areasOfPractise = [...new Set(areas)];
        }
      }
      const imageUrl = fields.get('profileImage')?.at(-1)?.trim();
      if (imageUrl && !file) {
        const key = keyOfUrl(imageUrl);
        const row = key ? await uploads.find(key) : null;
        if (!row || row.kind !== 'image') throw badRequest(messages.profileImageRefused);
        changes.profileImage = `/uploads/${row.key}`;
      }

      // The sign-in address never changes here: a new one needs the current password, then a link
      // confirmed from the new inbox (docs/decisions/0210). Taken or free, the answer is the same.
      const oldEmail = me.officialEmail;
      const newEmail = changes.officialEmail !== oldEmail ? changes.officialEmail : undefined;
      delete changes.officialEmail;
      if (newEmail) {
        const password = fields.get('currentPassword')?.at(-1) ?? '';
        if (!password) throw badRequest(messages.currentPasswordRequired);
        if (password.length > 128) throw badRequest(messages.currentPasswordWrong);
        // A password guess from a session counts with the login tries, before the hash is evaluated.
        await limits.claimLoginAttempt(oldEmail);
        if (!(await accounts.checkPassword(me.id, password))) {
          securityLog('email_change_bad_password', { actor: me.id });
          throw forbidden(messages.currentPasswordWrong);
        }
        await limits.loginSucceeded(oldEmail);
        await limits.perAccountAction('email-change', newEmail);
      }
      const updated = await db.transaction(async (tx) => {
        if (file) changes.profileImage = (await uploads.store(file, me.id, tx)).url;
        if (newEmail) await accounts.requestEmailChange(tx, { id: me.id, officialEmail: oldEmail }, newEmail);
        const [row] = await tx
          .update(users)
          .set({ ...changes, updatedAt: clock.now() })
          .where(and(eq(users.id, me.id), eq(users.userType, role)))
          .returning();
        return row;
      });
      if (!updated) throw unauthorized();
      if (newEmail) mailWritten();
      return toProfile(updated);
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
