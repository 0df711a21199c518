-- savepoint_plan_failed_plans: plnimble_savepoint_plan() plans the
-- expressions a function has not run yet, each inside a subtransaction
-- of its own.  When planning fails after the plan was kept (here the
-- generic plan of "y := 1/0" raises division_by_zero while constants are
-- folded), the view must free that plan: called repeatedly it leaves no
-- cached plan behind (counted in pg_backend_memory_contexts), and the
-- function then runs as it does under PL/pgSQL ("as expected" there,
-- where the view does not exist).

CREATE FUNCTION fp_div() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    y int;
BEGIN
    BEGIN
        y := 1/0;
    EXCEPTION WHEN division_by_zero THEN
        y := -1;
    END;
    RETURN y;
END
$$;

-- cached plans of the failing expression left after the view ran n times
CREATE FUNCTION fp_plans_left(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    left_over bigint;
BEGIN
    IF to_regproc('plnimble_savepoint_plan') IS NULL THEN
        RETURN 'as expected';
    END IF;
    FOR i IN 1 .. n LOOP
        EXECUTE 'SELECT count(*) FROM plnimble_savepoint_plan(''fp_div()'')';
    END LOOP;
    SELECT count(*) INTO left_over FROM pg_backend_memory_contexts
     WHERE name = 'CachedPlanSource' AND ident = 'y := 1/0';
    IF left_over = 0 THEN
        RETURN 'as expected';
    END IF;
    RETURN format('%s cached plans left by %s calls', left_over, n);
END
$$;

SELECT fp_plans_left(1);
SELECT fp_plans_left(100);
-- and in the transaction the view ran in, the function still plans and
-- catches the error itself
BEGIN;
SELECT fp_plans_left(3);
SELECT fp_div();
COMMIT;
SELECT fp_div();
