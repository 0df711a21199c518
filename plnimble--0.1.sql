-- Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
/* plnimble--0.1.sql: install script for the plnimble language */

\echo Use "CREATE EXTENSION plnimble" to load this file. \quit

CREATE FUNCTION plnimble_call_handler() RETURNS language_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE FUNCTION plnimble_inline_handler(internal) RETURNS void
	STRICT AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE FUNCTION plnimble_validator(oid) RETURNS void
	STRICT AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE TRUSTED LANGUAGE plnimble
	HANDLER plnimble_call_handler
	INLINE plnimble_inline_handler
	VALIDATOR plnimble_validator;

COMMENT ON LANGUAGE plnimble IS 'PL/nimble procedural language';

CREATE FUNCTION plnimble_savepoint_stats(
	OUT blocks_entered bigint,
	OUT savepoints_materialized bigint,
	OUT errors_caught_lazy bigint,
	OUT errors_caught_subxact bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_savepoint_stats() IS
	'this session''s exception-block counters';

CREATE FUNCTION plnimble_savepoint_plan(func regprocedure)
	RETURNS SETOF text
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION plnimble_savepoint_plan(regprocedure) IS
	'a function''s statements, and where each exception block would start its savepoint';
