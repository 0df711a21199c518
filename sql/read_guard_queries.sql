-- read_guard_queries: SELECT ... INTO [STRICT] variables FROM a table in a
-- handler block runs under a read guard, without the block's
-- subtransaction, when its plan is provably read-only (issue 28 part 3,
-- src/lazy/guarded_query.c).  Every case is compared with PL/pgSQL:
-- values, FOUND and ROW_COUNT, errors and their CONTEXT lines, the
-- session's relation locks after a normal end and after a caught error,
-- nested blocks, handlers that re-raise, an AFTER trigger of the calling
-- statement, and the queries the conditions refuse.  rq_mode() says, from
-- plnimble_savepoint_stats(), whether the blocks stayed without their
-- subtransaction through a guard ('guarded') or took it ('subtransaction');
-- on PL/pgSQL, which has no counters, it just says what was expected.

-- the generic plan from the first run on (the default mode is covered at
-- the end: the guard starts once the plan cache has chosen its generic plan)
SET plan_cache_mode = force_generic_plan;

CREATE FUNCTION rq_counts() RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    r bigint[];
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT ARRAY[blocks_entered, savepoints_materialized,
                          errors_caught_lazy, blocks_lazy_guarded]
               FROM plnimble_savepoint_stats()' INTO r;
    RETURN r;
END
$$;

-- run q; expected is 'guarded' (every block it entered stayed without its
-- subtransaction, some through a guard) or 'subtransaction' (some block
-- took its subtransaction); the answer is expected's if so, else the
-- counters' deltas
CREATE FUNCTION rq_mode(q text, expected text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    a bigint[];
    b bigint[];
    got text;
BEGIN
    a := rq_counts();
    EXECUTE q;
    b := rq_counts();
    IF a IS NULL THEN
        RETURN expected;
    END IF;
    IF b[2] > a[2] THEN
        got := 'subtransaction';
    ELSIF b[4] > a[4] THEN
        got := 'guarded';
    ELSE
        got := 'neither';
    END IF;
    IF got = expected THEN
        RETURN got;
    END IF;
    RETURN format('%s: blocks %s, savepoints %s, caught %s, guarded %s', got,
                  b[1] - a[1], b[2] - a[2], b[3] - a[3], b[4] - a[4]);
END
$$;

CREATE FUNCTION rq_locks() RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(relation::regclass::text || ' ' || mode, ', '
                               ORDER BY relation::regclass::text, mode), 'none')
      FROM pg_locks
     WHERE pid = pg_backend_pid() AND locktype = 'relation'
       AND relation::regclass::text LIKE 'rq%'
$$;

CREATE TABLE rq_t (k int PRIMARY KEY, v text, n int);
INSERT INTO rq_t SELECT k, 'v' || k, k - 5 FROM generate_series(1, 10) k;
INSERT INTO rq_t VALUES (11, '42', 6);
CREATE TABLE rq_dup (k int, v text);
INSERT INTO rq_dup VALUES (1, 'a'), (1, 'b'), (2, 'c');
CREATE VIEW rq_view AS SELECT k, v FROM rq_t WHERE k <= 5;
ANALYZE rq_t, rq_dup;

-- the measured shape: INTO STRICT under no_data_found / too_many_rows
CREATE FUNCTION rq_get(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_t WHERE k = key;
    RETURN r;
EXCEPTION
    WHEN no_data_found THEN
        RETURN 'none';
    WHEN too_many_rows THEN
        RETURN 'many';
END
$$;
CREATE FUNCTION rq_get_dup(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_dup WHERE k = key;
    RETURN r;
EXCEPTION
    WHEN no_data_found THEN
        RETURN 'none: ' || SQLERRM || ', found ' || FOUND;
    WHEN too_many_rows THEN
        RETURN 'many: ' || SQLERRM || ', r is ' || coalesce(r, 'null') ||
               ', found ' || FOUND;
END
$$;
SELECT rq_get(3), rq_get(99), rq_get_dup(1), rq_get_dup(2), rq_get_dup(7);
SELECT rq_mode('SELECT rq_get(3)', 'guarded'),
       rq_mode('SELECT rq_get(99)', 'guarded'),
       rq_mode('SELECT rq_get_dup(1)', 'guarded'),
       rq_mode('SELECT rq_get_dup(7)', 'guarded');

-- without STRICT: 0, 1 and 2 rows, FOUND and ROW_COUNT after the block;
-- two columns into two variables
CREATE FUNCTION rq_loose(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := 'unset';
    k2 int := -1;
    c bigint;
    f boolean;
BEGIN
    BEGIN
        SELECT v, k INTO r, k2 FROM rq_dup WHERE k = key;
        f := FOUND;
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLERRM;
    END;
    GET DIAGNOSTICS c = ROW_COUNT;
    RETURN format('r=%s k=%s found=%s rows=%s', r, k2, f, c);
END
$$;
SELECT rq_loose(1), rq_loose(2), rq_loose(3);
SELECT rq_mode('SELECT rq_loose(2)', 'guarded'),
       rq_mode('SELECT rq_loose(3)', 'guarded');

-- errors raised in the middle of the executor: a division by zero in the
-- WHERE clause, a failed cast in the target list; the handler runs, and
-- an error it does not catch goes up with SPI's CONTEXT line
CREATE FUNCTION rq_div(d int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_t WHERE n / d = 1;
    RETURN r;
EXCEPTION WHEN division_by_zero THEN
    RETURN 'div0: ' || SQLERRM;
END
$$;
CREATE FUNCTION rq_cast(key int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    i int;
BEGIN
    SELECT v::int INTO STRICT i FROM rq_t WHERE k = key;
    RETURN i;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN -1;
END
$$;
CREATE FUNCTION rq_cast_uncaught(key int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    i int;
BEGIN
    SELECT v::int INTO STRICT i FROM rq_t WHERE k = key;
    RETURN i;
EXCEPTION WHEN division_by_zero THEN
    RETURN -1;
END
$$;
SELECT rq_div(1), rq_div(0), rq_cast(11), rq_cast(3);
SELECT rq_cast_uncaught(3);
SELECT rq_mode('SELECT rq_div(0)', 'guarded'),
       rq_mode('SELECT rq_cast(3)', 'guarded');

-- locks: kept when the block ends normally, released with a caught error
-- (as PL/pgSQL's subtransaction keeps or releases them)
BEGIN;
SELECT rq_get(4), rq_locks();
COMMIT;
BEGIN;
SELECT rq_get(99), rq_locks();
COMMIT;
BEGIN;
SELECT rq_div(0), rq_locks();
COMMIT;
BEGIN;
SELECT rq_cast(3), rq_locks();
COMMIT;

-- a permission error of the executor's check, caught
CREATE TABLE rq_secret (k int, v text);
INSERT INTO rq_secret VALUES (1, 'secret');
CREATE ROLE rq_user;
GRANT SELECT ON rq_t TO rq_user;
CREATE FUNCTION rq_peek(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_secret WHERE k = key;
    RETURN r;
EXCEPTION WHEN insufficient_privilege THEN
    RETURN 'denied: ' || SQLERRM;
END
$$;
SELECT rq_peek(1);
SET ROLE rq_user;
BEGIN;
SELECT rq_peek(1), rq_get(2), rq_locks();
COMMIT;
SELECT rq_mode('SELECT rq_peek(1)', 'guarded');
RESET ROLE;

-- nested blocks, and handlers that re-raise
CREATE FUNCTION rq_nested(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        SELECT v INTO STRICT r FROM rq_t WHERE k = key;
    EXCEPTION WHEN too_many_rows THEN
        r := 'inner';
    END;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'outer: ' || SQLERRM;
END
$$;
CREATE FUNCTION rq_reraise(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        SELECT v INTO STRICT r FROM rq_t WHERE k = key;
    EXCEPTION WHEN no_data_found THEN
        RAISE NOTICE 'inner caught: %', SQLERRM;
        RAISE;
    END;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'outer caught';
END
$$;
CREATE FUNCTION rq_reraise_uncaught(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_t WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RAISE EXCEPTION 'key % is missing', key USING ERRCODE = 'P0002';
END
$$;
SELECT rq_nested(5), rq_nested(0), rq_reraise(6), rq_reraise(0);
SELECT rq_reraise_uncaught(0);
SELECT rq_mode('SELECT rq_nested(0)', 'guarded'),
       rq_mode('SELECT rq_reraise(0)', 'guarded');
BEGIN;
SELECT rq_nested(0), rq_locks();
COMMIT;

-- a loop of 1000 caught errors, each raised in the middle of the executor
CREATE FUNCTION rq_loop(d int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    r text;
    caught int := 0;
BEGIN
    FOR i IN 1..1000 LOOP
        BEGIN
            SELECT v INTO STRICT r FROM rq_t WHERE k = i % 10 + 1 AND n / d = 0;
        EXCEPTION WHEN division_by_zero OR no_data_found THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END
$$;
BEGIN;
SELECT rq_loop(0), rq_loop(1), rq_locks();
COMMIT;
SELECT rq_mode('SELECT rq_loop(0)', 'guarded');

-- an AFTER trigger of the statement that calls the function: it still
-- fires after an error raised mid-execution was caught under the guard
CREATE TABLE rq_t2 (x text);
CREATE TABLE rq_log (what text);
CREATE FUNCTION rq_t2_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rq_log VALUES ('row ' || NEW.x);
    RETURN NULL;
END
$$;
CREATE FUNCTION rq_t2_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO rq_log VALUES ('statement');
    RETURN NULL;
END
$$;
CREATE TRIGGER rq_t2_row AFTER INSERT ON rq_t2
    FOR EACH ROW EXECUTE FUNCTION rq_t2_row();
CREATE TRIGGER rq_t2_stmt AFTER INSERT ON rq_t2
    FOR EACH STATEMENT EXECUTE FUNCTION rq_t2_stmt();
INSERT INTO rq_t2 SELECT rq_div(0) || ' ' || g FROM generate_series(1, 3) g;
INSERT INTO rq_t2 SELECT rq_get(99) || ' ' || g FROM generate_series(1, 2) g;
SELECT * FROM rq_log ORDER BY what;
SELECT count(*) FROM rq_t2;

-- the view over a table is a table scan: guarded
CREATE FUNCTION rq_from_view(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_view WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
SELECT rq_from_view(2), rq_from_view(7);
SELECT rq_mode('SELECT rq_from_view(7)', 'guarded');

-- refused: a locking clause, a volatile user function in WHERE, an
-- aggregate, a conversion to the variable's type, a sub-select; each
-- takes the block's subtransaction
CREATE FUNCTION rq_user_fn(i int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    RETURN i;
END
$$;
CREATE FUNCTION rq_refused(kind text, key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    b bigint;
BEGIN
    IF kind = 'for update' THEN
        SELECT v INTO STRICT r FROM rq_t WHERE k = key FOR UPDATE;
    ELSIF kind = 'user function' THEN
        SELECT v INTO STRICT r FROM rq_t WHERE k = rq_user_fn(key);
    ELSIF kind = 'aggregate' THEN
        SELECT count(*) INTO STRICT b FROM rq_t WHERE k > key;
        r := b::text;
    ELSIF kind = 'conversion' THEN
        SELECT n INTO STRICT r FROM rq_t WHERE k = key;
    ELSE
        SELECT v INTO STRICT r FROM rq_t WHERE k = (SELECT max(k) FROM rq_dup WHERE k < key);
    END IF;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
SELECT kind, rq_refused(kind, 2), rq_refused(kind, 99)
  FROM unnest(ARRAY['for update', 'user function', 'aggregate', 'conversion',
                    'sub-select']) kind;
SELECT kind, rq_mode(format('SELECT rq_refused(%L, 99)', kind), 'subtransaction')
  FROM unnest(ARRAY['for update', 'user function', 'aggregate', 'conversion',
                    'sub-select']) kind;
BEGIN;
SELECT rq_refused('for update', 99), rq_locks();
COMMIT;

-- snapshots, as SPI's: a volatile function's query sees the rows its
-- calling statement inserted before (a new snapshot after a command
-- counter increment), a stable one's does not (the statement's snapshot)
CREATE TABLE rq_chain (k int PRIMARY KEY, v text);
INSERT INTO rq_chain VALUES (0, 'start');
CREATE FUNCTION rq_chain_get(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_chain WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
CREATE FUNCTION rq_chain_get_stable(key int) RETURNS text STABLE LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_chain WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
SELECT rq_chain_get(0), rq_chain_get_stable(0), rq_chain_get(1), rq_chain_get_stable(1);
INSERT INTO rq_chain SELECT g, 'after ' || rq_chain_get(g - 1) FROM generate_series(1, 3) g;
INSERT INTO rq_chain SELECT g, 'after ' || rq_chain_get_stable(g - 1) FROM generate_series(11, 13) g;
SELECT * FROM rq_chain ORDER BY k;
SELECT rq_mode('SELECT rq_chain_get(99)', 'guarded'),
       rq_mode('SELECT rq_chain_get_stable(99)', 'guarded');

-- the default plan cache mode: the first runs are custom plans, run under
-- the subtransaction; once the generic plan is chosen, the guard
RESET plan_cache_mode;
CREATE FUNCTION rq_get2(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rq_t WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
SELECT count(*) FROM (SELECT rq_get2(g) FROM generate_series(1, 10) g) s;
SELECT rq_get2(1), rq_get2(100);
SELECT rq_mode('SELECT rq_get2(100)', 'guarded');

DROP FUNCTION rq_peek(int);
DROP TABLE rq_secret;
REVOKE ALL ON rq_t FROM rq_user;
DROP ROLE rq_user;
