-- plnimble_check_function(): the findings added for plpgsql_check's own
-- regression suite (issue 29), one function each, with fatal_errors off so
-- that every finding of a function shows.
CREATE EXTENSION IF NOT EXISTS plnimble;
SET client_min_messages = warning;
CREATE TABLE cf_t (a int, b int);
CREATE TABLE cf_plain ();
CREATE TYPE cf_pair AS (a int, b int);
CREATE TYPE cf_mixed AS (a int, b numeric);

-- a write in a function that is not VOLATILE; a query whose result goes
-- nowhere
CREATE FUNCTION cf_stable() RETURNS void STABLE AS $$
BEGIN
  IF false THEN
    INSERT INTO cf_t VALUES (1, 2);
    SELECT * FROM cf_t;
    UPDATE cf_t SET a = 1 RETURNING *;
  END IF;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message FROM plnimble_check_function_tb('cf_stable', fatal_errors => false);

-- transaction control where it cannot run; GET STACKED DIAGNOSTICS
-- outside a handler (and inside one: fine)
CREATE FUNCTION cf_rollback() RETURNS void AS $$
DECLARE m text;
BEGIN
  ROLLBACK;
  GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message FROM plnimble_check_function_tb('cf_rollback', fatal_errors => false);
CREATE PROCEDURE cf_commit() AS $$
BEGIN
  COMMIT;
  BEGIN
    COMMIT;
  EXCEPTION WHEN others THEN
    COMMIT;
  END;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message FROM plnimble_check_function_tb('cf_commit', fatal_errors => false);

-- sequence functions on a table; CALL's output arguments; a CONSTANT cursor
CREATE PROCEDURE cf_out(a int, OUT b int) AS $$ BEGIN b := a; END; $$ LANGUAGE plnimble;
CREATE FUNCTION cf_misc() RETURNS void AS $$
DECLARE
  k constant int := 1;
  v int;
  c constant refcursor;
BEGIN
  PERFORM nextval('cf_plain');
  CALL cf_out(1, v + 1);
  CALL cf_out(1, k);
  CALL cf_out(1, v);
  OPEN c FOR SELECT 1;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message FROM plnimble_check_function_tb('cf_misc', fatal_errors => false);

-- RETURN and RETURN NEXT of a composite with other columns; a composite
-- column into a scalar field
CREATE FUNCTION cf_ret() RETURNS cf_mixed AS $$
DECLARE x cf_pair;
BEGIN
  RETURN x;
END;
$$ LANGUAGE plnimble;
CREATE FUNCTION cf_ret_next() RETURNS SETOF cf_mixed AS $$
DECLARE x cf_pair;
BEGIN
  RETURN NEXT x;
  RETURN NEXT (1, 2)::cf_t;
END;
$$ LANGUAGE plnimble;
CREATE FUNCTION cf_into() RETURNS void AS $$
DECLARE v cf_pair;
BEGIN
  SELECT (1, 2)::cf_pair INTO v;
  SELECT ((1, 2)::cf_pair).* INTO v;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message, detail FROM plnimble_check_function_tb('cf_ret', fatal_errors => false);
SELECT lineno, sqlstate, message, detail FROM plnimble_check_function_tb('cf_ret_next', fatal_errors => false);
SELECT lineno, sqlstate, level, message FROM plnimble_check_function_tb('cf_into', fatal_errors => false);

-- format() with a constant format string
CREATE FUNCTION cf_format(a text, b text) RETURNS text AS $$
DECLARE s text;
BEGIN
  s := format('%s');
  s := format('%s %10s %1$s', a, b);
  s := format('%s %s', a, b, a);
  s := format('%s %d', a, b);
  RETURN s;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, level, message FROM plnimble_check_function_tb('cf_format', fatal_errors => false);

-- EXECUTE of a string known now: analysed with the USING values' types
CREATE FUNCTION cf_exec() RETURNS void AS $$
DECLARE
  r record;
  p cf_pair;
  n int;
BEGIN
  EXECUTE 'SELECT $1';
  EXECUTE 'SELECT 1' USING n;
  EXECUTE 'SELECT $1.c' INTO n USING p;
  EXECUTE 'CREATE TABLE cf_x (a int)' INTO n;
  EXECUTE format('SELECT %L::date + 1 AS x', now()) INTO r;
  RAISE NOTICE '%', r.y;
  FOR r IN EXECUTE 'SELECT 1 AS a' LOOP
    RAISE NOTICE '%', r.b;
  END LOOP;
  EXECUTE format('CREATE TABLE cf_y %I (a int)', 'x');
  EXECUTE format('DO %L', 'BEGIN END');
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, level, message FROM plnimble_check_function_tb('cf_exec', fatal_errors => false);

-- records take the row type of what fills them: a function with OUT
-- parameters, an array element, FETCH from a cursor opened for a query;
-- a field target the record lacks
CREATE FUNCTION cf_out2(OUT a int, OUT b int) AS $$ BEGIN a := 1; b := 2; END; $$ LANGUAGE plnimble;
CREATE FUNCTION cf_records() RETURNS void AS $$
DECLARE
  r record;
  s record;
  t record;
  arr cf_pair[];
  c refcursor;
  e record;
BEGIN
  r := cf_out2();
  RAISE NOTICE '%', r.c;
  s := arr[1];
  RAISE NOTICE '%', s.c;
  OPEN c FOR SELECT 1 AS a;
  FETCH c INTO t;
  RAISE NOTICE '%', t.c;
  e := NULL::cf_pair;
  SELECT 1 INTO e.c;
END;
$$ LANGUAGE plnimble;
SELECT lineno, sqlstate, message FROM plnimble_check_function_tb('cf_records', fatal_errors => false);

-- conversions, graded: assignment cast (performance), explicit only
-- (warning), none (warning); FOREACH elements too; constants are not
-- reported
CREATE FUNCTION cf_casts(q numeric, t text, d date) RETURNS int AS $$
DECLARE
  i int;
  arr date[] := ARRAY[d];
BEGIN
  i := q;
  i := t;
  i := d;
  i := '12';
  FOREACH i IN ARRAY arr LOOP
  END LOOP;
  RETURN i;
END;
$$ LANGUAGE plnimble;
SELECT lineno, level, detail, hint FROM plnimble_check_function_tb('cf_casts', performance_warnings => true, extra_warnings => false);

-- volatility: a VOLATILE function that could be IMMUTABLE or STABLE, a
-- STABLE one that could be IMMUTABLE; none for one that writes
CREATE FUNCTION cf_vol_i(a int) RETURNS int AS $$ BEGIN RETURN a + 1; END; $$ LANGUAGE plnimble;
CREATE FUNCTION cf_vol_s(a int) RETURNS int AS $$ BEGIN RETURN (SELECT count(*) FROM cf_t) + a; END; $$ LANGUAGE plnimble;
CREATE FUNCTION cf_vol_si(a int) RETURNS int STABLE AS $$ BEGIN RETURN a + 1; END; $$ LANGUAGE plnimble;
CREATE FUNCTION cf_vol_v(a int) RETURNS int AS $$ BEGIN INSERT INTO cf_t VALUES (a, a); RETURN a; END; $$ LANGUAGE plnimble;
SELECT p.proname, t.message
  FROM pg_proc p, plnimble_check_function_tb(p.oid::regprocedure, performance_warnings => true) t
 WHERE p.proname LIKE 'cf_vol_%' ORDER BY 1;

DROP FUNCTION cf_stable(), cf_rollback(), cf_misc(), cf_ret(), cf_ret_next(),
  cf_into(), cf_format(text, text), cf_exec(), cf_out2(), cf_records(),
  cf_casts(numeric, text, date), cf_vol_i(int), cf_vol_s(int), cf_vol_si(int),
  cf_vol_v(int);
DROP PROCEDURE cf_commit(), cf_out(int, int);
DROP TYPE cf_pair, cf_mixed;
DROP TABLE cf_t, cf_plain;
