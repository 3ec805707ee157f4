-- Data protection (issue 20 item 5, NDPA 2023; docs/decisions/2030-data-protection-export-and-erasure.md).
-- Consent: the version of the terms and privacy policy accepted at sign-up, and when.
ALTER TABLE "users" ADD COLUMN "terms_version" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;
--> statement-breakpoint
-- An erased account keeps its row (orders, jobs and the ledger point at it) without personal data.
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;
--> statement-breakpoint
-- A paid order's receipt details never change, except once: erasing the company's name, address and
-- e-mail when its account is deleted. The amounts, lines, reference and method stay as they were.
CREATE OR REPLACE FUNCTION "orders_receipt_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'paid' AND NEW.payment_method IS DISTINCT FROM OLD.payment_method THEN
    RAISE EXCEPTION 'a paid order''s receipt details never change' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status = 'paid' AND NEW.billed_to IS DISTINCT FROM OLD.billed_to AND NOT (
       NEW.billed_to = '{"name": "Account deleted", "address": null, "email": ""}'::jsonb
       AND EXISTS (SELECT 1 FROM "users" u WHERE u.id = NEW.company_id AND u.deleted_at IS NOT NULL)) THEN
    RAISE EXCEPTION 'a paid order''s receipt details never change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
