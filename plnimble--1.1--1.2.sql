-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/*
 * plnimble--1.1--1.2.sql: from 1.1 to 1.2.  One section per change, in the
 * order they were made.
 */

\echo Use "ALTER EXTENSION plnimble UPDATE TO '1.2'" to load this file. \quit

-- issue 28: the read guard.  plnimble_savepoint_stats() gains the column
-- blocks_lazy_guarded: blocks that ended without their subtransaction
-- having run work under a read guard.

DROP FUNCTION plnimble_savepoint_stats();

CREATE FUNCTION plnimble_savepoint_stats(
	OUT blocks_entered bigint,
	OUT savepoints_materialized bigint,
	OUT errors_caught_lazy bigint,
	OUT errors_caught_subxact bigint,
	OUT writes_without_savepoint bigint,
	OUT blocks_lazy_guarded bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_savepoint_stats() IS
	'this session''s exception-block counters';
