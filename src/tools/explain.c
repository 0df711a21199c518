/*-------------------------------------------------------------------------
 *
 * explain.c
 *	  plnimble_savepoint_plan(): where each exception block would start
 *	  its savepoint, and why.
 *
 * Shows a function's statement tree, one line per statement.  Every
 * statement is marked pure or says what makes it need a savepoint (a
 * statement kind, a query, a function that is not on the allowlist, a
 * cast, a record).  Every block with an EXCEPTION clause names the first
 * statement of its body, in text order, that needs one: that is where its
 * subtransaction starts when the body runs straight through.  Branches
 * not taken at run time may of course move that point later.
 *
 * The view asks what the executor asks: whether the statement kind may
 * run lazily at all (pln_stmtkinds.h), then for each expression, cast,
 * printed value and stored value of a statement that may, the same
 * functions the executor's gates use (purity.c on planned expressions,
 * pln_cast_is_pure, pln_pure_output_function, pln_case_search_var).  So
 * expressions are planned here if no call has planned them yet.  This
 * module is for people and tests, not for speed.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "plnimble.h"
#include "lazy/pln_guarded_query.h"
#include "exec/pln_fast_conditions.h"

PG_FUNCTION_INFO_V1(plnimble_savepoint_plan);

typedef struct SavepointPlan
{
	PlnExecState *estate;
	char	  **why;			/* per stmtid: why it needs a savepoint */
	char	  **guarded;		/* per stmtid: what of it runs under a read
								 * guard instead (or NULL) */
	int			cur_stmtid;		/* the statement being analysed */
	Tuplestorestate *out;
	TupleDesc	outdesc;
} SavepointPlan;

static void analyse_stmts(SavepointPlan *sp, List *stmts);

/*
 * Plan an expression the way its first execution would, inside a
 * subtransaction of our own so that an expression that cannot be planned
 * yet (it names a temporary table created at run time, say) only yields
 * a message.
 */
typedef struct PlanExprArgs
{
	SavepointPlan *sp;
	PlnExpr    *expr;
} PlanExprArgs;

static void
plan_expr_work(void *arg)
{
	PlanExprArgs *args = (PlanExprArgs *) arg;

	exec_prepare_plan(args->sp->estate, args->expr,
					  pln_expr_cursor_options(args->expr));
}

static char *
plan_expr(SavepointPlan *sp, PlnExpr *expr)
{
	PlanExprArgs args = {sp, expr};
	ErrorData  *edata;
	char	   *failure;

	edata = pln_try_in_subtransaction(plan_expr_work, &args, false);
	if (edata == NULL)
		return NULL;

	/*
	 * The plan may have been kept before planning failed (a generic plan
	 * that raises, say): free it, or every call of the view would leave
	 * one more behind, and forget the error remembered with it.
	 */
	pln_discard_failed_plan(expr);
	if (ERRCODE_TO_CATEGORY(edata->sqlerrcode) == ERRCODE_DATA_EXCEPTION)
		failure = psprintf("planning fails (%s): only the first failure in a transaction needs it",
						   edata->message);
	else
		failure = psprintf("cannot be planned before the function runs (%s)",
						   edata->message);
	FreeErrorData(edata);
	return failure;
}

/*
 * Why evaluating the expression, and converting its value to reqtype if
 * that is valid, would need a savepoint; NULL if it would not.
 */
static char *
expr_impurity(SavepointPlan *sp, PlnExpr *expr, Oid reqtype, int32 reqtypmod)
{
	char	   *why;

	if (expr == NULL)
		return NULL;

	if (expr->plan == NULL && (why = plan_expr(sp, expr)) != NULL)
		return why;

	if (expr->simple_expr == NULL)
		return psprintf("runs a query: %s", expr->query);

	if (expr->purity == PLN_PURITY_GUARDED)
	{
		char	   *parts = pln_describe_guarded((Node *) expr->simple_expr,
												 expr->func);

		if (sp->guarded != NULL && sp->cur_stmtid > 0)
		{
			char	  **note = &sp->guarded[sp->cur_stmtid];

			*note = *note == NULL ? parts : psprintf("%s, %s", *note, parts);
		}
	}
	else if (expr->purity != PLN_PURITY_PURE)
		return psprintf("%s: %s",
						pln_describe_impurity((Node *) expr->simple_expr,
											  expr->func),
						expr->query);

	if (OidIsValid(reqtype) &&
		!pln_cast_is_pure(sp->estate, expr->simple_type, expr->simple_typmod,
						  reqtype, reqtypmod))
		return psprintf("the conversion from %s to %s is not on the allowlist",
						format_type_be(expr->simple_type),
						format_type_with_typemod(reqtype, reqtypmod));
	return NULL;
}

/*
 * The type of the value an expression that could be planned yields, as
 * exec_eval_expr reports it.  False if it has no plan.
 */
static bool
expr_result_type(PlnExpr *expr, Oid *valtype, int32 *valtypmod)
{
	CachedPlanSource *plansource;

	if (expr->plan == NULL)
		return false;
	if (expr->simple_expr != NULL)
	{
		*valtype = expr->simple_type;
		*valtypmod = expr->simple_typmod;
		return true;
	}
	plansource = (CachedPlanSource *) linitial(SPI_plan_get_plan_sources(expr->plan));
	if (plansource->resultDesc == NULL || plansource->resultDesc->natts != 1)
		return false;
	*valtype = TupleDescAttr(plansource->resultDesc, 0)->atttypid;
	*valtypmod = TupleDescAttr(plansource->resultDesc, 0)->atttypmod;
	return true;
}

/* Like expr_impurity, for a value that RAISE or ASSERT prints */
static char *
printed_expr_impurity(SavepointPlan *sp, PlnExpr *expr)
{
	char	   *why = expr_impurity(sp, expr, InvalidOid, -1);

	if (why == NULL &&
		!OidIsValid(pln_pure_output_function(expr->simple_type)))
		why = psprintf("prints a value of type %s, whose output function is not on the allowlist",
					   format_type_be(expr->simple_type));
	return why;
}

/* The first reason of a list of candidates, or NULL */
#define FIRST_REASON(why, candidate) \
	do { if ((why) == NULL) (why) = (candidate); } while (0)

/* Why the block's declarations, run on entry, would need a savepoint */
static char *
block_init_impurity(SavepointPlan *sp, PlnStmtBlock *block)
{
	int			i;

	for (i = 0; i < block->n_initvars; i++)
	{
		PlnDatum   *datum = sp->estate->datums[block->initvarnos[i]];
		PlnVar	   *var;
		char	   *why;

		if (datum->dtype != PLN_DTYPE_VAR)
			return psprintf("declares record variable \"%s\"",
							((PlnVariable *) datum)->refname);
		var = (PlnVar *) datum;
		if (var->default_val != NULL)
		{
			why = expr_impurity(sp, var->default_val,
								var->datatype->typoid,
								var->datatype->atttypmod);
			if (why != NULL)
				return psprintf("default of \"%s\" %s", var->refname, why);
		}
		else if (var->datatype->typtype == TYPTYPE_DOMAIN)
			return psprintf("declares \"%s\" of domain type %s",
							var->refname,
							format_type_be(var->datatype->typoid));
	}
	return NULL;
}

/*
 * Why the work of a statement of a kind that may run lazily would need a
 * savepoint, or NULL: what it evaluates, converts and stores, asking
 * about each what the executor asks.
 */
static char *
lazy_stmt_impurity(SavepointPlan *sp, PlnStmt *stmt)
{
	char	   *why = NULL;
	ListCell   *lc;

	switch (stmt->cmd_type)
	{
		case PLN_STMT_BLOCK:
			return block_init_impurity(sp, (PlnStmtBlock *) stmt);

		case PLN_STMT_ASSIGN:
			{
				PlnStmtAssign *assign = (PlnStmtAssign *) stmt;
				PlnDatum   *target = sp->estate->datums[assign->varno];
				PlnVar	   *var = (PlnVar *) target;

				if (target->dtype != PLN_DTYPE_VAR)
					return pstrdup("assigns to a record, a row or a field");
				return expr_impurity(sp, assign->expr,
									 var->datatype->typoid,
									 var->datatype->atttypmod);
			}

		case PLN_STMT_IF:
			{
				PlnStmtIf  *ifs = (PlnStmtIf *) stmt;

				why = expr_impurity(sp, ifs->cond, BOOLOID, -1);
				foreach(lc, ifs->elsif_list)
					FIRST_REASON(why, expr_impurity(sp, ((PlnIfElsif *) lfirst(lc))->cond,
													BOOLOID, -1));
				return why;
			}

		case PLN_STMT_CASE:
			{
				PlnStmtCase *cases = (PlnStmtCase *) stmt;
				Oid			valtype;
				int32		valtypmod;

				why = expr_impurity(sp, cases->t_expr, InvalidOid, -1);

				/*
				 * The WHEN tests compare with the hidden variable, which
				 * holds the search value with the value's type
				 */
				if (cases->t_expr != NULL &&
					expr_result_type(cases->t_expr, &valtype, &valtypmod))
					(void) pln_case_search_var(sp->estate, cases,
											   valtype, valtypmod);
				foreach(lc, cases->case_when_list)
					FIRST_REASON(why, expr_impurity(sp, ((PlnCaseWhen *) lfirst(lc))->expr,
													BOOLOID, -1));
				return why;
			}

		case PLN_STMT_LOOP:
			return NULL;

		case PLN_STMT_WHILE:
			return expr_impurity(sp, ((PlnStmtWhile *) stmt)->cond, BOOLOID, -1);

		case PLN_STMT_FORI:
			{
				PlnStmtForI *fori = (PlnStmtForI *) stmt;
				Oid			vartype = fori->var->datatype->typoid;
				int32		vartypmod = fori->var->datatype->atttypmod;

				why = expr_impurity(sp, fori->lower, vartype, vartypmod);
				FIRST_REASON(why, expr_impurity(sp, fori->upper, vartype, vartypmod));
				FIRST_REASON(why, expr_impurity(sp, fori->step, vartype, vartypmod));
				return why;
			}

		case PLN_STMT_EXIT:
			return expr_impurity(sp, ((PlnStmtExit *) stmt)->cond, BOOLOID, -1);

		case PLN_STMT_RETURN:
			{
				PlnStmtReturn *ret = (PlnStmtReturn *) stmt;

				if (ret->retvarno >= 0 &&
					sp->estate->datums[ret->retvarno]->dtype != PLN_DTYPE_VAR)
					return pstrdup("returns a record");
				/* the result is converted after the blocks are left */
				return expr_impurity(sp, ret->expr, InvalidOid, -1);
			}

		case PLN_STMT_RAISE:
			{
				PlnStmtRaise *raise = (PlnStmtRaise *) stmt;

				foreach(lc, raise->params)
					FIRST_REASON(why, printed_expr_impurity(sp, (PlnExpr *) lfirst(lc)));
				foreach(lc, raise->options)
					FIRST_REASON(why, printed_expr_impurity(sp, ((PlnRaiseOption *) lfirst(lc))->expr));
				return why;
			}

		case PLN_STMT_ASSERT:
			{
				PlnStmtAssert *assert = (PlnStmtAssert *) stmt;

				why = expr_impurity(sp, assert->cond, BOOLOID, -1);
				if (assert->message != NULL)
					FIRST_REASON(why, printed_expr_impurity(sp, assert->message));
				return why;
			}

		case PLN_STMT_FORS:
			return pstrdup("runs SQL");
		case PLN_STMT_EXECSQL:
			{
				PlnStmtExecSql *execsql = (PlnStmtExecSql *) stmt;

				/* SELECT exprs INTO variables, once run (exec_sql.c) */
				if (execsql->simple_into)
				{
					PlnRow	   *row = (PlnRow *) execsql->target;
					int			i;

					why = NULL;
					for (i = 0; i < execsql->simple_ncols; i++)
					{
						PlnVar	   *var = (PlnVar *) sp->estate->datums[row->varnos[i]];

						FIRST_REASON(why, expr_impurity(sp, execsql->simple_cols[i],
														var->datatype->typoid,
														var->datatype->atttypmod));
					}
					/* several columns run as SQL unless all are pure */
					if (why != NULL && execsql->simple_ncols > 1)
						return pstrdup("runs SQL");
					return why;
				}
				/* SELECT ... INTO under a read guard (guarded_query.c) */
				if (execsql->guarded_query == PLN_GUARDED_QUERY_CANDIDATE)
				{
					const char *refusal = pln_guarded_query_refusal(sp->estate,
																	execsql);

					if (refusal != NULL)
						return psprintf("runs SQL (not under a read guard: %s)",
										refusal);
					if (sp->guarded != NULL && sp->cur_stmtid > 0)
						sp->guarded[sp->cur_stmtid] =
							psprintf("query %s", execsql->sqlstmt->query);
					return NULL;
				}
				return pstrdup("runs SQL");
			}
		case PLN_STMT_DYNEXECUTE:
			{
				PlnStmtDynExecute *dynexec = (PlnStmtDynExecute *) stmt;

				/* EXECUTE ... INTO under a read guard (guarded_query.c) */
				if (pln_guarded_dynamic_shape(sp->estate, dynexec) !=
					PLN_GUARDED_QUERY_CANDIDATE)
					return pstrdup("runs SQL");
				why = expr_impurity(sp, dynexec->query, InvalidOid, -1);
				if (why != NULL)
					return why;
				if (sp->guarded != NULL && sp->cur_stmtid > 0)
					sp->guarded[sp->cur_stmtid] =
						pstrdup("the command, if it is a reviewed SELECT when it runs (else the subtransaction then)");
				return NULL;
			}
		case PLN_STMT_PERFORM:
		case PLN_STMT_DYNFORS:
		case PLN_STMT_OPEN:
		case PLN_STMT_FETCH:
		case PLN_STMT_CLOSE:
		case PLN_STMT_FORC:
		case PLN_STMT_RETURN_QUERY:
		case PLN_STMT_COMMIT:
		case PLN_STMT_ROLLBACK:
			return pstrdup("runs SQL");

		case PLN_STMT_GETDIAG:
		case PLN_STMT_RETURN_NEXT:
		case PLN_STMT_FOREACH_A:
			break;
	}
	return NULL;
}

/*
 * Why the statement's own work (not that of the statements nested in it)
 * would need a savepoint, or NULL.  As in exec_stmt, the kind decides
 * first: one that may not run lazily starts the savepoint before it runs.
 */
static char *
stmt_own_impurity(SavepointPlan *sp, PlnStmt *stmt)
{
	char	   *why = lazy_stmt_impurity(sp, stmt);

	if (why == NULL && !pln_stmt_may_run_lazily(stmt))
		why = pstrdup("statement kind not reviewed for running without one");
	return why;
}

/* Work out why[] for a statement (a walk of analyse_walker) */
static PlnWalkResult
analyse_stmt(PlnStmt *stmt, int depth, void *arg)
{
	SavepointPlan *sp = (SavepointPlan *) arg;

	sp->cur_stmtid = stmt->stmtid;
	sp->why[stmt->stmtid] = stmt_own_impurity(sp, stmt);
	sp->cur_stmtid = 0;
	return PLN_WALK_CONTINUE;
}

static const PlnStmtWalker analyse_walker = {.stmt = analyse_stmt};

/* Work out why[] for every statement of the list, depth first */
static void
analyse_stmts(SavepointPlan *sp, List *stmts)
{
	(void) pln_walk_stmts(stmts, &analyse_walker, sp);
}

/* The search of first_impure_stmt */
typedef struct FirstImpure
{
	SavepointPlan *sp;
	PlnStmt    *found;
} FirstImpure;

static PlnWalkResult
is_impure_stmt(PlnStmt *stmt, void *arg)
{
	FirstImpure *fi = (FirstImpure *) arg;

	if (fi->sp->why[stmt->stmtid] == NULL)
		return PLN_WALK_CONTINUE;
	fi->found = stmt;
	return PLN_WALK_STOP;
}

/*
 * The first statement, in text order, in the region of the list that
 * needs a savepoint: its own or a nested statement's.
 */
static PlnStmt *
first_impure_stmt(SavepointPlan *sp, List *stmts)
{
	FirstImpure fi = {sp, NULL};

	(void) pln_stmts_any(stmts, is_impure_stmt, &fi);
	return fi.found;
}

/* The first statement of the list, in text order, with a guarded part */
static PlnStmt *
first_guarded_stmt(SavepointPlan *sp, List *stmts)
{
	ListCell   *lc;

	check_stack_depth();

	if (sp->guarded == NULL)
		return NULL;
	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		ListCell   *b;

		if (sp->guarded[stmt->stmtid] != NULL)
			return stmt;
		foreach(b, pln_stmt_nested_bodies(stmt))
		{
			PlnStmt    *found = first_guarded_stmt(sp, (List *) lfirst(b));

			if (found != NULL)
				return found;
		}
	}
	return NULL;
}

static void
emit_line(SavepointPlan *sp, int depth, const char *text)
{
	Datum		value;
	bool		isnull = false;
	char	   *line = psprintf("%*s%s", depth * 2, "", text);

	value = CStringGetTextDatum(line);
	tuplestore_putvalues(sp->out, sp->outdesc, &value, &isnull);
}

/* The line of a block with handlers, before its body */
static void
show_handler_block(SavepointPlan *sp, PlnStmtBlock *block, int depth)
{
	PlnStmt    *first = first_impure_stmt(sp, block->body);

	if (first == NULL && first_guarded_stmt(sp, block->body) != NULL)
		emit_line(sp, depth,
				  psprintf("line %d: %s with EXCEPTION: never needs a savepoint (read guard at line %d)",
						   block->lineno, pln_stmt_typename((PlnStmt *) block),
						   first_guarded_stmt(sp, block->body)->lineno));
	else if (first == NULL)
		emit_line(sp, depth,
				  psprintf("line %d: %s with EXCEPTION: never needs a savepoint",
						   block->lineno, pln_stmt_typename((PlnStmt *) block)));
	else
		emit_line(sp, depth,
				  psprintf("line %d: %s with EXCEPTION: savepoint at line %d (%s: %s)",
						   block->lineno, pln_stmt_typename((PlnStmt *) block),
						   first->lineno, pln_stmt_typename(first),
						   sp->why[first->stmtid]));
	if (sp->why[block->stmtid] != NULL)
		emit_line(sp, depth + 1,
				  psprintf("declarations (run before the block is protected): %s",
						   sp->why[block->stmtid]));
	emit_line(sp, depth + 1, pln_write_path_block_status(sp->estate, block,
														 first));
}

/* The plan view's walk: one line a statement, nested ones indented */
static PlnWalkResult
show_stmt(PlnStmt *stmt, int depth, void *arg)
{
	SavepointPlan *sp = (SavepointPlan *) arg;

	if (stmt->cmd_type == PLN_STMT_BLOCK &&
		((PlnStmtBlock *) stmt)->exceptions != NULL)
		show_handler_block(sp, (PlnStmtBlock *) stmt, depth);
	else if (sp->why[stmt->stmtid] == NULL && sp->guarded != NULL &&
			 sp->guarded[stmt->stmtid] != NULL)
		emit_line(sp, depth, psprintf("line %d: %s: under a read guard: %s",
									  stmt->lineno,
									  pln_stmt_typename(stmt),
									  sp->guarded[stmt->stmtid]));
	else if (sp->why[stmt->stmtid] == NULL)
		emit_line(sp, depth, psprintf("line %d: %s: pure", stmt->lineno,
									  pln_stmt_typename(stmt)));
	else
		emit_line(sp, depth, psprintf("line %d: %s: needs a savepoint: %s",
									  stmt->lineno,
									  pln_stmt_typename(stmt),
									  sp->why[stmt->stmtid]));
	return PLN_WALK_CONTINUE;
}

/* A handler has a line of its own before its statements */
static PlnWalkResult
show_body(PlnStmt *stmt, const PlnNestedBody *body, int depth, void *arg)
{
	if (body->role == PLN_BODY_HANDLER)
		emit_line((SavepointPlan *) arg, depth,
				  psprintf("line %d: handler (runs after the block's savepoint is gone)",
						   ((PlnExceptionAction *) body->part)->lineno));
	return PLN_WALK_CONTINUE;
}

static const PlnStmtWalker show_walker = {
	.stmt = show_stmt,
	.body = show_body,
};

/*
 * The fast entry's line, for a function of its shape only: whether its
 * calls would take it now, by the table its gate reads
 * (exec/pln_fast_conditions.h).  The expressions have been planned.
 */
static void
show_fast_entry(SavepointPlan *sp, PlnFunction *func)
{
	const char *why;

	if (pln_fast_shape_why_not(func) != NULL)
		return;
	why = pln_fast_call_why_not(func);
	if (why != NULL)
		emit_line(sp, 0, psprintf("fast entry: no: %s", why));
	else
		emit_line(sp, 0, "fast entry: yes, from the second call in a transaction on (the checks of each call permitting)");
}

/*
 * For plnimble_check_function: why each statement of the function would
 * need a savepoint (by stmtid, NULL: it would not), worked out as the
 * plan view does.  The expressions are planned as a first call would.
 */
char	  **
pln_savepoint_reasons(PlnExecState *estate, PlnFunction *func)
{
	SavepointPlan sp;

	memset(&sp, 0, sizeof(sp));
	sp.estate = estate;
	sp.why = palloc0(sizeof(char *) * (func->nstatements + 1));
	analyse_stmts(&sp, list_make1(func->action));
	return sp.why;
}

/*
 * The statement of a block's body at which its savepoint starts when the
 * body runs straight through, given pln_savepoint_reasons; NULL if none.
 */
PlnStmt *
pln_savepoint_start(PlnExecState *estate, char **why, PlnStmtBlock *block)
{
	SavepointPlan sp;

	memset(&sp, 0, sizeof(sp));
	sp.estate = estate;
	sp.why = why;
	return first_impure_stmt(&sp, block->body);
}

/*
 * plnimble_savepoint_plan(regprocedure) returns setof text
 */
Datum
plnimble_savepoint_plan(PG_FUNCTION_ARGS)
{
	Oid			funcoid = PG_GETARG_OID(0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PlnFunction *func;
	PlnExecState *save_cur_estate;
	PlnExecState estate;
	SavepointPlan sp;
	List	   *top;
	int			rc;

	pln_tool_may_analyse(funcoid, "plnimble_savepoint_plan");

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));

	func = pln_compile_for_validation(funcoid, get_func_rettype(funcoid));

	/* keep the function alive, and findable by the parser hooks */
	func->use_count++;
	save_cur_estate = func->cur_estate;
	PG_TRY();
	{
		pln_init_analysis_state(&estate, func);

		sp.estate = &estate;
		sp.why = palloc0(sizeof(char *) * (func->nstatements + 1));
		sp.guarded = palloc0(sizeof(char *) * (func->nstatements + 1));
		sp.out = rsinfo->setResult;
		sp.outdesc = rsinfo->setDesc;

		top = list_make1(func->action);
		analyse_stmts(&sp, top);
		show_fast_entry(&sp, func);
		(void) pln_walk_stmts(top, &show_walker, &sp);

		pln_destroy_econtext(&estate);
	}
	PG_FINALLY();
	{
		func->cur_estate = save_cur_estate;
		func->use_count--;
	}
	PG_END_TRY();

	if ((rc = SPI_finish()) != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));

	return (Datum) 0;
}
