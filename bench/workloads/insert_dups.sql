-- (d) insert_dups: single-row INSERTs into a table with a primary key, half
-- of them duplicates, each inside BEGIN ... EXCEPTION WHEN unique_violation.
--
-- An INSERT touches database state, so plnimble must start a subtransaction
-- just like plpgsql; the target is only "not slower".
--
-- The subtransaction floor: insert_unique_exc and insert_unique_noexc insert
-- the same N unique rows, with and without an exception block around each
-- INSERT.  Their difference per iteration is what a subtransaction costs
-- around a statement that writes (start, XID assignment, commit); no
-- implementation of the exception block can avoid it.
--
-- Keys in insert_dups are i/2 for i = 1..N: 0, 1, 1, 2, 2, ... so every other
-- insert fails.
--
-- @desc    (d) 100k INSERTs into a PK table, half unique_violation, each in an exception block
-- @group   lazy
-- @order   40
-- @param   N 100000
-- @case    insert_dups         | >=1.0 | lazy_off,n=@N@ | SELECT insert_dups_@LANG@(@N@)
-- @case    insert_unique_exc   | >=1.0 | n=@N@          | SELECT insert_unique_exc_@LANG@(@N@)
-- @case    insert_unique_noexc | info  | n=@N@          | SELECT insert_unique_noexc_@LANG@(@N@)
-- @derived insert_dups µs/iter, plpgsql | 1000 * insert_dups.plpgsql / @N@ | info
-- @derived insert_dups µs/iter, plnimble | 1000 * insert_dups.plnimble / @N@ | info
-- @derived subxact floor µs/iter, plpgsql (insert_unique_exc - insert_unique_noexc) | 1000 * (insert_unique_exc.plpgsql - insert_unique_noexc.plpgsql) / @N@ | info
-- @derived subxact floor µs/iter, plnimble (insert_unique_exc - insert_unique_noexc) | 1000 * (insert_unique_exc.plnimble - insert_unique_noexc.plnimble) / @N@ | info

-- @@setup
CREATE TABLE dups (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off);

-- @@reset
TRUNCATE dups;

-- @@functions
CREATE FUNCTION insert_dups_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  ok int := 0;
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dups VALUES (i / 2, i);
      ok := ok + 1;
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN ok || ' inserted, ' || dup || ' duplicates';
END
$$;

CREATE FUNCTION insert_unique_exc_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  ok int := 0;
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dups VALUES (i, i);
      ok := ok + 1;
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN ok || ' inserted, ' || dup || ' duplicates';
END
$$;

CREATE FUNCTION insert_unique_noexc_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  ok int := 0;
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    INSERT INTO dups VALUES (i, i);
    ok := ok + 1;
  END LOOP;
  RETURN ok || ' inserted, ' || dup || ' duplicates';
END
$$;
