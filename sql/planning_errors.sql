-- planning_errors: errors the planner raises while folding constants (a
-- constant 1/0 in a CASE branch) depend, as under PL/pgSQL, on whether the
-- plan cache builds a custom plan (the variables' values folded in, the
-- branch dropped) or the generic one: the first execution builds the
-- generic plan (for expressions and for SELECT ... INTO / PERFORM of the
-- same shape), later ones go through the plan cache, which makes custom
-- plans until five have succeeded and then tries the generic one again.
-- Calls in separate transactions and calls in one transaction, with the
-- errors caught, and plan_cache_mode forcing either kind.

CREATE FUNCTION pe_assign(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE x int;
BEGIN
  x := CASE WHEN n > 0 THEN 1 ELSE 1/0 END;
  RETURN x;
END $$;
CREATE FUNCTION pe_into(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE x int;
BEGIN
  SELECT CASE WHEN n > 0 THEN 2 ELSE 1/0 END INTO x;
  RETURN x;
END $$;
CREATE FUNCTION pe_perform(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  PERFORM CASE WHEN n > 0 THEN 3 ELSE 1/0 END;
  RETURN 3;
END $$;
CREATE FUNCTION pe_if(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF (CASE WHEN n > 0 THEN true ELSE 1/0 = 1 END) THEN
    RETURN 4;
  END IF;
  RETURN -4;
END $$;

-- one call per statement: each its own transaction
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_assign(-1);
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_assign(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_into(1);
SELECT pe_perform(1);
SELECT pe_perform(1);
SELECT pe_if(1);
SELECT pe_if(1);

-- many calls in one transaction, each error caught where it happens
CREATE FUNCTION pe_loop(fname text, args int[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  a int;
  r int;
  out text := '';
BEGIN
  FOREACH a IN ARRAY args LOOP
    BEGIN
      EXECUTE format('SELECT %I($1)', fname) INTO r USING a;
      out := out || r || ' ';
    EXCEPTION WHEN division_by_zero THEN
      out := out || 'E ';
    END;
  END LOOP;
  RETURN out;
END $$;
-- a new session compiles the functions afresh
\c
SELECT pe_loop('pe_assign', '{1,1,-1,1,1,1,1,1,1,-1,1}');
SELECT pe_loop('pe_into', '{-1,1,1,1,1,1,1,1}');
SELECT pe_loop('pe_if', '{1,1,1,1,1,1,1,1}');

-- the same expression inside the loop of one function
CREATE FUNCTION pe_inner_loop(args int[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  n int;
  x int;
  out text := '';
BEGIN
  FOREACH n IN ARRAY args LOOP
    BEGIN
      x := CASE WHEN n > 0 THEN n ELSE 1/0 END;
      out := out || x || ' ';
    EXCEPTION WHEN division_by_zero THEN
      out := out || 'E ';
    END;
  END LOOP;
  RETURN out;
END $$;
SELECT pe_inner_loop('{1,2,-3,4,5,6,7,8,9,-10,11}');
-- a constant error with no variable: every execution fails
CREATE FUNCTION pe_const(k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x int;
  out text := '';
BEGIN
  FOR i IN 1..k LOOP
    BEGIN
      x := 1/0;
      out := out || x || ' ';
    EXCEPTION WHEN division_by_zero THEN
      out := out || 'E ';
    END;
  END LOOP;
  RETURN out;
END $$;
SELECT pe_const(8);

-- plan_cache_mode decides for the plan cache
\c
SET plan_cache_mode = force_custom_plan;
SELECT pe_loop('pe_assign', '{1,1,-1,1,1,1,1,1,1,-1,1}');
SELECT pe_inner_loop('{1,2,-3,4,5,6,7,8,9,-10,11}');
\c
SET plan_cache_mode = force_generic_plan;
SELECT pe_loop('pe_assign', '{1,1,-1,1,1,1,1,1,1,-1,1}');
SELECT pe_inner_loop('{1,2,-3,4,5,6,7,8,9,-10,11}');

-- a constant error, again in later transactions, and gone once the
-- function that raised it is replaced
CREATE FUNCTION pe_inv(n int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 100 / $1 $$;
CREATE FUNCTION pe_uses_inv(k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x int;
  out text := '';
BEGIN
  FOR i IN 1..k LOOP
    BEGIN
      x := pe_inv(0);
      out := out || x || ' ';
    EXCEPTION WHEN division_by_zero THEN
      out := out || 'E ';
    END;
  END LOOP;
  RETURN out;
END $$;
\c
SELECT pe_uses_inv(3);
SELECT pe_uses_inv(3);
SELECT pe_const(3);
SELECT pe_const(3);
CREATE OR REPLACE FUNCTION pe_inv(n int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 100 / ($1 + 1) $$;
SELECT pe_uses_inv(3);
BEGIN;
SELECT pe_uses_inv(2);
CREATE OR REPLACE FUNCTION pe_inv(n int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 100 / $1 $$;
SELECT pe_uses_inv(2);
CREATE OR REPLACE FUNCTION pe_inv(n int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 7 $$;
SELECT pe_uses_inv(2);
COMMIT;
