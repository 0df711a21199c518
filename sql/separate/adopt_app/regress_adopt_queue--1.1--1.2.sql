-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
-- regress_adopt_queue 1.1 -> 1.2: finish() and retry() created again, in
-- the LANGUAGE of their text.
\echo Use "ALTER EXTENSION regress_adopt_queue UPDATE" to load this file. \quit

CREATE OR REPLACE FUNCTION finish(i int, ok boolean) RETURNS job_state LANGUAGE plpgsql AS $$
DECLARE
    s job_state;
BEGIN
    UPDATE job SET state = CASE WHEN ok THEN 'done' ELSE 'failed' END::job_state
     WHERE id = i AND state = 'taken' RETURNING state INTO s;
    RETURN s;
END
$$;

CREATE OR REPLACE FUNCTION retry(i int) RETURNS job_state LANGUAGE plpgsql AS $$
DECLARE
    s job_state;
BEGIN
    UPDATE job SET state = 'new' WHERE id = i AND state = 'failed'
        RETURNING state INTO s;
    RETURN s;
END
$$;
