import { PLAN_TIERS, type PlanTier } from '@legalmarket/contracts/plan-tiers';

/**
 * The tier a visitor pressed Buy on, kept in this browser while they sign up and log in, so the log-in
 * brings them back to it (issue 19).
 */
const KEY = 'planTier';

export function rememberPlanTier(tier: PlanTier) {
  try {
    localStorage.setItem(KEY, tier);
  } catch {
    /* storage refused: the visitor picks the tier again */
  }
}

/** The remembered tier, forgotten once read. */
export function takePlanTier(): PlanTier | null {
  try {
    const v = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    return (PLAN_TIERS as readonly string[]).includes(v ?? '') ? (v as PlanTier) : null;
  } catch {
    return null;
  }
}
