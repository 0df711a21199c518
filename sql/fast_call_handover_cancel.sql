-- fast_call_handover_cancel: a cancel and the fast entry
-- (src/entry/fast_call.c) of a function whose expression fails with an
-- error a handler of the block catches.  Such a call is handed over to
-- the ordinary path, which raises the error again where its RETURN
-- evaluates the expression; whatever the ordinary path raises before that
-- (a cancel seen by its CHECK_FOR_INTERRUPTS as it enters the block) must
-- leave the expression unmarked, as in PL/pgSQL, which has not evaluated
-- it then: else a later error of the expression in the same transaction
-- carries SPI's CONTEXT line ("SQL expression ...").
--
-- What SQL can place exactly, with no timing: a cancel already pending
-- when the call comes (the caller cancels its own backend,
-- pg_cancel_backend(pg_backend_pid()), in the same simple expression that
-- then calls hc_slow; the signal is delivered before pg_cancel_backend
-- returns and only sets the pending flag, and nothing between the two
-- checks for interrupts).  The fast entry's gate then refuses the call
-- ("an interrupt is pending", pln_fast_conditions.h) and the ordinary
-- path raises the cancel as PL/pgSQL does, as the block is entered.  A
-- cancel arriving while the fast entry evaluates the expression (after
-- its gate, before the hand-over) cannot be placed from SQL: only pure
-- functions run there, and a timed test is not allowed
-- (docs/testing-lanes.md); the code that handles it (hand_over,
-- pln_fast_handover_dropped) is argued in its comments.

CREATE FUNCTION hc_slow(e int, s text) RETURNS boolean LANGUAGE plnimble AS $$
BEGIN
    RETURN power(7::numeric, e) > 0 AND s::int > 0;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END
$$;

-- How many calls the fast entry took: fast_calls of
-- plnimble_savepoint_stats() (NULL under PL/pgSQL, which has none).
CREATE FUNCTION hc_fast_calls() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    IF to_regproc('plnimble_savepoint_stats') IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT fast_calls FROM plnimble_savepoint_stats()' INTO n;
    RETURN n;
END
$$;

-- One attempt, in one statement (so one transaction: the first call of a
-- transaction takes the ordinary path, and a failed mark lasts until the
-- transaction ends).  cancel says whether the cancel came and where it
-- was raised; later whether a later error of the expression carries SPI's
-- CONTEXT line (the expression was left marked failed).
CREATE FUNCTION hc_attempt(with_cancel boolean, OUT cancel text,
                           OUT later text) LANGUAGE plnimble AS $$
DECLARE
    ctx text;
BEGIN
    PERFORM hc_slow(1, '1');
    PERFORM hc_slow(1, '2');
    BEGIN
        PERFORM CASE WHEN with_cancel
                     THEN pg_cancel_backend(pg_backend_pid()) ELSE true END
            AND hc_slow(1, 'x');
        cancel := 'no cancel';
    EXCEPTION WHEN query_canceled THEN
        GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
        -- (without the language's name, which the oracle's normalisation
        -- would replace but not re-pad)
        cancel := regexp_replace(split_part(ctx, E'\n', 1), '^PL/\S+ ', '');
    END;
    BEGIN
        PERFORM hc_slow(1, '99999999999');
    EXCEPTION WHEN numeric_value_out_of_range THEN
        GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
        later := CASE WHEN ctx LIKE '%SQL expression%'
                      THEN 'marked: SPI''s CONTEXT line'
                      ELSE 'not marked' END;
    END;
END
$$;

-- the expression alone: its value, and the error the handler catches
SELECT hc_slow(1, '1'), hc_slow(1, 'x');

-- the cancel is raised in hc_slow as its block is entered, before its
-- RETURN; nothing is marked
SELECT * FROM hc_attempt(true);
SELECT * FROM hc_attempt(true);

-- and without a cancel: the caught error marks the expression, in both
SELECT * FROM hc_attempt(false);

-- the shortcut is taken: in one transaction, hc_slow's later calls go
-- through the fast entry (the first of a transaction does not), and the
-- one whose error the handler catches is handed over (not counted)
BEGIN;
SELECT hc_slow(1, '1');
SELECT coalesce(hc_fast_calls(), 0) AS before \gset
SELECT hc_slow(1, '1'), hc_slow(1, '2');
SELECT hc_slow(1, 'x');
SELECT CASE WHEN hc_fast_calls() IS NULL OR hc_fast_calls() - :before = 2
            THEN 'two fast calls, one handed over'
            ELSE 'fast calls: ' || (hc_fast_calls() - :before) END AS fast;
ROLLBACK;
