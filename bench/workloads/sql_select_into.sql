-- sql_select_into: SELECT ... INTO by primary key in a loop.
--
-- @desc    100k SELECT INTO by primary key
-- @group   exec
-- @order   160
-- @param   N 100000
-- @case    sql_select_into | >=1.0 | n=@N@ | SELECT sql_select_into_@LANG@(@N@)

-- @@setup
CREATE TABLE kv (id int PRIMARY KEY, v text NOT NULL);
INSERT INTO kv SELECT g, 'value ' || g FROM generate_series(1, @N@) g;
VACUUM ANALYZE kv;

-- @@functions
CREATE FUNCTION sql_select_into_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x text;
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    SELECT v INTO x FROM kv WHERE id = i;
    s := s + octet_length(x);
  END LOOP;
  RETURN s;
END
$$;
