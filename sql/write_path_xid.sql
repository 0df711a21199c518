-- write_path_xid: 1,000 insert-or-handle-duplicate blocks (issue 18) in one
-- transaction assign no subtransaction ID.  Every subtransaction that
-- writes takes an XID from the same counter as top-level transactions, so
-- the XID of the next transaction shows how many the transaction used:
-- under PL/pgSQL 1 + 1,000 (each block's subtransaction wrote, a
-- duplicate too: its heap tuple was written before the unique index
-- refused it), with the write path 1.  The session counters of
-- plnimble_savepoint_stats() show the same from the inside: 1,000 blocks
-- entered, none materialized, 1,000 writes without a savepoint (501 rows
-- inserted, 499 duplicates caught).
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has no
-- counters, and its XID delta is 1,001.
-- The table is locked by an INSERT before the loop, outside any block, so
-- that every block of the loop qualifies (the write path needs the
-- table's RowExclusiveLock to be held already).  Autovacuum is off for
-- the table, so that no ANALYZE of it takes an XID in between.

CREATE TABLE wx (k int PRIMARY KEY, v int) WITH (autovacuum_enabled = off);
CREATE FUNCTION wx_fill(base int, n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    INSERT INTO wx VALUES (base - 1, 0);
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO wx VALUES (base + i / 2, i);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END
$$;

-- counters since the previous call of wx_delta()
CREATE TABLE wx_prev AS SELECT * FROM plnimble_savepoint_stats();
CREATE FUNCTION wx_delta(OUT blocks bigint, OUT savepoints bigint,
                         OUT writes_without_savepoint bigint,
                         OUT errors_caught bigint)
LANGUAGE sql AS $$
    WITH cur AS (SELECT * FROM plnimble_savepoint_stats()),
         old AS (SELECT * FROM wx_prev),
         upd AS (UPDATE wx_prev SET (blocks_entered, savepoints_materialized,
                                     errors_caught_lazy, errors_caught_subxact,
                                     writes_without_savepoint)
                     = (SELECT blocks_entered, savepoints_materialized,
                               errors_caught_lazy, errors_caught_subxact,
                               writes_without_savepoint FROM cur))
    SELECT cur.blocks_entered - old.blocks_entered,
           cur.savepoints_materialized - old.savepoints_materialized,
           cur.writes_without_savepoint - old.writes_without_savepoint,
           (cur.errors_caught_lazy + cur.errors_caught_subxact)
             - (old.errors_caught_lazy + old.errors_caught_subxact)
      FROM cur, old
$$;

-- a first call in a transaction of its own: plans the statements (the
-- catalogs are read then, which may start a savepoint)
BEGIN;
SELECT wx_fill(100000, 10);
COMMIT;
SELECT blocks, errors_caught FROM wx_delta();

-- the measured transaction: its own XID first, then 1,000 blocks
BEGIN;
SELECT pg_current_xact_id() AS xid_before \gset
SELECT wx_fill(0, 1000);
SELECT * FROM wx_delta();
COMMIT;
-- the next transaction's XID
SELECT pg_current_xact_id()::text::bigint - :'xid_before'::bigint AS xid_delta;
SELECT count(*), sum(v) FROM wx WHERE k < 100000 - 1;
