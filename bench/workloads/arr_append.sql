-- arr_append: growing a local int[] one element at a time, with the ||
-- operator and with array_append().
--
-- @desc    100k appends to an int[] (a := a || i, a := array_append(a, i))
-- @group   data
-- @order   320
-- @param   N 100000
-- @case    arr_append    | >=1.0 | n=@N@ | SELECT arr_append_@LANG@(@N@)
-- @case    arr_append_fn | >=1.0 | n=@N@ | SELECT arr_append_fn_@LANG@(@N@)

-- @@functions
CREATE FUNCTION arr_append_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  a int[] := '{}';
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    a := a || (i * 7) % 1000;
  END LOOP;
  FOR j IN 1..array_length(a, 1) BY 97 LOOP
    s := s + a[j]::bigint * j;
  END LOOP;
  RETURN array_length(a, 1) || '/' || s;
END
$$;

CREATE FUNCTION arr_append_fn_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  a int[] := '{}';
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    a := array_append(a, (i * 7) % 1000);
  END LOOP;
  FOR j IN 1..array_length(a, 1) BY 97 LOOP
    s := s + a[j]::bigint * j;
  END LOOP;
  RETURN array_length(a, 1) || '/' || s;
END
$$;
