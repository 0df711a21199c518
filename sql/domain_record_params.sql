-- domain_record_params: a record variable of a domain over a composite
-- type that holds no value but has been given its shape (a field was read
-- or a field assignment failed, SELECT INTO found no row) is a NULL of the
-- domain, not of its row type, when a query gets it as a parameter (the
-- type the query was planned for).  plnimble used to hand it out as the
-- row type: "type of parameter N (drp_pt) does not match that when
-- preparing the plan (drp_d)".  (Found by the fuzzer.)
CREATE TYPE drp_pt AS (x int, y text);
CREATE DOMAIN drp_d AS drp_pt CHECK ((VALUE).x IS DISTINCT FROM 0);
CREATE TABLE drp_t (a drp_d);

-- the query is planned while the variable is NULL (not instantiated),
-- and run again once a failed field assignment has given it its shape
CREATE FUNCTION drp_failed_field() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v drp_d;
    acc text := '';
BEGIN
    FOR i IN 1..2 LOOP
        BEGIN
            v.x := 0;
        EXCEPTION WHEN check_violation THEN
            acc := acc || 'caught ';
        END;
        acc := acc || concat_ws(',', i, v) || ' ' || (v IS NULL) || ' ';
    END LOOP;
    RETURN acc;
END$$;
SELECT drp_failed_field();

-- first planned after the failed assignment
CREATE FUNCTION drp_failed_first() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v drp_d;
BEGIN
    BEGIN
        v.x := 0;
    EXCEPTION WHEN check_violation THEN
        NULL;
    END;
    RETURN concat_ws(',', 'after', v, pg_typeof(v));
END$$;
SELECT drp_failed_first();

-- a field read, then the whole variable in a query and in a table
CREATE FUNCTION drp_field_read() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v drp_d;
    n int;
BEGIN
    FOR i IN 1..2 LOOP
        n := v.x;
        INSERT INTO drp_t VALUES (v);
        PERFORM 1 WHERE v IS NULL;
    END LOOP;
    RETURN concat_ws(',', n, v, (SELECT count(*) FROM drp_t WHERE a IS NULL));
END$$;
SELECT drp_field_read();

-- SELECT INTO that finds no row
CREATE FUNCTION drp_no_row() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v drp_d;
    r text := '';
BEGIN
    FOR i IN 1..2 LOOP
        r := r || concat_ws(',', i, v) || ' ';
        SELECT a INTO v FROM drp_t WHERE false;
    END LOOP;
    EXECUTE 'SELECT concat_ws(''/'', $1, pg_typeof($1))' INTO r USING v;
    RETURN r;
END$$;
SELECT drp_no_row();
