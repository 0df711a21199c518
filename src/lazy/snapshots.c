/*-------------------------------------------------------------------------
 *
 * snapshots.c
 *	  Which expressions need a fresh snapshot to be evaluated.
 *
 * A function that is not read-only evaluates an expression calling a
 * volatile or stable function under a new snapshot, after a command
 * counter increment, so that any query the expression runs sees the
 * changes made before it (PL/pgSQL does this for every such expression).
 * Taking that snapshot is a good part of the cost of a cheap expression
 * such as format('%s=%s', i, j).
 *
 * The snapshot only matters to code that reads table data.  Many
 * functions are stable or volatile for other reasons: they read the clock
 * or a setting, or call the output functions of their arguments.  An
 * expression whose only mutable parts are such functions is evaluated
 * without a new snapshot; what it computes is the same either way.
 *
 * The list below is reviewed like the one in purity.c: each function
 * reads no table through a snapshot and runs no code but its own, or, for
 * format() and concat(), the output functions of its arguments, which are
 * then required to be of the types purity.c knows (plain C, no lookups).
 * So are the functions and I/O conversions of purity.c's table of reviewed
 * functions, of both classes: its review requires that they read no table
 * through the active snapshot (catalog lookups use the catalog snapshot).
 * Anything else mutable keeps the snapshot.  When in doubt, it needs one.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "plnimble.h"

/*
 * Mutable because of the clock or a setting; no table access.  to_char
 * reads the locale settings, current_setting the configuration.
 */
static const Oid snapshot_free_functions[] = {
	F_NOW, F_TRANSACTION_TIMESTAMP, F_STATEMENT_TIMESTAMP,
	F_CLOCK_TIMESTAMP, F_TIMEOFDAY, PLN_F_RANDOM,
	F_TO_CHAR_INT4_TEXT, F_TO_CHAR_INT8_TEXT, F_TO_CHAR_NUMERIC_TEXT,
	F_TO_CHAR_FLOAT4_TEXT, F_TO_CHAR_FLOAT8_TEXT,
	F_TO_CHAR_TIMESTAMP_TEXT, F_TO_CHAR_TIMESTAMPTZ_TEXT,
	F_TO_CHAR_INTERVAL_TEXT,
	F_CURRENT_SETTING_TEXT, F_CURRENT_SETTING_TEXT_BOOL,
};

/*
 * Mutable only because they call the output functions of their
 * arguments (which, for an arbitrary type, could be anything): free of a
 * snapshot when every argument is text or of a type whose output
 * function purity.c has reviewed.
 */
static const Oid output_calling_functions[] = {
	F_FORMAT_TEXT, F_FORMAT_TEXT_ANY, F_CONCAT, F_CONCAT_WS,
};

static bool
args_have_known_output(List *args)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		Oid			argtype = exprType((Node *) lfirst(lc));

		if (argtype != TEXTOID && argtype != UNKNOWNOID &&
			!OidIsValid(pln_pure_output_function(argtype)))
			return false;
	}
	return true;
}

/* A call of a function that is not immutable and not known to be harmless */
static bool
call_needs_snapshot(Oid funcid, List *args, bool variadic)
{
	if (func_volatile(funcid) == PROVOLATILE_IMMUTABLE)
		return false;
	/* purity.c's table: its functions read no table through a snapshot */
	if (!variadic && pln_reviewed_call_needs_no_snapshot(funcid, args))
		return false;
	if (pln_oid_in_list(funcid, snapshot_free_functions,
				   lengthof(snapshot_free_functions)))
		return false;
	/* a VARIADIC array argument would be printed with array_out */
	if (!variadic &&
		pln_oid_in_list(funcid, output_calling_functions,
				   lengthof(output_calling_functions)))
		return !args_have_known_output(args);
	return true;
}

static bool
mutable_function_checker(Oid funcid, void *context)
{
	return func_volatile(funcid) != PROVOLATILE_IMMUTABLE;
}

/*
 * Walks the tree like contain_mutable_functions, so that an expression
 * PL/pgSQL evaluates without a snapshot never gets one here, but lets the
 * listed calls through.
 */
static bool
needs_snapshot_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;

	if (IsA(node, FuncExpr))
	{
		FuncExpr   *fexpr = (FuncExpr *) node;

		if (call_needs_snapshot(fexpr->funcid, fexpr->args,
								fexpr->funcvariadic))
			return true;
	}
	else if (IsA(node, OpExpr) &&
			 (set_opfuncid((OpExpr *) node),
			  pln_reviewed_call_needs_no_snapshot(((OpExpr *) node)->opfuncid,
												  ((OpExpr *) node)->args)))
	{
		/* an operator of purity.c's table (timestamptz + interval, say) */
	}
	else if (IsA(node, CoerceViaIO) &&
			 pln_reviewed_io_conversion(exprType((Node *) ((CoerceViaIO *) node)->arg),
										((CoerceViaIO *) node)->resulttype))
	{
		/* text to regtype and back: the types' own I/O, reviewed */
	}
	else if (check_functions_in_node(node, mutable_function_checker, NULL))
		return true;

	/*
	 * CURRENT_DATE, CURRENT_USER and the like are stable, but read the
	 * clock, the session's roles and the search path: no snapshot.  A
	 * sequence's next value is volatile and stays on the safe side.
	 */
	if (IsA(node, NextValueExpr) || IsA(node, Query))
		return true;

	return expression_tree_walker(node, needs_snapshot_walker, context);
}

/*
 * Must evaluating this planned expression take a new snapshot (in a
 * function that is not read-only)?  Called when the plan is saved; reads
 * the catalogs.
 */
bool
pln_expr_needs_snapshot(Node *node)
{
	return needs_snapshot_walker(node, NULL);
}
