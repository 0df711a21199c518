-- safe_cast_call: the safe-cast helper called once per row of a
-- generate_series, every input valid: what one call of a small function
-- with an exception block costs beyond the cast itself.
--
--   safe_int(s text) returns int:
--     begin return s::int; exception when invalid_text_representation then return null; end
--
-- @desc    safe_int(i::text) over generate_series(1, 100k), all valid
-- @group   lazy
-- @order   25
-- @param   N 100000
-- @case    safe_cast_call | >=3.5 | n=@N@ | SELECT count(safe_int_@LANG@(i::text)) FROM generate_series(1, @N@) i
-- (generate_series in FROM fills a tuplestore first, which at 100,000 rows
-- costs more than the query's other work: the same rows from the function
-- in the select list show the calls' cost without it; docs/benchmarks.md,
-- "The wall clock of safe_cast_call")
-- @case    safe_cast_call_srf | >=3.5 | n=@N@ | SELECT count(safe_int_@LANG@(i::text)) FROM (SELECT generate_series(1, @N@) i) s

-- @@functions
CREATE FUNCTION safe_int_@LANG@(s text) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  RETURN s::int;
EXCEPTION WHEN invalid_text_representation THEN
  RETURN NULL;
END
$$;
