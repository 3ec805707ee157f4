-- A plan payment charged with Flutterwave's `payment_plan` subscribes the card, and Flutterwave would
-- then charge it on its own every month besides our scheduler's renewals (decision 1900). Each such
-- payment asks for the provider's subscription to be cancelled until it is: due from
-- `provider_cancel_after` (moved on while a scheduler is cancelling it), done at `provider_cancelled_at`.
ALTER TABLE "subscription_payments" ADD COLUMN "provider_cancel_after" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD COLUMN "provider_cancelled_at" timestamp with time zone;
--> statement-breakpoint
-- Plans paid before this migration are still subscribed at the provider: cancel them all once.
UPDATE "subscription_payments" SET "provider_cancel_after" = now()
  WHERE "status" = 'paid' AND "provider_plan_id" <> '';
--> statement-breakpoint
CREATE INDEX "subscription_payments_provider_cancel_idx" ON "subscription_payments" USING btree ("provider_cancel_after")
  WHERE "provider_cancel_after" IS NOT NULL AND "provider_cancelled_at" IS NULL;
