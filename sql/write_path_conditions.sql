-- write_path_conditions: blocks around a single-row INSERT that must not
-- run it without their subtransaction (issue 18), and the ones next to
-- them that may; every case with a new key and a duplicate, checked
-- against PL/pgSQL whichever way plnimble runs it:
--   1. handlers: WHEN OTHERS, unique_violation OR another condition, the
--      class integrity_constraint_violation, SQLSTATE '23505', two
--      handlers, a NOT NULL error caught by the class;
--   2. statement shapes: INSERT not last in the block, inside a loop
--      inside the block, multi-row VALUES, INSERT ... SELECT, WITH, an
--      existing ON CONFLICT (DO NOTHING, DO UPDATE), RETURNING of an
--      expression, INTO a variable of another type, INTO a record or a row
--      variable, DEFAULT VALUES, OVERRIDING SYSTEM VALUE, EXECUTE;
--   3. values and defaults calling functions that write (their writes must
--      be undone with the duplicate), volatile functions, a sequence;
--   4. isolation levels other than READ COMMITTED (one session: the same
--      outcomes; the concurrent cases are in isolation/specs/);
--   5. the table's locks: held or not held before the block, by which
--      statement and in which mode; pg_locks after the block must list
--      what PL/pgSQL leaves (a subtransaction's abort releases the locks
--      it took);
--   6. errors after the row is written that the handler does not catch
--      (an index row too large), caught by an enclosing block;
--   7. the table changes between two calls of the same function (a
--      trigger, a CHECK calling a function that writes, a second unique
--      index, row-level security, a rule, the key made deferrable, the
--      key dropped, a column dropped): each call must behave as the plain
--      INSERT does on the table as it is then;
--   8. values that need a cast to the column's type, and a cast that
--      fails (before the write).
-- Which path the cases took (issue 27): wc_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wc_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wc_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wc_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wc_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wc_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wc_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wc_chk_path(NULL, NULL, NULL) AS reset;


CREATE TABLE wc (k int PRIMARY KEY, v text);
CREATE TABLE wc_log (n serial, what text);
INSERT INTO wc VALUES (1, 'one');

SELECT public.wc_chk_path(0, 0, 0);
-- 1. Handlers --------------------------------------------------------------------

CREATE FUNCTION wc_others(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'others');
    EXCEPTION WHEN OTHERS THEN
        RETURN 'others: ' || SQLSTATE || ' ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_or(p int, v text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, v);
    EXCEPTION WHEN unique_violation OR not_null_violation THEN
        RETURN 'or: ' || SQLSTATE || ' ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_or_dz(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'or_dz');
    EXCEPTION WHEN unique_violation OR division_by_zero THEN
        RETURN 'or_dz: ' || SQLSTATE;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_class(p int, v text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, v);
    EXCEPTION WHEN integrity_constraint_violation THEN
        RETURN 'class: ' || SQLSTATE || ' ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_sqlstate(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'sqlstate');
    EXCEPTION WHEN SQLSTATE '23505' THEN
        RETURN 'sqlstate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_two(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'two');
    EXCEPTION
        WHEN unique_violation THEN
            RETURN 'first handler: ' || SQLERRM;
        WHEN OTHERS THEN
            RETURN 'second handler: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_two_uv(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'two_uv');
    EXCEPTION
        WHEN unique_violation THEN
            RETURN 'first: ' || SQLERRM;
        WHEN unique_violation THEN
            RETURN 'second: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT wc_others(10), wc_others(10);
SELECT wc_or(11, 'x'), wc_or(11, 'x'), wc_or(12, NULL), wc_or(11, NULL);
SELECT wc_or_dz(13), wc_or_dz(13);
SELECT wc_class(14, 'x'), wc_class(14, 'x'), wc_class(15, NULL), wc_class(14, NULL);
SELECT wc_sqlstate(16), wc_sqlstate(16);
SELECT wc_two(17), wc_two(17);
SELECT wc_two_uv(18), wc_two_uv(18);
SELECT * FROM wc ORDER BY k;

SELECT public.wc_chk_path(4, 14, 0);
-- 2. Statement shapes ----------------------------------------------------------

SELECT public.wc_chk_path(0, 0, 0);
-- not last in the block
CREATE FUNCTION wc_not_last(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    n int := 0;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'not last');
        n := n + 1;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, n=' || n;
    END;
    RETURN 'inserted, n=' || n;
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- two INSERTs, the second last: the first one's row must go when the
-- second is a duplicate
CREATE FUNCTION wc_two_inserts(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'first of two');
        INSERT INTO wc VALUES (q, 'second of two');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- a write before the INSERT
CREATE FUNCTION wc_write_before(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_log (what) VALUES ('before ' || p);
        INSERT INTO wc VALUES (p, 'after a log row');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- inside a loop inside the block
CREATE FUNCTION wc_loop_inside(lo int, n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    done int := 0;
BEGIN
    BEGIN
        FOR i IN 0..n - 1 LOOP
            done := done + 1;
            INSERT INTO wc VALUES (lo + i, 'loop inside');
        END LOOP;
    EXCEPTION WHEN unique_violation THEN
        RETURN format('duplicate after %s, rows now %s', done,
                      (SELECT count(*) FROM wc WHERE v = 'loop inside'));
    END;
    RETURN 'inserted ' || done;
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- an IF around the INSERT, the IF last in the block
CREATE FUNCTION wc_if(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        IF p > 0 THEN
            INSERT INTO wc VALUES (p, 'in if');
        END IF;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
SELECT wc_not_last(20), wc_not_last(20);
SELECT wc_two_inserts(21, 22), wc_two_inserts(23, 22), wc_two_inserts(21, 24);
SELECT wc_write_before(25), wc_write_before(25);
SELECT wc_loop_inside(30, 3), wc_loop_inside(32, 3), wc_loop_inside(36, 3);
SELECT wc_if(40), wc_if(40);
SELECT * FROM wc WHERE k >= 20 ORDER BY k;
SELECT what FROM wc_log ORDER BY n;

SELECT public.wc_chk_path(0, 12, 0);
-- multi-row VALUES, INSERT ... SELECT, WITH, ON CONFLICT
CREATE FUNCTION wc_multi(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'multi a'), (q, 'multi b');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_select(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc SELECT p, 'select';
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_with(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        WITH l AS (INSERT INTO wc_log (what) VALUES ('with ' || p))
        INSERT INTO wc VALUES (p, 'with');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_with_select(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        WITH x AS (SELECT p AS k)
        INSERT INTO wc SELECT k, 'with select' FROM x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_on_conflict(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    rc bigint;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'on conflict') ON CONFLICT DO NOTHING;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'not reached';
    END;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN format('found=%s row_count=%s', found, rc);
END
$$;
CREATE FUNCTION wc_on_conflict_upd(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x text;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'upsert') ON CONFLICT (k)
            DO UPDATE SET v = wc.v || '+' RETURNING v INTO x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'not reached';
    END;
    RETURN format('found=%s v=%s', found, x);
END
$$;
SELECT wc_multi(50, 51), wc_multi(52, 50), wc_multi(53, 53);
SELECT wc_select(54), wc_select(54);
SELECT wc_with(55), wc_with(55);
SELECT wc_with_select(56), wc_with_select(56);
SELECT wc_on_conflict(57), wc_on_conflict(57);
SELECT wc_on_conflict_upd(58), wc_on_conflict_upd(58), wc_on_conflict_upd(58);
SELECT * FROM wc WHERE k >= 50 ORDER BY k;
SELECT what FROM wc_log ORDER BY n;

SELECT public.wc_chk_path(0, 14, 0);
-- RETURNING: an expression, into another type, into a record and a row
-- variable, RETURNING *
CREATE FUNCTION wc_ret_expr(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x int := -1;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'ret expr') RETURNING k * 2 INTO x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, x=' || x;
    END;
    RETURN 'inserted, x=' || x;
END
$$;
CREATE FUNCTION wc_ret_cast(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x text := 'unset';
    y numeric := -1;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'ret cast') RETURNING k, k INTO x, y;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, x=' || x || ' y=' || y;
    END;
    RETURN 'inserted, x=' || x || ' y=' || y;
END
$$;
CREATE FUNCTION wc_ret_rec(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    w wc;
BEGIN
    w.k := -1;
    BEGIN
        INSERT INTO wc VALUES (p, 'ret rec') RETURNING * INTO w;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, w=' || w::text;
    END;
    BEGIN
        INSERT INTO wc VALUES (p + 1, 'ret rec') RETURNING k, v INTO r;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate 2, w=' || w::text;
    END;
    RETURN 'inserted, w=' || w::text || ' r=' || r::text;
END
$$;
CREATE FUNCTION wc_ret_narrow(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x smallint := -1;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'ret narrow') RETURNING k INTO x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate, x=' || x;
    END;
    RETURN 'inserted, x=' || x;
END
$$;
SELECT wc_ret_expr(60), wc_ret_expr(60);
SELECT wc_ret_cast(61), wc_ret_cast(61);
SELECT wc_ret_rec(62), wc_ret_rec(62), wc_ret_rec(64), wc_ret_rec(63);
SELECT wc_ret_narrow(66), wc_ret_narrow(66);
SELECT public.wc_chk_path(0, 12, 0);
-- the value does not fit: the error comes after the row was written,
-- and is not a unique_violation; caught further out, the row is gone
SELECT wc_ret_narrow(100000);
DO $$
BEGIN
    PERFORM wc_ret_narrow(100001);
EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE NOTICE 'caught %: %, row there: %', SQLSTATE, SQLERRM,
        (SELECT count(*) FROM wc WHERE k = 100001);
END
$$;
SELECT * FROM wc WHERE k >= 60 ORDER BY k;

SELECT public.wc_chk_path(0, 3, 0);
-- DEFAULT VALUES, identity columns, OVERRIDING SYSTEM VALUE, EXECUTE
CREATE TABLE wc_id (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text DEFAULT 'd');
CREATE FUNCTION wc_default_values() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_id DEFAULT VALUES;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_overriding(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_id OVERRIDING SYSTEM VALUE VALUES (p, 'overriding');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_execute(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        EXECUTE 'INSERT INTO wc VALUES ($1, $2)' USING p, 'execute';
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT wc_overriding(3), wc_default_values(), wc_default_values(),
       wc_default_values(), wc_default_values();
SELECT * FROM wc_id ORDER BY id;
SELECT wc_execute(70), wc_execute(70);

SELECT public.wc_chk_path(1, 6, 0);
-- 3. Values and defaults that call functions ---------------------------------

SELECT public.wc_chk_path(0, 0, 0);
-- a function that writes: with a duplicate its row must be gone too
CREATE FUNCTION wc_logged(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wc_log (what) VALUES (t);
    RETURN t;
END
$$;
CREATE FUNCTION wc_logged_sql(t text) RETURNS text LANGUAGE sql AS $$
    INSERT INTO wc_log (what) VALUES ('sql ' || t) RETURNING what
$$;
CREATE FUNCTION wc_vals_fn(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, wc_logged('value for ' || p));
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_vals_sqlfn(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, wc_logged_sql('value for ' || p));
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- a subquery in VALUES
CREATE FUNCTION wc_vals_subq(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, (SELECT count(*) FROM wc_log)::text);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
DELETE FROM wc_log;
SELECT wc_vals_fn(80), wc_vals_fn(80), wc_vals_fn(1);
SELECT wc_vals_sqlfn(81), wc_vals_sqlfn(81), wc_vals_sqlfn(1);
SELECT wc_vals_subq(82), wc_vals_subq(82);
SELECT what FROM wc_log ORDER BY n;
SELECT * FROM wc WHERE k >= 80 ORDER BY k;

SELECT public.wc_chk_path(0, 8, 0);
-- defaults: a function that writes, nextval, volatile functions
CREATE SEQUENCE wc_seq;
CREATE SEQUENCE wc_seq2;
CREATE FUNCTION wc_default_fn() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wc_log (what) VALUES ('default fn');
    RETURN 'from default fn';
END
$$;
CREATE TABLE wc_def (
    k int PRIMARY KEY,
    a bigint DEFAULT nextval('wc_seq'),
    b text DEFAULT wc_default_fn(),
    c int DEFAULT nextval('wc_seq2') * 10 + 1,
    d boolean DEFAULT random() >= 0,
    e timestamptz DEFAULT clock_timestamp()
);
CREATE FUNCTION wc_def_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_def (k) VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
DELETE FROM wc_log;
SELECT wc_def_ins(1), wc_def_ins(1), wc_def_ins(2), wc_def_ins(2);
SELECT k, a, b, c, d, e IS NOT NULL AS e FROM wc_def ORDER BY k;
SELECT what FROM wc_log ORDER BY n;
SELECT last_value FROM wc_seq;
SELECT last_value FROM wc_seq2;
SELECT public.wc_chk_path(0, 4, 0);
-- a default that fails (the sequence is exhausted): before the conflict
ALTER SEQUENCE wc_seq2 MAXVALUE 5;
SELECT wc_def_ins(3);
SELECT wc_def_ins(1);

SELECT public.wc_chk_path(0, 2, 0);
-- 4. Isolation levels ----------------------------------------------------------

CREATE FUNCTION wc_plain(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'plain');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT current_setting('transaction_isolation'), wc_plain(90), wc_plain(90), wc_plain(1);
COMMIT;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT current_setting('transaction_isolation'), wc_plain(91), wc_plain(91), wc_plain(90);
COMMIT;
BEGIN ISOLATION LEVEL READ UNCOMMITTED;
SELECT current_setting('transaction_isolation'), wc_plain(92), wc_plain(92);
ROLLBACK;
SET default_transaction_isolation = 'repeatable read';
SELECT current_setting('transaction_isolation'), wc_plain(93), wc_plain(93);
RESET default_transaction_isolation;
BEGIN READ ONLY;
SELECT wc_plain(94);
ROLLBACK;
SELECT * FROM wc WHERE k >= 90 ORDER BY k;

SELECT public.wc_chk_path(0, 11, 0);
-- 5. The table's locks -----------------------------------------------------------

SELECT public.wc_chk_path(0, 0, 0);
-- the table's and its index's locks held by this session
CREATE VIEW wc_my_locks AS
    SELECT relation::regclass::text AS rel, mode
      FROM pg_locks
     WHERE pid = pg_backend_pid() AND locktype = 'relation'
       AND relation IN ('wc'::regclass, 'wc_pkey'::regclass)
     ORDER BY 1, 2;

SELECT public.wc_chk_path(0, 0, 0);
-- nothing locked yet: a duplicate leaves no lock, a new key leaves them
BEGIN;
SELECT wc_plain(1);
SELECT * FROM wc_my_locks;
SELECT wc_plain(1);
SELECT * FROM wc_my_locks;
SELECT wc_plain(100);
SELECT * FROM wc_my_locks;
SELECT wc_plain(100);
SELECT * FROM wc_my_locks;
ROLLBACK;
SELECT public.wc_chk_path(4, 0, 0);
-- locked by a SELECT (AccessShareLock), by SELECT FOR UPDATE
-- (RowShareLock), by LOCK TABLE in several modes (the index not locked),
-- by an UPDATE and by a DELETE
CREATE FUNCTION wc_locks_after(how text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    EXECUTE how;
    RETURN NEXT how || ': ' || coalesce((SELECT string_agg(rel || ' ' || mode, ', ') FROM wc_my_locks), 'none');
    RETURN NEXT wc_plain(1);
    RETURN NEXT 'after a duplicate: ' || coalesce((SELECT string_agg(rel || ' ' || mode, ', ') FROM wc_my_locks), 'none');
    RETURN NEXT wc_plain(101);
    RETURN NEXT 'after a new key: ' || coalesce((SELECT string_agg(rel || ' ' || mode, ', ') FROM wc_my_locks), 'none');
    RETURN NEXT wc_plain(101);
    RETURN NEXT 'after a duplicate: ' || coalesce((SELECT string_agg(rel || ' ' || mode, ', ') FROM wc_my_locks), 'none');
    DELETE FROM wc WHERE k = 101;
END
$$;
BEGIN;
SELECT wc_locks_after('SELECT count(*) FROM wc');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('SELECT * FROM wc WHERE k = 1 FOR UPDATE');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('LOCK TABLE wc IN ROW EXCLUSIVE MODE');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('LOCK TABLE wc IN SHARE MODE');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('LOCK TABLE wc IN ACCESS EXCLUSIVE MODE');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('UPDATE wc SET v = v WHERE k = 1');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('DELETE FROM wc WHERE k = -1');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('INSERT INTO wc VALUES (102, ''plain insert'')');
ROLLBACK;
SELECT public.wc_chk_path(24, 0, 0);
-- locked by an INSERT in a block that then failed (its locks are gone),
-- and by one in a block that succeeded (they stay)
BEGIN;
SELECT wc_locks_after('DO $b$ BEGIN BEGIN INSERT INTO wc VALUES (103); PERFORM 1 / 0; EXCEPTION WHEN division_by_zero THEN NULL; END; END $b$');
ROLLBACK;
BEGIN;
SELECT wc_locks_after('DO $b$ BEGIN BEGIN INSERT INTO wc VALUES (103); EXCEPTION WHEN division_by_zero THEN NULL; END; END $b$');
ROLLBACK;
SELECT public.wc_chk_path(6, 2, 0);
-- locked inside an SQL savepoint that is rolled back
BEGIN;
SAVEPOINT s;
INSERT INTO wc VALUES (104, 'in savepoint');
ROLLBACK TO s;
SELECT * FROM wc_my_locks;
SELECT wc_plain(1);
SELECT * FROM wc_my_locks;
ROLLBACK;
SELECT public.wc_chk_path(0, 1, 0);
-- the table created by this transaction
BEGIN;
CREATE TABLE wc_new (k int PRIMARY KEY);
CREATE FUNCTION wc_new_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_new VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT wc_new_ins(1), wc_new_ins(1), wc_new_ins(2);
SELECT * FROM wc_new;
ROLLBACK;
SELECT public.wc_chk_path(3, 0, 0);
-- the first block of the transaction is a duplicate, the next ones too,
-- then new keys, in a loop
CREATE FUNCTION wc_lock_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    out text := '';
    p int;
BEGIN
    FOREACH p IN ARRAY ARRAY[1, 1, 110, 1, 111, 110] LOOP
        out := out || wc_plain(p) || ' / '
            || coalesce((SELECT string_agg(mode, ',') FROM wc_my_locks), 'none') || E'\n';
    END LOOP;
    RETURN out;
END
$$;
BEGIN;
SELECT wc_lock_loop();
ROLLBACK;

SELECT public.wc_chk_path(6, 0, 0);
-- 6. Errors after the write that the handler does not catch ----------------------

CREATE TABLE wc_big (k int PRIMARY KEY, t text UNIQUE);
ALTER TABLE wc_big ALTER COLUMN t SET STORAGE plain;
CREATE FUNCTION wc_big_ins(p int, t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big VALUES (p, t);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_big_outer(p int, t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        PERFORM wc_big_ins(p - 1000, 'small ' || p);
        RETURN wc_big_ins(p, t);
    EXCEPTION WHEN program_limit_exceeded THEN
        RETURN 'outer caught ' || SQLSTATE || ', rows now ' || (SELECT count(*) FROM wc_big);
    END;
END
$$;
SELECT public.wc_chk_path(0, 0, 0);
-- the same errors caught by the block's own handler (WHEN OTHERS, or a
-- list naming them): the row written before the error must be gone
CREATE FUNCTION wc_big_others(p int, t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big VALUES (p, t);
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_big_list(p int, t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big VALUES (p, t);
    EXCEPTION WHEN unique_violation OR program_limit_exceeded THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_narrow_others(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x smallint := -1;
BEGIN
    BEGIN
        INSERT INTO wc VALUES (p, 'narrow others') RETURNING k INTO x;
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLSTATE || ', x=' || x || ', row there: '
            || (SELECT count(*) FROM wc WHERE k = p);
    END;
    RETURN 'inserted, x=' || x;
END
$$;
SELECT wc_big_others(10, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 200) g)),
       wc_big_others(11, 'small'), wc_big_others(11, 'small');
SELECT wc_big_list(12, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 200) g)),
       wc_big_list(13, 'small 13'), wc_big_list(13, 'small 13');
SELECT wc_narrow_others(200000), wc_narrow_others(140), wc_narrow_others(140);
SELECT public.wc_chk_path(0, 9, 0);
-- the same with one unique index only: the error comes from a plain
-- index (a value too large; wc_big3: a division by zero in an index
-- expression), after the heap tuple and the unique index's entry were
-- written
CREATE TABLE wc_big2 (k int PRIMARY KEY, t text, d int);
ALTER TABLE wc_big2 ALTER COLUMN t SET STORAGE plain;
CREATE INDEX wc_big2_t ON wc_big2 (t);
CREATE TABLE wc_big3 (k int PRIMARY KEY, d int);
CREATE INDEX wc_big3_d ON wc_big3 ((100 / d));
CREATE FUNCTION wc_big3_others(p int, d int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big3 VALUES (p, d);
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big3 WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_big2_others(p int, t text, d int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big2 VALUES (p, t, d);
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big2 WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_big2_list(p int, t text, d int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc_big2 VALUES (p, t, d);
    EXCEPTION WHEN unique_violation OR program_limit_exceeded THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big2 WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_big2_uv(p int, t text, d int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        BEGIN
            INSERT INTO wc_big2 VALUES (p, t, d);
        EXCEPTION WHEN unique_violation THEN
            RETURN 'duplicate';
        END;
    EXCEPTION WHEN OTHERS THEN
        RETURN 'outer caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM wc_big2 WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
SELECT g, wc_big2_others(g, 'small', 1), wc_big2_list(g + 10, 'small', 1),
       wc_big2_uv(g + 20, 'small', 1)
  FROM generate_series(1, 2) g;
SELECT g, wc_big2_others(g + 30, (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 200) i), 1),
       wc_big2_list(g + 40, (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 200) i), 1),
       wc_big2_uv(g + 50, (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 200) i), 1)
  FROM generate_series(1, 2) g;
SELECT g, wc_big3_others(g, 1), wc_big3_others(g + 10, 0), wc_big3_others(1, 0)
  FROM generate_series(1, 2) g;
SELECT g, wc_big2_others(1, 'dup', 0), wc_big2_list(1, 'dup', 0), wc_big2_uv(1, 'dup', 0)
  FROM generate_series(1, 2) g;
SELECT k, left(t, 10), d FROM wc_big2 ORDER BY k;
SELECT wc_big_ins(1, 'small'), wc_big_ins(1, 'small'), wc_big_ins(2, 'small');
SELECT wc_big_outer(3, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 200) g));
SELECT wc_big_outer(1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 200) g));
SELECT public.wc_chk_path(3, 36, 0);
-- (terse: the DETAIL names the heap tuple's ctid)
\set VERBOSITY terse
SELECT wc_big_ins(4, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 200) g));
\set VERBOSITY default
SELECT k, t FROM wc_big ORDER BY k;

SELECT public.wc_chk_path(1, 0, 0);
-- 7. The table changes between calls ---------------------------------------------

CREATE TABLE wd (pad int, k int PRIMARY KEY, v text, w int);
CREATE TABLE wd_log (n serial, what text);
CREATE FUNCTION wd_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    con text;
    det text;
BEGIN
    BEGIN
        INSERT INTO wd (k, v, w) VALUES (p, 'v' || p, p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS con = CONSTRAINT_NAME, det = PG_EXCEPTION_DETAIL;
        RETURN 'duplicate ' || p || ' (' || con || ': ' || det || ')';
    END;
    RETURN 'inserted ' || p;
END
$$;
CREATE FUNCTION wd_logger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wd_log (what) VALUES (TG_NAME || ' ' || NEW.k);
    RETURN NEW;
END
$$;
CREATE FUNCTION wd_logged_check(k int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wd_log (what) VALUES ('check ' || k);
    RETURN true;
END
$$;
CREATE FUNCTION wd_round(stage text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    r := stage || ': ' || wd_ins(1);
    r := r || ', ' || wd_ins(2);
    r := r || ', ' || wd_ins(2);
    RETURN r || ' | log: '
        || coalesce((SELECT string_agg(what, ', ' ORDER BY n) FROM wd_log), '-');
END
$$;
SELECT wd_round('plain');
DELETE FROM wd WHERE k = 2;
CREATE TRIGGER wd_before BEFORE INSERT ON wd FOR EACH ROW EXECUTE FUNCTION wd_logger();
SELECT wd_round('before trigger');
DROP TRIGGER wd_before ON wd;
DELETE FROM wd WHERE k = 2;
DELETE FROM wd_log;
CREATE TRIGGER wd_after AFTER INSERT ON wd FOR EACH ROW EXECUTE FUNCTION wd_logger();
SELECT wd_round('after trigger');
DROP TRIGGER wd_after ON wd;
DELETE FROM wd WHERE k = 2;
DELETE FROM wd_log;
ALTER TABLE wd ADD CONSTRAINT wd_logged CHECK (wd_logged_check(k));
SELECT wd_round('check that writes');
ALTER TABLE wd DROP CONSTRAINT wd_logged;
DELETE FROM wd WHERE k = 2;
DELETE FROM wd_log;
CREATE UNIQUE INDEX wd_w ON wd (w);
SELECT wd_round('second unique index');
DELETE FROM wd WHERE k = 2;
UPDATE wd SET w = 2 WHERE k = 1;
SELECT wd_round('second unique index, other row');
DROP INDEX wd_w;
UPDATE wd SET w = 1 WHERE k = 1;
DELETE FROM wd WHERE k = 2;
CREATE RULE wd_rule AS ON INSERT TO wd DO ALSO INSERT INTO wd_log (what) VALUES ('rule ' || NEW.k);
SELECT wd_round('rule');
DROP RULE wd_rule ON wd;
DELETE FROM wd WHERE k = 2;
DELETE FROM wd_log;
ALTER TABLE wd DROP CONSTRAINT wd_pkey;
ALTER TABLE wd ADD CONSTRAINT wd_pkey PRIMARY KEY (k) DEFERRABLE INITIALLY DEFERRED;
BEGIN;
SELECT wd_round('deferred key');
ROLLBACK;
ALTER TABLE wd DROP CONSTRAINT wd_pkey;
SELECT wd_round('no key');
DELETE FROM wd WHERE k = 2 OR ctid <> (SELECT min(ctid) FROM wd WHERE k = 1);
ALTER TABLE wd ADD CONSTRAINT wd_pkey PRIMARY KEY (k);
SELECT wd_round('key back');
DELETE FROM wd WHERE k = 2;
ALTER TABLE wd DROP COLUMN pad;
SELECT wd_round('column before the key dropped');
DELETE FROM wd WHERE k = 2;
ALTER TABLE wd ALTER COLUMN w TYPE bigint;
SELECT wd_round('column type changed');
SELECT k, v, w FROM wd ORDER BY k;

SELECT public.wc_chk_path(0, 36, 0);
-- 8. Values that need a cast -------------------------------------------------------

CREATE FUNCTION wc_cast(p text, q numeric) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc (k, v) VALUES (p::int, q);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wc_assign_cast(p numeric) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wc (k, v) VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT wc_cast('120', 1.5), wc_cast('120', 2), wc_cast(' 121 ', 3);
SELECT wc_cast('abc', 1);
SELECT wc_assign_cast(122.4), wc_assign_cast(121.6), wc_assign_cast(122.5);
SELECT wc_assign_cast(1e10);
SELECT * FROM wc WHERE k BETWEEN 120 AND 130 ORDER BY k;

DROP TABLE wc, wc_log, wc_id, wc_def, wc_big, wc_big2, wc_big3, wd, wd_log CASCADE;
SELECT public.wc_chk_path(8, 0, 0);
