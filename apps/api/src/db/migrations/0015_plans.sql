-- Monthly plans (issue 19, docs/decisions/1900-monthly-plans.md): a company's subscription to a tier,
-- its payments (the first through the checkout dialog, renewals charged on the provider's payment plan),
-- its timeline, the provider's plan per tier, and what the ledger and the jobs need to follow them.
CREATE TABLE "plan_provider_plans" (
	"provider" text NOT NULL,
	"tier" text NOT NULL CHECK ("tier" IN ('bronze', 'silver', 'gold')),
	"provider_plan_id" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL,
	PRIMARY KEY ("provider", "tier")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL REFERENCES "users"("id"),
	"tier" text NOT NULL CHECK ("tier" IN ('bronze', 'silver', 'gold')),
	"next_tier" text CHECK ("next_tier" IN ('bronze', 'silver', 'gold')),
	"status" text NOT NULL CHECK ("status" IN ('active', 'grace', 'ended', 'lapsed')),
	"provider" text NOT NULL,
	"customer_email" text NOT NULL,
	"card_token" text,
	"period_start" timestamptz NOT NULL,
	"period_end" timestamptz NOT NULL,
	"period" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"grace_until" timestamptz,
	"next_reminder_at" timestamptz,
	"claimed_until" timestamptz,
	"credits" jsonb NOT NULL,
	"credits_used" jsonb NOT NULL,
	"credit_value_kobo" bigint NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL,
	"updated_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One live plan per company, whoever races to pay.
CREATE UNIQUE INDEX "subscriptions_one_live" ON "subscriptions" ("company_id") WHERE "status" IN ('active', 'grace');
--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" ("period_end") WHERE "status" IN ('active', 'grace');
--> statement-breakpoint
CREATE INDEX "subscriptions_company_idx" ON "subscriptions" ("company_id", "created_at");
--> statement-breakpoint
CREATE TABLE "subscription_payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid REFERENCES "subscriptions"("id"),
	"company_id" uuid NOT NULL REFERENCES "users"("id"),
	"tier" text NOT NULL CHECK ("tier" IN ('bronze', 'silver', 'gold')),
	"kind" text NOT NULL CHECK ("kind" IN ('first', 'renewal')),
	"tx_ref" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"status" text NOT NULL CHECK ("status" IN ('pending', 'paid', 'failed')),
	"provider" text NOT NULL,
	"provider_plan_id" text NOT NULL,
	"provider_transaction_id" text,
	"payment_method" text,
	"created_at" timestamptz DEFAULT now() NOT NULL,
	"paid_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_payments_tx_ref_uq" ON "subscription_payments" ("tx_ref");
--> statement-breakpoint
-- One provider transaction pays one plan payment at most.
CREATE UNIQUE INDEX "subscription_payments_provider_tx_uq" ON "subscription_payments" ("provider", "provider_transaction_id") WHERE "provider_transaction_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "subscription_payments_sub_idx" ON "subscription_payments" ("subscription_id", "id");
--> statement-breakpoint
CREATE TABLE "subscription_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"kind" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "subscription_events_sub_idx" ON "subscription_events" ("subscription_id", "id");
--> statement-breakpoint
-- A plan job names its plan; it costs the company nothing (a ₦0 order) and is paid from the plan's payment.
ALTER TABLE "jobs" ADD COLUMN "subscription_id" uuid REFERENCES "subscriptions"("id");
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "subscription_payment_id" bigint REFERENCES "subscription_payments"("id");
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT IF EXISTS "ledger_transactions_kind_check";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("kind" IN (
	'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed', 'fee',
	'plan_payment', 'plan_credit', 'plan_expiry'
));
--> statement-breakpoint
-- A plan payment is posted once, and its month's unused credits expire once.
CREATE UNIQUE INDEX "ledger_plan_once" ON "ledger_transactions" ("subscription_payment_id", "kind") WHERE "subscription_payment_id" IS NOT NULL;
--> statement-breakpoint
-- A credit pays one job once.
CREATE UNIQUE INDEX "ledger_plan_credit_once" ON "ledger_transactions" ("job_id") WHERE "kind" = 'plan_credit';
--> statement-breakpoint
-- The sandbox provider's payment plans and subscriptions (Flutterwave's POST /v3/payment-plans,
-- GET /v3/subscriptions, PUT /v3/subscriptions/{id}/cancel), and the plan a charge was made on.
CREATE TABLE "sandbox_payment_plans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"interval" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plan_id" bigint NOT NULL REFERENCES "sandbox_payment_plans"("id"),
	"customer_email" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"fail_renewals" boolean DEFAULT false NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_subscriptions_uq" ON "sandbox_subscriptions" ("plan_id", "customer_email");
--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "payment_plan" bigint;
--> statement-breakpoint
-- The cart shows plan discounts, so its cached answer follows the company's plan.
SELECT cache_watch('subscriptions');
