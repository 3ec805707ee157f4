-- Refunds of money a monthly plan's payment paid for nothing (docs/decisions/2262-plan-payments-paid-for-nothing-are-refunded.md):
-- a second payment of a paid plan, a renewal charge that paid no month, a charge the provider made on its
-- own cycle and a first payment of the wrong amount. Such a refund has no order: it names the company it
-- gives back to, the payment's reference and the provider transaction (once per transaction, as 0031).
ALTER TABLE "refunds" ALTER COLUMN "order_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN IF NOT EXISTS "company_id" uuid REFERENCES "users"("id");
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN IF NOT EXISTS "reference" text;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_or_plan_payment" CHECK (
	"order_id" IS NOT NULL
	OR ("job_id" IS NULL AND "provider_transaction_id" IS NOT NULL AND "company_id" IS NOT NULL AND "reference" IS NOT NULL)
);
