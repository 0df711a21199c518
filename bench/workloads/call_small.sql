-- call_small: function-call overhead; a loop calling a tiny function of the
-- same language.
--
-- @desc    1M calls of a small function
-- @group   exec
-- @order   140
-- @param   N 1000000
-- @case    call_small | >=1.0 | n=@N@ | SELECT call_small_@LANG@(@N@)

-- @@functions
CREATE FUNCTION small_add_@LANG@(a int, b int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  RETURN a + b;
END
$$;

CREATE FUNCTION call_small_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := s + small_add_@LANG@(i, 1);
  END LOOP;
  RETURN s;
END
$$;
