-- Second session of custom_plan_params (see sql/separate/run.sh).
-- Planning a query that reads a field of a record variable that is NULL
-- (a row variable assigned NULL by a subquery finding no row, or never
-- assigned) used to crash the backend: the planner's question for the
-- field's value got no answer at all.
CREATE TABLE cpn_t (id int PRIMARY KEY, v text);
INSERT INTO cpn_t VALUES (1, 'a'), (2, 'b'), (3, NULL);
DO $$
DECLARE
  r cpn_t;
BEGIN
  FOR i IN 1..2 LOOP
    r := (SELECT cpn_t FROM cpn_t WHERE id = r.id);
  END LOOP;
  RAISE NOTICE 'r = %', r;
END $$;
DO $$
DECLARE
  r cpn_t;
  n int;
BEGIN
  r := NULL;
  PERFORM * FROM cpn_t WHERE id = r.id;
  RAISE NOTICE 'found = %', found;
  SELECT count(*) INTO n FROM cpn_t WHERE id = r.id OR r.id IS NULL;
  RAISE NOTICE 'n = %', n;
END $$;
-- a row variable never assigned, in a function called twice
CREATE TYPE cpn_pt AS (x int, y text);
CREATE FUNCTION cpn_unassigned() RETURNS int LANGUAGE plnimble AS $$
DECLARE
  v cpn_pt;
BEGIN
  PERFORM 1 FROM cpn_t WHERE id = v.x;
  RETURN 1;
END $$;
SELECT cpn_unassigned();
SELECT cpn_unassigned();
