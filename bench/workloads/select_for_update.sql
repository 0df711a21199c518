-- (e) select_for_update: SELECT ... FOR UPDATE of the same row inside an
-- exception block, many times in one transaction.
--
-- Locking a row touches database state, so a subtransaction is needed every
-- iteration in both languages.  All iterations run in one top-level
-- transaction, so the per-iteration cost could grow with the number of
-- subtransactions already done; running a small and a large size and
-- comparing µs/iteration shows whether it stays flat.
--
-- @desc    (e) SELECT ... FOR UPDATE of one row in an exception block, 100k and 10k times
-- @group   lazy
-- @order   50
-- @param   N 100000
-- @param   N_SMALL 10000
-- @case    select_for_update       | >=1.0 | lazy_off,n=@N@ | SELECT select_for_update_@LANG@(@N@)
-- @case    select_for_update_small | >=1.0 | n=@N_SMALL@    | SELECT select_for_update_@LANG@(@N_SMALL@)
-- @derived select_for_update µs/iter, plpgsql, n=@N_SMALL@  | 1000 * select_for_update_small.plpgsql / @N_SMALL@ | info
-- @derived select_for_update µs/iter, plpgsql, n=@N@        | 1000 * select_for_update.plpgsql / @N@ | info
-- @derived select_for_update µs/iter, plnimble, n=@N_SMALL@ | 1000 * select_for_update_small.plnimble / @N_SMALL@ | info
-- @derived select_for_update µs/iter, plnimble, n=@N@       | 1000 * select_for_update.plnimble / @N@ | info
-- @derived flatness plpgsql: µs/iter n=@N@ ÷ n=@N_SMALL@ | (select_for_update.plpgsql / @N@) / (select_for_update_small.plpgsql / @N_SMALL@) | info
-- @derived flatness plnimble: µs/iter n=@N@ ÷ n=@N_SMALL@ | (select_for_update.plnimble / @N@) / (select_for_update_small.plnimble / @N_SMALL@) | <=1.25

-- @@setup
CREATE TABLE sfu (id int PRIMARY KEY, v int NOT NULL);
INSERT INTO sfu SELECT g, g * 10 FROM generate_series(1, 100) g;
VACUUM ANALYZE sfu;

-- @@functions
CREATE FUNCTION select_for_update_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      SELECT v INTO x FROM sfu WHERE id = 42 FOR UPDATE;
      s := s + x;
    EXCEPTION WHEN lock_not_available THEN
      s := s - 1;
    END;
  END LOOP;
  RETURN s;
END
$$;
