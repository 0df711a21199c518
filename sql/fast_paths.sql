-- fast_paths: the shortcuts the executor takes for speed give the same
-- answers as the general paths they bypass (docs/design.md, "Where the
-- time goes").  Trigger variables are given values only when the
-- function's text can name them: spelt in any case, behind a block label,
-- or as Unicode-escaped identifiers; a function naming none still sees
-- NEW and OLD.  RETURN NEW hands back the expanded record's own tuple,
-- also after columns were dropped and added; a record of another shape is
-- converted or refused.  Record field lookups are cached across calls
-- while records change shape between calls and between recursion levels.
-- Array element assignment changes the array in place, inside exception
-- blocks too, and an error in it leaves the array as it was.  RETURN NEXT
-- of a scalar variable, with and without a conversion to the result type.
-- Expressions right after COMMIT in a procedure, and after a rolled-back
-- subtransaction there.  Recursive functions, whose expressions are busy
-- in outer calls while inner calls evaluate them again: with errors
-- caught at several depths, arrays passed down and built up, SQL and
-- stable functions inside, and a plan invalidated halfway down.  Rows
-- kept in records by a procedure across COMMIT, with TOASTed fields.

CREATE TABLE fp_t (id int PRIMARY KEY, name text, qty int, total numeric(8,2));

-- no TG_ variable named: only NEW is used
CREATE FUNCTION fp_plain() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  NEW.name := upper(NEW.name);
  NEW.total := NEW.qty * 1.005;
  RETURN NEW;
END
$$;
CREATE TRIGGER fp_1 BEFORE INSERT OR UPDATE ON fp_t
  FOR EACH ROW EXECUTE FUNCTION fp_plain();

-- every TG_ variable, in mixed case and qualified by the function name
CREATE FUNCTION fp_names() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE '% % % % % % % % % %', Tg_Name, TG_WHEN, tg_level,
    fp_names.tg_op, tg_relid = 'fp_t'::regclass, TG_RELNAME, Tg_Table_Name,
    TG_TABLE_SCHEMA, TG_NARGS, TG_ARGV;
  RETURN NEW;
END
$$;
CREATE TRIGGER fp_2 BEFORE INSERT ON fp_t
  FOR EACH ROW EXECUTE FUNCTION fp_names('a', 'b c');

-- names spelt with Unicode escapes
CREATE FUNCTION fp_escaped() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  RAISE NOTICE 'op %, table %, argv %', U&"tg\005fop", U&"tg\005ftable\005fname",
    U&"tg\005fargv";
  RETURN NULL;
END
$$;
CREATE TRIGGER fp_3 AFTER INSERT ON fp_t
  FOR EACH ROW EXECUTE FUNCTION fp_escaped('x');

INSERT INTO fp_t VALUES (1, 'ab', 3), (2, 'cd', 4);
UPDATE fp_t SET qty = qty + 10 WHERE id = 2;
SELECT * FROM fp_t ORDER BY id;

-- the table changes shape: a dropped column stays in the row type
DROP TRIGGER fp_2 ON fp_t;
DROP TRIGGER fp_3 ON fp_t;
ALTER TABLE fp_t DROP COLUMN name;
ALTER TABLE fp_t ADD COLUMN label text;
CREATE OR REPLACE FUNCTION fp_plain() RETURNS trigger LANGUAGE plnimble AS $$
BEGIN
  NEW.label := 'n' || NEW.id;
  NEW.total := NEW.qty * 1.005;
  RETURN NEW;
END
$$;
INSERT INTO fp_t VALUES (3, 5);
UPDATE fp_t SET qty = 7 WHERE id = 1;
SELECT * FROM fp_t ORDER BY id;

-- returning a record of another table: converted when the columns match
-- by position, refused when they do not
CREATE TABLE fp_same (a int, b int, c numeric(8,2), d text);
CREATE TABLE fp_other (a int, b text);
CREATE FUNCTION fp_swap() RETURNS trigger LANGUAGE plnimble AS $$
DECLARE
  r record;
BEGIN
  IF NEW.qty > 100 THEN
    SELECT 1 AS a, 'x'::text AS b INTO r;
    r := ROW(1, 'x')::fp_other;
  ELSE
    r := ROW(NEW.id, NEW.qty * 2, NEW.total, 'swapped')::fp_same;
  END IF;
  RETURN r;
END
$$;
DROP TRIGGER fp_1 ON fp_t;
CREATE TRIGGER fp_4 BEFORE INSERT ON fp_t
  FOR EACH ROW EXECUTE FUNCTION fp_swap();
INSERT INTO fp_t VALUES (4, 6, 1.50);
INSERT INTO fp_t VALUES (5, 600, 1.50);
SELECT * FROM fp_t ORDER BY id;

-- record field lookups across calls: the record's shape changes per call
CREATE TABLE fp_r1 (x int, y text);
CREATE TABLE fp_r2 (y text, z int, x int);
INSERT INTO fp_r1 VALUES (1, 'one');
INSERT INTO fp_r2 VALUES ('two', 0, 2);
CREATE FUNCTION fp_field(which int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  r record;
BEGIN
  IF which = 1 THEN
    SELECT * INTO r FROM fp_r1;
  ELSIF which = 2 THEN
    SELECT * INTO r FROM fp_r2;
  ELSE
    SELECT 7 AS z INTO r;
  END IF;
  RETURN r.x || ':' || r.y;
END
$$;
SELECT fp_field(1), fp_field(2), fp_field(1), fp_field(2);
SELECT fp_field(3);
SELECT fp_field(1);

-- and between recursion levels
CREATE FUNCTION fp_nested(depth int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  r record;
  inner_text text := '';
BEGIN
  IF depth % 2 = 0 THEN
    SELECT * INTO r FROM fp_r1;
  ELSE
    SELECT * INTO r FROM fp_r2;
  END IF;
  IF depth > 0 THEN
    inner_text := fp_nested(depth - 1);
  END IF;
  r.x := r.x * 10 + depth;
  RETURN r.x || '/' || r.y || ' ' || inner_text;
END
$$;
SELECT fp_nested(4);

-- array element assignment in place, in and out of exception blocks
CREATE FUNCTION fp_array(n int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  a int[] := array_fill(0, ARRAY[5]);
  m int[] := '{{1,2},{3,4}}';
  caught int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      a[(i % 5) + 1] := a[(i % 5) + 1] + i;
      IF i % 4 = 0 THEN
        a[(i % 5) + 1] := 1 / (i - i);
      END IF;
    EXCEPTION WHEN division_by_zero THEN
      caught := caught + 1;
    END;
  END LOOP;
  BEGIN
    a[1][2] := 7;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'caught: %', SQLERRM;
  END;
  BEGIN
    m[2][1] := m[2][1] + 30;
    m[3][1] := 5;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'caught: %', SQLERRM;
  END;
  a[7] := -1;
  RETURN a::text || ' ' || m::text || ' caught ' || caught;
END
$$;
SELECT fp_array(12);

-- RETURN NEXT of a scalar variable
CREATE FUNCTION fp_next_int(n int) RETURNS SETOF int LANGUAGE plnimble AS $$
DECLARE
  v int;
BEGIN
  FOR i IN 1..n LOOP
    v := CASE WHEN i = 2 THEN NULL ELSE i * i END;
    RETURN NEXT v;
  END LOOP;
END
$$;
SELECT * FROM fp_next_int(4);
CREATE FUNCTION fp_next_cast(n int) RETURNS SETOF bigint LANGUAGE plnimble AS $$
DECLARE
  v numeric := 0.4;
BEGIN
  FOR i IN 1..n LOOP
    RETURN NEXT v;
    v := v + 0.3;
  END LOOP;
END
$$;
SELECT * FROM fp_next_cast(4);
CREATE FUNCTION fp_next_text() RETURNS SETOF text LANGUAGE plnimble AS $$
DECLARE
  v varchar(3) := 'abc';
  w name := 'def';
BEGIN
  RETURN NEXT v;
  RETURN NEXT w;
END
$$;
SELECT * FROM fp_next_text();
CREATE FUNCTION fp_next_bad() RETURNS SETOF int LANGUAGE plnimble AS $$
DECLARE
  v text := 'seven';
BEGIN
  RETURN NEXT v;
END
$$;
SELECT * FROM fp_next_bad();

-- expressions right after COMMIT, and after a rollback to a savepoint
CREATE TABLE fp_log (n int);
CREATE PROCEDURE fp_commit() LANGUAGE plnimble AS $$
DECLARE
  x int := 0;
  t text := '';
BEGIN
  FOR i IN 1..3 LOOP
    INSERT INTO fp_log VALUES (i);
    COMMIT;
    x := x + i * 2;
    t := t || repeat('z', i) || ',';
  END LOOP;
  ROLLBACK;
  t := upper(t);
  BEGIN
    INSERT INTO fp_log VALUES (100);
    x := x + length(t);
    PERFORM 1 / (x - x);
  EXCEPTION WHEN division_by_zero THEN
    x := x + 1000;
    t := t || 'caught';
  END;
  x := x + 1;
  RAISE NOTICE 'x = %, t = %', x, t;
END
$$;
CALL fp_commit();
SELECT * FROM fp_log ORDER BY n;

-- recursion: each level evaluates expressions the outer levels are busy with
CREATE FUNCTION fp_fib(k int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  IF k < 2 THEN
    RETURN k;
  END IF;
  RETURN fp_fib(k - 1) + fp_fib(k - 2);
END
$$;
SELECT fp_fib(15);
CREATE FUNCTION fp_rec_err(k int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  IF k = 0 THEN
    RETURN 1 / 0;
  END IF;
  BEGIN
    RETURN fp_rec_err(k - 1) + 10 * k;
  EXCEPTION WHEN division_by_zero THEN
    RETURN -k + CASE WHEN k > 2 THEN fp_rec_err(k - 2) ELSE 100 END;
  END;
END
$$;
SELECT fp_rec_err(5), fp_rec_err(6);
SELECT fp_rec_err(0);
SELECT fp_rec_err(7);
CREATE FUNCTION fp_rec_arr(k int, a int[]) RETURNS int[] LANGUAGE plnimble AS $$
BEGIN
  IF k = 0 THEN
    RETURN a;
  END IF;
  a := array_append(fp_rec_arr(k - 1, a || k), k * 100);
  RETURN a;
END
$$;
SELECT fp_rec_arr(4, '{}');
CREATE FUNCTION fp_rec_sql(k int) RETURNS bigint LANGUAGE plnimble AS $$
BEGIN
  IF k = 0 THEN
    RETURN (SELECT count(*) FROM fp_log);
  END IF;
  IF k = 3 THEN
    ALTER TABLE fp_log ADD COLUMN extra int;
  END IF;
  RETURN fp_rec_sql(k - 1) + fp_rec_sql(k - 1) + (now()::date - now()::date);
END
$$;
SELECT fp_rec_sql(5);
SELECT * FROM fp_log ORDER BY n;

-- a call that only evaluates expressions connects to SPI only when it
-- must: here a plan is invalidated halfway through a later call, and
-- planning again needs SPI
CREATE FUNCTION fp_sq(n int) RETURNS int LANGUAGE sql AS 'SELECT n + 1';
CREATE FUNCTION fp_redefine(k int) RETURNS int LANGUAGE plnimble AS $$
BEGIN
  EXECUTE format('CREATE OR REPLACE FUNCTION fp_sq(n int) RETURNS int LANGUAGE sql AS %L',
                 'SELECT n + ' || k);
  RETURN k;
END
$$;
CREATE FUNCTION fp_replan(k int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  before int;
  after int;
BEGIN
  before := fp_sq(10);
  PERFORM 1 WHERE false;
  after := fp_redefine(k) + fp_sq(10);
  RETURN before || ' ' || after;
END
$$;
CREATE FUNCTION fp_replan_expr_only(k int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  before int;
  after int;
BEGIN
  before := fp_sq(10);
  after := fp_redefine(k);
  after := after + fp_sq(10);
  BEGIN
    after := after + fp_sq(100) / (k - k);
  EXCEPTION WHEN division_by_zero THEN
    after := -after;
  END;
  RETURN before || ' ' || after;
END
$$;
SELECT fp_replan(2);
SELECT fp_replan_expr_only(3);
SELECT fp_replan_expr_only(4);
SELECT fp_replan_expr_only(5), fp_replan_expr_only(6);

-- a procedure keeps rows in records across COMMIT: values stored in a TOAST
-- table are fetched when the row is stored, before a COMMIT can take them
CREATE TABLE fp_big (k int, v text);
ALTER TABLE fp_big ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO fp_big SELECT g, repeat(md5(g::text), 400) FROM generate_series(1, 4) g;
CREATE PROCEDURE fp_toast() LANGUAGE plnimble AS $$
DECLARE
  t text;
  r record;
  total bigint := 0;
BEGIN
  SELECT v INTO t FROM fp_big WHERE k = 1;
  SELECT * INTO r FROM fp_big WHERE k = 2;
  DELETE FROM fp_big WHERE k IN (1, 2);
  COMMIT;
  total := length(t) + length(r.v);
  FOR r IN SELECT * FROM fp_big ORDER BY k LOOP
    UPDATE fp_big SET v = 'x' WHERE k = r.k;
    COMMIT;
    total := total + length(r.v) + r.k;
  END LOOP;
  RAISE NOTICE 'total %, starts %', total, substr(r.v, 1, 8);
END
$$;
CALL fp_toast();
SELECT k, length(v) FROM fp_big ORDER BY k;

-- a call that is not a recursion reuses the function's variable space from
-- its last call; a recursive one gets its own, so the outer level's
-- variables survive the inner calls, and each call starts from the
-- declared defaults whatever the last one left behind
CREATE FUNCTION fp_levels(k int) RETURNS text LANGUAGE plnimble AS $$
DECLARE
  mine text := 'level' || k;
  seen int := 0;
  inner_result text;
BEGIN
  seen := seen + 1;
  IF k = 0 THEN
    RETURN mine || ':' || seen;
  END IF;
  inner_result := fp_levels(k - 1);
  IF k = 7 THEN
    PERFORM 1 / (k - 7);
  END IF;
  RETURN mine || ':' || seen || '(' || inner_result || ')';
END
$$;
SELECT fp_levels(1);
SELECT fp_levels(3);
SELECT fp_levels(1), fp_levels(0), fp_levels(1);
DO $$
BEGIN
  RAISE NOTICE '%', fp_levels(8);
EXCEPTION WHEN division_by_zero THEN
  RAISE NOTICE 'caught, then: %', fp_levels(1);
END
$$;

-- expressions whose only mutable parts read no tables (format, concat,
-- now, to_char, ...) are evaluated without a new snapshot; any call that
-- may read a table still gets one, and sees the rows inserted before it,
-- also when it is an argument of format() or concat()
CREATE TABLE fp_snap (k int);
CREATE FUNCTION fp_snap_count() RETURNS bigint LANGUAGE sql STABLE
  AS 'SELECT count(*) FROM fp_snap';
CREATE FUNCTION fp_snap_test() RETURNS text LANGUAGE plnimble AS $$
DECLARE
  out text := '';
  started timestamptz := now();
BEGIN
  INSERT INTO fp_snap VALUES (1);
  out := format('%s;', fp_snap_count());
  INSERT INTO fp_snap VALUES (2);
  out := out || concat(fp_snap_count(), ';');
  INSERT INTO fp_snap VALUES (3);
  out := out || format('%s=%s;', 'n', 7 * 6) || fp_snap_count()::text;
  out := out || concat_ws(',', ';', to_char(12345, '99,999'), 1.5::float8,
                          now() = started, current_setting('statement_timeout'));
  RETURN out;
END
$$;
SELECT fp_snap_test();
SELECT fp_snap_test();
