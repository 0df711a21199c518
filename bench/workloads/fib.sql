-- fib: naive recursive Fibonacci (fib(25) = 75025, 242785 calls).
--
-- The argument scales logarithmically: --scale 0.1 runs fib(20), which makes
-- about a tenth of the calls.
--
-- @desc    recursive fib(25)
-- @group   exec
-- @order   150
-- @param   K 25 log:1.618
-- @case    fib | >=1.0 | n=@K@ | SELECT fib_@LANG@(@K@)

-- @@functions
CREATE FUNCTION fib_@LANG@(k int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  IF k < 2 THEN
    RETURN k;
  END IF;
  RETURN fib_@LANG@(k - 1) + fib_@LANG@(k - 2);
END
$$;
