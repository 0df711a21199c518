-- basics: creating and calling functions and DO blocks; RETURNS void and
-- scalar return types; parameters referenced by name and by $n; the NULL;
-- statement; STRICT functions; comments inside function bodies.

-- simplest possible function returning a constant
CREATE FUNCTION b_const() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 42;
END
$$;
SELECT b_const();

-- trailing semicolon after END is accepted, keywords are case-insensitive
CREATE FUNCTION b_upper() RETURNS text LANGUAGE plnimble AS $$
begin
    Return 'mixed case';
eNd;
$$;
SELECT b_upper();

-- RETURNS void with an empty RETURN and with no RETURN at all
CREATE FUNCTION b_void1() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RETURN;
END
$$;
CREATE FUNCTION b_void2() RETURNS void LANGUAGE plnimble AS $$
BEGIN
END
$$;
SELECT b_void1(), b_void2();
SELECT b_void1() IS NULL AS void_is_null;

-- falling off the end of a non-void function is an error
CREATE FUNCTION b_noreturn() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    PERFORM 1;
END
$$;
SELECT b_noreturn();

-- RETURN with an expression in a void function is rejected at creation
CREATE FUNCTION b_void_bad() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;

-- RETURN without an expression in a non-void function is rejected too
CREATE FUNCTION b_ret_missing() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN;
END
$$;

-- parameters by name
CREATE FUNCTION b_add(a integer, b integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN a + b;
END
$$;
SELECT b_add(2, 3), b_add(-10, 4), b_add(NULL, 1);

-- parameters by position
CREATE FUNCTION b_concat(text, text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN $1 || '-' || $2;
END
$$;
SELECT b_concat('left', 'right');

-- mixing names and positional references
CREATE FUNCTION b_mix(x numeric, y numeric) RETURNS numeric LANGUAGE plnimble AS $$
BEGIN
    RETURN x * $2 + $1;
END
$$;
SELECT b_mix(2.5, 4);

-- qualifying a parameter with the function name
CREATE FUNCTION b_qual(val integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN b_qual.val * 10;
END
$$;
SELECT b_qual(7);

-- named notation in the call
SELECT b_add(b => 100, a => 1);

-- parameters are ordinary variables and may be assigned to
CREATE FUNCTION b_param_assign(n integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    n := n * 2;
    $1 := $1 + 1;
    RETURN n;
END
$$;
SELECT b_param_assign(5);

-- the NULL statement does nothing
CREATE FUNCTION b_nullstmt(i integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    NULL;
    IF i > 0 THEN
        NULL;
    ELSE
        RETURN 'non-positive';
    END IF;
    NULL;
    RETURN 'positive';
END
$$;
SELECT b_nullstmt(1), b_nullstmt(0);

-- STRICT: function body is not run for null input
CREATE FUNCTION b_strict(i integer) RETURNS text STRICT LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'body ran with %', i;
    RETURN 'got ' || i;
END
$$;
SELECT b_strict(3);
SELECT b_strict(NULL) IS NULL AS strict_null;

-- non-strict function does see the null
CREATE FUNCTION b_nonstrict(i integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF i IS NULL THEN
        RETURN 'null input';
    END IF;
    RETURN 'got ' || i;
END
$$;
SELECT b_nonstrict(NULL), b_nonstrict(9);

-- returning NULL explicitly
CREATE FUNCTION b_retnull() RETURNS date LANGUAGE plnimble AS $$
BEGIN
    RETURN NULL;
END
$$;
SELECT b_retnull() IS NULL AS is_null;

-- comments of both styles, including nested block comments
CREATE FUNCTION b_comments(a integer) RETURNS integer LANGUAGE plnimble AS $$
-- leading comment
DECLARE
    x integer := 1;   -- trailing comment
    /* block comment
       spanning lines */
BEGIN
    /* outer /* nested */ still comment */
    x := x + a; -- add
    RETURN x /* inline */ * 2;
END -- after END
$$;
SELECT b_comments(4);

-- the return value is coerced to the declared return type
CREATE FUNCTION b_ret_coerce() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 2.6;
END
$$;
SELECT b_ret_coerce();

CREATE FUNCTION b_ret_text() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 1 + 1;
END
$$;
SELECT b_ret_text();

CREATE FUNCTION b_ret_bad() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 'abc';
END
$$;
SELECT b_ret_bad();

-- a RETURN expression may be a whole scalar subquery
CREATE FUNCTION b_ret_subq() RETURNS bigint LANGUAGE plnimble AS $$
BEGIN
    RETURN (SELECT count(*) FROM generate_series(1, 17));
END
$$;
SELECT b_ret_subq();

-- functions calling each other, used in a query
CREATE FUNCTION b_square(i integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN i * i;
END
$$;
CREATE FUNCTION b_sum_squares(a integer, b integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN b_square(a) + b_square(b);
END
$$;
SELECT g, b_sum_squares(g, g + 1) FROM generate_series(1, 4) g;

-- recursion
CREATE FUNCTION b_fact(n integer) RETURNS numeric LANGUAGE plnimble AS $$
BEGIN
    IF n <= 1 THEN
        RETURN 1;
    END IF;
    RETURN n * b_fact(n - 1);
END
$$;
SELECT b_fact(1), b_fact(10), b_fact(25);

-- overloading by argument type
CREATE FUNCTION b_over(i integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'integer';
END
$$;
CREATE FUNCTION b_over(t text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'text';
END
$$;
SELECT b_over(1), b_over('x'::text);

-- default argument values
CREATE FUNCTION b_defarg(a integer, b integer DEFAULT 10) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN a + b;
END
$$;
SELECT b_defarg(1), b_defarg(1, 2);

-- a DO block runs immediately and returns nothing
DO LANGUAGE plnimble $$
BEGIN
    RAISE NOTICE 'hello from DO';
END
$$;

-- volatility / immutability markers are accepted
CREATE FUNCTION b_immutable(i integer) RETURNS integer IMMUTABLE LANGUAGE plnimble AS $$
BEGIN
    RETURN i + 1;
END
$$;
SELECT b_immutable(1);
