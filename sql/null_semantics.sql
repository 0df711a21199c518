-- null_semantics: how NULL flows through PL code -- NULL conditions in IF,
-- WHILE, EXIT WHEN and CONTINUE WHEN, NULL in CASE selectors and WHEN
-- lists, three-valued logic, IS [NOT] DISTINCT FROM, NULL parameters and
-- return values, and NULLs printed by RAISE.

-- a NULL condition behaves as false in IF and ELSIF
CREATE FUNCTION n_if(b boolean) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF b THEN
        RETURN 'then';
    ELSIF NOT b THEN
        RETURN 'elsif';
    ELSE
        RETURN 'else';
    END IF;
END
$$;
SELECT n_if(true), n_if(false), n_if(NULL);

-- three-valued logic in conditions
CREATE FUNCTION n_logic(a boolean, b boolean) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    IF a AND b THEN r := r || 'and '; END IF;
    IF a OR b THEN r := r || 'or '; END IF;
    IF NOT (a AND b) THEN r := r || 'nand '; END IF;
    IF (a AND b) IS NULL THEN r := r || 'and-is-null '; END IF;
    IF a IS DISTINCT FROM b THEN r := r || 'distinct '; END IF;
    IF a IS NOT DISTINCT FROM b THEN r := r || 'not-distinct '; END IF;
    RETURN r;
END
$$;
SELECT a, b, n_logic(a, b)
FROM (VALUES (true, NULL::boolean), (false, NULL), (NULL, NULL), (true, true)) v(a, b);

-- a NULL WHILE condition ends the loop; NULL EXIT WHEN does not exit
CREATE FUNCTION n_loops() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer := 0;
    stop boolean;
    r text := '';
BEGIN
    WHILE stop LOOP
        r := r || 'never';
    END LOOP;
    LOOP
        i := i + 1;
        EXIT WHEN i > 3;
        EXIT WHEN stop;
        CONTINUE WHEN stop;
        r := r || i;
    END LOOP;
    RETURN r;
END
$$;
SELECT n_loops();

-- NULL selector and NULL in a WHEN list never match in simple CASE
CREATE FUNCTION n_case(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE x
        WHEN NULL THEN RETURN 'matched null';
        WHEN 1 THEN RETURN 'one';
        ELSE RETURN 'else';
    END CASE;
END
$$;
SELECT n_case(1), n_case(NULL);

-- searched CASE with an IS NULL test
CREATE FUNCTION n_case_searched(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE
        WHEN x IS NULL THEN RETURN 'is null';
        WHEN x > 0 THEN RETURN 'positive';
        ELSE RETURN 'other';
    END CASE;
END
$$;
SELECT n_case_searched(NULL), n_case_searched(5), n_case_searched(-5);

-- arithmetic and string operations with NULL
CREATE FUNCTION n_ops(a integer) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    s text := 'x';
BEGIN
    RAISE NOTICE 'a + 1 = %', a + 1;
    RAISE NOTICE 's || a = %', s || a;
    RAISE NOTICE 'concat(s, a) = %', concat(s, a);
    RAISE NOTICE 'coalesce = %', coalesce(a, -1);
    RAISE NOTICE 'nullif = %', nullif(a, a);
    RAISE NOTICE 'a = NULL is %', a = NULL;
    RAISE NOTICE 'a IS NULL is %', a IS NULL;
END
$$;
SELECT n_ops(NULL);
SELECT n_ops(2);

-- RETURN NULL from a function of each kind of type
CREATE FUNCTION n_ret_int() RETURNS integer LANGUAGE plnimble AS $$
BEGIN RETURN NULL; END
$$;
CREATE FUNCTION n_ret_bool() RETURNS boolean LANGUAGE plnimble AS $$
BEGIN RETURN NULL; END
$$;
CREATE FUNCTION n_ret_text() RETURNS text LANGUAGE plnimble AS $$
BEGIN RETURN NULL; END
$$;
SELECT n_ret_int() IS NULL, n_ret_bool() IS NULL, n_ret_text() IS NULL;

-- NULL assigned to variables of various types, then tested
CREATE FUNCTION n_assign() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer := 1;
    d date := current_date;
    b boolean := true;
    r text := '';
BEGIN
    i := NULL;
    d := NULL;
    b := NULL;
    IF i IS NULL AND d IS NULL AND b IS NULL THEN
        r := 'all null';
    END IF;
    RETURN r;
END
$$;
SELECT n_assign();

-- a NULL argument to a STRICT callee called from PL code
CREATE FUNCTION n_strict_callee(a integer) RETURNS text STRICT LANGUAGE plnimble AS $$
BEGIN
    RETURN 'called with ' || a;
END
$$;
CREATE FUNCTION n_caller() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v integer;
BEGIN
    RETURN coalesce(n_strict_callee(v), 'strict skipped') || ' / ' || n_strict_callee(3);
END
$$;
SELECT n_caller();

-- NULLs in a FOR-over-query loop
CREATE FUNCTION n_for_query() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v integer;
    r text := '';
BEGIN
    FOR v IN SELECT x FROM (VALUES (1), (NULL), (3)) t(x) LOOP
        r := r || coalesce(v::text, 'null') || ' ';
    END LOOP;
    RETURN r;
END
$$;
SELECT n_for_query();
