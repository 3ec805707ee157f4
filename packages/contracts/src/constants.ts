export const USER_TYPES = ['company', 'lawyer', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The spec's expertise list (lawyer-and-admin spec, section 3), in the spec's order and spelling. */
export const SPEC_EXPERTISE = [
  'Maritime',
  'International Trade and Investment',
  'Tax Practise',
  'Aviation and Space',
  'Sports',
  'Entertainment',
  'Technology',
] as const;

/**
 * Areas of law: the spec's seven first, then the areas of what the catalogue sells, so a product's
 * area and a lawyer's areas of practice can be matched (issue 20; decision 2010). Lawyers pick from
 * this list and products carry one of it.
 */
export const EXPERTISE = [
  ...SPEC_EXPERTISE,
  'Contracts and Commercial',
  'Intellectual Property',
  'Employment and Labour',
  'Corporate and Company Secretarial',
  'Data Protection and Privacy',
  'Dispute Resolution',
  'Real Estate and Property',
  'Banking and Finance',
] as const;
export type Area = (typeof EXPERTISE)[number];

/**
 * The areas one `areasOfPractise` text names. Besides one area, a client sends the whole list in one
 * value: `formData.append('areasOfPractise', list)` makes it "Maritime,Sports", and a JSON-minded form
 * `["Maritime","Sports"]` (decision 2234). No area of EXPERTISE holds a comma or a bracket, so neither
 * reading can split an area. What is no area is left for the caller's check to name.
 */
export function areasInText(value: string): string[] {
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list) && list.every((a) => typeof a === 'string')) return list.map((a) => a.trim());
    } catch {
      // Not a JSON list: read as text below.
    }
  }
  return text.split(',').map((a) => a.trim());
}

/** Older names of an area still found in links (the landing page's service links, bookmarks). */
export const AREA_ALIASES: Readonly<Record<string, Area>> = {
  'Contract Law': 'Contracts and Commercial',
  'Employment Law': 'Employment and Labour',
};

/** The area a link names (its own name or an older one), or null when it names none. */
export function areaNamed(value: string | null | undefined): Area | null {
  if (!value) return null;
  if ((EXPERTISE as readonly string[]).includes(value)) return value as Area;
  return AREA_ALIASES[value] ?? null;
}

/** Static package tiers (company spec, section 9). Amounts are naira. */
export const PACKAGES = [
  {
    id: 1,
    packageType: 'Bronze',
    packageAmount: 50000,
    month: 1,
    review: 1,
    draftNo: 2,
    legalOpinionNo: 1,
    policyNo: 0,
    percentOff: 0,
  },
  {
    id: 2,
    packageType: 'Silver',
    packageAmount: 80000,
    month: 1,
    review: 2,
    draftNo: 3,
    legalOpinionNo: 1,
    policyNo: 1,
    percentOff: 10,
  },
  {
    id: 3,
    packageType: 'Gold',
    packageAmount: 120000,
    month: 1,
    review: 3,
    draftNo: 4,
    legalOpinionNo: 2,
    policyNo: 1,
    percentOff: 20,
  },
] as const;

export const LIMITS = {
  phoneDigits: 11,
  passwordMin: 8,
  otpDigits: 6,
  quantityMin: 1,
  quantityMax: 10,
  bioHint: 400,
  previewWords: 17,
  adminPageSize: 5,
  similarJobs: 2,
  carouselPerSlide: 5,
  /** one-time codes and links */
  codeTtlMinutes: 10,
  codeMaxAttempts: 5,
  confirmLinkTtlHours: 48,
  /** changing the sign-in e-mail (docs/decisions/0210) */
  emailChangeTtlHours: 24,
  emailChangeUndoDays: 7,
  tokenTtlHours: 12,
  /** the same request sent again within this many seconds (a double tap, a retry) is taken once (docs/decisions/2221) */
  repeatWindowSeconds: 60,
} as const;

export const DELAYS_MS = {
  afterLogin: 2500,
  afterSignup: 5000,
  afterSuccess: 2000,
  emailConfirmed: 5000,
} as const;

// In a file of their own, so the web's landing page takes the promise without the other constants.
export { DELIVERY_NOTICE, DELIVERY_WORKING_DAYS } from './delivery.js';

/** The quantity select's choices on the product page (spec: 1 to 10). */
export const quantityOptions = Array.from(
  { length: LIMITS.quantityMax - LIMITS.quantityMin + 1 },
  (_, i) => i + LIMITS.quantityMin,
);

/** Upload kinds: images are public (product and profile pictures), documents are confidential. */
export const UPLOAD_KINDS = ['image', 'document'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** What the browser offers in the file picker (the server checks the bytes, not these). */
export const UPLOAD_ACCEPT: Record<UploadKind, string> = {
  image: 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp',
  document:
    'application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/png,image/jpeg,image/webp,.pdf,.doc,.docx,.png,.jpg,.jpeg,.webp',
};

/**
 * The largest file of each kind the API takes by default (its UPLOAD_MAX_IMAGE_BYTES and
 * UPLOAD_MAX_DOCUMENT_BYTES); the web refuses a larger one before sending it (decision 2291).
 */
export const UPLOAD_MAX_BYTES: Record<UploadKind, number> = {
  image: 5 * 1024 * 1024,
  document: 10 * 1024 * 1024,
};

/** The API's 413 for a file past its limit, in the same words on both sides. */
export const fileTooLargeMessage = (limitBytes: number) =>
  `The file is too large: the limit is ${Math.round((limitBytes / (1024 * 1024)) * 10) / 10} MB`;

/** `replaced`: the cart changed after checkout began; that order keeps its lines and reference, and a late payment still pays it. */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'expired', 'replaced'] as const;

/** Average to one decimal (spec: "average rating one decimal"); 0 when there are none. */
export const averageStars = (stars: readonly number[]) =>
  stars.length === 0 ? 0 : Math.round((stars.reduce((a, b) => a + b, 0) / stars.length) * 10) / 10;

/** Text fields PATCH /api/updateprofile accepts, per role; anything else is ignored. */
export const COMPANY_EDITABLE_FIELDS = [
  'officialEmail',
  'website',
  'yourBio',
  'phoneNumber',
  'alternativeEmailAddress',
  'officeAddress',
] as const;
/**
 * Profile fields that are optional at sign-up, so a profile may empty them: sent empty to PATCH
 * /api/updateprofile they are cleared. The others (e-mail, phone, SCN, office address) keep their
 * value when sent empty, as the spec's "only non-empty fields are sent" expects.
 */
export const CLEARABLE_PROFILE_FIELDS = ['website', 'yourBio', 'alternativeEmailAddress', 'yearOfCall'] as const;
/** How messages name the profile fields (never the payload's field names). */
export const PROFILE_FIELD_LABELS: Record<string, string> = {
  officialEmail: 'Email address',
  website: 'Website',
  yourBio: 'Your bio',
  phoneNumber: 'Phone number',
  alternativeEmailAddress: 'Alternate email',
  officeAddress: 'Office address',
  scn: 'SCN',
  yearOfCall: 'Year of call',
  areasOfPractise: 'Areas of practice',
};
export const LAWYER_EDITABLE_FIELDS = [
  'officialEmail',
  'scn',
  'yourBio',
  'phoneNumber',
  'alternativeEmailAddress',
  'yearOfCall',
] as const;

// In a file of its own, so the web's first page (lib/http) takes it without the other constants.
export { TWO_FACTOR } from './two-factor-limits.js';

/** What a list of the spec's call tables answers without `page` when no `limit` is asked: the whole list up to this many. */
export const LIST_CAP = 500;
/** The most `limit` may ask for, paged or not (docs/decisions/0901-spec-client-shapes.md). */
export const LIST_LIMIT_MAX = 5000;

/**
 * The header of POST /api/cart and POST /api/lawyer/payouts: a uuid the client makes for one addition
 * or withdrawal it means to make once (a fresh one for each). The same request sent again with it (a
 * double tap, a retry after a lost answer) does nothing more and answers what the first made
 * (decisions 2240, 2241). A header, so the spec's bodies are unchanged.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Most notification ids one POST /api/notifications/read names: the unread entries of 25 loaded pages. */
export const NOTIFICATION_READ_IDS_MAX = 500;
