-- bench/reach_probes.sql: one-line functions of the shapes issue 28
-- measured on real code; see bench/reach.sh --probes.  Each is called
-- twice, first calls (its first planning included), and the
-- subtransactions the two calls started are printed as probe|shape|n.
CREATE TABLE ut (a int);
CREATE FUNCTION reach_raises(t text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    IF t = '' THEN
        RAISE EXCEPTION 'empty';
    END IF;
END
$$;
CREATE FUNCTION reach_p1(t text) RETURNS oid LANGUAGE plnimble AS $$ BEGIN RETURN ('public' || '.' || t)::regclass::oid; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p1('ut'), reach_p1('nope');
SELECT 'probe', '(''public'' || ''.'' || t)::regclass::oid under WHEN others', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p2(t text) RETURNS regtype LANGUAGE plnimble AS $$ BEGIN RETURN t::regtype; EXCEPTION WHEN undefined_object THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p2('int4'), reach_p2('nope');
SELECT 'probe', 't::regtype under WHEN undefined_object', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p3(t text) RETURNS boolean LANGUAGE plnimble AS $$ BEGIN RETURN has_schema_privilege(t, 'usage'); EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p3('public'), reach_p3('nope');
SELECT 'probe', 'has_schema_privilege(t, ''usage'')', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p4(t text) RETURNS text LANGUAGE plnimble AS $$ DECLARE v text; BEGIN SELECT current_setting(t) INTO v; RETURN v; EXCEPTION WHEN undefined_object THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p4('work_mem'), reach_p4('x.y');
SELECT 'probe', 'SELECT current_setting(t) INTO v', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p5(a int[]) RETURNS text LANGUAGE plnimble AS $$ BEGIN RETURN array_to_string(a, ',') || array_upper(a, 1); EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p5('{1,2}'), reach_p5(NULL);
SELECT 'probe', 'array_to_string(a, '','') || array_upper(a, 1)', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p6(t text) RETURNS json LANGUAGE plnimble AS $$ BEGIN RETURN t::json; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p6('{}'), reach_p6('{');
SELECT 'probe', 't::json', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p7(t timestamptz, o oid) RETURNS boolean LANGUAGE plnimble AS $$ BEGIN RETURN t >= now() - interval '1 day' AND o = 1259; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p7(now(), 1259), reach_p7(now(), 2);
SELECT 'probe', 't >= now() - interval ''1 day'' AND o = 1259', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p8(t text) RETURNS text LANGUAGE plnimble AS $$ DECLARE r record; BEGIN r := row(t, 1); RETURN r.f1; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p8('a'), reach_p8('b');
SELECT 'probe', 'r := row(t, 1); RETURN r.f1 (a record)', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p9(t text) RETURNS text LANGUAGE plnimble AS $$ BEGIN RETURN format('%I.%I', 'a', t) || to_char(now(), 'YYYY'); EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p9('a'), reach_p9('b');
SELECT 'probe', 'format(''%I.%I'', ''a'', t) || to_char(now(), ''YYYY'')', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p10(t text) RETURNS int LANGUAGE plnimble AS $$ BEGIN RETURN t::int; EXCEPTION WHEN invalid_text_representation THEN RAISE EXCEPTION 'bad: %', t; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p10('1'), reach_p10('2');
SELECT 'probe', 't::int under invalid_text_representation, re-raised', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p11(t text) RETURNS date LANGUAGE plnimble AS $$ BEGIN RETURN t::date; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p11('2020-01-01'), reach_p11('x');
SELECT 'probe', 't::date', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p12(t text) RETURNS text LANGUAGE plnimble AS $$ BEGIN RETURN upper(t) || lower(t) || split_part(t, '.', 1) || replace(t, 'a', 'b'); EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p12('a.b'), reach_p12('x');
SELECT 'probe', 'upper, lower, split_part, replace', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p13(t text) RETURNS text LANGUAGE plnimble AS $$ BEGIN RAISE NOTICE 'x %', t; RETURN t; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p13('a'), reach_p13('b');
SELECT 'probe', 'RAISE NOTICE with a parameter', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p14(t text) RETURNS text LANGUAGE plnimble AS $$ BEGIN RETURN t::numeric::text || t::float8; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p14('1.5'), reach_p14('x');
SELECT 'probe', 't::numeric::text || t::float8', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p15(t text) RETURNS boolean LANGUAGE plnimble AS $$ BEGIN RETURN t ~ '^a' AND t ILIKE 'A%'; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p15('abc'), reach_p15('x');
SELECT 'probe', 't ~ ''^a'' AND t ILIKE ''A%''', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p16(t text) RETURNS timestamptz LANGUAGE plnimble AS $$ BEGIN RETURN t::timestamptz; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p16('2020-01-01'), reach_p16('x');
SELECT 'probe', 't::timestamptz', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p17(t text) RETURNS uuid LANGUAGE plnimble AS $$ BEGIN RETURN t::uuid; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p17('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), reach_p17('x');
SELECT 'probe', 't::uuid', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p18() RETURNS text LANGUAGE plnimble AS $$ BEGIN RETURN current_user || current_schema(); EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p18(), reach_p18();
SELECT 'probe', 'current_user || current_schema()', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p19(t text) RETURNS interval LANGUAGE plnimble AS $$ BEGIN RETURN t::interval; EXCEPTION WHEN others THEN RETURN NULL; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p19('1 day'), reach_p19('x');
SELECT 'probe', 't::interval', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
CREATE FUNCTION reach_p20(t text) RETURNS text LANGUAGE plnimble AS $$ BEGIN PERFORM reach_raises(t); RETURN 'ok'; EXCEPTION WHEN others THEN RETURN SQLERRM; END $$;
SELECT savepoints_materialized AS s0 FROM plnimble_savepoint_stats() \gset
SELECT reach_p20('a'), reach_p20('');
SELECT 'probe', 'PERFORM of a function that raises', savepoints_materialized - :s0 FROM plnimble_savepoint_stats();
