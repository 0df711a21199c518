/*-------------------------------------------------------------------------
 *
 * tracer.c
 *	  The tracer of PL/nimble functions: a consumer of the plugin hook
 *	  (pln_plugin.h), attached while plnimble.tracer is on.
 *
 * Every function entry and exit, and with plnimble.tracer_verbosity =
 * statements every statement's start and end, is reported at
 * plnimble.tracer_level with the function, the line and the time since
 * the call or statement started; an entry also shows the argument values,
 * cut to plnimble.tracer_variable_max_length characters.  Values can be
 * secrets, so only a superuser may turn the tracer on.
 *
 * Each message starts with the depth of the call among the traced calls
 * running ("#2" for a function called by a traced one), and for
 * statements the statement's number in the function ("#2.5").
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "portability/instr_time.h"
#include "utils/guc.h"

#include "plnimble.h"

typedef enum TracerVerbosity
{
	TRACER_FUNCTIONS,
	TRACER_STATEMENTS
} TracerVerbosity;

static bool tracer_enabled = false;
static int	tracer_verbosity = TRACER_FUNCTIONS;
static int	tracer_level = NOTICE;
static int	tracer_variable_max_length = 1024;
static bool tracer_test_mode = false;

static const struct config_enum_entry verbosity_options[] = {
	{"functions", TRACER_FUNCTIONS, false},
	{"statements", TRACER_STATEMENTS, false},
	{NULL, 0, false}
};

static const struct config_enum_entry level_options[] = {
	{"debug5", DEBUG5, false},
	{"debug4", DEBUG4, false},
	{"debug3", DEBUG3, false},
	{"debug2", DEBUG2, false},
	{"debug1", DEBUG1, false},
	{"debug", DEBUG2, true},
	{"log", LOG, false},
	{"info", INFO, false},
	{"notice", NOTICE, false},
	{"warning", WARNING, false},
	{NULL, 0, false}
};

/* per call, PLN_PLUGIN_INFO */
typedef struct TracerCall
{
	int			depth;
	instr_time	start;
	instr_time *stmt_start;		/* by stmtid */
} TracerCall;

/* the depth of the innermost traced call running */
static int	tracer_depth = 0;

static void tracer_func_setup(PlnExecState *estate, PlnFunction *func);
static void tracer_func_beg(PlnExecState *estate, PlnFunction *func);
static void tracer_func_end(PlnExecState *estate, PlnFunction *func);
static void tracer_stmt_beg(PlnExecState *estate, PlnStmt *stmt);
static void tracer_stmt_end(PlnExecState *estate, PlnStmt *stmt);

static PlnPlugin tracer_plugin = {
	.name = "plnimble tracer",
	.func_setup = tracer_func_setup,
	.func_beg = tracer_func_beg,
	.func_end = tracer_func_end,
	.stmt_beg = tracer_stmt_beg,
	.stmt_end = tracer_stmt_end,
};

static inline TracerCall *
tracer_call(PlnExecState *estate)
{
	return (TracerCall *) PLN_PLUGIN_INFO(estate, &tracer_plugin);
}

/* "elapsed time=1.234 ms" (no figure in test mode: times vary) */
static void
append_elapsed(StringInfo buf, instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	if (tracer_test_mode)
		appendStringInfoString(buf, "elapsed time=x ms");
	else
		appendStringInfo(buf, "elapsed time=%.3f ms",
						 INSTR_TIME_GET_MILLISEC(now));
}

/* Append a value, cut to the maximum length, quoted as a literal */
static void
append_value(StringInfo buf, const char *value)
{
	int			len;

	if (value == NULL)
	{
		appendStringInfoString(buf, "NULL");
		return;
	}
	len = strlen(value);
	appendStringInfoChar(buf, '\'');
	if (len > tracer_variable_max_length)
	{
		len = pg_mbcliplen(value, len, tracer_variable_max_length);
		appendBinaryStringInfo(buf, value, len);
		appendStringInfoString(buf, "'...");
	}
	else
	{
		appendStringInfoString(buf, value);
		appendStringInfoChar(buf, '\'');
	}
}

static void
tracer_func_setup(PlnExecState *estate, PlnFunction *func)
{
	TracerCall *call = palloc(sizeof(TracerCall));

	call->depth = ++tracer_depth;
	call->stmt_start = tracer_verbosity == TRACER_STATEMENTS ?
		palloc0(sizeof(instr_time) * (func->nstatements + 1)) : NULL;
	INSTR_TIME_SET_CURRENT(call->start);
	PLN_PLUGIN_INFO(estate, &tracer_plugin) = call;
}

static void
tracer_func_beg(PlnExecState *estate, PlnFunction *func)
{
	TracerCall *call = tracer_call(estate);
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < func->fn_nargs; i++)
	{
		int			dno = func->fn_argvarnos[i];
		PlnVariable *var = (PlnVariable *) estate->datums[dno];
		char	   *value = pln_plugins.datum_text(estate, dno);

		appendStringInfo(&buf, "%s%s => ", i > 0 ? ", " : "", var->refname);
		append_value(&buf, value);
	}
	ereport(tracer_level,
			(errmsg("#%d ->> start of %s (line %d)%s%s",
					call->depth, func->fn_signature, func->action->lineno,
					func->fn_nargs > 0 ? ", arguments: " : "", buf.data)));
	pfree(buf.data);
}

static void
tracer_func_end(PlnExecState *estate, PlnFunction *func)
{
	TracerCall *call = tracer_call(estate);
	StringInfoData buf;

	initStringInfo(&buf);
	append_elapsed(&buf, call->start);
	ereport(tracer_level,
			(errmsg("#%d <<- end of %s (%s)",
					call->depth, func->fn_signature, buf.data)));
	pfree(buf.data);
	tracer_depth = call->depth - 1;
}

static void
tracer_stmt_beg(PlnExecState *estate, PlnStmt *stmt)
{
	TracerCall *call = tracer_call(estate);

	/* the call running a statement is the innermost (after an error too) */
	tracer_depth = call->depth;
	if (call->stmt_start == NULL || stmt->stmtid > estate->func->nstatements)
		return;
	INSTR_TIME_SET_CURRENT(call->stmt_start[stmt->stmtid]);
	ereport(tracer_level,
			(errmsg("#%d.%u --> start of %s (line %d)",
					call->depth, stmt->stmtid, pln_stmt_typename(stmt),
					stmt->lineno)));
}

static void
tracer_stmt_end(PlnExecState *estate, PlnStmt *stmt)
{
	TracerCall *call = tracer_call(estate);
	StringInfoData buf;

	if (call->stmt_start == NULL || stmt->stmtid > estate->func->nstatements)
		return;
	initStringInfo(&buf);
	append_elapsed(&buf, call->stmt_start[stmt->stmtid]);
	ereport(tracer_level,
			(errmsg("#%d.%u <-- end of %s (line %d, %s)",
					call->depth, stmt->stmtid, pln_stmt_typename(stmt),
					stmt->lineno, buf.data)));
	pfree(buf.data);
}

static void
tracer_assign(bool newval, void *extra)
{
	pln_plugin_set_attached(&tracer_plugin, newval);
	tracer_depth = 0;
}

/* No traced call runs after the transaction aborts */
static void
tracer_xact_cb(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT)
		tracer_depth = 0;
}

/* At module load (handler.c) */
void
pln_tracer_init(void)
{
	RegisterXactCallback(tracer_xact_cb, NULL);

	DefineCustomBoolVariable("plnimble.tracer",
							 gettext_noop("Report every entry and exit of PL/nimble functions."),
							 gettext_noop("The reports show argument values, so only superusers may turn this on."),
							 &tracer_enabled,
							 false,
							 PGC_SUSET, 0,
							 NULL, tracer_assign, NULL);

	DefineCustomEnumVariable("plnimble.tracer_verbosity",
							 gettext_noop("What the tracer reports: function entries and exits, or statements too."),
							 NULL,
							 &tracer_verbosity,
							 TRACER_FUNCTIONS,
							 verbosity_options,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);

	DefineCustomEnumVariable("plnimble.tracer_level",
							 gettext_noop("The message level of the tracer's reports."),
							 NULL,
							 &tracer_level,
							 NOTICE,
							 level_options,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("plnimble.tracer_variable_max_length",
							gettext_noop("The longest value the tracer shows in full."),
							NULL,
							&tracer_variable_max_length,
							1024, 10, INT_MAX / 2,
							PGC_SUSET, 0,
							NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.tracer_test_mode",
							 gettext_noop("Show no times in the tracer's reports, for regression tests."),
							 NULL,
							 &tracer_test_mode,
							 false,
							 PGC_SUSET, GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
							 NULL, NULL, NULL);
}
