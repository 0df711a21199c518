-- lazy_savepoints: when exception blocks start their subtransaction.
-- The session counters of plnimble_savepoint_stats() prove it without
-- timing anything: pure blocks never start one, a block starts one right
-- before its first impure statement, nested blocks start theirs outermost
-- first, and plnimble.lazy_savepoints = off starts one on every entry.
-- plnimble_savepoint_plan() shows the same decisions for a function.
-- Also: thousands of errors caught without a savepoint leave no leaked
-- resources and no memory behind.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has neither
-- the counters nor the plan view.

-- counters since the previous call of sp_delta()
CREATE TABLE sp_prev AS SELECT * FROM plnimble_savepoint_stats();
CREATE FUNCTION sp_delta(OUT blocks bigint, OUT savepoints bigint,
                         OUT caught_lazy bigint, OUT caught_subxact bigint)
LANGUAGE sql AS $$
    WITH cur AS (SELECT * FROM plnimble_savepoint_stats()),
         old AS (SELECT * FROM sp_prev),
         upd AS (UPDATE sp_prev SET (blocks_entered, savepoints_materialized,
                                     errors_caught_lazy, errors_caught_subxact)
                     = (SELECT blocks_entered, savepoints_materialized,
                               errors_caught_lazy, errors_caught_subxact
                          FROM cur))
    SELECT cur.blocks_entered - old.blocks_entered,
           cur.savepoints_materialized - old.savepoints_materialized,
           cur.errors_caught_lazy - old.errors_caught_lazy,
           cur.errors_caught_subxact - old.errors_caught_subxact
      FROM cur, old
$$;
CREATE TABLE sp_t (a int PRIMARY KEY, note text);

-- 10,000 pure exception blocks start no savepoint.  Planning an
-- expression reads the catalogs: the very first run of the function plans
-- under a read guard where it can (issue 28), else it starts one
-- savepoint, once; after that the plans and the state of its
-- pure expressions are kept, and later calls, in the same transaction or
-- in new ones, start none.
CREATE FUNCTION sp_pure_loop(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            x := x + i % 7;
            IF x > 1000000 THEN
                x := 0;
            END IF;
        EXCEPTION WHEN OTHERS THEN
            RAISE NOTICE 'not reached';
        END;
    END LOOP;
    RETURN x;
END
$$;
SELECT * FROM sp_delta();
SELECT sp_pure_loop(10000);
SELECT * FROM sp_delta();
SELECT sp_pure_loop(10000);
SELECT * FROM sp_delta();
BEGIN;
SELECT sp_pure_loop(10000);
SELECT sp_pure_loop(10000);
SELECT * FROM sp_delta();
COMMIT;

-- array element assignment changes the array in place, and is pure.  An
-- expression is planned on its first run, under a read guard or a
-- savepoint (the first
-- failing assignment's runs in the second call); after that, 10,000
-- blocks assigning elements and catching subscript errors start none
CREATE FUNCTION sp_array_loop(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    a int[] := array_fill(0, ARRAY[10]);
    bad int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            a[(i % 10) + 1] := a[(i % 10) + 1] + i % 3;
            IF i % 1000 = 0 THEN
                a[i][1] := 1;
            END IF;
        EXCEPTION WHEN array_subscript_error THEN
            bad := bad + 1;
        END;
    END LOOP;
    RETURN a::text || ' ' || bad;
END
$$;
SELECT sp_array_loop(10);
SELECT * FROM sp_delta();
SELECT sp_array_loop(10000);
SELECT * FROM sp_delta();
SELECT sp_array_loop(10000);
SELECT * FROM sp_delta();
SELECT * FROM plnimble_savepoint_plan('sp_array_loop(int)');

-- a block with nothing to plan starts none even on first use
CREATE FUNCTION sp_empty_loop(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            NULL;
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
    RETURN n;
END
$$;
SELECT sp_empty_loop(10000);
SELECT * FROM sp_delta();

-- errors in pure code are caught without a savepoint (the first call
-- plans the function, under a read guard)
CREATE FUNCTION sp_safe_int(s text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    RETURN s::int;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN NULL;
END
$$;
BEGIN;
SELECT sp_safe_int('1');
SELECT * FROM sp_delta();
SELECT count(sp_safe_int(CASE WHEN i % 2 = 0 THEN i::text ELSE 'x' || i END))
  FROM generate_series(1, 1000) i;
SELECT * FROM sp_delta();
COMMIT;

-- the third statement is an INSERT: the savepoint starts there, once
CREATE FUNCTION sp_third_insert(k int, fail_at int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
BEGIN
    BEGIN
        x := 10 / (fail_at - 1);
        x := 10 / (fail_at - 2);
        INSERT INTO sp_t VALUES (k, 'third');
        x := 10 / (fail_at - 4);
        RETURN 'done';
    EXCEPTION WHEN division_by_zero THEN
        RETURN 'caught at ' || fail_at;
    END;
END
$$;
SELECT * FROM plnimble_savepoint_plan('sp_third_insert(int, int)');
SELECT sp_third_insert(1, 0);   -- runs through: one savepoint, released
SELECT * FROM sp_delta();
SELECT sp_third_insert(2, 2);   -- fails before the INSERT: no savepoint
SELECT * FROM sp_delta();
SELECT sp_third_insert(3, 4);   -- fails after it: rolled back
SELECT * FROM sp_delta();
SELECT * FROM sp_t ORDER BY a;

-- nested blocks start their savepoints outermost first, all at once,
-- when the innermost writes; each rolls back its own part
CREATE FUNCTION sp_nested(fail_in text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int := 1;
BEGIN
    BEGIN                                   -- outer
        x := x + 1;
        BEGIN                               -- middle
            x := x + 1;
            BEGIN                           -- inner
                x := x + 1;
                INSERT INTO sp_t VALUES (10 + x, 'inner ' || fail_in);
                IF fail_in = 'inner' THEN x := x / 0; END IF;
            EXCEPTION WHEN division_by_zero THEN
                RETURN 'inner caught, x=' || x;
            END;
            IF fail_in = 'middle' THEN x := x / 0; END IF;
        EXCEPTION WHEN division_by_zero THEN
            RETURN 'middle caught, x=' || x;
        END;
        IF fail_in = 'outer' THEN x := x / 0; END IF;
    EXCEPTION WHEN division_by_zero THEN
        RETURN 'outer caught, x=' || x;
    END;
    RETURN 'no error, x=' || x;
END
$$;
SELECT * FROM plnimble_savepoint_plan('sp_nested(text)');
DELETE FROM sp_t;
SELECT sp_nested('inner');
SELECT * FROM sp_delta();
SELECT sp_nested('middle');
SELECT * FROM sp_delta();
SELECT sp_nested('outer');
SELECT * FROM sp_delta();
SELECT sp_nested('none');
SELECT * FROM sp_delta();
SELECT * FROM sp_t ORDER BY a;

-- what makes a block start its savepoint
CREATE DOMAIN sp_posint AS int CHECK (VALUE > 0);
CREATE FUNCTION sp_reasons(s text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    d sp_posint;
    r record;
    n numeric(6, 2);
BEGIN
    BEGIN
        n := length(s) * 1.5;          -- allowlisted
        s := s || '!';                 -- allowlisted
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        s := md5(s);                   -- md5() is not on the allowlist
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        d := length(s);                -- a domain check
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        RAISE NOTICE 'clock %', clock_timestamp() IS NOT NULL;  -- nor this
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        SELECT 1 AS a INTO r;          -- SQL
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        s := s || (SELECT count(*) FROM sp_t);   -- a query
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    RETURN s;
END
$$;
SELECT * FROM plnimble_savepoint_plan('sp_reasons(text)');
BEGIN;
SELECT sp_reasons('ab');
SELECT * FROM sp_delta();
SELECT sp_reasons('ab');    -- planned: only the impure blocks start one
SELECT * FROM sp_delta();
COMMIT;

-- plnimble.lazy_savepoints = off: a savepoint on every entry, as PL/pgSQL
SET plnimble.lazy_savepoints = off;
SELECT sp_empty_loop(1000);
SELECT * FROM sp_delta();
SELECT sp_safe_int('x');
SELECT * FROM sp_delta();
RESET plnimble.lazy_savepoints;
SELECT sp_empty_loop(1000);
SELECT * FROM sp_delta();

-- the setting changed in the middle of a call applies from the next
-- block entry: only the middle block starts a savepoint (the first call
-- also plans its expressions, which needs one where a read guard will not
-- do)
CREATE FUNCTION sp_switch() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    n int := 0;
BEGIN
    BEGIN n := n + 1; EXCEPTION WHEN OTHERS THEN NULL; END;
    PERFORM set_config('plnimble.lazy_savepoints', 'off', true);
    BEGIN n := n + 1; EXCEPTION WHEN OTHERS THEN NULL; END;
    PERFORM set_config('plnimble.lazy_savepoints', 'on', true);
    BEGIN n := n + 1; EXCEPTION WHEN OTHERS THEN NULL; END;
    RETURN n;
END
$$;
SELECT sp_switch();
SELECT * FROM sp_delta();
SELECT sp_switch();
SELECT * FROM sp_delta();
SHOW plnimble.lazy_savepoints;

-- thousands of errors caught without a savepoint: no leak warnings at
-- commit, and the backend's memory does not grow with their number
CREATE FUNCTION sp_many_errors(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    caught int := 0;
    x int;
    s text;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            s := 'bad' || i;
            x := s::int;
        EXCEPTION WHEN invalid_text_representation THEN
            caught := caught + 1;
        END;
        BEGIN
            x := i / 0;
        EXCEPTION WHEN division_by_zero THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END
$$;
SELECT sp_many_errors(1000);
CREATE TABLE sp_mem AS
    SELECT sum(total_bytes) AS bytes FROM pg_backend_memory_contexts;
BEGIN;
SELECT sp_many_errors(20000);
COMMIT;
SELECT * FROM sp_delta();
SELECT (SELECT sum(total_bytes) FROM pg_backend_memory_contexts)
       - bytes < 256 * 1024 AS memory_flat
  FROM sp_mem;

-- a value stored out of line (TOAST) is fetched when the variable gets
-- it, at function entry for an argument: reading the variable later, in a
-- pure region, reads no table, and the blocks stay without savepoints
CREATE TABLE sp_big (id integer, t text);
ALTER TABLE sp_big ALTER COLUMN t SET STORAGE EXTERNAL;
INSERT INTO sp_big
    SELECT 1, string_agg(md5(g::text), '') FROM generate_series(1, 2000) g;
SELECT pg_column_size(t) > 60000 AS stored_out_of_line FROM sp_big;
CREATE FUNCTION sp_toasted(t text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer := 0;
BEGIN
    FOR i IN 1..100 LOOP
        BEGIN
            n := n + length(t);
            IF i % 10 = 0 THEN
                n := n / 0;
            END IF;
        EXCEPTION WHEN division_by_zero THEN
            n := n - 1;
        END;
    END LOOP;
    RETURN n || ' ' || md5(t);
END
$$;
-- (the first call plans the expressions, which takes savepoints where a
-- read guard will not do)
SELECT sp_toasted(t) FROM sp_big;
SELECT * FROM sp_delta();
SELECT sp_toasted(t) FROM sp_big;
SELECT * FROM sp_delta();

-- errors caught in a long loop do not make the call's memory grow while it
-- runs (the copy of each caught error is freed when its handler is done)
CREATE FUNCTION sp_mem_in_call(n integer) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    x integer;
    caught integer := 0;
    at_start bigint;
    at_end bigint;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            x := i / 0;
        EXCEPTION WHEN division_by_zero THEN
            caught := caught + 1;
        END;
        BEGIN
            RAISE EXCEPTION 'failure %', i;
        EXCEPTION WHEN OTHERS THEN
            BEGIN
                x := length(SQLERRM) / 0;
            EXCEPTION WHEN division_by_zero THEN
                caught := caught + 1;
            END;
        END;
        IF i = 1000 THEN
            SELECT sum(total_bytes) INTO at_start FROM pg_backend_memory_contexts;
        END IF;
    END LOOP;
    SELECT sum(total_bytes) INTO at_end FROM pg_backend_memory_contexts;
    RETURN caught = 2 * n AND at_end - at_start < 256 * 1024;
END
$$;
SELECT sp_mem_in_call(20000);

-- An append done in place (src/exec/text_append.c) is as pure as what it
-- appends: 10,000 blocks start no savepoint after the first run's
-- planning, and an error in the appended part is caught without one and
-- leaves the string as it was.
CREATE FUNCTION sp_text_append(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
    zero int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            s := s || 'k' || (i % 10)::text;
            IF i % 1000 = 0 THEN
                s := s || 'lost' || (1 / zero)::text;
            END IF;
        EXCEPTION WHEN division_by_zero THEN
            s := s || '!';
        END;
    END LOOP;
    RETURN length(s) || ' ' || right(s, 8);
END
$$;
SELECT * FROM sp_delta();
SELECT sp_text_append(10000);
SELECT * FROM sp_delta();
SELECT sp_text_append(10000);
SELECT * FROM sp_delta();

-- SELECT exprs INTO variables with no FROM runs as assignments: pure when
-- its expressions and conversions are, so after the first run's planning
-- 10,000 blocks start no savepoint; one that calls a volatile function
-- starts its block's savepoint every time.
CREATE SEQUENCE sp_seq;
CREATE FUNCTION sp_select_into(n int, impure boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
    y bigint;
    z int;
    zero int := 0;
    caught int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            SELECT x + 1 INTO x;
            SELECT x, x * 2 INTO x, z;
            IF impure THEN
                SELECT nextval('sp_seq') INTO y;
            END IF;
            IF i % 1000 = 0 THEN
                SELECT x / zero INTO x;
            END IF;
        EXCEPTION WHEN division_by_zero THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN x || ' ' || z || ' ' || caught || ' ' || FOUND;
END
$$;
SELECT sp_select_into(10000, false);
SELECT * FROM sp_delta();
SELECT sp_select_into(10000, false);
SELECT * FROM sp_delta();
SELECT sp_select_into(100, true);
SELECT * FROM sp_delta();
SELECT * FROM plnimble_savepoint_plan('sp_select_into(int, boolean)');

-- x := 'abc' into an integer fails as the literal is parsed; the error is
-- kept and raised again without parsing, so after the first failure in a
-- transaction 10,000 blocks start no savepoint and catch it cheaply.
CREATE FUNCTION sp_bad_literal(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
    caught int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            x := '42';
            x := 'abc';
        EXCEPTION WHEN invalid_text_representation THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN x + caught;
END
$$;
SELECT sp_bad_literal(10000);
SELECT * FROM sp_delta();
SELECT sp_bad_literal(10000);
-- the plan view plans the WHEN tests of CASE x as the executor runs them,
-- against the type of the search value (text here), not the stand-in type
-- the hidden variable is compiled with; the calls agree: no savepoint
CREATE FUNCTION sp_case_text(t text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        CASE t
            WHEN 'a' THEN RETURN 1;
            WHEN 'b' THEN RETURN 2;
            ELSE RETURN 0;
        END CASE;
    EXCEPTION WHEN OTHERS THEN
        RETURN -1;
    END;
END
$$;
SELECT * FROM plnimble_savepoint_plan('sp_case_text(text)');
SELECT * FROM sp_delta();
SELECT sp_case_text('a'), sp_case_text('b'), sp_case_text('z');
SELECT * FROM sp_delta();
SELECT sp_case_text('a'), sp_case_text('b'), sp_case_text('z');
SELECT * FROM sp_delta();

-- the plan view wants a function run by plnimble
SELECT * FROM plnimble_savepoint_plan('now()');
