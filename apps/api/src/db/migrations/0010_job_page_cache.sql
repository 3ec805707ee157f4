-- The job page is a cached response (JOB_THREAD_READS): its thread and read marks move its version.
SELECT cache_watch(name::regclass) FROM unnest(ARRAY['job_events', 'job_reads']) AS name;
