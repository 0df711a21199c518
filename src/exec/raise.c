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
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/memutils.h"

#include "plnimble.h"

/*
 * What a RAISE statement reports, gathered before the report is made.
 * text[] holds the string of each USING option by option type (the
 * ERRCODE slot is unused: the code goes to err_code).
 */
typedef struct RaiseReport
{
	int			err_code;		/* SQLSTATE, or 0 for none given */
	char	   *condname;		/* condition name or SQLSTATE as written */
	char	   *text[PLN_RAISEOPT_SCHEMA + 1];
} RaiseReport;

/* The names of the USING options, as the "already specified" error says */
static const char *const raise_option_names[PLN_RAISEOPT_SCHEMA + 1] = {
	[PLN_RAISEOPT_ERRCODE] = "ERRCODE",
	[PLN_RAISEOPT_MESSAGE] = "MESSAGE",
	[PLN_RAISEOPT_DETAIL] = "DETAIL",
	[PLN_RAISEOPT_HINT] = "HINT",
	[PLN_RAISEOPT_COLUMN] = "COLUMN",
	[PLN_RAISEOPT_CONSTRAINT] = "CONSTRAINT",
	[PLN_RAISEOPT_DATATYPE] = "DATATYPE",
	[PLN_RAISEOPT_TABLE] = "TABLE",
	[PLN_RAISEOPT_SCHEMA] = "SCHEMA",
};

static void
option_given_twice(PlnRaiseOptionType type)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("RAISE option already specified: %s",
					raise_option_names[type])));
}

/*
 * Expand the format string: each single % is replaced by the text form
 * of the next parameter ("<NULL>" for a null), and %% stands for a
 * literal percent sign.  The grammar has checked that the counts agree.
 */
static char *
expand_raise_format(PlnExecState *estate, PlnStmtRaise *stmt)
{
	StringInfoData buf;
	ListCell   *next_param = list_head(stmt->params);
	const char *cp = stmt->message;

	initStringInfo(&buf);
	while (*cp != '\0')
	{
		PlnExpr    *param;
		Datum		value;
		bool		isnull;
		Oid			valtype;
		int32		valtypmod;

		if (cp[0] != '%')
		{
			appendStringInfoChar(&buf, *cp++);
			continue;
		}
		if (cp[1] == '%')
		{
			appendStringInfoChar(&buf, '%');
			cp += 2;
			continue;
		}
		cp++;

		if (next_param == NULL)
			elog(ERROR, "unexpected RAISE parameter list length");
		param = (PlnExpr *) lfirst(next_param);
		next_param = lnext(stmt->params, next_param);

		value = exec_eval_expr(estate, param, &isnull, &valtype, &valtypmod);
		appendStringInfoString(&buf,
							   isnull ? "<NULL>" :
							   convert_value_to_string(estate, value, valtype));
		exec_eval_cleanup(estate);
	}

	if (next_param != NULL)
		elog(ERROR, "unexpected RAISE parameter list length");

	return buf.data;
}

/* Evaluate the USING options into the report, refusing repeats */
static void
apply_raise_options(PlnExecState *estate, PlnStmtRaise *stmt,
					RaiseReport *report)
{
	ListCell   *lc;

	foreach(lc, stmt->options)
	{
		PlnRaiseOption *opt = (PlnRaiseOption *) lfirst(lc);
		Datum		value;
		bool		isnull;
		Oid			valtype;
		int32		valtypmod;
		char	   *str;

		value = exec_eval_expr(estate, opt->expr, &isnull, &valtype,
							   &valtypmod);
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("RAISE statement option cannot be null")));
		str = convert_value_to_string(estate, value, valtype);

		if (opt->opt_type < PLN_RAISEOPT_ERRCODE ||
			opt->opt_type > PLN_RAISEOPT_SCHEMA)
			elog(ERROR, "unrecognized raise option: %d", opt->opt_type);

		if (opt->opt_type == PLN_RAISEOPT_ERRCODE)
		{
			/* the condition of RAISE name counts as an ERRCODE too */
			if (report->err_code != 0)
				option_given_twice(opt->opt_type);
			report->err_code = pln_recognize_err_condition(str, true);
			report->condname = pstrdup(str);
		}
		else
		{
			/* MESSAGE clashes with a format string as well */
			if (report->text[opt->opt_type] != NULL)
				option_given_twice(opt->opt_type);
			report->text[opt->opt_type] = pstrdup(str);
		}

		exec_eval_cleanup(estate);
	}
}

/*
 * The optional parts of the report; called inside ereport(), so it adds
 * them to the error being built.
 */
static int
raise_report_fields(RaiseReport *report)
{
	static const int field_codes[PLN_RAISEOPT_SCHEMA + 1] = {
		[PLN_RAISEOPT_COLUMN] = PG_DIAG_COLUMN_NAME,
		[PLN_RAISEOPT_CONSTRAINT] = PG_DIAG_CONSTRAINT_NAME,
		[PLN_RAISEOPT_DATATYPE] = PG_DIAG_DATATYPE_NAME,
		[PLN_RAISEOPT_TABLE] = PG_DIAG_TABLE_NAME,
		[PLN_RAISEOPT_SCHEMA] = PG_DIAG_SCHEMA_NAME,
	};
	int			type;

	if (report->text[PLN_RAISEOPT_DETAIL] != NULL)
		errdetail_internal("%s", report->text[PLN_RAISEOPT_DETAIL]);
	if (report->text[PLN_RAISEOPT_HINT] != NULL)
		errhint("%s", report->text[PLN_RAISEOPT_HINT]);
	for (type = PLN_RAISEOPT_COLUMN; type <= PLN_RAISEOPT_SCHEMA; type++)
	{
		if (report->text[type] != NULL)
			err_generic_string(field_codes[type], report->text[type]);
	}
	return 0;
}

int
exec_stmt_raise(PlnExecState *estate, PlnStmtRaise *stmt)
{
	RaiseReport report;
	char	   *message;
	MemoryContext stmt_mcontext;
	MemoryContext oldcontext;

	/* "RAISE;" passes on the error the current handler caught */
	if (stmt->condname == NULL && stmt->message == NULL &&
		stmt->options == NIL)
	{
		if (estate->cur_error == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_STACKED_DIAGNOSTICS_ACCESSED_WITHOUT_ACTIVE_HANDLER),
					 errmsg("RAISE without parameters cannot be used outside an exception handler")));
		ReThrowError(estate->cur_error);
	}

	memset(&report, 0, sizeof(report));

	/* the strings are collected in the statement context */
	stmt_mcontext = get_stmt_mcontext(estate);
	oldcontext = MemoryContextSwitchTo(stmt_mcontext);

	if (stmt->condname != NULL)
	{
		report.err_code = pln_recognize_err_condition(stmt->condname, true);
		report.condname = pstrdup(stmt->condname);
	}
	if (stmt->message != NULL)
		report.text[PLN_RAISEOPT_MESSAGE] = expand_raise_format(estate, stmt);
	apply_raise_options(estate, stmt, &report);

	/* an ERROR without a code gets P0001 */
	if (report.err_code == 0 && stmt->elog_level >= ERROR)
		report.err_code = ERRCODE_RAISE_EXCEPTION;

	/* without a message, the condition name or the SQLSTATE serves */
	message = report.text[PLN_RAISEOPT_MESSAGE];
	if (message == NULL)
		message = report.condname ? report.condname :
			pstrdup(unpack_sql_state(report.err_code));

	MemoryContextSwitchTo(oldcontext);

	/* a notice is shown whatever handlers there are (see savepoint.c) */
	estate->raising_notice = (stmt->elog_level < ERROR);

	ereport(stmt->elog_level,
			(report.err_code != 0 ? errcode(report.err_code) : 0,
			 errmsg_internal("%s", message),
			 raise_report_fields(&report)));

	/* only reached for levels below ERROR */
	estate->raising_notice = false;
	MemoryContextReset(stmt_mcontext);

	return PLN_RC_OK;
}

/*
 * ASSERT cond [, message]: an error unless cond is true, when
 * plnimble.check_asserts is on.  A null message leaves the default text.
 */
int
exec_stmt_assert(PlnExecState *estate, PlnStmtAssert *stmt)
{
	bool		holds;
	bool		isnull;
	char	   *message = NULL;

	if (!pln_check_asserts)
		return PLN_RC_OK;

	holds = exec_eval_boolean(estate, stmt->cond, &isnull);
	exec_eval_cleanup(estate);
	if (holds && !isnull)
		return PLN_RC_OK;

	if (stmt->message != NULL)
	{
		Oid			msgtype;
		int32		msgtypmod;
		Datum		msg;

		msg = exec_eval_expr(estate, stmt->message, &isnull, &msgtype,
							 &msgtypmod);
		if (!isnull)
			message = convert_value_to_string(estate, msg, msgtype);

		/*
		 * The text may live in the expression context; ereport copies it
		 * before anything resets that.
		 */
	}

	ereport(ERROR,
			(errcode(ERRCODE_ASSERT_FAILURE),
			 message != NULL ? errmsg_internal("%s", message) :
			 errmsg("assertion failed")));
	return PLN_RC_OK;			/* not reached */
}
