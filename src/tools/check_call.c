/*-------------------------------------------------------------------------
 *
 * check_call.c
 *	  The SQL functions of the checker: plnimble_check_function() and
 *	  plnimble_check_function_tb(), with plpgsql_check 2.3's arguments, in
 *	  its order, so that a call written for plpgsql_check runs after the
 *	  function's name is changed.
 *
 * Each comes in two forms: the routine as a regprocedure, or as text
 * ('f' or 'f(int)'): a text with a parenthesis is read as a regprocedure,
 * one without names the only function of that name (an error if there
 * are several or none), as plpgsql_check resolves it.  This file reads
 * the arguments into PlnCheckOptions, runs the check (check.c) and puts
 * the findings in the result: text lines, one XML or JSON document
 * (check_report.c), or one row a finding.  It does not check anything
 * itself.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "plnimble.h"
#include "tools/pln_check.h"
#include "tools/pln_explain.h"

PG_FUNCTION_INFO_V1(plnimble_check_function);
PG_FUNCTION_INFO_V1(plnimble_check_function_tb);

/*
 * The arguments after the routine and relid, by position in the tabular
 * form; the text form has "format" third and the rest one further on.
 */
enum
{
	ARG_FATAL_ERRORS,
	ARG_OTHER_WARNINGS,
	ARG_PERFORMANCE_WARNINGS,
	ARG_EXTRA_WARNINGS,
	ARG_SECURITY_WARNINGS,
	ARG_COMPATIBILITY_WARNINGS,
	ARG_OLDTABLE,
	ARG_NEWTABLE,
	ARG_ANYELEMENTTYPE,
	ARG_ANYENUMTYPE,
	ARG_ANYRANGETYPE,
	ARG_ANYCOMPATIBLETYPE,
	ARG_ANYCOMPATIBLERANGETYPE,
	ARG_WITHOUT_WARNINGS,
	ARG_ALL_WARNINGS,
	ARG_USE_INCOMMENT_OPTIONS,
	ARG_INCOMMENT_OPTIONS_USAGE_WARNING,
	NUM_OPTION_ARGS
};

/*
 * The routine named by the first argument: a regprocedure, or text
 * resolved as plpgsql_check resolves it.
 */
Oid
pln_check_routine_arg(FunctionCallInfo fcinfo, const char *fname)
{
	Oid			argtype = get_fn_expr_argtype(fcinfo->flinfo, 0);
	char	   *name;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the first argument of %s must not be NULL", fname)));
	if (argtype != TEXTOID)
		return PG_GETARG_OID(0);
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (strchr(name, '(') != NULL)
		return DatumGetObjectId(DirectFunctionCall1(regprocedurein,
													CStringGetDatum(name)));
	/* a bare name: the one function of that name, else regprocin's error */
	return DatumGetObjectId(DirectFunctionCall1(regprocin,
												CStringGetDatum(name)));
}

const PlnWarningClass pln_warning_classes[PLN_NWARNING_CLASSES] = {
	{PLN_CHECK_WARNING, "other_warnings",
	offsetof(PlnCheckOptions, other_warnings), PLN_PRAGMA_OTHER_WARNINGS},
	{PLN_CHECK_PERFORMANCE, "performance_warnings",
	offsetof(PlnCheckOptions, performance_warnings), PLN_PRAGMA_PERFORMANCE_WARNINGS},
	{PLN_CHECK_WARNING_EXTRA, "extra_warnings",
	offsetof(PlnCheckOptions, extra_warnings), PLN_PRAGMA_EXTRA_WARNINGS},
	{PLN_CHECK_SECURITY, "security_warnings",
	offsetof(PlnCheckOptions, security_warnings), PLN_PRAGMA_SECURITY_WARNINGS},
	{PLN_CHECK_COMPATIBILITY, "compatibility_warnings",
	offsetof(PlnCheckOptions, compatibility_warnings), PLN_PRAGMA_COMPATIBILITY_WARNINGS},
};

/* all_warnings (on) and without_warnings (off): every class at once */
void
pln_check_set_all_warnings(PlnCheckOptions *opts, bool on)
{
	int			i;

	for (i = 0; i < PLN_NWARNING_CLASSES; i++)
		*pln_warning_option(opts, &pln_warning_classes[i]) = on;
}

static bool
bool_arg(FunctionCallInfo fcinfo, int argno, bool dflt)
{
	if (argno >= PG_NARGS() || PG_ARGISNULL(argno))
		return dflt;
	return PG_GETARG_BOOL(argno);
}

static char *
name_arg(FunctionCallInfo fcinfo, int argno)
{
	if (argno >= PG_NARGS() || PG_ARGISNULL(argno))
		return NULL;
	return pstrdup(NameStr(*PG_GETARG_NAME(argno)));
}

/*
 * A type for polymorphic parameters: only the defaults are supported (the
 * ones PL/pgSQL's validator uses too); another one is an error, not a
 * silent check with the default.
 */
static void
poly_type_arg(FunctionCallInfo fcinfo, int argno, const char *argname,
			  Oid dflt)
{
	Oid			t;

	if (argno >= PG_NARGS() || PG_ARGISNULL(argno))
		return;
	t = PG_GETARG_OID(argno);
	if (t != dflt)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s other than %s is not supported", argname,
						OidIsValid(dflt) ? format_type_be(dflt) : "-"),
				 errdetail("Polymorphic parameters are checked as PL/pgSQL's validator types them.")));
}

/*
 * Read the options.  "first" is the position of fatal_errors (2 in the
 * tabular form, 3 in the text form).
 */
static Oid
check_arguments(FunctionCallInfo fcinfo, PlnCheckOptions *opts, int first,
				const char *fname)
{
	Oid			funcoid = pln_check_routine_arg(fcinfo, fname);
	bool		without;
	bool		all;

	memset(opts, 0, sizeof(*opts));
	opts->relid = PG_ARGISNULL(1) ? InvalidOid : PG_GETARG_OID(1);
	opts->fatal_errors = bool_arg(fcinfo, first + ARG_FATAL_ERRORS, true);
	opts->other_warnings = bool_arg(fcinfo, first + ARG_OTHER_WARNINGS, true);
	opts->performance_warnings = bool_arg(fcinfo, first + ARG_PERFORMANCE_WARNINGS, false);
	opts->extra_warnings = bool_arg(fcinfo, first + ARG_EXTRA_WARNINGS, true);
	opts->security_warnings = bool_arg(fcinfo, first + ARG_SECURITY_WARNINGS, false);
	opts->compatibility_warnings = bool_arg(fcinfo, first + ARG_COMPATIBILITY_WARNINGS, false);
	opts->oldtable = name_arg(fcinfo, first + ARG_OLDTABLE);
	opts->newtable = name_arg(fcinfo, first + ARG_NEWTABLE);
	poly_type_arg(fcinfo, first + ARG_ANYELEMENTTYPE, "anyelememttype", INT4OID);
	poly_type_arg(fcinfo, first + ARG_ANYENUMTYPE, "anyenumtype", InvalidOid);
	poly_type_arg(fcinfo, first + ARG_ANYRANGETYPE, "anyrangetype", INT4RANGEOID);
	poly_type_arg(fcinfo, first + ARG_ANYCOMPATIBLETYPE, "anycompatibletype", INT4OID);
	poly_type_arg(fcinfo, first + ARG_ANYCOMPATIBLERANGETYPE, "anycompatiblerangetype", INT4RANGEOID);
	without = bool_arg(fcinfo, first + ARG_WITHOUT_WARNINGS, false);
	all = bool_arg(fcinfo, first + ARG_ALL_WARNINGS, false);
	opts->use_incomment_options = bool_arg(fcinfo, first + ARG_USE_INCOMMENT_OPTIONS, true);
	opts->incomment_options_usage_warning =
		bool_arg(fcinfo, first + ARG_INCOMMENT_OPTIONS_USAGE_WARNING, false);

	if (without && all)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("without_warnings and all_warnings cannot be true at the same time")));
	if (without || all)
		pln_check_set_all_warnings(opts, all);

	pln_tool_may_analyse(funcoid, fname);

	if (get_func_rettype(funcoid) == TRIGGEROID && OidIsValid(opts->relid) &&
		get_rel_relkind(opts->relid) == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", opts->relid)));
	return funcoid;
}

static void
put_text(ReturnSetInfo *rsinfo, const char *s)
{
	Datum		value = CStringGetTextDatum(s);
	bool		isnull = false;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
}

/*
 * plnimble_check_function(funcoid regprocedure | name text, relid regclass,
 *						   format text, fatal_errors boolean, ...)
 * returns setof text
 */
Datum
plnimble_check_function(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PlnCheckOptions opts;
	Oid			funcoid;
	char	   *format;
	List	   *findings;
	ListCell   *lc;

	funcoid = check_arguments(fcinfo, &opts, 3, "plnimble_check_function");
	format = PG_ARGISNULL(2) ? "text" : text_to_cstring(PG_GETARG_TEXT_PP(2));
	if (pg_strcasecmp(format, "text") != 0 &&
		pg_strcasecmp(format, "xml") != 0 &&
		pg_strcasecmp(format, "json") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized format: \"%s\"", format),
				 errhint("The formats are \"text\", \"xml\" and \"json\".")));

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	findings = pln_check_function(funcoid, &opts, NULL);

	if (pg_strcasecmp(format, "xml") == 0)
	{
		if (findings != NIL)
			put_text(rsinfo, pln_check_findings_xml(findings));
		return (Datum) 0;
	}
	if (pg_strcasecmp(format, "json") == 0)
	{
		if (findings != NIL)
			put_text(rsinfo, pln_check_findings_json(findings));
		return (Datum) 0;
	}
	foreach(lc, findings)
	{
		ListCell   *l;

		foreach(l, pln_check_finding_lines((PlnCheckFinding *) lfirst(lc)))
			put_text(rsinfo, (char *) lfirst(l));
	}
	return (Datum) 0;
}

static Datum
text_or_null(const char *s, bool *isnull)
{
	*isnull = (s == NULL);
	return s ? CStringGetTextDatum(s) : (Datum) 0;
}

/* plnimble_check_function_tb(...): one row a finding */
Datum
plnimble_check_function_tb(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PlnCheckOptions opts;
	Oid			funcoid;
	List	   *findings;
	ListCell   *lc;

	funcoid = check_arguments(fcinfo, &opts, 2, "plnimble_check_function_tb");
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	findings = pln_check_function(funcoid, &opts, NULL);

	foreach(lc, findings)
	{
		PlnCheckFinding *f = (PlnCheckFinding *) lfirst(lc);
		Datum		values[11];
		bool		nulls[11];

		values[0] = ObjectIdGetDatum(funcoid);
		nulls[0] = false;
		values[1] = Int32GetDatum(f->lineno);
		nulls[1] = (f->lineno <= 0);
		values[2] = text_or_null(f->stmtname, &nulls[2]);
		values[3] = text_or_null(unpack_sql_state(f->sqlerrcode), &nulls[3]);
		values[4] = text_or_null(f->message, &nulls[4]);
		values[5] = text_or_null(f->detail, &nulls[5]);
		values[6] = text_or_null(f->hint, &nulls[6]);
		values[7] = text_or_null(pln_check_level_name(f->level), &nulls[7]);
		values[8] = Int32GetDatum(f->position);
		nulls[8] = (f->position <= 0);
		values[9] = text_or_null(f->query, &nulls[9]);
		values[10] = text_or_null(f->context, &nulls[10]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
