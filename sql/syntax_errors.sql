-- syntax_errors: compile-time errors in function bodies, reported by CREATE
-- FUNCTION with LINE n: and a caret (missing END IF, missing semicolon, bad
-- keyword, unterminated literals, bad SQL in expressions, missing
-- expression, unknown assignment target, EXIT outside a loop, bad labels,
-- duplicate declarations), then the same bodies created with
-- check_function_bodies = off and failing when first called.

-- missing END IF
CREATE FUNCTION se_missing_endif(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF x > 0 THEN
        RETURN 1;
    RETURN 0;
END
$$;

-- missing semicolon between statements
CREATE FUNCTION se_missing_semi() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer;
BEGIN
    a := 1
    RETURN a;
END
$$;

-- missing semicolon after a declaration
CREATE FUNCTION se_missing_semi_decl() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer := 1
    b integer := 2;
BEGIN
    RETURN a + b;
END
$$;

-- misspelt keyword at statement start
CREATE FUNCTION se_bad_keyword() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETRUN 1;
END
$$;

-- misspelt keyword inside IF
CREATE FUNCTION se_bad_then(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF x > 0 THNE
        RETURN 1;
    END IF;
    RETURN 0;
END
$$;

-- unterminated string literal
CREATE FUNCTION se_unterminated_string() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'abc;
END
$$;

-- unterminated dollar-quoted string inside the body
CREATE FUNCTION se_unterminated_dollar() RETURNS text LANGUAGE plnimble AS $outer$
BEGIN
    RETURN $q$abc;
END
$outer$;

-- unterminated block comment
CREATE FUNCTION se_unterminated_comment() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    /* never closed
    RETURN 1;
END
$$;

-- bad SQL inside an expression
CREATE FUNCTION se_bad_expr() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer;
BEGIN
    a := 1 + * 2;
    RETURN a;
END
$$;

-- bad SQL inside an IF condition
CREATE FUNCTION se_bad_condition(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF x >> = 1 THEN
        RETURN 1;
    END IF;
    RETURN 0;
END
$$;

-- bad SQL statement
CREATE FUNCTION se_bad_sql() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO VALUES (1);
END
$$;

-- assignment without an expression is valid syntax (an empty select
-- list) and only fails when executed
CREATE FUNCTION se_empty_assign() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    x := ;
    RETURN x;
END
$$;
SELECT se_empty_assign();

-- IF without a condition
CREATE FUNCTION se_empty_if() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF THEN
        RETURN 1;
    END IF;
    RETURN 0;
END
$$;

-- unknown variable as an assignment target
CREATE FUNCTION se_unknown_target() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    foo := 1;
    RETURN x;
END
$$;

-- a qualified unknown target
CREATE FUNCTION se_unknown_qualified() RETURNS integer LANGUAGE plnimble AS $$
<<blk>>
DECLARE
    x integer;
BEGIN
    blk.y := 1;
    RETURN x;
END
$$;

-- EXIT and CONTINUE outside a loop
CREATE FUNCTION se_exit_outside() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXIT;
END
$$;
CREATE FUNCTION se_continue_outside() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CONTINUE;
END
$$;

-- CONTINUE naming a block that is not a loop
CREATE FUNCTION se_continue_block() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    <<blk>>
    BEGIN
        LOOP
            CONTINUE blk;
        END LOOP;
    END;
END
$$;

-- EXIT naming a label that does not exist
CREATE FUNCTION se_bad_label() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    <<lp>>
    LOOP
        EXIT nosuchlabel;
    END LOOP;
END
$$;

-- mismatched end labels on a block and on a loop
CREATE FUNCTION se_mismatched_block_label() RETURNS void LANGUAGE plnimble AS $$
<<first>>
BEGIN
    NULL;
END second
$$;
CREATE FUNCTION se_mismatched_loop_label() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    <<l1>>
    LOOP
        EXIT;
    END LOOP l2;
END
$$;

-- end label without a start label
CREATE FUNCTION se_end_label_only() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    LOOP
        EXIT;
    END LOOP someloop;
END
$$;

-- duplicate declaration in one block
CREATE FUNCTION se_duplicate_decl() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    v integer;
    v text;
BEGIN
    NULL;
END
$$;

-- missing END at the end of the body
CREATE FUNCTION se_missing_end() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    NULL;
$$;

-- text after the final END
CREATE FUNCTION se_trailing_garbage() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    NULL;
END;
NULL;
$$;

-- ELSE IF instead of ELSIF leaves an unclosed IF
CREATE FUNCTION se_else_if(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF x = 1 THEN
        RETURN 'one';
    ELSE IF x = 2 THEN
        RETURN 'two';
    END IF;
END
$$;

-- FOR loop with a missing LOOP keyword
CREATE FUNCTION se_for_noloop() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..3
        NULL;
    END LOOP;
END
$$;

-- the same kinds of errors with check_function_bodies off: CREATE succeeds
-- and the error is reported on first call, with a compilation CONTEXT
SET check_function_bodies = off;
CREATE FUNCTION se_late_endif(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF x > 0 THEN
        RETURN 1;
    RETURN 0;
END
$$;
CREATE FUNCTION se_late_target() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    foo := 1;
    RETURN 1;
END
$$;
CREATE FUNCTION se_late_expr() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer;
BEGIN
    a := 1 + * 2;
    RETURN a;
END
$$;
CREATE FUNCTION se_late_dup() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    v integer;
    v integer;
BEGIN
    NULL;
END
$$;
CREATE FUNCTION se_late_exit() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXIT;
END
$$;
-- SQL syntax inside expressions is only checked when the statement runs
CREATE FUNCTION se_late_branch(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF x > 0 THEN
        RETURN 'fine';
    END IF;
    RETURN 1 + * 1;
END
$$;
RESET check_function_bodies;
SELECT se_late_branch(1);
SELECT se_late_branch(0);
SELECT se_late_endif(1);
SELECT se_late_target();
SELECT se_late_expr();
SELECT se_late_dup();
SELECT se_late_exit();
-- the error repeats on every call, the function is never half-compiled
SELECT se_late_target();
