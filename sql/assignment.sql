-- assignment: := and = forms, implicit casts performed on assignment
-- (numeric to int rounding, text to int, int to text, bool to text, ...),
-- invalid-input and overflow errors with their CONTEXT lines, and
-- expressions built from operators, functions and subqueries.

-- both assignment operators
CREATE FUNCTION a_ops() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer;
    b integer;
BEGIN
    a := 1;
    b = 2;
    a := a + b;
    b = a * b;
    RETURN a || ',' || b;
END
$$;
SELECT a_ops();

-- numeric to integer rounds half away from zero
CREATE FUNCTION a_num2int(x numeric) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := x;
    RETURN i;
END
$$;
SELECT a_num2int(2.4), a_num2int(2.5), a_num2int(-2.5), a_num2int(-2.4);

-- float8 to integer rounds half to even
CREATE FUNCTION a_f82int(x float8) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := x;
    RETURN i;
END
$$;
SELECT a_f82int(2.5), a_f82int(3.5), a_f82int(-0.5);

-- text to integer: valid, with blanks, and invalid input
CREATE FUNCTION a_text2int(t text) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := t;
    RETURN i;
END
$$;
SELECT a_text2int('123'), a_text2int('  -7  ');
SELECT a_text2int('12abc');
SELECT a_text2int('');
SELECT a_text2int('1.5');

-- integer overflow on assignment
SELECT a_text2int('99999999999');
SELECT a_num2int(2147483647.5);

-- the right-hand side itself overflowing
CREATE FUNCTION a_overflow() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer := 2147483647;
BEGIN
    i := i + 1;
    RETURN i;
END
$$;
SELECT a_overflow();

-- bigint into smallint
CREATE FUNCTION a_small(b bigint) RETURNS smallint LANGUAGE plnimble AS $$
DECLARE
    s smallint;
BEGIN
    s := b;
    RETURN s;
END
$$;
SELECT a_small(32767);
SELECT a_small(32768);

-- int, numeric, float, bool, date to text
CREATE FUNCTION a_to_text() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
BEGIN
    t := 42;
    RAISE NOTICE 'int -> text [%]', t;
    t := 3.50;
    RAISE NOTICE 'numeric -> text [%]', t;
    t := 1e100::float8;
    RAISE NOTICE 'float8 -> text [%]', t;
    t := true;
    RAISE NOTICE 'bool -> text [%]', t;
    t := 1 > 2;
    RAISE NOTICE 'comparison -> text [%]', t;
    t := '2020-01-31'::date + 1;
    RAISE NOTICE 'date -> text [%]', t;
    t := NULL;
    RAISE NOTICE 'null -> text [%]', t;
END
$$;
SELECT a_to_text();

-- text to boolean: accepted spellings and a rejected one
CREATE FUNCTION a_to_bool(t text) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    b boolean;
BEGIN
    b := t;
    RETURN b;
END
$$;
SELECT a_to_bool('yes'), a_to_bool('f'), a_to_bool('ON'), a_to_bool('0');
SELECT a_to_bool('maybe');

-- integer to boolean has no assignment cast, so the value goes through
-- text: 0 and 1 are accepted as boolean input, 5 is not
CREATE FUNCTION a_int2bool(i integer) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    b boolean;
BEGIN
    b := i;
    RETURN b;
END
$$;
SELECT a_int2bool(0), a_int2bool(1);
SELECT a_int2bool(5);

-- date from text, and an impossible date
CREATE FUNCTION a_to_date(t text) RETURNS date LANGUAGE plnimble AS $$
DECLARE
    d date;
BEGIN
    d := t;
    RETURN d;
END
$$;
SELECT a_to_date('2023-12-25');
SELECT a_to_date('2023-02-30');

-- a run-time cast failure inside a simple expression (no QUERY line)
CREATE FUNCTION a_bad_expr(t text) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := t::integer + 1;
    RETURN i;
END
$$;
SELECT a_bad_expr('10');
SELECT a_bad_expr('ten');

-- an invalid constant is folded while planning, so the error carries
-- LINE and QUERY lines
CREATE FUNCTION a_bad_literal() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := 'xyz'::integer;
    RETURN i;
END
$$;
SELECT a_bad_literal();

-- assigning a string literal that does not fit the variable type
CREATE FUNCTION a_bad_string() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := 'xyz';
    RETURN i;
END
$$;
SELECT a_bad_string();

-- numeric(6,3) scale and precision; overflow of a constant is detected
-- while planning the assignment
CREATE FUNCTION a_numscale() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n numeric(6,3);
BEGIN
    n := 1.23456;
    RAISE NOTICE 'n = %', n;
    n := 2;
    RAISE NOTICE 'n = %', n;
    n := 1000;
END
$$;
SELECT a_numscale();

-- char(n) padding and truncation-of-spaces behaviour
CREATE FUNCTION a_char() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c char(3);
BEGIN
    c := 'a';
    RAISE NOTICE '[%] length %', c, length(c);
    c := 'abc   ';
    RAISE NOTICE '[%]', c;
    c := 'abcd';
END
$$;
SELECT a_char();

-- expressions with operators and functions
CREATE FUNCTION a_exprs(n integer) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r numeric;
    t text;
    b boolean;
BEGIN
    r := (n + 3) * 2 - n / 2 + n % 3;
    RAISE NOTICE 'arith %', r;
    r := power(n, 2) + sqrt(16) + abs(-n);
    RAISE NOTICE 'funcs %', r;
    t := upper('abc') || lower('DEF') || repeat('-', n) || substr('hello', 2, 3);
    RAISE NOTICE 'strings %', t;
    b := n BETWEEN 1 AND 10 AND n IN (1, 2, 3) OR n IS NULL;
    RAISE NOTICE 'bool %', b;
    t := CASE WHEN n > 2 THEN 'big' ELSE 'small' END;
    RAISE NOTICE 'case %', t;
    r := (SELECT sum(g) FROM generate_series(1, n) g);
    RAISE NOTICE 'subquery %', r;
    r := coalesce(NULL, n * 10);
    RAISE NOTICE 'coalesce %', r;
    t := format('%s-%s', n, n + 1);
    RAISE NOTICE 'format %', t;
    r := 7 / 2;
    RAISE NOTICE 'integer division %', r;
    r := 7 / 2.0;
    RAISE NOTICE 'numeric division %', r;
END
$$;
SELECT a_exprs(3);

-- a query-like expression with FROM/WHERE on the right-hand side
CREATE TABLE a_tab (k integer, v text);
INSERT INTO a_tab VALUES (1, 'one'), (2, 'two'), (3, 'three');
CREATE FUNCTION a_from(key integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    result text;
BEGIN
    result := v FROM a_tab WHERE k = key;
    RETURN result;
END
$$;
SELECT a_from(2), a_from(9) IS NULL AS missing;

-- the right-hand side must produce exactly one column
CREATE FUNCTION a_two_cols() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := 1, 2;
    RETURN i;
END
$$;
SELECT a_two_cols();

-- the right-hand side must produce at most one row
CREATE FUNCTION a_two_rows() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := k FROM a_tab;
    RETURN i;
END
$$;
SELECT a_two_rows();

-- zero rows assigns NULL
CREATE FUNCTION a_zero_rows() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer := 5;
BEGIN
    i := k FROM a_tab WHERE false;
    RETURN coalesce(i::text, 'null');
END
$$;
SELECT a_zero_rows();

-- self-referencing assignment in a loop
CREATE FUNCTION a_accum(n integer) RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
    acc bigint := 0;
    i integer := 0;
BEGIN
    WHILE i < n LOOP
        i := i + 1;
        acc := acc + i * i;
    END LOOP;
    RETURN acc;
END
$$;
SELECT a_accum(100);

-- text concatenation with NULL yields NULL
CREATE FUNCTION a_nullconcat() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    t text := 'abc';
    n text;
BEGIN
    t := t || n;
    RETURN coalesce(t, '<null>');
END
$$;
SELECT a_nullconcat();

-- division by zero inside an assignment expression
CREATE FUNCTION a_div0(d integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer;
BEGIN
    i := 100 / d;
    RETURN i;
END
$$;
SELECT a_div0(7);
SELECT a_div0(0);
