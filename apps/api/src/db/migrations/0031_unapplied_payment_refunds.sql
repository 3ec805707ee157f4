-- Refunds of money a payment paid for nothing (docs/decisions/2250-money-paid-for-nothing-is-refunded.md):
-- a payment of an order already paid, one made after its order closed, and lines another order bought.
-- Such a refund has no job; it names the provider transaction it gives back, once per transaction. The
-- ledger posts what it owes the company as `unapplied` when the refund is opened.
ALTER TABLE "refunds" ALTER COLUMN "job_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN IF NOT EXISTS "provider_transaction_id" text;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_job_or_transaction" CHECK ("job_id" IS NOT NULL OR "provider_transaction_id" IS NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "refunds_unapplied_uq" ON "refunds" ("provider", "provider_transaction_id") WHERE "job_id" IS NULL;
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT IF EXISTS "ledger_transactions_kind_check";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("kind" IN (
	'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed', 'payout_reversed', 'fee',
	'plan_payment', 'plan_credit', 'plan_expiry', 'plan_credit_return', 'unapplied'
));
