-- arr_assign: element assignment into a local int[] in a loop.
--
-- @desc    1M array element assignments a[k] := a[k] + ...
-- @group   data
-- @order   310
-- @param   N 1000000
-- @case    arr_assign | >=1.0 | n=@N@ | SELECT arr_assign_@LANG@(@N@)

-- @@functions
CREATE FUNCTION arr_assign_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  a int[] := array_fill(0, ARRAY[1000]);
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    a[(i % 1000) + 1] := a[(i % 1000) + 1] + i % 997;
  END LOOP;
  FOR j IN 1..1000 LOOP
    s := s + a[j]::bigint * j;
  END LOOP;
  RETURN s;
END
$$;
