-- numeric_accum: numeric (arbitrary precision) arithmetic in a loop.
--
-- @desc    1M numeric multiply/divide/accumulate steps
-- @group   exec
-- @order   120
-- @param   N 1000000
-- @case    numeric_accum | >=1.0 | n=@N@ | SELECT numeric_accum_@LANG@(@N@)

-- @@functions
CREATE FUNCTION numeric_accum_@LANG@(n int) RETURNS numeric LANGUAGE @LANG@ AS $$
DECLARE
  acc numeric := 0;
  step numeric := 1.5;
BEGIN
  FOR i IN 1..n LOOP
    acc := acc + i::numeric * step / 7;
  END LOOP;
  RETURN round(acc, 6);
END
$$;
