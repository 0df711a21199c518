/*-------------------------------------------------------------------------
 *
 * exec_dynamic.c
 *	  Dynamic SQL (EXECUTE, FOR ... IN EXECUTE) and GET DIAGNOSTICS.
 *
 * EXECUTE runs a command whose text is computed at run time.  The text is
 * planned afresh every time (nothing is cached), and PL variables are not
 * visible in it: values go in through USING, as $1, $2, ...  Everything
 * here is impure and runs with any pending savepoint started (exec_stmt
 * sees to that for statement kinds it does not know to be pure), but for
 * EXECUTE ... INTO variables, whose command may run under a read guard
 * when it is a reviewed SELECT (lazy/guarded_query.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/stringinfo_mb.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/expandeddatum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "plnimble.h"
#include "lazy/pln_guarded_query.h"

/*
 * Evaluate the command text of EXECUTE (or OPEN ... FOR EXECUTE), into
 * the statement context.
 */
char *
eval_dynamic_query(PlnExecState *estate, PlnExpr *query)
{
	Datum		value;
	bool		isnull;
	Oid			valtype;
	int32		valtypmod;
	char	   *text;

	value = exec_eval_expr(estate, query, &isnull, &valtype, &valtypmod);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("query string argument of EXECUTE is null")));

	/* keep the text beyond the evaluation's scratch memory */
	text = MemoryContextStrdup(get_stmt_mcontext(estate),
							   convert_value_to_string(estate, value, valtype));
	exec_eval_cleanup(estate);
	return text;
}

/*
 * Evaluate the USING expressions into a parameter list, $1 first, held in
 * the statement context.  NULL when there are none.
 */
ParamListInfo
eval_using_params(PlnExecState *estate, List *params)
{
	MemoryContext stmt_mcontext = get_stmt_mcontext(estate);
	ParamListInfo paramLI;
	MemoryContext oldcontext;
	ListCell   *lc;
	int			i = 0;

	if (params == NIL)
		return NULL;

	oldcontext = MemoryContextSwitchTo(stmt_mcontext);
	paramLI = makeParamList(list_length(params));
	MemoryContextSwitchTo(oldcontext);

	foreach(lc, params)
	{
		ParamExternData *prm = &paramLI->params[i++];
		int32		typmod;

		prm->value = exec_eval_expr(estate, (PlnExpr *) lfirst(lc),
									&prm->isnull, &prm->ptype, &typmod);
		prm->pflags = PARAM_FLAG_CONST;

		oldcontext = MemoryContextSwitchTo(stmt_mcontext);
		if (prm->ptype == UNKNOWNOID)
		{
			/* an untyped literal goes in as text */
			prm->ptype = TEXTOID;
			if (!prm->isnull)
				prm->value = CStringGetTextDatum(DatumGetCString(prm->value));
		}
		else if (!prm->isnull)
		{
			int16		typlen;
			bool		typbyval;

			/* the value must outlive the evaluation's scratch memory */
			get_typlenbyval(prm->ptype, &typlen, &typbyval);
			if (!typbyval)
			{
				if (typlen == -1 &&
					VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(prm->value)))
					prm->value = MakeExpandedObjectReadOnly(prm->value, false, -1);
				prm->value = datumCopy(prm->value, typbyval, typlen);
			}
		}
		MemoryContextSwitchTo(oldcontext);

		exec_eval_cleanup(estate);
	}

	return paramLI;
}

/*
 * The USING values for the DETAIL of a STRICT error: $1 = 'x', $2 = NULL.
 */
char *
format_param_values(PlnExecState *estate, ParamListInfo params)
{
	StringInfoData buf;
	int			i;

	if (params == NULL)
		return NULL;

	initStringInfo(&buf);
	for (i = 0; i < params->numParams; i++)
	{
		ParamExternData *prm = &params->params[i];

		appendStringInfo(&buf, "%s$%d = ", (i > 0) ? ", " : "", i + 1);
		if (prm->isnull)
			appendStringInfoString(&buf, "NULL");
		else
			appendStringInfoStringQuoted(&buf,
										 convert_value_to_string(estate, prm->value,
																 prm->ptype),
										 -1);
	}
	return buf.data;
}

/* Map what SPI says about a dynamic command to PL/pgSQL's errors */
static void
check_dynamic_result(int rc, const char *querystr)
{
	if (pln_spi_ran_query(rc))
		return;
	switch (rc)
	{
		case SPI_OK_UTILITY:
		case SPI_OK_REWRITTEN:
		case 0:					/* an empty command string */
			break;

		case SPI_OK_SELINTO:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("EXECUTE of SELECT ... INTO is not implemented"),
					 errhint("You might want to use EXECUTE ... INTO or EXECUTE CREATE TABLE ... AS instead.")));
			break;

		case SPI_ERROR_COPY:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot COPY to/from client in %s", PLN_LANG_TITLE)));
			break;

		case SPI_ERROR_TRANSACTION:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("EXECUTE of transaction commands is not implemented")));
			break;

		default:
			elog(ERROR, "SPI_execute_extended failed executing query \"%s\": %s",
				 querystr, SPI_result_code_string(rc));
			break;
	}
}

/*
 * The row-count rule of EXECUTE ... INTO STRICT: exactly one row.  (Also
 * for the guarded run, exec_guarded_query.c, which raises it under the
 * guard.)
 */
void
exec_check_dynamic_into_rows(PlnExecState *estate, bool strict,
							 uint64 nrows, ParamListInfo params)
{
	char	   *detail = NULL;

	if (!strict || nrows == 1)
		return;
	if (estate->func->print_strict_params)
		detail = format_param_values(estate, params);
	if (nrows == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("query returned no rows"),
				 detail ? errdetail_internal("parameters: %s", detail) : 0));
	else
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_ROWS),
				 errmsg("query returned more than one row"),
				 detail ? errdetail_internal("parameters: %s", detail) : 0));
}

/*
 * Store the first row of a dynamic command's result into the INTO target,
 * with the STRICT checks.  Unlike static SQL, EXECUTE ... INTO without
 * STRICT is happy with any number of rows.
 */
static void
store_dynamic_into(PlnExecState *estate, PlnStmtDynExecute *stmt,
				   ParamListInfo params)
{
	SPITupleTable *tuptab = SPI_tuptable;
	uint64		nrows = SPI_processed;
	PlnVariable *target;

	if (tuptab == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("INTO used with a command that cannot return data")));

	exec_check_dynamic_into_rows(estate, stmt->strict, nrows, params);

	target = (PlnVariable *) estate->datums[stmt->target->dno];
	exec_move_row(estate, target, nrows > 0 ? tuptab->vals[0] : NULL,
				  tuptab->tupdesc);
	exec_eval_cleanup(estate);
}

/*
 * EXECUTE ... INTO variables in a handler block without a subtransaction:
 * run the command under a read guard (exec_guarded_query.c) if its shape,
 * the moment and the command allow it, and store its first row.  False
 * when it did not run.  What it shows is what the SQL form shows: ROW_COUNT
 * (FOUND is left alone), the row stored as store_dynamic_into stores it,
 * STRICT's errors.
 */
static bool
exec_dynamic_into_guarded(PlnExecState *estate, PlnStmtDynExecute *stmt,
						  const char *querystr)
{
	uint64		nrows = 0;
	HeapTuple	first = NULL;
	TupleDesc	tupdesc = NULL;

	if (stmt->guarded_shape == PLN_GUARDED_QUERY_UNKNOWN)
		stmt->guarded_shape = pln_guarded_dynamic_shape(estate, stmt);
	if (stmt->guarded_shape != PLN_GUARDED_QUERY_CANDIDATE ||
		!pln_guarded_dynamic_run(estate, stmt, querystr, &nrows, &first,
								 &tupdesc))
		return false;
	exec_move_row(estate, (PlnVariable *) estate->datums[stmt->target->dno],
				  first, tupdesc);
	exec_eval_cleanup(estate);
	MemoryContextReset(get_stmt_mcontext(estate));
	return true;
}

/*
 * EXECUTE string [INTO [STRICT] target] [USING expr, ...]
 *
 * FOUND is left alone (as in PL/pgSQL); GET DIAGNOSTICS ROW_COUNT sees the
 * number of rows processed.
 */
int
exec_stmt_dynexecute(PlnExecState *estate, PlnStmtDynExecute *stmt)
{
	MemoryContext stmt_mcontext = get_stmt_mcontext(estate);
	char	   *querystr;
	ParamListInfo params;
	SPIExecuteOptions options;
	int			rc;
	bool		started_lazily;

	/*
	 * EXECUTE ... INTO variables started lazily (pln_stmt_may_run_lazily):
	 * its command runs under a read guard if it may (a reviewed SELECT,
	 * see exec_dynamic_into_guarded); else the statement passes the gate
	 * it skipped, and runs as any EXECUTE.
	 */
	started_lazily = (stmt->guarded_shape != PLN_GUARDED_QUERY_NEVER);
	querystr = eval_dynamic_query(estate, stmt->query);
	if (started_lazily)
	{
		if (pln_in_lazy_region(estate) &&
			exec_dynamic_into_guarded(estate, stmt, querystr))
			return PLN_RC_OK;
		pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
	}
	params = eval_using_params(estate, stmt->params);

	memset(&options, 0, sizeof(options));
	options.params = params;
	options.read_only = estate->readonly_func;
	rc = SPI_execute_extended(querystr, &options);
	check_dynamic_result(rc, querystr);

	estate->eval_processed = SPI_processed;

	if (stmt->into)
		store_dynamic_into(estate, stmt, params);

	SPI_freetuptable(SPI_tuptable);
	MemoryContextReset(stmt_mcontext);
	/* (as exec_stmt does after a statement that does not start lazily) */
	if (started_lazily)
		pln_forget_plan_checks();

	return PLN_RC_OK;
}

/*
 * Open a portal on a dynamic query: the string query evaluates to, with
 * the USING parameters.  curname NULL lets SPI name it.  Used by
 * FOR ... IN EXECUTE and OPEN ... FOR EXECUTE.
 */
Portal
pln_open_dynamic_portal(PlnExecState *estate, PlnExpr *query, List *params,
						const char *curname, int cursor_options)
{
	SPIParseOpenOptions options;
	char	   *querystr;
	Portal		portal;

	querystr = eval_dynamic_query(estate, query);
	memset(&options, 0, sizeof(options));
	options.params = eval_using_params(estate, params);
	options.cursorOptions = cursor_options;
	options.read_only = estate->readonly_func;
	portal = SPI_cursor_parse_open(curname, querystr, &options);
	if (portal == NULL)
		elog(ERROR, "could not open implicit cursor for query \"%s\": %s",
			 querystr, SPI_result_code_string(SPI_result));

	/* the portal has its own copy of the text and the parameters */
	MemoryContextReset(get_stmt_mcontext(estate));
	return portal;
}

/*
 * FOR target IN EXECUTE string [USING expr, ...] LOOP
 */
int
exec_stmt_dynfors(PlnExecState *estate, PlnStmtDynForS *stmt)
{
	/* read forward only, as the loop over a static query (exec_run_select) */
	Portal		portal = pln_open_dynamic_portal(estate, stmt->query,
												 stmt->params, NULL,
												 CURSOR_OPT_NO_SCROLL);

	return exec_for_query_loop(estate, portal,
							   (PlnVariable *) estate->datums[stmt->var->dno],
							   stmt->body, stmt->label, true);
}

/* ----------
 * GET DIAGNOSTICS
 * ----------
 */

/* The text a STACKED item reads from the error being handled */
static const char *
error_field(ErrorData *edata, PlnDiagKind kind)
{
	switch (kind)
	{
		case PLN_DIAG_ERROR_CONTEXT:
			return edata->context;
		case PLN_DIAG_ERROR_DETAIL:
			return edata->detail;
		case PLN_DIAG_ERROR_HINT:
			return edata->hint;
		case PLN_DIAG_RETURNED_SQLSTATE:
			return unpack_sql_state(edata->sqlerrcode);
		case PLN_DIAG_COLUMN_NAME:
			return edata->column_name;
		case PLN_DIAG_CONSTRAINT_NAME:
			return edata->constraint_name;
		case PLN_DIAG_DATATYPE_NAME:
			return edata->datatype_name;
		case PLN_DIAG_MESSAGE_TEXT:
			return edata->message;
		case PLN_DIAG_TABLE_NAME:
			return edata->table_name;
		case PLN_DIAG_SCHEMA_NAME:
			return edata->schema_name;
		default:
			elog(ERROR, "unexpected GET STACKED DIAGNOSTICS item %d", (int) kind);
			return NULL;		/* keep compiler quiet */
	}
}

/*
 * GET [CURRENT | STACKED] DIAGNOSTICS var = item [, ...]
 *
 * CURRENT items describe the last SQL command and the call stack; STACKED
 * items the error the enclosing handler caught.  A missing text field
 * reads as an empty string.
 */
int
exec_stmt_getdiag(PlnExecState *estate, PlnStmtGetDiag *stmt)
{
	ListCell   *lc;

	if (stmt->is_stacked && estate->cur_error == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_STACKED_DIAGNOSTICS_ACCESSED_WITHOUT_ACTIVE_HANDLER),
				 errmsg("GET STACKED DIAGNOSTICS cannot be used outside an exception handler")));

	foreach(lc, stmt->diag_items)
	{
		PlnDiagItem *item = (PlnDiagItem *) lfirst(lc);
		PlnDatum   *target = estate->datums[item->target];

		switch (item->kind)
		{
			case PLN_DIAG_ROW_COUNT:
				exec_assign_value(estate, target,
								  UInt64GetDatum(estate->eval_processed),
								  false, INT8OID, -1);
				break;

			case PLN_DIAG_ROUTINE_OID:
				/* (0 in a DO block) */
				exec_assign_value(estate, target,
								  ObjectIdGetDatum(estate->func->fn_oid),
								  false, OIDOID, -1);
				break;

			case PLN_DIAG_CONTEXT:
				{
					/* the call stack, as CONTEXT lines would show it */
					MemoryContext oldcontext;
					char	   *stack;

					oldcontext = MemoryContextSwitchTo(get_stmt_mcontext(estate));
					stack = GetErrorContextStack();
					MemoryContextSwitchTo(oldcontext);
					exec_assign_c_string(estate, target, stack);
					break;
				}

			default:
				exec_assign_c_string(estate, target,
									 error_field(estate->cur_error, item->kind));
				break;
		}
	}

	exec_eval_cleanup(estate);
	MemoryContextReset(get_stmt_mcontext(estate));

	return PLN_RC_OK;
}
