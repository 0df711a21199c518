-- string_build: text concatenation with || and format().
--
-- The accumulator is flushed every ~1000 bytes so the cost stays linear in N
-- (appending to one ever-growing string would be quadratic and measure
-- memcpy, not the language).
--
-- @desc    100k iterations of || and format() string building
-- @group   exec
-- @order   130
-- @param   N 100000
-- @case    string_build | >=1.0 | n=@N@ | SELECT string_build_@LANG@(@N@)

-- @@functions
CREATE FUNCTION string_build_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  s text := '';
  total bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := s || 'k' || i::text || ',';
    s := s || format('%s=%s;', i, i % 7);
    IF octet_length(s) > 1000 THEN
      total := total + octet_length(s);
      s := '';
    END IF;
  END LOOP;
  RETURN total + octet_length(s);
END
$$;
