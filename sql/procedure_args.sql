-- procedure_args: procedures with INOUT and OUT parameters, CALL from SQL
-- and from PL code writing the output arguments back to variables, and
-- the errors for output arguments that are not writable.

CREATE PROCEDURE pa_one(INOUT x integer) LANGUAGE plnimble AS $$
BEGIN
    x := x * 2;
END
$$;
CALL pa_one(21);

CREATE PROCEDURE pa_mixed(IN a integer, INOUT b integer, OUT c text)
LANGUAGE plnimble AS $$
BEGIN
    b := b + a;
    c := 'sum ' || b;
END
$$;
CALL pa_mixed(1, 2, NULL);

-- from PL code: the output arguments are written back
DO LANGUAGE plnimble $$
DECLARE
    v integer := 3;
    s integer := 10;
    t text;
BEGIN
    CALL pa_one(v);
    CALL pa_one(v);
    RAISE NOTICE 'v = %', v;
    CALL pa_mixed(5, s, t);
    RAISE NOTICE 's = %, t = %', s, t;
END
$$;

-- nested: a procedure calling a procedure
CREATE PROCEDURE pa_outer(INOUT total integer) LANGUAGE plnimble AS $$
DECLARE
    n integer := 1;
BEGIN
    FOR i IN 1..3 LOOP
        CALL pa_one(n);
    END LOOP;
    total := total + n;
END
$$;
CALL pa_outer(100);

-- RETURN ends a procedure early; the output values are what they are then
CREATE PROCEDURE pa_early(INOUT x integer, OUT note text) LANGUAGE plnimble AS $$
BEGIN
    note := 'before';
    IF x > 5 THEN
        RETURN;
    END IF;
    x := 0;
    note := 'after';
END
$$;
CALL pa_early(10, NULL);
CALL pa_early(1, NULL);

-- an output argument must be a variable
DO LANGUAGE plnimble $$
BEGIN
    CALL pa_one(3);
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    c CONSTANT integer := 1;
BEGIN
    CALL pa_one(c);
END
$$;

-- RETURN with a value is refused in a procedure
CREATE PROCEDURE pa_bad(INOUT x integer) LANGUAGE plnimble AS $$
BEGIN
    RETURN x;
END
$$;

-- output arguments and COMMIT
CREATE TABLE pa_log (n integer);
CREATE PROCEDURE pa_commit(INOUT n integer) LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO pa_log VALUES (n);
    COMMIT;
    n := n + 1;
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    k integer := 1;
BEGIN
    CALL pa_commit(k);
    CALL pa_commit(k);
    RAISE NOTICE 'k = %', k;
END
$$;
SELECT * FROM pa_log ORDER BY n;

-- an output argument that cannot be written to is an error of the CALL,
-- raised before the procedure runs (no NOTICE from it, no row inserted):
-- an expression, a constant, a CONSTANT variable or a field of a CONSTANT
-- record; by parameter name or, without one, by position; every time
CREATE TABLE pa_ran (s text);
CREATE PROCEDURE pa_noisy(INOUT a int) LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'pa_noisy runs';
    INSERT INTO pa_ran VALUES ('ran with ' || a);
    a := a + 1;
END
$$;
CREATE PROCEDURE pa_noisy_unnamed(int, INOUT int) LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'pa_noisy_unnamed runs';
END
$$;
DO $$
DECLARE
    x int := 1;
BEGIN
    CALL pa_noisy(x + 1);
END
$$ LANGUAGE plnimble;
DO $$
BEGIN
    CALL pa_noisy(a => 5);
END
$$ LANGUAGE plnimble;
DO $$
BEGIN
    CALL pa_noisy_unnamed(1, 2);
END
$$ LANGUAGE plnimble;
DO $$
DECLARE
    x CONSTANT int := 1;
BEGIN
    CALL pa_noisy(x);
END
$$ LANGUAGE plnimble;
DO $$
DECLARE
    r CONSTANT record := row(1);
BEGIN
    CALL pa_noisy(r.f1);
END
$$ LANGUAGE plnimble;
CREATE FUNCTION pa_unwritable() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int := 1;
BEGIN
    CALL pa_noisy(2);
    RETURN x;
END
$$;
SELECT pa_unwritable();
SELECT pa_unwritable();
-- a writable field of a record is fine
DO $$
DECLARE
    r record;
BEGIN
    SELECT 10 AS f INTO r;
    CALL pa_noisy(r.f);
    RAISE NOTICE 'r.f = %', r.f;
END
$$ LANGUAGE plnimble;
SELECT * FROM pa_ran;
