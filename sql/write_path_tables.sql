-- write_path_tables: the insert-or-handle-duplicate block (issue 18) on
-- every kind of table and constraint it may meet, a new key and a
-- duplicate each, checked against PL/pgSQL whichever way plnimble runs the
-- INSERT (the write path must fall back wherever it is not exact):
--   1. triggers: BEFORE and AFTER ROW, statement triggers, an AFTER
--      trigger that fails (after the write), a trigger raising
--      unique_violation itself, a constraint trigger; foreign keys on the
--      child (a missing parent with and without a duplicate) and on the
--      parent table;
--   2. rules (DO ALSO, DO INSTEAD, DO INSTEAD NOTHING), row-level security
--      whose WITH CHECK fails, views (auto-updatable, WITH CHECK OPTION,
--      INSTEAD OF trigger), a foreign table;
--   3. partitioned tables (routed, a partition directly, the default
--      partition, no partition for the row), inheritance;
--   4. deferrable unique constraints (initially immediate, initially
--      deferred, SET CONSTRAINTS), exclusion constraints, several unique
--      indexes (the first in index order raises), expression and partial
--      unique indexes;
--   5. CHECK constraints and domains calling functions (one writes), domain
--      NOT NULL and CHECK, generated columns, unlogged and temporary
--      tables, a toasted duplicate value.
-- Which path the cases took (issue 27): wt_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wt_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wt_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wt_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wt_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wt_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wt_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wt_chk_path(NULL, NULL, NULL) AS reset;


CREATE TABLE tl_log (n serial, what text);
CREATE FUNCTION tl_diag(st text, msg text, det text, con text, tab text)
RETURNS text LANGUAGE sql AS $$
    SELECT format('%s %s / %s / constraint=%s table=%s', st, msg,
                  coalesce(nullif(det, ''), '-'), coalesce(nullif(con, ''), '-'),
                  coalesce(nullif(tab, ''), '-'))
$$;

SELECT public.wt_chk_path(0, 0, 0);
-- 1. Triggers and foreign keys ---------------------------------------------------

CREATE TABLE tl_trg (k int PRIMARY KEY, v text);
CREATE FUNCTION tl_trg_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tl_log (what) VALUES ('before ' || NEW.k);
    NEW.v := upper(NEW.v);
    RETURN NEW;
END
$$;
CREATE FUNCTION tl_trg_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tl_log (what) VALUES ('after ' || NEW.k);
    IF NEW.v = 'FAIL' THEN
        RAISE EXCEPTION 'after trigger fails for %', NEW.k;
    END IF;
    IF NEW.v = 'UV' THEN
        RAISE unique_violation USING MESSAGE = 'raised by the trigger for ' || NEW.k;
    END IF;
    RETURN NULL;
END
$$;
CREATE FUNCTION tl_trg_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tl_log (what) VALUES (TG_WHEN || ' statement');
    RETURN NULL;
END
$$;
CREATE TRIGGER b BEFORE INSERT ON tl_trg FOR EACH ROW EXECUTE FUNCTION tl_trg_before();
CREATE FUNCTION tl_trg_ins(p int, v text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_trg VALUES (p, v);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_trg_ins(1, 'a'), tl_trg_ins(1, 'b'), tl_trg_ins(2, 'c');
CREATE TRIGGER a AFTER INSERT ON tl_trg FOR EACH ROW EXECUTE FUNCTION tl_trg_after();
SELECT tl_trg_ins(3, 'd'), tl_trg_ins(3, 'e'), tl_trg_ins(4, 'uv'), tl_trg_ins(1, 'uv');
SELECT tl_trg_ins(5, 'fail');
SELECT tl_trg_ins(1, 'fail');
CREATE TRIGGER s1 BEFORE INSERT ON tl_trg FOR EACH STATEMENT EXECUTE FUNCTION tl_trg_stmt();
CREATE TRIGGER s2 AFTER INSERT ON tl_trg FOR EACH STATEMENT EXECUTE FUNCTION tl_trg_stmt();
SELECT tl_trg_ins(6, 'f'), tl_trg_ins(6, 'g');
SELECT * FROM tl_trg ORDER BY k;
SELECT what FROM tl_log ORDER BY n;
DELETE FROM tl_log;
SELECT public.wt_chk_path(0, 11, 0);
-- only statement triggers left
DROP TRIGGER a ON tl_trg;
DROP TRIGGER b ON tl_trg;
SELECT tl_trg_ins(7, 'h'), tl_trg_ins(7, 'i');
SELECT what FROM tl_log ORDER BY n;
DELETE FROM tl_log;
DROP TRIGGER s1 ON tl_trg;
DROP TRIGGER s2 ON tl_trg;
SELECT public.wt_chk_path(0, 2, 0);
-- a constraint trigger, deferred to commit
CREATE CONSTRAINT TRIGGER c AFTER INSERT ON tl_trg DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tl_trg_after();
BEGIN;
SELECT tl_trg_ins(8, 'j'), tl_trg_ins(8, 'k');
SELECT what FROM tl_log ORDER BY n;
COMMIT;
SELECT what FROM tl_log ORDER BY n;
BEGIN;
SELECT tl_trg_ins(9, 'fail'), tl_trg_ins(9, 'l');
COMMIT;
SELECT * FROM tl_trg WHERE k >= 7 ORDER BY k;
DROP TRIGGER c ON tl_trg;
DELETE FROM tl_log;

SELECT public.wt_chk_path(0, 4, 0);
-- foreign keys: on the child (RI triggers fire on insert) and on the
-- parent (its RI triggers fire on update and delete only)
CREATE TABLE tl_parent (id int PRIMARY KEY);
INSERT INTO tl_parent VALUES (1), (2);
CREATE TABLE tl_child (k int PRIMARY KEY, parent int REFERENCES tl_parent);
CREATE FUNCTION tl_child_ins(p int, par int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_child VALUES (p, par);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION tl_parent_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_parent VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_child_ins(1, 1), tl_child_ins(1, 2), tl_child_ins(2, NULL), tl_child_ins(2, NULL);
SELECT public.wt_chk_path(4, 0, 0);
-- the parent is missing: foreign_key_violation, raised after the write
SELECT tl_child_ins(3, 99);
SELECT public.wt_chk_path(1, 0, 0);
-- the parent is missing and the key is a duplicate: the duplicate first
SELECT tl_child_ins(1, 99);
SELECT tl_parent_ins(3), tl_parent_ins(3), tl_parent_ins(1);
SELECT public.wt_chk_path(4, 0, 0);
-- the foreign-key error caught by the block's own handler: the row
-- written before the check must be gone
CREATE FUNCTION tl_child_fk(p int, par int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_child VALUES (p, par);
    EXCEPTION WHEN unique_violation OR foreign_key_violation THEN
        RETURN 'caught ' || SQLSTATE || ', row there: '
            || (SELECT count(*) FROM tl_child WHERE k = p);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_child_fk(5, 99), tl_child_fk(5, 1), tl_child_fk(5, 1), tl_child_fk(1, 99);
SELECT * FROM tl_child ORDER BY k;
SELECT public.wt_chk_path(0, 4, 0);
-- a deferred foreign key: the missing parent shows at commit
CREATE TABLE tl_child_d (k int PRIMARY KEY,
    parent int REFERENCES tl_parent DEFERRABLE INITIALLY DEFERRED);
CREATE FUNCTION tl_child_d_ins(p int, par int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_child_d VALUES (p, par);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
BEGIN;
SELECT tl_child_d_ins(1, 99), tl_child_d_ins(1, 1), tl_child_d_ins(2, 1);
COMMIT;
SELECT * FROM tl_child_d;

SELECT public.wt_chk_path(0, 3, 0);
-- 2. Rules, row-level security, views, foreign tables ---------------------------

CREATE TABLE tl_rule (k int PRIMARY KEY, v text);
CREATE TABLE tl_rule_also (k int PRIMARY KEY);
CREATE RULE tl_also AS ON INSERT TO tl_rule
    DO ALSO INSERT INTO tl_log (what) VALUES ('rule also ' || NEW.k);
CREATE FUNCTION tl_rule_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_rule VALUES (p, 'r');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_rule_ins(1), tl_rule_ins(1), tl_rule_ins(2);
SELECT what FROM tl_log ORDER BY n;
DELETE FROM tl_log;
SELECT public.wt_chk_path(0, 3, 0);
-- the rule inserts into a table with its own key: its duplicate
DROP RULE tl_also ON tl_rule;
CREATE RULE tl_also2 AS ON INSERT TO tl_rule
    DO ALSO INSERT INTO tl_rule_also VALUES (NEW.k % 2);
SELECT tl_rule_ins(3), tl_rule_ins(4), tl_rule_ins(5), tl_rule_ins(3);
SELECT * FROM tl_rule_also ORDER BY k;
DROP RULE tl_also2 ON tl_rule;
CREATE RULE tl_instead AS ON INSERT TO tl_rule
    DO INSTEAD INSERT INTO tl_rule_also VALUES (NEW.k);
SELECT tl_rule_ins(10), tl_rule_ins(10), tl_rule_ins(1);
DROP RULE tl_instead ON tl_rule;
CREATE RULE tl_nothing AS ON INSERT TO tl_rule DO INSTEAD NOTHING;
SELECT tl_rule_ins(11), tl_rule_ins(1);
DROP RULE tl_nothing ON tl_rule;
SELECT * FROM tl_rule ORDER BY k;
SELECT * FROM tl_rule_also ORDER BY k;

SELECT public.wt_chk_path(0, 9, 0);
-- row-level security: the role may insert only even keys and see only
-- keys below 100
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_tl_user;
RESET client_min_messages;
CREATE ROLE regress_tl_user;
CREATE TABLE tl_rls (k int PRIMARY KEY, v text);
INSERT INTO tl_rls VALUES (1, 'odd'), (200, 'hidden');
ALTER TABLE tl_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY tl_sel ON tl_rls FOR SELECT USING (k < 100);
CREATE POLICY tl_ins ON tl_rls FOR INSERT WITH CHECK (k % 2 = 0);
GRANT SELECT, INSERT ON tl_rls TO regress_tl_user;
CREATE FUNCTION tl_rls_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_rls VALUES (p, 'by the role');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SET ROLE regress_tl_user;
SELECT tl_rls_ins(2), tl_rls_ins(2), tl_rls_ins(200);
-- WITH CHECK fails, for a new key and for a duplicate one
SELECT tl_rls_ins(3);
SELECT tl_rls_ins(1);
SELECT * FROM tl_rls ORDER BY k;
RESET ROLE;
SELECT * FROM tl_rls ORDER BY k;
DROP TABLE tl_rls;
DROP ROLE regress_tl_user;

SELECT public.wt_chk_path(0, 5, 0);
-- views
CREATE TABLE tl_base (k int PRIMARY KEY, v text);
CREATE VIEW tl_auto AS SELECT k, v FROM tl_base;
CREATE VIEW tl_checked AS SELECT k, v FROM tl_base WHERE k < 100 WITH CHECK OPTION;
CREATE VIEW tl_trig AS SELECT k, v FROM tl_base;
CREATE FUNCTION tl_trig_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tl_base VALUES (NEW.k, NEW.v || ' via trigger');
    RETURN NEW;
END
$$;
CREATE TRIGGER tl_trig_ins INSTEAD OF INSERT ON tl_trig
    FOR EACH ROW EXECUTE FUNCTION tl_trig_fn();
CREATE FUNCTION tl_view_ins(which text, p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text; ctx text;
BEGIN
    IF which = 'auto' THEN
        BEGIN
            INSERT INTO tl_auto VALUES (p, 'auto');
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
            RETURN tl_diag(st, msg, det, con, tab);
        END;
    ELSIF which = 'checked' THEN
        BEGIN
            INSERT INTO tl_checked VALUES (p, 'checked');
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
            RETURN tl_diag(st, msg, det, con, tab);
        END;
    ELSE
        BEGIN
            INSERT INTO tl_trig VALUES (p, 'trig');
        EXCEPTION WHEN unique_violation THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME,
                ctx = PG_EXCEPTION_CONTEXT;
            RAISE NOTICE 'context: %', replace(ctx, E'\n', ' // ');
            RETURN tl_diag(st, msg, det, con, tab);
        END;
    END IF;
    RETURN 'inserted';
END
$$;
SELECT tl_view_ins('auto', 1), tl_view_ins('auto', 1);
SELECT tl_view_ins('checked', 2), tl_view_ins('checked', 2), tl_view_ins('checked', 1);
SELECT public.wt_chk_path(0, 5, 0);
-- the check option fails after the write, for a new key; a duplicate first
SELECT tl_view_ins('checked', 200);
SELECT tl_view_ins('auto', 200), tl_view_ins('checked', 200);
SELECT tl_view_ins('trig', 3), tl_view_ins('trig', 3), tl_view_ins('trig', 1);
SELECT * FROM tl_base ORDER BY k;

SELECT public.wt_chk_path(0, 6, 0);
-- a foreign table (file_fdw cannot insert)
CREATE EXTENSION file_fdw;
CREATE SERVER tl_files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE tl_foreign (k int) SERVER tl_files
    OPTIONS (filename '/nonexistent/tl_foreign.csv', format 'csv');
CREATE FUNCTION tl_foreign_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_foreign VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_foreign_ins(1);

SELECT public.wt_chk_path(0, 1, 0);
-- 3. Partitions and inheritance --------------------------------------------------

CREATE TABLE tl_part (k int, r int, v text, PRIMARY KEY (k, r)) PARTITION BY RANGE (r);
CREATE TABLE tl_part_1 PARTITION OF tl_part FOR VALUES FROM (0) TO (10);
CREATE TABLE tl_part_2 PARTITION OF tl_part FOR VALUES FROM (10) TO (20)
    PARTITION BY LIST (k);
CREATE TABLE tl_part_2a PARTITION OF tl_part_2 FOR VALUES IN (1, 2, 3);
CREATE TABLE tl_part_2d PARTITION OF tl_part_2 DEFAULT;
CREATE FUNCTION tl_part_ins(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_part VALUES (p, q, 'routed');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION tl_part1_ins(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_part_1 VALUES (p, q, 'direct');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_part_ins(1, 1), tl_part_ins(1, 1), tl_part1_ins(1, 1), tl_part1_ins(2, 1);
SELECT tl_part_ins(2, 1);
SELECT tl_part_ins(1, 11), tl_part_ins(1, 11), tl_part_ins(9, 11), tl_part_ins(9, 11);
SELECT public.wt_chk_path(0, 9, 0);
-- no partition for the row; the partition constraint of a direct insert
SELECT tl_part_ins(1, 50);
SELECT tl_part1_ins(1, 15);
SELECT tableoid::regclass, * FROM tl_part ORDER BY r, k;

SELECT public.wt_chk_path(0, 2, 0);
-- inheritance: the parent's key does not cover the child's rows
CREATE TABLE tl_inh (k int PRIMARY KEY, v text);
CREATE TABLE tl_inh_child (PRIMARY KEY (k)) INHERITS (tl_inh);
INSERT INTO tl_inh_child VALUES (1, 'in child');
CREATE FUNCTION tl_inh_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_inh VALUES (p, 'in parent');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_inh_ins(1), tl_inh_ins(1), tl_inh_ins(2);
SELECT tableoid::regclass, * FROM tl_inh ORDER BY k, 1;

SELECT public.wt_chk_path(3, 0, 0);
-- 4. Kinds of unique constraint --------------------------------------------------

CREATE TABLE tl_defer (k int, v text,
    CONSTRAINT tl_defer_imm UNIQUE (k) DEFERRABLE INITIALLY IMMEDIATE);
CREATE TABLE tl_defer2 (k int, v text,
    CONSTRAINT tl_defer_def UNIQUE (k) DEFERRABLE INITIALLY DEFERRED);
CREATE FUNCTION tl_defer_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_defer VALUES (p, 'imm');
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION tl_defer2_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_defer2 VALUES (p, 'def');
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_defer_ins(1), tl_defer_ins(1), tl_defer_ins(2);
BEGIN;
SET CONSTRAINTS tl_defer_imm DEFERRED;
SELECT tl_defer_ins(3), tl_defer_ins(3);
COMMIT;
SELECT tl_defer2_ins(1), tl_defer2_ins(1);
BEGIN;
SELECT tl_defer2_ins(2), tl_defer2_ins(2);
COMMIT;
BEGIN;
SELECT tl_defer2_ins(3), tl_defer2_ins(3);
SET CONSTRAINTS ALL IMMEDIATE;
ROLLBACK;
BEGIN;
SET CONSTRAINTS tl_defer_def IMMEDIATE;
SELECT tl_defer2_ins(4), tl_defer2_ins(4);
COMMIT;
SELECT * FROM tl_defer ORDER BY k;
SELECT * FROM tl_defer2 ORDER BY k;

SELECT public.wt_chk_path(0, 13, 0);
-- exclusion constraints, alone and with a primary key
CREATE EXTENSION btree_gist;
CREATE TABLE tl_excl (k int PRIMARY KEY, r int4range,
    CONSTRAINT tl_no_overlap EXCLUDE USING gist (r WITH &&));
CREATE TABLE tl_excl2 (k int, CONSTRAINT tl_excl_eq EXCLUDE USING gist (k WITH =));
CREATE FUNCTION tl_excl_ins(p int, q int4range) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_excl VALUES (p, q);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
CREATE FUNCTION tl_excl2_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_excl2 VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_excl_ins(1, '[1,5)'), tl_excl_ins(1, '[10,15)'), tl_excl_ins(2, '[20,25)');
SELECT tl_excl_ins(3, '[3,4)');
SELECT tl_excl_ins(1, '[3,4)');
SELECT tl_excl2_ins(1);
SELECT tl_excl2_ins(1);
SELECT * FROM tl_excl ORDER BY k;

SELECT public.wt_chk_path(0, 7, 0);
-- several unique indexes: the one created first raises when both conflict
CREATE TABLE tl_multi (a int, b int, c int);
CREATE UNIQUE INDEX tl_multi_b ON tl_multi (b);
ALTER TABLE tl_multi ADD CONSTRAINT tl_multi_pk PRIMARY KEY (a);
CREATE UNIQUE INDEX tl_multi_c ON tl_multi (c);
CREATE FUNCTION tl_multi_ins(p int, q int, r int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_multi VALUES (p, q, r);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_multi_ins(1, 1, 1), tl_multi_ins(2, 2, 2);
SELECT tl_multi_ins(1, 3, 3) AS a_only, tl_multi_ins(3, 1, 3) AS b_only,
       tl_multi_ins(3, 3, 1) AS c_only;
SELECT tl_multi_ins(1, 1, 1) AS all_three, tl_multi_ins(1, 2, 4) AS a_and_b,
       tl_multi_ins(1, 4, 2) AS a_and_c, tl_multi_ins(4, 2, 1) AS b_and_c,
       tl_multi_ins(1, 2, 9) AS a_b_other_rows;
SELECT * FROM tl_multi ORDER BY a;

SELECT public.wt_chk_path(10, 0, 0);
-- expression and partial unique indexes
CREATE TABLE tl_expr (id int PRIMARY KEY, email text, active boolean);
CREATE UNIQUE INDEX tl_expr_lower ON tl_expr (lower(email));
CREATE UNIQUE INDEX tl_expr_active ON tl_expr (email) WHERE active;
CREATE FUNCTION tl_expr_ins(p int, e text, a boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_expr VALUES (p, e, a);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_expr_ins(1, 'A@x', false), tl_expr_ins(2, 'a@X', false), tl_expr_ins(1, 'b@x', false);
DROP INDEX tl_expr_lower;
SELECT tl_expr_ins(3, 'c@x', false), tl_expr_ins(4, 'c@x', false),
       tl_expr_ins(5, 'c@x', true), tl_expr_ins(6, 'c@x', true);
SELECT * FROM tl_expr ORDER BY id;
SELECT public.wt_chk_path(0, 7, 0);
-- a partial unique index alone
CREATE TABLE tl_partial (id int, email text, active boolean);
CREATE UNIQUE INDEX tl_partial_active ON tl_partial (email) WHERE active;
CREATE FUNCTION tl_partial_ins(p int, e text, a boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO tl_partial VALUES (p, e, a);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME, tab = TABLE_NAME;
        RETURN tl_diag(st, msg, det, con, tab);
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_partial_ins(1, 'x', false), tl_partial_ins(2, 'x', false),
       tl_partial_ins(3, 'x', true), tl_partial_ins(4, 'x', true),
       tl_partial_ins(5, 'x', NULL), tl_partial_ins(6, NULL, true), tl_partial_ins(7, NULL, true);
SELECT * FROM tl_partial ORDER BY id;

SELECT public.wt_chk_path(0, 7, 0);
-- 5. CHECK constraints, domains, generated columns, table kinds -------------------

SELECT public.wt_chk_path(0, 0, 0);
-- a CHECK calling a function that writes: with a duplicate its row goes
CREATE FUNCTION tl_checked_fn(k int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tl_log (what) VALUES ('check ' || k);
    RETURN k >= 0;
END
$$;
CREATE FUNCTION tl_check_uv(k int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF k = 13 THEN
        RAISE unique_violation USING MESSAGE = 'raised by the check for 13';
    END IF;
    RETURN true;
END
$$;
CREATE TABLE tl_chk (k int PRIMARY KEY CHECK (tl_checked_fn(k)) CHECK (tl_check_uv(k)),
    v int CHECK (v <> 7));
CREATE FUNCTION tl_chk_ins(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_chk VALUES (p, q);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
DELETE FROM tl_log;
SELECT tl_chk_ins(1, 1), tl_chk_ins(1, 1), tl_chk_ins(13, 1), tl_chk_ins(2, 2);
SELECT tl_chk_ins(1, 7);
SELECT tl_chk_ins(-1, 1);
SELECT * FROM tl_chk ORDER BY k;
SELECT what FROM tl_log ORDER BY n;
DELETE FROM tl_log;

SELECT public.wt_chk_path(0, 6, 0);
-- domains: CHECK, NOT NULL, a CHECK calling a function that writes
CREATE DOMAIN tl_pos AS int CHECK (VALUE > 0);
CREATE DOMAIN tl_nn AS text NOT NULL;
CREATE DOMAIN tl_logged AS int CHECK (tl_checked_fn(VALUE));
CREATE TABLE tl_dom (k tl_pos PRIMARY KEY, v tl_nn, w tl_logged);
CREATE FUNCTION tl_dom_ins(p int, q text, r int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_dom VALUES (p, q, r);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_dom_ins(1, 'a', 1), tl_dom_ins(1, 'b', 2), tl_dom_ins(2, 'c', 3);
SELECT tl_dom_ins(0, 'a', 1);
SELECT tl_dom_ins(1, NULL, 1);
SELECT tl_dom_ins(1, 'a', -1);
SELECT * FROM tl_dom ORDER BY k;
SELECT what FROM tl_log ORDER BY n;
DELETE FROM tl_log;
SELECT public.wt_chk_path(0, 6, 0);
-- a domain without constraints
CREATE DOMAIN tl_plain AS int;
CREATE TABLE tl_dom2 (k tl_plain PRIMARY KEY);
CREATE FUNCTION tl_dom2_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_dom2 VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_dom2_ins(1), tl_dom2_ins(1);

SELECT public.wt_chk_path(0, 2, 0);
-- generated columns (a stored one in the key), an identity key
CREATE TABLE tl_gen (a int, b int, s int GENERATED ALWAYS AS (a + b) STORED UNIQUE);
CREATE FUNCTION tl_gen_ins(p int, q int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text;
BEGIN
    BEGIN
        INSERT INTO tl_gen (a, b) VALUES (p, q);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL;
        RETURN 'duplicate: ' || det;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_gen_ins(1, 2), tl_gen_ins(2, 1), tl_gen_ins(2, 2);
SELECT * FROM tl_gen ORDER BY s;

SELECT public.wt_chk_path(3, 0, 0);
-- unlogged and temporary tables
CREATE UNLOGGED TABLE tl_unlogged (k int PRIMARY KEY);
CREATE TEMP TABLE tl_temp (k int PRIMARY KEY, v text);
CREATE FUNCTION tl_kinds_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    out text := '';
BEGIN
    BEGIN
        INSERT INTO tl_unlogged VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        out := 'unlogged: ' || SQLERRM || '; ';
    END;
    BEGIN
        INSERT INTO tl_temp VALUES (p, 'temp');
    EXCEPTION WHEN unique_violation THEN
        out := out || 'temp: ' || SQLERRM;
    END;
    RETURN out;
END
$$;
SELECT tl_kinds_ins(1), tl_kinds_ins(1), tl_kinds_ins(2);
BEGIN;
SELECT tl_kinds_ins(3), tl_kinds_ins(3);
ROLLBACK;
SELECT (SELECT count(*) FROM tl_unlogged) AS unlogged, (SELECT count(*) FROM tl_temp) AS temp;

SELECT public.wt_chk_path(10, 0, 0);
-- a toasted value in the row of a duplicate
CREATE TABLE tl_toast (k int PRIMARY KEY, big text);
CREATE FUNCTION tl_toast_ins(p int, n int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO tl_toast VALUES (p, (SELECT string_agg(md5(g::text || p), '') FROM generate_series(1, n) g));
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate: ' || SQLERRM;
    END;
    RETURN 'inserted';
END
$$;
SELECT tl_toast_ins(1, 1000), tl_toast_ins(1, 1000), tl_toast_ins(2, 1000);
SELECT k, length(big) FROM tl_toast ORDER BY k;

DROP TABLE tl_log, tl_trg, tl_child, tl_child_d, tl_parent, tl_rule, tl_rule_also,
    tl_base, tl_part, tl_inh, tl_defer, tl_defer2, tl_excl, tl_excl2, tl_multi,
    tl_expr, tl_partial, tl_chk, tl_dom, tl_dom2, tl_gen, tl_unlogged, tl_temp, tl_toast CASCADE;
SELECT public.wt_chk_path(0, 3, 0);
