-- raise: RAISE at every level, % placeholders and %%, wrong parameter
-- counts, USING MESSAGE/DETAIL/HINT/ERRCODE (condition names and 5-char
-- codes), RAISE condition_name, RAISE SQLSTATE, and the effect of
-- client_min_messages on which levels are shown.

-- levels: DEBUG and LOG are hidden at the default client_min_messages
CREATE FUNCTION r_levels() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE DEBUG 'debug message';
    RAISE LOG 'log message';
    RAISE INFO 'info message';
    RAISE NOTICE 'notice message';
    RAISE WARNING 'warning message';
END
$$;
SELECT r_levels();

-- raising the client threshold hides NOTICE but never INFO
SET client_min_messages = warning;
SELECT r_levels();
-- lowering it shows DEBUG and LOG too
SET client_min_messages = debug1;
SELECT r_levels();
SET client_min_messages = error;
SELECT r_levels();
RESET client_min_messages;

-- RAISE with no level means EXCEPTION
CREATE FUNCTION r_default_level() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE 'no level given: %', 42;
END
$$;
SELECT r_default_level();

-- placeholders, literal %%, and NULL arguments
CREATE FUNCTION r_format(a integer, b text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'a=%, b=%', a, b;
    RAISE NOTICE '100%% done, value %', a;
    RAISE NOTICE '%%%', a;
    RAISE NOTICE 'expr: %, %', a * 2 + 1, upper(b) || '!';
    RAISE NOTICE '%%% and %', a, b;
    RAISE NOTICE 'no placeholders here';
    RAISE NOTICE '';
END
$$;
SELECT r_format(7, 'seven');
SELECT r_format(NULL, NULL);

-- values of several types in placeholders
CREATE FUNCTION r_types() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n numeric := 1.50;
    f float8 := 0.1;
    b boolean := false;
    d date := '1999-12-31';
    t text := 'with ''quotes'' and "doubles"';
BEGIN
    RAISE NOTICE 'n=% f=% b=% d=% t=%', n, f, b, d, t;
    RAISE NOTICE 'multi
line';
END
$$;
SELECT r_types();

-- too few and too many parameters are compile-time errors
CREATE FUNCTION r_too_few() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE '% and %', 1;
END
$$;
CREATE FUNCTION r_too_many() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'only %', 1, 2;
END
$$;

-- RAISE EXCEPTION aborts the function
CREATE FUNCTION r_exception(v integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF v < 0 THEN
        RAISE EXCEPTION 'negative value: %', v;
    END IF;
    RETURN v;
END
$$;
SELECT r_exception(1);
SELECT r_exception(-1);

-- USING options
CREATE FUNCTION r_using(which integer) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    IF which = 1 THEN
        RAISE EXCEPTION 'main message'
            USING DETAIL = 'some detail', HINT = 'some hint';
    ELSIF which = 2 THEN
        RAISE EXCEPTION USING MESSAGE = 'message from USING only';
    ELSIF which = 3 THEN
        RAISE EXCEPTION 'bad key %', 17 USING ERRCODE = 'unique_violation';
    ELSIF which = 4 THEN
        RAISE EXCEPTION 'custom code' USING ERRCODE = 'P1234';
    ELSIF which = 5 THEN
        RAISE NOTICE 'notice with extras' USING DETAIL = 'd' || which, HINT = 'h';
    ELSIF which = 6 THEN
        RAISE WARNING USING MESSAGE = 'computed ' || (which * 10), ERRCODE = '01000';
    ELSIF which = 7 THEN
        RAISE EXCEPTION 'with column' USING COLUMN = 'col_a', TABLE = 'tab_b',
            CONSTRAINT = 'con_c', DATATYPE = 'typ_d', SCHEMA = 'sch_e';
    END IF;
END
$$;
SELECT r_using(1);
SELECT r_using(2);
SELECT r_using(3);
SELECT r_using(4);
SELECT r_using(5);
SELECT r_using(6);
SELECT r_using(7);

-- show the SQLSTATE of each error by trapping it
CREATE FUNCTION r_state_of(fn text, which integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF fn = 'using' THEN
        PERFORM r_using(which);
    ELSE
        PERFORM r_condition(which);
    END IF;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

SELECT which, r_state_of('using', which) FROM generate_series(1, 7) which;

-- an option given twice is a run-time error; an unknown option fails
-- at compile time
CREATE FUNCTION r_dup_option() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE EXCEPTION 'x' USING HINT = 'a', HINT = 'b';
END
$$;
SELECT r_dup_option();
CREATE FUNCTION r_bad_option() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE EXCEPTION 'x' USING COLOUR = 'red';
END
$$;

-- MESSAGE given both as format string and as option is a run-time error
CREATE FUNCTION r_double_message() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE EXCEPTION 'first' USING MESSAGE = 'second';
END
$$;
SELECT r_double_message();

-- a NULL option value is an error at run time
CREATE FUNCTION r_null_option() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    h text;
BEGIN
    RAISE EXCEPTION 'has null hint' USING HINT = h;
END
$$;
SELECT r_null_option();

-- invalid ERRCODE values
CREATE FUNCTION r_bad_errcode(c text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE EXCEPTION 'msg' USING ERRCODE = c;
END
$$;
SELECT r_bad_errcode('no_such_condition');
SELECT r_bad_errcode('12');
SELECT r_bad_errcode('zz!zz');

-- RAISE condition_name and RAISE SQLSTATE
CREATE FUNCTION r_condition(which integer) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    IF which = 1 THEN
        RAISE division_by_zero;
    ELSIF which = 2 THEN
        RAISE SQLSTATE '22012';
    ELSIF which = 3 THEN
        RAISE SQLSTATE 'U0001' USING MESSAGE = 'user-defined state';
    ELSIF which = 4 THEN
        RAISE invalid_parameter_value USING HINT = 'pick another value';
    ELSIF which = 5 THEN
        RAISE NOTICE raise_exception;
    END IF;
END
$$;
SELECT r_condition(1);
SELECT r_condition(2);
SELECT r_condition(3);
SELECT r_condition(4);
SELECT r_condition(5);
SELECT which, r_state_of('condition', which) FROM generate_series(1, 5) which;

-- unknown condition name and malformed SQLSTATE in RAISE
CREATE FUNCTION r_bad_condition() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE no_such_condition_at_all;
END
$$;
CREATE FUNCTION r_bad_sqlstate() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE SQLSTATE '2201';
END
$$;

-- ERRCODE option together with a condition name is rejected
CREATE FUNCTION r_errcode_twice() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE division_by_zero USING ERRCODE = 'unique_violation';
END
$$;
SELECT r_errcode_twice();

-- RAISE in a DO block and from a nested function: CONTEXT lines
CREATE FUNCTION r_inner() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'inner notice';
    RAISE EXCEPTION 'inner failure';
END
$$;
CREATE FUNCTION r_outer() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'outer notice';
    PERFORM r_inner();
END
$$;
SELECT r_outer();
DO LANGUAGE plnimble $$
BEGIN
    RAISE WARNING 'warning from DO';
END
$$;

-- psql shows CONTEXT lines of notices only with SHOW_CONTEXT = always
\set SHOW_CONTEXT always
SELECT r_outer();
\set SHOW_CONTEXT errors

-- bare RAISE outside an exception handler
CREATE FUNCTION r_bare_reraise() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE;
END
$$;
SELECT r_bare_reraise();
