-- (fast_call_edges) exit_on_error turns the caught 22P02 into a FATAL
-- that is reported with its CONTEXT line: here from the fast entry (the
-- third call of the transaction)
SET exit_on_error = on;
BEGIN;
SELECT rv_si('1') AS a, rv_si('2') AS b, rv_si('x') AS c;
SELECT 'not reached';
