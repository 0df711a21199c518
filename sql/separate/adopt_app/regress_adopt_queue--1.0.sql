-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
-- regress_adopt_queue 1.0: a job queue in schema queue, its routines in
-- PL/pgSQL and SQL, naming the schema's type and table unqualified.
\echo Use "CREATE EXTENSION regress_adopt_queue" to load this file. \quit

CREATE TYPE job_state AS ENUM ('new', 'taken', 'done', 'failed');
CREATE TABLE job (
    id serial PRIMARY KEY,
    payload text NOT NULL,
    state job_state NOT NULL DEFAULT 'new',
    tries int NOT NULL DEFAULT 0);

-- called with the application's search path
CREATE FUNCTION push(p text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    j job;
BEGIN
    INSERT INTO job (payload) VALUES (p) RETURNING * INTO j;
    RETURN j.id;
END
$$;

-- with a search path of its own
CREATE FUNCTION take() RETURNS job LANGUAGE plpgsql
SET search_path = @extschema@, pg_temp AS $$
DECLARE
    j job;
BEGIN
    SELECT * INTO j FROM job WHERE state = 'new' ORDER BY id LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    UPDATE job SET state = 'taken', tries = tries + 1 WHERE id = j.id
        RETURNING * INTO j;
    RETURN j;
END
$$;

CREATE FUNCTION finish(i int, ok boolean) RETURNS job_state LANGUAGE plpgsql AS $$
DECLARE
    s job_state;
BEGIN
    UPDATE job SET state = CASE WHEN ok THEN 'done' ELSE 'failed' END::job_state
     WHERE id = i RETURNING state INTO s;
    RETURN s;
END
$$;

CREATE FUNCTION pending() RETURNS bigint LANGUAGE sql STABLE
AS $$ SELECT count(*) FROM @extschema@.job WHERE state = 'new' $$;
