-- runtime_errors: errors that only appear when a statement executes --
-- unknown columns/variables in expressions and queries (with QUERY lines),
-- type mismatches, division by zero, NULL into NOT NULL, calls with wrong
-- arguments, and errors deep in nested calls with multi-level CONTEXT.

CREATE TABLE rt_tab (id integer PRIMARY KEY, val text NOT NULL);
INSERT INTO rt_tab VALUES (1, 'one');

-- unknown variable in an expression: accepted at CREATE, fails at run time
CREATE FUNCTION rt_unknown_var() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer := 1;
BEGIN
    RETURN a + nosuchvar;
END
$$;
SELECT rt_unknown_var();

-- unknown variable in an IF condition
CREATE FUNCTION rt_unknown_in_if() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF undefined_flag THEN
        RETURN 'yes';
    END IF;
    RETURN 'no';
END
$$;
SELECT rt_unknown_in_if();

-- unknown column in a query
CREATE FUNCTION rt_unknown_column() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v text;
BEGIN
    SELECT colour INTO v FROM rt_tab WHERE id = 1;
    RETURN v;
END
$$;
SELECT rt_unknown_column();

-- unknown table in a statement
CREATE FUNCTION rt_unknown_table() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO rt_no_such_table VALUES (1);
END
$$;
SELECT rt_unknown_table();

-- the error only appears when the faulty statement is reached
CREATE FUNCTION rt_late(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF x > 0 THEN
        RETURN 'ok';
    END IF;
    RETURN missing_column_here;
END
$$;
SELECT rt_late(1);
SELECT rt_late(0);

-- unknown function in an expression
CREATE FUNCTION rt_unknown_func() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN no_such_fn(1, 'a');
END
$$;
SELECT rt_unknown_func();

-- operator between incompatible types
CREATE FUNCTION rt_bad_operator() RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    d date := '2000-01-01';
    n integer := 5;
BEGIN
    RETURN d > n;
END
$$;
SELECT rt_bad_operator();

-- a result type that cannot be cast to the variable type
CREATE FUNCTION rt_bad_cast() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := '2000-01-01'::date;
    RETURN i;
END
$$;
SELECT rt_bad_cast();

-- a non-boolean value as a condition is converted through text: 1 works
-- as true, 2 is invalid boolean input
CREATE FUNCTION rt_bad_condition(n integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    WHILE n LOOP
        RETURN 'looped';
    END LOOP;
    RETURN 'done';
END
$$;
SELECT rt_bad_condition(1);
SELECT rt_bad_condition(2);

-- an expression that returns more than one row
CREATE FUNCTION rt_multirow() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN (SELECT g FROM generate_series(1, 3) g);
END
$$;
SELECT rt_multirow();

-- division by zero in various statement kinds
CREATE FUNCTION rt_div(kind text, d integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    r integer;
BEGIN
    IF kind = 'assign' THEN
        r := 10 / d;
    ELSIF kind = 'if' THEN
        IF 10 / d > 1 THEN r := 1; END IF;
    ELSIF kind = 'perform' THEN
        PERFORM 10 / d;
    ELSIF kind = 'select' THEN
        SELECT 10 / d INTO r;
    ELSIF kind = 'raise' THEN
        RAISE NOTICE 'value %', 10 / d;
    ELSIF kind = 'for' THEN
        FOR i IN 1 .. 10 / d LOOP NULL; END LOOP;
    ELSE
        RETURN 10 / d;
    END IF;
    RETURN r;
END
$$;
SELECT rt_div('assign', 0);
SELECT rt_div('if', 0);
SELECT rt_div('perform', 0);
SELECT rt_div('select', 0);
SELECT rt_div('raise', 0);
SELECT rt_div('for', 0);
SELECT rt_div('return', 0);

-- NULL into a NOT NULL column, and a duplicate key
CREATE FUNCTION rt_insert(i integer, v text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO rt_tab VALUES (i, v);
END
$$;
SELECT rt_insert(2, NULL);
SELECT rt_insert(1, 'again');
SELECT * FROM rt_tab ORDER BY id;

-- NULL into a NOT NULL variable
CREATE FUNCTION rt_notnull_var() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    n integer NOT NULL := 1;
BEGIN
    SELECT NULL::integer INTO n;
    RETURN n;
END
$$;
SELECT rt_notnull_var();

-- functions called with wrong arguments
CREATE FUNCTION rt_target(a integer, b text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN a || b;
END
$$;
SELECT rt_target(1);
SELECT rt_target('x', 'y');
SELECT rt_target(1, 'y', 3);
CREATE FUNCTION rt_caller() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN rt_target(1, 2, 3);
END
$$;
SELECT rt_caller();

-- errors in nested calls: CONTEXT shows every level, innermost first
CREATE FUNCTION rt_deep3(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    t integer;
BEGIN
    SELECT id INTO STRICT t FROM rt_tab WHERE id = x;
    RETURN t;
END
$$;
CREATE FUNCTION rt_deep2(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    PERFORM rt_deep3(x);
    RETURN 0;
END
$$;
CREATE FUNCTION rt_deep1(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    r integer;
BEGIN
    FOR i IN 1..2 LOOP
        r := rt_deep2(x + i);
    END LOOP;
    RETURN r;
END
$$;
SELECT rt_deep1(-1);
SELECT rt_deep1(5);

-- an error from a called function used inside a SQL query
CREATE FUNCTION rt_in_query() RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
    c bigint;
BEGIN
    SELECT count(*) INTO c FROM generate_series(-2, 2) g WHERE rt_div('return', g) > 0;
    RETURN c;
END
$$;
SELECT rt_in_query();

-- a DO block calling a failing function
DO LANGUAGE plnimble $$
BEGIN
    PERFORM rt_deep1(10);
END
$$;

-- errors on a statement spanning several lines report the first line
CREATE FUNCTION rt_multiline() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    r integer;
BEGIN
    r :=
        1 +
        2 / 0;
    RETURN r;
END
$$;
SELECT rt_multiline();
