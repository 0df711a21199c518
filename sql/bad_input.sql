-- bad_input: misuses of PL/pgSQL that the other scripts do not exercise,
-- each a small CREATE FUNCTION / CREATE PROCEDURE, DO block or CALL that
-- fails on its own, with a one-line comment naming the misuse: ASSERT
-- failures; FOREACH, FOR-over-query and integer FOR targets and bounds;
-- RETURN / RETURN NEXT / RETURN QUERY misuse; INTO or USING twice,
-- expressions with two columns or several rows; declarations (bad
-- collation, %TYPE / %ROWTYPE / ALIAS misuse, pseudo-types, bad defaults,
-- jsonb / range / bit / array assignment errors); cursors (SQL-only
-- syntax, SCROLL with FOR UPDATE, WHERE CURRENT OF); CALL of a function,
-- PERFORM of a procedure, writes in STABLE / IMMUTABLE functions, INOUT
-- arguments that are not writable; commands refused inside functions;
-- trigger functions; what a failed exception block takes with it (cursors,
-- temporary tables); run-time errors in the expressions of particular
-- statements; compile-time syntax errors in every kind of statement; and
-- error positions after multibyte characters and tabs.

CREATE TABLE bi_t (id integer PRIMARY KEY, v text);
INSERT INTO bi_t VALUES (1, 'one'), (2, 'two');
CREATE TYPE bi_color AS ENUM ('red', 'green');
CREATE TYPE bi_pair AS (a integer, b text);

------------------------------------------------------------------------------
-- 1. ASSERT
------------------------------------------------------------------------------

-- ASSERT with a failing condition and a message
CREATE FUNCTION bi_assert_msg(n integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    ASSERT n > 0, 'n must be positive, got ' || n;
    RETURN n;
END
$$;
SELECT bi_assert_msg(-3);

-- ASSERT with a failing condition and no message
DO $$
DECLARE
    k integer := 2;
BEGIN
    ASSERT k = 3;
END
$$;

-- ASSERT whose condition is NULL counts as a failure
DO $$
DECLARE
    k integer;
BEGIN
    ASSERT k > 0, 'k is ' || coalesce(k::text, 'null');
END
$$;

-- ASSERT whose message evaluates to NULL
DO $$
BEGIN
    ASSERT false, NULL;
END
$$;

-- ASSERT with a non-boolean condition
DO $$
BEGIN
    ASSERT 'maybe';
END
$$;

------------------------------------------------------------------------------
-- 2. loops: FOREACH, FOR over queries, integer FOR
------------------------------------------------------------------------------

-- FOREACH ... SLICE with a scalar loop variable
CREATE FUNCTION bi_foreach_slice_scalar() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    FOREACH x SLICE 1 IN ARRAY ARRAY[[1, 2], [3, 4]] LOOP
        RAISE NOTICE '%', x;
    END LOOP;
END
$$;
SELECT bi_foreach_slice_scalar();

-- FOREACH without SLICE into an array variable
CREATE FUNCTION bi_foreach_array_var() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a integer[];
BEGIN
    FOREACH a IN ARRAY ARRAY[1, 2] LOOP
        RAISE NOTICE '%', a;
    END LOOP;
END
$$;
SELECT bi_foreach_array_var();

-- FOREACH of scalars into a record variable
DO $$
DECLARE
    r record;
BEGIN
    FOREACH r IN ARRAY ARRAY[1, 2] LOOP
        RAISE NOTICE '%', r;
    END LOOP;
END
$$;

-- FOREACH of text elements into an integer variable
DO $$
DECLARE
    i integer;
BEGIN
    FOREACH i IN ARRAY ARRAY['1', 'two'] LOOP
        RAISE NOTICE 'i=%', i;
    END LOOP;
END
$$;

-- FOREACH into a CONSTANT
CREATE FUNCTION bi_foreach_const() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CONSTANT integer := 0;
BEGIN
    FOREACH c IN ARRAY ARRAY[1, 2] LOOP
        NULL;
    END LOOP;
END
$$;

-- FOR over a query with an undeclared loop variable
CREATE FUNCTION bi_for_undeclared() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR nosuch IN SELECT id FROM bi_t LOOP
        NULL;
    END LOOP;
END
$$;

-- FOR over a query into a CONSTANT
CREATE FUNCTION bi_for_const() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CONSTANT integer := 0;
BEGIN
    FOR c IN SELECT id FROM bi_t LOOP
        NULL;
    END LOOP;
END
$$;

-- FOR ... IN EXECUTE over a utility command
CREATE FUNCTION bi_for_exec_ddl() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN EXECUTE 'CREATE TEMP TABLE bi_never2 (x integer)' LOOP
        NULL;
    END LOOP;
END
$$;
SELECT bi_for_exec_ddl();

-- FOR over a static INSERT without RETURNING
CREATE FUNCTION bi_for_insert() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN INSERT INTO bi_t VALUES (11, 'eleven') LOOP
        NULL;
    END LOOP;
END
$$;
SELECT bi_for_insert();

-- a set-returning function as a WHILE condition
DO $$
BEGIN
    WHILE generate_series(1, 2) > 0 LOOP
        EXIT;
    END LOOP;
END
$$;

-- a FOR loop step that overflows integer
DO $$
BEGIN
    FOR i IN 1..10 BY 3000000000 LOOP
        NULL;
    END LOOP;
END
$$;

-- a FOR loop bound that is not a number
DO $$
BEGIN
    FOR i IN 1..'ten' LOOP
        NULL;
    END LOOP;
END
$$;

-- a FOR loop bound too large for integer
DO $$
BEGIN
    FOR i IN 1..99999999999 LOOP
        NULL;
    END LOOP;
END
$$;

------------------------------------------------------------------------------
-- 3. RETURN, RETURN NEXT, RETURN QUERY
------------------------------------------------------------------------------

-- RETURN NEXT without an expression in a plain SETOF function
CREATE FUNCTION bi_return_next_empty() RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT;
END
$$;

-- RETURN QUERY without a query
CREATE FUNCTION bi_return_query_empty() RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY;
END
$$;

-- RETURN QUERY of a statement that returns no rows at all (no RETURNING)
CREATE FUNCTION bi_return_query_insert() RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY INSERT INTO bi_t VALUES (10, 'ten');
END
$$;
SELECT * FROM bi_return_query_insert();

-- RETURN QUERY EXECUTE of a utility command
CREATE FUNCTION bi_return_query_exec_ddl() RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE 'CREATE TEMP TABLE bi_never (x integer)';
END
$$;
SELECT * FROM bi_return_query_exec_ddl();

-- RETURN NEXT of a value that does not convert to the result type
CREATE FUNCTION bi_return_next_bad() RETURNS SETOF date LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT '2024-01-01';
    RETURN NEXT 'next tuesday';
END
$$;
SELECT * FROM bi_return_next_bad();

-- RETURN of two columns from a scalar function
CREATE FUNCTION bi_return_two() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN 1, 2;
END
$$;
SELECT bi_return_two();

-- RETURN NEXT of a scalar in a SETOF record function
CREATE FUNCTION bi_setof_record_scalar() RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT 1;
END
$$;
SELECT * FROM bi_setof_record_scalar() AS t(x integer);

-- RETURN NEXT of an unassigned record
CREATE FUNCTION bi_next_unassigned() RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    RETURN NEXT r;
END
$$;
SELECT * FROM bi_next_unassigned() AS t(x integer);

-- a text value returned from an integer function
CREATE FUNCTION bi_return_text_as_int() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    t text := 'forty-two';
BEGIN
    RETURN t;
END
$$;
SELECT bi_return_text_as_int();

------------------------------------------------------------------------------
-- 4. INTO, EXECUTE, PERFORM, expressions of the wrong shape
------------------------------------------------------------------------------

-- SELECT with INTO given twice
CREATE FUNCTION bi_into_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a integer;
    b integer;
BEGIN
    SELECT 1 INTO a INTO b;
END
$$;

-- EXECUTE with INTO given twice
CREATE FUNCTION bi_exec_into_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a integer;
    b integer;
BEGIN
    EXECUTE 'SELECT 1' INTO a INTO b;
END
$$;

-- EXECUTE with USING given twice
CREATE FUNCTION bi_exec_using_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    a integer;
BEGIN
    EXECUTE 'SELECT $1' INTO a USING 1 USING 2;
END
$$;

-- an IF condition with two columns
DO $$
BEGIN
    IF true, false THEN
        RAISE NOTICE 'not reached';
    END IF;
END
$$;

-- a set-returning function assigned to a scalar variable
DO $$
DECLARE
    n integer;
BEGIN
    n := generate_series(1, 3);
END
$$;

-- SQL-level EXECUTE of a prepared statement (PL/pgSQL's EXECUTE wants a string)
DO $$
BEGIN
    EXECUTE bi_prepared(1);
END
$$;

-- PERFORM of a SELECT ... INTO
CREATE FUNCTION bi_perform_into() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    PERFORM 1 INTO x;
END
$$;
SELECT bi_perform_into();

-- a query returning two columns assigned to a record field
DO $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS a INTO r;
    r.a := (SELECT 1, 2);
END
$$;

-- VARIADIC with a non-array argument
DO $$
BEGIN
    RAISE NOTICE '%', format('%s', VARIADIC 1);
END
$$;

-- STRICT on a DELETE ... RETURNING that deletes nothing
CREATE FUNCTION bi_strict_delete() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    DELETE FROM bi_t WHERE id < 0 RETURNING id INTO STRICT x;
    RETURN x;
END
$$;
SELECT bi_strict_delete();

------------------------------------------------------------------------------
-- 5. declarations and assignments
------------------------------------------------------------------------------

-- a scalar assigned to a record variable
DO $$
DECLARE
    r record;
BEGIN
    r := 42;
END
$$;

-- a scalar as the default of a composite variable
DO $$
DECLARE
    p bi_pair := 7;
BEGIN
    RAISE NOTICE '%', p;
END
$$;

-- a malformed array literal as a default
DO $$
DECLARE
    a integer[] := '{1,2';
BEGIN
    RAISE NOTICE '%', a;
END
$$;

-- sub-arrays of different lengths in an array constructor
DO $$
DECLARE
    a integer[];
BEGIN
    a := ARRAY[ARRAY[1, 2], ARRAY[3]];
END
$$;

-- a declaration with a collation that does not exist
CREATE FUNCTION bi_bad_collation() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    t text COLLATE "no_such_collation";
BEGIN
    NULL;
END
$$;

-- an enum variable given a value that is not a label
DO $$
DECLARE
    c bi_color := 'purple';
BEGIN
    RAISE NOTICE '%', c;
END
$$;

-- a default referring to a variable declared later in the same block
DO $$
DECLARE
    a integer := b + 1;
    b integer := 1;
BEGIN
    RAISE NOTICE '%', a;
END
$$;

-- %TYPE of a name that is not a variable
CREATE FUNCTION bi_pct_type_unknown() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x nosuchvar%TYPE;
BEGIN
    NULL;
END
$$;

-- %ROWTYPE of a scalar type
CREATE FUNCTION bi_rowtype_scalar() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer%ROWTYPE;
BEGIN
    NULL;
END
$$;

-- a variable of the pseudo-type void
CREATE FUNCTION bi_void_var() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    v void;
BEGIN
    NULL;
END
$$;

-- ALIAS for a parameter number that does not exist
CREATE FUNCTION bi_alias_bad(integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    second ALIAS FOR $2;
BEGIN
    RETURN second;
END
$$;

-- a field read from a record variable that was set to NULL
DO $$
DECLARE
    r record;
BEGIN
    r := NULL;
    RAISE NOTICE '%', r.a;
END
$$;

-- jsonb subscript assignment below a scalar
DO $$
DECLARE
    j jsonb := '{"a": 1}';
BEGIN
    j['a']['b'] := '2';
    RAISE NOTICE '%', j;
END
$$;

-- jsonb array subscript assignment with a text subscript
DO $$
DECLARE
    j jsonb := '[1, 2]';
BEGIN
    j['x'] := '3';
    RAISE NOTICE '%', j;
END
$$;

-- a range literal with its bounds the wrong way round
DO $$
DECLARE
    r int4range := '[5,1]';
BEGIN
    RAISE NOTICE '%', r;
END
$$;

-- a bit string of the wrong length
DO $$
DECLARE
    b bit(3);
BEGIN
    b := B'1010';
END
$$;

-- an array element beyond the maximum array size
DO $$
DECLARE
    a integer[] := ARRAY[1];
BEGIN
    a[200000000] := 2;
END
$$;

-- a polymorphic function whose %TYPE variable gets an incompatible default
CREATE FUNCTION bi_poly_default(v anyelement) RETURNS anyelement LANGUAGE plpgsql AS $$
DECLARE
    w v%TYPE := 1;
BEGIN
    RETURN w;
END
$$;
SELECT bi_poly_default(current_date);

------------------------------------------------------------------------------
-- 6. cursors
------------------------------------------------------------------------------

-- FETCH without INTO
CREATE FUNCTION bi_fetch_no_into() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t;
BEGIN
    OPEN c;
    FETCH c;
END
$$;

-- CLOSE ALL (SQL syntax, not PL/pgSQL)
CREATE FUNCTION bi_close_all() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    CLOSE ALL;
END
$$;

-- MOVE with INTO
CREATE FUNCTION bi_move_into() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t;
    x integer;
BEGIN
    OPEN c;
    MOVE c INTO x;
END
$$;

-- a bound cursor's query that is not a SELECT, opened
CREATE FUNCTION bi_open_ddl_cursor() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR CREATE TEMP TABLE bi_never4 (x integer);
BEGIN
    OPEN c;
END
$$;
SELECT bi_open_ddl_cursor();

-- OPEN of a bound cursor with an argument of the wrong type
CREATE FUNCTION bi_cursor_arg_type() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR (k integer) FOR SELECT v FROM bi_t WHERE id = k;
BEGIN
    OPEN c('first');
END
$$;
SELECT bi_cursor_arg_type();

-- a refcursor variable closed twice
CREATE FUNCTION bi_close_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c refcursor := 'bi_closed_twice';
BEGIN
    OPEN c FOR SELECT 1;
    CLOSE c;
    CLOSE c;
END
$$;
SELECT bi_close_twice();

-- a SCROLL cursor over a query with FOR UPDATE
CREATE FUNCTION bi_scroll_for_update() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c SCROLL CURSOR FOR SELECT id FROM bi_t FOR UPDATE;
BEGIN
    OPEN c;
END
$$;
SELECT bi_scroll_for_update();

-- WHERE CURRENT OF a refcursor variable that is NULL
CREATE FUNCTION bi_current_of_null() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c refcursor;
BEGIN
    UPDATE bi_t SET v = v WHERE CURRENT OF c;
END
$$;
SELECT bi_current_of_null();

-- WHERE CURRENT OF a cursor that was never opened
CREATE FUNCTION bi_current_of_closed() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t;
BEGIN
    DELETE FROM bi_t WHERE CURRENT OF c;
END
$$;
SELECT bi_current_of_closed();

-- FETCH FORWARD with a negative count (more than one row)
CREATE FUNCTION bi_fetch_negative() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t ORDER BY id;
    x integer;
BEGIN
    OPEN c;
    FETCH FORWARD -1 FROM c INTO x;
    RETURN x;
END
$$;

-- OPEN of a cursor whose query refers to a parameter that was not declared
CREATE FUNCTION bi_cursor_undeclared_param() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR (a integer) FOR SELECT id FROM bi_t WHERE id = b;
BEGIN
    OPEN c(1);
END
$$;
SELECT bi_cursor_undeclared_param();

------------------------------------------------------------------------------
-- 7. functions, procedures and CALL
------------------------------------------------------------------------------

-- CALL of a function
CREATE FUNCTION bi_plain_func() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN 1;
END
$$;
DO $$
BEGIN
    CALL bi_plain_func();
END
$$;

-- PERFORM of a procedure
CREATE PROCEDURE bi_plain_proc() LANGUAGE plpgsql AS $$
BEGIN
    NULL;
END
$$;
DO $$
BEGIN
    PERFORM bi_plain_proc();
END
$$;

-- INSERT in a STABLE function
CREATE FUNCTION bi_stable_insert() RETURNS integer STABLE LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bi_t VALUES (20, 'twenty');
    RETURN 1;
END
$$;
SELECT bi_stable_insert();

-- SELECT ... FOR UPDATE in a STABLE function
CREATE FUNCTION bi_stable_for_update() RETURNS text STABLE LANGUAGE plpgsql AS $$
DECLARE
    s text;
BEGIN
    SELECT v INTO s FROM bi_t WHERE id = 1 FOR UPDATE;
    RETURN s;
END
$$;
SELECT bi_stable_for_update();

-- dynamic DDL in an IMMUTABLE function
CREATE FUNCTION bi_immutable_ddl() RETURNS integer IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'CREATE TEMP TABLE bi_never3 (x integer)';
    RETURN 1;
END
$$;
SELECT bi_immutable_ddl();

-- a function returning the pseudo-type cstring
CREATE FUNCTION bi_returns_cstring() RETURNS cstring LANGUAGE plpgsql AS $$
BEGIN
    RETURN 'x';
END
$$;

-- a function taking the pseudo-type cstring
CREATE FUNCTION bi_takes_cstring(c cstring) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN 1;
END
$$;

-- a CALL with a procedure argument of the wrong type
CREATE PROCEDURE bi_proc_int(a integer) LANGUAGE plpgsql AS $$
BEGIN
    RAISE NOTICE 'a=%', a;
END
$$;
DO $$
BEGIN
    CALL bi_proc_int('abc');
END
$$;

-- an INOUT argument given a value that does not fit the parameter type
CREATE PROCEDURE bi_proc_inout(INOUT a smallint) LANGUAGE plpgsql AS $$
BEGIN
    a := a * 1000;
END
$$;
DO $$
DECLARE
    s smallint := 100;
BEGIN
    CALL bi_proc_inout(s);
END
$$;

-- an INOUT output written back to a variable of an incompatible type
CREATE PROCEDURE bi_proc_text(INOUT t text) LANGUAGE plpgsql AS $$
BEGIN
    t := 'not a number';
END
$$;
DO $$
DECLARE
    n integer := 5;
BEGIN
    CALL bi_proc_text(n);
END
$$;

-- CALL writing an INOUT result into a field of an unassigned record
CREATE PROCEDURE bi_proc_double(INOUT x integer) LANGUAGE plpgsql AS $$
BEGIN
    x := x * 2;
END
$$;
DO $$
DECLARE
    r record;
BEGIN
    CALL bi_proc_double(r.a);
END
$$;

-- CALL writing an INOUT result into an array element
DO $$
DECLARE
    a integer[] := ARRAY[1, 2];
BEGIN
    CALL bi_proc_double(a[1]);
END
$$;

-- CALL passing a constant by name to an INOUT parameter
DO $$
BEGIN
    CALL bi_proc_double(x => 21);
END
$$;

------------------------------------------------------------------------------
-- 8. commands that cannot run inside PL/pgSQL code
------------------------------------------------------------------------------

-- VACUUM inside a DO block
DO $$
BEGIN
    VACUUM bi_t;
END
$$;

-- CREATE INDEX CONCURRENTLY inside a procedure
CREATE PROCEDURE bi_index_concurrently() LANGUAGE plpgsql AS $$
BEGIN
    CREATE INDEX CONCURRENTLY bi_t_v_idx ON bi_t (v);
END
$$;
CALL bi_index_concurrently();

-- ROLLBACK TO SAVEPOINT in a procedure
CREATE PROCEDURE bi_rollback_to() LANGUAGE plpgsql AS $$
BEGIN
    ROLLBACK TO SAVEPOINT sp;
END
$$;

-- RELEASE SAVEPOINT in a DO block
DO $$
BEGIN
    RELEASE SAVEPOINT sp;
END
$$;

-- PREPARE TRANSACTION in a DO block
DO $$
BEGIN
    PREPARE TRANSACTION 'bi_gid';
END
$$;

-- a set-returning function in UPDATE ... SET
DO $$
BEGIN
    UPDATE bi_t SET id = generate_series(1, 2);
END
$$;

------------------------------------------------------------------------------
-- 9. triggers
------------------------------------------------------------------------------

-- a row trigger reading a TG_ARGV element it was not given, as an integer
CREATE FUNCTION bi_trg_argv_int() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.id := NEW.id + TG_ARGV[0]::integer;
    RETURN NEW;
END
$$;
CREATE TABLE bi_trg_t (id integer);
CREATE TRIGGER bi_trg BEFORE INSERT ON bi_trg_t
    FOR EACH ROW EXECUTE FUNCTION bi_trg_argv_int('ten');
INSERT INTO bi_trg_t VALUES (1);

-- a trigger function returning a scalar
CREATE FUNCTION bi_trg_scalar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE TABLE bi_trg_t2 (id integer);
CREATE TRIGGER bi_trg2 BEFORE INSERT ON bi_trg_t2
    FOR EACH ROW EXECUTE FUNCTION bi_trg_scalar();
INSERT INTO bi_trg_t2 VALUES (1);

-- an event trigger function called directly
CREATE FUNCTION bi_evt() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
    NULL;
END
$$;
SELECT bi_evt();

------------------------------------------------------------------------------
-- 10. exception handlers and blocks
------------------------------------------------------------------------------

-- SQLSTATE outside an exception handler
CREATE FUNCTION bi_sqlstate_outside() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN SQLSTATE;
END
$$;
SELECT bi_sqlstate_outside();

-- GET DIAGNOSTICS into a variable of a type that cannot hold the value
DO $$
DECLARE
    d date;
BEGIN
    PERFORM 1;
    GET DIAGNOSTICS d = ROW_COUNT;
END
$$;

-- an error inside the exception handler itself
DO $$
BEGIN
    PERFORM 1 / 0;
EXCEPTION
    WHEN division_by_zero THEN
        PERFORM 'x'::integer;
END
$$;

-- an error raised in a handler is not caught by the same handler
DO $$
BEGIN
    BEGIN
        RAISE EXCEPTION 'first' USING ERRCODE = 'P0001';
    EXCEPTION
        WHEN raise_exception THEN
            RAISE EXCEPTION 'second from the handler' USING ERRCODE = 'P0001';
    END;
END
$$;

-- FETCH in a handler from a cursor opened in the block that failed
CREATE FUNCTION bi_cursor_after_rollback() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t ORDER BY id;
    x integer;
BEGIN
    BEGIN
        OPEN c;
        PERFORM 1 / 0;
    EXCEPTION WHEN division_by_zero THEN
        FETCH c INTO x;
    END;
    RETURN x;
END
$$;
SELECT bi_cursor_after_rollback();

-- a temporary table created in a failed block, used in its handler
CREATE FUNCTION bi_temp_after_rollback() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        CREATE TEMP TABLE bi_tmp (x integer);
        INSERT INTO bi_tmp VALUES (1);
        PERFORM 1 / 0;
    EXCEPTION WHEN division_by_zero THEN
        RETURN (SELECT count(*) FROM bi_tmp);
    END;
END
$$;
SELECT bi_temp_after_rollback();

-- a refcursor opened in a failed block and returned to the caller
CREATE FUNCTION bi_refcursor_after_rollback() RETURNS refcursor LANGUAGE plpgsql AS $$
DECLARE
    c refcursor := 'bi_lost_cursor';
BEGIN
    BEGIN
        OPEN c FOR SELECT id FROM bi_t;
        RAISE EXCEPTION 'fail after OPEN';
    EXCEPTION WHEN raise_exception THEN
        NULL;
    END;
    RETURN c;
END
$$;
BEGIN;
SELECT bi_refcursor_after_rollback();
FETCH ALL FROM bi_lost_cursor;
ROLLBACK;

------------------------------------------------------------------------------
-- 11. run-time errors in the expressions of particular statements
------------------------------------------------------------------------------

-- an error in a cursor argument expression at OPEN
CREATE FUNCTION bi_open_arg_error(d integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR (k integer) FOR SELECT id FROM bi_t WHERE id = k;
BEGIN
    OPEN c(10 / d);
END
$$;
SELECT bi_open_arg_error(0);

-- an error in a FOREACH array expression
CREATE FUNCTION bi_foreach_expr_error() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    FOREACH x IN ARRAY string_to_array('1,2', ',')::integer[] || ARRAY['z'::integer] LOOP
        NULL;
    END LOOP;
END
$$;
SELECT bi_foreach_expr_error();

-- an error in a CASE selector
CREATE FUNCTION bi_case_selector_error(d integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    CASE 10 / d
        WHEN 1 THEN RETURN 'one';
        ELSE RETURN 'other';
    END CASE;
END
$$;
SELECT bi_case_selector_error(0);

-- an error in an EXIT WHEN condition
CREATE FUNCTION bi_exit_when_error(d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    LOOP
        EXIT WHEN 10 / d > 0;
    END LOOP;
END
$$;
SELECT bi_exit_when_error(0);

-- an error in a RAISE USING option
CREATE FUNCTION bi_raise_option_error(d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'main' USING DETAIL = (10 / d)::text;
END
$$;
SELECT bi_raise_option_error(0);

-- an error in the message of a failing ASSERT
CREATE FUNCTION bi_assert_msg_error(d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    ASSERT d <> 0, 'ratio ' || 10 / d;
END
$$;
SELECT bi_assert_msg_error(0);

-- an error in the default of a nested block's declaration
CREATE FUNCTION bi_nested_default_error() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    outer_v integer := 1;
BEGIN
    outer_v := outer_v + 1;
    DECLARE
        inner_v date := 'the ' || outer_v || 'nd of never';
    BEGIN
        NULL;
    END;
END
$$;
SELECT bi_nested_default_error();

-- a NOT NULL variable in a nested block left NULL by its default
CREATE FUNCTION bi_nested_notnull() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    src integer;
BEGIN
    DECLARE
        n integer NOT NULL := src;
    BEGIN
        NULL;
    END;
END
$$;
SELECT bi_nested_notnull();

-- an error in the default of a declaration inside an exception block
CREATE FUNCTION bi_default_in_handler_block() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    DECLARE
        n integer := 'NaN';
    BEGIN
        RETURN 'not reached';
    EXCEPTION WHEN invalid_text_representation THEN
        RETURN 'caught in the same block';
    END;
END
$$;
SELECT bi_default_in_handler_block();

------------------------------------------------------------------------------
-- 12. compile-time syntax errors
------------------------------------------------------------------------------

-- an unknown #option
CREATE FUNCTION bi_bad_option() RETURNS void LANGUAGE plpgsql AS $$
#no_such_option on
BEGIN
    NULL;
END
$$;

-- #print_strict_params with a value that is not on/off
CREATE FUNCTION bi_bad_strict_option() RETURNS void LANGUAGE plpgsql AS $$
#print_strict_params maybe
BEGIN
    NULL;
END
$$;

-- a label in front of a plain statement
CREATE FUNCTION bi_label_on_stmt() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    <<lbl>>
    NULL;
END
$$;

-- an empty function body
CREATE FUNCTION bi_empty_body() RETURNS integer LANGUAGE plpgsql AS $$$$;

-- a body with only a declaration section and no BEGIN
CREATE FUNCTION bi_no_begin() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    x integer := 1;
$$;

-- a syntax error on the second line of a multi-line query in a FOR loop
CREATE FUNCTION bi_syntax_for_query() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT id, v
             FROM bi_t WHERE id IN (1, 2 LOOP
        NULL;
    END LOOP;
END
$$;

-- a syntax error in a USING expression
CREATE FUNCTION bi_syntax_using() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT $1' USING 1 +;
END
$$;

-- a syntax error in a bound cursor's query
CREATE FUNCTION bi_syntax_cursor_query() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR FOR SELECT id FROM bi_t WHERE;
BEGIN
    OPEN c;
END
$$;

-- a syntax error in a DECLARE default
CREATE FUNCTION bi_syntax_default() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer := (1 + ;
BEGIN
    NULL;
END
$$;

-- a syntax error in a RAISE argument
CREATE FUNCTION bi_syntax_raise_arg() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE NOTICE 'value %', 1 2;
END
$$;

-- a syntax error in a CASE WHEN expression
CREATE FUNCTION bi_syntax_case_when(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    CASE
        WHEN x > THEN RETURN 'big';
        ELSE RETURN 'small';
    END CASE;
END
$$;

-- a syntax error in RETURN QUERY
CREATE FUNCTION bi_syntax_return_query() RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY SELECT id FROM bi_t ORDER id;
END
$$;

-- a syntax error in an ASSERT message
CREATE FUNCTION bi_syntax_assert_msg() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    ASSERT true, 'a' ||;
END
$$;

-- a syntax error in a FOREACH array expression
CREATE FUNCTION bi_syntax_foreach() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    FOREACH x IN ARRAY ARRAY[1, 2 LOOP
        NULL;
    END LOOP;
END
$$;

-- a syntax error in an EXIT WHEN condition
CREATE FUNCTION bi_syntax_exit_when() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    LOOP
        EXIT WHEN = 1;
    END LOOP;
END
$$;

-- a syntax error in a FOR loop BY expression
CREATE FUNCTION bi_syntax_for_by() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..10 BY * 2 LOOP
        NULL;
    END LOOP;
END
$$;

-- a syntax error in a cursor argument at OPEN
CREATE FUNCTION bi_syntax_open_arg() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR (k integer) FOR SELECT id FROM bi_t WHERE id = k;
BEGIN
    OPEN c(1 +);
END
$$;

-- ELSIF after ELSE
CREATE FUNCTION bi_elsif_after_else(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    IF x = 1 THEN
        RETURN 'one';
    ELSE
        RETURN 'other';
    ELSIF x = 2 THEN
        RETURN 'two';
    END IF;
END
$$;

-- a CASE statement without any WHEN
CREATE FUNCTION bi_case_no_when(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    CASE x
        ELSE RETURN 'else';
    END CASE;
END
$$;

-- a handler without THEN
CREATE FUNCTION bi_handler_no_then() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    NULL;
EXCEPTION
    WHEN division_by_zero
        NULL;
END
$$;

-- EXCEPTION with no handler
CREATE FUNCTION bi_exception_empty() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    NULL;
EXCEPTION
END
$$;

-- WHILE without LOOP
CREATE FUNCTION bi_while_no_loop() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    WHILE false
        NULL;
    END LOOP;
END
$$;

-- CASE closed with END instead of END CASE
CREATE FUNCTION bi_case_plain_end(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    CASE x
        WHEN 1 THEN RETURN 'one';
    END;
    RETURN 'other';
END
$$;

-- two ELSE branches in one IF
CREATE FUNCTION bi_two_else(x integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    IF x = 1 THEN
        RETURN 'one';
    ELSE
        RETURN 'two';
    ELSE
        RETURN 'three';
    END IF;
END
$$;

-- a cursor declared with an empty argument list
CREATE FUNCTION bi_cursor_empty_args() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    c CURSOR () FOR SELECT 1;
BEGIN
    NULL;
END
$$;

-- two labels on one block
CREATE FUNCTION bi_two_labels() RETURNS void LANGUAGE plpgsql AS $$
<<a>>
<<b>>
BEGIN
    NULL;
END
$$;

-- GOTO, which PL/pgSQL does not have
CREATE FUNCTION bi_goto() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    GOTO somewhere;
END
$$;

-- a FOR loop closed with END FOR
CREATE FUNCTION bi_end_for() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..3 LOOP
        NULL;
    END FOR;
END
$$;

-- EXECUTE without a query string
CREATE FUNCTION bi_execute_empty() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE;
END
$$;

-- an integer FOR range written with TO
CREATE FUNCTION bi_for_to() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 TO 3 LOOP
        NULL;
    END LOOP;
END
$$;

-- a declaration with DEFAULT and no value
CREATE FUNCTION bi_default_empty() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    x integer DEFAULT;
BEGIN
    NULL;
END
$$;

-- an IF closed with a plain END
CREATE FUNCTION bi_if_plain_end(x integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
    IF x > 0 THEN
        RETURN 1;
    END;
    RETURN 0;
END
$$;

------------------------------------------------------------------------------
-- 13. error positions: multibyte characters, tabs, several lines
------------------------------------------------------------------------------

-- a syntax error after multibyte characters on the same line
CREATE FUNCTION bi_multibyte_syntax() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    t text;
BEGIN
    t := 'déjà vu, ünïcödé' || ;
    RETURN t;
END
$$;

-- a syntax error after a tab on the same line
CREATE FUNCTION bi_tab_syntax() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
	RETURN	1 +	* 2;
END
$$;

-- an unknown column on the second line of a multi-line expression
CREATE FUNCTION bi_multiline_unknown() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    x integer;
BEGIN
    x := 1 +
         no_such_column;
    RETURN x;
END
$$;
SELECT bi_multiline_unknown();

-- an unknown column after multibyte characters in a query
CREATE FUNCTION bi_multibyte_unknown() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    t text;
BEGIN
    SELECT 'Größe: ' || größe INTO t FROM bi_t;
    RETURN t;
END
$$;
SELECT bi_multibyte_unknown();

-- the functions and procedures that were created (every other CREATE failed)
SELECT proname FROM pg_proc WHERE proname LIKE 'bi\_%' ORDER BY 1;
