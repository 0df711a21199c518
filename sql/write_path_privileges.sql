-- write_path_privileges: the privileges of an INSERT that the write path
-- (issue 18) runs below the executor are checked at every run, as the
-- executor checks them, unless an earlier run of the same plan in the
-- same transaction checked them for the same user with nothing changed
-- since (write_direct.c, privileges_known).  Changes in the middle of a
-- loop, each in its own call, must fail the next INSERT as under PL/pgSQL
-- (an oracle test):
--   1. INSERT revoked from the user;
--   2. INSERT granted through a role, the membership revoked;
--   3. INSERT on the table replaced by INSERT on one column;
--   4. the current role changed by set_config('role');
--   5. nothing changed: the loop runs to its end, new keys and duplicates.
-- Which path the cases took (issue 27): wpp_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wpp_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wpp_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wpp_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wpp_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wpp_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wpp_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wpp_chk_path(NULL, NULL, NULL) AS reset;


SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_wpp_user;
DROP ROLE IF EXISTS regress_wpp_group;
DROP ROLE IF EXISTS regress_wpp_other;
RESET client_min_messages;
CREATE ROLE regress_wpp_user;
CREATE ROLE regress_wpp_group;
CREATE ROLE regress_wpp_other;
GRANT regress_wpp_other TO regress_wpp_user;

CREATE TABLE wpp_t (k int PRIMARY KEY, v text);
GRANT SELECT ON wpp_t TO regress_wpp_user, regress_wpp_other;

SELECT public.wpp_chk_path(0, 0, 0);
-- changes the privileges as the table's owner
CREATE FUNCTION wpp_change(what text) RETURNS void LANGUAGE plpgsql
SECURITY DEFINER AS $$
BEGIN
    CASE what
        WHEN 'revoke' THEN
            REVOKE INSERT ON wpp_t FROM regress_wpp_user;
        WHEN 'leave group' THEN
            REVOKE regress_wpp_group FROM regress_wpp_user;
        WHEN 'one column' THEN
            REVOKE INSERT ON wpp_t FROM regress_wpp_user;
            GRANT INSERT (k) ON wpp_t TO regress_wpp_user;
        ELSE
            NULL;
    END CASE;
END $$;

SELECT public.wpp_chk_path(0, 0, 0);
-- half of the keys are duplicates; the change comes before run change_at
CREATE FUNCTION wpp_loop(n int, change_at int, what text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        IF i >= change_at - 1 AND change_at > 0 THEN
            RAISE NOTICE 'run %', i;
        END IF;
        IF i = change_at THEN
            IF what = 'set role' THEN
                PERFORM set_config('role', 'regress_wpp_other', true);
            ELSE
                PERFORM wpp_change(what);
            END IF;
        END IF;
        BEGIN
            INSERT INTO wpp_t (k, v) VALUES (i / 2, what);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN current_user || ': ' || (n - dup) || ' inserted, ' || dup ||
           ' duplicates';
END $$;

SELECT public.wpp_chk_path(0, 0, 0);
-- 1. INSERT revoked
GRANT INSERT ON wpp_t TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'revoke');
SELECT wpp_loop(20, 14, 'revoke');
RESET ROLE;
REVOKE INSERT ON wpp_t FROM regress_wpp_user;

SELECT public.wpp_chk_path(27, 0, 0);
-- 2. through a role
GRANT INSERT ON wpp_t TO regress_wpp_group;
GRANT regress_wpp_group TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'leave group');
SELECT wpp_loop(20, 14, 'leave group');
RESET ROLE;
REVOKE regress_wpp_group FROM regress_wpp_user;
REVOKE INSERT ON wpp_t FROM regress_wpp_group;

SELECT public.wpp_chk_path(27, 0, 0);
-- 3. one column only
GRANT INSERT ON wpp_t TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'one column');
RESET ROLE;

SELECT public.wpp_chk_path(13, 0, 0);
-- 4. another role, without INSERT
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'set role');
SELECT current_user;
RESET ROLE;

SELECT public.wpp_chk_path(13, 0, 0);
-- 5. nothing changed
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'nothing');
SELECT wpp_loop(20, 0, 'nothing');
RESET ROLE;
SELECT count(*), min(k), max(k), min(v), max(v) FROM wpp_t;

DROP TABLE wpp_t;
DROP FUNCTION wpp_change(text);
DROP ROLE regress_wpp_user;
DROP ROLE regress_wpp_group;
DROP ROLE regress_wpp_other;
SELECT public.wpp_chk_path(40, 0, 0);
