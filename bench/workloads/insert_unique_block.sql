-- insert_unique_block: N single-row INSERTs of new keys, each the last
-- statement of a block whose handler catches only unique_violation (issue
-- 18: the write path runs them without a subtransaction; the handler never
-- runs).  Cases:
--   insert_unique_block            target from the issue: at least 1.3x
--   insert_unique_block_returning  the same with RETURNING k INTO x
--   insert_unique_noblock          baseline: the same INSERTs without a block
--
-- @desc    issue 18: 100k unique INSERTs, each last in a unique_violation block
-- @group   write
-- @order   65
-- @param   N 100000
-- @case    insert_unique_block           | >=1.3 | lazy_off,n=@N@ | SELECT insert_unique_block_@LANG@(@N@)
-- @case    insert_unique_block_returning | info  | n=@N@          | SELECT insert_unique_block_returning_@LANG@(@N@)
-- @case    insert_unique_noblock         | info  | n=@N@          | SELECT insert_unique_noblock_@LANG@(@N@)
-- @derived insert_unique_block µs/iter, plpgsql | 1000 * insert_unique_block.plpgsql / @N@ | info
-- @derived insert_unique_block µs/iter, plnimble | 1000 * insert_unique_block.plnimble / @N@ | info
-- @derived block overhead µs/iter, plnimble (insert_unique_block - insert_unique_noblock) | 1000 * (insert_unique_block.plnimble - insert_unique_noblock.plnimble) / @N@ | info

-- @@setup
CREATE TABLE ub (k int PRIMARY KEY, v int NOT NULL) WITH (autovacuum_enabled = off);

-- @@reset
TRUNCATE ub;

-- @@functions
CREATE FUNCTION insert_unique_block_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO ub (k, v) VALUES (i, i);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN (n - dup) || ' inserted, ' || dup || ' duplicates';
END
$$;

CREATE FUNCTION insert_unique_block_returning_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO ub (k, v) VALUES (i, i) RETURNING k INTO x;
    EXCEPTION WHEN unique_violation THEN
      x := 0;
    END;
    s := s + x;
  END LOOP;
  RETURN s;
END
$$;

CREATE FUNCTION insert_unique_noblock_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    INSERT INTO ub (k, v) VALUES (i, i);
  END LOOP;
  RETURN n || ' inserted, 0 duplicates';
END
$$;
