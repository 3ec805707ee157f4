import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  EXPERTISE,
  emailField,
  hasUnsafeCharacter,
  messages,
  PHONE_PATTERN,
  unsafeCharacterMessage,
  updateProfileAnswer,
  type UpdateProfileAnswer,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { users } from '../../db/schema.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../platform/errors.js';
import { toProfile } from '../accounts/service.js';
import {
  cleanFileName,
  createUploadsService,
  detectFile,
  keyOfUrl,
  malformedForm,
  type ReceivedFile,
} from '../uploads/service.js';

const tags = ['profiles'];

type Changes = Partial<typeof users.$inferInsert>;

/** Text fields each role may change; everything else a client sends (role, verified, name...) is ignored. */
const EDITABLE = {
  company: ['officialEmail', 'website', 'yourBio', 'phoneNumber', 'alternativeEmailAddress', 'officeAddress'],
  lawyer: ['officialEmail', 'scn', 'yourBio', 'phoneNumber', 'alternativeEmailAddress', 'yearOfCall'],
} as const;

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

/** Reads the multipart form: every text field (repeated ones kept) and at most one profileImage file. */
async function readProfileForm(request: FastifyRequest, maxImageBytes: number) {
  if (!request.isMultipart()) throw new AppError(415, 'Send the form as multipart/form-data');
  const fields = new Map<string, string[]>();
  let file: ReceivedFile | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxImageBytes + 1, files: 1, fields: 40, fieldSize: 16 * 1024, parts: 45 },
    })) {
      if (part.type === 'field') {
        const name = part.fieldname.replace(/\[\]$/, '');
        if (typeof part.value !== 'string') continue;
        if (hasUnsafeCharacter(part.value) || hasUnsafeCharacter(name)) throw badRequest(unsafeCharacterMessage(name));
        fields.set(name, [...(fields.get(name) ?? []), part.value]);
        continue;
      }
      if (part.fieldname !== 'profileImage') {
        part.file.resume();
        throw badRequest('Send the picture as profileImage');
      }
      const data = await part.toBuffer();
      if (part.file.truncated || data.length > maxImageBytes)
        throw new AppError(413, `The file is too large: the limit is ${Math.round(maxImageBytes / 1024 / 1024)} MB`);
      if (!data.length) continue;
      const originalName = cleanFileName(part.filename, 'profile.png');
      try {
        file = {
          fieldName: 'profileImage',
          originalName,
          data,
          kind: 'image',
          detected: await detectFile(data, 'image', originalName),
        };
      } catch {
        throw new AppError(415, messages.profileImageRefused);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, `The file is too large: the limit is ${Math.round(maxImageBytes / 1024 / 1024)} MB`);
    if (malformedForm(err)) throw badRequest('The form could not be read. Please try again.');
    throw err;
  }
  return { fields, file };
}

/** PATCH /api/updateprofile (company and lawyer, own profile only). */
export const profilesRoutes: FastifyPluginAsyncZod<{ shared: Shared }> = async (app, { shared }) => {
  await app.register(multipart);
  const uploads = createUploadsService(shared);
  const { db, clock } = shared;

  app.patch(
    '/api/updateprofile',
    {
      schema: {
        tags,
        summary: 'Update your own profile',
        description: [
          "Multipart. `_id` must be the caller's own id (anything else answers 403 with the spec's permission message). Only non-empty fields are applied; other fields (userType, verified, name, ...) are ignored.",
          'Company: profileImage, officialEmail, website, yourBio, phoneNumber, alternativeEmailAddress, officeAddress. Lawyer: profileImage, officialEmail, scn, yourBio, phoneNumber, alternativeEmailAddress, yearOfCall, areasOfPractise (repeated, from the expertise list; the list sent replaces the saved one, and a single empty `areasOfPractise` clears it; left out, it is kept).',
          '`profileImage` is a PNG, JPEG or WebP file (or the URL of an image answered by POST /api/uploads). `phoneNumber` keeps digits only and must have 11.',
          "A new `officialEmail` (the sign-in address) needs `currentPassword` in the same form (400 without it, 403 when wrong; tries count with the login limit) and does not change the profile: the new address gets a link that confirms the change (POST /api/confirm-email-change) and the old address a link that cancels or undoes it (POST /api/undo-email-change). The answer is the same whether or not the new address already has an account; its owner is e-mailed instead. At most 5 requests per new address per 15 minutes (429). Sending the current address, as the spec's form does, needs no password (docs/decisions/0210).",
          "Answers `{ status: 'success', message: 'Profile Updated Successfully', company | lawyer }`: the saved profile at the top of the body under the caller's role, as the spec's client reads it.",
        ].join('\n\n'),
        querystring: z.object({ _id: z.uuid(messages.noPermissionProfile) }),
        response: { 200: updateProfileAnswer },
      },
      preHandler: shared.auth.require('company', 'lawyer'),
    },
    async (request) => {
      const me = request.user!;
      if (request.query._id !== me.id) {
        shared.securityLog('profile_update_other', { actor: me.id, target: request.query._id });
        throw forbidden(messages.noPermissionProfile);
      }
      const role = me.userType as 'company' | 'lawyer';
      const { fields, file } = await readProfileForm(request, shared.config.UPLOAD_MAX_IMAGE_BYTES);
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
        await shared.limits.claimLoginAttempt(oldEmail);
        if (!(await shared.accounts.checkPassword(me.id, password))) {
          shared.securityLog('email_change_bad_password', { actor: me.id });
          throw forbidden(messages.currentPasswordWrong);
        }
        await shared.limits.loginSucceeded(oldEmail);
        await shared.limits.perAccountAction('email-change', newEmail);
      }
      const updated = await db.transaction(async (tx) => {
        if (file) changes.profileImage = (await uploads.store(file, me.id, tx)).url;
        if (newEmail) await shared.accounts.requestEmailChange(tx, { id: me.id, officialEmail: oldEmail }, newEmail);
        const [row] = await tx
          .update(users)
          .set({ ...changes, updatedAt: clock.now() })
          .where(and(eq(users.id, me.id), eq(users.userType, role)))
          .returning();
        return row;
      });
      if (!updated) throw unauthorized();
      if (newEmail) shared.mailWritten();
      const profile = toProfile(updated);
      return { status: 'success' as const, message: messages.profileUpdated, [role]: profile } as UpdateProfileAnswer;
    },
  );
};
