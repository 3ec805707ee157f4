-- A lawyer's refused verification as a state (issue 18; docs/decisions/1860-verification-rejection-stored.md):
-- when an admin refused it and the reason the lawyer was e-mailed. Cleared by the lawyer's next change to
-- the profile (the lawyer asks to be checked again) and by a verification.
ALTER TABLE "users" ADD COLUMN "verification_rejected_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verification_rejection_reason" text;
--> statement-breakpoint
-- Both or neither; and a verified lawyer is never also refused.
ALTER TABLE "users" ADD CONSTRAINT "users_verification_rejection_check" CHECK (
  ("verification_rejected_at" IS NULL) = ("verification_rejection_reason" IS NULL)
  AND NOT ("verified" AND "verification_rejected_at" IS NOT NULL));
--> statement-breakpoint
-- Rejections made before this column existed live only in the audit log (decision 1820): an unverified
-- lawyer whose latest verification entry is `lawyer.reject`, and whose row has not changed since, is
-- refused with that entry's reason. A row changed since (a profile edit) counts as asking again.
UPDATE "users" u SET
  "verification_rejected_at" = last."created_at",
  "verification_rejection_reason" = last."details"->>'reason'
FROM (
  SELECT DISTINCT ON (a."target_id") a."target_id", a."action", a."details", a."created_at"
  FROM "audit_log" a
  WHERE a."target_type" = 'lawyer'
  ORDER BY a."target_id", a."id" DESC
) last
WHERE last."target_id" = u."id"::text
  AND last."action" = 'lawyer.reject'
  AND last."details"->>'reason' IS NOT NULL
  AND u."user_type" = 'lawyer'
  AND NOT u."verified"
  AND u."deleted_at" IS NULL
  AND u."updated_at" <= last."created_at";
