-- The tracer (plnimble.tracer): a NOTICE per function entry (with the
-- argument values, cut to plnimble.tracer_variable_max_length) and exit,
-- and per statement with plnimble.tracer_verbosity = statements; nested
-- calls show their depth; plnimble.tracer_level; the tracer and the
-- profiler attached to the plugin hook at once; only superusers may turn
-- it on.  plnimble.tracer_test_mode hides the times, which vary.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has no tracer.

CREATE FUNCTION tr_inner(a int, b text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN b || a;
END
$$;

CREATE FUNCTION tr_outer(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r text := '';
BEGIN
  FOR i IN 1..n LOOP
    r := r || tr_inner(i, 'x');
  END LOOP;
  RETURN r;
END
$$;

SET plnimble.tracer_test_mode = on;

-- off: nothing
SELECT tr_outer(2);

SET plnimble.tracer = on;
SELECT tr_outer(2);
SELECT tr_inner(NULL, repeat('abcdefghij', 3));
SET plnimble.tracer_variable_max_length = 12;
SELECT tr_inner(7, repeat('abcdefghij', 3));
RESET plnimble.tracer_variable_max_length;

SET plnimble.tracer_verbosity = statements;
SELECT tr_outer(1);

-- an error leaves the depth right for the next call
CREATE FUNCTION tr_div(a int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tr_inner(a, 'd');
  RETURN 1 / a;
END
$$;
SELECT tr_div(0);
SELECT tr_inner(2, 'y');

-- statements of an exception block that needs no subtransaction, and
-- the error it catches
CREATE FUNCTION tr_safe_div(a int, b int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    RETURN a / b;
  EXCEPTION WHEN division_by_zero THEN
    RETURN NULL;
  END;
END
$$;
SELECT tr_safe_div(1, 0);
SELECT * FROM plnimble_savepoint_stats() \gset before_
SELECT tr_safe_div(6, 3);
SELECT savepoints_materialized - :before_savepoints_materialized AS savepoints_started
  FROM plnimble_savepoint_stats();

-- the level: below client_min_messages, nothing shows
SET plnimble.tracer_verbosity = functions;
SET plnimble.tracer_level = debug1;
SELECT tr_inner(3, 'z');
RESET plnimble.tracer_level;

-- two consumers of the plugin hook at once: the tracer and the profiler
SET plnimble.profiler = on;
SELECT tr_inner(4, 'w');
SET plnimble.profiler = off;
SELECT lineno, exec_stmts, source
  FROM plnimble_profiler_function_tb('tr_inner(int, text)') WHERE exec_stmts > 0;

SET plnimble.tracer = off;
SELECT tr_outer(1);

-- superusers only
CREATE ROLE regress_tracer_user;
SET ROLE regress_tracer_user;
SET plnimble.tracer = on;
RESET ROLE;
DROP ROLE regress_tracer_user;
