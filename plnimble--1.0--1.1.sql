-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/*
 * plnimble--1.0--1.1.sql: from 1.0 to 1.1 (plnimble_savepoint_stats() gains
 * the column writes_without_savepoint: INSERTs the write path ran without
 * their block's subtransaction)
 */

\echo Use "ALTER EXTENSION plnimble UPDATE TO '1.1'" to load this file. \quit

DROP FUNCTION plnimble_savepoint_stats();

CREATE FUNCTION plnimble_savepoint_stats(
	OUT blocks_entered bigint,
	OUT savepoints_materialized bigint,
	OUT errors_caught_lazy bigint,
	OUT errors_caught_subxact bigint,
	OUT writes_without_savepoint bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_savepoint_stats() IS
	'this session''s exception-block counters';
