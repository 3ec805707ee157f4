CREATE UNIQUE INDEX "orders_provider_transaction_uq" ON "orders" USING btree ("provider","provider_transaction_id") WHERE "orders"."provider_transaction_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("status" IN ('pending', 'paid', 'failed', 'expired', 'replaced'));
--> statement-breakpoint
CREATE FUNCTION "orders_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What a payment is checked against never changes after checkout: a paid order buys exactly
  -- the lines, amount and reference it had when the customer paid.
  IF NEW.tx_ref IS DISTINCT FROM OLD.tx_ref OR NEW.amount_kobo IS DISTINCT FROM OLD.amount_kobo
     OR NEW.currency IS DISTINCT FROM OLD.currency OR NEW.lines IS DISTINCT FROM OLD.lines
     OR NEW.company_id IS DISTINCT FROM OLD.company_id THEN
    RAISE EXCEPTION 'an order''s reference, amount, currency and lines never change' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status = 'paid' AND NEW.status IS DISTINCT FROM 'paid' THEN
    RAISE EXCEPTION 'a paid order stays paid' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_guard" BEFORE UPDATE ON "orders" FOR EACH ROW EXECUTE FUNCTION orders_guard();
