-- blockers_caught_errors: an error that leaves a handler and is caught by
-- an enclosing block that has its subtransaction used to be kept in the
-- memory of the handler's nesting depth; a block caught later inside the
-- outer handler freed that memory, and the outer handler's GET STACKED
-- DIAGNOSTICS and bare RAISE read freed memory (wrong texts, or worse).
-- The same error, never freed, was also a leak of a few hundred bytes per
-- error in session-lifetime memory.  Covered: the reproducer from the
-- fuzzer, bare RAISE and SQLERRM after nested catches, the lazy (no
-- subtransaction) outer block, the same in a loop and across a function
-- call, and the memory of a million-error loop in miniature.
\set VERBOSITY default
DO LANGUAGE plnimble $$
DECLARE x int; m text; d text;
BEGIN
  BEGIN
    PERFORM 1;
    BEGIN x := 1/0; EXCEPTION WHEN others THEN RAISE EXCEPTION 'first error' USING DETAIL = repeat('D', 20000); END;
  EXCEPTION WHEN others THEN
    BEGIN RAISE EXCEPTION 'nested one %', repeat('n', 30000); EXCEPTION WHEN others THEN NULL; END;
    BEGIN RAISE EXCEPTION 'nested two'; EXCEPTION WHEN others THEN NULL; END;
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
    RAISE NOTICE '% / %', m, length(d);
  END;
END $$;
-- bare RAISE and SQLERRM in the outer handler, after nested catches
CREATE FUNCTION ce_reraise(materialize boolean) RETURNS text LANGUAGE plnimble AS $$
DECLARE x int; m text; d text; h text;
BEGIN
  BEGIN
    BEGIN
      IF materialize THEN PERFORM 1; END IF;
      BEGIN
        x := 1/0;
      EXCEPTION WHEN division_by_zero THEN
        RAISE EXCEPTION 'from the handler' USING DETAIL = repeat('d', 5000),
          HINT = 'the hint', ERRCODE = '22012';
      END;
    EXCEPTION WHEN others THEN
      BEGIN RAISE EXCEPTION '%', repeat('x', 8000); EXCEPTION WHEN others THEN NULL; END;
      BEGIN x := 'not a number'; EXCEPTION WHEN others THEN NULL; END;
      RAISE NOTICE 'sqlerrm: %', sqlerrm;
      RAISE;
    END;
  EXCEPTION WHEN others THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL,
      h = PG_EXCEPTION_HINT;
    RETURN sqlstate || ' ' || m || ' ' || length(d) || ' ' || h;
  END;
END $$;
SELECT ce_reraise(true);
SELECT ce_reraise(false);
-- the bare RAISE reaches the caller unchanged
CREATE FUNCTION ce_escape() RETURNS void LANGUAGE plnimble AS $$
DECLARE x int;
BEGIN
  BEGIN
    PERFORM 1;
    BEGIN x := 1/0; EXCEPTION WHEN others THEN RAISE EXCEPTION 'escaped' USING DETAIL = 'the detail'; END;
  EXCEPTION WHEN others THEN
    BEGIN x := 1/0; EXCEPTION WHEN others THEN NULL; END;
    BEGIN RAISE 'again'; EXCEPTION WHEN others THEN NULL; END;
    RAISE;
  END;
END $$;
SELECT ce_escape();
-- in a loop, and with the error coming from a called function's handler
CREATE FUNCTION ce_thrower(i int) RETURNS int LANGUAGE plnimble AS $$
DECLARE x int;
BEGIN
  BEGIN
    x := i / 0;
  EXCEPTION WHEN others THEN
    RAISE EXCEPTION 'thrown %', i USING DETAIL = repeat('t', i * 100);
  END;
  RETURN x;
END $$;
CREATE FUNCTION ce_loop() RETURNS text LANGUAGE plnimble AS $$
DECLARE x int; m text; d text; s text := '';
BEGIN
  FOR i IN 1..5 LOOP
    BEGIN
      IF i % 2 = 0 THEN PERFORM 1; END IF;
      IF i > 3 THEN
        x := ce_thrower(i);
      ELSE
        BEGIN x := 1/0; EXCEPTION WHEN others THEN RAISE EXCEPTION 'loop %', i USING DETAIL = repeat('l', i * 100); END;
      END IF;
    EXCEPTION WHEN others THEN
      BEGIN RAISE EXCEPTION 'inner %', repeat('i', 3000); EXCEPTION WHEN others THEN NULL; END;
      BEGIN x := 'bad'; EXCEPTION WHEN others THEN NULL; END;
      GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
      s := s || m || ':' || length(d) || ' ';
    END;
  END LOOP;
  RETURN s;
END $$;
SELECT ce_loop();
-- memory: errors leaving a handler into a block with a subtransaction
-- must not pile up (each used to leave its copy behind)
CREATE FUNCTION ce_many(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE x int; caught int := 0; m text;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      PERFORM 1;
      BEGIN x := 1/0; EXCEPTION WHEN others THEN x := 'bad'; END;
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END $$;
CREATE TEMP TABLE ce_mem (at text, bytes bigint);
SELECT ce_many(100);
INSERT INTO ce_mem SELECT 'before', sum(total_bytes) FROM pg_backend_memory_contexts;
SELECT ce_many(20000);
INSERT INTO ce_mem SELECT 'after', sum(total_bytes) FROM pg_backend_memory_contexts;
SELECT (SELECT bytes FROM ce_mem WHERE at = 'after') -
       (SELECT bytes FROM ce_mem WHERE at = 'before') < 4 * 1024 * 1024
       AS memory_stays_flat;
