-- literal_casts: an untyped literal assigned to a variable (x := 'abc'
-- into an integer) is converted by the parser with the type's input
-- function.  When that fails, plnimble keeps the error and raises it again
-- without parsing again (see "Planning errors" in src/exec/exec_expr.c); the
-- error must look the same every time: message, SQLSTATE, the position in
-- the statement, CONTEXT lines, GET STACKED DIAGNOSTICS, whether caught in
-- a loop or raised at the end, in the same transaction and in new ones.

CREATE FUNCTION lc_ok() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i integer;
    b bigint;
    s smallint;
    n numeric(5,2);
    f float8;
    t boolean;
    v varchar(3);
BEGIN
    i := '42';
    b := ' -9000000000 ';
    s := '7';
    n := '12.345';
    f := '1e3';
    t := 'yes';
    v := 'ab';
    RETURN concat_ws(' ', i, b, s, n, f, t, v);
END
$$;
SELECT lc_ok();

CREATE FUNCTION lc_fail(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i integer;
    s smallint;
    n numeric(5,2);
    f float8;
    t boolean;
    v varchar(2);
BEGIN
    IF k = 1 THEN
        i := 'abc';
    ELSIF k = 2 THEN
        i := '99999999999';
    ELSIF k = 3 THEN
        s := '70000';
    ELSIF k = 4 THEN
        n := '12345.6';
    ELSIF k = 5 THEN
        f := 'x1';
    ELSIF k = 6 THEN
        t := 'maybe';
    ELSE
        v := 'abc';
    END IF;
    RETURN 'not reached';
END
$$;
SELECT lc_fail(1);
SELECT lc_fail(2);
SELECT lc_fail(3);
SELECT lc_fail(4);
SELECT lc_fail(5);
SELECT lc_fail(6);
SELECT lc_fail(7);

-- caught in a loop, then what the handler sees, then raised uncaught in
-- the same transaction
CREATE FUNCTION lc_loop(n integer, k integer, final boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer := 1;
    caught integer := 0;
    msg text;
    state text;
    ctx text;
    detail text;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            x := x + 1;
            IF k = 1 THEN
                x := 'abc';
            ELSE
                x := '99999999999';
            END IF;
        EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range THEN
            caught := caught + 1;
            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, state = RETURNED_SQLSTATE,
                                    ctx = PG_EXCEPTION_CONTEXT, detail = PG_EXCEPTION_DETAIL;
        END;
    END LOOP;
    RAISE NOTICE 'x % caught % msg % state % detail % ctx %', x, caught, msg, state, detail, ctx;
    IF final THEN
        x := 'abc';
    END IF;
    RETURN x;
END
$$;
SELECT lc_loop(100, 1, false);
SELECT lc_loop(100, 2, false);
BEGIN;
SELECT lc_loop(50, 1, false);
SELECT lc_loop(50, 1, true);
ROLLBACK;
BEGIN;
SELECT lc_loop(3, 2, false);
SAVEPOINT s;
SELECT lc_loop(3, 1, true);
ROLLBACK TO s;
SELECT lc_loop(3, 1, true);
ROLLBACK;

-- the same statement failing uncaught twice in one transaction
CREATE FUNCTION lc_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    FOR i IN 1..2 LOOP
        BEGIN
            x := 'twice';
        EXCEPTION WHEN division_by_zero THEN
            RAISE NOTICE 'not this one';
        END;
    END LOOP;
END
$$;
SELECT lc_twice();
DO $$
BEGIN
    FOR i IN 1..2 LOOP
        BEGIN
            PERFORM lc_twice();
        EXCEPTION WHEN invalid_text_representation THEN
            RAISE NOTICE 'caught %: %', i, SQLERRM;
        END;
    END LOOP;
END
$$;
