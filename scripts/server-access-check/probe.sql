-- The wrapped-server lane's self-test (scripts/test.sh --cassert, 15), run
-- after the suite.  With plnimble.server_check_probe set, every simple
-- expression plnimble evaluates first makes one server access through the
-- server's own functions (src/lazy/lazy_check.c, pln_server_check_probe).
-- In a handler block without its subtransaction, the server's wrapped
-- entry point must raise the check's internal error (and log it); under a
-- read guard, in a block with its subtransaction and outside any handler
-- block it must not.  Each function returns what each iteration saw, and
-- how many of its blocks started their subtransaction and how many ended
-- lazily after guarded work (plnimble_savepoint_stats), which shows the
-- path each took.
\set VERBOSITY terse
\pset format unaligned
SELECT l.lanname, p.proname AS handler
  FROM pg_language l JOIN pg_proc p ON p.oid = l.lanplcallfoid
 WHERE l.lanname = 'plpgsql';

-- Three functions, each running one block three times with the probe set
-- to KIND:
--   probe_pure       i + 1 is pure: its first evaluation (its state not yet
--                    built) runs under a read guard, the next ones lazily
--                    with nothing: caught from then on
--   probe_guarded    a text -> regclass cast is guarded: always under a
--                    read guard, never caught
--   probe_protected  the block has its subtransaction (an INSERT runs
--                    first): never caught
CREATE TEMP TABLE probe_t (i int);
DO $do$
DECLARE
	f record;
BEGIN
	FOR f IN SELECT * FROM (VALUES
		('probe_pure', 'int', 'x := i + 1;'),
		('probe_guarded', 'oid', 'x := (''pg_namespace'' || '''')::regclass::oid;'),
		('probe_protected', 'int', 'INSERT INTO probe_t VALUES (i); x := i + 1;'))
		AS v(name, xtype, stmt)
	LOOP
		EXECUTE format($f$
CREATE FUNCTION %I(kind text) RETURNS text LANGUAGE plpgsql AS $b$
DECLARE
	x %s;
	seen text := '';
	caught text;
	m bigint;
	g bigint;
BEGIN
	SELECT savepoints_materialized, blocks_lazy_guarded INTO m, g
	  FROM plnimble_savepoint_stats();
	PERFORM set_config('plnimble.server_check_probe', kind, true);
	FOR i IN 1..3 LOOP
		caught := NULL;
		BEGIN
			%s
		EXCEPTION WHEN internal_error THEN
			caught := SQLERRM;
		END;
		seen := seen || coalesce(' [' || caught || ']', ' ok');
	END LOOP;
	PERFORM set_config('plnimble.server_check_probe', 'none', true);
	SELECT savepoints_materialized - m, blocks_lazy_guarded - g INTO m, g
	  FROM plnimble_savepoint_stats();
	RETURN seen || format(' (subtransactions %%s, guarded %%s)', m, g);
END $b$$f$, f.name, f.xtype, f.stmt);
	END LOOP;
END $do$;

SELECT kind, probe_pure(kind) AS pure, probe_guarded(kind) AS guarded,
       probe_protected(kind) AS protected
  FROM unnest(ARRAY['none', 'catcache', 'lock', 'scan']) AS kind;
-- no handler block at all
SET plnimble.server_check_probe = 'catcache';
DO $$ DECLARE x int; BEGIN x := 1 + 1; RAISE NOTICE 'no handler block: %', x; END $$;
RESET plnimble.server_check_probe;
-- the session keeps working, nothing is left locked by the caught ones
SELECT count(*) AS locks_on_pg_namespace FROM pg_locks
 WHERE relation = 'pg_namespace'::regclass AND pid = pg_backend_pid();
