-- text_append: "s := s || a || b", "s := concat(s, ...)" and
-- "s := s || format(...)" on a text or varchar variable.  plnimble appends
-- such values in place (see src/exec/text_append.c); everything anyone can see
-- must stay as it is: the values, NULL handling, errors (which leave the
-- variable unchanged), CONTEXT lines, NOT NULL, values handed to SQL, to
-- other variables, record fields, array elements, RETURN NEXT and other
-- functions mid-loop (they must never change afterwards), block scope,
-- arguments, recursion and exception handlers in the middle of a loop.

-- plain appends: length and content
CREATE FUNCTION ta_basic(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..n LOOP
        s := s || 'k' || i::text || ',';
    END LOOP;
    RETURN length(s) || ' ' || md5(s) || ' ' || left(s, 30) || ' ' || right(s, 20);
END
$$;
SELECT ta_basic(0), ta_basic(1), ta_basic(20000);

-- concat, format, varchar, a mix of forms on the same variable
CREATE FUNCTION ta_forms(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := 'start:';
    v varchar := '';
    c text;
BEGIN
    FOR i IN 1..n LOOP
        s := s || format('%s=%s;', i, i % 7);
        s := concat(s, i, NULL, '|');
        v := v || i::text || '.';
        c := concat(c, i % 10);
        s := s || v::text || '#';
        IF i % 4 = 0 THEN
            s := s || 'x';
            v := 'reset' || i::text;
        END IF;
    END LOOP;
    RETURN md5(s) || ' ' || length(s) || ' ' || v || ' ' || c || ' ' || pg_typeof(v);
END
$$;
SELECT ta_forms(0), ta_forms(3), ta_forms(200);

-- NULL: || gives NULL and stays NULL, concat treats NULL as empty
CREATE FUNCTION ta_nulls() RETURNS TABLE (step integer, s text, c text, v varchar) LANGUAGE plpgsql AS $$
DECLARE
    nothing text;
BEGIN
    s := 'a'; c := 'a'; v := 'a';
    step := 1; RETURN NEXT;
    s := s || 'b' || nothing;
    c := concat(c, 'b', nothing);
    v := v || nothing || 'b';
    step := 2; RETURN NEXT;
    s := s || 'c';
    c := concat(nothing, c) || 'c';
    v := v || 'c';
    step := 3; RETURN NEXT;
    s := 'x'; c := NULL; v := 'y';
    s := s || 'd';
    c := concat(c, 'd', 'e');
    v := v || 'd';
    step := 4; RETURN NEXT;
    c := NULL;
    c := c || 'f';
    s := concat(s, nothing, nothing);
    step := 5; RETURN NEXT;
END
$$;
SELECT * FROM ta_nulls();

-- NOT NULL: appending a NULL fails and leaves the value
CREATE FUNCTION ta_notnull() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text NOT NULL := 'keep';
    nothing text;
BEGIN
    s := s || '-me';
    BEGIN
        s := s || nothing;
    EXCEPTION WHEN null_value_not_allowed THEN
        RAISE NOTICE 'caught: %, s = %', SQLERRM, s;
    END;
    s := s || '!';
    RETURN s;
END
$$;
SELECT ta_notnull();

-- an error in the right-hand side leaves the variable unchanged, with the
-- CONTEXT lines PL/pgSQL gives
CREATE FUNCTION ta_error(zero integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := 'ab';
BEGIN
    s := s || 'cd';
    s := s || (10 / zero)::text || 'never';
    RETURN s;
END
$$;
SELECT ta_error(5);
SELECT ta_error(0);

CREATE FUNCTION ta_error_kept() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
    zero integer := 0;
BEGIN
    FOR i IN 1..12 LOOP
        BEGIN
            s := s || i::text || ':' || (10 / (i % 3))::text || ' ';
            s := concat(s, 'ok', (10 / (i % 4))::text, ' ');
        EXCEPTION WHEN division_by_zero THEN
            s := s || '[' || i::text || ' caught, len ' || length(s)::text || '] ';
        END;
    END LOOP;
    BEGIN
        s := s || 'tail';
        s := s || (1 / zero)::text;
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'after error: % ends with %', SQLERRM, right(s, 10);
    END;
    RETURN s;
END
$$;
SELECT ta_error_kept();

-- the same loop, its handler block as the whole loop body, with a variable
-- declared in the block and the string read by SQL in the handler
CREATE TABLE ta_log (n integer, v text);
CREATE FUNCTION ta_handler_loop(n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..n LOOP
        DECLARE
            inner_s text := 'i' || i::text;
        BEGIN
            inner_s := inner_s || '/' || (100 / (i % 5))::text;
            s := s || inner_s || ',';
        EXCEPTION WHEN division_by_zero THEN
            INSERT INTO ta_log VALUES (i, s);
            s := s || '!' || inner_s || ',';
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT ta_handler_loop(23);
SELECT * FROM ta_log ORDER BY n;

-- the value handed elsewhere mid-loop never changes afterwards: another
-- variable, a record field, an array element, a row, RETURN NEXT, a table,
-- a query's parameter, a cursor, a function argument
CREATE TABLE ta_seen (n integer, v text);
CREATE FUNCTION ta_keep(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ta_seen VALUES (-1, t);
    RETURN t;
END
$$;
CREATE FUNCTION ta_share(n integer) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
    copy1 text;
    copy2 text;
    r record;
    rr ta_seen;
    arr text[] := '{}';
    c refcursor;
    fetched text;
    back text;
BEGIN
    FOR i IN 1..n LOOP
        s := s || chr(97 + i % 26);
        IF i = 5 THEN
            copy1 := s;
            SELECT s AS v, i AS n INTO r;
            rr.v := s;
            arr := arr || s;
            arr := array_append(arr, s);
            RETURN NEXT s;
            INSERT INTO ta_seen VALUES (i, s);
            OPEN c FOR SELECT s || '<' AS v;
            back := ta_keep(s);
        END IF;
        IF i = 8 THEN
            copy2 := s;
            FETCH c INTO fetched;
            CLOSE c;
            RETURN NEXT s;
        END IF;
    END LOOP;
    RETURN NEXT copy1;
    RETURN NEXT copy2;
    RETURN NEXT r.v;
    RETURN NEXT rr.v;
    RETURN NEXT array_to_string(arr, ',');
    RETURN NEXT fetched;
    RETURN NEXT back;
    RETURN NEXT s;
END
$$;
SELECT * FROM ta_share(12);
SELECT * FROM ta_seen ORDER BY n;

-- a query loop that reads the variable the body appends to: the query sees
-- the value it was opened with
CREATE FUNCTION ta_query_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := 'q';
    r record;
    seen text := '';
BEGIN
    FOR r IN SELECT s AS snap, g FROM generate_series(1, 25) g LOOP
        s := s || r.g::text;
        seen := seen || r.snap || ';';
    END LOOP;
    RETURN s || ' ' || seen;
END
$$;
SELECT ta_query_loop();

-- assignments of other kinds in between, and the variable read twice on
-- the right (which is no append)
CREATE FUNCTION ta_mixed() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := 'a';
    t text := 'T';
BEGIN
    s := s || 'b';
    s := t;
    s := s || 'c';
    s := s || s || 'd';
    s := upper(s) || 'e';
    s := s || 'f';
    t := t || '!';
    s := 'x' || s || 'y';
    s := s || 'z';
    SELECT s || '1' INTO s;
    s := s || '2';
    RETURN s || ' ' || t;
END
$$;
SELECT ta_mixed();

-- arguments: appending to an argument does not touch the caller's value;
-- recursion: every level has its own string
CREATE FUNCTION ta_arg(a text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    a := a || '+arg';
    RETURN a;
END
$$;
CREATE FUNCTION ta_caller() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := 'mine';
    r text;
BEGIN
    s := s || '1';
    r := ta_arg(s);
    s := s || '2';
    r := r || ta_arg(s);
    RETURN s || ' ' || r;
END
$$;
SELECT ta_caller();

CREATE FUNCTION ta_recurse(depth integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..3 LOOP
        s := s || depth::text;
        IF depth > 0 AND i = 2 THEN
            s := s || '(' || ta_recurse(depth - 1) || ')';
        END IF;
    END LOOP;
    RETURN s;
END
$$;
SELECT ta_recurse(3);

-- a block re-entered in a loop starts its variable afresh; a value read
-- from a table (TOASTed, compressed) is the start of the string
CREATE TABLE ta_big (v text);
INSERT INTO ta_big VALUES (repeat('0123456789', 10000));
CREATE FUNCTION ta_scope() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    total text := '';
    b text;
BEGIN
    FOR i IN 1..4 LOOP
        DECLARE
            part text;
            part2 text := '<';
        BEGIN
            part := part || i::text;
            part2 := part2 || i::text || '>';
            total := total || coalesce(part, 'null') || part2;
        END;
    END LOOP;
    SELECT v INTO b FROM ta_big;
    FOR i IN 1..3 LOOP
        b := b || i::text;
    END LOOP;
    RETURN total || ' ' || length(b) || ' ' || right(b, 5);
END
$$;
SELECT ta_scope();

-- DO blocks and a procedure that commits mid-loop
DO $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..1000 LOOP
        s := s || i::text;
    END LOOP;
    RAISE NOTICE 'do: % %', length(s), md5(s);
END
$$;
CREATE PROCEDURE ta_proc() LANGUAGE plpgsql AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..6 LOOP
        s := s || i::text;
        IF i % 2 = 0 THEN
            COMMIT;
        END IF;
        s := s || '.';
    END LOOP;
    RAISE NOTICE 'proc: %', s;
END
$$;
CALL ta_proc();
