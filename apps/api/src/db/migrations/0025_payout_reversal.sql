-- A transfer the provider reports paid and later reversed (the bank sent the money back to our balance):
-- the payout moves paid -> failed once, and `payout_reversed` gives the amount back to the lawyer
-- (docs/decisions/1710-lawyer-payouts.md).
ALTER TABLE "ledger_transactions" DROP CONSTRAINT IF EXISTS "ledger_transactions_kind_check";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("kind" IN (
	'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed', 'payout_reversed', 'fee',
	'plan_payment', 'plan_credit', 'plan_expiry', 'plan_credit_return'
));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."amount_kobo" <> OLD."amount_kobo" OR NEW."lawyer_id" <> OLD."lawyer_id" OR NEW."account_number" <> OLD."account_number"
		OR NEW."bank_code" <> OLD."bank_code" THEN
		RAISE EXCEPTION 'a payout''s amount, lawyer and account never change' USING ERRCODE = 'check_violation';
	END IF;
	IF NEW."status" <> OLD."status" AND NOT (
		(OLD."status" = 'requested' AND NEW."status" IN ('sending', 'rejected')) OR
		(OLD."status" = 'sending' AND NEW."status" IN ('paid', 'failed')) OR
		(OLD."status" = 'paid' AND NEW."status" = 'failed')) THEN
		RAISE EXCEPTION 'payout % cannot move from % to %', OLD."id", OLD."status", NEW."status" USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END $$;
