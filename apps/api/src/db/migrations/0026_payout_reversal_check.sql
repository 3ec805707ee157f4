-- A reversal whose webhook was lost is found by asking the provider again: paid payouts are looked up
-- once a day for 30 days after they settle (docs/decisions/1710-lawyer-payouts.md).
ALTER TABLE "payouts" ADD COLUMN IF NOT EXISTS "reversal_checked_at" timestamptz;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payouts_paid_settled_idx" ON "payouts" ("settled_at") WHERE "status" = 'paid';
