-- function_label: the label the function's name gives its outermost
-- scope.  It qualifies parameters, FOUND and the trigger variables, also
-- when an inner declaration hides them; CONTINUE cannot name it; EXIT may,
-- and then leaves the body without a RETURN, which is an error for every
-- kind of routine (a void or set-returning function, one with OUT
-- parameters, a procedure, a DO block, a trigger and an event trigger),
-- even where falling off the end is a RETURN, and even from inside loops,
-- labelled blocks and blocks with handlers (which do not catch it).  A
-- body block labelled with the function's name is what such an EXIT ends.

CREATE TABLE fl_t (a int);

CREATE FUNCTION fl_int(a int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  IF a > 0 THEN
    EXIT fl_int;
  END IF;
  RETURN 1;
END
$$;
SELECT fl_int(0);
SELECT fl_int(1);

CREATE FUNCTION fl_void() RETURNS void LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE 'before';
  EXIT fl_void;
  RAISE NOTICE 'not reached';
END
$$;
SELECT fl_void();

CREATE FUNCTION fl_setof() RETURNS SETOF int LANGUAGE plnimble AS $$
BEGIN
  RETURN NEXT 1;
  EXIT fl_setof;
  RETURN NEXT 2;
END
$$;
SELECT * FROM fl_setof();

CREATE FUNCTION fl_table() RETURNS TABLE (x int) LANGUAGE plnimble AS $$
BEGIN
  x := 1;
  RETURN NEXT;
  EXIT fl_table;
END
$$;
SELECT * FROM fl_table();

CREATE FUNCTION fl_out(OUT a int, OUT b int) LANGUAGE plnimble AS $$
BEGIN
  a := 1;
  b := 2;
  EXIT fl_out;
END
$$;
SELECT fl_out();
CREATE FUNCTION fl_out1(OUT a int) LANGUAGE plnimble AS $$
BEGIN
  a := 1;
  EXIT fl_out1;
END
$$;
SELECT fl_out1();

CREATE PROCEDURE fl_proc() LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE 'in procedure';
  EXIT fl_proc;
END
$$;
CALL fl_proc();

DO LANGUAGE plnimble $$
BEGIN
  RAISE NOTICE 'in DO';
  EXIT inline_code_block;
END
$$;

-- from inside loops and blocks with handlers, which do not catch it
CREATE FUNCTION fl_nested() RETURNS void LANGUAGE plnimble AS $$
BEGIN
  <<inner>>
  BEGIN
    LOOP
      BEGIN
        EXIT fl_nested;
      EXCEPTION WHEN others THEN
        RAISE NOTICE 'not caught here';
      END;
    END LOOP;
  END;
  RAISE NOTICE 'not reached';
EXCEPTION WHEN others THEN
  RAISE NOTICE 'nor here';
END
$$;
SELECT fl_nested();

-- a body block carrying the function's name is what EXIT ends
CREATE FUNCTION fl_labelled() RETURNS void LANGUAGE plnimble AS $$
<<fl_labelled>>
BEGIN
  EXIT fl_labelled;
  RAISE NOTICE 'not reached';
END
$$;
SELECT fl_labelled();

CREATE FUNCTION fl_trg() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE '% %', fl_trg.new, fl_trg.tg_op;
  IF fl_trg.new.a < 0 THEN
    EXIT fl_trg;
  END IF;
  RETURN fl_trg.new;
END
$$;
CREATE TRIGGER fl_trg BEFORE INSERT ON fl_t
  FOR EACH ROW EXECUTE FUNCTION fl_trg();
INSERT INTO fl_t VALUES (1);
INSERT INTO fl_t VALUES (-1);

CREATE FUNCTION fl_evt() RETURNS event_trigger LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE 'event %', fl_evt.tg_tag;
  EXIT fl_evt;
END
$$;
CREATE EVENT TRIGGER fl_evt ON ddl_command_start
  EXECUTE FUNCTION fl_evt();
CREATE TABLE fl_u (a int);
DROP EVENT TRIGGER fl_evt;

-- CONTINUE cannot name it
CREATE FUNCTION fl_continue() RETURNS int LANGUAGE plnimble AS $$
BEGIN
  LOOP
    CONTINUE fl_continue;
  END LOOP;
END
$$;

-- qualifying: a parameter hidden by a declaration of the same name, and
-- FOUND, which the function's scope declares
CREATE FUNCTION fl_qualified(a int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  a int := 2;
BEGIN
  PERFORM 1;
  RETURN fl_qualified.a || ' ' || a || ' ' || fl_qualified.found;
END
$$;
SELECT fl_qualified(1);
CREATE FUNCTION fl_found() RETURNS int LANGUAGE plnimble AS $$
DECLARE
  found int := 3;
BEGIN
  RETURN fl_found.found;
END
$$;
SELECT fl_found();
