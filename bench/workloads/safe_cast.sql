-- (b) safe_cast: the classic "safe cast" helper, called from SQL once per row.
--
--   safe_int(s text) returns int:
--     begin return s::int; exception when invalid_text_representation then return null; end
--
-- The cast cannot touch database state, so with lazy savepoints no
-- subtransaction is needed, whether the cast fails or not.
--
-- @desc    (b) safe_int(text) over 200k rows: half invalid, and all valid
-- @group   lazy
-- @order   20
-- @param   N 200000
-- @case    safe_cast_mixed | >=3 | lazy_off,n=@N@ | SELECT count(v) || ' ok, sum ' || coalesce(sum(v), 0) FROM (SELECT safe_int_@LANG@(s) AS v FROM inputs_mixed) q
-- @case    safe_cast_valid | >=3 | lazy_off,n=@N@ | SELECT count(v) || ' ok, sum ' || coalesce(sum(v), 0) FROM (SELECT safe_int_@LANG@(s) AS v FROM inputs_valid) q

-- @@setup
-- Half of the mixed inputs are valid integers, half are not (alternating).
CREATE TABLE inputs_mixed (s text);
INSERT INTO inputs_mixed
  SELECT CASE WHEN g % 2 = 0 THEN g::text ELSE 'x' || g END
  FROM generate_series(1, @N@) g;
CREATE TABLE inputs_valid (s text);
INSERT INTO inputs_valid SELECT g::text FROM generate_series(1, @N@) g;
VACUUM ANALYZE inputs_mixed;
VACUUM ANALYZE inputs_valid;

-- @@functions
CREATE FUNCTION safe_int_@LANG@(s text) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  RETURN s::int;
EXCEPTION WHEN invalid_text_representation THEN
  RETURN NULL;
END
$$;
