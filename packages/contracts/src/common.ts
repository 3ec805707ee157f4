import { z } from 'zod';
import { enterYour, messages } from './messages.js';

/**
 * Whether a text shows anything: not only blanks, format characters (zero-width spaces and joiners,
 * word joiner, soft hyphen), variation selectors (U+FE0F and the like, which only pick how the character
 * before them looks) and the fillers that render as blanks. A note of these alone is no note, on the
 * job page and on the spec's details routes alike.
 */
export const showsText = (text: string): boolean =>
  !/^[\p{White_Space}\p{Cf}\u034f\u115f\u1160\u2800\u3164\uffa0\p{Variation_Selector}]*$/u.test(text);

/** The one error shape of every 4xx/5xx answer. */
export const errorBody = z.object({
  status: z.enum(['fail', 'error']),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const okMessage = z.object({ status: z.literal('success'), message: z.string() });
export type OkMessage = z.infer<typeof okMessage>;

/**
 * The answer to a change that returns what it changed: the message and the one item under its key in
 * `data` (`data.job`, `data.review`, `data.order`). Lists have `paged` and `listed` in admin.ts; this
 * one lives here, beside `okMessage`, because admin.ts imports the jobs' schemas and would carry them
 * into every page that reads an answer built with it.
 */
export const dataResponse = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({ [key]: item } as { [P in K]: T }),
  });

/**
 * NUL cannot be stored in a PostgreSQL text or jsonb value (the insert fails with "invalid byte sequence"),
 * and an unpaired surrogate is not Unicode text at all (it would be stored as U+FFFD, or refused in jsonb).
 */
export function hasUnsafeCharacter(value: string): boolean {
  // A loop, not a regular expression: a lookbehind would stop the web app from loading on older Safari.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}
export const unsafeCharacterMessage = (label: string) => `${label} contains a character that is not allowed`;

/**
 * The path of the first string (value or key) in a JSON-like value that holds such a character, or null.
 * Iterative, so a body nested 100,000 deep cannot overflow the stack.
 */
export function findUnsafeText(value: unknown): Array<string | number> | null {
  interface Step {
    value: unknown;
    key: string | number | null;
    parent: Step | null;
  }
  const pathOf = (step: Step | null, last?: string) => {
    const path: Array<string | number> = last === undefined ? [] : [last];
    for (let s = step; s && s.key !== null; s = s.parent) path.push(s.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop()!;
    const v = step.value;
    if (typeof v === 'string') {
      if (hasUnsafeCharacter(v)) return pathOf(step);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: step });
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [key] of entries) if (hasUnsafeCharacter(key)) return pathOf(step, key);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i][1], key: entries[i][0], parent: step });
    }
  }
  return null;
}

/** The field a path names: its last segment that is not an array index. */
const fieldOf = (path: Array<string | number>) =>
  String(path.filter((p) => typeof p === 'string').pop() ?? 'The request');

/**
 * Wraps any input schema so a NUL or an unpaired surrogate anywhere in the input (bodies, queries, path
 * parameters) is refused before the schema runs, with an issue naming the field. The API validates every
 * route's input through it; the text helpers below refuse the same characters on their own.
 */
export const refuseUnsafeText = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      const path = findUnsafeText(value);
      if (path) ctx.addIssue({ code: 'custom', path, message: unsafeCharacterMessage(fieldOf(path)), input: value });
    })
    .pipe(schema);

/**
 * A request body where the named optional fields sent as `null` count as not sent: a client that holds
 * no value for one (no upload yet, an optional box left empty) sends null (decision 2210). The form
 * schema inside stays as the web's forms type it; only the API's body takes the nulls.
 */
export const nullsNotSent = <T extends z.ZodType>(fields: readonly string[], schema: T) =>
  z.preprocess((v) => withoutNulls(fields, v), schema);

/** `value` without the named keys whose value is null, when it is a plain object; otherwise as it is. */
export function withoutNulls(fields: readonly string[], value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = { ...(value as Record<string, unknown>) };
  for (const field of fields) if (out[field] === null) delete out[field];
  return out;
}

/** A string refusing NUL and unpaired surrogates with "{label} contains a character that is not allowed". */
const safeString = (label: string, params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((v) => !hasUnsafeCharacter(v), unsafeCharacterMessage(label));

/** A text field that must be filled: missing, non-text and blank all answer "Please enter your {label}". */
export const requiredText = (label: string, max = 200) =>
  safeString(label, { error: enterYour(label) })
    .trim()
    .min(1, enterYour(label))
    .max(max, `${label} must be at most ${max} characters`);

export const optionalText = (label: string, max = 200) =>
  safeString(label, { error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional();

export const emailField = z
  .string({ error: messages.enterEmail })
  .trim()
  .min(1, messages.enterEmail)
  .max(254, 'Email address is too long')
  .pipe(z.email('Please enter a valid email address'))
  .transform((v) => v.toLowerCase())
  // .invalid is reserved (RFC 2606): no mailbox ends in it, and an erased account's address does
  // (deleted-<id>@deleted.invalid), so an account signed up under one would block that erasure.
  .refine((v) => !v.endsWith('.invalid'), 'Please enter a valid email address');

/** The symbols the password rule accepts (spec section 5); the hint lists them from here. */
export const PASSWORD_SYMBOLS = '@$!%*?&';
/** Spec section 5: at least 8, a lowercase, an uppercase, a digit and one of @$!%*?&, only those characters. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;
/** Under every new-password field: the rule in words, with the symbols spelled out one by one. */
export const passwordHint = `At least 8 characters with an uppercase letter, a lowercase letter, a number and one of these symbols: ${[...PASSWORD_SYMBOLS].join(' ')}`;

export const passwordField = (rule: string = messages.passwordRuleSignup) =>
  z
    .string({ error: messages.enterPassword })
    .min(1, messages.enterPassword)
    .max(128, 'Password must be at most 128 characters')
    .regex(PASSWORD_PATTERN, rule);

export const PHONE_PATTERN = /^\d{11}$/;

/**
 * The 11-digit local form of a typed Nigerian number: spaces, dashes, dots and brackets go, and the
 * international form (+234, 234 or 00234, with or without the trunk 0) becomes 0 and the 10 digits,
 * so "+234 803 123 4567" is 08031234567. Anything else is left as typed (without separators) for the
 * 11-digit rule to refuse: a number is never cut or padded into another one.
 */
export function localPhoneNumber(value: string): string {
  const compact = value.trim().replace(/[\s\-.()]/g, '');
  const international = /^(?:\+|00)?2340?([1-9]\d{9})$/.exec(compact);
  return international ? `0${international[1]}` : compact;
}

export const phoneField = z
  .string({ error: messages.phoneRule })
  .transform(localPhoneNumber)
  .pipe(z.string().regex(PHONE_PATTERN, messages.phoneRule));

/**
 * The phone number of a sign-up form: missing or empty answers the generic sign-up rule (spec section 5,
 * "Please enter your {label}"), anything else that is not 11 digits the phone rule.
 */
export const requiredPhoneField = (label: string) =>
  z
    // A number was filled in, but lost its leading 0 as a JSON number: the phone rule says what to send
    // (decision 2234), not "Please enter your ...".
    .string({ error: (issue) => (typeof issue.input === 'number' ? messages.phoneRule : enterYour(label)) })
    .transform(localPhoneNumber)
    .pipe(z.string().min(1, enterYour(label)).pipe(z.string().regex(PHONE_PATTERN, messages.phoneRule)));

/** Keeps only digits, at most `max` of them (phone and price inputs). */
export const digitsOnly = (value: string, max?: number) => {
  const d = value.replace(/\D+/g, '');
  return max === undefined ? d : d.slice(0, max);
};

/**
 * What a phone input keeps while typing. A local number keeps digits only, at most 11 (spec section
 * 5); one in the international form (it starts with +, 00 or 2, which no local number does) keeps its
 * + and separators, up to 20 characters, so it can be read as typed and then saved in its local form.
 */
export function phoneInputText(value: string): string {
  const kept = value.replace(/[^\d+\s\-.()]/g, '');
  return /^\s*(\+|00|2)/.test(kept) ? kept.trimStart().slice(0, 20) : digitsOnly(kept, 11);
}

/** What the OpenAPI description says of such a field. */
export const NUMBER_OR_DIGITS =
  'A JSON number or its decimal digits as text; a boolean, a list or any other text answers 400 (decision 2271).';

/**
 * A number sent as a JSON number or as its decimal digits (a select's value is text). Anything else
 * (`true`, `[3]`, `0x2`) reaches `schema` as it is and gets its message, so a wrongly typed field is
 * never saved as a star or a quantity nobody chose (decision 2271).
 */
export const numberOrDigits = <T extends z.ZodType>(schema: T) =>
  z
    .preprocess(
      (value) => (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
      schema,
    )
    .meta({ description: NUMBER_OR_DIGITS });

export const idParam = z.object({ id: z.uuid('id must be a valid id') });

/** Mongo-style `_id` exposed to clients, as the spec's payloads name it. */

/** GET /api/public-config: settings the web app needs before anyone signs in. */
export const publicConfigResponse = z.object({
  supportPhone: z.string(),
  supportEmail: z.string(),
  paymentProvider: z.enum(['sandbox', 'flutterwave']),
  /** Our own accounts, from the settings (SOCIAL_*_URL); the footer shows only these. */
  socialLinks: z.array(z.object({ network: z.enum(['x', 'linkedin', 'instagram', 'facebook']), url: z.string() })),
  /** The largest file of each kind the API takes, as configured (decision 2311); the web checks a pick against it. */
  uploadMaxBytes: z.object({ image: z.number().int(), document: z.number().int() }),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

/** The value of the Idempotency-Key header (IDEMPOTENCY_KEY_HEADER; decisions 2240, 2241), when sent. */
export const idempotencyKey = z.uuid('Idempotency-Key must be a valid id').optional();

/**
 * An id the spec's client keeps in browser storage (`userId`, section 3) and sends as it reads it back: a
 * value stored with `JSON.stringify` comes back in double quotes, as the stored token does (decision
 * 2234). The quotes and spaces around it are dropped; the rest must still be a valid id (decision 2303).
 */
export const storedId = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().replace(/^"(.*)"$/, '$1') : v), schema);
