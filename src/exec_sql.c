/*-------------------------------------------------------------------------
 *
 * exec_sql.c
 *	  SQL statements inside functions: plain SQL, SELECT/RETURNING INTO,
 *	  PERFORM, and FOR loops over query results.
 *
 * All of them go through SPI with the call's parameter list, so PL
 * variables are read by the query as Params.  FOUND and the STRICT/INTO
 * rules follow PL/pgSQL.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "mb/stringinfo_mb.h"
#include "tcop/cmdtag.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/syscache.h"
#include "funcapi.h"
#include "nodes/parsenodes.h"

#include "plnimble.h"

static char *format_expr_params(PlnExecState *estate, const PlnExpr *expr);

void
exec_set_found(PlnExecState *estate, bool state)
{
	PlnVar	   *var = (PlnVar *) (estate->datums[estate->func->found_varno]);

	assign_simple_var(estate, var, BoolGetDatum(state), false, false);
}

/* Is this a statement that changes rows (and so is always strict with INTO)? */
static bool
plan_is_row_modifying(SPIPlanPtr plan)
{
	ListCell   *l;

	foreach(l, SPI_plan_get_plan_sources(plan))
	{
		CachedPlanSource *plansource = (CachedPlanSource *) lfirst(l);

		if (plansource->commandTag == CMDTAG_INSERT ||
			plansource->commandTag == CMDTAG_UPDATE ||
			plansource->commandTag == CMDTAG_DELETE ||
			plansource->commandTag == CMDTAG_MERGE)
			return true;
	}
	return false;
}

/*
 * After SPI ran a statement: turn SPI's failures into errors, and set
 * FOUND.  Only the statements that always did set FOUND in PL/pgSQL do
 * (a SELECT or a row-changing statement); a statement the rules rewrote
 * into something else has no meaningful row count and sets it to false.
 */
static void
check_execute_result(PlnExecState *estate, int rc, const char *query)
{
	if (rc == SPI_ERROR_COPY)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot COPY to/from client in %s", PLN_LANG_TITLE)));
	if (rc == SPI_ERROR_TRANSACTION)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("unsupported transaction command in %s", PLN_LANG_TITLE)));

	switch (rc)
	{
		case SPI_OK_SELECT:
		case SPI_OK_INSERT:
		case SPI_OK_UPDATE:
		case SPI_OK_DELETE:
		case SPI_OK_MERGE:
		case SPI_OK_INSERT_RETURNING:
		case SPI_OK_UPDATE_RETURNING:
		case SPI_OK_DELETE_RETURNING:
			exec_set_found(estate, SPI_processed != 0);
			break;
		case SPI_OK_REWRITTEN:
			exec_set_found(estate, false);
			break;
		case SPI_OK_SELINTO:
		case SPI_OK_UTILITY:
			break;
		default:
			elog(ERROR, "SPI_execute_plan_with_paramlist failed executing query \"%s\": %s",
				 query, SPI_result_code_string(rc));
	}
}

/*
 * Store the result of a statement with INTO.  No row makes the target
 * NULL, unless STRICT forbids that.  Of several rows the first is taken,
 * except where exactly one is required: with STRICT and for row-changing
 * statements (an error), or with the too_many_rows check (an error or a
 * warning, as configured).
 */
static void
store_into_target(PlnExecState *estate, PlnStmtExecSql *stmt,
				  bool check_too_many)
{
	SPITupleTable *tuptab = SPI_tuptable;
	uint64		nrows = SPI_processed;
	PlnVariable *target;
	bool		want_one = stmt->strict || stmt->mod_stmt || check_too_many;

	if (tuptab == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("INTO used with a command that cannot return data")));

	target = (PlnVariable *) estate->datums[stmt->target->dno];

	if (nrows == 0 && stmt->strict)
	{
		char	   *params = NULL;

		if (estate->func->print_strict_params)
			params = format_expr_params(estate, stmt->sqlstmt);
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("query returned no rows"),
				 params ? errdetail_internal("parameters: %s", params) : 0));
	}

	if (nrows > 1 && want_one)
	{
		char	   *params = NULL;
		bool		fatal = stmt->strict || stmt->mod_stmt ||
			(pln_extra_errors & PLN_XCHECK_TOOMANYROWS);

		if (estate->func->print_strict_params)
			params = format_expr_params(estate, stmt->sqlstmt);
		ereport(fatal ? ERROR : WARNING,
				(errcode(ERRCODE_TOO_MANY_ROWS),
				 errmsg("query returned more than one row"),
				 params ? errdetail_internal("parameters: %s", params) : 0,
				 errhint("Make sure the query returns a single row, or use LIMIT 1.")));
	}

	exec_move_row(estate, target, nrows > 0 ? tuptab->vals[0] : NULL,
				  tuptab->tupdesc);

	exec_eval_cleanup(estate);
	SPI_freetuptable(SPI_tuptable);
}

/*
 * The variables a CALL's output arguments (INOUT and OUT parameters of
 * the procedure) are written back to, as a row in the order of the
 * procedure's result columns; NULL if it has none.  Each such argument
 * must be a plain variable.
 */
static PlnRow *
make_call_target(PlnExecState *estate, PlnExpr *expr)
{
	CachedPlanSource *plansource;
	Node	   *node;
	CallStmt   *call;
	HeapTuple	proctup;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			numargs;
	PlnRow	   *row;
	MemoryContext oldcontext;
	int			i;

	plansource = (CachedPlanSource *) linitial(SPI_plan_get_plan_sources(expr->plan));
	node = linitial_node(Query, plansource->query_list)->utilityStmt;
	if (node == NULL || !IsA(node, CallStmt))
		elog(ERROR, "query for CALL statement is not a CallStmt");
	call = (CallStmt *) node;
	if (call->outargs == NIL)
		return NULL;

	proctup = SearchSysCache1(PROCOID, ObjectIdGetDatum(call->funcexpr->funcid));
	if (!HeapTupleIsValid(proctup))
		elog(ERROR, "cache lookup failed for function %u", call->funcexpr->funcid);
	numargs = get_func_arg_info(proctup, &argtypes, &argnames, &argmodes);
	ReleaseSysCache(proctup);

	/* the row lives as long as the compiled function */
	oldcontext = MemoryContextSwitchTo(estate->func->fn_cxt);
	row = palloc0(sizeof(PlnRow));
	row->dtype = PLN_DTYPE_ROW;
	row->refname = "(unnamed row)";
	row->lineno = -1;
	row->varnos = palloc(sizeof(int) * Max(numargs, 1));
	row->fieldnames = palloc0(sizeof(char *) * Max(numargs, 1));
	MemoryContextSwitchTo(oldcontext);

	for (i = 0; i < numargs; i++)
	{
		Node	   *arg;

		if (argmodes == NULL ||
			(argmodes[i] != PROARGMODE_INOUT && argmodes[i] != PROARGMODE_OUT))
			continue;

		arg = list_nth(call->outargs, row->nfields);
		if (IsA(arg, Param) && ((Param *) arg)->paramkind == PARAM_EXTERN)
		{
			int			dno = ((Param *) arg)->paramid - 1;

			/* (the grammar cannot tell which arguments are written) */
			pln_check_assignable(estate, dno);
			row->varnos[row->nfields++] = dno;
		}
		else if (argnames && argnames[i] && argnames[i][0])
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("procedure parameter \"%s\" is an output parameter but corresponding argument is not writable",
							argnames[i])));
		else
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("procedure parameter %d is an output parameter but corresponding argument is not writable",
							i + 1)));
	}
	return row;
}

/* After CALL: write the procedure's output values back to the variables */
static void
store_call_results(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	Assert(stmt->call_target_set);
	if (SPI_processed > 1)
		elog(ERROR, "procedure call returned more than one row");
	if (SPI_processed == 1 && stmt->call_target != NULL)
	{
		exec_move_row(estate, (PlnVariable *) stmt->call_target,
					  SPI_tuptable->vals[0], SPI_tuptable->tupdesc);
		exec_eval_cleanup(estate);
	}
	if (SPI_tuptable != NULL)
		SPI_freetuptable(SPI_tuptable);
}

/*
 * Any SQL statement, with an optional INTO clause.
 */
int
exec_stmt_execsql(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	PlnExpr    *expr = stmt->sqlstmt;
	bool		check_too_many;
	long		maxrows;
	int			rc;

	if (expr->plan == NULL)
		exec_prepare_plan(estate, expr, CURSOR_OPT_PARALLEL_OK);

	if (!stmt->mod_stmt_set)
	{
		stmt->mod_stmt = plan_is_row_modifying(expr->plan);
		stmt->mod_stmt_set = true;
	}

	check_too_many = ((pln_extra_errors | pln_extra_warnings) &
					  PLN_XCHECK_TOOMANYROWS) != 0;

	/*
	 * Without INTO every row is wanted (0 = no limit).  INTO needs one
	 * row, or two where a second row must be noticed.
	 */
	if (!stmt->into)
		maxrows = 0;
	else if (stmt->strict || stmt->mod_stmt || check_too_many)
		maxrows = 2;
	else
		maxrows = 1;

	estate->cur_expr = expr;
	if (stmt->is_call)
	{
		SPIExecuteOptions options;

		/*
		 * The variables the output arguments go to, checked before the
		 * procedure runs: an argument that cannot be written to is an
		 * error of this statement, not of the procedure's.
		 */
		if (!stmt->is_do && !stmt->call_target_set)
		{
			stmt->call_target = make_call_target(estate, expr);
			stmt->call_target_set = true;
		}

		/* a procedure called from a procedure may control transactions */
		memset(&options, 0, sizeof(options));
		options.params = estate->paramLI;
		options.read_only = estate->readonly_func;
		options.allow_nonatomic = true;
		options.tcount = maxrows;
		/* the plan reference must survive a COMMIT in the callee */
		options.owner = estate->procedure_resowner;
		rc = SPI_execute_plan_extended(expr->plan, &options);
	}
	else
		rc = SPI_execute_plan_with_paramlist(expr->plan, estate->paramLI,
											 estate->readonly_func, maxrows);

	/* a procedure called here may have ended the transaction */
	if (!estate->atomic)
		pln_renew_econtext_if_needed(estate);
	check_execute_result(estate, rc, expr->query);

	/*
	 * ROW_COUNT is the number of rows the statement processed; CALL and DO
	 * process none of the caller's rows and leave it as it was (SPI counts
	 * the row of output values a CALL returns).
	 */
	if (!stmt->is_call)
		estate->eval_processed = SPI_processed;

	if (stmt->into)
		store_into_target(estate, stmt, check_too_many);
	else if (stmt->is_call && !stmt->is_do)
		store_call_results(estate, stmt);
	else if (SPI_tuptable != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("query has no destination for result data"),
				 (rc == SPI_OK_SELECT) ? errhint("If you want to discard the results of a SELECT, use PERFORM instead.") : 0));

	return PLN_RC_OK;
}

/*
 * PERFORM: run the query and discard its rows; FOUND says whether there
 * were any.
 */
int
exec_stmt_perform(PlnExecState *estate, PlnStmtPerform *stmt)
{
	PlnExpr    *expr = stmt->expr;

	(void) exec_run_select(estate, expr, 0, NULL);
	exec_set_found(estate, (estate->eval_processed != 0));
	exec_eval_cleanup(estate);

	return PLN_RC_OK;
}

/*
 * FOR target IN query LOOP: rows are fetched through a cursor in batches,
 * so a large result is never held in memory at once.
 */
int
exec_stmt_fors(PlnExecState *estate, PlnStmtForS *stmt)
{
	Portal		portal;

	exec_run_select(estate, stmt->query, 0, &portal);

	return exec_for_query_loop(estate, portal,
							   (PlnVariable *) estate->datums[stmt->var->dno],
							   stmt->body, stmt->label, true);
}

/*
 * Run a loop body once per row of an open cursor, the row stored into
 * target first; used by FOR over a query, over EXECUTE and over a cursor.
 * With prefetch, rows are fetched in batches (10, then 50) so that a large
 * result is never held at once; without, one at a time, because the body
 * may use the cursor's position (WHERE CURRENT OF a user's cursor).
 * Closes the portal.  FOUND ends up telling whether the body
 * ran at least once.
 */
int
exec_for_query_loop(PlnExecState *estate, Portal portal,
					PlnVariable *target, List *body, const char *label,
					bool prefetch)
{
	bool		found = false;
	int			rc = PLN_RC_OK;
	uint64		n;
	bool		done = false;

	/* the body must not be able to close the portal under us */
	PinPortal(portal);

	SPI_cursor_fetch(portal, true, prefetch ? 10 : 1);
	n = SPI_processed;
	/* the query may have run any code (see simple_plan_known_valid) */
	pln_forget_plan_checks();

	/*
	 * With no rows at all, the target is still set to NULLs, and FOUND
	 * is false.
	 */
	if (n == 0)
	{
		exec_move_row(estate, target, NULL, SPI_tuptable->tupdesc);
		exec_eval_cleanup(estate);
	}
	else
		found = true;

	while (n > 0 && !done)
	{
		SPITupleTable *tuptab = SPI_tuptable;
		uint64		i;

		/*
		 * Register the batch's row type once, so that a record target
		 * can keep its expanded record from row to row (see
		 * pln_rec_set_tuple).  The tuple descriptor is the batch's own
		 * copy.
		 */
		if (target->dtype == PLN_DTYPE_REC)
			BlessTupleDesc(tuptab->tupdesc);

		for (i = 0; i < n; i++)
		{
			bool		exit_loop;

			exec_move_row(estate, target, tuptab->vals[i], tuptab->tupdesc);
			exec_eval_cleanup(estate);

			rc = exec_stmts(estate, body);
			rc = exec_loop_body_rc(estate, rc, label, &exit_loop);
			if (exit_loop)
			{
				done = true;
				break;
			}
		}

		SPI_freetuptable(tuptab);
		if (done)
			break;

		/* later batches may be larger */
		SPI_cursor_fetch(portal, true, prefetch ? 50 : 1);
		n = SPI_processed;
		pln_forget_plan_checks();
	}

	if (SPI_tuptable && n == 0)
		SPI_freetuptable(SPI_tuptable);

	UnpinPortal(portal);
	SPI_cursor_close(portal);

	exec_set_found(estate, found);

	return rc;
}

/*
 * "name = 'value', ..." for the parameters of a query, for the DETAIL of
 * STRICT errors when print_strict_params is on.
 */
static char *
format_expr_params(PlnExecState *estate, const PlnExpr *expr)
{
	StringInfoData buf;
	const char *sep = "";
	int			dno = -1;

	if (expr->paramnos == NULL)
		return NULL;

	initStringInfo(&buf);
	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
	{
		PlnDatum   *datum = estate->datums[dno];
		const char *name;
		Oid			valtype;
		int32		valtypmod;
		Datum		value;
		bool		isnull;

		/* a field is shown by its field name, anything else by its own */
		if (datum->dtype == PLN_DTYPE_RECFIELD)
			name = ((PlnRecField *) datum)->fieldname;
		else
			name = ((PlnVariable *) datum)->refname;

		pln_exec_datum_value(estate, datum, &valtype, &valtypmod,
							 &value, &isnull);

		appendStringInfo(&buf, "%s%s = ", sep, name);
		if (isnull)
			appendStringInfoString(&buf, "NULL");
		else
			appendStringInfoStringQuoted(&buf,
										 convert_value_to_string(estate, value,
																 valtype),
										 -1);
		sep = ", ";
	}

	return buf.data;
}

/*
 * COMMIT or ROLLBACK [AND [NO] CHAIN], in a procedure or DO block called
 * in a context that allows it (SPI refuses otherwise, with PL/pgSQL's
 * errors, as it does inside an active subtransaction).  A new transaction
 * starts at once; the call's expression context is renewed in it.
 */
int
exec_stmt_commit(PlnExecState *estate, PlnStmtCommit *stmt)
{
	if (stmt->cmd_type == PLN_STMT_COMMIT)
	{
		if (stmt->chain)
			SPI_commit_and_chain();
		else
			SPI_commit();
	}
	else
	{
		if (stmt->chain)
			SPI_rollback_and_chain();
		else
			SPI_rollback();
	}

	pln_renew_econtext_if_needed(estate);
	return PLN_RC_OK;
}
