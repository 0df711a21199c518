-- for_query: FOR rec IN SELECT ... LOOP over a large table, with record field
-- access.
--
-- @desc    FOR rec IN SELECT over 1M rows with field access
-- @group   exec
-- @order   190
-- @param   ROWS 1000000
-- @case    for_query | >=1.0 | n=@ROWS@ | SELECT for_query_@LANG@()

-- @@setup
CREATE TABLE fq (id int PRIMARY KEY, a int NOT NULL, b int, c text NOT NULL);
INSERT INTO fq
  SELECT g, g % 100, CASE WHEN g % 10 = 0 THEN NULL ELSE (g * 7) % 1000 END, 'name' || g
  FROM generate_series(1, @ROWS@) g;
VACUUM ANALYZE fq;

-- @@functions
CREATE FUNCTION for_query_@LANG@() RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  rec record;
  s bigint := 0;
  nulls int := 0;
  sevens int := 0;
BEGIN
  FOR rec IN SELECT id, a, b, c FROM fq LOOP
    s := s + rec.a;
    IF rec.b IS NULL THEN
      nulls := nulls + 1;
    ELSE
      s := s + rec.b;
    END IF;
    IF right(rec.c, 1) = '7' THEN
      sevens := sevens + 1;
    END IF;
  END LOOP;
  RETURN s || '/' || nulls || '/' || sevens;
END
$$;
