-- Lawyer payouts through the provider (docs/decisions/1710-lawyer-payouts.md).
-- Payout details now carry the bank's own name for the account, from the provider's account resolution;
-- rows saved before this have resolved_at null and are re-resolved when the lawyer submits them again.
ALTER TABLE "payout_details" ADD COLUMN "bank_code" text;
--> statement-breakpoint
ALTER TABLE "payout_details" ADD COLUMN "typed_name" text;
--> statement-breakpoint
ALTER TABLE "payout_details" ADD COLUMN "resolved_at" timestamptz;
--> statement-breakpoint
-- One withdrawal: asked for by the lawyer (its amount reserved), approved by an admin (posted to the
-- ledger and sent to the provider with reference = id), settled once by the provider's word.
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lawyer_id" uuid NOT NULL REFERENCES "users"("id"),
	"amount_kobo" bigint NOT NULL CHECK ("amount_kobo" > 0),
	"status" text DEFAULT 'requested' NOT NULL CHECK ("status" IN ('requested', 'sending', 'paid', 'failed')),
	"bank" text NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"provider" text NOT NULL,
	"provider_transfer_id" text,
	"failure" text,
	"approved_by" uuid REFERENCES "users"("id"),
	"created_at" timestamptz DEFAULT now() NOT NULL,
	"updated_at" timestamptz DEFAULT now() NOT NULL,
	"approved_at" timestamptz,
	"settled_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_provider_uq" ON "payouts" ("provider", "provider_transfer_id") WHERE "provider_transfer_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "payouts_lawyer_idx" ON "payouts" ("lawyer_id", "created_at");
--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" ("status", "created_at");
--> statement-breakpoint
-- A status only moves forward: requested -> sending -> paid | failed.
CREATE FUNCTION payouts_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."amount_kobo" <> OLD."amount_kobo" OR NEW."lawyer_id" <> OLD."lawyer_id" OR NEW."account_number" <> OLD."account_number"
		OR NEW."bank_code" <> OLD."bank_code" THEN
		RAISE EXCEPTION 'a payout''s amount, lawyer and account never change' USING ERRCODE = 'check_violation';
	END IF;
	IF NEW."status" <> OLD."status" AND NOT (
		(OLD."status" = 'requested' AND NEW."status" = 'sending') OR
		(OLD."status" = 'sending' AND NEW."status" IN ('paid', 'failed'))) THEN
		RAISE EXCEPTION 'payout % cannot move from % to %', OLD."id", OLD."status", NEW."status" USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER payouts_forward_only BEFORE UPDATE ON "payouts" FOR EACH ROW EXECUTE FUNCTION payouts_forward_only();
--> statement-breakpoint
SELECT cache_watch('payouts');
--> statement-breakpoint
-- Transfers recorded by the offline sandbox provider (Flutterwave-shaped; one per reference).
CREATE TABLE "sandbox_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"narration" text NOT NULL,
	"status" text NOT NULL CHECK ("status" IN ('NEW', 'PENDING', 'SUCCESSFUL', 'FAILED')),
	"complete_message" text,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transfers_reference_uq" ON "sandbox_transfers" ("reference");
--> statement-breakpoint
SELECT cache_watch('sandbox_transfers');
