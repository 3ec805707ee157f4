-- The new address of a pending sign-in e-mail change, or the address an undo link restores (decision 0210).
ALTER TABLE "one_time_tokens" ADD COLUMN "email" text;
