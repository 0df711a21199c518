-- dynamic_sql: EXECUTE and FOR ... IN EXECUTE -- utility commands built
-- with format() and quote_ident(); INSERT/UPDATE/DELETE with USING
-- parameters of different types (NULL and untyped literals included);
-- INTO a scalar, several scalars, a record and a composite variable;
-- INTO STRICT with 0 and 2 rows, non-strict INTO with 0 and 2 rows; FOUND
-- (unchanged by EXECUTE) and ROW_COUNT (changed); print_strict_params in
-- the function and as a setting; extra_errors / extra_warnings
-- too_many_rows; RETURNING INTO; quote_ident, quote_literal,
-- quote_nullable and format() with %I %L %s; dynamic table names in a
-- loop; FOR ... IN EXECUTE ... USING with record and scalar targets, EXIT,
-- CONTINUE and FOUND; several statements in one string; and the errors: a
-- NULL query string, SELECT ... INTO, syntax errors, INTO with a command
-- that returns no data, a failing USING expression, a failing statement
-- inside an exception block (rolled back), missing parameters, variables
-- that dynamic SQL cannot see, COPY and transaction commands.

CREATE TABLE dx_items (id integer PRIMARY KEY, name text, price numeric, added date);
INSERT INTO dx_items VALUES
    (1, 'apple', 1.50, '2024-01-01'),
    (2, 'banana', 0.25, '2024-01-02'),
    (3, 'cherry', 3.00, '2024-01-03');
CREATE TYPE dx_pair AS (id integer, name text);

-- utility commands built with format('%I') and quote_ident(), including a
-- name that needs quoting
CREATE FUNCTION dx_ddl(tname text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    EXECUTE format('CREATE TABLE %I (k integer, note text)', tname);
    EXECUTE 'INSERT INTO ' || quote_ident(tname) || ' VALUES (1, ''one''), (2, ''two'')';
    EXECUTE format('SELECT count(*) FROM %I', tname) INTO n;
    EXECUTE format('DROP TABLE %I', tname);
    RETURN format('%s: %s rows, quoted as %s', tname, n, quote_ident(tname));
END
$$;
SELECT dx_ddl('dx_plain');
SELECT dx_ddl('Dx Mixed Case');
SELECT count(*) FROM pg_class WHERE relname IN ('dx_plain', 'Dx Mixed Case');

-- INSERT, UPDATE and DELETE with USING parameters of different types,
-- NULL parameters, ROW_COUNT after each
CREATE FUNCTION dx_dml() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    acc text;
    v_name text := 'date';
    v_price numeric := 2.75;
    v_added date := '2024-02-01';
    v_null text;
BEGIN
    EXECUTE 'INSERT INTO dx_items VALUES ($1, $2, $3, $4)' USING 4, v_name, v_price, v_added;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := 'insert=' || n;
    EXECUTE 'INSERT INTO dx_items VALUES ($1, $2, $3, $4)' USING 5, v_null, NULL::numeric, NULL::date;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' insert-nulls=' || n;
    EXECUTE 'UPDATE dx_items SET price = price * $1 WHERE added >= $2' USING 2, date '2024-01-02';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' update=' || n;
    EXECUTE 'UPDATE dx_items SET name = $1 WHERE name IS NULL' USING 'elderberry';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' update-from-null=' || n;
    EXECUTE 'DELETE FROM dx_items WHERE id = $1 OR name = $2' USING 99, v_null;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || ' delete-none=' || n;
    RETURN acc;
END
$$;
SELECT dx_dml();
SELECT * FROM dx_items ORDER BY id;

-- the types of USING parameters: untyped literals and NULL become text
CREATE FUNCTION dx_param_types() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_vc varchar(10) := 'vc';
    v_small smallint := 1;
    v_pair dx_pair := ROW(7, 'seven');
    r text;
BEGIN
    EXECUTE 'SELECT concat_ws('' '', pg_typeof($1), pg_typeof($2), pg_typeof($3), pg_typeof($4),
                               pg_typeof($5), pg_typeof($6), pg_typeof($7), pg_typeof($8),
                               $1 IS NULL, ($8).name)'
        INTO r
        USING NULL, 'lit', 1, 1.5, v_vc, v_small, true, v_pair;
    RETURN r;
END
$$;
SELECT dx_param_types();

-- an untyped NULL parameter is text, so it cannot go into a numeric column
CREATE FUNCTION dx_untyped_null() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'INSERT INTO dx_items (id, price) VALUES ($1, $2)' USING 6, NULL;
END
$$;
SELECT dx_untyped_null();

-- a text parameter where a number is needed
CREATE FUNCTION dx_param_mismatch() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    EXECUTE 'SELECT $1 + 1' INTO x USING '5';
    RETURN x;
END
$$;
SELECT dx_param_mismatch();

-- INTO a scalar, several scalars (extra columns are ignored, missing ones
-- give NULL), a record and a composite variable
CREATE FUNCTION dx_into() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_name text;
    v_id integer;
    v_price numeric;
    r record;
    p dx_pair;
    acc text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items WHERE id = $1' INTO v_name USING 2;
    acc := 'scalar=' || v_name;
    EXECUTE 'SELECT id, name, price FROM dx_items WHERE id = $1' INTO v_id, v_name, v_price USING 3;
    acc := acc || format(' scalars=%s/%s/%s', v_id, v_name, v_price);
    EXECUTE 'SELECT id, name, price FROM dx_items WHERE id = 1' INTO v_id, v_name;
    acc := acc || format(' fewer-targets=%s/%s', v_id, v_name);
    EXECUTE 'SELECT 42' INTO v_id, v_name;
    acc := acc || format(' more-targets=%s/%s', v_id, coalesce(v_name, 'NULL'));
    EXECUTE 'SELECT * FROM dx_items WHERE id = $1' INTO r USING 4;
    acc := acc || format(' record=%s (%s, %s)', r, r.name, r.price);
    EXECUTE 'SELECT id, name FROM dx_items WHERE id = $1' INTO p USING 1;
    acc := acc || format(' composite=%s', p);
    EXECUTE 'SELECT 9 AS x, ''nine'' AS y' INTO p;
    acc := acc || format(' composite-by-position=%s', p);
    RETURN acc;
END
$$;
SELECT dx_into();

-- non-strict INTO: 0 rows give NULLs (a record gets a row of NULLs), 2
-- rows give the first row
CREATE FUNCTION dx_into_nonstrict() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_id integer := -1;
    v_name text := 'unchanged';
    r record;
    acc text;
BEGIN
    EXECUTE 'SELECT id, name FROM dx_items WHERE id > $1' INTO v_id, v_name USING 100;
    acc := format('none=%s/%s', coalesce(v_id::text, 'NULL'), coalesce(v_name, 'NULL'));
    EXECUTE 'SELECT id, name FROM dx_items WHERE id > $1' INTO r USING 100;
    acc := acc || format(' record-none=%s is-null=%s name-is-null=%s', r, r IS NULL, r.name IS NULL);
    EXECUTE 'SELECT id, name FROM dx_items WHERE id >= $1 ORDER BY id DESC' INTO v_id, v_name USING 2;
    acc := acc || format(' many=%s/%s', v_id, v_name);
    RETURN acc;
END
$$;
SELECT dx_into_nonstrict();

-- INTO STRICT: exactly one row is fine, 0 rows and 2 rows are errors
CREATE FUNCTION dx_strict(lo integer, hi integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_name text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items WHERE id BETWEEN $1 AND $2 ORDER BY id'
        INTO STRICT v_name USING lo, hi;
    RETURN v_name;
END
$$;
SELECT dx_strict(2, 2);
SELECT dx_strict(50, 60);
SELECT dx_strict(1, 2);

-- STRICT errors can be caught as no_data_found / too_many_rows
CREATE FUNCTION dx_strict_caught(lo integer, hi integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_name text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items WHERE id BETWEEN $1 AND $2' INTO STRICT v_name USING lo, hi;
    RETURN v_name;
EXCEPTION
    WHEN no_data_found THEN
        RETURN 'no_data_found: ' || SQLERRM;
    WHEN too_many_rows THEN
        RETURN 'too_many_rows: ' || SQLERRM;
END
$$;
SELECT dx_strict_caught(3, 3), dx_strict_caught(70, 80), dx_strict_caught(1, 5);

-- #print_strict_params on: the DETAIL lists the USING parameters (NULLs
-- and quotes included); without USING there is nothing to list
CREATE FUNCTION dx_strict_params(k integer, t text) RETURNS text LANGUAGE plnimble AS $$
#print_strict_params on
DECLARE
    v_name text;
BEGIN
    IF t = 'no params' THEN
        EXECUTE 'SELECT name FROM dx_items WHERE id > 100' INTO STRICT v_name;
    END IF;
    EXECUTE 'SELECT name FROM dx_items WHERE id > $1 OR name = $2' INTO STRICT v_name USING k, t;
    RETURN v_name;
END
$$;
SELECT dx_strict_params(4, 'none');
SELECT dx_strict_params(100, 'O''Brien');
SELECT dx_strict_params(100, NULL);
SELECT dx_strict_params(3, 'x');
SELECT dx_strict_params(0, 'no params');

-- the same through the print_strict_params setting, which is read when
-- the function is compiled
SET plnimble.print_strict_params = on;
CREATE FUNCTION dx_strict_guc(lo integer, hi date) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_name text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items WHERE id >= $1 AND added <= $2' INTO STRICT v_name USING lo, hi;
    RETURN v_name;
END
$$;
SELECT dx_strict_guc(1, '2024-01-03');
SELECT dx_strict_guc(3, '2024-01-01');
RESET plnimble.print_strict_params;
SELECT dx_strict_guc(1, '2024-01-03');

-- extra_warnings / extra_errors = too_many_rows: checked for a static
-- SELECT INTO, not for EXECUTE ... INTO
SET plnimble.extra_warnings = 'too_many_rows';
CREATE FUNCTION dx_too_many_w() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_dyn text;
    v_static text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items ORDER BY id' INTO v_dyn;
    SELECT name INTO v_static FROM dx_items ORDER BY id;
    RETURN v_dyn || ' ' || v_static;
END
$$;
SELECT dx_too_many_w();
RESET plnimble.extra_warnings;
SET plnimble.extra_errors = 'too_many_rows';
CREATE FUNCTION dx_too_many_e() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_dyn text;
    v_static text;
BEGIN
    EXECUTE 'SELECT name FROM dx_items ORDER BY id' INTO v_dyn;
    RAISE NOTICE 'EXECUTE INTO gave %', v_dyn;
    SELECT name INTO v_static FROM dx_items ORDER BY id;
    RETURN v_dyn || ' ' || v_static;
END
$$;
SELECT dx_too_many_e();
RESET plnimble.extra_errors;

-- FOUND is not changed by EXECUTE (with or without INTO), ROW_COUNT is
CREATE FUNCTION dx_found() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    v_name text;
    acc text;
BEGIN
    PERFORM 1 WHERE false;
    EXECUTE 'SELECT name FROM dx_items WHERE id = 1' INTO v_name;
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := format('after false PERFORM, EXECUTE 1 row: found=%s row_count=%s', FOUND, n);
    PERFORM 1;
    EXECUTE 'UPDATE dx_items SET price = price WHERE id < 0';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || format(E'\nafter true PERFORM, EXECUTE 0 rows: found=%s row_count=%s', FOUND, n);
    PERFORM 1 WHERE false;
    EXECUTE 'SELECT name FROM dx_items WHERE id < 0' INTO v_name;
    acc := acc || format(E'\nEXECUTE INTO 0 rows after false PERFORM: found=%s', FOUND);
    PERFORM 1;
    EXECUTE 'SELECT name FROM dx_items WHERE id < 0' INTO v_name;
    acc := acc || format(E'\nEXECUTE INTO 0 rows after true PERFORM: found=%s', FOUND);
    RETURN acc;
END
$$;
SELECT dx_found();

-- RETURNING INTO: one row, STRICT, several rows without STRICT (no
-- error, unlike a static UPDATE ... RETURNING INTO), no rows
CREATE TABLE dx_seq (id serial PRIMARY KEY, note text);
CREATE FUNCTION dx_returning() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_id integer;
    v_note text;
    n integer;
    acc text;
BEGIN
    EXECUTE 'INSERT INTO dx_seq (note) VALUES ($1) RETURNING id' INTO v_id USING 'first';
    acc := 'inserted id=' || v_id;
    BEGIN
        EXECUTE 'INSERT INTO dx_seq (note) VALUES ($1), ($2) RETURNING id, note'
            INTO STRICT v_id, v_note USING 'a', 'b';
        acc := acc || ' not reached';
    EXCEPTION WHEN too_many_rows THEN
        acc := acc || E'\nstrict-two-rows: ' || SQLERRM;
    END;
    EXECUTE 'INSERT INTO dx_seq (note) VALUES ($1), ($2) RETURNING id' INTO v_id USING 'c', 'd';
    GET DIAGNOSTICS n = ROW_COUNT;
    acc := acc || format(E'\nnon-strict-two-rows: row_count=%s id-is-4-or-5=%s', n, v_id IN (4, 5));
    EXECUTE 'UPDATE dx_seq SET note = upper(note) WHERE id > $1 RETURNING note' INTO v_note USING 100;
    acc := acc || format(E'\nupdate-none=%s', coalesce(v_note, 'NULL'));
    EXECUTE 'DELETE FROM dx_seq WHERE id = $1 RETURNING note' INTO STRICT v_note USING 1;
    acc := acc || E'\ndeleted=' || v_note;
    RETURN acc;
END
$$;
SELECT dx_returning();
SELECT * FROM dx_seq ORDER BY id;

-- the static UPDATE ... RETURNING INTO over two rows, for comparison
CREATE FUNCTION dx_static_returning() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_note text;
BEGIN
    UPDATE dx_seq SET note = note RETURNING note INTO v_note;
    RETURN v_note;
END
$$;
SELECT dx_static_returning();

-- quote_ident, quote_literal, quote_nullable and format() with NULLs,
-- quotes and mixed case
SELECT quote_ident('plain'), quote_ident('Mixed'), quote_ident('with "quote"'),
       quote_ident('select'), quote_ident(NULL) IS NULL AS ident_null;
SELECT quote_literal('it''s'), quote_literal(E'back\\slash'), quote_literal(42),
       quote_literal(NULL) IS NULL AS literal_null, quote_nullable(NULL), quote_nullable('x');
SELECT format('%I|%L|%s', 'Col', 'O''Brien', 'raw'), format('%L|%s|', NULL, NULL);
SELECT format('%I', NULL);

-- building statements with the quoting functions; a NULL spliced in with
-- || or quote_literal makes the whole string NULL, quote_nullable does not
CREATE FUNCTION dx_quoting(col text, val text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    EXECUTE format('SELECT count(*) FROM dx_items WHERE %I = %L', col, val) INTO n;
    RETURN format('format: %s', n);
END
$$;
CREATE FUNCTION dx_quoting2(col text, val text, how text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    q text;
BEGIN
    IF how = 'nullable' THEN
        q := 'SELECT count(*) FROM dx_items WHERE ' || quote_ident(col) || ' IS NOT DISTINCT FROM ' || quote_nullable(val);
    ELSE
        q := 'SELECT count(*) FROM dx_items WHERE ' || quote_ident(col) || ' = ' || quote_literal(val);
    END IF;
    EXECUTE q INTO n;
    RETURN format('%s: %s', q, n);
END
$$;
SELECT dx_quoting('name', 'banana'), dx_quoting('name', NULL);
SELECT dx_quoting2('name', 'cherry', 'literal');
SELECT dx_quoting2('name', NULL, 'nullable');
SELECT dx_quoting2('name', NULL, 'literal');
SELECT dx_quoting('no such column', 'x');

-- dynamic table names in a loop
CREATE FUNCTION dx_tables() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    acc text := '';
    tname text;
BEGIN
    FOR i IN 1 .. 3 LOOP
        tname := 'dx_part_' || i;
        EXECUTE format('CREATE TABLE %I (v integer)', tname);
        EXECUTE format('INSERT INTO %I SELECT g FROM generate_series(1, $1) g', tname) USING i * 10;
    END LOOP;
    FOR i IN 1 .. 3 LOOP
        EXECUTE format('SELECT sum(v) FROM %I', 'dx_part_' || i) INTO n;
        acc := acc || format('dx_part_%s sum=%s; ', i, n);
        EXECUTE format('DROP TABLE %I', 'dx_part_' || i);
    END LOOP;
    RETURN acc;
END
$$;
SELECT dx_tables();
SELECT count(*) FROM pg_class WHERE relname LIKE 'dx\_part\_%';

-- one record variable takes a different shape on each EXECUTE ... INTO
CREATE FUNCTION dx_record_shapes() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
    acc text;
BEGIN
    EXECUTE 'SELECT 1 AS a' INTO r;
    acc := format('%s a=%s', r, r.a);
    EXECUTE 'SELECT ''x''::text AS b, 2.5 AS c' INTO r;
    acc := acc || format(' | %s b=%s c=%s', r, r.b, r.c);
    EXECUTE 'SELECT * FROM dx_items WHERE id = $1' INTO r USING 2;
    acc := acc || format(' | %s name=%s', r, r.name);
    RETURN acc;
END
$$;
SELECT dx_record_shapes();

-- FOR over EXECUTE with USING: a record target, CONTINUE, EXIT, and FOUND
-- after the loop (also when no row came back)
CREATE FUNCTION dx_for_record(lo integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
    acc text := '';
BEGIN
    FOR r IN EXECUTE 'SELECT id, name FROM dx_items WHERE id >= $1 ORDER BY id' USING lo LOOP
        CONTINUE WHEN r.id = 2;
        acc := acc || r.id || ':' || r.name || ' ';
        EXIT WHEN r.id >= 4;
    END LOOP;
    RETURN acc || 'found=' || FOUND;
END
$$;
SELECT dx_for_record(1);
SELECT dx_for_record(100);

-- FOR over EXECUTE with a list of scalar targets (more and fewer columns
-- than targets), and a labelled loop left from a nested loop
CREATE FUNCTION dx_for_scalars() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v_id integer;
    v_name text;
    v_price numeric;
    acc text := '';
BEGIN
    FOR v_id, v_name IN EXECUTE 'SELECT id, name, price FROM dx_items WHERE id < $1 ORDER BY id' USING 3 LOOP
        acc := acc || v_id || '=' || v_name || ' ';
    END LOOP;
    FOR v_id, v_name, v_price IN EXECUTE 'SELECT id FROM dx_items ORDER BY id LIMIT 2' LOOP
        acc := acc || format('[%s %s %s] ', v_id, v_name IS NULL, v_price IS NULL);
    END LOOP;
    <<outer>>
    FOR v_id IN EXECUTE 'SELECT g FROM generate_series(1, 5) g' LOOP
        FOR v_name IN EXECUTE 'SELECT $1 || ''-'' || g FROM generate_series(1, 3) g' USING v_id LOOP
            acc := acc || v_name || ' ';
            EXIT outer WHEN v_name = '2-2';
        END LOOP;
    END LOOP;
    RETURN acc || 'last v_id=' || v_id;
END
$$;
SELECT dx_for_scalars();

-- FOR over EXECUTE of UPDATE ... RETURNING; of an UPDATE without
-- RETURNING (error); of a NULL string (error)
CREATE FUNCTION dx_for_kinds(kind text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
    total numeric := 0;
    q text;
BEGIN
    IF kind = 'returning' THEN
        q := 'UPDATE dx_items SET price = price + 1 WHERE id <= 2 RETURNING price';
    ELSIF kind = 'no returning' THEN
        q := 'UPDATE dx_items SET price = price + 1 WHERE id <= 2';
    END IF;
    FOR r IN EXECUTE q LOOP
        total := total + r.price;
    END LOOP;
    RETURN kind || ': ' || total;
END
$$;
SELECT dx_for_kinds('returning');
SELECT dx_for_kinds('no returning');
SELECT dx_for_kinds('null');

-- EXECUTE of a NULL query string
CREATE FUNCTION dx_null_query() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    q text;
BEGIN
    EXECUTE q;
END
$$;
SELECT dx_null_query();

-- an empty string and a comment are accepted and do nothing
CREATE FUNCTION dx_empty() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    PERFORM g FROM generate_series(1, 3) g;
    EXECUTE '';
    GET DIAGNOSTICS n = ROW_COUNT;
    EXECUTE '-- just a comment';
    RETURN 'row_count after empty EXECUTE: ' || n;
END
$$;
SELECT dx_empty();

-- EXECUTE 'SELECT ... INTO' is not allowed (the table is not created)
CREATE FUNCTION dx_select_into() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'SELECT id INTO dx_new_table FROM dx_items';
END
$$;
SELECT dx_select_into();
SELECT count(*) FROM pg_class WHERE relname = 'dx_new_table';

-- a syntax error in the dynamic query (the position is inside the query)
CREATE FUNCTION dx_syntax(q text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE q;
END
$$;
SELECT dx_syntax('SELECT 1 FROM dx_items WHERE WHERE');
SELECT dx_syntax('SELEC 1');
SELECT dx_syntax('SELECT nosuch FROM dx_items');

-- INTO with a command that returns no data
CREATE FUNCTION dx_into_nodata() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
BEGIN
    EXECUTE 'UPDATE dx_items SET price = price WHERE id = 1' INTO x;
    RETURN x;
END
$$;
SELECT dx_into_nodata();
CREATE FUNCTION dx_into_utility() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x text;
BEGIN
    EXECUTE 'CREATE TABLE dx_never (a integer)' INTO x;
    RETURN x;
END
$$;
SELECT dx_into_utility();
SELECT count(*) FROM pg_class WHERE relname = 'dx_never';

-- a utility command that does return data: SHOW
CREATE FUNCTION dx_show() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x text;
BEGIN
    EXECUTE 'SHOW max_identifier_length' INTO x;
    RETURN x;
END
$$;
SELECT dx_show();

-- parameters: a missing one, unused ones, and a variable named in the
-- string (dynamic SQL does not see PL variables)
CREATE FUNCTION dx_params(kind text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x text;
    v_local integer := 5;
BEGIN
    IF kind = 'missing' THEN
        EXECUTE 'SELECT $2::text' INTO x USING 1;
    ELSIF kind = 'unused' THEN
        EXECUTE 'SELECT ''no params used''' INTO x USING 1, 'two';
    ELSE
        EXECUTE 'SELECT v_local::text' INTO x;
    END IF;
    RETURN x;
END
$$;
SELECT dx_params('unused');
SELECT dx_params('missing');
SELECT dx_params('variable');

-- a USING expression that fails, in EXECUTE and in FOR ... IN EXECUTE
CREATE FUNCTION dx_using_fails(kind text) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x integer;
    z integer := 0;
BEGIN
    IF kind = 'execute' THEN
        EXECUTE 'SELECT $1' INTO x USING 10 / z;
    ELSE
        FOR x IN EXECUTE 'SELECT $1' USING 10 / z LOOP
            NULL;
        END LOOP;
    END IF;
    RETURN x;
END
$$;
SELECT dx_using_fails('execute');
SELECT dx_using_fails('for');

-- a dynamic statement failing inside an exception block: the block's
-- writes (static and dynamic) are rolled back, the handler sees SQLERRM
CREATE TABLE dx_log (n integer PRIMARY KEY);
CREATE FUNCTION dx_rollback(bad text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
BEGIN
    INSERT INTO dx_log VALUES (1) ON CONFLICT DO NOTHING;
    BEGIN
        INSERT INTO dx_log VALUES (2);
        EXECUTE 'INSERT INTO dx_log VALUES ($1)' USING 3;
        EXECUTE bad;
        RETURN 'no error';
    EXCEPTION WHEN OTHERS THEN
        SELECT count(*) INTO n FROM dx_log;
        RETURN format('caught %s: %s; rows now %s', SQLSTATE, SQLERRM, n);
    END;
END
$$;
SELECT dx_rollback('INSERT INTO dx_log VALUES (2)');
SELECT dx_rollback('INSERT INTO dx_no_such_table VALUES (1)');
SELECT dx_rollback('SELECT 1 / 0');
SELECT * FROM dx_log ORDER BY n;

-- several statements in one string: all run, ROW_COUNT and INTO come from
-- the last one
CREATE FUNCTION dx_multi() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n integer;
    x integer;
BEGIN
    EXECUTE 'INSERT INTO dx_log VALUES (10); INSERT INTO dx_log VALUES (11), (12)';
    GET DIAGNOSTICS n = ROW_COUNT;
    EXECUTE 'SELECT 1; SELECT max(n) FROM dx_log' INTO x;
    RETURN format('row_count=%s x=%s', n, x);
END
$$;
SELECT dx_multi();
SELECT * FROM dx_log ORDER BY n;

-- several statements in one string with USING parameters
CREATE FUNCTION dx_multi_params() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'INSERT INTO dx_log VALUES ($1); INSERT INTO dx_log VALUES ($1 + 1)' USING 20;
END
$$;
SELECT dx_multi_params();
SELECT * FROM dx_log ORDER BY n;

-- COPY to or from the client is refused
CREATE FUNCTION dx_copy() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'COPY dx_log FROM STDIN';
END
$$;
SELECT dx_copy();

-- transaction commands are refused, in a function, a procedure and a DO
-- block (even where a static COMMIT would be allowed)
CREATE FUNCTION dx_commit(cmd text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    EXECUTE cmd;
END
$$;
SELECT dx_commit('COMMIT');
SELECT dx_commit('ROLLBACK');
SELECT dx_commit('SAVEPOINT s1');
SELECT dx_commit('BEGIN');
CREATE PROCEDURE dx_commit_proc() LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'COMMIT';
END
$$;
CALL dx_commit_proc();
DO LANGUAGE plnimble $$
BEGIN
    EXECUTE 'COMMIT';
END
$$;

-- EXECUTE in a DO block, with INTO and USING
DO LANGUAGE plnimble $$
DECLARE
    v_name text;
    r record;
BEGIN
    EXECUTE 'SELECT name FROM dx_items WHERE id = $1' INTO STRICT v_name USING 3;
    RAISE NOTICE 'DO block: %', v_name;
    FOR r IN EXECUTE format('SELECT %I AS c FROM %I WHERE id < $1 ORDER BY 1', 'name', 'dx_items') USING 3 LOOP
        RAISE NOTICE 'row %', r.c;
    END LOOP;
END
$$;
