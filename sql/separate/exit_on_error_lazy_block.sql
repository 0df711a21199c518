-- (fast_call_edges) the same on the ordinary path, with a block entered
-- without its subtransaction
SET exit_on_error = on;
BEGIN;
SELECT rv_si_slow('1') AS a, rv_si_slow('2') AS b, rv_si_slow('x') AS c;
SELECT 'not reached';
