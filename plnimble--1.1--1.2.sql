-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/*
 * plnimble--1.1--1.2.sql: from 1.1 to 1.2.  One section per change, in the
 * order they were made.
 */

\echo Use "ALTER EXTENSION plnimble UPDATE TO '1.2'" to load this file. \quit

-- issue 31: adopt and revert, as a new user moves a real application
--
-- (1) A routine is re-created with its own schema first on the search
-- path, ahead of the caller's: an application's routines name the types
-- and tables of their schema without qualification, and the application
-- runs with that schema on its path, which the caller of plnimble_adopt
-- may not have.  pg_get_functiondef runs with the same path, so the
-- header it prints resolves to the same types when re-created.  (A
-- routine's own SET clauses, SET search_path among them, are in force
-- while the validator checks its body: the server does that.)  A failure
-- whose SQLSTATE says a name was not found names the path used.
-- (2) The schema forms report every routine of the schema (with no
-- schema: every routine the caller owns), whatever its language, each
-- skipped one with its reason.
-- (3) include_extension_members => true moves the members of other
-- extensions too; the row says what that means for ALTER EXTENSION
-- UPDATE and dumps.  plnimble's own functions are never switched.
-- The signatures change (a new argument), so the functions are dropped
-- and created again.

DROP FUNCTION plnimble_adopt(name, boolean);
DROP FUNCTION plnimble_revert(name, boolean);
DROP FUNCTION plnimble_adopt_function(regprocedure, boolean);
DROP FUNCTION plnimble_revert_function(regprocedure, boolean);
DROP FUNCTION plnimble_switch_schema(name, name, name, boolean, text);
DROP FUNCTION plnimble_switch_routine(regprocedure, name, name, boolean, text);

-- Switch one routine between LANGUAGE plpgsql and LANGUAGE plnimble, the
-- way its owner would by hand: CREATE OR REPLACE on pg_get_functiondef's
-- text with the LANGUAGE clause, and the prefix of the SET clauses naming
-- the languages' settings, swapped.  That keeps the OID and with it the
-- owner, privileges, comment, triggers, event triggers, dependencies and
-- extension membership; the routine's other attributes are compared with
-- the catalog before and after, and any difference undoes the change.
-- The new language's validator checks the body (check_function_bodies is
-- on for the call); a body it rejects is reported, not switched.  With
-- dry_run the change is made and undone, so the report is what a real run
-- would do.  The function's own queries run with the search path
-- pg_catalog, pg_temp, so that no function or operator of the caller's
-- schemas can stand in for a built-in one; pg_get_functiondef and the
-- CREATE OR REPLACE run with the routine's schema followed by
-- caller_search_path, the caller's, as the application's own statements
-- would.  Internal: called by plnimble_adopt and plnimble_revert, their
-- _function forms and plnimble_readopt_replaced.
CREATE FUNCTION plnimble_switch_routine(
	fn regprocedure, from_lang name, to_lang name, dry_run boolean,
	caller_search_path text, include_extension_members boolean,
	OUT routine regprocedure, OUT action text, OUT reason text)
	RETURNS record
	LANGUAGE plnimble
	SET check_function_bodies = on
	SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
	p pg_catalog.pg_proc;
	lang name;
	ext name;
	member_note text;
	from_prefix text := from_lang || '.';
	to_prefix text := to_lang || '.';
	done text := CASE WHEN to_lang = 'plnimble' THEN 'adopted' ELSE 'reverted' END;
	new_config text[];
	renamed text;
	def text;
	delim text;
	tail text;
	head text;
	before_attrs jsonb;
	after_attrs jsonb;
	before_args text;
	after_lang oid;
	after_config text[];
	own_search_path text := current_setting('search_path');
	work_search_path text;
	routine_search_path text;
BEGIN
	routine := fn;
	SELECT * INTO p FROM pg_catalog.pg_proc WHERE oid = fn;
	IF NOT FOUND THEN
		action := 'failed';
		reason := 'routine does not exist';
		RETURN;
	END IF;

	SELECT lanname INTO lang FROM pg_catalog.pg_language WHERE oid = p.prolang;
	IF lang = to_lang THEN
		action := 'skipped';
		reason := format('already LANGUAGE %s', to_lang);
		RETURN;
	ELSIF lang IS DISTINCT FROM from_lang THEN
		action := 'skipped';
		reason := format('LANGUAGE %s, not %s', lang, from_lang);
		RETURN;
	END IF;

	SELECT e.extname INTO ext
	  FROM pg_catalog.pg_depend d
	  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
	 WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = fn
	   AND d.refclassid = 'pg_catalog.pg_extension'::regclass
	   AND d.deptype = 'e';
	IF FOUND THEN
		IF ext = 'plnimble' THEN
			action := 'skipped';
			reason := 'belongs to extension plnimble itself';
			RETURN;
		ELSIF NOT coalesce(include_extension_members, false) THEN
			action := 'skipped';
			reason := format('belongs to extension %s (include_extension_members => true moves it too)',
							 ext);
			RETURN;
		END IF;
		member_note := format('member of extension %s: restoring a dump, or an ALTER EXTENSION UPDATE that creates it again, gives it the language of the extension''s scripts',
							  ext);
	END IF;

	IF NOT pg_catalog.pg_has_role(p.proowner, 'USAGE') THEN
		action := 'skipped';
		reason := format('owned by %s', p.proowner::regrole);
		RETURN;
	END IF;

	-- plnimble.lazy_savepoints is the one setting PL/pgSQL has no
	-- counterpart of
	IF to_lang = 'plpgsql' AND
		EXISTS (SELECT FROM unnest(p.proconfig) c
				 WHERE c LIKE 'plnimble.lazy\_savepoints=%') THEN
		action := 'skipped';
		reason := 'SET plnimble.lazy_savepoints has no PL/pgSQL counterpart';
		RETURN;
	END IF;

	SELECT array_agg(CASE WHEN starts_with(c, from_prefix)
						  THEN to_prefix || substr(c, length(from_prefix) + 1)
						  ELSE c END ORDER BY i),
		   string_agg(format('SET %s -> %s', split_part(c, '=', 1),
							 to_prefix || split_part(substr(c, length(from_prefix) + 1), '=', 1)),
					  ', ' ORDER BY i)
				FILTER (WHERE starts_with(c, from_prefix))
	  INTO new_config, renamed
	  FROM unnest(p.proconfig) WITH ORDINALITY AS u(c, i);

	-- the routine's schema first, then the caller's path; the path the
	-- body is checked with is the routine's own, if it sets one
	work_search_path := quote_ident((SELECT nspname FROM pg_catalog.pg_namespace
									  WHERE oid = p.pronamespace));
	IF coalesce(caller_search_path, '') <> '' THEN
		work_search_path := work_search_path || ', ' || caller_search_path;
	END IF;
	routine_search_path := coalesce(
		(SELECT substr(c, length('search_path=') + 1) FROM unnest(p.proconfig) c
		  WHERE starts_with(c, 'search_path=') LIMIT 1),
		work_search_path);

	-- pg_get_functiondef ends with AS, the body between two dollar-quote
	-- delimiters of its choosing, and a newline; everything before is the
	-- header, whose lines start with a space
	PERFORM set_config('search_path', work_search_path, true);
	def := pg_catalog.pg_get_functiondef(fn);
	PERFORM set_config('search_path', own_search_path, true);
	delim := substring(def FROM '(\$[A-Za-z_]*\$)\n$');
	tail := 'AS ' || delim || p.prosrc || delim || E'\n';
	IF delim IS NULL OR right(def, length(tail)) <> tail THEN
		action := 'failed';
		reason := 'pg_get_functiondef gave a definition of an unexpected form';
		RETURN;
	END IF;
	head := left(def, length(def) - length(tail));
	head := regexp_replace(head, '^ LANGUAGE ' || quote_ident(from_lang) || '$',
						   ' LANGUAGE ' || quote_ident(to_lang), 'n');
	head := regexp_replace(head, '^ SET "' || from_lang || '\.',
						   ' SET "' || to_prefix, 'gn');

	before_attrs := to_jsonb(p) - 'prolang' - 'proconfig' - 'proargdefaults';
	before_args := pg_catalog.pg_get_function_arguments(fn);
	BEGIN
		-- (the event trigger functions leave this statement alone; the
		-- setting goes with the block's subtransaction if it fails)
		PERFORM set_config('plnimble_ddl.switching', 'on', true);
		PERFORM set_config('search_path', work_search_path, true);
		EXECUTE head || tail;
		PERFORM set_config('search_path', own_search_path, true);
		PERFORM set_config('plnimble_ddl.switching', '', true);

		SELECT to_jsonb(q) - 'prolang' - 'proconfig' - 'proargdefaults',
			   q.prolang, q.proconfig
		  INTO STRICT after_attrs, after_lang, after_config
		  FROM pg_catalog.pg_proc q WHERE q.oid = fn;
		IF after_lang IS DISTINCT FROM (SELECT oid FROM pg_catalog.pg_language
										 WHERE lanname = to_lang)
			OR after_config IS DISTINCT FROM new_config THEN
			RAISE EXCEPTION 'the new definition does not have the expected language and settings'
				USING ERRCODE = 'PLN02';
		END IF;
		IF after_attrs IS DISTINCT FROM before_attrs
			OR pg_catalog.pg_get_function_arguments(fn) IS DISTINCT FROM before_args THEN
			RAISE EXCEPTION 'the new definition differs in more than the language'
				USING ERRCODE = 'PLN02';
		END IF;

		IF dry_run THEN
			RAISE EXCEPTION 'dry run' USING ERRCODE = 'PLN01';
		END IF;
	EXCEPTION
		WHEN SQLSTATE 'PLN01' THEN
			action := done;
			reason := concat_ws(', ', 'dry run, nothing changed: LANGUAGE '
								|| from_lang || ' -> ' || to_lang, renamed, member_note);
			RETURN;
		WHEN undefined_object OR undefined_table OR undefined_column
			OR undefined_function OR invalid_schema_name THEN
			-- a name the body or the header uses was not found: say where
			-- it was looked for
			action := 'failed';
			reason := format('%s (names looked up with search_path = %s: set the search_path the application runs with, or give the routine a SET search_path clause, and try again)',
							 SQLERRM, routine_search_path);
			RETURN;
		WHEN OTHERS THEN
			action := 'failed';
			reason := SQLERRM;
			RETURN;
	END;

	action := done;
	reason := concat_ws(', ', 'LANGUAGE ' || from_lang || ' -> ' || to_lang, renamed, member_note);
END
$body$;

COMMENT ON FUNCTION plnimble_switch_routine(regprocedure, name, name, boolean, text, boolean) IS
	'internal: switches one routine between plpgsql and plnimble for plnimble_adopt and plnimble_revert';

-- The routines plnimble_adopt and plnimble_revert report on: every
-- routine of the schema given, whatever its language, or else every
-- routine the caller owns (or is a member of the owner of) in every
-- schema except the system schemas and other sessions' temporary schemas;
-- those not of LANGUAGE from_lang are reported as skipped.  Then one row
-- per database- or role-level setting of from_lang's prefix that applies
-- to this database, with the statement that would carry it over.  Its
-- queries, too, run with the search path pg_catalog, pg_temp; the
-- caller's goes on to plnimble_switch_routine.  Internal.
CREATE FUNCTION plnimble_switch_schema(
	schema name, from_lang name, to_lang name, dry_run boolean,
	caller_search_path text, include_extension_members boolean)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE plnimble
	SET check_function_bodies = on
	SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
	fn oid;
	s record;
	target text;
	stmt text;
BEGIN
	IF schema IS NOT NULL AND
		NOT EXISTS (SELECT FROM pg_catalog.pg_namespace WHERE nspname = schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;

	FOR fn IN
		SELECT p.oid
		  FROM pg_catalog.pg_proc p
		  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
		 WHERE CASE WHEN schema IS NOT NULL THEN n.nspname = schema
					ELSE n.nspname NOT IN ('pg_catalog', 'information_schema')
						 AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)
						 AND pg_catalog.pg_has_role(p.proowner, 'USAGE') END
		 ORDER BY n.nspname, p.proname, p.oid::regprocedure::text
	LOOP
		RETURN QUERY SELECT * FROM pg_catalog.plnimble_switch_routine(
			fn, from_lang, to_lang, dry_run, caller_search_path,
			include_extension_members);
	END LOOP;

	FOR s IN
		SELECT d.setdatabase, d.setrole, r.rolname, split_part(c, '=', 1) AS name,
			   substr(c, strpos(c, '=') + 1) AS value
		  FROM pg_catalog.pg_db_role_setting d
		  LEFT JOIN pg_catalog.pg_roles r ON r.oid = d.setrole,
			   unnest(d.setconfig) AS c
		 WHERE d.setdatabase IN (0, (SELECT oid FROM pg_catalog.pg_database
									  WHERE datname = current_database()))
		   AND starts_with(c, from_lang || '.')
		 ORDER BY d.setdatabase, d.setrole, c
	LOOP
		target := CASE
			WHEN s.setrole = 0 AND s.setdatabase = 0 THEN 'ALTER ROLE ALL'
			WHEN s.setrole = 0 THEN format('ALTER DATABASE %I', current_database())
			WHEN s.setdatabase = 0 THEN format('ALTER ROLE %I', s.rolname)
			ELSE format('ALTER ROLE %I IN DATABASE %I', s.rolname, current_database())
		END;
		routine := NULL;
		action := 'skipped';
		IF s.name = 'plnimble.lazy_savepoints' THEN
			reason := format('%s SET %s = %L has no PL/pgSQL counterpart',
							 target, s.name, s.value);
		ELSE
			stmt := format('%s SET %s%s = %L', target, to_lang || '.',
						   substr(s.name, length(from_lang) + 2), s.value);
			reason := format('%s SET %s = %L not carried over; to carry it over: %s',
							 target, s.name, s.value, stmt);
		END IF;
		RETURN NEXT;
	END LOOP;
END
$body$;

COMMENT ON FUNCTION plnimble_switch_schema(name, name, name, boolean, text, boolean) IS
	'internal: the routines and settings plnimble_adopt and plnimble_revert work on';

-- The four functions users call.  Each returns one row per routine: the
-- routine, adopted, reverted, skipped or failed, and why; the schema forms
-- also list database- and role-level settings of the old language with
-- the statements that would carry them over (routine NULL, skipped).
CREATE FUNCTION plnimble_adopt(schema name DEFAULT NULL, dry_run boolean DEFAULT false,
	include_extension_members boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_schema($1, 'plpgsql', 'plnimble', $2,
		pg_catalog.current_setting('search_path'), $3) $$;

COMMENT ON FUNCTION plnimble_adopt(name, boolean, boolean) IS
	'moves the PL/pgSQL routines of a schema (NULL: of every schema, those the caller owns) to plnimble';

CREATE FUNCTION plnimble_revert(schema name DEFAULT NULL, dry_run boolean DEFAULT false,
	include_extension_members boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_schema($1, 'plnimble', 'plpgsql', $2,
		pg_catalog.current_setting('search_path'), $3) $$;

COMMENT ON FUNCTION plnimble_revert(name, boolean, boolean) IS
	'moves the plnimble routines of a schema (NULL: of every schema, those the caller owns) back to PL/pgSQL';

CREATE FUNCTION plnimble_adopt_function(fn regprocedure, dry_run boolean DEFAULT false,
	include_extension_members boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_routine($1, 'plpgsql', 'plnimble', $2,
		pg_catalog.current_setting('search_path'), $3) $$;

COMMENT ON FUNCTION plnimble_adopt_function(regprocedure, boolean, boolean) IS
	'moves one PL/pgSQL routine to plnimble';

CREATE FUNCTION plnimble_revert_function(fn regprocedure, dry_run boolean DEFAULT false,
	include_extension_members boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_routine($1, 'plnimble', 'plpgsql', $2,
		pg_catalog.current_setting('search_path'), $3) $$;

COMMENT ON FUNCTION plnimble_revert_function(regprocedure, boolean, boolean) IS
	'moves one plnimble routine back to PL/pgSQL';

-- issue 31: which routines run in which language, and routines that
-- CREATE OR REPLACE turned back into PL/pgSQL
--
-- An application's upgrade script, or ALTER EXTENSION ... UPDATE, creates
-- its routines again with the LANGUAGE its text says, plpgsql, and
-- nothing says so.  plnimble_routines() lists the routines of a schema
-- (of every schema but the system ones) with their language, so that it
-- can be seen (a function: the extension's objects are in pg_catalog,
-- where no view can be created).  The two event trigger functions are
-- for a superuser to attach to ddl_command_start and ddl_command_end, to
-- be told (plnimble_warn_replaced) or to have such a routine moved to
-- plnimble again (plnimble_readopt_replaced).  Which routines: those a
-- CREATE FUNCTION or CREATE PROCEDURE made, or the members of the
-- extension an ALTER EXTENSION changed, that are LANGUAGE plpgsql after
-- the statement and were LANGUAGE plnimble before it (the trigger on
-- ddl_command_start notes which routines were, in a setting of the
-- transaction), or that are in a schema (for a member: an extension)
-- other routines of which run on plnimble.

CREATE FUNCTION plnimble_routines(schema name DEFAULT NULL)
	RETURNS TABLE (routine_schema name, routine regprocedure, kind text,
		language name, extension name, owner regrole)
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
SELECT n.nspname, p.oid::regprocedure,
	   CASE p.prokind WHEN 'f' THEN 'function' WHEN 'p' THEN 'procedure'
					  WHEN 'a' THEN 'aggregate' WHEN 'w' THEN 'window function' END,
	   l.lanname,
	   (SELECT e.extname FROM pg_catalog.pg_depend d
		  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
		 WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid
		   AND d.refclassid = 'pg_catalog.pg_extension'::regclass
		   AND d.deptype = 'e'),
	   p.proowner::regrole
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
  JOIN pg_catalog.pg_language l ON l.oid = p.prolang
 WHERE CASE WHEN $1 IS NOT NULL THEN n.nspname = $1
			ELSE n.nspname NOT IN ('pg_catalog', 'information_schema')
				 AND NOT pg_catalog.pg_is_other_temp_schema(n.oid) END
 ORDER BY n.nspname, p.proname, p.oid::regprocedure::text
$$;

COMMENT ON FUNCTION plnimble_routines(name) IS
	'the routines of a schema (NULL: of every schema but the system ones), with their language and extension';

-- At ddl_command_start: note which routines run on plnimble now (but
-- plnimble's own), in the setting plnimble_ddl.routines_on_plnimble, as
-- the statement's start time, a semicolon and an oid[] literal.  The
-- statements of an extension's script fire event triggers too, with the
-- start time of the CREATE or ALTER EXTENSION that runs them: the first
-- start of a statement is the one that counts, so a list of the same
-- statement is kept, and none is made for plnimble_switch_routine's own
-- statement.  (A setting made with set_config(..., true) in a function
-- lasts beyond it, until the end of the transaction, unless the function
-- has a SET clause for the same setting.)  Internal.
CREATE FUNCTION plnimble_note_routines() RETURNS void
	LANGUAGE plnimble
	SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
	IF coalesce(current_setting('plnimble_ddl.switching', true), '') = ''
		AND split_part(coalesce(current_setting('plnimble_ddl.routines_on_plnimble', true), ''),
					   ';', 1) IS DISTINCT FROM statement_timestamp()::text THEN
		PERFORM set_config('plnimble_ddl.routines_on_plnimble',
			statement_timestamp()::text || ';' ||
			(SELECT coalesce(array_agg(p.oid ORDER BY p.oid), '{}')::text
			   FROM pg_catalog.pg_proc p
			   JOIN pg_catalog.pg_language l ON l.oid = p.prolang
			  WHERE l.lanname = 'plnimble'
				AND p.pronamespace <> 'pg_catalog'::regnamespace), true);
	END IF;
END
$body$;

COMMENT ON FUNCTION plnimble_note_routines() IS
	'internal: notes the routines on plnimble at ddl_command_start, for plnimble_warn_replaced and plnimble_readopt_replaced';

-- The work of both event trigger functions at ddl_command_end: which
-- routines of the statement went back to PL/pgSQL, and a WARNING for
-- each (readopt false), or the switch back to plnimble with a NOTICE, a
-- WARNING if it fails (readopt true).  The commands of an extension's
-- script are left to the end of the CREATE or ALTER EXTENSION, and the
-- CREATE OR REPLACE of plnimble_switch_routine (which sets
-- plnimble_ddl.switching while it runs) is left alone: DDL run by a
-- function fires event triggers too, and a plnimble_revert must not be
-- taken back.
-- caller_search_path is the session's (the trigger functions have no SET
-- clause, so they still see it).  Internal.
CREATE FUNCTION plnimble_check_replaced(readopt boolean, caller_search_path text)
	RETURNS void
	LANGUAGE plnimble
	SET check_function_bodies = on
	SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
	c record;
	res record;
	why text;
	noted text;
	was oid[];
BEGIN
	IF coalesce(current_setting('plnimble_ddl.switching', true), '') <> ''
		OR NOT EXISTS (SELECT FROM pg_catalog.pg_event_trigger_ddl_commands() x
						WHERE NOT x.in_extension) THEN
		RETURN;
	END IF;
	-- the list noted at this statement's start, if there is one
	noted := coalesce(current_setting('plnimble_ddl.routines_on_plnimble', true), '');
	was := CASE WHEN split_part(noted, ';', 1) = statement_timestamp()::text
				THEN split_part(noted, ';', 2)::oid[] ELSE '{}'::oid[] END;
	PERFORM set_config('plnimble_ddl.routines_on_plnimble', '', true);

	FOR c IN
		WITH cmd AS (
			SELECT DISTINCT x.objid AS fn
			  FROM pg_catalog.pg_event_trigger_ddl_commands() x
			 WHERE x.classid = 'pg_catalog.pg_proc'::regclass
			   AND x.command_tag IN ('CREATE FUNCTION', 'CREATE PROCEDURE')
			   AND NOT x.in_extension
			UNION
			SELECT d.objid
			  FROM pg_catalog.pg_event_trigger_ddl_commands() x
			  JOIN pg_catalog.pg_depend d
				ON d.refclassid = 'pg_catalog.pg_extension'::regclass
			   AND d.refobjid = x.objid AND d.deptype = 'e'
			   AND d.classid = 'pg_catalog.pg_proc'::regclass
			 WHERE x.classid = 'pg_catalog.pg_extension'::regclass
			   AND x.command_tag = 'ALTER EXTENSION'
			   AND NOT x.in_extension),
		candidate AS (
			SELECT p.oid AS fn, p.pronamespace, n.nspname,
				   (SELECT d.refobjid FROM pg_catalog.pg_depend d
					 WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid
					   AND d.refclassid = 'pg_catalog.pg_extension'::regclass
					   AND d.deptype = 'e') AS ext
			  FROM cmd
			  JOIN pg_catalog.pg_proc p ON p.oid = cmd.fn
			  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
			  JOIN pg_catalog.pg_language l ON l.oid = p.prolang
			 WHERE l.lanname = 'plpgsql')
		SELECT k.fn::regprocedure AS fn, k.nspname,
			   k.fn = ANY (was) AS was_plnimble,
			   (SELECT extname FROM pg_catalog.pg_extension WHERE oid = k.ext) AS extname,
			   (SELECT count(*)
				  FROM pg_catalog.pg_proc q
				  JOIN pg_catalog.pg_language ql ON ql.oid = q.prolang
				 WHERE ql.lanname = 'plnimble' AND q.oid <> k.fn
				   AND CASE WHEN k.ext IS NOT NULL
							THEN EXISTS (SELECT FROM pg_catalog.pg_depend d
										  WHERE d.classid = 'pg_catalog.pg_proc'::regclass
											AND d.objid = q.oid AND d.refobjid = k.ext
											AND d.refclassid = 'pg_catalog.pg_extension'::regclass
											AND d.deptype = 'e')
							ELSE q.pronamespace = k.pronamespace
								 AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
												  WHERE d.classid = 'pg_catalog.pg_proc'::regclass
													AND d.objid = q.oid
													AND d.refclassid = 'pg_catalog.pg_extension'::regclass
													AND d.deptype = 'e') END) AS others
		  FROM candidate k
		 WHERE k.ext IS DISTINCT FROM (SELECT oid FROM pg_catalog.pg_extension
										WHERE extname = 'plnimble')
		 ORDER BY k.fn::regprocedure::text
	LOOP
		IF c.was_plnimble THEN
			why := 'it was LANGUAGE plnimble before this statement';
		ELSIF c.others > 0 THEN
			why := format('%s other routine(s) of %s run on plnimble', c.others,
						  CASE WHEN c.extname IS NOT NULL
							   THEN format('extension %s', c.extname)
							   ELSE format('schema %s', c.nspname) END);
		ELSE
			CONTINUE;
		END IF;
		IF NOT readopt THEN
			RAISE WARNING 'routine % is LANGUAGE plpgsql: %', c.fn, why
				USING HINT = format('To move it to plnimble: SELECT * FROM plnimble_adopt_function(%L%s);',
									c.fn::text,
									CASE WHEN c.extname IS NOT NULL
										 THEN ', include_extension_members => true' ELSE '' END);
			CONTINUE;
		END IF;
		res := pg_catalog.plnimble_switch_routine(c.fn, 'plpgsql', 'plnimble', false,
												 caller_search_path, true);
		IF res.action = 'adopted' THEN
			RAISE NOTICE 'routine % moved to plnimble again', c.fn
				USING DETAIL = format('It was created in LANGUAGE plpgsql, and %s.',
									  regexp_replace(why, '^it ', ''));
		ELSE
			RAISE WARNING 'routine % stays LANGUAGE plpgsql: %', c.fn, why
				USING DETAIL = format('Moving it to plnimble: %s: %s', res.action, res.reason);
		END IF;
	END LOOP;
END
$body$;

COMMENT ON FUNCTION plnimble_check_replaced(boolean, text) IS
	'internal: the work of plnimble_warn_replaced and plnimble_readopt_replaced';

-- The event trigger functions themselves, for ddl_command_start and
-- ddl_command_end: no SET clause, so that they pass on the session's
-- search path; every name in them is qualified, operators too.
CREATE FUNCTION plnimble_warn_replaced() RETURNS event_trigger
	LANGUAGE plnimble
AS $body$
BEGIN
	IF TG_EVENT OPERATOR(pg_catalog.=) 'ddl_command_start' THEN
		PERFORM pg_catalog.plnimble_note_routines();
	ELSIF TG_EVENT OPERATOR(pg_catalog.=) 'ddl_command_end' THEN
		PERFORM pg_catalog.plnimble_check_replaced(false,
			pg_catalog.current_setting('search_path'));
	ELSE
		RAISE EXCEPTION 'plnimble_warn_replaced() is for event triggers on ddl_command_start and ddl_command_end, not %', TG_EVENT
			USING ERRCODE = 'event_trigger_protocol_violated';
	END IF;
END
$body$;

COMMENT ON FUNCTION plnimble_warn_replaced() IS
	'for event triggers on ddl_command_start and ddl_command_end: warns when a routine on plnimble is created again in LANGUAGE plpgsql';

CREATE FUNCTION plnimble_readopt_replaced() RETURNS event_trigger
	LANGUAGE plnimble
AS $body$
BEGIN
	IF TG_EVENT OPERATOR(pg_catalog.=) 'ddl_command_start' THEN
		PERFORM pg_catalog.plnimble_note_routines();
	ELSIF TG_EVENT OPERATOR(pg_catalog.=) 'ddl_command_end' THEN
		PERFORM pg_catalog.plnimble_check_replaced(true,
			pg_catalog.current_setting('search_path'));
	ELSE
		RAISE EXCEPTION 'plnimble_readopt_replaced() is for event triggers on ddl_command_start and ddl_command_end, not %', TG_EVENT
			USING ERRCODE = 'event_trigger_protocol_violated';
	END IF;
END
$body$;

COMMENT ON FUNCTION plnimble_readopt_replaced() IS
	'for event triggers on ddl_command_start and ddl_command_end: moves a routine on plnimble created again in LANGUAGE plpgsql back to plnimble';

-- issue 27: plnimble_savepoint_stats() gains the column fast_calls (calls
-- the fast entry ran), so that tests can tell which path a call took
-- and issue 28: the read guard.  It also gains blocks_lazy_guarded: blocks
-- that ended without their subtransaction having run work under a read
-- guard.

DROP FUNCTION plnimble_savepoint_stats();

CREATE FUNCTION plnimble_savepoint_stats(
	OUT blocks_entered bigint,
	OUT savepoints_materialized bigint,
	OUT errors_caught_lazy bigint,
	OUT errors_caught_subxact bigint,
	OUT writes_without_savepoint bigint,
	OUT fast_calls bigint,
	OUT blocks_lazy_guarded bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_savepoint_stats() IS
	'this session''s exception-block counters';

-- issue 29: plnimble_check_function with plpgsql_check 2.3's arguments
-- (in its order: format third in the text form, oldtable before newtable,
-- security_warnings, compatibility_warnings, the polymorphic types,
-- without_warnings, all_warnings, the in-comment options), and a second
-- form of each that takes the routine as text: 'f(int)', or a bare 'f'
-- when the name is unique.
DROP FUNCTION plnimble_check_function(regprocedure, regclass, boolean, boolean, boolean, boolean, name, name);
DROP FUNCTION plnimble_check_function_tb(regprocedure, regclass, boolean, boolean, boolean, boolean, name, name);

CREATE FUNCTION plnimble_check_function(funcoid regprocedure,
		relid regclass DEFAULT 0,
		format text DEFAULT 'text',
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		security_warnings boolean DEFAULT false,
		compatibility_warnings boolean DEFAULT false,
		oldtable name DEFAULT NULL,
		newtable name DEFAULT NULL,
		anyelememttype regtype DEFAULT 'int',
		anyenumtype regtype DEFAULT '-',
		anyrangetype regtype DEFAULT 'int4range',
		anycompatibletype regtype DEFAULT 'int',
		anycompatiblerangetype regtype DEFAULT 'int4range',
		without_warnings boolean DEFAULT false,
		all_warnings boolean DEFAULT false,
		use_incomment_options boolean DEFAULT true,
		incomment_options_usage_warning boolean DEFAULT false)
	RETURNS SETOF text
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function';

COMMENT ON FUNCTION plnimble_check_function(regprocedure, regclass, text, boolean, boolean, boolean, boolean, boolean, boolean, name, name, regtype, regtype, regtype, regtype, regtype, boolean, boolean, boolean, boolean) IS
	'checks a plnimble function without running it: one finding a line (or an XML or JSON document), as plpgsql_check_function';

CREATE FUNCTION plnimble_check_function_tb(funcoid regprocedure,
		relid regclass DEFAULT 0,
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		security_warnings boolean DEFAULT false,
		compatibility_warnings boolean DEFAULT false,
		oldtable name DEFAULT NULL,
		newtable name DEFAULT NULL,
		anyelememttype regtype DEFAULT 'int',
		anyenumtype regtype DEFAULT '-',
		anyrangetype regtype DEFAULT 'int4range',
		anycompatibletype regtype DEFAULT 'int',
		anycompatiblerangetype regtype DEFAULT 'int4range',
		without_warnings boolean DEFAULT false,
		all_warnings boolean DEFAULT false,
		use_incomment_options boolean DEFAULT true,
		incomment_options_usage_warning boolean DEFAULT false)
	RETURNS TABLE (functionid regproc, lineno integer, statement text,
		sqlstate text, message text, detail text, hint text, level text,
		"position" integer, query text, context text)
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function_tb';

COMMENT ON FUNCTION plnimble_check_function_tb(regprocedure, regclass, boolean, boolean, boolean, boolean, boolean, boolean, name, name, regtype, regtype, regtype, regtype, regtype, boolean, boolean, boolean, boolean) IS
	'checks a plnimble function without running it: one row a finding, as plpgsql_check_function_tb';

CREATE FUNCTION plnimble_check_function(name text,
		relid regclass DEFAULT 0,
		format text DEFAULT 'text',
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		security_warnings boolean DEFAULT false,
		compatibility_warnings boolean DEFAULT false,
		oldtable name DEFAULT NULL,
		newtable name DEFAULT NULL,
		anyelememttype regtype DEFAULT 'int',
		anyenumtype regtype DEFAULT '-',
		anyrangetype regtype DEFAULT 'int4range',
		anycompatibletype regtype DEFAULT 'int',
		anycompatiblerangetype regtype DEFAULT 'int4range',
		without_warnings boolean DEFAULT false,
		all_warnings boolean DEFAULT false,
		use_incomment_options boolean DEFAULT true,
		incomment_options_usage_warning boolean DEFAULT false)
	RETURNS SETOF text
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function';

COMMENT ON FUNCTION plnimble_check_function(text, regclass, text, boolean, boolean, boolean, boolean, boolean, boolean, name, name, regtype, regtype, regtype, regtype, regtype, boolean, boolean, boolean, boolean) IS
	'checks a plnimble function without running it: one finding a line (or an XML or JSON document), as plpgsql_check_function';

CREATE FUNCTION plnimble_check_function_tb(name text,
		relid regclass DEFAULT 0,
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		security_warnings boolean DEFAULT false,
		compatibility_warnings boolean DEFAULT false,
		oldtable name DEFAULT NULL,
		newtable name DEFAULT NULL,
		anyelememttype regtype DEFAULT 'int',
		anyenumtype regtype DEFAULT '-',
		anyrangetype regtype DEFAULT 'int4range',
		anycompatibletype regtype DEFAULT 'int',
		anycompatiblerangetype regtype DEFAULT 'int4range',
		without_warnings boolean DEFAULT false,
		all_warnings boolean DEFAULT false,
		use_incomment_options boolean DEFAULT true,
		incomment_options_usage_warning boolean DEFAULT false)
	RETURNS TABLE (functionid regproc, lineno integer, statement text,
		sqlstate text, message text, detail text, hint text, level text,
		"position" integer, query text, context text)
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function_tb';

COMMENT ON FUNCTION plnimble_check_function_tb(text, regclass, boolean, boolean, boolean, boolean, boolean, boolean, name, name, regtype, regtype, regtype, regtype, regtype, boolean, boolean, boolean, boolean) IS
	'checks a plnimble function without running it: one row a finding, as plpgsql_check_function_tb';

-- issue 29: pragmas for plnimble_check_function.  The checker reads
-- PERFORM plnimble_check_pragma('disable:check', ...) (and the same with
-- plpgsql_check_pragma) without running it; at run time it returns 1.
CREATE FUNCTION plnimble_check_pragma(VARIADIC name text[])
	RETURNS integer
	LANGUAGE c IMMUTABLE
	AS 'MODULE_PATHNAME', 'plnimble_check_pragma';

COMMENT ON FUNCTION plnimble_check_pragma(text[]) IS
	'a pragma for plnimble_check_function (disable:/enable: a check, type: a record''s row type, table: a temporary table); returns 1';

-- issue 29: the profiler's and coverage's functions also take the routine
-- as text, 'f' (when one function has that name) or 'f(int)', as
-- plpgsql_check's do.
CREATE FUNCTION plnimble_profiler_function_tb(name text,
	OUT lineno integer,
	OUT stmt_lineno integer,
	OUT exec_stmts bigint,
	OUT exec_stmts_err bigint,
	OUT total_time double precision,
	OUT avg_time double precision,
	OUT max_time double precision,
	OUT processed_rows bigint,
	OUT savepoints_started bigint,
	OUT savepoints_avoided bigint,
	OUT source text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'plnimble_profiler_function_tb' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_function_tb(text) IS
	'the profile of a function named by text (''f'' or ''f(int)''), one row per source line';

CREATE FUNCTION plnimble_profiler_function_statements_tb(name text,
	OUT stmtid integer,
	OUT parent_stmtid integer,
	OUT parent_note text,
	OUT lineno integer,
	OUT nesting integer,
	OUT stmtname text,
	OUT exec_stmts bigint,
	OUT exec_stmts_err bigint,
	OUT total_time double precision,
	OUT avg_time double precision,
	OUT max_time double precision,
	OUT processed_rows bigint,
	OUT savepoints_started bigint,
	OUT savepoints_avoided bigint,
	OUT errors_caught_lazy bigint,
	OUT errors_caught_subxact bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'plnimble_profiler_function_statements_tb' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_function_statements_tb(text) IS
	'the profile of a function named by text (''f'' or ''f(int)''), one row per statement';

CREATE FUNCTION plnimble_coverage_statements(name text)
	RETURNS double precision
	AS 'MODULE_PATHNAME', 'plnimble_coverage_statements' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_coverage_statements(text) IS
	'the fraction of the statements of a function named by text run while profiling';

CREATE FUNCTION plnimble_coverage_branches(name text)
	RETURNS double precision
	AS 'MODULE_PATHNAME', 'plnimble_coverage_branches' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_coverage_branches(text) IS
	'the fraction of the branches of a function named by text taken while profiling';

-- issue 29: plnimble_show_dependency_tb, the relations, functions and
-- operators a function uses, as plpgsql_check's plpgsql_show_dependency_tb.
CREATE FUNCTION plnimble_show_dependency_tb(funcoid regprocedure,
		relid regclass DEFAULT 0)
	RETURNS TABLE (type text, oid oid, schema text, name text, params text)
	AS 'MODULE_PATHNAME', 'plnimble_show_dependency_tb'
	LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_show_dependency_tb(regprocedure, regclass) IS
	'the relations, functions and operators a plnimble function uses, as plpgsql_show_dependency_tb';

CREATE FUNCTION plnimble_show_dependency_tb(fnname text,
		relid regclass DEFAULT 0)
	RETURNS TABLE (type text, oid oid, schema text, name text, params text)
	AS 'MODULE_PATHNAME', 'plnimble_show_dependency_tb'
	LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_show_dependency_tb(text, regclass) IS
	'the relations, functions and operators of a plnimble function named by text (''f'' or ''f(int)'')';
