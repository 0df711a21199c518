-- control_flow: conditionals -- IF/ELSIF/ELSEIF/ELSE (NULL and non-boolean
-- conditions), simple and searched CASE, the case_not_found error and
-- catching it.  Loops are covered in loops.sql.

-- IF / ELSIF / ELSE, including NULL conditions (treated as false)
CREATE FUNCTION c_sign(n integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF n > 0 THEN
        RETURN 'positive';
    ELSIF n < 0 THEN
        RETURN 'negative';
    ELSEIF n = 0 THEN
        RETURN 'zero';
    ELSE
        RETURN 'unknown';
    END IF;
END
$$;
SELECT n, c_sign(n) FROM (VALUES (5), (-3), (0), (NULL)) v(n);

-- IF without ELSE, nested IF
CREATE FUNCTION c_nested_if(a integer, b integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := 'none';
BEGIN
    IF a > 0 THEN
        IF b > 0 THEN
            r := 'both';
        ELSE
            r := 'a only';
        END IF;
    END IF;
    IF a <= 0 AND b > 0 THEN r := 'b only'; END IF;
    RETURN r;
END
$$;
SELECT c_nested_if(1, 1), c_nested_if(1, 0), c_nested_if(0, 1), c_nested_if(0, 0);

-- IF condition of a non-boolean type
CREATE FUNCTION c_if_text(t text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF t THEN
        RETURN 'true-ish';
    END IF;
    RETURN 'false-ish';
END
$$;
SELECT c_if_text('yes'), c_if_text('off');
SELECT c_if_text('perhaps');

-- simple CASE with multiple values per WHEN
CREATE FUNCTION c_simple_case(x integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    CASE x
        WHEN 1, 2 THEN
            r := 'one or two';
        WHEN 3 THEN
            r := 'three';
        ELSE
            r := 'other';
    END CASE;
    RETURN r;
END
$$;
SELECT c_simple_case(1), c_simple_case(2), c_simple_case(3), c_simple_case(7);
SELECT c_simple_case(NULL);

-- searched CASE
CREATE FUNCTION c_searched_case(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE
        WHEN x BETWEEN 0 AND 9 THEN
            RETURN 'one digit';
        WHEN x BETWEEN 10 AND 99 THEN
            RETURN 'two digits';
    END CASE;
END
$$;
SELECT c_searched_case(5), c_searched_case(42);
SELECT c_searched_case(100);

-- simple CASE without ELSE and no match
CREATE FUNCTION c_case_nomatch(x text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE x
        WHEN 'a' THEN RETURN 'A';
        WHEN 'b' THEN RETURN 'B';
    END CASE;
    RETURN 'unreachable';
END
$$;
SELECT c_case_nomatch('b');
SELECT c_case_nomatch('z');
SELECT c_case_nomatch(NULL);

-- case_not_found can be caught
CREATE FUNCTION c_case_caught(x integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE x WHEN 1 THEN RETURN 'one'; END CASE;
EXCEPTION
    WHEN case_not_found THEN
        RETURN 'caught: ' || SQLERRM;
END
$$;
SELECT c_case_caught(1), c_case_caught(2);

-- simple CASE evaluates its selector once
CREATE FUNCTION c_noisy(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'evaluating selector';
    RETURN x;
END
$$;
CREATE FUNCTION c_case_once() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE c_noisy(3)
        WHEN 1 THEN RETURN 'one';
        WHEN 2 THEN RETURN 'two';
        WHEN 3 THEN RETURN 'three';
    END CASE;
END
$$;
SELECT c_case_once();
