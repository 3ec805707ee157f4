-- A plan job cancelled while its plan month lasts gives its credit back (decision 1900): the job names
-- the kind of credit it spent and the plan month (`subscriptions.period`) it was spent in.
ALTER TABLE "jobs" ADD COLUMN "plan_credit_kind" text CHECK ("plan_credit_kind" IN ('review', 'draft', 'opinion', 'policy'));
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "plan_period" integer;
--> statement-breakpoint
-- Plan jobs opened before this migration: the kind from their order's title ("<Tier> plan: <kind>").
UPDATE "jobs" j SET "plan_credit_kind" = CASE
		WHEN o."title" LIKE '%: Agreement review' THEN 'review'
		WHEN o."title" LIKE '%: Draft' THEN 'draft'
		WHEN o."title" LIKE '%: Legal opinion' THEN 'opinion'
		WHEN o."title" LIKE '%: Policy document' THEN 'policy'
	END
	FROM "orders" o WHERE o."id" = j."order_id" AND j."subscription_id" IS NOT NULL;
--> statement-breakpoint
-- ...and the month: the plan's current one when opened since it began (a month starts where the last
-- ended); an earlier month is over, left null.
UPDATE "jobs" j SET "plan_period" = s."period"
	FROM "subscriptions" s WHERE s."id" = j."subscription_id" AND j."created_at" >= s."period_start";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT IF EXISTS "ledger_transactions_kind_check";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("kind" IN (
	'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed', 'fee',
	'plan_payment', 'plan_credit', 'plan_expiry', 'plan_credit_return'
));
--> statement-breakpoint
-- A cancelled plan job's credit goes back to its plan once.
CREATE UNIQUE INDEX "ledger_plan_credit_return_once" ON "ledger_transactions" ("job_id") WHERE "kind" = 'plan_credit_return';
