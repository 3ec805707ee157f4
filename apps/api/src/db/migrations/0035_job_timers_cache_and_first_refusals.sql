-- The job page names when the clock accepts a delivered job, read from its auto_accept timer
-- (docs/decisions/2331-a-delivered-job-names-its-automatic-acceptance.md): the page's cache
-- (JOB_THREAD_READS) depends on the timers, so their writes move its version.
SELECT cache_watch('job_timers');
--> statement-breakpoint
-- A refund's first refusal (docs/decisions/2334-a-refund-is-given-up-three-days-after-its-first-refusal.md):
-- the background pass gives a refused refund up three days after it, not after the refund was opened.
-- One refused already counts from its last refusal, the nearest moment kept; one already given up
-- (its failure starts with refunds.ts's GIVEN_UP) from its opening, as 2309 gave it up: its updated_at
-- is when it was given up, and counted from that an admin's retry refused again would be sent for days.
ALTER TABLE "refunds" ADD COLUMN IF NOT EXISTS "first_refused_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "refunds"
SET "first_refused_at" = CASE
  WHEN starts_with("failure", 'Not sent again by itself: ') THEN "created_at"
  ELSE "updated_at"
END
WHERE "status" = 'failed' AND "first_refused_at" IS NULL;
