-- The profiler (plnimble.profiler) and coverage: per line and per
-- statement counts, line numbers, rows, the savepoints each exception
-- block started and avoided, errors caught with and without one,
-- resets, and the branches taken.  Times are only checked to be
-- non-negative and consistent.
-- plnimble-only (listed in oracle-allowlist.txt): the profiler functions
-- do not exist in PL/pgSQL.

CREATE TABLE prof_t (id int PRIMARY KEY, v text);

CREATE FUNCTION prof_demo(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  s int := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := s + i;
    IF i % 2 = 0 THEN
      s := s - 1;
    END IF;
  END LOOP;
  BEGIN
    s := s / (n - n);
  EXCEPTION WHEN division_by_zero THEN
    s := -s;
  END;
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO prof_t VALUES (i % 3, 'x');
    EXCEPTION WHEN unique_violation THEN
      UPDATE prof_t SET v = v || 'y' WHERE id = i % 3;
    END;
  END LOOP;
  RETURN s;
END
$$;

-- nothing is counted while the profiler is off
SELECT prof_demo(4);
SELECT count(*) FROM plnimble_profiler_functions_all();
SELECT sum(exec_stmts) FROM plnimble_profiler_function_tb('prof_demo(int)');

SET plnimble.profiler = on;
TRUNCATE prof_t;
SELECT prof_demo(4);
SELECT prof_demo(4);

SELECT lineno, stmt_lineno, exec_stmts, exec_stmts_err, processed_rows,
       savepoints_started, savepoints_avoided, source
  FROM plnimble_profiler_function_tb('prof_demo(int)') ORDER BY lineno;

SELECT stmtid, parent_stmtid, parent_note, lineno, nesting, stmtname,
       exec_stmts, exec_stmts_err, processed_rows, savepoints_started,
       savepoints_avoided, errors_caught_lazy, errors_caught_subxact
  FROM plnimble_profiler_function_statements_tb('prof_demo(int)');

-- times: non-negative, and consistent with each other
SELECT bool_and(total_time >= 0 AND max_time >= 0 AND avg_time >= 0) AS nonneg,
       bool_and(max_time <= total_time) AS max_le_total,
       bool_and(exec_stmts = 0 OR abs(avg_time * exec_stmts - total_time) < 0.01 * exec_stmts + 0.01) AS avg_ok
  FROM plnimble_profiler_function_statements_tb('prof_demo(int)');
-- a statement's time includes the statements nested in it
SELECT bool_and(p.total_time >= c.total_time) AS parent_ge_child
  FROM plnimble_profiler_function_statements_tb('prof_demo(int)') p
  JOIN plnimble_profiler_function_statements_tb('prof_demo(int)') c
    ON c.parent_stmtid = p.stmtid;

-- the statements of a body together take no longer than the statement
-- they are nested in (a statement may start where the one before ended),
-- and a call no less than its top block
SELECT bool_and(p.total_time >= c.total - 0.001) AS parent_ge_children
  FROM plnimble_profiler_function_statements_tb('prof_demo(int)') p
  JOIN (SELECT parent_stmtid, sum(total_time) AS total
          FROM plnimble_profiler_function_statements_tb('prof_demo(int)')
         GROUP BY parent_stmtid) c ON c.parent_stmtid = p.stmtid;
SELECT f.total_time >= s.total_time - 0.001 AS call_ge_top_block
  FROM plnimble_profiler_functions_all() f,
       plnimble_profiler_function_statements_tb('prof_demo(int)') s
 WHERE f.funcoid = 'prof_demo(int)'::regprocedure AND s.stmtid = 1;

SELECT funcoid, exec_count, exec_err, exec_stmts, savepoints_started,
       savepoints_avoided, total_time >= max_time AS times_ok
  FROM plnimble_profiler_functions_all();

SELECT plnimble_coverage_statements('prof_demo(int)') AS statements,
       plnimble_coverage_branches('prof_demo(int)') AS branches;
-- the routine by its bare name too, as plpgsql_check's functions take it
SELECT plnimble_coverage_statements('prof_demo') = plnimble_coverage_statements('prof_demo(int)') AS same_statements,
       plnimble_coverage_branches('prof_demo') = plnimble_coverage_branches('prof_demo(int)') AS same_branches,
       (SELECT count(*) FROM plnimble_profiler_function_tb('prof_demo')) =
       (SELECT count(*) FROM plnimble_profiler_function_tb('prof_demo(int)')) AS same_lines,
       (SELECT sum(exec_stmts) FROM plnimble_profiler_function_statements_tb('prof_demo')) =
       (SELECT sum(exec_stmts) FROM plnimble_profiler_function_statements_tb('prof_demo(int)')) AS same_statement_rows;

-- an error that leaves the function counts against the statements it
-- passed through
CREATE FUNCTION prof_fail(x int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  IF x > 0 THEN
    RETURN 10 / (x - x);
  END IF;
  RETURN 0;
END
$$;
SELECT prof_fail(0);
SELECT prof_fail(1);
SELECT prof_fail(0);
SELECT lineno, exec_stmts, exec_stmts_err, source
  FROM plnimble_profiler_function_tb('prof_fail(int)') ORDER BY lineno;
SELECT funcoid, exec_count, exec_err FROM plnimble_profiler_functions_all()
 ORDER BY funcoid::text;
SELECT plnimble_coverage_statements('prof_fail(int)') AS statements,
       plnimble_coverage_branches('prof_fail(int)') AS branches;

-- an error caught by a caller's block, in a nested call
CREATE FUNCTION prof_outer() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    PERFORM prof_fail(1);
  EXCEPTION WHEN division_by_zero THEN
    RETURN -1;
  END;
  RETURN 1;
END
$$;
SELECT plnimble_profiler_reset('prof_fail(int)');
SELECT prof_outer();
SELECT stmtid, lineno, stmtname, exec_stmts, exec_stmts_err,
       savepoints_started, savepoints_avoided, errors_caught_lazy,
       errors_caught_subxact
  FROM plnimble_profiler_function_statements_tb('prof_outer()');
SELECT lineno, exec_stmts, exec_stmts_err
  FROM plnimble_profiler_function_tb('prof_fail(int)') WHERE stmt_lineno IS NOT NULL;

-- the profile survives the end of the transaction, and a rollback
BEGIN;
SELECT prof_fail(0);
ROLLBACK;
SELECT exec_count FROM plnimble_profiler_functions_all()
 WHERE funcoid = 'prof_fail(int)'::regprocedure;

-- a procedure that ends transactions: COMMIT and ROLLBACK leave the
-- counts of the statements around them alone
CREATE PROCEDURE prof_proc() LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..3 LOOP
    INSERT INTO prof_t VALUES (100 + i, 'p');
    IF i = 2 THEN
      ROLLBACK;
    ELSE
      COMMIT;
    END IF;
  END LOOP;
END
$$;
CALL prof_proc();
SELECT stmtid, lineno, stmtname, exec_stmts, exec_stmts_err, processed_rows
  FROM plnimble_profiler_function_statements_tb('prof_proc()');
SELECT count(*) FROM prof_t WHERE id > 100;

-- every kind of loop and branch, CONTINUE and EXIT, and recursion: the
-- counts are the same with the profiler alone (a statement that follows
-- another takes its end as its start) and with the tracer attached too
-- (then every statement reads the clock)
CREATE FUNCTION prof_kinds(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  s int := 0;
  j int := 0;
  r record;
BEGIN
  WHILE j < n LOOP
    j := j + 1;
    CONTINUE WHEN j % 2 = 0;
    s := s + j;
  END LOOP;
  LOOP
    j := j - 1;
    EXIT WHEN j <= 0;
    CASE j % 2
      WHEN 0 THEN s := s + 1;
      ELSE s := s - 1;
    END CASE;
  END LOOP;
  FOR i IN REVERSE n..1 BY 2 LOOP
    s := s + i;
    IF n > 1 THEN
      s := s + prof_kinds(n - 1);
    END IF;
  END LOOP;
  FOREACH j IN ARRAY ARRAY[1, 2, 3] LOOP
    s := s + j;
  END LOOP;
  FOR r IN SELECT g FROM generate_series(1, n) g LOOP
    s := s + r.g;
  END LOOP;
  RETURN s;
END
$$;
SELECT plnimble_profiler_reset_all();
SELECT prof_kinds(3);
SELECT stmtid, parent_stmtid, lineno, stmtname, exec_stmts, exec_stmts_err,
       processed_rows
  FROM plnimble_profiler_function_statements_tb('prof_kinds(int)');
SELECT bool_and(p.total_time >= c.total - 0.001) AS parent_ge_children
  FROM plnimble_profiler_function_statements_tb('prof_kinds(int)') p
  JOIN (SELECT parent_stmtid, sum(total_time) AS total
          FROM plnimble_profiler_function_statements_tb('prof_kinds(int)')
         GROUP BY parent_stmtid) c ON c.parent_stmtid = p.stmtid;
CREATE TEMP TABLE prof_alone AS
  SELECT stmtid, exec_stmts, exec_stmts_err, processed_rows
    FROM plnimble_profiler_function_statements_tb('prof_kinds(int)');
SELECT plnimble_profiler_reset_all();
SET plnimble.tracer = on;
SET plnimble.tracer_verbosity = statements;
SET plnimble.tracer_level = debug5;
SELECT prof_kinds(3);
RESET plnimble.tracer_level;
RESET plnimble.tracer_verbosity;
SET plnimble.tracer = off;
SELECT count(*) AS statements,
       count(*) FILTER (WHERE (a.exec_stmts, a.exec_stmts_err, a.processed_rows)
                        IS DISTINCT FROM (b.exec_stmts, b.exec_stmts_err, b.processed_rows))
         AS counted_otherwise
  FROM prof_alone a
  JOIN plnimble_profiler_function_statements_tb('prof_kinds(int)') b USING (stmtid);
SELECT exec_count, exec_stmts FROM plnimble_profiler_functions_all()
 WHERE funcoid = 'prof_kinds(int)'::regprocedure;

-- reset one, then all
SELECT plnimble_profiler_reset('prof_demo(int)');
SELECT sum(exec_stmts) FROM plnimble_profiler_function_tb('prof_demo(int)');
SELECT plnimble_profiler_reset_all();
SELECT count(*) FROM plnimble_profiler_functions_all();

-- replacing a function starts its profile afresh
SELECT prof_fail(0);
CREATE OR REPLACE FUNCTION prof_fail(x int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RETURN x;
END
$$;
SELECT sum(exec_stmts) FROM plnimble_profiler_function_tb('prof_fail(int)');
SELECT prof_fail(3);
SELECT lineno, exec_stmts, source
  FROM plnimble_profiler_function_tb('prof_fail(int)') ORDER BY lineno;

-- only functions of the language
SELECT * FROM plnimble_profiler_function_tb('abs(int)');

SET plnimble.profiler = off;
SELECT prof_fail(3);
SELECT exec_count FROM plnimble_profiler_functions_all();
