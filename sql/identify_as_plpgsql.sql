-- identify_as_plpgsql: with plnimble.identify_as_plpgsql on, every message,
-- CONTEXT line and compile error names the language as PL/pgSQL does:
-- runtime errors and their CONTEXT (nested calls, DO blocks, declaration
-- initialisers), GET DIAGNOSTICS PG_CONTEXT and GET STACKED DIAGNOSTICS
-- PG_EXCEPTION_CONTEXT, compilation errors at the first call, messages
-- that name the language, and the validator's.  This script's output is
-- compared with PL/pgSQL's without any renaming:
-- oracle: no normalisation
SET plnimble.identify_as_plpgsql = on;
SHOW plnimble.identify_as_plpgsql;

CREATE FUNCTION ia_inner(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'negative: %', n;
  END IF;
  RETURN 10 / n;
END $$;
CREATE FUNCTION ia_outer(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  r int;
BEGIN
  r := ia_inner(n) + 1;
  RETURN r;
END $$;
SELECT ia_outer(5);
SELECT ia_outer(-1);
SELECT ia_outer(0);
DO $$ BEGIN PERFORM ia_outer(-2); END $$;
DO $$ DECLARE x int := 1 / 0; BEGIN END $$;

-- the context as the body sees it
CREATE FUNCTION ia_context() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  ctx text;
BEGIN
  GET DIAGNOSTICS ctx = PG_CONTEXT;
  RETURN ctx;
END $$;
CREATE FUNCTION ia_context_caller() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN ia_context();
END $$;
SELECT ia_context_caller();
DO $$
DECLARE
  msg text;
  ctx text;
BEGIN
  PERFORM ia_outer(-3);
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RAISE NOTICE 'caught: % / %', msg, ctx;
END $$;

-- compilation errors reported at the first call
SET check_function_bodies = off;
CREATE FUNCTION ia_bad() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1
END $$;
SELECT ia_bad();
CREATE FUNCTION ia_bad_type() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  x no_such_type;
BEGIN
  RETURN 1;
END $$;
SELECT ia_bad_type();
RESET check_function_bodies;

-- messages that name the language
CREATE FUNCTION ia_anyarg(x cstring) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
CREATE FUNCTION ia_anyret() RETURNS cstring LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
DO $$ BEGIN SAVEPOINT s; END $$;
CREATE TABLE ia_t (a int);
CREATE FUNCTION ia_ambiguous(a int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT a FROM ia_t);
END $$;
SELECT ia_ambiguous(1);
DO $$ BEGIN COPY ia_t TO STDOUT; END $$;

-- the setting is per session and may change at any time
SET plnimble.identify_as_plpgsql = off;
SET plnimble.identify_as_plpgsql = on;
SELECT ia_outer(-4);
RESET plnimble.identify_as_plpgsql;
