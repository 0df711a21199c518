-- (c) div_zero: x := 1/0 caught in a loop.
--
-- Note that PostgreSQL's planner folds the constant 1/0 and raises the error
-- while planning the expression, so every iteration of div_zero also
-- re-plans it (the failed plan is never cached).  div_zero_var divides by a
-- variable instead, so the error comes from execution of a cached plan.
-- Neither touches database state.
--
-- @desc    (c) 200k caught division_by_zero errors (constant 1/0, and 1/variable)
-- @group   lazy
-- @order   30
-- @param   N 200000
-- @case    div_zero     | >=3 | lazy_off,n=@N@ | SELECT div_zero_@LANG@(@N@)
-- @case    div_zero_var | >=3 | n=@N@          | SELECT div_zero_var_@LANG@(@N@)

-- @@functions
CREATE FUNCTION div_zero_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  caught int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      x := 1/0;
    EXCEPTION WHEN division_by_zero THEN
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END
$$;

CREATE FUNCTION div_zero_var_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  zero int := 0;
  caught int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      x := i / zero;
    EXCEPTION WHEN division_by_zero THEN
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END
$$;
