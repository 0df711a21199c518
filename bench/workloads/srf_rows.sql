-- srf_rows: a set-returning function producing rows with RETURN NEXT,
-- consumed by an aggregate.
--
-- @desc    SETOF / RETURNS TABLE function, 1M rows via RETURN NEXT
-- @group   data
-- @order   340
-- @param   N 1000000
-- @case    srf_rows  | >=1.0 | n=@N@ | SELECT count(*) || '/' || sum(v) FROM srf_rows_@LANG@(@N@) v
-- @case    srf_table | >=1.0 | n=@N@ | SELECT count(*) || '/' || sum(k) || '/' || sum(m) FROM srf_table_@LANG@(@N@)

-- @@functions
CREATE FUNCTION srf_rows_@LANG@(n int) RETURNS SETOF int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    RETURN NEXT i;
  END LOOP;
  RETURN;
END
$$;

CREATE FUNCTION srf_table_@LANG@(n int) RETURNS TABLE (k int, m int) LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    k := i;
    m := i % 7;
    RETURN NEXT;
  END LOOP;
  RETURN;
END
$$;
