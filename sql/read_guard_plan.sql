-- read_guard_plan: what plnimble_savepoint_plan() says of blocks whose
-- work runs under a read guard (issue 28), and the session counters of
-- such blocks, exactly.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has neither
-- the plan view nor the counters; sql/read_guard.sql compares the same
-- shapes' results with PL/pgSQL.

CREATE TABLE rp_t (a int);
CREATE FUNCTION rp_regclass(t text) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::regclass::oid;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rp_mixed(t text, n text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    d date := '2020-02-28';
BEGIN
    BEGIN
        r := format('%s/%s', t::regtype, current_setting(n));
        r := r || ' ' || has_schema_privilege('public', 'usage')::text;
        r := r || ' ' || (d + 1)::text;
        r := r || ' ' || array_to_string(ARRAY[t, n], ',');
    EXCEPTION WHEN undefined_object THEN
        r := 'none';
    END;
    BEGIN
        r := r || (SELECT count(*) FROM rp_t)::text;
    EXCEPTION WHEN OTHERS THEN
        r := 'failed';
    END;
    RETURN r;
END
$$;
SELECT line FROM plnimble_savepoint_plan('rp_regclass(text)') AS line;
SELECT line FROM plnimble_savepoint_plan('rp_mixed(text,text)') AS line;

SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_regclass('rp_t') IS NOT NULL, rp_regclass('rp_nope');
SELECT rp_mixed('int4', 'work_mem'), rp_mixed('rp_nope', 'work_mem');
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.errors_caught_lazy - :b_errors_caught_lazy AS caught_lazy,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;

-- a literal whose type's input function is not built in (citext's is
-- declared by the extension) is refused by the guard while the first
-- planning parses it: that planning, and so the block, has its
-- subtransaction; later calls need none (the cast and = of citext are not
-- reviewed either, so they still have one)
CREATE EXTENSION citext;
CREATE FUNCTION rp_citext(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::citext = 'ABC'::citext;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_citext('abc');
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;
DROP EXTENSION citext CASCADE;

-- SELECT ... INTO STRICT from a table (guarded_query.c): once the plan
-- cache has chosen the generic plan, the plan view names the query run
-- under the guard, and each call's block stays without its subtransaction
-- (exactly: 2 blocks entered, 0 savepoints, 1 caught, 2 guarded); a
-- locking clause is refused, with the reason
CREATE TABLE rp_q (k int PRIMARY KEY, v text);
INSERT INTO rp_q VALUES (1, 'one');
CREATE FUNCTION rp_get(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rp_q WHERE k = key;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
CREATE FUNCTION rp_get_locked(key int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT v INTO STRICT r FROM rp_q WHERE k = key FOR SHARE;
    RETURN r;
EXCEPTION WHEN no_data_found THEN
    RETURN 'none';
END
$$;
SELECT line FROM plnimble_savepoint_plan('rp_get(int)') AS line;
SELECT count(rp_get(g)) FROM generate_series(1, 8) g;
SELECT count(rp_get_locked(g)) FROM generate_series(1, 8) g;
SELECT line FROM plnimble_savepoint_plan('rp_get(int)') AS line;
SELECT line FROM plnimble_savepoint_plan('rp_get_locked(int)') AS line;
SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_get(1), rp_get(2);
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.errors_caught_lazy - :b_errors_caught_lazy AS caught_lazy,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;
SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_get_locked(1), rp_get_locked(2);
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;

-- EXECUTE ... INTO variables: the plan view cannot know the command, and
-- says the guard decides as it runs; exact counters for a found row, a
-- missing table (caught without a subtransaction) and a refused command
CREATE FUNCTION rp_exec(t text, q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format(q, t) INTO r;
    RETURN r;
EXCEPTION WHEN undefined_table THEN
    RETURN 'no table';
END
$$;
CREATE FUNCTION rp_exec_using(k int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE 'SELECT v FROM rp_q WHERE k = $1' INTO r USING k;
    RETURN r;
EXCEPTION WHEN undefined_table THEN
    RETURN 'no table';
END
$$;
SELECT line FROM plnimble_savepoint_plan('rp_exec(text,text)') AS line;
SELECT line FROM plnimble_savepoint_plan('rp_exec_using(int)') AS line;
SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_exec('rp_q', 'SELECT v FROM %I WHERE k = 1'),
       rp_exec('rp_nosuch', 'SELECT v FROM %I WHERE k = 1');
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.errors_caught_lazy - :b_errors_caught_lazy AS caught_lazy,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;
SELECT * FROM plnimble_savepoint_stats() \gset b_
SELECT rp_exec('rp_q', 'SELECT v FROM %I WHERE k = 1 FOR SHARE'), rp_exec_using(2);
SELECT s.blocks_entered - :b_blocks_entered AS blocks,
       s.savepoints_materialized - :b_savepoints_materialized AS savepoints,
       s.blocks_lazy_guarded - :b_blocks_lazy_guarded AS guarded
  FROM plnimble_savepoint_stats() s;
