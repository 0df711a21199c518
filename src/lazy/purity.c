/*-------------------------------------------------------------------------
 *
 * purity.c
 *	  Which expressions only compute, without touching database state.
 *
 * Invariant: a planned expression tree is called pure only if evaluating
 * it, once its ExprState exists, can do nothing but compute from
 * constants and scalar PL variables with the built-in functions listed
 * below.  Such an evaluation reads no catalogs, takes no locks, pins no
 * buffers, opens no files, registers nothing with a resource owner and
 * runs no SQL, so an error raised in the middle of it leaves nothing that
 * a subtransaction abort would have to clean up.  That is what lets an
 * exception block catch it without a subtransaction (see savepoint.c and
 * docs/design.md).  When in doubt, a node is impure.
 *
 * Building the ExprState (ExecInitExpr) and planning are not covered:
 * they read catalogs, and the executor only does them with the block's
 * savepoint in place.
 *
 * This file is the allowlist: every function on it was reviewed for the
 * property above.  Each group says why it qualifies.  Keep additions to
 * plain C code over the argument values; anything that looks things up
 * lazily through fn_extra, reads a catalog, consults a collation other
 * than the database default, opens a file (time zones) or can call user
 * code stays off.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/objectaccess.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_coerce.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "plnimble.h"

/*
 * The reviewed functions, in two classes (pln_savepoint.h, PlnFnClass):
 *
 *	PLN_FN_PURE		computes only: plain C over the argument values, reading
 *					at most session settings that a subtransaction does not
 *					change.  May run in a lazy region as is.
 *	PLN_FN_GUARDED	reads catalogs or other database state, and writes
 *					nothing: runs in a lazy region only under a read guard
 *					(guard.c), which releases what it holds if it fails.
 *
 * One table, read by the run time (the purity of each planned expression,
 * pln_expr_analyse_purity), the plan view (plnimble_savepoint_plan names
 * the guarded parts, pln_describe_guarded) and the checking build (which
 * lets server calls through under a guard): each group of functions has
 * its class, its flags and its review note.  The review says what the
 * functions read, what they can leave behind, what they raise, and
 * whether they depend on session state, and if so why that is exactly
 * what PL/pgSQL sees at that point.  No function of either class reads a
 * table through the active snapshot (snapshots.c relies on it: catalog
 * lookups go through the catalog caches and the catalog snapshot).  Keep additions to code that can be
 * read to its end; when in doubt, a function is not on the table.
 *
 * Flags:
 *	RV_RUNS_NO_CODE		reaches no code but built-in C (no other type's
 *						I/O, no hook): such calls may also appear in the
 *						expressions pln_expr_tree_calls_only_pure accepts,
 *						which keep their plan checks under a subtransaction
 *	RV_IO_ARGS			calls its arguments' (or their elements') output
 *						functions: allowed only where each of those types is
 *						in the reviewed I/O table below
 */
#define RV_RUNS_NO_CODE	0x01
#define RV_IO_ARGS		0x02

static const Oid rv_integers[] = {
	F_INT2PL, F_INT2MI, F_INT2MUL, F_INT2DIV, F_INT2MOD, F_INT2UM, F_INT2ABS,
	F_INT2EQ, F_INT2NE, F_INT2LT, F_INT2LE, F_INT2GT, F_INT2GE, F_INT4PL,
	F_INT4MI, F_INT4MUL, F_INT4DIV, F_INT4MOD, F_INT4UM, F_INT4ABS, F_INT4EQ,
	F_INT4NE, F_INT4LT, F_INT4LE, F_INT4GT, F_INT4GE, F_INT8PL, F_INT8MI,
	F_INT8MUL, F_INT8DIV, F_INT8MOD, F_INT8UM, F_INT8ABS, F_INT8EQ, F_INT8NE,
	F_INT8LT, F_INT8LE, F_INT8GT, F_INT8GE, F_INT24PL, F_INT24MI, F_INT24MUL,
	F_INT24DIV, F_INT24EQ, F_INT24NE, F_INT24LT, F_INT24LE, F_INT24GT,
	F_INT24GE, F_INT42PL, F_INT42MI, F_INT42MUL, F_INT42DIV, F_INT42EQ,
	F_INT42NE, F_INT42LT, F_INT42LE, F_INT42GT, F_INT42GE, F_INT28PL,
	F_INT28MI, F_INT28MUL, F_INT28DIV, F_INT28EQ, F_INT28NE, F_INT28LT,
	F_INT28LE, F_INT28GT, F_INT28GE, F_INT82PL, F_INT82MI, F_INT82MUL,
	F_INT82DIV, F_INT82EQ, F_INT82NE, F_INT82LT, F_INT82LE, F_INT82GT,
	F_INT82GE, F_INT48PL, F_INT48MI, F_INT48MUL, F_INT48DIV, F_INT48EQ,
	F_INT48NE, F_INT48LT, F_INT48LE, F_INT48GT, F_INT48GE, F_INT84PL,
	F_INT84MI, F_INT84MUL, F_INT84DIV, F_INT84EQ, F_INT84NE, F_INT84LT,
	F_INT84LE, F_INT84GT, F_INT84GE, F_ABS_INT2, F_ABS_INT4, F_ABS_INT8,
	F_MOD_INT2_INT2, F_MOD_INT4_INT4, F_MOD_INT8_INT8
};
static const Oid rv_floats[] = {
	F_FLOAT4PL, F_FLOAT4MI, F_FLOAT4MUL, F_FLOAT4DIV, F_FLOAT4UM,
	F_FLOAT4ABS, F_FLOAT4EQ, F_FLOAT4NE, F_FLOAT4LT, F_FLOAT4LE, F_FLOAT4GT,
	F_FLOAT4GE, F_FLOAT8PL, F_FLOAT8MI, F_FLOAT8MUL, F_FLOAT8DIV, F_FLOAT8UM,
	F_FLOAT8ABS, F_FLOAT8EQ, F_FLOAT8NE, F_FLOAT8LT, F_FLOAT8LE, F_FLOAT8GT,
	F_FLOAT8GE, F_FLOAT48PL, F_FLOAT48MI, F_FLOAT48MUL, F_FLOAT48DIV,
	F_FLOAT48EQ, F_FLOAT48NE, F_FLOAT48LT, F_FLOAT48LE, F_FLOAT48GT,
	F_FLOAT48GE, F_FLOAT84PL, F_FLOAT84MI, F_FLOAT84MUL, F_FLOAT84DIV,
	F_FLOAT84EQ, F_FLOAT84NE, F_FLOAT84LT, F_FLOAT84LE, F_FLOAT84GT,
	F_FLOAT84GE, F_ABS_FLOAT4, F_ABS_FLOAT8, F_DSQRT, F_SQRT_FLOAT8,
	F_DROUND, F_ROUND_FLOAT8, F_DTRUNC, F_TRUNC_FLOAT8, F_FLOOR_FLOAT8,
	F_CEIL_FLOAT8, F_CEILING_FLOAT8, F_DPOW, F_POWER_FLOAT8_FLOAT8
};
static const Oid rv_numerics[] = {
	F_NUMERIC_ADD, F_NUMERIC_SUB, F_NUMERIC_MUL, F_NUMERIC_DIV,
	F_NUMERIC_MOD, F_NUMERIC_UMINUS, F_NUMERIC_UPLUS, F_NUMERIC_ABS,
	F_ABS_NUMERIC, F_MOD_NUMERIC_NUMERIC, F_NUMERIC_DIV_TRUNC, F_NUMERIC_EQ,
	F_NUMERIC_NE, F_NUMERIC_LT, F_NUMERIC_LE, F_NUMERIC_GT, F_NUMERIC_GE,
	F_ROUND_NUMERIC, F_ROUND_NUMERIC_INT4, F_TRUNC_NUMERIC,
	F_TRUNC_NUMERIC_INT4, F_FLOOR_NUMERIC, F_CEIL_NUMERIC, F_CEILING_NUMERIC,
	F_NUMERIC_SQRT, F_SQRT_NUMERIC, F_NUMERIC_POWER, F_POWER_NUMERIC_NUMERIC
};
static const Oid rv_booleans[] = {
	F_BOOLEQ, F_BOOLNE, F_BOOLLT, F_BOOLLE, F_BOOLGT, F_BOOLGE
};
static const Oid rv_number_casts[] = {
	F_INT2_INT4, F_INT2_INT8, F_INT4_INT2, F_INT4_INT8, F_INT8_INT2,
	F_INT8_INT4, F_FLOAT4_INT2, F_FLOAT4_INT4, F_FLOAT4_INT8, F_FLOAT8_INT2,
	F_FLOAT8_INT4, F_FLOAT8_INT8, F_INT2_FLOAT4, F_INT2_FLOAT8,
	F_INT4_FLOAT4, F_INT4_FLOAT8, F_INT8_FLOAT4, F_INT8_FLOAT8,
	F_FLOAT4_FLOAT8, F_FLOAT8_FLOAT4, F_NUMERIC_INT2, F_NUMERIC_INT4,
	F_NUMERIC_INT8, F_NUMERIC_FLOAT4, F_NUMERIC_FLOAT8, F_INT2_NUMERIC,
	F_INT4_NUMERIC, F_INT8_NUMERIC, F_FLOAT4_NUMERIC, F_FLOAT8_NUMERIC,
	F_NUMERIC_NUMERIC_INT4, F_BOOL_INT4, F_INT4_BOOL, F_TEXT_BOOL
};
static const Oid rv_text[] = {
	F_TEXTCAT, F_TEXTLEN, F_LENGTH_TEXT, F_OCTET_LENGTH_TEXT,
	F_LENGTH_BPCHAR, F_OCTET_LENGTH_BPCHAR, F_SUBSTR_TEXT_INT4,
	F_SUBSTR_TEXT_INT4_INT4, F_SUBSTRING_TEXT_INT4,
	F_SUBSTRING_TEXT_INT4_INT4, F_LEFT, F_RIGHT, F_TEXTEQ, F_TEXTNE,
	F_TEXT_LT, F_TEXT_LE, F_TEXT_GT, F_TEXT_GE, F_TEXTLIKE, F_TEXTNLIKE,
	F_BPCHAREQ, F_BPCHARNE, F_BPCHARLT, F_BPCHARLE, F_BPCHARGT, F_BPCHARGE,
	F_TEXT_BPCHAR, F_BPCHAR_BPCHAR_INT4_BOOL, F_VARCHAR_VARCHAR_INT4_BOOL
};
static const Oid rv_text_functions[] = {
	F_LOWER_TEXT, F_UPPER_TEXT, F_INITCAP, F_REPLACE, F_SPLIT_PART,
	F_STRPOS, F_POSITION_TEXT_TEXT, F_STARTS_WITH, F_BTRIM_TEXT,
	F_BTRIM_TEXT_TEXT, F_LTRIM_TEXT, F_LTRIM_TEXT_TEXT, F_RTRIM_TEXT,
	F_RTRIM_TEXT_TEXT, F_LPAD_TEXT_INT4, F_LPAD_TEXT_INT4_TEXT,
	F_RPAD_TEXT_INT4, F_RPAD_TEXT_INT4_TEXT, PLN_F_REVERSE_TEXT, F_REPEAT,
	F_TRANSLATE, F_CHR, F_ASCII, F_TO_HEX_INT4, F_TO_HEX_INT8,
	F_TEXTICLIKE, F_TEXTICNLIKE
};
static const Oid rv_datetime[] = {
	F_TIMESTAMPTZ_PL_INTERVAL, F_TIMESTAMPTZ_MI_INTERVAL,
	F_TIMESTAMP_PL_INTERVAL, F_TIMESTAMP_MI_INTERVAL,
	F_INTERVAL_PL_TIMESTAMPTZ, F_INTERVAL_PL_TIMESTAMP, F_TIMESTAMPTZ_MI,
	F_TIMESTAMP_MI, F_DATE_MI, F_DATE_PLI, F_DATE_MII, F_DATE_PL_INTERVAL,
	F_DATE_MI_INTERVAL, F_INTERVAL_PL_DATE, F_INTERVAL_PL, F_INTERVAL_MI,
	F_INTERVAL_UM, F_INTERVAL_MUL, F_INTERVAL_DIV, F_TIMESTAMPTZ_EQ,
	F_TIMESTAMPTZ_NE, F_TIMESTAMPTZ_LT, F_TIMESTAMPTZ_LE, F_TIMESTAMPTZ_GT,
	F_TIMESTAMPTZ_GE, F_TIMESTAMP_EQ, F_TIMESTAMP_NE, F_TIMESTAMP_LT,
	F_TIMESTAMP_LE, F_TIMESTAMP_GT, F_TIMESTAMP_GE, F_DATE_EQ, F_DATE_NE,
	F_DATE_LT, F_DATE_LE, F_DATE_GT, F_DATE_GE, F_INTERVAL_EQ, F_INTERVAL_NE,
	F_INTERVAL_LT, F_INTERVAL_LE, F_INTERVAL_GT, F_INTERVAL_GE,
	F_TIMESTAMPTZ_EQ_TIMESTAMP, F_TIMESTAMPTZ_NE_TIMESTAMP,
	F_TIMESTAMPTZ_LT_TIMESTAMP, F_TIMESTAMPTZ_LE_TIMESTAMP,
	F_TIMESTAMPTZ_GT_TIMESTAMP, F_TIMESTAMPTZ_GE_TIMESTAMP,
	F_TIMESTAMP_EQ_TIMESTAMPTZ, F_TIMESTAMP_NE_TIMESTAMPTZ,
	F_TIMESTAMP_LT_TIMESTAMPTZ, F_TIMESTAMP_LE_TIMESTAMPTZ,
	F_TIMESTAMP_GT_TIMESTAMPTZ, F_TIMESTAMP_GE_TIMESTAMPTZ,
	F_TIMESTAMPTZ_EQ_DATE, F_TIMESTAMPTZ_NE_DATE, F_TIMESTAMPTZ_LT_DATE,
	F_TIMESTAMPTZ_LE_DATE, F_TIMESTAMPTZ_GT_DATE, F_TIMESTAMPTZ_GE_DATE,
	F_DATE_EQ_TIMESTAMPTZ, F_DATE_NE_TIMESTAMPTZ, F_DATE_LT_TIMESTAMPTZ,
	F_DATE_LE_TIMESTAMPTZ, F_DATE_GT_TIMESTAMPTZ, F_DATE_GE_TIMESTAMPTZ,
	F_DATE_TIMESTAMPTZ, F_TIMESTAMPTZ_DATE, F_DATE_TIMESTAMP,
	F_TIMESTAMP_DATE, F_TIMESTAMP_TIMESTAMPTZ, F_TIMESTAMPTZ_TIMESTAMP,
	F_TIMESTAMPTZ_LARGER, F_TIMESTAMPTZ_SMALLER, F_TIMESTAMP_LARGER,
	F_TIMESTAMP_SMALLER
};
static const Oid rv_clock[] = {
	F_NOW, F_TRANSACTION_TIMESTAMP, F_STATEMENT_TIMESTAMP, F_PG_BACKEND_PID
};
static const Oid rv_datetime_fields[] = {
	F_AGE_TIMESTAMPTZ_TIMESTAMPTZ, F_AGE_TIMESTAMP_TIMESTAMP, F_MAKE_DATE,
	F_TO_TIMESTAMP_FLOAT8
};
static const Oid rv_datetime_units[] = {
	F_DATE_TRUNC_TEXT_TIMESTAMPTZ, F_DATE_TRUNC_TEXT_TIMESTAMP,
	F_DATE_TRUNC_TEXT_INTERVAL, F_DATE_PART_TEXT_TIMESTAMPTZ,
	F_DATE_PART_TEXT_TIMESTAMP, F_DATE_PART_TEXT_INTERVAL,
	F_EXTRACT_TEXT_TIMESTAMPTZ, F_EXTRACT_TEXT_TIMESTAMP, F_EXTRACT_TEXT_DATE,
	F_EXTRACT_TEXT_INTERVAL
};
static const Oid rv_oids[] = {
	F_OIDEQ, F_OIDNE, F_OIDLT, F_OIDLE, F_OIDGT, F_OIDGE
};
static const Oid rv_quote[] = {
	F_QUOTE_IDENT, F_QUOTE_LITERAL_TEXT, F_QUOTE_NULLABLE_TEXT, F_NAME_TEXT,
	F_TEXT_NAME, F_NAMEEQ, F_NAMENE, F_NAMEEQTEXT, F_NAMENETEXT
};
static const Oid rv_array_header[] = {
	F_ARRAY_APPEND, F_ARRAY_PREPEND, F_ARRAY_CAT, F_ARRAY_LENGTH,
	F_ARRAY_UPPER, F_ARRAY_LOWER, F_ARRAY_NDIMS, F_CARDINALITY
};
static const Oid rv_array_io[] = {
	F_ARRAY_TO_STRING_ANYARRAY_TEXT, F_ARRAY_TO_STRING_ANYARRAY_TEXT_TEXT,
	F_STRING_TO_ARRAY_TEXT_TEXT, F_STRING_TO_ARRAY_TEXT_TEXT_TEXT
};
static const Oid rv_regclass[] = {
	F_REGCLASS, F_TO_REGCLASS, F_TO_REGTYPE, F_TO_REGPROC, F_TO_REGPROCEDURE,
	F_TO_REGOPER, F_TO_REGOPERATOR, F_TO_REGNAMESPACE, F_TO_REGROLE,
	F_TO_REGCOLLATION
};
static const Oid rv_privileges[] = {
	F_HAS_TABLE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_TABLE_PRIVILEGE_NAME_OID_TEXT, F_HAS_TABLE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_TABLE_PRIVILEGE_OID_OID_TEXT, F_HAS_TABLE_PRIVILEGE_TEXT_TEXT,
	F_HAS_TABLE_PRIVILEGE_OID_TEXT, F_HAS_SEQUENCE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_SEQUENCE_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_SEQUENCE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_SEQUENCE_PRIVILEGE_OID_OID_TEXT,
	F_HAS_SEQUENCE_PRIVILEGE_TEXT_TEXT, F_HAS_SEQUENCE_PRIVILEGE_OID_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_OID_OID_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_TEXT_TEXT,
	F_HAS_ANY_COLUMN_PRIVILEGE_OID_TEXT,
	F_HAS_COLUMN_PRIVILEGE_NAME_TEXT_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_NAME_TEXT_INT2_TEXT,
	F_HAS_COLUMN_PRIVILEGE_NAME_OID_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_NAME_OID_INT2_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_TEXT_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_TEXT_INT2_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_OID_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_OID_INT2_TEXT,
	F_HAS_COLUMN_PRIVILEGE_TEXT_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_TEXT_INT2_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_COLUMN_PRIVILEGE_OID_INT2_TEXT,
	F_HAS_DATABASE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_DATABASE_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_DATABASE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_DATABASE_PRIVILEGE_OID_OID_TEXT,
	F_HAS_DATABASE_PRIVILEGE_TEXT_TEXT, F_HAS_DATABASE_PRIVILEGE_OID_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_OID_OID_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_TEXT_TEXT,
	F_HAS_FOREIGN_DATA_WRAPPER_PRIVILEGE_OID_TEXT,
	F_HAS_FUNCTION_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_FUNCTION_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_FUNCTION_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_FUNCTION_PRIVILEGE_OID_OID_TEXT,
	F_HAS_FUNCTION_PRIVILEGE_TEXT_TEXT, F_HAS_FUNCTION_PRIVILEGE_OID_TEXT,
	F_HAS_LANGUAGE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_LANGUAGE_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_LANGUAGE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_LANGUAGE_PRIVILEGE_OID_OID_TEXT,
	F_HAS_LANGUAGE_PRIVILEGE_TEXT_TEXT, F_HAS_LANGUAGE_PRIVILEGE_OID_TEXT,
	F_HAS_SCHEMA_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_SCHEMA_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_SCHEMA_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_SCHEMA_PRIVILEGE_OID_OID_TEXT, F_HAS_SCHEMA_PRIVILEGE_TEXT_TEXT,
	F_HAS_SCHEMA_PRIVILEGE_OID_TEXT, F_HAS_SERVER_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_SERVER_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_SERVER_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_SERVER_PRIVILEGE_OID_OID_TEXT, F_HAS_SERVER_PRIVILEGE_TEXT_TEXT,
	F_HAS_SERVER_PRIVILEGE_OID_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_NAME_OID_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_OID_OID_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_TEXT_TEXT,
	F_HAS_TABLESPACE_PRIVILEGE_OID_TEXT, F_HAS_TYPE_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_TYPE_PRIVILEGE_NAME_OID_TEXT, F_HAS_TYPE_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_TYPE_PRIVILEGE_OID_OID_TEXT, F_HAS_TYPE_PRIVILEGE_TEXT_TEXT,
	F_HAS_TYPE_PRIVILEGE_OID_TEXT, F_HAS_PARAMETER_PRIVILEGE_NAME_TEXT_TEXT,
	F_HAS_PARAMETER_PRIVILEGE_OID_TEXT_TEXT,
	F_HAS_PARAMETER_PRIVILEGE_TEXT_TEXT, F_PG_HAS_ROLE_NAME_NAME_TEXT,
	F_PG_HAS_ROLE_NAME_OID_TEXT, F_PG_HAS_ROLE_OID_NAME_TEXT,
	F_PG_HAS_ROLE_OID_OID_TEXT, F_PG_HAS_ROLE_NAME_TEXT,
	F_PG_HAS_ROLE_OID_TEXT
};
static const Oid rv_session_names[] = {
	F_CURRENT_USER, F_SESSION_USER, F_CURRENT_SCHEMA, F_CURRENT_DATABASE
};
static const Oid rv_settings[] = {
	F_CURRENT_SETTING_TEXT, F_CURRENT_SETTING_TEXT_BOOL,
	F_PG_SETTINGS_GET_FLAGS
};
static const Oid rv_json[] = {
	F_JSON_OBJECT_FIELD, F_JSON_OBJECT_FIELD_TEXT, F_JSON_ARRAY_ELEMENT,
	F_JSON_ARRAY_ELEMENT_TEXT, F_JSON_EXTRACT_PATH, F_JSON_EXTRACT_PATH_TEXT,
	F_JSON_TYPEOF, F_JSON_ARRAY_LENGTH, F_JSONB_OBJECT_FIELD,
	F_JSONB_OBJECT_FIELD_TEXT, F_JSONB_ARRAY_ELEMENT,
	F_JSONB_ARRAY_ELEMENT_TEXT, F_JSONB_EXTRACT_PATH,
	F_JSONB_EXTRACT_PATH_TEXT, F_JSONB_TYPEOF, F_JSONB_ARRAY_LENGTH,
	F_JSONB_EXISTS, F_JSONB_CONTAINS, F_JSONB_CONTAINED, F_JSONB_EQ,
	F_JSONB_NE
};
static const Oid rv_json_build[] = {
	F_JSON_BUILD_OBJECT_ANY, F_JSON_BUILD_OBJECT_, F_JSON_BUILD_ARRAY_ANY,
	F_JSON_BUILD_ARRAY_, F_JSONB_BUILD_OBJECT_ANY, F_JSONB_BUILD_OBJECT_,
	F_JSONB_BUILD_ARRAY_ANY, F_JSONB_BUILD_ARRAY_, F_TO_JSON, F_TO_JSONB
};
static const Oid rv_text_io_args[] = {
	F_FORMAT_TEXT, F_FORMAT_TEXT_ANY, F_CONCAT, F_CONCAT_WS
};
static const Oid rv_to_char[] = {
	F_TO_CHAR_INT4_TEXT, F_TO_CHAR_INT8_TEXT, F_TO_CHAR_FLOAT4_TEXT,
	F_TO_CHAR_FLOAT8_TEXT, F_TO_CHAR_NUMERIC_TEXT, F_TO_CHAR_TIMESTAMP_TEXT,
	F_TO_CHAR_TIMESTAMPTZ_TEXT, F_TO_CHAR_INTERVAL_TEXT
};
static const Oid rv_regex[] = {
	F_TEXTREGEXEQ, F_TEXTREGEXNE, F_TEXTICREGEXEQ, F_TEXTICREGEXNE,
	F_NAMEREGEXEQ, F_NAMEREGEXNE, F_REGEXP_REPLACE_TEXT_TEXT_TEXT,
	F_REGEXP_REPLACE_TEXT_TEXT_TEXT_TEXT,
	F_REGEXP_REPLACE_TEXT_TEXT_TEXT_INT4,
	F_REGEXP_REPLACE_TEXT_TEXT_TEXT_INT4_INT4,
	F_REGEXP_REPLACE_TEXT_TEXT_TEXT_INT4_INT4_TEXT, F_REGEXP_MATCH_TEXT_TEXT,
	F_REGEXP_MATCH_TEXT_TEXT_TEXT, F_REGEXP_LIKE_TEXT_TEXT,
	F_REGEXP_LIKE_TEXT_TEXT_TEXT, F_REGEXP_COUNT_TEXT_TEXT,
	F_REGEXP_COUNT_TEXT_TEXT_INT4, F_REGEXP_COUNT_TEXT_TEXT_INT4_TEXT,
	F_REGEXP_SUBSTR_TEXT_TEXT, F_REGEXP_SUBSTR_TEXT_TEXT_INT4,
	F_REGEXP_SUBSTR_TEXT_TEXT_INT4_INT4,
	F_REGEXP_SUBSTR_TEXT_TEXT_INT4_INT4_TEXT,
	F_REGEXP_SUBSTR_TEXT_TEXT_INT4_INT4_TEXT_INT4, F_REGEXP_INSTR_TEXT_TEXT,
	F_REGEXP_INSTR_TEXT_TEXT_INT4, F_REGEXP_INSTR_TEXT_TEXT_INT4_INT4,
	F_REGEXP_INSTR_TEXT_TEXT_INT4_INT4_INT4,
	F_REGEXP_INSTR_TEXT_TEXT_INT4_INT4_INT4_TEXT,
	F_REGEXP_INSTR_TEXT_TEXT_INT4_INT4_INT4_TEXT_INT4, F_SUBSTRING_TEXT_TEXT,
	F_REGEXP_SPLIT_TO_ARRAY_TEXT_TEXT,
	F_REGEXP_SPLIT_TO_ARRAY_TEXT_TEXT_TEXT
};

typedef struct ReviewedGroup
{
	const char *name;
	PlnFnClass	fnclass;
	int			flags;
	const Oid  *funcs;
	int			nfuncs;
	const char *review;
} ReviewedGroup;

#define RV_GROUP(name, fnclass, flags, arr, review) \
	{name, fnclass, flags, arr, lengthof(arr), review}

static const ReviewedGroup reviewed_groups[] = {
	RV_GROUP("integers", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_integers,
		"Integer arithmetic and comparison, including the cross-type "
		"variants.  Plain C on the argument values; the only errors are "
		"overflow and division by zero."),
	RV_GROUP("floats", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_floats,
		"Floating point arithmetic, comparison and rounding.  Plain C; "
		"the errors are overflow, underflow and division by zero."),
	RV_GROUP("numerics", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_numerics,
		"Numeric arithmetic, comparison and rounding.  Computes in "
		"palloc'd memory of the current context only; errors are "
		"overflow, division by zero and invalid arguments."),
	RV_GROUP("booleans", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_booleans,
		"Boolean comparison: trivially pure"),
	RV_GROUP("number casts", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_number_casts,
		"Casts between the numeric types and boolean: plain C "
		"conversions whose only errors are out-of-range values.  The "
		"typmod coercion of numeric(p,s) rounds and checks the "
		"precision."),
	RV_GROUP("text", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_text,
		"Text.  Concatenation, lengths and substrings work on the bytes "
		"and the server encoding only.  Comparisons and LIKE consult "
		"the collation: they are pure only with the database default, C "
		"or POSIX collation, which need no catalog lookup (checked "
		"below). The length coercions of varchar(n) and char(n) only "
		"check and cut."),
	RV_GROUP("text functions", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_text_functions,
		"lower, upper, initcap, replace, split_part, strpos, position, "
		"starts_with, the trims, the pads, reverse, repeat, translate, "
		"chr, ascii, to_hex and ILIKE: plain C over the characters in "
		"the server encoding.  Those that consult the collation (case "
		"mapping, ILIKE, and the substring searches, which refuse a "
		"nondeterministic one) are pure only with the database default, "
		"C or POSIX collation, whose locale is loaded when the session "
		"starts; with another, the collation is looked up (a catalog "
		"read), and they run only under the guard.  Errors: out of "
		"range lengths and codes, unsupported collations, out of "
		"memory.  (md5 is not here: its hash context is registered with "
		"the resource owner.)"),
	RV_GROUP("date and time arithmetic and comparison", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_datetime,
		"timestamptz +/- interval, timestamp +/- interval, date "
		"arithmetic, interval arithmetic, the comparisons of "
		"timestamptz, timestamp, date and interval within and across "
		"these types, and the casts between date, timestamp and "
		"timestamptz: plain C over the values. Those that involve "
		"timestamptz read the session time zone (an already loaded "
		"pg_tz; nothing is loaded here: only input and AT TIME ZONE "
		"name zones), which is what PL/pgSQL sees at that point (a "
		"subtransaction changes no setting). Errors: "
		"datetime_field_overflow / datetime out of range, invalid "
		"interval arithmetic."),
	RV_GROUP("date and time fields", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_datetime_fields,
		"age of two timestamps, make_date and to_timestamp(double "
		"precision): the value taken apart and put together in C; those "
		"of timestamptz use the session time zone, already loaded, which "
		"is what PL/pgSQL sees (a subtransaction changes no setting).  All "
		"internal functions, none an SQL function the planner would "
		"inline.  Errors: timestamp or date out of range."),
	RV_GROUP("date and time fields by unit name", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_datetime_units,
		"date_trunc, date_part and extract of timestamptz, timestamp, "
		"date and interval: the unit is looked up in a constant table, "
		"the value taken apart in C, as above (the forms that name a time "
		"zone, which may load one, are not here).  Class GUARDED: the "
		"error for a unit not recognized or not supported names the type "
		"with format_type_be, a catalog cache lookup (found by the "
		"wrapped-server lane: SearchCatCache1 in a handler block without "
		"its subtransaction, sql/read_guard.sql's rg_fields with unit "
		"'fortnight').  Errors: unit not recognized or not supported, "
		"timestamp or date out of range."),
	RV_GROUP("the transaction's and statement's start, the backend's pid", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_clock,
		"now() (also CURRENT_TIMESTAMP and the other SQL value functions "
		"of the clock, see impure_node_walker), transaction_timestamp(), "
		"statement_timestamp() and pg_backend_pid() return a value the "
		"backend keeps in a variable; a subtransaction does not change "
		"it, so PL/pgSQL sees the same. No errors."),
	RV_GROUP("oid comparison", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_oids,
		"oid =, <>, <, <=, >, >= (also what reg* values compare with, "
		"as a binary-coercible cast to oid): plain C on two integers; "
		"no errors."),
	RV_GROUP("quote_ident, quote_literal, quote_nullable of text; name and text", PLN_FN_PURE, RV_RUNS_NO_CODE, rv_quote,
		"quote_ident (scans the keyword list, a constant table), "
		"quote_literal and quote_nullable of text, the casts between "
		"name and text and name comparison with the default collation: "
		"plain C over the bytes. Errors: out of memory."),
	RV_GROUP("arrays (header and element layout)", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_array_header,
		"array_append, array_prepend and array_cat look up the element "
		"type's layout (the type cache, a catalog read) on first use "
		"and keep it in fn_extra; the others read only the array "
		"header. No user code, nothing left behind but cache entries a "
		"subtransaction abort keeps too; errors: array_cat and friends' "
		"dimension mismatches, out of memory."),
	RV_GROUP("arrays through their elements' output", PLN_FN_GUARDED, RV_IO_ARGS, rv_array_io,
		"array_to_string calls the element type's output function "
		"(looked up in the catalogs, kept in fn_extra): allowed only "
		"for element types of the reviewed I/O table (checked per call "
		"site, RV_IO_ARGS). string_to_array is plain C over text. "
		"Errors: those of the output functions, out of memory."),
	RV_GROUP("text to regclass and to_reg*", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_regclass,
		"regclass(text) and to_regclass, to_regtype, to_regproc, "
		"to_regprocedure, to_regoper, to_regoperator, to_regnamespace, "
		"to_regrole, to_regcollation parse a name (to_regtype runs the "
		"SQL parser on it, and a type modifier's input function: a "
		"function that is not built in is refused by the guard at run "
		"time, guard.c) and look it up in the syscaches, taking no lock "
		"(NoLock); they depend on search_path and the current user, "
		"which a subtransaction does not change, so PL/pgSQL sees the "
		"same. They leave only syscache entries (kept by a "
		"subtransaction abort too). Errors: undefined_table / "
		"undefined_object / undefined_function, invalid_name, syntax "
		"errors; a cancel or an I/O error in a catalog scan (the guard "
		"releases pins and references)."),
	RV_GROUP("has_*_privilege and pg_has_role", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_privileges,
		"Look the object and the role up (syscaches, by name or OID) "
		"and check the ACL against the role's memberships (the roles "
		"cache, rebuilt from pg_auth_members when invalidated); no "
		"lock, no user code. Depend on the current user and role "
		"memberships, as under PL/pgSQL. Errors: undefined object or "
		"role, invalid privilege type; a cancel or I/O error in a "
		"catalog scan."),
	RV_GROUP("the names of the current user, schema and database", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_session_names,
		"current_user, session_user, current_schema() and "
		"current_database() (also as the SQL value functions CURRENT_USER, "
		"CURRENT_ROLE, USER, SESSION_USER, CURRENT_SCHEMA and "
		"CURRENT_CATALOG, see impure_node_walker) look the role, the "
		"first schema of the search path or the database up by OID in the "
		"syscaches (current_schema may recompute the search path, which "
		"reads pg_namespace and creates nothing); no lock, no user code. "
		"They depend on the current user and search_path, which a "
		"subtransaction does not change. Errors: a role or database "
		"dropped meanwhile; a cancel or I/O error in a catalog scan."),
	RV_GROUP("current_setting and settings flags", PLN_FN_GUARDED, 0, rv_settings,
		"current_setting(name [, missing_ok]) and pg_settings_get_flags "
		"read the settings table; for settings restricted to "
		"pg_read_all_settings they check role membership (the roles "
		"cache, a catalog read). A setting's show hook (built in or an "
		"extension's) formats the value: it changes nothing. The value "
		"is the session's at that point, which is what PL/pgSQL sees (a "
		"subtransaction changes no setting until SET LOCAL). Errors: "
		"undefined_object (unrecognized parameter), "
		"insufficient_privilege."),
	RV_GROUP("json and jsonb accessors", PLN_FN_GUARDED, RV_RUNS_NO_CODE, rv_json,
		"The field and element accessors (-> ->> #> #>>), typeof, "
		"array length, containment and existence of json and jsonb: "
		"plain C over the value (json is parsed again at each call, "
		"jsonb compares strings with the default collation), holding "
		"only memory. Class GUARDED rather than PURE as a margin: the "
		"json code was read for what it can hold, not line by line to "
		"the pure class's standard. Errors: invalid json, out of "
		"memory, stack depth for deep nesting."),
	RV_GROUP("json and jsonb builders", PLN_FN_GUARDED, RV_IO_ARGS, rv_json_build,
		"json_build_object, json_build_array, their jsonb forms, to_json "
		"and to_jsonb: each argument is put into the result by its type's "
		"category, looked up in the catalogs (the output function, and for "
		"a type that is not built in a cast to json, which the I/O check "
		"leaves out: only types of the reviewed I/O table and arrays of "
		"them, RV_IO_ARGS); numbers and text through their output "
		"functions, json parsed, jsonb copied, arrays element by element. "
		"Holding only memory. Errors: an odd number of arguments, a null "
		"or non-scalar key, those of the output functions, out of memory."),
	RV_GROUP("format and concat", PLN_FN_GUARDED, RV_IO_ARGS, rv_text_io_args,
		"format, concat and concat_ws call their arguments' types' "
		"output functions (looked up in the catalogs): allowed only "
		"where every argument's type is in the reviewed I/O table "
		"(RV_IO_ARGS). %I and %L quote as quote_ident and "
		"quote_literal. Errors: invalid format strings, those of the "
		"output functions."),
	RV_GROUP("to_char", PLN_FN_GUARDED, 0, rv_to_char,
		"to_char of numbers, timestamps and intervals: the format is "
		"parsed into a session cache; numbers read the locale's "
		"conventions (localeconv, cached), TM names the locale's month "
		"and day names (setlocale, cached); timestamptz uses the "
		"session time zone. All of it session state that a "
		"subtransaction does not change. Errors: invalid formats, "
		"out-of-range values."),
	RV_GROUP("regular expressions", PLN_FN_GUARDED, 0, rv_regex,
		"~, !~, ~*, !~*, regexp_replace, regexp_match, regexp_like, "
		"regexp_count, regexp_instr, regexp_substr, substring(text from "
		"pattern), split to array: the pattern is compiled into the "
		"session's cache of compiled patterns (malloc'd, replaced "
		"whole; a compilation that fails or is cancelled frees its own "
		"work first, so the cache is never left half-built); matching "
		"checks for interrupts. A non-default collation is looked up "
		"(pg_collation). Errors: invalid_regular_expression, a cancel "
		"during a long match."),
};

/*
 * Types whose input and output functions are reviewed: for I/O
 * conversions (text to integer, text to regtype) and for RAISE
 * parameters, and for the arguments of RV_IO_ARGS functions.  The
 * functions are the types' own from pg_type, named here so that no
 * catalog lookup is needed to find them.  Class PLN_FN_PURE: their input
 * functions parse with plain C and report bad input as an error; float
 * output reads the extra_float_digits setting, which is only a variable.
 * name, oid, uuid, inet and cidr are plain C too.  Class PLN_FN_GUARDED: the reg* types look
 * names up in the catalogs both ways (as regclass(text) above; regtype's
 * input runs the SQL parser and a type modifier's input function), json
 * and jsonb parse with plain C but are kept under the guard with their
 * accessors.  Date and time types stay
 * off: their input may look a time zone up in the time zone directory
 * (AllocateDir, which only a subtransaction abort closes).
 */
typedef struct PureIOType
{
	Oid			typid;
	Oid			input;
	Oid			output;
	PlnFnClass	fnclass;
} PureIOType;

static const PureIOType pure_io_types[] = {
	{INT2OID, F_INT2IN, F_INT2OUT, PLN_FN_PURE},
	{INT4OID, F_INT4IN, F_INT4OUT, PLN_FN_PURE},
	{INT8OID, F_INT8IN, F_INT8OUT, PLN_FN_PURE},
	{FLOAT4OID, F_FLOAT4IN, F_FLOAT4OUT, PLN_FN_PURE},
	{FLOAT8OID, F_FLOAT8IN, F_FLOAT8OUT, PLN_FN_PURE},
	{NUMERICOID, F_NUMERIC_IN, F_NUMERIC_OUT, PLN_FN_PURE},
	{BOOLOID, F_BOOLIN, F_BOOLOUT, PLN_FN_PURE},
	{TEXTOID, F_TEXTIN, F_TEXTOUT, PLN_FN_PURE},
	{UNKNOWNOID, F_UNKNOWNIN, F_UNKNOWNOUT, PLN_FN_PURE},
	{VARCHAROID, F_VARCHARIN, F_VARCHAROUT, PLN_FN_PURE},
	{BPCHAROID, F_BPCHARIN, F_BPCHAROUT, PLN_FN_PURE},
	{NAMEOID, F_NAMEIN, F_NAMEOUT, PLN_FN_PURE},
	{OIDOID, F_OIDIN, F_OIDOUT, PLN_FN_PURE},
	{UUIDOID, F_UUID_IN, F_UUID_OUT, PLN_FN_PURE},
	{INETOID, F_INET_IN, F_INET_OUT, PLN_FN_PURE},
	{CIDROID, F_CIDR_IN, F_CIDR_OUT, PLN_FN_PURE},
	{REGCLASSOID, F_REGCLASSIN, F_REGCLASSOUT, PLN_FN_GUARDED},
	{REGTYPEOID, F_REGTYPEIN, F_REGTYPEOUT, PLN_FN_GUARDED},
	{REGPROCOID, F_REGPROCIN, F_REGPROCOUT, PLN_FN_GUARDED},
	{REGPROCEDUREOID, F_REGPROCEDUREIN, F_REGPROCEDUREOUT, PLN_FN_GUARDED},
	{REGOPEROID, F_REGOPERIN, F_REGOPEROUT, PLN_FN_GUARDED},
	{REGOPERATOROID, F_REGOPERATORIN, F_REGOPERATOROUT, PLN_FN_GUARDED},
	{REGNAMESPACEOID, F_REGNAMESPACEIN, F_REGNAMESPACEOUT, PLN_FN_GUARDED},
	{REGROLEOID, F_REGROLEIN, F_REGROLEOUT, PLN_FN_GUARDED},
	{JSONOID, F_JSON_IN, F_JSON_OUT, PLN_FN_GUARDED},
	{JSONBOID, F_JSONB_IN, F_JSONB_OUT, PLN_FN_GUARDED},
};

/*
 * Types whose comparison GREATEST and LEAST may use: the btree support
 * functions of the number types are plain C.
 */
static const Oid pure_minmax_types[] = {
	INT2OID, INT4OID, INT8OID, FLOAT4OID, FLOAT8OID, NUMERICOID,
};

/*
 * What a walk accepts:
 *	WALK_PURE		class PURE only, with collations that need no lookup
 *	WALK_READS		also records and their fields, and GUARDED functions
 *					that run no other code (RV_RUNS_NO_CODE): for
 *					pln_expr_tree_calls_only_pure, under a subtransaction
 *	WALK_GUARDED	class PURE and GUARDED, any collation, scalar variables
 *					only: what may run under a read guard
 *	WALK_GUARDED_PLAN  the same, in an executor plan: also a column of the
 *					row being scanned or joined (a Var), and a value a
 *					nested loop hands to its inner side (a PARAM_EXEC
 *					Param): what a guarded query (guarded_query.c) may
 *					evaluate
 */
typedef enum WalkMode
{
	WALK_PURE,
	WALK_READS,
	WALK_GUARDED,
	WALK_GUARDED_PLAN
} WalkMode;

/* What the walker found wrong, for the explain view */
typedef struct PurityContext
{
	PlnFunction *func;			/* owner of the Params, or NULL */
	WalkMode	mode;
	Node	   *culprit;		/* first node not accepted */
	List	   *guarded;		/* if not NIL on entry: the names of the
								 * GUARDED calls seen (for the plan view) */
	bool		collect;		/* collect them */
	bool		analysed;		/* the tree is analysed, not planned: the
								 * planner will inline the concatenations
								 * of text with other types (below) */
} PurityContext;

/* Is oid one of the n in list?  (Also for snapshots.c.) */
bool
pln_oid_in_list(Oid oid, const Oid *list, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (list[i] == oid)
			return true;
	}
	return false;
}

/* The reviewed group of a function, or NULL */
static const ReviewedGroup *
reviewed_group(Oid funcid)
{
	int			i;

	for (i = 0; i < lengthof(reviewed_groups); i++)
	{
		if (pln_oid_in_list(funcid, reviewed_groups[i].funcs,
							reviewed_groups[i].nfuncs))
			return &reviewed_groups[i];
	}
	return NULL;
}

/*
 * The class of a function on the table, PLN_FN_NOT_REVIEWED if it is not
 * on it (for the checking build and the other layers; the review note, if
 * wanted, through *review).
 */
PlnFnClass
pln_reviewed_function_class(Oid funcid, const char **review)
{
	const ReviewedGroup *group = reviewed_group(funcid);

	if (review != NULL)
		*review = group != NULL ? group->review : NULL;
	return group != NULL ? group->fnclass : PLN_FN_NOT_REVIEWED;
}

/* The reviewed I/O type of any class, or NULL */
static const PureIOType *
reviewed_io_type(Oid typid)
{
	int			i;

	for (i = 0; i < lengthof(pure_io_types); i++)
	{
		if (pure_io_types[i].typid == typid)
			return &pure_io_types[i];
	}
	return NULL;
}

/* The reviewed I/O type of class PURE, or NULL */
static const PureIOType *
pure_io_type(Oid typid)
{
	const PureIOType *io = reviewed_io_type(typid);

	return (io != NULL && io->fnclass == PLN_FN_PURE) ? io : NULL;
}

/* Collations that need no catalog lookup to be used */
static bool
collation_is_pure(Oid collid)
{
	return pln_collation_needs_no_lookup(collid);
}

/*
 * Is the function on the pure list, whatever collation it is called with?
 * (For the write path, which asks about effects, not catalog reads.)
 */
bool
pln_function_is_on_pure_list(Oid funcid)
{
	return pln_reviewed_function_class(funcid, NULL) == PLN_FN_PURE;
}

/*
 * For RV_IO_ARGS: is the output function of each argument's type (of its
 * element type, for an array) reviewed?
 */
static bool
args_have_reviewed_io(List *args)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		Oid			typid = exprType((Node *) lfirst(lc));
		Oid			elemtype = get_element_type(typid);

		if (OidIsValid(elemtype))
			typid = elemtype;
		if (reviewed_io_type(typid) == NULL)
			return false;
	}
	return true;
}

/*
 * For snapshots.c: is the call one of the table's, with (for RV_IO_ARGS)
 * arguments of reviewed types?  No function of the table reads a table
 * through the active snapshot: what they read, they read through the
 * catalog caches, the catalog snapshot, settings and the locale.
 */
bool
pln_reviewed_call_needs_no_snapshot(Oid funcid, List *args)
{
	const ReviewedGroup *group = reviewed_group(funcid);

	if (group == NULL)
		return false;
	return !(group->flags & RV_IO_ARGS) || args_have_reviewed_io(args);
}

/* For snapshots.c: a conversion through text between reviewed types? */
bool
pln_reviewed_io_conversion(Oid fromtype, Oid totype)
{
	return reviewed_io_type(fromtype) != NULL &&
		reviewed_io_type(totype) != NULL;
}

/* May the walk accept this call? */
static bool
function_call_is_allowed(Oid funcid, Oid inputcollid, List *args,
						 PurityContext *context)
{
	const ReviewedGroup *group = reviewed_group(funcid);

	if (group == NULL)
		return false;
	if (group->fnclass == PLN_FN_PURE && collation_is_pure(inputcollid))
		return true;
	switch (context->mode)
	{
		case WALK_PURE:
			return false;
		case WALK_READS:
			return group->fnclass == PLN_FN_GUARDED &&
				(group->flags & RV_RUNS_NO_CODE) != 0 &&
				collation_is_pure(inputcollid);
		case WALK_GUARDED:
		case WALK_GUARDED_PLAN:
			/* (a collation other than those is looked up: a catalog read) */
			if ((group->flags & RV_IO_ARGS) && !args_have_reviewed_io(args))
				return false;
			if (context->collect)
				context->guarded = lappend(context->guarded,
										   format_procedure(funcid));
			return true;
	}
	return false;
}

/*
 * A Param is pure if it reads a scalar variable of the function.  Records
 * and their fields are read through the type cache, and their values may
 * be toasted (reading them may read a table): they are accepted only
 * where the caller allows them.
 */
static bool
param_is_pure(Param *param, PurityContext *context)
{
	int			dno = param->paramid - 1;
	PlnFunction *func = context->func;
	PlnDatumType dtype;

	/* (set by a nested loop from its outer row; no sub-plan is accepted) */
	if (param->paramkind == PARAM_EXEC)
		return context->mode == WALK_GUARDED_PLAN;
	if (param->paramkind != PARAM_EXTERN || func == NULL)
		return false;
	/*
	 * An array variable that an assignment changes in place is referenced
	 * by a number above the datums' (see choose_rw_param): it is still the
	 * variable, and changing its expanded array in place is plain C.
	 */
	if (dno >= func->ndatums && dno < 2 * func->ndatums)
		dno -= func->ndatums;
	if (dno < 0 || dno >= func->ndatums)
		return false;
	dtype = func->datums[dno]->dtype;
	if (dtype == PLN_DTYPE_VAR)
		return true;
	return context->mode == WALK_READS &&
		(dtype == PLN_DTYPE_REC || dtype == PLN_DTYPE_RECFIELD);
}

/*
 * In an analysed tree (before planning): text || x and x || text for x of
 * another type are calls of textanycat and anytextcat, SQL functions whose
 * body ($1 || $2::text, $1::text || $2) the planner inlines, so that the
 * planned tree holds textcat and x's conversion to text instead, which
 * the planned tree's own check judges.  Planning such a call reads the
 * function from pg_proc and parses its body (catalog reads); it could run
 * the body only if the function were immutable (the planner evaluates
 * immutable calls of constants before it inlines), which the stock
 * functions are not: a changed one is not accepted.  (One changed so that
 * the planner does not inline it stays a call, which the planned tree's
 * check does not accept.)  The conversion of x
 * is folded for a constant x only through the types' reviewed I/O
 * functions or reviewed casts, so x's type must be in the I/O table, and
 * its cast to text, if it has one, on the table (inet's is not).
 * Inlining tells object_access_hook of the call: no other module may have
 * set it.
 */
static bool
conversion_to_text_is_reviewed(Oid typid)
{
	Oid			castfunc;

	if (reviewed_io_type(typid) == NULL)
		return false;
	switch (find_coercion_pathway(TEXTOID, typid, COERCION_EXPLICIT,
								  &castfunc))
	{
		case COERCION_PATH_RELABELTYPE:
		case COERCION_PATH_COERCEVIAIO:
			return true;
		case COERCION_PATH_FUNC:
			return reviewed_group(castfunc) != NULL;
		default:
			return false;
	}
}

static bool
inlined_concat_is_guardable(Oid funcid, List *args)
{
	Node	   *other;

	if (funcid == F_TEXTANYCAT)
		other = lsecond(args);
	else if (funcid == F_ANYTEXTCAT)
		other = linitial(args);
	else
		return false;
	return list_length(args) == 2 &&
		object_access_hook == NULL &&
		conversion_to_text_is_reviewed(exprType(other)) &&
		func_volatile(funcid) != PROVOLATILE_IMMUTABLE;
}

/* For the plan view: the keyword of a SQL value function that names */
static const char *
sql_value_function_name(SQLValueFunction *svf)
{
	switch (svf->op)
	{
		case SVFOP_CURRENT_ROLE:
			return "current_role";
		case SVFOP_CURRENT_USER:
			return "current_user";
		case SVFOP_USER:
			return "user";
		case SVFOP_SESSION_USER:
			return "session_user";
		case SVFOP_CURRENT_CATALOG:
			return "current_catalog";
		case SVFOP_CURRENT_SCHEMA:
			return "current_schema";
		default:
			return "a SQL value function";
	}
}

/* Returns true, and remembers the node, at the first impure node */
static bool
impure_node_walker(Node *node, PurityContext *context)
{
	bool		pure;

	if (node == NULL)
		return false;

	switch (nodeTag(node))
	{
		case T_Const:
		case T_CaseTestExpr:
		case T_BoolExpr:
		case T_CaseExpr:
		case T_CaseWhen:
		case T_CoalesceExpr:
		case T_BooleanTest:
		case T_RelabelType:
			pure = true;
			break;
		case T_List:
			/*
			 * The argument list of COALESCE, GREATEST and LEAST, which
			 * expression_tree_walker hands to the walker as a whole; its
			 * elements are walked next.
			 */
			pure = true;
			break;
		case T_Param:
			pure = param_is_pure((Param *) node, context);
			break;
		case T_Var:

			/*
			 * In a plan, a column of the slot being evaluated: reading it
			 * is plain C (a toasted value is fetched by the function that
			 * reads it, a GUARDED-class read of the table).  A whole-row
			 * reference builds a record; system columns (ctid, xmin,
			 * ...) are not needed by the shapes reviewed.
			 */
			pure = (context->mode == WALK_GUARDED_PLAN &&
					((Var *) node)->varattno > 0 &&
					((Var *) node)->varlevelsup == 0);
			break;
		case T_FuncExpr:
			{
				FuncExpr   *fexpr = (FuncExpr *) node;

				pure = (!fexpr->funcretset &&
						function_call_is_allowed(fexpr->funcid,
												 fexpr->inputcollid,
												 fexpr->args, context));
				if (!pure && context->analysed)
					pure = inlined_concat_is_guardable(fexpr->funcid,
													   fexpr->args);
				break;
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *opexpr = (OpExpr *) node;

				set_opfuncid(opexpr);
				pure = (!opexpr->opretset &&
						function_call_is_allowed(opexpr->opfuncid,
												 opexpr->inputcollid,
												 opexpr->args, context));
				if (!pure && context->analysed && IsA(node, OpExpr))
					pure = inlined_concat_is_guardable(opexpr->opfuncid,
													   opexpr->args);
				break;
			}
		case T_CoerceViaIO:
			{
				CoerceViaIO *iocoerce = (CoerceViaIO *) node;
				Oid			argtype = exprType((Node *) iocoerce->arg);

				pure = (pure_io_type(argtype) != NULL &&
						pure_io_type(iocoerce->resulttype) != NULL);
				if (!pure && (context->mode == WALK_GUARDED ||
							  context->mode == WALK_GUARDED_PLAN) &&
					reviewed_io_type(argtype) != NULL &&
					reviewed_io_type(iocoerce->resulttype) != NULL)
				{
					pure = true;
					if (context->collect)
						context->guarded =
							lappend(context->guarded,
									psprintf("conversion from %s to %s",
											 format_type_be(argtype),
											 format_type_be(iocoerce->resulttype)));
				}
				break;
			}
		case T_SQLValueFunction:
			/*
			 * CURRENT_DATE, CURRENT_TIME[(n)], CURRENT_TIMESTAMP[(n)],
			 * LOCALTIME[(n)], LOCALTIMESTAMP[(n)]: the transaction's start
			 * (as now(), in the group above), converted with the session
			 * time zone already loaded and rounded to the precision: plain
			 * C.  The others (CURRENT_USER, CURRENT_SCHEMA, ...) look names
			 * up in the catalogs, as the functions of the group "the names
			 * of the current user, schema and database" do (which they are
			 * from PostgreSQL 16 on): under a guard only.
			 */
			switch (((SQLValueFunction *) node)->op)
			{
				case SVFOP_CURRENT_DATE:
				case SVFOP_CURRENT_TIME:
				case SVFOP_CURRENT_TIME_N:
				case SVFOP_CURRENT_TIMESTAMP:
				case SVFOP_CURRENT_TIMESTAMP_N:
				case SVFOP_LOCALTIME:
				case SVFOP_LOCALTIME_N:
				case SVFOP_LOCALTIMESTAMP:
				case SVFOP_LOCALTIMESTAMP_N:
					pure = true;
					break;
				default:
					pure = (context->mode == WALK_GUARDED);
					if (pure && context->collect)
						context->guarded =
							lappend(context->guarded,
									psprintf("%s (SQL syntax)",
											 sql_value_function_name((SQLValueFunction *) node)));
					break;
			}
			break;
		case T_NullTest:
			/* a row-wise test looks up the row type */
			pure = !((NullTest *) node)->argisrow;
			break;
		case T_MinMaxExpr:
			pure = pln_oid_in_list(((MinMaxExpr *) node)->minmaxtype,
							   pure_minmax_types,
							   lengthof(pure_minmax_types));
			break;
		case T_ArrayExpr:
			/* building an array of plain values is plain C */
			pure = (pure_io_type(((ArrayExpr *) node)->element_typeid) != NULL &&
					!((ArrayExpr *) node)->multidims);
			break;
		case T_SubscriptingRef:
			{
				SubscriptingRef *sbsref = (SubscriptingRef *) node;

				/*
				 * Reading or setting an element of an array of plain
				 * values; the element type's layout is looked up when the
				 * ExprState is built, not when it runs.  Other subscript
				 * handlers (jsonb, hstore, ...) are not reviewed.
				 */
				pure = (pure_io_type(sbsref->refelemtype) != NULL &&
						get_typsubscript(sbsref->refcontainertype, NULL) ==
						F_ARRAY_SUBSCRIPT_HANDLER);
				break;
			}
		default:

			/*
			 * Everything else, among them: sub-selects, records, array
			 * coercions, arrays of other element types or built of
			 * arrays (the cases above cover the rest), x IN (list) (it
			 * looks up the element type on first use), domain checks,
			 * CURRENT_USER and friends (the clock's SQL value functions
			 * are above).
			 */
			pure = false;
			break;
	}

	if (!pure)
	{
		context->culprit = node;
		return true;
	}
	return expression_tree_walker(node, impure_node_walker, (void *) context);
}

/*
 * Is every node of the tree known to be pure?  func owns the Params the
 * tree may contain; NULL if it contains none (cast expressions).
 */
static void
init_context(PurityContext *context, PlnFunction *func, WalkMode mode)
{
	context->func = func;
	context->mode = mode;
	context->culprit = NULL;
	context->guarded = NIL;
	context->collect = false;
	context->analysed = false;
}

bool
pln_expr_tree_is_pure(Node *node, PlnFunction *func)
{
	PurityContext context;

	init_context(&context, func, WALK_PURE);
	return !impure_node_walker(node, &context);
}

/*
 * May the tree run under a read guard: every node pure, or a call of a
 * GUARDED function of the table, or an I/O conversion between reviewed
 * types; variables scalar only?  (Records are read through the type cache
 * and may be toasted: they keep the subtransaction.)
 */
bool
pln_expr_tree_is_guardable(Node *node, PlnFunction *func)
{
	PurityContext context;

	init_context(&context, func, WALK_GUARDED);
	return !impure_node_walker(node, &context);
}

/*
 * May the planner plan this analysed tree under a read guard?  As
 * pln_expr_tree_is_guardable, and also with the concatenations of text
 * that planning inlines (inlined_concat_is_guardable).  The planned tree
 * is checked again before it runs under a guard.
 */
bool
pln_analysed_tree_is_guardable(Node *node, PlnFunction *func)
{
	PurityContext context;

	init_context(&context, func, WALK_GUARDED);
	context.analysed = true;
	return !impure_node_walker(node, &context);
}

/*
 * May the expression of an executor plan be evaluated under a read guard
 * (pln_expr_tree_is_guardable's rules, and columns of the rows scanned;
 * see WALK_GUARDED_PLAN)?
 */
bool
pln_plan_expr_is_guardable(Node *node, PlnFunction *func)
{
	PurityContext context;

	init_context(&context, func, WALK_GUARDED_PLAN);
	return !impure_node_walker(node, &context);
}

/*
 * May the planner plan this expression of an analysed query over tables
 * (a dynamic command's, see guarded_query.c) under a read guard?  As
 * pln_plan_expr_is_guardable (columns of the query's own level), and
 * with the concatenations of text that planning inlines.  No PL
 * variables: a dynamic command has none.  The planned tree is checked
 * again before it runs.
 */
bool
pln_analysed_query_expr_is_guardable(Node *node)
{
	PurityContext context;

	init_context(&context, NULL, WALK_GUARDED_PLAN);
	context.analysed = true;
	return !impure_node_walker(node, &context);
}

/*
 * Will planning inline this function (for guard.c, whose hook is asked
 * about it when the planner decides whether to inline)?
 */
bool
pln_function_is_inlined_concat(Oid funcid)
{
	return funcid == F_TEXTANYCAT || funcid == F_ANYTEXTCAT;
}

/*
 * For the plan view: the GUARDED parts of a guardable tree, as a
 * comma-separated list ("function regclass(text), conversion from text to
 * regtype"), or NULL if the tree is not guardable.  May read catalogs.
 */
char *
pln_describe_guarded(Node *node, PlnFunction *func)
{
	PurityContext context;
	StringInfoData buf;
	ListCell   *lc;

	init_context(&context, func, WALK_GUARDED);
	context.collect = true;
	if (impure_node_walker(node, &context))
		return NULL;
	initStringInfo(&buf);
	foreach(lc, context.guarded)
	{
		const char *part = (const char *) lfirst(lc);

		if (buf.len > 0)
			appendStringInfoString(&buf, ", ");
		if (strncmp(part, "conversion ", 11) != 0)
			appendStringInfoString(&buf, "function ");
		appendStringInfoString(&buf, part);
	}
	return buf.data;
}

/*
 * Does the tree call nothing but functions of the pure list, though it
 * may read records and call GUARDED functions that run no other code
 * (RV_RUNS_NO_CODE)?  Such an
 * expression is not pure (it needs a savepoint), but it runs no code that
 * could change a setting or the catalogs, which is what lets exec_expr.c
 * keep trusting a plan it has checked (see simple_plan_known_valid).
 */
bool
pln_expr_tree_calls_only_pure(Node *node, PlnFunction *func)
{
	PurityContext context;

	init_context(&context, func, WALK_READS);
	return !impure_node_walker(node, &context);
}

/*
 * Could folding an array subscripting show another error than running it?
 * The planner folds a SubscriptingRef's subscripts, then its array, then
 * the value assigned; the executor evaluates the array first and skips
 * the subscripts when it is NULL, and refuses a NULL subscript of an
 * assignment before it evaluates the value.  Subscripts that are plain
 * values (a variable, a constant) cannot fail, and an assigned value that
 * is one cannot either, which makes the order invisible; so can
 * subscripts that are constants other than NULL.
 */
static bool
is_plain_value(Node *node, bool nonnull_const)
{
	node = strip_implicit_coercions(node);
	if (nonnull_const)
		return IsA(node, Const) && !((Const *) node)->constisnull;
	return IsA(node, Param) || IsA(node, Const);
}

static bool
subscripts_are_values(List *subscripts, bool nonnull_consts)
{
	ListCell   *lc;

	foreach(lc, subscripts)
	{
		/* (a slice's omitted bound is NULL) */
		if (lfirst(lc) != NULL &&
			!is_plain_value((Node *) lfirst(lc), nonnull_consts))
			return false;
	}
	return true;
}

static bool
subscript_may_fail_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubscriptingRef))
	{
		SubscriptingRef *sbsref = (SubscriptingRef *) node;

		if (!subscripts_are_values(sbsref->refupperindexpr, false) ||
			!subscripts_are_values(sbsref->reflowerindexpr, false))
			return true;
		if (sbsref->refassgnexpr != NULL &&
			!is_plain_value((Node *) sbsref->refassgnexpr, false) &&
			(!subscripts_are_values(sbsref->refupperindexpr, true) ||
			 !subscripts_are_values(sbsref->reflowerindexpr, true)))
			return true;
	}
	return expression_tree_walker(node, subscript_may_fail_walker, context);
}

/*
 * Classify an expression's current simple plan.  Called when the plan is
 * saved, which happens with any savepoint in place.
 *
 * simple_folds_alike says that a custom plan of the expression (the
 * variables' values folded in) would show nothing that evaluating the
 * generic plan does not, so that where PL/pgSQL runs the expression
 * through SPI (see pln_custom_plan_would_show) plnimble need not: it calls
 * only functions of the table (pure, or guarded: they read, but write
 * nothing), whose only effect is their value or error, and the planner folds its nodes in the executor's order -- but
 * for array subscripts, which must then be plain values.
 */
void
pln_expr_analyse_purity(PlnExpr *expr)
{
	if (expr->simple_expr != NULL &&
		pln_expr_tree_is_pure((Node *) expr->simple_expr, expr->func))
		expr->purity = PLN_PURITY_PURE;
	else if (expr->simple_expr != NULL &&
			 pln_expr_tree_is_guardable((Node *) expr->simple_expr,
										expr->func))
		expr->purity = PLN_PURITY_GUARDED;
	else
		expr->purity = PLN_PURITY_IMPURE;
	expr->simple_calls_only_pure = (expr->purity == PLN_PURITY_PURE ||
									(expr->simple_expr != NULL &&
									 pln_expr_tree_calls_only_pure((Node *) expr->simple_expr,
																   expr->func)));
	/* (GUARDED calls, too, have no effect but their value or error) */
	expr->simple_folds_alike = ((expr->simple_calls_only_pure ||
								 expr->purity == PLN_PURITY_GUARDED) &&
								!subscript_may_fail_walker((Node *) expr->simple_expr,
														   NULL));
}

/*
 * The output function of a type on the pure list, or InvalidOid.  Lets
 * RAISE format its parameters without a catalog lookup.
 */
Oid
pln_pure_output_function(Oid typid)
{
	const PureIOType *io = pure_io_type(typid);

	return io ? io->output : InvalidOid;
}

/*
 * Is the assignment expr "variable := 'literal'", into a scalar variable
 * of a type on the pure list?  The parser converts such a literal with
 * the type's input function, which depends on nothing but the text, so
 * an error it raises would be raised again the same way (exec_expr.c
 * keeps it: see "Planning errors" there).
 *
 * The text is only scanned, not parsed (it may not even parse): a name,
 * := or =, one plain quoted literal without backslashes, and nothing
 * else but white space.  Anything more (comments, E'' strings, casts)
 * does not qualify.
 */
bool
pln_assigns_literal_purely(PlnExpr *expr)
{
	PlnDatum   *datum;
	const char *p = expr->query;

	if (expr->parseMode != RAW_PARSE_PLPGSQL_ASSIGN1 ||
		expr->target_param < 0)
		return false;
	datum = expr->func->datums[expr->target_param];
	if (datum->dtype != PLN_DTYPE_VAR ||
		pure_io_type(((PlnVar *) datum)->datatype->typoid) == NULL)
		return false;

	/* the variable's name, plain or quoted */
	if (*p == '"')
	{
		for (p++; *p != '\0'; p++)
		{
			if (*p == '"' && p[1] != '"')
				break;
			if (*p == '"')
				p++;
		}
		if (*p++ != '"')
			return false;
	}
	else
	{
		if (!(isalpha((unsigned char) *p) || *p == '_' || IS_HIGHBIT_SET(*p)))
			return false;
		while (isalnum((unsigned char) *p) || *p == '_' || *p == '$' ||
			   IS_HIGHBIT_SET(*p))
			p++;
	}
	while (scanner_isspace(*p))
		p++;
	if (p[0] == ':' && p[1] == '=')
		p += 2;
	else if (p[0] == '=')
		p++;
	else
		return false;
	while (scanner_isspace(*p))
		p++;

	/* one literal */
	if (*p++ != '\'')
		return false;
	for (;;)
	{
		if (*p == '\0' || *p == '\\')
			return false;
		if (*p == '\'' && p[1] == '\'')
			p += 2;
		else if (*p == '\'')
			break;
		else
			p++;
	}
	for (p++; scanner_isspace(*p); p++)
		;
	return *p == '\0';
}

/*
 * A routine's name for the plan view: schema-qualified whatever the search
 * path, its argument types as format_type_be prints them.  The result is
 * palloc'd in the current memory context; reads the catalogs.
 */
char *
pln_format_routine(Oid funcoid)
{
	HeapTuple	tup;
	Form_pg_proc proc;
	StringInfoData buf;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(tup))
		return psprintf("%u", funcoid);
	proc = (Form_pg_proc) GETSTRUCT(tup);
	initStringInfo(&buf);
	appendStringInfo(&buf, "%s(",
					 quote_qualified_identifier(get_namespace_name(proc->pronamespace),
												NameStr(proc->proname)));
	for (int i = 0; i < proc->pronargs; i++)
	{
		if (i > 0)
			appendStringInfoChar(&buf, ',');
		appendStringInfoString(&buf, format_type_be(proc->proargtypes.values[i]));
	}
	appendStringInfoChar(&buf, ')');
	ReleaseSysCache(tup);
	return buf.data;
}

/*
 * Why a call of a function or an operator (callee: its description) is
 * impure: its collation, else it is not on the allowlist; an operator
 * names its function (opfuncid) there.
 */
static char *
call_impurity(char *callee, Oid inputcollid, Oid opfuncid)
{
	if (!collation_is_pure(inputcollid))
		return psprintf("%s uses a non-default collation", callee);
	if (OidIsValid(opfuncid))
		return psprintf("%s (function %s) is not on the allowlist", callee,
						pln_format_routine(opfuncid));
	return psprintf("%s is not on the allowlist", callee);
}

/*
 * Say in words why a tree is impure, or return NULL if it is pure.  For
 * the explain view: it may read catalogs to name functions.
 */
char *
pln_describe_impurity(Node *node, PlnFunction *func)
{
	PurityContext context;
	Node	   *culprit;

	init_context(&context, func, WALK_PURE);
	if (!impure_node_walker(node, &context))
		return NULL;
	culprit = context.culprit;

	switch (nodeTag(culprit))
	{
		case T_FuncExpr:
			{
				FuncExpr   *fexpr = (FuncExpr *) culprit;

				return call_impurity(psprintf("function %s",
											  pln_format_routine(fexpr->funcid)),
									 fexpr->inputcollid, InvalidOid);
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *opexpr = (OpExpr *) culprit;

				return call_impurity(psprintf("operator %s",
											  format_operator(opexpr->opno)),
									 opexpr->inputcollid, opexpr->opfuncid);
			}
		case T_CoerceViaIO:
			{
				CoerceViaIO *iocoerce = (CoerceViaIO *) culprit;

				return psprintf("conversion from %s to %s through text is not on the allowlist",
								format_type_be(exprType((Node *) iocoerce->arg)),
								format_type_be(iocoerce->resulttype));
			}
		case T_Param:
			return pstrdup("reads a record variable or a field of one");
		case T_CoerceToDomain:
			return psprintf("checks the constraints of domain %s",
							format_type_be(((CoerceToDomain *) culprit)->resulttype));
		case T_ScalarArrayOpExpr:
			return pstrdup("x IN (list) and ANY/ALL are not on the allowlist");
		case T_SubLink:
			return pstrdup("contains a sub-select");
		case T_FieldSelect:
		case T_FieldStore:
		case T_RowExpr:
			return pstrdup("works on a composite value");
		case T_ArrayExpr:
		case T_SubscriptingRef:
		case T_ArrayCoerceExpr:
			return pstrdup("works on an array whose element type is not on the allowlist");
		case T_SQLValueFunction:
			return pstrdup("reads session or transaction state");
		default:
			return pstrdup("uses an expression kind that is not on the allowlist");
	}
}
