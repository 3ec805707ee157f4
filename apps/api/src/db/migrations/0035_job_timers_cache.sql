-- The job page names when the clock accepts a delivered job, read from its auto_accept timer
-- (docs/decisions/2331-a-delivered-job-names-its-automatic-acceptance.md): the page's cache
-- (JOB_THREAD_READS) depends on the timers, so their writes move its version.
SELECT cache_watch('job_timers');
