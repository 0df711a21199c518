-- (a) exc_empty: an empty BEGIN ... EXCEPTION WHEN OTHERS block in a loop.
--
-- The block body cannot touch database state, so a lazy-savepoint
-- implementation never needs a subtransaction here; plpgsql starts and
-- releases one per iteration.  The baseline is the same loop without the
-- EXCEPTION clause: with lazy savepoints the two should cost about the same.
--
-- @desc    (a) 10M empty BEGIN..EXCEPTION blocks; baseline loop without EXCEPTION
-- @group   lazy
-- @order   10
-- @param   N 10000000
-- @case    exc_empty       | >=10 | lazy_off,n=@N@ | SELECT exc_empty_@LANG@(@N@)
-- @case    exc_empty_noexc | info | n=@N@          | SELECT exc_empty_noexc_@LANG@(@N@)
-- @derived exc_empty / exc_empty_noexc, plnimble | exc_empty.plnimble / exc_empty_noexc.plnimble | <=1.5
-- @derived exc_empty / exc_empty_noexc, plpgsql (context) | exc_empty.plpgsql / exc_empty_noexc.plpgsql | info

-- @@functions
CREATE FUNCTION exc_empty_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  done int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      NULL;
    EXCEPTION WHEN OTHERS THEN
      NULL;
    END;
  END LOOP;
  done := n;
  RETURN done;
END
$$;

CREATE FUNCTION exc_empty_noexc_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  done int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      NULL;
    END;
  END LOOP;
  done := n;
  RETURN done;
END
$$;
