-- Cache invalidation declared by the database (docs/decisions/1500-declared-cache-invalidation.md).
-- A write notes its tables for its transaction; at commit, in the same transaction, their versions
-- move: `<table>` on any write, `<table>:changed` only when rows already there changed or went.
CREATE TABLE "cache_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cache_changes" (
	"txid" bigint NOT NULL,
	"name" text NOT NULL,
	PRIMARY KEY ("txid", "name")
);
--> statement-breakpoint
CREATE FUNCTION cache_note_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	-- A statement that changed no row changes no cached copy.
	IF TG_OP <> 'TRUNCATE' THEN
		IF NOT EXISTS (SELECT FROM cache_rows) THEN
			RETURN NULL;
		END IF;
	END IF;
	INSERT INTO cache_changes (txid, name) VALUES (txid_current(), TG_TABLE_NAME) ON CONFLICT DO NOTHING;
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO cache_changes (txid, name) VALUES (txid_current(), TG_TABLE_NAME || ':changed')
			ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Version rows are taken in name order, and nothing is locked after them: two committing
-- transactions wait for each other at most, never deadlock.
CREATE FUNCTION cache_bump_versions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	changed text;
BEGIN
	FOR changed IN
		WITH gone AS (DELETE FROM cache_changes WHERE txid = txid_current() RETURNING name)
		SELECT DISTINCT name FROM gone ORDER BY name
	LOOP
		INSERT INTO cache_versions (name, version) VALUES (changed, 1)
			ON CONFLICT (name) DO UPDATE SET version = cache_versions.version + 1;
	END LOOP;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER cache_bump_at_commit AFTER INSERT ON cache_changes
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cache_bump_versions();
--> statement-breakpoint
-- Tests (and later migrations) watch a table with one call.
CREATE FUNCTION cache_watch(target regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TRIGGER cache_note_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS cache_rows '
		'FOR EACH STATEMENT EXECUTE FUNCTION cache_note_change()', target);
	EXECUTE format('CREATE TRIGGER cache_note_update AFTER UPDATE ON %s REFERENCING NEW TABLE AS cache_rows '
		'FOR EACH STATEMENT EXECUTE FUNCTION cache_note_change()', target);
	EXECUTE format('CREATE TRIGGER cache_note_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS cache_rows '
		'FOR EACH STATEMENT EXECUTE FUNCTION cache_note_change()', target);
	EXECUTE format('CREATE TRIGGER cache_note_truncate AFTER TRUNCATE ON %s '
		'FOR EACH STATEMENT EXECUTE FUNCTION cache_note_change()', target);
END $$;
--> statement-breakpoint
-- The tables some cache reads (catalogue, sessions, CART_READS, JOB_PAGE_READS); cache-versions.test.ts
-- checks the list. Others (one_time_tokens, audit_log, ...) pay nothing.
SELECT cache_watch(name::regclass) FROM unnest(ARRAY['app_settings', 'cart_items', 'job_applications',
	'job_counts', 'jobs', 'products', 'sessions', 'users']) AS name;
--> statement-breakpoint
DELETE FROM app_settings WHERE key = 'catalogue_version';
