-- A plan credit request sent twice (a double click, a retry after a lost answer) spends one credit: the
-- client names each request with a key, kept on the job it opened (docs/decisions/2191).
ALTER TABLE "jobs" ADD COLUMN "plan_request_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_plan_request_key" ON "jobs" ("company_id", "plan_request_key")
  WHERE "plan_request_key" IS NOT NULL;
--> statement-breakpoint
CREATE FUNCTION "subscription_payments_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What a plan payment is checked against never changes once it is made: a payment buys exactly the
  -- tier, amount and reference it had when the customer paid, for the company that started it.
  IF NEW.tx_ref IS DISTINCT FROM OLD.tx_ref OR NEW.amount_kobo IS DISTINCT FROM OLD.amount_kobo
     OR NEW.tier IS DISTINCT FROM OLD.tier OR NEW.kind IS DISTINCT FROM OLD.kind
     OR NEW.company_id IS DISTINCT FROM OLD.company_id OR NEW.provider IS DISTINCT FROM OLD.provider THEN
    RAISE EXCEPTION 'a plan payment''s reference, amount, tier and company never change' USING ERRCODE = 'check_violation';
  END IF;
  -- The transaction that paid it and the plan it started are written once.
  IF (OLD.provider_transaction_id IS NOT NULL AND NEW.provider_transaction_id IS DISTINCT FROM OLD.provider_transaction_id)
     OR (OLD.subscription_id IS NOT NULL AND NEW.subscription_id IS DISTINCT FROM OLD.subscription_id) THEN
    RAISE EXCEPTION 'a plan payment''s transaction and plan never change' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status = 'paid' AND NEW.status IS DISTINCT FROM 'paid' THEN
    RAISE EXCEPTION 'a paid plan payment stays paid' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "subscription_payments_guard" BEFORE UPDATE ON "subscription_payments" FOR EACH ROW
  EXECUTE FUNCTION subscription_payments_guard();
