import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CLEARABLE_PROFILE_FIELDS,
  EXPERTISE,
  hasUnsafeCharacter,
  messages,
  unsafeCharacterMessage,
  TWO_FACTOR,
  twoFactorMessages,
  updateProfileResponse,
  type UpdateProfileResponse,
  storedId,
} from '@legalmarket/contracts';
import type { FeatureOptions } from '../shared.js';
import { AppError, badRequest, forbidden } from '../../platform/errors.js';
import { readMultipart } from '../../platform/multipart.js';
import { cleanFileName, detectFile } from '../uploads/service.js';
import type { ProfileForm } from './service.js';

const tags = ['profiles'];

/** As many fields as the multipart form may carry, each at most this long. */
const FORM_FIELDS = 40;
const FIELD_SIZE = 16 * 1024;

/**
 * A JSON body read as the form's text fields, without a picture (decision 2210): what a client that
 * sends "JSON headers" on every call sends, since axios turns a FormData into JSON under that header.
 * A list is a repeated field (an empty one clears it, as a single empty value does); null is not sent;
 * an object in `profileImage` (the loaded `{ url }`, or a File made JSON) keeps the saved picture.
 */
function jsonProfileForm(body: unknown): ProfileForm {
  const fields = new Map<string, string[]>();
  if (body === undefined || body === null) return { fields, file: null };
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Send the profile as an object of fields');
  const entries = Object.entries(body);
  if (entries.length > FORM_FIELDS) throw badRequest('The form has too many fields');
  for (const [name, value] of entries) {
    if (value === null || value === undefined) continue;
    if (name === 'profileImage' && typeof value === 'object' && !Array.isArray(value)) continue;
    const values = Array.isArray(value) ? (value.length ? value : ['']) : [value];
    const texts = values.map((v) => {
      if (!['string', 'number', 'boolean'].includes(typeof v)) throw badRequest(`${name} must be text`);
      const text = String(v);
      if (hasUnsafeCharacter(text) || hasUnsafeCharacter(name)) throw badRequest(unsafeCharacterMessage(name));
      if (text.length > FIELD_SIZE) throw badRequest(`${name} is too long`);
      return text;
    });
    fields.set(name, texts);
  }
  return { fields, file: null };
}

/** Reads the form: every text field (repeated ones kept) and at most one profileImage file; or a JSON body. */
async function readProfileForm(request: FastifyRequest, maxImageBytes: number): Promise<ProfileForm> {
  if (!request.isMultipart() && /^application\/json\b/i.test(request.headers['content-type'] ?? ''))
    return jsonProfileForm(request.body);
  const { fields, file } = await readMultipart(request, {
    fileLimit: maxImageBytes,
    fileField: { name: 'profileImage', otherwise: () => 'Send the picture as profileImage' },
    fields: FORM_FIELDS,
    fieldSize: FIELD_SIZE,
    unreadable: 'The form could not be read. Please try again.',
  });
  // An empty file input is a form sent without a new picture.
  if (!file?.data.length) return { fields, file: null };
  const originalName = cleanFileName(file.filename, 'profile.png');
  try {
    const detected = await detectFile(file.data, 'image', originalName);
    return { fields, file: { fieldName: 'profileImage', originalName, data: file.data, kind: 'image', detected } };
  } catch {
    throw new AppError(415, messages.profileImageRefused);
  }
}

/** The profile form as the OpenAPI document shows it; every field is optional (the route's description says how each is read). */
const profileForm = z.object({
  profileImage: z
    .file()
    .optional()
    .describe('A PNG, JPEG or WebP image, or the URL of one uploaded with POST /api/uploads'),
  officialEmail: z.string().optional(),
  currentPassword: z.string().optional().describe('Needed with a new officialEmail'),
  website: z.string().optional(),
  yourBio: z.string().optional(),
  phoneNumber: z.string().optional(),
  alternativeEmailAddress: z.string().optional(),
  officeAddress: z.string().optional().describe('Company'),
  scn: z.string().optional().describe('Lawyer'),
  yearOfCall: z.string().optional().describe('Lawyer'),
  areasOfPractise: z.array(z.enum(EXPERTISE)).optional().describe('Lawyer: the field repeated, once per area'),
});

/** PATCH /api/updateprofile (company and lawyer, own profile only). */
export const profilesRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { shared, services }) => {
  await app.register(multipart);

  app.patch(
    '/api/updateprofile',
    {
      schema: {
        tags,
        summary: 'Update your own profile',
        description: [
          "Multipart. A JSON body (`Content-Type: application/json`, as a client sending JSON headers on every call sends the form) is read as the same text fields without a picture: a list stands for a repeated field, `null` is not sent, and an object in `profileImage` keeps the saved picture (decision 2210). `_id` must be the caller's own id (anything else answers 403 with the spec's permission message). A field left out keeps its value; other fields (userType, verified, name, ...) are ignored.",
          `A field sent empty clears it when it is optional (${CLEARABLE_PROFILE_FIELDS.join(', ')}) and is ignored when it is required (officialEmail, phoneNumber, officeAddress, scn), so a form that sends every field cannot blank the sign-up details.`,
          'Company: profileImage, officialEmail, website, yourBio, phoneNumber, alternativeEmailAddress, officeAddress. Lawyer: profileImage, officialEmail, scn, yourBio, phoneNumber, alternativeEmailAddress, yearOfCall (a year, not later than this one in Lagos: decision 2273), areasOfPractise (repeated, from the expertise list; one value may also carry the list as `Maritime,Sports` or `["Maritime","Sports"]`, decision 2234; the list sent replaces the saved one, and a single empty `areasOfPractise` clears it; left out, it is kept).',
          '`profileImage` is a PNG, JPEG or WebP file (or the URL of an image the caller uploaded with POST /api/uploads; a picture another account uploaded answers 403, decision 2275); sent as the text `null`, `undefined`, `[object Object]` or empty (a form that always sends the field, without a new picture), it keeps the saved picture (decision 2150). A picture replaced is no longer served: its address answers 404 unless another profile or a product shows it (decision 2255). `phoneNumber` keeps digits only and must have 11.',
          "A new `officialEmail` (the sign-in address) needs `currentPassword` in the same form (400 without it, 403 when wrong; tries count with the login limit) and does not change the profile: the new address gets a link that confirms the change (POST /api/confirm-email-change) and the old address a link that cancels or undoes it (POST /api/undo-email-change). The answer is the same whether or not the new address already has an account; its owner is e-mailed instead. At most 5 requests per new address per 15 minutes (429). Sending the current address, as the spec's form does, needs no password (docs/decisions/0210).",
          `An account with two-factor on must also have entered an authenticator code in this session within the last ${TWO_FACTOR.stepUpMinutes} minutes to ask for a new address: else 428 "${twoFactorMessages.stepUpRequired}", before the password is looked at and with nothing saved (send a code to POST /api/two-factor/verify, then repeat the same form; docs/decisions/2180). Other fields never ask for a code.`,
          "A verified lawyer's new SCN withdraws the verification and tells the admins (docs/decisions/1810). A lawyer whose verification was refused asks to be checked again by changing any field: `verificationRejection` becomes null (audit `lawyer.resubmit` with the fields changed); fields sent with their saved values change nothing (docs/decisions/1860).",
          "Answers `{ status: 'success', message: 'Profile Updated Successfully', company | lawyer }`: the saved profile at the top of the body under the caller's role, as the spec's client reads it. An account erased while the form was still arriving gets 401 and nothing of the form is saved, picture included (decision 2230).",
        ].join('\n\n'),
        querystring: z.object({ _id: storedId(z.uuid(messages.noPermissionProfile)) }),
        multipartForm: profileForm,
        response: { 200: updateProfileResponse },
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
      const form = await readProfileForm(request, shared.config.UPLOAD_MAX_IMAGE_BYTES);
      const profile = await services.profiles.update(me, role, form);
      return { status: 'success' as const, message: messages.profileUpdated, [role]: profile } as UpdateProfileResponse;
    },
  );
};
