import { z } from 'zod';
import { PACKAGES } from './constants.js';
import { optionalDetail, paymentDialogFields, uploadedFileLink } from './commerce.js';
import { PLAN_TIERS, type PlanTier } from './plan-tiers.js';

/**
 * Monthly plans (issue 19): the spec's Packages tab made buyable. The tiers' prices, credits and
 * discounts come from PACKAGES (spec section 9); the server computes every figure from these.
 */
export { PLAN_TIERS, type PlanTier };

/** What a month includes, per kind of work. */
export const PLAN_CREDIT_KINDS = ['review', 'draft', 'opinion', 'policy'] as const;
export type PlanCreditKind = (typeof PLAN_CREDIT_KINDS)[number];
export type PlanCredits = Record<PlanCreditKind, number>;

export const PLAN_CREDIT_WORDS: Record<PlanCreditKind, string> = {
  review: 'Agreement review',
  draft: 'Draft',
  opinion: 'Legal opinion',
  policy: 'Policy document',
};

export interface PlanTierInfo {
  tier: PlanTier;
  name: 'Bronze' | 'Silver' | 'Gold';
  /** Kobo a month. */
  price: number;
  credits: PlanCredits;
  /** Off every single product while the plan is active. */
  percentOff: number;
}

export const PLAN_TIER_INFO: Record<PlanTier, PlanTierInfo> = Object.fromEntries(
  PACKAGES.map((p) => {
    const tier = p.packageType.toLowerCase() as PlanTier;
    return [
      tier,
      {
        tier,
        name: p.packageType,
        price: p.packageAmount * 100,
        credits: { review: p.review, draft: p.draftNo, opinion: p.legalOpinionNo, policy: p.policyNo },
        percentOff: p.percentOff,
      },
    ];
  }),
) as Record<PlanTier, PlanTierInfo>;

/** Days a failed renewal leaves the plan working before it lapses. */
export const PLAN_GRACE_DAYS = 3;

/** `active` (paid for this month), `grace` (the renewal failed; 3 days to pay), `ended` (cancelled and the paid month over), `lapsed` (grace ran out). */
export const PLAN_STATUSES = ['active', 'grace', 'ended', 'lapsed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_EVENT_KINDS = [
  'subscribed',
  'renewed',
  'renewal_failed',
  'reminder',
  'lapsed',
  'tier_change',
  'cancelled',
  'ended',
  'credit_used',
  /** A plan job was cancelled: its credit came back, or its month was over. */
  'job_cancelled',
] as const;

export const planTierField = z.enum(PLAN_TIERS, { error: 'tier must be bronze, silver or gold' });

/**
 * The methods a plan's payment window offers: a card only. Flutterwave's payment plans recur on methods it
 * can tokenize, which today means cards; a month paid another way leaves nothing to renew from (decision 2190).
 */
export const PLAN_PAYMENT_OPTIONS = 'card';

/** POST /api/plans/subscribe */
export const subscribeInput = z.object({ tier: planTierField });
export type SubscribeInput = z.infer<typeof subscribeInput>;

/** POST /api/plans/confirm: the first payment, after the dialog reported success. */
export const planConfirmInput = z.object({
  reference: z
    .string({ error: 'reference is required' })
    .trim()
    .min(1, 'reference is required')
    .max(100, 'reference must be at most 100 characters'),
  transactionId: z
    .string({ error: 'transactionId must be text' })
    .trim()
    .max(40, 'transactionId must be at most 40 characters')
    .regex(/^[A-Za-z0-9_-]*$/, 'transactionId must be letters, digits, - or _')
    .optional(),
});
export type PlanConfirmInput = z.infer<typeof planConfirmInput>;

/** POST /api/plans/mine/tier: the tier from the next renewal on (the current tier clears a change). */
export const changeTierInput = z.object({ tier: planTierField });
export type ChangeTierInput = z.infer<typeof changeTierInput>;

/** POST /api/plans/mine/requests: spends one credit of `kind` on a ₦0 job. */
export const planRequestInput = z.object({
  kind: z.enum(PLAN_CREDIT_KINDS, { error: 'kind must be review, draft, opinion or policy' }),
  detail: optionalDetail,
  file: uploadedFileLink.optional(),
  fileName: z.string().trim().max(255, 'File name must be at most 255 characters').optional(),
  /**
   * A key the client makes for one request it means to send once (a fresh one for each piece of work):
   * the same request sent again with it (a double click, a retry after a lost answer) spends no second
   * credit and answers the job it opened (decision 2191).
   */
  key: z
    .string({ error: 'key must be text' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'key must be 8 to 64 letters, digits, - or _')
    .optional(),
});
export type PlanRequestInput = z.input<typeof planRequestInput>;

const creditsShape = z.object({ review: z.number(), draft: z.number(), opinion: z.number(), policy: z.number() });

export const planEventView = z.object({
  kind: z.enum(PLAN_EVENT_KINDS),
  note: z.string(),
  at: z.string(),
});
export type PlanEventView = z.infer<typeof planEventView>;

export const planView = z.object({
  _id: z.string(),
  tier: z.enum(PLAN_TIERS),
  tierName: z.string(),
  /** Naira a month. */
  price: z.number(),
  status: z.enum(PLAN_STATUSES),
  percentOff: z.number(),
  periodStart: z.string(),
  /** When this month ends: the renewal date. */
  renewsAt: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  nextTier: z.enum(PLAN_TIERS).nullable(),
  graceUntil: z.string().nullable(),
  /** Left this month. */
  credits: creditsShape,
  /** Used this month. */
  creditsUsed: creditsShape,
  /** What the tier includes each month. */
  included: creditsShape,
  events: z.array(planEventView),
  jobs: z.array(z.object({ _id: z.string(), kind: z.string(), status: z.string(), createdAt: z.string() })),
});
export type PlanView = z.infer<typeof planView>;

/** GET /api/plans/mine: the company's live plan (or the last one), null when it never had one. */
export const myPlanResponse = z.object({ status: z.literal('success'), data: planView.nullable() });
export type MyPlanResponse = z.infer<typeof myPlanResponse>;

export const planResponse = z.object({ status: z.literal('success'), message: z.string(), data: planView });

export const subscribeResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    reference: z.string(),
    /** Naira. */
    amount: z.number(),
    currency: z.literal('NGN'),
    title: z.string(),
    /** The provider's payment plan id the first charge is made with (it recurs monthly). */
    paymentPlan: z.string(),
    ...paymentDialogFields,
  }),
});
export type SubscribeData = z.infer<typeof subscribeResponse>['data'];

export const planRequestResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({ jobId: z.string(), plan: planView }),
});

/** GET /api/admin/subscribers */
export const subscribersQuery = z.object({
  status: z.enum(PLAN_STATUSES, { error: 'status must be active, grace, ended or lapsed' }).optional(),
});
export const subscriberRow = z.object({
  _id: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  tier: z.enum(PLAN_TIERS),
  status: z.enum(PLAN_STATUSES),
  renewsAt: z.string(),
  nextTier: z.enum(PLAN_TIERS).nullable(),
  cancelAtPeriodEnd: z.boolean(),
  creditsUsed: creditsShape,
  included: creditsShape,
});
export type SubscriberRow = z.infer<typeof subscriberRow>;
export const subscribersResponse = z.object({ status: z.literal('success'), data: z.array(subscriberRow) });

export const planMessages = {
  subscribeStarted: 'Pay to start your plan',
  subscribed: 'Your plan is active',
  alreadySubscribed: 'Your company already has an active plan; change its tier from your plan page',
  noPlan: 'Your company has no active plan',
  /** A tier change or cancel while the scheduler is charging the renewal (its answer decides the month). */
  renewalBeingCharged: 'Your renewal is being charged right now; please try again in a few minutes',
  noCredit: (kind: PlanCreditKind) =>
    `No ${PLAN_CREDIT_WORDS[kind].toLowerCase()} credits left this month; they reset at your renewal`,
  requestCreated: 'Your request is in the job workspace',
  /** A credit request's key sent again with other work (decision 2191). */
  requestKeyReused:
    'This key was already used for a request with a different kind, details or document. Please send a fresh key.',
  tierChanged: 'Your new tier starts at your next renewal',
  tierKept: 'Your plan stays on its current tier',
  cancelled: 'Your plan will not renew; you keep it until the end of the month you paid for',
  alreadyCancelled: 'Your plan is already set to end at the end of this month',
  paymentNotFound: 'Plan payment not found',
  /** A plan's first month paid another way than by card (decision 2190). */
  cardOnly: 'A monthly plan is paid by card: each renewal is charged to the card that paid the first month',
  noCarryOver: 'Unused credits do not carry over: they reset at each renewal.',
  /** An admin's cancel of a job a credit paid for, with a refund of money (decision 1900). */
  jobRefundRefused:
    'This job was paid with a plan credit, not money, so nothing can be refunded: cancel it without a refund and its credit goes back to the plan while the plan month it was used in lasts.',
  /** What cancelling a plan job does, said in the cancel dialog. */
  jobCancelCredit:
    'This job was paid with a plan credit, so no money is refunded: its credit goes back to the company’s plan if the plan month it was used in is still running (otherwise it has expired with that month).',
} as const;
