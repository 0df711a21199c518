-- parallel_simple_exprs: simple expressions under force_parallel_mode = on
-- (debug_parallel_query from 16 on).  The planner then puts a Gather on
-- top of every parallel-safe plan, also on the bare Result of an
-- expression such as "s::int"; PL/pgSQL looks through that Gather and
-- still evaluates the expression directly, so its errors carry no CONTEXT
-- line of SPI's ("SQL expression ...", "PL/pgSQL assignment ...").  The
-- errors and CONTEXT lines here, uncaught and read by handlers, in
-- RETURN, assignments, IF, WHILE, CASE, FOR bounds, RAISE arguments and
-- SELECT ... INTO, must be PL/pgSQL's; and the blocks guarding such
-- expressions must still need no subtransaction (the savepoint counter,
-- plnimble_savepoint_stats(), checked by ps_savepoints: "as expected"
-- under PL/pgSQL, which has no counters).

CREATE TABLE ps_prev (sp bigint);
INSERT INTO ps_prev VALUES (0);
CREATE FUNCTION ps_savepoints(want bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    pn bigint;
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT savepoints_materialized FROM plnimble_savepoint_stats()' INTO n;
    SELECT sp INTO pn FROM ps_prev;
    UPDATE ps_prev SET sp = n;
    IF want IS NULL OR n - pn = want THEN
        RETURN 'as expected';
    END IF;
    RETURN format('savepoints %s (expected %s)', n - pn, want);
END
$$;

CREATE FUNCTION ps_return(s text) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN s::int;
END
$$;
CREATE FUNCTION ps_assign(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int;
BEGIN
    x := s::int;
    RETURN x;
END
$$;
CREATE FUNCTION ps_decl(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int := s::int * 2;
BEGIN
    RETURN x;
END
$$;
CREATE FUNCTION ps_if(s text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF s::int > 0 THEN
        RETURN 'positive';
    ELSIF s::numeric < 0 THEN
        RETURN 'negative';
    END IF;
    RETURN 'zero';
END
$$;
CREATE FUNCTION ps_while(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    i int := 0;
BEGIN
    WHILE i < s::int LOOP
        i := i + 1;
    END LOOP;
    RETURN i;
END
$$;
CREATE FUNCTION ps_case(s text) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    CASE s::int
        WHEN 1 THEN RETURN 'one';
        ELSE RETURN 'other';
    END CASE;
END
$$;
CREATE FUNCTION ps_for(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    n int := 0;
BEGIN
    FOR i IN 1 .. s::int LOOP
        n := n + i;
    END LOOP;
    RETURN n;
END
$$;
CREATE FUNCTION ps_raise(s text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'value %', s::int + 1;
END
$$;
CREATE FUNCTION ps_into(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    a int;
    b int;
BEGIN
    SELECT s::int, 7 INTO a, b;
    RETURN a + b;
END
$$;
-- a constant (the Gather's own target entry is then the Const) and a
-- plain variable
CREATE FUNCTION ps_const() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int;
BEGIN
    x := 42;
    RETURN x;
END
$$;
-- errors caught, and the context a handler reads
CREATE FUNCTION ps_caught(s text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x int;
    ctx text;
BEGIN
    BEGIN
        x := s::int + 1;
        RETURN x::text;
    EXCEPTION WHEN invalid_text_representation THEN
        GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
        RAISE NOTICE 'caught: % / %', SQLERRM, ctx;
        RETURN 'caught';
    END;
END
$$;
CREATE FUNCTION ps_safe_int(s text) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN s::int;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN -1;
END
$$;

SELECT ps_savepoints(NULL) AS reset;

-- (16 renamed force_parallel_mode to debug_parallel_query)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
SET :parallel_guc = on;

-- the values first, then each kind of expression failing
SELECT ps_return('1'), ps_assign('2'), ps_decl('3'), ps_if('4'), ps_if('-4'),
       ps_if('0'), ps_while('5'), ps_case('1'), ps_case('2'), ps_for('4'),
       ps_into('8'), ps_const();
SELECT ps_raise('9');
SELECT ps_return('a');
SELECT ps_assign('b');
SELECT ps_decl('c');
SELECT ps_if('d');
SELECT ps_while('e');
SELECT ps_case('f');
SELECT ps_for('g');
SELECT ps_raise('h');
SELECT ps_into('i');
SELECT ps_return('99999999999');
SELECT ps_assign('j');

-- the same again in one transaction, after successful evaluations
BEGIN;
SELECT ps_return('10'), ps_assign('11'), ps_if('12');
SELECT ps_return('k');
ROLLBACK;
BEGIN;
SELECT ps_assign('12');
SELECT ps_assign('l');
ROLLBACK;

-- caught by handlers: no subtransaction for any of these blocks
SELECT ps_savepoints(NULL) AS reset;
SELECT v, ps_caught(v), ps_safe_int(v)
  FROM (VALUES ('1'), ('x'), ('3'), ('y'), (NULL)) t(v);
SELECT ps_savepoints(0);

RESET :parallel_guc;
-- and without the setting, the same
SELECT ps_return('m');
SELECT v, ps_caught(v), ps_safe_int(v) FROM (VALUES ('5'), ('z')) t(v);
SELECT ps_savepoints(0);
