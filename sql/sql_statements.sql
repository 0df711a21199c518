-- sql_statements: PERFORM, SELECT INTO [STRICT], INSERT/UPDATE/DELETE with
-- RETURNING INTO [STRICT], utility commands in function bodies, the FOUND
-- variable after each kind of statement, and SELECT INTO a record variable
-- followed by rec.field access.

CREATE TABLE s_items (id integer PRIMARY KEY, name text, qty integer);
INSERT INTO s_items VALUES (1, 'apple', 10), (2, 'pear', 0), (3, 'plum', 5);

-- PERFORM discards the result and sets FOUND
CREATE FUNCTION s_perform(lim integer) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    PERFORM * FROM s_items WHERE qty > lim;
    RAISE NOTICE 'PERFORM qty > %: found = %', lim, FOUND;
    PERFORM 1;
    RAISE NOTICE 'PERFORM 1: found = %', FOUND;
END
$$;
SELECT s_perform(3);
SELECT s_perform(100);

-- a bare SELECT with no INTO is an error at run time
CREATE FUNCTION s_bare_select() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    SELECT 1;
END
$$;
SELECT s_bare_select();

-- SELECT INTO scalar variables
CREATE FUNCTION s_select_into(key integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text;
    q integer;
BEGIN
    SELECT name, qty INTO n, q FROM s_items WHERE id = key;
    RETURN format('name=%s qty=%s found=%s', n, q, FOUND);
END
$$;
SELECT s_select_into(1);
SELECT s_select_into(42);

-- INTO may appear after the select list or at the end
CREATE FUNCTION s_into_position() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a text;
    b text;
BEGIN
    SELECT name FROM s_items WHERE id = 3 INTO a;
    SELECT INTO b name FROM s_items WHERE id = 1;
    RETURN a || '/' || b;
END
$$;
SELECT s_into_position();

-- without STRICT, more than one row just takes the first
CREATE FUNCTION s_first_row() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text;
BEGIN
    SELECT name INTO n FROM s_items ORDER BY id DESC;
    RETURN n || ' found=' || FOUND;
END
$$;
SELECT s_first_row();

-- no rows: targets are set to NULL, not left unchanged
CREATE FUNCTION s_no_rows_nulls() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text := 'before';
BEGIN
    SELECT name INTO n FROM s_items WHERE id < 0;
    RETURN coalesce(n, '<null>') || ' found=' || FOUND;
END
$$;
SELECT s_no_rows_nulls();

-- STRICT: exactly one row required
CREATE FUNCTION s_strict(cond text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text;
BEGIN
    IF cond = 'one' THEN
        SELECT name INTO STRICT n FROM s_items WHERE id = 2;
    ELSIF cond = 'none' THEN
        SELECT name INTO STRICT n FROM s_items WHERE id = 99;
    ELSE
        SELECT name INTO STRICT n FROM s_items;
    END IF;
    RETURN n || ' found=' || FOUND;
END
$$;
SELECT s_strict('one');
SELECT s_strict('none');
SELECT s_strict('many');

-- print_strict_params adds the parameter values to the DETAIL
CREATE FUNCTION s_strict_params(key integer) RETURNS text LANGUAGE plnimble AS $$
#print_strict_params on
DECLARE
    n text;
BEGIN
    SELECT name INTO STRICT n FROM s_items WHERE id > key;
    RETURN n;
END
$$;
SELECT s_strict_params(2);
SELECT s_strict_params(0);
SELECT s_strict_params(3);

-- the same setting through the GUC
SET plnimble.print_strict_params = on;
CREATE FUNCTION s_strict_guc(lo integer, hi integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text;
BEGIN
    SELECT name INTO STRICT n FROM s_items WHERE id BETWEEN lo AND hi;
    RETURN n;
END
$$;
SELECT s_strict_guc(1, 3);
RESET plnimble.print_strict_params;

-- more columns than targets, fewer columns than targets
CREATE FUNCTION s_column_mismatch() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a text;
    b text;
    c text := 'untouched';
BEGIN
    SELECT name, qty, id INTO a, b FROM s_items WHERE id = 1;
    RAISE NOTICE 'a=% b=%', a, b;
    SELECT name INTO a, c FROM s_items WHERE id = 3;
    RETURN format('a=%s c=%s', a, c);
END
$$;
SELECT s_column_mismatch();

-- INSERT, UPDATE, DELETE and FOUND
CREATE FUNCTION s_dml() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO s_items VALUES (10, 'kiwi', 1);
    RAISE NOTICE 'insert: found = %', FOUND;
    UPDATE s_items SET qty = qty + 1 WHERE id = 10;
    RAISE NOTICE 'update one: found = %', FOUND;
    UPDATE s_items SET qty = 0 WHERE id = 999;
    RAISE NOTICE 'update none: found = %', FOUND;
    DELETE FROM s_items WHERE id = 999;
    RAISE NOTICE 'delete none: found = %', FOUND;
    DELETE FROM s_items WHERE id = 10;
    RAISE NOTICE 'delete one: found = %', FOUND;
    INSERT INTO s_items SELECT id + 100, name, qty FROM s_items WHERE false;
    RAISE NOTICE 'insert-select none: found = %', FOUND;
END
$$;
SELECT s_dml();

-- RETURNING ... INTO
CREATE FUNCTION s_returning() RETURNS void LANGUAGE plnimble AS $$
DECLARE
    new_id integer;
    old_name text;
    new_qty integer;
BEGIN
    INSERT INTO s_items VALUES (20, 'fig', 7) RETURNING id INTO new_id;
    RAISE NOTICE 'inserted id %', new_id;
    UPDATE s_items SET qty = qty * 3 WHERE id = new_id RETURNING qty INTO new_qty;
    RAISE NOTICE 'updated qty %', new_qty;
    UPDATE s_items SET qty = 1 WHERE id = -1 RETURNING qty INTO new_qty;
    RAISE NOTICE 'no row updated: qty %, found %', new_qty, FOUND;
    DELETE FROM s_items WHERE id = new_id RETURNING name INTO old_name;
    RAISE NOTICE 'deleted %', old_name;
END
$$;
SELECT s_returning();

-- RETURNING INTO without STRICT affecting several rows is an error
CREATE FUNCTION s_returning_many() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    v integer;
BEGIN
    UPDATE s_items SET qty = qty WHERE id IN (1, 2) RETURNING id INTO v;
    RETURN v;
END
$$;
SELECT s_returning_many();

-- RETURNING INTO STRICT
CREATE FUNCTION s_returning_strict(key integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    n text;
BEGIN
    UPDATE s_items SET qty = qty WHERE id = key RETURNING name INTO STRICT n;
    RETURN n;
END
$$;
SELECT s_returning_strict(3);
SELECT s_returning_strict(-3);

-- the failed DML above was rolled back with the statement
SELECT * FROM s_items ORDER BY id;

-- utility commands: CREATE TABLE, ALTER, DROP, TRUNCATE, CREATE INDEX;
-- they do not change FOUND
CREATE FUNCTION s_ddl() RETURNS bigint LANGUAGE plnimble AS $$
DECLARE
    cnt bigint;
BEGIN
    CREATE TABLE s_tmp (a integer);
    ALTER TABLE s_tmp ADD COLUMN b text DEFAULT 'x';
    INSERT INTO s_tmp (a) SELECT g FROM generate_series(1, 5) g;
    SELECT count(*) INTO cnt FROM s_tmp WHERE b = 'x';
    PERFORM 1 WHERE false;
    TRUNCATE s_tmp;
    CREATE INDEX s_tmp_idx ON s_tmp (a);
    RAISE NOTICE 'utility statements leave found alone: found = %', FOUND;
    DROP TABLE s_tmp;
    RETURN cnt;
END
$$;
SELECT s_ddl();
SELECT count(*) FROM pg_class WHERE relname = 's_tmp';

-- variables used as values in DML
CREATE FUNCTION s_vars_in_dml(p_id integer, p_name text) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    total integer;
BEGIN
    INSERT INTO s_items (id, name, qty) VALUES (p_id, p_name, length(p_name));
    UPDATE s_items SET qty = qty + p_id WHERE name = p_name;
    SELECT sum(qty) INTO total FROM s_items WHERE id >= p_id;
    RETURN total;
END
$$;
SELECT s_vars_in_dml(30, 'mango');
SELECT * FROM s_items WHERE id = 30;

-- SELECT INTO a record variable, then read its fields
CREATE FUNCTION s_record(key integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT * INTO r FROM s_items WHERE id = key;
    IF NOT FOUND THEN
        RETURN 'no item ' || key;
    END IF;
    RETURN r.name || ' has ' || r.qty || ' (id ' || r.id || ')';
END
$$;
SELECT s_record(1), s_record(0);

-- record field that does not exist
CREATE FUNCTION s_record_badfield() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT id, name INTO r FROM s_items WHERE id = 1;
    RETURN r.colour;
END
$$;
SELECT s_record_badfield();

-- reading a record that has never been assigned
CREATE FUNCTION s_record_unassigned() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    RETURN r.name;
END
$$;
SELECT s_record_unassigned();

-- a record from a computed SELECT, fields used in expressions
CREATE FUNCTION s_record_expr() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    SELECT count(*) AS n, max(qty) AS top, min(name) AS first INTO r FROM s_items;
    RETURN format('n=%s top=%s first=%s double=%s', r.n, r.top, r.first, r.top * 2);
END
$$;
SELECT s_record_expr();

-- FOUND starts out false and is local to each function call
CREATE FUNCTION s_found_initial() RETURNS boolean LANGUAGE plnimble AS $$
BEGIN
    RETURN FOUND;
END
$$;
CREATE FUNCTION s_found_outer() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    inner_found boolean;
BEGIN
    PERFORM 1;
    inner_found := s_found_initial();
    RETURN 'outer ' || FOUND || ', inner ' || inner_found;
END
$$;
SELECT s_found_initial(), s_found_outer();

-- SELECT INTO from an aggregate expression
CREATE FUNCTION s_into_expr() RETURNS numeric LANGUAGE plnimble AS $$
DECLARE
    avg_qty numeric;
BEGIN
    SELECT round(avg(qty), 2) INTO avg_qty FROM s_items;
    RETURN avg_qty;
END
$$;
SELECT s_into_expr();

-- a constraint violation in a DML statement
CREATE FUNCTION s_dup_key() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO s_items VALUES (1, 'duplicate', 0);
END
$$;
SELECT s_dup_key();
