-- The job page, the notification centre and the bell are cached responses (JOB_THREAD_READS,
-- NOTIFICATION_READS): their tables move their versions.
SELECT cache_watch(name::regclass) FROM unnest(ARRAY['job_events', 'job_reads', 'notifications']) AS name;
