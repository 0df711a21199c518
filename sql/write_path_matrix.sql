-- write_path_matrix: the insert-or-handle-duplicate idiom (issue 18), the
-- block shape that may run its INSERT without a subtransaction: a
-- single-row INSERT ... VALUES, last in a block whose only handler catches
-- unique_violation.  Whichever way plnimble runs it, the outputs must be
-- PL/pgSQL's (this is an oracle test, valid before and after the write
-- path exists):
--   1. both outcomes (new key, duplicate key), the handler reading
--      SQLSTATE, SQLERRM and every GET STACKED DIAGNOSTICS field, and a
--      bare RAISE that psql shows with its DETAIL and CONTEXT;
--   2. NOT NULL and CHECK errors on a duplicate key (they come first, and
--      the handler does not catch them); nextval defaults evaluated once
--      per attempt, whatever the outcome;
--   3. RETURNING col INTO var on both outcomes; FOUND and ROW_COUNT after
--      the block, from before it and from inside the handler;
--   4. loops: the issue's loop (handler UPDATE, counter, NULL), FOR over
--      a query, WHILE, FOREACH, CONTINUE and EXIT from the handler;
--   5. nested blocks: a qualifying block inside an outer WHEN OTHERS block
--      that later fails (the outer rollback undoes the inner inserts),
--      errors the inner block does not catch, three levels, SQL-level
--      SAVEPOINT / ROLLBACK TO and ROLLBACK around the calls;
--   6. where the block is called from: a function called by a function, a
--      DO block, a query over many rows, a trigger of another table, a
--      procedure; the CONTEXT lines and the statement text shown (the text
--      as written, INTO clause removed, comments and line breaks kept);
--   7. the key's history in the same transaction: inserted by a block that
--      then failed, inserted and deleted, its row's key updated away and
--      back; a loop over a query of the table being inserted into;
--      GET DIAGNOSTICS PG_CONTEXT in the handler;
--   8. handlers that reach the error's DETAIL in roundabout ways: a bare
--      RAISE or GET STACKED DIAGNOSTICS inside a nested block, loop, IF or
--      CASE of the handler, after a nested handler caught an error of its
--      own, after a call; a handler that reads nothing but re-raises at the
--      end.
-- Which path the cases took (issue 27): wm_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wm_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wm_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wm_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wm_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wm_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wm_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wm_chk_path(NULL, NULL, NULL) AS reset;


SELECT public.wm_chk_path(0, 0, 0);
-- every diagnostics field, NULL shown as NULL
CREATE FUNCTION wp_line(st text, msg text, det text, hint text, ctx text,
                        col text, con text, dt text, tab text, sch text)
RETURNS text LANGUAGE sql AS $$
    SELECT format('sqlstate=%s message=%s detail=%s hint=%s column=%s constraint=%s datatype=%s table=%s schema=%s context=%s',
                  coalesce(st, 'NULL'), coalesce(msg, 'NULL'), coalesce(det, 'NULL'),
                  coalesce(hint, 'NULL'), coalesce(col, 'NULL'), coalesce(con, 'NULL'),
                  coalesce(dt, 'NULL'), coalesce(tab, 'NULL'), coalesce(sch, 'NULL'),
                  coalesce(replace(ctx, E'\n', ' // '), 'NULL'))
$$;

CREATE SEQUENCE wp_s;
CREATE TABLE wp_t (
    k int PRIMARY KEY,
    v text NOT NULL DEFAULT 'dflt',
    s int NOT NULL DEFAULT nextval('wp_s'),
    c int CHECK (c >= 0)
);

SELECT public.wm_chk_path(0, 0, 0);
-- 1. Both outcomes, every field ---------------------------------------------

CREATE FUNCTION wp_ins(p_k int, p_v text, p_c int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hint text; ctx text;
    col text; con text; dt text; tab text; sch text;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v, c) VALUES (p_k, p_v, p_c);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT,
            ctx = PG_EXCEPTION_CONTEXT, col = COLUMN_NAME,
            con = CONSTRAINT_NAME, dt = PG_DATATYPE_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RAISE NOTICE 'SQLSTATE=% SQLERRM=%', SQLSTATE, SQLERRM;
        RAISE NOTICE '%', wp_line(st, msg, det, hint, ctx, col, con, dt, tab, sch);
        RETURN 'duplicate ' || p_k;
    END;
    RETURN 'inserted ' || p_k;
END
$$;

SELECT wp_ins(1, 'one', 0);
SELECT wp_ins(1, 'again', 0);
SELECT wp_ins(2, 'two', 5);
SELECT wp_ins(2, 'two', 5);
SELECT wp_ins(1, 'third time', 0);
SELECT * FROM wp_t ORDER BY k;
SELECT last_value FROM wp_s;

SELECT public.wm_chk_path(5, 0, 0);
-- the same, in one transaction: the duplicates are of rows inserted by the
-- same transaction, then the transaction is rolled back
BEGIN;
SELECT wp_ins(g % 3 + 10, 'in xact', 0) FROM generate_series(1, 6) g;
SELECT k, v FROM wp_t ORDER BY k;
ROLLBACK;
SELECT k, v FROM wp_t ORDER BY k;

SELECT public.wm_chk_path(6, 0, 0);
-- bare RAISE: the error leaves the function as the INSERT raised it
CREATE FUNCTION wp_reraise(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'reraise');
    EXCEPTION WHEN unique_violation THEN
        RAISE NOTICE 'caught %, re-raising', SQLSTATE;
        RAISE;
    END;
    RETURN 'inserted ' || p_k;
END
$$;
SELECT wp_reraise(3);
SELECT wp_reraise(3);
SELECT k, v FROM wp_t ORDER BY k;

SELECT public.wm_chk_path(2, 0, 0);
-- a handler that raises its own error with the caught one's fields
CREATE FUNCTION wp_wrap(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
    con text;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'wrap');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME;
        RAISE EXCEPTION 'wrapped: %', SQLERRM
            USING DETAIL = det, HINT = 'constraint ' || con, ERRCODE = 'P0001';
    END;
    RETURN 'inserted ' || p_k;
END
$$;
SELECT wp_wrap(4);
SELECT wp_wrap(4);

SELECT public.wm_chk_path(2, 0, 0);
-- an unqualified INSERT (no column list), key from an expression of
-- variables
CREATE FUNCTION wp_nocols(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    base int := 100;
BEGIN
    BEGIN
        INSERT INTO wp_t VALUES (base + p_k, 'no column list', 1000 + p_k, p_k);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_nocols(1), wp_nocols(1), wp_nocols(2);
SELECT * FROM wp_t WHERE k > 100 ORDER BY k;

SELECT public.wm_chk_path(3, 0, 0);
-- 2. NOT NULL and CHECK come before the duplicate; defaults once ----------

SELECT public.wm_chk_path(0, 0, 0);
-- the key exists and v is NULL: not_null_violation, not caught
SELECT wp_ins(1, NULL, 0);
SELECT public.wm_chk_path(1, 0, 0);
-- the key exists and c fails its CHECK: check_violation, not caught
SELECT wp_ins(1, 'x', -1);
SELECT public.wm_chk_path(1, 0, 0);
-- both: NOT NULL is checked first
SELECT wp_ins(1, NULL, -1);
SELECT public.wm_chk_path(1, 0, 0);
-- a new key with the same errors
SELECT wp_ins(50, NULL, 0);
SELECT wp_ins(50, 'x', -1);
SELECT k, v, c FROM wp_t ORDER BY k;

SELECT public.wm_chk_path(2, 0, 0);
-- the same errors caught further out, with their fields
CREATE FUNCTION wp_outer_catch(p_k int, p_v text, p_c int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hint text; ctx text;
    col text; con text; dt text; tab text; sch text;
BEGIN
    BEGIN
        RETURN wp_ins(p_k, p_v, p_c);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT,
            ctx = PG_EXCEPTION_CONTEXT, col = COLUMN_NAME,
            con = CONSTRAINT_NAME, dt = PG_DATATYPE_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RAISE NOTICE '%', wp_line(st, msg, det, hint, ctx, col, con, dt, tab, sch);
        RETURN 'outer caught ' || st;
    END;
END
$$;
SELECT wp_outer_catch(1, NULL, 0);
SELECT wp_outer_catch(1, 'x', -1);
SELECT wp_outer_catch(1, 'x', 0);
SELECT wp_outer_catch(51, 'new', 0);

SELECT public.wm_chk_path(0, 8, 0);
-- nextval in a default: evaluated once per attempt, duplicate or not
SELECT last_value FROM wp_s;
SELECT currval('wp_s');
SELECT wp_ins(1, 'seq', 0);
SELECT currval('wp_s');
SELECT wp_ins(60, 'seq', 0);
SELECT currval('wp_s');
SELECT wp_ins(60, 'seq', 0);
SELECT currval('wp_s');
SELECT k, s FROM wp_t WHERE k >= 50 ORDER BY k;

SELECT public.wm_chk_path(3, 0, 0);
-- 3. RETURNING ... INTO, FOUND, ROW_COUNT -------------------------------------

CREATE FUNCTION wp_ret(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int := -1;
    y int := -2;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'returning') RETURNING s, k INTO x, y;
    EXCEPTION WHEN unique_violation THEN
        RETURN format('duplicate, x=%s y=%s found=%s', x, y, found);
    END;
    RETURN format('inserted, x=%s y=%s found=%s', x, y, found);
END
$$;
SELECT wp_ret(70);
SELECT wp_ret(70);
SELECT wp_ret(71);
SELECT currval('wp_s');
SELECT k, s FROM wp_t WHERE k >= 70 ORDER BY k;

SELECT public.wm_chk_path(3, 0, 0);
-- INTO STRICT, one row either way
CREATE FUNCTION wp_ret_strict(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'strict') RETURNING k INTO STRICT x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, x=' || coalesce(x::text, 'NULL');
    END;
    RETURN 'inserted, x=' || x;
END
$$;
SELECT wp_ret_strict(72), wp_ret_strict(72);

SELECT public.wm_chk_path(2, 0, 0);
-- FOUND and ROW_COUNT: set by the statement before the block (a PERFORM
-- that finds a row or none, an UPDATE of 3 rows), then the block
CREATE TABLE wp_three (n int);
INSERT INTO wp_three VALUES (1), (2), (3);
CREATE FUNCTION wp_found(p_k int, pre int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    rc bigint;
    rc_h bigint := -1;
    f_h boolean;
    out text;
BEGIN
    IF pre = 0 THEN
        PERFORM 1 WHERE false;
    ELSIF pre = 1 THEN
        PERFORM 1;
    ELSE
        UPDATE wp_three SET n = n;
    END IF;
    GET DIAGNOSTICS rc = ROW_COUNT;
    out := format('before: found=%s row_count=%s', found, rc);
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'found');
    EXCEPTION WHEN unique_violation THEN
        f_h := found;
        GET DIAGNOSTICS rc_h = ROW_COUNT;
        out := out || format(' | handler: found=%s row_count=%s', f_h, rc_h);
    END;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN out || format(' | after: found=%s row_count=%s', found, rc);
END
$$;
SELECT p, wp_found(80 + p, p) FROM generate_series(0, 2) p;
SELECT p, wp_found(80 + p, p) FROM generate_series(0, 2) p;
SELECT k FROM wp_t WHERE k BETWEEN 80 AND 89 ORDER BY k;

SELECT public.wm_chk_path(6, 0, 0);
-- 4. Loops ---------------------------------------------------------------------

CREATE TABLE wp_kv (k int PRIMARY KEY, v int NOT NULL, hits int NOT NULL DEFAULT 1);
CREATE TABLE wp_src (k int, v int);
INSERT INTO wp_src SELECT g / 2, g FROM generate_series(1, 40) g;

SELECT public.wm_chk_path(0, 0, 0);
-- the issue's loop: the handler updates the existing row
CREATE FUNCTION wp_upsert_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    ins int := 0;
    upd int := 0;
BEGIN
    FOR r IN SELECT k, v FROM wp_src ORDER BY v LOOP
        BEGIN
            INSERT INTO wp_kv (k, v) VALUES (r.k, r.v);
        EXCEPTION WHEN unique_violation THEN
            UPDATE wp_kv SET v = r.v, hits = hits + 1 WHERE k = r.k;
            upd := upd + 1;
        END;
        ins := ins + 1;
    END LOOP;
    RETURN format('%s rows, %s updates', ins, upd);
END
$$;
SELECT wp_upsert_loop();
SELECT count(*), sum(v), sum(hits), min(k), max(k) FROM wp_kv;
SELECT wp_upsert_loop();
SELECT count(*), sum(v), sum(hits) FROM wp_kv;

SELECT public.wm_chk_path(80, 0, 0);
-- the counter form and the NULL form, FOR over integers, in one
-- transaction that is then rolled back
CREATE FUNCTION wp_count_loop(n int, lo int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wp_kv (k, v) VALUES (lo + i / 2, i);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN format('%s attempts, %s duplicates', n, dup);
END
$$;
CREATE FUNCTION wp_null_loop(n int, lo int) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wp_kv (k, v) VALUES (lo + i % 7, i);
        EXCEPTION WHEN unique_violation THEN
            NULL;
        END;
    END LOOP;
    RETURN (SELECT count(*) FROM wp_kv WHERE k >= lo);
END
$$;
BEGIN;
SELECT wp_count_loop(1000, 1000);
SELECT wp_null_loop(1000, 5000);
SELECT count(*), sum(v) FROM wp_kv WHERE k >= 1000;
ROLLBACK;
SELECT count(*), sum(v) FROM wp_kv WHERE k >= 1000;
SELECT wp_count_loop(200, 1000), wp_count_loop(200, 1000);
SELECT count(*), sum(v) FROM wp_kv WHERE k >= 1000;

SELECT public.wm_chk_path(2400, 0, 0);
-- WHILE, FOREACH, CONTINUE and EXIT from the handler, nested loops
CREATE FUNCTION wp_shapes() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i int := 0;
    x int;
    out text := '';
BEGIN
    WHILE i < 6 LOOP
        i := i + 1;
        BEGIN
            INSERT INTO wp_kv (k, v) VALUES (2000 + i % 3, i);
        EXCEPTION WHEN unique_violation THEN
            out := out || 'w' || i || ' ';
            CONTINUE;
        END;
        out := out || 'W' || i || ' ';
    END LOOP;
    FOREACH x IN ARRAY ARRAY[1, 2, 1, 3, 2, 4] LOOP
        BEGIN
            INSERT INTO wp_kv (k, v) VALUES (2100 + x, x);
        EXCEPTION WHEN unique_violation THEN
            out := out || 'f' || x || ' ';
        END;
    END LOOP;
    <<outer>>
    FOR a IN 1..3 LOOP
        FOR b IN 1..3 LOOP
            BEGIN
                INSERT INTO wp_kv (k, v) VALUES (2200 + a * b, a * 10 + b);
            EXCEPTION WHEN unique_violation THEN
                out := out || 'n' || a || b || ' ';
                IF a * b = 4 THEN
                    EXIT outer;
                END IF;
            END;
        END LOOP;
    END LOOP;
    RETURN out;
END
$$;
SELECT wp_shapes();
SELECT k, v FROM wp_kv WHERE k BETWEEN 2000 AND 2299 ORDER BY k;
SELECT wp_shapes();

SELECT public.wm_chk_path(38, 0, 0);
-- 5. Nested blocks and outer rollbacks ---------------------------------------

CREATE TABLE wp_n (k int PRIMARY KEY, note text NOT NULL);

SELECT public.wm_chk_path(0, 0, 0);
-- inner qualifying blocks in a loop inside an outer WHEN OTHERS block that
-- fails afterwards: the outer rollback undoes every inner insert
CREATE FUNCTION wp_outer_fails(fail boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    z int := 0;
    dup int := 0;
BEGIN
    BEGIN
        FOR i IN 1..10 LOOP
            BEGIN
                INSERT INTO wp_n VALUES (i % 4, 'inner ' || i);
            EXCEPTION WHEN unique_violation THEN
                dup := dup + 1;
            END;
        END LOOP;
        IF fail THEN
            z := 1 / z;
        END IF;
    EXCEPTION WHEN OTHERS THEN
        RETURN format('outer caught %s after %s duplicates, rows now %s',
                      SQLSTATE, dup, (SELECT count(*) FROM wp_n));
    END;
    RETURN format('%s duplicates, rows now %s', dup, (SELECT count(*) FROM wp_n));
END
$$;
SELECT wp_outer_fails(true);
SELECT * FROM wp_n ORDER BY k;
SELECT wp_outer_fails(false);
SELECT * FROM wp_n ORDER BY k;
SELECT wp_outer_fails(true);
SELECT * FROM wp_n ORDER BY k;
DELETE FROM wp_n;

SELECT public.wm_chk_path(0, 33, 0);
-- the inner block's INSERT fails with an error it does not catch (NOT
-- NULL): the outer handler catches it, the earlier inner inserts of the
-- outer block are undone, rows inserted before the outer block stay
CREATE FUNCTION wp_inner_uncaught() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    notes text[] := ARRAY['a', 'b', NULL, 'd'];
    done text := '';
BEGIN
    INSERT INTO wp_n VALUES (0, 'before the outer block');
    BEGIN
        FOR i IN 1..4 LOOP
            BEGIN
                INSERT INTO wp_n VALUES (i, notes[i]);
            EXCEPTION WHEN unique_violation THEN
                done := done || 'dup' || i || ' ';
            END;
            done := done || i || ' ';
        END LOOP;
    EXCEPTION WHEN not_null_violation THEN
        RETURN done || '| outer caught: ' || SQLERRM;
    END;
    RETURN done;
END
$$;
SELECT wp_inner_uncaught();
SELECT * FROM wp_n ORDER BY k;
DELETE FROM wp_n;

SELECT public.wm_chk_path(0, 4, 0);
-- three levels: each level a qualifying block of its own (the inner two
-- are the last statement of the block around them), the outermost with
-- WHEN OTHERS; a duplicate at each level, then a failure in the middle
CREATE FUNCTION wp_three_levels(k1 int, k2 int, k3 int, fail_mid boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    out text := '';
    z int := 0;
BEGIN
    BEGIN
        INSERT INTO wp_n VALUES (k1, 'level 1');
        BEGIN
            INSERT INTO wp_n VALUES (k2, 'level 2');
            BEGIN
                INSERT INTO wp_n VALUES (k3, 'level 3');
            EXCEPTION WHEN unique_violation THEN
                out := out || 'dup3 ';
            END;
            IF fail_mid THEN
                z := 1 / z;
            END IF;
        EXCEPTION WHEN unique_violation THEN
            out := out || 'dup2 ';
        END;
    EXCEPTION WHEN OTHERS THEN
        out := out || 'level1 caught ' || SQLSTATE || ' ';
    END;
    RETURN out || '| rows ' || (SELECT string_agg(k::text, ',' ORDER BY k) FROM wp_n);
END
$$;
SELECT wp_three_levels(1, 2, 3, false);
SELECT wp_three_levels(4, 5, 3, false);
SELECT wp_three_levels(6, 2, 7, false);
SELECT wp_three_levels(8, 9, 10, true);
SELECT wp_three_levels(1, 11, 12, false);
SELECT * FROM wp_n ORDER BY k;
DELETE FROM wp_n;

SELECT public.wm_chk_path(0, 12, 0);
-- an inner qualifying block whose handler re-raises, caught by the outer
-- block: the inner inserts of the same outer block are undone
CREATE FUNCTION wp_inner_reraise() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        FOR i IN 1..5 LOOP
            BEGIN
                INSERT INTO wp_n VALUES (i % 3, 'reraise ' || i);
            EXCEPTION WHEN unique_violation THEN
                RAISE;
            END;
        END LOOP;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'outer caught: ' || SQLERRM || ', rows '
            || (SELECT count(*) FROM wp_n);
    END;
    RETURN 'not reached';
END
$$;
SELECT wp_inner_reraise();
SELECT * FROM wp_n ORDER BY k;

SELECT public.wm_chk_path(0, 5, 0);
-- SQL-level savepoints and rollbacks around the calls
BEGIN;
SELECT wp_count_loop(10, 3000);
SAVEPOINT a;
SELECT wp_count_loop(10, 3003);
SELECT count(*) FROM wp_kv WHERE k >= 3000;
ROLLBACK TO a;
SELECT count(*) FROM wp_kv WHERE k >= 3000;
SELECT wp_count_loop(10, 3003);
RELEASE a;
SAVEPOINT b;
SELECT wp_count_loop(4, 3000);
COMMIT;
SELECT count(*), sum(v) FROM wp_kv WHERE k >= 3000;
BEGIN;
SELECT wp_count_loop(10, 3100);
SELECT wp_ins(1, 'in failed xact', 0);
SELECT wp_reraise(1);
SELECT 1;
ROLLBACK;
SELECT count(*) FROM wp_kv WHERE k >= 3100;

SELECT public.wm_chk_path(22, 24, 0);
-- 6. Where the block is called from ------------------------------------------

SELECT public.wm_chk_path(0, 0, 0);
-- a function called by a function: the inner one re-raises, the outer one
-- shows the whole context
CREATE FUNCTION wp_caller(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hint text; ctx text;
    col text; con text; dt text; tab text; sch text;
BEGIN
    PERFORM wp_reraise(p_k);
    RETURN 'ok';
EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
        det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT,
        ctx = PG_EXCEPTION_CONTEXT, col = COLUMN_NAME,
        con = CONSTRAINT_NAME, dt = PG_DATATYPE_NAME,
        tab = TABLE_NAME, sch = SCHEMA_NAME;
    RAISE NOTICE '%', wp_line(st, msg, det, hint, ctx, col, con, dt, tab, sch);
    RETURN SQLERRM;
END
$$;
SELECT wp_caller(3);
SELECT wp_caller(90);
CREATE FUNCTION wp_caller_uncaught(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    r := wp_reraise(p_k);
    RETURN r;
END
$$;
SELECT wp_caller_uncaught(3);

SELECT public.wm_chk_path(1, 4, 0);
-- DO blocks
DO $$
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (3, 'do');
    EXCEPTION WHEN unique_violation THEN
        RAISE NOTICE 'DO caught: %', SQLERRM;
        RAISE;
    END;
END
$$;
DO $$
DECLARE
    ctx text;
BEGIN
    FOR i IN 1..3 LOOP
        BEGIN
            INSERT INTO wp_t (k, v) VALUES (i, 'do loop');
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
            RAISE NOTICE 'DO loop %: %', i, replace(ctx, E'\n', ' // ');
        END;
    END LOOP;
END
$$;

SELECT public.wm_chk_path(4, 0, 0);
-- called from a query over many rows
SELECT g, wp_ins(g % 5 + 200, 'query', 0) FROM generate_series(1, 8) g;
SELECT g, wp_reraise(g % 5 + 300) FROM generate_series(1, 8) g;
SELECT k FROM wp_t WHERE k >= 200 ORDER BY k;

SELECT public.wm_chk_path(14, 0, 0);
-- a trigger of another table whose function has the block
CREATE TABLE wp_feed (k int, note text);
CREATE FUNCTION wp_feed_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wp_n VALUES (NEW.k, NEW.note);
    EXCEPTION WHEN unique_violation THEN
        NEW.note := NEW.note || ' (duplicate in wp_n: ' || SQLERRM || ')';
    END;
    RETURN NEW;
END
$$;
CREATE TRIGGER wp_feed_trg BEFORE INSERT ON wp_feed
    FOR EACH ROW EXECUTE FUNCTION wp_feed_trg();
INSERT INTO wp_feed VALUES (1, 'feed a'), (2, 'feed b'), (1, 'feed c');
INSERT INTO wp_feed VALUES (2, 'feed d');
SELECT * FROM wp_feed ORDER BY note;
SELECT * FROM wp_n ORDER BY k;
CREATE FUNCTION wp_feed_trg2() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wp_n VALUES (NEW.k, NEW.note);
    EXCEPTION WHEN unique_violation THEN
        RAISE;
    END;
    RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER wp_feed_trg BEFORE INSERT ON wp_feed
    FOR EACH ROW EXECUTE FUNCTION wp_feed_trg2();
INSERT INTO wp_feed VALUES (5, 'feed e'), (2, 'feed f');
SELECT count(*) FROM wp_feed;
SELECT * FROM wp_n ORDER BY k;

SELECT public.wm_chk_path(6, 0, 0);
-- a procedure that commits after each block (each transaction's first
-- INSERT comes before the table is locked by it)
CREATE PROCEDURE wp_proc(n int) LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wp_n VALUES (100 + i % 3, 'proc ' || i);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
        IF i % 2 = 0 THEN
            COMMIT;
        ELSE
            ROLLBACK;
        END IF;
    END LOOP;
    RAISE NOTICE '% duplicates', dup;
END
$$;
CALL wp_proc(8);
SELECT * FROM wp_n WHERE k >= 100 ORDER BY k;

SELECT public.wm_chk_path(0, 8, 0);
-- statement text in the CONTEXT: as written, comments and line breaks
-- kept, the INTO clause taken out
CREATE FUNCTION wp_text(p_k int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    x int := 0;
BEGIN
    BEGIN
        insert   into wp_t   -- the target
            ( k , v )
            values ( p_k , /* a comment */ 'text' )
            returning k
            into x ;
    EXCEPTION WHEN unique_violation THEN
        RAISE;
    END;
    RETURN x;
END
$$;
SELECT wp_text(400);
SELECT wp_text(400);

SELECT public.wm_chk_path(2, 0, 0);
-- 7. The key's history in this transaction ---------------------------------------

CREATE FUNCTION wp_history() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    z int := 0;
BEGIN
    -- inserted by a block that failed afterwards: the key is free
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (500, 'undone');
        z := 1 / z;
    EXCEPTION WHEN division_by_zero THEN
        NULL;
    END;
    RETURN NEXT wp_ins(500, 'after an undone insert', 0);
    RETURN NEXT wp_ins(500, 'again', 0);
    -- inserted and deleted by this transaction
    INSERT INTO wp_t (k, v) VALUES (501, 'to delete');
    DELETE FROM wp_t WHERE k = 501;
    RETURN NEXT wp_ins(501, 'after a delete', 0);
    -- the row's key updated away, then back
    UPDATE wp_t SET k = 503 WHERE k = 500;
    RETURN NEXT wp_ins(500, 'key moved away', 0);
    RETURN NEXT wp_ins(503, 'moved key', 0);
    UPDATE wp_t SET k = 504 WHERE k = 503;
    UPDATE wp_t SET k = 503 WHERE k = 504;
    RETURN NEXT wp_ins(503, 'moved back', 0);
    -- deleted by a block that failed afterwards: the row is back
    BEGIN
        DELETE FROM wp_t WHERE k = 501;
        z := 1 / z;
    EXCEPTION WHEN division_by_zero THEN
        NULL;
    END;
    RETURN NEXT wp_ins(501, 'after an undone delete', 0);
END
$$;
SELECT * FROM wp_history();
SELECT k, v FROM wp_t WHERE k >= 500 ORDER BY k;
BEGIN;
DELETE FROM wp_t WHERE k >= 500;
SELECT * FROM wp_history();
ROLLBACK;
SELECT k, v FROM wp_t WHERE k >= 500 ORDER BY k;

SELECT public.wm_chk_path(14, 4, 0);
-- a loop over the table being inserted into: the loop's query does not
-- see the rows the blocks insert
CREATE FUNCTION wp_self_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n int := 0;
    dup int := 0;
BEGIN
    FOR r IN SELECT k FROM wp_t WHERE k BETWEEN 1 AND 4 ORDER BY k LOOP
        n := n + 1;
        BEGIN
            INSERT INTO wp_t (k, v) VALUES (r.k + 600, 'self loop');
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
        BEGIN
            INSERT INTO wp_t (k, v) VALUES (r.k, 'self loop');
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN format('%s rows read, %s duplicates', n, dup);
END
$$;
SELECT wp_self_loop(), wp_self_loop();
SELECT k, v FROM wp_t WHERE k > 600 ORDER BY k;

SELECT public.wm_chk_path(16, 0, 0);
-- the current context and the stacked one, in the handler
CREATE FUNCTION wp_pg_context(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    here text;
    there text;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'context');
    EXCEPTION WHEN unique_violation THEN
        GET DIAGNOSTICS here = PG_CONTEXT;
        GET STACKED DIAGNOSTICS there = PG_EXCEPTION_CONTEXT;
        RAISE NOTICE 'current: %', replace(here, E'\n', ' // ');
        RAISE NOTICE 'stacked: %', replace(there, E'\n', ' // ');
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_pg_context(700), wp_pg_context(700);

SELECT public.wm_chk_path(2, 0, 0);
-- 8. Handlers that reach the DETAIL in roundabout ways ----------------------------

CREATE FUNCTION wp_nothing() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1;
END
$$;
CREATE FUNCTION wp_roundabout(p_k int, how int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text := 'unset';
    z int := 0;
BEGIN
    BEGIN
        INSERT INTO wp_t (k, v) VALUES (p_k, 'roundabout');
    EXCEPTION WHEN unique_violation THEN
        IF how = 1 THEN
            -- a bare RAISE in a nested block, caught there
            BEGIN
                RAISE;
            EXCEPTION WHEN OTHERS THEN
                GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
            END;
        ELSIF how = 2 THEN
            -- GET STACKED DIAGNOSTICS in a nested block without handlers
            BEGIN
                GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
            END;
        ELSIF how = 3 THEN
            -- in a loop, in a CASE
            FOR i IN 1..2 LOOP
                CASE i
                    WHEN 2 THEN
                        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
                    ELSE
                        NULL;
                END CASE;
            END LOOP;
        ELSIF how = 4 THEN
            -- a nested handler catches an error of its own first
            BEGIN
                z := 1 / z;
            EXCEPTION WHEN division_by_zero THEN
                GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
                det := 'inner: ' || coalesce(nullif(det, ''), '-');
            END;
            RAISE;
        ELSIF how = 5 THEN
            -- a call, then the bare RAISE
            PERFORM wp_nothing();
            RAISE;
        ELSIF how = 6 THEN
            -- a bare RAISE in a nested block's own handler for another error
            BEGIN
                z := 1 / z;
            EXCEPTION WHEN division_by_zero THEN
                BEGIN
                    RAISE;
                EXCEPTION WHEN division_by_zero THEN
                    det := 'the inner error again';
                END;
            END;
            GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        ELSE
            -- nothing read; raised again at the end of the handler
            RAISE;
        END IF;
        RETURN 'how ' || how || ': ' || coalesce(det, 'NULL');
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_roundabout(800, 0);
SELECT h, wp_roundabout(800, h) FROM generate_series(1, 3) h;
SELECT wp_roundabout(800, 4);
SELECT wp_roundabout(800, 5);
SELECT wp_roundabout(800, 6);
SELECT wp_roundabout(800, 7);
SELECT public.wm_chk_path(8, 0, 0);
-- the same, the re-raised error caught by the caller
DO $$
DECLARE
    det text;
BEGIN
    FOR h IN 4..7 LOOP
        BEGIN
            PERFORM wp_roundabout(800, h);
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
            RAISE NOTICE 'how %: caller sees %', h, det;
        END;
    END LOOP;
END
$$;

DROP TABLE wp_t, wp_kv, wp_src, wp_n, wp_three, wp_feed CASCADE;
SELECT public.wm_chk_path(0, 8, 0);
