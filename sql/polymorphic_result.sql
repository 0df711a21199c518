-- polymorphic_result: the variable $0 of a function whose result type is
-- polymorphic (and not given by OUT parameters): it has the call's actual
-- result type, starts NULL on every call, may be assigned, aliased (ALIAS
-- FOR $0), subscripted, read in SQL and given as an INTO target; it does
-- not exist with OUT parameters, RETURNS TABLE, a fixed result type, in
-- procedures or DO blocks, and a declaration named "$0" shadows it.

-- the sum of three values of one type, through an alias of the result
CREATE FUNCTION pr_sum3(a anyelement, b anyelement, c anyelement)
RETURNS anyelement LANGUAGE plnimble AS $$
DECLARE
  total ALIAS FOR $0;
BEGIN
  total := a + b + c;
  RETURN total;
END
$$;
SELECT pr_sum3(1, 2, 3), pr_sum3(0.5, 1.25, 2.0),
       pr_sum3(1::int2, 2::int2, 3::int2) AS s,
       pg_typeof(pr_sum3(1::int2, 2::int2, 3::int2));

-- NULL at the start of each call, whatever the previous call left
CREATE FUNCTION pr_first(a anyelement) RETURNS anyelement
LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE 'on entry: % (%), null: %', $0, pg_typeof($0), $0 IS NULL;
  $0 := a;
  RETURN $0;
END
$$;
SELECT pr_first(5), pr_first('x'::text);
SELECT pr_first(6);

-- an array result filled element by element; a range
CREATE FUNCTION pr_swap(a anyarray) RETURNS anyarray LANGUAGE plnimble AS $$
DECLARE
  r ALIAS FOR $0;
BEGIN
  r[1] := a[2];
  r[2] := a[1];
  RETURN r;
END
$$;
SELECT pr_swap(ARRAY[1, 2]), pr_swap(ARRAY['a', 'b']);
CREATE FUNCTION pr_range(a anyrange) RETURNS anyrange LANGUAGE plnimble AS $$
BEGIN
  $0 := a;
  RETURN $0;
END
$$;
SELECT pr_range(int4range(1, 3)), pr_range(numrange(0.5, 1));

-- anycompatible: the common type
CREATE FUNCTION pr_add(a anycompatible, b anycompatible)
RETURNS anycompatible LANGUAGE plnimble AS $$
DECLARE
  r ALIAS FOR $0;
BEGIN
  r := a + b;
  RETURN r;
END
$$;
SELECT pr_add(1, 2.5), pg_typeof(pr_add(1, 2.5));

-- in SQL, as an INTO target, in a set-returning function, of a row type
CREATE FUNCTION pr_sql(a anyelement) RETURNS anyelement
LANGUAGE plnimble AS $$
BEGIN
  EXECUTE 'SELECT $1' INTO $0 USING a;
  SELECT a INTO $0;
  RETURN (SELECT $0);
END
$$;
SELECT pr_sql(42), pr_sql('forty-two'::text);
CREATE FUNCTION pr_set(a anyelement) RETURNS SETOF anyelement
LANGUAGE plnimble AS $$
BEGIN
  $0 := a;
  RETURN NEXT $0;
  RETURN NEXT $0;
END
$$;
SELECT * FROM pr_set(3);
CREATE TYPE pr_pt AS (x int, y int);
CREATE FUNCTION pr_row(anyelement) RETURNS anyelement
LANGUAGE plnimble AS $$
BEGIN
  $0 := $1;
  RETURN $0;
END
$$;
SELECT pr_row(ROW(1, 2)::pr_pt), pr_row(ROW(1, 'a'));
-- a field of it is not a known target
CREATE FUNCTION pr_field(a anyelement) RETURNS anyelement
LANGUAGE plnimble AS $$
BEGIN
  $0.x := 7;
  RETURN $0;
END
$$;

-- where there is no $0: OUT parameters, RETURNS TABLE, a fixed result
-- type, a procedure, a DO block (created fine, the error comes at run time)
CREATE FUNCTION pr_out(a anyelement, OUT b anyelement)
LANGUAGE plnimble AS $$
BEGIN
  b := $0;
END
$$;
SELECT pr_out(1);
CREATE FUNCTION pr_table(a anyelement) RETURNS TABLE (x anyelement)
LANGUAGE plnimble AS $$
BEGIN
  x := $0;
  RETURN NEXT;
END
$$;
SELECT * FROM pr_table(1);
CREATE FUNCTION pr_fixed(a int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
  r ALIAS FOR $0;
BEGIN
  RETURN a;
END
$$;
CREATE FUNCTION pr_fixed2(a int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  RETURN $0;
END
$$;
SELECT pr_fixed2(1);
CREATE PROCEDURE pr_proc(INOUT a anyelement) LANGUAGE plnimble AS $$
BEGIN
  a := $0;
END
$$;
CALL pr_proc(1);
DO LANGUAGE plnimble $$ BEGIN RAISE NOTICE '%', $0; END $$;

-- a declaration of that name shadows it
SET plnimble.extra_warnings = 'shadowed_variables';
CREATE FUNCTION pr_shadow(a anyelement) RETURNS anyelement
LANGUAGE plnimble AS $$
DECLARE
  "$0" int := 7;
BEGIN
  RETURN a;
END
$$;
RESET plnimble.extra_warnings;
SELECT pr_shadow(1);
