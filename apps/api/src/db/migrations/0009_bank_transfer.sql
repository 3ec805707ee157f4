-- How each order was paid (Flutterwave's `payment_type`: card, mobilemoney, ussd, bank_transfer ...), written
-- once by fulfilment with the verified transaction; older orders stay null. The receipts change (0008) adds
-- the same column for the receipt, hence `if not exists`.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "payment_method" text;
