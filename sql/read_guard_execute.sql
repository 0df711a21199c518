-- read_guard_execute: EXECUTE '...' INTO variables in a handler block runs
-- its command under a read guard, without the block's subtransaction,
-- when the command turns out to be a reviewed SELECT (issue 28 part 3,
-- src/lazy/guarded_query.c, "Guarded dynamic commands"): parsing, analysis
-- and planning afresh each time, as PL/pgSQL does, then the plan.  Every
-- case is compared with PL/pgSQL: values, ROW_COUNT and FOUND (which
-- EXECUTE leaves alone), the errors of analysis a handler catches
-- (undefined_table, undefined_column, undefined_function, syntax_error)
-- and those it does not (with SPI's LINE and QUERY lines), STRICT, the
-- session's relation locks after a normal end and after a caught error,
-- nested blocks, and the commands the conditions refuse, which take the
-- subtransaction.  rx_mode() says, from plnimble_savepoint_stats(),
-- whether the blocks stayed without their subtransaction through a guard
-- ('guarded') or took it ('subtransaction'); on PL/pgSQL, which has no
-- counters, it says what was expected.

CREATE FUNCTION rx_counts() RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    r bigint[];
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT ARRAY[savepoints_materialized, blocks_lazy_guarded]
               FROM plnimble_savepoint_stats()' INTO r;
    RETURN r;
END
$$;

-- run q; the answer is expected ('guarded' or 'subtransaction') if the
-- counters agree, else what they say
CREATE FUNCTION rx_mode(q text, expected text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    a bigint[];
    b bigint[];
    got text := 'neither';
BEGIN
    a := rx_counts();
    EXECUTE q;
    b := rx_counts();
    IF a IS NULL THEN
        RETURN expected;
    END IF;
    IF b[1] > a[1] THEN
        got := 'subtransaction';
    ELSIF b[2] > a[2] THEN
        got := 'guarded';
    END IF;
    IF got = expected THEN
        RETURN got;
    END IF;
    RETURN format('%s (savepoints %s, guarded %s)', got, b[1] - a[1],
                  b[2] - a[2]);
END
$$;

CREATE FUNCTION rx_locks() RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(relation::regclass::text || ' ' || mode, ', '
                               ORDER BY relation::regclass::text, mode), 'none')
      FROM pg_locks
     WHERE pid = pg_backend_pid() AND locktype = 'relation'
       AND relation::regclass::text LIKE 'rx%'
$$;

CREATE TABLE rx_t (k int PRIMARY KEY, v text, n int);
INSERT INTO rx_t SELECT k, 'v' || k, k - 5 FROM generate_series(1, 10) k;
CREATE TABLE rx_dup (k int, v text);
INSERT INTO rx_dup VALUES (1, 'a'), (1, 'b'), (2, 'c');
CREATE VIEW rx_view AS SELECT k, v FROM rx_t WHERE k <= 5;
ANALYZE rx_t, rx_dup;

-- the measured shape: a table named at run time, under a handler that
-- catches only undefined_table
CREATE FUNCTION rx_lookup(tab text, key int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format('SELECT v FROM %I WHERE k = %s', tab, key) INTO r;
    RETURN coalesce(r, 'null');
EXCEPTION WHEN undefined_table THEN
    RETURN 'no table ' || tab || ': ' || SQLERRM;
END
$$;
SELECT rx_lookup('rx_t', 3), rx_lookup('rx_t', 99), rx_lookup('rx_nosuch', 1),
       rx_lookup('rx_view', 2), rx_lookup('rx_view', 7);
SELECT rx_mode($q$SELECT rx_lookup('rx_t', 3)$q$, 'guarded'),
       rx_mode($q$SELECT rx_lookup('rx_t', 99)$q$, 'guarded'),
       rx_mode($q$SELECT rx_lookup('rx_nosuch', 1)$q$, 'guarded'),
       rx_mode($q$SELECT rx_lookup('rx_view', 2)$q$, 'guarded');

-- the other errors of analysis and parsing, caught; what the handler
-- sees of them
CREATE FUNCTION rx_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    st text;
    msg text;
    ctx text;
BEGIN
    EXECUTE q INTO r;
    RETURN 'ok ' || coalesce(r, 'null');
EXCEPTION
    WHEN undefined_column OR undefined_function OR syntax_error
         OR undefined_object OR datatype_mismatch THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                                ctx = PG_EXCEPTION_CONTEXT;
        RETURN st || ' ' || msg || ' / ' || regexp_replace(ctx, '^PL/\w+ ', '');
END
$$;
SELECT rx_try('SELECT nosuch FROM rx_t WHERE k = 1');
SELECT rx_try('SELECT v FROM rx_t WHERE k = rx_nosuch_fn(1)');
SELECT rx_try('SELECT v FROM rx_t WHERE k = = 1');
SELECT rx_try('SELECT v::rx_nosuch_type FROM rx_t WHERE k = 1');
SELECT rx_try('SELECT v FROM rx_t WHERE k = ''x''::text');
SELECT rx_try('SELECT v FROM rx_t WHERE k = 4');
SELECT rx_mode($q$SELECT rx_try('SELECT nosuch FROM rx_t')$q$, 'guarded'),
       rx_mode($q$SELECT rx_try('SELECT v FROM rx_t WHERE k = rx_nosuch_fn(1)')$q$, 'guarded'),
       rx_mode($q$SELECT rx_try('SELECT v FROM rx_t WHERE k = = 1')$q$, 'guarded'),
       rx_mode($q$SELECT rx_try('SELECT v FROM rx_t WHERE k = 4')$q$, 'guarded');

-- an error the handler does not catch goes up with SPI's lines
SELECT rx_lookup('rx_t', 0) AS fine, rx_try('SELECT v FROM rx_nosuch');
SELECT rx_try('SELECT v FROM rx_t WHERE k = 1 / 0');

-- STRICT under no_data_found and too_many_rows; without STRICT any
-- number of rows; ROW_COUNT counts them all, FOUND is left alone
CREATE FUNCTION rx_strict(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    c bigint;
BEGIN
    EXECUTE 'SELECT v FROM rx_dup WHERE k = ' || key INTO STRICT r;
    RETURN r;
EXCEPTION
    WHEN no_data_found THEN
        GET DIAGNOSTICS c = ROW_COUNT;
        RETURN 'none: ' || SQLERRM || ', rows ' || c;
    WHEN too_many_rows THEN
        GET DIAGNOSTICS c = ROW_COUNT;
        RETURN 'many: ' || SQLERRM || ', r ' || coalesce(r, 'null') ||
               ', rows ' || c;
END
$$;
CREATE FUNCTION rx_loose(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := 'unset';
    k2 int := -1;
    c bigint;
    f boolean;
BEGIN
    PERFORM 1 WHERE false;
    BEGIN
        EXECUTE 'SELECT v, k FROM rx_dup WHERE k = $x$' || key || '$x$::int ORDER BY v'
            INTO r, k2;
        f := FOUND;
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught ' || SQLERRM;
    END;
    GET DIAGNOSTICS c = ROW_COUNT;
    RETURN format('r=%s k=%s found=%s rows=%s', r, k2, f, c);
END
$$;
SELECT rx_strict(1), rx_strict(2), rx_strict(7);
SELECT rx_loose(1), rx_loose(2), rx_loose(3);
SELECT rx_mode('SELECT rx_strict(1)', 'guarded'),
       rx_mode('SELECT rx_strict(2)', 'guarded'),
       rx_mode('SELECT rx_strict(7)', 'guarded'),
       rx_mode('SELECT rx_loose(1)', 'guarded');

-- locks: kept when the block ends normally, released with a caught error
-- (analysis locked the table before the error, or the query ran)
BEGIN;
SELECT rx_lookup('rx_t', 4), rx_locks();
COMMIT;
BEGIN;
SELECT rx_strict(7), rx_locks();
COMMIT;
BEGIN;
SELECT rx_try('SELECT nosuch FROM rx_t'), rx_locks();
COMMIT;
BEGIN;
SELECT rx_lookup('rx_view', 1), rx_locks();
COMMIT;
BEGIN;
SELECT rx_strict(1), rx_strict(2), rx_locks();
COMMIT;

-- the locks guarded work took are the block's: released when a later
-- error of the block is caught after its subtransaction started, and when
-- the block ended normally inside another one whose handler then catches
CREATE TABLE rx_other (k int);
CREATE FUNCTION rx_later(how text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    IF how = 'inner' THEN
        BEGIN
            BEGIN
                EXECUTE 'SELECT v FROM rx_t WHERE k = 1' INTO r;
            EXCEPTION WHEN undefined_table THEN
                r := 'none';
            END;
            RAISE EXCEPTION 'after the inner block: %', r;
        EXCEPTION WHEN raise_exception THEN
            RETURN SQLERRM || ' / ' || rx_locks();
        END;
    END IF;
    BEGIN
        EXECUTE 'SELECT v FROM rx_t WHERE k = 1' INTO r;
        IF how = 'write' THEN
            INSERT INTO rx_other VALUES (1);
        END IF;
        RAISE EXCEPTION 'after %: %', how, r;
    EXCEPTION WHEN raise_exception THEN
        RETURN SQLERRM || ' / ' || rx_locks();
    END;
END
$$;
BEGIN;
SELECT rx_later('write');
COMMIT;
BEGIN;
SELECT rx_later('read');
COMMIT;
BEGIN;
SELECT rx_later('inner');
COMMIT;

-- nested: the inner block's guard and the outer block's handler
CREATE FUNCTION rx_nested(tab text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := 'start';
BEGIN
    BEGIN
        EXECUTE format('SELECT v FROM %I WHERE k = 2', tab) INTO STRICT r;
    EXCEPTION WHEN no_data_found THEN
        r := 'inner none';
    END;
    RETURN r;
EXCEPTION WHEN undefined_table THEN
    RETURN 'outer: ' || SQLERRM || ' (r ' || r || ')';
END
$$;
SELECT rx_nested('rx_t'), rx_nested('rx_nosuch'), rx_nested('rx_dup');
SELECT rx_mode($q$SELECT rx_nested('rx_nosuch')$q$, 'guarded');

-- refused: each runs under the block's subtransaction, with PL/pgSQL's
-- results (an aggregate, a locking clause, a data-modifying command, a
-- column needing a conversion, a function that is not reviewed, a
-- partitioned table, SELECT INTO a table, two commands, USING)
CREATE FUNCTION rx_plain_fn(i int) RETURNS int LANGUAGE sql AS 'SELECT i';
CREATE TABLE rx_part (k int, v text) PARTITION BY RANGE (k);
CREATE TABLE rx_part1 PARTITION OF rx_part FOR VALUES FROM (0) TO (100);
INSERT INTO rx_part VALUES (1, 'p1');
CREATE FUNCTION rx_refused(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, 'null');
EXCEPTION WHEN undefined_table OR feature_not_supported THEN
    RETURN 'caught ' || SQLERRM;
END
$$;
CREATE FUNCTION rx_refused_int(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i int;
BEGIN
    EXECUTE q INTO i;
    RETURN coalesce(i::text, 'null');
EXCEPTION WHEN invalid_text_representation THEN
    RETURN 'caught ' || SQLERRM;
END
$$;
CREATE FUNCTION rx_using(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE 'SELECT v FROM rx_t WHERE k = $1' INTO r USING key;
    RETURN r;
EXCEPTION WHEN undefined_table THEN
    RETURN 'caught';
END
$$;
SELECT rx_refused('SELECT count(*)::text FROM rx_t'),
       rx_refused('SELECT v FROM rx_t WHERE k = 1 FOR UPDATE'),
       rx_refused('SELECT v FROM rx_t WHERE k = rx_plain_fn(2)'),
       rx_refused('SELECT v FROM rx_part WHERE k = 1'),
       rx_refused_int('SELECT v FROM rx_t WHERE k = 1'),
       rx_refused_int('SELECT k FROM rx_t WHERE k = 1'),
       rx_using(5);
SELECT rx_refused('SELECT v INTO rx_new FROM rx_t');
SELECT rx_refused('SELECT 1; SELECT 2');
BEGIN;
SELECT rx_refused('WITH i AS (INSERT INTO rx_dup VALUES (9, ''w'') RETURNING v) SELECT v FROM i');
SELECT rx_refused('INSERT INTO rx_dup VALUES (9, ''x'') RETURNING v');
SELECT count(*) FROM rx_dup WHERE k = 9;
SELECT rx_refused('SELECT v FROM rx_t WHERE k = 1 FOR UPDATE'), rx_locks();
ROLLBACK;
SELECT rx_mode($q$SELECT rx_refused('SELECT count(*)::text FROM rx_t')$q$, 'subtransaction'),
       rx_mode($q$SELECT rx_refused('SELECT v FROM rx_t WHERE k = 1 FOR UPDATE')$q$, 'subtransaction'),
       rx_mode($q$SELECT rx_refused('SELECT v FROM rx_t WHERE k = rx_plain_fn(2)')$q$, 'subtransaction'),
       rx_mode($q$SELECT rx_refused('SELECT v FROM rx_part WHERE k = 1')$q$, 'subtransaction'),
       rx_mode($q$SELECT rx_refused_int('SELECT v FROM rx_t WHERE k = 1')$q$, 'subtransaction'),
       rx_mode($q$SELECT rx_refused_int('SELECT k FROM rx_t WHERE k = 1')$q$, 'guarded'),
       rx_mode('SELECT rx_using(5)', 'subtransaction');
-- a refused command after analysis locked its table: the lock is the
-- subtransaction's, released with its rollback
BEGIN;
SELECT rx_refused_int('SELECT v::int FROM rx_t WHERE k = rx_plain_fn(1)'),
       rx_locks();
COMMIT;

-- a trigger's transition table is resolved by PL/pgSQL's SPI: refused,
-- so that its name is found
CREATE TABLE rx_trig (k int);
CREATE FUNCTION rx_trig_fn() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r int;
BEGIN
    EXECUTE 'SELECT k FROM rx_newrows ORDER BY k LIMIT 1' INTO r;
    RAISE NOTICE 'first new row %', r;
    RETURN NULL;
EXCEPTION WHEN undefined_table THEN
    RAISE NOTICE 'no transition table';
    RETURN NULL;
END
$$;
CREATE TRIGGER rx_trig_after AFTER INSERT ON rx_trig
    REFERENCING NEW TABLE AS rx_newrows FOR EACH STATEMENT
    EXECUTE FUNCTION rx_trig_fn();
INSERT INTO rx_trig VALUES (3), (2);

-- a stable function runs the command with the caller's snapshot, a
-- volatile one with a new one (both see the row the caller inserted)
CREATE FUNCTION rx_stable(key int) RETURNS text STABLE LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE 'SELECT v FROM rx_dup WHERE k = ' || key INTO STRICT r;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
BEGIN;
INSERT INTO rx_dup VALUES (5, 'five');
SELECT rx_stable(5), rx_strict(5), rx_stable(6);
ROLLBACK;

-- a loop of caught errors stays without subtransactions and keeps no lock
CREATE FUNCTION rx_loop(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    r text;
    misses int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            EXECUTE format('SELECT v FROM %I LIMIT 1',
                           CASE WHEN i % 2 = 0 THEN 'rx_t' ELSE 'rx_gone' END)
                INTO r;
        EXCEPTION WHEN undefined_table THEN
            misses := misses + 1;
        END;
    END LOOP;
    RETURN misses;
END
$$;
BEGIN;
SELECT rx_loop(50), rx_locks();
COMMIT;
SELECT rx_mode('SELECT rx_loop(20)', 'guarded');

