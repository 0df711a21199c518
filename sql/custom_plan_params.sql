-- custom_plan_params: the values of variables the planner folds into a
-- custom plan of a query (the plan cache makes one for each of the first
-- executions).  A field of a record that is NULL, or of a record that has
-- no such field, has no value to fold: the query is planned without it,
-- and execution raises the error only if it reads the field.  Queries on
-- NULL records used to crash the backend; they run in a second session
-- (sql/separate/run.sh), so that a crash shows as a difference here.
\setenv PGDATABASE :DBNAME
\! sh sql/separate/run.sh null_record_field
\c
-- this session is still here
SELECT count(*) AS rows_in_table FROM cpn_t;

-- a record whose shape changes: while the field is missing, a query whose
-- other condition is false (the plan reads no row and evaluates nothing)
-- does not fail; one that reads the field fails at execution
CREATE FUNCTION cpn_shape(reads_field boolean) RETURNS text LANGUAGE plnimble AS $$
DECLARE
    r record;
    n integer;
    acc text := '';
BEGIN
    SELECT 1 AS id INTO r;
    FOR i IN 1..3 LOOP
        IF i = 2 THEN
            SELECT 'x' AS other INTO r;
        END IF;
        IF reads_field THEN
            SELECT count(*) INTO n FROM cpn_t WHERE id = r.id;
        ELSE
            SELECT count(*) INTO n FROM cpn_t WHERE r.id = 1 AND i < 2;
        END IF;
        acc := acc || ' ' || i || ':' || n;
    END LOOP;
    RETURN acc;
EXCEPTION WHEN undefined_column THEN
    RETURN acc || ' error: ' || sqlerrm;
END
$$;
SELECT cpn_shape(false), cpn_shape(true);
