-- portal_options: the portals a function opens, as pg_cursors shows them
-- while they are open: the implicit portal of FOR ... IN query and of
-- FOR ... IN EXECUTE is NO SCROLL (PL/pgSQL prepares it so: the loop only
-- reads forward), whatever the plan could do; OPEN without SCROLL or NO
-- SCROLL lets the plan decide (a plan that can scan backward makes a
-- scrollable portal); SCROLL and NO SCROLL are kept; a bound cursor's FOR
-- loop uses the cursor's own options; portal names and statement texts;
-- the portals of a cursor loop in a procedure after COMMIT; an implicit
-- portal named through a refcursor refuses to go backward.

CREATE TABLE po_t (id int PRIMARY KEY, v text);
INSERT INTO po_t SELECT g, 'v' || g FROM generate_series(1, 5) g;

CREATE VIEW po_cursors AS
  SELECT name, statement, is_holdable, is_binary, is_scrollable
    FROM pg_cursors ORDER BY name;

-- the loop over the query reads pg_cursors, so it lists its own portal
CREATE FUNCTION po_loops() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  r record;
  q record;
BEGIN
  FOR r IN SELECT * FROM po_t ORDER BY id LOOP
    FOR q IN SELECT * FROM po_cursors LOOP
      RETURN NEXT 'query loop: ' || q::text;
    END LOOP;
    EXIT;
  END LOOP;
  FOR r IN EXECUTE 'SELECT * FROM po_t WHERE id > $1' USING 2 LOOP
    FOR q IN EXECUTE 'SELECT * FROM po_cursors' LOOP
      RETURN NEXT 'execute loop: ' || q::text;
    END LOOP;
    EXIT;
  END LOOP;
END
$$;
SELECT * FROM po_loops();

-- OPEN in every form; the plan of a sort over a sequential scan can go
-- backward, a function scan of a Result cannot
CREATE FUNCTION po_opens() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  c_plain refcursor := 'c_plain';
  c_scroll refcursor := 'c_scroll';
  c_noscroll refcursor := 'c_noscroll';
  c_exec refcursor := 'c_exec';
  c_exec_scroll refcursor := 'c_exec_scroll';
  c_bound CURSOR FOR SELECT id FROM po_t ORDER BY id;
  c_bound_scroll SCROLL CURSOR (lo int) FOR SELECT id FROM po_t WHERE id > lo;
  c_bound_noscroll NO SCROLL CURSOR FOR SELECT id FROM po_t;
  q record;
BEGIN
  OPEN c_plain FOR SELECT * FROM po_t ORDER BY v;
  OPEN c_scroll SCROLL FOR SELECT random() FROM generate_series(1, 3);
  OPEN c_noscroll NO SCROLL FOR SELECT * FROM po_t;
  OPEN c_exec FOR EXECUTE 'SELECT 1';
  OPEN c_exec_scroll SCROLL FOR EXECUTE 'SELECT 1';
  OPEN c_bound;
  OPEN c_bound_scroll(2);
  OPEN c_bound_noscroll;
  FOR q IN SELECT * FROM po_cursors WHERE name NOT LIKE '<%' LOOP
    RETURN NEXT q::text;
  END LOOP;
END
$$;
SELECT * FROM po_opens();

-- a bound cursor's loop keeps the cursor's options
CREATE FUNCTION po_bound_loop() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  c1 CURSOR FOR SELECT id FROM po_t;
  c2 SCROLL CURSOR FOR SELECT id FROM po_t;
  r record;
  s record;
  q record;
BEGIN
  FOR r IN c1 LOOP
    FOR s IN c2 LOOP
      FOR q IN SELECT * FROM po_cursors WHERE name IN ('c1', 'c2') LOOP
        RETURN NEXT q::text;
      END LOOP;
      EXIT;
    END LOOP;
    EXIT;
  END LOOP;
END
$$;
SELECT * FROM po_bound_loop();

-- the loop's portal, reached by its name, cannot be moved backward
CREATE FUNCTION po_backward() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  r record;
  c refcursor;
  n int;
BEGIN
  FOR r IN SELECT * FROM po_t ORDER BY id LOOP
    SELECT name INTO c FROM pg_cursors WHERE statement LIKE '%ORDER BY id%';
    MOVE BACKWARD 1 IN c;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN 'moved ' || n;
  END LOOP;
END
$$;
SELECT po_backward();
CREATE FUNCTION po_backward_exec() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  r record;
  c refcursor;
  n int;
BEGIN
  FOR r IN EXECUTE 'SELECT * FROM po_t' LOOP
    SELECT name INTO c FROM pg_cursors WHERE statement = 'SELECT * FROM po_t';
    MOVE BACKWARD 1 IN c;
    RETURN 'moved';
  END LOOP;
END
$$;
SELECT po_backward_exec();

-- a procedure's cursor loop across COMMIT: the loop's portal lives on,
-- still NO SCROLL, and a new loop after it opens a new portal
CREATE PROCEDURE po_commit() LANGUAGE plnimble AS $$
DECLARE
  r record;
  q record;
BEGIN
  FOR r IN SELECT * FROM po_t ORDER BY id LOOP
    COMMIT;
    FOR q IN SELECT * FROM po_cursors LOOP
      RAISE NOTICE 'after commit: %', q;
    END LOOP;
    EXIT;
  END LOOP;
END
$$;
CALL po_commit();
