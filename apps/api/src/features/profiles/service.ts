import { and, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import {
  areasInText,
  CLEARABLE_PROFILE_FIELDS,
  COMPANY_EDITABLE_FIELDS,
  EXPERTISE,
  emailField,
  LAWYER_EDITABLE_FIELDS,
  messages,
  phoneField,
  PROFILE_FIELD_LABELS,
  scnChanging,
  YEAR_OF_CALL_PATTERN,
  lagosYear,
  yearOfCallProblem,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { sessions, users } from '../../db/schema.js';
import { liveAdmin } from '../../db/admins.js';
import { recordAudit } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth.js';
import { badRequest, forbidden, unauthorized } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { scnChangedMail } from './emails.js';
import { toProfile } from './mapper.js';
import { keyOfUrl, type ReceivedFile, type UploadsService } from '../uploads/service.js';

type Changes = Partial<typeof users.$inferInsert>;

/** Text fields each role may change; everything else a client sends (role, verified, name...) is ignored. */
const EDITABLE = { company: COMPANY_EDITABLE_FIELDS, lawyer: LAWYER_EDITABLE_FIELDS } as const;

const label = (field: string) => PROFILE_FIELD_LABELS[field] ?? field;
const atMost = (field: string, max: number) => z.string().max(max, `${label(field)} must be at most ${max} characters`);

const website = atMost('website', 200)
  .regex(/^(https?:\/\/)?[^\s/$.?#][^\s]*\.[^\s]{2,}$/i, 'Website must be a web address such as https://example.ng')
  .refine(
    (v) => !/^[a-z][a-z0-9+.-]*:/i.test(v) || /^https?:\/\//i.test(v),
    'Website must start with http:// or https://',
  );

/** Each field's rule; messages name the field as the form labels it, never by its payload name. */
const rules: Record<string, z.ZodType<string>> = {
  officialEmail: emailField,
  alternativeEmailAddress: emailField,
  // The shared rule: the international form (+234 803 123 4567) is saved as 08031234567.
  phoneNumber: phoneField,
  website,
  yourBio: atMost('yourBio', 2000),
  officeAddress: atMost('officeAddress', 300),
  scn: atMost('scn', 50),
  yearOfCall: z.string().regex(YEAR_OF_CALL_PATTERN, messages.yearOfCallRule),
};

function validate(field: string, value: string): string {
  const r = rules[field].safeParse(value);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? `${label(field)} is not valid`);
  return r.data;
}

const CLEARABLE: readonly string[] = CLEARABLE_PROFILE_FIELDS;

/**
 * What a form that "always" sends profileImage (lawyer-and-admin spec, section 5) sends without a new
 * picture: nothing, or the text a FormData makes of null, undefined and the profile's `{ url }` object.
 * Each keeps the saved picture (decision 2150).
 */
const NO_NEW_PICTURE = new Set(['', 'null', 'undefined', '[object Object]']);

/** What the profile form carried: every text field (repeated ones kept) and at most one picture. */
export interface ProfileForm {
  fields: Map<string, string[]>;
  file: ReceivedFile | null;
}

type Deps = Pick<Shared, 'db' | 'clock' | 'config' | 'limits' | 'accounts' | 'securityLog' | 'mailWritten'> & {
  uploads: UploadsService;
  /** The step-up of decision 2020: 428 unless an enrolled session proved a code lately (decision 2180). */
  recentCode: (user: AuthUser) => Promise<void>;
};

/** At most this many admins are e-mailed about one change (as for payouts waiting). */
const ADMINS_TOLD = 20;

/** A company's or lawyer's own profile: which fields each may change, their rules, and the e-mail change. */
export function createProfilesService({
  db,
  clock,
  config,
  limits,
  accounts,
  securityLog,
  mailWritten,
  uploads,
  recentCode,
}: Deps) {
  const render = mailRenderer(config);
  return {
    /** Applies the form to the caller's own profile and answers the saved profile. */
    async update(me: AuthUser, role: 'company' | 'lawyer', { fields, file }: ProfileForm) {
      const changes: Changes = {};
      for (const field of EDITABLE[role]) {
        const raw = fields.get(field)?.at(-1)?.trim();
        if (raw === undefined) continue;
        // Sent empty, an optional field is cleared; a required one keeps its value (spec: only
        // non-empty fields are sent, so an empty one is a form's blank, not an intent).
        if (raw === '') {
          if (CLEARABLE.includes(field)) (changes as Record<string, null>)[field] = null;
          continue;
        }
        (changes as Record<string, string>)[field] = validate(field, raw);
        const yearProblem = field === 'yearOfCall' && yearOfCallProblem(raw, lagosYear(clock.now()));
        if (yearProblem) throw badRequest(yearProblem);
      }
      if (role === 'lawyer') {
        // Sent at all, the field is the whole list: one empty value clears it (a multipart form cannot
        // carry an empty list); left out, the list stays as it is.
        const sent = fields.get('areasOfPractise');
        if (sent) {
          const areas = sent.flatMap(areasInText).filter(Boolean);
          const bad = areas.find((a) => !(EXPERTISE as readonly string[]).includes(a));
          if (bad) throw badRequest(`Areas of practice: ${bad} is not in the expertise list`);
          changes.areasOfPractise = [...new Set(areas)];
        }
      }
      const imageUrl = fields.get('profileImage')?.at(-1)?.trim() ?? '';
      /** Who uploaded the picture the form names by its address. */
      let pictureOf: string | null | undefined;
      if (!NO_NEW_PICTURE.has(imageUrl) && !file) {
        const key = keyOfUrl(imageUrl);
        const row = key ? await uploads.find(key) : null;
        if (!row || row.kind !== 'image') throw badRequest(messages.profileImageRefused);
        changes.profileImage = `/uploads/${row.key}`;
        pictureOf = row.ownerId;
      }

      // The sign-in address never changes here: a new one needs the current password, then a link
      // confirmed from the new inbox (docs/decisions/0210). Taken or free, the answer is the same.
      const oldEmail = me.officialEmail;
      const newEmail = changes.officialEmail !== oldEmail ? changes.officialEmail : undefined;
      delete changes.officialEmail;
      let checkedHash: string | null = null;
      if (newEmail) {
        const password = fields.get('currentPassword')?.at(-1) ?? '';
        if (!password) throw badRequest(messages.currentPasswordRequired);
        if (password.length > 128) throw badRequest(messages.currentPasswordWrong);
        // The sign-in address carries password resets and payout codes: an enrolled account proves a
        // fresh code too, before the password is looked at, so a stolen session cannot test passwords here.
        await recentCode(me);
        // A password guess from a session counts with the login tries, before the hash is evaluated.
        await limits.claimLoginAttempt(oldEmail);
        checkedHash = await accounts.checkPassword(me.id, password);
        if (!checkedHash) {
          securityLog('email_change_bad_password', { actor: me.id });
          throw forbidden(messages.currentPasswordWrong);
        }
        await limits.loginSucceeded(oldEmail);
        await limits.perAccountAction('email-change', newEmail);
      }
      const result = await db.transaction(async (tx) => {
        // Read under the row lock: a verification and an SCN change cannot cross (docs/decisions/1810).
        const [current] = await tx
          .select()
          .from(users)
          // An account erased since this request's session was checked takes no profile, picture included.
          .where(and(eq(users.id, me.id), eq(users.userType, role), isNull(users.deletedAt)))
          .for('update');
        if (!current) return { row: undefined, scnChanged: false };
        // A picture by address is the caller's own, or the one its profile shows now sent back: another
        // account's, taken so, would stay served after its owner replaced it (decision 2275).
        if (
          pictureOf !== undefined &&
          pictureOf !== me.id &&
          keyOfUrl(changes.profileImage) !== keyOfUrl(current.profileImage)
        )
          throw forbidden(messages.fileNotYours);
        if (newEmail) {
          // A password reset or an undo link (which lock this row, kill the pending links and end every
          // session) may have committed since the password was checked: the change must not outlive them.
          if (current.passwordHash !== checkedHash) throw forbidden(messages.currentPasswordWrong);
          const [live] = await tx
            .select({ id: sessions.id })
            .from(sessions)
            .where(and(eq(sessions.id, me.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())));
          if (!live) throw unauthorized();
        }
        // The same number in other case or spacing is no change: the checked text stays as it was.
        if (changes.scn != null && !scnChanging(current.scn, changes.scn)) delete changes.scn;
        const scnChanged = role === 'lawyer' && current.verified && changes.scn != null;
        if (scnChanged) changes.verified = false;
        if (file) changes.profileImage = (await uploads.store(file, me.id, tx)).url;
        // A refused lawyer who changes anything on the profile asks to be checked again: the refusal
        // goes (decision 1860). Fields sent unchanged, and a new address still to be confirmed, do not.
        const edited = Object.keys(changes).filter(
          (k) =>
            JSON.stringify(changes[k as keyof Changes] ?? null) !==
            JSON.stringify(current[k as keyof typeof current] ?? null),
        );
        const resubmitted = role === 'lawyer' && current.verificationRejectedAt !== null && edited.length > 0;
        if (resubmitted) Object.assign(changes, { verificationRejectedAt: null, verificationRejectionReason: null });
        // The notice and its undo link go to the address held under the lock, not the one the session
        // was read with: a change confirmed meanwhile has made that one the account's former address.
        if (newEmail)
          await accounts.requestEmailChange(
            tx,
            { id: me.id, officialEmail: current.officialEmail, sessionId: me.sessionId },
            newEmail,
          );
        const [row] = await tx
          .update(users)
          .set({ ...changes, updatedAt: clock.now() })
          .where(eq(users.id, me.id))
          .returning();
        // The picture replaced is no longer served (decision 2255).
        const replaced =
          row.profileImage !== current.profileImage
            ? await uploads.forgetReplacedPicture(tx, me.id, current.profileImage)
            : null;
        if (resubmitted)
          await recordAudit(tx, {
            actorId: me.id,
            action: 'lawyer.resubmit',
            targetType: 'lawyer',
            targetId: me.id,
            details: { name: current.name, fields: edited },
          });
        if (scnChanged) {
          const details = { name: current.name, officialEmail: current.officialEmail, from: current.scn, to: row.scn };
          await recordAudit(tx, {
            actorId: me.id,
            action: 'lawyer.scn_change',
            targetType: 'lawyer',
            targetId: me.id,
            details,
          });
          const admins = await tx
            .select({ email: users.officialEmail })
            .from(users)
            .where(liveAdmin)
            .limit(ADMINS_TOLD);
          for (const a of admins)
            await enqueueMail(
              tx,
              render(
                scnChangedMail({
                  to: a.email,
                  lawyerName: current.name,
                  lawyerEmail: current.officialEmail,
                  oldScn: current.scn ?? '',
                  newScn: row.scn ?? '',
                  // The lawyers page opens on Verified; this lawyer now waits under Unverified.
                  url: `${config.PUBLIC_URL}/admin/lawyers?tab=unverified`,
                }),
              ),
            );
        }
        return { row, scnChanged, replaced };
      });
      if (!result.row) throw unauthorized();
      if (result.replaced) await uploads.removeStored(result.replaced);
      if (newEmail || result.scnChanged) mailWritten();
      if (result.scnChanged) securityLog('lawyer_scn_changed', { actor: me.id });
      return toProfile(result.row);
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
