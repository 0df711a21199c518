/*-------------------------------------------------------------------------
 *
 * handler.c
 *	  Entry points of the PL/nimble language: the call handler, the inline
 *	  handler for DO, the validator, and module load (GUCs).
 *
 * Each entry point finds or compiles the function (compile.c) and runs it
 * (exec.c).  The call handler leaves connecting to SPI to the executor,
 * which does it on first need (many calls never do), except for a
 * procedure that may end transactions; DO and the validator connect for
 * the whole call.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/trigger.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "plnimble.h"
#include "tools/pln_check.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(plnimble_call_handler);
PG_FUNCTION_INFO_V1(plnimble_inline_handler);
PG_FUNCTION_INFO_V1(plnimble_validator);

static char *extra_warnings_string = NULL;
static char *extra_errors_string = NULL;

static const struct config_enum_entry variable_conflict_options[] = {
	{"error", PLN_RESOLVE_ERROR, false},
	{"use_variable", PLN_RESOLVE_VARIABLE, false},
	{"use_column", PLN_RESOLVE_COLUMN, false},
	{NULL, 0, false}
};

/*
 * extra_warnings / extra_errors: "none", "all", or a list of check names.
 * The bits are handed to the assign hook through *extra, which the GUC
 * machinery requires to be malloc'd.
 */
static bool
check_extra_checks(char **newvalue, void **extra, GucSource source)
{
	static const struct
	{
		const char *name;
		int			bit;
	}			checks[] =
	{
		{"shadowed_variables", PLN_XCHECK_SHADOWVAR},
		{"too_many_rows", PLN_XCHECK_TOOMANYROWS},
		{"strict_multi_assignment", PLN_XCHECK_STRICTMULTIASSIGNMENT},
	};
	int			bits = PLN_XCHECK_NONE;
	bool		ok = true;
	int		   *result;

	if (pg_strcasecmp(*newvalue, "all") == 0)
		bits = PLN_XCHECK_ALL;
	else if (pg_strcasecmp(*newvalue, "none") != 0)
	{
		char	   *copy = pstrdup(*newvalue);	/* split in place */
		List	   *names = NIL;
		ListCell   *lc;

		if (!SplitIdentifierString(copy, ',', &names))
		{
			GUC_check_errdetail("List syntax is invalid.");
			ok = false;
		}

		foreach(lc, names)
		{
			const char *name = (const char *) lfirst(lc);
			int			i;

			if (!ok)
				break;
			for (i = 0; i < lengthof(checks); i++)
			{
				if (pg_strcasecmp(name, checks[i].name) == 0)
					break;
			}
			if (i < lengthof(checks))
				bits |= checks[i].bit;
			else if (pg_strcasecmp(name, "all") == 0 ||
					 pg_strcasecmp(name, "none") == 0)
			{
				GUC_check_errdetail("Key word \"%s\" cannot be combined with other key words.", name);
				ok = false;
			}
			else
			{
				GUC_check_errdetail("Unrecognized key word: \"%s\".", name);
				ok = false;
			}
		}

		pfree(copy);
		list_free(names);
		if (!ok)
			return false;
	}

	result = (int *) pln_guc_extra_alloc(sizeof(int));
	if (result == NULL)
		return false;
	*result = bits;
	*extra = result;
	return true;
}

static void
assign_extra_warnings(const char *newvalue, void *extra)
{
	pln_extra_warnings = *((int *) extra);
}

static void
assign_extra_errors(const char *newvalue, void *extra)
{
	pln_extra_errors = *((int *) extra);
}

/*
 * Module load: settings and transaction callbacks.
 */
void
_PG_init(void)
{
	static bool inited = false;

	if (inited)
		return;

	/* what the lower layers call back (pln_compile.h, pln_savepoint.h) */
	pln_compile_hooks.check_sql_version = pln_check_sql_version;
	pln_compile_hooks.datum_type_info = pln_exec_get_datum_type_info;
	pln_compile_hooks.mark_write_path = pln_write_path_mark;
	pln_compile_hooks.dump_function = pln_dump_function;
	pln_exec_init();

	/* (before the settings whose assign hooks attach consumers) */
	pln_plugin_init();
	pln_write_path_init();
	pln_read_guard_init();
#ifdef PLN_SERVER_CHECK
	pln_server_check_init();
#endif

	DefineCustomEnumVariable("plnimble.variable_conflict",
							 gettext_noop("Sets handling of conflicts between PL/nimble variable names and table column names."),
							 NULL,
							 &pln_variable_conflict,
							 PLN_RESOLVE_ERROR,
							 variable_conflict_options,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.print_strict_params",
							 gettext_noop("Print information about parameters in the DETAIL part of the error messages generated on INTO ... STRICT failures."),
							 NULL,
							 &pln_print_strict_params,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.check_on_first_call",
							 gettext_noop("Checks each function as plnimble_check_function() does when a session first compiles it, and fails the call on an error."),
							 NULL,
							 &pln_check_on_first_call,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.check_on_every_call",
							 gettext_noop("Checks each function as plnimble.check_on_first_call does, at every call."),
							 NULL,
							 &pln_check_on_every_call,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.check_fatal_errors",
							 gettext_noop("Makes an error found by the checks of check_on_first_call and check_on_every_call fail the call; off: a warning."),
							 NULL,
							 &pln_check_fatal_errors,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.check_asserts",
							 gettext_noop("Perform checks given in ASSERT statements."),
							 NULL,
							 &pln_check_asserts,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomStringVariable("plnimble.extra_warnings",
							   gettext_noop("List of programming constructs that should produce a warning."),
							   NULL,
							   &extra_warnings_string,
							   "none",
							   PGC_USERSET, GUC_LIST_INPUT,
							   check_extra_checks,
							   assign_extra_warnings,
							   NULL);

	DefineCustomStringVariable("plnimble.extra_errors",
							   gettext_noop("List of programming constructs that should produce an error."),
							   NULL,
							   &extra_errors_string,
							   "none",
							   PGC_USERSET, GUC_LIST_INPUT,
							   check_extra_checks,
							   assign_extra_errors,
							   NULL);

	DefineCustomBoolVariable("plnimble.lazy_savepoints",
							 gettext_noop("Start the subtransaction of an exception block only when the block first needs it."),
							 gettext_noop("When off, every entry into a block with an EXCEPTION clause starts a subtransaction, as in PL/pgSQL."),
							 &pln_lazy_savepoints,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.write_path",
							 gettext_noop("Run an INSERT that ends a block catching only unique_violation without the block's subtransaction, where that is exactly equivalent."),
							 gettext_noop("When off, such a block starts its subtransaction for the INSERT, as any other block does."),
							 &pln_write_path,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("plnimble.identify_as_plpgsql",
							 gettext_noop("Name the language PL/pgSQL in messages and error context lines."),
							 gettext_noop("For tools that compare message texts with what PL/pgSQL prints."),
							 &pln_identify_as_plpgsql,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	pln_profiler_init();
	pln_tracer_init();

	MarkGUCPrefixReserved("plnimble");

	RegisterXactCallback(pln_xact_cb, NULL);
	RegisterSubXactCallback(pln_subxact_cb, NULL);
	CacheRegisterSyscacheCallback(PROCOID, pln_proc_inval_callback, (Datum) 0);

	inited = true;
}

/*
 * Passive checking: once per compilation, whether it passes or not (as
 * plpgsql_check's fresh_start: the next call runs), or at every call.
 */
static inline void
check_at_first_call_once(PlnFunction *func, FunctionCallInfo fcinfo)
{
	if (unlikely(pln_check_on_first_call || pln_check_on_every_call) &&
		(pln_check_on_every_call || !func->fn_first_call_checked))
	{
		func->fn_first_call_checked = true;
		pln_check_at_first_call(func, fcinfo);
	}
}

/* Is this a call of a procedure that may end transactions? */
static inline bool
call_is_nonatomic(FunctionCallInfo fcinfo)
{
	return fcinfo->context &&
		IsA(fcinfo->context, CallContext) &&
		!castNode(CallContext, fcinfo->context)->atomic;
}

/*
 * Run a call on the ordinary path (exec.c).  func is the function, or
 * NULL for a procedure that may end transactions (call_is_nonatomic),
 * which is compiled here (after connecting to SPI).  fast_call_error is the error a handler of
 * the function's block catches, when the fast entry hands the call over
 * (fast_call.c), or NULL.
 */
pg_noinline Datum
pln_call_ordinary(FunctionCallInfo fcinfo, PlnFunction *func,
				  ErrorData *fast_call_error)
{
	/*
	 * Read after PG_TRY, so kept out of registers that the longjmp of an
	 * error would leave clobbered.
	 */
	volatile bool nonatomic = (func == NULL);
	volatile Datum retval = (Datum) 0;
	PlnExecState *save_cur_estate;
	int			save_handler_depth;
	ResourceOwner volatile procedure_resowner = NULL;

	/*
	 * SPI is connected by the executor when the function first needs it
	 * (many calls never do), and finished by pln_exec_function.  A call
	 * that may end transactions (a procedure CALLed in a non-atomic
	 * context) is connected now instead, so that its memory is SPI's,
	 * which outlives a COMMIT; the caller's memory may not.
	 */
	if (nonatomic)
	{
		int			rc;

		Assert(fast_call_error == NULL);
		rc = SPI_connect_ext(SPI_OPT_NONATOMIC);
		if (rc != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
		func = pln_compile(fcinfo, false);
		check_at_first_call_once(func, fcinfo);
	}

	/*
	 * A procedure that may end transactions holds the plans of its CALL and
	 * DO statements in a resource owner of its own, which outlives them.
	 * It belongs to no transaction, so it must be freed on every exit: no
	 * code that can fail between here and the PG_TRY.
	 */
	if (nonatomic)
		procedure_resowner = ResourceOwnerCreate(NULL, "PL/nimble procedure resources");

	/* the function must stay while we run it, even if recompiled meanwhile */
	save_cur_estate = func->cur_estate;
	func->use_count++;

	/* the caller may have changed anything: check plans again */
	pln_forget_plan_checks();
	save_handler_depth = pln_handler_depth;

	PG_TRY();
	{

		if (unlikely(fast_call_error != NULL))
			retval = pln_exec_function_replaying(func, fcinfo,
												 fast_call_error);
		else
			retval = pln_exec_function(func, fcinfo, !nonatomic, nonatomic,
									   procedure_resowner);
	}
	PG_FINALLY();
	{
		/* and so may this call have, for the caller's plans */
		pln_forget_plan_checks();
		/* an error leaving a handler of ours leaves the depth raised */
		pln_handler_depth = save_handler_depth;
		func->cur_estate = save_cur_estate;
		func->use_count--;
		if (procedure_resowner != NULL)
		{
			pln_release_all_plan_refs(procedure_resowner);
			ResourceOwnerDelete(procedure_resowner);
		}
	}
	PG_END_TRY();

	/* a version replaced while we ran it is freed by its last call */
	if (func->use_count == 0 && func->fn_hashkey == NULL)
		pln_free_function_memory(func);

	if (nonatomic)
	{
		int			rc = SPI_finish();

		if (rc != SPI_OK_FINISH)
			elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));
	}

	return retval;
}

/* The ordinary path as a function's call entry (see choose_call_entry) */
static Datum
call_ordinary(FunctionCallInfo fcinfo, PlnFunction *func)
{
	return pln_call_ordinary(fcinfo, func, NULL);
}

/*
 * Choose, once per compiled function, how its calls run: through the fast
 * entry if the function's shape allows (fast_call.c, pln_fast_call_fits),
 * whose gate then decides per call and sends what it does not take to the
 * ordinary path; else always on the ordinary path.
 */
static pg_noinline void
choose_call_entry(PlnFunction *func)
{
	func->call = pln_fast_call_fits(func) ? pln_fast_call : call_ordinary;
}

/*
 * Call handler: run a function or procedure, through the call entry chosen
 * for the compiled function (choose_call_entry).
 */
Datum
plnimble_call_handler(PG_FUNCTION_ARGS)
{
	PlnFunction *func;

	if (call_is_nonatomic(fcinfo))
		return pln_call_ordinary(fcinfo, NULL, NULL);

	func = pln_compile(fcinfo, false);
	check_at_first_call_once(func, fcinfo);
	if (unlikely(func->call == NULL))
		choose_call_entry(func);
	return func->call(fcinfo, func);
}

/*
 * Inline handler: run a DO block.  The block is compiled, run and freed.
 */
Datum
plnimble_inline_handler(PG_FUNCTION_ARGS)
{
	LOCAL_FCINFO(fake_fcinfo, 0);
	InlineCodeBlock *codeblock = castNode(InlineCodeBlock, DatumGetPointer(PG_GETARG_DATUM(0)));
	PlnFunction *func;
	FmgrInfo	flinfo;
	int			rc;
	int			save_handler_depth;
	ResourceOwner volatile procedure_resowner = NULL;

	if ((rc = SPI_connect_ext(codeblock->atomic ? 0 : SPI_OPT_NONATOMIC)) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));

	pln_check_sql_version();
	func = pln_compile_inline(codeblock->source_text);

	MemSet(fake_fcinfo, 0, SizeForFunctionCallInfo(0));
	MemSet(&flinfo, 0, sizeof(flinfo));
	fake_fcinfo->flinfo = &flinfo;
	flinfo.fn_oid = InvalidOid;
	flinfo.fn_mcxt = CurrentMemoryContext;

	func->use_count++;
	/* see plnimble_call_handler */
	pln_forget_plan_checks();
	save_handler_depth = pln_handler_depth;
	if (!codeblock->atomic)
		procedure_resowner = ResourceOwnerCreate(NULL, "PL/nimble DO block resources");
	PG_TRY();
	{
		/* passive checking: a DO block is compiled for each run */
		if (unlikely(pln_check_on_first_call || pln_check_on_every_call))
			pln_check_at_first_call(func, fake_fcinfo);
		(void) pln_exec_function(func, fake_fcinfo, codeblock->atomic, true,
								 procedure_resowner);
	}
	PG_CATCH();
	{
		/* see plnimble_call_handler */
		pln_handler_depth = save_handler_depth;
		/* the block's plans live outside its memory: free them too */
		func->use_count--;
		func->cur_estate = NULL;
		pln_free_function_memory(func);
		if (procedure_resowner != NULL)
		{
			pln_release_all_plan_refs(procedure_resowner);
			ResourceOwnerDelete(procedure_resowner);
		}
		PG_RE_THROW();
	}
	PG_END_TRY();

	if (procedure_resowner != NULL)
	{
		pln_release_all_plan_refs(procedure_resowner);
		ResourceOwnerDelete(procedure_resowner);
	}

	func->use_count--;
	func->cur_estate = NULL;
	pln_free_function_memory(func);
	pln_forget_plan_checks();

	if ((rc = SPI_finish()) != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));

	PG_RETURN_VOID();
}

/* May a function have this type as its result (or as an argument)? */
static bool
pseudotype_allowed(Oid typid, bool as_result)
{
	if (get_typtype(typid) != TYPTYPE_PSEUDO)
		return true;
	if (typid == RECORDOID || IsPolymorphicType(typid))
		return true;
	return as_result && (typid == VOIDOID || typid == TRIGGEROID ||
						 typid == EVENT_TRIGGEROID);
}

/*
 * Validator: check a function at CREATE time.  The body is compiled (and
 * its SQL syntax-checked) unless check_function_bodies is off.
 */
Datum
plnimble_validator(PG_FUNCTION_ARGS)
{
	Oid			funcoid = PG_GETARG_OID(0);
	HeapTuple	tuple;
	Form_pg_proc proc;
	int			numargs;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			i;

	if (!CheckFunctionValidatorAccess(fcinfo->flinfo->fn_oid, funcoid))
		PG_RETURN_VOID();

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for function %u", funcoid);
	proc = (Form_pg_proc) GETSTRUCT(tuple);

	/*
	 * Of the pseudo-types, a result may be void, record, trigger, event
	 * trigger or polymorphic, an argument only record or polymorphic.
	 */
	if (!pseudotype_allowed(proc->prorettype, true))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s functions cannot return type %s",
						PLN_LANG_TITLE,
						format_type_be(proc->prorettype))));

	numargs = get_func_arg_info(tuple, &argtypes, &argnames, &argmodes);
	for (i = 0; i < numargs; i++)
	{
		if (!pseudotype_allowed(argtypes[i], false))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("%s functions cannot accept type %s",
							PLN_LANG_TITLE,
							format_type_be(argtypes[i]))));
	}

	if (check_function_bodies)
	{
		int			rc;

		if ((rc = SPI_connect()) != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));

		(void) pln_compile_for_validation(funcoid, proc->prorettype);

		if ((rc = SPI_finish()) != SPI_OK_FINISH)
			elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));
	}

	ReleaseSysCache(tuple);

	PG_RETURN_VOID();
}
