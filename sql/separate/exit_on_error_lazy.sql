-- exit_on_error turns every ERROR into FATAL: an error of pure work that a
-- block would catch (without its subtransaction, lazily) ends the session
-- instead, in both languages, with its CONTEXT lines reported in full (run
-- from sql/write_path_handover.sql).
SET exit_on_error = on;
DO $$
DECLARE
    x int := 0;
BEGIN
    BEGIN
        x := 1 / x;
    EXCEPTION WHEN division_by_zero THEN
        x := -1;
    END;
END $$;
SELECT 'not reached';
