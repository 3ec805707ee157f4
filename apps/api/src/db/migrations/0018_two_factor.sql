-- Two-factor authentication (docs/decisions/2020-two-factor-authentication.md): an authenticator app's
-- secret per account (AES-GCM under a key derived from the server secret), its recovery codes (hashed,
-- each used once), and when each session last proved a code (the step-up of actions on money).
CREATE TABLE "two_factor" (
	"user_id" uuid PRIMARY KEY REFERENCES "users"("id") ON DELETE CASCADE,
	"secret_enc" text NOT NULL,
	-- Null while the enrolment waits for its first code.
	"enabled_at" timestamptz,
	-- The last TOTP time step accepted: a code of that step or an earlier one is never accepted again.
	"last_used_step" bigint,
	"created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "two_factor_recovery_codes" (
	"id" bigserial PRIMARY KEY,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"used_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX "two_factor_recovery_user_idx" ON "two_factor_recovery_codes" ("user_id");
--> statement-breakpoint
CREATE TABLE "two_factor_checks" (
	"session_id" uuid PRIMARY KEY REFERENCES "sessions"("id") ON DELETE CASCADE,
	"checked_at" timestamptz NOT NULL
);
--> statement-breakpoint
-- The audit page filters by actor, action and object, newest first.
CREATE INDEX "audit_actor_created_idx" ON "audit_log" ("actor_id", "created_at");
--> statement-breakpoint
CREATE INDEX "audit_action_created_idx" ON "audit_log" ("action", "created_at");
--> statement-breakpoint
CREATE INDEX "audit_target_idx" ON "audit_log" ("target_type", "target_id");
