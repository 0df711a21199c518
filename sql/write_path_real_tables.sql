-- write_path_real_tables: the write path (issue 30) on the tables
-- applications have: an identity key, a second unique index on text, a
-- foreign key (the table is the child), a table that foreign keys
-- reference (the parent), secondary indexes of other access methods and
-- of text columns, a self-referencing and a MATCH FULL key.  Every case
-- must print what PL/pgSQL prints, with handlers that read every
-- diagnostic, in both outcomes (inserted, duplicate) and for the errors
-- the handler does not catch (foreign_key_violation, an index entry too
-- big); and each section asserts which path its calls took (pathcheck:
-- INSERTs run by the write path, savepoints started; "as expected" under
-- PL/pgSQL, which has no counters).  What stays refused (a deferrable
-- foreign key, a user trigger on INSERT) must say so in the plan view and
-- take its savepoint.
-- Which path the cases took (issue 27): wr_chk_path(w, s, f) compares the
-- plnimble_savepoint_stats() deltas since the last check, INSERTs run by
-- the write path (w), savepoints started (s) and fast calls (f), with
-- what the cases must have done ("as expected" under PL/pgSQL, which has
-- no counters).  The checks stand between the sections, outside
-- transactions.
CREATE TABLE public.wr_chk_prev (w bigint, s bigint, f bigint, pid int);
INSERT INTO public.wr_chk_prev VALUES (0, 0, 0, 0);
CREATE FUNCTION public.wr_chk_path(want_w bigint, want_s bigint, want_f bigint)
RETURNS text LANGUAGE plpgsql AS $pathcheck$
DECLARE
    cw bigint;
    cs bigint;
    cf bigint;
    p public.wr_chk_prev;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized, fast_calls FROM pg_catalog.plnimble_savepoint_stats()'
        INTO cw, cs, cf;
    SELECT * INTO p FROM public.wr_chk_prev;
    -- (a new session, after a reconnection, counts from zero)
    IF p.pid <> pg_backend_pid() THEN
        p.w := 0;
        p.s := 0;
        p.f := 0;
    END IF;
    UPDATE public.wr_chk_prev SET w = cw, s = cs, f = cf, pid = pg_backend_pid();
    IF want_w IS NULL OR (cw - p.w = want_w AND cs - p.s = want_s AND cf - p.f = want_f) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes %s, savepoints %s, fast calls %s (expected %s, %s, %s)',
                  cw - p.w, cs - p.s, cf - p.f, want_w, want_s, want_f);
END
$pathcheck$;
SELECT public.wr_chk_path(NULL, NULL, NULL) AS reset;

-- the plan view's write path line for a function, checked against what it
-- must say ("as expected" under PL/pgSQL, which has no plan view)
CREATE FUNCTION wr_plan(fn regprocedure, want text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    got text;
BEGIN
    IF to_regproc('pg_catalog.plnimble_savepoint_plan') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT string_agg(btrim(line), '' '') FROM pg_catalog.plnimble_savepoint_plan($1) AS line WHERE line LIKE ''%write path%'''
        INTO got USING fn;
    IF got LIKE want THEN
        RETURN 'as expected';
    END IF;
    RETURN got;
END
$$;

-- every diagnostic of the caught duplicate, on one line
CREATE FUNCTION wr_diag(st text, msg text, det text, hint text, ctx text,
                        sch text, tab text, col text, con text, typ text)
RETURNS text LANGUAGE sql AS $$
    SELECT format('%s | %s | %s | hint=%s | %s.%s col=%s con=%s type=%s | %s',
                  st, msg, det, hint, sch, tab, col, con, typ,
                  replace(replace(ctx, E'\n', ' / '), 'PL/nimble', 'PL/pgSQL'))
$$;

-- 1. The orders table of the issue -------------------------------------------
CREATE TABLE wr_customer (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO wr_customer SELECT g, 'c' || g FROM generate_series(1, 20) g;
CREATE TABLE wr_orders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ext_ref text NOT NULL UNIQUE,
    customer_id int REFERENCES wr_customer (id),
    amount numeric(12,2) CHECK (amount >= 0),
    created timestamptz DEFAULT now());
CREATE INDEX wr_orders_customer ON wr_orders (customer_id);

CREATE FUNCTION wr_load(p_ref text, p_customer int, p_amount numeric)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hint text; ctx text;
    sch text; tab text; col text; con text; typ text;
BEGIN
    BEGIN
        INSERT INTO wr_orders (ext_ref, customer_id, amount)
            VALUES (p_ref, p_customer, p_amount);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
            det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT,
            ctx = PG_EXCEPTION_CONTEXT, sch = SCHEMA_NAME, tab = TABLE_NAME,
            col = COLUMN_NAME, con = CONSTRAINT_NAME, typ = PG_DATATYPE_NAME;
        RETURN 'dup: ' || wr_diag(st, msg, det, hint, ctx, sch, tab, col, con, typ);
    END;
    RETURN 'inserted ' || p_ref;
END
$$;
SELECT wr_plan('wr_load(text,int,numeric)', 'write path: the INSERT at line 7 runs without the savepoint%');
SELECT public.wr_chk_path(NULL, NULL, NULL) AS reset;
-- half duplicates: each attempt takes an identity value, as under PL/pgSQL
SELECT g, wr_load('ref-' || (g / 2), 1 + g % 7, g * 1.5) FROM generate_series(0, 11) g;
SELECT id, ext_ref, customer_id, amount FROM wr_orders ORDER BY id;
SELECT public.wr_chk_path(12, 0, 0);
-- the CHECK and NOT NULL fail before the duplicate is seen (terse: the
-- DETAIL shows the row with its creation time)
\set VERBOSITY terse
SELECT wr_load('ref-1', 1, -1);
SELECT wr_load(NULL, 1, 1);
\set VERBOSITY default
-- a missing customer: foreign_key_violation (not caught), raised after the
-- row is written, with the statement's CONTEXT
SELECT wr_load('ref-new', 999, 1);
-- a missing customer and a duplicate: the duplicate first
SELECT wr_load('ref-2', 999, 1);
-- no customer at all: nothing to check
SELECT wr_load('ref-null', NULL, 1);
SELECT public.wr_chk_path(5, 0, 0);
-- the order references its customer: deleting it fails after the loads
DELETE FROM wr_customer WHERE id = 2;
-- a duplicate identity value, given explicitly: the first unique index in
-- index order reports it (the primary key), and a duplicate on both keys
-- too
CREATE FUNCTION wr_load_id(p_id bigint, p_ref text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    msg text; det text; con text;
BEGIN
    BEGIN
        INSERT INTO wr_orders OVERRIDING SYSTEM VALUE VALUES (p_id, p_ref, 1, 1);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
            con = CONSTRAINT_NAME;
        RETURN con || ': ' || msg || ' / ' || det;
    END;
    RETURN 'inserted ' || p_id;
END
$$;
SELECT wr_load_id(1, 'ref-other'), wr_load_id(100, 'ref-1'), wr_load_id(1, 'ref-1'),
       wr_load_id(101, 'ref-101');
SELECT public.wr_chk_path(4, 0, 0);

-- 2. The parent table: referenced by foreign keys, it fires nothing on INSERT
CREATE FUNCTION wr_customer_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    nm text := 'new ' || p;
BEGIN
    BEGIN
        INSERT INTO wr_customer VALUES (p, nm);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p || ': ' || SQLERRM;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_customer_ins(1), wr_customer_ins(21), wr_customer_ins(21);
SELECT public.wr_chk_path(3, 0, 0);

-- 3. Self-referencing and MATCH FULL keys --------------------------------------
CREATE TABLE wr_tree (id int PRIMARY KEY, parent int REFERENCES wr_tree (id));
CREATE FUNCTION wr_tree_ins(p int, par int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wr_tree VALUES (p, par);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
-- its own parent, a child, a duplicate, a missing parent
SELECT wr_tree_ins(1, 1), wr_tree_ins(2, 1), wr_tree_ins(2, 1);
SELECT wr_tree_ins(3, 42);
SELECT * FROM wr_tree ORDER BY id;
CREATE TABLE wr_pair (a int, b int, PRIMARY KEY (a, b));
INSERT INTO wr_pair VALUES (1, 1);
CREATE TABLE wr_full (k int PRIMARY KEY, a int, b int,
    FOREIGN KEY (a, b) REFERENCES wr_pair MATCH FULL);
CREATE FUNCTION wr_full_ins(p int, pa int, pb int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wr_full VALUES (p, pa, pb);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_full_ins(1, 1, 1), wr_full_ins(2, NULL, NULL), wr_full_ins(1, NULL, 5);
SELECT wr_full_ins(3, 1, NULL);
SELECT * FROM wr_full ORDER BY k;
SELECT public.wr_chk_path(8, 0, 0);

-- 4. Secondary indexes of other kinds ------------------------------------------
CREATE TABLE wr_docs (k int PRIMARY KEY, body text, tags text[], span int4range,
                      at timestamptz, code text, doc tsvector);
CREATE INDEX wr_docs_tags ON wr_docs USING gin (tags);
CREATE INDEX wr_docs_doc ON wr_docs USING gin (doc);
CREATE INDEX wr_docs_span ON wr_docs USING gist (span);
CREATE INDEX wr_docs_at ON wr_docs USING brin (at);
CREATE INDEX wr_docs_code ON wr_docs USING hash (code);
CREATE INDEX wr_docs_body ON wr_docs (body);
CREATE FUNCTION wr_docs_ins(p int, p_body text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    msg text; det text; con text;
    -- (computed before the block: the write path reviews plain values)
    v_tags text[] := ARRAY['a', p::text];
    v_span int4range := int4range(p, p + 10);
    v_at timestamptz := '2026-01-01 00:00:00+00'::timestamptz + p * interval '1 day';
    v_code text := 'c' || p;
    v_doc tsvector := to_tsvector('simple', p_body);
BEGIN
    BEGIN
        INSERT INTO wr_docs VALUES (p, p_body, v_tags, v_span, v_at, v_code, v_doc);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
            con = CONSTRAINT_NAME;
        RETURN con || ': ' || msg || ' / ' || det;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_plan('wr_docs_ins(int,text)', 'write path: the INSERT at line 12 runs without the savepoint%');
SELECT wr_docs_ins(1, 'one two'), wr_docs_ins(2, 'three'), wr_docs_ins(1, 'again');
-- an incompressible body of 9000 bytes: too big for the B-tree on body,
-- which comes after the primary key: a duplicate is reported first, a new
-- key fails on the entry (not caught)
SELECT wr_docs_ins(2, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT wr_docs_ins(3, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT k, length(body), tags, span, code FROM wr_docs ORDER BY k;
SELECT count(*) FROM wr_docs WHERE tags @> ARRAY['2'];
SELECT count(*) FROM wr_docs WHERE doc @@ to_tsquery('simple', 'two');
SELECT public.wr_chk_path(5, 0, 0);
-- the same index before the primary key: the entry fails first, even for
-- a duplicate key
CREATE TABLE wr_docs2 (k int NOT NULL, body text);
CREATE INDEX wr_docs2_body ON wr_docs2 (body);
ALTER TABLE wr_docs2 ADD PRIMARY KEY (k);
CREATE FUNCTION wr_docs2_ins(p int, p_body text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wr_docs2 VALUES (p, p_body);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_docs2_ins(1, 'a'), wr_docs2_ins(1, 'b');
SELECT wr_docs2_ins(1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT k, length(body) FROM wr_docs2 ORDER BY k;
SELECT public.wr_chk_path(3, 0, 0);

-- 5. Several unique indexes, text and composite ----------------------------------
CREATE TABLE wr_multi (k int PRIMARY KEY, email text UNIQUE, a int, b int,
                       UNIQUE (a, b));
CREATE FUNCTION wr_multi_ins(p int, p_email text, pa int, pb int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    det text; con text; tab text;
BEGIN
    BEGIN
        INSERT INTO wr_multi VALUES (p, p_email, pa, pb);
    EXCEPTION WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME,
            tab = TABLE_NAME;
        RETURN tab || '.' || con || ': ' || det;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_multi_ins(1, 'x@a', 1, 1), wr_multi_ins(2, 'x@a', 2, 2),
       wr_multi_ins(3, 'y@a', 1, 1), wr_multi_ins(1, 'z@a', 3, 3),
       wr_multi_ins(4, 'x@a', 1, 1), wr_multi_ins(5, NULL, 1, NULL),
       wr_multi_ins(6, NULL, 1, NULL);
-- duplicates common (looked for first), on every index in turn
SELECT string_agg(wr_multi_ins(g % 3 + 1, 'm' || g, g, g), ' ; ') FROM generate_series(10, 30) g;
SELECT * FROM wr_multi ORDER BY k;
SELECT public.wr_chk_path(28, 0, 0);

-- 6. Still refused: a deferrable foreign key, a trigger on INSERT --------------
CREATE TABLE wr_deferred (k int PRIMARY KEY,
    c int REFERENCES wr_customer DEFERRABLE INITIALLY DEFERRED);
CREATE FUNCTION wr_deferred_ins(p int, pc int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wr_deferred VALUES (p, pc);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_plan('wr_deferred_ins(int,int)', 'write path: no: the INSERT at line 4: table wr_deferred: it has a deferrable foreign key');
SELECT wr_deferred_ins(1, 1), wr_deferred_ins(1, 1);
CREATE TABLE wr_audit (what text);
CREATE FUNCTION wr_audit_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wr_audit VALUES ('row ' || NEW.k);
    RETURN NEW;
END
$$;
CREATE TABLE wr_trig (k int PRIMARY KEY);
CREATE TRIGGER wr_trig_audit AFTER INSERT ON wr_trig
    FOR EACH ROW EXECUTE FUNCTION wr_audit_trg();
CREATE FUNCTION wr_trig_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wr_trig VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'dup ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wr_plan('wr_trig_ins(int)', 'write path: no: the INSERT at line 4: table wr_trig: it has triggers on INSERT (other than the checks of its foreign keys)');
SELECT wr_trig_ins(1), wr_trig_ins(1);
SELECT * FROM wr_audit;
SELECT public.wr_chk_path(0, 4, 0);
