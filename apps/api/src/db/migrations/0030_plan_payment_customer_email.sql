-- A plan payment's charge e-mail (docs/decisions/2247-a-plan-payment-keeps-its-charges-email.md): the
-- provider subscription a charge on a payment plan makes is found by that e-mail, so a payment that
-- started no plan is cancelled under it, not under the company's address of the day. Rows from before
-- keep none and are cancelled as they were.
ALTER TABLE "subscription_payments" ADD COLUMN IF NOT EXISTS "customer_email" text;
