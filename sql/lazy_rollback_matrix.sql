-- lazy_rollback_matrix: rollback correctness of exception blocks, the
-- matrix that lazy savepoints must get exactly right.  plnimble starts a
-- block's subtransaction only before its first impure statement or
-- expression, so every case below mixes pure regions (PL variables and
-- allowlisted arithmetic, text, casts and arrays) with writes:
--   1. writes before and after a caught error, variables assigned in the
--      block keeping their values;
--   2. nested handler blocks at depths 1 to 3, writes and errors (pure, or
--      after writes) at every depth, caught at every level;
--   3. loops with a handler block per iteration, and a loop inside one block;
--   4. errors inside handlers, bare RAISE caught further out, SQLSTATE and
--      SQLERRM;
--   5. RETURN, EXIT and CONTINUE (with labels) out of handler blocks,
--      followed by more writes and by a later error in an outer block;
--   6. caught errors of every class in pure regions, and the same errors
--      after a write;
--   7. query cancel (statement_timeout) in a pure loop: not caught by
--      OTHERS, caught by WHEN query_canceled;
--   8. thousands of caught pure errors in one transaction, then COMMIT.
-- Pure errors use variables (1 / z with z = 0), because an expression of
-- constants such as 1 / 0 already fails when it is planned.  Every function
-- runs at least twice: the first run plans its expressions, which is not
-- pure (so there the subtransactions start early), later runs reuse the
-- plans and reach the errors in truly pure regions.

CREATE TABLE m_log (n integer, note text);

-- 1. Writes before and after the error ----------------------------------------

-- an INSERT, an UPDATE and a DELETE, then a pure error: all rolled back;
-- the variables keep what was assigned before the error
INSERT INTO m_log VALUES (100, 'kept row'), (101, 'row to delete');
CREATE FUNCTION m_write_then_fail() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    v integer := 0;
    t text := 'start';
    nm numeric := 0;
BEGIN
    BEGIN
        v := 1;
        t := t || ',a';
        INSERT INTO m_log VALUES (1, 'inserted in failed block');
        UPDATE m_log SET note = 'updated in failed block' WHERE n = 100;
        DELETE FROM m_log WHERE n = 101;
        v := 2;
        t := t || ',b';
        nm := 1.5;
        v := v / z;
        t := 'not reached';
    EXCEPTION
        WHEN division_by_zero THEN
            t := t || ',caught v=' || v || ' nm=' || nm;
    END;
    RETURN t || ' | after: v=' || v || ' t=' || t;
END
$$;
SELECT g, m_write_then_fail() FROM generate_series(1, 2) g;
SELECT * FROM m_log ORDER BY n;

-- the error comes before any write (pure region); writes before the block
-- and after it persist
CREATE FUNCTION m_fail_then_write() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    v integer := 0;
    t text := '';
BEGIN
    INSERT INTO m_log VALUES (2, 'before block');
    BEGIN
        v := 10;
        t := 'assigned';
        v := v + 1 / z;
        INSERT INTO m_log VALUES (3, 'not reached');
    EXCEPTION
        WHEN division_by_zero THEN
            t := t || ', caught with v=' || v;
    END;
    INSERT INTO m_log VALUES (4, 'after block: ' || t);
    RETURN t;
END
$$;
SELECT g, m_fail_then_write() FROM generate_series(1, 2) g;
SELECT * FROM m_log ORDER BY n;

-- variables of many types assigned in the block before a pure error keep
-- their values in the handler and after the block; a failing assignment
-- leaves its target unchanged
CREATE FUNCTION m_vars_survive(do_write boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    i integer := 1;
    b8 bigint := 1;
    f8 double precision := 1;
    nm numeric := 1;
    n52 numeric(5,2) := 1;
    vc varchar(3) := 'a';
    tx text := 'a';
    bo boolean := false;
    a integer[] := ARRAY[1];
    r text;
BEGIN
    BEGIN
        i := 42;
        b8 := 9000000000;
        f8 := 2.5;
        nm := 1234.5678;
        n52 := 3.14159;
        vc := 'xyz';
        tx := tx || 'bc';
        bo := true;
        a[2] := 7;
        IF do_write THEN
            INSERT INTO m_log VALUES (5, 'vars: rolled back');
        END IF;
        tx := tx || (1 / z)::text;
        tx := 'not reached';
    EXCEPTION
        WHEN division_by_zero THEN
            r := format('handler: %s %s %s %s %s %s %s %s %s', i, b8, f8, nm, n52, vc, tx, bo, a);
    END;
    RETURN r || format(' | after: %s %s %s %s %s %s %s %s %s', i, b8, f8, nm, n52, vc, tx, bo, a);
END
$$;
SELECT w, m_vars_survive(w) FROM (VALUES (false), (true), (false), (true)) v(w);
SELECT * FROM m_log ORDER BY n;

-- a block that ends normally keeps its writes; a function call (impure)
-- that writes, then a pure error: the callee's write is rolled back too
CREATE FUNCTION m_callee_insert(k integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO m_log VALUES (k, 'written by callee');
    RETURN k;
END
$$;
CREATE FUNCTION m_call_then_fail(fail boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    k integer;
BEGIN
    BEGIN
        k := m_callee_insert(CASE WHEN fail THEN 6 ELSE 7 END);
        IF fail THEN
            k := k / z;
        END IF;
        RETURN 'no error, k=' || k;
    EXCEPTION
        WHEN division_by_zero THEN
            RETURN 'caught, k=' || k;
    END;
END
$$;
SELECT g, m_call_then_fail(true), m_call_then_fail(false) FROM generate_series(1, 2) g;
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- an expression that was pure becomes impure when it is planned again: a
-- user-defined operator + that writes now shadows the built-in one.  Its
-- write comes before the caught error and must be rolled back.
CREATE FUNCTION m_plus_logged(a integer, b integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO m_log VALUES (int4pl(a, 1000), 'written by operator +');
    RETURN int4mul(a, 10);
END
$$;
CREATE FUNCTION m_replanned(z integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    BEGIN
        x := 7 + z;
        x := x / z;
    EXCEPTION
        WHEN division_by_zero THEN
            RETURN 'caught, x=' || x;
    END;
    RETURN 'no error, x=' || x;
END
$$;
SET search_path = public, pg_catalog;
SELECT m_replanned(0), m_replanned(1);
SELECT m_replanned(0), m_replanned(1);
CREATE OPERATOR public.+ (LEFTARG = integer, RIGHTARG = integer,
                          FUNCTION = m_plus_logged);
DISCARD PLANS;
SELECT m_replanned(0), m_replanned(1);
SELECT m_replanned(0), m_replanned(1);
SELECT * FROM m_log ORDER BY n;
DROP OPERATOR public.+ (integer, integer);
RESET search_path;
SELECT m_replanned(0), m_replanned(1);
TRUNCATE m_log;

-- 2. Nested handler blocks, depths 1 to 3 --------------------------------------

-- m_nest(wmask, ed, kind, early): the function body's handler (depth 0)
-- catches anything; depth 1 catches invalid_text_representation, depth 2
-- numeric_value_out_of_range, depth 3 division_by_zero.  Each depth d
-- writes first when bit d of wmask is set (1, 2, 4); with bit 8 depths 1
-- and 2 also write after their inner block, and every handler writes.  The
-- error is raised at depth ed, before that depth's write (early) or after
-- it, by pure code: kind 'div' (1 / z), 'ovf' (integer overflow), 'inv'
-- ('x'::integer) or 'raise' (RAISE, caught only by depth 0).
CREATE TABLE m_nest_log (seq integer GENERATED ALWAYS AS IDENTITY, note text);
CREATE FUNCTION m_nest(wmask integer, ed integer, kind text, early boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
    z integer := 0;
    big integer := 2147483647;
    s text := 'x';
    i integer;
BEGIN
    BEGIN
        r := r || 'd1';
        IF ed = 1 AND early THEN
            CASE kind
                WHEN 'div' THEN i := 1 / z;
                WHEN 'ovf' THEN i := big + 1;
                WHEN 'inv' THEN i := s::integer;
                ELSE RAISE EXCEPTION 'raised early at depth 1';
            END CASE;
        END IF;
        IF wmask % 2 = 1 THEN
            INSERT INTO m_nest_log (note) VALUES ('d1');
        END IF;
        IF ed = 1 AND NOT early THEN
            CASE kind
                WHEN 'div' THEN i := 1 / z;
                WHEN 'ovf' THEN i := big + 1;
                WHEN 'inv' THEN i := s::integer;
                ELSE RAISE EXCEPTION 'raised late at depth 1';
            END CASE;
        END IF;
        BEGIN
            r := r || ' d2';
            IF ed = 2 AND early THEN
                CASE kind
                    WHEN 'div' THEN i := 1 / z;
                    WHEN 'ovf' THEN i := big + 1;
                    WHEN 'inv' THEN i := s::integer;
                    ELSE RAISE EXCEPTION 'raised early at depth 2';
                END CASE;
            END IF;
            IF wmask / 2 % 2 = 1 THEN
                INSERT INTO m_nest_log (note) VALUES ('d2');
            END IF;
            IF ed = 2 AND NOT early THEN
                CASE kind
                    WHEN 'div' THEN i := 1 / z;
                    WHEN 'ovf' THEN i := big + 1;
                    WHEN 'inv' THEN i := s::integer;
                    ELSE RAISE EXCEPTION 'raised late at depth 2';
                END CASE;
            END IF;
            BEGIN
                r := r || ' d3';
                IF ed = 3 AND early THEN
                    CASE kind
                        WHEN 'div' THEN i := 1 / z;
                        WHEN 'ovf' THEN i := big + 1;
                        WHEN 'inv' THEN i := s::integer;
                        ELSE RAISE EXCEPTION 'raised early at depth 3';
                    END CASE;
                END IF;
                IF wmask / 4 % 2 = 1 THEN
                    INSERT INTO m_nest_log (note) VALUES ('d3');
                END IF;
                IF ed = 3 AND NOT early THEN
                    CASE kind
                        WHEN 'div' THEN i := 1 / z;
                        WHEN 'ovf' THEN i := big + 1;
                        WHEN 'inv' THEN i := s::integer;
                        ELSE RAISE EXCEPTION 'raised late at depth 3';
                    END CASE;
                END IF;
                r := r || ' d3-ok';
            EXCEPTION
                WHEN division_by_zero THEN
                    r := r || ' c3';
                    IF wmask >= 8 THEN
                        INSERT INTO m_nest_log (note) VALUES ('h3');
                    END IF;
            END;
            IF wmask >= 8 THEN
                INSERT INTO m_nest_log (note) VALUES ('d2-tail');
            END IF;
            r := r || ' d2-ok';
        EXCEPTION
            WHEN numeric_value_out_of_range THEN
                r := r || ' c2';
                IF wmask >= 8 THEN
                    INSERT INTO m_nest_log (note) VALUES ('h2');
                END IF;
        END;
        IF wmask >= 8 THEN
            INSERT INTO m_nest_log (note) VALUES ('d1-tail');
        END IF;
        r := r || ' d1-ok';
    EXCEPTION
        WHEN invalid_text_representation THEN
            r := r || ' c1';
            IF wmask >= 8 THEN
                INSERT INTO m_nest_log (note) VALUES ('h1');
            END IF;
    END;
    RETURN r;
EXCEPTION
    WHEN OTHERS THEN
        IF wmask >= 8 THEN
            INSERT INTO m_nest_log (note) VALUES ('h0');
        END IF;
        RETURN r || ' c0: ' || SQLERRM;
END
$$;

-- m_nest_run: empty the table, run m_nest, show what it left there
CREATE FUNCTION m_nest_run(wmask integer, ed integer, kind text, early boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    t text;
BEGIN
    DELETE FROM m_nest_log;
    r := m_nest(wmask, ed, kind, early);
    SELECT string_agg(note, ',' ORDER BY seq) INTO t FROM m_nest_log;
    RETURN r || ' | rows: ' || coalesce(t, '-');
END
$$;

-- a first run of the whole matrix plans every expression, keeping the
-- results for comparison
CREATE TABLE m_nest_cold AS
SELECT w AS wmask, ed, kind, early, m_nest_run(w, ed, kind, early) AS result
FROM (VALUES (0), (1), (6), (15)) AS wm(w),
     (VALUES (0), (1), (2), (3)) AS e(ed),
     (VALUES ('div'), ('ovf'), ('inv'), ('raise')) AS k(kind),
     (VALUES (true), (false)) AS el(early)
WHERE ed > 0 OR (kind = 'div' AND early)
ORDER BY w, ed, kind, early DESC;
SELECT count(*) FROM m_nest_cold;

-- a few cases one by one, with the table after each
SELECT m_nest(15, 3, 'div', false);
SELECT note FROM m_nest_log ORDER BY seq;
TRUNCATE m_nest_log;
SELECT m_nest(4, 3, 'inv', false);
SELECT note FROM m_nest_log ORDER BY seq;
TRUNCATE m_nest_log;
SELECT m_nest(15, 2, 'ovf', true);
SELECT note FROM m_nest_log ORDER BY seq;
TRUNCATE m_nest_log;
SELECT m_nest(15, 3, 'raise', false);
SELECT note FROM m_nest_log ORDER BY seq;
TRUNCATE m_nest_log;

-- the whole matrix again, every plan in place: write masks x error depth x
-- kind x early/late
CREATE TABLE m_nest_warm AS
SELECT w AS wmask, ed, kind, early, m_nest_run(w, ed, kind, early) AS result
FROM (VALUES (0), (1), (6), (15)) AS wm(w),
     (VALUES (0), (1), (2), (3)) AS e(ed),
     (VALUES ('div'), ('ovf'), ('inv'), ('raise')) AS k(kind),
     (VALUES (true), (false)) AS el(early)
WHERE ed > 0 OR (kind = 'div' AND early)
ORDER BY w, ed, kind, early DESC;
SELECT * FROM m_nest_warm ORDER BY wmask, ed, kind, early DESC;
-- the first run gave the same results
SELECT c.*, w.result AS warm_result
FROM m_nest_cold c JOIN m_nest_warm w USING (wmask, ed, kind, early)
WHERE c.result IS DISTINCT FROM w.result;

-- 3. Loops -----------------------------------------------------------------------

-- a handler block per iteration: odd iterations write, then fail; even
-- ones fail before writing.  Nothing may stay behind.
CREATE FUNCTION m_loop_half(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    caught integer := 0;
    last_i integer;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            last_i := i;
            IF i % 2 = 0 THEN
                x := i / z;
            END IF;
            INSERT INTO m_log VALUES (i, 'loop iteration');
            x := i / z;
        EXCEPTION
            WHEN division_by_zero THEN
                caught := caught + 1;
        END;
    END LOOP;
    RETURN 'caught ' || caught || ', last_i ' || last_i;
END
$$;
SELECT m_loop_half(10);
SELECT m_loop_half(10);
SELECT count(*) FROM m_log;

-- three kinds of iteration: fail before writing, write then fail, write
-- and succeed; and a write after each block that always stays
CREATE FUNCTION m_loop_mixed(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    big integer := 2147483647;
    x integer;
    ok integer := 0;
    caught_div integer := 0;
    caught_ovf integer := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            IF i % 3 = 0 THEN
                x := big + i;
            END IF;
            INSERT INTO m_log VALUES (i, 'written');
            IF i % 3 = 1 THEN
                x := i / z;
            END IF;
            ok := ok + 1;
        EXCEPTION
            WHEN division_by_zero THEN
                caught_div := caught_div + 1;
            WHEN numeric_value_out_of_range THEN
                caught_ovf := caught_ovf + 1;
        END;
        IF i % 4 = 0 THEN
            INSERT INTO m_log VALUES (1000 + i, 'after block');
        END IF;
    END LOOP;
    RETURN format('ok %s, div %s, ovf %s', ok, caught_div, caught_ovf);
END
$$;
SELECT m_loop_mixed(12);
SELECT m_loop_mixed(12);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- WHILE loop and nested FOR loops, handler blocks at two levels
CREATE FUNCTION m_loop_nested() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    k integer := 0;
    inner_caught integer := 0;
    outer_caught integer := 0;
    s3 text := 'x3';
BEGIN
    WHILE k < 4 LOOP
        k := k + 1;
        BEGIN
            INSERT INTO m_log VALUES (k * 10, 'outer');
            FOR j IN 1..3 LOOP
                BEGIN
                    IF j = k THEN
                        x := j / z;
                    END IF;
                    INSERT INTO m_log VALUES (k * 10 + j, 'inner');
                    IF j = 3 AND k = 2 THEN
                        x := j / z;
                    END IF;
                EXCEPTION
                    WHEN division_by_zero THEN
                        inner_caught := inner_caught + 1;
                END;
            END LOOP;
            IF k = 3 THEN
                x := k + s3::integer;
            END IF;
        EXCEPTION
            WHEN invalid_text_representation THEN
                outer_caught := outer_caught + 1;
        END;
    END LOOP;
    RETURN format('inner caught %s, outer caught %s', inner_caught, outer_caught);
END
$$;
SELECT m_loop_nested();
SELECT m_loop_nested();
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- the loop inside one handler block: an error in a late iteration rolls
-- back the writes of all earlier iterations
CREATE FUNCTION m_loop_in_block(fail_at integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    done integer := 0;
BEGIN
    BEGIN
        FOR i IN 1..5 LOOP
            IF i = fail_at THEN
                x := i / z;
            END IF;
            INSERT INTO m_log VALUES (i, 'in block, fail_at ' || fail_at);
            done := i;
        END LOOP;
    EXCEPTION
        WHEN division_by_zero THEN
            RETURN 'rolled back after ' || done || ' iterations';
    END;
    RETURN 'completed ' || done || ' iterations';
END
$$;
SELECT g, m_loop_in_block(1), m_loop_in_block(4), m_loop_in_block(6)
FROM generate_series(1, 2) g;
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- 4. Errors inside handlers ------------------------------------------------------

-- m_handler_err(ow, iw, hw, mode): an inner block (writing first if iw)
-- catches a pure division by zero; its handler (writing first if hw)
-- then, by mode, ends normally ('none'), fails in pure code ('pure'),
-- raises a new error ('raise'), re-raises with bare RAISE ('reraise'), or
-- runs a nested handler block of its own, checks SQLSTATE and SQLERRM
-- are back and re-raises ('nested'); or it ends normally and the outer
-- block fails later, in pure code ('late').  The outer block (writing first
-- and after the inner block if ow) catches whatever comes out.
CREATE TABLE m_hlog (seq integer GENERATED ALWAYS AS IDENTITY, note text);
CREATE FUNCTION m_handler_err(ow boolean, iw boolean, hw boolean, mode text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
    z integer := 0;
    big integer := 2147483647;
    s text := 'x';
    x integer;
BEGIN
    BEGIN
        IF ow THEN
            INSERT INTO m_hlog (note) VALUES ('outer');
        END IF;
        BEGIN
            IF iw THEN
                INSERT INTO m_hlog (note) VALUES ('inner');
            END IF;
            x := 1 / z;
            r := 'not reached';
        EXCEPTION
            WHEN division_by_zero THEN
                r := r || 'inner caught ' || SQLSTATE || ' ' || SQLERRM;
                IF hw THEN
                    INSERT INTO m_hlog (note) VALUES ('inner handler');
                END IF;
                CASE mode
                    WHEN 'none', 'late' THEN
                        NULL;
                    WHEN 'pure' THEN
                        x := big + 1;
                    WHEN 'raise' THEN
                        RAISE EXCEPTION 'handler: %', SQLERRM USING ERRCODE = 'P0099';
                    WHEN 'reraise' THEN
                        RAISE;
                    WHEN 'nested' THEN
                        BEGIN
                            IF hw THEN
                                INSERT INTO m_hlog (note) VALUES ('nested in handler');
                            END IF;
                            x := s::integer;
                        EXCEPTION
                            WHEN invalid_text_representation THEN
                                r := r || ', nested caught ' || SQLSTATE;
                        END;
                        r := r || ', back: ' || SQLSTATE || ' ' || SQLERRM;
                        RAISE;
                END CASE;
                r := r || ', handler done';
        END;
        IF ow THEN
            INSERT INTO m_hlog (note) VALUES ('outer after inner');
        END IF;
        IF mode = 'late' THEN
            x := big + 2;
        END IF;
        r := r || ', outer ok';
    EXCEPTION
        WHEN OTHERS THEN
            r := r || ', outer caught ' || SQLSTATE || ' ' || SQLERRM;
            IF ow THEN
                INSERT INTO m_hlog (note) VALUES ('outer handler');
            END IF;
    END;
    RETURN r;
END
$$;
CREATE FUNCTION m_handler_run(ow boolean, iw boolean, hw boolean, mode text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    t text;
BEGIN
    DELETE FROM m_hlog;
    r := m_handler_err(ow, iw, hw, mode);
    SELECT string_agg(note, ',' ORDER BY seq) INTO t FROM m_hlog;
    RETURN r || ' | rows: ' || coalesce(t, '-');
END
$$;
CREATE TABLE m_handler_cold AS
SELECT ow, iw, hw, mode, m_handler_run(ow, iw, hw, mode) AS result
FROM (VALUES (false), (true)) AS o(ow), (VALUES (false), (true)) AS i(iw),
     (VALUES (false), (true)) AS h(hw),
     (VALUES ('none'), ('pure'), ('raise'), ('reraise'), ('nested'),
             ('late')) AS m(mode)
ORDER BY ow, iw, hw, mode;
SELECT count(*) FROM m_handler_cold;
-- one case by hand, with the table
TRUNCATE m_hlog;
SELECT m_handler_err(true, true, true, 'pure');
SELECT note FROM m_hlog ORDER BY seq;
TRUNCATE m_hlog;
CREATE TABLE m_handler_warm AS
SELECT ow, iw, hw, mode, m_handler_run(ow, iw, hw, mode) AS result
FROM (VALUES (false), (true)) AS o(ow), (VALUES (false), (true)) AS i(iw),
     (VALUES (false), (true)) AS h(hw),
     (VALUES ('none'), ('pure'), ('raise'), ('reraise'), ('nested'),
             ('late')) AS m(mode)
ORDER BY ow, iw, hw, mode;
SELECT * FROM m_handler_warm ORDER BY ow, iw, hw, mode;
SELECT c.*, w.result AS warm_result
FROM m_handler_cold c JOIN m_handler_warm w USING (ow, iw, hw, mode)
WHERE c.result IS DISTINCT FROM w.result;

-- bare RAISE in a called function's handler, caught by the caller; the
-- callee's writes are rolled back, the caller's kept
CREATE FUNCTION m_reraise_callee(k integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
BEGIN
    INSERT INTO m_log VALUES (k, 'callee, rolled back');
    RETURN k / z;
EXCEPTION
    WHEN division_by_zero THEN
        INSERT INTO m_log VALUES (k + 1, 'callee handler, rolled back');
        RAISE;
END
$$;
CREATE FUNCTION m_reraise_caller(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := 'start';
BEGIN
    INSERT INTO m_log VALUES (k + 10, 'caller, kept');
    BEGIN
        r := r || ', got ' || m_reraise_callee(k);
    EXCEPTION
        WHEN division_by_zero THEN
            r := r || ', caller caught ' || SQLSTATE || ' ' || SQLERRM;
    END;
    INSERT INTO m_log VALUES (k + 20, 'caller after block, kept');
    RETURN r;
END
$$;
SELECT m_reraise_caller(1);
SELECT m_reraise_caller(100);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- a bare RAISE in a handler block nested in a handler re-raises the
-- nested error; an outer handler then sees that one, and its own bare
-- RAISE (after catching yet another error) re-raises it again
CREATE FUNCTION m_reraise_chain(mode integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    big integer := 2147483647;
    s text := 'zz';
    x integer;
    r text := '';
BEGIN
    BEGIN
        BEGIN
            IF mode = 1 THEN
                INSERT INTO m_log VALUES (1, 'inner block');
            END IF;
            x := 1 / z;
        EXCEPTION
            WHEN division_by_zero THEN
                r := r || 'B:' || SQLERRM;
                BEGIN
                    IF mode = 2 THEN
                        INSERT INTO m_log VALUES (2, 'block in handler');
                    END IF;
                    x := big + 1;
                EXCEPTION
                    WHEN numeric_value_out_of_range THEN
                        r := r || ', C:' || SQLERRM;
                        RAISE;
                END;
        END;
    EXCEPTION
        WHEN OTHERS THEN
            r := r || ', A:' || SQLERRM;
            BEGIN
                x := s::integer;
            EXCEPTION
                WHEN OTHERS THEN
                    r := r || ', A2:' || SQLSTATE;
            END;
            r := r || ', A again:' || SQLERRM;
            BEGIN
                IF mode = 3 THEN
                    INSERT INTO m_log VALUES (3, 'block in outer handler');
                END IF;
                RAISE;
            EXCEPTION
                WHEN numeric_value_out_of_range THEN
                    r := r || ', re-raised:' || SQLSTATE || ' ' || SQLERRM;
            END;
    END;
    INSERT INTO m_log VALUES (4, 'end of mode ' || mode);
    RETURN r;
END
$$;
SELECT mode, m_reraise_chain(mode)
FROM (VALUES (0), (1), (2), (3)) AS m(mode), generate_series(1, 2) AS g
ORDER BY g, mode;
SELECT n, note, count(*) FROM m_log GROUP BY n, note ORDER BY n, note;
TRUNCATE m_log;

-- a bare RAISE nested in IF, CASE, loops or a plain block of a handler,
-- not caught: the error keeps its original CONTEXT line
CREATE FUNCTION m_reraise_context(mode integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    big integer := 2147483647;
    x integer;
BEGIN
    BEGIN
        x := 1 / z;
    EXCEPTION
        WHEN division_by_zero THEN
            IF mode = 1 THEN
                FOR k IN 1..1 LOOP
                    CASE k
                        WHEN 1 THEN
                            IF true THEN
                                RAISE;
                            END IF;
                    END CASE;
                END LOOP;
            ELSIF mode = 2 THEN
                BEGIN
                    x := big + 1;
                EXCEPTION
                    WHEN numeric_value_out_of_range THEN
                        RAISE;
                END;
            ELSIF mode = 3 THEN
                WHILE true LOOP
                    RAISE;
                END LOOP;
            ELSIF mode = 4 THEN
                <<lbl>>
                BEGIN
                    RAISE;
                END;
            ELSIF mode = 5 THEN
                RAISE EXCEPTION 'new error: %', SQLERRM;
            END IF;
    END;
    RETURN 'handled, mode ' || mode;
END
$$;
SELECT m_reraise_context(0);
SELECT m_reraise_context(1);
SELECT m_reraise_context(1);
SELECT m_reraise_context(2);
SELECT m_reraise_context(2);
SELECT m_reraise_context(3);
SELECT m_reraise_context(3);
SELECT m_reraise_context(4);
SELECT m_reraise_context(4);
SELECT m_reraise_context(5);
SELECT m_reraise_context(5);
SELECT m_reraise_context(0);

-- an error in a handler that nobody catches: the whole statement is
-- rolled back, and the error shows the handler's context
CREATE FUNCTION m_handler_uncaught(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    big bigint := 9223372036854775807;
    x bigint;
BEGIN
    INSERT INTO m_log VALUES (k, 'before block');
    BEGIN
        x := k / z;
    EXCEPTION
        WHEN division_by_zero THEN
            INSERT INTO m_log VALUES (k + 1, 'in handler');
            x := big + k;
    END;
    RETURN 'not reached';
END
$$;
SELECT m_handler_uncaught(1);
SELECT m_handler_uncaught(2);
SELECT count(*) FROM m_log;

-- 5. RETURN, EXIT and CONTINUE out of handler blocks ----------------------------

-- RETURN from inside nested handler blocks: before any write (mode 1),
-- after a write (2), from a handler after a write (3) or after a pure
-- error (4); with mode >= 10 the outer block writes first.  The blocks
-- around are left cleanly, so the caller's later writes persist and its
-- later error rolls back correctly.
CREATE FUNCTION m_return_inner(mode integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
BEGIN
    BEGIN
        IF mode >= 10 THEN
            INSERT INTO m_log VALUES (mode * 10, 'outer block, before return');
        END IF;
        BEGIN
            IF mode % 10 = 1 THEN
                RETURN 'returned before write';
            END IF;
            IF mode % 10 = 4 THEN
                x := mode / z;
            END IF;
            INSERT INTO m_log VALUES (mode * 10 + 1, 'inner block, before return');
            IF mode % 10 = 2 THEN
                RETURN 'returned after write';
            END IF;
            x := mode / z;
        EXCEPTION
            WHEN division_by_zero THEN
                RETURN 'returned from handler';
        END;
        RETURN 'not reached';
    EXCEPTION
        WHEN OTHERS THEN
            RETURN 'outer handler: ' || SQLERRM;
    END;
END
$$;
CREATE FUNCTION m_return_outer(mode integer, fail boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    r text;
BEGIN
    BEGIN
        r := m_return_inner(mode);
        INSERT INTO m_log VALUES (mode * 10 + 5, 'after call: ' || r);
        IF fail THEN
            r := r || (mode / z);
        END IF;
    EXCEPTION
        WHEN division_by_zero THEN
            r := r || ', caller block rolled back';
    END;
    INSERT INTO m_log VALUES (mode * 10 + 8, 'caller end');
    RETURN r;
END
$$;
SELECT mode, fail, m_return_outer(mode, fail)
FROM (VALUES (1), (2), (3), (4), (11), (12), (13), (14)) AS m(mode),
     (VALUES (false), (true)) AS f(fail), generate_series(1, 2) AS g
ORDER BY g, mode, fail;
SELECT n, note, count(*) FROM m_log GROUP BY n, note ORDER BY n, note;
TRUNCATE m_log;

-- RETURN from a lazy inner block inside a block that wrote: the outer
-- block's write stays
CREATE FUNCTION m_return_from_lazy(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer := 0;
BEGIN
    BEGIN
        INSERT INTO m_log VALUES (k, 'outer wrote');
        BEGIN
            x := x + 1;
            IF k > 0 THEN
                RETURN 'returned with x=' || x;
            END IF;
            x := x / z;
        EXCEPTION
            WHEN division_by_zero THEN
                RETURN 'caught';
        END;
    EXCEPTION
        WHEN OTHERS THEN
            RETURN 'outer caught';
    END;
END
$$;
SELECT m_return_from_lazy(1), m_return_from_lazy(2), m_return_from_lazy(0),
       m_return_from_lazy(-1);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- handler blocks inside FOR loops over a query: a pure error skips a row
-- (CONTINUE from the handler), EXIT from a block that has not written, a
-- later error rolls back the block around the loop (fail); RETURN from a
-- handler inside the second loop
CREATE TABLE m_src (n integer);
INSERT INTO m_src SELECT g FROM generate_series(1, 5) g;
CREATE FUNCTION m_query_loop(fail boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    r text := '';
    rec record;
BEGIN
    BEGIN
        FOR rec IN SELECT n FROM m_src ORDER BY n LOOP
            BEGIN
                IF rec.n = 2 THEN
                    x := rec.n / z;
                END IF;
                IF rec.n = 4 THEN
                    EXIT;
                END IF;
                INSERT INTO m_log VALUES (rec.n * 10, 'first loop');
            EXCEPTION
                WHEN division_by_zero THEN
                    r := r || ' skipped ' || rec.n;
                    CONTINUE;
            END;
        END LOOP;
        IF fail THEN
            x := 1 / z;
        END IF;
    EXCEPTION
        WHEN division_by_zero THEN
            r := r || ', first loop rolled back';
    END;
    FOR rec IN SELECT n FROM m_src ORDER BY n LOOP
        BEGIN
            IF rec.n = 3 THEN
                x := 1 / z;
            END IF;
            INSERT INTO m_log VALUES (rec.n * 100, 'second loop');
        EXCEPTION
            WHEN division_by_zero THEN
                RETURN r || ', returned at ' || rec.n;
        END;
    END LOOP;
    RETURN r || ', not reached';
END
$$;
SELECT m_query_loop(false), m_query_loop(true);
SELECT m_query_loop(false), m_query_loop(true);
SELECT n, note, count(*) FROM m_log GROUP BY n, note ORDER BY n, note;
TRUNCATE m_log;

-- EXIT and CONTINUE, with and without labels, out of handler blocks in
-- nested loops (before and after writes), then EXIT out of a labelled
-- handler block; later writes persist, and a later error in an outer
-- block (fail_at) rolls back everything that block did
CREATE FUNCTION m_exit_continue(fail_at integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    r text := '';
BEGIN
    BEGIN
        <<outer_loop>>
        FOR i IN 1..6 LOOP
            <<inner_loop>>
            FOR j IN 1..3 LOOP
                BEGIN
                    IF i = 2 AND j = 2 THEN
                        r := r || ' C(2,2)';
                        CONTINUE outer_loop;
                    END IF;
                    IF i = 3 AND j = 1 THEN
                        r := r || ' c(3,1)';
                        CONTINUE;
                    END IF;
                    IF i = 4 AND j = 1 THEN
                        x := i / z;
                    END IF;
                    INSERT INTO m_log VALUES (i * 10 + j, 'loop');
                    IF i = 4 AND j = 2 THEN
                        r := r || ' e(4,2)';
                        EXIT inner_loop;
                    END IF;
                    IF i = 5 AND j = 1 THEN
                        r := r || ' E(5,1)';
                        EXIT outer_loop;
                    END IF;
                    IF j = 3 THEN
                        x := i / z;
                    END IF;
                EXCEPTION
                    WHEN division_by_zero THEN
                        r := r || ' x(' || i || ',' || j || ')';
                        CONTINUE outer_loop WHEN i = 1;
                END;
            END LOOP;
            r := r || ' end' || i;
        END LOOP;
        INSERT INTO m_log VALUES (100, 'after loops');
        <<blk>>
        BEGIN
            IF fail_at = 0 THEN
                EXIT blk;
            END IF;
            INSERT INTO m_log VALUES (101, 'labelled block');
            EXIT blk;
        EXCEPTION
            WHEN OTHERS THEN
                r := r || ' not reached';
        END;
        INSERT INTO m_log VALUES (102, 'after labelled block');
        IF fail_at = 1 THEN
            x := 1 / z;
        END IF;
    EXCEPTION
        WHEN division_by_zero THEN
            r := r || ' | outer block rolled back';
    END;
    BEGIN
        INSERT INTO m_log VALUES (200, 'later block');
        IF fail_at = 2 THEN
            x := 2 / z;
        END IF;
    EXCEPTION
        WHEN division_by_zero THEN
            r := r || ' | later block rolled back';
    END;
    INSERT INTO m_log VALUES (300, 'end');
    RETURN r;
END
$$;
SELECT m_exit_continue(0);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;
SELECT m_exit_continue(0);
SELECT string_agg(n::text, ',' ORDER BY n) FROM m_log;
TRUNCATE m_log;
SELECT m_exit_continue(1);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;
SELECT m_exit_continue(2);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- 6. Caught errors of every class in pure regions ------------------------------

-- m_err(what, write_first): one error per kind, raised by pure code after
-- the variable v was assigned; with write_first an INSERT comes before it
-- (and must be rolled back).  The handlers pick by name, SQLSTATE, class
-- and OTHERS.
CREATE FUNCTION m_err(what text, write_first boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    z2 smallint := 0;
    z8 bigint := 0;
    zn numeric := 0;
    zf double precision := 0;
    zf4 real := 0;
    one integer := 1;
    s2 smallint := 32767;
    i4 integer := 2147483647;
    b8 bigint := 9223372036854775807;
    nbig numeric := 12345.678;
    f8 double precision := 1e300;
    f4 real := 1e30;
    tiny double precision := 1e-300;
    tx text := 'x';
    t4 text := 'abcd';
    t99999 text := '99999';
    t1e400 text := '1e400';
    n52 numeric(5,2);
    vc3 varchar(3);
    bc3 char(3);
    i2 smallint;
    i integer;
    b bigint;
    n numeric;
    f double precision;
    r4 real;
    bo boolean;
    nn integer NOT NULL := 0;
    nul integer;
    nult text;
    a integer[] := ARRAY[1, 2, 3];
    v text := 'start';
BEGIN
    BEGIN
        v := 'in block';
        IF write_first THEN
            INSERT INTO m_log VALUES (1, what);
            v := 'wrote';
        END IF;
        CASE what
            WHEN 'div int2' THEN i2 := s2 / z2;
            WHEN 'div int4' THEN i := one / z;
            WHEN 'div int8' THEN b := b8 / z8;
            WHEN 'div numeric' THEN n := nbig / zn;
            WHEN 'div float8' THEN f := f8 / zf;
            WHEN 'div float4' THEN r4 := f4 / zf4;
            WHEN 'mod int4' THEN i := one % z;
            WHEN 'mod numeric' THEN n := nbig % zn;
            WHEN 'overflow int2' THEN i2 := s2 + one::smallint;
            WHEN 'overflow int4' THEN i := i4 + one;
            WHEN 'overflow int8' THEN b := b8 * 2;
            WHEN 'overflow int4 negate' THEN i := -(-i4 - one);
            WHEN 'int8 to int4' THEN i := b8;
            WHEN 'int4 to int2' THEN i2 := i4;
            WHEN 'numeric to int4' THEN i := nbig * 1e10;
            WHEN 'float8 to int4' THEN i := f8;
            WHEN 'float8 to float4' THEN r4 := f8;
            WHEN 'numeric field overflow' THEN n52 := nbig;
            WHEN 'float8 overflow' THEN f := f8 * f8;
            WHEN 'float4 overflow' THEN r4 := f4 * f4;
            WHEN 'float8 underflow' THEN f := tiny * tiny;
            WHEN 'sqrt negative' THEN f := sqrt(-f8);
            WHEN 'numeric sqrt negative' THEN n := sqrt(-nbig);
            WHEN 'zero to negative power' THEN n := power(zn, -nbig);
            WHEN 'input int2' THEN i2 := tx::smallint;
            WHEN 'input int4' THEN i := tx::integer;
            WHEN 'input int8' THEN b := tx::bigint;
            WHEN 'input float4' THEN r4 := tx::real;
            WHEN 'input float8' THEN f := tx::double precision;
            WHEN 'input numeric' THEN n := tx::numeric;
            WHEN 'input bool' THEN bo := tx::boolean;
            WHEN 'input by assignment' THEN i := tx;
            WHEN 'input range int2' THEN i2 := t99999::smallint;
            WHEN 'input range float8' THEN f := t1e400::double precision;
            WHEN 'varchar(3)' THEN vc3 := t4;
            WHEN 'varchar(3) concat' THEN vc3 := left(t4, 3) || tx;
            WHEN 'char(3)' THEN bc3 := t4;
            WHEN 'substr negative' THEN v := substr(tx, 1, -one);
            WHEN 'nullif' THEN i := NULLIF(one / z, 0);
            WHEN 'coalesce' THEN i := COALESCE(nul, one / z);
            WHEN 'greatest' THEN i := GREATEST(i4 + one, 0);
            WHEN 'case expression' THEN i := CASE WHEN one = 1 THEN one / z ELSE 0 END;
            WHEN 'concat then cast' THEN i := (tx || one)::integer;
            WHEN 'raise' THEN RAISE EXCEPTION 'custom % %', what, one;
            WHEN 'raise errcode' THEN RAISE EXCEPTION 'with code' USING ERRCODE = 'P1234';
            WHEN 'raise condition' THEN RAISE division_by_zero;
            WHEN 'raise sqlstate' THEN RAISE SQLSTATE '22P02';
            WHEN 'raise using' THEN
                RAISE EXCEPTION USING MESSAGE = 'msg ' || what, DETAIL = 'd', HINT = 'h',
                    ERRCODE = 'unique_violation';
            WHEN 'raise condition using' THEN RAISE unique_violation USING MESSAGE = 'dup ' || one;
            WHEN 'raise class code' THEN RAISE EXCEPTION 'class' USING ERRCODE = '22000';
            WHEN 'raise other class' THEN RAISE EXCEPTION 'other' USING ERRCODE = 'check_violation';
            WHEN 'error in assert condition' THEN ASSERT one / z = 0;
            WHEN 'not null variable' THEN nn := nul;
            WHEN 'case not found' THEN
                CASE one WHEN 2 THEN v := 'two'; END CASE;
            WHEN 'searched case not found' THEN
                CASE WHEN one > 1 THEN v := 'big'; END CASE;
            WHEN 'array null subscript' THEN a[nul] := 1;
            WHEN 'array too big' THEN a[i4] := 1;
            WHEN 'array wrong dimensions' THEN a[1][2] := 1;
            WHEN 'array slice too small' THEN a[1:3] := ARRAY[one];
            WHEN 'array constructor' THEN a := ARRAY[ARRAY[one, 2], ARRAY[one]];
            WHEN 'array subscript out of range' THEN i := a[b8];
            WHEN 'array element input' THEN a[1] := tx;
            WHEN 'array element division' THEN a[2] := one / z;
            WHEN 'for by zero' THEN
                FOR k IN 1..3 BY z LOOP v := v || k; END LOOP;
            WHEN 'for null bound' THEN
                FOR k IN nul..3 LOOP v := v || k; END LOOP;
            WHEN 'for bound error' THEN
                FOR k IN 1..(one / z) LOOP v := v || k; END LOOP;
            WHEN 'raise null option' THEN RAISE EXCEPTION USING MESSAGE = nult;
            WHEN 'raise notice parameter' THEN RAISE NOTICE 'value %', one / z;
            WHEN 'if condition' THEN
                IF one / z > 0 THEN v := 'yes'; END IF;
            WHEN 'while condition' THEN
                WHILE one / z > 0 LOOP v := 'yes'; END LOOP;
            WHEN 'exit when' THEN
                LOOP EXIT WHEN one / z > 0; END LOOP;
            WHEN 'case selector' THEN
                CASE one / z WHEN 1 THEN v := 'one'; ELSE v := 'else'; END CASE;
            WHEN 'block initializer' THEN
                DECLARE
                    q integer := one / z;
                BEGIN
                    v := 'q=' || q;
                END;
            WHEN 'handler block initializer' THEN
                DECLARE
                    q integer := one / z;
                BEGIN
                    v := 'q=' || q;
                EXCEPTION
                    WHEN division_by_zero THEN
                        v := 'its own handler caught it';
                END;
            WHEN 'notice then error' THEN
                RAISE NOTICE 'notice before the error';
                i := one / z;
            ELSE v := 'no error';
        END CASE;
        v := v || ', completed';
    EXCEPTION
        WHEN division_by_zero THEN
            RETURN 'division_by_zero: ' || SQLSTATE || ' ' || SQLERRM || ' (v=' || v || ', a=' || a::text || ')';
        WHEN SQLSTATE 'P1234' THEN
            RETURN 'P1234: ' || SQLSTATE || ' ' || SQLERRM || ' (v=' || v || ', a=' || a::text || ')';
        WHEN unique_violation OR check_violation THEN
            RETURN 'unique/check: ' || SQLSTATE || ' ' || SQLERRM || ' (v=' || v || ', a=' || a::text || ')';
        WHEN data_exception THEN
            RETURN 'class 22: ' || SQLSTATE || ' ' || SQLERRM || ' (v=' || v || ', a=' || a::text || ')';
        WHEN OTHERS THEN
            RETURN 'others: ' || SQLSTATE || ' ' || SQLERRM || ' (v=' || v || ', a=' || a::text || ')';
    END;
    RETURN 'no error (v=' || v || ', a=' || a::text || ')';
END
$$;
CREATE TABLE m_err_kinds (k integer GENERATED ALWAYS AS IDENTITY, what text);
INSERT INTO m_err_kinds (what) VALUES
    ('div int2'), ('div int4'), ('div int8'), ('div numeric'), ('div float8'),
    ('div float4'), ('mod int4'), ('mod numeric'),
    ('overflow int2'), ('overflow int4'), ('overflow int8'),
    ('overflow int4 negate'), ('int8 to int4'), ('int4 to int2'),
    ('numeric to int4'), ('float8 to int4'), ('float8 to float4'),
    ('numeric field overflow'), ('float8 overflow'), ('float4 overflow'),
    ('float8 underflow'), ('sqrt negative'), ('numeric sqrt negative'),
    ('zero to negative power'),
    ('input int2'), ('input int4'), ('input int8'), ('input float4'),
    ('input float8'), ('input numeric'), ('input bool'),
    ('input by assignment'), ('input range int2'), ('input range float8'),
    ('varchar(3)'), ('varchar(3) concat'), ('char(3)'), ('substr negative'),
    ('nullif'), ('coalesce'), ('greatest'), ('case expression'),
    ('concat then cast'),
    ('raise'), ('raise errcode'), ('raise condition'), ('raise sqlstate'),
    ('raise using'), ('raise condition using'), ('raise class code'),
    ('raise other class'), ('error in assert condition'),
    ('not null variable'), ('case not found'), ('searched case not found'),
    ('array null subscript'), ('array too big'), ('array wrong dimensions'),
    ('array slice too small'), ('array constructor'),
    ('array subscript out of range'), ('array element input'),
    ('array element division'), ('for by zero'), ('for null bound'),
    ('for bound error'), ('raise null option'), ('raise notice parameter'),
    ('if condition'), ('while condition'), ('exit when'), ('case selector'),
    ('block initializer'), ('handler block initializer'),
    ('notice then error'), ('no error at all');
-- first run: plans every branch
CREATE TABLE m_err_cold AS
SELECT k, what, m_err(what, false) AS result FROM m_err_kinds ORDER BY k;
-- with the plans in place: the pure error, and the same error after a write
SELECT what, m_err(what, false) AS pure, m_err(what, true) AS after_write
FROM m_err_kinds ORDER BY k;
SELECT c.what, c.result AS cold, m_err(c.what, false) AS warm
FROM m_err_cold c WHERE c.result IS DISTINCT FROM m_err(c.what, false)
ORDER BY c.k;
-- only the write of the kind that raised no error stays
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- ASSERT failures are not caught by OTHERS: an outer WHEN assert_failure
-- catches them, and so does an explicit handler (by name or SQLSTATE)
CREATE FUNCTION m_assert(do_write boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    one integer := 1;
    r text := 'start';
BEGIN
    BEGIN
        IF do_write THEN
            INSERT INTO m_log VALUES (1, 'outer block');
        END IF;
        BEGIN
            r := r || ', inner';
            IF do_write THEN
                INSERT INTO m_log VALUES (2, 'inner block');
            END IF;
            ASSERT one = 2, 'one is ' || one;
            r := r || ', not reached';
        EXCEPTION
            WHEN OTHERS THEN
                r := r || ', OTHERS caught it';
        END;
        r := r || ', not reached either';
    EXCEPTION
        WHEN assert_failure THEN
            r := r || ', outer caught ' || SQLSTATE || ': ' || SQLERRM;
    END;
    BEGIN
        ASSERT one > 1;
    EXCEPTION
        WHEN assert_failure THEN
            r := r || ', explicit handler: ' || SQLERRM;
    END;
    BEGIN
        ASSERT one = 1 AND one > 0, 'not shown';
        r := r || ', true assertion passed';
        IF do_write THEN
            INSERT INTO m_log VALUES (3, 'last block');
        END IF;
        ASSERT one IS NULL;
    EXCEPTION
        WHEN SQLSTATE 'P0004' THEN
            r := r || ', by SQLSTATE: ' || SQLERRM;
    END;
    IF do_write THEN
        INSERT INTO m_log VALUES (4, 'after blocks');
    END IF;
    RETURN r;
END
$$;
SELECT w, m_assert(w) FROM (VALUES (false), (true), (false), (true)) v(w);
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- an ASSERT inside OTHERS-only blocks reaches the caller
CREATE FUNCTION m_assert_uncaught(k integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        BEGIN
            ASSERT k < 0, 'k must be negative, got ' || k;
            RETURN 'k is negative';
        EXCEPTION
            WHEN OTHERS THEN
                RETURN 'wrongly caught';
        END;
    EXCEPTION
        WHEN OTHERS THEN
            RETURN 'wrongly caught outside';
    END;
END
$$;
SELECT m_assert_uncaught(-1);
SELECT m_assert_uncaught(1);
SELECT m_assert_uncaught(2);
-- with assertions off, nothing is raised
SET plnimble.check_asserts = off;
SELECT m_assert_uncaught(3);
RESET plnimble.check_asserts;
SELECT m_assert_uncaught(4);

-- a RAISE with USING options, re-raised from a handler and not caught:
-- the caller sees the message, DETAIL, HINT and SQLSTATE unchanged
CREATE FUNCTION m_raise_uncaught(k integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        RAISE EXCEPTION 'raised % in block', k
            USING DETAIL = 'detail ' || k, HINT = 'a hint', ERRCODE = 'P0123';
    EXCEPTION
        WHEN SQLSTATE 'P0123' THEN
            RAISE;
    END;
END
$$;
SELECT m_raise_uncaught(1);
SELECT m_raise_uncaught(2);
CREATE FUNCTION m_raise_uncaught_state(k integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM m_raise_uncaught(k);
    RETURN 'not reached';
EXCEPTION
    WHEN OTHERS THEN
        RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
SELECT m_raise_uncaught_state(3);

-- 7. Query cancel in a pure loop -------------------------------------------------

-- statement_timeout cancels an endless pure loop.  query_canceled is not
-- caught by OTHERS, so the statement fails and its writes are undone.
-- (terse: the statement the cancel hits is not deterministic)
CREATE FUNCTION m_spin_others(do_write boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i integer := 0;
BEGIN
    IF do_write THEN
        INSERT INTO m_log VALUES (1, 'before block');
    END IF;
    BEGIN
        IF do_write THEN
            INSERT INTO m_log VALUES (2, 'in block');
        END IF;
        LOOP
            i := (i + 1) % 1000;
        END LOOP;
    EXCEPTION
        WHEN OTHERS THEN
            RETURN 'OTHERS caught ' || SQLSTATE;
    END;
END
$$;
-- WHEN query_canceled in the outer block catches it (the inner OTHERS
-- still does not); the writes of both blocks are rolled back, those before
-- and after them stay
CREATE FUNCTION m_spin_caught(do_write boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i integer := 0;
    r text := 'start';
BEGIN
    IF do_write THEN
        INSERT INTO m_log VALUES (10, 'before blocks');
    END IF;
    BEGIN
        IF do_write THEN
            INSERT INTO m_log VALUES (11, 'outer block');
        END IF;
        BEGIN
            IF do_write THEN
                INSERT INTO m_log VALUES (12, 'inner block');
            END IF;
            r := r || ', spinning';
            LOOP
                i := (i + 1) % 1000;
            END LOOP;
        EXCEPTION
            WHEN OTHERS THEN
                r := r || ', OTHERS caught it';
        END;
    EXCEPTION
        WHEN query_canceled THEN
            r := r || ', caught ' || SQLSTATE || ': ' || SQLERRM;
    END;
    IF do_write THEN
        INSERT INTO m_log VALUES (13, 'after blocks');
    END IF;
    RETURN r;
END
$$;
SET statement_timeout = '200ms';
\set VERBOSITY terse
SELECT m_spin_others(false);
SELECT m_spin_others(true);
SELECT m_spin_others(false);
SELECT m_spin_others(true);
\set VERBOSITY default
SELECT m_spin_caught(false);
SELECT m_spin_caught(true);
SELECT m_spin_caught(false);
SELECT m_spin_caught(true);
RESET statement_timeout;
SELECT * FROM m_log ORDER BY n;
TRUNCATE m_log;

-- 8. Thousands of caught pure errors in one transaction ------------------------

-- every iteration but each 1000th fails before writing; then COMMIT
CREATE FUNCTION m_many_errors(n integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    z integer := 0;
    x integer;
    caught integer := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            IF i % 1000 <> 0 THEN
                x := i / z;
            END IF;
            INSERT INTO m_log VALUES (i, 'kept');
        EXCEPTION
            WHEN division_by_zero THEN
                caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END
$$;
BEGIN;
INSERT INTO m_log VALUES (0, 'before');
SELECT m_many_errors(5000);
COMMIT;
SELECT count(*) FROM m_log;

DROP TABLE m_log, m_nest_log, m_nest_cold, m_nest_warm, m_hlog, m_handler_cold,
    m_handler_warm, m_src, m_err_kinds, m_err_cold;

-- an error caught inside a handler does not disturb the handler's own
-- error: SQLERRM, GET STACKED DIAGNOSTICS and bare RAISE still see it, at
-- every nesting level
CREATE FUNCTION lrm_nested_handlers() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
    msg text;
    x integer;
BEGIN
    BEGIN
        RAISE EXCEPTION 'outer' USING DETAIL = 'outer detail';
    EXCEPTION WHEN OTHERS THEN
        BEGIN
            x := 1 / 0;
        EXCEPTION WHEN division_by_zero THEN
            BEGIN
                RAISE EXCEPTION 'innermost';
            EXCEPTION WHEN OTHERS THEN
                r := r || SQLERRM || ' / ';
            END;
            r := r || SQLERRM || ' / ';
        END;
        GET STACKED DIAGNOSTICS msg = PG_EXCEPTION_DETAIL;
        r := r || SQLERRM || ' (' || msg || ')';
        BEGIN
            RAISE;
        EXCEPTION WHEN OTHERS THEN
            r := r || ' / re-raised: ' || SQLERRM;
        END;
    END;
    RETURN r;
END
$$;
SELECT lrm_nested_handlers();
