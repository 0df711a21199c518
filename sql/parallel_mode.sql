-- parallel_mode: exception blocks in functions that run in parallel mode
-- (force_parallel_mode, which runs the query in a parallel worker).  No
-- subtransaction can start there, so entering a block with an EXCEPTION
-- clause fails, "during statement block entry": the error is the
-- caller's, never caught by the block's own handlers or by those of the
-- blocks around it, and nothing in the block runs first (no NOTICE).
-- Pure blocks and blocks inside loops fail the same way; outside
-- parallel mode the same functions work.

CREATE FUNCTION pm_perform(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    BEGIN
        PERFORM 1;
        RETURN x + 1;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'caught: %', SQLERRM;
        RETURN -1;
    END;
END
$$;
CREATE FUNCTION pm_top_block(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    RETURN x + 1;
EXCEPTION WHEN others THEN
    RETURN -1;
END
$$;
CREATE FUNCTION pm_nested(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    BEGIN
        x := x + 1;
        BEGIN
            PERFORM 1;
        EXCEPTION WHEN others THEN
            RAISE NOTICE 'inner caught: %', SQLERRM;
            RETURN -2;
        END;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'outer caught: %', SQLERRM;
        RETURN -1;
    END;
    RETURN x;
END
$$;
CREATE FUNCTION pm_notice(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    BEGIN
        RAISE NOTICE 'in the block';
        RETURN x;
    EXCEPTION WHEN others THEN
        RETURN -1;
    END;
END
$$;
CREATE FUNCTION pm_loop(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
DECLARE
    s int := 0;
BEGIN
    FOR i IN 1..3 LOOP
        BEGIN
            s := s + i;
        EXCEPTION WHEN others THEN
            s := -100;
        END;
    END LOOP;
    RETURN s + x;
END
$$;
CREATE FUNCTION pm_null() RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    BEGIN
        NULL;
    EXCEPTION WHEN others THEN
        RETURN -1;
    END;
    RETURN 1;
END
$$;
CREATE FUNCTION pm_caller() RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
BEGIN
    RETURN pm_null();
EXCEPTION WHEN others THEN
    RETURN -5;
END
$$;
-- a function without exception blocks is not affected
CREATE FUNCTION pm_plain(x int) RETURNS int LANGUAGE plnimble PARALLEL SAFE AS $$
DECLARE
    y int := x * 2;
BEGIN
    RETURN y + 1;
END
$$;

SELECT pm_perform(1), pm_top_block(1), pm_nested(1), pm_notice(1), pm_loop(1),
       pm_null(), pm_caller(), pm_plain(1);

-- (16 renamed force_parallel_mode to debug_parallel_query)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
SET :parallel_guc = regress;
SELECT pm_perform(1);
SELECT pm_top_block(1);
SELECT pm_nested(1);
SELECT pm_notice(1);
SELECT pm_loop(1);
SELECT pm_null();
SELECT pm_caller();
SELECT pm_plain(1);
RESET :parallel_guc;

SELECT pm_perform(2), pm_top_block(2), pm_nested(2), pm_loop(2);
