-- write_path_stats: what else a caught duplicate leaves behind under
-- PL/pgSQL, beyond the rows and the error (issue 18, "statement-level
-- statistics"), for the insert-or-handle-duplicate block:
--   1. the table's activity counters (pg_stat_xact_user_tables inside the
--      transaction, pg_stat_user_tables and pg_stat_user_indexes after
--      it): a plain INSERT that hits a duplicate has written its heap
--      tuple, so it counts as an insert (and, once its subtransaction is
--      aborted, as a dead tuple), and it scans no index;
--   2. the duplicate error as psql shows it (its fields are compared with
--      PL/pgSQL's in write_path_matrix; with VERBOSITY verbose the LOCATION
--      line would name plnimble's source file and line, which is not shown
--      here since it moves with every edit of the file).
-- The write path inserts below the executor, speculatively, so both
-- differ under plnimble, by design (docs/user-guide.md, "Blocks that
-- insert a row"; docs/design.md, "The write path"): while duplicates are
-- rare a duplicate's speculative row is written and killed (an insert and
-- a deletion counted, a dead tuple); once they are common the index is
-- searched before writing (an index scan per attempt, nothing written for
-- a duplicate); and a LOCATION in plnimble's source.  Listed in oracle-allowlist.txt: the
-- expected output is plnimble's, so that a change in any of these shows.
-- With executor hooks installed (scripts/test.sh --executor-hooks) the
-- INSERT runs through SPI, whose ON CONFLICT check searches the index
-- before every write, so that nothing is written for a duplicate: that
-- lane's output is expected/write_path_stats_1.out.

CREATE TABLE ws (k int PRIMARY KEY, v int) WITH (autovacuum_enabled = off);
CREATE FUNCTION ws_loop(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO ws VALUES (i / 2, i);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN dup;
END
$$;

-- 1. Counters -------------------------------------------------------------------

-- (flush this session's counters now, so that the next transaction's
-- pending counters are its own)
SELECT pg_stat_force_next_flush();
BEGIN;
SELECT ws_loop(100);
SELECT n_tup_ins, n_tup_upd, n_tup_del, idx_scan, idx_tup_fetch, seq_scan
  FROM pg_stat_xact_user_tables WHERE relname = 'ws';
COMMIT;
SELECT pg_stat_force_next_flush();
SELECT 1;
SELECT n_tup_ins, n_live_tup, n_dead_tup, idx_scan, seq_scan
  FROM pg_stat_user_tables WHERE relname = 'ws';
SELECT indexrelname, idx_scan, idx_tup_read, idx_tup_fetch
  FROM pg_stat_user_indexes WHERE relname = 'ws';

-- only duplicates
SELECT pg_stat_force_next_flush();
BEGIN;
SELECT ws_loop(100);
SELECT n_tup_ins, n_tup_upd, n_tup_del, idx_scan, idx_tup_fetch, seq_scan
  FROM pg_stat_xact_user_tables WHERE relname = 'ws';
ROLLBACK;
SELECT pg_stat_force_next_flush();
SELECT 1;
SELECT n_tup_ins, n_live_tup, n_dead_tup, idx_scan, seq_scan
  FROM pg_stat_user_tables WHERE relname = 'ws';
SELECT indexrelname, idx_scan, idx_tup_read, idx_tup_fetch
  FROM pg_stat_user_indexes WHERE relname = 'ws';

-- 2. The error ------------------------------------------------------------------

CREATE FUNCTION ws_reraise(p int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        INSERT INTO ws VALUES (p, p);
    EXCEPTION WHEN unique_violation THEN
        RAISE;
    END;
END
$$;
SELECT ws_reraise(1);

DROP TABLE ws;
