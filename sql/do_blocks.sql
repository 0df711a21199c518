-- do_blocks: anonymous code blocks with DO, with the LANGUAGE clause
-- before or after the body or left out, declarations, loops and SQL inside
-- DO, and errors raised inside DO (CONTEXT "function inline_code_block
-- line N at ...").

CREATE TABLE do_tab (n integer, t text);

-- LANGUAGE before and after the body
DO LANGUAGE plnimble $$
BEGIN
    RAISE NOTICE 'language first';
END
$$;
DO $$
BEGIN
    RAISE NOTICE 'language last';
END
$$ LANGUAGE plnimble;

-- without LANGUAGE the default language plpgsql is used
DO $$
BEGIN
    RAISE NOTICE 'no language clause';
END
$$;
DO $$
DECLARE
    v text := 'default language';
BEGIN
    RAISE EXCEPTION 'error with %', v;
END
$$;

-- a DO block with declarations, a loop and DML
DO LANGUAGE plnimble $$
DECLARE
    total integer := 0;
BEGIN
    FOR i IN 1..5 LOOP
        INSERT INTO do_tab VALUES (i, repeat('*', i));
        total := total + i;
    END LOOP;
    RAISE NOTICE 'inserted 5 rows, total %', total;
END
$$;
SELECT * FROM do_tab ORDER BY n;

-- a DO block with a label, nested block and exception handler
DO LANGUAGE plnimble $$
<<main>>
DECLARE
    cnt integer;
BEGIN
    SELECT count(*) INTO cnt FROM do_tab;
    BEGIN
        DELETE FROM do_tab WHERE n > 2;
        RAISE EXCEPTION 'undo the delete';
    EXCEPTION
        WHEN raise_exception THEN
            RAISE NOTICE 'caught: %', SQLERRM;
    END;
    SELECT count(*) INTO main.cnt FROM do_tab;
    RAISE NOTICE 'rows still there: %', cnt;
END
$$;

-- RETURN without a value is allowed in DO, a value is not
DO LANGUAGE plnimble $$
BEGIN
    RAISE NOTICE 'before return';
    RETURN;
    RAISE NOTICE 'not reached';
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    RETURN 1;
END
$$;

-- errors raised inside DO
DO LANGUAGE plnimble $$
BEGIN
    RAISE EXCEPTION 'failure in DO block';
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    x integer;
BEGIN
    x := 1;
    x := x / 0;
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    x integer;
BEGIN
    SELECT n INTO STRICT x FROM do_tab;
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    PERFORM no_such_column FROM do_tab;
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    INSERT INTO do_tab VALUES ('not a number');
END
$$;

-- a syntax error in a DO body
DO LANGUAGE plnimble $$
BEGIN
    IF true THEN
        RAISE NOTICE 'x';
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    undefined_target := 5;
END
$$;

-- a DO block that fails leaves no trace of its writes
DO LANGUAGE plnimble $$
BEGIN
    INSERT INTO do_tab VALUES (100, 'should vanish');
    RAISE EXCEPTION 'abort after insert';
END
$$;
SELECT count(*) FROM do_tab WHERE n = 100;

-- DO inside a transaction block, rolled back afterwards
BEGIN;
DO LANGUAGE plnimble $$
BEGIN
    UPDATE do_tab SET t = 'changed';
END
$$;
SELECT DISTINCT t FROM do_tab;
ROLLBACK;
SELECT DISTINCT t FROM do_tab ORDER BY t;

-- DO calling a function that fails: CONTEXT lists both
CREATE FUNCTION do_helper(v integer) RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    IF v < 0 THEN
        RAISE EXCEPTION 'negative: %', v;
    END IF;
    RETURN v;
END
$$;
DO LANGUAGE plnimble $$
DECLARE
    r integer;
BEGIN
    r := do_helper(1);
    r := do_helper(-r);
END
$$;

-- SQL-level errors about the DO statement itself
DO LANGUAGE plnimble_nonexistent $$ BEGIN END $$;
DO LANGUAGE plnimble;

-- an empty body
DO LANGUAGE plnimble $$ BEGIN END $$;

-- DO with single-quoted body and doubled quotes inside
DO LANGUAGE plnimble 'BEGIN RAISE NOTICE ''quoted body %'', 1 + 1; END';

-- parameters do not exist in DO blocks
DO LANGUAGE plnimble $$
BEGIN
    RAISE NOTICE '%', $1;
END
$$;
