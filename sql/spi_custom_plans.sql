-- spi_custom_plans: where PL/pgSQL runs an expression or a SELECT ... INTO
-- through SPI -- an expression after an error in it was caught (for the
-- rest of the transaction, also after ROLLBACK TO SAVEPOINT), an
-- expression reached again by a recursive call while an outer level is
-- evaluating it, and every SELECT ... INTO -- the plan cache makes custom
-- plans for the first five executions, with the variables' values folded
-- in.  Folding a NULL into a strict operator drops its other operand
-- without evaluating it, so the volatile function there is not called;
-- from the sixth execution on, the generic plan calls it.  plnimble must
-- call it exactly as often.  (Found by the fuzzer: an ASSERT that failed
-- only on the function's second call, after ROLLBACK TO SAVEPOINT.)

CREATE TABLE scp_log (n int);
CREATE TYPE scp_pt AS (x int, y text);
-- volatile, and fails for 1
CREATE FUNCTION scp_note(i int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO scp_log VALUES (i);
    IF i = 1 THEN
        RAISE EXCEPTION 'scp_note fails for %', i;
    END IF;
    RETURN i;
END$$;

-- after a caught error in "x + scp_note(i)"
CREATE FUNCTION scp_after_error(x int, n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    y int;
    acc text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            y := x + scp_note(i);
            acc := acc || coalesce(y::text, 'null') || ' ';
        EXCEPTION WHEN others THEN
            acc := acc || 'caught ';
        END;
    END LOOP;
    RETURN acc;
END$$;

-- 2..6 run as custom plans that leave out scp_note; 7 and 8 call it
SELECT scp_after_error(NULL, 8);
SELECT string_agg(n::text, ',' ORDER BY n) AS called FROM scp_log;
TRUNCATE scp_log;
-- a new transaction: the expression is simple again until it fails; then
-- the plan cache has made its five custom plans and uses the generic one
SELECT scp_after_error(NULL, 3);
SELECT string_agg(n::text, ',' ORDER BY n) AS called FROM scp_log;
TRUNCATE scp_log;

-- the error caught in a first call, rolled back to a savepoint, and the
-- same expression in the second call (the fuzzer's case)
CREATE FUNCTION scp_assert(k int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v int;
BEGIN
    BEGIN
        ASSERT v < (v + scp_note(k)), 'assertion on the custom plan';
    EXCEPTION WHEN raise_exception THEN
        RETURN 'caught';
    END;
    RETURN 'passed';
END$$;
BEGIN;
SAVEPOINT a;
SELECT scp_assert(1);
ROLLBACK TO SAVEPOINT a;
SELECT scp_assert(2);
ROLLBACK;
BEGIN;
SELECT scp_assert(1);
SAVEPOINT a;
SELECT scp_assert(1);
ROLLBACK TO SAVEPOINT a;
SELECT string_agg(n::text, ',' ORDER BY n) AS called FROM scp_log;
COMMIT;
TRUNCATE scp_log;

-- recursion: the inner levels' evaluations are custom plans, which fold
-- the NULL and do not recurse further; with a value they do
CREATE FUNCTION scp_rec(n int, x int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'scp_rec(%, %)', n, x;
    RETURN CASE WHEN n = 0 THEN 0 ELSE x + scp_rec(n - 1, x) END;
END$$;
SELECT scp_rec(3, NULL);
SELECT scp_rec(3, 1);
SELECT scp_rec(3, NULL);
SET plan_cache_mode = force_custom_plan;
SELECT scp_rec(3, NULL);
RESET plan_cache_mode;
-- the plan cache has made six custom plans by now: the generic one
SELECT scp_rec(3, NULL);

-- SELECT ... INTO of one and of two columns
CREATE FUNCTION scp_select_into(x int, n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    y int;
    z int;
    acc text := '';
BEGIN
    FOR i IN 2..n + 1 LOOP
        SELECT x + scp_note(i) INTO y;
        SELECT i * 2, x + scp_note(i * 100) INTO z, y;
        acc := acc || z || ' ';
    END LOOP;
    RETURN acc;
END$$;
SELECT scp_select_into(NULL, 7);
SELECT string_agg(n::text, ',' ORDER BY n) AS called FROM scp_log;
TRUNCATE scp_log;
SET plan_cache_mode = force_generic_plan;
CREATE OR REPLACE FUNCTION scp_select_into(x int, n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    y int;
BEGIN
    FOR i IN 2..n + 1 LOOP
        SELECT x + scp_note(i) INTO y;
    END LOOP;
    RETURN y;
END$$;
SELECT scp_select_into(NULL, 2);
SET plan_cache_mode = force_custom_plan;
SELECT scp_select_into(NULL, 7);
RESET plan_cache_mode;
SELECT string_agg(n::text, ',' ORDER BY n) AS called FROM scp_log;

-- an expression of pure functions keeps its fast path after a caught
-- error (and so its lazy savepoint): a custom plan would compute the same
-- values and raise the same errors
CREATE FUNCTION scp_pure(x int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    y int;
    r int;
    acc text := '';
BEGIN
    FOR d IN -1..1 LOOP
        FOR j IN 1..3 LOOP
            BEGIN
                PERFORM FROM scp_log;
                y := x + 10 / (d * j);
                GET DIAGNOSTICS r = ROW_COUNT;
                acc := acc || coalesce(y::text, 'null') || '/' || r || ' ';
            EXCEPTION WHEN division_by_zero THEN
                acc := acc || 'div0 ';
            END;
        END LOOP;
    END LOOP;
    RETURN acc;
END$$;
SELECT scp_pure(5);
SELECT scp_pure(NULL);

-- but array subscripts: the planner folds them before the array, the
-- executor evaluates the array first (and no subscript when it is NULL),
-- so after a caught error a custom plan may raise another error, or one
-- where the generic plan gives NULL
CREATE FUNCTION scp_subscripts(d int, i int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    y int;
    a int[];
    acc text := '';
BEGIN
    FOR k IN 1..3 LOOP
        BEGIN
            y := (a || (2147483647 * d))[10 / i];
            acc := acc || coalesce(y::text, 'null') || ' ';
        EXCEPTION WHEN others THEN
            acc := acc || sqlerrm || '; ';
        END;
    END LOOP;
    FOR k IN 1..3 LOOP
        BEGIN
            y := (CASE WHEN k = 1 THEN ARRAY[2147483647 * d] END)[10 / i];
            acc := acc || coalesce(y::text, 'null') || ' ';
        EXCEPTION WHEN others THEN
            acc := acc || sqlerrm || '; ';
        END;
    END LOOP;
    RETURN acc;
END$$;
SELECT scp_subscripts(2, 0);
SELECT scp_subscripts(1, 5);

-- an assignment whose target is read too: its value is folded into the
-- custom plan like any other variable's.  After an error that a handler
-- of the block saw but did not catch, and ROLLBACK TO SAVEPOINT:
CREATE FUNCTION scp_target() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v int;
BEGIN
    BEGIN
        v := abs(scp_note(1)) % v;
        RAISE NOTICE 'scp_target: after the assignment';
    EXCEPTION WHEN undefined_table THEN
        NULL;
    END;
    RETURN coalesce(v::text, 'null');
END$$;
BEGIN;
SAVEPOINT a;
SELECT scp_target();
ROLLBACK TO SAVEPOINT a;
SELECT scp_target();
ROLLBACK;

-- and a planning error (1/0 folded into the generic plan) that a custom
-- plan avoids for the target's value: the first execution builds the
-- generic plan and fails, the next five are custom plans that drop the
-- failing branch, then the generic plan is tried again
CREATE FUNCTION scp_target_plan_error(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v int := n;
    acc text := '';
BEGIN
    FOR i IN 1..7 LOOP
        BEGIN
            v := CASE WHEN v > 0 THEN v + 1 ELSE 1 / 0 END;
            acc := acc || v || ' ';
        EXCEPTION WHEN division_by_zero THEN
            acc := acc || 'div0 ';
        END;
    END LOOP;
    RETURN acc;
END$$;
SELECT scp_target_plan_error(5);
SELECT scp_target_plan_error(5);

-- an element assignment: the executor refuses a NULL subscript before it
-- computes the value, a custom plan computes the value first (the fuzzer's
-- case: the error escaped a block whose handler did not match)
CREATE FUNCTION scp_element(k int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a int[] := '{4,5}';
BEGIN
    BEGIN
        a[(NULL::scp_pt).x] := k * (k / 0);
    EXCEPTION WHEN check_violation THEN
        NULL;
    END;
    RETURN a::text;
END$$;
BEGIN;
SAVEPOINT a;
SELECT scp_element(3);
ROLLBACK TO SAVEPOINT a;
SELECT scp_element(3);
ROLLBACK;
