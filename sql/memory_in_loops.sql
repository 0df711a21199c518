-- memory_in_loops: a long loop must not make a call's memory grow.  Each
-- function runs its loop, measures the backend's memory contexts after the
-- first 1,000 iterations and at the end, and reports whether they grew by
-- less than 256 kB.  Statements that once kept memory until the call ended
-- (a copy of every caught error, the text of every EXECUTE) are among them,
-- and expressions whose evaluation fails in every iteration (a domain's
-- check), each caught: once kept a new expression state per failure until
-- the transaction ended.

CREATE TABLE mil_t (id integer PRIMARY KEY, v text NOT NULL);
INSERT INTO mil_t SELECT g, repeat('x', g % 50) FROM generate_series(1, 100) g;

CREATE FUNCTION mil_used() RETURNS bigint LANGUAGE sql
    AS 'SELECT sum(total_bytes - free_bytes)::bigint FROM pg_backend_memory_contexts';

CREATE FUNCTION mil_statements(n integer) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    s text;
    v text;
    r record;
    a integer[] := '{}';
    total bigint := 0;
    at_start bigint;
    c refcursor;
BEGIN
    SET LOCAL client_min_messages = warning;
    FOR i IN 1..n LOOP
        s := format('row %s:%s', i, i % 97);
        a := a || i;
        IF i % 100 = 0 THEN
            a := '{}';
        END IF;
        SELECT t.v INTO v FROM mil_t t WHERE t.id = i % 100 + 1;
        SELECT * INTO r FROM mil_t t WHERE t.id = i % 100 + 1;
        EXECUTE format('SELECT %L || $1', s) INTO v USING i;
        FOR r IN EXECUTE 'SELECT id, v FROM mil_t WHERE id = $1' USING i % 100 + 1 LOOP
            total := total + r.id;
        END LOOP;
        OPEN c FOR EXECUTE 'SELECT v FROM mil_t WHERE id = ' || (i % 100 + 1);
        FETCH c INTO v;
        CLOSE c;
        RAISE NOTICE 'row % %', i, s;
        GET DIAGNOSTICS v = PG_CONTEXT;
        BEGIN
            RAISE EXCEPTION 'failure %', i USING DETAIL = s, HINT = 'h' || i;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS v = MESSAGE_TEXT, s = PG_EXCEPTION_CONTEXT;
        END;
        BEGIN
            total := total / (i % 2);
        EXCEPTION WHEN division_by_zero THEN
            total := total + 1;
        END;
        BEGIN
            INSERT INTO mil_t VALUES (1, 'dup');
        EXCEPTION WHEN unique_violation THEN
            total := total + 1;
        END;
        IF i = 1000 THEN
            at_start := mil_used();
        END IF;
    END LOOP;
    RETURN mil_used() - at_start < 256 * 1024;
END
$$;
SELECT mil_statements(5000);

CREATE DOMAIN mil_posint AS integer CHECK (VALUE > 0);
CREATE FUNCTION mil_failing_expressions(n integer) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    d mil_posint;
    t text;
    caught integer := 0;
    at_start bigint;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            d := -i;
        EXCEPTION WHEN check_violation THEN
            caught := caught + 1;
        END;
        BEGIN
            t := (-i)::mil_posint::text;
        EXCEPTION WHEN check_violation THEN
            caught := caught + 1;
        END;
        IF i = 1000 THEN
            at_start := mil_used();
        END IF;
    END LOOP;
    RETURN caught = 2 * n AND mil_used() - at_start < 256 * 1024;
END
$$;
SELECT mil_failing_expressions(5000);
