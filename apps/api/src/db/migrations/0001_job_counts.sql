CREATE TABLE "job_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "job_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement per jobs statement, counters changed in key order, so concurrent writers queue
  -- on the counter rows in one order and never deadlock.
  INSERT INTO job_counts AS c (key, n)
  SELECT key, sum(delta) FROM (
    SELECT 'status:' || status AS key, -1 AS delta FROM old_rows
    UNION ALL SELECT 'open', -1 FROM old_rows WHERE status = 'unassigned' AND assigned_to IS NULL
    UNION ALL SELECT 'status:' || status, 1 FROM new_rows
    UNION ALL SELECT 'open', 1 FROM new_rows WHERE status = 'unassigned' AND assigned_to IS NULL
  ) d GROUP BY key HAVING sum(delta) <> 0 ORDER BY key
  ON CONFLICT (key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "job_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_counts AS c (key, n)
  SELECT key, sum(delta) FROM (
    SELECT 'status:' || status AS key, 1 AS delta FROM new_rows
    UNION ALL SELECT 'open', 1 FROM new_rows WHERE status = 'unassigned' AND assigned_to IS NULL
  ) d GROUP BY key ORDER BY key
  ON CONFLICT (key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "job_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_counts AS c (key, n)
  SELECT key, -sum(delta) FROM (
    SELECT 'status:' || status AS key, 1 AS delta FROM old_rows
    UNION ALL SELECT 'open', 1 FROM old_rows WHERE status = 'unassigned' AND assigned_to IS NULL
  ) d GROUP BY key ORDER BY key
  ON CONFLICT (key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_counts_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION job_counts_insert();
--> statement-breakpoint
CREATE TRIGGER "jobs_counts_update" AFTER UPDATE ON "jobs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION job_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "jobs_counts_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION job_counts_delete();
--> statement-breakpoint
INSERT INTO "job_counts" (key, n)
SELECT 'status:' || status, count(*) FROM "jobs" GROUP BY status
UNION ALL SELECT 'open', count(*) FROM "jobs" WHERE status = 'unassigned' AND assigned_to IS NULL;
