/*-------------------------------------------------------------------------
 *
 * raise.c
 *	  RAISE and ASSERT.
 *
 * RAISE builds its message from the format string and parameters (each
 * single % takes the next parameter's text form, %% is a literal percent),
 * applies the USING options, and reports at the requested level.  Bare
 * RAISE re-throws the error being handled.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/memutils.h"

#include "plnimble.h"

/* Set a RAISE option once; a repeat is an error */
static void
set_raise_option(char **dest, const char *value, const char *name)
{
	if (*dest != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("RAISE option already specified: %s", name)));
	*dest = pstrdup(value);
}

int
exec_stmt_raise(PlnExecState *estate, PlnStmtRaise *stmt)
{
	int			err_code = 0;
	char	   *condname = NULL;
	char	   *err_message = NULL;
	char	   *err_detail = NULL;
	char	   *err_hint = NULL;
	char	   *err_column = NULL;
	char	   *err_constraint = NULL;
	char	   *err_datatype = NULL;
	char	   *err_table = NULL;
	char	   *err_schema = NULL;
	MemoryContext stmt_mcontext;
	MemoryContext oldcontext;
	ListCell   *lc;

	/* RAISE with no parameters: re-throw current exception */
	if (stmt->condname == NULL && stmt->message == NULL &&
		stmt->options == NIL)
	{
		if (estate->cur_error != NULL)
			ReThrowError(estate->cur_error);
		/* not inside a handler */
		ereport(ERROR,
				(errcode(ERRCODE_STACKED_DIAGNOSTICS_ACCESSED_WITHOUT_ACTIVE_HANDLER),
				 errmsg("RAISE without parameters cannot be used outside an exception handler")));
	}

	/* the strings are collected in the statement context */
	stmt_mcontext = get_stmt_mcontext(estate);
	oldcontext = MemoryContextSwitchTo(stmt_mcontext);

	if (stmt->condname)
	{
		err_code = pln_recognize_err_condition(stmt->condname, true);
		condname = pstrdup(stmt->condname);
	}

	if (stmt->message)
	{
		StringInfoData ds;
		ListCell   *current_param;
		char	   *cp;

		initStringInfo(&ds);
		current_param = list_head(stmt->params);

		for (cp = stmt->message; *cp; cp++)
		{
			if (cp[0] == '%')
			{
				Oid			paramtypeid;
				int32		paramtypmod;
				Datum		paramvalue;
				bool		paramisnull;

				if (cp[1] == '%')
				{
					appendStringInfoChar(&ds, '%');
					cp++;
					continue;
				}

				/* the count was checked when compiling */
				if (current_param == NULL)
					elog(ERROR, "unexpected RAISE parameter list length");

				paramvalue = exec_eval_expr(estate,
											(PlnExpr *) lfirst(current_param),
											&paramisnull,
											&paramtypeid,
											&paramtypmod);

				if (paramisnull)
					appendStringInfoString(&ds, "<NULL>");
				else
					appendStringInfoString(&ds,
										   convert_value_to_string(estate,
																   paramvalue,
																   paramtypeid));
				current_param = lnext(stmt->params, current_param);
				exec_eval_cleanup(estate);
			}
			else
				appendStringInfoChar(&ds, cp[0]);
		}

		if (current_param != NULL)
			elog(ERROR, "unexpected RAISE parameter list length");

		err_message = ds.data;
	}

	foreach(lc, stmt->options)
	{
		PlnRaiseOption *opt = (PlnRaiseOption *) lfirst(lc);
		Datum		optionvalue;
		bool		optionisnull;
		Oid			optiontypeid;
		int32		optiontypmod;
		char	   *extval;

		optionvalue = exec_eval_expr(estate, opt->expr,
									 &optionisnull,
									 &optiontypeid,
									 &optiontypmod);
		if (optionisnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("RAISE statement option cannot be null")));

		extval = convert_value_to_string(estate, optionvalue, optiontypeid);

		switch (opt->opt_type)
		{
			case PLN_RAISEOPT_ERRCODE:
				if (err_code)
					ereport(ERROR,
							(errcode(ERRCODE_SYNTAX_ERROR),
							 errmsg("RAISE option already specified: %s",
									"ERRCODE")));
				err_code = pln_recognize_err_condition(extval, true);
				condname = pstrdup(extval);
				break;
			case PLN_RAISEOPT_MESSAGE:
				set_raise_option(&err_message, extval, "MESSAGE");
				break;
			case PLN_RAISEOPT_DETAIL:
				set_raise_option(&err_detail, extval, "DETAIL");
				break;
			case PLN_RAISEOPT_HINT:
				set_raise_option(&err_hint, extval, "HINT");
				break;
			case PLN_RAISEOPT_COLUMN:
				set_raise_option(&err_column, extval, "COLUMN");
				break;
			case PLN_RAISEOPT_CONSTRAINT:
				set_raise_option(&err_constraint, extval, "CONSTRAINT");
				break;
			case PLN_RAISEOPT_DATATYPE:
				set_raise_option(&err_datatype, extval, "DATATYPE");
				break;
			case PLN_RAISEOPT_TABLE:
				set_raise_option(&err_table, extval, "TABLE");
				break;
			case PLN_RAISEOPT_SCHEMA:
				set_raise_option(&err_schema, extval, "SCHEMA");
				break;
			default:
				elog(ERROR, "unrecognized raise option: %d", opt->opt_type);
		}

		exec_eval_cleanup(estate);
	}

	/* an ERROR without a code gets P0001 */
	if (err_code == 0 && stmt->elog_level >= ERROR)
		err_code = ERRCODE_RAISE_EXCEPTION;

	/* without a message, the condition name or the SQLSTATE serves */
	if (err_message == NULL)
	{
		if (condname)
		{
			err_message = condname;
			condname = NULL;
		}
		else
			err_message = pstrdup(unpack_sql_state(err_code));
	}

	MemoryContextSwitchTo(oldcontext);

	/* a notice is shown whatever handlers there are (see savepoint.c) */
	estate->raising_notice = (stmt->elog_level < ERROR);

	ereport(stmt->elog_level,
			(err_code ? errcode(err_code) : 0,
			 errmsg_internal("%s", err_message),
			 (err_detail != NULL) ? errdetail_internal("%s", err_detail) : 0,
			 (err_hint != NULL) ? errhint("%s", err_hint) : 0,
			 (err_column != NULL) ?
			 err_generic_string(PG_DIAG_COLUMN_NAME, err_column) : 0,
			 (err_constraint != NULL) ?
			 err_generic_string(PG_DIAG_CONSTRAINT_NAME, err_constraint) : 0,
			 (err_datatype != NULL) ?
			 err_generic_string(PG_DIAG_DATATYPE_NAME, err_datatype) : 0,
			 (err_table != NULL) ?
			 err_generic_string(PG_DIAG_TABLE_NAME, err_table) : 0,
			 (err_schema != NULL) ?
			 err_generic_string(PG_DIAG_SCHEMA_NAME, err_schema) : 0));

	/* only reached for levels below ERROR */
	estate->raising_notice = false;
	MemoryContextReset(stmt_mcontext);

	return PLN_RC_OK;
}

/*
 * ASSERT cond [, message]: an error unless cond is true, when
 * plnimble.check_asserts is on.
 */
int
exec_stmt_assert(PlnExecState *estate, PlnStmtAssert *stmt)
{
	bool		value;
	bool		isnull;

	if (!pln_check_asserts)
		return PLN_RC_OK;

	value = exec_eval_boolean(estate, stmt->cond, &isnull);
	exec_eval_cleanup(estate);

	if (isnull || !value)
	{
		char	   *message = NULL;

		if (stmt->message != NULL)
		{
			Datum		val;
			Oid			typeid;
			int32		typmod;

			val = exec_eval_expr(estate, stmt->message,
								 &isnull, &typeid, &typmod);
			if (!isnull)
				message = convert_value_to_string(estate, val, typeid);
			/* the error report copies the message; no cleanup needed */
		}

		ereport(ERROR,
				(errcode(ERRCODE_ASSERT_FAILURE),
				 message ? errmsg_internal("%s", message) :
				 errmsg("assertion failed")));
	}

	return PLN_RC_OK;
}
