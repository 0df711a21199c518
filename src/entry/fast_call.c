/*-------------------------------------------------------------------------
 *
 * fast_call.c
 *	  The fast entry: calls of a function whose body is one RETURN of a
 *	  pure expression, evaluated without an execution state.
 *
 * A function such as
 *
 *		begin
 *			return s::int;
 *		exception when invalid_text_representation then
 *			return null;
 *		end
 *
 * spends most of an ordinary call (pln_exec_function) on things its body
 * never needs: an execution state, a copy of the variables, a parameter
 * list and expression context, the statement loop, the block's frame and
 * catch point.  When the body has exactly this shape and the expression is
 * pure (purity.c: built-in functions of the allowlist only, so it reads no
 * catalogs, runs no SQL and calls no code of anyone else), a call can
 * instead evaluate the expression's ExprState straight away, with the
 * arguments stored in a small state kept with the compiled function.
 *
 * Whether a function has the shape is decided once, when the call handler
 * chooses the compiled function's call entry (pln_fast_call_fits); whether
 * a call may take the fast entry, at each call, in one place,
 * fast_call_allowed.  Both test the rows of one table,
 * exec/pln_fast_conditions.h, which the plan view reads too; anything they
 * do not recognise takes the ordinary path.  docs/design.md ("The fast entry") argues why each condition makes
 * the fast entry indistinguishable from the ordinary path.  In short:
 *
 * - The ordinary path would check the expression's plan at block entry
 *   (pln_check_plan_before_block) and then evaluate the same ExprState
 *   with the same argument values, under the same error context callback
 *   with the same state for it to read (the statement, the innermost
 *   handler block without a subtransaction).  The fast entry does exactly
 *   that, with the same counters.
 * - An error the expression raises is caught here.  If the block has no
 *   handler for it, it goes on up after the expression is marked as the
 *   ordinary path's catch would mark it.  If a handler catches it, the
 *   call is handed over to the ordinary path together with the error,
 *   which raises it again where the expression would have raised it
 *   (raise_fast_call_error in exec_expr.c): the handler then runs as
 *   usual.  Nothing is evaluated twice, so asynchronous errors (a cancel)
 *   are neither swallowed nor replayed; one the ordinary path sees before
 *   it raises the error again leaves the expression unmarked (hand_over).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/datum.h"
#include "utils/memutils.h"

#include "plnimble.h"
#include "exec/pln_fast_conditions.h"

/*
 * What a fast call needs, built once per compiled function (in its
 * memory): an execution state with just enough in it for the parameter
 * steps of the ExprState (the datums) and for the error context callback
 * (the function, the statement, the handler block's frame), the datums
 * themselves, and an expression context that lends the caller's memory to
 * the evaluation.
 */
struct PlnFastCall
{
	PlnExpr    *expr;			/* what it returns */
	bool		busy;			/* a fast call of the function is running */
	bool		has_handlers;	/* the block has an EXCEPTION clause */
	bool		varlena_result; /* may the result be an expanded object? */
	int			nargs;
	PlnVar	   *args[FUNC_MAX_ARGS];	/* the argument variables */
	bool		arg_varlena[FUNC_MAX_ARGS]; /* may it be a TOAST pointer? */
	PlnExecState estate;
	PlnSavepointFrame frame;	/* the block's, never materialized */
	ExprContext *econtext;
};

/*
 * The memory of an error handed over to the ordinary path (see
 * pln_fast_call): it is needed only until the ordinary path raises it
 * again, which copies it, so each handover reuses it.
 */
static MemoryContext handover_cxt = NULL;

static Datum hand_over(FunctionCallInfo fcinfo, PlnFunction *func,
					   PlnExpr *expr, ErrorData *error);

/*
 * The shape the fast entry serves (FAST_SHAPE_CONDITIONS,
 * exec/pln_fast_conditions.h): asked once per compiled function, when the
 * call handler chooses its call entry (handler.c, choose_call_entry).
 */
bool
pln_fast_call_fits(PlnFunction *func)
{
	return pln_fast_shape_why_not(func) == NULL;
}

/* Build the state fast calls of the function use (see PlnFastCall) */
static PlnFastCall *
build_fast_call(PlnFunction *func)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(func->fn_cxt);
	PlnFastCall *fast = palloc0(sizeof(PlnFastCall));
	PlnExecState *estate = &fast->estate;
	PlnStmtReturn *stmt = (PlnStmtReturn *) linitial(func->action->body);
	PlnDatum  **datums;
	int			i;

	fast->nargs = func->fn_nargs;
	fast->expr = stmt->expr;
	fast->has_handlers = (func->action->exceptions != NULL);

	/*
	 * The datums: copies of the arguments and of FOUND, the others shared
	 * with the compiled function (the expression does not read them).
	 */
	datums = palloc(sizeof(PlnDatum *) * func->ndatums);
	for (i = 0; i < func->ndatums; i++)
		datums[i] = func->datums[i];
	for (i = 0; i < func->fn_nargs; i++)
	{
		int			dno = func->fn_argvarnos[i];
		PlnVar	   *var = palloc(sizeof(PlnVar));

		memcpy(var, func->datums[dno], sizeof(PlnVar));
		var->value = (Datum) 0;
		var->isnull = true;
		var->freeval = false;
		var->append_buf = NULL;
		var->append_cap = 0;
		datums[dno] = (PlnDatum *) var;
		fast->args[i] = var;
		fast->arg_varlena[i] = (var->datatype->typlen == -1);
	}
	{
		PlnVar	   *found = palloc(sizeof(PlnVar));

		memcpy(found, func->datums[func->found_varno], sizeof(PlnVar));
		found->value = BoolGetDatum(false);
		found->isnull = false;
		found->freeval = false;
		datums[func->found_varno] = (PlnDatum *) found;
	}

	/* the execution state, for the parameter steps and error context */
	estate->func = func;
	estate->retisnull = true;
	estate->readonly_func = func->fn_readonly;
	estate->atomic = true;
	estate->ndatums = func->ndatums;
	estate->datums = datums;
	estate->datum_context = func->fn_cxt;
	estate->paramLI = makeParamList(0);
	pln_setup_param_list(estate);

	/*
	 * What the error context callback reads while the expression runs,
	 * which never changes: the statement is the RETURN, inside the block
	 * (if it has an EXCEPTION clause: then its frame is the innermost,
	 * without a subtransaction, as the ordinary path's would be).
	 */
	estate->err_stmt = (PlnStmt *) stmt;
	fast->frame.block = func->action;
	fast->frame.materialized = false;
	fast->frame.unprotected_write = false;
	if (fast->has_handlers)
		estate->sp_top = &fast->frame;

	/*
	 * The expression context, whose memories are set at each call: for
	 * scratch space and the result the caller's current memory, where a
	 * C function's would go; what the ExprState caches per query lives
	 * with it.
	 */
	fast->econtext = makeNode(ExprContext);
	fast->econtext->ecxt_param_list_info = estate->paramLI;

	estate->eval_econtext = fast->econtext;
	estate->cur_expr = fast->expr;
	fast->varlena_result = (func->fn_rettyplen == -1);

	MemoryContextSwitchTo(oldcontext);
	return fast;
}

/*
 * The gate: may this call take the fast entry?  Every condition is one
 * under which the ordinary path would do exactly what the fast entry does
 * (docs/design.md, "The fast entry"); when one does not hold, the call
 * takes the ordinary path, which is always right.  On success the plan of
 * the expression has been checked, as the ordinary path checks it at
 * block entry, and the arguments are stored: pln_fast_call must follow at
 * once.  The tests that fail for good (a function of another shape, an
 * expression that failed in this transaction) come first, so that calls
 * that take the ordinary path lose little here.
 */
static inline bool
fast_call_allowed(PlnFunction *func, FunctionCallInfo fcinfo)
{
	PlnFastCall *fast = func->fast;
	LocalTransactionId curlxid;
	PlnExpr    *expr;
	bool		has_handlers;
	int			i;

	/* (the function has the shape: pln_fast_call_fits chose this entry) */
	if (unlikely(fast == NULL))
	{
		func->fast = build_fast_call(func);
		fast = func->fast;
		func->fast_expr = fast->expr;
	}

	/*
	 * The conditions of FAST_GATE_CONDITIONS, in their order: the
	 * expression simple and pure, with an ExprState built for its current
	 * plan and ready in this transaction, as the ordinary path's pure
	 * evaluation wants it (simple_expr_ready_for_pure_eval); not failed in
	 * this transaction (then the ordinary path runs it as SPI would, see
	 * run_simple_expr_as_spi), not busy, its result needing no conversion;
	 * the first call of each transaction takes the ordinary path, which
	 * takes the transaction's reference to the plan.  Nobody may watch the
	 * call (the plugin hook); a handler block must be entered without its
	 * subtransaction, as the ordinary path enters it only with lazy
	 * savepoints on and outside parallel mode (enter_frame_slowly); the
	 * ordinary path's checks for interrupts and the stack depth before it
	 * enters the block must not raise; the plan must be current, as the
	 * ordinary path checks it at block entry (the check is not remembered:
	 * the call ends by forgetting all checks, see pln_fast_call).
	 */
	expr = fast->expr;
	curlxid = PLN_MY_LXID;
	has_handlers = fast->has_handlers;
#define FAST_GATE_TEST(when, fails, reason) \
	if (fails) \
		return false;
	FAST_GATE_CONDITIONS(FAST_GATE_TEST)
#undef FAST_GATE_TEST

	/*
	 * Last, the arguments go where the expression reads them, unless one
	 * is stored in a TOAST table or is an expanded object, which the
	 * ordinary path would fetch or copy (pln_exec_function).  A call that
	 * gives up here leaves values that nothing reads.
	 */
	for (i = 0; i < fast->nargs; i++)
	{
		PlnVar	   *var = fast->args[i];
		NullableDatum *arg = &fcinfo->args[i];

		if (fast->arg_varlena[i] && !arg->isnull &&
			VARATT_IS_EXTERNAL(DatumGetPointer(arg->value)))
			return false;
		var->value = arg->value;
		var->isnull = arg->isnull;
	}
	return true;
}

/*
 * The call entry of a function of the fast entry's shape (chosen once by
 * the call handler, see pln_fast_call_fits): run the call through the fast
 * entry if its gate, fast_call_allowed, lets it in, else on the ordinary
 * path (pln_call_ordinary, handler.c), without going back to the handler.
 *
 * When the expression raises an error that a handler of the block
 * catches, the call is run on the ordinary path with the error, which it
 * raises again in the block.  Errors the block does not catch go on up
 * from here.
 *
 * The catch point is written out as in exec_stmt_block_with_handlers, for
 * the same reasons.  After a longjmp only the arguments and the variables
 * set before sigsetjmp are used, none changed after it.
 */
pln_no_stack_protector Datum
pln_fast_call(FunctionCallInfo fcinfo, PlnFunction *func)
{
	sigjmp_buf *save_exception_stack = PG_exception_stack;
	ErrorContextCallback *save_context_stack = error_context_stack;
	MemoryContext callcontext = CurrentMemoryContext;
	sigjmp_buf	local_sigjmp_buf;
	ErrorContextCallback plerrcontext;
	PlnFastCall *fast;
	PlnExecState *estate;
	PlnExpr    *expr;
	ErrorData  *error;

	if (!fast_call_allowed(func, fcinfo))
		return pln_call_ordinary(fcinfo, func, NULL);

	fast = func->fast;
	estate = &fast->estate;
	expr = fast->expr;
	fast->busy = true;

	/*
	 * Errors from here on are the RETURN's, inside the block, as on the
	 * ordinary path.  (The block is counted as entered once the call is
	 * sure not to be handed over to the ordinary path, which counts it
	 * itself.)
	 */
	plerrcontext.callback = exec_error_callback;
	plerrcontext.arg = estate;
	plerrcontext.previous = error_context_stack;
	error_context_stack = &plerrcontext;

	fast->econtext->ecxt_per_tuple_memory = callcontext;
	fast->econtext->ecxt_per_query_memory = expr->simple_state_cxt;

	if (sigsetjmp(local_sigjmp_buf, 0) == 0)
	{
		Datum		value;
		bool		isnull;

		PG_exception_stack = &local_sigjmp_buf;

		/*
		 * (The ordinary path marks the expression busy while it runs,
		 * exec_eval_simple_expr; nothing can look at the mark meanwhile,
		 * so it is set only where an error leaves it set.)
		 */
		value = ExecEvalExpr(expr->simple_state, fast->econtext, &isnull);

		/*
		 * The result is in the caller's memory already, but for an
		 * expanded object, which the ordinary path makes the caller's
		 * (transfer_result).
		 */
		if (!isnull && fast->varlena_result &&
			VARATT_IS_EXTERNAL(DatumGetPointer(value)))
			value = datumTransfer(value, false, -1);

		PG_exception_stack = save_exception_stack;
		error_context_stack = save_context_stack;
		fast->busy = false;
		pln_stats.fast_calls++;
		if (fast->has_handlers)
			pln_stats.blocks_entered++;
		/* (the caller's plans: see pln_call_ordinary) */
		pln_forget_plan_checks();

		fcinfo->isnull = isnull;
		return value;
	}

	/* the expression raised an error */
	PG_exception_stack = save_exception_stack;
	error_context_stack = save_context_stack;
	MemoryContextSwitchTo(callcontext);
	fast->busy = false;
	pln_forget_plan_checks();

	/*
	 * Without handlers, the ordinary path lets it through as it is,
	 * leaving the expression marked busy (exec_eval_simple_expr), as
	 * PL/pgSQL does.
	 */
	if (!fast->has_handlers)
	{
		pln_stats.fast_calls++;
		expr->simple_in_use = true;
		PG_RE_THROW();
	}

	/* an error the block does not catch goes on up, as from its catch */
	if (!pln_block_catches(func->action, geterrcode()))
	{
		pln_stats.fast_calls++;
		pln_stats.blocks_entered++;
		pln_simple_expr_failed(expr);
		PG_RE_THROW();
	}

	/*
	 * One the block catches: the ordinary path takes it from here.  The
	 * copy of the error is needed only until the ordinary path raises it
	 * again, which copies it.
	 */
	if (handover_cxt == NULL)
		handover_cxt = AllocSetContextCreate(TopMemoryContext,
											 "PL/nimble fast call error",
											 ALLOCSET_SMALL_SIZES);
	MemoryContextReset(handover_cxt);
	MemoryContextSwitchTo(handover_cxt);
	error = CopyErrorData();
	FlushErrorState();
	MemoryContextSwitchTo(callcontext);
	return hand_over(fcinfo, func, expr, error);
}

/*
 * Hand a call whose expression raised an error that a handler of the
 * block catches over to the ordinary path, which raises the error again
 * where its RETURN evaluates the expression.  The expression is marked
 * failed, as the block's catch will mark it: that sends the evaluation
 * where it raises the error (raise_fast_call_error in exec_expr.c).
 *
 * Until then the ordinary path sets the call up and enters the block, as
 * PL/pgSQL does before it evaluates the expression, and may fail there:
 * a cancel or a statement timeout seen by its CHECK_FOR_INTERRUPTS, the
 * stack depth, memory.  In PL/pgSQL's order of things the expression has
 * not run then, so the mark must not stay: an error that leaves the call
 * first takes it back here, and one the block catches first, in its catch
 * (restore_call_state, savepoint.c).  Otherwise later evaluations in the
 * transaction would run as SPI would, with SPI's CONTEXT line.  Whether
 * the error was raised again is expr->fast_error_pending, kept in the
 * expression rather than in a local variable because it changes between
 * the sigsetjmp and the longjmp.
 */
static pg_noinline Datum
hand_over(FunctionCallInfo fcinfo, PlnFunction *func, PlnExpr *expr,
		  ErrorData *error)
{
	Datum		result;

	pln_simple_expr_failed(expr);
	expr->fast_error_pending = true;
	PG_TRY();
	{
		result = pln_call_ordinary(fcinfo, func, error);
	}
	PG_CATCH();
	{
		if (expr->fast_error_pending)
			pln_fast_handover_dropped(expr);
		PG_RE_THROW();
	}
	PG_END_TRY();
	Assert(!expr->fast_error_pending);
	return result;
}
