-- read_guard: handler blocks whose work reads catalogs or settings but
-- writes nothing run without their subtransaction, under a read guard
-- (issue 28): the text -> regclass / regtype casts, has_*_privilege,
-- current_setting, timestamptz + interval (pure), and the first planning
-- of their expressions.  Every case is compared with PL/pgSQL (values,
-- errors and their CONTEXT lines, pg_locks), both outcomes, nested blocks
-- and handlers that re-raise; rg_lazy() says, from
-- plnimble_savepoint_stats(), that the blocks stayed without their
-- subtransaction (on PL/pgSQL, which has no counters, it just says so).

CREATE FUNCTION rg_counts() RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    r bigint[];
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT ARRAY[blocks_entered, savepoints_materialized,
                          errors_caught_lazy, blocks_lazy_guarded]
               FROM plnimble_savepoint_stats()' INTO r;
    RETURN r;
END
$$;

-- run q; 'lazy' if every block it entered stayed without its
-- subtransaction (with guarded blocks among them if need_guard), else the
-- counters' deltas
CREATE FUNCTION rg_lazy(q text, need_guard boolean DEFAULT true)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    a bigint[];
    b bigint[];
BEGIN
    a := rg_counts();
    EXECUTE q;
    b := rg_counts();
    IF a IS NULL OR
       (b[1] > a[1] AND b[2] = a[2] AND (b[4] > a[4] OR NOT need_guard)) THEN
        RETURN 'lazy';
    END IF;
    RETURN format('blocks %s, savepoints %s, caught %s, guarded %s',
                  b[1] - a[1], b[2] - a[2], b[3] - a[3], b[4] - a[4]);
END
$$;

CREATE TABLE rg_t (a int);
CREATE SCHEMA rg_s;
CREATE TABLE rg_s.inner_t (b int);

-- the measured shapes
CREATE FUNCTION rg_regclass(t text) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::regclass::oid;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rg_qualified(s text, t text) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
    RETURN ($1 || '.' || $2)::regclass::oid;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rg_regtype(t text) RETURNS regtype LANGUAGE plpgsql AS $$
BEGIN
    RETURN $1::regtype;
EXCEPTION WHEN undefined_object THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rg_priv(t text, p text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN has_table_privilege(t, p);
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rg_setting(n text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN current_setting(n);
EXCEPTION WHEN undefined_object THEN
    RETURN 'unset';
END
$$;
CREATE FUNCTION rg_setting_ok(n text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v text;
BEGIN
    v := current_setting(n, true);
    RETURN coalesce(v, 'null');
EXCEPTION WHEN OTHERS THEN
    RETURN 'error';
END
$$;
CREATE FUNCTION rg_ts(t timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
    RETURN t + interval '1 day';
EXCEPTION WHEN datetime_field_overflow THEN
    RETURN NULL;
END
$$;

-- first calls in the session: the first planning runs under the guard too
SELECT rg_lazy($$SELECT rg_regclass('rg_t') IS NOT NULL, rg_regclass('rg_nope'),
                        rg_regclass('bad name syntax!')$$);
SELECT rg_regclass('rg_t') = 'rg_t'::regclass::oid AS found,
       rg_regclass('rg_nope') AS missing, rg_regclass('a.b.c.d') AS bad;
SELECT rg_lazy($$SELECT rg_qualified('rg_s', 'inner_t'), rg_qualified('rg_s', 'nope')$$);
SELECT rg_qualified('rg_s', 'inner_t') = 'rg_s.inner_t'::regclass::oid AS found,
       rg_qualified('nope', 'inner_t') AS no_schema;
SELECT rg_lazy($$SELECT rg_regtype('int4'), rg_regtype('rg_nope'), rg_regtype('varchar(3)')$$);
SELECT rg_regtype('int4'), rg_regtype('rg_nope'), rg_regtype('varchar(3)'),
       rg_regtype('rg_t');
SELECT rg_lazy($$SELECT rg_priv('rg_t', 'select'), rg_priv('rg_nope', 'select'),
                        rg_priv('rg_t', 'fly')$$);
SELECT rg_priv('rg_t', 'select'), rg_priv('rg_nope', 'select'),
       rg_priv('rg_t', 'fly');
SELECT rg_lazy($$SELECT rg_setting('work_mem'), rg_setting('rg.nope'),
                        rg_setting_ok('rg.nope')$$);
SELECT rg_setting('work_mem'), rg_setting('rg.nope'),
       rg_setting_ok('work_mem'), rg_setting_ok('rg.nope');
-- timestamptz + interval is pure (it reads the session time zone only)
SELECT rg_lazy($$SELECT rg_ts('2020-01-01'), rg_ts('294276-12-31 00:00:00+00')$$,
               false);
SET TimeZone = 'America/New_York';
SELECT rg_ts('2021-03-13 12:00-05'), rg_ts('294276-12-31 00:00:00+00');
RESET TimeZone;

-- a condition that is a bare variable, first planned in the block (its
-- first planning and its first evaluation, which reads no catalog, keep
-- the block without its subtransaction, as IS TRUE did)
CREATE FUNCTION rg_flag(flag boolean) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    IF flag THEN
        RETURN 1;
    END IF;
    RETURN 0;
EXCEPTION WHEN others THEN
    RETURN -1;
END
$$;
SELECT rg_lazy($$SELECT rg_flag(true), rg_flag(false), rg_flag(NULL)$$, false);
SELECT rg_flag(true), rg_flag(false), rg_flag(NULL);

-- first calls of shapes that planning changes or that read the clock:
-- text || another type (an SQL function the planner inlines: the analysed
-- query holds a call of textanycat, the plan textcat and a conversion),
-- now() and CURRENT_DATE, the names of the current user, schema and
-- database (under the guard), uuid and inet input, text functions with
-- the default collation, and
-- SELECT expr INTO variable (prepared on its first run as an expression)
CREATE FUNCTION rg_concat(t text, n int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN t || n || ':' || (n > 1) || 1.5::numeric;
EXCEPTION WHEN others THEN
    RETURN 'caught';
END
$$;
CREATE FUNCTION rg_recent(t timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN t >= now() - interval '1 day' AND t::date <= current_date + 1;
EXCEPTION WHEN datetime_field_overflow THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION rg_words(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN upper(split_part(t, '.', 1)) || lower(btrim(t, 'x')) ||
           initcap(replace(t, '.', ' ')) || lpad(t, 8, '*') ||
           strpos(t, '.') || (t ILIKE 'A%');
EXCEPTION WHEN others THEN
    RETURN 'caught';
END
$$;
CREATE FUNCTION rg_select_into(n text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v text;
BEGIN
    SELECT current_setting(n) INTO v;
    RETURN v;
EXCEPTION WHEN undefined_object THEN
    RETURN 'no such setting';
END
$$;
CREATE FUNCTION rg_who() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN (current_user = session_user) || ' ' || current_schema || ' ' ||
           (current_schema() = current_schema) || ' ' ||
           (current_catalog = current_database());
EXCEPTION WHEN others THEN
    RETURN 'caught';
END
$$;
CREATE FUNCTION rg_uuid(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::uuid || ' ' || (t::inet IS NOT NULL);
EXCEPTION WHEN invalid_text_representation THEN
    RETURN 'bad: ' || t;
END
$$;
SELECT rg_lazy($$SELECT rg_uuid('x'), rg_uuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')$$,
               false);
SELECT rg_uuid('x'), rg_uuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
CREATE FUNCTION rg_json(k text, v int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN jsonb_build_object(k, v, 'list', jsonb_build_array(v, k, true))::text
        || json_build_object('n', v)::text || to_jsonb(ARRAY[v, v + 1])::text;
EXCEPTION WHEN others THEN
    RETURN 'null key';
END
$$;
SELECT rg_lazy($$SELECT rg_json('a', 1), rg_json(NULL, 2)$$);
SELECT rg_json('a', 1), rg_json(NULL, 2);
SELECT rg_lazy($$SELECT rg_who()$$);
SELECT rg_who();
SELECT rg_lazy($$SELECT rg_concat('a', 2), rg_concat(NULL, 1)$$, false);
SELECT rg_concat('a', 2), rg_concat(NULL, 1), rg_concat('b', NULL);
CREATE FUNCTION rg_fields(t timestamptz, u text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN extract(epoch FROM date_trunc(u, t)) || ' ' ||
           extract(year FROM t) || ' ' ||
           date_part(u, t - interval '1 hour') || ' ' ||
           extract(day FROM age(t, to_timestamp(0))) || ' ' ||
           extract(doy FROM make_date(2024, 2, 29));
EXCEPTION WHEN invalid_parameter_value OR feature_not_supported THEN
    RETURN 'bad unit ' || u;
END
$$;
SELECT rg_lazy($$SELECT rg_fields(now(), 'day'), rg_fields(now(), 'fortnight')$$,
               false);
SET TimeZone = 'UTC';
SELECT rg_fields('2021-03-13 12:34:56+00', 'day'),
       rg_fields('2021-03-13 12:34:56+00', 'fortnight');
RESET TimeZone;
SELECT rg_lazy($$SELECT rg_recent(now()), rg_recent('infinity')$$, false);
SELECT rg_recent(now()), rg_recent('2000-01-01'), rg_recent('-infinity');
SELECT rg_lazy($$SELECT rg_words('ab.cd'), rg_words('x')$$, false);
SELECT rg_words('ab.cd'), rg_words('xAx'), rg_words(repeat('z', 10));
SELECT rg_lazy($$SELECT rg_select_into('work_mem'), rg_select_into('rg.none')$$);
SELECT rg_select_into('work_mem'), rg_select_into('rg.none');
-- one that is not an expression (it reads a table) takes the SQL form, as
-- before, under the block's subtransaction
CREATE FUNCTION rg_select_into_table(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    v int;
BEGIN
    SELECT a INTO v FROM rg_t WHERE a = n;
    RETURN coalesce(v, -1);
EXCEPTION WHEN others THEN
    RETURN -2;
END
$$;
SELECT rg_select_into_table(1), rg_select_into_table(NULL);

-- a regtype error that the handler does not catch: it goes up with its
-- CONTEXT lines, and the next call is lazy again
SELECT rg_regtype('int4[');
SELECT rg_lazy($$SELECT rg_regtype('text')$$);

-- handlers that re-raise, and that read the error
CREATE FUNCTION rg_reraise(t text) RETURNS oid LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::regclass;
EXCEPTION WHEN undefined_table THEN
    RAISE NOTICE 'caught: %', SQLERRM;
    RAISE;
END
$$;
SELECT rg_reraise('rg_nope');
CREATE FUNCTION rg_diag(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text;
    msg text;
    ctx text;
BEGIN
    RETURN has_schema_privilege(t, 'usage')::text;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                            ctx = PG_EXCEPTION_CONTEXT;
    -- (the context without the language's name, whose length differs)
    RETURN st || ': ' || msg || ' / ' || regexp_replace(ctx, '^PL/\S+ ', '');
END
$$;
SELECT rg_diag('rg_s'), rg_diag('rg_nope');
SELECT rg_lazy($$SELECT rg_diag('rg_nope')$$);

-- nested blocks: the inner block does not catch, the outer does; a
-- handler that raises its own error, caught by the block around it
CREATE FUNCTION rg_nested(t text, n text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    BEGIN
        BEGIN
            r := r || t::regclass::text;
            r := r || ' ' || current_setting(n);
        EXCEPTION WHEN undefined_object THEN
            r := r || ' inner:' || SQLSTATE;
        END;
    EXCEPTION WHEN undefined_table THEN
        r := r || ' outer:' || SQLSTATE;
    END;
    BEGIN
        BEGIN
            r := r || ' ' || coalesce(to_regclass(t)::text, '-');
            r := r || ' ' || (t::regtype)::text;
        EXCEPTION WHEN OTHERS THEN
            RAISE EXCEPTION 'wrapped: %', SQLERRM USING ERRCODE = 'P0001';
        END;
    EXCEPTION WHEN raise_exception THEN
        r := r || ' ' || SQLERRM;
    END;
    RETURN r;
END
$$;
SELECT rg_nested('rg_t', 'work_mem'), rg_nested('rg_t', 'rg.nope'),
       rg_nested('rg_nope', 'work_mem');
SELECT rg_lazy($$SELECT rg_nested('rg_t', 'work_mem'), rg_nested('rg_t', 'rg.nope'),
                        rg_nested('rg_nope', 'work_mem')$$);

-- the guard in a loop of blocks (one catch point for every iteration)
CREATE FUNCTION rg_loop(names text[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    found int := 0;
    missing int := 0;
BEGIN
    FOR i IN 1 .. array_length(names, 1) LOOP
        BEGIN
            PERFORM names[i]::regclass;
            found := found + 1;
        EXCEPTION WHEN undefined_table THEN
            missing := missing + 1;
        END;
    END LOOP;
    RETURN found || ' found, ' || missing || ' missing';
END
$$;
SELECT rg_loop(ARRAY['rg_t', 'rg_nope', 'pg_class', 'rg_s.inner_t', 'rg_s.nope']);

-- catalog changes made earlier in the call are seen by the guarded
-- lookups, and a search path set inside the call too
CREATE FUNCTION rg_ddl() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text := '';
BEGIN
    CREATE TEMP TABLE rg_new (x int);
    BEGIN
        r := 'rg_new'::regclass::text;
    EXCEPTION WHEN undefined_table THEN
        r := 'missing';
    END;
    DROP TABLE rg_new;
    BEGIN
        r := r || ' ' || coalesce(to_regclass('rg_new')::text, 'gone');
        r := r || ' ' || 'rg_new'::regclass::text;
    EXCEPTION WHEN undefined_table THEN
        r := r || ' ' || SQLERRM;
    END;
    EXECUTE 'CREATE TABLE rg_new2 (x int)';
    BEGIN
        r := r || ' ' || has_table_privilege('rg_new2', 'select')::text;
    EXCEPTION WHEN OTHERS THEN
        r := r || ' error';
    END;
    DROP TABLE rg_new2;
    PERFORM set_config('search_path', 'rg_s, public', true);
    BEGIN
        r := r || ' ' || 'inner_t'::regclass::text || ' ' || current_setting('search_path');
    EXCEPTION WHEN undefined_table THEN
        r := r || ' no inner_t';
    END;
    PERFORM set_config('search_path', 'public', true);
    BEGIN
        r := r || ' ' || 'inner_t'::regclass::text;
    EXCEPTION WHEN undefined_table THEN
        r := r || ' no inner_t';
    END;
    RETURN r;
END
$$;
BEGIN;
SELECT rg_ddl();
SELECT rg_ddl();
ROLLBACK;

-- locks: what a block leaves in pg_locks is PL/pgSQL's, whether it ends
-- normally or by a caught error.  The guarded lookups take no lock; a
-- sub-select of a table cannot be planned under the guard (its analysis
-- locked the table: that lock is given back and taken again under the
-- block's subtransaction, as PL/pgSQL takes it)
CREATE FUNCTION rg_locks() RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(relation::regclass::text || ' ' || mode, ', '
                               ORDER BY relation::regclass::text, mode), 'none')
      FROM pg_locks
     WHERE pid = pg_backend_pid() AND locktype = 'relation'
       AND relation::regclass::text LIKE 'rg%'
$$;
CREATE FUNCTION rg_count_or(t text, fail boolean) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    n := (SELECT count(*) FROM rg_t) + t::regclass::oid::int * 0;
    IF fail THEN
        n := 1 / 0;
    END IF;
    RETURN n;
EXCEPTION WHEN division_by_zero THEN
    RETURN -1;
END
$$;
BEGIN;
SELECT rg_regclass('rg_t') IS NOT NULL, rg_regclass('rg_nope'), rg_locks();
SELECT rg_count_or('rg_s.inner_t', false), rg_locks();
COMMIT;
BEGIN;
SELECT rg_count_or('rg_s.inner_t', true), rg_locks();
COMMIT;
BEGIN;
SELECT rg_priv('rg_s.inner_t', 'insert'), rg_priv('rg_nope', 'insert'), rg_locks();
COMMIT;

-- a literal of a type whose input function is not built in (citext's is
-- declared by the extension): the guard refuses it while parsing, and the
-- expression is planned under the block's subtransaction instead
CREATE EXTENSION citext;
CREATE FUNCTION rg_citext(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN t::citext = 'ABC'::citext;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
SELECT rg_citext('abc'), rg_citext('abd');
DROP EXTENSION citext CASCADE;

