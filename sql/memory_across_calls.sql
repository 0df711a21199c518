-- memory_across_calls: calling a function many times must not make any
-- memory context of it grow.  Functions that together use every kind of
-- statement (assignment, IF, CASE with and without a search value, LOOP,
-- WHILE, integer and query FOR loops, FOREACH, EXIT and CONTINUE, RETURN,
-- RETURN NEXT and QUERY, RAISE, ASSERT, SQL, PERFORM, GET DIAGNOSTICS,
-- EXECUTE and FOR ... IN EXECUTE, cursors, COMMIT and ROLLBACK, exception
-- blocks catching errors with and without a subtransaction, triggers) are
-- called a few hundred times, then the sizes of the language's contexts
-- (the function contexts, named by signature, and their helpers; from
-- pg_backend_memory_contexts) are recorded, then the functions are called
-- thousands of times more and every context that grew is listed: none
-- may.  (A CASE with a search value once rebuilt its type in the
-- function's memory on every call.)  At the end, the same for a loop
-- inside one call that opens, fetches from and closes a named cursor
-- (OPEN once kept a copy of the cursor's name until the call ended).

CREATE TABLE mac_t (id integer PRIMARY KEY, v text, n integer);
INSERT INTO mac_t SELECT g, 'v' || g, g FROM generate_series(1, 20) g;
CREATE TABLE mac_log (id integer, note text);

-- the language's contexts (PL/nimble ..., PL/pgSQL ...), summed by name
-- and identifier
CREATE FUNCTION mac_mem(OUT name text, OUT ident text, OUT bytes bigint)
RETURNS SETOF record LANGUAGE sql AS $$
    SELECT name, coalesce(ident, ''), sum(total_bytes)::bigint
      FROM pg_backend_memory_contexts
     WHERE name LIKE 'PL/%'
     GROUP BY 1, 2
$$;

CREATE FUNCTION mac_compute(i integer, t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    x integer := 0;
    s text := '';
    a integer[];
    b text[] := '{p,q}';
    e text;
    k integer;
    z integer := 0;
BEGIN
    a := '{1,2}';
    a[3] := i;
    IF i % 3 = 0 THEN
        x := 1;
    ELSIF i % 3 = 1 THEN
        x := 2;
    ELSE
        x := 3;
    END IF;
    CASE t
        WHEN 'a' THEN s := 'A';
        WHEN 'b' THEN s := 'B';
        ELSE s := 'other';
    END CASE;
    CASE
        WHEN x = 1 THEN s := s || '1';
        ELSE s := s || 'n';
    END CASE;
    LOOP
        x := x + 1;
        EXIT WHEN x > 5;
    END LOOP;
    WHILE x < 10 LOOP
        x := x + 2;
    END LOOP;
    FOR j IN 1..5 LOOP
        CONTINUE WHEN j % 2 = 0;
        x := x + j;
    END LOOP;
    FOREACH k IN ARRAY a LOOP
        x := x + k;
    END LOOP;
    FOREACH e IN ARRAY b LOOP
        s := s || e;
    END LOOP;
    BEGIN
        x := x / z;
    EXCEPTION WHEN division_by_zero THEN
        x := x + 100;
    END;
    BEGIN
        CASE t
            WHEN 'a' THEN a := '{3,4}';
            ELSE a := '{5}';
        END CASE;
        RAISE EXCEPTION 'oops %', i USING ERRCODE = 'P0001';
    EXCEPTION WHEN raise_exception THEN
        GET STACKED DIAGNOSTICS e = MESSAGE_TEXT;
        s := s || length(e);
    END;
    ASSERT x > 0, 'x must be positive';
    RAISE DEBUG 'x is %', x;
    RETURN s || x || a::text;
END
$$;

CREATE FUNCTION mac_sql(i integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    r record;
    w text;
    n integer := 0;
    c CURSOR (lo integer) FOR SELECT id FROM mac_t WHERE id >= lo ORDER BY id;
    rc refcursor;
    rows bigint;
BEGIN
    INSERT INTO mac_log VALUES (i, 'x' || i);
    UPDATE mac_log SET note = note || '!' WHERE id = i;
    GET DIAGNOSTICS rows = ROW_COUNT;
    n := n + rows;
    SELECT m.v INTO w FROM mac_t m WHERE m.id = i % 20 + 1;
    PERFORM count(*) FROM mac_t;
    n := n + found::integer;
    FOR r IN SELECT id, v FROM mac_t WHERE id <= 3 LOOP
        n := n + r.id;
    END LOOP;
    EXECUTE 'SELECT count(*) FROM mac_t WHERE id > $1' INTO rows USING i % 20;
    n := n + rows;
    FOR r IN EXECUTE format('SELECT %s AS k', i % 7) LOOP
        n := n + r.k;
    END LOOP;
    OPEN c(18);
    FETCH c INTO r;
    MOVE c;
    FETCH NEXT FROM c INTO r;
    CLOSE c;
    n := n + coalesce(r.id, 0);
    FOR q IN c(19) LOOP
        n := n + q.id;
    END LOOP;
    OPEN rc FOR SELECT v FROM mac_t WHERE id = 1;
    FETCH rc INTO w;
    CLOSE rc;
    BEGIN
        INSERT INTO mac_t VALUES (1, 'dup', 0);
    EXCEPTION WHEN unique_violation THEN
        n := n + 1;
    END;
    DELETE FROM mac_log WHERE id = i;
    RETURN n;
END
$$;

CREATE FUNCTION mac_srf(i integer) RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT i;
    RETURN QUERY SELECT id FROM mac_t WHERE id <= 2;
    RETURN;
END
$$;

CREATE FUNCTION mac_trig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.note := upper(NEW.note) || TG_OP;
    RETURN NEW;
END
$$;
CREATE TRIGGER mac_trig BEFORE INSERT OR UPDATE ON mac_log
    FOR EACH ROW EXECUTE FUNCTION mac_trig();

CREATE PROCEDURE mac_proc(i integer) LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO mac_log VALUES (-i, 'p');
    IF i % 2 = 0 THEN
        COMMIT;
    ELSE
        ROLLBACK;
    END IF;
    DELETE FROM mac_log WHERE id = -i;
    COMMIT;
END
$$;

-- runs everything n times: one transaction for the functions, one per
-- call of the procedure
CREATE PROCEDURE mac_run(n integer) LANGUAGE sql AS $$
    SELECT count(mac_compute(g, CASE g % 3 WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE 'c' END))
      FROM generate_series(1, n) g;
    SELECT sum(mac_sql(g)) FROM generate_series(1, n / 4) g;
    SELECT count(*) FROM generate_series(1, n / 4) g, mac_srf(g);
$$;

-- the results are what they should be
SELECT mac_compute(1, 'a'), mac_compute(2, 'b'), mac_compute(3, NULL);
SELECT mac_sql(5), mac_sql(19);
SELECT array_agg(x) FROM mac_srf(7) x;

-- warm up, then measure
CALL mac_run(400);
DO $$ BEGIN FOR g IN 1..50 LOOP CALL mac_proc(g); END LOOP; END $$;
CREATE TABLE mac_before AS SELECT * FROM mac_mem();
CALL mac_run(20000);
DO $$ BEGIN FOR g IN 1..1000 LOOP CALL mac_proc(g); END LOOP; END $$;
SELECT a.name, a.ident, a.bytes > 2 * b.bytes AS doubled
  FROM mac_mem() a JOIN mac_before b USING (name, ident)
 WHERE a.bytes > b.bytes
 ORDER BY 1, 2;
-- and no context is new either
SELECT name, ident FROM mac_mem() EXCEPT SELECT name, ident FROM mac_before;
SELECT count(*) FROM mac_log;

-- within one call: the backend's memory after 1,000 and after 20,000
-- iterations of OPEN, FETCH, CLOSE, measured by the same query both times.
-- (PL/pgSQL grows by about 90 kB here; a copy of the cursor's name kept
-- per OPEN is over 1 MB.)
CREATE FUNCTION mac_used() RETURNS bigint LANGUAGE sql
    AS 'SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts';
CREATE FUNCTION mac_cursor_loop(n integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    c refcursor := 'mac_c';
    b CURSOR (k integer) FOR SELECT v FROM mac_t WHERE id = k;
    w text;
    at_start bigint;
    at_end bigint;
BEGIN
    FOR i IN 1..n LOOP
        OPEN c FOR SELECT v FROM mac_t WHERE id = i % 20 + 1;
        FETCH c INTO w;
        CLOSE c;
        OPEN b(i % 20 + 1);
        FETCH b INTO w;
        CLOSE b;
        IF i = 1000 THEN
            at_start := mac_used();
        ELSIF i = n THEN
            at_end := mac_used();
        END IF;
    END LOOP;
    RETURN at_end - at_start < 512 * 1024;
END
$$;
SELECT mac_cursor_loop(20000);
