-- recompile: CREATE OR REPLACE of functions between calls, inside a
-- transaction that is rolled back, and while the replaced function is
-- running (via a helper that does CREATE OR REPLACE as a plain SQL
-- statement); callers picking up new callees; cached plans after the
-- tables they use are changed.

-- replace between calls
CREATE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'version 1';
END
$$;
SELECT rc_version();
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    v integer := 2;
BEGIN
    RETURN 'version ' || v;
END
$$;
SELECT rc_version();

-- a caller sees the new callee on its next call
CREATE FUNCTION rc_caller() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'caller got ' || rc_version();
END
$$;
SELECT rc_caller();
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'version 3';
END
$$;
SELECT rc_caller();

-- replacing inside a transaction and rolling back restores the old body
BEGIN;
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'uncommitted version';
END
$$;
SELECT rc_version(), rc_caller();
ROLLBACK;
SELECT rc_version(), rc_caller();

-- replacing with a body that fails to compile leaves the old one in place
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'broken'
END
$$;
SELECT rc_version();

-- replacing with a body that fails only at run time
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN no_such_column;
END
$$;
SELECT rc_caller();
CREATE OR REPLACE FUNCTION rc_version() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'fixed';
END
$$;
SELECT rc_caller();

-- replace a function while it is running: the helper rewrites rc_self,
-- the running call finishes with its old code, the next call uses the new
CREATE FUNCTION rc_rewrite(msg text) RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CREATE OR REPLACE FUNCTION rc_self() RETURNS text LANGUAGE plnimble AS $body$
    BEGIN
        RETURN 'rewritten body';
    END
    $body$;
    RAISE NOTICE 'rc_self replaced (%)', msg;
END
$$;
CREATE FUNCTION rc_self() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    before text := 'original body';
BEGIN
    PERFORM rc_rewrite('from inside rc_self');
    RAISE NOTICE 'still running the original: %', before;
    RETURN before || ', finished';
END
$$;
SELECT rc_self();
SELECT rc_self();

-- within one running call, a fresh call of the replaced function sees the
-- new body immediately
CREATE FUNCTION rc_outer() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    first text;
    second text;
BEGIN
    first := rc_target();
    PERFORM rc_replace_target();
    second := rc_target();
    RETURN first || ' -> ' || second;
END
$$;
CREATE FUNCTION rc_target() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    RETURN 'old target';
END
$$;
CREATE FUNCTION rc_replace_target() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CREATE OR REPLACE FUNCTION rc_target() RETURNS text LANGUAGE plnimble AS $body$
    BEGIN
        RETURN 'new target';
    END
    $body$;
END
$$;
SELECT rc_outer();
SELECT rc_target();

-- a recursive function that replaces itself half-way: the outer levels
-- keep running the old code, deeper levels run the new code
CREATE FUNCTION rc_recurse_swap() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CREATE OR REPLACE FUNCTION rc_recurse(n integer) RETURNS text LANGUAGE plnimble AS $body$
    BEGIN
        IF n <= 0 THEN
            RETURN 'new-base';
        END IF;
        RETURN 'new' || n || ' ' || rc_recurse(n - 1);
    END
    $body$;
END
$$;
CREATE FUNCTION rc_recurse(n integer) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    IF n <= 0 THEN
        RETURN 'old-base';
    END IF;
    IF n = 2 THEN
        PERFORM rc_recurse_swap();
    END IF;
    RETURN 'old' || n || ' ' || rc_recurse(n - 1);
END
$$;
SELECT rc_recurse(3);
SELECT rc_recurse(3);

-- a helper that replaces its caller with a body that has a compile error
-- (checked at CREATE time inside the helper); the error aborts the call
CREATE FUNCTION rc_break() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CREATE OR REPLACE FUNCTION rc_victim() RETURNS text LANGUAGE plnimble AS $body$
    BEGIN
        RETURN 'oops'
    END
    $body$;
END
$$;
CREATE FUNCTION rc_victim() RETURNS text LANGUAGE plnimble AS $$
BEGIN
    PERFORM rc_break();
    RETURN 'not reached';
END
$$;
SELECT rc_victim();

-- cached plans follow table changes
CREATE TABLE rc_tab (a integer);
INSERT INTO rc_tab VALUES (1), (2);
CREATE FUNCTION rc_sum() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text;
BEGIN
    SELECT sum(a)::text INTO s FROM rc_tab;
    RETURN s;
END
$$;
SELECT rc_sum();
ALTER TABLE rc_tab ALTER COLUMN a TYPE numeric;
UPDATE rc_tab SET a = a + 0.5;
SELECT rc_sum();
DROP TABLE rc_tab;
SELECT rc_sum();
CREATE TABLE rc_tab (b integer, a bigint);
INSERT INTO rc_tab VALUES (0, 40), (0, 2);
SELECT rc_sum();

-- changing the return type needs DROP; afterwards the new body is used
CREATE OR REPLACE FUNCTION rc_version() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 4;
END
$$;
DROP FUNCTION rc_version();
CREATE FUNCTION rc_version() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RETURN 4;
END
$$;
SELECT rc_version();
SELECT rc_caller();

-- a DO block that replaces a function and then calls it
DO LANGUAGE plnimble $$
BEGIN
    CREATE OR REPLACE FUNCTION rc_from_do() RETURNS text LANGUAGE plnimble AS $body$
    BEGIN
        RETURN 'created in DO';
    END
    $body$;
    RAISE NOTICE '%', rc_from_do();
END
$$;
SELECT rc_from_do();

-- a function that replaces itself while the same query calls it again
-- from other places: each place sees a valid version, never a freed one
CREATE FUNCTION rc_selfmod(x integer) RETURNS integer LANGUAGE plnimble AS $f$
BEGIN
    CREATE OR REPLACE FUNCTION rc_selfmod(x integer) RETURNS integer
    LANGUAGE plnimble AS $g$
    BEGIN
        RETURN x * 100;
    END
    $g$;
    RETURN x;
END
$f$;
SELECT rc_selfmod(1), rc_selfmod(2), rc_selfmod(3);
SELECT rc_selfmod(1), rc_selfmod(2);
SELECT rc_selfmod(i) FROM generate_series(4, 6) i;

-- a row type dropped under a compiled function: a variable of it fails by
-- the type's name (while there is no such type), and follows the type of
-- that name once it is created again, whatever its columns; the same for
-- %ROWTYPE of a table made again
CREATE TYPE rc_ct AS (a int, b text);
CREATE FUNCTION rc_ct_field() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x rc_ct;
BEGIN
    x.a := 1;
    RETURN x.a || '/' || coalesce(x.b, '-');
END
$$;
CREATE FUNCTION rc_ct_row() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x rc_ct;
BEGIN
    x := row(2, 'two');
    RETURN x.b;
END
$$;
CREATE FUNCTION rc_ct_into() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x rc_ct;
BEGIN
    SELECT 3, 'three' INTO x;
    RETURN x.a || x.b;
END
$$;
CREATE FUNCTION rc_ct_unused(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x rc_ct;
BEGIN
    IF n > 0 THEN
        x.a := n;
    END IF;
    RETURN n;
END
$$;
SELECT rc_ct_field(), rc_ct_row(), rc_ct_into(), rc_ct_unused(1);
DROP TYPE rc_ct;
SELECT rc_ct_field();
SELECT rc_ct_row();
SELECT rc_ct_into();
SELECT rc_ct_unused(0);     -- the variable is never given a value
SELECT rc_ct_unused(1);
CREATE TYPE rc_ct AS (a int, b text);
SELECT rc_ct_field(), rc_ct_row(), rc_ct_into(), rc_ct_unused(1);
DROP TYPE rc_ct;
CREATE TYPE rc_ct AS (b text, a int, c int);
SELECT rc_ct_field();
SELECT rc_ct_row();
SELECT rc_ct_into();
DROP TYPE rc_ct;
CREATE TYPE rc_ct AS ENUM ('x');
SELECT rc_ct_field();
SELECT rc_ct_unused(0);
DROP TYPE rc_ct;
CREATE TABLE rc_rowtab (a int, b text);
CREATE FUNCTION rc_rowtab_fn() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    x rc_rowtab%ROWTYPE;
BEGIN
    x.b := 'bee';
    RETURN x.b;
END
$$;
SELECT rc_rowtab_fn();
DROP TABLE rc_rowtab;
SELECT rc_rowtab_fn();
CREATE TABLE rc_rowtab (b text);
SELECT rc_rowtab_fn();
DROP TABLE rc_rowtab;
