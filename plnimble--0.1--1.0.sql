-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/* plnimble--0.1--1.0.sql: from 0.1 to 1.0 (plnimble_version, adopt and revert) */

\echo Use "ALTER EXTENSION plnimble UPDATE TO '1.0'" to load this file. \quit

CREATE FUNCTION plnimble_version(
	OUT library_version text,
	OUT sql_version text,
	OUT git_commit text,
	OUT build_time text)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE;

COMMENT ON FUNCTION plnimble_version() IS
	'the loaded library''s version, git commit and build time, and the version of the SQL objects in this database';

-- Switch one routine between LANGUAGE plpgsql and LANGUAGE plnimble, the
-- way its owner would by hand: CREATE OR REPLACE on pg_get_functiondef's
-- text with the LANGUAGE clause, and the prefix of the SET clauses naming
-- the languages' settings, swapped.  That keeps the OID and with it the
-- owner, privileges, comment, triggers, event triggers and dependencies;
-- the routine's other attributes are compared with the catalog before and
-- after, and any difference undoes the change.  The new language's
-- validator checks the body (check_function_bodies is on for the call);
-- a body it rejects is reported, not switched.  With dry_run the change
-- is made and undone, so the report is what a real run would do.
-- The function's own queries run with the search path pg_catalog, pg_temp,
-- so that no function or operator of the caller's schemas can stand in
-- for a built-in one; pg_get_functiondef and the CREATE OR REPLACE run
-- with caller_search_path, the caller's, as the owner's own statements
-- would (the validator resolves the body's type names with it).
-- Internal: called by plnimble_adopt and plnimble_revert and their
-- _function forms.
CREATE FUNCTION plnimble_switch_routine(
	fn regprocedure, from_lang name, to_lang name, dry_run boolean,
	caller_search_path text,
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
		action := 'skipped';
		reason := format('belongs to extension %s', ext);
		RETURN;
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

	-- pg_get_functiondef ends with AS, the body between two dollar-quote
	-- delimiters of its choosing, and a newline; everything before is the
	-- header, whose lines start with a space
	PERFORM set_config('search_path', caller_search_path, true);
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
		PERFORM set_config('search_path', caller_search_path, true);
		EXECUTE head || tail;
		PERFORM set_config('search_path', own_search_path, true);

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
								|| from_lang || ' -> ' || to_lang, renamed);
			RETURN;
		WHEN OTHERS THEN
			action := 'failed';
			reason := SQLERRM;
			RETURN;
	END;

	action := done;
	reason := concat_ws(', ', 'LANGUAGE ' || from_lang || ' -> ' || to_lang, renamed);
END
$body$;

COMMENT ON FUNCTION plnimble_switch_routine(regprocedure, name, name, boolean, text) IS
	'internal: switches one routine between plpgsql and plnimble for plnimble_adopt and plnimble_revert';

-- The routines plnimble_adopt and plnimble_revert consider: of LANGUAGE
-- from_lang, in the schema given, or else in every schema where the
-- caller owns (or is a member of the owner of) such routines, except the
-- system schemas and other sessions' temporary schemas.  Then one row per
-- database- or role-level setting of from_lang's prefix that applies to
-- this database, with the statement that would carry it over.  Its
-- queries, too, run with the search path pg_catalog, pg_temp; the
-- caller's goes on to plnimble_switch_routine.  Internal.
CREATE FUNCTION plnimble_switch_schema(
	schema name, from_lang name, to_lang name, dry_run boolean,
	caller_search_path text)
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
		  JOIN pg_catalog.pg_language l ON l.oid = p.prolang
		 WHERE l.lanname = from_lang
		   AND CASE WHEN schema IS NOT NULL THEN n.nspname = schema
					ELSE n.nspname NOT IN ('pg_catalog', 'information_schema')
						 AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)
						 AND pg_catalog.pg_has_role(p.proowner, 'USAGE') END
		 ORDER BY n.nspname, p.proname, p.oid::regprocedure::text
	LOOP
		RETURN QUERY SELECT * FROM pg_catalog.plnimble_switch_routine(
			fn, from_lang, to_lang, dry_run, caller_search_path);
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

COMMENT ON FUNCTION plnimble_switch_schema(name, name, name, boolean, text) IS
	'internal: the routines and settings plnimble_adopt and plnimble_revert work on';

-- The four functions users call.  Each returns one row per routine: the
-- routine, adopted, reverted, skipped or failed, and why; the schema forms
-- also list database- and role-level settings of the old language with
-- the statements that would carry them over (routine NULL, skipped).
CREATE FUNCTION plnimble_adopt(schema name DEFAULT NULL, dry_run boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_schema($1, 'plpgsql', 'plnimble', $2,
		pg_catalog.current_setting('search_path')) $$;

COMMENT ON FUNCTION plnimble_adopt(name, boolean) IS
	'moves the PL/pgSQL routines of a schema (NULL: of every schema, those the caller owns) to plnimble';

CREATE FUNCTION plnimble_revert(schema name DEFAULT NULL, dry_run boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_schema($1, 'plnimble', 'plpgsql', $2,
		pg_catalog.current_setting('search_path')) $$;

COMMENT ON FUNCTION plnimble_revert(name, boolean) IS
	'moves the plnimble routines of a schema (NULL: of every schema, those the caller owns) back to PL/pgSQL';

CREATE FUNCTION plnimble_adopt_function(fn regprocedure, dry_run boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_routine($1, 'plpgsql', 'plnimble', $2,
		pg_catalog.current_setting('search_path')) $$;

COMMENT ON FUNCTION plnimble_adopt_function(regprocedure, boolean) IS
	'moves one PL/pgSQL routine to plnimble';

CREATE FUNCTION plnimble_revert_function(fn regprocedure, dry_run boolean DEFAULT false)
	RETURNS TABLE (routine regprocedure, action text, reason text)
	LANGUAGE sql
	AS $$ SELECT * FROM pg_catalog.plnimble_switch_routine($1, 'plnimble', 'plpgsql', $2,
		pg_catalog.current_setting('search_path')) $$;

COMMENT ON FUNCTION plnimble_revert_function(regprocedure, boolean) IS
	'moves one plnimble routine back to PL/pgSQL';

-- The profiler and coverage (src/profiler.c; docs/user-guide.md, "Finding
-- where the time goes")

CREATE FUNCTION plnimble_profiler_function_tb(funcoid regprocedure,
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
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_function_tb(regprocedure) IS
	'the profile of a function, one row per source line (times in microseconds)';

CREATE FUNCTION plnimble_profiler_function_statements_tb(funcoid regprocedure,
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
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_function_statements_tb(regprocedure) IS
	'the profile of a function, one row per statement (times in microseconds)';

CREATE FUNCTION plnimble_profiler_functions_all(
	OUT funcoid regprocedure,
	OUT exec_count bigint,
	OUT exec_err bigint,
	OUT total_time double precision,
	OUT avg_time double precision,
	OUT max_time double precision,
	OUT exec_stmts bigint,
	OUT savepoints_started bigint,
	OUT savepoints_avoided bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_functions_all() IS
	'every profiled function, with its totals (times in microseconds)';

CREATE FUNCTION plnimble_profiler_reset(funcoid regprocedure)
	RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_reset(regprocedure) IS
	'forgets the profile of a function';

CREATE FUNCTION plnimble_profiler_reset_all()
	RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_profiler_reset_all() IS
	'forgets every profile';

CREATE FUNCTION plnimble_coverage_statements(funcoid regprocedure)
	RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_coverage_statements(regprocedure) IS
	'the fraction of a function''s statements run while profiling';

CREATE FUNCTION plnimble_coverage_branches(funcoid regprocedure)
	RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_coverage_branches(regprocedure) IS
	'the fraction of a function''s branches taken while profiling';

-- plnimble_check_function (issue 20): static checking, as plpgsql_check does
CREATE FUNCTION plnimble_check_function(funcoid regprocedure,
		relid regclass DEFAULT 0,
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		newtable name DEFAULT NULL,
		oldtable name DEFAULT NULL)
	RETURNS SETOF text
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function';

COMMENT ON FUNCTION plnimble_check_function(regprocedure, regclass, boolean, boolean, boolean, boolean, name, name) IS
	'checks a plnimble function without running it: one finding a line, as plpgsql_check_function';

CREATE FUNCTION plnimble_check_function_tb(funcoid regprocedure,
		relid regclass DEFAULT 0,
		fatal_errors boolean DEFAULT true,
		other_warnings boolean DEFAULT true,
		performance_warnings boolean DEFAULT false,
		extra_warnings boolean DEFAULT true,
		newtable name DEFAULT NULL,
		oldtable name DEFAULT NULL)
	RETURNS TABLE (functionid regproc, lineno integer, statement text,
		sqlstate text, message text, detail text, hint text, level text,
		"position" integer, query text, context text)
	LANGUAGE c CALLED ON NULL INPUT
	AS 'MODULE_PATHNAME', 'plnimble_check_function_tb';

COMMENT ON FUNCTION plnimble_check_function_tb(regprocedure, regclass, boolean, boolean, boolean, boolean, name, name) IS
	'checks a plnimble function without running it: one row a finding, as plpgsql_check_function_tb';
