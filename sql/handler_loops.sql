-- handler_loops: an integer FOR, WHILE or plain LOOP whose body is a single
-- block with an EXCEPTION clause runs all its iterations under one catch
-- point.  Every
-- way of leaving the block and the loop must behave as with a catch point
-- per iteration: errors caught and the loop going on, EXIT and CONTINUE
-- (plain, to the loop's label, to the block's label, to an outer label)
-- from the body and from the handler, RETURN from both, errors in the
-- handler, errors the block does not catch, savepoints rolled back, and
-- loops that end at the int4 limits.

CREATE TABLE hl_log (i int PRIMARY KEY, note text);

-- errors caught in some iterations, the loop goes on; FOUND after it
CREATE FUNCTION hl_basic(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    ok int := 0;
    bad int := 0;
    last int;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            last := 100 / (i % 3);
            ok := ok + 1;
        EXCEPTION WHEN division_by_zero THEN
            bad := bad + 1;
        END;
    END LOOP;
    RETURN format('ok %s, bad %s, last %s, found %s', ok, bad, last, FOUND);
END
$$;
SELECT hl_basic(10), hl_basic(0), hl_basic(2);

-- REVERSE and BY, and the int4 limits
CREATE FUNCTION hl_steps() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN REVERSE 10..1 BY 3 LOOP
        BEGIN
            s := s || i || ' ';
        EXCEPTION WHEN others THEN
            s := s || '?';
        END;
    END LOOP;
    FOR i IN 2147483646..2147483647 LOOP
        BEGIN
            s := s || (i - 2147483640) || ' ';
            s := s || (i + 1) || ' ';
        EXCEPTION WHEN numeric_value_out_of_range THEN
            s := s || 'overflow ';
        END;
    END LOOP;
    FOR i IN REVERSE -2147483647..-2147483648 LOOP
        BEGIN
            s := s || (i + 2147483640) || ' ';
        EXCEPTION WHEN others THEN
            s := s || '?';
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT hl_steps();

-- EXIT and CONTINUE from the body and from the handler, with and
-- without labels
CREATE FUNCTION hl_exits(mode text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
BEGIN
    <<outer_loop>>
    FOR j IN 1..2 LOOP
        <<inner_loop>>
        FOR i IN 1..6 LOOP
            <<blk>>
            BEGIN
                s := s || j || '.' || i;
                IF i = 2 AND mode = 'continue' THEN CONTINUE; END IF;
                IF i = 3 AND mode = 'exit' THEN EXIT; END IF;
                IF i = 3 AND mode = 'exit_block' THEN EXIT blk; END IF;
                IF i = 3 AND mode = 'exit_outer' THEN EXIT outer_loop; END IF;
                IF i = 3 AND mode = 'continue_outer' THEN CONTINUE outer_loop; END IF;
                IF i = 4 THEN
                    s := s || '/' || (1 / 0);
                END IF;
                s := s || ' ';
            EXCEPTION WHEN division_by_zero THEN
                s := s || '! ';
                IF mode = 'handler_exit' THEN EXIT; END IF;
                IF mode = 'handler_continue_inner' THEN CONTINUE inner_loop; END IF;
                IF mode = 'handler_exit_outer' THEN EXIT outer_loop; END IF;
            END;
            s := s || ', ';
        END LOOP;
        s := s || '| ';
    END LOOP;
    RETURN s;
END
$$;
SELECT m, hl_exits(m)
  FROM unnest(ARRAY['none', 'continue', 'exit', 'exit_block', 'exit_outer',
                    'continue_outer', 'handler_exit',
                    'handler_continue_inner', 'handler_exit_outer']) m;

-- a single-statement body: EXIT and CONTINUE are the body's result itself
CREATE FUNCTION hl_single(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
BEGIN
    <<l>>
    FOR i IN 1..n LOOP
        BEGIN
            EXIT l WHEN i > 4;
            CONTINUE WHEN i % 2 = 0;
            s := s || i || ' ';
        EXCEPTION WHEN others THEN
            s := s || '?';
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT hl_single(10);

-- RETURN from the body and from the handler
CREATE FUNCTION hl_return(at int, in_handler bool) RETURNS text LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..10 LOOP
        BEGIN
            IF i = at THEN
                IF in_handler THEN
                    RAISE EXCEPTION 'leave at %', i;
                END IF;
                RETURN 'body returned at ' || i;
            END IF;
        EXCEPTION WHEN raise_exception THEN
            RETURN 'handler returned: ' || SQLERRM;
        END;
    END LOOP;
    RETURN 'loop ended';
END
$$;
SELECT hl_return(3, false), hl_return(4, true), hl_return(20, true);

-- an error the block does not catch leaves the loop; an error raised in
-- the handler is not caught by the same block again
CREATE FUNCTION hl_uncaught(mode text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
BEGIN
    FOR i IN 1..5 LOOP
        BEGIN
            s := s || i;
            IF i = 3 THEN
                IF mode = 'other' THEN
                    PERFORM 'x'::int;
                END IF;
                RAISE EXCEPTION 'in body %', i;
            END IF;
        EXCEPTION WHEN raise_exception THEN
            IF mode = 'handler' THEN
                RAISE EXCEPTION 'from handler after %', s;
            END IF;
            IF mode = 'reraise' THEN
                RAISE;
            END IF;
            s := s || '!';
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT hl_uncaught('none');
SELECT hl_uncaught('other');
SELECT hl_uncaught('handler');
SELECT hl_uncaught('reraise');
DO $$
BEGIN
    PERFORM hl_uncaught('handler');
EXCEPTION WHEN raise_exception THEN
    RAISE NOTICE 'outside: %', SQLERRM;
END
$$;

-- savepoints: each iteration's writes are rolled back when it fails,
-- kept when it succeeds; the handler sees the table as the block found it
CREATE FUNCTION hl_writes(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    dups int := 0;
    seen text := '';
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO hl_log VALUES (i, 'first');
            INSERT INTO hl_log VALUES (i / 2, 'half of ' || i);
        EXCEPTION WHEN unique_violation THEN
            dups := dups + 1;
            seen := seen || (SELECT count(*) FROM hl_log) || ' ';
        END;
    END LOOP;
    RETURN dups || ' failed; counts seen in handlers: ' || seen;
END
$$;
SELECT hl_writes(8);
SELECT * FROM hl_log ORDER BY i;

-- loops of handler blocks inside each other and inside handlers: an error
-- the inner block does not catch reaches the outer block; an error caught
-- inside a handler leaves the outer error intact for SQLERRM, GET STACKED
-- DIAGNOSTICS and a bare RAISE
CREATE FUNCTION hl_nested(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
    msg text;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            FOR j IN 1..3 LOOP
                BEGIN
                    IF j = 2 THEN
                        s := s || (i / (i - 2));
                    END IF;
                    IF j = 3 AND i = 3 THEN
                        RAISE EXCEPTION 'outer % %', i, j;
                    END IF;
                    s := s || '.';
                EXCEPTION WHEN division_by_zero THEN
                    s := s || 'z';
                    FOR k IN 1..2 LOOP
                        BEGIN
                            PERFORM 1 / (k - 1);
                        EXCEPTION WHEN division_by_zero THEN
                            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
                            s := s || '[' || msg || ']';
                        END;
                    END LOOP;
                    s := s || '<' || SQLERRM || '>';
                END;
            END LOOP;
        EXCEPTION WHEN raise_exception THEN
            s := s || '{' || SQLERRM || '}';
        END;
        s := s || ' ';
    END LOOP;
    RETURN s;
END
$$;
SELECT hl_nested(4);

CREATE FUNCTION hl_reraise_nested() RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
BEGIN
    BEGIN
        RAISE EXCEPTION 'first';
    EXCEPTION WHEN others THEN
        FOR i IN 1..3 LOOP
            BEGIN
                RAISE EXCEPTION 'inner %', i;
            EXCEPTION WHEN others THEN
                s := s || SQLERRM || ', ';
            END;
        END LOOP;
        s := s || 'then ' || SQLERRM;
        BEGIN
            RAISE;
        EXCEPTION WHEN others THEN
            s := s || ', re-raised ' || SQLERRM;
        END;
    END;
    RETURN s;
END
$$;
SELECT hl_reraise_nested();

-- WHILE and LOOP: the condition is the loop's, not the block's, so an
-- error in it is not caught by the block's handler; EXIT and CONTINUE as
-- in FOR
CREATE FUNCTION hl_while(mode text) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
    i int := 0;
    d int := 5;
BEGIN
    WHILE 100 / d > 0 AND i < 8 LOOP
        BEGIN
            i := i + 1;
            IF i = 2 THEN CONTINUE; END IF;
            IF mode = 'exit' AND i = 6 THEN EXIT; END IF;
            s := s || (10 / (i % 3));
            IF mode = 'cond_error' AND i = 5 THEN d := 0; END IF;
        EXCEPTION WHEN division_by_zero THEN
            s := s || 'z';
        END;
        s := s || ',';
    END LOOP;
    RETURN s || ' i=' || i;
EXCEPTION WHEN division_by_zero THEN
    RETURN s || ' condition failed at i=' || i;
END
$$;
SELECT hl_while('none'), hl_while('cond_error'), hl_while('exit');

CREATE FUNCTION hl_loop(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    s text := '';
    i int := 0;
BEGIN
    <<outer>>
    LOOP
        BEGIN
            i := i + 1;
            EXIT outer WHEN i > n;
            IF i % 2 = 0 THEN
                RAISE EXCEPTION 'even %', i;
            END IF;
            s := s || i || ' ';
        EXCEPTION WHEN raise_exception THEN
            s := s || '(' || SQLERRM || ') ';
            CONTINUE outer WHEN i < n;
            EXIT;
        END;
    END LOOP;
    RETURN s;
END
$$;
SELECT hl_loop(5), hl_loop(4), hl_loop(0);

-- the same loops with a savepoint on every entry (the setting's name is
-- spelled so that the PL/pgSQL oracle run leaves it alone: there it is
-- just a placeholder)
SELECT set_config('plnimble' || '.lazy_savepoints', 'off', false);
SELECT hl_basic(10);
SELECT m, hl_exits(m) FROM unnest(ARRAY['exit', 'handler_exit_outer']) m;
SELECT hl_while('cond_error'), hl_loop(5);
SELECT hl_return(4, true);
SELECT hl_uncaught('handler');
TRUNCATE hl_log;
SELECT hl_writes(6);
SELECT * FROM hl_log ORDER BY i;
SELECT set_config('plnimble' || '.lazy_savepoints', 'on', false);

-- query cancel in a long loop of blocks is not caught by WHEN OTHERS
CREATE FUNCTION hl_forever() RETURNS int LANGUAGE plnimble AS $$
DECLARE
    x int := 0;
BEGIN
    FOR i IN 1..2000000000 LOOP
        BEGIN
            x := x + 1;
        EXCEPTION WHEN others THEN
            x := -1;
        END;
    END LOOP;
    RETURN x;
END
$$;
-- (where the cancel is noticed depends on timing: no CONTEXT line)
\set VERBOSITY terse
SET statement_timeout = '200ms';
SELECT hl_forever();
RESET statement_timeout;
\set VERBOSITY default
