-- The provider's fee on a plan payment is posted like an order's (docs/decisions/1700-one-ledger.md):
-- once per paid plan payment, however many confirms and webhooks arrive.
CREATE UNIQUE INDEX "ledger_fee_once_plan" ON "ledger_transactions" USING btree ("subscription_payment_id")
  WHERE "ledger_transactions"."kind" = 'fee' AND "ledger_transactions"."subscription_payment_id" IS NOT NULL;
