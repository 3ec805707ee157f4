-- How each order was paid (Flutterwave's `payment_type`: card, mobilemoney, ussd, bank_transfer ...), written
-- once by fulfilment with the verified transaction; older orders stay null. `if not exists`: another
-- change may add the same column for receipts.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "payment_type" text;
