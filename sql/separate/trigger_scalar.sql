-- Second session of blockers_crash (see sql/separate/run.sh).
-- A trigger function returning a scalar variable used to read the
-- variable's value as a pointer to a row: a backend crash.
CREATE TABLE crash_t (a int);
CREATE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r;
END $$;
CREATE TRIGGER crash_trg BEFORE INSERT ON crash_t
  FOR EACH ROW EXECUTE FUNCTION crash_int();
INSERT INTO crash_t VALUES (1);
-- a "char" (one byte, by value)
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r "char" := 'x';
BEGIN
  RETURN r;
END $$;
INSERT INTO crash_t VALUES (2);
-- a bigint, a boolean, an oid
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r bigint := 1234567890123;
BEGIN
  RETURN r;
END $$;
INSERT INTO crash_t VALUES (3);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r boolean := true;
BEGIN
  RETURN r;
END $$;
INSERT INTO crash_t VALUES (4);
-- an argument of the trigger, a loop variable, a parameter-like TG_ variable
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  FOR i IN 1..3 LOOP
    IF i = 2 THEN RETURN i; END IF;
  END LOOP;
  RETURN NEW;
END $$;
INSERT INTO crash_t VALUES (5);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RETURN tg_nargs;
END $$;
INSERT INTO crash_t VALUES (6);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RETURN tg_relid;
END $$;
INSERT INTO crash_t VALUES (7);
-- an expression, a text, an array: errors already
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r + 1;
END $$;
INSERT INTO crash_t VALUES (8);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RETURN tg_op;
END $$;
INSERT INTO crash_t VALUES (9);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r int[] := '{1}';
BEGIN
  RETURN r;
END $$;
INSERT INTO crash_t VALUES (10);
-- a NULL scalar skips the row, as NULL always does
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r int;
BEGIN
  RETURN r;
END $$;
INSERT INTO crash_t VALUES (11);
-- AFTER and statement-level triggers ignore the result, but the RETURN
-- still checks it
DROP TRIGGER crash_trg ON crash_t;
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r;
END $$;
CREATE TRIGGER crash_after AFTER INSERT ON crash_t
  FOR EACH ROW EXECUTE FUNCTION crash_int();
INSERT INTO crash_t VALUES (12);
DROP TRIGGER crash_after ON crash_t;
CREATE TRIGGER crash_stmt BEFORE INSERT ON crash_t
  FOR EACH STATEMENT EXECUTE FUNCTION crash_int();
INSERT INTO crash_t VALUES (13);
DROP TRIGGER crash_stmt ON crash_t;
-- the same RETURN in functions returning a row, a record, a set of rows
CREATE FUNCTION crash_row() RETURNS crash_t LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r;
END $$;
SELECT crash_row();
CREATE FUNCTION crash_record() RETURNS record LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r;
END $$;
SELECT crash_record();
CREATE FUNCTION crash_setof() RETURNS SETOF crash_t LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN NEXT r;
  RETURN NEXT (r + 1);
END $$;
SELECT * FROM crash_setof();
CREATE FUNCTION crash_setof_expr() RETURNS SETOF crash_t LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN NEXT r + 1;
END $$;
SELECT * FROM crash_setof_expr();
-- a row trigger returning a record or row of another shape
CREATE TABLE crash_other (x int, y int);
CREATE OR REPLACE FUNCTION crash_int() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE o crash_other := row(1, 2);
BEGIN
  RETURN o;
END $$;
CREATE TRIGGER crash_trg BEFORE INSERT ON crash_t
  FOR EACH ROW EXECUTE FUNCTION crash_int();
INSERT INTO crash_t VALUES (14);
-- an event trigger function cannot return a value at all
CREATE FUNCTION crash_evt() RETURNS event_trigger LANGUAGE plnimble AS $$
DECLARE r int := 5;
BEGIN
  RETURN r;
END $$;
TABLE crash_t;
