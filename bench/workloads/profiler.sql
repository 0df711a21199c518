-- profiler: what plnimble.profiler costs per statement (issue 21).  Both
-- sides run the same plnimble function; the "plpgsql" side calls it with
-- the profiler off and the "plnimble" side with it on, each through an SQL
-- wrapper whose SET clause switches the profiler for the call.  So the
-- ratio is time off / time on, and the target "a loop of simple
-- assignments at most 2x slower with the profiler on" is a ratio >= 0.5.
--
-- prof_assign1: a FOR loop around one s := s + 1.
-- prof_assign4: a quarter as many iterations around four assignments.
-- prof_excloop: a loop around BEGIN s := s + 1; EXCEPTION ... END (one
-- statement more per iteration; no target).
--
-- @desc    plnimble with plnimble.profiler on vs off (the plpgsql column is "off")
-- @group   profiler
-- @order   400
-- @param   N 1000000
-- @param   Q 250000
-- @param   E 500000
-- @case    prof_assign1 | >=0.5 | n=@N@ | SELECT prof_assign1_@LANG@(@N@)
-- @case    prof_assign4 | >=0.5 | n=@Q@ | SELECT prof_assign4_@LANG@(@Q@)
-- @case    prof_excloop | info  | n=@E@ | SELECT prof_excloop_@LANG@(@E@)

-- @@setup
CREATE FUNCTION prof_assign1(n int) RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := s + 1;
  END LOOP;
  RETURN s;
END
$$;

CREATE FUNCTION prof_assign4(n int) RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := s + 1;
    s := s + 2;
    s := s + 3;
    s := s + 4;
  END LOOP;
  RETURN s;
END
$$;

CREATE FUNCTION prof_excloop(n int) RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      s := s + 1;
    EXCEPTION WHEN others THEN
      NULL;
    END;
  END LOOP;
  RETURN s;
END
$$;

-- the wrappers: "plpgsql" runs with the profiler off, "plnimble" on
CREATE FUNCTION prof_assign1_plpgsql(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = off AS 'SELECT prof_assign1(n)';
CREATE FUNCTION prof_assign1_plnimble(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = on AS 'SELECT prof_assign1(n)';
CREATE FUNCTION prof_assign4_plpgsql(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = off AS 'SELECT prof_assign4(n)';
CREATE FUNCTION prof_assign4_plnimble(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = on AS 'SELECT prof_assign4(n)';
CREATE FUNCTION prof_excloop_plpgsql(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = off AS 'SELECT prof_excloop(n)';
CREATE FUNCTION prof_excloop_plnimble(n int) RETURNS bigint LANGUAGE sql
  SET plnimble.profiler = on AS 'SELECT prof_excloop(n)';
