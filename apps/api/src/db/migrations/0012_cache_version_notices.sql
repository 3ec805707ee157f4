-- The embedded database tells this process of each version it moves (db/cache-versions.ts,
-- decision 1500): a `cache_versions` notice per moved version, sent at commit, only on a session
-- that asked for them (`legalmarket.cache_notify`), so a server's connections send none.
CREATE OR REPLACE FUNCTION cache_bump_versions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
	changed text;
	moved bigint;
	notify boolean := coalesce(current_setting('legalmarket.cache_notify', true), '') = 'on';
BEGIN
	FOR changed IN
		WITH gone AS (DELETE FROM cache_changes WHERE txid = txid_current() RETURNING name)
		SELECT DISTINCT name FROM gone ORDER BY name
	LOOP
		INSERT INTO cache_versions (name, version) VALUES (changed, 1)
			ON CONFLICT (name) DO UPDATE SET version = cache_versions.version + 1
			RETURNING version INTO moved;
		IF notify THEN
			PERFORM pg_notify('cache_versions', changed || ' ' || moved);
		END IF;
	END LOOP;
	RETURN NULL;
END $$;
