-- subxact_state: state a function keeps from one call to the next (cast
-- expressions, expression states of recursive calls, states of
-- expressions that failed) must not be used again after an error
-- interrupted it, when the subtransaction the error happened in was rolled
-- back and the transaction goes on: ROLLBACK TO SAVEPOINT at SQL level,
-- an exception block of a caller, an exception block of the function
-- itself.  Each failure below happens inside an SQL function, whose
-- running query holds a snapshot of the subtransaction; the next call
-- must work as if nothing had happened.

-- an assignment cast implemented by an SQL function, used by RETURN
CREATE FUNCTION ss_int_to_date(integer) RETURNS date LANGUAGE sql
    IMMUTABLE STRICT AS $$SELECT $1::text::date$$;
CREATE CAST (integer AS date) WITH FUNCTION ss_int_to_date(integer)
    AS ASSIGNMENT;
CREATE FUNCTION ss_via_cast(n integer) RETURNS date LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
BEGIN;
SELECT ss_via_cast(20240101);
SAVEPOINT a;
SELECT ss_via_cast(-5);
ROLLBACK TO SAVEPOINT a;
SELECT ss_via_cast(20240102);
SAVEPOINT b;
SELECT ss_via_cast(-6);
ROLLBACK TO SAVEPOINT b;
SELECT ss_via_cast(20240103);
COMMIT;

-- the same cast used by an assignment to a variable
CREATE FUNCTION ss_assign_cast(n integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    d date;
BEGIN
    d := n;
    RETURN d::text;
END
$$;
BEGIN;
SELECT ss_assign_cast(20240201);
SAVEPOINT a;
SELECT ss_assign_cast(0);
ROLLBACK TO SAVEPOINT a;
SELECT ss_assign_cast(20240202);
COMMIT;

-- the cast failing inside a caller's exception block, then used again by
-- the caller and by the callee
CREATE FUNCTION ss_caller() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    log text := '';
BEGIN
    log := log || ss_assign_cast(20240301) || ' ';
    BEGIN
        log := log || ss_assign_cast(7) || ' ';
    EXCEPTION WHEN others THEN
        log := log || 'caught: ' || SQLERRM || '; ';
    END;
    log := log || ss_assign_cast(20240302) || ' ' || ss_via_cast(20240303);
    RETURN log;
END
$$;
SELECT ss_caller();

-- a domain whose CHECK calls an SQL function: conversions to the domain
-- (a returned value, an assigned one)
CREATE FUNCTION ss_positive(n int) RETURNS bool LANGUAGE sql AS
    $$SELECT 10 / $1 > 0 FROM (VALUES (1)) v$$;
CREATE DOMAIN ss_dom AS int CHECK (ss_positive(value));
CREATE FUNCTION ss_dom_result(n int) RETURNS ss_dom LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
CREATE FUNCTION ss_dom_var(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x ss_dom;
BEGIN
    x := n;
    RETURN x;
END
$$;
BEGIN;
SELECT ss_dom_result(1), ss_dom_var(1);
SAVEPOINT a;
SELECT ss_dom_result(0);
ROLLBACK TO SAVEPOINT a;
SELECT ss_dom_result(2);
SAVEPOINT b;
SELECT ss_dom_var(0);
ROLLBACK TO SAVEPOINT b;
SELECT ss_dom_var(3);
COMMIT;

-- a recursive function: the inner levels evaluate the expression with
-- states of their own, one of which fails
CREATE FUNCTION ss_div(n int) RETURNS int LANGUAGE sql AS
    $$SELECT 100 / $1 FROM (VALUES (1)) v$$;
CREATE FUNCTION ss_rec(n int, d int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF n = 0 THEN
        RETURN 0;
    END IF;
    RETURN ss_rec(n - 1, d) + ss_div(d);
END
$$;
BEGIN;
SELECT ss_rec(3, 1);
SAVEPOINT a;
SELECT ss_rec(3, 0);
ROLLBACK TO SAVEPOINT a;
SELECT ss_rec(3, 1);
SELECT ss_rec(2, 2);
COMMIT;

-- failing at a deeper level only, caught by the outermost call
CREATE FUNCTION ss_rec_deep(n int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
    IF n = 0 THEN
        RETURN 0;
    END IF;
    RETURN ss_rec_deep(n - 1) + ss_div(n - 1);
END
$$;
CREATE FUNCTION ss_rec_catch() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    log text := '';
BEGIN
    BEGIN
        log := log || ss_rec_deep(3);
    EXCEPTION WHEN division_by_zero THEN
        log := log || 'caught; ';
    END;
    log := log || ss_rec(3, 1) || ' ' || ss_rec(3, 4);
    RETURN log;
END
$$;
BEGIN;
SELECT ss_rec(3, 1);
SELECT ss_rec_catch();
COMMIT;

-- an expression of the function itself failing in its own exception
-- block, again and again within one transaction
CREATE FUNCTION ss_own_block(d int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r int;
    log text := '';
BEGIN
    FOR i IN 1..3 LOOP
        BEGIN
            r := ss_div(d - i + 2);
            log := log || r || ' ';
        EXCEPTION WHEN division_by_zero THEN
            log := log || 'caught ';
        END;
    END LOOP;
    RETURN log;
END
$$;
BEGIN;
SELECT ss_own_block(1);
SAVEPOINT a;
SELECT ss_own_block(2);
ROLLBACK TO SAVEPOINT a;
SELECT ss_own_block(3);
COMMIT;

-- a cast whose function was created, or replaced, in a subtransaction that
-- is rolled back: the cached conversion depends on the function and is
-- planned again (here, an SQL function that the planner inlines)
CREATE FUNCTION ss_via_small(n smallint) RETURNS date LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
BEGIN;
SAVEPOINT a;
CREATE FUNCTION ss_small_to_date(smallint) RETURNS date LANGUAGE sql
    IMMUTABLE STRICT AS $$SELECT '2000-01-01'::date + $1$$;
CREATE CAST (smallint AS date) WITH FUNCTION ss_small_to_date(smallint)
    AS ASSIGNMENT;
SELECT ss_via_small(5::smallint);
ROLLBACK TO SAVEPOINT a;
SELECT ss_via_small(5::smallint);
COMMIT;
-- (from now on the conversion through text is kept: PL/pgSQL does not
-- notice casts created later)
SELECT ss_via_small(6::smallint);
CREATE FUNCTION ss_via_big(n bigint) RETURNS date LANGUAGE plnimble AS $$
BEGIN
    RETURN n;
END
$$;
CREATE FUNCTION ss_big_to_date(bigint) RETURNS date LANGUAGE sql
    IMMUTABLE STRICT AS $$SELECT '2000-01-01'::date + $1::int$$;
CREATE CAST (bigint AS date) WITH FUNCTION ss_big_to_date(bigint)
    AS ASSIGNMENT;
BEGIN;
SELECT ss_via_big(7);
SAVEPOINT b;
CREATE OR REPLACE FUNCTION ss_big_to_date(bigint) RETURNS date LANGUAGE sql
    IMMUTABLE STRICT AS $$SELECT '1990-01-01'::date + $1::int$$;
SELECT ss_via_big(7);
ROLLBACK TO SAVEPOINT b;
SELECT ss_via_big(7);
COMMIT;
CREATE OR REPLACE FUNCTION ss_big_to_date(bigint) RETURNS date LANGUAGE sql
    IMMUTABLE STRICT AS $$SELECT '1980-01-01'::date + $1::int$$;
SELECT ss_via_big(8);
