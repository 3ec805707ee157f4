-- A payout an admin rejects before it is sent (docs/decisions/1710-lawyer-payouts.md): requested -> rejected,
-- with the reason; nothing was posted for it, so its reserved amount is simply withdrawable again.
ALTER TABLE "payouts" DROP CONSTRAINT IF EXISTS "payouts_status_check";
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_check" CHECK ("status" IN ('requested', 'sending', 'paid', 'failed', 'rejected'));
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rejected_by" uuid REFERENCES "users"("id");
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rejected_at" timestamptz;
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rejection_reason" text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."amount_kobo" <> OLD."amount_kobo" OR NEW."lawyer_id" <> OLD."lawyer_id" OR NEW."account_number" <> OLD."account_number"
		OR NEW."bank_code" <> OLD."bank_code" THEN
		RAISE EXCEPTION 'a payout''s amount, lawyer and account never change' USING ERRCODE = 'check_violation';
	END IF;
	IF NEW."status" <> OLD."status" AND NOT (
		(OLD."status" = 'requested' AND NEW."status" IN ('sending', 'rejected')) OR
		(OLD."status" = 'sending' AND NEW."status" IN ('paid', 'failed'))) THEN
		RAISE EXCEPTION 'payout % cannot move from % to %', OLD."id", OLD."status", NEW."status" USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END $$;
