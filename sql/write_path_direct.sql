-- write_path_direct: the write path's INSERT run below the executor
-- (src/write/write_direct.c) must fail exactly as the plain INSERT fails, for
-- the block of issue 18 (a single-row INSERT last in a block that catches
-- only unique_violation).  The plain INSERT writes the heap tuple, then
-- the index entries in index order, and stops at the unique index's
-- duplicate; looking for the duplicate first or inserting speculatively
-- would see it before the heap tuple, or go on past it.  Where the heap
-- tuple or another index entry can fail by itself the outcomes differ, so
-- such tables must not take the path.  Also: duplicates rare and common
-- (the search before writing switched on and off), defaults and nextval
-- evaluated once per attempt, NOT NULL and CHECK errors before the
-- duplicate, a text key, an identity column, FOUND and ROW_COUNT.  Each
-- section asserts which path its calls took, through
-- plnimble_savepoint_stats() deltas (wd_path: INSERTs run by the write
-- path, savepoints started; "as expected" under PL/pgSQL, which has no
-- counters): since issue 30 the tables of sections 1 to 3 take it too
-- (the entries are written in index order, stopping at the duplicate, and
-- the key is not looked for first where what it skips could fail), but
-- for the first call after a table is made again.

CREATE TABLE wd_prev (writes bigint, savepoints bigint);
INSERT INTO wd_prev VALUES (0, 0);
CREATE FUNCTION wd_path(want_writes bigint, want_savepoints bigint)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    w bigint;
    s bigint;
    pw bigint;
    ps bigint;
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT writes_without_savepoint, savepoints_materialized FROM plnimble_savepoint_stats()'
        INTO w, s;
    SELECT writes, savepoints INTO pw, ps FROM wd_prev;
    UPDATE wd_prev SET writes = w, savepoints = s;
    IF want_writes IS NULL OR (w - pw = want_writes AND s - ps = want_savepoints) THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes without a savepoint %s, savepoints %s (expected %s, %s)',
                  w - pw, s - ps, want_writes, want_savepoints);
END
$$;

CREATE FUNCTION ins_text(p_k int, p_t text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n int;
BEGIN
    BEGIN
        INSERT INTO wd_order (k, t) VALUES (p_k, p_t);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate ' || p_k || ' (' || SQLSTATE || ')';
    END;
    -- (after the block, so that the INSERT is its last statement)
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN 'inserted ' || p_k || ', row_count ' || n || ', found ' || FOUND;
END
$$;

-- 1. an index on a text column before the primary key: an entry too big
-- for it fails before the duplicate is seen (not caught by the handler)
CREATE TABLE wd_order (k int NOT NULL, t text);
CREATE INDEX wd_order_t ON wd_order (t);
ALTER TABLE wd_order ADD PRIMARY KEY (k);
SELECT wd_path(NULL, NULL) AS reset;
SELECT ins_text(1, 'a');
SELECT ins_text(1, 'b');
-- an incompressible value of 9000 bytes: too big for a B-tree entry
SELECT ins_text(1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT ins_text(2, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT k, length(t) FROM wd_order ORDER BY k;
-- an index on a text column: not taken
SELECT wd_path(4, 0);

-- 2. the same index after the primary key: the duplicate comes first
DROP TABLE wd_order;
CREATE TABLE wd_order (k int PRIMARY KEY, t text);
CREATE INDEX wd_order_t ON wd_order (t);
SELECT ins_text(1, 'a');
SELECT ins_text(1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT ins_text(2, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT k, length(t) FROM wd_order ORDER BY k;
-- the index after the key: not taken either
SELECT wd_path(2, 1);

-- 3. a column stored without TOAST: a row too big for a page
DROP TABLE wd_order;
CREATE TABLE wd_order (k int PRIMARY KEY, t text);
ALTER TABLE wd_order ALTER COLUMN t SET STORAGE PLAIN;
SELECT ins_text(1, 'a');
SELECT ins_text(1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 282) g));
SELECT ins_text(3, repeat('x', 100));
SELECT k, length(t) FROM wd_order ORDER BY k;
-- a column stored without TOAST: not taken
SELECT wd_path(2, 1);

-- 4. a text key; duplicates rare, then common, then rare again
CREATE TABLE wd_text (name text PRIMARY KEY, n int NOT NULL DEFAULT 0,
                      id bigint GENERATED ALWAYS AS IDENTITY,
                      CHECK (n >= 0));
CREATE FUNCTION ins_names(names text[], ns int[]) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    out text := '';
    nm text;
    v int;
BEGIN
    FOR i IN 1..array_length(names, 1) LOOP
        -- (plain variables: the write path does not review subscripts)
        nm := names[i];
        v := ns[i];
        BEGIN
            INSERT INTO wd_text (name, n) VALUES (nm, v);
        EXCEPTION WHEN unique_violation THEN
            out := out || ' dup:' || names[i];
            CONTINUE;
        END;
        -- (after the block, so that the INSERT is its last statement)
        out := out || '+' || names[i];
    END LOOP;
    RETURN out;
END
$$;
SELECT wd_path(NULL, NULL) AS reset;
SELECT ins_names(ARRAY['a','b','c','d','e','f','g','h'], ARRAY[1,1,1,1,1,1,1,1]);
SELECT ins_names(ARRAY['a','a','b','b','c','c','i','d','d','j','e','e','f','k','g','g'],
                 ARRAY[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]);
SELECT ins_names(ARRAY['l','m','n','o','p','a','q'], ARRAY[1,1,1,1,1,1,1]);
-- NOT NULL and CHECK fail before the duplicate is seen
SELECT ins_names(ARRAY['a'], ARRAY[NULL::int]);
SELECT ins_names(ARRAY['a'], ARRAY[-1]);
SELECT ins_names(ARRAY['zz'], ARRAY[-1]);
-- every attempt took one identity value, duplicate or not
SELECT name, n, id FROM wd_text ORDER BY id;
-- a text key, an identity column, a CHECK: every attempt took the path
SELECT wd_path(34, 0);

-- 5. a sequence default, evaluated once per attempt
CREATE SEQUENCE wd_seq;
CREATE TABLE wd_seqd (k int PRIMARY KEY, s bigint DEFAULT nextval('wd_seq'));
CREATE FUNCTION ins_seq(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wd_seqd (k) VALUES (i / 3);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN dup || ' duplicates, sequence at ' || currval('wd_seq');
END
$$;
SELECT wd_path(NULL, NULL) AS reset;
SELECT ins_seq(30);
SELECT k, s FROM wd_seqd ORDER BY k;
-- every attempt took the path
SELECT wd_path(30, 0);

-- 6. RETURNING ... INTO: the row returned, FOUND, ROW_COUNT; a duplicate
-- leaves the targets as they were
CREATE TABLE wd_ret (k int PRIMARY KEY, id bigint GENERATED ALWAYS AS IDENTITY,
                     at_most int DEFAULT 7);
CREATE FUNCTION ins_ret(keys int[]) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    out text := '';
    got_id bigint := -1;
    got_k int := -1;
    got_m int := -1;
    n int;
    rc int;
BEGIN
    FOREACH n IN ARRAY keys LOOP
        BEGIN
            INSERT INTO wd_ret (k) VALUES (n) RETURNING id, k, at_most INTO got_id, got_k, got_m;
        EXCEPTION WHEN unique_violation THEN
            out := out || format('[dup %s %s %s %s]', got_id, got_k, got_m, FOUND);
            CONTINUE;
        END;
        -- (after the block, so that the INSERT is its last statement)
        GET DIAGNOSTICS rc = ROW_COUNT;
        out := out || format('[%s %s %s rc=%s %s]', got_id, got_k, got_m, rc, FOUND);
    END LOOP;
    RETURN out;
END
$$;
SELECT wd_path(NULL, NULL) AS reset;
SELECT ins_ret(ARRAY[1, 2, 2, 3, 1, 1, 4, 4, 4, 5, 5, 6]);
-- every attempt took the path
SELECT wd_path(12, 0);
-- RETURNING without INTO, and INTO without RETURNING: the statement's errors
CREATE FUNCTION ins_ret_nowhere(p int) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO wd_ret (k) VALUES (p) RETURNING id;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted';
END
$$;
SELECT ins_ret_nowhere(10);
SELECT ins_ret_nowhere(1);
-- taken (the error comes after the row is in, as for the plain INSERT)
SELECT wd_path(2, 0);
CREATE FUNCTION ins_into_noreturn(p int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x int;
BEGIN
    BEGIN
        INSERT INTO wd_ret (k) VALUES (p) INTO x;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate';
    END;
    RETURN 'inserted ' || coalesce(x::text, 'null');
END
$$;
SELECT ins_into_noreturn(11);
SELECT ins_into_noreturn(1);
-- not taken: INTO without RETURNING
SELECT wd_path(0, 2);
SELECT k, id, at_most FROM wd_ret ORDER BY k;
