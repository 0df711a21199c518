-- declarations: DECLARE sections, nested blocks, block labels and qualified
-- references, CONSTANT, NOT NULL, DEFAULT / := / = initialisers, ALIAS FOR,
-- shadowing, the CONTEXT lines after a failed initialisation.  Variables
-- of the various scalar types are in variable_types.sql.

-- uninitialised variables start out NULL
CREATE FUNCTION d_uninit() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    i integer;
    t text;
BEGIN
    RETURN coalesce(i::text, 'i is null') || ', ' || coalesce(t, 't is null');
END
$$;
SELECT d_uninit();

-- the three initialiser spellings
CREATE FUNCTION d_inits() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    a integer DEFAULT 1;
    b integer := 2;
    c integer = 3;
    d integer := a + b + c;
BEGIN
    RETURN format('%s %s %s %s', a, b, c, d);
END
$$;
SELECT d_inits();

-- defaults are evaluated every time the block is entered
CREATE FUNCTION d_reinit() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r text := '';
BEGIN
    FOR i IN 1..3 LOOP
        DECLARE
            counter integer := 10;
        BEGIN
            counter := counter + i;
            r := r || counter || ' ';
        END;
    END LOOP;
    RETURN r;
END
$$;
SELECT d_reinit();

-- nested blocks, shadowing, and labels
CREATE FUNCTION d_shadow() RETURNS void LANGUAGE plnimble AS $$
<<outerblk>>
DECLARE
    x integer := 1;
BEGIN
    RAISE NOTICE 'outer x = %', x;
    DECLARE
        x integer := 2;
    BEGIN
        RAISE NOTICE 'inner x = %, outerblk.x = %', x, outerblk.x;
        outerblk.x := 100;
        x := 200;
    END;
    RAISE NOTICE 'after inner block x = %', x;
END
$$;
SELECT d_shadow();

-- "outer" is a reserved SQL word: usable as a label, and RETURN of a bare
-- variable accepts outer.x, but inside an SQL expression outer.x is a
-- syntax error
CREATE FUNCTION d_reserved_label() RETURNS integer LANGUAGE plnimble AS $$
<<outer>>
DECLARE
    x integer := 1;
BEGIN
    RETURN outer.x;
END
$$;
SELECT d_reserved_label();
CREATE FUNCTION d_reserved_label2() RETURNS integer LANGUAGE plnimble AS $$
<<outer>>
DECLARE
    x integer := 1;
BEGIN
    x := outer.x + 1;
    RETURN x;
END
$$;

-- labels on inner blocks and the function name as an outer label
CREATE FUNCTION d_labels(x integer) RETURNS text LANGUAGE plnimble AS $$
<<blk1>>
DECLARE
    x integer := 10;
BEGIN
    <<blk2>>
    DECLARE
        x integer := 20;
    BEGIN
        RETURN format('param %s, blk1 %s, blk2 %s, bare %s',
                      d_labels.x, blk1.x, blk2.x, x);
    END blk2;
END blk1
$$;
SELECT d_labels(5);

-- a block with a label but no DECLARE
CREATE FUNCTION d_label_nodecl() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    v integer := 3;
BEGIN
    <<inner>>
    BEGIN
        v := v * 2;
    END inner;
    RETURN v;
END
$$;
SELECT d_label_nodecl();

-- CONSTANT
CREATE FUNCTION d_const() RETURNS numeric LANGUAGE plnimble AS $$
DECLARE
    pi CONSTANT numeric := 3.14159;
    r numeric := 2;
BEGIN
    RETURN pi * r * r;
END
$$;
SELECT d_const();

-- assigning to a CONSTANT is rejected when the function is created
CREATE FUNCTION d_const_assign() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    k CONSTANT integer := 1;
BEGIN
    k := 2;
    RETURN k;
END
$$;

-- a CONSTANT without an initialiser is simply NULL
CREATE FUNCTION d_const_noinit() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    k CONSTANT integer;
BEGIN
    RETURN coalesce(k::text, 'null constant');
END
$$;
SELECT d_const_noinit();

-- NOT NULL without a default is a compile-time error
CREATE FUNCTION d_notnull_nodefault() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    n integer NOT NULL;
BEGIN
    RETURN n;
END
$$;

-- NOT NULL with a default that evaluates to NULL fails at run time
CREATE FUNCTION d_notnull_nulldefault() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    n integer NOT NULL := NULL;
BEGIN
    RETURN n;
END
$$;
SELECT d_notnull_nulldefault();

-- NOT NULL with a real default works, and assigning NULL later fails
CREATE FUNCTION d_notnull(v integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    n integer NOT NULL DEFAULT 0;
BEGIN
    n := n + 1;
    n := v;
    RETURN n;
END
$$;
SELECT d_notnull(7);
SELECT d_notnull(NULL);

-- CONSTANT NOT NULL together
CREATE FUNCTION d_const_notnull() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    c CONSTANT integer NOT NULL := 9;
BEGIN
    RETURN c;
END
$$;
SELECT d_const_notnull();

-- ALIAS FOR a positional parameter and for a named one
CREATE FUNCTION d_alias(integer, label text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    amount ALIAS FOR $1;
    lbl ALIAS FOR label;
BEGIN
    amount := amount + 1;
    RETURN lbl || ': ' || amount || ' / ' || $1;
END
$$;
SELECT d_alias(41, 'total');

-- ALIAS FOR a local variable
CREATE FUNCTION d_alias_local() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    original integer := 5;
    other ALIAS FOR original;
BEGIN
    other := other * 3;
    RETURN original;
END
$$;
SELECT d_alias_local();

-- ALIAS FOR an unknown name
CREATE FUNCTION d_alias_bad() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    a ALIAS FOR nosuchthing;
BEGIN
    RETURN 1;
END
$$;

-- a later declaration may use an earlier one in its default
CREATE FUNCTION d_chain() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    first_name text := 'Ada';
    greeting text := 'Hello, ' || first_name;
    len integer := length(greeting);
BEGIN
    RETURN greeting || ' (' || len || ')';
END
$$;
SELECT d_chain();

-- a local variable may shadow a parameter
CREATE FUNCTION d_shadow_param(p integer) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    p integer := 99;
BEGIN
    RETURN p || ' vs ' || d_shadow_param.p;
END
$$;
SELECT d_shadow_param(1);

-- unknown type name in DECLARE
CREATE FUNCTION d_badtype() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    x no_such_type;
BEGIN
    RETURN 1;
END
$$;

-- duplicate names in separate blocks are fine
CREATE FUNCTION d_sep_blocks() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    out_txt text := '';
BEGIN
    DECLARE y integer := 1; BEGIN out_txt := out_txt || y; END;
    DECLARE y text := 'one'; BEGIN out_txt := out_txt || y; END;
    RETURN out_txt;
END
$$;
SELECT d_sep_blocks();

-- empty DECLARE section
CREATE FUNCTION d_empty_declare() RETURNS integer LANGUAGE plnimble AS $$
DECLARE
BEGIN
    RETURN 1;
END
$$;
SELECT d_empty_declare();

-- after a caught error in a block's variable initialisation, the CONTEXT
-- lines of the call name the failed declaration's line (with the running
-- statement's kind) until a block is entered again: its own statements
-- (RAISE, GET DIAGNOSTICS PG_CONTEXT), a function it calls, a loop over a
-- block with a handler, a second failed declaration, a block with
-- variables, and an uncaught error at the end or in the return value's
-- conversion
CREATE FUNCTION d_init_ctx_inner() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'inner';
    RETURN 1;
END
$$;
CREATE FUNCTION d_init_ctx(k integer) RETURNS integer LANGUAGE plnimble AS $$
DECLARE
    c text;
    n integer;
BEGIN
    BEGIN
        DECLARE
            ok integer := 1;
            bad text NOT NULL := CASE WHEN k > 0 THEN NULL ELSE 'x' END;
        BEGIN
            NULL;
        END;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'caught: %', sqlerrm;
        GET DIAGNOSTICS c = PG_CONTEXT;
        RAISE NOTICE 'line in PG_CONTEXT: %', substring(c from 'line \d+');
    END;
    n := d_init_ctx_inner();
    IF k = 1 THEN
        PERFORM 1 / 0;
    END IF;
    FOR i IN 1..2 LOOP
        BEGIN
            RAISE NOTICE 'loop %', i;
        EXCEPTION WHEN division_by_zero THEN
            NULL;
        END;
    END LOOP;
    RAISE NOTICE 'after the loop';
    BEGIN
        DECLARE
            bad2 integer NOT NULL := NULL;
        BEGIN
            NULL;
        END;
    EXCEPTION WHEN others THEN
        RAISE NOTICE 'caught again';
    END;
    IF k = 2 THEN
        RETURN 'abc';
    END IF;
    DECLARE
        w integer := 0;
    BEGIN
        RAISE NOTICE 'block with a variable';
    END;
    IF k = 3 THEN
        RAISE EXCEPTION 'uncaught';
    END IF;
    RETURN 0;
END
$$;
\set SHOW_CONTEXT always
SELECT d_init_ctx(1);
SELECT d_init_ctx(2);
SELECT d_init_ctx(3);
\set SHOW_CONTEXT errors
