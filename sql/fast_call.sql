-- fast_call: functions whose body is one RETURN of a pure expression,
-- with or without an EXCEPTION clause, which plnimble runs through its
-- fast entry (src/entry/fast_call.c) from the second call of a transaction on,
-- and near misses that must take the ordinary path.  Everything a caller
-- can see must be what PL/pgSQL gives: values, NULLs, errors with their
-- CONTEXT lines, handlers reading the error, RAISE in handlers, result
-- coercion, domains, redefinition and search path changes between calls
-- and between rows, recursion through another function, volatility.
-- Each query runs several rows in one transaction, so that the first call
-- takes the ordinary path and the later ones the fast entry.

-- Which path the calls took: fc_fast(n) says whether n calls since the
-- last check ran through the fast entry (plnimble_savepoint_stats()'s
-- fast_calls; "as expected" under PL/pgSQL, which has no counters).
CREATE TABLE fc_prev (fast bigint);
INSERT INTO fc_prev VALUES (0);
CREATE FUNCTION fc_fast(want bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    f bigint;
    pf bigint;
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN 'as expected';
    END IF;
    EXECUTE 'SELECT fast_calls FROM plnimble_savepoint_stats()' INTO f;
    SELECT fast INTO pf FROM fc_prev;
    UPDATE fc_prev SET fast = f;
    IF want IS NULL OR f - pf = want THEN
        RETURN 'as expected';
    END IF;
    RETURN format('fast calls %s (expected %s)', f - pf, want);
END
$$;
SELECT fc_fast(NULL) AS reset;

CREATE FUNCTION fc_safe_int(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
exception when invalid_text_representation then
    return null;
end
$$;

-- valid, invalid and NULL inputs, mixed in one query
SELECT x, fc_safe_int(x)
  FROM (VALUES ('1'), ('2'), (' 3 '), ('x'), ('4'), (NULL), ('-5'), ('')) v(x);
SELECT count(fc_safe_int(i::text)), sum(fc_safe_int(i::text))
  FROM generate_series(1, 1000) i;
SELECT count(fc_safe_int(CASE WHEN i % 7 = 0 THEN 'n' || i ELSE i::text END))
  FROM generate_series(1, 1000) i;

SELECT fc_fast(2006);
-- an error no handler catches, after fast calls: 22003 with its CONTEXT
SELECT x, fc_safe_int(x) FROM (VALUES ('1'), ('2'), ('99999999999')) v(x);
\set VERBOSITY verbose
SELECT x, fc_safe_int(x) FROM (VALUES ('1'), ('2'), ('-99999999999')) v(x);
\set VERBOSITY default
SELECT fc_fast(4);
-- and caught by a caller's handler, then called again in that transaction
CREATE FUNCTION fc_outer(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            r := r || coalesce(fc_safe_int(CASE WHEN i = 3 THEN '9999999999'
                                                WHEN i = 5 THEN 'bad'
                                                ELSE i::text END)::text, 'null') || ' ';
        EXCEPTION WHEN numeric_value_out_of_range THEN
            r := r || '[' || SQLSTATE || '] ';
        END;
    END LOOP;
    RETURN r;
END
$$;
SELECT fc_outer(7);
BEGIN;
SELECT fc_outer(4), fc_outer(6);
SELECT fc_safe_int('12'), fc_safe_int('1e3');
COMMIT;

SELECT fc_fast(4);
-- STRICT
CREATE FUNCTION fc_strict(s text) RETURNS int STRICT LANGUAGE plnimble AS $$
begin
    return length(s) + 1;
end
$$;
SELECT x, fc_strict(x) FROM (VALUES ('a'), (NULL), ('abc'), (NULL)) v(x);

SELECT fc_fast(1);
-- no EXCEPTION clause: errors go up with the function's CONTEXT line
CREATE FUNCTION fc_plain(a int, b int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN a / b;
END
$$;
SELECT a, fc_plain(a, 2) FROM generate_series(1, 4) a;
SELECT a, fc_plain(10, a) FROM generate_series(3, -1, -1) a;
SELECT fc_plain(NULL, 1), fc_plain(1, NULL);

SELECT fc_fast(7);
-- handlers that read the error: SQLSTATE, SQLERRM, GET STACKED DIAGNOSTICS
CREATE FUNCTION fc_diag(s text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    st text;
    msg text;
    ctx text;
begin
    return (s::int * 2)::text;
exception when others then
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                            ctx = PG_EXCEPTION_CONTEXT;
    raise notice 'context: %', ctx;
    return st || ': ' || msg || ' / ' || SQLSTATE || ' ' || SQLERRM;
end
$$;
SELECT x, fc_diag(x) FROM (VALUES ('1'), ('2'), ('x'), ('3'), ('4000000000'), ('5')) v(x);

SELECT fc_fast(0);
-- the same shape without declarations, reading SQLSTATE and SQLERRM
CREATE FUNCTION fc_state(s text) RETURNS text LANGUAGE plnimble AS $$
begin
    return (s::int + 1)::text;
exception
    when invalid_text_representation then
        return 'invalid: ' || SQLSTATE || ' ' || SQLERRM;
    when numeric_value_out_of_range then
        return 'range: ' || SQLSTATE;
end
$$;
SELECT x, fc_state(x) FROM (VALUES ('1'), ('2'), ('y'), ('2147483647'), ('3')) v(x);

SELECT fc_fast(1);
-- RAISE in handlers: their CONTEXT lines, and a bare RAISE re-throwing
CREATE FUNCTION fc_notice(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
exception when invalid_text_representation then
    raise notice 'bad input %', s;
    return -1;
end
$$;
SELECT x, fc_notice(x) FROM (VALUES ('1'), ('2'), ('z'), ('3')) v(x);
CREATE FUNCTION fc_rethrow(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
exception when invalid_text_representation then
    raise;
end
$$;
SELECT x, fc_rethrow(x) FROM (VALUES ('1'), ('2'), ('q')) v(x);
CREATE FUNCTION fc_raise_new(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
exception when others then
    raise exception 'cannot convert "%"', s using errcode = '22023', hint = 'digits only';
end
$$;
SELECT x, fc_raise_new(x) FROM (VALUES ('1'), ('2'), ('q')) v(x);

SELECT fc_fast(3);
-- result coercion: the ordinary path converts (near misses of the fast
-- entry, whose expression type must be the result type)
CREATE FUNCTION fc_to_numeric(a int) RETURNS numeric LANGUAGE plnimble AS $$
begin
    return a * 2;
end
$$;
CREATE FUNCTION fc_to_int8(s text) RETURNS int8 LANGUAGE plnimble AS $$
begin
    return s::int;
exception when invalid_text_representation then
    return 0;
end
$$;
CREATE FUNCTION fc_varchar3(s text) RETURNS varchar(3) LANGUAGE plnimble AS $$
begin
    return s || 'xyz';
end
$$;
CREATE FUNCTION fc_to_int2(a int) RETURNS int2 LANGUAGE plnimble AS $$
begin
    return a * 1000;
end
$$;
SELECT a, fc_to_numeric(a), fc_to_int8(a::text), fc_varchar3(a::text)
  FROM generate_series(1, 3) a;
SELECT a, fc_to_int2(a) FROM generate_series(30, 34) a;

SELECT fc_fast(0);
-- domains as argument and result types
CREATE DOMAIN fc_posint AS int CHECK (VALUE > 0);
CREATE DOMAIN fc_short AS text CHECK (length(VALUE) < 4);
CREATE FUNCTION fc_dom_arg(d fc_posint) RETURNS int LANGUAGE plnimble AS $$
begin
    return d * 2;
exception when numeric_value_out_of_range then
    return -1;
end
$$;
CREATE FUNCTION fc_dom_result(a int) RETURNS fc_posint LANGUAGE plnimble AS $$
begin
    return a - 1;
end
$$;
CREATE FUNCTION fc_dom_text(s text) RETURNS fc_short LANGUAGE plnimble AS $$
begin
    return s;
end
$$;
SELECT a, fc_dom_arg(a::fc_posint) FROM (VALUES (1), (2), (1500000000), (3)) v(a);
SELECT a, fc_dom_result(a) FROM generate_series(3, 1, -1) a;
SELECT x, fc_dom_text(x) FROM (VALUES ('a'), ('ab'), ('abcd')) v(x);

SELECT fc_fast(1);
-- redefined between calls, in one transaction and in a query
CREATE FUNCTION fc_redef(a int) RETURNS int LANGUAGE plnimble AS $$
begin
    return a + 1;
end
$$;
CREATE FUNCTION fc_do_redef(k int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    EXECUTE format('CREATE OR REPLACE FUNCTION fc_redef(a int) RETURNS int'
                   ' LANGUAGE plnimble AS %L',
                   'begin return a + ' || k || '; end');
    RETURN k;
END
$$;
BEGIN;
SELECT a, fc_redef(a) FROM generate_series(1, 3) a;
SELECT fc_do_redef(100);
SELECT a, fc_redef(a) FROM generate_series(1, 3) a;
SELECT a, fc_redef(a), CASE WHEN a = 2 THEN fc_do_redef(1000) END, fc_redef(a)
  FROM generate_series(1, 3) a;
COMMIT;
SELECT a, fc_redef(a) FROM generate_series(1, 3) a;

SELECT fc_fast(11);
-- the search path changed between calls and between rows of a query: the
-- operator of "a + b" is looked up through it
CREATE SCHEMA fc;
CREATE FUNCTION fc.odd_plus(integer, integer) RETURNS integer
    LANGUAGE sql IMMUTABLE
    AS 'SELECT $1 OPERATOR(pg_catalog.+) $2 OPERATOR(pg_catalog.+) 1000';
CREATE OPERATOR fc.+ (LEFTARG = integer, RIGHTARG = integer,
                      FUNCTION = fc.odd_plus);
CREATE FUNCTION fc_plus(a int, b int) RETURNS int LANGUAGE plnimble AS $$
begin
    return a + b;
exception when others then
    return null;
end
$$;
CREATE FUNCTION fc_path_at(i integer, at integer, path text) RETURNS integer
    LANGUAGE sql
    AS 'SELECT CASE WHEN i = at
                    THEN i + 0 * length(set_config(''search_path'', path, true))
                    ELSE i END';
BEGIN;
SELECT g, fc_plus(g, 1) FROM generate_series(1, 3) g;
SET LOCAL search_path = fc, public, pg_catalog;
SELECT g, fc_plus(g, 1) FROM generate_series(1, 3) g;
SET LOCAL search_path = public, pg_catalog;
SELECT g, fc_plus(g, 1) FROM generate_series(1, 3) g;
SELECT g, fc_plus(g, 1), fc_path_at(g, 2, 'fc, public, pg_catalog'),
       fc_plus(g, 1)
  FROM generate_series(1, 4) g;
SELECT g, fc_plus(g, 1), fc_path_at(g, 3, 'public, pg_catalog'),
       fc_plus(g, 1)
  FROM generate_series(1, 4) g;
ROLLBACK;

SELECT fc_fast(20);
-- recursion through another function: the handler calls a function that
-- calls this one again
CREATE FUNCTION fc_hundred_by(n int) RETURNS int LANGUAGE plnimble AS $$
begin
    return 100 / n;
exception when division_by_zero then
    return fc_next(n);
end
$$;
CREATE FUNCTION fc_next(n int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN 1000 + fc_hundred_by(n + 1);
END
$$;
SELECT n, fc_hundred_by(n) FROM generate_series(-2, 3) n;
SELECT n, fc_hundred_by(n), fc_next(n) FROM generate_series(2, -1, -1) n;

SELECT fc_fast(4);
-- volatility makes no difference
CREATE FUNCTION fc_vol(a int) RETURNS int VOLATILE LANGUAGE plnimble AS $$
begin return a * 3; exception when others then return 0; end
$$;
CREATE FUNCTION fc_stable(a int) RETURNS int STABLE LANGUAGE plnimble AS $$
begin return a * 3; exception when others then return 0; end
$$;
CREATE FUNCTION fc_imm(a int) RETURNS int IMMUTABLE LANGUAGE plnimble AS $$
begin return a * 3; exception when others then return 0; end
$$;
SELECT a, fc_vol(a), fc_stable(a), fc_imm(a)
  FROM (VALUES (1), (2), (1000000000), (4)) v(a);

SELECT fc_fast(3);
-- FOUND, several arguments, arrays, text from a table kept out of line
CREATE FUNCTION fc_found(a int) RETURNS boolean LANGUAGE plnimble AS $$
begin
    return found or a is null;
end
$$;
SELECT a, fc_found(a) FROM (VALUES (1), (NULL), (3)) v(a);
CREATE FUNCTION fc_len(s text, t text, k int[]) RETURNS int LANGUAGE plnimble AS $$
begin
    return length(s) + length(t) + array_length(k, 1);
exception when others then
    return -1;
end
$$;
CREATE TABLE fc_big (id int, s text);
ALTER TABLE fc_big ALTER COLUMN s SET STORAGE EXTERNAL;
INSERT INTO fc_big SELECT g, repeat('ab', 5000 * g) FROM generate_series(1, 3) g;
INSERT INTO fc_big VALUES (4, 'short'), (5, NULL);
SELECT id, fc_len(s, 'xy', ARRAY[1, 2, id]), fc_safe_int(left(s, 1))
  FROM fc_big ORDER BY id;

SELECT fc_fast(2);
-- a function that fails at planning time, and one whose shape is not
-- the fast entry's (a declaration, two statements)
CREATE FUNCTION fc_decl(s text) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    k int := 2;
begin
    return s::int * k;
exception when invalid_text_representation then
    return null;
end
$$;
CREATE FUNCTION fc_two(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    perform 1;
    return s::int;
exception when invalid_text_representation then
    return null;
end
$$;
SELECT x, fc_decl(x), fc_two(x) FROM (VALUES ('1'), ('w'), ('3')) v(x);

SELECT fc_fast(0);
-- a function called from a handler of its own caller's block, and after
-- a caught error in a loop of the same transaction
DO $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..6 LOOP
        BEGIN
            r := r || fc_safe_int(CASE WHEN i % 2 = 0 THEN i::text ELSE 'x' END) || ',';
            PERFORM 1 / (i - 4);
        EXCEPTION WHEN division_by_zero THEN
            r := r || fc_safe_int('77') || '!';
        END;
    END LOOP;
    RAISE NOTICE '%', r;
END
$$;
SELECT fc_fast(0);
