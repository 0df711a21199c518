-- rec_fields: field reads and writes on a variable of a composite type.
--
-- @desc    1M iterations of composite-variable field reads/writes (r.x := r.x + 1 ...)
-- @group   data
-- @order   330
-- @param   N 1000000
-- @case    rec_fields | >=1.0 | n=@N@ | SELECT rec_fields_@LANG@(@N@)

-- @@setup
CREATE TYPE rf_t AS (x int, y bigint, z int);

-- @@functions
CREATE FUNCTION rec_fields_@LANG@(n int) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  r rf_t := ROW(0, 0, 0);
BEGIN
  FOR i IN 1..n LOOP
    r.x := r.x + 1;
    r.y := r.y + r.x;
    IF r.y % 3 = 0 THEN
      r.z := r.z + 1;
    END IF;
  END LOOP;
  RETURN r.x || '/' || r.y || '/' || r.z;
END
$$;
