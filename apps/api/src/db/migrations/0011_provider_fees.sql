-- Provider fees in the ledger (docs/decisions/1700-one-ledger.md): what Flutterwave keeps from a payment
-- (`app_fee`) and charges for a transfer (`fee`) is the platform's cost, posted as a `fee` transaction
-- (debit provider_fees, credit provider_cash) in the same database transaction as the payment or payout.
-- The checks were written inline in 0006, so they carry PostgreSQL's default names in whatever schema
-- the tables live in; they are replaced with the same names.
ALTER TABLE "ledger_transactions" DROP CONSTRAINT IF EXISTS "ledger_transactions_kind_check";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("kind" IN (
	'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed', 'fee'
));
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT IF EXISTS "ledger_entries_account_check";
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_check" CHECK ("account" IN (
	'provider_cash', 'held_for_jobs', 'platform_commission', 'lawyer_earnings', 'payouts_in_transit', 'refunds_due',
	'provider_fees'
));
--> statement-breakpoint
-- One fee per paid order; a payout's fee is held to one by ledger_payout_once (payout_id, kind).
CREATE UNIQUE INDEX "ledger_fee_once" ON "ledger_transactions" ("order_id") WHERE "kind" = 'fee' AND "order_id" IS NOT NULL;
