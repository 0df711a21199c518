-- option_dump: "#option dump" writes the compiled tree of a function to
-- the server log when it is compiled, as PL/pgSQL does.  Shown here by
-- asking for LOG messages; clients do not see it otherwise.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL prints its
-- tree, in a form of its own, to the server's standard output.
SET client_min_messages = log;
CREATE FUNCTION dump_me(n int) RETURNS int LANGUAGE plpgsql AS $$
#option dump
DECLARE
    s int := 0;
BEGIN
    FOR i IN 1..n LOOP
        s := s + i;
    END LOOP;
    BEGIN
        RAISE NOTICE 'sum %', s;
        CASE s WHEN 6 THEN s := s * 10; ELSE NULL; END CASE;
    EXCEPTION WHEN OTHERS THEN
        RETURN -1;
    END;
    RETURN s;
END
$$;
SELECT dump_me(3);
SELECT dump_me(4);
-- without the option, nothing is written
CREATE FUNCTION dump_me_not(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    RETURN n;
END
$$;
SELECT dump_me_not(1);
RESET client_min_messages;
