-- write_path_domain: a column of a domain type that the INSERT of an
-- insert-or-handle-duplicate block (issue 18) leaves out.  The rewriter
-- gives the INSERT's query no entry for such a column (it has no
-- default), but the planner adds one, NULL coerced to the domain, so the
-- domain's CHECK runs for every row the INSERT writes.  When that check
-- calls a function that writes, PL/pgSQL's rollback of the block's
-- subtransaction undoes the write on a duplicate; the write path, which
-- has no subtransaction to roll back, must not run such an INSERT (issue
-- 27: what the path executes is the planned target list, so that is what
-- it must check).  Also the same domain with a default, and given a value
-- explicitly (the query's own target list has the check then), and a
-- domain whose check calls nothing, left out.  Each case asserts which
-- path it took through plnimble_savepoint_stats() deltas ("as expected"
-- under PL/pgSQL, which has no counters).

CREATE TABLE wdm_log (n serial, what text);
CREATE FUNCTION wdm_logged(v int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wdm_log (what) VALUES ('checked ' || coalesce(v::text, 'null'));
    RETURN true;
END
$$;
CREATE DOMAIN wdm_dom AS int CHECK (wdm_logged(VALUE));
CREATE DOMAIN wdm_plain AS int CHECK (VALUE IS NULL OR VALUE > 0);

-- which path the blocks since the last call took: the INSERTs run without
-- a savepoint, and the savepoints started
CREATE TABLE wdm_prev (writes bigint, savepoints bigint);
INSERT INTO wdm_prev VALUES (0, 0);
CREATE FUNCTION wdm_path(want_writes bigint, want_savepoints bigint)
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
    SELECT writes, savepoints INTO pw, ps FROM wdm_prev;
    UPDATE wdm_prev SET writes = w, savepoints = s;
    IF want_writes IS NULL THEN
        RETURN 'reset';
    END IF;
    IF w - pw = want_writes AND s - ps = want_savepoints THEN
        RETURN 'as expected';
    END IF;
    RETURN format('writes without a savepoint %s, savepoints %s (expected %s, %s)',
                  w - pw, s - ps, want_writes, want_savepoints);
END
$$;

CREATE FUNCTION wdm_ins(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wdm_t (k) VALUES (p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;

-- 0. a table without the domain: the write path runs both INSERTs
CREATE TABLE wdm_t (k int PRIMARY KEY, d int);
SELECT wdm_ins(0);
SELECT wdm_path(NULL, NULL) IN ('reset', 'as expected') AS reset;
SELECT wdm_ins(1), wdm_ins(1);
SELECT wdm_path(2, 0);

-- 1. the domain column left out: its check runs for the new row and for
-- the duplicate; the duplicate's log row is rolled back with it
DROP TABLE wdm_t;
CREATE TABLE wdm_t (k int PRIMARY KEY, d wdm_dom);
SELECT wdm_ins(0);
TRUNCATE wdm_log;
SELECT wdm_path(NULL, NULL) IN ('reset', 'as expected') AS reset;
SELECT wdm_ins(1);
SELECT wdm_ins(1);
SELECT wdm_ins(2);
SELECT wdm_path(0, 3);
SELECT what FROM wdm_log ORDER BY n;
SELECT k, d FROM wdm_t ORDER BY k;
-- in one transaction, a loop: as many log rows as new keys
CREATE FUNCTION wdm_loop(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wdm_t (k) VALUES (10 + i / 2);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN dup || ' duplicates';
END
$$;
TRUNCATE wdm_log;
BEGIN;
SELECT wdm_loop(10);
SELECT count(*) AS log_rows FROM wdm_log;
COMMIT;
SELECT wdm_path(0, 10);

-- 2. the domain column with a default: the rewriter puts the default,
-- coerced to the domain, in the query itself
DROP TABLE wdm_t;
CREATE TABLE wdm_t (k int PRIMARY KEY, d wdm_dom DEFAULT 5);
SELECT wdm_ins(0);
TRUNCATE wdm_log;
SELECT wdm_path(NULL, NULL) IN ('reset', 'as expected') AS reset;
SELECT wdm_ins(1), wdm_ins(1);
SELECT wdm_path(0, 2);
SELECT what FROM wdm_log ORDER BY n;

-- 3. the domain column given a value
CREATE FUNCTION wdm_ins_d(p int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO wdm_t (k, d) VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RETURN 'duplicate ' || p;
    END;
    RETURN 'inserted ' || p;
END
$$;
SELECT wdm_ins_d(20);
TRUNCATE wdm_log;
SELECT wdm_path(NULL, NULL) IN ('reset', 'as expected') AS reset;
SELECT wdm_ins_d(21), wdm_ins_d(21);
SELECT wdm_path(0, 2);
SELECT what FROM wdm_log ORDER BY n;

-- 4. a domain whose check calls no function, left out: the planner's
-- check of the domain still runs, so the path is not taken either
DROP TABLE wdm_t;
CREATE TABLE wdm_t (k int PRIMARY KEY, d wdm_plain);
SELECT wdm_ins(0);
SELECT wdm_path(NULL, NULL) IN ('reset', 'as expected') AS reset;
SELECT wdm_ins(1), wdm_ins(1);
SELECT wdm_path(0, 2);

-- 5. the domain given a check that writes after the function was first
-- run on the table (ALTER DOMAIN): the next calls see it
ALTER DOMAIN wdm_plain ADD CONSTRAINT wdm_plain_logged CHECK (wdm_logged(VALUE));
TRUNCATE wdm_log;
SELECT wdm_ins(2), wdm_ins(2);
SELECT what FROM wdm_log ORDER BY n;
SELECT k, d FROM wdm_t ORDER BY k;
