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
#include "storage/proc.h"
#include "tcop/cmdtag.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/syscache.h"
#include "funcapi.h"
#include "nodes/parsenodes.h"

#include "plnimble.h"
#include "lazy/pln_guarded_query.h"

static char *format_expr_params(PlnExecState *estate, const PlnExpr *expr);
static int	select_into_width(PlnExecState *estate, PlnStmtExecSql *stmt);
static void prepare_select_into(PlnExecState *estate, PlnStmtExecSql *stmt,
								int ncols);
static bool exec_select_into_simply(PlnExecState *estate,
									PlnStmtExecSql *stmt);
static bool exec_select_into_guarded(PlnExecState *estate,
									 PlnStmtExecSql *stmt);

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

	if (pln_spi_ran_query(rc))
	{
		exec_set_found(estate, SPI_processed != 0);
		return;
	}
	switch (rc)
	{
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
 * The row-count rules of a statement with INTO, for nrows rows: no row is
 * an error with STRICT; several are an error where exactly one is
 * required (with STRICT and for row-changing statements), or with the
 * too_many_rows check an error or a warning, as configured.  A guarded
 * query (guarded_query.c) applies them before it leaves its guard, as
 * PL/pgSQL raises them inside the block's subtransaction.
 */
void
exec_check_into_rows(PlnExecState *estate, PlnStmtExecSql *stmt,
					 bool check_too_many, uint64 nrows)
{
	bool		want_one = stmt->strict || stmt->mod_stmt || check_too_many;

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
}

/*
 * Store the first of a statement's rows (NULL if none), of the row type
 * tupdesc, into its INTO target; no row makes the target NULL.
 */
static void
store_first_row(PlnExecState *estate, PlnStmtExecSql *stmt, HeapTuple first,
				TupleDesc tupdesc)
{
	exec_move_row(estate, (PlnVariable *) estate->datums[stmt->target->dno],
				  first, tupdesc);
	exec_eval_cleanup(estate);
}

/*
 * Store the result of a statement with INTO: nrows rows, of which first is
 * the first (NULL if none), of the row type tupdesc, after the row-count
 * rules (exec_check_into_rows).
 */
static void
store_row_into_target(PlnExecState *estate, PlnStmtExecSql *stmt,
					  bool check_too_many, uint64 nrows, HeapTuple first,
					  TupleDesc tupdesc)
{
	exec_check_into_rows(estate, stmt, check_too_many, nrows);
	store_first_row(estate, stmt, first, tupdesc);
}

/* ... the result SPI left */
static void
store_into_target(PlnExecState *estate, PlnStmtExecSql *stmt,
				  bool check_too_many)
{
	SPITupleTable *tuptab = SPI_tuptable;

	if (tuptab == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("INTO used with a command that cannot return data")));
	store_row_into_target(estate, stmt, check_too_many, SPI_processed,
						  SPI_processed > 0 ? tuptab->vals[0] : NULL,
						  tuptab->tupdesc);
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

/* May the statement take the write path (write_path.c)? */
static inline bool
on_write_path(PlnStmtExecSql *stmt)
{
	return stmt->write_path != PLN_WRITE_PATH_NONE &&
		stmt->write_path != PLN_WRITE_PATH_NEVER;
}

/*
 * How many rows to ask for: without INTO every row is wanted (0 = no
 * limit).  INTO needs one row, or two where a second row must be noticed
 * (an INSERT that has not been prepared in its plain form yet counts as
 * modifying rows, as it does once it is).
 */
static long
into_maxrows(PlnStmtExecSql *stmt, bool check_too_many)
{
	if (!stmt->into)
		return 0;
	if (stmt->strict || stmt->mod_stmt || !stmt->mod_stmt_set ||
		check_too_many)
		return 2;
	return 1;
}

/*
 * Run an INSERT that may take the write path: through it
 * (pln_write_path_run) when its conditions hold now, else as usual.
 * *returned: the row RETURNING returns when the write path inserted below
 * the executor, else NULL.  The statement started as lazy statements do;
 * when the write path does not take it, it has passed the gate.  Returns
 * false, with nothing else done, when the statement's duplicate went to
 * the block's handler without an error (as if the error had been raised,
 * the statement sets nothing); else true, with SPI's result code in *rc.
 */
static bool
exec_insert_on_write_path(PlnExecState *estate, PlnStmtExecSql *stmt,
						  bool check_too_many, HeapTuple *returned,
						  TupleDesc *returned_desc, int *rc)
{
	long		maxrows = into_maxrows(stmt, check_too_many);

	switch (pln_write_path_run(estate, stmt, maxrows, rc, returned,
							   returned_desc))
	{
		case PLN_WRITE_INSERTED:
			return true;
		case PLN_WRITE_HANDED:
			return false;
		case PLN_WRITE_NOT_TAKEN:
			break;
	}
	if (stmt->sqlstmt->plan == NULL)
	{
		exec_prepare_plan(estate, stmt->sqlstmt, CURSOR_OPT_PARALLEL_OK);
		stmt->mod_stmt = plan_is_row_modifying(stmt->sqlstmt->plan);
		stmt->mod_stmt_set = true;
		maxrows = into_maxrows(stmt, check_too_many);
	}
	*rc = SPI_execute_plan_with_paramlist(stmt->sqlstmt->plan, estate->paramLI,
										  estate->readonly_func, maxrows);
	pln_forget_plan_checks();
	return true;
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
	HeapTuple	returned = NULL;	/* the write path's RETURNING row */
	TupleDesc	returned_desc = NULL;

	/*
	 * A SELECT ... INTO whose shape may run under a read guard started
	 * lazily (pln_stmt_may_run_lazily): under the guard, if it may now;
	 * else it passes the gate it skipped, and runs as any statement.
	 */
	if (stmt->guarded_query == PLN_GUARDED_QUERY_CANDIDATE)
	{
		if (pln_in_lazy_region(estate) && exec_select_into_guarded(estate, stmt))
			return PLN_RC_OK;
		pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
	}

	/*
	 * (An INSERT that may take the write path is prepared by it, and in
	 * its plain form only when it does not take it: preparing reads the
	 * catalogs, which would start the block's subtransaction.)
	 */
	if (expr->plan == NULL && !stmt->simple_into && !on_write_path(stmt))
	{
		int			ncols = select_into_width(estate, stmt);

		/*
		 * SELECT exprs INTO variables may run as assignments.  With one
		 * variable the first run may have started lazily
		 * (pln_stmt_may_run_lazily): it is prepared as an expression is
		 * first planned, and passes the gate here when it turns out not
		 * to be one.
		 */
		if (ncols != 1)
			pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
		if (ncols > 0)
			prepare_select_into(estate, stmt, ncols);
		else
			exec_prepare_plan(estate, expr, CURSOR_OPT_PARALLEL_OK);
		if (!stmt->simple_into)
			pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
	}
	if (stmt->simple_into)
	{
		if (exec_select_into_simply(estate, stmt))
			return PLN_RC_OK;
		/* the SQL form after all, and the statement started lazily */
		pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
		if (expr->plan == NULL)
			exec_prepare_plan(estate, expr, CURSOR_OPT_PARALLEL_OK);
	}

	if (!stmt->mod_stmt_set && expr->plan != NULL)
	{
		stmt->mod_stmt = plan_is_row_modifying(expr->plan);
		stmt->mod_stmt_set = true;
	}
	if (stmt->guarded_query == PLN_GUARDED_QUERY_UNKNOWN &&
		expr->plan != NULL && stmt->mod_stmt_set)
		stmt->guarded_query = pln_guarded_query_shape(estate, stmt);

	check_too_many = ((pln_extra_errors | pln_extra_warnings) &
					  PLN_XCHECK_TOOMANYROWS) != 0;
	maxrows = into_maxrows(stmt, check_too_many);

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
	else if (on_write_path(stmt))
	{
		/* (the block runs its handler: savepoint.c) */
		if (!exec_insert_on_write_path(estate, stmt, check_too_many,
									   &returned, &returned_desc, &rc))
			return PLN_RC_HANDED_TO_HANDLER;
	}
	else
		rc = SPI_execute_plan_with_paramlist(expr->plan, estate->paramLI,
											 estate->readonly_func, maxrows);

	/* a procedure called here may have ended the transaction */
	if (!estate->atomic)
		pln_renew_econtext_if_needed(estate);
	check_execute_result(estate, rc, expr->query);

	/*
	 * A statement that may run under a read guard: the gate it passed
	 * above did not forget plan checks after it ran, as exec_stmt does for
	 * other statements; and the generic plan the plan cache may have made
	 * is checked for the next run (here, past the gate, catalogs may be
	 * read).
	 */
	if (stmt->guarded_query == PLN_GUARDED_QUERY_CANDIDATE)
	{
		pln_forget_plan_checks();
		pln_guarded_query_note_plan(estate, stmt);
	}

	/*
	 * ROW_COUNT is the number of rows the statement processed; CALL and DO
	 * process none of the caller's rows and leave it as it was (SPI counts
	 * the row of output values a CALL returns).
	 */
	if (!stmt->is_call)
		estate->eval_processed = SPI_processed;

	if (stmt->into && returned != NULL)
		store_row_into_target(estate, stmt, check_too_many, 1, returned,
							  returned_desc);
	else if (stmt->into)
		store_into_target(estate, stmt, check_too_many);
	else if (stmt->is_call && !stmt->is_do)
		store_call_results(estate, stmt);
	else if (SPI_tuptable != NULL || returned != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("query has no destination for result data"),
				 (rc == SPI_OK_SELECT) ? errhint("If you want to discard the results of a SELECT, use PERFORM instead.") : 0));

	return PLN_RC_OK;
}

/*
 * The number of variables of "SELECT ... INTO [STRICT] variables" when
 * the statement is one whose columns simple expressions could compute
 * (the plan decides the rest, see exec_simple_check_plan), else 0.  Only
 * an INTO list of plain variables qualifies: records, rows and fields
 * keep the SQL form.  (The statement OPEN makes up to set a cursor's
 * arguments has an expression list for its query, and keeps it too.)
 */
static int
select_into_width(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	PlnRow	   *row;
	int			i;

	if (!stmt->into || stmt->is_call || stmt->target == NULL ||
		stmt->target->dtype != PLN_DTYPE_ROW ||
		stmt->sqlstmt->parseMode != RAW_PARSE_DEFAULT)
		return 0;
	row = (PlnRow *) estate->datums[stmt->target->dno];
	if (row->rowtupdesc != NULL || row->nfields < 1 ||
		row->nfields > PG_INT16_MAX)
		return 0;
	for (i = 0; i < row->nfields; i++)
	{
		if (estate->datums[row->varnos[i]]->dtype != PLN_DTYPE_VAR)
			return 0;
	}
	return row->nfields;
}

/*
 * First run of a SELECT ... INTO ncols variables: prepare it, with an
 * expression per column whose plan is checked for being simple as it is
 * prepared.  With one column that is the statement's own query; with
 * more, each column gets an expression of its own with the statement's
 * text (so that SPI names the statement in the CONTEXT lines of errors
 * raised while planning it), and the statement's query is prepared too,
 * for the SQL form.  If all turn out simple, the statement is marked to
 * run as assignments (exec_select_into_simply).  A planning error of the
 * one-column form is kept with the expression and the statement stays
 * marked; with more columns it runs as SQL from then on.
 */
static void
prepare_select_into(PlnExecState *estate, PlnStmtExecSql *stmt, int ncols)
{
	PlnExpr    *expr = stmt->sqlstmt;
	PlnFunction *func = expr->func;
	PlnExpr   **cols;
	int			i;

	if (ncols == 1)
	{
		expr->select_column = 1;
		expr->select_ncols = 1;
		stmt->simple_cols = &stmt->sqlstmt;
		stmt->simple_ncols = 1;
		stmt->simple_into = true;
		/* (as an expression: its cursor options are the statement's) */
		Assert(pln_expr_cursor_options(expr) == CURSOR_OPT_PARALLEL_OK);
		exec_prepare_plan_first(estate, expr);
		if (expr->simple_expr == NULL)
			stmt->simple_into = false;
		return;
	}

	exec_prepare_plan(estate, expr, CURSOR_OPT_PARALLEL_OK);
	cols = MemoryContextAllocZero(func->fn_cxt, sizeof(PlnExpr *) * ncols);
	for (i = 0; i < ncols; i++)
	{
		PlnExpr    *col = MemoryContextAllocZero(func->fn_cxt,
												 sizeof(PlnExpr));

		col->query = expr->query;
		col->parseMode = expr->parseMode;
		col->location = expr->location;
		col->ns = expr->ns;
		col->func = func;
		col->target_param = -1;
		col->select_column = i + 1;
		col->select_ncols = ncols;
		cols[i] = col;
		exec_prepare_plan(estate, col, CURSOR_OPT_PARALLEL_OK);
		if (col->simple_expr == NULL)
			return;
	}
	stmt->simple_cols = cols;
	stmt->simple_ncols = ncols;
	stmt->simple_into = true;
}

/* what select_into_error_callback needs */
typedef struct SelectIntoErrorArg
{
	PlnExecState *estate;
	PlnExpr    *expr;
} SelectIntoErrorArg;

/*
 * The CONTEXT line SPI adds to an error of the SQL form, for an error
 * raised while the expression runs on the simple path.  (Planning goes
 * through SPI, which adds it itself; an evaluation made to look like
 * SPI's, after a failure or in a recursion level, gets it from
 * spi_expr_error_callback.)  A syntax error position
 * becomes a position in the statement, as SPI makes it.
 */
static void
select_into_error_callback(void *arg)
{
	SelectIntoErrorArg *cb = (SelectIntoErrorArg *) arg;
	int			position;

	if (cb->estate->simple_expr_running != cb->expr ||
		cb->expr->simple_failed_lxid == PLN_MY_LXID ||
		pln_error_context_unseen(cb->estate, geterrcode()))
		return;
	position = geterrposition();
	if (position > 0)
	{
		errposition(0);
		internalerrposition(position);
		internalerrquery(cb->expr->query);
	}
	else
		errcontext("SQL statement \"%s\"", cb->expr->query);
}

/*
 * Run "SELECT e1, ... INTO [STRICT] v1, ...", whose query has no FROM and
 * nothing else that makes it more than one evaluation, as assignments
 * (the statement may then also run in a handler block without a
 * savepoint, see pln_stmt_may_run_lazily).  What the SQL form shows stays
 * the same: the query yields exactly one row, so STRICT is satisfied,
 * FOUND becomes true and ROW_COUNT 1 once the query has run; the columns
 * are computed in order, all before any is stored, and stored in order
 * with the conversion rules of INTO, which are those of an assignment;
 * errors raised by the query carry its "SQL statement" line.
 *
 * With one column, a plan that is not simple (any more) is run as a
 * query through SPI, as any expression would be.  With more, every
 * column must be pure and simple, so that giving up half way (a plan
 * that stopped being simple) leaves nothing done twice: then false is
 * returned and the caller runs the SQL form.
 */
static bool
exec_select_into_simply(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	PlnRow	   *row = (PlnRow *) estate->datums[stmt->target->dno];
	int			ncols = stmt->simple_ncols;
	ErrorContextCallback errcallback;
	SelectIntoErrorArg cbarg;
	Datum	   *values;
	bool	   *nulls;
	Oid		   *types;
	int32	   *typmods;
	Datum		value1;
	bool		null1;
	Oid			type1;
	int32		typmod1;
	int			i;

	if (ncols == 1)
	{
		/*
		 * PL/pgSQL runs the SQL form, whose custom plans (the first five
		 * runs) may leave out calls the assignment would make: so does
		 * plnimble then.  (Several columns are all pure, see below.)
		 */
		if (pln_custom_plan_would_show(stmt->sqlstmt))
			return false;
		values = &value1;
		nulls = &null1;
		types = &type1;
		typmods = &typmod1;
	}
	else
	{
		MemoryContext scratch = estate->eval_econtext->ecxt_per_tuple_memory;

		for (i = 0; i < ncols; i++)
		{
			PlnExpr    *col = stmt->simple_cols[i];

			if (col->simple_expr == NULL || col->plan_error != NULL ||
				col->purity != PLN_PURITY_PURE)
				return false;
		}
		values = MemoryContextAlloc(scratch, sizeof(Datum) * ncols);
		nulls = MemoryContextAlloc(scratch, sizeof(bool) * ncols);
		types = MemoryContextAlloc(scratch, sizeof(Oid) * ncols);
		typmods = MemoryContextAlloc(scratch, sizeof(int32) * ncols);
	}

	cbarg.estate = estate;
	cbarg.expr = NULL;
	errcallback.callback = select_into_error_callback;
	errcallback.arg = &cbarg;
	errcallback.previous = error_context_stack;
	for (i = 0; i < ncols; i++)
	{
		PlnExpr    *col = stmt->simple_cols[i];
		bool		done = false;

		if (likely(col->simple_expr != NULL && col->plan_error == NULL))
		{
			cbarg.expr = col;
			error_context_stack = &errcallback;
			done = exec_eval_simple_expr(estate, col, &values[i], &nulls[i],
										 &types[i], &typmods[i]);
			error_context_stack = errcallback.previous;
		}
		if (!done && ncols > 1)
			return false;		/* (only pure work was done) */
		if (!done)
			values[i] = exec_eval_expr_general(estate, col, &nulls[i],
											   &types[i], &typmods[i]);

		/*
		 * Storing a column may free a variable's value that a later column
		 * still holds (SELECT y, x INTO x, y): the row's values are
		 * copies, as in the SQL form.
		 */
		if (ncols > 1 && !nulls[i] && !col->simple_typbyval)
		{
			MemoryContext oldcontext;

			oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
			values[i] = datumCopy(values[i], false, col->simple_typlen);
			MemoryContextSwitchTo(oldcontext);
		}
	}

	exec_set_found(estate, true);
	estate->eval_processed = 1;
	for (i = 0; i < ncols; i++)
		exec_assign_value(estate, estate->datums[row->varnos[i]],
						  values[i], nulls[i], types[i], typmods[i]);
	exec_eval_cleanup(estate);
	return true;
}

/*
 * Run "SELECT ... INTO [STRICT] variables" under a read guard
 * (guarded_query.c), without the block's subtransaction, when its
 * conditions hold now; false, with nothing done, when they do not.  What
 * shows is what the SQL form through SPI shows: FOUND, ROW_COUNT (the
 * rows processed, of at most as many as SPI would have been asked for),
 * and the row stored as store_into_target stores it.  The errors of
 * STRICT and too_many_rows are raised under the guard, after the query
 * (pln_guarded_query_run), so that a caught one releases the query's
 * locks, as the subtransaction's rollback does under PL/pgSQL.  The row is in the statement context, reset here.
 */
static bool
exec_select_into_guarded(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	bool		check_too_many;
	uint64		nrows = 0;
	HeapTuple	first = NULL;
	TupleDesc	tupdesc = NULL;

	check_too_many = ((pln_extra_errors | pln_extra_warnings) &
					  PLN_XCHECK_TOOMANYROWS) != 0;
	estate->cur_expr = stmt->sqlstmt;
	if (!pln_guarded_query_run(estate, stmt,
							   into_maxrows(stmt, check_too_many),
							   check_too_many, &nrows, &first, &tupdesc))
		return false;
	store_first_row(estate, stmt, first, tupdesc);
	MemoryContextReset(get_stmt_mcontext(estate));
	return true;
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
