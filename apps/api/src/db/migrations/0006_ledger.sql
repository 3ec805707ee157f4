-- One append-only, double-entry ledger (docs/decisions/1700-one-ledger.md). Every movement of money is a
-- ledger transaction whose entries sum to zero at commit; amounts are kobo, debits positive, credits
-- negative. Balances are sums over entries, never stored beside them.
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN (
		'payment', 'earning', 'cancellation', 'refund', 'payout', 'payout_settled', 'payout_failed'
	)),
	"order_id" uuid REFERENCES "orders"("id"),
	"job_id" uuid REFERENCES "jobs"("id"),
	"payout_id" uuid,
	"refund_id" uuid,
	"memo" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Exactly once: an order is paid once, a job earns once, each refund and payout step happens once.
CREATE UNIQUE INDEX "ledger_payment_once" ON "ledger_transactions" ("order_id") WHERE "kind" = 'payment';
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_earning_once" ON "ledger_transactions" ("job_id") WHERE "kind" IN ('earning', 'cancellation');
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_payout_once" ON "ledger_transactions" ("payout_id", "kind") WHERE "payout_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_refund_once" ON "ledger_transactions" ("refund_id", "kind") WHERE "refund_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "ledger_transactions_created_idx" ON "ledger_transactions" ("created_at", "id");
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL REFERENCES "ledger_transactions"("id"),
	"account" text NOT NULL CHECK ("account" IN (
		'provider_cash', 'held_for_jobs', 'platform_commission', 'lawyer_earnings', 'payouts_in_transit', 'refunds_due'
	)),
	"amount_kobo" bigint NOT NULL CHECK ("amount_kobo" <> 0),
	"job_id" uuid,
	"company_id" uuid,
	"lawyer_id" uuid,
	-- For lawyer earnings: when the credit may be withdrawn (the holding period).
	"available_at" timestamptz,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" ("transaction_id");
--> statement-breakpoint
CREATE INDEX "ledger_entries_lawyer_idx" ON "ledger_entries" ("lawyer_id", "account") WHERE "lawyer_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "ledger_entries_job_idx" ON "ledger_entries" ("job_id") WHERE "job_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "ledger_entries_company_idx" ON "ledger_entries" ("company_id") WHERE "company_id" IS NOT NULL;
--> statement-breakpoint
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions"
	FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
	FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON "ledger_transactions"
	FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON "ledger_entries"
	FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE FUNCTION ledger_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
	SELECT coalesce(sum("amount_kobo"), 0) INTO total FROM "ledger_entries" WHERE "transaction_id" = NEW."transaction_id";
	IF total <> 0 THEN
		RAISE EXCEPTION 'ledger transaction % does not balance (off by % kobo)', NEW."transaction_id", total
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Checked at commit, when every entry of the transaction is in.
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_balanced();
--> statement-breakpoint
-- Orders paid before the ledger: their payments and any completed jobs' earnings, so balances start true.
INSERT INTO "ledger_transactions" ("kind", "order_id", "memo", "created_at")
	SELECT 'payment', "id", 'Payment ' || "tx_ref", coalesce("paid_at", "updated_at") FROM "orders" WHERE "status" = 'paid';
--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "company_id", "created_at")
	SELECT t."id", 'provider_cash', o."amount_kobo", o."company_id", t."created_at"
	FROM "ledger_transactions" t JOIN "orders" o ON o."id" = t."order_id"
	WHERE t."kind" = 'payment' AND o."amount_kobo" > 0;
--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "job_id", "company_id", "created_at")
	SELECT t."id", 'held_for_jobs', -j."amount_kobo", j."id", j."company_id", t."created_at"
	FROM "ledger_transactions" t JOIN "jobs" j ON j."order_id" = t."order_id"
	WHERE t."kind" = 'payment' AND j."amount_kobo" > 0;
--> statement-breakpoint
-- What an order paid beyond its jobs' lines (none in practice) is held against the order.
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "company_id", "created_at")
	SELECT t."id", 'held_for_jobs', -(o."amount_kobo" - coalesce(s.total, 0)), o."company_id", t."created_at"
	FROM "ledger_transactions" t JOIN "orders" o ON o."id" = t."order_id"
	LEFT JOIN (SELECT "order_id", sum("amount_kobo") AS total FROM "jobs" GROUP BY "order_id") s ON s."order_id" = o."id"
	WHERE t."kind" = 'payment' AND o."amount_kobo" <> coalesce(s.total, 0);
--> statement-breakpoint
INSERT INTO "ledger_transactions" ("kind", "job_id", "memo", "created_at")
	SELECT 'earning', "id", 'Earning for a completed job', coalesce("completed_at", "updated_at")
	FROM "jobs" WHERE "stage" = 'completed' AND "assigned_to" IS NOT NULL AND "amount_kobo" > 0;
--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "job_id", "company_id", "created_at")
	SELECT t."id", 'held_for_jobs', j."amount_kobo", j."id", j."company_id", t."created_at"
	FROM "ledger_transactions" t JOIN "jobs" j ON j."id" = t."job_id" WHERE t."kind" = 'earning';
--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "job_id", "created_at")
	SELECT t."id", 'platform_commission', -round(j."amount_kobo" * 0.2)::bigint, j."id", t."created_at"
	FROM "ledger_transactions" t JOIN "jobs" j ON j."id" = t."job_id"
	WHERE t."kind" = 'earning' AND round(j."amount_kobo" * 0.2) > 0;
--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_kobo", "job_id", "lawyer_id", "available_at", "created_at")
	SELECT t."id", 'lawyer_earnings', -(j."amount_kobo" - round(j."amount_kobo" * 0.2)::bigint), j."id", j."assigned_to",
		t."created_at" + interval '7 days', t."created_at"
	FROM "ledger_transactions" t JOIN "jobs" j ON j."id" = t."job_id" WHERE t."kind" = 'earning';
--> statement-breakpoint
-- A cancelled job's refund to the company: one per job, sent to the provider after the cancellation
-- commits, completed by the provider's answer or its webhook (features/money/refunds.ts).
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL REFERENCES "jobs"("id"),
	"order_id" uuid NOT NULL REFERENCES "orders"("id"),
	"amount_kobo" bigint NOT NULL CHECK ("amount_kobo" > 0),
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'completed', 'failed')),
	"provider" text NOT NULL,
	"provider_refund_id" text,
	"failure" text,
	"requested_by" uuid REFERENCES "users"("id"),
	"created_at" timestamptz DEFAULT now() NOT NULL,
	"updated_at" timestamptz DEFAULT now() NOT NULL,
	"settled_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_job_uq" ON "refunds" ("job_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_uq" ON "refunds" ("provider", "provider_refund_id") WHERE "provider_refund_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "refunds_status_idx" ON "refunds" ("status", "created_at");
--> statement-breakpoint
-- Refunds recorded by the offline sandbox provider (Flutterwave-shaped).
CREATE TABLE "sandbox_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
