-- The job lifecycle of packages/contracts/src/job-lifecycle.ts: stages, events (timeline and thread),
-- read markers, notifications, holidays and the clock's timers. The stage pairs below mirror the
-- table; apps/api/src/features/jobs/lifecycle.test.ts fails when they disagree.
ALTER TABLE "jobs" DROP CONSTRAINT IF EXISTS "jobs_status_check";
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "stage" text;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "due_at" timestamptz;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "delivered_at" timestamptz;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "cancelled_at" timestamptz;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "deliveries" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "jobs" SET "stage" = CASE "status" WHEN 'pending' THEN 'in_progress' ELSE "status" END,
  "due_at" = "created_at" + interval '14 days';
--> statement-breakpoint
CREATE FUNCTION job_spec_status(stage text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN stage IN ('in_progress', 'delivered', 'changes_requested') THEN 'pending' ELSE stage END
$$;
--> statement-breakpoint
CREATE FUNCTION job_stage_step_allowed(from_stage text, to_stage text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT (from_stage, to_stage) IN (
    ('unassigned', 'in_progress'),
    ('in_progress', 'delivered'),
    ('delivered', 'changes_requested'),
    ('changes_requested', 'delivered'),
    ('delivered', 'completed'),
    ('in_progress', 'completed'),
    ('changes_requested', 'completed'),
    ('unassigned', 'cancelled'),
    ('in_progress', 'cancelled'),
    ('delivered', 'cancelled'),
    ('changes_requested', 'cancelled'))
$$;
--> statement-breakpoint
-- Writers set the stage; the spec's status follows from it. A writer that still sets only the status
-- (older code, fixtures) moves the stage the matching way, and the step is checked either way.
CREATE FUNCTION jobs_stage_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A row written with only a status (the stage left at its default) takes the matching stage.
    IF NEW.stage IS NULL OR (NEW.stage = 'unassigned' AND NEW.status <> 'unassigned') THEN
      NEW.stage := CASE NEW.status WHEN 'pending' THEN 'in_progress' ELSE NEW.status END;
    END IF;
  ELSE
    IF NEW.stage IS NOT DISTINCT FROM OLD.stage AND NEW.status IS DISTINCT FROM OLD.status THEN
      NEW.stage := CASE NEW.status WHEN 'pending' THEN 'in_progress' ELSE NEW.status END;
    END IF;
    IF NEW.stage IS DISTINCT FROM OLD.stage AND NOT job_stage_step_allowed(OLD.stage, NEW.stage) THEN
      RAISE EXCEPTION 'a job cannot go from % to %', OLD.stage, NEW.stage USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  NEW.status := job_spec_status(NEW.stage);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_stage_guard" BEFORE INSERT OR UPDATE ON "jobs" FOR EACH ROW EXECUTE FUNCTION jobs_stage_guard();
--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "stage" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "due_at" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "due_at" SET DEFAULT now() + interval '14 days';
--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "stage" SET DEFAULT 'unassigned';
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_stage_check" CHECK ("stage" IN ('unassigned', 'in_progress', 'delivered', 'changes_requested', 'completed', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_of_stage" CHECK ("status" = job_spec_status("stage"));
--> statement-breakpoint
CREATE INDEX "jobs_stage_due_idx" ON "jobs" ("stage", "due_at");
--> statement-breakpoint
CREATE TABLE "job_events" (
  "id" bigserial PRIMARY KEY,
  "job_id" uuid NOT NULL REFERENCES "jobs"("id") ON DELETE CASCADE,
  "action" text NOT NULL,
  "actor_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "actor_role" text NOT NULL,
  "note" text,
  "files" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "from_stage" text,
  "to_stage" text NOT NULL,
  "created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_events_job_idx" ON "job_events" ("job_id", "id");
--> statement-breakpoint
-- Who may open a document attached to a thread is asked by its uploader (uploads' canRead).
CREATE INDEX "job_events_actor_idx" ON "job_events" ("actor_id");
--> statement-breakpoint
CREATE TABLE "job_reads" (
  "job_id" uuid NOT NULL REFERENCES "jobs"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "last_event_id" bigint NOT NULL DEFAULT 0,
  PRIMARY KEY ("job_id", "user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
  "id" bigserial PRIMARY KEY,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "job_id" uuid NOT NULL REFERENCES "jobs"("id") ON DELETE CASCADE,
  "event_id" bigint NOT NULL REFERENCES "job_events"("id") ON DELETE CASCADE,
  "action" text NOT NULL,
  "text" text NOT NULL,
  "created_at" timestamptz DEFAULT now() NOT NULL,
  "read_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" ("user_id", "id");
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" ("user_id") WHERE "read_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "holidays" (
  "day" date PRIMARY KEY,
  "name" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "holidays" ("day", "name") VALUES
  ('2026-01-01', 'New Year''s Day'), ('2026-03-20', 'Eid al-Fitr'), ('2026-04-03', 'Good Friday'),
  ('2026-04-06', 'Easter Monday'), ('2026-05-01', 'Workers'' Day'), ('2026-05-27', 'Eid al-Adha'),
  ('2026-06-12', 'Democracy Day'), ('2026-08-26', 'Eid al-Mawlid'), ('2026-10-01', 'Independence Day'),
  ('2026-12-25', 'Christmas Day'), ('2026-12-26', 'Boxing Day'),
  ('2027-01-01', 'New Year''s Day'), ('2027-03-10', 'Eid al-Fitr'), ('2027-03-26', 'Good Friday'),
  ('2027-03-29', 'Easter Monday'), ('2027-05-01', 'Workers'' Day'), ('2027-05-17', 'Eid al-Adha'),
  ('2027-06-12', 'Democracy Day'), ('2027-08-15', 'Eid al-Mawlid'), ('2027-10-01', 'Independence Day'),
  ('2027-12-25', 'Christmas Day'), ('2027-12-26', 'Boxing Day')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TABLE "job_timers" (
  "id" bigserial PRIMARY KEY,
  "job_id" uuid NOT NULL REFERENCES "jobs"("id") ON DELETE CASCADE,
  "action" text NOT NULL,
  "cycle" integer NOT NULL DEFAULT 0,
  "fire_at" timestamptz NOT NULL,
  "fired_at" timestamptz,
  UNIQUE ("job_id", "action", "cycle")
);
--> statement-breakpoint
CREATE INDEX "job_timers_due_idx" ON "job_timers" ("fire_at") WHERE "fired_at" IS NULL;
