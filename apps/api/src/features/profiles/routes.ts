import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import {
  EXPERTISE,
  emailField,
  hasUnsafeCharacter,
  messages,
  PHONE_PATTERN,
  unsafeCharacterMessage,
} from '@legalmarket/contracts';
import type { Shared } from '../../app.js';
import { users } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../../platform/errors.js';
import { enqueueMail } from '../../platform/mailer.js';
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

const profileChangedMail = (to: string, newEmail: string) => ({
  to,
  subject: 'Your LegalMarket email address was changed',
  text: [
    'The email address of your LegalMarket account was changed from this address to ' + newEmail + '.',
    'From now on, log in with the new address. If you did not make this change, contact support at once.',
    '',
    '— LegalMarket',
  ].join('\n'),
});

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
          'Company: profileImage, officialEmail, website, yourBio, phoneNumber, alternativeEmailAddress, officeAddress. Lawyer: profileImage, officialEmail, scn, yourBio, phoneNumber, alternativeEmailAddress, yearOfCall, areasOfPractise (repeated, from the expertise list).',
          '`profileImage` is a PNG, JPEG or WebP file (or the URL of an image answered by POST /api/uploads). `phoneNumber` keeps digits only and must have 11. A new officialEmail must not belong to another account (409); it takes effect at once and the old address is told (docs/decisions/0201).',
          "Answers `{ status: 'success', message: 'Profile Updated Successfully', data: { user, company | lawyer } }`.",
        ].join('\n\n'),
        querystring: z.object({ _id: z.uuid(messages.noPermissionProfile) }),
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
        const areas = (fields.get('areasOfPractise') ?? []).map((a) => a.trim()).filter(Boolean);
        if (areas.length) {
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

      const oldEmail = me.officialEmail;
      const updated = await db.transaction(async (tx) => {
        if (file) changes.profileImage = (await uploads.store(file, me.id, tx)).url;
        if (changes.officialEmail && changes.officialEmail !== oldEmail) {
          const taken = await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.officialEmail, changes.officialEmail), ne(users.id, me.id)))
            .limit(1);
          if (taken[0]) throw conflict(messages.emailTaken);
          await enqueueMail(tx, profileChangedMail(oldEmail, changes.officialEmail));
        } else delete changes.officialEmail;
        const set = Object.keys(changes).length ? { ...changes, updatedAt: clock.now() } : { updatedAt: clock.now() };
        try {
          const [row] = await tx
            .update(users)
            .set(set)
            .where(and(eq(users.id, me.id), eq(users.userType, role)))
            .returning();
          return row;
        } catch (err) {
          // Two accounts racing for the same address: the unique index decides.
          if (
            (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
            (err as { cause?: { code?: string } }).cause?.code === '23505'
          )
            throw conflict(messages.emailTaken);
          throw err;
        }
      });
      if (!updated) throw unauthorized();
      if (changes.officialEmail) {
        shared.mailWritten();
        shared.securityLog('email_changed', { actor: me.id });
      }
      const profile = toProfile(updated);
      return { status: 'success', message: messages.profileUpdated, data: { user: profile, [role]: profile } };
    },
  );
};
