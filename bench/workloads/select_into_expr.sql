-- select_into_expr: SELECT expr INTO variable with no FROM, which plnimble
-- runs as an assignment (see exec_stmt_execsql in src/exec/exec_sql.c).
--
-- select_into_expr: a loop of SELECT x + 1 INTO x.
-- select_into_assign: the same loop written x := x + 1 (baseline: what
-- the SELECT form can at best cost).
--
-- @desc    1M iterations of SELECT x + 1 INTO x (and x := x + 1 for comparison)
-- @group   exec
-- @order   145
-- @param   N 1000000
-- @case    select_into_expr   | >=5  | n=@N@ | SELECT select_into_expr_@LANG@(@N@)
-- @case    select_into_assign | info | n=@N@ | SELECT select_into_assign_@LANG@(@N@)

-- @@functions
CREATE FUNCTION select_into_expr_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    SELECT x + 1 INTO x;
  END LOOP;
  RETURN x;
END
$$;

CREATE FUNCTION select_into_assign_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    x := x + 1;
  END LOOP;
  RETURN x;
END
$$;
