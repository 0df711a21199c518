-- stack_depth: deep nesting and deep recursion end in "stack depth limit
-- exceeded", never in a crash.  With max_stack_depth at its minimum,
-- 3,000 nested blocks, IFs and declarations, each evaluating something,
-- fail under both languages; 3,000 nested blocks at the default setting
-- run; a function that calls itself without end fails.  (Where exactly
-- the limit is met differs: PL/pgSQL notices it only when an SQL
-- expression is prepared, plnimble also at every nested statement, and its
-- frames are smaller; terse messages hide the CONTEXT that would say where.)
-- The bodies are built by a query into the psql variable "body".
\set VERBOSITY terse
SELECT 'DECLARE y int; BEGIN ' || repeat('BEGIN ', 3000) || 'RAISE NOTICE ''deepest block reached'';' ||
       repeat(' END;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_blocks_default() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_blocks_default();
SET max_stack_depth = '100kB';
SELECT 'DECLARE y int; BEGIN ' || repeat('BEGIN y := 1; ', 3000) || 'NULL;' ||
       repeat(' END;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_assign() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_assign();
SELECT 'DECLARE y int; BEGIN ' || repeat('BEGIN PERFORM 1; ', 3000) || 'NULL;' ||
       repeat(' END;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_perform() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_perform();
SELECT 'DECLARE y int; BEGIN ' || repeat('DECLARE z int := 1; BEGIN ', 3000) || 'NULL;' ||
       repeat(' END;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_declare() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_declare();
SELECT 'DECLARE y int; BEGIN ' || repeat('IF y IS NULL THEN ', 3000) || 'NULL;' ||
       repeat(' END IF;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_if() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_if();
SELECT 'DECLARE y int; BEGIN ' || repeat('BEGIN y := 1; ', 1000) || 'NULL;' ||
       repeat(' EXCEPTION WHEN division_by_zero THEN NULL; END;', 1000) || ' END' AS body \gset
CREATE FUNCTION sd_handlers() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_handlers();
SELECT 'DECLARE y int; BEGIN ' || repeat('BEGIN ', 3000) || 'y := 1;' ||
       repeat(' END;', 3000) || ' END' AS body \gset
CREATE FUNCTION sd_innermost() RETURNS void LANGUAGE plnimble AS :'body';
SELECT sd_innermost();
RESET max_stack_depth;
CREATE FUNCTION sd_recurse(n int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  RETURN sd_recurse(n + 1);
END $$;
SELECT sd_recurse(1);
CREATE FUNCTION sd_recurse_block(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE r int;
BEGIN
  BEGIN
    r := sd_recurse_block(n + 1);
  EXCEPTION WHEN division_by_zero THEN
    r := 0;
  END;
  RETURN r;
END $$;
SELECT sd_recurse_block(1);
-- the session is fine afterwards
SELECT 1 AS still_here;
