/*-------------------------------------------------------------------------
 *
 * pln_fast_conditions.h
 *	  The fast entry's conditions in one table, read by the fast entry's
 *	  gate (entry/fast_call.c) and by the plan view (tools/explain.c).
 *
 * Only macros and inline functions over the compiled tree and the
 * expression's state, so that both layers above read the same rows
 * without calling each other.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_FAST_CONDITIONS_H
#define PLN_FAST_CONDITIONS_H

#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "compile/pln_settings.h"
#include "compile/pln_tree.h"
#include "exec/pln_plugin.h"

/*
 * May the RETURN's expression read these datums in a fast call?  Only the
 * arguments and FOUND, whose values a fast call sets as the ordinary path
 * would (FOUND is false until a statement sets it, and the body has no
 * other statement).
 */
static inline bool
pln_fast_expr_reads_only_args(PlnFunction *func, PlnExpr *expr)
{
	int			dno = -1;

	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
	{
		bool		known = (dno == func->found_varno);
		int			i;

		for (i = 0; i < func->fn_nargs && !known; i++)
			known = (func->fn_argvarnos[i] == dno);
		if (!known)
			return false;
	}
	return true;
}

/*
 * The RETURN of a body that is one block without declarations holding one
 * RETURN of an expression (not of a variable, which the parser turns into
 * a datum reference), or NULL
 */
static inline PlnStmtReturn *
pln_fast_body_return(PlnFunction *func)
{
	PlnStmtBlock *block = func->action;
	PlnStmtReturn *ret;

	if (block == NULL || block->n_initvars > 0 ||
		list_length(block->body) != 1)
		return NULL;
	ret = (PlnStmtReturn *) linitial(block->body);
	if (ret->cmd_type != PLN_STMT_RETURN || ret->retvarno >= 0 ||
		ret->expr == NULL)
		return NULL;
	return ret;
}

/* Are all the arguments scalar variables? */
static inline bool
pln_fast_args_are_scalars(PlnFunction *func)
{
	int			i;

	for (i = 0; i < func->fn_nargs; i++)
	{
		if (func->datums[func->fn_argvarnos[i]]->dtype != PLN_DTYPE_VAR)
			return false;
	}
	return true;
}

/*
 * The fast entry's conditions, one table for the run time, the plan view
 * (plnimble_savepoint_plan, through pln_fast_call_why_not) and whoever
 * else asks: X(when, fails, reason), one row per condition, in the order
 * they are tested.  "fails" is true when the condition does not hold, and
 * the call must take the ordinary path; "reason" is what the plan view
 * says then.  The rows read func (the compiled function), ret (its
 * RETURN, once pln_fast_body_return has found it), expr (its expression),
 * has_handlers (its block has an EXCEPTION clause), curlxid (the
 * transaction's) and, in rows marked FAST_CALL only, fast (the fast
 * entry's state of the function).  "when" says where it is checked:
 *
 *	FAST_SHAPE	once per compiled function (pln_fast_call_fits), on the
 *				compiled tree (func, and ret: pln_fast_body_return's);
 *	FAST_NOW	at every call (fast_call_allowed), on what the plan view can
 *				see too: the expression as planned, the settings;
 *	FAST_CALL	at every call only: the state of this call or transaction,
 *				which the plan view, working on a compiled function of its
 *				own, cannot see (an expression that failed in this
 *				transaction, the first call of a transaction).
 *
 * docs/design.md ("The fast entry") argues each row.
 */
typedef enum PlnFastWhen
{
	FAST_SHAPE,
	FAST_NOW,
	FAST_CALL
} PlnFastWhen;

#define FAST_SHAPE_CONDITIONS(X) \
	X(FAST_SHAPE, func->fn_hashkey == NULL, \
	  "it is not a cached function (a DO block, or a version replaced since)") \
	X(FAST_SHAPE, func->fn_prokind != PROKIND_FUNCTION || func->fn_is_trigger || \
	  func->fn_is_event_trigger || func->fn_retset, \
	  "it is a procedure, a trigger or a set-returning function") \
	X(FAST_SHAPE, func->fn_retistuple || func->fn_retisdomain || \
	  func->fn_rettype == VOIDOID, \
	  "its result is void, a row or a domain") \
	X(FAST_SHAPE, func->out_param_varno >= 0, \
	  "it has OUT parameters") \
	X(FAST_SHAPE, !pln_fast_args_are_scalars(func), \
	  "an argument is a row or a record") \
	X(FAST_SHAPE, (ret = pln_fast_body_return(func)) == NULL, \
	  "its body is not one block without declarations holding one RETURN of an expression") \
	X(FAST_SHAPE, ret->expr->rw_param_dno != 0 || ret->expr->text_append != 0 || \
	  ret->expr->select_column != 0, \
	  "its RETURN's expression is an in-place append") \
	X(FAST_SHAPE, !pln_fast_expr_reads_only_args(func, ret->expr), \
	  "its RETURN's expression reads variables other than the arguments and FOUND")

#define FAST_GATE_CONDITIONS(X) \
	X(FAST_CALL, expr->simple_failed_lxid == curlxid, \
	  "its expression failed in this transaction (the ordinary path runs it as SPI would)") \
	X(FAST_CALL, expr->simple_plan_lxid != curlxid || \
	  expr->simple_state_lxid != curlxid, \
	  "its expression is not ready in this transaction (the first call of a transaction takes the ordinary path)") \
	X(FAST_NOW, expr->simple_expr == NULL, \
	  "its expression is not a simple expression") \
	X(FAST_NOW, expr->plan_error != NULL, \
	  "its expression failed to be planned") \
	X(FAST_NOW, expr->purity != PLN_PURITY_PURE, \
	  "its expression is not pure") \
	X(FAST_NOW, expr->simple_is_param, \
	  "its expression is a bare variable") \
	X(FAST_CALL, expr->simple_state == NULL || expr->simple_state_cxt == NULL || \
	  expr->simple_in_use || \
	  expr->simple_state_generation != expr->simple_plan->generation, \
	  "its expression's state is not built for its current plan, or is in use") \
	X(FAST_NOW, expr->simple_type != func->fn_rettype, \
	  "its expression's type is not the function's result type") \
	X(FAST_CALL, fast->busy, \
	  "another fast call of the function is running") \
	X(FAST_NOW, pln_plugins.first != NULL, \
	  "the call is watched through the plugin hook (profiler, tracer, debugger)") \
	X(FAST_NOW, has_handlers && \
	  (!pln_lazy_savepoints || IsInParallelMode()), \
	  "its block would start its subtransaction as it is entered (lazy savepoints off, or parallel mode)") \
	X(FAST_CALL, unlikely(InterruptPending) || stack_is_too_deep(), \
	  "an interrupt is pending or the stack is too deep") \
	X(FAST_CALL, !pln_simple_plan_is_current(expr), \
	  "its plan is stale or the search path changed")

/*
 * Why the compiled function is not of the shape the fast entry serves
 * (FAST_SHAPE_CONDITIONS), or NULL if it is.
 */
static inline const char *
pln_fast_shape_why_not(PlnFunction *func)
{
	PlnStmtReturn *ret = NULL;

#define PLN_FAST_SHAPE_TEST(when, fails, reason) \
	if (fails) \
		return reason;
	FAST_SHAPE_CONDITIONS(PLN_FAST_SHAPE_TEST)
#undef PLN_FAST_SHAPE_TEST
	(void) ret;
	return NULL;
}

/*
 * For the plan view: why calls of the function would not take the fast
 * entry now, or NULL if they would (from the second call of a transaction
 * on, while the conditions only a call can check hold).  The rows marked
 * FAST_CALL are not asked (their tests are not even expanded here).  The
 * expression must have been planned as a call plans it.
 */
#define PLN_FAST_NOW_FAST_SHAPE(fails, reason) \
	if (fails) \
		return reason;
#define PLN_FAST_NOW_FAST_NOW(fails, reason) \
	if (fails) \
		return reason;
#define PLN_FAST_NOW_FAST_CALL(fails, reason)
#define PLN_FAST_NOW_TEST(when, fails, reason) PLN_FAST_NOW_##when(fails, reason)

static inline const char *
pln_fast_call_why_not(PlnFunction *func)
{
	const char *why = pln_fast_shape_why_not(func);
	LocalTransactionId curlxid = PLN_MY_LXID;
	PlnExpr    *expr;
	bool		has_handlers;

	if (why != NULL)
		return why;
	expr = pln_fast_body_return(func)->expr;
	has_handlers = func->action->exceptions != NULL;
	FAST_GATE_CONDITIONS(PLN_FAST_NOW_TEST)
	(void) curlxid;
	(void) has_handlers;
	return NULL;
}

#endif							/* PLN_FAST_CONDITIONS_H */
