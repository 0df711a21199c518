-- plnimble_check_function() called as plpgsql_check 2.3's
-- plpgsql_check_function() is (issue 29): the routine as a bare name or as
-- text with its argument types, every keyword argument, the text, XML and
-- JSON formats; pragmas (plnimble_check_pragma, and plpgsql_check_pragma
-- as plpgsql_check's users wrote it); passive mode (check_on_first_call,
-- check_on_every_call, check_fatal_errors, DO blocks).
CREATE EXTENSION IF NOT EXISTS plnimble;
SET client_min_messages = warning;

CREATE TABLE ccf_t (a int, b text);

CREATE FUNCTION ccf_missing() RETURNS void AS $$
BEGIN
  INSERT INTO ccf_nosuch VALUES (1);
END;
$$ LANGUAGE plnimble;

-- the routine: a bare name (unique), text with types, a regprocedure
SELECT * FROM plnimble_check_function('ccf_missing');
SELECT * FROM plnimble_check_function('ccf_missing()');
SELECT * FROM plnimble_check_function('ccf_missing()'::regprocedure);
SELECT lineno, sqlstate, level FROM plnimble_check_function_tb('ccf_missing');

-- a bare name that is not unique, or unknown: regproc's errors
CREATE FUNCTION ccf_two(int) RETURNS int AS $$ BEGIN RETURN $1; END; $$ LANGUAGE plnimble;
CREATE FUNCTION ccf_two(text) RETURNS text AS $$ BEGIN RETURN $1; END; $$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_two');
SELECT * FROM plnimble_check_function('ccf_nosuch_function');
SELECT * FROM plnimble_check_function('ccf_two(text)');

-- the formats: one document each
SELECT * FROM plnimble_check_function('ccf_missing', format => 'xml');
SELECT * FROM plnimble_check_function('ccf_missing', format => 'json');
SELECT * FROM plnimble_check_function('ccf_missing', format => 'yaml');
-- a function without findings has no document
SELECT count(*) FROM plnimble_check_function('ccf_two(text)', format => 'json');

-- security_warnings: EXECUTE of a concatenated parameter is a security
-- finding, shown only when asked for
CREATE FUNCTION ccf_dyn(p text) RETURNS void AS $$
BEGIN
  EXECUTE 'SELECT ' || p;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_dyn');
SELECT * FROM plnimble_check_function('ccf_dyn', security_warnings => true);
-- a local variable too, through format's %s; not once it holds a quoted value
CREATE FUNCTION ccf_dyn2(p text) RETURNS void AS $$
DECLARE v varchar;
BEGIN
  EXECUTE format('SELECT * FROM %s', v);
  v := quote_ident(p);
  EXECUTE 'SELECT * FROM ' || v;
  v := v || p;
  EXECUTE 'SELECT * FROM ' || v;
END;
$$ LANGUAGE plnimble;
SELECT lineno, level, message FROM plnimble_check_function_tb('ccf_dyn2', security_warnings => true);
DROP FUNCTION ccf_dyn2(text);
-- all_warnings turns every class on, without_warnings every class off
SELECT level, message FROM plnimble_check_function_tb('ccf_dyn', all_warnings => true);
SELECT count(*) FROM plnimble_check_function_tb('ccf_dyn', without_warnings => true);
SELECT * FROM plnimble_check_function('ccf_dyn', without_warnings => true, all_warnings => true);
-- only the default types for polymorphic parameters
SELECT * FROM plnimble_check_function('ccf_dyn', anyelememttype => 'int');
SELECT * FROM plnimble_check_function('ccf_dyn', anyelememttype => 'text');

-- pragmas: disable:check to the end of the statement list
CREATE FUNCTION ccf_pragma() RETURNS void AS $$
DECLARE r record;
BEGIN
  IF false THEN
    PERFORM plnimble_check_pragma('disable:check');
    RAISE NOTICE '%', r.y;
  END IF;
  SELECT 10 AS a, 20 AS b INTO r;
  RAISE NOTICE '%', r.a;
  RAISE NOTICE '%', r.x;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_pragma', fatal_errors => false);

-- plpgsql_check's name is read too (it need not exist: not analysed)
CREATE FUNCTION ccf_pragma2() RETURNS void AS $$
DECLARE r record;
BEGIN
  PERFORM plpgsql_check_pragma('disable:check');
  RAISE NOTICE '%', r.y;
  PERFORM plpgsql_check_pragma('enable:check');
  RAISE NOTICE '%', r.z;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_pragma2', fatal_errors => false);

-- the warning classes by name (pln_warning_classes): a disable: pragma
-- holds to the end of its block; an unknown class is not processed
CREATE FUNCTION ccf_classes() RETURNS void AS $$
BEGIN
  BEGIN
    PERFORM plnimble_check_pragma('disable:EXTRA_WARNINGS');
    RETURN;
    RAISE NOTICE 'not reported: extra_warnings are off in this block';
  END;
  BEGIN
    RETURN;
    RAISE NOTICE 'reported: the pragma ended with its block';
  END;
  PERFORM plnimble_check_pragma('disable:nonsense_warnings');
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_classes');
-- in-comment options by class: every class off, then extra_warnings on
CREATE FUNCTION ccf_incomment_classes() RETURNS void AS $$
-- @plpgsql_check_options: without_warnings = on, extra_warnings = on
DECLARE unused int;
BEGIN
  RETURN;
  RAISE NOTICE 'unreachable: an extra warning';
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_incomment_classes');

-- type: a record's row type, by name or as a column list
CREATE TYPE ccf_ctype AS (a int, b int);
CREATE FUNCTION ccf_type() RETURNS void AS $$
<<x>>DECLARE r record; s record;
BEGIN
  PERFORM plnimble_check_pragma('type: x.r public."ccf_ctype"', 'type: s (c int, d text)');
  RAISE NOTICE '% %', r.a, s.d;
  RAISE NOTICE '%', r.nosuch;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_type');
-- malformed and unknown pragmas: a warning, and no effect
CREATE FUNCTION ccf_badpragma() RETURNS void AS $$
DECLARE r record;
BEGIN
  PERFORM plnimble_check_pragma('type: r (a int, b int', 'sequence: xx');
  RAISE NOTICE '%', r.a;
END;
$$ LANGUAGE plnimble;
SET client_min_messages = notice;
SELECT * FROM plnimble_check_function('ccf_badpragma');
SET client_min_messages = warning;

-- table: a temporary table the function creates for itself; it does not
-- survive the check
CREATE FUNCTION ccf_table() RETURNS void AS $$
DECLARE r record;
BEGIN
  CREATE TEMP TABLE ccf_tmp (LIKE ccf_t);
  PERFORM plnimble_check_pragma('table: ccf_tmp(like ccf_t)');
  SELECT * FROM ccf_tmp INTO r;
  RAISE NOTICE '%', r.b;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_table');
SELECT to_regclass('ccf_tmp') IS NULL AS no_table_left;
-- at run time the pragma returns 1
SELECT plnimble_check_pragma('disable:check');

-- options in the function's comments override the call's arguments
CREATE FUNCTION ccf_incomment() RETURNS void AS $$
-- @plpgsql_check_options: fatal_errors = false, other_warnings = off
DECLARE unused int;
BEGIN
  INSERT INTO ccf_nosuch VALUES (1);
  INSERT INTO ccf_nosuch2 VALUES (1);
END;
$$ LANGUAGE plnimble;
-- both errors, and no unused-variable warning
SELECT * FROM plnimble_check_function('ccf_incomment');
-- as the call says: the check stops at the first error
SELECT * FROM plnimble_check_function('ccf_incomment', use_incomment_options => false);

-- an expression used as a value must give one column
CREATE FUNCTION ccf_columns() RETURNS void AS $$
BEGIN
  IF false THEN
    FOR i IN 1,3..(2) LOOP
      RAISE NOTICE '%', i;
    END LOOP;
  END IF;
END;
$$ LANGUAGE plnimble;
SELECT * FROM plnimble_check_function('ccf_columns');

-- plnimble_show_dependency_tb: what a function's statements use (not the
-- system's objects), by kind and name
CREATE FUNCTION ccf_f1(a int, b float) RETURNS int AS $$ BEGIN RETURN a; END; $$ LANGUAGE plnimble;
CREATE FUNCTION ccf_op(a int, b float) RETURNS int AS $$ BEGIN RETURN a; END; $$ LANGUAGE plnimble;
CREATE OPERATOR *** (PROCEDURE = ccf_op, LEFTARG = int, RIGHTARG = float);
CREATE FUNCTION ccf_uses(a int, b float) RETURNS void AS $$
DECLARE x int;
BEGIN
  x := ccf_f1(a, b) OPERATOR(public.***) 1;
  INSERT INTO ccf_t SELECT ccf_f1(a, b), 'x';
  PERFORM count(*) FROM ccf_t;
END;
$$ LANGUAGE plnimble;
SELECT type, schema, name, params FROM plnimble_show_dependency_tb('ccf_uses');
DROP FUNCTION ccf_uses(int, float);
DROP OPERATOR *** (int, float);
DROP FUNCTION ccf_f1(int, float), ccf_op(int, float);

-- passive mode: check_on_first_call checks once per compilation, whether
-- the check passes or not
SET plnimble.check_on_first_call = on;
SELECT ccf_missing();
SELECT ccf_missing();  -- not checked again: it runs, and fails at run time
CREATE OR REPLACE FUNCTION ccf_missing() RETURNS void AS $$
BEGIN
  IF false THEN
    INSERT INTO ccf_nosuch VALUES (1);
  END IF;
END;
$$ LANGUAGE plnimble;
SELECT ccf_missing();  -- recompiled: checked, fails
SELECT ccf_missing();  -- not checked again: runs
-- check_fatal_errors = off: the errors are warnings, the call goes on
SET plnimble.check_on_first_call = off;
SET plnimble.check_on_every_call = on;
SET plnimble.check_fatal_errors = off;
SELECT ccf_missing();
-- check_on_every_call: every call is checked
SET plnimble.check_fatal_errors = on;
SELECT ccf_missing();
-- the context names PL/pgSQL under identify_as_plpgsql, as plpgsql_check
SET plnimble.identify_as_plpgsql = on;
SELECT ccf_missing();
RESET plnimble.identify_as_plpgsql;
-- DO blocks are checked too
DO LANGUAGE plnimble $$
BEGIN
  IF false THEN
    INSERT INTO ccf_nosuch VALUES (1);
  END IF;
END;
$$;
RESET plnimble.check_on_every_call;
RESET plnimble.check_fatal_errors;

DROP FUNCTION ccf_missing(), ccf_two(int), ccf_two(text), ccf_dyn(text),
  ccf_pragma(), ccf_pragma2(), ccf_type(), ccf_badpragma(), ccf_table(),
  ccf_columns(), ccf_incomment();
DROP TYPE ccf_ctype;
DROP TABLE ccf_t;
