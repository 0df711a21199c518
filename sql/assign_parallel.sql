-- assign_parallel: what an assignment or a default computes is planned
-- without parallel query, as PL/pgSQL plans what it assigns (its
-- exec_assign_expr prepares with no cursor options), also when the plan
-- view planned the function first; a query run as a statement (PERFORM)
-- may run in parallel.  Under force_parallel_mode = on
-- (debug_parallel_query from 16 on) a parallel plan runs in parallel
-- mode, where writing fails: a function labelled PARALLEL SAFE that
-- inserts shows which queries ran so.  Every line must be PL/pgSQL's.

CREATE TABLE ap_log (n int);
CREATE TABLE ap_src (k int);
INSERT INTO ap_src SELECT g FROM generate_series(1, 10) g;
-- mislabelled on purpose: it writes
CREATE FUNCTION ap_note(k int) RETURNS int LANGUAGE sql PARALLEL SAFE AS $$
    INSERT INTO ap_log VALUES (k) RETURNING k
$$;
CREATE FUNCTION ap_assign() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int;
BEGIN
    x := (SELECT max(ap_note(k)) FROM ap_src);
    x := x + max(ap_note(k)) FROM ap_src;
    RETURN x;
END
$$;
CREATE FUNCTION ap_default() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int := min(ap_note(k)) FROM ap_src;
BEGIN
    RETURN x;
END
$$;
CREATE FUNCTION ap_perform() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    PERFORM max(ap_note(k)) FROM ap_src;
    RETURN 1;
END
$$;
CREATE FUNCTION ap_select_into() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int;
BEGIN
    SELECT max(ap_note(k)) INTO x FROM ap_src;
    RETURN x;
END
$$;

-- (16 renamed force_parallel_mode to debug_parallel_query)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
SET :parallel_guc = on;
\set VERBOSITY terse
SELECT ap_assign();
SELECT ap_default();
SELECT ap_perform();
SELECT ap_select_into();
SELECT count(*) FROM ap_log;

-- the plan view plans them first: the run must keep its own options
RESET :parallel_guc;
CREATE FUNCTION ap_assign2() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int := min(ap_note(k)) FROM ap_src;
BEGIN
    x := max(ap_note(k)) FROM ap_src;
    RETURN x;
END
$$;
CREATE FUNCTION ap_view(fn regprocedure) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_plan') IS NULL THEN
        RETURN true;
    END IF;
    EXECUTE 'SELECT count(*) FROM pg_catalog.plnimble_savepoint_plan($1)' INTO n USING fn;
    RETURN n > 0;
END
$$;
SELECT ap_view('ap_assign2()') AS planned;
SET :parallel_guc = on;
SELECT ap_assign2();
SELECT count(*) FROM ap_log;
