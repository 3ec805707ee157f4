-- "This wasn't me" (docs/decisions/2220-this-was-not-me-link.md): the link mailed when
-- two-factor is turned on works only for that enrolment. Each enrolment gets its own id (a row made
-- after a disable is a new one), and the link's token names the enrolment it was issued for.
ALTER TABLE "two_factor" ADD COLUMN IF NOT EXISTS "enrolment_id" uuid NOT NULL DEFAULT gen_random_uuid();
--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN IF NOT EXISTS "two_factor_enrolment_id" uuid;
