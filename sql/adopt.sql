-- Moving an application between PL/pgSQL and plnimble:
-- plnimble_adopt(schema, dry_run), plnimble_revert(schema, dry_run),
-- plnimble_adopt_function and plnimble_revert_function.  A schema with
-- overloaded functions, a procedure, a trigger function with its trigger,
-- an event trigger function with its event trigger, a SECURITY DEFINER
-- function with SET search_path granted to one other role, a function
-- whose SET plpgsql.variable_conflict matters, and a body the validator
-- rejects; run by the routines' owner, who is not a superuser.  The same
-- calls give the same results before, after adoption and after reverting;
-- OIDs, owners, privileges, comments, triggers and every other attribute
-- stay; a dry run changes nothing.
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble extension.

-- the real PL/pgSQL next to plnimble (in the test database the language
-- named plpgsql runs on plnimble: put the real one back)
DROP LANGUAGE plpgsql;
CREATE EXTENSION plpgsql;
SELECT lanname, lanplcallfoid::regproc AS handler
  FROM pg_language WHERE lanname IN ('plpgsql', 'plnimble') ORDER BY 1;

CREATE ROLE regress_adopt_owner;
CREATE ROLE regress_adopt_user;
CREATE SCHEMA app AUTHORIZATION regress_adopt_owner;
GRANT USAGE ON SCHEMA app TO regress_adopt_user;
SET ROLE regress_adopt_owner;

CREATE TABLE app.account (id int PRIMARY KEY, balance numeric NOT NULL, note text);
INSERT INTO app.account VALUES (1, 100, NULL), (2, 50, NULL);
CREATE TABLE app.secret (k text, v text);
INSERT INTO app.secret VALUES ('k1', 'only the owner reads this');
CREATE TABLE app.setting (val int);
INSERT INTO app.setting VALUES (10);
CREATE TABLE app.ddl_log (n serial, tag text);

-- overloaded names
CREATE FUNCTION app.describe(n int) RETURNS text LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN 'int ' || n; END $$;
CREATE FUNCTION app.describe(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN 'text ' || t; END $$;
CREATE FUNCTION app.describe(a int, b int) RETURNS text LANGUAGE plpgsql IMMUTABLE
AS $$ BEGIN RETURN format('pair %s, %s', a, b); END $$;

-- without its SET clause (or with it left as plpgsql.* under plnimble)
-- this fails with: column reference "val" is ambiguous.  The setting is
-- for superusers only, and so is CREATE OR REPLACE with it.
RESET ROLE;
CREATE FUNCTION app.current_val(val int DEFAULT 0) RETURNS int LANGUAGE plpgsql STABLE
SET plpgsql.variable_conflict = use_column
AS $$ BEGIN RETURN (SELECT val FROM app.setting LIMIT 1); END $$;
ALTER FUNCTION app.current_val(int) OWNER TO regress_adopt_owner;
SET ROLE regress_adopt_owner;

-- runs as its owner, for a role that may not read app.secret itself
CREATE FUNCTION app.read_secret(key text) RETURNS text LANGUAGE plpgsql STABLE
SECURITY DEFINER SET search_path = app, pg_temp
AS $$ BEGIN RETURN (SELECT v FROM secret WHERE k = key); END $$;
REVOKE EXECUTE ON FUNCTION app.read_secret(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app.read_secret(text) TO regress_adopt_user;
COMMENT ON FUNCTION app.read_secret(text) IS 'reads a secret as its owner';

CREATE FUNCTION app.owner_only() RETURNS text LANGUAGE plpgsql
AS $$ BEGIN RETURN 'owner'; END $$;
REVOKE EXECUTE ON FUNCTION app.owner_only() FROM PUBLIC;

-- a trigger function and its trigger
CREATE FUNCTION app.tidy_note() RETURNS trigger LANGUAGE plpgsql
AS $$ BEGIN NEW.note := upper(trim(NEW.note)); RETURN NEW; END $$;
CREATE TRIGGER account_tidy BEFORE UPDATE ON app.account
    FOR EACH ROW EXECUTE FUNCTION app.tidy_note();

-- an event trigger function (its event trigger needs a superuser)
CREATE FUNCTION app.log_ddl() RETURNS event_trigger LANGUAGE plpgsql
AS $$ BEGIN INSERT INTO app.ddl_log(tag) VALUES (tg_tag); RAISE NOTICE 'logged %', tg_tag; END $$;

-- a procedure with an exception block
CREATE PROCEDURE app.transfer(src int, dst int, amount numeric, INOUT ok boolean DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        UPDATE app.account SET balance = balance - amount WHERE id = src;
        IF (SELECT balance FROM app.account WHERE id = src) < 0 THEN
            RAISE EXCEPTION 'insufficient funds';
        END IF;
        UPDATE app.account SET balance = balance + amount WHERE id = dst;
        ok := true;
    EXCEPTION WHEN raise_exception THEN
        ok := false;
    END;
END
$$;

-- not PL/pgSQL: left alone
CREATE FUNCTION app.plain_sql() RETURNS int LANGUAGE sql AS 'SELECT 1';

-- a body the validator rejects, created while bodies were not checked
SET check_function_bodies = off;
CREATE FUNCTION app.broken() RETURNS int LANGUAGE plpgsql
AS $$ BEGIN RETRUN 1; END $$;
RESET check_function_bodies;

-- a role-level setting of the old language
ALTER ROLE regress_adopt_owner SET plpgsql.print_strict_params = on;
RESET ROLE;
CREATE EVENT TRIGGER regress_adopt_log ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION app.log_ddl();

-- What the calls give, recorded per phase in "observed": observe() runs
-- before adoption, after it and after reverting.  It lives outside schema
-- app, so it is the same (real PL/pgSQL) code in all three.
CREATE TABLE observed (phase text, item text, result text);
GRANT INSERT ON observed TO regress_adopt_user;
CREATE FUNCTION observe(phase text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    ok boolean;
BEGIN
    CALL app.transfer(1, 2, 30, ok);
    INSERT INTO observed VALUES (phase, 'transfer', ok);
    CALL app.transfer(2, 1, 30, ok);
    INSERT INTO observed VALUES (phase, 'transfer back', ok);
    CALL app.transfer(2, 1, 1000, ok);
    INSERT INTO observed VALUES (phase, 'overdraft', ok);
    INSERT INTO observed SELECT phase, 'balances',
        string_agg(id || ':' || balance, ' ' ORDER BY id) FROM app.account;
    UPDATE app.account SET note = '  checked ' WHERE id = 1;
    INSERT INTO observed SELECT phase, 'trigger', note FROM app.account WHERE id = 1;
    CREATE TABLE app.scratch (i int);
    DROP TABLE app.scratch;
    INSERT INTO observed SELECT phase, 'event trigger', tag
      FROM app.ddl_log ORDER BY n DESC LIMIT 1;
    SET ROLE regress_adopt_user;
    INSERT INTO observed VALUES (phase, 'security definer', app.read_secret('k1'));
    BEGIN
        PERFORM app.owner_only();
    EXCEPTION WHEN insufficient_privilege THEN
        INSERT INTO observed VALUES (phase, 'no grant', SQLERRM);
    END;
    RESET ROLE;
    INSERT INTO observed VALUES
        (phase, 'describe(int)', app.describe(7)),
        (phase, 'describe(text)', app.describe('seven')),
        (phase, 'describe(int, int)', app.describe(7, 8)),
        (phase, 'current_val()', app.current_val()::text);
END
$$;
CREATE VIEW app_routines AS
SELECT p.oid::regprocedure::text AS routine, l.lanname AS lang, p.proconfig
  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.pronamespace = 'app'::regnamespace;
-- everything about the routines except their language and settings
CREATE VIEW app_catalog AS
SELECT p.oid::regprocedure::text AS routine,
       to_jsonb(p) - 'prolang' - 'proconfig' - 'proargdefaults' AS attrs,
       pg_get_function_arguments(p.oid) AS args,
       obj_description(p.oid, 'pg_proc') AS comment,
       has_function_privilege('regress_adopt_user', p.oid, 'EXECUTE') AS user_may_run,
       (SELECT string_agg(tgname, ',') FROM pg_trigger WHERE tgfoid = p.oid) AS triggers,
       (SELECT string_agg(evtname, ',') FROM pg_event_trigger WHERE evtfoid = p.oid) AS event_triggers
  FROM pg_proc p
 WHERE p.pronamespace = 'app'::regnamespace;
CREATE TABLE catalog_before AS SELECT * FROM app_catalog;

SELECT observe('before');

-- a dry run reports what would be done and changes nothing
SET ROLE regress_adopt_owner;
SELECT * FROM plnimble_adopt('app', dry_run => true);
RESET ROLE;
SELECT lang, count(*) FROM app_routines GROUP BY lang ORDER BY lang;
SET ROLE regress_adopt_owner;

-- adopt; the body plnimble rejects is reported and stays as it was, and
-- so is the routine whose SET clause only a superuser may write
SELECT * FROM plnimble_adopt('app');
RESET ROLE;
SELECT * FROM plnimble_adopt_function('app.current_val(int)');
SELECT * FROM app_routines ORDER BY routine;

-- nothing else changed
SELECT b.routine, a.routine IS NULL AS gone,
       a.attrs = b.attrs AS attrs, a.args = b.args AS args,
       a.comment IS NOT DISTINCT FROM b.comment AS comment,
       a.user_may_run = b.user_may_run AS user_may_run,
       a.triggers IS NOT DISTINCT FROM b.triggers AS triggers,
       a.event_triggers IS NOT DISTINCT FROM b.event_triggers AS event_triggers
  FROM catalog_before b LEFT JOIN app_catalog a ON a.routine = b.routine
 ORDER BY b.routine;

SELECT observe('adopted');

-- one routine at a time, and what is skipped
SET ROLE regress_adopt_owner;
SELECT * FROM plnimble_adopt_function('app.describe(int)');
SELECT * FROM plnimble_adopt_function('app.plain_sql()');
SELECT * FROM plnimble_revert_function('plnimble_switch_schema(name, name, name, boolean, text, boolean)');
SELECT * FROM plnimble_adopt('no_such_schema');
-- with no schema: every schema where the caller owns PL/pgSQL routines
SELECT * FROM plnimble_adopt(dry_run => true);
RESET ROLE;
SET ROLE regress_adopt_user;
SELECT * FROM plnimble_revert('app', dry_run => true);
SELECT count(*) FROM plnimble_revert(dry_run => true);
RESET ROLE;

-- a setting PL/pgSQL has no counterpart of keeps a routine on plnimble
SET ROLE regress_adopt_owner;
ALTER FUNCTION app.describe(text) SET plnimble.lazy_savepoints = off;
SELECT * FROM plnimble_revert_function('app.describe(text)');
ALTER FUNCTION app.describe(text) RESET plnimble.lazy_savepoints;

-- and back
SELECT * FROM plnimble_revert('app', dry_run => true);
SELECT * FROM plnimble_revert('app');
RESET ROLE;
SELECT * FROM plnimble_revert_function('app.current_val(int)');
SELECT * FROM app_routines ORDER BY routine;

SELECT observe('reverted');

-- the same catalog entries as at the start, settings and languages included
SELECT count(*) AS differences FROM (
    (SELECT * FROM catalog_before EXCEPT SELECT * FROM app_catalog)
    UNION ALL
    (SELECT * FROM app_catalog EXCEPT SELECT * FROM catalog_before)) d;
SELECT routine, lang, proconfig FROM app_routines WHERE proconfig IS NOT NULL ORDER BY 1;

-- the same results in all three phases
SELECT b.item, b.result AS before,
       a.result = b.result AS adopted_same, r.result = b.result AS reverted_same
  FROM observed b
  JOIN observed a ON a.item = b.item AND a.phase = 'adopted'
  JOIN observed r ON r.item = b.item AND r.phase = 'reverted'
 WHERE b.phase = 'before'
 ORDER BY b.item;

-- database-level settings of either language are reported with the
-- statement that carries them over (the database's name shown as <db>)
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET plpgsql.extra_warnings = %L',
                   current_database(), 'shadowed_variables');
    EXECUTE format('ALTER DATABASE %I SET plnimble.lazy_savepoints = off',
                   current_database());
END
$$;
SELECT action, regexp_replace(reason, 'DATABASE \S+', 'DATABASE <db>', 'g') AS reason
  FROM plnimble_adopt('app', dry_run => true)
 WHERE routine IS NULL AND reason LIKE 'ALTER DATABASE%';
SELECT action, regexp_replace(reason, 'DATABASE \S+', 'DATABASE <db>', 'g') AS reason
  FROM plnimble_revert('app', dry_run => true)
 WHERE routine IS NULL AND reason LIKE 'ALTER DATABASE%';
DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET ALL', current_database()); END $$;

-- the functions find their helpers and the built-in functions and
-- operators in pg_catalog, never by the caller's search path: a look-alike
-- that matches the arguments better, in a schema on that path, is not
-- called (here: helpers taking an oid or text, and || for two names)
CREATE SCHEMA regress_lookalike AUTHORIZATION regress_adopt_user;
SET ROLE regress_adopt_user;
CREATE FUNCTION regress_lookalike.name_cat(a name, b name) RETURNS text
    LANGUAGE sql AS $$
    SELECT pg_catalog.textcat(a::text, b::text)
           || pg_catalog.left(pg_catalog.set_config('regress.lookalike_ran',
                                                    current_user, false), 0) $$;
CREATE OPERATOR regress_lookalike.|| (
    LEFTARG = name, RIGHTARG = name, FUNCTION = regress_lookalike.name_cat);
CREATE FUNCTION regress_lookalike.plnimble_switch_routine(
    fn oid, from_lang name, to_lang name, dry_run boolean,
    OUT routine regprocedure, OUT action text, OUT reason text)
    LANGUAGE sql AS $$ SELECT fn::regprocedure, 'look-alike', current_user::text $$;
CREATE FUNCTION regress_lookalike.plnimble_switch_schema(
    schema name, from_lang text, to_lang text, dry_run boolean)
    RETURNS TABLE (routine regprocedure, action text, reason text)
    LANGUAGE sql AS $$ SELECT NULL::regprocedure, 'look-alike', current_user::text $$;
RESET ROLE;
SET search_path = regress_lookalike, public;
SELECT count(*) FILTER (WHERE action = 'look-alike') AS lookalike_rows,
       count(*) > 0 AS some_rows
  FROM plnimble_adopt('app', dry_run => true);
SELECT count(*) FILTER (WHERE action = 'look-alike') AS lookalike_rows,
       count(*) > 0 AS some_rows
  FROM plnimble_revert(NULL, dry_run => true);
SELECT count(*) FILTER (WHERE action = 'look-alike') AS lookalike_rows,
       count(*) > 0 AS some_rows
  FROM plnimble_adopt_function('app.describe(int)', dry_run => true);
RESET search_path;
SELECT coalesce(current_setting('regress.lookalike_ran', true), '') AS lookalike_ran;
DROP SCHEMA regress_lookalike CASCADE;

DROP EVENT TRIGGER regress_adopt_log;
DROP SCHEMA app CASCADE;
DROP FUNCTION observe(text);
DROP TABLE observed, catalog_before;
ALTER ROLE regress_adopt_owner RESET ALL;
DROP ROLE regress_adopt_owner;
DROP ROLE regress_adopt_user;
