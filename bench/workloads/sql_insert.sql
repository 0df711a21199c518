-- sql_insert: single-row INSERTs in a loop (table truncated before each call).
--
-- @desc    100k single-row INSERTs
-- @group   exec
-- @order   170
-- @param   N 100000
-- @case    sql_insert | >=1.0 | n=@N@ | SELECT sql_insert_@LANG@(@N@)

-- @@setup
CREATE TABLE ins (id int PRIMARY KEY, v text NOT NULL) WITH (autovacuum_enabled = off);

-- @@reset
TRUNCATE ins;

-- @@functions
CREATE FUNCTION sql_insert_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    INSERT INTO ins VALUES (i, 'row ' || i);
  END LOOP;
  RETURN n;
END
$$;
