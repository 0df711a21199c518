-- exceptions: BEGIN ... EXCEPTION WHEN blocks -- condition names, OR lists,
-- SQLSTATE codes, class codes, OTHERS, the SQLSTATE/SQLERRM variables,
-- nested handlers, errors raised inside handlers, re-raising, rollback of
-- the block's writes, variables keeping values assigned inside the block,
-- RETURN from a protected block, loops with exception blocks, uncaught
-- errors with their CONTEXT lines, unknown condition names, and how an
-- expression that failed runs for the rest of the transaction.

CREATE TABLE e_log (n integer, note text);

-- catching by condition name
CREATE FUNCTION e_div(a integer, b integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN (a / b)::text;
EXCEPTION
    WHEN division_by_zero THEN
        RETURN 'division by zero caught';
END
$$;
SELECT e_div(10, 2), e_div(1, 0);

-- a handler that does not match lets the error through
CREATE FUNCTION e_nomatch() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 1 / 0;
EXCEPTION
    WHEN unique_violation THEN
        RETURN 'wrong handler';
END
$$;
SELECT e_nomatch();

-- several WHEN clauses, OR lists, SQLSTATE codes, class codes
CREATE FUNCTION e_classify(what text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    CASE what
        WHEN 'div' THEN i := 1 / 0;
        WHEN 'int' THEN i := 'abc';
        WHEN 'null' THEN INSERT INTO e_log VALUES (NULL, NULL);
        WHEN 'raise' THEN RAISE EXCEPTION 'plain raise';
        WHEN 'custom' THEN RAISE EXCEPTION 'custom' USING ERRCODE = 'XX123';
        ELSE RAISE SQLSTATE '22P02';
    END CASE;
    RETURN 'no error';
EXCEPTION
    WHEN division_by_zero OR numeric_value_out_of_range THEN
        RETURN 'arithmetic: ' || SQLSTATE;
    WHEN SQLSTATE '22P02' THEN
        RETURN 'invalid text representation: ' || SQLERRM;
    WHEN raise_exception THEN
        RETURN 'raise_exception: ' || SQLERRM;
    WHEN not_null_violation THEN
        RETURN 'not null: ' || SQLSTATE;
    WHEN internal_error THEN
        RETURN 'class XX: ' || SQLSTATE;
END
$$;
ALTER TABLE e_log ALTER COLUMN n SET NOT NULL;
SELECT what, e_classify(what)
FROM (VALUES ('div'), ('int'), ('null'), ('raise'), ('custom'), ('other')) v(what);

-- the first matching handler wins, even if a later one is more specific
CREATE FUNCTION e_order() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    PERFORM 1 / 0;
    RETURN 'none';
EXCEPTION
    WHEN data_exception THEN
        RETURN 'class 22 (data_exception)';
    WHEN division_by_zero THEN
        RETURN 'division_by_zero';
END
$$;
SELECT e_order();

-- OTHERS catches any ordinary error
CREATE FUNCTION e_others() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    PERFORM no_such_function_xyz();
    RETURN 'none';
EXCEPTION
    WHEN OTHERS THEN
        RETURN 'others: ' || SQLSTATE || ' ' || SQLERRM;
END
$$;
SELECT e_others();

-- SQLSTATE and SQLERRM outside a handler are ordinary unknown names
CREATE FUNCTION e_sqlerrm_outside() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN SQLERRM;
END
$$;
SELECT e_sqlerrm_outside();

-- writes made inside the block are rolled back when it catches an error;
-- variables keep the values they were given
CREATE FUNCTION e_rollback() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    progress text := 'start';
BEGIN
    INSERT INTO e_log VALUES (1, 'before block');
    BEGIN
        INSERT INTO e_log VALUES (2, 'inside block');
        progress := 'inserted 2';
        UPDATE e_log SET note = 'changed' WHERE n = 1;
        progress := progress || ', updated 1';
        PERFORM 1 / 0;
        progress := 'not reached';
    EXCEPTION
        WHEN division_by_zero THEN
            progress := progress || ', caught';
    END;
    INSERT INTO e_log VALUES (3, 'after block');
    RETURN progress;
END
$$;
SELECT e_rollback();
SELECT * FROM e_log ORDER BY n;

-- a block that completes normally keeps its writes
CREATE FUNCTION e_no_error() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO e_log VALUES (4, 'kept');
    EXCEPTION
        WHEN OTHERS THEN
            RAISE NOTICE 'not reached';
    END;
END
$$;
SELECT e_no_error();
SELECT * FROM e_log ORDER BY n;
TRUNCATE e_log;

-- nested blocks: inner handler catches, outer continues; inner handler
-- misses and the outer one catches, rolling back both levels
CREATE FUNCTION e_nested(code integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    INSERT INTO e_log VALUES (code, 'outer');
    BEGIN
        INSERT INTO e_log VALUES (code + 1, 'inner');
        IF code = 10 THEN
            RAISE EXCEPTION 'inner problem' USING ERRCODE = 'division_by_zero';
        ELSE
            RAISE EXCEPTION 'inner problem' USING ERRCODE = 'unique_violation';
        END IF;
    EXCEPTION
        WHEN division_by_zero THEN
            r := 'inner caught';
    END;
    RETURN r || ', outer finished';
EXCEPTION
    WHEN unique_violation THEN
        RETURN 'outer caught: ' || SQLERRM;
END
$$;
SELECT e_nested(10);
SELECT e_nested(20);
SELECT * FROM e_log ORDER BY n;
TRUNCATE e_log;

-- an error inside a handler propagates (and is not caught by its own block)
CREATE FUNCTION e_error_in_handler() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    PERFORM 1 / 0;
    RETURN 'none';
EXCEPTION
    WHEN division_by_zero THEN
        RAISE EXCEPTION 'handler failed while handling: %', SQLERRM;
    WHEN raise_exception THEN
        RETURN 'should not catch the handler''s own error';
END
$$;
SELECT e_error_in_handler();

-- ...but an enclosing block does catch it
CREATE FUNCTION e_error_in_handler_outer() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN e_error_in_handler();
EXCEPTION
    WHEN raise_exception THEN
        RETURN 'outer caught: ' || SQLERRM;
END
$$;
SELECT e_error_in_handler_outer();

-- bare RAISE re-throws the current error, keeping its SQLSTATE
CREATE FUNCTION e_reraise() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        PERFORM 1 / 0;
    EXCEPTION
        WHEN OTHERS THEN
            RAISE NOTICE 'inner saw %', SQLSTATE;
            RAISE;
    END;
    RETURN 'none';
EXCEPTION
    WHEN division_by_zero THEN
        RETURN 'outer got ' || SQLSTATE || ': ' || SQLERRM;
END
$$;
SELECT e_reraise();

-- uncaught re-raise shows the original error
CREATE FUNCTION e_reraise_uncaught() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    PERFORM 1 / 0;
EXCEPTION
    WHEN OTHERS THEN
        RAISE;
END
$$;
SELECT e_reraise_uncaught();

-- SQLERRM/SQLSTATE of the innermost active handler, restored afterwards
CREATE FUNCTION e_nested_sqlerrm() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    RAISE EXCEPTION 'first' USING ERRCODE = 'P0011';
EXCEPTION
    WHEN OTHERS THEN
        BEGIN
            RAISE EXCEPTION 'second' USING ERRCODE = 'P0022';
        EXCEPTION
            WHEN OTHERS THEN
                r := SQLSTATE || ' ' || SQLERRM;
        END;
        RETURN r || ' / ' || SQLSTATE || ' ' || SQLERRM;
END
$$;
SELECT e_nested_sqlerrm();

-- loops with an exception block per iteration
CREATE FUNCTION e_loop() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN -2..2 LOOP
        BEGIN
            INSERT INTO e_log VALUES (i, 'ok');
            r := r || (10 / i) || ' ';
        EXCEPTION
            WHEN division_by_zero THEN
                r := r || 'x ';
        END;
    END LOOP;
    RETURN r;
END
$$;
SELECT e_loop();
SELECT n FROM e_log ORDER BY n;
TRUNCATE e_log;

-- EXIT and CONTINUE out of a protected block inside a loop
CREATE FUNCTION e_loop_exit() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..10 LOOP
        BEGIN
            CONTINUE WHEN i % 2 = 0;
            EXIT WHEN i > 6;
            r := r || i;
        EXCEPTION
            WHEN OTHERS THEN
                r := r || '?';
        END;
    END LOOP;
    RETURN r;
END
$$;
SELECT e_loop_exit();

-- uncaught errors: CONTEXT lines through nested calls
CREATE FUNCTION e_level3(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 100 / x;
END
$$;
CREATE FUNCTION e_level2(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    v integer;
BEGIN
    v := e_level3(x - 1);
    RETURN v;
END
$$;
CREATE FUNCTION e_level1(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN e_level2(x) + 1;
END
$$;
SELECT e_level1(5);
SELECT e_level1(1);

-- unknown condition names are rejected when the function is created
CREATE FUNCTION e_unknown_condition() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    NULL;
EXCEPTION
    WHEN no_such_condition THEN
        NULL;
END
$$;

-- malformed SQLSTATE in a handler
CREATE FUNCTION e_bad_sqlstate() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    NULL;
EXCEPTION
    WHEN SQLSTATE 'abc' THEN
        NULL;
END
$$;

-- an expression whose evaluation failed (the error caught) runs through
-- SPI for the rest of the transaction under PL/pgSQL, which shows: its
-- errors and notices get the CONTEXT line "SQL expression" or "PL/pgSQL
-- assignment", and it sets ROW_COUNT to 1; in the next transaction it is
-- fast again.  Also for a recursive call evaluating an expression its
-- caller is evaluating.
CREATE FUNCTION e_check(n bigint) RETURNS text LANGUAGE plnimble IMMUTABLE AS $$
BEGIN
    RETURN n::text || '-' || (n % 7)::text;
END
$$;
CREATE FUNCTION e_valid(p text) RETURNS boolean LANGUAGE plnimble IMMUTABLE AS $$
BEGIN
    RETURN e_check(split_part(p, '-', 1)::bigint) = p;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END
$$;
CREATE FUNCTION e_failed_expr(VARIADIC s text[]) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x integer;
    acc text := '';
BEGIN
    FOR i IN 1..array_length(s, 1) LOOP
        BEGIN
            PERFORM g FROM generate_series(1, 3) g;
            x := s[i]::integer;
            GET DIAGNOSTICS n = ROW_COUNT;
            acc := acc || ' ' || x || '/' || n;
        EXCEPTION WHEN invalid_text_representation THEN
            acc := acc || ' bad';
        END;
    END LOOP;
    RETURN acc;
END
$$;
CREATE FUNCTION e_failed_rec(k integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x text;
BEGIN
    IF k = 0 THEN
        RAISE NOTICE 'depth 0';
        RETURN 'end';
    END IF;
    PERFORM g FROM generate_series(1, 3) g;
    x := e_failed_rec(k - 1);
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN x || ' ' || n;
END
$$;
BEGIN;
SELECT p, e_valid(p) FROM (VALUES ('10-3'), ('abc-1'), ('10-2')) v(p);
SELECT e_valid('99999999999999999999-1');
ROLLBACK;
SELECT e_valid('99999999999999999999-1');
BEGIN;
SELECT e_failed_expr('1', 'x', '2', '3');
SELECT e_failed_expr('4', '99999999999');
COMMIT;
SELECT e_failed_expr('5', '6');
SELECT e_failed_expr('7', '99999999999');
\set SHOW_CONTEXT always
SELECT e_failed_rec(2);
\set SHOW_CONTEXT errors
