-- select_into: SELECT expr INTO [STRICT] variable with no FROM, which
-- plnimble runs as an assignment (see exec_stmt_execsql), must behave as
-- the SQL form does: values, NULLs, FOUND, ROW_COUNT, STRICT, the casts of
-- INTO, errors with their CONTEXT lines (SQL statement "SELECT ..."),
-- errors caught by handlers, recursion, a function that reads what the
-- caller just wrote.  Statements of other shapes (WHERE, LIMIT, set
-- operations, aggregates, set-returning functions, sub-selects, several
-- targets, a record target) keep the SQL form and are checked alongside.

CREATE FUNCTION si_loop(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer := 0;
    t text := '';
    rc bigint;
BEGIN
    FOR i IN 1..n LOOP
        SELECT x + 1 INTO x;
        SELECT t || i::text INTO STRICT t;
    END LOOP;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN x || ' ' || length(t) || ' ' || FOUND || ' ' || rc;
END
$$;
SELECT si_loop(0), si_loop(1), si_loop(1000);

-- FOUND and ROW_COUNT after statements of each shape
CREATE TABLE si_empty (a integer);
CREATE FUNCTION si_found() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    x integer;
    r record;
    y integer;
    rc bigint;
BEGIN
    SELECT a INTO x FROM si_empty;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN NEXT 'from empty: ' || coalesce(x::text, 'null') || ' ' || FOUND || ' ' || rc;
    SELECT 7 INTO x;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN NEXT 'no from: ' || x || ' ' || FOUND || ' ' || rc;
    SELECT 8 INTO x WHERE false;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN NEXT 'where false: ' || coalesce(x::text, 'null') || ' ' || FOUND || ' ' || rc;
    SELECT NULL INTO x;
    RETURN NEXT 'null: ' || coalesce(x::text, 'null') || ' ' || FOUND;
    SELECT 9 INTO x LIMIT 0;
    RETURN NEXT 'limit 0: ' || coalesce(x::text, 'null') || ' ' || FOUND;
    SELECT count(*) INTO x;
    RETURN NEXT 'count: ' || x || ' ' || FOUND;
    SELECT (SELECT 5) INTO x;
    RETURN NEXT 'sub-select: ' || x;
    SELECT generate_series(3, 5) INTO x;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN NEXT 'srf: ' || x || ' ' || rc;
    SELECT 10 INTO x UNION ALL SELECT 11;
    RETURN NEXT 'union: ' || x;
    SELECT 1, 2 INTO x, y;
    RETURN NEXT 'two: ' || x || ' ' || y;
    SELECT y, x INTO x, y;
    RETURN NEXT 'swapped: ' || x || ' ' || y;
    SELECT 12 INTO r;
    RETURN NEXT 'record: ' || r::text;
    SELECT 13 AS named INTO x;
    RETURN NEXT 'alias: ' || x;
    SELECT 14 INTO x FOR UPDATE;
    RETURN NEXT 'for update: ' || x;
END
$$;
SELECT * FROM si_found();

-- STRICT: one row satisfies it; no rows or two fail
CREATE FUNCTION si_strict(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    IF k = 1 THEN
        SELECT 42 INTO STRICT x;
    ELSIF k = 2 THEN
        SELECT 42 INTO STRICT x WHERE false;
    ELSE
        SELECT 42 INTO STRICT x UNION ALL SELECT 43;
    END IF;
    RETURN x;
END
$$;
SELECT si_strict(1);
SELECT si_strict(2);
SELECT si_strict(3);

-- the conversions of INTO
CREATE FUNCTION si_casts() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    i integer;
    n numeric(5,2);
    v varchar(3);
    b boolean;
    t text;
    d date;
BEGIN
    SELECT '42' INTO i;
    RETURN NEXT i::text;
    SELECT 3.7 INTO i;
    RETURN NEXT i::text;
    SELECT 1.23456 INTO n;
    RETURN NEXT n::text;
    SELECT 'abc' INTO v;
    RETURN NEXT v;
    SELECT 'true' INTO b;
    RETURN NEXT b::text;
    SELECT 1 + 1 INTO t;
    RETURN NEXT t;
    SELECT '2024-02-29' INTO d;
    RETURN NEXT d::text;
    SELECT i * 2 INTO n;
    RETURN NEXT n::text;
END
$$;
SELECT * FROM si_casts();

-- conversion errors happen after the query: no SQL statement line
CREATE FUNCTION si_cast_error(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    i integer;
    v varchar(2);
    n numeric(3,1);
    s text := 'abc';
    nn integer NOT NULL := 0;
BEGIN
    IF k = 1 THEN
        SELECT s INTO i;
    ELSIF k = 2 THEN
        SELECT s INTO v;
    ELSIF k = 3 THEN
        SELECT 12345 INTO n;
    ELSIF k = 4 THEN
        SELECT NULL INTO nn;
    ELSE
        SELECT 'abc' INTO i;
    END IF;
    RETURN 'not reached';
END
$$;
SELECT si_cast_error(1);
SELECT si_cast_error(2);
SELECT si_cast_error(3);
SELECT si_cast_error(4);
SELECT si_cast_error(5);

-- errors raised by the query carry its SQL statement line, at run time
-- and when planning folds a constant
CREATE FUNCTION si_inner(a integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    IF a < 0 THEN
        RAISE EXCEPTION 'negative: %', a;
    END IF;
    RETURN a * 10;
END
$$;
CREATE FUNCTION si_error(k integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    x integer := 5;
    zero integer := 0;
    s text := 'xyz';
BEGIN
    IF k = 1 THEN
        SELECT x / zero INTO x;
    ELSIF k = 2 THEN
        SELECT 1 / 0 INTO x;
    ELSIF k = 3 THEN
        SELECT si_inner(-x) INTO x;
    ELSIF k = 4 THEN
        SELECT s::integer INTO x;
    ELSIF k = 5 THEN
        SELECT 'xyz'::integer INTO x;
    ELSE
        SELECT si_inner(x) INTO x;
    END IF;
    RETURN x;
END
$$;
SELECT si_error(1);
SELECT si_error(2);
SELECT si_error(3);
SELECT si_error(4);
SELECT si_error(5);
SELECT si_error(6);
-- the same errors again in the same session, after the plans are kept
SELECT si_error(1);
SELECT si_error(2);
SELECT si_error(3);

-- caught by a handler: the variable keeps its value, FOUND what it was
CREATE FUNCTION si_caught(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer := 0;
    acc text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            SELECT x + 10 / (i % 3) INTO x;
            acc := acc || x::text || ',';
        EXCEPTION WHEN division_by_zero THEN
            acc := acc || '[' || x::text || ' ' || FOUND::text || ' ' || SQLERRM || '],';
        END;
    END LOOP;
    RETURN acc;
END
$$;
SELECT si_caught(8);

CREATE FUNCTION si_context() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer;
    ctx text;
BEGIN
    BEGIN
        SELECT 1 / (x - x + 0) INTO x;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
    END;
    RETURN ctx;
END
$$;
SELECT si_context();

-- recursion, and a function that reads the table its caller just wrote
CREATE FUNCTION si_fact(n integer) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    r numeric;
BEGIN
    IF n <= 1 THEN
        RETURN 1;
    END IF;
    SELECT n * si_fact(n - 1) INTO r;
    RETURN r;
END
$$;
SELECT si_fact(20);

CREATE TABLE si_t (a integer);
CREATE FUNCTION si_count() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM si_t';
CREATE FUNCTION si_sees() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    c bigint;
    acc text := '';
BEGIN
    FOR i IN 1..3 LOOP
        INSERT INTO si_t VALUES (i);
        SELECT si_count() INTO c;
        acc := acc || c::text || ' ';
    END LOOP;
    RETURN acc;
END
$$;
SELECT si_sees();

DO $$
DECLARE
    x numeric := 1;
BEGIN
    FOR i IN 1..10 LOOP
        SELECT x * 2 INTO x;
    END LOOP;
    RAISE NOTICE 'do: % %', x, FOUND;
END
$$;

-- several columns INTO several variables: computed in order, all before
-- any is stored, then stored in order
CREATE FUNCTION si_multi(n integer) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    a integer := 0;
    b text := '';
    c numeric := 1;
    nn integer NOT NULL := 0;
    zero integer := 0;
    rc bigint;
BEGIN
    FOR i IN 1..n LOOP
        SELECT a + i, b || i::text, c * 2 INTO a, b, c;
    END LOOP;
    GET DIAGNOSTICS rc = ROW_COUNT;
    RETURN NEXT concat_ws(' ', a, b, c, FOUND, rc);
    SELECT b, a INTO a, b;
    RETURN NEXT concat_ws(' ', a, b);
    SELECT a * 2, a * 3 INTO STRICT a, nn;
    RETURN NEXT concat_ws(' ', a, nn);
    BEGIN
        SELECT 1, 1 / zero INTO a, nn;
    EXCEPTION WHEN division_by_zero THEN
        RETURN NEXT 'division: ' || concat_ws(' ', a, nn);
    END;
    BEGIN
        SELECT 5, NULL INTO a, nn;
    EXCEPTION WHEN null_value_not_allowed THEN
        RETURN NEXT 'not null: ' || concat_ws(' ', a, nn);
    END;
    BEGIN
        SELECT 'abc', 7 INTO a, nn;
    EXCEPTION WHEN invalid_text_representation THEN
        RETURN NEXT 'cast: ' || concat_ws(' ', a, nn);
    END;
    SELECT 'x' || a, nextval('si_seq') INTO b, a;
    RETURN NEXT concat_ws(' ', a, b);
    SELECT 1, 2 INTO a;
    RETURN NEXT 'fewer targets: ' || a;
END
$$;
CREATE SEQUENCE si_seq;
SELECT * FROM si_multi(5);

CREATE FUNCTION si_multi_error(zero integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a integer;
    b integer;
BEGIN
    SELECT 1, 10 / zero INTO a, b;
END
$$;
SELECT si_multi_error(0);
SELECT si_multi_error(0);

-- the same statement failing twice in one transaction, caught the first
-- time (the second run is made to look like SPI's, as PL/pgSQL's is)
CREATE FUNCTION si_div(z integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    SELECT 10 / z INTO x;
    RETURN x;
END
$$;
DO $$
BEGIN
    BEGIN
        PERFORM si_div(0);
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'caught';
    END;
    PERFORM si_div(5);
    PERFORM si_div(0);
END
$$;
