-- data_model: PL/pgSQL's data model.  Declarations (%TYPE of variables,
-- parameters and columns, %ROWTYPE of tables, views and composite types,
-- RECORD, domains over scalars / arrays / composites checked on every
-- assignment and in DECLARE defaults, arrays of many element types,
-- COLLATE, CONSTANT); records and rows (SELECT INTO, field reads and
-- assignments, nested composite fields, row(...) / subquery / NULL
-- assignment, the "not assigned yet" and "has no field" errors, records
-- changing shape within and between calls, IS [NOT] NULL, records passed to
-- functions, row_to_json); arrays (subscripts, multi-dimensional, slices,
-- extension, odd subscripts, arrays of composites, appending in a loop,
-- FOREACH, unnest); multiple INTO targets and the extra_warnings /
-- extra_errors checks; polymorphic functions; VARIADIC, defaults and named
-- notation; RETURN of composites and records and its type-mismatch errors.

CREATE TABLE dm_emp (id integer PRIMARY KEY, name text NOT NULL,
                     salary numeric(8,2), dept varchar(3));
INSERT INTO dm_emp VALUES (1, 'alice', 5000.50, 'eng'), (2, 'bob', 4000, 'ops'),
                          (3, 'carol', 6000.25, 'eng');
CREATE VIEW dm_emp_v AS
    SELECT id, upper(name) AS uname, salary * 12 AS yearly FROM dm_emp;
CREATE TYPE dm_point AS (x integer, y integer);
CREATE TYPE dm_shape AS (name text, origin dm_point, tags text[]);
CREATE TYPE dm_color AS ENUM ('red', 'green', 'blue');

------------------------------------------------------------------------------
-- 1. declarations
------------------------------------------------------------------------------

-- %TYPE of a table column (keeps the typmod: numeric(8,2) rounds,
-- varchar(3) rejects), of a parameter and of another variable; a parameter
-- declared with %TYPE (the NOTICE comes from CREATE FUNCTION itself)
CREATE FUNCTION dm_pct(p_id dm_emp.id%TYPE, p_text text) RETURNS text
LANGUAGE plnimble AS $$
DECLARE
    v_sal dm_emp.salary%TYPE := 1234.567;
    v_id p_id%TYPE := p_id * 2;
    v_t p_text%TYPE := p_text || '!';
    v_copy v_sal%TYPE := v_sal + 0.004;
    v_name public.dm_emp.name%TYPE;
BEGIN
    SELECT name INTO v_name FROM dm_emp WHERE id = p_id;
    RETURN format('sal=%s id=%s t=%s copy=%s name=%s types=%s/%s/%s/%s',
                  v_sal, v_id, v_t, v_copy, v_name, pg_typeof(v_sal),
                  pg_typeof(v_id), pg_typeof(v_t), pg_typeof(v_copy));
END
$$;
SELECT dm_pct(2, 'hi');

CREATE FUNCTION dm_pct_varchar() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    d dm_emp.dept%TYPE := 'ab';
BEGIN
    d := 'abc';
    RAISE NOTICE 'd=%', d;
    d := 'abcd';
    RETURN d;
END
$$;
SELECT dm_pct_varchar();

-- %TYPE of a column that does not exist is a CREATE-time error
CREATE FUNCTION dm_pct_bad() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    v dm_emp.nosuch%TYPE;
BEGIN
END
$$;

-- %ROWTYPE of a table, a view and a composite type; a composite variable
CREATE FUNCTION dm_rowtypes() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    e dm_emp%ROWTYPE;
    v dm_emp_v%ROWTYPE;
    p dm_point%ROWTYPE;
    q dm_point;
BEGIN
    RAISE NOTICE 'initial: e=% v=% p=% q=% e IS NULL=%', e, v, p, q, e IS NULL;
    SELECT * INTO e FROM dm_emp WHERE id = 1;
    SELECT * INTO v FROM dm_emp_v WHERE id = 3;
    p.x := 1;
    p.y := 2;
    q := p;
    q.y := q.y * 10;
    RAISE NOTICE 'e=% e.salary=% v=% v.uname=% p=% q=%', e, e.salary, v, v.uname, p, q;
    RAISE NOTICE 'types: % % % %', pg_typeof(e), pg_typeof(v), pg_typeof(p), pg_typeof(q);
END
$$;
SELECT dm_rowtypes();

-- %ROWTYPE of something that is not a relation
CREATE FUNCTION dm_rowtype_bad() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r dm_nosuch%ROWTYPE;
BEGIN
END
$$;

-- RECORD: pg_typeof before and after assignment
CREATE FUNCTION dm_record_basic() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    RAISE NOTICE 'unassigned: r IS NULL=% pg_typeof=%', r IS NULL, pg_typeof(r);
    SELECT 1 AS a, 'two'::text AS b INTO r;
    RAISE NOTICE 'assigned: r=% pg_typeof=% a=% b=%', r, pg_typeof(r), r.a, r.b;
    SELECT * INTO r FROM dm_emp WHERE id = 2;
    RAISE NOTICE 'from a table: r=% pg_typeof=%', r, pg_typeof(r);
END
$$;
SELECT dm_record_basic();

-- domains over a scalar: the CHECK is applied on every assignment, in a
-- DECLARE default, for SELECT INTO, and a NOT NULL domain rejects a
-- variable declared without a default
CREATE DOMAIN dm_pos AS integer CHECK (VALUE > 0);
CREATE DOMAIN dm_nn_text AS text NOT NULL;
CREATE DOMAIN dm_short_arr AS integer[] CHECK (cardinality(VALUE) <= 3);
CREATE DOMAIN dm_pos_point AS dm_point CHECK ((VALUE).x >= 0 AND (VALUE).y >= 0);

CREATE FUNCTION dm_dom_scalar(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v dm_pos := 5;
BEGIN
    v := v + n;
    RETURN format('v=%s type=%s', v, pg_typeof(v));
END
$$;
SELECT dm_dom_scalar(1);
SELECT dm_dom_scalar(-5);
SELECT dm_dom_scalar(NULL);

CREATE FUNCTION dm_dom_default() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v dm_pos := -1;
BEGIN
    RETURN 'not reached';
END
$$;
SELECT dm_dom_default();

CREATE FUNCTION dm_dom_into() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v dm_pos;
BEGIN
    SELECT 7 INTO v;
    RAISE NOTICE 'v=%', v;
    SELECT 0 INTO v;
    RETURN 'not reached';
END
$$;
SELECT dm_dom_into();

CREATE FUNCTION dm_dom_notnull(s text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    t dm_nn_text := 'start';
BEGIN
    t := s;
    RETURN t;
END
$$;
SELECT dm_dom_notnull('ok');
SELECT dm_dom_notnull(NULL);

CREATE FUNCTION dm_dom_notnull_nodefault() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    t dm_nn_text;
BEGIN
    RETURN 'not reached';
END
$$;
SELECT dm_dom_notnull_nodefault();

-- a domain over an array: element assignment re-checks the whole value
CREATE FUNCTION dm_dom_array() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a dm_short_arr := ARRAY[1, 2];
BEGIN
    a[3] := 3;
    RAISE NOTICE 'a=%', a;
    a[4] := 4;
    RETURN 'not reached';
END
$$;
SELECT dm_dom_array();

-- a domain over a composite: a field assignment re-checks it too
CREATE FUNCTION dm_dom_composite(bad boolean) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    p dm_pos_point := ROW(1, 2);
BEGIN
    p.x := 10;
    RAISE NOTICE 'p.x=% p.y=%', p.x, p.y;
    IF bad THEN
        p.y := -1;
    ELSE
        p := ROW(-3, 3);
    END IF;
    RETURN 'not reached';
END
$$;
SELECT dm_dom_composite(true);
SELECT dm_dom_composite(false);

-- the whole value of a domain-over-composite variable in an expression
CREATE FUNCTION dm_dom_composite_read() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    p dm_pos_point := ROW(1, 2);
BEGIN
    p.y := 20;
    RAISE NOTICE 'p=%', p;
    RETURN p::text || ' ' || pg_typeof(p);
END
$$;
SELECT dm_dom_composite_read();

-- the same domain in a DECLARE default of a composite domain
DO LANGUAGE plnimble $$
DECLARE
    p dm_pos_point := ROW(-1, 0);
BEGIN
    RAISE NOTICE 'not reached';
END
$$;

-- arrays of many element types
CREATE FUNCTION dm_array_types() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    ai integer[] := '{1,2,3}';
    at text[] := ARRAY['a', NULL, 'c d'];
    an numeric[] := ARRAY[1.5, 2.25];
    ab boolean[] := '{t,f}';
    ad date[] := ARRAY['2024-01-31'::date];
    ap dm_point[] := ARRAY[ROW(1, 2), ROW(3, 4)]::dm_point[];
    aa integer[][] := '{{1,2},{3,4}}';
BEGIN
    RAISE NOTICE 'ai=% at=% an=% ab=% ad=%', ai, at, an, ab, ad;
    RAISE NOTICE 'ap=% aa=%', ap, aa;
    RAISE NOTICE 'types: % % % % %', pg_typeof(ai), pg_typeof(at), pg_typeof(an),
        pg_typeof(ap), pg_typeof(aa);
    RAISE NOTICE 'elements: % % % % %', ai[2], at[2] IS NULL, an[2] * 2, ap[2].y, aa[2][1];
END
$$;
SELECT dm_array_types();

-- COLLATE on declarations: the default collation here is C; a variable
-- declared with an ICU collation compares differently
CREATE FUNCTION dm_collate() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c1 text COLLATE "C" := 'a';
    c2 text := 'B';
    u1 text COLLATE "und-x-icu" := 'a';
    u2 text COLLATE "und-x-icu" := 'B';
BEGIN
    RETURN format('C: %s, icu: %s, explicit: %s, collations: %s/%s',
                  c1 < c2, u1 < u2, c1 < c2 COLLATE "und-x-icu",
                  pg_collation_for(c1), pg_collation_for(u1));
END
$$;
SELECT dm_collate();

-- conflicting collations in one comparison
CREATE FUNCTION dm_collate_conflict() RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    c1 text COLLATE "C" := 'a';
    u1 text COLLATE "und-x-icu" := 'B';
BEGIN
    RETURN c1 < u1;
END
$$;
SELECT dm_collate_conflict();

-- COLLATE on a type that is not collatable
CREATE FUNCTION dm_collate_bad() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    i integer COLLATE "C";
BEGIN
END
$$;

-- CONSTANT: assignment is rejected when the function is created, also as
-- a SELECT INTO target
CREATE FUNCTION dm_const_ok() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    k CONSTANT integer := 42;
    p CONSTANT dm_point := ROW(1, 2);
    n CONSTANT text;
BEGIN
    RETURN format('k=%s p=%s n IS NULL=%s', k, p, n IS NULL);
END
$$;
SELECT dm_const_ok();

CREATE FUNCTION dm_const_assign() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    k CONSTANT integer := 42;
BEGIN
    k := 43;
END
$$;

CREATE FUNCTION dm_const_into() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    k CONSTANT integer := 42;
BEGIN
    SELECT 1 INTO k;
END
$$;

CREATE FUNCTION dm_const_field() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    p CONSTANT dm_point := ROW(1, 2);
BEGIN
    p.x := 5;
END
$$;

------------------------------------------------------------------------------
-- 2. records and rows
------------------------------------------------------------------------------

-- SELECT INTO a record and into a composite variable; field reads and
-- assignments
CREATE FUNCTION dm_rec_fields() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    e dm_emp;
BEGIN
    SELECT id, name, salary INTO r FROM dm_emp WHERE id = 3;
    r.salary := r.salary + 1;
    r.name := upper(r.name);
    RAISE NOTICE 'r=% id+1=% salary=%', r, r.id + 1, r.salary;
    SELECT * INTO e FROM dm_emp WHERE id = 2;
    e.dept := 'xyz';
    e.salary := 12.345;
    RAISE NOTICE 'e=%', e;
    e.dept := 'toolong';
END
$$;
SELECT dm_rec_fields();

-- a record field assignment converts to the field's type
CREATE FUNCTION dm_rec_field_cast() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS n, now()::date AS d INTO r;
    r.n := '17';
    r.n := 2.6;
    RETURN format('n=%s %s', r.n, pg_typeof(r.n));
END
$$;
SELECT dm_rec_field_cast();

-- nested composite fields: reading them with parentheses, assigning the
-- inner composite as a whole, an array field
CREATE FUNCTION dm_nested() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    s dm_shape;
BEGIN
    RAISE NOTICE 'initial s=%', s;
    s.name := 'sq';
    s.origin := ROW(5, NULL);
    s.tags[2] := 'b';
    RAISE NOTICE 's=% (s.origin).x=% (s.origin).y=% tags=%', s, (s.origin).x, (s.origin).y, s.tags;
    s.origin := ROW(7, 8);
    RAISE NOTICE 's.origin=% (s).origin.y=%', s.origin, (s).origin.y;
END
$$;
SELECT dm_nested();

-- assignment to a nested field: s.origin.x := ...
CREATE FUNCTION dm_nested_assign() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    s dm_shape;
BEGIN
    s.name := 'sq';
    s.origin.x := 5;
    RAISE NOTICE 'after origin.x: s=%', s;
    s.origin.y := (s.origin).x * 2;
    RAISE NOTICE 'after origin.y: s=% (s.origin).y=%', s, (s.origin).y;
END
$$;
SELECT dm_nested_assign();

-- reading a nested field without parentheses is not supported
CREATE FUNCTION dm_nested_read() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    s dm_shape;
BEGIN
    s := ROW('a', ROW(5, 6), NULL);
    RETURN s.origin.x;
END
$$;
SELECT dm_nested_read();

-- the same with a record holding a composite column
CREATE FUNCTION dm_nested_record() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 'tri' AS name, ROW(1, 2)::dm_point AS origin INTO r;
    r.origin.x := 100;
    RETURN format('r=%s x=%s', r, (r.origin).x);
END
$$;
SELECT dm_nested_record();

-- a nested field that does not exist
CREATE FUNCTION dm_nested_bad() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    s dm_shape;
BEGIN
    s.origin.z := 1;
END
$$;
SELECT dm_nested_bad();

-- rec := row(...), rec := (SELECT ...), rec := NULL
CREATE FUNCTION dm_rec_assign() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    p dm_point;
BEGIN
    r := ROW(1, 'one'::text, NULL::date);
    RAISE NOTICE 'row(): r=% f1=% f2=% f3=%', r, r.f1, r.f2, r.f3;
    r := (SELECT e FROM dm_emp e WHERE e.id = 1);
    RAISE NOTICE 'subquery: r=% name=%', r, r.name;
    r := (SELECT ROW(e.id, e.name) FROM dm_emp e WHERE e.id = 2);
    RAISE NOTICE 'subquery row(): r=% f2=%', r, r.f2;
    p := (SELECT ROW(x, x * 2) FROM generate_series(3, 3) x);
    RAISE NOTICE 'composite from subquery: p=%', p;
    p := ROW(9, 9);
    p := NULL;
    RAISE NOTICE 'p := NULL: p=% p IS NULL=% p.x=%', p, p IS NULL, p.x;
    r := NULL;
    RAISE NOTICE 'r := NULL: r IS NULL=%', r IS NULL;
    RAISE NOTICE 'r.name after r := NULL: %', r.name;
END
$$;
SELECT dm_rec_assign();

-- a field of ROW(...) built from an untyped literal has type unknown
CREATE FUNCTION dm_rec_unknown_field() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    r := ROW(1, 'one');
    RAISE NOTICE 'r=% f1=%', r, r.f1;
    RETURN r.f2;
END
$$;
SELECT dm_rec_unknown_field();

-- a subquery returning more than one column, and more than one row
CREATE FUNCTION dm_rec_subq_cols() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    r := (SELECT 1, 2);
END
$$;
SELECT dm_rec_subq_cols();

CREATE FUNCTION dm_rec_subq_rows() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    r := (SELECT e FROM dm_emp e);
END
$$;
SELECT dm_rec_subq_rows();

-- assigning a scalar to a record or composite variable
CREATE FUNCTION dm_rec_scalar() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    r := 5;
END
$$;
SELECT dm_rec_scalar();

CREATE FUNCTION dm_comp_text() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    p dm_point;
BEGIN
    p := '(4,5)';
    RAISE NOTICE 'p=%', p;
    p := '(4,five)';
    RETURN 'not reached';
END
$$;
SELECT dm_comp_text();

-- "record is not assigned yet": reading a field, assigning a field
CREATE FUNCTION dm_rec_unassigned(what text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    IF what = 'read' THEN
        RETURN r.a;
    ELSE
        r.a := 1;
    END IF;
    RETURN 'not reached';
END
$$;
SELECT dm_rec_unassigned('read');
SELECT dm_rec_unassigned('write');

-- "record has no field": reading and assigning, record and composite
CREATE FUNCTION dm_rec_nofield(what text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS a INTO r;
    IF what = 'read' THEN
        RETURN r.b;
    ELSE
        r.b := 1;
    END IF;
    RETURN 'not reached';
END
$$;
SELECT dm_rec_nofield('read');
SELECT dm_rec_nofield('write');

-- a field of a composite-typed variable that does not exist: reported at
-- run time, not by CREATE FUNCTION
CREATE FUNCTION dm_comp_nofield() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    p dm_point;
BEGIN
    p.z := 1;
    RETURN 0;
END
$$;
SELECT dm_comp_nofield();

CREATE FUNCTION dm_comp_nofield_read() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    p dm_point;
BEGIN
    RETURN p.z;
END
$$;
SELECT dm_comp_nofield_read();

-- a record whose shape changes within one call
CREATE FUNCTION dm_rec_reshape() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS a, 2 AS b INTO r;
    RAISE NOTICE 'first: r=% a=%', r, r.a;
    SELECT 'x' AS b, 3.5 AS c, 4 AS d INTO r;
    RAISE NOTICE 'second: r=% b=% c=%', r, r.b, r.c;
    RAISE NOTICE 'a after reshaping: %', r.a;
END
$$;
SELECT dm_rec_reshape();

-- the same statement reading a field whose type changes inside a loop
CREATE FUNCTION dm_rec_reshape_loop() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    i integer;
BEGIN
    FOR i IN 1..3 LOOP
        IF i % 2 = 1 THEN
            SELECT i AS v INTO r;
        ELSE
            SELECT 'text ' || i AS v INTO r;
        END IF;
        RAISE NOTICE 'loop %: v=% type=%', i, r.v, pg_typeof(r.v);
    END LOOP;
END
$$;
SELECT dm_rec_reshape_loop();

-- and between calls: the same statements see different field types
CREATE FUNCTION dm_rec_shape_calls(k integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    IF k = 1 THEN
        SELECT 10 AS v, 'ten' AS w INTO r;
    ELSIF k = 2 THEN
        SELECT 'twenty'::text AS v INTO r;
    ELSE
        SELECT now()::date - now()::date AS w, 2.5 AS v INTO r;
    END IF;
    RETURN format('v=%s (%s)', r.v, pg_typeof(r.v));
END
$$;
SELECT dm_rec_shape_calls(1);
SELECT dm_rec_shape_calls(2);
SELECT dm_rec_shape_calls(3);
SELECT dm_rec_shape_calls(1);

-- a field used in arithmetic whose type changes between calls
CREATE FUNCTION dm_rec_shape_arith(k integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    IF k = 1 THEN
        SELECT 10 AS v INTO r;
    ELSE
        SELECT 1.5::numeric AS v INTO r;
    END IF;
    RETURN (r.v + 1)::text;
END
$$;
SELECT dm_rec_shape_arith(1);
SELECT dm_rec_shape_arith(2);
SELECT dm_rec_shape_arith(1);

-- IS NULL / IS NOT NULL on records and composites: all fields NULL, some
-- NULL, none NULL, unassigned record
CREATE FUNCTION dm_rec_isnull() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    p dm_point;
BEGIN
    RAISE NOTICE 'unassigned r: IS NULL=% IS NOT NULL=%', r IS NULL, r IS NOT NULL;
    RAISE NOTICE 'fresh p: IS NULL=% IS NOT NULL=%', p IS NULL, p IS NOT NULL;
    SELECT NULL::int AS a, NULL::text AS b INTO r;
    RAISE NOTICE 'all null: IS NULL=% IS NOT NULL=% NOT (IS NULL)=%', r IS NULL, r IS NOT NULL, NOT (r IS NULL);
    SELECT 1 AS a, NULL::text AS b INTO r;
    RAISE NOTICE 'some null: IS NULL=% IS NOT NULL=% NOT (IS NULL)=%', r IS NULL, r IS NOT NULL, NOT (r IS NULL);
    p := ROW(1, 2);
    RAISE NOTICE 'no null: IS NULL=% IS NOT NULL=%', p IS NULL, p IS NOT NULL;
    SELECT * INTO r FROM dm_emp WHERE id = 99;
    RAISE NOTICE 'no row: r=% IS NULL=% FOUND=%', r, r IS NULL, FOUND;
    IF r IS DISTINCT FROM NULL THEN
        RAISE NOTICE 'r is distinct from null';
    ELSE
        RAISE NOTICE 'r is not distinct from null';
    END IF;
END
$$;
SELECT dm_rec_isnull();

-- records and rows passed to SQL functions and to plnimble functions
CREATE FUNCTION dm_sql_sum(p dm_point) RETURNS integer LANGUAGE sql
    AS 'SELECT p.x + p.y';
CREATE FUNCTION dm_emp_label(e dm_emp) RETURNS text LANGUAGE sql
    AS $$SELECT e.name || '@' || e.dept$$;
CREATE FUNCTION dm_take_record(r record) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN format('%s (%s)', r, pg_typeof(r));
END
$$;
CREATE FUNCTION dm_take_point(p dm_point) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    p.x := p.x * 100;
    RETURN p::text;
END
$$;

CREATE FUNCTION dm_pass_rows() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    p dm_point := ROW(3, 4);
    e dm_emp;
BEGIN
    SELECT * INTO e FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'sql: % % %', dm_sql_sum(p), dm_sql_sum(ROW(5, 6)), dm_emp_label(e);
    RAISE NOTICE 'plnimble: % / %', dm_take_point(p), dm_take_point(ROW(1, 1));
    RAISE NOTICE 'p unchanged by the callee: %', p;
END
$$;
SELECT dm_pass_rows();

-- a plnimble function taking record, called with different row types
CREATE FUNCTION dm_pass_record() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    p dm_point := ROW(3, 4);
    e dm_emp;
    r record;
BEGIN
    SELECT * INTO e FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'composite: %', dm_take_record(p);
    RAISE NOTICE 'table row: %', dm_take_record(e);
    SELECT 1 AS a, 'b' AS b INTO r;
    RAISE NOTICE 'record: %', dm_take_record(r);
    SELECT * INTO r FROM dm_emp WHERE id = 2;
    RAISE NOTICE 'record of a table row: %', dm_take_record(r);
    SELECT p2 INTO r FROM (SELECT ROW(7, 8)::dm_point AS p2) s;
    RAISE NOTICE 'record with one composite column: %', dm_take_record(r);
END
$$;
SELECT dm_pass_record();

-- an anonymous record where a specific composite type is expected
CREATE FUNCTION dm_pass_record_bad() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT 1 AS x, 2 AS y INTO r;
    RETURN dm_sql_sum(r);
END
$$;
SELECT dm_pass_record_bad();

-- row_to_json, to_jsonb, hstore-free field listing via json
CREATE FUNCTION dm_rec_json() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    s dm_shape;
    k text;
BEGIN
    SELECT id, name, salary INTO r FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'row_to_json: %', row_to_json(r);
    s := ROW('hex', ROW(1, NULL), ARRAY['a', 'b']);
    RAISE NOTICE 'nested: %', row_to_json(s);
    RAISE NOTICE 'jsonb: %', to_jsonb(s);
    FOR k IN SELECT jsonb_object_keys(to_jsonb(r)) LOOP
        RAISE NOTICE 'key %', k;
    END LOOP;
    r := NULL;
    RAISE NOTICE 'after r := NULL: %', row_to_json(r);
END
$$;
SELECT dm_rec_json();

------------------------------------------------------------------------------
-- 3. arrays
------------------------------------------------------------------------------

-- element reads and assignments, past the end, zero and negative
-- subscripts, reading outside the bounds
CREATE FUNCTION dm_arr_basic() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := ARRAY[10, 20, 30];
    b text[];
BEGIN
    a[2] := a[2] + 1;
    RAISE NOTICE 'a=% a[1]=% a[5]=% a[0]=%', a, a[1], a[5], a[0];
    a[6] := 60;
    RAISE NOTICE 'past the end: a=% length=%', a, array_length(a, 1);
    a[0] := 0;
    RAISE NOTICE 'zero: a=% lower=% upper=%', a, array_lower(a, 1), array_upper(a, 1);
    a[-2] := -20;
    RAISE NOTICE 'negative: a=% length=% cardinality=%', a, array_length(a, 1), cardinality(a);
    b[3] := 'c';
    RAISE NOTICE 'b from NULL: b=% lower=%', b, array_lower(b, 1);
    b := '{}';
    b[-1] := 'm';
    RAISE NOTICE 'b from empty: b=%', b;
    RAISE NOTICE 'a[NULL]=% a[1.6]=% a[''2'']=%', a[NULL], a[1.6], a['2'];
END
$$;
SELECT dm_arr_basic();

-- a NULL subscript in an assignment
CREATE FUNCTION dm_arr_null_sub() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := ARRAY[1];
    i integer;
BEGIN
    a[i] := 5;
END
$$;
SELECT dm_arr_null_sub();

-- subscripting something that is not an array
CREATE FUNCTION dm_arr_not_array() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer := 1;
BEGIN
    n[1] := 5;
END
$$;
SELECT dm_arr_not_array();

-- multi-dimensional arrays
CREATE FUNCTION dm_arr_multi() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    m integer[] := '{{1,2,3},{4,5,6}}';
    e integer[];
BEGIN
    m[2][3] := 60;
    m[1][1] := m[1][1] * 100;
    RAISE NOTICE 'm=% m[2][2]=% dims=% ndims=%', m, m[2][2], array_dims(m), array_ndims(m);
    RAISE NOTICE 'm[2]=% m[3][1]=% length(2)=%', m[2], m[3][1], array_length(m, 2);
    e[2][3] := 1;
    RAISE NOTICE 'e from NULL: %', e;
    m[3][1] := 7;
END
$$;
SELECT dm_arr_multi();

-- a two-dimensional assignment into an empty (not NULL) array
CREATE FUNCTION dm_arr_multi_empty() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    e integer[] := '{}';
BEGIN
    e[1][1] := 7;
    RAISE NOTICE 'e from empty: %', e;
END
$$;
SELECT dm_arr_multi_empty();

-- a one-dimensional subscript on a two-dimensional array
CREATE FUNCTION dm_arr_multi_wrong() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    m integer[] := '{{1,2},{3,4}}';
BEGIN
    m[1] := 9;
END
$$;
SELECT dm_arr_multi_wrong();

-- slices: read, assign, assign with a source of the wrong size
CREATE FUNCTION dm_arr_slices() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := ARRAY[1, 2, 3, 4, 5];
    m integer[] := '{{1,2,3},{4,5,6},{7,8,9}}';
BEGIN
    RAISE NOTICE 'a[2:3]=% a[:2]=% a[4:]=% a[4:2]=% a[0:1]=%', a[2:3], a[:2], a[4:], a[4:2], a[0:1];
    RAISE NOTICE 'm[1:2][2:3]=% m[2:2]=% m[2][2:3]=%', m[1:2][2:3], m[2:2], m[2][2:3];
    a[1:2] := ARRAY[10, 20];
    RAISE NOTICE 'after a[1:2] := ...: %', a;
    a[4:] := ARRAY[40, 50, 60];
    RAISE NOTICE 'after a[4:] := ...: %', a;
    a[6:7] := ARRAY[6, 7];
    RAISE NOTICE 'slice past the end: %', a;
    m[2:3][1:1] := '{{0},{0}}';
    RAISE NOTICE 'm=%', m;
    a[1:3] := ARRAY[1];
END
$$;
SELECT dm_arr_slices();

-- arrays of composites: field assignment through a subscript
CREATE FUNCTION dm_arr_composite() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    pts dm_point[] := ARRAY[ROW(1, 1), ROW(2, 2)]::dm_point[];
    shapes dm_shape[];
    p dm_point;
BEGIN
    pts[1].x := 100;
    pts[2].y := pts[1].x + 1;
    pts[4].x := 4;
    RAISE NOTICE 'pts=% pts[2].y=% (pts[1]).x=%', pts, pts[2].y, (pts[1]).x;
    shapes[1].name := 's1';
    shapes[1].origin.y := 9;
    shapes[1].tags[2] := 't2';
    RAISE NOTICE 'shapes=%', shapes;
    p := pts[1];
    p.y := -1;
    RAISE NOTICE 'copy modified: p=% pts[1]=%', p, pts[1];
    FOREACH p IN ARRAY pts LOOP
        RAISE NOTICE 'foreach: x=% y=%', p.x, p.y;
    END LOOP;
END
$$;
SELECT dm_arr_composite();

-- appending in a loop: a := a || x and a[n+1] := x, 10000 times each
CREATE FUNCTION dm_arr_append(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer[] := '{}';
    b bigint[] := '{}';
    t text[];
    i integer;
    s1 bigint;
    s2 bigint;
BEGIN
    FOR i IN 1..n LOOP
        a := a || i;
        b[coalesce(array_length(b, 1), 0) + 1] := i * 2;
    END LOOP;
    FOR i IN 1..3 LOOP
        t := i::text || t;
        t := t || ('e' || i);
    END LOOP;
    SELECT sum(x) INTO s1 FROM unnest(a) x;
    SELECT sum(x) INTO s2 FROM unnest(b) x;
    RETURN format('a: len=%s upper=%s card=%s sum=%s; b: len=%s sum=%s last=%s; t=%s',
                  array_length(a, 1), array_upper(a, 1), cardinality(a), s1,
                  array_length(b, 1), s2, b[n], t);
END
$$;
SELECT dm_arr_append(10000);
SELECT dm_arr_append(0);

-- array_length of an empty array is NULL, so a[array_length(a,1)+1] fails
CREATE FUNCTION dm_arr_append_empty() RETURNS integer[] LANGUAGE plnimble AS $$
DECLARE
    a integer[] := '{}';
BEGIN
    a[array_length(a, 1) + 1] := 1;
    RETURN a;
END
$$;
SELECT dm_arr_append_empty();

-- FOREACH: scalars, SLICE 1, over a multi-dimensional array, a list of
-- targets for composite elements, a NULL array, an element-type mismatch
CREATE FUNCTION dm_arr_foreach() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a numeric[] := ARRAY[1.5, NULL, 3];
    m text[] := '{{a,b},{c,d},{e,f}}';
    pts dm_point[] := ARRAY[(1, 2), (3, 4)]::dm_point[];
    x numeric;
    t text;
    sl text[];
    px integer;
    py integer;
    r record;
BEGIN
    FOREACH x IN ARRAY a LOOP
        RAISE NOTICE 'x=%', x;
    END LOOP;
    FOREACH t IN ARRAY m LOOP
        RAISE NOTICE 't=%', t;
    END LOOP;
    FOREACH sl SLICE 1 IN ARRAY m LOOP
        RAISE NOTICE 'slice=%', sl;
    END LOOP;
    FOREACH px, py IN ARRAY pts LOOP
        RAISE NOTICE 'px=% py=%', px, py;
    END LOOP;
    FOREACH r IN ARRAY pts LOOP
        RAISE NOTICE 'r=% r.y=%', r, r.y;
    END LOOP;
    FOREACH t IN ARRAY a LOOP
        RAISE NOTICE 'numeric into text: %', t;
    END LOOP;
    FOREACH x IN ARRAY '{}'::numeric[] LOOP
        RAISE NOTICE 'never';
    END LOOP;
    a := NULL;
    FOREACH x IN ARRAY a LOOP
        RAISE NOTICE 'never';
    END LOOP;
END
$$;
SELECT dm_arr_foreach();

-- FOREACH SLICE beyond the number of dimensions, and over a non-array
CREATE FUNCTION dm_arr_foreach_slice_bad() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := ARRAY[1, 2];
    s integer[];
BEGIN
    FOREACH s SLICE 2 IN ARRAY a LOOP
    END LOOP;
END
$$;
SELECT dm_arr_foreach_slice_bad();

CREATE FUNCTION dm_arr_foreach_scalar() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer := 5;
    x integer;
BEGIN
    FOREACH x IN ARRAY n LOOP
    END LOOP;
END
$$;
SELECT dm_arr_foreach_scalar();

-- unnest on a variable in SQL, WITH ORDINALITY, and of a composite array
CREATE FUNCTION dm_arr_unnest() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a text[] := ARRAY['x', 'y', 'z'];
    pts dm_point[] := ARRAY[ROW(1, 2)::dm_point, ROW(3, 4)::dm_point, ROW(5, 6)::dm_point];
    r record;
    n integer;
BEGIN
    FOR r IN SELECT * FROM unnest(a) WITH ORDINALITY AS u(v, i) ORDER BY i DESC LOOP
        RAISE NOTICE '% -> %', r.i, r.v;
    END LOOP;
    SELECT sum(x * y) INTO n FROM unnest(pts);
    RAISE NOTICE 'sum(x*y)=%', n;
    SELECT count(*) INTO n FROM dm_emp WHERE name = ANY (ARRAY['alice', 'carol']);
    RAISE NOTICE 'any: %', n;
    a := ARRAY(SELECT name FROM dm_emp ORDER BY id DESC);
    RAISE NOTICE 'ARRAY(subquery): % %', a, array_to_string(a, '+');
    pts := ARRAY(SELECT ROW(id, id * id)::dm_point FROM dm_emp ORDER BY id);
    RAISE NOTICE 'pts: %', pts;
END
$$;
SELECT dm_arr_unnest();

-- an array element assignment that needs a cast, and one that fails
CREATE FUNCTION dm_arr_cast() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := '{}';
    t varchar(2)[] := '{}';
BEGIN
    a[1] := '42';
    a[2] := 2.5;
    t[1] := 'ab';
    RAISE NOTICE 'a=% t=%', a, t;
    t[2] := 'abc';
    RAISE NOTICE 't=%', t;
    a[3] := 'x';
END
$$;
SELECT dm_arr_cast();

------------------------------------------------------------------------------
-- 4. multiple INTO targets, extra_warnings and extra_errors
------------------------------------------------------------------------------

-- as many columns as targets, fewer (the rest become NULL), more (ignored)
CREATE FUNCTION dm_into_multi() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    x integer := -1;
    y text := 'unset';
    z numeric := -1;
BEGIN
    SELECT id, name INTO x, y FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'equal: x=% y=%', x, y;
    SELECT id, name INTO x, y, z FROM dm_emp WHERE id = 2;
    RAISE NOTICE 'fewer columns: x=% y=% z=%', x, y, z;
    SELECT id, name, salary, dept INTO x, y, z FROM dm_emp WHERE id = 3;
    RAISE NOTICE 'more columns: x=% y=% z=%', x, y, z;
    SELECT '7', 8 INTO y, x;
    RAISE NOTICE 'converted: x=% y=%', x, y;
    SELECT id INTO x FROM dm_emp ORDER BY id DESC;
    RAISE NOTICE 'several rows, no STRICT: x=%', x;
    SELECT id, name INTO STRICT x, y FROM dm_emp WHERE id = 2;
    RAISE NOTICE 'strict: x=% y=%', x, y;
END
$$;
SELECT dm_into_multi();

-- a record target must be the only one
CREATE FUNCTION dm_into_rec_list() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
    x integer;
BEGIN
    SELECT 1, 2 INTO r, x;
END
$$;

-- a composite variable as a target receives the columns by position
CREATE FUNCTION dm_into_composite() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    p dm_point;
BEGIN
    SELECT 1, 2, 3 INTO p;
    RAISE NOTICE 'more: p=%', p;
    SELECT 5 INTO p;
    RAISE NOTICE 'fewer: p=%', p;
    SELECT ROW(8, 9)::dm_point INTO p;
    RAISE NOTICE 'one composite column: p=%', p;
END
$$;
SELECT dm_into_composite();

-- extra_warnings = shadowed_variables: WARNINGs at CREATE time
SET plnimble.extra_warnings = 'shadowed_variables';
CREATE FUNCTION dm_shadow(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer := 1;
    y integer := 2;
BEGIN
    DECLARE
        y integer := 3;
    BEGIN
        RETURN x + y;
    END;
END
$$;
SELECT dm_shadow(10);
RESET plnimble.extra_warnings;

-- extra_errors = shadowed_variables: CREATE FUNCTION fails
SET plnimble.extra_errors = 'shadowed_variables';
CREATE FUNCTION dm_shadow_err(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer := 1;
BEGIN
    RETURN x;
END
$$;
-- DO blocks are not checked for shadowing
DO LANGUAGE plnimble $$
DECLARE
    a integer;
BEGIN
    DECLARE
        a integer;
    BEGIN
    END;
END
$$;
RESET plnimble.extra_errors;
SET plnimble.extra_warnings = 'all';
DO LANGUAGE plnimble $$
DECLARE
    a integer;
BEGIN
    DECLARE
        a integer;
    BEGIN
        SELECT id INTO a FROM dm_emp ORDER BY id DESC;
        RAISE NOTICE 'DO block: a=%', a;
    END;
END
$$;
RESET plnimble.extra_warnings;

-- too_many_rows and strict_multi_assignment as warnings
SET plnimble.extra_warnings = 'too_many_rows, strict_multi_assignment';
CREATE FUNCTION dm_extra_runtime() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x integer;
    y text;
    p dm_point;
BEGIN
    SELECT id INTO x FROM dm_emp ORDER BY id;
    RAISE NOTICE 'too many rows: x=%', x;
    SELECT id, name, dept INTO x, y FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'more columns: x=% y=%', x, y;
    SELECT id INTO x, y FROM dm_emp WHERE id = 2;
    RAISE NOTICE 'fewer columns: x=% y=%', x, y;
    SELECT 1, 2, 3 INTO p;
    RAISE NOTICE 'composite: p=%', p;
    SELECT id, name INTO x, y FROM dm_emp WHERE id = 3;
    RETURN format('exact: %s %s', x, y);
END
$$;
SELECT dm_extra_runtime();
RESET plnimble.extra_warnings;

-- the same checks as errors
SET plnimble.extra_errors = 'too_many_rows';
CREATE FUNCTION dm_extra_tmr() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    SELECT id INTO x FROM dm_emp WHERE id = 1;
    RAISE NOTICE 'one row is fine: %', x;
    SELECT id INTO x FROM dm_emp;
    RETURN x;
END
$$;
SELECT dm_extra_tmr();
RESET plnimble.extra_errors;

SET plnimble.extra_errors = 'strict_multi_assignment';
CREATE FUNCTION dm_extra_sma() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
    y integer;
BEGIN
    SELECT 1, 2 INTO x, y;
    RAISE NOTICE 'exact is fine: % %', x, y;
    SELECT 1, 2, 3 INTO x, y;
    RETURN x;
END
$$;
SELECT dm_extra_sma();
RESET plnimble.extra_errors;

-- 'all' turns on every check, including for FETCH
SET plnimble.extra_warnings = 'all';
CREATE FUNCTION dm_extra_all(a integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer := 5;
    b integer;
    c CURSOR FOR SELECT 1, 2, 3;
BEGIN
    SELECT id INTO b FROM dm_emp;
    OPEN c;
    FETCH c INTO a, b;
    CLOSE c;
    RETURN a + b;
END
$$;
SELECT dm_extra_all(1);
RESET plnimble.extra_warnings;

-- 'none' turns them off; the setting at compile time is the one that counts
SET plnimble.extra_warnings = 'none';
CREATE FUNCTION dm_extra_none(a integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a integer := 5;
    b integer;
BEGIN
    SELECT id INTO b FROM dm_emp;
    RETURN a + b;
END
$$;
SELECT dm_extra_none(1);
SET plnimble.extra_warnings = 'all';
SELECT dm_extra_none(1);
RESET plnimble.extra_warnings;

-- a function compiled for the first time while the setting is on
CREATE FUNCTION dm_extra_late() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    b integer;
BEGIN
    SELECT id, name INTO b FROM dm_emp WHERE id = 1;
    RETURN b;
END
$$;
SET plnimble.extra_warnings = 'strict_multi_assignment';
SELECT dm_extra_late();
RESET plnimble.extra_warnings;
SELECT dm_extra_late();

-- and a function created while the setting is on, first called after RESET
SET plnimble.extra_warnings = 'too_many_rows';
CREATE FUNCTION dm_extra_early() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    b integer;
BEGIN
    SELECT id INTO b FROM dm_emp ORDER BY id;
    RETURN b;
END
$$;
RESET plnimble.extra_warnings;
SELECT dm_extra_early();

-- invalid values
SET plnimble.extra_warnings = 'bogus';
SET plnimble.extra_errors = 'all, shadowed_variables';
SET plnimble.extra_errors = 'none, too_many_rows';
\pset format unaligned
SHOW plnimble.extra_warnings;
\pset format aligned

------------------------------------------------------------------------------
-- 5. polymorphic functions
------------------------------------------------------------------------------

-- anyelement: the same function with different actual types in one
-- session; %TYPE of a polymorphic parameter
CREATE FUNCTION dm_poly_twice(v anyelement) RETURNS anyelement LANGUAGE plnimble AS $$
DECLARE
    tmp v%TYPE;
BEGIN
    tmp := v;
    RAISE NOTICE 'called with % (tmp is %)', pg_typeof(v), pg_typeof(tmp);
    IF pg_typeof(v) = 'text'::regtype THEN
        RETURN v || v;
    END IF;
    RETURN v + v;
END
$$;
SELECT dm_poly_twice(21);
SELECT dm_poly_twice(1.25);
SELECT dm_poly_twice('ab'::text);
SELECT dm_poly_twice(21::bigint);
SELECT dm_poly_twice(21);
SELECT dm_poly_twice('ab');
SELECT dm_poly_twice(now()::date);

-- anyarray and anyelement together; %TYPE of an anyarray parameter
CREATE FUNCTION dm_poly_last(a anyarray) RETURNS anyelement LANGUAGE plnimble AS $$
DECLARE
    copy a%TYPE := a;
    x copy%TYPE;
BEGIN
    copy[coalesce(array_upper(copy, 1), 0) + 1] := copy[1];
    RAISE NOTICE 'copy=% (%)', copy, pg_typeof(x);
    RETURN a[array_upper(a, 1)];
END
$$;
SELECT dm_poly_last(ARRAY[1, 2, 3]);
SELECT dm_poly_last(ARRAY['x', 'y']);
SELECT dm_poly_last(ARRAY[ROW(1, 2), ROW(3, 4)]::dm_point[]);
SELECT dm_poly_last('{}'::int[]) IS NULL AS empty_last;

-- anyelement with a composite: field access on the polymorphic value
CREATE FUNCTION dm_poly_field(v anyelement) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN v.x::text;
END
$$;
SELECT dm_poly_field(ROW(5, 6)::dm_point);
SELECT dm_poly_field(5);

-- anynonarray: an array argument is rejected
CREATE FUNCTION dm_poly_nonarray(v anynonarray) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN format('%s is %s', v, pg_typeof(v));
END
$$;
SELECT dm_poly_nonarray(1);
SELECT dm_poly_nonarray('x'::varchar);
SELECT dm_poly_nonarray(ARRAY[1]);

-- anyenum
CREATE FUNCTION dm_poly_enum(v anyenum) RETURNS anyenum LANGUAGE plnimble AS $$
DECLARE
    nxt v%TYPE;
BEGIN
    RAISE NOTICE 'range of %: % first=% last=%', pg_typeof(v), enum_range(v),
        enum_first(v), enum_last(v);
    SELECT e INTO nxt FROM unnest(enum_range(v)) e WHERE e > v ORDER BY e LIMIT 1;
    RETURN coalesce(nxt, enum_first(v));
END
$$;
SELECT dm_poly_enum('red'::dm_color);
SELECT dm_poly_enum('blue'::dm_color);
SELECT dm_poly_enum('red');
SELECT dm_poly_enum(1);

-- anyrange together with anyelement
CREATE FUNCTION dm_poly_range(r anyrange, v anyelement) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    lo v%TYPE := lower(r);
BEGIN
    RETURN format('%s contains %s: %s; lower=%s (%s); empty=%s', r, v, v <@ r, lo,
                  pg_typeof(lo), isempty(r));
END
$$;
SELECT dm_poly_range(int4range(1, 10), 5);
SELECT dm_poly_range(numrange(1.5, 2.5), 3.0);
SELECT dm_poly_range(daterange('2024-01-01', '2024-02-01'), '2024-01-15'::date);
SELECT dm_poly_range(int4range(1, 10), 5.5);

-- anyrange returned
CREATE FUNCTION dm_poly_widen(r anyrange) RETURNS anyrange LANGUAGE plnimble AS $$
BEGIN
    RETURN r + r;
END
$$;
SELECT dm_poly_widen(int4range(1, 3));

-- anycompatible / anycompatiblearray: the arguments are unified
CREATE FUNCTION dm_poly_compat(a anycompatible, b anycompatible) RETURNS anycompatiblearray
LANGUAGE plnimble AS $$
DECLARE
    tmp b%TYPE := b;
BEGIN
    RAISE NOTICE 'types: % % %', pg_typeof(a), pg_typeof(tmp), pg_typeof(ARRAY[a, b]);
    RETURN ARRAY[a, tmp];
END
$$;
SELECT dm_poly_compat(1, 2.5);
SELECT dm_poly_compat(1::smallint, 2::bigint);
SELECT dm_poly_compat('a', 'b');
SELECT dm_poly_compat(1, 'x'::text);

CREATE FUNCTION dm_poly_compat_arr(a anycompatiblearray, v anycompatible)
RETURNS anycompatible LANGUAGE plnimble AS $$
DECLARE
    s v%TYPE := 0;
    e v%TYPE;
BEGIN
    FOREACH e IN ARRAY a LOOP
        s := s + e;
    END LOOP;
    RETURN s + v;
END
$$;
SELECT dm_poly_compat_arr(ARRAY[1, 2, 3], 0.5);
SELECT dm_poly_compat_arr(ARRAY[1.5, 2.5], 1);

-- polymorphic OUT parameters
CREATE FUNCTION dm_poly_out(v anyelement, OUT same anyelement, OUT arr anyarray)
LANGUAGE plnimble AS $$
BEGIN
    same := v;
    arr := ARRAY[v, v];
END
$$;
SELECT * FROM dm_poly_out(3);
SELECT * FROM dm_poly_out('q'::text);

-- %TYPE[] is not accepted in PostgreSQL 15, nor a polymorphic variable
CREATE FUNCTION dm_poly_typearr(a anyelement) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r a%TYPE[];
BEGIN
END
$$;
CREATE FUNCTION dm_poly_var(a anyelement) RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r anyelement;
BEGIN
END
$$;

-- the "any" pseudo-type
CREATE FUNCTION dm_poly_any(v "any") RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'x';
END
$$;

-- a polymorphic result without a polymorphic argument
CREATE FUNCTION dm_poly_noarg() RETURNS anyelement LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;

------------------------------------------------------------------------------
-- 6. VARIADIC, parameter defaults, named notation
------------------------------------------------------------------------------

CREATE FUNCTION dm_var_sum(VARIADIC a integer[]) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s integer := 0;
    x integer;
BEGIN
    FOREACH x IN ARRAY coalesce(a, '{}') LOOP
        s := s + coalesce(x, 0);
    END LOOP;
    RETURN format('n=%s sum=%s a=%s', cardinality(a), s, a);
END
$$;
SELECT dm_var_sum(1);
SELECT dm_var_sum(1, 2, 3, NULL);
SELECT dm_var_sum(VARIADIC ARRAY[4, 5]);
SELECT dm_var_sum(VARIADIC '{}'::int[]);
SELECT dm_var_sum(VARIADIC NULL::int[]);
SELECT dm_var_sum();
SELECT dm_var_sum(a => ARRAY[7, 8]);
SELECT dm_var_sum(VARIADIC a => ARRAY[7, 8]);

-- a variadic after fixed parameters, and a polymorphic variadic
CREATE FUNCTION dm_var_join(sep text, VARIADIC parts text[]) RETURNS text
LANGUAGE plnimble AS $$
BEGIN
    RETURN array_to_string(parts, sep);
END
$$;
CREATE FUNCTION dm_var_max(VARIADIC v anyarray) RETURNS anyelement LANGUAGE plnimble AS $$
DECLARE
    m v%TYPE;
BEGIN
    m := ARRAY[(SELECT max(x) FROM unnest(v) x)];
    RAISE NOTICE 'm is %', pg_typeof(m);
    RETURN m[1];
END
$$;
SELECT dm_var_join('-', 'a', 'b', 'c'), dm_var_join(', ', VARIADIC ARRAY['x', 'y']);
SELECT dm_var_max(3, 9, 4), dm_var_max(1.5, 2.5), dm_var_max('b'::text, 'a');
SELECT dm_var_max(1.5, 2);
SELECT dm_var_max('b', 'a');

-- calling them from plnimble code
CREATE FUNCTION dm_var_caller() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    arr integer[] := ARRAY[10, 20, 30];
BEGIN
    RETURN dm_var_sum(1, 2) || ' | ' || dm_var_sum(VARIADIC arr) || ' | '
        || dm_var_join(sep => '/', VARIADIC parts => ARRAY['p', 'q']) || ' | '
        || dm_var_max(VARIADIC arr);
END
$$;
SELECT dm_var_caller();

-- parameter defaults and named notation
CREATE FUNCTION dm_defaults(a integer, b integer DEFAULT 10, c text = 'c-default',
                            d dm_point DEFAULT ROW(0, 0))
RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN format('a=%s b=%s c=%s d=%s', a, b, c, d);
END
$$;
SELECT dm_defaults(1);
SELECT dm_defaults(1, 2);
SELECT dm_defaults(1, 2, 'three', ROW(4, 4));
SELECT dm_defaults(a => 1, c => 'named c');
SELECT dm_defaults(c => 'only c', a => 5);
SELECT dm_defaults(1, d => ROW(9, 9), b := 3);
SELECT dm_defaults(b => 1);
SELECT dm_defaults(a => 1, 2);
SELECT dm_defaults(1, a => 2);

CREATE FUNCTION dm_named_caller() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
    b integer := 77;
BEGIN
    t := dm_defaults(c => 'from code', a => 1);
    RAISE NOTICE '%', t;
    t := dm_defaults(2, b => b);
    RAISE NOTICE '%', t;
    PERFORM dm_defaults(a := 3);
    SELECT dm_defaults(4, c => 'in select') INTO t;
    RAISE NOTICE '%', t;
    RAISE NOTICE '%', dm_defaults(5, d => (SELECT ROW(id, id)::dm_point FROM dm_emp WHERE id = 3));
END
$$;
SELECT dm_named_caller();

-- a default that refers to nothing in scope, and a default after which a
-- parameter without one follows
CREATE FUNCTION dm_defaults_bad(a integer DEFAULT 1, b integer) RETURNS integer
LANGUAGE plnimble AS $$
BEGIN
    RETURN a + b;
END
$$;

-- unnamed parameters with a default
CREATE FUNCTION dm_unnamed(integer, text DEFAULT 'dflt') RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN $1 || ':' || $2;
END
$$;
SELECT dm_unnamed(1), dm_unnamed(2, 'x');

------------------------------------------------------------------------------
-- 7. RETURN of composites and records
------------------------------------------------------------------------------

-- RETURNS comptype: a composite variable, a record of the right shape,
-- ROW(...), a cast, NULL, a row of NULLs
CREATE FUNCTION dm_ret_point(k integer) RETURNS dm_point LANGUAGE plnimble AS $$
DECLARE
    p dm_point := ROW(1, 2);
    r record;
BEGIN
    CASE k
        WHEN 1 THEN RETURN p;
        WHEN 2 THEN SELECT 3 AS a, 4 AS b INTO r; RETURN r;
        WHEN 3 THEN RETURN ROW(5, 6);
        WHEN 4 THEN RETURN (7, 8)::dm_point;
        WHEN 5 THEN RETURN NULL;
        WHEN 6 THEN RETURN ROW(NULL::int, NULL::int);
        WHEN 7 THEN RETURN (SELECT ROW(x, y)::dm_point FROM (VALUES (9, 10)) v(x, y));
        ELSE RETURN '(11,12)'::dm_point;
    END CASE;
END
$$;
SELECT k, dm_ret_point(k), (dm_ret_point(k)).x, dm_ret_point(k) IS NULL AS isnull
FROM generate_series(1, 8) k;
SELECT * FROM dm_ret_point(2);

-- the mismatches: too many / too few columns, a type that differs, a
-- table row, a scalar, untyped NULLs and literals
CREATE FUNCTION dm_ret_bad(k integer) RETURNS dm_point LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    CASE k
        WHEN 1 THEN RETURN ROW(1, 2, 3);
        WHEN 2 THEN RETURN ROW(1);
        WHEN 3 THEN RETURN ROW(1, 'two'::text);
        WHEN 4 THEN RETURN ROW(1::bigint, 2);
        WHEN 5 THEN SELECT * INTO r FROM dm_emp WHERE id = 1; RETURN r;
        WHEN 6 THEN RETURN 5;
        WHEN 7 THEN RETURN ROW(NULL, NULL);
        WHEN 8 THEN RETURN '(11,12)';
        ELSE RETURN ROW('1', '2');
    END CASE;
END
$$;
SELECT dm_ret_bad(1);
SELECT dm_ret_bad(2);
SELECT dm_ret_bad(3);
SELECT dm_ret_bad(4);
SELECT dm_ret_bad(5);
SELECT dm_ret_bad(6);
SELECT dm_ret_bad(7);
SELECT dm_ret_bad(8);
SELECT dm_ret_bad(9);

-- RETURNS record: the caller supplies the column definition list
CREATE FUNCTION dm_ret_record(k integer) RETURNS record LANGUAGE plnimble AS $$
DECLARE
    r record;
    p dm_point := ROW(1, 2);
BEGIN
    CASE k
        WHEN 1 THEN SELECT 1 AS a, 'x'::text AS b INTO r; RETURN r;
        WHEN 2 THEN RETURN p;
        WHEN 3 THEN RETURN ROW(3, 'three'::text);
        WHEN 4 THEN RETURN NULL;
        ELSE RETURN ROW(1, 2, 3);
    END CASE;
END
$$;
SELECT dm_ret_record(1), dm_ret_record(2), dm_ret_record(4) IS NULL AS isnull;
SELECT * FROM dm_ret_record(1) AS t(a integer, b text);
SELECT * FROM dm_ret_record(3) AS t(n integer, s text);
SELECT * FROM dm_ret_record(2) AS t(x integer, y integer);
SELECT * FROM dm_ret_record(4) AS t(x integer, y integer);
SELECT * FROM dm_ret_record(1) AS t(a integer, b integer);
SELECT * FROM dm_ret_record(5) AS t(a integer, b integer);
SELECT * FROM dm_ret_record(1) AS t(a integer);
SELECT * FROM dm_ret_record(1);

-- RETURN of a scalar from RETURNS record
CREATE FUNCTION dm_ret_record_scalar() RETURNS record LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
SELECT dm_ret_record_scalar();

-- RETURNS record with OUT parameters: RETURN without a value
CREATE FUNCTION dm_ret_out(k integer, OUT a integer, OUT b dm_point) LANGUAGE plnimble AS $$
BEGIN
    a := k;
    b.x := k * 10;
    IF k > 1 THEN
        b.y := k * 100;
    END IF;
END
$$;
SELECT dm_ret_out(1), (dm_ret_out(2)).b;
SELECT * FROM dm_ret_out(3);

-- RETURN NEXT with a record of the wrong shape
CREATE FUNCTION dm_ret_next(k integer) RETURNS SETOF dm_point LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    RETURN NEXT ROW(1, 2);
    SELECT 3 AS x, 4 AS y INTO r;
    RETURN NEXT r;
    IF k = 1 THEN
        SELECT 5 AS x INTO r;
    ELSE
        SELECT 5 AS x, 'six'::text AS y INTO r;
    END IF;
    RETURN NEXT r;
END
$$;
SELECT * FROM dm_ret_next(1);
SELECT * FROM dm_ret_next(2);

-- a composite returned by a function with a domain-over-composite result
CREATE FUNCTION dm_ret_domain(x integer) RETURNS dm_pos_point LANGUAGE plnimble AS $$
BEGIN
    RETURN ROW(x, 1);
END
$$;
SELECT dm_ret_domain(1);
SELECT dm_ret_domain(-1);

-- a table row returned as the table's type and used in SQL
CREATE FUNCTION dm_ret_emp(p_id integer) RETURNS dm_emp LANGUAGE plnimble AS $$
DECLARE
    e dm_emp;
BEGIN
    SELECT * INTO e FROM dm_emp WHERE id = p_id;
    e.salary := e.salary * 2;
    RETURN e;
END
$$;
SELECT (dm_ret_emp(1)).*;
SELECT (dm_ret_emp(99)).name IS NULL AS missing;
SELECT dm_emp_label(dm_ret_emp(3));

-- arrays are changed in place by appends and element assignments; other
-- references to the same array in the expression still see the old value,
-- and an array passed as an argument is never changed in the caller
CREATE FUNCTION dm_arr_inplace_callee(a integer[]) RETURNS integer[] LANGUAGE plnimble AS $$
BEGIN
    a[1] := 100;
    a := a || 7;
    a := array_prepend(0, a);
    RETURN a;
END
$$;
CREATE FUNCTION dm_arr_inplace() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    e integer[] := '{1,2,3}';
    f integer[];
    t text[] := '{a,b}';
    i integer;
BEGIN
    e[2] := e[1] + e[3];
    e := e || e[2];
    e := array_append(array_append(e, 9), e[1]);
    RAISE NOTICE 'e=%', e;
    f := e;
    f[1] := -1;
    RAISE NOTICE 'e=% f=%', e, f;
    t[2] := t[1];
    t[1] := t[1] || 'x';
    t := array_append(t, t[1] || t[2]);
    RAISE NOTICE 't=%', t;
    RAISE NOTICE 'callee=% caller=%', dm_arr_inplace_callee(e), e;
    FOR i IN 1..1000 LOOP
        f := f || i;
        f[i] := f[i] * 2;
    END LOOP;
    RAISE NOTICE 'len=% sum=%', array_length(f, 1),
        (SELECT sum(x) FROM unnest(f) x);
    BEGIN
        e := array_append(e, 1 / 0);
    EXCEPTION WHEN division_by_zero THEN
        RAISE NOTICE 'after error e=%', e;
    END;
END
$$;
SELECT dm_arr_inplace();
