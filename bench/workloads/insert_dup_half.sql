-- insert_dup_half: the insert-or-handle-duplicate idiom of issue 18.
-- N single-row INSERTs into a table with a primary key, keys i / 2 for
-- i = 1..N (0, 1, 1, 2, 2, ...) so that every other one is a duplicate;
-- each INSERT is the last statement of a block whose handler catches only
-- unique_violation, the shape the write path of issue 18 runs without a
-- subtransaction.
--
-- Unlike insert_dups, nothing follows the INSERT inside the block (the
-- inserted rows are counted as N minus the duplicates).  Cases:
--   insert_dup_half         the handler counts the duplicate (target from
--                           the issue: at least 2x PL/pgSQL)
--   insert_dup_half_null    EXCEPTION WHEN unique_violation THEN NULL
--   insert_dup_half_upsert  the issue's loop: FOR over a query, the handler
--                           UPDATEs the existing row
--   insert_dup_half_onconflict  baseline without a block: the same INSERTs
--                           as INSERT ... ON CONFLICT DO NOTHING
--
-- @desc    issue 18: 100k INSERTs, half unique_violation, INSERT last in a unique_violation block
-- @group   write
-- @order   60
-- @param   N 100000
-- @case    insert_dup_half            | >=2.0 | lazy_off,n=@N@ | SELECT insert_dup_half_@LANG@(@N@)
-- @case    insert_dup_half_null       | info  | n=@N@          | SELECT insert_dup_half_null_@LANG@(@N@)
-- @case    insert_dup_half_upsert     | info  | n=@N@          | SELECT insert_dup_half_upsert_@LANG@()
-- @case    insert_dup_half_onconflict | info  | n=@N@          | SELECT insert_dup_half_onconflict_@LANG@(@N@)
-- @derived insert_dup_half µs/iter, plpgsql | 1000 * insert_dup_half.plpgsql / @N@ | info
-- @derived insert_dup_half µs/iter, plnimble | 1000 * insert_dup_half.plnimble / @N@ | info
-- @derived ON CONFLICT DO NOTHING µs/iter, plnimble | 1000 * insert_dup_half_onconflict.plnimble / @N@ | info

-- @@setup
CREATE TABLE dh (k int PRIMARY KEY, v int NOT NULL) WITH (autovacuum_enabled = off);
CREATE TABLE dh_src (k int NOT NULL, v int NOT NULL) WITH (autovacuum_enabled = off);
INSERT INTO dh_src SELECT g / 2, g FROM generate_series(1, @N@) g;
VACUUM ANALYZE dh_src;

-- @@reset
TRUNCATE dh;

-- @@functions
CREATE FUNCTION insert_dup_half_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dh (k, v) VALUES (i / 2, i);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END
$$;

CREATE FUNCTION insert_dup_half_null_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dh (k, v) VALUES (i / 2, i);
    EXCEPTION WHEN unique_violation THEN
      NULL;
    END;
  END LOOP;
  RETURN (SELECT count(*) FROM dh);
END
$$;

CREATE FUNCTION insert_dup_half_upsert_@LANG@() RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r record;
  upd int := 0;
BEGIN
  FOR r IN SELECT k, v FROM dh_src LOOP
    BEGIN
      INSERT INTO dh (k, v) VALUES (r.k, r.v);
    EXCEPTION WHEN unique_violation THEN
      UPDATE dh SET v = r.v WHERE k = r.k;
      upd := upd + 1;
    END;
  END LOOP;
  RETURN upd || ' updates, checksum ' || (SELECT sum(v) FROM dh);
END
$$;

CREATE FUNCTION insert_dup_half_onconflict_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    INSERT INTO dh (k, v) VALUES (i / 2, i) ON CONFLICT DO NOTHING;
  END LOOP;
  RETURN (SELECT count(*) FROM dh);
END
$$;
