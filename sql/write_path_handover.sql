-- write_path_handover: a duplicate found by the write path (issue 18)
-- goes to the block's handler without the unique_violation being raised
-- when nothing can see the error: the handler has no bare RAISE and no
-- GET STACKED DIAGNOSTICS, and the function's text never names SQLERRM
-- (savepoint.c, pln_hand_duplicate_to_handler).  Whichever way plnimble
-- hands it over, the outputs must be PL/pgSQL's (an oracle test):
--   1. the handler-loop form and a block on its own, both outcomes, the
--      table's contents;
--   2. FOUND and ROW_COUNT in the handler and after the block, as the
--      statements before the block left them;
--   3. SQLSTATE read without SQLERRM; SQLERRM named only in a comment, as
--      a quoted name or spelled with Unicode escapes (then the error is
--      raised and caught as before); the INSERT not last in its block;
--   4. handlers that raise an error of their own, catch one in a nested
--      block, call a function that hands over a duplicate of its own, and
--      leave the loop with EXIT, CONTINUE and RETURN;
--   5. the same functions run again in one transaction, and after a
--      transaction that failed;
--   6. exit_on_error, which makes the duplicate's error (and an error of
--      pure work in a block) end the session, in sessions of their own:
--      the errors are reported in full, DETAIL and CONTEXT lines.
-- Which path the cases took (issue 27): wh_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wh_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wh_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wh_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wh_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wh_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wh_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wh_chk_path(NULL, NULL, NULL) AS reset;


CREATE TABLE ho_t (k int PRIMARY KEY, v text);

SELECT public.wh_chk_path(0, 0, 0);
-- 1. The handler-loop form and a block on its own ---------------------------

CREATE FUNCTION ho_loop(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (i / 2, 'loop ' || i);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END $$;

CREATE FUNCTION ho_once(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'once');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'new';
END $$;

SELECT ho_loop(9);
SELECT ho_once(3), ho_once(100), ho_once(100);
SELECT * FROM ho_t ORDER BY k;

SELECT public.wh_chk_path(3, 9, 0);
-- a loop whose body is more than the block
CREATE FUNCTION ho_loop_more(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..n LOOP
        r := r || i || ':';
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (200 + i / 2, 'more');
            r := r || 'n ';
        EXCEPTION WHEN unique_violation THEN
            r := r || 'd ';
        END;
    END LOOP;
    RETURN r;
END $$;

SELECT public.wh_chk_path(0, 0, 0);
-- (here the INSERT is not last in its block: it raises as before)
SELECT ho_loop_more(5);

SELECT public.wh_chk_path(0, 5, 0);
-- 2. FOUND and ROW_COUNT ----------------------------------------------------

CREATE FUNCTION ho_found(p_k int, p_upd int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    n bigint;
BEGIN
    UPDATE ho_t SET v = v WHERE k < p_upd;
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'found');
    EXCEPTION WHEN unique_violation THEN
        r := 'handler sees FOUND=' || FOUND::text;
    END;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN coalesce(r, 'no handler') || ', after: FOUND=' || FOUND::text ||
           ' ROW_COUNT=' || n;
END $$;

SELECT ho_found(300, 3);   -- new key: the INSERT's FOUND and ROW_COUNT
SELECT ho_found(300, 3);   -- duplicate: the UPDATE's (3 rows)
SELECT ho_found(300, -1);  -- duplicate: the UPDATE's (no row)

CREATE FUNCTION ho_found_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
    n bigint;
BEGIN
    PERFORM 1 FROM ho_t WHERE false;
    FOR i IN 300..302 LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (i, 'found loop');
        EXCEPTION WHEN unique_violation THEN
            r := r || i || ' FOUND=' || FOUND::text || ' ';
        END;
    END LOOP;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN r || 'after: FOUND=' || FOUND::text || ' ROW_COUNT=' || n;
END $$;

SELECT ho_found_loop();
SELECT ho_found_loop();

SELECT public.wh_chk_path(9, 0, 0);
-- 3. What the handler reads -------------------------------------------------

SELECT public.wh_chk_path(0, 0, 0);
-- SQLSTATE, not the message
CREATE FUNCTION ho_state(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'state');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'caught ' || SQLSTATE;
    END;
    RETURN 'new';
END $$;

SELECT ho_state(400), ho_state(400);

SELECT public.wh_chk_path(2, 0, 0);
-- the message: raised and caught as before
CREATE FUNCTION ho_message(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'message');
    EXCEPTION WHEN unique_violation THEN
        RETURN SQLSTATE || ': ' || SQLERRM;
    END;
    RETURN 'new';
END $$;

SELECT ho_message(400), ho_message(401), ho_message(401);

SELECT public.wh_chk_path(3, 0, 0);
-- named in a comment only: never read, but raised and caught as before
CREATE FUNCTION ho_comment(p_k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 0..2 LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (p_k + i % 2, 'comment');
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;  -- SQLERRM is not read
        END;
    END LOOP;
    RETURN dup || ' duplicates';
END $$;

SELECT ho_comment(410), ho_comment(410);

SELECT public.wh_chk_path(6, 0, 0);
-- quoted, and spelled with Unicode escapes
CREATE FUNCTION ho_quoted(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'quoted');
    EXCEPTION WHEN unique_violation THEN
        RETURN "sqlerrm";
    END;
    RETURN 'new';
END $$;

CREATE FUNCTION ho_escaped(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'escaped');
    EXCEPTION WHEN unique_violation THEN
        RETURN U&"\0073qlerrm";
    END;
    RETURN 'new';
END $$;

SELECT ho_quoted(420), ho_quoted(420);
SELECT ho_escaped(421), ho_escaped(421);

SELECT public.wh_chk_path(4, 0, 0);
-- 4. What the handler does --------------------------------------------------

SELECT public.wh_chk_path(0, 0, 0);
-- an error of its own, from a loop and from a block on its own
CREATE FUNCTION ho_raise_loop() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 500..502 LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (500 + i / 502, 'raise');
        EXCEPTION WHEN unique_violation THEN
            RAISE EXCEPTION 'key % is taken', i USING HINT = 'pick another';
        END;
    END LOOP;
    RETURN 'done';
END $$;

SELECT ho_raise_loop();
SELECT count(*) FROM ho_t WHERE k BETWEEN 500 AND 509;

CREATE FUNCTION ho_raise_once(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ho_t (k, v) VALUES (p_k, 'raise once');
    EXCEPTION WHEN unique_violation THEN
        RAISE unique_violation USING MESSAGE = 'already there: ' || p_k;
    END;
    RETURN 'new';
END $$;

SELECT ho_raise_once(510);
SELECT ho_raise_once(510);

SELECT public.wh_chk_path(4, 0, 0);
-- a nested block that catches an error of its own
CREATE FUNCTION ho_nested(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (600 + i / 3, 'nested');
        EXCEPTION WHEN unique_violation THEN
            BEGIN
                r := r || (1 / (i % 2))::text;
            EXCEPTION WHEN division_by_zero THEN
                r := r || 'z';
            END;
        END;
    END LOOP;
    RETURN r;
END $$;

SELECT ho_nested(8);

SELECT public.wh_chk_path(8, 0, 0);
-- a call of a function that hands over a duplicate of its own
CREATE FUNCTION ho_caller(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (700 + i / 2, 'caller');
        EXCEPTION WHEN unique_violation THEN
            r := r || ho_once(700 + i / 2) || ' ';
        END;
    END LOOP;
    RETURN r;
END $$;

SELECT ho_caller(5);

SELECT public.wh_chk_path(7, 0, 0);
-- leaving the loop from the handler
CREATE FUNCTION ho_exits(how text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    <<outer>>
    FOR j IN 1..2 LOOP
        FOR i IN 1..4 LOOP
            BEGIN
                INSERT INTO ho_t (k, v) VALUES (800 + i / 2, how);
            EXCEPTION WHEN unique_violation THEN
                CASE how
                    WHEN 'exit' THEN EXIT;
                    WHEN 'continue' THEN CONTINUE outer;
                    WHEN 'exit outer' THEN EXIT outer;
                    ELSE RETURN r || 'returned at ' || j || '.' || i;
                END CASE;
            END;
            r := r || j || '.' || i || ' ';
        END LOOP;
    END LOOP;
    RETURN r || 'end';
END $$;

SELECT ho_exits('exit');
DELETE FROM ho_t WHERE k >= 800;
SELECT ho_exits('continue');
DELETE FROM ho_t WHERE k >= 800;
SELECT ho_exits('exit outer');
DELETE FROM ho_t WHERE k >= 800;
SELECT ho_exits('return');

SELECT public.wh_chk_path(14, 0, 0);
-- the handler loop form, left from the handler
CREATE FUNCTION ho_exit_loop() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 900..910 LOOP
        BEGIN
            INSERT INTO ho_t (k, v) VALUES (i - i / 903, 'exit loop');
        EXCEPTION WHEN unique_violation THEN
            EXIT;
        END;
    END LOOP;
    RETURN 'left after ' || (SELECT count(*) FROM ho_t WHERE k >= 900);
END $$;

SELECT ho_exit_loop();

SELECT public.wh_chk_path(4, 0, 0);
-- 5. Again in one transaction, and after a failed one ----------------------

BEGIN;
SELECT ho_loop(12), ho_state(400), ho_comment(410);
SELECT ho_nested(4);
ROLLBACK;

BEGIN;
SELECT ho_once(1000);
SELECT ho_raise_once(1000);
ROLLBACK;

BEGIN;
SELECT ho_once(1000), ho_once(1000), ho_loop(4);
COMMIT;

SELECT k, v FROM ho_t WHERE k < 10 OR k >= 1000 ORDER BY k;
SELECT count(*), sum(k) FROM ho_t;

SELECT public.wh_chk_path(12, 16, 0);
-- 6. exit_on_error: the duplicate ends the session, as the plain INSERT's
-- error would; its report is complete -----------------------------------

\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh write_path_exit_on_error
\c
SELECT ho_once(100);
SELECT public.wh_chk_path(1, 0, 0);
-- (an error of pure work in a block, likewise)
\! sh sql/separate/run.sh exit_on_error_lazy
\c
SELECT 'reconnected';
SELECT public.wh_chk_path(0, 0, 0);
