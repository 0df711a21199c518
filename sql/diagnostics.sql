-- diagnostics: GET [CURRENT] DIAGNOSTICS and GET STACKED DIAGNOSTICS --
-- ROW_COUNT after INSERT, UPDATE, DELETE, SELECT INTO, PERFORM, EXECUTE,
-- FOR loops, assignments, CALL, DO and statements touching no rows; =
-- and :=; several items in one statement; conversion of the items into
-- targets of
-- other types (and the conversion errors); PG_CONTEXT through nested calls
-- and DO blocks; every GET STACKED DIAGNOSTICS item for unique, NOT NULL,
-- check and foreign key violations, domain errors, RAISE ... USING and a
-- division by zero in a nested function; nested handlers; and the errors:
-- GET STACKED outside a handler (run time), items not allowed in GET
-- CURRENT / GET STACKED and unknown items (compile time), targets that are
-- not assignable scalar variables.  Results that contain the language
-- name (PG_CONTEXT, PG_EXCEPTION_CONTEXT) are printed unaligned, so that
-- the column widths do not depend on the length of that name.

CREATE TABLE dg_t (id integer PRIMARY KEY, v text NOT NULL, n integer CHECK (n > 0));
CREATE TABLE dg_parent (id integer PRIMARY KEY);
CREATE TABLE dg_child (id integer PRIMARY KEY, pid integer REFERENCES dg_parent);
INSERT INTO dg_parent VALUES (1), (2);
INSERT INTO dg_child VALUES (10, 1);

-- ROW_COUNT: 0 at function start, then after INSERT, UPDATE, DELETE, with
-- both = and :=, and after statements that affect no rows
CREATE FUNCTION dg_rc_dml() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    acc text;
BEGIN
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'start=' || n;
    INSERT INTO dg_t SELECT g, 'v' || g, g FROM generate_series(1, 5) g;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' insert=' || n;
    UPDATE dg_t SET v = v || '!' WHERE id <= 3;
    GET DIAGNOSTICS n := ROW_COUNT;
    acc := acc || ' update=' || n;
    DELETE FROM dg_t WHERE id = 5;
    get diagnostics n = row_count;
    acc := acc || ' delete=' || n;
    UPDATE dg_t SET v = 'none' WHERE id > 100;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' update-none=' || n;
    INSERT INTO dg_t VALUES (1, 'a', 1), (50, 'b', 1) ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' insert-on-conflict=' || n;
    DELETE FROM dg_t WHERE false;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' delete-none=' || n;
    DELETE FROM dg_t WHERE id = 50 RETURNING id INTO n;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' delete-returning-into=' || n;
    UPDATE dg_t SET v = 'none' WHERE id > 100 RETURNING id INTO n;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' update-returning-none=' || n;
    RETURN acc;
END
$$;
SELECT dg_rc_dml();
SELECT * FROM dg_t ORDER BY id;

-- ROW_COUNT after SELECT INTO (non-strict stops after the first row),
-- SELECT INTO STRICT, an aggregate, and PERFORM (all rows are counted)
CREATE FUNCTION dg_rc_select() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n bigint;
    x integer;
    acc text;
BEGIN
    SELECT id INTO x FROM dg_t ORDER BY id;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'select-into-4-rows=' || n;
    SELECT id INTO x FROM dg_t WHERE id > 100;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' select-into-none=' || n;
    SELECT id INTO STRICT x FROM dg_t WHERE id = 2;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' select-into-strict=' || n;
    SELECT count(*) INTO x FROM dg_t;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' count=' || n;
    PERFORM id FROM dg_t;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' perform-4-rows=' || n;
    PERFORM 1 WHERE false;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' perform-none=' || n;
    PERFORM g FROM generate_series(1, 1000) g;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' perform-1000=' || n;
    RETURN acc;
END
$$;
SELECT dg_rc_select();

-- ROW_COUNT after EXECUTE: DML, a SELECT without INTO, a SELECT with INTO
-- (every row is counted), utility commands and CREATE TABLE AS
CREATE FUNCTION dg_rc_execute() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x integer;
    acc text;
BEGIN
    EXECUTE 'UPDATE dg_t SET n = n + 1';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'execute-update=' || n;
    EXECUTE 'SELECT id FROM dg_t';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-select=' || n;
    EXECUTE 'SELECT id FROM dg_t ORDER BY id' INTO x;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-select-into=' || n || ' (x=' || x || ')';
    EXECUTE 'SELECT id FROM dg_t WHERE id < 0' INTO x;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-select-into-none=' || n;
    EXECUTE 'CREATE TABLE dg_ctas AS SELECT g FROM generate_series(1, 6) g';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-ctas=' || n;
    EXECUTE 'DROP TABLE dg_ctas';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-drop=' || n;
    CREATE TABLE dg_ctas2 AS SELECT g FROM generate_series(1, 7) g;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' static-ctas=' || n;
    DROP TABLE dg_ctas2;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' static-drop=' || n;
    RETURN acc;
END
$$;
SELECT dg_rc_execute();

-- ROW_COUNT after loops: the loop's own query does not set it, the last
-- statement run in the body does
CREATE FUNCTION dg_rc_loops() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    cnt integer;
    r record;
    acc text;
BEGIN
    UPDATE dg_t SET n = n + 1 WHERE id <= 2;
    FOR r IN SELECT * FROM dg_t LOOP
        NULL;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := 'after-update-2-then-for-query=' || cnt;
    FOR r IN SELECT * FROM dg_t ORDER BY id LOOP
        UPDATE dg_t SET n = n + 1 WHERE id >= r.id;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := acc || ' for-query-body-update=' || cnt;
    PERFORM id FROM dg_t;
    FOR r IN SELECT * FROM dg_t WHERE id < 0 LOOP
        NULL;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := acc || ' perform-then-for-query-none=' || cnt;
    PERFORM g FROM generate_series(1, 7) g;
    FOR r IN EXECUTE 'SELECT * FROM dg_t WHERE id <= 3' LOOP
        NULL;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := acc || ' perform-7-then-for-execute=' || cnt;
    FOR i IN 1 .. 3 LOOP
        PERFORM g FROM generate_series(1, i) g;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := acc || ' for-int-body-perform=' || cnt;
    FOR r IN SELECT * FROM dg_t ORDER BY id LOOP
        PERFORM g FROM generate_series(1, 9) g;
        EXIT;
    END LOOP;
    GET DIAGNOSTICS cnt = ROW_COUNT;
    acc := acc || ' for-query-exit=' || cnt;
    RETURN acc;
END
$$;
SELECT dg_rc_loops();

-- ROW_COUNT after assignments and conditions: a simple expression leaves
-- it alone, an expression that runs a query sets it; statements inside a
-- called function do not change the caller's ROW_COUNT; GET DIAGNOSTICS
-- itself does not reset it
CREATE FUNCTION dg_rc_helper() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    PERFORM g FROM generate_series(1, 42) g;
    RETURN 7;
END
$$;
CREATE FUNCTION dg_rc_exprs() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x integer := 0;
    acc text;
BEGIN
    PERFORM g FROM generate_series(1, 3) g;
    x := x + 1;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'simple-assignment=' || n;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' again=' || n;
    x := dg_rc_helper();
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' call=' || n;
    PERFORM g FROM generate_series(1, 3) g;
    x := (SELECT count(*) FROM dg_t);
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' subquery-assignment=' || n;
    PERFORM g FROM generate_series(1, 3) g;
    x := max(id) FROM dg_t;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' from-assignment=' || n;
    PERFORM g FROM generate_series(1, 3) g;
    IF EXISTS (SELECT 1 FROM dg_t) THEN
        GET DIAGNOSTICS n = ROW_COUNT;
        acc := acc || ' if-exists=' || n;
    END IF;
    PERFORM g FROM generate_series(1, 3) g;
    IF x > 0 THEN
        GET DIAGNOSTICS n = ROW_COUNT;
        acc := acc || ' if-simple=' || n;
    END IF;
    RETURN acc;
END
$$;
SELECT dg_rc_exprs();

-- ROW_COUNT after CALL and DO: they leave it as it was (a CALL with
-- output arguments returns one row of them, which does not count), also
-- when the procedure itself runs SQL; EXECUTE of a CALL does set it
CREATE PROCEDURE dg_rc_proc(INOUT x integer) LANGUAGE plnimble AS $$
BEGIN
    PERFORM g FROM generate_series(1, 42) g;
    x := x + 1;
END
$$;
CREATE PROCEDURE dg_rc_proc_noout() LANGUAGE plnimble AS $$
BEGIN
    PERFORM g FROM generate_series(1, 42) g;
END
$$;
CREATE FUNCTION dg_rc_call() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x integer := 1;
    acc text;
BEGIN
    PERFORM g FROM generate_series(1, 3) g;
    CALL dg_rc_proc(x);
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'call-out=' || n;
    PERFORM g FROM generate_series(1, 5) g;
    CALL dg_rc_proc_noout();
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' call=' || n;
    PERFORM g FROM generate_series(1, 4) g;
    DO 'BEGIN PERFORM g FROM generate_series(1, 9) g; END';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' do=' || n;
    EXECUTE 'CALL dg_rc_proc(1)';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' execute-call=' || n;
    RETURN acc || ' x=' || x;
END
$$;
SELECT dg_rc_call();

-- ROW_COUNT inside an exception handler: the last count before the error
CREATE FUNCTION dg_rc_handler() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    cnt integer;
    z integer := 0;
BEGIN
    BEGIN
        UPDATE dg_t SET n = n + 1;
        PERFORM 1 / z;
    EXCEPTION WHEN division_by_zero THEN
        GET DIAGNOSTICS cnt = ROW_COUNT;
        RETURN 'in handler=' || cnt;
    END;
END
$$;
SELECT dg_rc_handler();

-- several items in one statement, the same target twice (the last wins),
-- GET CURRENT DIAGNOSTICS, variables named like the items
CREATE FUNCTION dg_multi() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer;
    b text;
    row_count integer;
    pg_context text;
    ctx text;
BEGIN
    PERFORM g FROM generate_series(1, 4) g;
    GET DIAGNOSTICS a = ROW_COUNT, ctx := PG_CONTEXT, b = ROW_COUNT;
    GET CURRENT DIAGNOSTICS row_count = ROW_COUNT, pg_context = PG_CONTEXT;
    GET DIAGNOSTICS b = PG_CONTEXT, b = ROW_COUNT;
    RETURN format('a=%s b=%s row_count=%s ctx=[%s] pg_context=[%s]',
                  a, b, row_count, ctx, pg_context);
END
$$;
\pset format unaligned
SELECT dg_multi();
\pset format aligned

-- the target may be a parameter or a field of a composite variable
CREATE TYPE dg_pair AS (cnt bigint, note text);
CREATE FUNCTION dg_targets(p integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    c dg_pair;
BEGIN
    PERFORM g FROM generate_series(1, 5) g;
    GET DIAGNOSTICS p = ROW_COUNT, c.cnt = ROW_COUNT, c.note = ROW_COUNT;
    RETURN format('p=%s c=%s', p, c);
END
$$;
SELECT dg_targets(100);

-- ROW_COUNT (a bigint) converted into targets of other types
CREATE FUNCTION dg_conv(k integer, kind text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_int integer;
    v_big bigint;
    v_small smallint;
    v_num numeric;
    v_num52 numeric(5, 2);
    v_float double precision;
    v_text text;
    v_vc1 varchar(1);
    v_char3 char(3);
    v_bool boolean;
    v_date date;
BEGIN
    PERFORM g FROM generate_series(1, k) g;
    CASE kind
        WHEN 'int' THEN GET DIAGNOSTICS v_int = ROW_COUNT; RETURN v_int::text;
        WHEN 'bigint' THEN GET DIAGNOSTICS v_big = ROW_COUNT; RETURN v_big::text;
        WHEN 'smallint' THEN GET DIAGNOSTICS v_small = ROW_COUNT; RETURN v_small::text;
        WHEN 'numeric' THEN GET DIAGNOSTICS v_num = ROW_COUNT; RETURN v_num::text;
        WHEN 'numeric(5,2)' THEN GET DIAGNOSTICS v_num52 = ROW_COUNT; RETURN v_num52::text;
        WHEN 'float8' THEN GET DIAGNOSTICS v_float = ROW_COUNT; RETURN v_float::text;
        WHEN 'text' THEN GET DIAGNOSTICS v_text = ROW_COUNT; RETURN v_text;
        WHEN 'varchar(1)' THEN GET DIAGNOSTICS v_vc1 = ROW_COUNT; RETURN v_vc1;
        WHEN 'char(3)' THEN GET DIAGNOSTICS v_char3 = ROW_COUNT; RETURN '[' || v_char3::text || '] len ' || octet_length(v_char3);
        WHEN 'boolean' THEN GET DIAGNOSTICS v_bool = ROW_COUNT; RETURN v_bool::text;
        WHEN 'date' THEN GET DIAGNOSTICS v_date = ROW_COUNT; RETURN v_date::text;
    END CASE;
END
$$;
SELECT kind, dg_conv(3, kind) AS three, dg_conv(0, kind) AS zero
FROM (VALUES ('int'), ('bigint'), ('smallint'), ('numeric'), ('numeric(5,2)'),
             ('float8'), ('text'), ('varchar(1)'), ('char(3)')) v(kind);
SELECT dg_conv(1, 'boolean') AS one, dg_conv(0, 'boolean') AS zero;

-- conversion errors: too big for smallint, numeric(5,2) or varchar(1),
-- not valid boolean or date input
SELECT dg_conv(40000, 'smallint');
SELECT dg_conv(1000, 'numeric(5,2)');
SELECT dg_conv(10, 'varchar(1)');
SELECT dg_conv(2, 'boolean');
SELECT dg_conv(3, 'date');

-- PG_CONTEXT converted: into an integer (error), into a short varchar
-- (error), into a longer varchar
CREATE FUNCTION dg_ctx_conv(kind text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_int integer;
    v_vc10 varchar(10);
    v_vc200 varchar(200);
BEGIN
    CASE kind
        WHEN 'int' THEN GET DIAGNOSTICS v_int = PG_CONTEXT; RETURN v_int;
        WHEN 'varchar(10)' THEN GET DIAGNOSTICS v_vc10 = PG_CONTEXT; RETURN v_vc10;
        ELSE GET DIAGNOSTICS v_vc200 = PG_CONTEXT; RETURN v_vc200;
    END CASE;
END
$$;
SELECT dg_ctx_conv('int');
SELECT dg_ctx_conv('varchar(10)');
\pset format unaligned
SELECT dg_ctx_conv('varchar(200)');
\pset format aligned

-- PG_CONTEXT through nested calls: a calls b (SELECT INTO) calls c, which
-- returns its PG_CONTEXT
CREATE FUNCTION dg_ctx_c() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    ctx text;
BEGIN
    GET DIAGNOSTICS ctx = PG_CONTEXT;
    RETURN ctx;
END
$$;
CREATE FUNCTION dg_ctx_b() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text;
BEGIN
    SELECT dg_ctx_c() INTO r;
    RETURN r;
END
$$;
CREATE FUNCTION dg_ctx_a() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN dg_ctx_b();
END
$$;
\pset format unaligned
SELECT dg_ctx_c();
SELECT dg_ctx_a();
SELECT id, dg_ctx_a() FROM dg_t WHERE id <= 2 ORDER BY id;
\pset format aligned

-- PG_CONTEXT from a DO block, directly and through nested calls
DO LANGUAGE plnimble $$
DECLARE
    ctx text;
BEGIN
    GET DIAGNOSTICS ctx = PG_CONTEXT;
    RAISE NOTICE 'do block: %', ctx;
    RAISE NOTICE 'through a: %', dg_ctx_a();
END
$$;

-- PG_CONTEXT as seen from each kind of calling statement
CREATE FUNCTION dg_ctx_note(label text) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    ctx text;
BEGIN
    GET DIAGNOSTICS ctx = PG_CONTEXT;
    RAISE NOTICE '%: %', label, ctx;
    RETURN 1;
END
$$;
CREATE FUNCTION dg_ctx_callers() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    x integer;
    r record;
BEGIN
    x := dg_ctx_note('simple assignment');
    x := (SELECT dg_ctx_note('subquery assignment'));
    PERFORM dg_ctx_note('perform');
    IF dg_ctx_note('if') = 1 THEN
        NULL;
    END IF;
    FOR r IN SELECT dg_ctx_note('for query') AS v LOOP
        NULL;
    END LOOP;
    FOR i IN 1 .. dg_ctx_note('for integer bound') LOOP
        NULL;
    END LOOP;
    RAISE NOTICE 'raise argument %', dg_ctx_note('raise');
    BEGIN
        RAISE EXCEPTION 'boom';
    EXCEPTION WHEN OTHERS THEN
        x := dg_ctx_note('in handler');
    END;
    EXECUTE 'SELECT dg_ctx_note($1)' USING 'execute';
END
$$;
SELECT dg_ctx_callers();

-- GET STACKED DIAGNOSTICS: every item, for errors that fill different
-- fields (items that were not set are empty strings, not NULL)
CREATE TABLE dg_u (id integer PRIMARY KEY, v text NOT NULL, n integer CONSTRAINT dg_u_n_positive CHECK (n > 0));
INSERT INTO dg_u VALUES (1, 'one', 1);
CREATE DOMAIN dg_pos AS integer CONSTRAINT dg_pos_check CHECK (VALUE > 0);
CREATE DOMAIN dg_nn AS text NOT NULL;
CREATE TABLE dg_dom (p dg_pos, t dg_nn);
CREATE FUNCTION dg_stacked(what text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_state text;
    v_msg text;
    v_detail text;
    v_hint text;
    v_ctx text;
    v_col text;
    v_con text;
    v_type text;
    v_tab text;
    v_sch text;
    i integer;
    t text := 'abc';
BEGIN
    CASE what
        WHEN 'unique' THEN
            INSERT INTO dg_u VALUES (1, 'dup', 1);
        WHEN 'not null' THEN
            INSERT INTO dg_u VALUES (2, NULL, 1);
        WHEN 'check' THEN
            UPDATE dg_u SET n = -1 WHERE id = 1;
        WHEN 'foreign key insert' THEN
            INSERT INTO dg_child VALUES (11, 9);
        WHEN 'foreign key delete' THEN
            DELETE FROM dg_parent WHERE id = 1;
        WHEN 'domain check' THEN
            INSERT INTO dg_dom VALUES (-5, 'x');
        WHEN 'domain not null' THEN
            INSERT INTO dg_dom VALUES (5, NULL);
        WHEN 'raise all' THEN
            RAISE EXCEPTION 'custom error %', 42 USING
                ERRCODE = 'P1234', DETAIL = 'the detail', HINT = 'the hint',
                COLUMN = 'the_column', CONSTRAINT = 'the_constraint',
                DATATYPE = 'the_type', TABLE = 'the_table', SCHEMA = 'the_schema';
        WHEN 'raise plain' THEN
            RAISE EXCEPTION 'plain error';
        WHEN 'raise condition' THEN
            RAISE invalid_parameter_value;
        WHEN 'raise errcode name' THEN
            RAISE 'named errcode' USING ERRCODE = 'unique_violation', TABLE = 'dg_u';
        WHEN 'cast' THEN
            i := t;
        WHEN 'undefined table' THEN
            PERFORM * FROM dg_no_such_table;
        WHEN 'undefined function' THEN
            PERFORM dg_no_such_function(1);
        ELSE
            RETURN 'no error';
    END CASE;
    RETURN 'not reached';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS
        v_state = RETURNED_SQLSTATE,
        v_msg = MESSAGE_TEXT,
        v_detail = PG_EXCEPTION_DETAIL,
        v_hint = PG_EXCEPTION_HINT,
        v_ctx = PG_EXCEPTION_CONTEXT,
        v_col = COLUMN_NAME,
        v_con = CONSTRAINT_NAME,
        v_type = PG_DATATYPE_NAME,
        v_tab = TABLE_NAME,
        v_sch = SCHEMA_NAME;
    RETURN format(E'sqlstate   %L\nmessage    %L\ndetail     %L\nhint       %L\ncolumn     %L\nconstraint %L\ndatatype   %L\ntable      %L\nschema     %L\ncontext    %L',
                  v_state, v_msg, v_detail, v_hint, v_col, v_con, v_type, v_tab, v_sch, v_ctx);
END
$$;

-- a unique violation
\pset format unaligned
SELECT dg_stacked('unique');

-- a NOT NULL violation
SELECT dg_stacked('not null');

-- a check constraint violation
SELECT dg_stacked('check');

-- foreign key violations, on the referencing and on the referenced side
SELECT dg_stacked('foreign key insert');
SELECT dg_stacked('foreign key delete');

-- domain errors set the data type name
SELECT dg_stacked('domain check');
SELECT dg_stacked('domain not null');

-- RAISE with every USING option
SELECT dg_stacked('raise all');

-- RAISE with only a message, RAISE of a condition name, ERRCODE by name
SELECT dg_stacked('raise plain');
SELECT dg_stacked('raise condition');
SELECT dg_stacked('raise errcode name');

-- an invalid cast in an assignment, an unknown table, an unknown function
SELECT dg_stacked('cast');
SELECT dg_stacked('undefined table');
SELECT dg_stacked('undefined function');
\pset format aligned

-- nothing was written by the failed statements
SELECT * FROM dg_u ORDER BY id;
SELECT * FROM dg_child ORDER BY id;
SELECT count(*) FROM dg_dom;

-- PG_EXCEPTION_CONTEXT of a division by zero three calls deep, next to
-- the PG_CONTEXT of the handler itself
CREATE FUNCTION dg_div_c(x integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 10 / x;
END
$$;
CREATE FUNCTION dg_div_b(x integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    r integer;
BEGIN
    SELECT dg_div_c(x) INTO r;
    RETURN r;
END
$$;
CREATE FUNCTION dg_div_a(x integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    ctx text;
    here text;
    msg text;
    st text;
BEGIN
    RETURN 'result ' || dg_div_b(x);
EXCEPTION WHEN division_by_zero THEN
    GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT, msg = MESSAGE_TEXT,
                            st = RETURNED_SQLSTATE;
    GET STACKED DIAGNOSTICS here = PG_CONTEXT;
    RETURN format(E'%s: %s\nexception context:\n%s\nhandler context:\n%s', st, msg, ctx, here);
END
$$;
\pset format unaligned
SELECT dg_div_a(5);
SELECT dg_div_a(0);
\pset format aligned

-- the same, with the outermost call in a DO block
DO LANGUAGE plnimble $$
DECLARE
    ctx text;
BEGIN
    PERFORM dg_div_b(0);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
    RAISE NOTICE E'caught in DO block:\n%', ctx;
END
$$;

-- nested handlers: an inner handler sees its own error, and after it the
-- outer handler sees the outer error again; a block inside the handler
-- without an error of its own still sees the outer error
CREATE FUNCTION dg_nested() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    acc text;
    m text;
    s text;
    d text;
    z integer := 0;
BEGIN
    RAISE EXCEPTION 'outer error' USING ERRCODE = 'P0011', DETAIL = 'outer detail';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
    acc := format('outer: %s %s [%s]', s, m, d);
    BEGIN
        PERFORM 10 / z;
    EXCEPTION WHEN division_by_zero THEN
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
        acc := acc || format(E'\ninner: %s %s [%s]', s, m, d);
        BEGIN
            RAISE 'innermost' USING DETAIL = 'innermost detail';
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
            acc := acc || format(E'\ninnermost: %s %s [%s]', s, m, d);
        END;
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, s = RETURNED_SQLSTATE;
        acc := acc || format(E'\ninner again: %s %s (SQLERRM %s)', s, m, SQLERRM);
    END;
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, s = RETURNED_SQLSTATE, d = PG_EXCEPTION_DETAIL;
    acc := acc || format(E'\nouter again: %s %s [%s] (SQLERRM %s)', s, m, d, SQLERRM);
    BEGIN
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
        acc := acc || E'\nblock without handler: ' || m;
    END;
    BEGIN
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
        acc := acc || E'\nblock with an unused handler: ' || m;
    EXCEPTION WHEN OTHERS THEN
        acc := acc || E'\nnot reached';
    END;
    RETURN acc;
END
$$;
SELECT dg_nested();

-- GET STACKED DIAGNOSTICS outside a handler: accepted when the function is
-- created, an error when it runs
CREATE FUNCTION dg_stacked_outside() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    m text;
BEGIN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
    RETURN m;
END
$$;
SELECT dg_stacked_outside();

-- the error can be caught by its condition name
CREATE FUNCTION dg_stacked_outside_caught() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    m text;
BEGIN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
    RETURN m;
EXCEPTION WHEN stacked_diagnostics_accessed_without_active_handler THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
    RETURN SQLSTATE || ': ' || m;
END
$$;
SELECT dg_stacked_outside_caught();

-- a function called from a handler is not itself inside a handler
CREATE FUNCTION dg_stacked_caller() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RAISE EXCEPTION 'caller error';
EXCEPTION WHEN OTHERS THEN
    RETURN dg_stacked_outside();
END
$$;
SELECT dg_stacked_caller();

-- the same in a DO block, and after the handler has finished
DO LANGUAGE plnimble $$
DECLARE
    m text;
BEGIN
    BEGIN
        RAISE EXCEPTION 'handled';
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
        RAISE NOTICE 'in handler: %', m;
    END;
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
    RAISE NOTICE 'not reached: %', m;
END
$$;

-- compile-time error: ROW_COUNT is not allowed in GET STACKED DIAGNOSTICS
CREATE FUNCTION dg_bad_stacked_item() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS n = ROW_COUNT;
END
$$;

-- compile-time errors: the STACKED-only items in GET [CURRENT]
-- DIAGNOSTICS, even inside a handler and after an allowed item
CREATE FUNCTION dg_bad_current_item() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
BEGIN
    GET DIAGNOSTICS t = MESSAGE_TEXT;
END
$$;
CREATE FUNCTION dg_bad_current_item2() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
BEGIN
    NULL;
EXCEPTION WHEN OTHERS THEN
    GET CURRENT DIAGNOSTICS t = PG_EXCEPTION_CONTEXT;
END
$$;
CREATE FUNCTION dg_bad_current_item3() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
    t text;
BEGIN
    GET DIAGNOSTICS n = ROW_COUNT,
                    t = RETURNED_SQLSTATE;
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    t text;
BEGIN
    GET DIAGNOSTICS t = PG_DATATYPE_NAME;
END
$$;

-- compile-time errors: unknown items (PG_ROUTINE_OID is only in later
-- versions, RESULT_OID was removed)
CREATE FUNCTION dg_bad_item1() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET DIAGNOSTICS n = ROW_COUNTS;
END
$$;
CREATE FUNCTION dg_bad_item2() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET DIAGNOSTICS n = PG_ROUTINE_OID;
END
$$;
CREATE FUNCTION dg_bad_item3() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET DIAGNOSTICS n = RESULT_OID;
END
$$;
CREATE FUNCTION dg_bad_item4() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    t text;
BEGIN
    NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS t = SQLERRM;
END
$$;

-- compile-time errors: syntax (missing =, no items, missing DIAGNOSTICS)
CREATE FUNCTION dg_bad_syntax1() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET DIAGNOSTICS n ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_syntax2() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    GET DIAGNOSTICS;
END
$$;
CREATE FUNCTION dg_bad_syntax3() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET STACKED n = ROW_COUNT;
END
$$;

-- compile-time errors: the target is a CONSTANT, an unknown name, a
-- qualified unknown name, a record, a composite variable, an array element
CREATE FUNCTION dg_bad_target1() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c CONSTANT integer := 0;
BEGIN
    GET DIAGNOSTICS c = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target2() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    GET DIAGNOSTICS nosuch = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target3() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    GET DIAGNOSTICS nosuch.field = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target4() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    GET DIAGNOSTICS r = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target5() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    c dg_pair;
BEGIN
    GET DIAGNOSTICS c = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target6() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    a integer[] := '{1,2}';
BEGIN
    GET DIAGNOSTICS a[1] = ROW_COUNT;
END
$$;
CREATE FUNCTION dg_bad_target7() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    GET DIAGNOSTICS 1 = ROW_COUNT;
END
$$;

-- none of the failed definitions exist
SELECT proname FROM pg_proc WHERE proname LIKE 'dg\_bad%' ORDER BY 1;
