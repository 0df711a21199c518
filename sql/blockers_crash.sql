-- blockers_crash: a row trigger function returning a scalar variable (an
-- int, a "char", any value passed by value) used to crash the backend:
-- the result was read as a pointer to a row before its type was checked.
-- PL/pgSQL's error is raised at the RETURN.  Also the same RETURN in
-- functions returning a row, a record or a set of rows, NULL scalars,
-- AFTER and statement-level triggers, rows of another shape.  The
-- statements run in a second session (sql/separate/run.sh), so that a
-- crash shows as a difference here instead of ending this script.
\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh trigger_scalar
\c
-- this session is still here, and so is the table
SELECT count(*) AS rows_inserted FROM crash_t;
