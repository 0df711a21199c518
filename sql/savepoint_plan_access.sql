-- plnimble_savepoint_plan() needs what calling the function needs:
-- EXECUTE on it, or its ownership.  Planning can run the function's
-- immutable parts, so without the privilege it refuses, and runs nothing.
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble_savepoint_plan().
CREATE ROLE regress_plan_owner;
CREATE ROLE regress_plan_other;
CREATE FUNCTION plan_noisy(i int) RETURNS int LANGUAGE plnimble IMMUTABLE AS $$
BEGIN
    RAISE NOTICE 'plan_noisy ran as %', current_user;
    RETURN i;
END
$$;
CREATE FUNCTION plan_secret() RETURNS int LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        RETURN plan_noisy(1);
    EXCEPTION WHEN others THEN
        RETURN 0;
    END;
END
$$;
ALTER FUNCTION plan_secret() OWNER TO regress_plan_owner;
REVOKE EXECUTE ON FUNCTION plan_secret() FROM PUBLIC;

-- neither EXECUTE nor ownership: refused, nothing planned or run
SET ROLE regress_plan_other;
SELECT * FROM plnimble_savepoint_plan('plan_secret()');
RESET ROLE;

-- the owner may, even with EXECUTE revoked from the owner too
REVOKE EXECUTE ON FUNCTION plan_secret() FROM regress_plan_owner;
SET ROLE regress_plan_owner;
SELECT count(*) > 0 AS planned FROM plnimble_savepoint_plan('plan_secret()');
RESET ROLE;

-- and so may a role granted EXECUTE
GRANT EXECUTE ON FUNCTION plan_secret() TO regress_plan_other;
SET ROLE regress_plan_other;
SELECT count(*) > 0 AS planned FROM plnimble_savepoint_plan('plan_secret()');
RESET ROLE;

DROP FUNCTION plan_secret();
DROP FUNCTION plan_noisy(int);
DROP ROLE regress_plan_owner;
DROP ROLE regress_plan_other;
