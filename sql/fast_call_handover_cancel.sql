-- fast_call_handover_cancel: a cancel (here a statement timeout) that
-- arrives while the fast entry (src/entry/fast_call.c) runs a call's
-- expression, when the expression then fails with an error a handler of
-- the block catches.  plnimble hands such a call over to the ordinary
-- path, which raises the error again where its RETURN evaluates the
-- expression; the ordinary path's CHECK_FOR_INTERRUPTS before that sees
-- the cancel first.  The cancel then says it was raised outside the
-- handler, as PL/pgSQL raises a cancel that arrives before the expression
-- runs, and so, as there, the expression must not be left marked failed:
-- a later error of it in the same transaction carries no CONTEXT line of
-- SPI's ("SQL expression ...").  PL/pgSQL itself evaluates the
-- expression first and raises the cancel in the handler, with the
-- expression marked failed (its later errors do carry SPI's line).
--
-- The timing is not under the test's control (a cancel cannot be put at
-- one point of the server's code from SQL, and pg_cancel_backend would
-- arrive at no better defined point): the expression runs a numeric
-- power() of some hundred milliseconds, which checks for no interrupt, so
-- that the timeout of 30ms falls into it.  So what each attempt checks
-- holds whichever way the timing falls, in both languages: a cancel
-- raised in the handler leaves the expression marked failed, one raised
-- anywhere else leaves it unmarked.  Before the fix, a cancel seen by the
-- handed-over call's set-up left the expression marked.

CREATE FUNCTION hc_slow(e int, s text) RETURNS boolean LANGUAGE plnimble AS $$
BEGIN
    RETURN power(7::numeric, e) > 0 AND s::int > 0;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END
$$;

-- One attempt, in one statement (so one transaction: the first call of a
-- transaction takes the ordinary path, and a failed mark lasts until the
-- transaction ends).  Returns whether the cancel was raised in the
-- handler exactly when the expression was left marked.
CREATE FUNCTION hc_attempt(e int) RETURNS boolean LANGUAGE plnimble AS $$
DECLARE
    cancel_ctx text;
    later_ctx text;
    in_handler boolean;
    marked boolean;
BEGIN
    PERFORM hc_slow(1, '1');
    PERFORM hc_slow(1, '2');
    BEGIN
        PERFORM hc_slow(e, 'x');
        cancel_ctx := 'no cancel';
    EXCEPTION WHEN query_canceled THEN
        GET STACKED DIAGNOSTICS cancel_ctx = PG_EXCEPTION_CONTEXT;
    END;
    BEGIN
        PERFORM hc_slow(1, '99999999999');
    EXCEPTION WHEN numeric_value_out_of_range THEN
        GET STACKED DIAGNOSTICS later_ctx = PG_EXCEPTION_CONTEXT;
    END;
    -- (the handler's RETURN is line 5 of hc_slow; line 12 here is the
    -- assignment after the call: a cancel raised there came after hc_slow
    -- had returned, its handler having run, as a slow server, e.g. an
    -- assertion-enabled one, can make it)
    in_handler := cancel_ctx = 'no cancel'
        OR cancel_ctx LIKE '%hc_slow(integer,text) line 5 at RETURN%'
        OR cancel_ctx LIKE '%hc_attempt(integer) line 12 at assignment%';
    marked := later_ctx LIKE '%SQL expression%';
    IF in_handler IS DISTINCT FROM marked THEN
        RAISE NOTICE 'cancel context: %', cancel_ctx;
        RAISE NOTICE 'later context: %', later_ctx;
    END IF;
    RETURN in_handler IS NOT DISTINCT FROM marked;
END
$$;

-- the power() alone (no timeout): its value, and the error the handler
-- catches after it
SELECT hc_slow(150000, '1'), hc_slow(150000, 'x');

SET statement_timeout = '30ms';
SELECT hc_attempt(150000) AS consistent;
SELECT hc_attempt(150000) AS consistent;
SELECT hc_attempt(150000) AS consistent;
RESET statement_timeout;

-- and without a cancel: the caught error marks the expression, in both
SELECT hc_attempt(1) AS consistent;
