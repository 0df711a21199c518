-- read_guard_faults: errors forced inside the read guard (issue 28, part
-- 4), at points where the guarded work holds something: a catalog reader
-- failing part way (a name in a schema without USAGE, bad input syntax, a
-- missing object, a bad privilege name), and the guarded first planning
-- failing after its analysis locked a table (an unknown column, a missing
-- table).  After each caught error: the handler ran as under PL/pgSQL
-- (this file's expected output is PL/pgSQL's), the session's relation
-- locks are PL/pgSQL's (by name, and in number), COMMIT prints no
-- resource-owner leak WARNING, and the session keeps working.  rf_lazy()
-- shows from plnimble_savepoint_stats() that the blocks stayed without
-- their subtransaction, through a guard (PL/pgSQL: it just says so).
-- Lock waits ended by lock_timeout, statement_timeout and a cancel are in
-- isolation/specs/read_guard_waits.spec; see docs/testing-lanes.md for
-- what cannot be injected (out of memory).

CREATE FUNCTION rf_counts() RETURNS bigint[] LANGUAGE plpgsql AS $$
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
-- run q; 'lazy' if every block it entered stayed without its
-- subtransaction, some through a guard, and an error was caught so;
-- else the counters' deltas
CREATE FUNCTION rf_lazy(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    a bigint[];
    b bigint[];
BEGIN
    a := rf_counts();
    EXECUTE q;
    b := rf_counts();
    IF a IS NULL OR
       (b[1] > a[1] AND b[2] = a[2] AND b[3] > a[3] AND b[4] > a[4]) THEN
        RETURN 'lazy';
    END IF;
    RETURN format('blocks %s, savepoints %s, caught %s, guarded %s',
                  b[1] - a[1], b[2] - a[2], b[3] - a[3], b[4] - a[4]);
END
$$;
-- the session's relation locks: those on this script's tables by name,
-- and how many relation locks it holds in all (catalogs included)
CREATE FUNCTION rf_locks() RETURNS text LANGUAGE sql AS $$
    SELECT coalesce((SELECT string_agg(relation::regclass::text || ' ' || mode, ', '
                                       ORDER BY relation::regclass::text, mode)
                       FROM pg_locks
                      WHERE pid = pg_backend_pid() AND locktype = 'relation'
                        AND relation::regclass::text LIKE 'rf%'), 'none')
           || ' / ' ||
           (SELECT count(*) FROM pg_locks
             WHERE pid = pg_backend_pid() AND locktype = 'relation')
$$;

CREATE TABLE rf_t (a int);
INSERT INTO rf_t VALUES (1), (2);
CREATE TABLE rf_u (b int);
CREATE SCHEMA rf_closed;
CREATE TABLE rf_closed.hidden (c int);
CREATE ROLE regress_rf_user;
GRANT SELECT ON rf_t TO regress_rf_user;

-- the readers themselves raising: each block catches its own error
CREATE FUNCTION rf_readers(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
    near timestamptz := '2020-01-01 00:00+00';
    far timestamptz := '294276-12-31 00:00+00';
BEGIN
    BEGIN
        r := r || t::regclass::text;
    EXCEPTION WHEN OTHERS THEN
        r := r || 'regclass ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || coalesce(to_regclass(t)::text, 'null');
    EXCEPTION WHEN OTHERS THEN
        r := r || ' to_regclass ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || has_table_privilege(t, 'select')::text;
    EXCEPTION WHEN OTHERS THEN
        r := r || ' privilege ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || has_table_privilege(t, 'select, fly')::text;
    EXCEPTION WHEN OTHERS THEN
        r := r || ' bad privilege ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || (t::regtype)::text;
    EXCEPTION WHEN OTHERS THEN
        r := r || ' regtype ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || current_setting('rf.' || t);
    EXCEPTION WHEN OTHERS THEN
        r := r || ' setting ' || SQLSTATE;
    END;
    BEGIN
        r := r || ' ' || ((CASE WHEN t = 'rf_t' THEN near ELSE far END)
                          + interval '1 day' > near)::text;
    EXCEPTION WHEN datetime_field_overflow THEN
        r := r || ' timestamptz ' || SQLSTATE;
    END;
    RETURN r || ' | ' || rf_locks();
END
$$;

-- first calls in the session (the first plannings under the guard too)
BEGIN;
SELECT rf_readers('rf_t');
SELECT rf_readers('rf_nope');
SELECT rf_readers('a.b.c.d');
SELECT rf_readers('bad name!');
SELECT rf_readers('rf_closed.hidden');
SELECT rf_locks();
COMMIT;
SELECT rf_lazy($$SELECT rf_readers('rf_nope')$$);

-- a name in a schema without USAGE: permission denied for schema, raised
-- by the namespace lookup after it read pg_namespace; the same for
-- to_regclass and has_table_privilege
SET ROLE regress_rf_user;
BEGIN;
SELECT rf_readers('rf_closed.hidden');
SELECT rf_readers('rf_t');
SELECT rf_locks();
COMMIT;
SELECT rf_lazy($$SELECT rf_readers('rf_closed.hidden')$$);
RESET ROLE;

-- the guarded first planning failing after its analysis locked a table:
-- an unknown column (the lock on rf_t was taken under the guard and must
-- go with the caught error, as with PL/pgSQL's subtransaction), a missing
-- table, a lock on two tables, then the same expressions planned again
-- (each planning of a failed expression is a first one)
CREATE FUNCTION rf_plan(k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    r text := '';
BEGIN
    BEGIN
        IF k = 1 THEN
            n := (SELECT count(nope) FROM rf_t);
        ELSIF k = 2 THEN
            n := (SELECT count(*) FROM rf_nope);
        ELSIF k = 3 THEN
            n := (SELECT count(*) FROM rf_t, rf_u WHERE rf_u.nope = 1);
        ELSE
            n := (SELECT count(*) FROM rf_t) + 'rf_u'::regclass::oid::int * 0;
        END IF;
        r := 'n = ' || n;
    EXCEPTION
        WHEN undefined_column OR undefined_table THEN
            r := SQLSTATE || ' ' || SQLERRM;
    END;
    RETURN r || ' | ' || rf_locks();
END
$$;
BEGIN;
SELECT rf_plan(1);
SELECT rf_plan(2);
SELECT rf_plan(3);
SELECT rf_locks();
SELECT rf_plan(1);
SELECT rf_plan(4);
SELECT rf_locks();
COMMIT;
SELECT rf_lazy($$SELECT rf_plan(1)$$);
SELECT rf_lazy($$SELECT rf_plan(3)$$);

-- nested blocks: an inner block that does not catch the reader's error,
-- an outer one that does; a handler that re-raises to the block around
-- it; a guard in a handler; and a block that wrote (its subtransaction
-- started) around a lazy one whose error it catches
CREATE FUNCTION rf_nested(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    BEGIN
        BEGIN
            r := r || t::regclass::text;
        EXCEPTION WHEN undefined_object THEN
            r := r || 'inner ' || SQLSTATE;
        END;
    EXCEPTION WHEN undefined_table OR invalid_name OR syntax_error THEN
        r := r || 'outer ' || SQLSTATE;
    END;
    BEGIN
        BEGIN
            r := r || ' ' || has_table_privilege(t, 'select')::text;
        EXCEPTION WHEN OTHERS THEN
            r := r || ' caught ' || SQLSTATE || ', again:';
            RAISE;
        END;
    EXCEPTION WHEN OTHERS THEN
        BEGIN
            r := r || ' re-raised ' || SQLSTATE || ', in the handler: '
                 || (t || '_x')::regclass::text;
        EXCEPTION WHEN undefined_table THEN
            r := r || ' handler caught ' || SQLSTATE;
        END;
    END;
    BEGIN
        INSERT INTO rf_u VALUES (1);
        BEGIN
            r := r || ' ' || (SELECT count(nope) FROM rf_t)::text;
        EXCEPTION WHEN division_by_zero THEN
            r := r || ' not this one';
        END;
    EXCEPTION WHEN undefined_column THEN
        r := r || ' written block caught ' || SQLSTATE
             || ', rows ' || (SELECT count(*) FROM rf_u);
    END;
    RETURN r || ' | ' || rf_locks();
END
$$;
BEGIN;
SELECT rf_nested('rf_t');
SELECT rf_nested('rf_nope');
SELECT rf_nested('a.b.c.d');
SELECT rf_locks();
COMMIT;
-- the handler's own lookup fails with an error no block catches
BEGIN;
SELECT rf_nested('bad name!');
ROLLBACK;

-- an error under the guard that no block catches: the transaction ends,
-- and the next transaction's guards work
CREATE FUNCTION rf_uncaught(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::regclass::text;
EXCEPTION WHEN undefined_object THEN
    RETURN 'no';
END
$$;
BEGIN;
SELECT rf_uncaught('rf_nope');
ROLLBACK;
BEGIN;
SELECT rf_uncaught('rf_t'), rf_readers('rf_nope'), rf_plan(1);
SELECT rf_locks();
COMMIT;

-- the session goes on
SELECT count(*) FROM rf_t;
SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'relation';

DROP FUNCTION rf_readers(text), rf_plan(int), rf_nested(text), rf_uncaught(text);
DROP TABLE rf_t, rf_u, rf_closed.hidden;
DROP SCHEMA rf_closed;
DROP ROLE regress_rf_user;
