-- expr_heavy: a function full of CASE / COALESCE / NULLIF / casts, called
-- from SQL once per row over a large table.
--
-- @desc    CASE/COALESCE/casts function called from SQL over 1M rows
-- @group   exec
-- @order   210
-- @param   ROWS 1000000
-- @case    expr_heavy | >=1.0 | n=@ROWS@ | SELECT sum(expr_heavy_@LANG@(a, b, c)) FROM eh

-- @@setup
CREATE TABLE eh (a int NOT NULL, b text, c numeric);
INSERT INTO eh
  SELECT g,
         CASE WHEN g % 7 = 0 THEN NULL WHEN g % 11 = 0 THEN '' ELSE (g % 1000)::text END,
         CASE WHEN g % 5 = 0 THEN NULL ELSE (g % 100) / 3.0 END
  FROM generate_series(1, @ROWS@) g;
VACUUM ANALYZE eh;

-- @@functions
CREATE FUNCTION expr_heavy_@LANG@(a int, b text, c numeric) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  r bigint;
BEGIN
  r := CASE
         WHEN a % 3 = 0 THEN COALESCE(NULLIF(b, '')::int, -1)
         WHEN a % 3 = 1 THEN COALESCE(round(c * 2)::int, 0)
         ELSE length(COALESCE(b, 'none'))
       END;
  IF c IS NULL OR c > 20 THEN
    r := r + (a % 10)::text::int;
  END IF;
  RETURN r + COALESCE(c, 0)::int;
END
$$;
