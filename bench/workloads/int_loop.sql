-- int_loop: integer arithmetic and IF/ELSIF in a tight loop.
--
-- @desc    10M iterations of integer arithmetic + IF
-- @group   exec
-- @order   110
-- @param   N 10000000
-- @case    int_loop | >=1.0 | n=@N@ | SELECT int_loop_@LANG@(@N@)

-- @@functions
CREATE FUNCTION int_loop_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    IF i % 3 = 0 THEN
      s := s + i * 2;
    ELSIF i % 5 = 0 THEN
      s := s - i;
    ELSE
      s := s + 1;
    END IF;
  END LOOP;
  RETURN s;
END
$$;
