-- write_path_keys: the duplicate-key error of the insert-or-handle-
-- duplicate block (issue 18) for every shape of key, checked against
-- PL/pgSQL whichever way plnimble runs the INSERT: the DETAIL is built
-- from the values being inserted (not the stored ones), quoted as the
-- server quotes them, and absent when the user may not see the key.
--   1. composite keys, INCLUDE columns, quoted column names, a table in
--      another schema with a mixed-case name, a named constraint;
--   2. NULL keys (never a conflict), NULLS NOT DISTINCT (a conflict);
--   3. text keys with quotes, commas, parentheses, backslashes, newlines
--      and non-ASCII characters; a long key; numeric 1.0 against 1.00,
--      float -0 against 0, citext 'ABC' against 'abc', timestamptz shown in
--      the session's time zone, arrays and ranges;
--   4. column privileges: a role with INSERT only sees no DETAIL, SELECT
--      on the key columns or on the table shows it, SECURITY DEFINER runs
--      as the owner; row-level security enabled hides the DETAIL too.
-- Which path the cases took (issue 27): wk_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wk_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wk_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wk_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wk_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wk_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wk_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wk_chk_path(NULL, NULL, NULL) AS reset;


CREATE FUNCTION wp_line(st text, msg text, det text, con text, tab text, sch text)
RETURNS text LANGUAGE sql AS $$
    SELECT format('%s | %s | detail=%s | constraint=%s table=%s schema=%s',
                  st, msg, coalesce(det, 'NULL'), coalesce(con, 'NULL'),
                  coalesce(tab, 'NULL'), coalesce(sch, 'NULL'))
$$;

SELECT public.wk_chk_path(0, 0, 0);
-- 1. Key shapes ----------------------------------------------------------------

CREATE TABLE wp_comp (a int, b text, c date, note text, PRIMARY KEY (a, b, c));
CREATE FUNCTION wp_comp_ins(p_a int, p_b text, p_c date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text; sch text;
BEGIN
    BEGIN
        INSERT INTO wp_comp VALUES (p_a, p_b, p_c, 'x');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RETURN wp_line(st, msg, det, con, tab, sch);
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_comp_ins(1, 'x', '2026-01-01');
SELECT wp_comp_ins(1, 'x', '2026-01-02');
SELECT wp_comp_ins(1, 'x', '2026-01-01');
SELECT wp_comp_ins(1, 'x, y', '2026-01-01');
SELECT wp_comp_ins(1, 'x, y', '2026-01-01');

SELECT public.wk_chk_path(5, 0, 0);
-- INCLUDE columns are not part of the key (nor of the DETAIL)
CREATE TABLE wp_incl (a int, b int, CONSTRAINT wp_incl_uq UNIQUE (a) INCLUDE (b));
CREATE FUNCTION wp_incl_ins(p_a int, p_b int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text; sch text;
BEGIN
    BEGIN
        INSERT INTO wp_incl (a, b) VALUES (p_a, p_b);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RETURN wp_line(st, msg, det, con, tab, sch);
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_incl_ins(1, 1), wp_incl_ins(1, 2), wp_incl_ins(2, 1);

SELECT public.wk_chk_path(3, 0, 0);
-- another schema, quoted names, the key columns in another order than
-- the table's
CREATE SCHEMA "Wp Other";
CREATE TABLE "Wp Other"."MixedCase" (
    "Note" text,
    "Key Two" text,
    "key one" int,
    CONSTRAINT "Mixed ""pk""" PRIMARY KEY ("key one", "Key Two")
);
CREATE FUNCTION wp_mixed_ins(p1 int, p2 text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text; sch text;
BEGIN
    BEGIN
        INSERT INTO "Wp Other"."MixedCase" ("key one", "Key Two", "Note")
            VALUES (p1, p2, 'n');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RAISE NOTICE '%', wp_line(st, msg, det, con, tab, sch);
        RAISE;
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_mixed_ins(1, 'A b');
SELECT wp_mixed_ins(1, 'A b');
SELECT public.wk_chk_path(2, 0, 0);
-- the same through search_path, unqualified
CREATE FUNCTION wp_mixed_ins2(p1 int) RETURNS text LANGUAGE plpgsql
SET search_path = "Wp Other", public AS $$
BEGIN
    BEGIN
        INSERT INTO "MixedCase" VALUES ('n', 'path', p1);
    EXCEPTION WHEN unique_violation THEN
        RAISE;
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_mixed_ins2(7);
SELECT wp_mixed_ins2(7);
SELECT * FROM "Wp Other"."MixedCase" ORDER BY 3, 2;

SELECT public.wk_chk_path(2, 0, 0);
-- 2. NULL keys -----------------------------------------------------------------

CREATE TABLE wp_nulls (a int UNIQUE, b int, c int, UNIQUE (b, c));
CREATE TABLE wp_nnd (a int, b int, CONSTRAINT wp_nnd_uq UNIQUE NULLS NOT DISTINCT (a, b));
CREATE FUNCTION wp_nulls_ins(p_a int, p_b int, p_c int) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wp_nulls VALUES (p_a, p_b, p_c);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_nnd_ins(p_a int, p_b int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_nnd VALUES (p_a, p_b);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN 'duplicate: ' || SQLERRM || ' / ' || det;
    END;
    RETURN 'inserted';
END
$$;
SELECT public.wk_chk_path(0, 0, 0);
-- (two unique indexes here: a, and (b, c))
SELECT wp_nulls_ins(NULL, NULL, NULL) FROM generate_series(1, 3);
SELECT wp_nulls_ins(NULL, 1, NULL) FROM generate_series(1, 2);
SELECT wp_nulls_ins(1, NULL, NULL) FROM generate_series(1, 2);
SELECT count(*) FROM wp_nulls;
SELECT wp_nnd_ins(NULL, NULL) FROM generate_series(1, 2);
SELECT wp_nnd_ins(1, NULL) FROM generate_series(1, 2);
SELECT wp_nnd_ins(NULL, 1) FROM generate_series(1, 2);
SELECT * FROM wp_nnd ORDER BY a NULLS FIRST, b NULLS FIRST;

SELECT public.wk_chk_path(13, 0, 0);
-- 3. Values in the DETAIL ------------------------------------------------------

CREATE TABLE wp_txt (k text PRIMARY KEY);
CREATE FUNCTION wp_txt_ins(p text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_txt VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN det;
    END;
    RETURN 'inserted';
END
$$;
SELECT v, wp_txt_ins(v), wp_txt_ins(v)
  FROM (VALUES ('plain'), ('it''s'), ('say "hi"'), ('a, b'), ('(x)'),
               (E'back\\slash'), (E'two\nlines'), ('ünïcödé €'), (''), (' ')) AS s(v);
SELECT length(wp_txt_ins(repeat('long key ', 200))),
       length(wp_txt_ins(repeat('long key ', 200)));

SELECT public.wk_chk_path(22, 0, 0);
-- the values shown are those being inserted, as their type outputs them
CREATE TABLE wp_num (k numeric PRIMARY KEY);
CREATE TABLE wp_flt (k float8 PRIMARY KEY);
CREATE EXTENSION citext;
CREATE TABLE wp_ci (k citext PRIMARY KEY);
CREATE TABLE wp_ts (k timestamptz PRIMARY KEY);
CREATE TABLE wp_arr (k int[] PRIMARY KEY, r int4range UNIQUE);
CREATE FUNCTION wp_num_ins(p numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_num VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN det;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_flt_ins(p float8) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_flt VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN det;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_ci_ins(p text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_ci VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN det;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_ts_ins(p timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO wp_ts VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN det;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_arr_ins(p int[], q int4range) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
    con text;
BEGIN
    BEGIN
        INSERT INTO wp_arr VALUES (p, q);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME;
        RETURN con || ': ' || det;
    END;
    RETURN 'inserted';
END
$$;
SELECT wp_num_ins(1.0), wp_num_ins(1.00), wp_num_ins(1), wp_num_ins(1e0);
SELECT wp_flt_ins(0), wp_flt_ins('-0'), wp_flt_ins('NaN'), wp_flt_ins('nan');
SELECT wp_ci_ins('abc'), wp_ci_ins('ABC'), wp_ci_ins('aBc');
SET TimeZone = 'UTC';
SELECT wp_ts_ins('2026-06-01 12:00:00+00'), wp_ts_ins('2026-06-01 14:00:00+02');
SET TimeZone = 'America/New_York';
SELECT wp_ts_ins('2026-06-01 12:00:00+00');
RESET TimeZone;
SELECT wp_arr_ins('{1,2}', '[1,3)'), wp_arr_ins('{1,2}', '[5,6]'),
       wp_arr_ins('{3}', '[1,2]'), wp_arr_ins('{NULL}', NULL),
       wp_arr_ins('{NULL}', NULL);

SELECT public.wk_chk_path(16, 3, 0);
-- 4. Who may see the key ---------------------------------------------------------

SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_wp_inserter;
RESET client_min_messages;
CREATE ROLE regress_wp_inserter;
CREATE TABLE wp_priv (k int PRIMARY KEY, secret text, pub int UNIQUE);
INSERT INTO wp_priv VALUES (1, 's1', 10), (2, 's2', 20);
GRANT INSERT ON wp_priv TO regress_wp_inserter;
CREATE FUNCTION wp_priv_ins(p_k int, p_pub int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text; sch text;
BEGIN
    BEGIN
        INSERT INTO wp_priv (k, secret, pub) VALUES (p_k, 'new', p_pub);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME,
            tab = TABLE_NAME, sch = SCHEMA_NAME;
        RETURN current_user || ': ' || wp_line(st, msg, det, con, tab, sch);
    END;
    RETURN current_user || ': inserted';
END
$$;
CREATE FUNCTION wp_priv_reraise(p_k int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wp_priv (k) VALUES (p_k);
    EXCEPTION WHEN unique_violation THEN
        RAISE;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION wp_priv_definer(p_k int) RETURNS text LANGUAGE plpgsql
SECURITY DEFINER AS $$
BEGIN
    RETURN wp_priv_ins(p_k, NULL);
END
$$;
SET ROLE regress_wp_inserter;
-- INSERT only: no DETAIL, for either unique index
SELECT wp_priv_ins(1, NULL);
SELECT wp_priv_ins(3, 10);
SELECT wp_priv_ins(4, NULL);
SELECT wp_priv_reraise(2);
-- SECURITY DEFINER: the owner sees the key
SELECT wp_priv_definer(2);
RESET ROLE;
SELECT public.wk_chk_path(5, 0, 0);
-- SELECT on one key column only: the DETAIL of that index only
GRANT SELECT (k) ON wp_priv TO regress_wp_inserter;
SET ROLE regress_wp_inserter;
SELECT wp_priv_ins(1, NULL);
SELECT wp_priv_ins(5, 20);
SELECT wp_priv_reraise(2);
RESET ROLE;
SELECT public.wk_chk_path(3, 0, 0);
-- SELECT on the table
REVOKE SELECT (k) ON wp_priv FROM regress_wp_inserter;
GRANT SELECT ON wp_priv TO regress_wp_inserter;
SET ROLE regress_wp_inserter;
SELECT wp_priv_ins(1, NULL);
SELECT wp_priv_ins(6, 20);
RESET ROLE;
SELECT public.wk_chk_path(2, 0, 0);
-- row-level security enabled (a policy that lets the role insert and see
-- everything): BuildIndexValueDescription shows no key under RLS
ALTER TABLE wp_priv ENABLE ROW LEVEL SECURITY;
CREATE POLICY wp_priv_all ON wp_priv USING (true) WITH CHECK (true);
SET ROLE regress_wp_inserter;
SELECT wp_priv_ins(1, NULL);
SELECT wp_priv_ins(7, 10);
RESET ROLE;
SELECT wp_priv_ins(1, NULL);
SELECT * FROM wp_priv ORDER BY k;

DROP TABLE wp_priv;
DROP ROLE regress_wp_inserter;
SELECT public.wk_chk_path(0, 3, 0);
