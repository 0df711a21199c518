-- plan_validity: plans of expressions are checked again whenever something
-- may have made them stale, even in loops of pure statements, where
-- plnimble skips the check between two pure evaluations.  Here the search
-- path changes in the middle of a loop (by a statement in the loop, by a
-- recursive call of the same function, by an error caught in the loop),
-- and "i + 1" must then resolve to an operator of another schema, as in
-- PL/pgSQL.

CREATE SCHEMA pv;
CREATE FUNCTION pv.odd_plus(integer, integer) RETURNS integer
    LANGUAGE sql IMMUTABLE
    AS 'SELECT $1 OPERATOR(pg_catalog.+) $2 OPERATOR(pg_catalog.+) 1000';
CREATE OPERATOR pv.+ (LEFTARG = integer, RIGHTARG = integer,
                      FUNCTION = pv.odd_plus);

-- a statement in the loop changes the search path
CREATE FUNCTION pv_loop() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
    x integer;
BEGIN
    FOR i IN 1..4 LOOP
        x := i + 1;
        r := r || x || ' ';
        IF i = 2 THEN
            PERFORM set_config('search_path', 'pv, pg_catalog', true);
        END IF;
    END LOOP;
    RETURN r;
END
$$;
BEGIN;
SELECT pv_loop();
SHOW search_path;
ROLLBACK;

-- the inner call of a recursive function changes it; the outer call then
-- evaluates the same expressions again
CREATE FUNCTION pv_recurse(depth integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
    x integer;
BEGIN
    FOR i IN 1..3 LOOP
        x := i + 1;
        r := r || x || ' ';
    END LOOP;
    IF depth = 0 THEN
        r := r || '[' || pv_recurse(1) || '] ';
        FOR i IN 1..3 LOOP
            x := i + 1;
            r := r || x || ' ';
        END LOOP;
    ELSE
        PERFORM set_config('search_path', 'pv, pg_catalog', true);
    END IF;
    RETURN r;
END
$$;
BEGIN;
SELECT pv_recurse(0);
ROLLBACK;

-- a SET LOCAL inside an exception block is undone when the block fails;
-- the expressions after it see the old search path again
CREATE FUNCTION pv_rollback() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
    x integer;
BEGIN
    FOR i IN 1..3 LOOP
        x := i + 1;
        r := r || x || ' ';
        BEGIN
            PERFORM set_config('search_path', 'pv, pg_catalog', true);
            x := i + 1;
            r := r || '(' || x || ') ';
            x := 1 / 0;
        EXCEPTION WHEN division_by_zero THEN
            x := i + 1;
            r := r || '<' || x || '> ';
        END;
    END LOOP;
    RETURN r;
END
$$;
SELECT pv_rollback();
SHOW search_path;

-- a pure loop with an error caught in every iteration keeps its value
CREATE FUNCTION pv_caught(n integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    s integer := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            s := s + i;
            IF i % 10 = 0 THEN
                s := s / 0;
            END IF;
        EXCEPTION WHEN division_by_zero THEN
            s := s - 1;
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT pv_caught(1000);

-- the query of a FOR loop changes the search path while its rows are
-- fetched (in batches); expressions reading the loop's record must see it
CREATE FUNCTION pv_path_at(i integer, at integer) RETURNS integer
    LANGUAGE sql
    AS 'SELECT CASE WHEN i = at
                    THEN i + 0 * length(set_config(''search_path'', ''pv, pg_catalog'', true))
                    ELSE i END';
CREATE FUNCTION pv_forquery() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
    x integer;
    rec record;
BEGIN
    FOR rec IN SELECT pv_path_at(g, 60) AS v FROM generate_series(1, 120) g LOOP
        x := rec.v + 1;
        IF rec.v % 20 = 0 THEN
            r := r || x || ' ';
        END IF;
    END LOOP;
    RETURN r;
END
$$;
BEGIN;
SELECT pv_forquery();
ROLLBACK;

-- record fields assigned and read in a loop while a statement of the loop
-- changes the search path
CREATE TYPE pv_pair AS (a integer, b integer);
CREATE FUNCTION pv_fields() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    p pv_pair := ROW(0, 0);
    r text := '';
BEGIN
    FOR i IN 1..4 LOOP
        p.a := i;
        p.b := p.a + 1;
        r := r || p.b || ' ';
        IF i = 2 THEN
            PERFORM set_config('search_path', 'pv, pg_catalog', true);
        END IF;
    END LOOP;
    RETURN r;
END
$$;
BEGIN;
SELECT pv_fields();
ROLLBACK;

-- a function whose handler block starts by evaluating an expression has
-- that plan checked as the block is entered; the caller's query changes
-- the search path between two calls, and the next call must see it
CREATE FUNCTION pv_safe_add(a integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN a + 1;
EXCEPTION WHEN others THEN
    RETURN -1;
END
$$;
CREATE FUNCTION pv_safe_assign(a integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    BEGIN
        x := a + 1;
        x := x / (a - 3);
    EXCEPTION WHEN division_by_zero THEN
        x := a + 1;
    END;
    RETURN x;
END
$$;
BEGIN;
SELECT g, pv_safe_add(g), pv_safe_assign(g), pv_path_at(g, 2)
  FROM generate_series(1, 4) g;
SELECT public.pv_safe_add(1), public.pv_safe_assign(3);
ROLLBACK;
SELECT pv_safe_add(1), pv_safe_assign(3);

-- a catalog change between two calls, with the search path left alone:
-- the plan of "a + 1" has pv.odd_plus inlined, and a new body of it
-- invalidates that plan; the next call's check at block entry must see
-- it, between two statements of a transaction and between two rows of a
-- query
CREATE FUNCTION pv_redefine(k integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    EXECUTE format('CREATE OR REPLACE FUNCTION pv.odd_plus(integer, integer)'
                   ' RETURNS integer LANGUAGE sql IMMUTABLE'
                   ' AS %L',
                   'SELECT $1 OPERATOR(pg_catalog.+) $2 OPERATOR(pg_catalog.+) ' || k);
    RETURN k;
END
$$;
BEGIN;
SET LOCAL search_path = pv, public, pg_catalog;
SELECT pv_safe_add(1), pv_safe_assign(3);
SELECT pv_redefine(2000);
SELECT pv_safe_add(1), pv_safe_assign(3);
SELECT g, pv_safe_add(g), pv_safe_assign(g),
       CASE WHEN g = 2 THEN pv_redefine(3000) END
  FROM generate_series(1, 4) g;
ROLLBACK;
SELECT pv_safe_add(1), pv_safe_assign(3);
