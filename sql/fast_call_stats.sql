-- fast_call_stats: the savepoint counters of calls that take the fast
-- entry (src/entry/fast_call.c; fast_calls counts them, and a call whose
-- error a handler catches, handed over to the ordinary path, is not
-- counted) are those of the ordinary path: each call enters
-- the block once, an error caught by a handler is counted once, without a
-- savepoint; and a call watched by the profiler takes the ordinary path,
-- so the profiler counts every call.
-- plnimble-only (listed in oracle-allowlist.txt): PL/pgSQL has neither
-- the counters nor the profiler.

CREATE TABLE fs_prev AS SELECT * FROM plnimble_savepoint_stats();
CREATE FUNCTION fs_delta(OUT blocks bigint, OUT savepoints bigint,
                         OUT caught_lazy bigint, OUT caught_subxact bigint,
                         OUT fast_calls bigint)
LANGUAGE sql AS $$
    WITH cur AS (SELECT * FROM plnimble_savepoint_stats()),
         old AS (SELECT * FROM fs_prev),
         upd AS (UPDATE fs_prev SET (blocks_entered, savepoints_materialized,
                                     errors_caught_lazy, errors_caught_subxact,
                                     fast_calls)
                     = (SELECT blocks_entered, savepoints_materialized,
                               errors_caught_lazy, errors_caught_subxact,
                               fast_calls
                          FROM cur))
    SELECT cur.blocks_entered - old.blocks_entered,
           cur.savepoints_materialized - old.savepoints_materialized,
           cur.errors_caught_lazy - old.errors_caught_lazy,
           cur.errors_caught_subxact - old.errors_caught_subxact,
           cur.fast_calls - old.fast_calls
      FROM cur, old
$$;

CREATE FUNCTION fs_safe_int(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
exception when invalid_text_representation then
    return null;
end
$$;
CREATE FUNCTION fs_plain(s text) RETURNS int LANGUAGE plnimble AS $$
begin
    return s::int;
end
$$;

-- compile and plan outside the counted runs
SELECT fs_safe_int('1'), fs_plain('1');
SELECT * FROM fs_delta() \g /dev/null

-- 1,000 valid inputs: 1,000 blocks, no savepoint, nothing caught
SELECT count(fs_safe_int(i::text)) FROM generate_series(1, 1000) i;
SELECT * FROM fs_delta();
-- every tenth invalid: still one block per call, 100 errors caught
-- without a savepoint
SELECT count(fs_safe_int(CASE WHEN i % 10 = 0 THEN 'x' ELSE i::text END))
  FROM generate_series(1, 1000) i;
SELECT * FROM fs_delta();
-- an error no handler catches: the block was entered, nothing caught
SELECT fs_safe_int(x) FROM (VALUES ('1'), ('2'), ('99999999999')) v(x);
SELECT * FROM fs_delta();
-- no EXCEPTION clause: no block counted
SELECT count(fs_plain(i::text)) FROM generate_series(1, 1000) i;
SELECT * FROM fs_delta();
-- with lazy savepoints off, every call starts a savepoint, as PL/pgSQL
SET plnimble.lazy_savepoints = off;
SELECT count(fs_safe_int(i::text)) FROM generate_series(1, 100) i;
SELECT * FROM fs_delta();
RESET plnimble.lazy_savepoints;

-- the profiler sees every call and every statement
SET plnimble.profiler = on;
SELECT plnimble_profiler_reset_all();
SELECT count(fs_safe_int(CASE WHEN i % 4 = 0 THEN 'x' ELSE i::text END))
  FROM generate_series(1, 200) i;
SELECT lineno, exec_stmts, exec_stmts_err, savepoints_started,
       savepoints_avoided, source
  FROM plnimble_profiler_function_tb('fs_safe_int(text)')
 WHERE exec_stmts > 0 ORDER BY lineno;
SET plnimble.profiler = off;
SELECT count(fs_safe_int(i::text)) FROM generate_series(1, 200) i;
SELECT lineno, exec_stmts
  FROM plnimble_profiler_function_tb('fs_safe_int(text)')
 WHERE exec_stmts > 0 ORDER BY lineno;
