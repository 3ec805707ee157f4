-- A notification written also moves its reader's share of the versions (decision 1500's mechanism):
-- `notifications@<the first two hex digits of the reader's id>`, 256 shares. The bell and the notification
-- centre depend on their reader's share only (NOTIFICATION_READS in apps/api/src/features/jobs/view.ts),
-- so a checkout telling the admins of a new job no longer makes every reader's copy again. The table's
-- own `notifications` version still moves as before.
CREATE FUNCTION cache_note_notification_readers() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		INSERT INTO cache_changes (txid, name)
			SELECT txid_current(), 'notifications@' || lpad(to_hex(n), 2, '0') FROM generate_series(0, 255) AS n
			ON CONFLICT DO NOTHING;
	ELSE
		INSERT INTO cache_changes (txid, name)
			SELECT DISTINCT txid_current(), 'notifications@' || left(user_id::text, 2) FROM cache_rows
			ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cache_readers_insert AFTER INSERT ON notifications REFERENCING NEW TABLE AS cache_rows
	FOR EACH STATEMENT EXECUTE FUNCTION cache_note_notification_readers();
--> statement-breakpoint
CREATE TRIGGER cache_readers_update AFTER UPDATE ON notifications REFERENCING NEW TABLE AS cache_rows
	FOR EACH STATEMENT EXECUTE FUNCTION cache_note_notification_readers();
--> statement-breakpoint
CREATE TRIGGER cache_readers_delete AFTER DELETE ON notifications REFERENCING OLD TABLE AS cache_rows
	FOR EACH STATEMENT EXECUTE FUNCTION cache_note_notification_readers();
--> statement-breakpoint
CREATE TRIGGER cache_readers_truncate AFTER TRUNCATE ON notifications
	FOR EACH STATEMENT EXECUTE FUNCTION cache_note_notification_readers();
