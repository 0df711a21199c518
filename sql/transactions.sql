-- transactions: procedures and transaction control.  CALL from SQL and
-- from plnimble code; COMMIT / ROLLBACK (AND [NO] CHAIN) in procedures and
-- DO blocks: batched commits whose rows survive a later error, ROLLBACK
-- back to the last COMMIT, transaction characteristics kept by AND CHAIN
-- (SET TRANSACTION only where no query ran yet); nested CALLs that commit
-- while the caller's variables keep their values; FOR loops over queries
-- (static and EXECUTE) with COMMIT / ROLLBACK in the body, the error for a
-- non-read-only loop query, an explicit cursor closed by COMMIT; the
-- errors: COMMIT in a function, in a CALL inside an explicit transaction
-- block, inside a block with an exception handler (also seen from a
-- caller's handler), in a procedure called from a function, in a
-- SECURITY DEFINER procedure or one with a SET clause, EXECUTE 'COMMIT',
-- SAVEPOINT, COMMIT WORK; procedure arguments with defaults and named
-- notation, RETURN; in a procedure and RETURN with a value (compile-time
-- error).

CREATE TABLE tx_log (n integer, note text);

-- the rows of tx_log, in one line
CREATE VIEW tx_rows AS
    SELECT count(*) AS cnt, string_agg(n::text, ',' ORDER BY n) AS ns
    FROM tx_log;

------------------------------------------------------------------------------
-- 1. batched commits
------------------------------------------------------------------------------

-- insert rows 1..total, committing after every batch rows; a row number
-- equal to fail_at raises division_by_zero
CREATE PROCEDURE tx_batch(total integer, batch integer, fail_at integer DEFAULT 0)
LANGUAGE plnimble AS $$
DECLARE
    done integer := 0;
BEGIN
    FOR i IN 1..total LOOP
        INSERT INTO tx_log VALUES (i, 'batch ' || (1 / (i - fail_at)));
        done := done + 1;
        IF done % batch = 0 THEN
            COMMIT;
            RAISE NOTICE 'committed % rows', done;
        END IF;
    END LOOP;
    RAISE NOTICE 'done: % rows, last batch not committed by the loop', done;
END
$$;

CALL tx_batch(7, 3);
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- the error at row 8 rolls back rows 7 and 8 only; 1..6 were committed
CALL tx_batch(10, 3, 8);
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- a batch size of 1 commits every row, the failing row itself is lost
CALL tx_batch(4, 1, 3);
SELECT * FROM tx_rows;
TRUNCATE tx_log;

------------------------------------------------------------------------------
-- 2. ROLLBACK, AND CHAIN and transaction characteristics
------------------------------------------------------------------------------

-- ROLLBACK discards the rows since the last COMMIT; variables are not
-- rolled back
CREATE PROCEDURE tx_rollback_part() LANGUAGE plnimble AS $$
DECLARE
    v integer := 0;
BEGIN
    INSERT INTO tx_log VALUES (1, 'kept');
    v := 1;
    COMMIT;
    INSERT INTO tx_log VALUES (2, 'discarded');
    INSERT INTO tx_log VALUES (3, 'discarded');
    v := 3;
    ROLLBACK;
    RAISE NOTICE 'after ROLLBACK: v=%, rows=%', v, (SELECT count(*) FROM tx_log);
    INSERT INTO tx_log VALUES (4, 'kept');
    COMMIT AND NO CHAIN;
    INSERT INTO tx_log VALUES (5, 'discarded');
    ROLLBACK AND NO CHAIN;
END
$$;
CALL tx_rollback_part();
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- SET TRANSACTION as the first statement of a procedure: the CALL has
-- already run a query in this transaction
CREATE PROCEDURE tx_set_first() LANGUAGE plnimble AS $$
BEGIN
    SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
    RAISE NOTICE 'isolation: %', current_setting('transaction_isolation');
END
$$;
CALL tx_set_first();

-- after COMMIT a new transaction starts and SET TRANSACTION is allowed;
-- AND CHAIN keeps the isolation level, a plain COMMIT goes back to the
-- default; evaluating the RAISE's expression after that COMMIT took a
-- snapshot, so the second SET TRANSACTION fails
CREATE PROCEDURE tx_chain() LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'start: %', current_setting('transaction_isolation');
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
    RAISE NOTICE 'after SET TRANSACTION: %', current_setting('transaction_isolation');
    INSERT INTO tx_log VALUES (1, 'chain');
    COMMIT AND CHAIN;
    RAISE NOTICE 'after COMMIT AND CHAIN: %', current_setting('transaction_isolation');
    INSERT INTO tx_log VALUES (2, 'chain');
    ROLLBACK AND CHAIN;
    RAISE NOTICE 'after ROLLBACK AND CHAIN: %', current_setting('transaction_isolation');
    INSERT INTO tx_log VALUES (3, 'chain');
    COMMIT;
    RAISE NOTICE 'after COMMIT: %', current_setting('transaction_isolation');
    SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
    RAISE NOTICE 'after SET TRANSACTION: %', current_setting('transaction_isolation');
    ROLLBACK;
    RAISE NOTICE 'after ROLLBACK: %', current_setting('transaction_isolation');
END
$$;
CALL tx_chain();
SELECT * FROM tx_log ORDER BY n;
SHOW transaction_isolation;
TRUNCATE tx_log;

-- READ ONLY survives AND CHAIN, so the INSERT after it fails
CREATE PROCEDURE tx_chain_read_only() LANGUAGE plnimble AS $$
BEGIN
    COMMIT;
    SET TRANSACTION READ ONLY;
    RAISE NOTICE 'read only: %', current_setting('transaction_read_only');
    ROLLBACK AND CHAIN;
    RAISE NOTICE 'after ROLLBACK AND CHAIN: %', current_setting('transaction_read_only');
    INSERT INTO tx_log VALUES (1, 'read only');
END
$$;
CALL tx_chain_read_only();

-- the same in a DO block; SET TRANSACTION after a query (PERFORM) in the
-- new transaction fails
DO LANGUAGE plnimble $$
BEGIN
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
    RAISE NOTICE 'do: %', current_setting('transaction_isolation');
    COMMIT AND CHAIN;
    RAISE NOTICE 'do after chain: %', current_setting('transaction_isolation');
    COMMIT;
    PERFORM 1;
    SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
END
$$;

-- SET TRANSACTION right after COMMIT in a procedure, then again after a
-- query ran
CREATE PROCEDURE tx_set_after_commit() LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (1, 'before');
    COMMIT;
    SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
    INSERT INTO tx_log VALUES (2, 'serializable');
    RAISE NOTICE 'now: %', current_setting('transaction_isolation');
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
END
$$;
CALL tx_set_after_commit();
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

------------------------------------------------------------------------------
-- 3. nested CALL
------------------------------------------------------------------------------

CREATE PROCEDURE tx_inner(k integer) LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (k, 'inner');
    COMMIT;
    RAISE NOTICE 'inner committed %', k;
END
$$;

-- the caller's variables (scalar, array, record) keep their values across
-- the callee's COMMIT; the caller's uncommitted row is committed by it
CREATE PROCEDURE tx_outer() LANGUAGE plnimble AS $$
DECLARE
    total integer := 100;
    arr text[] := ARRAY['a'];
    r record;
BEGIN
    SELECT 7 AS x, 'seven' AS y INTO r;
    INSERT INTO tx_log VALUES (1, 'outer before');
    CALL tx_inner(2);
    total := total + 1;
    arr := arr || 'b'::text;
    CALL tx_inner(total);
    RAISE NOTICE 'outer: total=% arr=% r=%', total, arr, r;
    INSERT INTO tx_log VALUES (3, 'outer after, rolled back');
    ROLLBACK;
    RAISE NOTICE 'outer after ROLLBACK: total=% r.y=%', total, r.y;
END
$$;
CALL tx_outer();
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- three levels: the middle procedure calls the committing one in a loop
CREATE PROCEDURE tx_middle(times integer) LANGUAGE plnimble AS $$
BEGIN
    FOR i IN 1..times LOOP
        CALL tx_inner(i * 10);
    END LOOP;
    RAISE EXCEPTION 'middle fails after % calls', times;
END
$$;
CALL tx_middle(3);
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- a DO block calling a procedure that commits, then rolling back its own
-- later work
DO LANGUAGE plnimble $$
DECLARE
    v text := 'do variable';
BEGIN
    INSERT INTO tx_log VALUES (1, 'do');
    CALL tx_inner(2);
    INSERT INTO tx_log VALUES (3, 'do, rolled back');
    ROLLBACK;
    RAISE NOTICE 'do: v=%, rows=%', v, (SELECT count(*) FROM tx_log);
END
$$;
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- a procedure that commits, called from a function: the function's
-- context is atomic
CREATE FUNCTION tx_func_calls() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    CALL tx_inner(1);
    RETURN 1;
END
$$;
SELECT tx_func_calls();
SELECT * FROM tx_rows;

-- a procedure without transaction control can be called from a function
CREATE PROCEDURE tx_no_tc(k integer) LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (k, 'no tc');
END
$$;
CREATE FUNCTION tx_func_calls_ok() RETURNS bigint LANGUAGE plnimble AS $$
BEGIN
    CALL tx_no_tc(5);
    CALL tx_no_tc(6);
    RETURN (SELECT count(*) FROM tx_log);
END
$$;
SELECT tx_func_calls_ok();
TRUNCATE tx_log;

-- CALL from a procedure that was itself called from a function
CREATE PROCEDURE tx_calls_inner() LANGUAGE plnimble AS $$
BEGIN
    CALL tx_inner(9);
END
$$;
CREATE FUNCTION tx_func_calls_proc() RETURNS void LANGUAGE plnimble AS $$
BEGIN
    CALL tx_calls_inner();
END
$$;
SELECT tx_func_calls_proc();

------------------------------------------------------------------------------
-- 4. COMMIT and ROLLBACK inside query loops
------------------------------------------------------------------------------

CREATE TABLE tx_src (x integer);
INSERT INTO tx_src SELECT generate_series(1, 5);

-- the loop goes on over all rows after each COMMIT
CREATE PROCEDURE tx_loop_commit() LANGUAGE plnimble AS $$
DECLARE
    r record;
    seen integer := 0;
BEGIN
    FOR r IN SELECT x FROM tx_src ORDER BY x LOOP
        INSERT INTO tx_log VALUES (r.x * 10, 'loop');
        seen := seen + 1;
        IF r.x % 2 = 0 THEN
            COMMIT;
        END IF;
    END LOOP;
    RAISE NOTICE 'seen % rows, last r.x=%', seen, r.x;
END
$$;
CALL tx_loop_commit();
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- ROLLBACK in every iteration: nothing stays, the loop still sees every row
CREATE PROCEDURE tx_loop_rollback() LANGUAGE plnimble AS $$
DECLARE
    r record;
    acc text := '';
BEGIN
    FOR r IN SELECT x FROM tx_src ORDER BY x LOOP
        INSERT INTO tx_log VALUES (r.x, 'loop');
        acc := acc || r.x;
        ROLLBACK;
    END LOOP;
    RAISE NOTICE 'acc=% rows=%', acc, (SELECT count(*) FROM tx_log);
END
$$;
CALL tx_loop_rollback();

-- FOR over EXECUTE, with a scalar loop variable and COMMIT AND CHAIN
CREATE PROCEDURE tx_loop_execute(lim integer) LANGUAGE plnimble AS $$
DECLARE
    v integer;
BEGIN
    FOR v IN EXECUTE 'SELECT x FROM tx_src WHERE x <= $1 ORDER BY x DESC' USING lim LOOP
        INSERT INTO tx_log VALUES (v, 'execute');
        COMMIT AND CHAIN;
    END LOOP;
END
$$;
CALL tx_loop_execute(3);
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- the committed rows are not seen again by the running loop query
CREATE PROCEDURE tx_loop_insert_same() LANGUAGE plnimble AS $$
DECLARE
    r record;
    n integer := 0;
BEGIN
    FOR r IN SELECT x FROM tx_src ORDER BY x LOOP
        INSERT INTO tx_src VALUES (r.x + 100);
        n := n + 1;
        COMMIT;
    END LOOP;
    RAISE NOTICE 'iterations: %', n;
END
$$;
CALL tx_loop_insert_same();
SELECT count(*) FROM tx_src;
DELETE FROM tx_src WHERE x > 100;

-- a committing CALL inside the caller's query loop
CREATE PROCEDURE tx_loop_calls() LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT x FROM tx_src WHERE x <= 2 ORDER BY x LOOP
        CALL tx_inner(r.x);
    END LOOP;
    RAISE NOTICE 'loop over, last %', r.x;
END
$$;
CALL tx_loop_calls();
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- a loop over UPDATE ... RETURNING is not read-only: COMMIT and ROLLBACK
-- are refused, and so is a COMMIT in a procedure called from the loop
CREATE PROCEDURE tx_loop_update(how text) LANGUAGE plnimble AS $$
DECLARE
    r record;
BEGIN
    FOR r IN UPDATE tx_src SET x = x + 1000 WHERE x = 1 RETURNING x LOOP
        RAISE NOTICE 'updated to %', r.x;
        IF how = 'commit' THEN
            COMMIT;
        ELSIF how = 'rollback' THEN
            ROLLBACK;
        ELSE
            CALL tx_inner(r.x);
        END IF;
    END LOOP;
END
$$;
CALL tx_loop_update('commit');
CALL tx_loop_update('rollback');
CALL tx_loop_update('call');
SELECT * FROM tx_src ORDER BY x;
TRUNCATE tx_log;

-- an explicitly opened cursor is closed by COMMIT
CREATE PROCEDURE tx_open_cursor() LANGUAGE plnimble AS $$
DECLARE
    c CURSOR FOR SELECT x FROM tx_src ORDER BY x;
    v integer;
BEGIN
    OPEN c;
    FETCH c INTO v;
    RAISE NOTICE 'fetched %', v;
    COMMIT;
    FETCH c INTO v;
    RAISE NOTICE 'fetched again %', v;
END
$$;
CALL tx_open_cursor();

------------------------------------------------------------------------------
-- 5. where transaction control is not allowed
------------------------------------------------------------------------------

-- COMMIT and ROLLBACK in a function called from SQL
CREATE FUNCTION tx_func_commit() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (1, 'function');
    COMMIT;
    RETURN 1;
END
$$;
SELECT tx_func_commit();
CREATE FUNCTION tx_func_rollback() RETURNS integer LANGUAGE plnimble AS $$
BEGIN
    ROLLBACK AND CHAIN;
    RETURN 1;
END
$$;
SELECT tx_func_rollback();
SELECT * FROM tx_rows;

-- a committing CALL inside an explicit transaction block fails; the block
-- is rolled back
BEGIN;
INSERT INTO tx_log VALUES (50, 'in block');
CALL tx_inner(51);
COMMIT;
SELECT * FROM tx_rows;

-- a CALL without transaction control is fine inside a block
BEGIN;
CALL tx_no_tc(60);
COMMIT;
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- a DO block with COMMIT inside an explicit transaction block
BEGIN;
DO LANGUAGE plnimble $$
BEGIN
    ROLLBACK;
END
$$;
ROLLBACK;

-- COMMIT inside a block with an exception handler: the handler's
-- subtransaction is active.  Not caught by a handler for another error,
-- caught by WHEN OTHERS (the block's work is then undone)
CREATE PROCEDURE tx_commit_in_handler_block(catch boolean) LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (1, 'outside the block');
    BEGIN
        INSERT INTO tx_log VALUES (2, 'inside the block');
        COMMIT;
        RAISE NOTICE 'not reached';
    EXCEPTION
        WHEN division_by_zero THEN
            RAISE NOTICE 'division by zero';
        WHEN OTHERS THEN
            IF catch THEN
                RAISE NOTICE 'caught: % (%)', SQLERRM, SQLSTATE;
            ELSE
                RAISE;
            END IF;
    END;
    COMMIT;
    RAISE NOTICE 'committed after the block';
END
$$;
CALL tx_commit_in_handler_block(false);
SELECT * FROM tx_rows;
CALL tx_commit_in_handler_block(true);
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- ROLLBACK inside such a block, not caught
CREATE PROCEDURE tx_rollback_in_handler_block() LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO tx_log VALUES (1, 'inside');
        ROLLBACK;
    EXCEPTION
        WHEN unique_violation THEN
            NULL;
    END;
END
$$;
CALL tx_rollback_in_handler_block();
-- COMMIT in the handler itself works: the block's subtransaction has
-- been rolled back when the handler runs
CREATE PROCEDURE tx_commit_in_handler() LANGUAGE plnimble AS $$
BEGIN
    BEGIN
        INSERT INTO tx_log VALUES (1, 'inside');
        PERFORM 1 / 0;
    EXCEPTION
        WHEN division_by_zero THEN
            INSERT INTO tx_log VALUES (2, 'in the handler');
            COMMIT;
            RAISE NOTICE 'committed in the handler';
    END;
END
$$;
CALL tx_commit_in_handler();
SELECT * FROM tx_rows;
TRUNCATE tx_log;

-- SECURITY DEFINER and SET clauses make the call atomic
CREATE PROCEDURE tx_secdef() LANGUAGE plnimble SECURITY DEFINER AS $$
BEGIN
    INSERT INTO tx_log VALUES (1, 'security definer');
    COMMIT;
END
$$;
CALL tx_secdef();
CREATE PROCEDURE tx_setclause() LANGUAGE plnimble SET work_mem = '2MB' AS $$
BEGIN
    RAISE NOTICE 'work_mem %', current_setting('work_mem');
    ROLLBACK;
END
$$;
CALL tx_setclause();
-- without transaction control they work
CREATE PROCEDURE tx_secdef_ok() LANGUAGE plnimble SECURITY DEFINER
SET work_mem = '3MB' AS $$
BEGIN
    RAISE NOTICE 'work_mem %', current_setting('work_mem');
END
$$;
CALL tx_secdef_ok();
-- a SECURITY DEFINER procedure calling a committing one
CREATE PROCEDURE tx_secdef_calls() LANGUAGE plnimble SECURITY DEFINER AS $$
BEGIN
    CALL tx_inner(2);
END
$$;
CALL tx_secdef_calls();
SELECT * FROM tx_rows;

-- transaction commands that PL/pgSQL does not run
DO LANGUAGE plnimble $$
BEGIN
    EXECUTE 'COMMIT';
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    SAVEPOINT sp;
END
$$;
DO LANGUAGE plnimble $$
BEGIN
    START TRANSACTION;
END
$$;
CREATE PROCEDURE tx_commit_work() LANGUAGE plnimble AS $$
BEGIN
    COMMIT WORK;
END
$$;

-- a committing CALL run by EXECUTE
CREATE PROCEDURE tx_execute_call() LANGUAGE plnimble AS $$
BEGIN
    EXECUTE 'CALL tx_inner(3)';
    RAISE NOTICE 'after EXECUTE CALL';
END
$$;
CALL tx_execute_call();
SELECT * FROM tx_rows;
TRUNCATE tx_log;

------------------------------------------------------------------------------
-- 6. top-level DO blocks with COMMIT and ROLLBACK
------------------------------------------------------------------------------

DO LANGUAGE plnimble $$
DECLARE
    n integer := 0;
BEGIN
    FOR i IN 1..6 LOOP
        INSERT INTO tx_log VALUES (i, 'do');
        IF i % 2 = 0 THEN
            COMMIT;
        ELSE
            n := n + 1;
        END IF;
        IF i = 5 THEN
            ROLLBACK;
        END IF;
    END LOOP;
    RAISE NOTICE 'odd rows seen: %', n;
END
$$;
SELECT * FROM tx_rows;

-- the DO block fails after a commit: the committed rows stay
DO LANGUAGE plnimble $$
BEGIN
    DELETE FROM tx_log WHERE n <= 2;
    COMMIT;
    DELETE FROM tx_log;
    RAISE EXCEPTION 'do fails, % rows left uncommitted', (SELECT count(*) FROM tx_log);
END
$$;
SELECT * FROM tx_rows;
TRUNCATE tx_log;

------------------------------------------------------------------------------
-- 7. a committing CALL inside the caller's exception block
------------------------------------------------------------------------------

-- the callee's COMMIT fails because the caller's handler block is a
-- subtransaction; the caller catches that error and goes on
CREATE PROCEDURE tx_catches_callee() LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (1, 'caller');
    BEGIN
        CALL tx_inner(2);
        RAISE NOTICE 'not reached';
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'caller caught: %', SQLERRM;
    END;
    COMMIT;
    CALL tx_inner(3);
END
$$;
CALL tx_catches_callee();
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- the callee commits, then fails; the caller calls it outside any handler
-- block and handles nothing: the committed part survives
CREATE PROCEDURE tx_commit_then_fail(k integer) LANGUAGE plnimble AS $$
BEGIN
    INSERT INTO tx_log VALUES (k, 'committed');
    COMMIT;
    INSERT INTO tx_log VALUES (k + 1, 'lost');
    RAISE EXCEPTION 'callee fails after commit (k=%)', k
        USING HINT = 'the row ' || k || ' is committed';
END
$$;
CREATE PROCEDURE tx_caller_no_handler() LANGUAGE plnimble AS $$
BEGIN
    CALL tx_commit_then_fail(10);
END
$$;
CALL tx_caller_no_handler();
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- the same from a DO block with a handler: the COMMIT fails instead and
-- is caught; nothing of the callee stays
DO LANGUAGE plnimble $$
BEGIN
    BEGIN
        CALL tx_commit_then_fail(20);
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'do caught: %', SQLERRM;
    END;
    RAISE NOTICE 'rows: %', (SELECT count(*) FROM tx_log);
END
$$;
SELECT * FROM tx_rows;

------------------------------------------------------------------------------
-- 8. procedure arguments, RETURN
------------------------------------------------------------------------------

CREATE PROCEDURE tx_args(a integer, b text DEFAULT 'bee', c numeric DEFAULT 1.5)
LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'a=% b=% c=%', a, b, c;
END
$$;
CALL tx_args(1);
CALL tx_args(2, 'x');
CALL tx_args(3, 'y', 4.25);
CALL tx_args(c => 9, a => 4);
CALL tx_args(5, c := 0.5);
CALL tx_args(b => NULL, a => 6);
CALL tx_args(1 + 6, 'expr' || '!');
-- errors: no such argument, a required one missing, too many
CALL tx_args(d => 1, a => 1);
CALL tx_args(b => 'only b');
CALL tx_args(1, 'two', 3, 4);
-- a procedure is not a function
SELECT tx_args(1);

-- CALL from plnimble code with variables, expressions and named arguments
DO LANGUAGE plnimble $$
DECLARE
    v integer := 10;
    t text := 'from do';
BEGIN
    CALL tx_args(v);
    CALL tx_args(v * 2, t);
    CALL tx_args(c => v / 4.0, b => upper(t), a => v + 1);
    CALL tx_args(a := -v);
END
$$;

-- IN parameters are variables inside the procedure; RETURN; ends it early
CREATE PROCEDURE tx_early(n integer, label text DEFAULT 'n') LANGUAGE plnimble AS $$
BEGIN
    IF n IS NULL THEN
        RAISE NOTICE 'no %', label;
        RETURN;
    END IF;
    n := n * 2;
    RAISE NOTICE '% doubled: %', label, n;
    INSERT INTO tx_log VALUES (n, label);
    COMMIT;
    IF n > 10 THEN
        RETURN;
    END IF;
    RAISE NOTICE 'small %', n;
END
$$;
CALL tx_early(NULL);
CALL tx_early(3, label => 'three');
CALL tx_early(30);
SELECT * FROM tx_log ORDER BY n;
TRUNCATE tx_log;

-- RETURN with a value in a procedure is a compile-time error
CREATE PROCEDURE tx_return_value() LANGUAGE plnimble AS $$
BEGIN
    RETURN 1;
END
$$;
CREATE PROCEDURE tx_return_null() LANGUAGE plnimble AS $$
BEGIN
    RETURN NULL;
END
$$;
-- a DO block with RETURN and a value
DO LANGUAGE plnimble $$
BEGIN
    RETURN 1;
END
$$;
-- a procedure whose body has no statements, and one with an empty RETURN
-- as its last statement
CREATE PROCEDURE tx_empty() LANGUAGE plnimble AS $$
BEGIN
END
$$;
CALL tx_empty();
CREATE PROCEDURE tx_last_return() LANGUAGE plnimble AS $$
BEGIN
    RAISE NOTICE 'about to return';
    RETURN;
END
$$;
CALL tx_last_return();

-- pg_proc sees the procedures in this language
\pset format unaligned
SELECT proname, prokind, l.lanname, pronargs, pronargdefaults
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE proname IN ('tx_args', 'tx_early', 'tx_inner')
ORDER BY proname;
\pset format aligned
