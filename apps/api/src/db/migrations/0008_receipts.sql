-- Receipts and credit notes (issue 17, item 2): what a receipt prints is frozen when the order is paid.
-- 0009 (bank transfer) adds the same column if missing; either may run first on a deployed database.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "payment_method" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billed_to" jsonb;
--> statement-breakpoint
-- Mail attachments as descriptors ({kind, id, filename}); the worker renders them when it sends.
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb;
--> statement-breakpoint
CREATE FUNCTION "orders_receipt_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A receipt printed again says what it said the first time: the payment method and the company's
  -- name and address as they were at payment never change once the order is paid.
  IF OLD.status = 'paid' AND (NEW.payment_method IS DISTINCT FROM OLD.payment_method
     OR NEW.billed_to IS DISTINCT FROM OLD.billed_to) THEN
    RAISE EXCEPTION 'a paid order''s receipt details never change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_receipt_guard" BEFORE UPDATE ON "orders" FOR EACH ROW EXECUTE FUNCTION orders_receipt_guard();
