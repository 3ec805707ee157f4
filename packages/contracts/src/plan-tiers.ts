/** The monthly plans' tiers (issue 19); here, free of zod, for the web's /products. plans.ts re-exports them. */
export const PLAN_TIERS = ['bronze', 'silver', 'gold'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];
