-- lazy_lookups: statements that run in an exception block before its
-- subtransaction starts must not look anything up in the catalogs.  A
-- CASE with a search value of type text (its hidden variable takes on the
-- value's type at run time) and storing an array constant into an array
-- variable (the array is expanded, which needs its element type's
-- storage) once did so on every call after the first: the result was
-- right, so only the checking build (bash scripts/test.sh --lazy-check)
-- tells, where such a lookup is an internal error.  Each function is
-- called several times, since the first call plans its expressions
-- behind a savepoint.

CREATE FUNCTION ll_case(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        CASE t
            WHEN 'a' THEN r := 'first';
            WHEN 'b' THEN r := 'second';
            ELSE r := 'other';
        END CASE;
    EXCEPTION WHEN OTHERS THEN
        r := 'caught: ' || SQLERRM;
    END;
    RETURN r;
END
$$;
SELECT ll_case('a'), ll_case('b'), ll_case('c'), ll_case(NULL);
SELECT string_agg(ll_case(x), ',') FROM unnest(ARRAY['a', 'b', 'z', 'a']) x;

-- a search value whose type changes between calls (a polymorphic
-- function is compiled once per argument type, so it cannot here; an
-- expression over a record field can)
CREATE FUNCTION ll_case_poly(v anyelement) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        CASE v
            WHEN 1 THEN r := 'one';
            ELSE r := 'not one';
        END CASE;
    EXCEPTION WHEN OTHERS THEN
        r := 'caught';
    END;
    RETURN r;
END
$$;
SELECT ll_case_poly(1), ll_case_poly(2), ll_case_poly(1::bigint),
       ll_case_poly(1.0), ll_case_poly(1::smallint), ll_case_poly(1);

CREATE FUNCTION ll_array(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    a int[];
    b text[];
    c numeric[];
BEGIN
    BEGIN
        a := '{1,2}';
        b := '{x,y,z}';
        c := '{1.5,2.5}';
        a[3] := n;
    EXCEPTION WHEN OTHERS THEN
        RETURN 'caught: ' || SQLERRM;
    END;
    RETURN a::text || b::text || c::text;
END
$$;
SELECT ll_array(1), ll_array(2), ll_array(3);

-- a domain over an array type keeps the element type of its base
CREATE DOMAIN ll_ints AS int[] CHECK (cardinality(VALUE) < 5);
CREATE FUNCTION ll_domain_array() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    d ll_ints;
    r text;
BEGIN
    d := '{4,5}';
    BEGIN
        d := '{6,7,8}';
        r := d::text;
    EXCEPTION WHEN OTHERS THEN
        r := 'caught: ' || SQLERRM;
    END;
    RETURN r;
END
$$;
SELECT ll_domain_array(), ll_domain_array();
