-- A job page action sent twice (a double click, a retry after a lost answer) is taken once: the
-- client names each action with a key, kept on its event (docs/decisions/1600).
ALTER TABLE "job_events" ADD COLUMN "client_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "job_events_client_key" ON "job_events" ("job_id", "actor_id", "action", "client_key")
  WHERE "client_key" IS NOT NULL;
