/*-------------------------------------------------------------------------
 *
 * exec_cursor.c
 *	  Cursors: OPEN, FETCH, MOVE, CLOSE and FOR over a bound cursor.
 *
 * A cursor is a portal; a refcursor variable holds its name.  A bound
 * cursor (declared with its query) is opened under the variable's value,
 * which is the variable's own name unless assigned otherwise; an unbound
 * one given OPEN ... FOR, or a variable that is NULL, gets a name made up
 * by SPI, stored back into the variable.  Portals belong to the
 * transaction, so one opened inside an exception block whose savepoint
 * rolls back is gone afterwards, as in PL/pgSQL (opening one is impure:
 * the block's savepoint is started first).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/portal.h"

#include "plnimble.h"

/* The cursor name a refcursor variable holds, or NULL */
static char *
cursor_name_of(PlnVar *curvar)
{
	if (curvar->isnull)
		return NULL;
	return TextDatumGetCString(curvar->value);
}

/* The open portal a refcursor variable names; errors if there is none */
static Portal
find_cursor(PlnVar *curvar)
{
	char	   *curname = cursor_name_of(curvar);
	Portal		portal;

	if (curname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("cursor variable \"%s\" is null", curvar->refname)));
	portal = SPI_cursor_find(curname);
	if (portal == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_CURSOR),
				 errmsg("cursor \"%s\" does not exist", curname)));
	pfree(curname);
	return portal;
}

/* A name already taken by an open portal cannot be opened again */
static void
check_cursor_name_free(const char *curname)
{
	if (curname != NULL && SPI_cursor_find(curname) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_CURSOR),
				 errmsg("cursor \"%s\" already in use", curname)));
}

/*
 * Give a bound cursor's argument variables the values of argquery, as
 * SELECT ... INTO them would (which also sets FOUND, as in PL/pgSQL).
 */
static void
assign_cursor_args(PlnExecState *estate, PlnVar *curvar, PlnExpr *argquery,
				   int lineno)
{
	PlnStmtExecSql set_args;

	memset(&set_args, 0, sizeof(set_args));
	set_args.cmd_type = PLN_STMT_EXECSQL;
	set_args.lineno = lineno;
	set_args.sqlstmt = argquery;
	set_args.into = true;
	set_args.target = (PlnVariable *)
		estate->datums[curvar->cursor_explicit_argrow];

	(void) exec_stmt_execsql(estate, &set_args);
}

/*
 * Open the portal of a prepared query under curname (NULL: let SPI name
 * it), with the call's variables as parameters.
 */
static Portal
open_query_cursor(PlnExecState *estate, PlnExpr *query, int cursor_options,
				  const char *curname)
{
	Portal		portal;

	if (query->plan == NULL)
		exec_prepare_plan(estate, query, cursor_options);

	estate->cur_expr = query;
	portal = SPI_cursor_open_with_paramlist(curname, query->plan,
											estate->paramLI,
											estate->readonly_func);
	if (portal == NULL)
		elog(ERROR, "could not open cursor: %s",
			 SPI_result_code_string(SPI_result));
	return portal;
}

/*
 * Open a bound cursor on its declared query, its arguments (argquery, or
 * NULL) assigned first
 */
static Portal
open_bound_cursor(PlnExecState *estate, PlnVar *curvar, PlnExpr *argquery,
				  int lineno, const char *curname)
{
	if (argquery != NULL)
		assign_cursor_args(estate, curvar, argquery, lineno);
	return open_query_cursor(estate, curvar->cursor_explicit_expr,
							 curvar->cursor_options, curname);
}

/*
 * A cursor variable (datum varno) that was NULL learns the name SPI chose
 * for its portal, if it may be changed
 */
static void
name_cursor_variable(PlnExecState *estate, int varno, Portal portal)
{
	pln_check_assignable(estate, varno);
	assign_text_var(estate, (PlnVar *) estate->datums[varno], portal->name);
}

/*
 * OPEN cursor [(args)] | OPEN var [[NO] SCROLL] FOR query
 *	| OPEN var [[NO] SCROLL] FOR EXECUTE string [USING ...]
 */
int
exec_stmt_open(PlnExecState *estate, PlnStmtOpen *stmt)
{
	PlnVar	   *curvar = (PlnVar *) estate->datums[stmt->curvar];
	char	   *curname = cursor_name_of(curvar);
	Portal		portal;

	check_cursor_name_free(curname);

	if (stmt->query != NULL)
		portal = open_query_cursor(estate, stmt->query, stmt->cursor_options,
								   curname);
	else if (stmt->dynquery != NULL)
		portal = pln_open_dynamic_portal(estate, stmt->dynquery,
										 stmt->params, curname,
										 stmt->cursor_options);
	else
		portal = open_bound_cursor(estate, curvar, stmt->argquery,
								   stmt->lineno, curname);

	if (curname == NULL)
		name_cursor_variable(estate, stmt->curvar, portal);
	else
		pfree(curname);			/* the portal has its own copy; an OPEN in
								 * a loop must not pile them up */

	exec_eval_cleanup(estate);
	return PLN_RC_OK;
}

/*
 * FETCH [direction FROM] cursor INTO target, and MOVE: FOUND and ROW_COUNT
 * say whether (how many) rows were there.
 */
int
exec_stmt_fetch(PlnExecState *estate, PlnStmtFetch *stmt)
{
	PlnVar	   *curvar = (PlnVar *) estate->datums[stmt->curvar];
	Portal		portal = find_cursor(curvar);
	long		how_many = stmt->how_many;
	uint64		n;

	if (stmt->expr != NULL)
	{
		bool		isnull;

		how_many = exec_eval_integer(estate, stmt->expr, &isnull);
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("relative or absolute cursor position is null")));
		exec_eval_cleanup(estate);
	}

	if (stmt->is_move)
	{
		SPI_scroll_cursor_move(portal, stmt->direction, how_many);
		n = SPI_processed;
	}
	else
	{
		SPITupleTable *tuptab;
		PlnVariable *target = (PlnVariable *) estate->datums[stmt->target->dno];

		SPI_scroll_cursor_fetch(portal, stmt->direction, how_many);
		tuptab = SPI_tuptable;
		n = SPI_processed;

		/* no row: the target becomes NULL */
		exec_move_row(estate, target, n > 0 ? tuptab->vals[0] : NULL,
					  tuptab->tupdesc);
		exec_eval_cleanup(estate);
		SPI_freetuptable(tuptab);
	}

	estate->eval_processed = n;
	exec_set_found(estate, n != 0);
	return PLN_RC_OK;
}

/* CLOSE cursor */
int
exec_stmt_close(PlnExecState *estate, PlnStmtClose *stmt)
{
	PlnVar	   *curvar = (PlnVar *) estate->datums[stmt->curvar];

	SPI_cursor_close(find_cursor(curvar));
	return PLN_RC_OK;
}

/*
 * FOR rec IN cursor [(args)] LOOP: open the bound cursor, run the body per
 * row, close it.  Rows are fetched one at a time, since the body may use
 * the cursor's position (WHERE CURRENT OF).  A variable that was NULL is
 * NULL again afterwards.
 */
int
exec_stmt_forc(PlnExecState *estate, PlnStmtForC *stmt)
{
	PlnVar	   *curvar = (PlnVar *) estate->datums[stmt->curvar];
	char	   *curname = cursor_name_of(curvar);
	Portal		portal;
	int			rc;

	check_cursor_name_free(curname);

	portal = open_bound_cursor(estate, curvar, stmt->argquery, stmt->lineno,
							   curname);
	if (curname == NULL)
		name_cursor_variable(estate, stmt->curvar, portal);
	exec_eval_cleanup(estate);

	rc = exec_for_query_loop(estate, portal,
							 (PlnVariable *) estate->datums[stmt->var->dno],
							 stmt->body, stmt->label, false);

	if (curname == NULL)
		assign_simple_var(estate, curvar, (Datum) 0, true, false);

	return rc;
}
