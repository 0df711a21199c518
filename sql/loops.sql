-- loops: LOOP, WHILE, integer FOR with REVERSE and BY (and the BY 0 /
-- NULL bound errors), FOR rec IN query and FOR a, b IN query, EXIT and
-- CONTINUE with labels and WHEN, EXIT from a labelled block, leaving nested
-- loops, and RETURN from inside loops.

-- plain LOOP with EXIT WHEN, and EXIT inside IF
CREATE FUNCTION c_loop(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer := 0;
    r text := '';
BEGIN
    LOOP
        i := i + 1;
        EXIT WHEN i > n;
        r := r || i;
    END LOOP;
    LOOP
        IF i <= 0 THEN
            EXIT;
        END IF;
        i := i - 2;
    END LOOP;
    RETURN r || ' final i=' || i;
END
$$;
SELECT c_loop(5);

-- WHILE, including a condition that is false from the start and NULL
CREATE FUNCTION c_while(n integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    s integer := 0;
    i integer := 1;
BEGIN
    WHILE i <= n LOOP
        s := s + i;
        i := i + 1;
    END LOOP;
    RETURN s;
END
$$;
SELECT c_while(10), c_while(0), c_while(NULL);

-- integer FOR: ascending, REVERSE, BY, empty ranges
CREATE FUNCTION c_for_int() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    r := '';
    FOR i IN 1..5 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'up: %', r;
    r := '';
    FOR i IN REVERSE 5..1 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'reverse: %', r;
    r := '';
    FOR i IN 1..10 BY 3 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'by 3: %', r;
    r := '';
    FOR i IN REVERSE 10..1 BY 4 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'reverse by 4: %', r;
    r := '';
    FOR i IN 5..1 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'empty: [%] found=%', r, FOUND;
    FOR i IN 3..3 LOOP r := r || i; END LOOP;
    RAISE NOTICE 'single: [%] found=%', r, FOUND;
    r := '';
    FOR i IN 2.6 .. 5.4 LOOP r := r || i || ' '; END LOOP;
    RAISE NOTICE 'rounded bounds: %', r;
END
$$;
SELECT c_for_int();

-- the loop variable is local to the loop and shadows an outer one
CREATE FUNCTION c_for_scope() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer := 100;
BEGIN
    FOR i IN 1..3 LOOP
        NULL;
    END LOOP;
    RETURN 'after loop i=' || i;
END
$$;
SELECT c_for_scope();

-- bound expressions are evaluated once
CREATE FUNCTION c_for_bounds_once() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer := 3;
    r text := '';
BEGIN
    FOR i IN 1..n LOOP
        n := n + 1;
        r := r || i;
    END LOOP;
    RETURN r || ' n=' || n;
END
$$;
SELECT c_for_bounds_once();

-- errors in FOR bounds
CREATE FUNCTION c_for_err(lo integer, hi integer, step integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    c integer := 0;
BEGIN
    FOR i IN lo..hi BY step LOOP
        c := c + 1;
    END LOOP;
    RETURN c;
END
$$;
SELECT c_for_err(1, 10, 2);
SELECT c_for_err(1, 10, 0);
SELECT c_for_err(1, 10, -1);
SELECT c_for_err(NULL, 10, 1);
SELECT c_for_err(1, NULL, 1);
SELECT c_for_err(1, 10, NULL);

-- FOR over a query with a record variable
CREATE TABLE c_tab (id integer, label text);
INSERT INTO c_tab VALUES (1, 'a'), (2, 'b'), (3, 'c');
CREATE FUNCTION c_for_query() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    rec record;
    r text := '';
BEGIN
    FOR rec IN SELECT id, label FROM c_tab ORDER BY id DESC LOOP
        r := r || rec.id || rec.label || ' ';
    END LOOP;
    RAISE NOTICE 'found after loop: %', FOUND;
    FOR rec IN SELECT * FROM c_tab WHERE false LOOP
        r := r || 'never';
    END LOOP;
    RAISE NOTICE 'found after empty loop: %', FOUND;
    RETURN r;
END
$$;
SELECT c_for_query();

-- FOR over a query with scalar loop variables
CREATE FUNCTION c_for_scalars() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer;
    b text;
    r text := '';
BEGIN
    FOR a, b IN SELECT id * 10, upper(label) FROM c_tab ORDER BY id LOOP
        r := r || a || b;
    END LOOP;
    RETURN r;
END
$$;
SELECT c_for_scalars();

-- CONTINUE, CONTINUE WHEN
CREATE FUNCTION c_continue() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..10 LOOP
        CONTINUE WHEN i % 2 = 0;
        IF i = 5 THEN
            CONTINUE;
        END IF;
        r := r || i;
    END LOOP;
    RETURN r;
END
$$;
SELECT c_continue();

-- labelled loops: EXIT and CONTINUE an outer loop from an inner loop
CREATE FUNCTION c_labels() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    <<outer_loop>>
    FOR i IN 1..4 LOOP
        <<inner_loop>>
        FOR j IN 1..4 LOOP
            CONTINUE outer_loop WHEN j > i;
            EXIT outer_loop WHEN i * j = 9;
            r := r || i || j || ' ';
        END LOOP inner_loop;
    END LOOP outer_loop;
    RETURN r;
END
$$;
SELECT c_labels();

-- EXIT from a labelled block (not a loop)
CREATE FUNCTION c_exit_block(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := 'start';
BEGIN
    <<blk>>
    BEGIN
        r := r || ' in';
        EXIT blk WHEN n > 0;
        r := r || ' not-exited';
    END blk;
    RETURN r || ' end';
END
$$;
SELECT c_exit_block(1), c_exit_block(0);

-- RETURN from inside nested loops
CREATE FUNCTION c_find_pair(target integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..10 LOOP
        WHILE true LOOP
            FOR j IN REVERSE 10..1 LOOP
                IF i * j = target THEN
                    RETURN i || 'x' || j;
                END IF;
            END LOOP;
            EXIT;
        END LOOP;
    END LOOP;
    RETURN 'no pair';
END
$$;
SELECT c_find_pair(12), c_find_pair(97);

-- WHILE with labels and EXIT of the outer loop
CREATE FUNCTION c_while_labels() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    i integer := 0;
    total integer := 0;
BEGIN
    <<w>>
    WHILE i < 100 LOOP
        i := i + 1;
        LOOP
            total := total + i;
            EXIT w WHEN total > 50;
            EXIT;
        END LOOP;
    END LOOP w;
    RETURN total * 1000 + i;
END
$$;
SELECT c_while_labels();
