-- The extension itself: what CREATE EXTENSION installs, the session
-- counters of exception blocks, and DROP EXTENSION ... CASCADE.
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble extension.
SELECT lanname, lanpltrusted
  FROM pg_language WHERE lanname IN ('plnimble', 'plpgsql') ORDER BY 1;

-- every exception block entered so far in this session starts a savepoint
CREATE FUNCTION ext_blocks(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    caught int := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            PERFORM 1 / (i % 2);
        EXCEPTION WHEN division_by_zero THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END
$$;
SELECT ext_blocks(10);
SELECT blocks_entered, errors_caught_lazy + errors_caught_subxact AS caught
  FROM plnimble_savepoint_stats();

-- dropping the extension takes its functions and languages with it
DROP EXTENSION plnimble CASCADE;
SELECT count(*) FROM pg_language WHERE lanname = 'plnimble';
SELECT count(*) FROM pg_proc WHERE proname = 'ext_blocks';
