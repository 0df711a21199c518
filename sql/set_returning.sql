-- set_returning: OUT and INOUT parameters of functions (one OUT parameter
-- gives a scalar result, several give a composite one; unassigned ones are
-- NULL; values assigned in loops, IF and failed exception blocks; RETURN
-- with no value; int, text, numeric(5,2) (the typmod is not applied), a
-- composite type and int[]; only OUT parameters and no arguments; names
-- clashing with columns; $n numbering counts OUT parameters too); RETURNS
-- SETOF int / text / a table's row type / record (with a column definition
-- list): RETURN NEXT expr, of a record and of a composite variable, RETURN
-- QUERY, several RETURN QUERY, RETURN QUERY EXECUTE ... USING, mixed,
-- empty results, early RETURN, FOUND and ROW_COUNT after RETURN QUERY;
-- RETURNS TABLE(...) with RETURN NEXT (no argument) and RETURN QUERY, its
-- columns as variables and clashing with table columns (#variable_conflict
-- use_column); RETURNS SETOF record with OUT parameters; the compile-time
-- and run-time errors of RETURN / RETURN NEXT / RETURN QUERY misuse and of
-- calling set-returning functions where a set is not accepted; RETURN NEXT
-- and RETURN QUERY in exception blocks that fail afterwards (the rows are
-- kept); set-returning functions in FROM with LATERAL, WITH ORDINALITY,
-- ROWS FROM and in the select list.

CREATE TABLE sr_items (id integer PRIMARY KEY, name text, price numeric(6,2));
INSERT INTO sr_items VALUES
    (1, 'apple', 1.50), (2, 'banana', 0.25), (3, 'cherry', 12.00),
    (4, 'date', 7.75), (5, 'elder', NULL);
CREATE TYPE sr_pair AS (id integer, name text);

------------------------------------------------------------------------------
-- 1. OUT and INOUT parameters
------------------------------------------------------------------------------

-- one OUT parameter: the result is a scalar of its type, named after it in
-- SELECT * FROM
CREATE FUNCTION sr_out_one(a integer, OUT doubled integer) LANGUAGE plnimble AS $$
BEGIN
    doubled := a * 2;
END
$$;
SELECT sr_out_one(21);
SELECT * FROM sr_out_one(21);
SELECT sr_out_one(NULL) IS NULL AS is_null;

-- two OUT parameters: a composite result; SELECT * FROM expands it,
-- SELECT f() shows the row, a field can be selected
CREATE FUNCTION sr_out_two(a integer, b integer, OUT total integer, OUT label text)
LANGUAGE plnimble AS $$
BEGIN
    total := a + b;
    label := format('%s+%s', a, b);
END
$$;
SELECT * FROM sr_out_two(2, 3);
SELECT sr_out_two(2, 3);
SELECT (sr_out_two(10, 20)).label, (sr_out_two(10, 20)).total;
SELECT t.total * 2 AS twice FROM sr_out_two(4, 5) AS t;

-- INOUT parameters start with the argument's value; a single INOUT gives
-- a scalar result, two give a composite one; NULL arguments
CREATE FUNCTION sr_inout_one(INOUT x integer) LANGUAGE plnimble AS $$
BEGIN
    x := coalesce(x, 0) * 10 + 1;
END
$$;
SELECT sr_inout_one(4), sr_inout_one(NULL);
CREATE FUNCTION sr_inout_two(INOUT x integer, s text, INOUT t text, OUT info text)
LANGUAGE plnimble AS $$
BEGIN
    info := format('in: x=%s t=%s', x, coalesce(t, '<null>'));
    x := x + 1;
    t := t || s;
END
$$;
SELECT * FROM sr_inout_two(1, '!', 'hey');
SELECT * FROM sr_inout_two(NULL, '!', NULL);

-- OUT parameters never assigned are NULL; a function with only OUT
-- parameters is called with no arguments
CREATE FUNCTION sr_out_partial(OUT a integer, OUT b text, OUT c date) LANGUAGE plnimble AS $$
BEGIN
    a := 7;
    RAISE NOTICE 'b on entry IS NULL: %', b IS NULL;
END
$$;
SELECT * FROM sr_out_partial();
SELECT sr_out_partial();
CREATE FUNCTION sr_out_nothing(OUT a integer, OUT b text) LANGUAGE plnimble AS $$
BEGIN
    NULL;
END
$$;
SELECT *, sr_out_nothing() IS NULL AS row_is_null FROM sr_out_nothing();

-- OUT parameters assigned in a loop, in IF branches and in an exception
-- block that fails: the assignments made in the failed block are kept
CREATE FUNCTION sr_out_flow(n integer, OUT total integer, OUT evens integer, OUT note text)
LANGUAGE plnimble AS $$
BEGIN
    total := 0;
    evens := 0;
    FOR i IN 1..n LOOP
        total := total + i;
        IF i % 2 = 0 THEN
            evens := evens + 1;
        ELSIF i = 3 THEN
            note := 'saw 3';
        END IF;
    END LOOP;
    BEGIN
        total := total + 1000;
        note := coalesce(note, 'no 3') || ', in block';
        PERFORM 1 / (n - n);
    EXCEPTION WHEN division_by_zero THEN
        note := note || ', caught';
    END;
END
$$;
SELECT * FROM sr_out_flow(5);
SELECT * FROM sr_out_flow(2);

-- RETURN with no value returns the OUT parameters as they are; falling off
-- the end does too (no "control reached end of function" error)
CREATE FUNCTION sr_out_return(k integer, OUT a integer, OUT b text) LANGUAGE plnimble AS $$
BEGIN
    a := k;
    IF k = 1 THEN
        RETURN;
    END IF;
    b := 'after the first IF';
    IF k = 2 THEN
        RETURN;
    END IF;
    a := a * 100;
END
$$;
SELECT k, r.* FROM generate_series(1, 3) AS k, LATERAL sr_out_return(k) AS r ORDER BY k;

-- OUT parameters of several types: the typmod of numeric(5,2) is not kept
-- (no rounding, no overflow check); a composite OUT parameter assigned
-- field by field; an int[] built element by element
CREATE FUNCTION sr_out_types(OUT i integer, OUT t text, OUT n numeric(5,2),
                             OUT p sr_pair, OUT arr integer[])
LANGUAGE plnimble AS $$
BEGIN
    i := '42';
    t := 3.5;
    n := 3.14159;
    p.id := 9;
    p.name := 'nine';
    arr := ARRAY[1, 2];
    arr[4] := 4;
END
$$;
SELECT * FROM sr_out_types();
SELECT sr_out_types();
SELECT (sr_out_types()).p.name, (sr_out_types()).arr[2];
CREATE FUNCTION sr_out_numeric(x numeric, OUT n numeric(5,2)) LANGUAGE plnimble AS $$
BEGIN
    n := x;
END
$$;
SELECT sr_out_numeric(1.005), sr_out_numeric(123456.789), pg_typeof(sr_out_numeric(1));
-- rounding happens when the value goes through a numeric(5,2) variable
CREATE FUNCTION sr_out_numeric_var(x numeric, OUT n numeric) LANGUAGE plnimble AS $$
DECLARE
    v numeric(5,2);
BEGIN
    v := x;
    n := v;
END
$$;
SELECT sr_out_numeric_var(1.005), sr_out_numeric_var(2.994);
-- a single OUT parameter of a composite type: the result is that type
CREATE FUNCTION sr_out_pair(k integer, OUT p sr_pair) LANGUAGE plnimble AS $$
BEGIN
    SELECT id, name INTO p FROM sr_items WHERE id = k;
END
$$;
SELECT * FROM sr_out_pair(2);
SELECT sr_out_pair(3), sr_out_pair(99);

-- an OUT parameter named like a column: the query is ambiguous (default
-- variable_conflict = error), reported at call time; qualified names work
CREATE FUNCTION sr_out_clash(k integer, OUT id integer, OUT name text) LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'before the query';
    SELECT id, name INTO id, name FROM sr_items WHERE sr_items.id = k;
END
$$;
SELECT * FROM sr_out_clash(1);
CREATE FUNCTION sr_out_clash_ok(k integer, OUT id integer, OUT name text) LANGUAGE plnimble AS $$
BEGIN
    SELECT i.id, i.name INTO id, name FROM sr_items AS i WHERE i.id = k;
END
$$;
SELECT * FROM sr_out_clash_ok(1);

-- $n counts all parameters in declaration order, OUT ones included; $n
-- of an OUT parameter can be assigned
CREATE FUNCTION sr_out_dollar(a integer, b text, OUT c integer, OUT d text) LANGUAGE plnimble AS $$
BEGIN
    $3 := $1 * 2;
    d := $2 || $3 || '/' || c;
END
$$;
SELECT * FROM sr_out_dollar(4, 'x');
CREATE FUNCTION sr_out_dollar_mixed(OUT c integer, a integer, OUT d text) LANGUAGE plnimble AS $$
BEGIN
    c := $2 + 1;
    $3 := format('$1=%s $2=%s', $1, $2);
END
$$;
SELECT * FROM sr_out_dollar_mixed(4);

------------------------------------------------------------------------------
-- 2. RETURNS SETOF
------------------------------------------------------------------------------

-- SETOF integer: RETURN NEXT of expressions, NULL and a value converted
-- from text; statements after RETURN NEXT still run
CREATE FUNCTION sr_ints(n integer) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..n LOOP
        RETURN NEXT i * i;
    END LOOP;
    RETURN NEXT NULL;
    RETURN NEXT '7';
    RAISE NOTICE 'after the last RETURN NEXT';
END
$$;
SELECT * FROM sr_ints(3) ORDER BY 1 NULLS FIRST;
SELECT sr_ints(2) ORDER BY 1 NULLS FIRST;
SELECT count(*), sum(v) FROM sr_ints(4) AS v;

-- SETOF text from a FOR loop over a query; the column is named after the
-- function
CREATE FUNCTION sr_names(min_price numeric) RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT name, price FROM sr_items WHERE price >= min_price ORDER BY id LOOP
        RETURN NEXT upper(r.name) || ':' || r.price;
    END LOOP;
END
$$;
SELECT * FROM sr_names(1) ORDER BY 1;

-- SETOF a table's row type: RETURN NEXT of a record variable, of a
-- composite variable (changed between two RETURN NEXT), of a row
-- constructor cast to the type and of a ROW() with the exact column types
CREATE FUNCTION sr_rows() RETURNS SETOF sr_items LANGUAGE plnimble AS $$
DECLARE
    r record;
    c sr_items;
BEGIN
    FOR r IN SELECT * FROM sr_items WHERE id <= 2 ORDER BY id LOOP
        RETURN NEXT r;
    END LOOP;
    SELECT * INTO c FROM sr_items WHERE id = 4;
    RETURN NEXT c;
    c.price := c.price * 2;
    c.name := c.name || ' x2';
    RETURN NEXT c;
    RETURN NEXT (10, 'ten', 10)::sr_items;
    RETURN NEXT ROW(11, 'eleven'::text, 11.111::numeric(6,2));
END
$$;
SELECT * FROM sr_rows() ORDER BY id, name;
SELECT sr_rows() ORDER BY 1;

-- SETOF record: the caller supplies a column definition list
CREATE FUNCTION sr_records(n integer) RETURNS SETOF record LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    FOR i IN 1..n LOOP
        SELECT i AS a, repeat('*', i) AS b INTO r;
        RETURN NEXT r;
    END LOOP;
    RETURN QUERY SELECT 100, 'query';
END
$$;
SELECT * FROM sr_records(3) AS t(a integer, b text) ORDER BY a;
SELECT t.b FROM sr_records(2) AS t(a integer, b text) WHERE t.a > 1 ORDER BY 1;

-- RETURN QUERY, several of them, mixed with RETURN NEXT; FOUND and
-- ROW_COUNT after each RETURN QUERY (RETURN NEXT does not change them)
CREATE FUNCTION sr_query_mix() RETURNS SETOF sr_pair LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    RETURN QUERY SELECT id, name FROM sr_items WHERE id <= 2;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'first RETURN QUERY: FOUND=% ROW_COUNT=%', FOUND, n;
    RETURN NEXT (50, 'next')::sr_pair;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'after RETURN NEXT: FOUND=% ROW_COUNT=%', FOUND, n;
    RETURN QUERY SELECT id, name FROM sr_items WHERE id > 100;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'empty RETURN QUERY: FOUND=% ROW_COUNT=%', FOUND, n;
    RETURN QUERY SELECT id + 60, name || '!' FROM sr_items WHERE id BETWEEN 3 AND 5;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'third RETURN QUERY: FOUND=% ROW_COUNT=%', FOUND, n;
END
$$;
SELECT * FROM sr_query_mix() ORDER BY id;

-- RETURN QUERY EXECUTE with USING, with a format()ted identifier, and a
-- dynamic query returning no rows
CREATE FUNCTION sr_dyn(tbl text, lo integer, hi integer) RETURNS SETOF sr_pair LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    RETURN QUERY EXECUTE format('SELECT id, name FROM %I WHERE id BETWEEN $1 AND $2', tbl)
        USING lo, hi;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'EXECUTE: FOUND=% ROW_COUNT=%', FOUND, n;
    RETURN QUERY EXECUTE 'SELECT $1 * 1000, $2' USING hi, tbl;
    RETURN QUERY EXECUTE 'SELECT 0, ''none'' WHERE false';
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'empty EXECUTE: FOUND=% ROW_COUNT=%', FOUND, n;
END
$$;
SELECT * FROM sr_dyn('sr_items', 2, 4) ORDER BY id;

-- an empty result: no RETURN NEXT at all, or only empty RETURN QUERY
CREATE FUNCTION sr_empty(how text) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    IF how = 'query' THEN
        RETURN QUERY SELECT id FROM sr_items WHERE false;
    END IF;
    RAISE NOTICE 'sr_empty(%) done', how;
END
$$;
SELECT * FROM sr_empty('nothing');
SELECT * FROM sr_empty('query');
SELECT count(*) FROM sr_empty('nothing');
SELECT sr_empty('nothing');

-- early exit with RETURN: the rows produced so far are the result, the
-- rest of the loop and the function does not run
CREATE FUNCTION sr_until(stop_at text) RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT name FROM sr_items ORDER BY id LOOP
        IF r.name = stop_at THEN
            RETURN;
        END IF;
        RETURN NEXT r.name;
    END LOOP;
    RETURN NEXT 'end of the loop';
END
$$;
SELECT * FROM sr_until('cherry') ORDER BY 1;
SELECT * FROM sr_until('none') ORDER BY 1;

-- the whole result is produced before the caller sees it: LIMIT 1 still
-- runs every RETURN NEXT
CREATE FUNCTION sr_noisy(n integer) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..n LOOP
        RAISE NOTICE 'producing %', i;
        RETURN NEXT i;
    END LOOP;
END
$$;
SELECT * FROM sr_noisy(3) LIMIT 1;

------------------------------------------------------------------------------
-- 3. RETURNS TABLE
------------------------------------------------------------------------------

-- RETURN NEXT without an argument returns the current column values; they
-- start NULL and keep their values between RETURN NEXT
CREATE FUNCTION sr_table(n integer) RETURNS TABLE(a integer, b text) LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT;
    FOR i IN 1..n LOOP
        a := coalesce(a, 0) + i;
        IF i % 2 = 1 THEN
            b := repeat('o', i);
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;
SELECT * FROM sr_table(4) ORDER BY a NULLS FIRST;
SELECT sr_table(2) ORDER BY 1;

-- RETURN QUERY in a RETURNS TABLE function; the column variables are not
-- changed by RETURN QUERY
CREATE FUNCTION sr_table_query(lo integer) RETURNS TABLE(a integer, b text) LANGUAGE plnimble AS $$
BEGIN
    a := -1;
    b := 'variable';
    RETURN QUERY SELECT id, name FROM sr_items WHERE id >= lo;
    RAISE NOTICE 'after RETURN QUERY: a=% b=%', a, b;
    RETURN NEXT;
END
$$;
SELECT * FROM sr_table_query(4) ORDER BY a;

-- a single column: the result is a scalar
CREATE FUNCTION sr_table_one(n integer) RETURNS TABLE(sq bigint) LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..n LOOP
        sq := i * i;
        RETURN NEXT;
    END LOOP;
END
$$;
SELECT * FROM sr_table_one(3) ORDER BY 1;
SELECT sr_table_one(2) AS v, pg_typeof(sr_table_one(1)) ORDER BY v;

-- a column name clashing with a table column: ambiguous at call time;
-- #variable_conflict use_column or qualified names resolve it
CREATE FUNCTION sr_table_clash() RETURNS TABLE(id integer, name text) LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'before RETURN QUERY';
    RETURN QUERY SELECT id, name FROM sr_items WHERE id <= 2;
END
$$;
SELECT * FROM sr_table_clash();
CREATE FUNCTION sr_table_use_column() RETURNS TABLE(id integer, name text) LANGUAGE plnimble AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY SELECT id, name FROM sr_items WHERE id <= 2;
    id := 0;
    name := 'variable';
    RETURN NEXT;
END
$$;
SELECT * FROM sr_table_use_column() ORDER BY id;
CREATE FUNCTION sr_table_qualified() RETURNS TABLE(id integer, name text) LANGUAGE plnimble AS $$
BEGIN
    RETURN QUERY SELECT i.id, i.name FROM sr_items AS i WHERE i.id >= 4;
END
$$;
SELECT * FROM sr_table_qualified() ORDER BY id;

------------------------------------------------------------------------------
-- 4. RETURNS SETOF record with OUT parameters
------------------------------------------------------------------------------

CREATE FUNCTION sr_setof_out(n integer, OUT a integer, OUT b text) RETURNS SETOF record
LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..n LOOP
        a := i;
        b := 'row ' || i;
        RETURN NEXT;
    END LOOP;
    RETURN QUERY SELECT 0, 'from query';
    IF n > 2 THEN
        RETURN;
    END IF;
    a := NULL;
    RETURN NEXT;
END
$$;
SELECT * FROM sr_setof_out(2) ORDER BY a NULLS LAST;
SELECT * FROM sr_setof_out(3) ORDER BY a;
SELECT sr_setof_out(1) ORDER BY 1;
-- a column definition list is not accepted here
SELECT * FROM sr_setof_out(1) AS t(a integer, b text);

------------------------------------------------------------------------------
-- 5. errors
------------------------------------------------------------------------------

-- compile-time errors, raised by CREATE FUNCTION (and by DO before the
-- block runs)
CREATE FUNCTION sr_err_next_nonsetof() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
END
$$;
CREATE FUNCTION sr_err_query_nonsetof() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN QUERY SELECT 1;
END
$$;
CREATE FUNCTION sr_err_next_param_out(OUT a integer) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
END
$$;
CREATE FUNCTION sr_err_next_param_table() RETURNS TABLE(a integer) LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT a;
END
$$;
-- RETURN NEXT without an expression (and no OUT parameters): PostgreSQL
-- 15 reports a missing expression, not "RETURN NEXT must have a parameter"
CREATE FUNCTION sr_err_next_no_param() RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT;
END
$$;
CREATE FUNCTION sr_err_return_value_setof() RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE FUNCTION sr_err_return_value_out(OUT a integer) LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE FUNCTION sr_err_return_value_table() RETURNS TABLE(a integer) LANGUAGE plnimble AS $$
BEGIN
    RETURN a;
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    RETURN NEXT 1;
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    RETURN QUERY SELECT 1;
END
$$;
-- none of them was created
SELECT count(*) FROM pg_proc WHERE proname LIKE 'sr\_err\_%';

-- without check_function_bodies the same errors come at the first call
SET check_function_bodies = off;
CREATE FUNCTION sr_late_next_nonsetof() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
END
$$;
CREATE FUNCTION sr_late_return_value_setof() RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
RESET check_function_bodies;
SELECT sr_late_next_nonsetof();
SELECT * FROM sr_late_return_value_setof();

-- RETURN QUERY whose columns do not match the result type (run time)
CREATE FUNCTION sr_err_query_shape(how text) RETURNS SETOF sr_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT (1, 'ok')::sr_pair;
    IF how = 'type' THEN
        RETURN QUERY SELECT name, id FROM sr_items;
    ELSIF how = 'count' THEN
        RETURN QUERY SELECT id, name, price FROM sr_items;
    ELSIF how = 'execute' THEN
        RETURN QUERY EXECUTE 'SELECT id::bigint, name FROM sr_items';
    ELSIF how = 'varchar' THEN
        RETURN QUERY SELECT id, name::varchar FROM sr_items WHERE id = 1;
    END IF;
END
$$;
SELECT * FROM sr_err_query_shape('type');
SELECT * FROM sr_err_query_shape('count');
SELECT * FROM sr_err_query_shape('execute');
SELECT * FROM sr_err_query_shape('varchar');
CREATE FUNCTION sr_err_query_scalar() RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN QUERY SELECT 1, 2;
END
$$;
SELECT * FROM sr_err_query_scalar();

-- RETURN NEXT of a value of the wrong structure (run time)
CREATE FUNCTION sr_err_next_record(how text) RETURNS SETOF sr_pair LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    IF how = 'count' THEN
        SELECT 1 AS id, 'a'::text AS name, 3 AS extra INTO r;
    ELSIF how = 'type' THEN
        SELECT 'a'::text AS id, 1 AS name INTO r;
    END IF;
    IF how = 'scalar' THEN
        RETURN NEXT 5;
    ELSE
        RETURN NEXT r;
    END IF;
END
$$;
SELECT * FROM sr_err_next_record('count');
SELECT * FROM sr_err_next_record('type');
SELECT * FROM sr_err_next_record('scalar');
SELECT * FROM sr_err_next_record('unassigned');
CREATE FUNCTION sr_err_next_record_to_int() RETURNS SETOF integer LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS a, 2 AS b INTO r;
    RETURN NEXT r;
END
$$;
SELECT * FROM sr_err_next_record_to_int();
-- a record whose columns differ from the column definition list
SELECT * FROM sr_records(1) AS t(a text, b text);
SELECT * FROM sr_records(1) AS t(a integer);
-- a ROW() whose column types differ from the declared type modifiers
-- (numeric vs numeric(6,2)) is rejected, although the cast form works
CREATE FUNCTION sr_err_next_row_typmod(how text) RETURNS SETOF sr_items LANGUAGE plnimble AS $$
BEGIN
    IF how = 'cast' THEN
        RETURN NEXT (11, 'eleven', 11.111)::sr_items;
    ELSE
        RETURN NEXT ROW(11, 'eleven'::text, 11.111);
    END IF;
END
$$;
SELECT * FROM sr_err_next_row_typmod('cast');
SELECT * FROM sr_err_next_row_typmod('row');

-- set-returning functions where a set is not accepted: parse errors in
-- CASE, COALESCE, WHERE and aggregates; an operator on the result is fine
SELECT sr_ints(2) + 1 AS plus_one ORDER BY 1 NULLS FIRST;
SELECT CASE WHEN true THEN sr_ints(2) END;
SELECT coalesce(sr_ints(2), 0);
SELECT 1 WHERE sr_ints(2) = 1;
SELECT sum(sr_ints(2));
-- in a PL/nimble expression: more than one row is an error, zero rows
-- give NULL, one row its value; PERFORM runs the function
DO LANGUAGE plnimble $$
DECLARE
    x integer;
BEGIN
    x := sr_ints(2);
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    x integer;
BEGIN
    x := sr_empty('nothing');
    RAISE NOTICE 'no row: x=%', x;
    x := sr_table_one(2 - 1);
    RAISE NOTICE 'one row: x=%', x;
    x := (SELECT v FROM sr_ints(3) AS v WHERE v = 4);
    RAISE NOTICE 'scalar subquery: x=%', x;
    PERFORM sr_noisy(2);
    RAISE NOTICE 'after PERFORM: FOUND=%', FOUND;
END
$$;

-- functions returning record need a column definition list in FROM; a
-- SETOF record function cannot be called in the select list (detected
-- when the first row is stored, by RETURN NEXT or RETURN QUERY: a call
-- that stores no row works)
CREATE FUNCTION sr_one_record() RETURNS record LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS a, 'x'::text AS b INTO r;
    RETURN r;
END
$$;
SELECT * FROM sr_one_record();
SELECT * FROM sr_one_record() AS t(a integer, b text);
SELECT sr_one_record();
SELECT * FROM sr_records(2);
SELECT sr_records(2);
SELECT sr_records(0);
CREATE FUNCTION sr_no_records() RETURNS SETOF record LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'sr_no_records runs';
END
$$;
SELECT sr_no_records();
SELECT * FROM sr_no_records() AS t(a integer);

-- RETURN QUERY EXECUTE of a NULL string
CREATE FUNCTION sr_err_exec_null(q text) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
    RETURN QUERY EXECUTE q;
END
$$;
SELECT * FROM sr_err_exec_null(NULL);
SELECT * FROM sr_err_exec_null('SELECT 2') ORDER BY 1;

-- an error in the middle of producing rows: the whole statement fails, no
-- row is returned (RETURN NEXT, and a RETURN QUERY whose query fails on
-- its third row)
CREATE FUNCTION sr_err_midway(how text) RETURNS SETOF integer LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
    RETURN NEXT 2;
    IF how = 'raise' THEN
        RAISE EXCEPTION 'failed after two rows';
    END IF;
    RETURN QUERY SELECT 10 / (3 - g) FROM generate_series(1, 5) AS g;
    RAISE NOTICE 'not reached';
END
$$;
SELECT * FROM sr_err_midway('raise');
SELECT * FROM sr_err_midway('query');
SELECT count(*) FROM sr_err_midway('raise');

------------------------------------------------------------------------------
-- 6. RETURN NEXT / RETURN QUERY and exception blocks
------------------------------------------------------------------------------

-- rows returned inside a block that fails afterwards are kept
CREATE FUNCTION sr_exc_next() RETURNS SETOF text LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 'before the block';
    BEGIN
        RETURN NEXT 'in the block 1';
        RETURN NEXT 'in the block 2';
        PERFORM 1 / 0;
        RETURN NEXT 'not reached';
    EXCEPTION WHEN division_by_zero THEN
        RETURN NEXT 'in the handler: ' || SQLERRM;
    END;
    RETURN NEXT 'after the block';
END
$$;
SELECT * FROM sr_exc_next() WITH ORDINALITY AS t(t, n) ORDER BY n;

-- the same with RETURN QUERY, with nested blocks, and with a RETURN QUERY
-- whose query fails on its third row (the rows it produced before the
-- error are kept too)
CREATE FUNCTION sr_exc_query() RETURNS TABLE(step integer, what text) LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        RETURN QUERY SELECT 1, 'query in the outer block';
        BEGIN
            RETURN QUERY SELECT 2, 'query in the inner block';
            step := 3;
            what := 'next in the inner block';
            RETURN NEXT;
            RAISE EXCEPTION 'inner failure';
        EXCEPTION WHEN raise_exception THEN
            RAISE NOTICE 'inner handler: % (step=% what=%)', SQLERRM, step, what;
        END;
        RAISE EXCEPTION 'outer failure';
    EXCEPTION WHEN raise_exception THEN
        RAISE NOTICE 'outer handler: %', SQLERRM;
    END;
    BEGIN
        RETURN QUERY SELECT 10 + g, 'failing query, row ' || g
            FROM generate_series(1, 5) AS g WHERE 1 / (3 - g) IS NOT NULL;
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'query failed: %', SQLERRM;
    END;
    RETURN QUERY SELECT 99, 'last';
END
$$;
SELECT * FROM sr_exc_query() ORDER BY step;

-- OUT columns assigned in a failed block keep their values
CREATE FUNCTION sr_exc_out() RETURNS TABLE(a integer, b text) LANGUAGE plnimble AS $$
BEGIN
    a := 1;
    b := 'start';
    BEGIN
        a := 2;
        b := 'changed in the block';
        RAISE EXCEPTION 'fail';
    EXCEPTION WHEN OTHERS THEN
        RETURN NEXT;
    END;
END
$$;
SELECT * FROM sr_exc_out();

------------------------------------------------------------------------------
-- 7. set-returning functions in FROM and in the select list
------------------------------------------------------------------------------

-- LATERAL: one call per outer row
SELECT i.id, t.a, t.b
FROM sr_items AS i, LATERAL sr_table(i.id) AS t
WHERE i.id <= 3
ORDER BY i.id, t.a NULLS FIRST;
SELECT i.name, p.*
FROM sr_items AS i
     LEFT JOIN LATERAL sr_dyn('sr_items', i.id + 1, i.id + 1) AS p ON true
WHERE i.id >= 4
ORDER BY i.id, p.id NULLS FIRST;
-- an empty result in a LEFT JOIN LATERAL gives one row of NULLs
SELECT i.id, e.sq
FROM sr_items AS i LEFT JOIN LATERAL sr_table_one(i.id - 3) AS e ON true
WHERE i.id >= 3
ORDER BY i.id, e.sq NULLS FIRST;

-- WITH ORDINALITY and ROWS FROM
SELECT * FROM sr_ints(3) WITH ORDINALITY AS t(v, n) ORDER BY n;
SELECT * FROM sr_table(2) WITH ORDINALITY AS t(a, b, n) ORDER BY n;
SELECT * FROM ROWS FROM (sr_ints(1), sr_names(7)) WITH ORDINALITY AS t(v, name, n) ORDER BY n;

-- in the select list: one row per result row; two functions of different
-- lengths are run side by side, the shorter padded with NULLs
SELECT id, sr_ints(id) AS v FROM sr_items WHERE id <= 2 ORDER BY id, v NULLS LAST;
SELECT sr_ints(1) AS a, sr_table_one(4) AS b ORDER BY b;
SELECT (sr_out_two(id, id)).* FROM sr_items WHERE id <= 2 ORDER BY 1;

-- a set-returning function used by another one and by a FOR loop
CREATE FUNCTION sr_nested() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    RETURN QUERY SELECT 'table ' || coalesce(a::text, '-') || ' ' || coalesce(b, '-') FROM sr_table(2);
    FOR r IN SELECT * FROM sr_setof_out(2) ORDER BY a LOOP
        RETURN NEXT 'loop ' || coalesce(r.a::text, '-') || ' ' || r.b;
    END LOOP;
    RETURN QUERY SELECT 'pair ' || p FROM sr_query_mix() AS p WHERE p.id > 60;
END
$$;
SELECT * FROM sr_nested() AS t ORDER BY t;
