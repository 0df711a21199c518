-- cursors: bound cursors (DECLARE c CURSOR FOR ...) with OPEN, FETCH INTO
-- a record / a list of scalars / a composite variable, FOUND and ROW_COUNT
-- after FETCH and MOVE, CLOSE; cursor arguments (positional, named with :=,
-- mixed, expressions, evaluated once at OPEN; => is a syntax error in
-- PostgreSQL 15); SCROLL and NO SCROLL with every FETCH / MOVE direction
-- (and pg_cursors.is_scrollable); unbound refcursor variables (OPEN FOR
-- query, OPEN SCROLL FOR, OPEN FOR EXECUTE ... USING, a preassigned portal
-- name, the generated name); refcursors returned to the caller and fetched
-- in SQL; FOR rec IN bound cursor (arguments, EXIT, CONTINUE, FOUND, the
-- cursor closed afterwards, FETCH inside the loop); UPDATE / DELETE ...
-- WHERE CURRENT OF; the compile-time and run-time errors of cursor misuse;
-- cursors and exception blocks (portals opened in a failed block are
-- dropped, older ones survive and keep their position, CLOSE is not undone);
-- cursors left open at the end of a function or DO block.

CREATE TABLE cr_items (id integer PRIMARY KEY, name text, qty integer);
INSERT INTO cr_items VALUES
    (1, 'apple', 10), (2, 'banana', 20), (3, 'cherry', 30), (4, 'date', 40),
    (5, 'elder', 50), (6, 'fig', 60), (7, 'grape', 70), (8, 'honeydew', 80);
CREATE TYPE cr_pair AS (id integer, name text);

-- open portals other than the generated "<unnamed portal N>" ones
CREATE VIEW cr_open AS
    SELECT name, is_holdable, is_binary, is_scrollable
    FROM pg_cursors
    WHERE name NOT LIKE '<unnamed portal%';

------------------------------------------------------------------------------
-- 1. bound cursors: OPEN, FETCH, FOUND, ROW_COUNT, CLOSE
------------------------------------------------------------------------------

-- FETCH into a record, into a list of scalars and into a composite
-- variable; FOUND and ROW_COUNT after each FETCH; past the end the targets
-- are set to NULL (a record becomes a row of NULLs, its fields still exist)
CREATE FUNCTION cr_basic() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, name FROM cr_items WHERE id <= 3 ORDER BY id;
    r record;
    p cr_pair;
    v_id integer := -1;
    v_name text := 'unset';
    n integer;
BEGIN
    RAISE NOTICE 'before OPEN: FOUND=%', FOUND;
    OPEN c;
    RAISE NOTICE 'after OPEN: FOUND=%', FOUND;
    FETCH c INTO r;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'record: id=% name=% FOUND=% ROW_COUNT=%', r.id, r.name, FOUND, n;
    FETCH FROM c INTO v_id, v_name;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'scalars: id=% name=% FOUND=% ROW_COUNT=%', v_id, v_name, FOUND, n;
    FETCH IN c INTO p;
    RAISE NOTICE 'composite: % FOUND=%', p, FOUND;
    FETCH c INTO v_id, v_name;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'scalars past the end: id=% name=% FOUND=% ROW_COUNT=%', v_id, v_name, FOUND, n;
    FETCH c INTO r;
    RAISE NOTICE 'record past the end: r=% r IS NULL=% r.name=% FOUND=%', r, r IS NULL, r.name, FOUND;
    FETCH c INTO p;
    RAISE NOTICE 'composite past the end: p=% p IS NULL=% FOUND=%', p, p IS NULL, FOUND;
    CLOSE c;
    RAISE NOTICE 'after CLOSE: FOUND=%', FOUND;
    RETURN 'c=' || c;
END
$$;
SELECT cr_basic();

-- a typical loop: FETCH until NOT FOUND; a scalar target gets the first
-- column only, a record target gets all of them
CREATE FUNCTION cr_loop() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT name, qty FROM cr_items WHERE qty > 40 ORDER BY qty DESC;
    v text;
    acc text := '';
    i integer := 0;
BEGIN
    OPEN c;
    LOOP
        FETCH c INTO v;
        EXIT WHEN NOT FOUND;
        i := i + 1;
        acc := acc || v || ' ';
    END LOOP;
    CLOSE c;
    RETURN format('%s rows: %s| v after the loop IS NULL=%s', i, acc, v IS NULL);
END
$$;
SELECT cr_loop();

-- MOVE: FOUND and ROW_COUNT after MOVE, then FETCH continues from there
CREATE FUNCTION cr_move_basic() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
    n integer;
BEGIN
    OPEN c;
    MOVE c;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'MOVE c: FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE FORWARD 2 FROM c;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'MOVE FORWARD 2: FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;
    RAISE NOTICE 'FETCH after the moves: %', v;
    MOVE FORWARD 10 FROM c;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'MOVE FORWARD 10 (4 rows left): FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE c;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'MOVE at the end: FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'FETCH at the end: v=% FOUND=% ROW_COUNT=%', v, FOUND, n;
    CLOSE c;
END
$$;
SELECT cr_move_basic();

-- the cursor's query sees the variables as they were at OPEN, and the
-- snapshot taken at OPEN: a later change of the variable or a row inserted
-- after OPEN does not show
CREATE FUNCTION cr_open_time() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    lim integer := 2;
    c CURSOR FOR SELECT id FROM cr_items WHERE id <= lim ORDER BY id;
    v integer;
    acc text := '';
BEGIN
    OPEN c;
    lim := 100;
    INSERT INTO cr_items VALUES (0, 'zero', 0);
    LOOP
        FETCH c INTO v;
        EXIT WHEN NOT FOUND;
        acc := acc || v || ' ';
    END LOOP;
    CLOSE c;
    DELETE FROM cr_items WHERE id = 0;
    OPEN c;
    FETCH LAST FROM c INTO v;
    CLOSE c;
    RETURN 'first open: ' || acc || '| reopened with lim=100, last: ' || v;
END
$$;
SELECT cr_open_time();

------------------------------------------------------------------------------
-- 2. cursor arguments
------------------------------------------------------------------------------

CREATE FUNCTION cr_twice(i integer) RETURNS integer LANGUAGE sql AS 'SELECT 2 * i';

CREATE FUNCTION cr_args() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR
        SELECT id, name FROM cr_items WHERE id BETWEEN lo AND hi ORDER BY id;
    r record;
    acc text;
    a integer := 1;
    b integer := 3;
BEGIN
    OPEN c(2, 5);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'positional (2, 5): %', acc;

    OPEN c(hi := 5, lo := 4);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'named with := (hi := 5, lo := 4): %', acc;

    OPEN c(lo := 6, hi := 7);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'named in declaration order (lo := 6, hi := 7): %', acc;

    OPEN c(3, hi := 4);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'mixed (3, hi := 4): %', acc;

    OPEN c(a + 1, cr_twice(b));
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'expressions (a + 1, cr_twice(b)): %', acc;

    OPEN c(lo := (SELECT min(id) FROM cr_items WHERE qty > 60), hi := greatest(a, b) * 10);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'named expressions (subquery, greatest(a, b) * 10): %', acc;

    OPEN c('2', 3.4);
    acc := '';
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        acc := acc || r.id || ' ';
    END LOOP;
    CLOSE c;
    RAISE NOTICE 'converted to the argument types (''2'', 3.4): %', acc;

    OPEN c(NULL, 5);
    FETCH c INTO r;
    RAISE NOTICE 'a NULL argument: FOUND=%', FOUND;
    CLOSE c;
END
$$;
SELECT cr_args();

-- the arguments are evaluated once, at OPEN: changing the variables they
-- were computed from does not affect the open cursor; an argument hides a
-- variable of the same name in the cursor's query, and the outer variable
-- is not changed by OPEN
CREATE FUNCTION cr_args_open_time() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    lo integer := 100;
    k integer := 6;
    c CURSOR (lo integer) FOR SELECT id FROM cr_items WHERE id >= lo ORDER BY id;
    v integer;
    acc text := '';
BEGIN
    OPEN c(k);
    k := 1;
    LOOP
        FETCH c INTO v;
        EXIT WHEN NOT FOUND;
        acc := acc || v || ' ';
    END LOOP;
    CLOSE c;
    RETURN 'c(k): ' || acc || '| outer lo still ' || lo;
END
$$;
SELECT cr_args_open_time();

-- an argument named like a column of the cursor's query is ambiguous
-- (reported at OPEN, when the query is first parsed)
CREATE FUNCTION cr_args_ambiguous() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    d CURSOR (qty integer) FOR SELECT name FROM cr_items WHERE cr_items.qty = qty;
    t text;
BEGIN
    RAISE NOTICE 'before OPEN';
    OPEN d(30);
    FETCH d INTO t;
    CLOSE d;
    RETURN t;
END
$$;
SELECT cr_args_ambiguous();

------------------------------------------------------------------------------
-- 3. SCROLL / NO SCROLL and the FETCH / MOVE directions
------------------------------------------------------------------------------

-- every single-row FETCH direction, with FROM and IN, on a SCROLL cursor
CREATE FUNCTION cr_scroll_fetch() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c SCROLL CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
    n integer;
    k integer := -3;
BEGIN
    OPEN c;
    FETCH NEXT FROM c INTO v;          RAISE NOTICE 'NEXT:          % %', v, FOUND;
    FETCH c INTO v;                    RAISE NOTICE '(none):        % %', v, FOUND;
    FETCH PRIOR FROM c INTO v;         RAISE NOTICE 'PRIOR:         % %', v, FOUND;
    FETCH PRIOR IN c INTO v;           RAISE NOTICE 'PRIOR (before the first row): % %', v, FOUND;
    FETCH NEXT IN c INTO v;            RAISE NOTICE 'NEXT IN:       % %', v, FOUND;
    FETCH LAST FROM c INTO v;          RAISE NOTICE 'LAST:          % %', v, FOUND;
    FETCH FIRST FROM c INTO v;         RAISE NOTICE 'FIRST:         % %', v, FOUND;
    FETCH ABSOLUTE 3 FROM c INTO v;    RAISE NOTICE 'ABSOLUTE 3:    % %', v, FOUND;
    FETCH ABSOLUTE -2 IN c INTO v;     RAISE NOTICE 'ABSOLUTE -2:   % %', v, FOUND;
    FETCH ABSOLUTE k FROM c INTO v;    RAISE NOTICE 'ABSOLUTE k=-3: % %', v, FOUND;
    FETCH RELATIVE -1 FROM c INTO v;   RAISE NOTICE 'RELATIVE -1:   % %', v, FOUND;
    FETCH RELATIVE 0 FROM c INTO v;    RAISE NOTICE 'RELATIVE 0:    % %', v, FOUND;
    FETCH RELATIVE 2 FROM c INTO v;    RAISE NOTICE 'RELATIVE 2:    % %', v, FOUND;
    FETCH RELATIVE k + 1 IN c INTO v;  RAISE NOTICE 'RELATIVE k+1:  % %', v, FOUND;
    FETCH FORWARD FROM c INTO v;       RAISE NOTICE 'FORWARD:       % %', v, FOUND;
    FETCH BACKWARD FROM c INTO v;      RAISE NOTICE 'BACKWARD:      % %', v, FOUND;
    FETCH BACKWARD IN c INTO v;        RAISE NOTICE 'BACKWARD IN:   % %', v, FOUND;
    FETCH ABSOLUTE 9 FROM c INTO v;    RAISE NOTICE 'ABSOLUTE 9 (past the end): % %', v, FOUND;
    FETCH PRIOR FROM c INTO v;         RAISE NOTICE 'PRIOR after that: % %', v, FOUND;
    FETCH ABSOLUTE 0 FROM c INTO v;    RAISE NOTICE 'ABSOLUTE 0:    % %', v, FOUND;
    FETCH NEXT FROM c INTO v;          RAISE NOTICE 'NEXT after that: % %', v, FOUND;
    FETCH RELATIVE 20 FROM c INTO v;   RAISE NOTICE 'RELATIVE 20:   % %', v, FOUND;
    FETCH RELATIVE -1 FROM c INTO v;   RAISE NOTICE 'RELATIVE -1 after that: % %', v, FOUND;
    FETCH ABSOLUTE -20 FROM c INTO v;  RAISE NOTICE 'ABSOLUTE -20:  % %', v, FOUND;
    FETCH RELATIVE 0 FROM c INTO v;    RAISE NOTICE 'RELATIVE 0 before the first row: % %', v, FOUND;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'ROW_COUNT=%', n;
    CLOSE c;
END
$$;
SELECT cr_scroll_fetch();

-- every MOVE direction: FOUND, ROW_COUNT and the row fetched right after
CREATE FUNCTION cr_scroll_move() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c SCROLL CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
    n integer;
    k integer := 2;
BEGIN
    OPEN c;
    MOVE NEXT FROM c;           GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE NEXT:          FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE LAST IN c;             GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE LAST:          FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE PRIOR FROM c;          GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE PRIOR:         FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;             RAISE NOTICE '  then FETCH: %', v;
    MOVE FIRST FROM c;          GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FIRST:         FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;             RAISE NOTICE '  then FETCH: %', v;
    MOVE ABSOLUTE 5 FROM c;     GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE ABSOLUTE 5:    FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;             RAISE NOTICE '  then FETCH: %', v;
    MOVE ABSOLUTE -1 FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE ABSOLUTE -1:   FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH PRIOR FROM c INTO v;  RAISE NOTICE '  then FETCH PRIOR: %', v;
    MOVE RELATIVE -2 FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE RELATIVE -2:   FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE RELATIVE 0 FROM c;     GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE RELATIVE 0:    FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE RELATIVE -k FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE RELATIVE -k:   FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE 2 FROM c;              GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE 2:             FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE (k) IN c;              GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE (k):           FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE -1 FROM c;             GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE -1:            FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE (k * 5) IN c;          GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE (k * 5) past the end: FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE BACKWARD FROM c;       GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE BACKWARD:      FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE BACKWARD 3 FROM c;     GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE BACKWARD 3:    FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE FORWARD FROM c;        GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FORWARD:       FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE FORWARD k + 1 IN c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FORWARD k + 1: FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH RELATIVE 0 FROM c INTO v; RAISE NOTICE '  then FETCH RELATIVE 0: %', v;
    MOVE BACKWARD ALL FROM c;   GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE BACKWARD ALL:  FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;             RAISE NOTICE '  then FETCH: %', v;
    MOVE FORWARD ALL FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FORWARD ALL:   FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE FORWARD ALL FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FORWARD ALL again: FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE BACKWARD 100 FROM c;   GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE BACKWARD 100:  FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE ALL IN c;              GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE ALL:           FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH PRIOR FROM c INTO v;  RAISE NOTICE '  then FETCH PRIOR: %', v;
    MOVE ABSOLUTE 0 FROM c;     GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE ABSOLUTE 0:    FOUND=% ROW_COUNT=%', FOUND, n;
    FETCH c INTO v;             RAISE NOTICE '  then FETCH: %', v;
    MOVE ABSOLUTE 50 FROM c;    GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE ABSOLUTE 50:   FOUND=% ROW_COUNT=%', FOUND, n;
    MOVE FORWARD 0 FROM c;      GET DIAGNOSTICS n = ROW_COUNT; RAISE NOTICE 'MOVE FORWARD 0:     FOUND=% ROW_COUNT=%', FOUND, n;
    CLOSE c;
END
$$;
SELECT cr_scroll_move();

-- a NO SCROLL cursor: moving forward works (FIRST and ABSOLUTE too, as
-- long as no step back is needed), going backward is an error, and so is
-- LAST (it reads to the end and steps back one row)
CREATE FUNCTION cr_no_scroll(how text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c NO SCROLL CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
    acc text := '';
BEGIN
    OPEN c;
    FETCH FIRST FROM c INTO v;
    acc := acc || 'FIRST=' || v;
    FETCH ABSOLUTE 4 FROM c INTO v;
    acc := acc || ' ABSOLUTE 4=' || v;
    MOVE FORWARD 2 FROM c;
    FETCH NEXT FROM c INTO v;
    acc := acc || ' NEXT=' || v;
    RAISE NOTICE '%', acc;
    IF how = 'prior' THEN
        FETCH PRIOR FROM c INTO v;
    ELSIF how = 'first' THEN
        FETCH FIRST FROM c INTO v;
    ELSIF how = 'absolute' THEN
        FETCH ABSOLUTE 2 FROM c INTO v;
    ELSIF how = 'relative 0' THEN
        FETCH RELATIVE 0 FROM c INTO v;
    ELSIF how = 'move backward' THEN
        MOVE BACKWARD FROM c;
    ELSIF how = 'last' THEN
        FETCH LAST FROM c INTO v;
    ELSIF how = 'relative 1' THEN
        FETCH RELATIVE 1 FROM c INTO v;
    ELSIF how = 'absolute 8' THEN
        FETCH ABSOLUTE 8 FROM c INTO v;
    ELSIF how = 'move all' THEN
        MOVE ALL FROM c;
        FETCH c INTO v;
    END IF;
    RETURN how || ': ' || coalesce(v::text, 'NULL');
END
$$;
SELECT cr_no_scroll('relative 1');
SELECT cr_no_scroll('absolute 8');
SELECT cr_no_scroll('move all');
SELECT cr_no_scroll('last');
SELECT cr_no_scroll('prior');
SELECT cr_no_scroll('first');
SELECT cr_no_scroll('absolute');
SELECT cr_no_scroll('relative 0');
SELECT cr_no_scroll('move backward');

-- without SCROLL or NO SCROLL, backward fetches work when the plan allows
-- them; with FOR UPDATE it does not
CREATE FUNCTION cr_default_scroll(locking boolean) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    d CURSOR FOR SELECT id FROM cr_items ORDER BY id FOR UPDATE;
    v integer;
BEGIN
    IF locking THEN
        OPEN d;
        FETCH LAST FROM d INTO v;
        FETCH PRIOR FROM d INTO v;
        CLOSE d;
    ELSE
        OPEN c;
        FETCH LAST FROM c INTO v;
        FETCH PRIOR FROM c INTO v;
        CLOSE c;
    END IF;
    RETURN 'LAST then PRIOR: ' || v;
END
$$;
SELECT cr_default_scroll(false);
SELECT cr_default_scroll(true);

-- the scroll option as seen in pg_cursors
CREATE FUNCTION cr_scroll_options() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c1 SCROLL CURSOR FOR SELECT id FROM cr_items;
    c2 NO SCROLL CURSOR FOR SELECT id FROM cr_items;
    c3 CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    c4 CURSOR FOR SELECT id FROM cr_items FOR UPDATE;
BEGIN
    c1 := 'cr_scroll';
    c2 := 'cr_no_scroll';
    c3 := 'cr_default';
    c4 := 'cr_for_update';
    OPEN c1;
    OPEN c2;
    OPEN c3;
    OPEN c4;
END
$$;
BEGIN;
SELECT cr_scroll_options();
SELECT * FROM cr_open ORDER BY name;
COMMIT;
SELECT * FROM cr_open ORDER BY name;

------------------------------------------------------------------------------
-- 4. unbound refcursor variables
------------------------------------------------------------------------------

CREATE FUNCTION cr_unbound() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
    r2 refcursor := 'cr_named';
    saved refcursor;
    v integer;
    t text;
    rec record;
BEGIN
    RAISE NOTICE 'before OPEN: r IS NULL=%', r IS NULL;
    OPEN r FOR SELECT id, name FROM cr_items WHERE id > 6 ORDER BY id;
    RAISE NOTICE 'after OPEN: r IS NOT NULL=% FOUND=%', r IS NOT NULL, FOUND;
    saved := r;
    FETCH r INTO v, t;
    RAISE NOTICE 'FETCH: % % %', v, t, FOUND;
    FETCH r INTO rec;
    RAISE NOTICE 'FETCH: % %', rec, FOUND;
    FETCH r INTO rec;
    RAISE NOTICE 'FETCH: % %', rec, FOUND;
    CLOSE r;
    RAISE NOTICE 'after CLOSE the variable keeps the name: %', r::text = saved::text;

    -- reopened under the same generated name
    OPEN r FOR SELECT 'reopened'::text;
    FETCH r INTO t;
    RAISE NOTICE 'reopened: % same name: %', t, r::text = saved::text;
    CLOSE r;

    -- a SCROLL unbound cursor
    OPEN r SCROLL FOR SELECT id FROM cr_items ORDER BY id;
    FETCH LAST FROM r INTO v;
    RAISE NOTICE 'SCROLL, LAST: %', v;
    FETCH ABSOLUTE 2 FROM r INTO v;
    RAISE NOTICE 'SCROLL, ABSOLUTE 2: %', v;
    FETCH PRIOR FROM r INTO v;
    RAISE NOTICE 'SCROLL, PRIOR: %', v;
    CLOSE r;

    -- OPEN FOR EXECUTE with USING
    OPEN r FOR EXECUTE 'SELECT id, name FROM cr_items WHERE id > $1 AND name <> $2 ORDER BY id'
        USING 3, 'date';
    FETCH r INTO v, t;
    RAISE NOTICE 'EXECUTE USING 3, ''date'': % %', v, t;
    FETCH r INTO v, t;
    RAISE NOTICE 'EXECUTE USING 3, ''date'': % %', v, t;
    CLOSE r;

    -- OPEN SCROLL FOR EXECUTE with a string built by format()
    OPEN r SCROLL FOR EXECUTE format('SELECT %I FROM %I ORDER BY 1 DESC', 'qty', 'cr_items');
    FETCH LAST FROM r INTO v;
    RAISE NOTICE 'SCROLL FOR EXECUTE format(), LAST: %', v;
    CLOSE r;

    -- a refcursor holding a name before OPEN: the portal gets that name
    OPEN r2 FOR SELECT id FROM cr_items ORDER BY id DESC;
    RAISE NOTICE 'r2 = %', r2;
    SELECT string_agg(name || ' scroll=' || is_scrollable, ', ') INTO t FROM cr_open;
    RAISE NOTICE 'open portals: %', t;
    FETCH r2 INTO v;
    RAISE NOTICE 'FETCH r2: %', v;
    CLOSE r2;

    r := 'cr_assigned';
    OPEN r FOR SELECT 42;
    FETCH r INTO v;
    RAISE NOTICE 'r = % FETCH: %', r, v;
    CLOSE r;

    -- a refcursor variable set back to NULL gets a new generated name
    r := NULL;
    OPEN r FOR SELECT 1;
    RAISE NOTICE 'after r := NULL and OPEN: r IS NOT NULL=% r = ''cr_assigned''=%', r IS NOT NULL, r::text = 'cr_assigned';
    CLOSE r;
END
$$;
SELECT cr_unbound();

-- two refcursor variables holding the same name refer to the same portal
CREATE FUNCTION cr_alias() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
    s refcursor;
    v integer;
    acc text := '';
BEGIN
    OPEN r FOR SELECT id FROM cr_items ORDER BY id;
    s := r;
    FETCH r INTO v;
    acc := acc || 'r:' || v;
    FETCH s INTO v;
    acc := acc || ' s:' || v;
    FETCH r INTO v;
    acc := acc || ' r:' || v;
    CLOSE s;
    BEGIN
        FETCH r INTO v;
    EXCEPTION WHEN invalid_cursor_name THEN
        acc := acc || ' | after CLOSE s, FETCH r: ' || replace(SQLERRM, r::text, '<generated>');
    END;
    RETURN acc;
END
$$;
SELECT cr_alias();

-- a bound cursor variable: its value is its own name; assigning another
-- name before OPEN renames the portal, assigning NULL makes OPEN generate one
CREATE FUNCTION cr_bound_names() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    "Mixed Case" CURSOR FOR SELECT 2;
    v integer;
BEGIN
    RAISE NOTICE 'c = %, "Mixed Case" = %', c, "Mixed Case";
    OPEN "Mixed Case";
    RAISE NOTICE 'open: %', (SELECT string_agg(name, ', ') FROM cr_open);
    CLOSE "Mixed Case";
    c := 'cr_renamed';
    OPEN c;
    RAISE NOTICE 'c = %, open: %', c, (SELECT string_agg(name, ', ') FROM cr_open);
    CLOSE c;
    c := NULL;
    OPEN c;
    FETCH c INTO v;
    RAISE NOTICE 'after c := NULL: c IS NOT NULL=% FETCH: % open named: %', c IS NOT NULL, v,
        (SELECT count(*) FROM cr_open);
    CLOSE c;
END
$$;
SELECT cr_bound_names();

------------------------------------------------------------------------------
-- 5. refcursors returned to the caller
------------------------------------------------------------------------------

-- a bound cursor renamed after the caller's argument and returned
CREATE FUNCTION cr_give(curname text) RETURNS refcursor LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, name FROM cr_items WHERE id <= 3 ORDER BY id;
BEGIN
    c := curname;
    OPEN c;
    RETURN c;
END
$$;
BEGIN;
SELECT cr_give('curname');
FETCH ALL FROM curname;
FETCH ALL FROM curname;
CLOSE curname;
COMMIT;

-- the cursor name passed as a refcursor argument
CREATE FUNCTION cr_give_ref(r refcursor, lo integer) RETURNS refcursor LANGUAGE plnimble AS $$
BEGIN
    OPEN r SCROLL FOR SELECT id, qty FROM cr_items WHERE id >= lo ORDER BY id;
    RETURN r;
END
$$;
BEGIN;
SELECT cr_give_ref('cr_ref', 6);
FETCH NEXT FROM cr_ref;
FETCH ALL IN cr_ref;
FETCH BACKWARD 2 FROM cr_ref;
MOVE ABSOLUTE 0 IN cr_ref;
FETCH 1 FROM cr_ref;
SELECT * FROM cr_open ORDER BY name;
CLOSE cr_ref;
COMMIT;

-- the default name of a bound cursor, and a generated name from an
-- unbound one (only checked for NULL, its number varies)
CREATE FUNCTION cr_give_default() RETURNS refcursor LANGUAGE plnimble AS $$
DECLARE
    my_cur CURSOR FOR SELECT name FROM cr_items WHERE id = 4;
BEGIN
    OPEN my_cur;
    RETURN my_cur;
END
$$;
CREATE FUNCTION cr_give_unnamed() RETURNS refcursor LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
BEGIN
    OPEN r FOR SELECT name FROM cr_items WHERE id = 5;
    RETURN r;
END
$$;
BEGIN;
SELECT cr_give_default();
FETCH ALL FROM my_cur;
SELECT cr_give_unnamed() IS NOT NULL AS generated_name;
SELECT count(*) AS unnamed_portals FROM pg_cursors WHERE name LIKE '<unnamed portal%';
COMMIT;

-- another function fetching from a cursor that the caller opened
CREATE FUNCTION cr_take(r refcursor) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    rec record;
    acc text := '';
BEGIN
    LOOP
        FETCH r INTO rec;
        EXIT WHEN NOT FOUND;
        acc := acc || rec.name || ' ';
    END LOOP;
    CLOSE r;
    RETURN acc;
END
$$;
BEGIN;
DECLARE cr_sql_cur CURSOR FOR SELECT id, name FROM cr_items WHERE id > 5 ORDER BY id;
FETCH 1 FROM cr_sql_cur;
SELECT cr_take('cr_sql_cur');
SELECT * FROM cr_open;
COMMIT;
SELECT cr_take(cr_give('cr_chain'));

-- outside a transaction block the portal is gone at the end of the statement
SELECT cr_give('cr_gone');
FETCH ALL FROM cr_gone;

------------------------------------------------------------------------------
-- 6. FOR rec IN bound cursor LOOP
------------------------------------------------------------------------------

CREATE FUNCTION cr_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, name FROM cr_items ORDER BY id;
    ca CURSOR (lo integer, hi integer) FOR
        SELECT id, name FROM cr_items WHERE id BETWEEN lo AND hi ORDER BY id;
    c_empty CURSOR FOR SELECT id FROM cr_items WHERE false;
    r integer := 99;
    acc text;
    v integer;
BEGIN
    acc := '';
    FOR r IN c LOOP
        acc := acc || r.name || ' ';
    END LOOP;
    RAISE NOTICE 'no arguments: % FOUND=% outer r=%', acc, FOUND, r;

    acc := '';
    FOR rec IN ca(2, 4) LOOP
        acc := acc || rec.id || ' ';
    END LOOP;
    RAISE NOTICE 'positional (2, 4): % FOUND=%', acc, FOUND;

    acc := '';
    FOR rec IN ca(hi := 8, lo := 7) LOOP
        acc := acc || rec.id || ' ';
    END LOOP;
    RAISE NOTICE 'named (hi := 8, lo := 7): %', acc;

    acc := '';
    FOR rec IN ca(5, hi := r - 93) LOOP
        acc := acc || rec.id || ' ';
    END LOOP;
    RAISE NOTICE 'mixed (5, hi := r - 93) with the outer r: %', acc;

    acc := '';
    FOR rec IN c LOOP
        CONTINUE WHEN rec.id % 2 = 0;
        EXIT WHEN rec.id > 5;
        acc := acc || rec.id || ' ';
    END LOOP;
    RAISE NOTICE 'CONTINUE on even, EXIT above 5: % FOUND=%', acc, FOUND;

    FOR rec IN c_empty LOOP
        RAISE NOTICE 'not reached';
    END LOOP;
    RAISE NOTICE 'empty cursor: FOUND=%', FOUND;

    -- the cursor is closed after the loop, also after EXIT: it can be
    -- opened again
    OPEN c;
    FETCH c INTO v;
    RAISE NOTICE 'OPEN after the loops: %', v;
    CLOSE c;

    -- nested loops over two cursors, the inner one taking an argument from
    -- the outer row, left with EXIT outer: both cursors are closed
    acc := '';
    <<outer>>
    FOR a IN c LOOP
        FOR b IN ca(a.id, 3) LOOP
            EXIT outer WHEN a.id = 2 AND b.id = 3;
            acc := acc || a.id || b.id || ' ';
        END LOOP;
    END LOOP;
    RAISE NOTICE 'nested loops with EXIT outer: %', acc;
    OPEN c;
    OPEN ca(1, 1);
    CLOSE ca;
    CLOSE c;
    RAISE NOTICE 'c and ca reopened and closed again';
END
$$;
SELECT cr_for();

-- nested loops over the same cursor: the inner loop finds it in use
CREATE FUNCTION cr_for_nested_same() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    ca CURSOR (lo integer, hi integer) FOR
        SELECT id FROM cr_items WHERE id BETWEEN lo AND hi ORDER BY id;
BEGIN
    FOR a IN ca(1, 3) LOOP
        RAISE NOTICE 'outer row %', a.id;
        FOR b IN ca(a.id, 3) LOOP
            RAISE NOTICE 'not reached';
        END LOOP;
    END LOOP;
END
$$;
SELECT cr_for_nested_same();

-- the loop fetches one row at a time: a FETCH from the same cursor inside
-- the loop body takes the next row away from the loop
CREATE FUNCTION cr_for_fetch() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
    acc text := '';
BEGIN
    FOR rec IN c LOOP
        FETCH c INTO v;
        acc := acc || rec.id || '/' || coalesce(v::text, '-') || ' ';
    END LOOP;
    RETURN acc;
END
$$;
SELECT cr_for_fetch();

-- RETURN from inside the loop closes the cursor too (the second call works)
CREATE FUNCTION cr_for_return(target integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, name FROM cr_items ORDER BY id;
BEGIN
    FOR rec IN c LOOP
        IF rec.id = target THEN
            RETURN rec.name;
        END IF;
    END LOOP;
    RETURN 'not found';
END
$$;
BEGIN;
SELECT cr_for_return(3), cr_for_return(4), cr_for_return(42);
SELECT * FROM cr_open;
COMMIT;

-- FOR over a cursor that is already open
CREATE FUNCTION cr_for_open() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
BEGIN
    OPEN c;
    FOR rec IN c LOOP
        RAISE NOTICE 'not reached: %', rec.id;
    END LOOP;
END
$$;
SELECT cr_for_open();

-- the loop's portal is named after the cursor variable, so a cursor of the
-- same name opened elsewhere clashes with it
CREATE FUNCTION cr_for_clash_inner() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c;
END
$$;
CREATE FUNCTION cr_for_clash() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
BEGIN
    FOR rec IN c LOOP
        RAISE NOTICE 'row %', rec.id;
        PERFORM cr_for_clash_inner();
    END LOOP;
END
$$;
SELECT cr_for_clash();

------------------------------------------------------------------------------
-- 7. UPDATE / DELETE ... WHERE CURRENT OF
------------------------------------------------------------------------------

CREATE TABLE cr_stock (id integer PRIMARY KEY, item text, qty integer);
INSERT INTO cr_stock VALUES (1, 'bolt', 5), (2, 'nut', 0), (3, 'screw', 12), (4, 'washer', 0), (5, 'rivet', 7);

-- FETCH then UPDATE / DELETE WHERE CURRENT OF a bound cursor
CREATE FUNCTION cr_current_of() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, qty FROM cr_stock ORDER BY id FOR UPDATE;
    r record;
    n integer;
    acc text := '';
BEGIN
    OPEN c;
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        IF r.qty = 0 THEN
            DELETE FROM cr_stock WHERE CURRENT OF c;
        ELSE
            UPDATE cr_stock SET qty = qty * 10 WHERE CURRENT OF c;
        END IF;
        GET DIAGNOSTICS n = ROW_COUNT;
        acc := acc || r.id || ':' || n || ' ';
    END LOOP;
    CLOSE c;
    RETURN acc;
END
$$;
SELECT cr_current_of();
SELECT * FROM cr_stock ORDER BY id;

-- inside a FOR loop over the cursor, with RETURNING
CREATE FUNCTION cr_current_of_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lim integer) FOR SELECT * FROM cr_stock WHERE qty < lim ORDER BY id FOR UPDATE;
    newq integer;
BEGIN
    FOR rec IN c(100) LOOP
        UPDATE cr_stock SET qty = qty + 1 WHERE CURRENT OF c RETURNING qty INTO newq;
        RAISE NOTICE '% % -> %', rec.id, rec.qty, newq;
    END LOOP;
END
$$;
SELECT cr_current_of_for();
SELECT * FROM cr_stock ORDER BY id;

-- WHERE CURRENT OF an unbound refcursor variable, and of a cursor on a
-- plain scan without FOR UPDATE
CREATE FUNCTION cr_current_of_ref() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
    c CURSOR FOR SELECT id FROM cr_stock WHERE item = 'bolt';
    v integer;
BEGIN
    OPEN r FOR SELECT id FROM cr_stock WHERE id >= 3 ORDER BY id FOR UPDATE;
    FETCH r INTO v;
    UPDATE cr_stock SET item = item || '*' WHERE CURRENT OF r;
    MOVE r;
    DELETE FROM cr_stock WHERE CURRENT OF r;
    CLOSE r;
    OPEN c;
    FETCH c INTO v;
    UPDATE cr_stock SET qty = -qty WHERE CURRENT OF c;
    CLOSE c;
END
$$;
SELECT cr_current_of_ref();
SELECT * FROM cr_stock ORDER BY id;

-- WHERE CURRENT OF errors: a cursor past its end, a cursor not yet
-- fetched, a sorted cursor without FOR UPDATE, a closed cursor
CREATE FUNCTION cr_current_of_err(how text) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_stock ORDER BY id FOR UPDATE;
    s CURSOR FOR SELECT id FROM cr_stock ORDER BY qty;
    v integer;
BEGIN
    IF how = 'past end' THEN
        OPEN c;
        MOVE FORWARD ALL FROM c;
        UPDATE cr_stock SET qty = 0 WHERE CURRENT OF c;
    ELSIF how = 'not fetched' THEN
        OPEN c;
        UPDATE cr_stock SET qty = 0 WHERE CURRENT OF c;
    ELSIF how = 'sorted' THEN
        OPEN s;
        FETCH s INTO v;
        UPDATE cr_stock SET qty = 0 WHERE CURRENT OF s;
    ELSIF how = 'closed' THEN
        UPDATE cr_stock SET qty = 0 WHERE CURRENT OF c;
    END IF;
    GET DIAGNOSTICS v = ROW_COUNT;
    RAISE NOTICE '%: % rows', how, v;
END
$$;
SELECT cr_current_of_err('past end');
SELECT cr_current_of_err('not fetched');
SELECT cr_current_of_err('sorted');
SELECT cr_current_of_err('closed');
SELECT * FROM cr_stock ORDER BY id;

------------------------------------------------------------------------------
-- 8. errors
------------------------------------------------------------------------------

-- run-time errors
CREATE FUNCTION cr_err(how text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    ca CURSOR (lo integer) FOR SELECT id FROM cr_items WHERE id >= lo ORDER BY id;
    r refcursor;
    v integer;
    k integer;
BEGIN
    IF how = 'fetch not open' THEN
        FETCH c INTO v;
    ELSIF how = 'move not open' THEN
        MOVE c;
    ELSIF how = 'close not open' THEN
        CLOSE c;
    ELSIF how = 'close twice' THEN
        OPEN c;
        CLOSE c;
        CLOSE c;
    ELSIF how = 'open twice' THEN
        OPEN c;
        OPEN c;
    ELSIF how = 'open unbound twice' THEN
        r := 'cr_twice';
        OPEN r FOR SELECT 1;
        OPEN r FOR SELECT 2;
    ELSIF how = 'open generated twice' THEN
        OPEN r FOR SELECT 1;
        BEGIN
            OPEN r FOR SELECT 2;
        EXCEPTION WHEN duplicate_cursor THEN
            RAISE NOTICE 'caught: % (SQLSTATE %)', replace(SQLERRM, r::text, '<generated>'), SQLSTATE;
        END;
    ELSIF how = 'fetch null' THEN
        FETCH r INTO v;
    ELSIF how = 'move null' THEN
        MOVE r;
    ELSIF how = 'close null' THEN
        CLOSE r;
    ELSIF how = 'fetch bound null' THEN
        c := NULL;
        FETCH c INTO v;
    ELSIF how = 'fetch unknown name' THEN
        r := 'cr_no_such_cursor';
        FETCH r INTO v;
    ELSIF how = 'null count' THEN
        OPEN c;
        FETCH ABSOLUTE k FROM c INTO v;
    ELSIF how = 'null move count' THEN
        OPEN c;
        MOVE FORWARD k FROM c;
    ELSIF how = 'bad argument' THEN
        OPEN ca('abc');
    ELSIF how = 'failing argument' THEN
        OPEN ca(1 / 0);
    ELSIF how = 'open update' THEN
        OPEN r FOR UPDATE cr_items SET qty = qty WHERE id = 1;
    ELSIF how = 'open execute update' THEN
        OPEN r FOR EXECUTE 'UPDATE cr_items SET qty = qty WHERE id = 1';
    ELSIF how = 'open execute null' THEN
        OPEN r FOR EXECUTE NULL;
    ELSIF how = 'open execute two' THEN
        OPEN r FOR EXECUTE 'SELECT 1; SELECT 2';
    ELSIF how = 'open bad query' THEN
        OPEN r FOR SELECT no_such_column FROM cr_items;
    ELSIF how = 'query fails at fetch' THEN
        OPEN r FOR SELECT 10 / (id - 2) FROM cr_items ORDER BY id;
        FETCH r INTO v;
        RAISE NOTICE 'first row: %', v;
        FETCH r INTO v;
    ELSIF how = 'wrong type' THEN
        OPEN r FOR SELECT name FROM cr_items ORDER BY id;
        FETCH r INTO v;
    END IF;
    RETURN how || ': no error';
END
$$;
SELECT cr_err('fetch not open');
SELECT cr_err('move not open');
SELECT cr_err('close not open');
SELECT cr_err('close twice');
SELECT cr_err('open twice');
SELECT cr_err('open unbound twice');
SELECT cr_err('open generated twice');
SELECT cr_err('fetch null');
SELECT cr_err('move null');
SELECT cr_err('close null');
SELECT cr_err('fetch bound null');
SELECT cr_err('fetch unknown name');
SELECT cr_err('null count');
SELECT cr_err('null move count');
SELECT cr_err('bad argument');
SELECT cr_err('failing argument');
SELECT cr_err('open update');
SELECT cr_err('open execute update');
SELECT cr_err('open execute null');
SELECT cr_err('open execute two');
SELECT cr_err('open bad query');
SELECT cr_err('query fails at fetch');
SELECT cr_err('wrong type');

-- OPEN FOR a DML statement with RETURNING is allowed: the statement runs
-- to completion at the first FETCH
CREATE TABLE cr_log (id integer, note text);
INSERT INTO cr_log VALUES (1, 'a'), (2, 'b'), (3, 'c');
CREATE FUNCTION cr_open_returning() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
    v integer;
    n integer;
BEGIN
    OPEN r FOR UPDATE cr_log SET note = upper(note) RETURNING id;
    SELECT count(*) INTO n FROM cr_log WHERE note = upper(note);
    RAISE NOTICE 'after OPEN: % rows updated', n;
    FETCH r INTO v;
    SELECT count(*) INTO n FROM cr_log WHERE note = upper(note);
    RAISE NOTICE 'after the first FETCH (%): % rows updated', v IS NOT NULL, n;
    CLOSE r;
    RETURN 'ok';
END
$$;
SELECT cr_open_returning();
SELECT * FROM cr_log ORDER BY id;

-- compile-time errors: FETCH with a direction that may return several rows
CREATE FUNCTION cr_bad_fetch_all() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH ALL FROM c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_forward_n() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH FORWARD 2 FROM c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_forward_1() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH FORWARD 1 FROM c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_backward_n() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH BACKWARD 2 FROM c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_forward_all() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH FORWARD ALL FROM c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_count() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH 1 FROM c INTO x;
END
$$;

-- compile-time errors: FETCH without INTO, a direction without FROM / IN,
-- a count that is a plain variable, MOVE ... INTO, a non-cursor variable
CREATE FUNCTION cr_bad_fetch_no_into() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c;
    FETCH c;
END
$$;
CREATE FUNCTION cr_bad_fetch_no_from() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH NEXT c INTO x;
END
$$;
CREATE FUNCTION cr_bad_move_var_count() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    n integer := 1;
BEGIN
    OPEN c;
    MOVE n FROM c;
END
$$;
CREATE FUNCTION cr_bad_move_into() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    MOVE c INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_not_cursor() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text := 'c';
    x integer;
BEGIN
    FETCH t INTO x;
END
$$;
CREATE FUNCTION cr_bad_fetch_undeclared() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    FETCH nosuch INTO x;
END
$$;
CREATE FUNCTION cr_bad_open_not_cursor() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
BEGIN
    OPEN t FOR SELECT 1;
END
$$;
CREATE FUNCTION cr_bad_close_expr() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c;
    CLOSE c, c;
END
$$;

-- compile-time errors: cursor arguments (named arguments only take :=,
-- => is a syntax error in PostgreSQL 15)
CREATE FUNCTION cr_bad_args_few() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(1);
END
$$;
CREATE FUNCTION cr_bad_args_many() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(1, 2, 3);
END
$$;
CREATE FUNCTION cr_bad_args_few_named() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(hi := 1);
END
$$;
CREATE FUNCTION cr_bad_args_unknown_name() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(lo := 1, mid := 2);
END
$$;
CREATE FUNCTION cr_bad_args_twice() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(lo := 1, lo := 2);
END
$$;
CREATE FUNCTION cr_bad_args_positional_and_named() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(1, lo := 2);
END
$$;
CREATE FUNCTION cr_bad_args_named_then_positional() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(hi := 1, 2);
END
$$;
CREATE FUNCTION cr_bad_args_arrow() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    OPEN c(hi => 7, lo => 6);
END
$$;
CREATE FUNCTION cr_bad_for_args_arrow() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    FOR r IN c(5, hi => 6) LOOP
    END LOOP;
END
$$;
CREATE FUNCTION cr_bad_args_none_given() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer) FOR SELECT lo;
BEGIN
    OPEN c;
END
$$;
CREATE FUNCTION cr_bad_args_empty_list() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer) FOR SELECT lo;
BEGIN
    OPEN c();
END
$$;
CREATE FUNCTION cr_bad_args_not_expected() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c(1);
END
$$;
CREATE FUNCTION cr_bad_for_args_few() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    FOR r IN c(1) LOOP
    END LOOP;
END
$$;
CREATE FUNCTION cr_bad_for_args_missing() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer) FOR SELECT lo;
BEGIN
    FOR r IN c LOOP
    END LOOP;
END
$$;
CREATE FUNCTION cr_bad_for_args_not_expected() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    FOR r IN c(1) LOOP
    END LOOP;
END
$$;

-- compile-time errors: OPEN FOR on a bound cursor, OPEN of an unbound
-- refcursor without FOR, FOR over an unbound refcursor, duplicate argument
-- names in the declaration
CREATE FUNCTION cr_bad_open_bound_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c FOR SELECT 2;
END
$$;
CREATE FUNCTION cr_bad_open_bound_scroll() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    OPEN c SCROLL FOR SELECT 2;
END
$$;
CREATE FUNCTION cr_bad_open_unbound_no_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
BEGIN
    OPEN r;
END
$$;
CREATE FUNCTION cr_bad_for_unbound() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
BEGIN
    FOR rec IN r LOOP
    END LOOP;
END
$$;
CREATE FUNCTION cr_bad_decl_dup_args() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (a integer, a integer) FOR SELECT a;
BEGIN
    OPEN c(1, 2);
END
$$;
CREATE FUNCTION cr_bad_decl_query() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELEC 1;
BEGIN
    OPEN c;
END
$$;

-- with check_function_bodies off the same bodies are accepted by CREATE
-- FUNCTION and fail at the first call
SET check_function_bodies = off;
CREATE FUNCTION cr_late_fetch_all() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 1;
    x integer;
BEGIN
    OPEN c;
    FETCH ALL FROM c INTO x;
END
$$;
CREATE FUNCTION cr_late_args() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR (lo integer, hi integer) FOR SELECT lo, hi;
BEGIN
    RAISE NOTICE 'not reached';
    OPEN c(1);
END
$$;
RESET check_function_bodies;
SELECT cr_late_fetch_all();
SELECT cr_late_args();

------------------------------------------------------------------------------
-- 9. cursors and exception blocks
------------------------------------------------------------------------------

-- a cursor opened inside a block that fails is closed by the rollback: a
-- later FETCH says it does not exist, and it can be opened again; a cursor
-- opened before the block stays open and keeps its position
CREATE FUNCTION cr_exc_open_inside() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    outer_c CURSOR FOR SELECT name FROM cr_items ORDER BY id;
    v integer;
    t text;
BEGIN
    OPEN outer_c;
    FETCH outer_c INTO t;
    RAISE NOTICE 'outer_c before the block: %', t;
    BEGIN
        OPEN c;
        FETCH c INTO v;
        FETCH outer_c INTO t;
        RAISE NOTICE 'inside the block: c=% outer_c=%', v, t;
        PERFORM 1 / 0;
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'caught: % (v=%, t=% keep their values)', SQLERRM, v, t;
    END;
    BEGIN
        FETCH c INTO v;
    EXCEPTION WHEN invalid_cursor_name THEN
        RAISE NOTICE 'FETCH c after the block: % (SQLSTATE %)', SQLERRM, SQLSTATE;
    END;
    OPEN c;
    FETCH c INTO v;
    RAISE NOTICE 'c reopened: %', v;
    CLOSE c;
    FETCH outer_c INTO t;
    RAISE NOTICE 'outer_c after the block continues: %', t;
    CLOSE outer_c;
END
$$;
SELECT cr_exc_open_inside();

-- the same with an unbound refcursor: the variable keeps the generated
-- name, the portal is gone, OPEN reuses the name
CREATE FUNCTION cr_exc_unbound() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r refcursor;
    saved refcursor;
    v integer;
BEGIN
    BEGIN
        OPEN r FOR SELECT 1;
        saved := r;
        RAISE EXCEPTION 'fail';
    EXCEPTION WHEN raise_exception THEN
        RAISE NOTICE 'caught: r IS NOT NULL=% same name=%', r IS NOT NULL, r::text = saved::text;
    END;
    BEGIN
        FETCH r INTO v;
    EXCEPTION WHEN invalid_cursor_name THEN
        RAISE NOTICE 'FETCH r after the block: %', replace(SQLERRM, r::text, '<generated>');
    END;
    OPEN r FOR SELECT 2;
    FETCH r INTO v;
    RAISE NOTICE 'reopened: % same name=%', v, r::text = saved::text;
    CLOSE r;
END
$$;
SELECT cr_exc_unbound();

-- a cursor opened in a block that ends normally stays open; a cursor
-- closed in a block that fails stays closed; FETCH and MOVE in a failed
-- block are not undone
CREATE FUNCTION cr_exc_not_undone() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    d SCROLL CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    v integer;
BEGIN
    BEGIN
        OPEN c;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'not reached';
    END;
    FETCH c INTO v;
    RAISE NOTICE 'c opened in a successful block: %', v;
    BEGIN
        CLOSE c;
        PERFORM 1 / 0;
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'caught after CLOSE c';
    END;
    BEGIN
        FETCH c INTO v;
    EXCEPTION WHEN invalid_cursor_name THEN
        RAISE NOTICE 'FETCH c: %', SQLERRM;
    END;
    OPEN d;
    BEGIN
        FETCH d INTO v;
        MOVE FORWARD 3 FROM d;
        RAISE NOTICE 'in the block: FETCH %, then MOVE FORWARD 3', v;
        RAISE EXCEPTION 'fail after FETCH';
    EXCEPTION WHEN raise_exception THEN
        RAISE NOTICE 'caught: % v=% FOUND=%', SQLERRM, v, FOUND;
    END;
    FETCH d INTO v;
    RAISE NOTICE 'FETCH d after the block: %', v;
    FETCH ABSOLUTE 1 FROM d INTO v;
    RAISE NOTICE 'FETCH ABSOLUTE 1 FROM d: %', v;
    CLOSE d;
END
$$;
SELECT cr_exc_not_undone();

-- the error is raised by FETCH itself (the cursor's query fails on a row):
-- the handler catches it; the cursor opened before the block cannot be
-- used any more
CREATE FUNCTION cr_exc_fetch_fails(how text) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 10 / (3 - id) AS q FROM cr_items ORDER BY id;
    v integer;
BEGIN
    OPEN c;
    BEGIN
        LOOP
            FETCH c INTO v;
            EXIT WHEN NOT FOUND;
            RAISE NOTICE 'row %', v;
        END LOOP;
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'caught: % (v=%)', SQLERRM, v;
    END;
    IF how = 'fetch' THEN
        FETCH c INTO v;
        RAISE NOTICE 'FETCH after the failure: %', v;
    ELSIF how = 'close' THEN
        CLOSE c;
        RAISE NOTICE 'CLOSE after the failure works';
        OPEN c;
        FETCH c INTO v;
        RAISE NOTICE 'reopened: %', v;
        CLOSE c;
    END IF;
END
$$;
SELECT cr_exc_fetch_fails('fetch');
SELECT cr_exc_fetch_fails('close');

-- an error in the body of a FOR loop over a cursor, caught outside the
-- loop: the cursor is closed, the loop can run again
CREATE FUNCTION cr_exc_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id FROM cr_items ORDER BY id;
    acc text := '';
BEGIN
    BEGIN
        FOR rec IN c LOOP
            acc := acc || rec.id || ' ';
            IF rec.id = 3 THEN
                RAISE EXCEPTION 'stop at %', rec.id;
            END IF;
        END LOOP;
    EXCEPTION WHEN raise_exception THEN
        RAISE NOTICE 'caught: % after %', SQLERRM, acc;
    END;
    acc := '';
    FOR rec IN c LOOP
        acc := acc || rec.id || ' ';
    END LOOP;
    RAISE NOTICE 'second loop: %', acc;
END
$$;
SELECT cr_exc_for();

-- an error inside the FOR loop body (inside a nested block) that is caught
-- there: the loop continues
CREATE FUNCTION cr_exc_in_for() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, qty FROM cr_items ORDER BY id;
    acc text := '';
BEGIN
    FOR rec IN c LOOP
        BEGIN
            acc := acc || (100 / (rec.qty - 30)) || ' ';
        EXCEPTION WHEN division_by_zero THEN
            acc := acc || 'x ';
        END;
    END LOOP;
    RETURN acc;
END
$$;
SELECT cr_exc_in_for();

-- an uncaught error: the CONTEXT line names the cursor statement
CREATE FUNCTION cr_exc_uncaught() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 10 / (2 - id) FROM cr_items ORDER BY id;
    v integer;
BEGIN
    OPEN c;
    FETCH c INTO v;
    RAISE NOTICE 'first: %', v;
    FETCH c INTO v;
END
$$;
SELECT cr_exc_uncaught();
CREATE FUNCTION cr_exc_uncaught_for() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT 10 / (2 - id) AS q FROM cr_items ORDER BY id;
BEGIN
    FOR rec IN c LOOP
        RAISE NOTICE 'row: %', rec.q;
    END LOOP;
END
$$;
SELECT cr_exc_uncaught_for();

------------------------------------------------------------------------------
-- 10. cursors left open at the end of a function or DO block
------------------------------------------------------------------------------

CREATE FUNCTION cr_leave_open() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT id, name FROM cr_items WHERE id BETWEEN 3 AND 6 ORDER BY id;
    v integer;
BEGIN
    OPEN c;
    FETCH c INTO v;
    RETURN 'fetched ' || v || ', left open';
END
$$;
BEGIN;
SELECT cr_leave_open();
SELECT * FROM cr_open;
FETCH NEXT FROM c;
-- a second call finds the portal "c" still open
SELECT cr_leave_open();
ROLLBACK;
-- after the transaction it is gone and the function works again
SELECT cr_leave_open();
SELECT * FROM cr_open;

-- a later function call picks it up by name
BEGIN;
SELECT cr_leave_open();
SELECT cr_take('c');
SELECT * FROM cr_open;
COMMIT;

-- a DO block leaving cursors open
BEGIN;
DO LANGUAGE plnimble $$
DECLARE
    c CURSOR FOR SELECT name FROM cr_items WHERE id > 6 ORDER BY id;
    r refcursor := 'cr_do_ref';
BEGIN
    c := 'cr_do_cur';
    OPEN c;
    OPEN r SCROLL FOR SELECT id FROM cr_items WHERE id < 3 ORDER BY id;
END
$$;
SELECT * FROM cr_open ORDER BY name;
FETCH ALL FROM cr_do_cur;
FETCH ALL FROM cr_do_ref;
FETCH BACKWARD ALL FROM cr_do_ref;
COMMIT;
SELECT * FROM cr_open ORDER BY name;

-- outside a transaction block the DO block's cursor is gone at once
DO LANGUAGE plnimble $$
DECLARE
    c CURSOR FOR SELECT 1;
BEGIN
    c := 'cr_do_gone';
    OPEN c;
END
$$;
FETCH ALL FROM cr_do_gone;

-- a DO block fetching from a cursor declared in SQL
BEGIN;
DECLARE cr_sql_scroll SCROLL CURSOR FOR SELECT id, name FROM cr_items ORDER BY id;
DO LANGUAGE plnimble $$
DECLARE
    r refcursor := 'cr_sql_scroll';
    rec record;
BEGIN
    FETCH LAST FROM r INTO rec;
    RAISE NOTICE 'last: %', rec;
    FETCH ABSOLUTE 2 FROM r INTO rec;
    RAISE NOTICE 'absolute 2: %', rec;
    MOVE FORWARD 2 IN r;
END
$$;
FETCH NEXT FROM cr_sql_scroll;
COMMIT;

DROP VIEW cr_open;

-- OPEN gives a NULL cursor variable the portal's name: not a CONSTANT one
-- (the error comes at the OPEN, and the variable stays NULL); a CONSTANT
-- variable with a name opens under that name
DO $$
DECLARE
    c CONSTANT refcursor;
BEGIN
    OPEN c FOR SELECT 1;
END
$$ LANGUAGE plnimble;
DO $$
DECLARE
    c CONSTANT refcursor;
BEGIN
    OPEN c SCROLL FOR EXECUTE 'SELECT 1';
END
$$ LANGUAGE plnimble;
DO $$
DECLARE
    c CONSTANT refcursor;
BEGIN
    BEGIN
        OPEN c FOR SELECT 1;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'caught % %', SQLSTATE, SQLERRM;
    END;
    RAISE NOTICE 'c is %', coalesce(c::text, 'null');
END
$$ LANGUAGE plnimble;
DO $$
DECLARE
    c CONSTANT refcursor := 'cr_const_named';
    n int;
BEGIN
    OPEN c FOR SELECT 42;
    FETCH c INTO n;
    RAISE NOTICE 'opened %, fetched %', c, n;
    CLOSE c;
END
$$ LANGUAGE plnimble;
