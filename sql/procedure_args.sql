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
