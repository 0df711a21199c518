-- plnimble_check_function() and plnimble_check_function_tb(): static
-- checking without running the function, as plpgsql_check does.  Each
-- kind of finding on a function that has the defect, and a function
-- without defects that gets no finding.  The checked functions are never
-- run (each one raises a NOTICE if it were).
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble_check_function().
CREATE TABLE chk_t (a int, b text);

-- no defects: no findings
CREATE FUNCTION chk_clean(p int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    r chk_t%ROWTYPE;
    s record;
    n int;
BEGIN
    RAISE NOTICE 'chk_clean ran';
    SELECT * INTO r FROM chk_t WHERE a = p;
    SELECT a, b INTO s FROM chk_t LIMIT 1;
    n := r.a + s.a;
    FOR s IN SELECT a AS x FROM chk_t LOOP
        n := n + s.x;
    END LOOP;
    RETURN n;
END
$$;
SELECT * FROM plnimble_check_function('chk_clean(int)');

-- a missing table, reached only in a branch that never runs
CREATE FUNCTION chk_missing_table() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'chk_missing_table ran';
    IF false THEN
        INSERT INTO chk_missing VALUES (1);
    END IF;
END
$$;
SELECT * FROM plnimble_check_function('chk_missing_table()');
SELECT functionid, lineno, statement, sqlstate, message, level, position, query
  FROM plnimble_check_function_tb('chk_missing_table()');

-- a missing column, and a record field the record has not
CREATE FUNCTION chk_missing_column() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    r record;
    n int;
BEGIN
    UPDATE chk_t SET c = 1;
    SELECT a INTO r FROM chk_t;
    n := r.nosuch;
    RETURN n;
END
$$;
-- fatal_errors (the default) stops at the first error
SELECT * FROM plnimble_check_function('chk_missing_column()');
SELECT * FROM plnimble_check_function('chk_missing_column()', fatal_errors := false);

-- a function or operator that does not exist, a type error in a condition
CREATE FUNCTION chk_types(p text) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF p + 1 > 0 THEN
        RETURN no_such_function(p);
    END IF;
    RETURN 0;
END
$$;
SELECT * FROM plnimble_check_function('chk_types(text)', fatal_errors := false);

-- INTO targets with too few and too many columns
CREATE FUNCTION chk_into() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int;
    y text;
BEGIN
    SELECT a INTO x, y FROM chk_t;
    SELECT a, b INTO x FROM chk_t;
    RETURN x || y;
END
$$;
SELECT * FROM plnimble_check_function('chk_into()');

-- an assignment whose conversion can fail, a RETURN of another type
CREATE FUNCTION chk_casts(p text, q numeric) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    i int;
    j int;
BEGIN
    i := p;
    j := q;
    RETURN i + j;
END
$$;
SELECT * FROM plnimble_check_function('chk_casts(text,numeric)');
-- an assignment cast (numeric to integer) is a hidden cost: performance
SELECT * FROM plnimble_check_function('chk_casts(text,numeric)', performance_warnings := true);

-- RETURN QUERY whose columns do not match the result
CREATE FUNCTION chk_return_query() RETURNS TABLE (x int, y text) LANGUAGE plnimble AS $$
BEGIN
    RETURN QUERY SELECT a FROM chk_t;
    RETURN QUERY SELECT b, a FROM chk_t;
END
$$;
SELECT * FROM plnimble_check_function('chk_return_query()', fatal_errors := false);

-- RETURN NEXT of a set of scalars: a value whose conversion can fail, one
-- of two columns; and one that converts implicitly, with no finding
CREATE FUNCTION chk_return_next(p text) RETURNS SETOF int LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT p;
    RETURN NEXT (SELECT a FROM chk_t LIMIT 1);
    RETURN NEXT 1::smallint;
    RETURN NEXT a, b FROM chk_t;
END
$$;
SELECT * FROM plnimble_check_function('chk_return_next(text)', fatal_errors := false);
-- RETURN of a variable whose conversion can fail, and of one that converts
CREATE FUNCTION chk_return_var(p text, q smallint) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF q > 0 THEN
        RETURN q;
    END IF;
    RETURN p;
END
$$;
SELECT * FROM plnimble_check_function('chk_return_var(text,smallint)');

-- unused and never read variables and parameters, shadowing
CREATE FUNCTION chk_unused(p int, q int, OUT r int) LANGUAGE plnimble AS $$
DECLARE
    unused int;
    written int;
    p int := 1;
BEGIN
    written := 1;
    DECLARE
        written int := 2;
    BEGIN
        RAISE NOTICE '%', written;
    END;
END
$$;
SELECT * FROM plnimble_check_function('chk_unused(int,int)');
-- extra_warnings := false leaves only the unused variables (level warning,
-- as in plpgsql_check)
SELECT * FROM plnimble_check_function('chk_unused(int,int)', extra_warnings := false);

-- unreachable code, and the end of a function reached without RETURN: a
-- warning when some path returns, an error when none does
CREATE FUNCTION chk_flow(p int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF p > 0 THEN
        RETURN 1;
        RAISE NOTICE 'never';
    END IF;
    LOOP
        EXIT;
        p := p + 1;
    END LOOP;
END
$$;
SELECT * FROM plnimble_check_function('chk_flow(int)');
CREATE FUNCTION chk_no_return(p int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '%', p;
END
$$;
SELECT * FROM plnimble_check_function('chk_no_return(int)');

-- every path returns or raises: no missing RETURN
CREATE FUNCTION chk_flow_ok(p int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF p > 0 THEN
        RETURN 1;
    ELSIF p < 0 THEN
        RAISE EXCEPTION 'negative';
    ELSE
        LOOP
            RETURN 0;
        END LOOP;
    END IF;
END
$$;
SELECT * FROM plnimble_check_function('chk_flow_ok(int)');

-- performance: an exception block whose savepoint starts at once, and one
-- that runs pure statements first
CREATE FUNCTION chk_savepoint(p int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    n int := 0;
BEGIN
    BEGIN
        INSERT INTO chk_t VALUES (p, 'x');
    EXCEPTION WHEN unique_violation THEN
        n := 1;
    END;
    BEGIN
        n := n + p;
        INSERT INTO chk_t VALUES (n, 'y');
    EXCEPTION WHEN others THEN
        n := -1;
    END;
    RETURN n;
END
$$;
SELECT * FROM plnimble_check_function('chk_savepoint(int)');
SELECT * FROM plnimble_check_function('chk_savepoint(int)', performance_warnings := true);

-- performance: an INSERT whose unique_violation is caught (ON CONFLICT
-- would do), text grown by concatenation in a loop, a query per row of a
-- loop with values only from that row; and the same work done without
-- them, with no finding
CREATE FUNCTION chk_perf_bad() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
    r record;
    n bigint;
BEGIN
    BEGIN
        INSERT INTO chk_t VALUES (1, 'x');
    EXCEPTION WHEN unique_violation THEN
        NULL;
    END;
    FOR r IN SELECT a FROM chk_t LOOP
        SELECT count(*) INTO n FROM chk_t WHERE a = r.a;
        s := s || n;
    END LOOP;
    RETURN s;
END
$$;
SELECT * FROM plnimble_check_function('chk_perf_bad()', performance_warnings := true);
CREATE FUNCTION chk_perf_good() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text;
BEGIN
    INSERT INTO chk_t VALUES (1, 'x') ON CONFLICT DO NOTHING;
    SELECT string_agg(n::text, '') INTO s
      FROM (SELECT count(*) AS n FROM chk_t GROUP BY a) c;
    -- text || text the language appends in place (issue 31): no warning
    FOR i IN 1..3 LOOP
        s := s || format('%s,', i);
    END LOOP;
    RETURN s;
END
$$;
SELECT * FROM plnimble_check_function('chk_perf_good()', performance_warnings := true);

-- trigger functions: NEW and OLD take the row type of relid
CREATE FUNCTION chk_trigger() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
    NEW.b := NEW.a::text;
    NEW.c := 1;
    RETURN NEW;
END
$$;
SELECT * FROM plnimble_check_function('chk_trigger()', 'chk_t');

-- EXECUTE of a constant string (performance), and of a string built from
-- a text parameter without quoting (security_warnings); the
-- quoted forms get no finding
CREATE FUNCTION chk_dynamic(tab text) RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE 'SELECT count(*) FROM chk_t' INTO n;
    EXECUTE 'SELECT count(*) FROM ' || tab INTO n;
    EXECUTE 'SELECT count(*) FROM ' || quote_ident(tab) INTO n;
    EXECUTE format('SELECT count(*) FROM %I', tab) INTO n;
    RETURN n;
END
$$;
SELECT * FROM plnimble_check_function('chk_dynamic(text)', performance_warnings := true, security_warnings := true);
SELECT * FROM plnimble_check_function('chk_dynamic(text)', security_warnings := false);

-- a variable assigned but never read; reading it in its own assignment
-- counts as reading
CREATE FUNCTION chk_never_read() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    w int;
    c int := 0;
BEGIN
    w := 1;
    c := c + 1;
    RETURN 0;
END
$$;
SELECT * FROM plnimble_check_function('chk_never_read()');

-- transition tables: newtable names the one the queries read
CREATE FUNCTION chk_transition() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n bigint;
BEGIN
    SELECT count(*) INTO n FROM newrows;
    RAISE NOTICE 'chk_transition: % new rows', n;
    RETURN NULL;
END
$$;
SELECT * FROM plnimble_check_function('chk_transition()', 'chk_t');
SELECT * FROM plnimble_check_function('chk_transition()', 'chk_t', newtable := 'newrows');

-- nothing the check did survives: the table is untouched
SELECT count(*) FROM chk_t;

-- not a plnimble function
SELECT * FROM plnimble_check_function('abs(int)');

-- plnimble.check_on_first_call: the first call checks, an error fails it
SET plnimble.check_on_first_call = on;
SELECT chk_missing_table();
SELECT chk_clean(1);
-- a trigger function is checked with the firing trigger's table and
-- transition tables
CREATE TRIGGER chk_tr_ok AFTER INSERT ON chk_t REFERENCING NEW TABLE AS newrows
    FOR EACH STATEMENT EXECUTE FUNCTION chk_transition();
INSERT INTO chk_t VALUES (5, 'five');
CREATE TRIGGER chk_tr_bad BEFORE INSERT ON chk_t
    FOR EACH ROW EXECUTE FUNCTION chk_trigger();
INSERT INTO chk_t VALUES (6, 'six');
RESET plnimble.check_on_first_call;
SELECT chk_missing_table();

-- plnimble.extra_warnings / extra_errors: shadowed_variables and
-- strict_multi_assignment are findings at the level the settings give
-- (too_many_rows is known only at run time).  The functions are created
-- before the settings, so that CREATE FUNCTION does not report them.
CREATE FUNCTION chk_extra_shadow(p int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    n int := 1;
BEGIN
    RAISE NOTICE 'chk_extra_shadow ran';
    DECLARE
        n int := 2;
    BEGIN
        RETURN n + p;
    END;
END
$$;
CREATE FUNCTION chk_extra_multi() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int;
    y int;
    r chk_t%ROWTYPE;
BEGIN
    RAISE NOTICE 'chk_extra_multi ran';
    SELECT a INTO x, y FROM chk_t;
    SELECT a INTO r FROM chk_t;
    RETURN x + y + r.a;
END
$$;
CREATE FUNCTION chk_extra_clean(p int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int;
    y int;
    r chk_t%ROWTYPE;
BEGIN
    RAISE NOTICE 'chk_extra_clean ran';
    SELECT a, a INTO x, y FROM chk_t;
    SELECT * INTO r FROM chk_t;
    SELECT 1 INTO x FROM chk_t;
    DECLARE
        m int := 2;
    BEGIN
        RETURN x + y + r.a + m + p;
    END;
END
$$;
-- with neither setting: shadowing is a warning extra, the INTO counts
-- warnings
SELECT * FROM plnimble_check_function('chk_extra_shadow(int)');
SELECT * FROM plnimble_check_function('chk_extra_multi()');
-- extra_warnings: the compiler's warning is a finding, not a message (a
-- new session, so that the check compiles the functions afresh)
\c -
SET plnimble.extra_warnings = 'shadowed_variables, strict_multi_assignment';
SELECT * FROM plnimble_check_function('chk_extra_shadow(int)');
SELECT * FROM plnimble_check_function('chk_extra_multi()');
SELECT * FROM plnimble_check_function('chk_extra_multi()', extra_warnings := false);
SELECT * FROM plnimble_check_function('chk_extra_clean(int)');
RESET plnimble.extra_warnings;
-- extra_errors: errors, at their lines; the compiler's error does not
-- stop the check
\c -
SET plnimble.extra_errors = 'all';
SELECT * FROM plnimble_check_function('chk_extra_shadow(int)');
SELECT lineno, statement, sqlstate, message, detail, level
  FROM plnimble_check_function_tb('chk_extra_multi()', fatal_errors := false);
SELECT * FROM plnimble_check_function('chk_extra_clean(int)');
-- and the passive mode fails the first call
SET plnimble.check_on_first_call = on;
SELECT chk_extra_shadow(1);
RESET plnimble.check_on_first_call;
RESET plnimble.extra_errors;

DROP TABLE chk_t CASCADE;
