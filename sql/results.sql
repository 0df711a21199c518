-- results: how a function's result and its arguments' actual types are
-- checked.  A RETURNS void result is a value, not NULL, whether or not the
-- body ends with RETURN; a result of a domain type passes the domain's
-- checks, NULL included, unless it is a value of the domain already; a
-- scalar RETURN in a function returning a row (or a trigger) fails at the
-- RETURN; a value whose actual type is the pseudo-type anyarray cannot be
-- passed to a polymorphic argument, even right after CREATE FUNCTION
-- (which compiles the body with stand-in types).

-- RETURNS void: not NULL, counted by count()
CREATE FUNCTION res_void_end() RETURNS void LANGUAGE plnimble AS $$
BEGIN
END
$$;
CREATE FUNCTION res_void_return() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    RETURN;
END
$$;
CREATE FUNCTION res_void_early(n int) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    IF n > 0 THEN
        RETURN;
    END IF;
    PERFORM 1;
END
$$;
SELECT res_void_end() IS NULL AS end_null, count(res_void_end()) AS end_count,
       res_void_return() IS NULL AS return_null,
       count(res_void_return()) AS return_count;
SELECT n, res_void_early(n) IS NULL AS is_null FROM generate_series(0, 1) n;
SELECT count(res_void_early(n)) FROM generate_series(0, 2) n;
SELECT coalesce(res_void_end()::text, 'was null') AS as_text;

-- a domain result: NOT NULL and CHECK constraints see a NULL result too
CREATE DOMAIN res_nn_int AS int NOT NULL;
CREATE DOMAIN res_pos_int AS int CHECK (value > 0);
CREATE DOMAIN res_nn_text_pos AS int NOT NULL CHECK (value > 0);
CREATE FUNCTION res_nn(n int) RETURNS res_nn_int LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
SELECT res_nn(1);
SELECT res_nn(NULL);
CREATE FUNCTION res_nn_var() RETURNS res_nn_int LANGUAGE plnimble AS $$
DECLARE
    x int;
BEGIN
    RETURN x;
END
$$;
SELECT res_nn_var();
CREATE FUNCTION res_nn_null() RETURNS res_nn_text_pos LANGUAGE plnimble AS $$
BEGIN
    RETURN NULL;
END
$$;
SELECT res_nn_null();
-- a CHECK lets NULL through, but not a value it rejects
CREATE FUNCTION res_pos(n int) RETURNS res_pos_int LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
SELECT res_pos(NULL) IS NULL AS null_passes;
SELECT res_pos(0);
-- a NULL that is a value of the domain already is not checked again
CREATE FUNCTION res_nn_out(OUT a res_nn_int) LANGUAGE plnimble AS $$
BEGIN
END
$$;
SELECT res_nn_out() IS NULL AS out_null;
-- the same error caught in a caller
CREATE FUNCTION res_nn_caller() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN res_nn(NULL);
EXCEPTION WHEN not_null_violation THEN
    RETURN 'caught: ' || SQLERRM;
END
$$;
SELECT res_nn_caller();

-- a domain over a row type as the result
CREATE TYPE res_pair AS (a int, b int);
CREATE DOMAIN res_nn_pair AS res_pair NOT NULL;
CREATE DOMAIN res_ck_pair AS res_pair CHECK ((value).a > 0);
CREATE FUNCTION res_pair_nn(p res_pair) RETURNS res_nn_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN p;
END
$$;
SELECT res_pair_nn(row(1, 2));
SELECT res_pair_nn(NULL);
CREATE FUNCTION res_pair_ck(p res_pair) RETURNS res_ck_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN p;
END
$$;
SELECT res_pair_ck(row(0, 2));
SELECT res_pair_ck(NULL) IS NULL AS null_passes;
CREATE FUNCTION res_pair_rec(n int) RETURNS res_nn_pair LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT NULL::int AS a, NULL::int AS b INTO r;
    IF n = 1 THEN
        RETURN r;       -- a row of NULLs is not NULL
    END IF;
    RETURN NULL;
END
$$;
SELECT res_pair_rec(1);
SELECT res_pair_rec(0);
-- a set of domain values: each row is checked
CREATE FUNCTION res_nn_set() RETURNS SETOF res_nn_int LANGUAGE plnimble AS $$
BEGIN
    RETURN NEXT 1;
    RETURN NEXT NULL;
END
$$;
SELECT * FROM res_nn_set();

-- a scalar RETURN in a function returning a row fails at the RETURN,
-- whether the value comes from an expression or a variable; NULL passes
CREATE FUNCTION res_scalar_expr() RETURNS res_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
SELECT res_scalar_expr();
CREATE FUNCTION res_scalar_var(n int) RETURNS res_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
SELECT res_scalar_var(1);
SELECT res_scalar_var(NULL) IS NULL AS null_passes;
CREATE FUNCTION res_scalar_domain(n int) RETURNS res_ck_pair LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
SELECT res_scalar_domain(1);
CREATE FUNCTION res_scalar_out(n int, OUT a int, OUT b int) LANGUAGE plnimble AS $$
BEGIN
    a := n;
    b := n;
    RETURN;
END
$$;
SELECT res_scalar_out(3);
-- a trigger returning a scalar variable
CREATE TABLE res_trig_t (a int);
CREATE FUNCTION res_trig_scalar() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n int := 1;
BEGIN
    RETURN n;
END
$$;
CREATE TRIGGER res_trig BEFORE INSERT ON res_trig_t
    FOR EACH ROW EXECUTE FUNCTION res_trig_scalar();
INSERT INTO res_trig_t VALUES (1);
CREATE OR REPLACE FUNCTION res_trig_scalar() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
    n int;
BEGIN
    RETURN n;           -- NULL: the row is skipped
END
$$;
INSERT INTO res_trig_t VALUES (2);
SELECT count(*) FROM res_trig_t;

-- anyarray as an actual argument type: pg_statistic's stavalues columns
CREATE TABLE res_stats (x int);
INSERT INTO res_stats SELECT g % 5 FROM generate_series(1, 100) g;
ANALYZE res_stats;
CREATE FUNCTION res_poly_array(a anyarray) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN pg_typeof(a)::text;
END
$$;
CREATE FUNCTION res_poly_elem(a anyelement) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN pg_typeof(a)::text;
END
$$;
SELECT res_poly_array(ARRAY[1, 2]), res_poly_elem(1);
SELECT res_poly_array(s.stavalues1) FROM pg_statistic s
  WHERE s.starelid = 'res_stats'::regclass AND s.stavalues1 IS NOT NULL;
SELECT res_poly_elem(s.stavalues1) FROM pg_statistic s
  WHERE s.starelid = 'res_stats'::regclass AND s.stavalues1 IS NOT NULL;
-- still so after the function has run with real types
SELECT res_poly_array(ARRAY['a'::text]);
SELECT res_poly_array(s.stavalues1) FROM pg_statistic s
  WHERE s.starelid = 'res_stats'::regclass AND s.stavalues1 IS NOT NULL;
-- a function created in this session and first called with int[]
CREATE FUNCTION res_poly_fresh(a anyarray) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    RETURN array_length(a, 1);
END
$$;
SELECT res_poly_fresh(ARRAY[1, 2, 3]);
