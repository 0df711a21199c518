-- sql_update: single-row UPDATEs by primary key in a loop.  The table is
-- reloaded and vacuumed before each call, so every call starts from the same
-- state.
--
-- @desc    100k UPDATEs by primary key
-- @group   exec
-- @order   180
-- @param   N 100000
-- @case    sql_update | >=1.0 | n=@N@ | SELECT sql_update_@LANG@(@N@)

-- @@setup
CREATE TABLE upd (id int PRIMARY KEY, v int NOT NULL) WITH (fillfactor = 50, autovacuum_enabled = off);

-- @@reset
TRUNCATE upd;
INSERT INTO upd SELECT g, 0 FROM generate_series(1, @N@) g;
VACUUM ANALYZE upd;

-- @@functions
CREATE FUNCTION sql_update_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  rc int;
  total int := 0;
BEGIN
  FOR i IN 1..n LOOP
    UPDATE upd SET v = v + i WHERE id = i;
    GET DIAGNOSTICS rc = ROW_COUNT;
    total := total + rc;
  END LOOP;
  RETURN total;
END
$$;
