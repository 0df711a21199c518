-- write_path_privileges: the privileges of an INSERT that the write path
-- (issue 18) runs below the executor are checked at every run, as the
-- executor checks them, unless an earlier run of the same plan in the
-- same transaction checked them for the same user with nothing changed
-- since (write_direct.c, privileges_known).  Changes in the middle of a
-- loop, each in its own call, must fail the next INSERT as under PL/pgSQL
-- (an oracle test):
--   1. INSERT revoked from the user;
--   2. INSERT granted through a role, the membership revoked;
--   3. INSERT on the table replaced by INSERT on one column;
--   4. the current role changed by set_config('role');
--   5. nothing changed: the loop runs to its end, new keys and duplicates.

SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_wpp_user;
DROP ROLE IF EXISTS regress_wpp_group;
DROP ROLE IF EXISTS regress_wpp_other;
RESET client_min_messages;
CREATE ROLE regress_wpp_user;
CREATE ROLE regress_wpp_group;
CREATE ROLE regress_wpp_other;
GRANT regress_wpp_other TO regress_wpp_user;

CREATE TABLE wpp_t (k int PRIMARY KEY, v text);
GRANT SELECT ON wpp_t TO regress_wpp_user, regress_wpp_other;

-- changes the privileges as the table's owner
CREATE FUNCTION wpp_change(what text) RETURNS void LANGUAGE plpgsql
SECURITY DEFINER AS $$
BEGIN
    CASE what
        WHEN 'revoke' THEN
            REVOKE INSERT ON wpp_t FROM regress_wpp_user;
        WHEN 'leave group' THEN
            REVOKE regress_wpp_group FROM regress_wpp_user;
        WHEN 'one column' THEN
            REVOKE INSERT ON wpp_t FROM regress_wpp_user;
            GRANT INSERT (k) ON wpp_t TO regress_wpp_user;
        ELSE
            NULL;
    END CASE;
END $$;

-- half of the keys are duplicates; the change comes before run change_at
CREATE FUNCTION wpp_loop(n int, change_at int, what text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    dup int := 0;
BEGIN
    FOR i IN 1..n LOOP
        IF i >= change_at - 1 AND change_at > 0 THEN
            RAISE NOTICE 'run %', i;
        END IF;
        IF i = change_at THEN
            IF what = 'set role' THEN
                PERFORM set_config('role', 'regress_wpp_other', true);
            ELSE
                PERFORM wpp_change(what);
            END IF;
        END IF;
        BEGIN
            INSERT INTO wpp_t (k, v) VALUES (i / 2, what);
        EXCEPTION WHEN unique_violation THEN
            dup := dup + 1;
        END;
    END LOOP;
    RETURN current_user || ': ' || (n - dup) || ' inserted, ' || dup ||
           ' duplicates';
END $$;

-- 1. INSERT revoked
GRANT INSERT ON wpp_t TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'revoke');
SELECT wpp_loop(20, 14, 'revoke');
RESET ROLE;
REVOKE INSERT ON wpp_t FROM regress_wpp_user;

-- 2. through a role
GRANT INSERT ON wpp_t TO regress_wpp_group;
GRANT regress_wpp_group TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'leave group');
SELECT wpp_loop(20, 14, 'leave group');
RESET ROLE;
REVOKE regress_wpp_group FROM regress_wpp_user;
REVOKE INSERT ON wpp_t FROM regress_wpp_group;

-- 3. one column only
GRANT INSERT ON wpp_t TO regress_wpp_user;
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'one column');
RESET ROLE;

-- 4. another role, without INSERT
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'set role');
SELECT current_user;
RESET ROLE;

-- 5. nothing changed
SET ROLE regress_wpp_user;
SELECT wpp_loop(20, 13, 'nothing');
SELECT wpp_loop(20, 0, 'nothing');
RESET ROLE;
SELECT count(*), min(k), max(k), min(v), max(v) FROM wpp_t;

DROP TABLE wpp_t;
DROP FUNCTION wpp_change(text);
DROP ROLE regress_wpp_user;
DROP ROLE regress_wpp_group;
DROP ROLE regress_wpp_other;
