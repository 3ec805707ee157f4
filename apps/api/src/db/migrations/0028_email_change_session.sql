-- The session that asked for a sign-in e-mail change: when the new address is confirmed, every other
-- session of the account ends and this one stays (docs/decisions/2181-other-sessions-end-when-the-keys-change.md).
ALTER TABLE "one_time_tokens" ADD COLUMN IF NOT EXISTS "session_id" uuid REFERENCES "sessions"("id") ON DELETE SET NULL;
