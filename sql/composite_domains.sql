-- composite_domains: variables whose type is a domain over a row type.
-- NOT NULL and CHECK constraints hold when the block initialises the
-- variable (no default: it starts NULL, which a NOT NULL domain or a CHECK
-- that rejects NULL refuses; a DEFAULT NULL likewise), and on every later
-- store: := NULL, := row(...), field assignment, SELECT INTO, FOR loops,
-- arguments that arrive NULL through an outer join.  Errors are caught by
-- handlers like any other.

CREATE TYPE cd_pair AS (a int, b int);
CREATE DOMAIN cd_nn_pair AS cd_pair NOT NULL;
CREATE DOMAIN cd_ck_pair AS cd_pair
    CHECK ((value).a IS NOT NULL AND (value).a > 0);
CREATE DOMAIN cd_soft_pair AS cd_pair CHECK ((value).a > 0);

-- no default: the NULL it starts with is checked
CREATE FUNCTION cd_nn_nodefault() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_nn_pair;
BEGIN
    RETURN 'not reached';
END
$$;
SELECT cd_nn_nodefault();
CREATE FUNCTION cd_ck_nodefault() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_ck_pair;
BEGIN
    RETURN 'not reached';
END
$$;
SELECT cd_ck_nodefault();
-- a CHECK that NULL passes lets the variable start NULL
CREATE FUNCTION cd_soft_nodefault() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_soft_pair;
BEGIN
    RETURN coalesce(x::text, 'null');
END
$$;
SELECT cd_soft_nodefault();

-- defaults: NULL refused, a good row accepted, a bad row refused
CREATE FUNCTION cd_default_null() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_nn_pair := NULL;
BEGIN
    RETURN 'not reached';
END
$$;
SELECT cd_default_null();
CREATE FUNCTION cd_default_ok() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_ck_pair := row(1, 2);
BEGIN
    RETURN x::text;
END
$$;
SELECT cd_default_ok();
CREATE FUNCTION cd_default_bad() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_ck_pair := row(-1, 2);
BEGIN
    RETURN x::text;
END
$$;
SELECT cd_default_bad();
-- the declaration in an inner block is checked on each entry
CREATE FUNCTION cd_inner_block(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    result text := '';
BEGIN
    FOR i IN 1..n LOOP
        DECLARE
            x cd_ck_pair := row(2 - i, 0);
        BEGIN
            result := result || x::text;
        END;
    END LOOP;
    RETURN result;
END
$$;
SELECT cd_inner_block(1);
SELECT cd_inner_block(2);

-- assignments after initialisation
CREATE FUNCTION cd_assign(what text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x cd_ck_pair := row(1, 2);
    y cd_nn_pair := row(1, 2);
    r record;
BEGIN
    CASE what
    WHEN 'null' THEN
        y := NULL;
    WHEN 'row of nulls' THEN
        x := row(NULL, NULL);
    WHEN 'bad row' THEN
        x := row(0, 0)::cd_pair;
    WHEN 'field' THEN
        x.a := -5;
    WHEN 'select into' THEN
        SELECT -1, 2 INTO x;
    WHEN 'select null into' THEN
        SELECT NULL::cd_pair INTO y;      -- a row of NULLs, not NULL
    WHEN 'for loop' THEN
        FOR x IN SELECT g, g FROM generate_series(1, 0, -1) g LOOP
            RAISE NOTICE 'row %', x;
        END LOOP;
    WHEN 'record' THEN
        SELECT 0 AS a, 0 AS b INTO r;
        x := r;
    ELSE
        x := row(7, 8);
    END CASE;
    RETURN x::text || ' ' || y::text;
END
$$;
SELECT cd_assign('null');
SELECT cd_assign('row of nulls');
SELECT cd_assign('bad row');
SELECT cd_assign('field');
SELECT cd_assign('select into');
SELECT cd_assign('select null into');
SELECT cd_assign('for loop');
SELECT cd_assign('record');
SELECT cd_assign('good');

-- caught by a handler, in the block that declares it and around it
CREATE FUNCTION cd_caught() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    log text := '';
BEGIN
    BEGIN
        DECLARE
            x cd_nn_pair;
        BEGIN
            log := log || 'not reached ';
        END;
    EXCEPTION WHEN not_null_violation THEN
        log := log || 'init: ' || SQLERRM || '; ';
    END;
    DECLARE
        x cd_ck_pair := row(1, 1);
    BEGIN
        x := NULL;
    EXCEPTION WHEN check_violation THEN
        log := log || 'assign: ' || SQLERRM;
    END;
    RETURN log;
END
$$;
SELECT cd_caught();

-- arguments: a NULL that reaches the function without a cast
CREATE TABLE cd_rows (id int, p cd_nn_pair);
INSERT INTO cd_rows VALUES (1, row(1, 1));
CREATE FUNCTION cd_arg(p cd_nn_pair) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN coalesce(p::text, 'null');
END
$$;
SELECT cd_arg(t.p) FROM (VALUES (1)) v(id) LEFT JOIN cd_rows t USING (id);
SELECT cd_arg(t.p) FROM (VALUES (2)) v(id) LEFT JOIN cd_rows t USING (id);

-- a DO block
DO $$
DECLARE
    x cd_ck_pair := row(3, 4);
BEGIN
    x := row(NULL, 4);
END
$$ LANGUAGE plnimble;
