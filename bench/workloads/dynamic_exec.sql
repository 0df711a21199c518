-- dynamic_exec: EXECUTE of a freshly formatted statement each iteration
-- (parse + plan every time), with INTO and USING.
--
-- @desc    100k EXECUTE format(...) INTO ... USING
-- @group   exec
-- @order   200
-- @param   N 100000
-- @case    dynamic_exec | >=1.0 | n=@N@ | SELECT dynamic_exec_@LANG@(@N@)

-- @@functions
CREATE FUNCTION dynamic_exec_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x bigint;
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    EXECUTE format('SELECT %s::bigint + $1 * %L::int', i, i % 13) INTO x USING i;
    s := s + x;
  END LOOP;
  RETURN s;
END
$$;
