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
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "mb/stringinfo_mb.h"
#include "tcop/cmdtag.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/portal.h"

#include "plnimble.h"

static void exec_set_found(PlnExecState *estate, bool state);
static char *format_expr_params(PlnExecState *estate, const PlnExpr *expr);

static void
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
 * Any SQL statement, with an optional INTO clause.
 */
int
exec_stmt_execsql(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	long		tcount;
	int			rc;
	PlnExpr    *expr = stmt->sqlstmt;
	bool		too_many_rows_error = false;

	if (expr->plan == NULL)
		exec_prepare_plan(estate, expr, CURSOR_OPT_PARALLEL_OK);

	if (!stmt->mod_stmt_set)
	{
		stmt->mod_stmt = plan_is_row_modifying(expr->plan);
		stmt->mod_stmt_set = true;
	}

	if ((estate->func->extra_errors & PLN_XCHECK_TOOMANYROWS) ||
		(estate->func->extra_warnings & PLN_XCHECK_TOOMANYROWS))
		too_many_rows_error = true;

	/*
	 * With INTO, one row is enough, unless we must check that there is
	 * only one (STRICT, row-changing statements): then ask for two.
	 */
	if (stmt->into)
	{
		if (stmt->strict || stmt->mod_stmt || too_many_rows_error)
			tcount = 2;
		else
			tcount = 1;
	}
	else
		tcount = 0;

	estate->cur_expr = expr;
	rc = SPI_execute_plan_with_paramlist(expr->plan, estate->paramLI,
										 estate->readonly_func, tcount);

	/* FOUND is set by the statements that historically set it */
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
			exec_set_found(estate, (SPI_processed != 0));
			break;

		case SPI_OK_SELINTO:
		case SPI_OK_UTILITY:
			break;

		case SPI_OK_REWRITTEN:
			/* rewritten into something else: FOUND has no clear meaning */
			exec_set_found(estate, false);
			break;

		case SPI_ERROR_COPY:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot COPY to/from client in %s", PLN_LANG_TITLE)));
			break;

		case SPI_ERROR_TRANSACTION:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("unsupported transaction command in %s", PLN_LANG_TITLE)));
			break;

		default:
			elog(ERROR, "SPI_execute_plan_with_paramlist failed executing query \"%s\": %s",
				 expr->query, SPI_result_code_string(rc));
			break;
	}

	estate->eval_processed = SPI_processed;

	if (stmt->into)
	{
		SPITupleTable *tuptab = SPI_tuptable;
		uint64		n = SPI_processed;
		PlnVariable *target;

		if (tuptab == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("INTO used with a command that cannot return data")));

		target = (PlnVariable *) estate->datums[stmt->target->dno];

		if (n == 0)
		{
			if (stmt->strict)
			{
				char	   *errdetail = NULL;

				if (estate->func->print_strict_params)
					errdetail = format_expr_params(estate, expr);

				ereport(ERROR,
						(errcode(ERRCODE_NO_DATA_FOUND),
						 errmsg("query returned no rows"),
						 errdetail ? errdetail_internal("parameters: %s", errdetail) : 0));
			}
			/* no row: the target becomes NULL */
			exec_move_row(estate, target, NULL, tuptab->tupdesc);
		}
		else
		{
			if (n > 1 && (stmt->strict || stmt->mod_stmt || too_many_rows_error))
			{
				char	   *errdetail = NULL;
				int			errlevel;

				if (estate->func->print_strict_params)
					errdetail = format_expr_params(estate, expr);

				errlevel = (stmt->strict || stmt->mod_stmt ||
							(estate->func->extra_errors & PLN_XCHECK_TOOMANYROWS)) ?
					ERROR : WARNING;

				ereport(errlevel,
						(errcode(ERRCODE_TOO_MANY_ROWS),
						 errmsg("query returned more than one row"),
						 errdetail ? errdetail_internal("parameters: %s", errdetail) : 0,
						 errhint("Make sure the query returns a single row, or use LIMIT 1.")));
			}
			/* the first row goes into the target */
			exec_move_row(estate, target, tuptab->vals[0], tuptab->tupdesc);
		}

		exec_eval_cleanup(estate);
		SPI_freetuptable(SPI_tuptable);
	}
	else
	{
		/* a result with nowhere to go is an error */
		if (SPI_tuptable != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("query has no destination for result data"),
					 (rc == SPI_OK_SELECT) ? errhint("If you want to discard the results of a SELECT, use PERFORM instead.") : 0));
	}

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
	PlnVariable *target = (PlnVariable *) estate->datums[stmt->var->dno];
	bool		found = false;
	int			rc = PLN_RC_OK;
	uint64		n;
	bool		done = false;

	exec_run_select(estate, stmt->query, 0, &portal);

	/* the body must not be able to close the portal under us */
	PinPortal(portal);

	SPI_cursor_fetch(portal, true, 10);
	n = SPI_processed;

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

		for (i = 0; i < n; i++)
		{
			bool		exit_loop;

			exec_move_row(estate, target, tuptab->vals[i], tuptab->tupdesc);
			exec_eval_cleanup(estate);

			rc = exec_stmts(estate, stmt->body);
			rc = exec_loop_body_rc(estate, rc, stmt->label, &exit_loop);
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
		SPI_cursor_fetch(portal, true, 50);
		n = SPI_processed;
	}

	if (SPI_tuptable && n == 0)
		SPI_freetuptable(SPI_tuptable);

	UnpinPortal(portal);
	SPI_cursor_close(portal);

	/* FOUND says whether the loop body ran at least once */
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
	int			paramno;
	int			dno;
	StringInfoData paramstr;

	if (!expr->paramnos)
		return NULL;

	initStringInfo(&paramstr);
	paramno = 0;
	dno = -1;
	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
	{
		Datum		paramdatum;
		Oid			paramtypeid;
		bool		paramisnull;
		int32		paramtypmod;
		PlnVariable *curvar;

		curvar = (PlnVariable *) estate->datums[dno];

		pln_exec_datum_value(estate, (PlnDatum *) curvar,
							 &paramtypeid, &paramtypmod,
							 &paramdatum, &paramisnull);

		appendStringInfo(&paramstr, "%s%s = ",
						 paramno > 0 ? ", " : "",
						 curvar->dtype == PLN_DTYPE_RECFIELD ?
						 ((PlnRecField *) curvar)->fieldname : curvar->refname);

		if (paramisnull)
			appendStringInfoString(&paramstr, "NULL");
		else
			appendStringInfoStringQuoted(&paramstr,
										 convert_value_to_string(estate,
																 paramdatum,
																 paramtypeid),
										 -1);

		paramno++;
	}

	return paramstr.data;
}
