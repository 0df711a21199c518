/*-------------------------------------------------------------------------
 *
 * exec_expr.c
 *	  Evaluating expressions: the simple-expression fast path, and SPI.
 *
 * Every expression is prepared once through SPI, with parser hooks that
 * turn PL variables into Params (see compile.c).  When the resulting plan
 * is a bare Result computing one value from constants and Params (seen
 * through the Gather that force_parallel_mode puts on top), the
 * expression is "simple": it is then evaluated directly with the
 * executor's expression machinery, skipping the SPI executor.  The
 * expression state for that lives in a per-transaction executor state,
 * and the plan is kept valid through the plan cache's cheap validity
 * check, holding a reference in a per-transaction resource owner.
 *
 * Variables are handed to SQL through one ParamListInfo per call whose
 * fetch hook reads the current value of a datum on demand.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/execExpr.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/analyze.h"
#include "parser/parse_node.h"
#include "optimizer/planner.h"
#include "storage/proc.h"
#include "storage/sinval.h"
#include "tcop/pquery.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/typcache.h"

#include "plnimble.h"
#include "lazy/pln_guarded_query.h"

/*
 * Per-transaction state for simple expressions: the executor state their
 * ExprStates live in, and the resource owner holding their plan
 * references.  Both go away at transaction end (pln_xact_cb).
 */
static EState *simple_eval_estate = NULL;
static ResourceOwner simple_eval_resowner = NULL;

/*
 * Expression contexts of active calls, innermost first, each tagged with
 * the subtransaction that created it so that an aborted subtransaction's
 * contexts can be dropped without running their shutdown callbacks.
 */
typedef struct EcontextStackEntry
{
	ExprContext *econtext;
	SubTransactionId subxid;
	struct EcontextStackEntry *next;
} EcontextStackEntry;

static EcontextStackEntry *econtext_stack = NULL;

/*
 * Expression contexts of calls and blocks that have ended, kept for reuse
 * in this transaction: creating and freeing one costs about as much as
 * the rest of a small function call.  They have no shutdown callbacks
 * left and empty scratch memory.
 */
static EcontextStackEntry *econtext_free = NULL;

/*
 * Transactions ended in this session.  A call that sees this change (a
 * COMMIT in a procedure, its own or a called one's) knows that its
 * expression context went with the old transaction.
 */
uint64		pln_transaction_count = 0;

static void exec_simple_check_plan(PlnExecState *estate, PlnExpr *expr);
static void remember_plan_error(PlnExpr *expr, CachedPlanSource *plansource,
								bool at_parse);
static bool uses_variables(PlnExpr *expr);
static bool plan_reads_variables(SPIPlanPtr plan);
static void plan_generic_again(PlnExecState *estate, PlnExpr *expr);
static void exec_save_simple_expr(PlnExpr *expr, CachedPlan *cplan);
static void raise_fast_call_error(PlnExecState *estate, PlnExpr *expr);
static void exec_parse_plan(PlnExecState *estate, PlnExpr *expr,
							int cursorOptions);
static bool exec_prepare_plan_guarded(PlnExecState *estate, PlnExpr *expr);
static bool query_is_bare_select(Query *query, int ncols);
static void forget_plan_error(PlnExpr *expr);
static bool exec_eval_simple_expr_guarded(PlnExecState *estate, PlnExpr *expr,
										  LocalTransactionId curlxid,
										  Datum *result, bool *isNull);
static bool exec_eval_simple_expr_nested(PlnExecState *estate, PlnExpr *expr,
										 Datum *result, bool *isNull,
										 Oid *rettype, int32 *rettypmod);
static void choose_rw_param(PlnExpr *expr);
static void param_compile(ParamListInfo params, Param *param,
						  ExprState *state, Datum *resv, bool *resnull);
static void param_eval_var(ExprState *state, ExprEvalStep *op,
						   ExprContext *econtext);
static void param_eval_array_var(ExprState *state, ExprEvalStep *op,
								 ExprContext *econtext);
static void param_eval_datum(ExprState *state, ExprEvalStep *op,
							 ExprContext *econtext);
static void param_eval_recfield(ExprState *state, ExprEvalStep *op,
								ExprContext *econtext);
static void param_eval_rw_array_var(ExprState *state, ExprEvalStep *op,
									ExprContext *econtext);
static bool is_param_of(Node *node, int dno);
static ParamExternData *param_fetch(ParamListInfo params, int paramid,
									bool speculative,
									ParamExternData *prm);

/*
 * Prepare an expression's plan through SPI and keep it.
 */
void
exec_prepare_plan(PlnExecState *estate, PlnExpr *expr, int cursorOptions)
{
	/* parsing and planning read the catalogs */
	pln_start_savepoints_before(estate, PLN_IMPURE_USES_SPI);

	exec_parse_plan(estate, expr, cursorOptions);
	exec_simple_check_plan(estate, expr);
}

/*
 * The first half of exec_prepare_plan: parse and analyse the query, keep
 * the plan source.  The caller has made sure the work may run (SPI
 * connected, and a subtransaction or a read guard in a handler block).
 */
static void
exec_parse_plan(PlnExecState *estate, PlnExpr *expr, int cursorOptions)
{
	SPIPlanPtr	plan;
	SPIPrepareOptions options;
	MemoryContext oldcontext;
	bool		literal;

	/* x := 'abc' fails as it is parsed: see "Planning errors" below */
	literal = pln_assigns_literal_purely(expr);

	estate->cur_expr = expr;
	memset(&options, 0, sizeof(options));
	options.parserSetup = (ParserSetupHook) pln_parser_setup;
	options.parserSetupArg = (void *) expr;
	options.parseMode = expr->parseMode;
	options.cursorOptions = cursorOptions;
	PG_TRY();
	{
		plan = SPI_prepare_extended(expr->query, &options);
	}
	PG_CATCH();
	{
		if (literal)
			remember_plan_error(expr, NULL, true);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (plan == NULL)
		elog(ERROR, "SPI_prepare_extended failed for \"%s\": %s",
			 expr->query, SPI_result_code_string(SPI_result));

	SPI_keepplan(plan);
	expr->plan = plan;
	expr->reads_variables = (expr->paramnos != NULL &&
							 plan_reads_variables(plan));

	/* remember it so that recompiling the function can free it */
	oldcontext = MemoryContextSwitchTo(expr->func->fn_cxt);
	expr->func->planned_exprs = lappend(expr->func->planned_exprs, expr);
	MemoryContextSwitchTo(oldcontext);
}

/*
 * May the analysed query of a freshly parsed expression be planned under
 * a read guard?  It must be a bare SELECT of expressions (no table, so
 * analysis took no lock and planning reads only catalogs) that may run
 * under a guard (purity.c): the planner then folds only reviewed
 * functions.  Anything else is planned under the block's subtransaction.
 */
static bool
parsed_query_is_guardable(PlnExpr *expr)
{
	List	   *plansources = SPI_plan_get_plan_sources(expr->plan);
	CachedPlanSource *plansource;
	Query	   *query;
	ListCell   *lc;

	if (list_length(plansources) != 1)
		return false;
	plansource = (CachedPlanSource *) linitial(plansources);
	if (list_length(plansource->query_list) != 1)
		return false;
	query = (Query *) linitial(plansource->query_list);
	if (!query_is_bare_select(query, Max(expr->select_ncols, 1)) ||
		query->rowMarks != NIL)
		return false;
	foreach(lc, query->targetList)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (!pln_analysed_tree_is_guardable((Node *) tle->expr, expr->func))
			return false;
	}
	return true;
}

/*
 * Enter a read guard that refuses what is not reviewed: for the two steps
 * that run under one (the first planning, below, and a simple
 * expression's evaluation, exec_eval_simple_expr_guarded)
 */
static inline void
enter_refusing_read_guard(PlnExecState *estate, PlnReadGuard *guard)
{
	pln_read_guard_enter(estate, guard);
	pln_read_guard_top->refuse_unreviewed = true;
}

/*
 * The first planning of an expression in a handler block without a
 * subtransaction, under a read guard instead, so that a function's first
 * call in a session stays lazy.  Parsing and analysis run under the guard
 * with the guard refusing any function that is not built in (a literal of
 * a type defined by an extension, say: its input function is not
 * reviewed); then, if the analysed query is guardable
 * (parsed_query_is_guardable), the planning too.  An error of parsing or
 * planning is the expression's, as it would be under PL/pgSQL's
 * subtransaction: it goes to the block's catch, which ends the guard
 * first.
 *
 * Returns true when the plan is made.  False when the guard could not be
 * used or the work needs the subtransaction after all; then what was done
 * under the guard is undone as after an error (its locks released), but
 * for the plan source, if parsing got that far (analysis only read), and
 * the caller plans the rest under the subtransaction.
 *
 * Analysis and planning call hooks of other modules where those are set
 * (post_parse_analyze_hook, planner_hook): their code is not reviewed, so
 * then nothing is guarded.
 */
static pg_noinline bool
exec_prepare_plan_guarded(PlnExecState *estate, PlnExpr *expr)
{
	PlnReadGuard guard;
	MemoryContext oldcontext = CurrentMemoryContext;
	volatile bool done = false;

	if (!estate->portal_snapshot_ensured && ActiveSnapshotSet())
		estate->portal_snapshot_ensured = true;
	if (!pln_read_guard_usable(estate) ||
		post_parse_analyze_hook != NULL || pln_other_planner_hook_set())
		return false;

	enter_refusing_read_guard(estate, &guard);
	PG_TRY();
	{
		/* SPI is the call's, connected outside any subtransaction */
		pln_ensure_spi(estate);
		exec_parse_plan(estate, expr, pln_expr_cursor_options(expr));
		if (parsed_query_is_guardable(expr))
		{
			exec_simple_check_plan(estate, expr);
			done = true;
		}
	}
	PG_CATCH();
	{
		/* refused: nothing of the failed step is kept */
		pln_read_guard_undo_refusal(oldcontext);
		forget_plan_error(expr);
		expr->generic_plan_failed = false;
		return false;
	}
	PG_END_TRY();

	if (!done)
	{
		(void) pln_read_guard_abort(false);
		return false;
	}
	pln_read_guard_leave(estate, &guard);
	return true;
}

/*
 * The first planning of an expression (or of a SELECT expr INTO variable,
 * see prepare_select_into): in a handler block without a subtransaction,
 * under a read guard where it may be (exec_prepare_plan_guarded), else
 * under the block's subtransaction.
 */
void
exec_prepare_plan_first(PlnExecState *estate, PlnExpr *expr)
{
	if (pln_in_lazy_region(estate) && exec_prepare_plan_guarded(estate, expr))
		return;
	if (expr->plan == NULL)
		exec_prepare_plan(estate, expr, pln_expr_cursor_options(expr));
	else
	{
		/* parsed under the guard: planned under the savepoint */
		pln_start_savepoints_before(estate, PLN_IMPURE_USES_SPI);
		exec_simple_check_plan(estate, expr);
	}
}

/* ----------
 * Planning errors
 *
 * The planner folds constant subexpressions, so x := 1/0 fails while it
 * is being planned, and since no plan is kept it is planned (and fails)
 * again on every execution.  Planning reads the catalogs, so each of
 * those executions would need a savepoint.  Instead, a data error
 * (SQLSTATE class 22) raised by planning is kept with the expression and
 * raised again, without planning, for as long as planning would
 * certainly fail the same way: in the same transaction, with the parsed
 * query still valid and the same search path.  Data errors from folding
 * come from immutable functions applied to constants, so they depend on
 * nothing else.
 *
 * Parsing fails the same way for x := 'abc' into an integer variable:
 * the parser converts the literal with the type's input function.  When
 * the assignment is just such a literal and the type's input function is
 * on purity.c's list (pln_assigns_literal_purely), the error depends on
 * nothing but the text and the type, and it is kept too, with its
 * position in the statement, for the rest of the transaction.
 * ----------
 */

static void
forget_plan_error(PlnExpr *expr)
{
	/* (FreeErrorData would not free all that CopyErrorData allocated) */
	if (expr->plan_error_cxt != NULL)
		MemoryContextReset(expr->plan_error_cxt);
	expr->plan_error = NULL;
	expr->plan_error_context = NULL;
	expr->plan_error_source = NULL;
}

/*
 * Forget all that a failed preparation of the expression kept (for the
 * plan view, which plans an expression inside a subtransaction of its own
 * and, when that fails, leaves it to be planned again when the function
 * runs): the planning error it remembered, and the plan, which
 * exec_parse_plan has already moved out of SPI's memory (SPI_keepplan),
 * so that nothing but SPI_freeplan frees it.  The preparation failed
 * before the plan became simple, so no reference to it is held.
 */
void
pln_discard_failed_plan(PlnExpr *expr)
{
	SPIPlanPtr	plan = expr->plan;

	forget_plan_error(expr);
	expr->generic_plan_failed = false;
	expr->simple_expr = NULL;
	expr->plan = NULL;
	if (plan != NULL)
		SPI_freeplan(plan);
}

/*
 * Called while the error is being thrown.  Keeps a copy of it in the
 * function's memory, with the CONTEXT lines that belong inside the call
 * (SPI's "SQL expression" line): ours and the callers' are added afresh
 * when it is raised again.
 */
static void
remember_plan_error(PlnExpr *expr, CachedPlanSource *plansource,
					bool at_parse)
{
	MemoryContext oldcontext;
	ErrorData  *edata;
	char	   *ours;

	forget_plan_error(expr);
	if (expr->plan_error_cxt == NULL)
		expr->plan_error_cxt = AllocSetContextCreate(expr->func->fn_cxt,
													 "PL/nimble planning error",
													 ALLOCSET_SMALL_SIZES);
	oldcontext = MemoryContextSwitchTo(expr->plan_error_cxt);
	edata = CopyErrorData();
	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) != ERRCODE_DATA_EXCEPTION ||
		(!at_parse && (edata->cursorpos > 0 || edata->internalpos > 0)))
	{
		MemoryContextSwitchTo(oldcontext);
		forget_plan_error(expr);
		return;
	}

	if (edata->context != NULL)
	{
		/* the inner lines end where our own "PL/nimble function" starts */
		ours = strstr(edata->context,
					  psprintf("%s function ", PLN_LANG_TITLE));
		if (ours == NULL)
			expr->plan_error_context = pstrdup(edata->context);
		else if (ours > edata->context)
			expr->plan_error_context = pnstrdup(edata->context,
												ours - edata->context - 1);
	}
	expr->plan_error = edata;
	expr->plan_error_source = plansource;
	expr->plan_error_lxid = PLN_MY_LXID;
	MemoryContextSwitchTo(oldcontext);
}

static void
plan_error_context_callback(void *arg)
{
	errcontext("%s", (const char *) arg);
}

/*
 * Does the query read a variable?  Only a variable the query reads can be
 * folded into a custom plan.  paramnos cannot tell: it also has an
 * assignment's target, which the SQL parser resolves too but puts into
 * the query only where the target is read (x := x + 1) or has a subscript
 * or field assigned.  So the parsed query is looked at
 * (exec_prepare_plan).
 */
static bool
uses_variables(PlnExpr *expr)
{
	return expr->reads_variables;
}

static bool
extern_param_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param))
		return ((Param *) node)->paramkind == PARAM_EXTERN;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, extern_param_walker,
								 context, 0);
	return expression_tree_walker(node, extern_param_walker, context);
}

static bool
plan_reads_variables(SPIPlanPtr plan)
{
	ListCell   *lc1;

	foreach(lc1, SPI_plan_get_plan_sources(plan))
	{
		CachedPlanSource *plansource = (CachedPlanSource *) lfirst(lc1);
		ListCell   *lc2;

		foreach(lc2, plansource->query_list)
		{
			if (extern_param_walker((Node *) lfirst(lc2), NULL))
				return true;
		}
	}
	return false;
}

/*
 * Could running the simple expression through SPI now show something
 * that evaluating its generic plan does not?  PL/pgSQL sends an
 * expression through SPI after a caught error in it and in a recursion
 * level, and runs every SELECT ... INTO there; plnimble's shortcuts for
 * those may be taken only when this is false.
 *
 * The difference is the plan: SPI's plan cache makes a custom plan for
 * each of the first five executions, with the variables' values folded
 * in, and folding leaves out what the values make unnecessary without
 * evaluating it (the f() in "x + f()" for a NULL x: the operator is
 * strict; a CASE branch; the other arms of an AND).  For an expression
 * that calls only functions of the pure list (purity.c) that shows no
 * more than the generic plan does: such calls have no effect but their
 * value or error, and what folding keeps it evaluates, in the same order
 * (array subscripts aside: simple_folds_alike).  A call of any other
 * function (user code, a volatile function) may be left out where the
 * generic plan makes it.
 */
bool
pln_custom_plan_would_show(PlnExpr *expr)
{
	List	   *plansources;

	if (expr->simple_folds_alike || expr->plan == NULL)
		return false;
	plansources = SPI_plan_get_plan_sources(expr->plan);
	if (list_length(plansources) != 1)
		return false;
	return !pln_plan_cache_chooses_generic((CachedPlanSource *) linitial(plansources)) &&
		uses_variables(expr);
}

/*
 * Raise the kept planning error again if planning would still fail the
 * same way; otherwise forget it.  That is certain when the query reads no
 * variable (a custom plan folds the same constants), or when the plan
 * cache will try the generic plan again; a custom plan may drop the
 * failing part for some parameter values (CASE WHEN n > 0 THEN 1 ELSE 1/0
 * END).  Raising it is pure: nothing is looked up.
 */
static void
raise_plan_error_again(PlnExecState *estate, PlnExpr *expr)
{
	ErrorData  *edata = expr->plan_error;

	if (expr->plan_error_lxid == PLN_MY_LXID &&
		(expr->plan_error_source == NULL ||	/* a literal, at parse */
		 (expr->plan_error_source->is_valid &&
		  pln_search_path_matches(expr->plan_error_source->search_path) &&
		  (!uses_variables(expr) ||
		   pln_plan_cache_chooses_generic(expr->plan_error_source)))))
	{
		ErrorContextCallback inner;

		inner.callback = plan_error_context_callback;
		inner.arg = expr->plan_error_context;
		inner.previous = error_context_stack;
		if (expr->plan_error_context != NULL &&
			!pln_error_context_unseen(estate, edata->sqlerrcode))
			error_context_stack = &inner;

		if (errstart(ERROR, TEXTDOMAIN))
		{
			errcode(edata->sqlerrcode);
			errmsg_internal("%s", edata->message);
			if (edata->detail)
				errdetail_internal("%s", edata->detail);
			if (edata->hint)
				errhint("%s", edata->hint);
			/* a literal's error, from parsing, points into the statement */
			if (unlikely(expr->plan_error_source == NULL))
			{
				if (edata->cursorpos > 0)
					errposition(edata->cursorpos);
				if (edata->internalpos > 0)
					internalerrposition(edata->internalpos);
				if (edata->internalquery)
					internalerrquery(edata->internalquery);
			}
			errfinish(edata->filename, edata->lineno, edata->funcname);
		}
		pg_unreachable();
	}

	forget_plan_error(expr);
}

/*
 * For an expression whose generic plan failed, and whose kept error was
 * stale (a new transaction): when the plan cache will make the same plan
 * as the generic one (the query reads no variable) or make the generic one
 * itself, make it here, so that a planning error is kept again and the
 * next executions need not plan.  Once a generic plan could be made, this
 * is not tried again; the expression still runs through SPI, as under
 * PL/pgSQL.
 */
static void
plan_generic_again(PlnExecState *estate, PlnExpr *expr)
{
	CachedPlanSource *plansource;
	CachedPlan *cplan;
	MemoryContext oldcontext;

	plansource = (CachedPlanSource *) linitial(SPI_plan_get_plan_sources(expr->plan));
	if (uses_variables(expr) && !pln_plan_cache_chooses_generic(plansource))
		return;

	/* planning reads the catalogs */
	pln_start_savepoints_before(estate, PLN_IMPURE_USES_SPI);
	oldcontext = MemoryContextSwitchTo(get_stmt_mcontext(estate));
	PG_TRY();
	{
		cplan = SPI_plan_get_cached_plan(expr->plan);
	}
	PG_CATCH();
	{
		remember_plan_error(expr, plansource, false);
		PG_RE_THROW();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcontext);

	expr->generic_plan_failed = false;
	if (cplan != NULL)
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
}

/*
 * Is the query "SELECT expr" and nothing more: no tables, no clauses, no
 * sub-selects, aggregates, window functions or set-returning functions,
 * and exactly ncols result columns (one, but for SELECT ... INTO)?
 */
static bool
query_is_bare_select(Query *query, int ncols)
{
	if (!IsA(query, Query) || query->commandType != CMD_SELECT)
		return false;
	if (list_length(query->targetList) != ncols)
		return false;

	/* nothing to read from, nothing to filter, group, sort or limit */
	if (query->rtable != NIL || query->cteList != NIL ||
		query->jointree->fromlist != NIL || query->jointree->quals != NULL ||
		query->groupClause != NIL || query->groupingSets != NIL ||
		query->havingQual != NULL || query->windowClause != NIL ||
		query->distinctClause != NIL || query->sortClause != NIL ||
		query->limitOffset != NULL || query->limitCount != NULL ||
		query->setOperations != NULL)
		return false;

	/* and no expression that makes it more than one evaluation */
	return !(query->hasAggs || query->hasWindowFuncs ||
			 query->hasTargetSRFs || query->hasSubLinks);
}

/*
 * Decide whether a freshly prepared expression is simple, and if so keep
 * its generic plan and the expression tree to evaluate.
 */
static void
exec_simple_check_plan(PlnExecState *estate, PlnExpr *expr)
{
	List	   *plansources;
	CachedPlanSource *plansource;
	Query	   *query;
	CachedPlan *cplan;
	MemoryContext oldcontext;

	bool		is_expression;

	expr->simple_expr = NULL;
	expr->purity = PLN_PURITY_UNKNOWN;
	expr->generic_plan_failed = false;

	/*
	 * Only plain expressions and assignments are evaluated as simple, and
	 * the columns of a SELECT ... INTO variables (see exec_stmt_execsql)
	 */
	is_expression = (expr->parseMode == RAW_PARSE_PLPGSQL_EXPR ||
					 expr->parseMode == RAW_PARSE_PLPGSQL_ASSIGN1 ||
					 expr->parseMode == RAW_PARSE_PLPGSQL_ASSIGN2 ||
					 expr->parseMode == RAW_PARSE_PLPGSQL_ASSIGN3);

	plansources = SPI_plan_get_plan_sources(expr->plan);
	if (list_length(plansources) != 1)
		return;
	plansource = (CachedPlanSource *) linitial(plansources);

	if (list_length(plansource->query_list) != 1)
		return;
	query = (Query *) linitial(plansource->query_list);
	if (!query_is_bare_select(query, Max(expr->select_ncols, 1)))
		return;
	/* (a statement may also say FOR UPDATE: the SQL form checks that) */
	if (expr->parseMode == RAW_PARSE_DEFAULT && expr->select_column > 0 &&
		query->rowMarks == NIL)
		is_expression = true;

	/*
	 * Get the generic plan; planning happens in the statement context.
	 * PL/pgSQL does this for SQL statements of this shape too (SELECT
	 * expr INTO x, PERFORM expr), so their first execution fails as it
	 * does there when the generic plan cannot be made, and the plan cache
	 * knows the generic plan's cost as it does there.  An expression
	 * whose generic plan failed is never simple: later executions go
	 * through SPI, whose plan cache chooses custom or generic plans (see
	 * "Planning errors" in docs/design.md).
	 */
	oldcontext = MemoryContextSwitchTo(get_stmt_mcontext(estate));
	PG_TRY();
	{
		cplan = SPI_plan_get_cached_plan(expr->plan);
	}
	PG_CATCH();
	{
		if (is_expression)
		{
			remember_plan_error(expr, plansource, false);
			expr->generic_plan_failed = true;
		}
		PG_RE_THROW();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcontext);
	if (cplan == NULL)
		return;
	if (!is_expression)
	{
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
		return;
	}

	/*
	 * The plan must allow the cheap validity check; then keep a reference
	 * to it in the per-transaction resource owner.
	 */
	if (CachedPlanAllowsSimpleValidityCheck(plansource, cplan,
											simple_eval_resowner))
	{
		expr->simple_plansource = plansource;
		expr->simple_plan = cplan;
		expr->simple_plan_lxid = PLN_MY_LXID;
		exec_save_simple_expr(expr, cplan);
	}

	/* drop the reference SPI_plan_get_cached_plan took */
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
}

/*
 * Pull the expression out of a simple plan: a Result node without input
 * (or such a node under the Gather of force_parallel_mode), whose single
 * target entry is what we evaluate.
 */
static void
exec_save_simple_expr(PlnExpr *expr, CachedPlan *cplan)
{
	PlannedStmt *stmt;
	Plan	   *plan;
	Expr	   *tle_expr;
	bool		under_gather;

	if (list_length(cplan->stmt_list) != 1)
	{
		expr->simple_expr = NULL;
		return;
	}
	stmt = linitial_node(PlannedStmt, cplan->stmt_list);
	if (stmt->commandType != CMD_SELECT)
	{
		expr->simple_expr = NULL;
		return;
	}

	/*
	 * A bare Result node, or such a Result under a Gather: with
	 * force_parallel_mode (debug_parallel_query from 16 on) the planner
	 * puts a single-copy Gather on top of any parallel-safe plan, and
	 * PL/pgSQL looks through it, so an expression stays simple there as
	 * it does under PL/pgSQL (and its errors get no CONTEXT line of SPI's).
	 * The Gather only passes the Result's columns on: each of its target
	 * entries is a reference to the Result's column, or a Const that
	 * setrefs.c copied up, which is then the value itself.  Any other
	 * shape leaves the expression to SPI.
	 */
	plan = stmt->planTree;
	tle_expr = NULL;
	under_gather = false;
	for (;;)
	{
		Expr	   *entry;

		if (list_length(plan->targetlist) != Max(expr->select_ncols, 1))
		{
			expr->simple_expr = NULL;
			return;
		}
		/* (a SELECT ... INTO several variables: one column, see exec_sql.c) */
		entry = castNode(TargetEntry,
						 list_nth(plan->targetlist,
								  Max(expr->select_column, 1) - 1))->expr;

		if (IsA(plan, Result) &&
			plan->lefttree == NULL && plan->righttree == NULL &&
			plan->initPlan == NIL && plan->qual == NIL &&
			((Result *) plan)->resconstantqual == NULL)
		{
			/* a Const the Gather above copied up is the value already */
			if (tle_expr == NULL)
				tle_expr = entry;
			break;
		}
		if (!IsA(plan, Gather) || under_gather ||
			plan->lefttree == NULL || plan->righttree != NULL ||
			plan->initPlan != NIL || plan->qual != NIL)
		{
			expr->simple_expr = NULL;
			return;
		}
		if (IsA(entry, Const))
			tle_expr = entry;
		else if (!IsA(entry, Param) &&
				 !(IsA(entry, Var) && ((Var *) entry)->varno == OUTER_VAR))
		{
			expr->simple_expr = NULL;
			return;
		}
		/* the Result below must be bare all the same */
		under_gather = true;
		plan = plan->lefttree;
	}
	expr->simple_expr = tle_expr;
	expr->simple_type = exprType((Node *) tle_expr);
	expr->simple_typmod = exprTypmod((Node *) tle_expr);
	/* the state must be rebuilt for the new tree */
	expr->simple_state_lxid = InvalidLocalTransactionId;
	expr->simple_in_use = false;

	/* a bare variable reference can be read without the executor */
	expr->simple_is_param = false;
	if (IsA(tle_expr, Param) &&
		((Param *) tle_expr)->paramkind == PARAM_EXTERN)
	{
		expr->simple_is_param = true;
		expr->simple_param_dno = ((Param *) tle_expr)->paramid - 1;
	}

	/* an array assignment that may change the variable in place */
	expr->rw_param_dno = 0;
	choose_rw_param(expr);

	/* only a volatile or stable function can look at the database */
	expr->simple_needs_snapshot = pln_expr_needs_snapshot((Node *) expr->simple_expr);

	/* what may run without a savepoint, decided while one is in place */
	get_typlenbyval(expr->simple_type, &expr->simple_typlen,
					&expr->simple_typbyval);
	pln_expr_analyse_purity(expr);
}

/*
 * Assignments that grow or change an array variable, "a := a || x",
 * "a := array_append(a, x)", "a[i] := x", would copy the whole array
 * each time if the array were handed to them read-only.  Given the
 * variable's own read/write expanded array instead, the server's array
 * code changes it in place and returns it, and exec_assign_value then
 * has nothing to store.
 *
 * This is allowed only where it is known to be harmless: the top node of
 * the assignment's expression is array_append or array_prepend (which
 * change their array argument only when it comes read/write, and return
 * it) with the variable as a direct argument, or an element or slice
 * assignment to a plain array whose container is the variable.  Only
 * that one reference gets the read/write pointer: it is given a
 * parameter number of its own (above the datums' numbers), and every
 * other reference to the variable elsewhere in the expression still
 * reads it read-only, so nothing further down can change it.  The
 * rewritten tree is a copy in the plan's memory, which lives exactly as
 * long as the tree it replaces.
 */
static void
choose_rw_param(PlnExpr *expr)
{
	PlnFunction *func = expr->func;
	Node	   *top = (Node *) expr->simple_expr;
	int			target = expr->target_param;
	PlnDatum   *datum;
	List	   *args = NIL;
	Oid			funcid = InvalidOid;
	MemoryContext oldcontext;
	Param	   *rwparam;
	ListCell   *lc;

	expr->text_append = PLN_TEXT_APPEND_NONE;
	if (target < 0 || !bms_is_member(target, expr->paramnos))
		return;
	datum = func->datums[target];
	if (datum->dtype == PLN_DTYPE_VAR &&
		!((PlnVar *) datum)->datatype->typisarray)
	{
		/* "s := s || x": see text_append.c */
		pln_choose_text_append(expr, (PlnVar *) datum);
		return;
	}
	if (datum->dtype != PLN_DTYPE_VAR ||
		!((PlnVar *) datum)->datatype->typisarray)
		return;

	if (IsA(top, SubscriptingRef))
	{
		SubscriptingRef *sbsref = (SubscriptingRef *) top;

		if (sbsref->refassgnexpr == NULL ||
			get_typsubscript(sbsref->refcontainertype, NULL) != F_ARRAY_SUBSCRIPT_HANDLER ||
			!is_param_of((Node *) sbsref->refexpr, target))
			return;
		oldcontext = MemoryContextSwitchTo(GetMemoryChunkContext(top));
		sbsref = copyObject(sbsref);
		rwparam = (Param *) sbsref->refexpr;
		rwparam->paramid = func->ndatums + target + 1;
		MemoryContextSwitchTo(oldcontext);
		expr->simple_expr = (Expr *) sbsref;
		expr->rw_param_dno = target + 1;
		return;
	}

	if (IsA(top, FuncExpr))
	{
		funcid = ((FuncExpr *) top)->funcid;
		args = ((FuncExpr *) top)->args;
	}
	else if (IsA(top, OpExpr))
	{
		funcid = ((OpExpr *) top)->opfuncid;
		args = ((OpExpr *) top)->args;
	}
	if (funcid != F_ARRAY_APPEND && funcid != F_ARRAY_PREPEND)
		return;

	foreach(lc, args)
	{
		if (is_param_of((Node *) lfirst(lc), target))
		{
			int			argno = foreach_current_index(lc);
			Node	   *copy;

			oldcontext = MemoryContextSwitchTo(GetMemoryChunkContext(top));
			copy = copyObject(top);
			args = IsA(copy, FuncExpr) ? ((FuncExpr *) copy)->args :
				((OpExpr *) copy)->args;
			rwparam = (Param *) list_nth(args, argno);
			rwparam->paramid = func->ndatums + target + 1;
			MemoryContextSwitchTo(oldcontext);
			expr->simple_expr = (Expr *) copy;
			expr->rw_param_dno = target + 1;
			return;
		}
	}
}

/* Is node a reference to datum dno? */
static bool
is_param_of(Node *node, int dno)
{
	return node != NULL && IsA(node, Param) &&
		((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid == dno + 1;
}

/*
 * Everything else exec_eval_expr (plnimble.h) does: first planning,
 * replaying a planning error, and running the expression as a query
 * through SPI.
 */
pg_noinline Datum
exec_eval_expr_general(PlnExecState *estate, PlnExpr *expr,
					   bool *isNull, Oid *rettype, int32 *rettypmod)
{
	Datum		result = (Datum) 0;
	int			rc;
	TupleDesc	desc;

	if (expr->plan == NULL)
	{
		/* a literal that failed to convert (returns if stale) */
		if (unlikely(expr->plan_error != NULL))
			raise_plan_error_again(estate, expr);

		exec_prepare_plan_first(estate, expr);
	}
	else if (unlikely(expr->generic_plan_failed))
	{
		/*
		 * The expression is not simple (its generic plan failed): it runs
		 * through SPI below, as under PL/pgSQL, unless the kept error is
		 * raised again, or planning fails again.
		 */
		if (expr->plan_error != NULL)
			raise_plan_error_again(estate, expr);
		if (expr->plan_error == NULL)
			plan_generic_again(estate, expr);
	}

	if (expr->simple_expr != NULL &&
		exec_eval_simple_expr(estate, expr, &result, isNull,
							  rettype, rettypmod))
		return result;

	/*
	 * Otherwise the expression runs as a SELECT through SPI.  It must
	 * yield one column; no row means NULL, and a second row (hence the
	 * limit of two) is an error.
	 */
	pln_start_savepoints_before(estate, PLN_IMPURE_USES_SPI);
	rc = exec_run_select(estate, expr, 2, NULL);
	if (rc != SPI_OK_SELECT)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("query did not return data"),
				 errcontext("query: %s", expr->query)));

	desc = estate->eval_tuptable->tupdesc;
	if (desc->natts != 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg_plural("query returned %d column",
							   "query returned %d columns",
							   desc->natts, desc->natts),
				 errcontext("query: %s", expr->query)));
	*rettype = TupleDescAttr(desc, 0)->atttypid;
	*rettypmod = TupleDescAttr(desc, 0)->atttypmod;

	switch (estate->eval_processed)
	{
		case 0:
			*isNull = true;
			break;
		case 1:
			result = SPI_getbinval(estate->eval_tuptable->vals[0], desc, 1,
								   isNull);
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_CARDINALITY_VIOLATION),
					 errmsg("query returned more than one row"),
					 errcontext("query: %s", expr->query)));
	}
	return result;
}

/* ----------
 * Skipping repeated plan validity checks
 *
 * Every evaluation of a simple expression must make sure its plan is
 * still valid: no catalog change has invalidated it and the search path
 * is the one it was planned with.  CachedPlanIsSimplyValid checks that,
 * and in a tight loop of pure statements it is a good part of the cost.
 *
 * Nothing can invalidate a plan while only pure work runs: pure work
 * reads no catalogs, takes no locks (so processes no invalidation
 * messages), runs no SQL and calls nothing that could change a setting.
 * So a check needs repeating only after something else has run.  The
 * counter pln_validity_epoch is bumped (pln_forget_plan_checks) around
 * everything that may run other code: before and after any impure
 * statement (exec_stmt), before any impure expression
 * (pln_start_savepoints_before), after each batch of rows a FOR loop
 * fetches (the query runs meanwhile), when an error is caught
 * (restore_call_state), and on entering and leaving a call of the
 * handlers.  A plan checked in the current epoch is still valid.
 *
 * Invalidation messages from other sessions arrive only when a lock is
 * taken; the server counts them, and that count is compared too.  This
 * is what lets expressions that read records (so are not pure, since a
 * field may have to be fetched from a TOAST table) but call only
 * functions of the pure list use the same shortcut: they run no code of
 * anyone else, and what they read can only bring shared messages.
 * ----------
 */
static inline bool
simple_plan_known_valid(PlnExpr *expr)
{
	return expr->simple_checked_epoch == pln_validity_epoch &&
		expr->simple_checked_sinval == SharedInvalidMessageCounter;
}

static inline void
simple_plan_checked(PlnExpr *expr)
{
	expr->simple_checked_epoch = pln_validity_epoch;
	expr->simple_checked_sinval = SharedInvalidMessageCounter;
}

/*
 * Check, before a handler block is entered, the plan of the pure
 * expression its first statement evaluates (see enter_frame_slowly).
 * Returns true if the plan was checked and found valid; the block then
 * trusts it without a second check.  Only for a plan this transaction
 * already holds a reference to.
 */
bool
pln_check_plan_before_block(PlnExpr *expr)
{
	if (expr == NULL || expr->purity != PLN_PURITY_PURE ||
		expr->simple_state_cxt == NULL ||
		expr->simple_plan_lxid != PLN_MY_LXID)
		return false;

	/*
	 * A plan already checked in this epoch is checked again all the same:
	 * that is rare, and cheaper than asking for the search path
	 * separately.
	 */
	if (!pln_simple_plan_is_current(expr))
		return false;
	simple_plan_checked(expr);
	return true;
}

/*
 * Is the simple plan of the expression, which this transaction holds a
 * reference to, still valid?  CachedPlanIsSimplyValid's test, written out:
 * this runs at every call of a function that starts with a handler block
 * (above) or takes the fast entry (fast_call.c), and the reference that
 * function would take is not needed (the transaction holds one, so the
 * plan pointer is not dangling).  Invalidation marks a stale plan or its
 * source invalid, or replaces the source's generic plan; the search path
 * is compared the way the plan cache compares it, which brings the
 * current path up to date first (fine before a pure region starts).
 */
bool
pln_simple_plan_is_current(PlnExpr *expr)
{
	CachedPlanSource *plansource = expr->simple_plansource;

	Assert(expr->simple_plan_lxid == PLN_MY_LXID);
	return plansource->is_valid && plansource->gplan == expr->simple_plan &&
		expr->simple_plan->is_valid &&
		pln_search_path_matches(plansource->search_path);
}

/*
 * Can the expression be evaluated right now without anything but pure
 * work?  Its tree must be pure, with an ExprState built from the current
 * plan, and the plan must still be valid.  Checking that touches no
 * catalogs: the search path was brought up to date when the handler
 * block was entered.
 *
 * On first use in a transaction this also takes the transaction's
 * reference to the plan.  That reference belongs to the per-transaction
 * resource owner, released at transaction end whatever happens to
 * subtransactions, so taking it needs no savepoint.
 */
static inline bool
simple_expr_ready_for_pure_eval(PlnExpr *expr, LocalTransactionId curlxid)
{
	if (expr->purity != PLN_PURITY_PURE || expr->simple_state_cxt == NULL)
		return false;

	if (likely(expr->simple_plan_lxid == curlxid))
	{
		if (!simple_plan_known_valid(expr))
		{
			if (!CachedPlanIsSimplyValid(expr->simple_plansource,
										 expr->simple_plan, NULL))
				return false;
			simple_plan_checked(expr);
		}
	}
	else
	{
		if (!CachedPlanIsSimplyValid(expr->simple_plansource,
									 expr->simple_plan,
									 simple_eval_resowner))
			return false;
		expr->simple_plan_lxid = curlxid;
	}

	/* a state built from an older plan of the same query will not do */
	if (expr->simple_plan->generation != expr->simple_state_generation)
		return false;

	if (expr->simple_state_lxid != curlxid)
	{
		expr->simple_in_use = false;
		expr->simple_state_lxid = curlxid;
	}
	return true;
}

/*
 * Build the ExprState the expression's current plan needs in this
 * transaction.  A pure expression's state depends on nothing but its plan
 * (the functions it calls look nothing up while running), so it is kept
 * across transactions in a context of its own; any other state lives in
 * the per-transaction executor state, like PL/pgSQL's.
 */
static void
simple_expr_build_state(PlnExecState *estate, PlnExpr *expr,
						LocalTransactionId curlxid)
{
	MemoryContext oldcontext;

	if (expr->purity == PLN_PURITY_PURE)
	{
		if (expr->simple_state_cxt == NULL ||
			expr->simple_state_generation != expr->simple_plan->generation)
		{
			if (expr->simple_state_cxt != NULL)
				MemoryContextDelete(expr->simple_state_cxt);
			expr->simple_state_cxt = NULL;
			expr->simple_state = NULL;
			expr->simple_state_cxt =
				AllocSetContextCreate(expr->func->fn_cxt,
									  "PL/nimble pure expression state",
									  ALLOCSET_SMALL_SIZES);
			oldcontext = MemoryContextSwitchTo(expr->simple_state_cxt);
			expr->simple_state = ExecInitExprWithParams(expr->simple_expr,
														estate->paramLI);
			MemoryContextSwitchTo(oldcontext);
			expr->simple_state_generation = expr->simple_plan->generation;
		}
	}
	else
	{
		/* (should building the new state fail, the old is gone all the same) */
		expr->simple_state = NULL;
		expr->simple_state_lxid = InvalidLocalTransactionId;
		if (expr->simple_state_cxt != NULL)
			MemoryContextDelete(expr->simple_state_cxt);
		expr->simple_state_cxt = NULL;

		/*
		 * A state built earlier in this transaction is run by nothing
		 * now (one busy in an outer recursion level is not rebuilt, see
		 * exec_eval_simple_expr): it was abandoned by a caught error (see
		 * restore_call_state) or made for an older plan.  It goes, so that
		 * a loop catching an error in every iteration does not pile up
		 * states; one of an earlier transaction went with its memory.
		 */
		if (expr->simple_impure_lxid == curlxid &&
			expr->simple_impure_cxt != NULL)
			MemoryContextDelete(expr->simple_impure_cxt);
		expr->simple_impure_cxt =
			AllocSetContextCreate(simple_eval_estate->es_query_cxt,
								  "PL/nimble expression state",
								  ALLOCSET_SMALL_SIZES);
		expr->simple_impure_lxid = curlxid;
		oldcontext = MemoryContextSwitchTo(expr->simple_impure_cxt);
		expr->simple_state = ExecInitExprWithParams(expr->simple_expr,
													estate->paramLI);
		MemoryContextSwitchTo(oldcontext);
	}
	expr->simple_in_use = false;
	expr->simple_state_lxid = curlxid;
}

/*
 * Make sure the expression's simple plan is valid and referenced in this
 * transaction, replanning it if it was invalidated.  Returns false if it
 * is no longer simple.
 */
static bool
simple_expr_revalidate(PlnExecState *estate, PlnExpr *expr,
					   LocalTransactionId curlxid)
{
	CachedPlan *cplan;
	MemoryContext oldcontext;

	/* On its first use in this transaction, take a reference. */
	if (likely(CachedPlanIsSimplyValid(expr->simple_plansource,
									   expr->simple_plan,
									   (expr->simple_plan_lxid != curlxid ?
										simple_eval_resowner : NULL))))
	{
		expr->simple_plan_lxid = curlxid;
		return true;
	}

	/* replanning: drop our reference to the old plan first */
	if (expr->simple_plan_lxid == curlxid)
		ReleaseCachedPlan(expr->simple_plan, simple_eval_resowner);

	/* (the only use of SPI while evaluating a simple expression) */
	pln_ensure_spi(estate);

	oldcontext = MemoryContextSwitchTo(get_stmt_mcontext(estate));
	cplan = SPI_plan_get_cached_plan(expr->plan);
	MemoryContextSwitchTo(oldcontext);

	Assert(cplan != NULL);

	if (!CachedPlanAllowsSimpleValidityCheck(expr->simple_plansource,
											 cplan, simple_eval_resowner))
	{
		/* no longer simple */
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
		expr->simple_expr = NULL;
		return false;
	}
	expr->simple_plan = cplan;
	expr->simple_plan_lxid = curlxid;
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
	exec_save_simple_expr(expr, cplan);
	return expr->simple_expr != NULL;
}

/*
 * Run a simple expression's ExprState in the call's expression context.
 * An expression that may run SQL (a function call, say) must see our
 * earlier changes, so it gets a new command id and snapshot as SPI would
 * give it.  A pure expression reads nothing and needs neither, and nor
 * does one made only of immutable functions.
 */
static inline Datum
run_simple_expr_state(PlnExecState *estate, PlnExpr *expr, ExprState *state,
					  bool pure, bool *isNull)
{
	ExprContext *econtext = estate->eval_econtext;
	bool		snapshot_pushed;
	MemoryContext oldcontext;
	Datum		result;

	snapshot_pushed = (!estate->readonly_func && !pure &&
					   expr->simple_needs_snapshot);
	if (snapshot_pushed)
	{
		CommandCounterIncrement();
		PushActiveSnapshot(GetTransactionSnapshot());
	}

	econtext->ecxt_param_list_info = estate->paramLI;
	estate->cur_expr = expr;

	/* (the wrapped-server lane's self-test, pln_savepoint.h) */
	pln_server_check_probe();

	oldcontext = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
	result = ExecEvalExpr(state, econtext, isNull);
	MemoryContextSwitchTo(oldcontext);

	econtext->ecxt_param_list_info = NULL;
	if (snapshot_pushed)
		PopActiveSnapshot();
	return result;
}

/*
 * The CONTEXT line SPI would add, had the evaluation gone through it as
 * PL/pgSQL's does (the wording is the core's).
 */
typedef struct SpiExprErrorArg
{
	PlnExecState *estate;
	PlnExpr    *expr;
} SpiExprErrorArg;

static void
spi_expr_error_callback(void *arg)
{
	SpiExprErrorArg *cb = (SpiExprErrorArg *) arg;
	PlnExpr    *expr = cb->expr;

	/* as in exec_error_callback: nobody will see it */
	if (pln_error_context_unseen(cb->estate, geterrcode()))
		return;

	if (expr->parseMode == RAW_PARSE_PLPGSQL_EXPR)
		errcontext(PLN_SPI_EXPR_CONTEXT, expr->query);
	else if (expr->parseMode == RAW_PARSE_DEFAULT)
		errcontext("SQL statement \"%s\"", expr->query);	/* SELECT INTO */
	else
		errcontext("PL/pgSQL assignment \"%s\"", expr->query);
}

/*
 * Run a simple expression as though it went through SPI, where PL/pgSQL
 * sends it: an evaluation of it failed earlier in the transaction (PL/pgSQL
 * then leaves it marked as busy), or it is busy in an outer recursion
 * level.  SPI's plan would show nothing more than the generic one (else
 * the caller goes through SPI, see pln_custom_plan_would_show), so the
 * differences that show are SPI's CONTEXT line for errors and
 * notices raised while it runs, and ROW_COUNT, which the one row of the
 * query sets to 1.
 */
static pg_noinline Datum
run_simple_expr_as_spi(PlnExecState *estate, PlnExpr *expr, ExprState *state,
					   bool pure, bool *isNull)
{
	ErrorContextCallback errcallback;
	SpiExprErrorArg cb;
	Datum		result;

	cb.estate = estate;
	cb.expr = expr;
	errcallback.callback = spi_expr_error_callback;
	errcallback.arg = &cb;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	result = run_simple_expr_state(estate, expr, state, pure, isNull);
	error_context_stack = errcallback.previous;
	estate->eval_processed = 1;
	return result;
}

/*
 * An impure expression may need a snapshot, which a procedure has none of
 * right after COMMIT.  Once one is there, only an impure statement
 * (exec_stmt clears the flag) or a subtransaction rollback can take it
 * away: expressions run nothing that could end the transaction.
 */
static inline void
ensure_portal_snapshot(PlnExecState *estate)
{
	if (unlikely(!estate->portal_snapshot_ensured))
	{
		EnsurePortalSnapshotExists();
		estate->portal_snapshot_ensured = true;
	}
}

/*
 * The fast path.  Returns false if the expression must go through SPI
 * after all (plan no longer simple, or the expression is busy in an outer
 * call of a recursive function).
 *
 * Inside a handler block without a subtransaction, a pure expression
 * whose state is ready is evaluated as is; anything else starts the
 * block's savepoint first.
 */
bool
exec_eval_simple_expr(PlnExecState *estate, PlnExpr *expr,
					  Datum *result, bool *isNull,
					  Oid *rettype, int32 *rettypmod)
{
	LocalTransactionId curlxid = PLN_MY_LXID;
	bool		pure;

	/*
	 * Where PL/pgSQL runs the expression through SPI (after a caught error
	 * in it, or in a recursion level), so does plnimble while SPI's custom
	 * plan could show; otherwise it shows what SPI would show.
	 */
	if (unlikely(expr->simple_failed_lxid == curlxid ||
				 (expr->simple_in_use && expr->simple_state_lxid == curlxid)))
	{
		if (unlikely(estate->fast_call_error != NULL))
			raise_fast_call_error(estate, expr);
		if (pln_custom_plan_would_show(expr))
			return false;
	}

	/* busy in an outer recursion level: a state of its own for this one */
	if (unlikely(expr->simple_in_use) && expr->simple_state_lxid == curlxid)
		return exec_eval_simple_expr_nested(estate, expr, result, isNull,
											rettype, rettypmod);

	pure = simple_expr_ready_for_pure_eval(expr, curlxid);
	if (!pure &&
		(expr->purity == PLN_PURITY_GUARDED ||
		 expr->purity == PLN_PURITY_PURE) &&
		pln_in_lazy_region(estate) &&
		exec_eval_simple_expr_guarded(estate, expr, curlxid, result, isNull))
	{
		*rettype = expr->simple_type;
		*rettypmod = expr->simple_typmod;
		return true;
	}
	if (!pure)
	{
		/*
		 * Reading records needs a savepoint, but when that is all the
		 * expression does beyond pure work, a plan checked in this epoch
		 * is still good (see simple_plan_known_valid).  The snapshot is
		 * made sure of after the gate: it may take one.
		 */
		if (expr->simple_calls_only_pure)
		{
			pln_start_savepoints_before(estate, PLN_IMPURE_READS);
			ensure_portal_snapshot(estate);
			if (expr->simple_plan_lxid != curlxid ||
				!simple_plan_known_valid(expr))
			{
				CachedPlan *checked_plan = expr->simple_plan;

				if (!simple_expr_revalidate(estate, expr, curlxid))
					return false;
				/* planning again may have run other code */
				if (expr->simple_plan != checked_plan)
					pln_forget_plan_checks();
				simple_plan_checked(expr);
			}
		}
		else
		{
			pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
			ensure_portal_snapshot(estate);
			if (!simple_expr_revalidate(estate, expr, curlxid))
				return false;
		}

		/* (re)build the expression state once per transaction */
		if (expr->simple_state_lxid != curlxid ||
			(expr->simple_state_cxt != NULL &&
			 expr->simple_state_generation != expr->simple_plan->generation))
			simple_expr_build_state(estate, expr, curlxid);
		pure = (expr->purity == PLN_PURITY_PURE);
	}

	*rettype = expr->simple_type;
	*rettypmod = expr->simple_typmod;

	/* a bare variable: hand out its value */
	if (expr->simple_is_param)
	{
		Oid			typeid;
		int32		typmod;

		pln_exec_datum_value(estate, estate->datums[expr->simple_param_dno],
							 &typeid, &typmod, result, isNull);
		if (typeid == expr->simple_type)
			return true;
		/* a record changed shape: let the executor check it */
		pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
		pure = false;
	}

	expr->simple_in_use = true;
	estate->simple_expr_running = expr;
	if (unlikely(expr->simple_failed_lxid == curlxid))
		*result = run_simple_expr_as_spi(estate, expr, expr->simple_state,
										 pure, isNull);
	else
		*result = run_simple_expr_state(estate, expr, expr->simple_state,
										pure, isNull);
	estate->simple_expr_running = NULL;
	expr->simple_in_use = false;
	return true;
}

/*
 * Evaluate an expression of class GUARDED (purity.c) in a handler block
 * without a subtransaction, under a read guard instead (guard.c): the plan
 * check, building the expression state and the evaluation all run under
 * it.  Returns false, having done nothing anyone can see, when the guard
 * cannot be used here or the work turns out to need the subtransaction
 * after all: the plan was invalidated (planning again is left to the
 * subtransaction), or a function that is not built in was about to be
 * called (the guard refuses it, see guard_needs_fmgr_hook; the work so far
 * only read).  The caller then goes the usual way, which starts the
 * block's subtransaction.
 *
 * An error raised by the evaluation itself is the expression's: it goes
 * to the block's catch, which ends the guard first (catch_without_savepoint).
 * Evaluation may push a snapshot, as under a subtransaction
 * (run_simple_expr_state); the guard pops it if an error comes.
 */
static pg_noinline bool
exec_eval_simple_expr_guarded(PlnExecState *estate, PlnExpr *expr,
							  LocalTransactionId curlxid,
							  Datum *result, bool *isNull)
{
	PlnReadGuard guard;
	MemoryContext oldcontext = CurrentMemoryContext;
	volatile bool done = false;
	bool		pure = (expr->purity == PLN_PURITY_PURE);

	/* a procedure after COMMIT: the portal's snapshot is the block's work */
	if (!estate->portal_snapshot_ensured && ActiveSnapshotSet())
		estate->portal_snapshot_ensured = true;
	if (!pln_read_guard_usable(estate) ||
		(expr->simple_in_use && expr->simple_state_lxid == curlxid))
		return false;

	enter_refusing_read_guard(estate, &guard);
	PG_TRY();
	{
		bool		valid;

		/* the plan check, taking the transaction's reference on first use */
		if (expr->simple_plan_lxid == curlxid)
		{
			valid = simple_plan_known_valid(expr) ||
				CachedPlanIsSimplyValid(expr->simple_plansource,
										expr->simple_plan, NULL);
			if (valid)
				simple_plan_checked(expr);
		}
		else
		{
			valid = CachedPlanIsSimplyValid(expr->simple_plansource,
											expr->simple_plan,
											simple_eval_resowner);
			if (valid)
			{
				expr->simple_plan_lxid = curlxid;
				simple_plan_checked(expr);
			}
		}

		/* (a pure expression's state is kept for its plan's generation) */
		if (valid && pure &&
			expr->simple_plan->generation != expr->simple_state_generation)
			expr->simple_state_lxid = InvalidLocalTransactionId;
		if (valid)
		{
			if (expr->simple_state_lxid != curlxid ||
				(expr->simple_state_cxt != NULL &&
				 expr->simple_state_generation != expr->simple_plan->generation))
				simple_expr_build_state(estate, expr, curlxid);

			if (expr->simple_is_param)
			{
				Oid			typeid;
				int32		typmod;

				/*
				 * A bare variable: its value, as exec_eval_simple_expr
				 * hands it out; a record that changed shape is left to
				 * the executor's check under the subtransaction.
				 */
				pln_exec_datum_value(estate,
									 estate->datums[expr->simple_param_dno],
									 &typeid, &typmod, result, isNull);
				done = (typeid == expr->simple_type);
			}
			else
			{
				expr->simple_in_use = true;
				estate->simple_expr_running = expr;
				if (unlikely(expr->simple_failed_lxid == curlxid))
					*result = run_simple_expr_as_spi(estate, expr,
													 expr->simple_state, pure,
													 isNull);
				else
					*result = run_simple_expr_state(estate, expr,
													expr->simple_state, pure,
													isNull);
				estate->simple_expr_running = NULL;
				expr->simple_in_use = false;
				done = true;
			}
		}
	}
	PG_CATCH();
	{
		/*
		 * Refused: as if nothing had run.  The expression state may have
		 * been left half way, so it is built afresh next time.
		 */
		pln_read_guard_undo_refusal(oldcontext);
		estate->simple_expr_running = NULL;
		expr->simple_in_use = false;
		expr->simple_state_lxid = InvalidLocalTransactionId;
		return false;
	}
	PG_END_TRY();

	pln_read_guard_leave(estate, &guard);
	return done;
}

/*
 * A call the fast entry handed over (fast_call.c): its RETURN raises the
 * error the fast entry's evaluation of the same expression raised, here,
 * where it raised it (the fast entry left the expression marked busy, so
 * the evaluation comes this way), as if this evaluation had raised it.
 * The error was raised under the same error context callback, with the
 * same state to read, so its CONTEXT lines are this call's; ReThrowError
 * keeps every field.
 */
static pg_noinline void
raise_fast_call_error(PlnExecState *estate, PlnExpr *expr)
{
	ErrorData  *edata = estate->fast_call_error;

	Assert(estate->func->fast_expr == expr && expr->fast_error_pending);
	estate->fast_call_error = NULL;
	/* (the block's catch marks the expression failed, as for any error) */
	expr->fast_error_pending = false;
	expr->simple_in_use = true;
	estate->simple_expr_running = expr;
	ReThrowError(edata);
}

/* recursion levels with a state of their own; deeper ones use SPI */
#define PLN_MAX_NESTED_STATES 256

/*
 * Evaluate a simple expression that is being evaluated already, by the
 * same function at an outer recursion level (fib(n - 1) + fib(n - 2)).
 * Its ExprState is busy, so this level gets one of its own, built once
 * per transaction and level; PL/pgSQL runs such evaluations through SPI,
 * which starts an executor each time.
 *
 * The outer level has checked and referenced the plan in this
 * transaction, so all that is needed is that it is still valid.  This is
 * always treated as impure work.  Returns false to have the caller go
 * through SPI: the plan is no longer valid, or the recursion is deeper
 * than the levels kept.
 */
static pg_noinline bool
exec_eval_simple_expr_nested(PlnExecState *estate, PlnExpr *expr,
							 Datum *result, bool *isNull,
							 Oid *rettype, int32 *rettypmod)
{
	LocalTransactionId curlxid = PLN_MY_LXID;
	int			level = estate->recursion_level;
	ExprState  *state;
	int			generation;
	MemoryContext oldcontext;
	if (level <= 0 || level >= PLN_MAX_NESTED_STATES ||
		expr->simple_is_param ||
		expr->simple_plan_lxid != curlxid)
		return false;

	pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
	if (!CachedPlanIsSimplyValid(expr->simple_plansource, expr->simple_plan,
								 NULL))
		return false;
	ensure_portal_snapshot(estate);

	/* the states of another transaction or plan will not do */
	if (expr->simple_nested_lxid != curlxid ||
		expr->simple_nested_generation != expr->simple_plan->generation)
	{
		expr->simple_nested_states = NULL;
		expr->simple_nested_count = 0;
		expr->simple_nested_lxid = curlxid;
		expr->simple_nested_generation = expr->simple_plan->generation;
	}
	if (level >= expr->simple_nested_count)
	{
		int			newcount = Min(Max(level + 1, 2 * expr->simple_nested_count),
								   PLN_MAX_NESTED_STATES);
		ExprState **states;

		states = MemoryContextAllocZero(simple_eval_estate->es_query_cxt,
										sizeof(ExprState *) * newcount);
		if (expr->simple_nested_count > 0)
			memcpy(states, expr->simple_nested_states,
				   sizeof(ExprState *) * expr->simple_nested_count);
		expr->simple_nested_states = states;
		expr->simple_nested_count = newcount;
	}
	state = expr->simple_nested_states[level];
	if (state == NULL)
	{
		oldcontext = MemoryContextSwitchTo(simple_eval_estate->es_query_cxt);
		state = ExecInitExprWithParams(expr->simple_expr, estate->paramLI);
		MemoryContextSwitchTo(oldcontext);
		expr->simple_nested_states[level] = state;
	}

	/*
	 * The level's state is taken out while it runs: if an error ends the
	 * evaluation, it may be left half way through running something (an
	 * SQL function's query, holding a snapshot of a subtransaction that is
	 * rolled back later), and the next evaluation at this level builds a
	 * fresh one instead.
	 */
	generation = expr->simple_nested_generation;
	expr->simple_nested_states[level] = NULL;
	*result = run_simple_expr_as_spi(estate, expr, state, false, isNull);
	/* (unless a deeper level started the states afresh meanwhile) */
	if (expr->simple_nested_generation == generation &&
		level < expr->simple_nested_count &&
		expr->simple_nested_states[level] == NULL)
		expr->simple_nested_states[level] = state;

	*rettype = expr->simple_type;
	*rettypmod = expr->simple_typmod;
	return true;
}

/*
 * Run a query expression through SPI; the result is left in
 * estate->eval_tuptable until exec_eval_cleanup.
 */
int
exec_run_select(PlnExecState *estate, PlnExpr *expr, long maxtuples,
				Portal *portalP)
{
	int			rc;

	pln_start_savepoints_before(estate, PLN_IMPURE_USES_SPI);

	/*
	 * A query run to completion may use a parallel plan.  A portal (the
	 * loop of FOR ... IN query) is only ever read forward, one batch at a
	 * time, with the loop body running in between: no parallel plan, and
	 * NO_SCROLL, as PL/pgSQL, so that the executor need not prepare for
	 * backward fetches and pg_cursors shows the portal as not scrollable.
	 */
	if (expr->plan == NULL)
		exec_prepare_plan(estate, expr,
						  portalP == NULL ? CURSOR_OPT_PARALLEL_OK :
						  CURSOR_OPT_NO_SCROLL);

	estate->cur_expr = expr;

	if (portalP != NULL)
	{
		*portalP = SPI_cursor_open_with_paramlist(NULL, expr->plan,
												  estate->paramLI,
												  estate->readonly_func);
		if (*portalP == NULL)
			elog(ERROR, "could not open implicit cursor for query \"%s\": %s",
				 expr->query, SPI_result_code_string(SPI_result));
		exec_eval_cleanup(estate);
		return SPI_OK_CURSOR;
	}

	rc = SPI_execute_plan_with_paramlist(expr->plan, estate->paramLI,
										 estate->readonly_func, maxtuples);
	if (rc == SPI_OK_SELINTO)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("query is SELECT INTO, but it should be plain SELECT"),
				 errcontext("query: %s", expr->query)));
	if (rc != SPI_OK_SELECT)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("query is not a SELECT"),
				 errcontext("query: %s", expr->query)));

	/* the rows stay until exec_eval_cleanup */
	Assert(estate->eval_tuptable == NULL);
	estate->eval_tuptable = SPI_tuptable;
	estate->eval_processed = SPI_processed;

	return rc;
}

/* Evaluate an expression and convert its value to type wanted */
static Datum
eval_expr_as(PlnExecState *estate, PlnExpr *expr, Oid wanted, bool *isNull)
{
	Oid			valtype;
	int32		valtypmod;
	Datum		value = exec_eval_expr(estate, expr, isNull, &valtype,
									   &valtypmod);

	return exec_cast_value(estate, value, isNull, valtype, valtypmod,
						   wanted, -1);
}

/* Evaluate a boolean condition; NULL counts as false for the caller */
bool
exec_eval_boolean(PlnExecState *estate, PlnExpr *expr, bool *isNull)
{
	Oid			valtype;
	int32		valtypmod;
	Datum		value = exec_eval_expr(estate, expr, isNull, &valtype,
									   &valtypmod);

	if (likely(valtype == BOOLOID))
		return DatumGetBool(value);
	return DatumGetBool(exec_cast_value_slow(estate, value, isNull,
											 valtype, valtypmod,
											 BOOLOID, -1));
}

/* Evaluate an integer expression (FOR loop bounds) */
int
exec_eval_integer(PlnExecState *estate, PlnExpr *expr, bool *isNull)
{
	return DatumGetInt32(eval_expr_as(estate, expr, INT4OID, isNull));
}

/* ----------
 * Parameters: the datums as seen by SQL
 * ----------
 */

/* Set up the call's ParamListInfo; values are fetched on demand */
void
pln_setup_param_list(PlnExecState *estate)
{
	/* the storage comes with the datums' (copy_datums) */
	ParamListInfo paramLI = estate->paramLI;

	paramLI->paramFetch = param_fetch;
	paramLI->paramFetchArg = (void *) estate;
	paramLI->paramCompile = param_compile;
	paramLI->paramCompileArg = NULL;
	paramLI->parserSetup = NULL;
	paramLI->parserSetupArg = NULL;
	/* above the datums: the read/write references, see choose_rw_param */
	paramLI->numParams = 2 * estate->ndatums;
}

/*
 * Compile hook: how an expression being built reads one of our datums.
 * A scalar variable gets a step of its own that reads the variable
 * directly at run time, the cheapest way there is to read a variable;
 * its type cannot change, so there is nothing to check.  Records, their
 * fields (whose types may change from row to row) and the read/write
 * references of choose_rw_param get the server's usual step, which asks
 * param_fetch and checks the type.
 *
 * The step looks up the execution state at run time, through the
 * expression context's parameter list, so one compiled expression
 * serves every call of the function.
 */
static void
param_compile(ParamListInfo params, Param *param, ExprState *state,
			  Datum *resv, bool *resnull)
{
	PlnExecState *estate = (PlnExecState *) params->paramFetchArg;
	int			dno = param->paramid - 1;
	ExecEvalSubroutine paramfunc = NULL;	/* NULL: the server's step */
	ExprEvalStep step;

	if (dno >= 0 && dno < estate->ndatums &&
		estate->datums[dno]->dtype == PLN_DTYPE_VAR)
	{
		PlnVar	   *var = (PlnVar *) estate->datums[dno];

		paramfunc = var->datatype->typisarray ?
			param_eval_array_var : param_eval_var;
	}
	else if (dno >= 0 && dno < estate->ndatums)
		paramfunc = estate->datums[dno]->dtype == PLN_DTYPE_RECFIELD ?
			param_eval_recfield : param_eval_datum;
	else if (dno >= estate->ndatums && dno < 2 * estate->ndatums &&
			 estate->datums[dno - estate->ndatums]->dtype == PLN_DTYPE_VAR)
	{
		/* the reference choose_rw_param marked */
		PlnVar	   *var = (PlnVar *) estate->datums[dno - estate->ndatums];

		paramfunc = var->datatype->typisarray ?
			param_eval_rw_array_var : pln_param_eval_append_slot;
	}

	memset(&step, 0, sizeof(step));
	step.resvalue = resv;
	step.resnull = resnull;
	if (paramfunc != NULL)
	{
		step.opcode = EEOP_PARAM_CALLBACK;
		step.d.cparam.paramfunc = paramfunc;
		step.d.cparam.paramarg = NULL;
		step.d.cparam.paramid = param->paramid;
		step.d.cparam.paramtype = param->paramtype;
	}
	else
	{
		step.opcode = EEOP_PARAM_EXTERN;
		step.d.param.paramid = param->paramid;
		step.d.param.paramtype = param->paramtype;
	}
	ExprEvalPushStep(state, &step);
}

/*
 * Run-time step: the array variable an assignment may change in place
 * (choose_rw_param).  Its own expanded array goes out read/write; a value
 * that is not ours (an argument, say) read-only.
 */
static void
param_eval_rw_array_var(ExprState *state, ExprEvalStep *op,
						ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;
	int			dno = op->d.cparam.paramid - 1 - estate->ndatums;
	PlnVar	   *var = (PlnVar *) estate->datums[dno];

	*op->resnull = var->isnull;
	*op->resvalue = var->value;
	if (var->isnull)
		return;
	if (!var->freeval ||
		estate->simple_expr_running == NULL ||
		estate->simple_expr_running->rw_param_dno != dno + 1 ||
		!VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(var->value)))
		*op->resvalue = MakeExpandedObjectReadOnly(var->value, false, -1);
}

/*
 * Run-time step: a record, a record field or a row, whose type may not be
 * the one the expression was planned for (a record can change shape), so
 * it is checked as the server checks its own parameters.
 */
static void
param_eval_datum(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;
	PlnDatum   *datum = estate->datums[op->d.cparam.paramid - 1];
	Oid			typeid;
	int32		typmod;

	pln_exec_datum_value(estate, datum, &typeid, &typmod,
						 op->resvalue, op->resnull);
	if (unlikely(typeid != op->d.cparam.paramtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("type of parameter %d (%s) does not match that when preparing the plan (%s)",
						op->d.cparam.paramid,
						format_type_be(typeid),
						format_type_be(op->d.cparam.paramtype))));
}

/*
 * Run-time step: a record field.  When the field was looked up for the
 * record's current row type already, read it straight from the expanded
 * record; otherwise (first use, a record that changed shape or has no
 * value) take the general way, which looks it up or complains.
 */
static void
param_eval_recfield(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;
	PlnRecField *recfield = (PlnRecField *) estate->datums[op->d.cparam.paramid - 1];
	PlnRec	   *rec = (PlnRec *) estate->datums[recfield->recparentno];

	if (likely(rec->erh != NULL &&
			   recfield->rectupdescid == rec->erh->er_tupdesc_id &&
			   recfield->finfo.ftypeid == op->d.cparam.paramtype))
	{
		*op->resvalue = expanded_record_get_field(rec->erh,
												  recfield->finfo.fnumber,
												  op->resnull);
		return;
	}
	param_eval_datum(state, op, econtext);
}

/* Run-time step: the value of a scalar variable */
static void
param_eval_var(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;
	PlnVar	   *var = (PlnVar *) estate->datums[op->d.cparam.paramid - 1];

	*op->resvalue = var->value;
	*op->resnull = var->isnull;
}

/* Run-time step: an array variable, read-only so nothing changes it */
static void
param_eval_array_var(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;
	PlnVar	   *var = (PlnVar *) estate->datums[op->d.cparam.paramid - 1];

	*op->resnull = var->isnull;
	*op->resvalue = MakeExpandedObjectReadOnly(var->value, var->isnull, -1);
}

/*
 * For the planner's speculative questions: does the record have a value
 * with this field?  Finding out must not fail.
 */
static bool
recfield_known(PlnExecState *estate, PlnRecField *recfield)
{
	PlnRec	   *rec = (PlnRec *) estate->datums[recfield->recparentno];

	if (rec->erh == NULL)
		return false;
	if (recfield->rectupdescid != rec->erh->er_tupdesc_id)
	{
		if (!expanded_record_lookup_field(rec->erh, recfield->fieldname,
										  &recfield->finfo))
			return false;
		recfield->rectupdescid = rec->erh->er_tupdesc_id;
	}
	return true;
}

/*
 * Fetch hook: the current value of datum paramid - 1.  When the planner
 * asks speculatively (for a custom plan), answer only for datums the
 * current expression uses, so that unassigned records do not raise errors.
 */
static ParamExternData *
param_fetch(ParamListInfo params, int paramid, bool speculative,
			ParamExternData *prm)
{
	PlnExecState *estate = (PlnExecState *) params->paramFetchArg;
	int			dno = paramid - 1;
	bool		read_write = false;
	PlnDatum   *datum;
	int32		typmod;

	/* the one reference choose_rw_param marked read/write */
	if (dno >= estate->ndatums)
	{
		dno -= estate->ndatums;
		read_write = (estate->cur_expr != NULL &&
					  estate->simple_expr_running == estate->cur_expr &&
					  estate->cur_expr->rw_param_dno == dno + 1);
	}
	if (dno < 0 || dno >= estate->ndatums)
		return NULL;
	datum = estate->datums[dno];

	/*
	 * Parameter lists get copied whole (when a cursor is opened, say), so
	 * datums the current expression does not use must read as a harmless
	 * NULL of no type rather than be evaluated: an unassigned record would
	 * fail.  The planner, asking speculatively for a custom plan, gets the
	 * same answer (which it takes as "no value known") for a field of a
	 * record that is NULL or has no such field: the error, if any, is the
	 * execution's to raise.  (The caller does not accept NULL.)
	 */
	if (estate->cur_expr == NULL ||
		!bms_is_member(dno, estate->cur_expr->paramnos) ||
		(speculative && datum->dtype == PLN_DTYPE_RECFIELD &&
		 !recfield_known(estate, (PlnRecField *) datum)))
	{
		prm->value = (Datum) 0;
		prm->isnull = true;
		prm->pflags = 0;
		prm->ptype = InvalidOid;
		return prm;
	}

	pln_exec_datum_value(estate, datum, &prm->ptype, &typmod,
						 &prm->value, &prm->isnull);
	/* the value cannot change while the query runs */
	prm->pflags = PARAM_FLAG_CONST;

	/*
	 * The variable's own expanded array, to be changed in place; only if
	 * it is ours to change (an argument may point into the caller's).
	 */
	if (read_write && ((PlnVar *) datum)->freeval &&
		VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(((PlnVar *) datum)->value)))
		prm->value = ((PlnVar *) datum)->value;

	return prm;
}

/* ----------
 * Expression contexts and the per-transaction evaluation state
 * ----------
 */

/*
 * Give a call its expression context, creating the per-transaction state
 * first if this is the first call of the transaction.
 */
void
pln_create_econtext(PlnExecState *estate)
{
	EcontextStackEntry *entry;

	if (simple_eval_estate == NULL)
	{
		MemoryContext oldcontext;

		oldcontext = MemoryContextSwitchTo(TopTransactionContext);
		simple_eval_estate = CreateExecutorState();
		MemoryContextSwitchTo(oldcontext);
	}
	if (simple_eval_resowner == NULL)
		simple_eval_resowner =
			ResourceOwnerCreate(TopTransactionResourceOwner,
								"PL/nimble simple expressions");

	if (econtext_free != NULL)
	{
		entry = econtext_free;
		econtext_free = entry->next;
	}
	else
	{
		entry = MemoryContextAlloc(TopTransactionContext,
								   sizeof(EcontextStackEntry));
		entry->econtext = CreateExprContext(simple_eval_estate);
	}
	entry->subxid = GetCurrentSubTransactionId();
	entry->next = econtext_stack;
	econtext_stack = entry;

	estate->eval_econtext = entry->econtext;
	estate->econtext_xact = pln_transaction_count;
}

/*
 * After a transaction ended under a running call (COMMIT or ROLLBACK in a
 * procedure), give the call a new expression context in the new one; the
 * old went with the per-transaction executor state.
 */
void
pln_renew_econtext_if_needed(PlnExecState *estate)
{
	if (estate->econtext_xact != pln_transaction_count)
	{
		estate->eval_econtext = NULL;
		pln_create_econtext(estate);
	}
}

/*
 * Memory that lasts until the end of the transaction, for expression
 * states cached per transaction.  Only valid while a call is active.
 */
MemoryContext
pln_transaction_eval_context(void)
{
	Assert(simple_eval_estate != NULL);
	return simple_eval_estate->es_query_cxt;
}

/*
 * An expression context is done with: run its shutdown callbacks, empty
 * its scratch memory and keep it for the next call or block of this
 * transaction.
 */
static void
release_econtext(EcontextStackEntry *entry)
{
	ExprContext *econtext = entry->econtext;

	if (econtext->ecxt_callbacks != NULL ||
		!pln_context_is_clean(econtext->ecxt_per_tuple_memory))
		ReScanExprContext(econtext);
	entry->next = econtext_free;
	econtext_free = entry;
}

/* Release the call's expression context at normal exit */
void
pln_destroy_econtext(PlnExecState *estate)
{
	EcontextStackEntry *next;

	Assert(econtext_stack != NULL);
	Assert(econtext_stack->econtext == estate->eval_econtext);

	next = econtext_stack->next;
	release_econtext(econtext_stack);
	econtext_stack = next;

	estate->eval_econtext = NULL;
}

/*
 * A subtransaction ended: contexts created inside it are released; on
 * abort without their shutdown callbacks, which may refer to resources
 * the abort already freed.
 */
void
pln_subxact_cb(SubXactEvent event, SubTransactionId mySubid,
			   SubTransactionId parentSubid, void *arg)
{
	if (event == SUBXACT_EVENT_COMMIT_SUB || event == SUBXACT_EVENT_ABORT_SUB)
	{
		while (econtext_stack != NULL && econtext_stack->subxid == mySubid)
		{
			EcontextStackEntry *next = econtext_stack->next;

			if (event == SUBXACT_EVENT_COMMIT_SUB)
				release_econtext(econtext_stack);
			else
			{
				FreeExprContext(econtext_stack->econtext, false);
				pfree(econtext_stack);
			}
			econtext_stack = next;
		}
	}
}

/*
 * Transaction end: the per-transaction evaluation state goes.  Plan
 * references are released first so that committing does not report them
 * as leaked.
 */
void
pln_xact_cb(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT ||
		event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		pln_transaction_count++;
		econtext_stack = NULL;
		econtext_free = NULL;
		if (simple_eval_estate)
			FreeExecutorState(simple_eval_estate);
		simple_eval_estate = NULL;
		if (simple_eval_resowner)
			pln_release_all_plan_refs(simple_eval_resowner);
		simple_eval_resowner = NULL;
	}
	else if (event == XACT_EVENT_ABORT ||
			 event == XACT_EVENT_PARALLEL_ABORT)
	{
		pln_transaction_count++;
		/* the memory goes with the transaction */
		econtext_stack = NULL;
		econtext_free = NULL;
		simple_eval_estate = NULL;
		simple_eval_resowner = NULL;
	}
}
