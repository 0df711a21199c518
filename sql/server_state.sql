-- server_state: what the server's views show of a function's work, which
-- a client can see besides its results: the relation locks a call leaves
-- behind (statements in branches not taken lock nothing, a block's
-- failed statement keeps its lock only if its subtransaction is kept),
-- the command ids (cmin) of the rows each statement writes, with caught
-- errors and dynamic SQL in between, the numbers SPI gives unnamed
-- portals after every kind of statement (a portal more or less anywhere
-- would shift them), and the calls pg_stat_xact_user_functions counts.

CREATE TABLE ss_a (id int PRIMARY KEY, v text);
CREATE TABLE ss_b (id int);
CREATE TABLE ss_c (id int);
CREATE TABLE ss_d (id int);
INSERT INTO ss_a VALUES (1, 'one');

CREATE VIEW ss_locks AS
  SELECT relation::regclass::text AS rel, mode
    FROM pg_locks
   WHERE locktype = 'relation' AND pid = pg_backend_pid()
     AND relation::regclass::text LIKE 'ss\_%'
   ORDER BY 1, 2;

CREATE FUNCTION ss_branches(k int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
  r record;
BEGIN
  IF k = 1 THEN
    INSERT INTO ss_b VALUES (1);
  ELSIF k = 2 THEN
    PERFORM * FROM ss_c;
  END IF;
  BEGIN
    UPDATE ss_d SET id = id WHERE k = 3;
    IF k = 4 THEN
      PERFORM 1 / 0;
    END IF;
  EXCEPTION WHEN division_by_zero THEN
    NULL;
  END;
  FOR r IN SELECT * FROM ss_a WHERE k = 5 LOOP
  END LOOP;
  RETURN k;
END
$$;
BEGIN;
SELECT ss_branches(0);
SELECT * FROM ss_locks;
COMMIT;
BEGIN;
SELECT ss_branches(1);
SELECT * FROM ss_locks;
COMMIT;
-- the UPDATE's lock goes with the rolled-back subtransaction
BEGIN;
SELECT ss_branches(4);
SELECT * FROM ss_locks;
COMMIT;

-- command ids of the rows written
CREATE FUNCTION ss_writes() RETURNS void LANGUAGE plnimble AS $$
DECLARE
  x int;
BEGIN
  INSERT INTO ss_b VALUES (10);
  x := 1;
  INSERT INTO ss_c VALUES (10);
  BEGIN
    INSERT INTO ss_a VALUES (2, 'two');
  EXCEPTION WHEN unique_violation THEN
    NULL;
  END;
  BEGIN
    INSERT INTO ss_a VALUES (1, 'dup');
  EXCEPTION WHEN unique_violation THEN
    NULL;
  END;
  INSERT INTO ss_b VALUES (11);
  BEGIN
    INSERT INTO ss_c VALUES (11);
    PERFORM 1 / 0;
  EXCEPTION WHEN others THEN
    NULL;
  END;
  UPDATE ss_a SET v = v || '!' WHERE id = 2;
  EXECUTE 'INSERT INTO ss_c VALUES (12)';
  INSERT INTO ss_c SELECT 13;
END
$$;
TRUNCATE ss_b, ss_c;
BEGIN;
SELECT ss_writes();
SELECT id, v, cmin, cmax FROM ss_a ORDER BY id;
SELECT 'b' AS t, id, cmin FROM ss_b UNION ALL
SELECT 'c', id, cmin FROM ss_c ORDER BY 1, 2;
COMMIT;

-- unnamed portal numbers after each kind of statement
CREATE FUNCTION ss_portal_name() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  c refcursor;
BEGIN
  OPEN c FOR SELECT 1;
  CLOSE c;
  RETURN c;
END
$$;
CREATE PROCEDURE ss_proc() LANGUAGE plnimble AS $$
BEGIN
  PERFORM 1;
END
$$;
CREATE FUNCTION ss_portals() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  r record;
  x int;
BEGIN
  RETURN NEXT 'start: ' || ss_portal_name();
  RETURN QUERY SELECT 'rq ' || id FROM ss_a WHERE id = 1;
  RETURN NEXT 'return query: ' || ss_portal_name();
  RETURN QUERY EXECUTE 'SELECT ''rqe '' || id FROM ss_a WHERE id = 1';
  RETURN NEXT 'return query execute: ' || ss_portal_name();
  FOR r IN SELECT * FROM ss_a LOOP END LOOP;
  RETURN NEXT 'for query: ' || ss_portal_name();
  FOR r IN EXECUTE 'SELECT * FROM ss_a' LOOP END LOOP;
  RETURN NEXT 'for execute: ' || ss_portal_name();
  EXECUTE 'SELECT 1' INTO x;
  x := (SELECT count(*) FROM ss_a);
  SELECT id INTO x FROM ss_a WHERE id = 1;
  PERFORM * FROM ss_a;
  UPDATE ss_a SET v = v WHERE id = 1;
  RETURN NEXT 'execute, subquery, into, perform, update: ' || ss_portal_name();
  BEGIN
    INSERT INTO ss_a VALUES (1, 'dup');
  EXCEPTION WHEN unique_violation THEN
    NULL;
  END;
  RETURN NEXT 'caught duplicate: ' || ss_portal_name();
  CALL ss_proc();
  DO $d$ BEGIN PERFORM 1; END $d$;
  FOREACH x IN ARRAY ARRAY[1, 2] LOOP END LOOP;
  RETURN NEXT 'call, do, foreach: ' || ss_portal_name();
END
$$;
SELECT * FROM ss_portals();

-- function calls counted, including those of simple expressions, of a
-- trigger, of a procedure, and in a failed block
SET track_functions = 'all';
CREATE FUNCTION ss_leaf(x int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  RETURN x + 1;
END
$$;
CREATE FUNCTION ss_trg() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  NEW.id := ss_leaf(NEW.id);
  RETURN NEW;
END
$$;
CREATE TRIGGER ss_trg BEFORE INSERT ON ss_d
  FOR EACH ROW EXECUTE FUNCTION ss_trg();
CREATE PROCEDURE ss_leaf_proc(INOUT x int) LANGUAGE plnimble AS $$
BEGIN
  x := ss_leaf(x);
END
$$;
CREATE FUNCTION ss_top() RETURNS int LANGUAGE plnimble AS $$
DECLARE
  x int := 0;
BEGIN
  FOR i IN 1..3 LOOP
    x := ss_leaf(x);
  END LOOP;
  PERFORM ss_leaf(g) FROM generate_series(1, 2) g;
  INSERT INTO ss_d VALUES (1), (2);
  CALL ss_leaf_proc(x);
  x := (SELECT sum(ss_leaf(id)) FROM ss_d);
  BEGIN
    x := ss_leaf(x) / 0;
  EXCEPTION WHEN others THEN
    NULL;
  END;
  RETURN x;
END
$$;
BEGIN;
SELECT ss_top();
SELECT funcname, calls FROM pg_stat_xact_user_functions
 WHERE funcname LIKE 'ss\_%' ORDER BY funcname;
COMMIT;
RESET track_functions;
