/*-------------------------------------------------------------------------
 *
 * compile.c
 *	  Compiling function bodies, and the per-backend function cache.
 *
 * A function is compiled on its first call in a backend (or by the
 * validator at CREATE time) and kept in a hash table keyed by its OID and
 * actual argument types.  An entry is used only while the function's
 * pg_proc row is unchanged (same xmin and TID); otherwise it is compiled
 * again.  A call already running keeps the old tree, which is freed only
 * when no call uses it any more.
 *
 * This file also holds the parser hooks through which the server's SQL
 * parser sees PL variables: names in SQL text are resolved, at plan time,
 * against the namespace that was current where the text was written, and
 * become PARAM_EXTERN Params numbered by datum (paramid = dno + 1).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/event_trigger.h"
#include "commands/trigger.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_node.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "plnimble.h"

/* state shared with the grammar while compiling */
bool		pln_check_syntax = false;
bool		pln_DumpExecTree = false;
PlnFunction *pln_curr_compile = NULL;

/* set by _PG_init (see pln_compile.h) */
PlnCompileHooks pln_compile_hooks;
char	   *pln_error_funcname = NULL;
MemoryContext pln_compile_tmp_cxt = NULL;

/* datums of the function being compiled */
static int	datums_alloc;
static int	datums_count;
static PlnDatum **datums_array;
static unsigned int stmt_counter;

/* the function cache */
typedef struct PlnHashEntry
{
	PlnFuncKey	key;
	PlnFunction *function;
} PlnHashEntry;

static HTAB *pln_hashtable = NULL;

#define FUNCTION_CACHE_INITIAL_SIZE 128

static void compile_error_callback(void *arg);
static PlnFunction *do_compile(FunctionCallInfo fcinfo, HeapTuple procTup,
							   PlnFunction *function, PlnFuncKey *hashkey,
							   bool forValidator);
static void finish_compile(PlnFunction *function, const char *proc_source);
static void parse_and_finish(PlnFunction *function, const char *proc_source);
static void end_compile(ErrorContextCallback *errcallback);
static void compute_function_hashkey(FunctionCallInfo fcinfo,
									 Form_pg_proc procStruct,
									 PlnFuncKey *hashkey,
									 bool forValidator);
static Oid	validator_standin_type(Oid typid);
static void use_actual_record_argtypes(int numargs, Oid *argtypes,
									   char *argmodes, FmgrInfo *flinfo);
static PlnFunction *hash_lookup(PlnFuncKey *key);
static void hash_insert(PlnFunction *function, PlnFuncKey *key);
static void hash_delete(PlnFunction *function);
static void delete_function(PlnFunction *func);
static Node *pre_column_ref(ParseState *pstate, ColumnRef *cref);
static Node *post_column_ref(ParseState *pstate, ColumnRef *cref, Node *var);
static Node *param_ref(ParseState *pstate, ParamRef *pref);
static Node *resolve_column_ref(ParseState *pstate, PlnExpr *expr,
								ColumnRef *cref, bool error_if_no_field);
static Node *make_datum_param(PlnExpr *expr, int dno, int location);

/* Was the function compiled from this version of its pg_proc row? */
static bool
compiled_from_row(PlnFunction *function, HeapTuple procTup)
{
	return function->fn_xmin == HeapTupleHeaderGetRawXmin(procTup->t_data) &&
		ItemPointerEquals(&function->fn_tid, &procTup->t_self);
}

/*
 * The rest of pln_compile (pln_compile.h): find the function in the
 * cache, checked against its current pg_proc row, or compile it.
 */
PlnFunction *
pln_compile_or_look_up(FunctionCallInfo fcinfo, bool forValidator)
{
	Oid			funcOid = fcinfo->flinfo->fn_oid;
	HeapTuple	procTup;
	Form_pg_proc procStruct;
	PlnFunction *function;
	PlnFuncKey	hashkey;

	/* once per session: are the installed SQL objects ours? */
	pln_compile_hooks.check_sql_version();

	procTup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcOid));
	if (!HeapTupleIsValid(procTup))
		elog(ERROR, "cache lookup failed for function %u", funcOid);
	procStruct = (Form_pg_proc) GETSTRUCT(procTup);

	/*
	 * Candidates, in order: what a previous call through this FmgrInfo
	 * stashed in fn_extra, then the cache entry for the current key (the
	 * stashed one may have been built for other actual argument types).
	 * A candidate compiled from an older version of the pg_proc row is
	 * stale and leaves the cache; a call still running it keeps it until
	 * it finishes.
	 */
	function = (PlnFunction *) fcinfo->flinfo->fn_extra;
	if (function != NULL && !compiled_from_row(function, procTup))
	{
		delete_function(function);
		function = NULL;
	}
	if (function == NULL)
	{
		compute_function_hashkey(fcinfo, procStruct, &hashkey, forValidator);
		function = hash_lookup(&hashkey);
		if (function != NULL && !compiled_from_row(function, procTup))
		{
			delete_function(function);
			function = NULL;
		}
		if (function == NULL)
			function = do_compile(fcinfo, procTup, NULL, &hashkey,
								  forValidator);
	}

	ReleaseSysCache(procTup);

	if (!forValidator)
	{
		function->fn_proc_hashvalue =
			GetSysCacheHashValue1(PROCOID, ObjectIdGetDatum(funcOid));
		function->fn_proc_checked = true;
	}

	fcinfo->flinfo->fn_extra = (void *) function;
	return function;
}

/*
 * Can the function's text name the variable?  Only by name can code reach
 * a variable, so one whose name does not occur in the text (in any case,
 * quoted or not) is never read: a TG_ variable need not be given a value
 * per call, a handler's SQLERRM need not be set (write_path.c).  A
 * Unicode-escaped identifier (U&"...") could spell any name: with one,
 * every name counts as named.
 */
static bool
source_may_name(const char *lower_source, const char *name)
{
	return strstr(lower_source, name) != NULL ||
		strstr(lower_source, "u&") != NULL;
}

/*
 * The variables a trigger function gets: NEW and OLD (records, given a
 * value per call) and the TG_ variables, all visible by name.
 */
static void
declare_trigger_variables(PlnFunction *function, bool dml,
						  const char *proc_source)
{
	char	   *lower_source = asc_tolower(proc_source, strlen(proc_source));

	static const struct
	{
		PlnTgVar	which;
		const char *name;
		Oid			type;
		bool		dml;		/* DML trigger, else event trigger */
	}			tgvars[] = {
		{PLN_TG_NAME, "tg_name", NAMEOID, true},
		{PLN_TG_WHEN, "tg_when", TEXTOID, true},
		{PLN_TG_LEVEL, "tg_level", TEXTOID, true},
		{PLN_TG_OP, "tg_op", TEXTOID, true},
		{PLN_TG_RELID, "tg_relid", OIDOID, true},
		{PLN_TG_RELNAME, "tg_relname", NAMEOID, true},
		{PLN_TG_TABLE_NAME, "tg_table_name", NAMEOID, true},
		{PLN_TG_TABLE_SCHEMA, "tg_table_schema", NAMEOID, true},
		{PLN_TG_NARGS, "tg_nargs", INT4OID, true},
		{PLN_TG_ARGV, "tg_argv", TEXTARRAYOID, true},
		{PLN_TG_EVENT, "tg_event", TEXTOID, false},
		{PLN_TG_TAG, "tg_tag", TEXTOID, false},
	};
	int			i;

	if (dml)
	{
		PlnType    *rectype = pln_build_datatype(RECORDOID, -1, InvalidOid, NULL);

		function->new_varno = pln_build_variable("new", 0, rectype, true)->dno;
		function->old_varno = pln_build_variable("old", 0, rectype, true)->dno;
	}

	for (i = 0; i < lengthof(tgvars); i++)
	{
		if (tgvars[i].dml != dml)
			continue;
		function->tg_varnos[tgvars[i].which] =
			pln_build_variable(tgvars[i].name, 0,
							   pln_build_datatype(tgvars[i].type, -1,
												  function->fn_input_collation,
												  NULL),
							   true)->dno;
		function->tg_var_named[tgvars[i].which] =
			source_may_name(lower_source, tgvars[i].name);
	}
	pfree(lower_source);
}

/*
 * The row of a function's OUT parameters, when it has several: RETURN and
 * RETURN NEXT hand it back as one composite value of this shape.
 */
static PlnRow *
build_out_param_row(List *out_vars)
{
	PlnRow	   *row = palloc0(sizeof(PlnRow));
	ListCell   *lc;
	int			i = 0;

	row->dtype = PLN_DTYPE_ROW;
	row->refname = "(unnamed row)";
	row->nfields = list_length(out_vars);
	row->fieldnames = palloc(sizeof(char *) * row->nfields);
	row->varnos = palloc(sizeof(int) * row->nfields);
	row->rowtupdesc = CreateTemplateTupleDesc(row->nfields);

	foreach(lc, out_vars)
	{
		PlnVariable *var = (PlnVariable *) lfirst(lc);
		Oid			typoid;
		int32		typmod;

		if (var->dtype == PLN_DTYPE_VAR)
		{
			typoid = ((PlnVar *) var)->datatype->typoid;
			typmod = ((PlnVar *) var)->datatype->atttypmod;
		}
		else
		{
			typoid = ((PlnRec *) var)->rectypeid;
			typmod = -1;
		}
		row->fieldnames[i] = var->refname;
		row->varnos[i] = var->dno;
		TupleDescInitEntry(row->rowtupdesc, i + 1, var->refname,
						   typoid, typmod, 0);
		i++;
	}
	BlessTupleDesc(row->rowtupdesc);
	pln_add_datum((PlnDatum *) row);
	return row;
}

/*
 * Compile one function.  Everything the compiled tree holds is allocated
 * in a new memory context, fn_cxt, owned by the function.
 */
static PlnFunction *
do_compile(FunctionCallInfo fcinfo, HeapTuple procTup, PlnFunction *function,
		   PlnFuncKey *hashkey, bool forValidator)
{
	Form_pg_proc procStruct = (Form_pg_proc) GETSTRUCT(procTup);
	bool		is_trigger = CALLED_AS_TRIGGER(fcinfo);
	bool		is_event_trigger = CALLED_AS_EVENT_TRIGGER(fcinfo);
	Datum		prosrcdatum;
	char	   *proc_source;
	ErrorContextCallback errcallback;
	MemoryContext func_cxt;
	int			numargs;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			i;
	Oid			rettype;
	PlnVariable *var;
	bool		isnull;
	List	   *out_vars = NIL;

	prosrcdatum = SysCacheGetAttr(PROCOID, procTup,
								  Anum_pg_proc_prosrc, &isnull);
	if (isnull)
		elog(ERROR, "null prosrc");
	proc_source = TextDatumGetCString(prosrcdatum);

	/* errors while compiling say which function and where */
	pln_error_funcname = pstrdup(NameStr(procStruct->proname));
	errcallback.callback = compile_error_callback;
	errcallback.arg = forValidator ? proc_source : NULL;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	/* the scanner first: compile errors report its line numbers */
	pln_scanner_init(proc_source);

	pln_check_syntax = forValidator;

	/* a trigger function runs only as a trigger, and takes no arguments */
	if (!is_trigger && procStruct->prorettype == TRIGGEROID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("trigger functions can only be called as triggers")));
	if (!is_event_trigger && procStruct->prorettype == EVENT_TRIGGEROID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("trigger functions can only be called as triggers")));
	if (is_trigger && procStruct->pronargs != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_FUNCTION_DEFINITION),
				 errmsg("trigger functions cannot have declared arguments"),
				 errhint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.")));
	if (is_event_trigger && procStruct->pronargs != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_FUNCTION_DEFINITION),
				 errmsg("event trigger functions cannot have declared arguments")));


	/*
	 * The function's memory context lives until the function is dropped
	 * from the cache.  It starts under the current context so that an error
	 * while compiling frees it; it moves under CacheMemoryContext on
	 * success.
	 */
	func_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "PL/nimble function",
									 ALLOCSET_DEFAULT_SIZES);
	pln_compile_tmp_cxt = MemoryContextSwitchTo(func_cxt);

	/*
	 * The struct itself is never freed: FmgrInfos of running queries may
	 * still point at it (fn_extra) after it is replaced, and they must be
	 * able to see that it is stale.  Everything it owns is in func_cxt.
	 */
	function = MemoryContextAllocZero(TopMemoryContext, sizeof(PlnFunction));
	function->fn_signature = format_procedure(fcinfo->flinfo->fn_oid);
	MemoryContextSetIdentifier(func_cxt, function->fn_signature);
	function->fn_oid = fcinfo->flinfo->fn_oid;
	function->fn_xmin = HeapTupleHeaderGetRawXmin(procTup->t_data);
	function->fn_tid = procTup->t_self;
	function->fn_input_collation = fcinfo->fncollation;
	function->fn_cxt = func_cxt;
	function->fn_prokind = procStruct->prokind;
	function->resolve_option = pln_variable_conflict;
	function->print_strict_params = pln_print_strict_params;
	/*
	 * The compile-time checks (shadowed variables) report only when the
	 * function is created or replaced; the run-time checks read the
	 * settings current when they run.
	 */
	function->extra_warnings = forValidator ? pln_extra_warnings : 0;
	function->extra_errors = forValidator ? pln_extra_errors : 0;
	function->fn_readonly = (procStruct->provolatile != PROVOLATILE_VOLATILE);
	function->fn_retset = procStruct->proretset;

	pln_curr_compile = function;
	pln_ns_init();
	pln_ns_push(NameStr(procStruct->proname), PLN_LABEL_OTHER);
	pln_DumpExecTree = false;
	datums_alloc = 128;
	datums_count = 0;
	datums_array = palloc(sizeof(PlnDatum *) * datums_alloc);
	stmt_counter = 0;

	/* the arguments: each named "$n", and by its name if it has one */
	numargs = get_func_arg_info(procTup, &argtypes, &argnames, &argmodes);
	rettype = procStruct->prorettype;
	if (forValidator)
	{
		for (i = 0; i < numargs; i++)
			argtypes[i] = validator_standin_type(argtypes[i]);
	}
	else if (!resolve_polymorphic_argtypes(numargs, argtypes, argmodes,
										   fcinfo->flinfo->fn_expr))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine actual argument type for polymorphic function \"%s\"",
						NameStr(procStruct->proname))));
	if (!forValidator)
		use_actual_record_argtypes(numargs, argtypes, argmodes,
								   fcinfo->flinfo);
	if (forValidator)
		rettype = validator_standin_type(rettype);
	else if (IsPolymorphicType(rettype))
		rettype = get_fn_expr_rettype(fcinfo->flinfo);

	function->fn_nargs = 0;
	for (i = 0; i < numargs; i++)
	{
		char	   *dollar_name = psprintf("$%d", i + 1);
		char	   *given_name = NULL;
		char		argmode = argmodes ? argmodes[i] : PROARGMODE_IN;
		PlnType    *argdtype;
		PlnNsType	nstype;

		if (argnames != NULL && argnames[i][0] != '\0')
			given_name = argnames[i];

		/* RECORD is the only pseudo-type an argument may have */
		argdtype = pln_build_datatype(argtypes[i], -1,
									  function->fn_input_collation, NULL);
		if (argdtype->typtype == TYPTYPE_PSEUDO && argtypes[i] != RECORDOID)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("%s functions cannot accept type %s",
							PLN_LANG_TITLE,
							format_type_be(argtypes[i]))));

		/*
		 * The variable is known both as $n and by the argument's name, if
		 * it has one; its refname is the name, for messages.
		 */
		var = pln_build_variable(given_name ? given_name : dollar_name,
								 0, argdtype, false);
		/* input arguments come in the call; output ones make the result */
		if (argmode == PROARGMODE_IN || argmode == PROARGMODE_INOUT ||
			argmode == PROARGMODE_VARIADIC)
			function->fn_argvarnos[function->fn_nargs++] = var->dno;
		if (argmode == PROARGMODE_OUT || argmode == PROARGMODE_INOUT ||
			argmode == PROARGMODE_TABLE)
			out_vars = lappend(out_vars, var);

		nstype = (var->dtype == PLN_DTYPE_VAR) ? PLN_NS_VAR : PLN_NS_REC;
		pln_ns_additem(nstype, var->dno, dollar_name);
		if (given_name != NULL)
			pln_ns_additem(nstype, var->dno, given_name);
	}

	/* NEW, OLD and the TG_ variables of trigger functions */
	function->new_varno = -1;
	function->old_varno = -1;
	for (i = 0; i < PLN_TG_NVARS; i++)
		function->tg_varnos[i] = -1;
	function->fn_is_trigger = is_trigger;
	function->fn_is_event_trigger = is_event_trigger;
	if (is_trigger || is_event_trigger)
		declare_trigger_variables(function, is_trigger, proc_source);

	/*
	 * One OUT parameter is a function's result; several make a row.  A
	 * procedure returns a row even for one.
	 */
	function->out_param_varno = -1;
	if (list_length(out_vars) == 1 &&
		procStruct->prokind != PROKIND_PROCEDURE)
		function->out_param_varno = ((PlnVariable *) linitial(out_vars))->dno;
	else if (out_vars != NIL)
		function->out_param_varno = build_out_param_row(out_vars)->dno;

	/* the result */
	function->fn_rettype = rettype;
	if (is_trigger)
	{
		/* a row (or NULL) for the trigger manager */
		function->fn_rettype = TRIGGEROID;
		function->fn_retistuple = true;
		function->fn_retbyval = false;
		function->fn_rettyplen = -1;
	}
	else if (is_event_trigger)
	{
		function->fn_rettype = VOIDOID;
		function->fn_retbyval = true;
		function->fn_rettyplen = sizeof(int32);
	}
	else if (procStruct->prokind != PROKIND_PROCEDURE)
	{
		char		typtype = get_typtype(rettype);

		if (typtype == TYPTYPE_PSEUDO &&
			rettype != VOIDOID && rettype != RECORDOID)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("%s functions cannot return type %s",
							PLN_LANG_TITLE,
							format_type_be(rettype))));
		function->fn_retistuple = type_is_rowtype(rettype);
		function->fn_retisdomain = (typtype == TYPTYPE_DOMAIN);
		get_typlenbyval(rettype, &function->fn_rettyplen,
						&function->fn_retbyval);
	}
	else if (function->out_param_varno >= 0)
	{
		/* a procedure with output parameters returns a row of them */
		function->fn_retistuple = true;
		get_typlenbyval(rettype, &function->fn_rettyplen,
						&function->fn_retbyval);
	}
	else
	{
		function->fn_rettype = VOIDOID;
		function->fn_retbyval = true;
		function->fn_rettyplen = sizeof(int32);
	}

	/*
	 * A function whose result type is polymorphic, and not given by OUT
	 * parameters, has a variable $0 of the actual result type, NULL at
	 * the start of every call (the manual's "ALIAS FOR $0").
	 */
	if (procStruct->prokind != PROKIND_PROCEDURE && !is_trigger &&
		!is_event_trigger && out_vars == NIL &&
		IsPolymorphicType(procStruct->prorettype))
		(void) pln_build_variable("$0", 0,
								  pln_build_datatype(rettype, -1,
													 function->fn_input_collation,
													 NULL),
								  true);

	/* the FOUND variable */
	var = pln_build_variable("found", 0,
							 pln_build_datatype(BOOLOID, -1, InvalidOid, NULL),
							 true);
	function->found_varno = var->dno;

	parse_and_finish(function, proc_source);

	/* done: keep the context for the life of the cache entry */
	MemoryContextSetParent(func_cxt, CacheMemoryContext);
	hash_insert(function, hashkey);

	end_compile(&errcallback);
	return function;
}

/*
 * Compile the body of a DO block.  The result is not cached: the caller
 * frees it with pln_free_function_memory when the block is done.
 */
PlnFunction *
pln_compile_inline(char *proc_source)
{
	char	   *func_name = "inline_code_block";
	PlnFunction *function;
	ErrorContextCallback errcallback;
	PlnVariable *var;
	MemoryContext func_cxt;

	pln_error_funcname = func_name;
	errcallback.callback = compile_error_callback;
	errcallback.arg = proc_source;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	/* a DO block is compiled and run at once: check syntax now */
	pln_check_syntax = check_function_bodies;

	func_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "PL/nimble inline code context",
									 ALLOCSET_DEFAULT_SIZES);
	pln_compile_tmp_cxt = MemoryContextSwitchTo(func_cxt);

	function = palloc0(sizeof(PlnFunction));
	function->fn_signature = pstrdup(func_name);
	function->fn_is_trigger = false;
	function->fn_input_collation = InvalidOid;
	function->fn_cxt = func_cxt;
	function->fn_prokind = PROKIND_FUNCTION;
	function->resolve_option = pln_variable_conflict;
	function->print_strict_params = pln_print_strict_params;
	/* a DO block has no CREATE time: no compile-time checks */
	function->extra_warnings = 0;
	function->extra_errors = 0;
	function->fn_rettype = VOIDOID;
	function->fn_retset = false;
	function->out_param_varno = -1;
	function->fn_retistuple = false;
	function->fn_retbyval = true;
	function->fn_rettyplen = sizeof(int32);
	function->fn_readonly = false;

	pln_curr_compile = function;
	pln_ns_init();
	pln_ns_push(func_name, PLN_LABEL_OTHER);
	pln_DumpExecTree = false;
	datums_alloc = 128;
	datums_count = 0;
	datums_array = palloc(sizeof(PlnDatum *) * datums_alloc);
	stmt_counter = 0;

	var = pln_build_variable("found", 0,
							 pln_build_datatype(BOOLOID, -1, InvalidOid, NULL),
							 true);
	function->found_varno = var->dno;

	pln_scanner_init(proc_source);
	parse_and_finish(function, proc_source);

	end_compile(&errcallback);
	return function;
}

/* Parse the body (the scanner is set up) and finish the function */
static void
parse_and_finish(PlnFunction *function, const char *proc_source)
{
	if (pln_yyparse() != 0)
		elog(ERROR, "PL/nimble parser returned an error");
	function->action = pln_parse_result;
	pln_scanner_finish();

	finish_compile(function, proc_source);
}

/* The end of a compilation that succeeded: the compiler's state is reset */
static void
end_compile(ErrorContextCallback *errcallback)
{
	error_context_stack = errcallback->previous;
	pln_error_funcname = NULL;
	pln_check_syntax = false;
	pln_curr_compile = NULL;
	MemoryContextSwitchTo(pln_compile_tmp_cxt);
	pln_compile_tmp_cxt = NULL;
}

/*
 * Store the datums and statement count collected while parsing, and what
 * the executor needs to know of the whole function
 */
static void
finish_compile(PlnFunction *function, const char *proc_source)
{
	char	   *lower_source = asc_tolower(proc_source, strlen(proc_source));

	function->ndatums = datums_count;
	function->datums = palloc(sizeof(PlnDatum *) * datums_count);
	memcpy(function->datums, datums_array, sizeof(PlnDatum *) * datums_count);
	function->nstatements = stmt_counter;
	function->stmt_checks_stack = pln_stack_check_points(function);
	function->sqlstate_named = source_may_name(lower_source, "sqlstate");
	function->sqlerrm_named = source_may_name(lower_source, "sqlerrm");
	pfree(lower_source);
	pln_compile_hooks.mark_write_path(function);
	function->use_count = 0;

	/* #option dump */
	if (pln_DumpExecTree)
		pln_compile_hooks.dump_function(function);
}

/*
 * Error context while compiling: point into the CREATE FUNCTION or DO
 * statement when the error has a position, else name the line.
 */
static void
compile_error_callback(void *arg)
{
	if (arg)
	{
		/* move a syntax error position into the original statement */
		if (function_parse_error_transpose((const char *) arg))
			return;
	}

	if (pln_error_funcname)
		errcontext("compilation of %s function \"%s\" near line %d",
				   PLN_LANG_TITLE, pln_error_funcname, pln_latest_lineno());
}

/*
 * In the validator, polymorphic types have no actual type yet.  The body
 * is checked as if they were int4, or the int4 array, range or multirange
 * for the polymorphic types of those kinds.  Other types stand for
 * themselves.
 */
static Oid
validator_standin_type(Oid typid)
{
	if (!IsPolymorphicType(typid))
		return typid;
	if (typid == ANYARRAYOID || typid == ANYCOMPATIBLEARRAYOID)
		return INT4ARRAYOID;
	if (typid == ANYRANGEOID || typid == ANYCOMPATIBLERANGEOID)
		return INT4RANGEOID;
	if (typid == ANYMULTIRANGEOID || typid == ANYCOMPATIBLEMULTIRANGEOID)
		return INT4MULTIRANGEOID;
	if (typid == ANYELEMENTOID || typid == ANYNONARRAYOID ||
		typid == ANYENUMOID || typid == ANYCOMPATIBLEOID ||
		typid == ANYCOMPATIBLENONARRAYOID)
		return INT4OID;
	return typid;
}

/*
 * An input argument declared "record" takes the row type it was called
 * with, when the call site knows one, so that its fields have types at
 * compile time.  The hash key carries the same type (see
 * compute_function_hashkey), so each row type gets its own compilation.
 */
static void
use_actual_record_argtypes(int numargs, Oid *argtypes, char *argmodes,
						   FmgrInfo *flinfo)
{
	int			inargno = 0;
	int			i;

	for (i = 0; i < numargs; i++)
	{
		char		mode = argmodes ? argmodes[i] : PROARGMODE_IN;

		if (mode == PROARGMODE_OUT || mode == PROARGMODE_TABLE)
			continue;
		if (argtypes[i] == RECORDOID)
		{
			Oid			actual = get_fn_expr_argtype(flinfo, inargno);

			if (OidIsValid(actual))
				argtypes[i] = actual;
		}
		inargno++;
	}
}

/* ----------
 * Building datums and types
 * ----------
 */

/* Next statement number within the function being compiled */
int
pln_next_stmtid(void)
{
	return ++stmt_counter;
}

/* Add a datum to the function being compiled; returns its dno */
int
pln_add_datum(PlnDatum *datum)
{
	if (datums_count == datums_alloc)
	{
		datums_alloc *= 2;
		datums_array = repalloc(datums_array,
								sizeof(PlnDatum *) * datums_alloc);
	}
	datum->dno = datums_count;
	datums_array[datums_count++] = datum;
	if (pln_curr_compile)
	{
		/* keep the function's view current for the grammar's checks */
		pln_curr_compile->datums = datums_array;
		pln_curr_compile->ndatums = datums_count;
	}
	return datum->dno;
}

/*
 * The type cache entry with the row type of a named composite type or of a
 * domain over one (that of the domain's base type); an error if the type
 * is not (or no longer) a row type.  Reads the catalogs.
 */
TypeCacheEntry *
pln_row_type_cache_entry(Oid typeOid)
{
	TypeCacheEntry *typentry;

	typentry = lookup_type_cache(typeOid, TYPECACHE_TUPDESC |
								 TYPECACHE_DOMAIN_BASE_INFO);
	if (typentry->typtype == TYPTYPE_DOMAIN)
		typentry = lookup_type_cache(typentry->domainBaseType,
									 TYPECACHE_TUPDESC);
	if (typentry->tupDesc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("type %s is not composite",
						format_type_be(typeOid))));
	return typentry;
}

/*
 * Describe a type for storing values of it.
 */
PlnType *
pln_build_datatype(Oid typeOid, int32 typmod, Oid collation,
				   TypeName *origtypname)
{
	HeapTuple	typeTup;
	Form_pg_type typeStruct;
	PlnType    *typ;

	typeTup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typeOid));
	if (!HeapTupleIsValid(typeTup))
		elog(ERROR, "cache lookup failed for type %u", typeOid);
	typeStruct = (Form_pg_type) GETSTRUCT(typeTup);

	if (!typeStruct->typisdefined)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type \"%s\" is only a shell",
						NameStr(typeStruct->typname))));

	typ = palloc0(sizeof(PlnType));
	typ->typname = pstrdup(NameStr(typeStruct->typname));
	typ->typoid = typeOid;
	typ->typlen = typeStruct->typlen;
	typ->typbyval = typeStruct->typbyval;
	typ->typtype = typeStruct->typtype;
	typ->collation = typeStruct->typcollation;
	if (OidIsValid(collation) && OidIsValid(typ->collation))
		typ->collation = collation;
	typ->atttypmod = typmod;

	/* arrays live as expanded arrays in variables: see exec_assign_value */
	if (typeStruct->typtype == TYPTYPE_BASE)
		typ->typisarray = IsTrueArrayType(typeStruct);
	else if (typeStruct->typtype == TYPTYPE_DOMAIN && typ->typlen == -1)
		typ->typisarray = OidIsValid(get_base_element_type(typeStruct->typbasetype));
	if (typ->typisarray)
	{
		/*
		 * Expanding an array needs its element type's length, by-value
		 * flag and alignment; looked up now, so that storing an array
		 * into a variable never reads the catalogs (it may happen in a
		 * handler block without its subtransaction).
		 */
		ArrayMetaState *meta = palloc0(sizeof(ArrayMetaState));

		meta->element_type = typeStruct->typtype == TYPTYPE_DOMAIN ?
			get_base_element_type(typeStruct->typbasetype) :
			typeStruct->typelem;
		get_typlenbyvalalign(meta->element_type, &meta->typlen,
							 &meta->typbyval, &meta->typalign);
		typ->elem_meta = meta;
	}

	if (typeOid == RECORDOID || typeStruct->typtype == TYPTYPE_COMPOSITE)
		typ->is_composite = true;
	else if (typeStruct->typtype == TYPTYPE_DOMAIN &&
			 type_is_rowtype(typeOid))
		typ->is_composite = true;

	/* a named row type: remember what to check it against at run time */
	if (typ->is_composite && typeOid != RECORDOID)
	{
		TypeCacheEntry *typentry = pln_row_type_cache_entry(typeOid);

		typ->origtypname = origtypname ? copyObject(origtypname) : NULL;
		typ->tcache = typentry;
		typ->tupdesc_id = typentry->tupDesc_identifier;
	}

	ReleaseSysCache(typeTup);
	return typ;
}

/*
 * Create a variable of the given type: a PlnRec for composite types and
 * RECORD, a PlnVar otherwise.  With add2namespace, it becomes visible by
 * refname in the current block.
 */
PlnVariable *
pln_build_variable(const char *refname, int lineno, PlnType *dtype,
				   bool add2namespace)
{
	PlnVariable *result;

	if (dtype->is_composite)
	{
		PlnRec	   *rec = palloc0(sizeof(PlnRec));

		rec->dtype = PLN_DTYPE_REC;
		rec->refname = pstrdup(refname);
		rec->lineno = lineno;
		rec->rectypeid = dtype->typoid;
		rec->datatype = dtype;
		rec->erh = NULL;
		pln_add_datum((PlnDatum *) rec);
		if (add2namespace)
			pln_ns_additem(PLN_NS_REC, rec->dno, rec->refname);
		result = (PlnVariable *) rec;
	}
	else
	{
		PlnVar	   *var;

		if (dtype->typtype == TYPTYPE_PSEUDO)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("variable \"%s\" has pseudo-type %s",
							refname, format_type_be(dtype->typoid))));

		var = palloc0(sizeof(PlnVar));
		var->dtype = PLN_DTYPE_VAR;
		var->refname = pstrdup(refname);
		var->lineno = lineno;
		var->datatype = dtype;
		var->value = (Datum) 0;
		var->isnull = true;
		var->freeval = false;
		pln_add_datum((PlnDatum *) var);
		if (add2namespace)
			pln_ns_additem(PLN_NS_VAR, var->dno, var->refname);
		result = (PlnVariable *) var;
	}
	return result;
}

/*
 * The datum for rec.fldname, created once per record and field name.
 */
PlnRecField *
pln_build_recfield(PlnRec *rec, const char *fldname)
{
	PlnRecField *recfield;
	int			i;

	for (i = 0; i < datums_count; i++)
	{
		PlnRecField *fld = (PlnRecField *) datums_array[i];

		if (fld->dtype == PLN_DTYPE_RECFIELD &&
			fld->recparentno == rec->dno &&
			strcmp(fld->fieldname, fldname) == 0)
			return fld;
	}

	recfield = palloc0(sizeof(PlnRecField));
	recfield->dtype = PLN_DTYPE_RECFIELD;
	recfield->fieldname = pstrdup(fldname);
	recfield->recparentno = rec->dno;
	recfield->rectupdescid = INVALID_TUPLEDESC_IDENTIFIER;
	pln_add_datum((PlnDatum *) recfield);
	return recfield;
}

/* ----------
 * Name lookup for the scanner
 *
 * The scanner asks about every name it reads, as one, two or three dotted
 * words.  pln_ns_lookup says which item the leading words denote and how
 * many of the words it took; what is left over decides what the whole
 * name means: nothing left is the item itself, and one word left after a
 * record is a field of it.  Fields get their datum here, at compile time,
 * so that the parser hooks find them later.
 * ----------
 */

/*
 * The datum a dotted name of nwords words denotes, given the namespace
 * item its first nused words identify, or NULL if the name is not a
 * reference to one of our datums.
 */
static PlnDatum *
datum_for_name(PlnNsItem *ns, int nwords, int nused, const char *lastword)
{
	int			rest = nwords - nused;

	switch (ns->itemtype)
	{
		case PLN_NS_VAR:
		case PLN_NS_ROW:
			if (rest == 0)
				return datums_array[ns->itemno];
			break;
		case PLN_NS_REC:
			if (rest == 0)
				return datums_array[ns->itemno];
			if (rest == 1)
				return (PlnDatum *)
					pln_build_recfield((PlnRec *) datums_array[ns->itemno],
									   lastword);
			break;
		default:
			break;
	}
	return NULL;
}

/* A word or dotted words name a variable: say which, for the scanner */
static bool
found_datum(PlnWDatum *wdatum, PlnDatum *datum, char *ident, bool quoted,
			List *idents)
{
	wdatum->datum = datum;
	wdatum->ident = ident;
	wdatum->quoted = quoted;
	wdatum->idents = idents;
	return true;
}

/*
 * A single word: a variable if one by that name is visible and we are in
 * normal lookup mode (in DECLARE, names are being defined; inside SQL,
 * the SQL parser resolves them through the hooks below).
 */
bool
pln_parse_word(char *word1, const char *yytxt, bool lookup,
			   PlnWDatum *wdatum, PlnWord *word)
{
	bool		quoted = (yytxt[0] == '"');

	if (lookup && pln_IdentifierLookup == PLN_LOOKUP_NORMAL)
	{
		PlnNsItem  *ns = pln_ns_lookup(pln_ns_top(), false,
									   word1, NULL, NULL, NULL);
		PlnDatum   *datum = ns ? datum_for_name(ns, 1, 1, NULL) : NULL;

		if (datum != NULL)
			return found_datum(wdatum, datum, word1, quoted, NIL);
	}

	word->ident = word1;
	word->quoted = quoted;
	return false;
}

/*
 * Two or three dotted words: label.variable, record.field,
 * label.record.field.  Dotted names are resolved in SQL text too (only in
 * DECLARE they are not), so that field datums exist for the SQL parser.
 */
static bool
parse_dotted(List *idents, PlnWDatum *wdatum, PlnCWord *cword)
{
	int			nwords = list_length(idents);

	if (pln_IdentifierLookup != PLN_LOOKUP_DECLARE)
	{
		int			nused;
		PlnNsItem  *ns;
		PlnDatum   *datum = NULL;

		ns = pln_ns_lookup(pln_ns_top(), false,
						   strVal(linitial(idents)),
						   strVal(lsecond(idents)),
						   nwords > 2 ? strVal(lthird(idents)) : NULL,
						   &nused);
		if (ns != NULL)
			datum = datum_for_name(ns, nwords, nused,
								   strVal(llast(idents)));

		/*
		 * record.field.subfield: the datum is the field, and the subfield is
		 * left to the SQL parser as indirection on it (so an assignment
		 * "r.f.sub := v" stores a new value of r.f).  Only the first two
		 * words then name the datum.
		 */
		if (datum == NULL && ns != NULL && ns->itemtype == PLN_NS_REC &&
			nwords == 3 && nused == 1)
		{
			datum = (PlnDatum *)
				pln_build_recfield((PlnRec *) datums_array[ns->itemno],
								   strVal(lsecond(idents)));
			idents = list_truncate(idents, 2);
		}
		if (datum != NULL)
			return found_datum(wdatum, datum, NULL, false, idents);
	}

	cword->idents = idents;
	return false;
}

bool
pln_parse_dblword(char *word1, char *word2,
				  PlnWDatum *wdatum, PlnCWord *cword)
{
	return parse_dotted(list_make2(makeString(word1), makeString(word2)),
						wdatum, cword);
}

bool
pln_parse_tripword(char *word1, char *word2, char *word3,
				   PlnWDatum *wdatum, PlnCWord *cword)
{
	return parse_dotted(list_make3(makeString(word1), makeString(word2),
								   makeString(word3)),
						wdatum, cword);
}

/* ----------
 * Parser hooks: PL variables seen from SQL
 *
 * What a name in SQL text means depends on #variable_conflict: with
 * use_variable our variables are tried before the SQL parser looks at
 * tables (pre hook); otherwise after it (post hook), where a name that is
 * both a column and a variable is an error, unless use_column says the
 * column wins.
 * ----------
 */
void
pln_parser_setup(struct ParseState *pstate, PlnExpr *expr)
{
	pstate->p_pre_columnref_hook = pre_column_ref;
	pstate->p_post_columnref_hook = post_column_ref;
	pstate->p_paramref_hook = param_ref;
	pstate->p_ref_hook_state = (void *) expr;
}

static Node *
pre_column_ref(ParseState *pstate, ColumnRef *cref)
{
	PlnExpr    *expr = (PlnExpr *) pstate->p_ref_hook_state;

	if (expr->func->resolve_option != PLN_RESOLVE_VARIABLE)
		return NULL;
	return resolve_column_ref(pstate, expr, cref, false);
}

static Node *
post_column_ref(ParseState *pstate, ColumnRef *cref, Node *var)
{
	PlnExpr    *expr = (PlnExpr *) pstate->p_ref_hook_state;
	Node	   *mine;

	switch (expr->func->resolve_option)
	{
		case PLN_RESOLVE_VARIABLE:
			/* the pre hook has had its turn */
			return NULL;
		case PLN_RESOLVE_COLUMN:
			if (var != NULL)
				return NULL;
			break;
		default:
			break;
	}

	/*
	 * When the SQL parser found no column either, a record variable with
	 * no such field is the likeliest mistake: complain about the field
	 * instead of letting the SQL parser report an unknown column.
	 */
	mine = resolve_column_ref(pstate, expr, cref, var == NULL);

	if (mine != NULL && var != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_AMBIGUOUS_COLUMN),
				 errmsg("column reference \"%s\" is ambiguous",
						NameListToString(cref->fields)),
				 errdetail("It could refer to either a %s variable or a table column.",
						   PLN_LANG_TITLE),
				 parser_errposition(pstate, cref->location)));

	return mine;
}

/* $n in SQL text: the function's n-th argument */
static Node *
param_ref(ParseState *pstate, ParamRef *pref)
{
	PlnExpr    *expr = (PlnExpr *) pstate->p_ref_hook_state;
	char	   *pname = psprintf("$%d", pref->number);
	PlnNsItem  *nse = pln_ns_lookup(expr->ns, false, pname, NULL, NULL, NULL);

	pfree(pname);
	return nse ? make_datum_param(expr, nse->itemno, pref->location) : NULL;
}

/*
 * Resolve a column reference against the expression's namespace.
 * Returns a Param for a variable, or NULL if the name is not ours.
 *
 * The reference has one to three names, the last of which may be "*"
 * (A.* or A.B.*, a whole record).  As for the scanner, the names left
 * over after the namespace item decide: none is the item itself, "*" is a
 * whole record, and one name after a record is a field of it.
 */
static Node *
resolve_column_ref(ParseState *pstate, PlnExpr *expr,
				   ColumnRef *cref, bool error_if_no_field)
{
	PlnExecState *estate = expr->func->cur_estate;
	int			nfields = list_length(cref->fields);
	const char *names[3] = {NULL, NULL, NULL};
	bool		star = false;
	PlnNsItem  *nse;
	int			nused;
	int			rest;
	int			i;

	if (nfields > 3)
		return NULL;
	for (i = 0; i < nfields; i++)
	{
		Node	   *field = (Node *) list_nth(cref->fields, i);

		if (IsA(field, A_Star))
		{
			/* a "*" matches no variable name */
			names[i] = "*";
			star = true;
		}
		else
			names[i] = strVal(field);
	}

	nse = pln_ns_lookup(expr->ns, false, names[0], names[1], names[2],
						&nused);
	if (nse == NULL)
		return NULL;
	rest = nfields - nused;

	switch (nse->itemtype)
	{
		case PLN_NS_VAR:
			if (rest == 0)
				return make_datum_param(expr, nse->itemno, cref->location);
			break;
		case PLN_NS_REC:
		case PLN_NS_ROW:
			if (rest == 0 || (rest == 1 && star))
				return make_datum_param(expr, nse->itemno, cref->location);
			if (rest == 1)
			{
				const char *colname = names[nfields - 1];

				for (i = 0; i < estate->ndatums; i++)
				{
					PlnRecField *fld = (PlnRecField *) estate->datums[i];

					if (fld->dtype == PLN_DTYPE_RECFIELD &&
						fld->recparentno == nse->itemno &&
						strcmp(fld->fieldname, colname) == 0)
						return make_datum_param(expr, i, cref->location);
				}

				/*
				 * Every qualified reference in the body got its field datum
				 * while compiling, so this is a name we never saw: treat it
				 * as a missing field.
				 */
				if (error_if_no_field)
					ereport(ERROR,
							(errcode(ERRCODE_UNDEFINED_COLUMN),
							 errmsg("record \"%s\" has no field \"%s\"",
									names[nused - 1], colname),
							 parser_errposition(pstate, cref->location)));
			}
			break;
		default:
			elog(ERROR, "unrecognized namespace item type: %d",
				 nse->itemtype);
	}

	/* the name's form does not fit the variable's kind */
	return NULL;
}

/*
 * A Param standing for datum dno, typed as the datum is right now.
 */
static Node *
make_datum_param(PlnExpr *expr, int dno, int location)
{
	PlnExecState *estate = expr->func->cur_estate;
	Param	   *param = makeNode(Param);
	MemoryContext oldcontext;

	Assert(dno >= 0 && dno < estate->ndatums);

	/*
	 * Remember that the expression reads this datum (see the fetch hook in
	 * exec_expr.c); the set lives as long as the expression.
	 */
	oldcontext = MemoryContextSwitchTo(expr->func->fn_cxt);
	expr->paramnos = bms_add_member(expr->paramnos, dno);
	MemoryContextSwitchTo(oldcontext);

	param->paramkind = PARAM_EXTERN;
	param->paramid = dno + 1;	/* Param ids count from 1, dnos from 0 */
	param->location = location;
	pln_compile_hooks.datum_type_info(estate, estate->datums[dno],
									  &param->paramtype,
									  &param->paramtypmod,
									  &param->paramcollid);

	return (Node *) param;
}

/* ----------
 * The function cache
 * ----------
 */
/*
 * The cache key: the function, how it is called, and its argument types,
 * actual ones in place of polymorphic ones (each combination is compiled
 * separately).  The key is compared as raw bytes, so it is zeroed first.
 */
static void
compute_function_hashkey(FunctionCallInfo fcinfo, Form_pg_proc procStruct,
						 PlnFuncKey *hashkey, bool forValidator)
{
	int			i;

	memset(hashkey, 0, sizeof(PlnFuncKey));
	hashkey->funcOid = fcinfo->flinfo->fn_oid;
	/* (a trigger and an event trigger function cannot be the same one) */
	hashkey->isTrigger = CALLED_AS_TRIGGER(fcinfo) ||
		CALLED_AS_EVENT_TRIGGER(fcinfo);
	/* NEW and OLD differ per table: compile per trigger */
	if (CALLED_AS_TRIGGER(fcinfo) && !forValidator &&
		((TriggerData *) fcinfo->context)->tg_trigger != NULL)
		hashkey->trigOid = ((TriggerData *) fcinfo->context)->tg_trigger->tgoid;
	hashkey->inputCollation = fcinfo->fncollation;

	for (i = 0; i < procStruct->pronargs; i++)
	{
		Oid			argtype = procStruct->proargtypes.values[i];

		/*
		 * The validator compiles with stand-ins for polymorphic types, and
		 * its key says so: otherwise a call whose actual type is itself a
		 * pseudo-type (a column of type anyarray passed to an anyarray
		 * argument) would find that compilation and run with the stand-in
		 * instead of failing to compile.
		 */
		if (forValidator)
			argtype = validator_standin_type(argtype);
		/* a record argument compiles once per row type passed to it */
		else if (IsPolymorphicType(argtype) || argtype == RECORDOID)
		{
			Oid			actual = get_fn_expr_argtype(fcinfo->flinfo, i);

			if (OidIsValid(actual))
				argtype = actual;
		}
		hashkey->argtypes[i] = argtype;
	}
}

static void
init_hashtable(void)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(PlnFuncKey);
	ctl.entrysize = sizeof(PlnHashEntry);
	pln_hashtable = hash_create("PL/nimble function hash",
								FUNCTION_CACHE_INITIAL_SIZE,
								&ctl,
								HASH_ELEM | HASH_BLOBS);
}

static PlnFunction *
hash_lookup(PlnFuncKey *key)
{
	PlnHashEntry *entry;

	if (pln_hashtable == NULL)
		init_hashtable();
	entry = (PlnHashEntry *) hash_search(pln_hashtable, key, HASH_FIND, NULL);
	return entry ? entry->function : NULL;
}

static void
hash_insert(PlnFunction *function, PlnFuncKey *key)
{
	PlnHashEntry *entry;
	bool		found;

	if (pln_hashtable == NULL)
		init_hashtable();
	entry = (PlnHashEntry *) hash_search(pln_hashtable, key, HASH_ENTER,
										 &found);
	entry->function = function;
	/* keep a copy of the key with the function, for deletion */
	function->fn_hashkey = &entry->key;
}

/*
 * A pg_proc row changed (hashvalue 0: maybe all of them): functions
 * compiled from it must be checked again at their next call.
 */
void
pln_proc_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS status;
	PlnHashEntry *entry;

	if (pln_hashtable == NULL)
		return;
	hash_seq_init(&status, pln_hashtable);
	while ((entry = (PlnHashEntry *) hash_seq_search(&status)) != NULL)
	{
		if (hashvalue == 0 || entry->function->fn_proc_hashvalue == hashvalue)
			entry->function->fn_proc_checked = false;
	}
}

static void
hash_delete(PlnFunction *function)
{
	if (function->fn_hashkey == NULL)
		return;
	(void) hash_search(pln_hashtable, function->fn_hashkey, HASH_REMOVE, NULL);
	function->fn_hashkey = NULL;
}

/*
 * Forget a stale function.  Its memory goes now if no call is running it;
 * otherwise the last call to finish frees it (see handler.c).
 */
static void
delete_function(PlnFunction *func)
{
	func->fn_proc_checked = false;
	hash_delete(func);
	if (func->use_count == 0)
		pln_free_function_memory(func);
}

/*
 * Release everything a compiled function holds: its prepared plans (which
 * live outside its context) and then its context.
 */
void
pln_free_function_memory(PlnFunction *func)
{
	Assert(func->use_count == 0);
	/* it may be reached again through another FmgrInfo */
	if (func->fn_cxt == NULL)
		return;
	/* prepared plans live outside the function's context */
	{
		ListCell   *lc;

		foreach(lc, func->planned_exprs)
		{
			PlnExpr    *expr = (PlnExpr *) lfirst(lc);

			if (expr->plan)
			{
				SPI_freeplan(expr->plan);
				expr->plan = NULL;
			}
		}
	}
	func->planned_exprs = NIL;
	MemoryContextDelete(func->fn_cxt);
	func->fn_cxt = NULL;
	func->fast = NULL;
	func->fast_expr = NULL;
	/* (chosen again would be the ordinary path: fn_hashkey is NULL) */
	func->call = NULL;
}

/*
 * Compile a function without calling it, as the validator does: with just
 * enough of a call for the compiler, polymorphic types resolved to
 * stand-ins.  SPI must be connected.
 */
PlnFunction *
pln_compile_for_validation(Oid funcoid, Oid rettype)
{
	LOCAL_FCINFO(fake_fcinfo, 0);
	FmgrInfo	flinfo;
	TriggerData trigdata;
	EventTriggerData etrigdata;

	MemSet(fake_fcinfo, 0, SizeForFunctionCallInfo(0));
	MemSet(&flinfo, 0, sizeof(flinfo));
	fake_fcinfo->flinfo = &flinfo;
	flinfo.fn_oid = funcoid;
	flinfo.fn_mcxt = CurrentMemoryContext;
	if (rettype == TRIGGEROID)
	{
		MemSet(&trigdata, 0, sizeof(trigdata));
		trigdata.type = T_TriggerData;
		fake_fcinfo->context = (Node *) &trigdata;
	}
	else if (rettype == EVENT_TRIGGEROID)
	{
		MemSet(&etrigdata, 0, sizeof(etrigdata));
		etrigdata.type = T_EventTriggerData;
		fake_fcinfo->context = (Node *) &etrigdata;
	}

	return pln_compile(fake_fcinfo, true);
}

/*
 * May a tool (fname: its SQL function's name, for the message) analyse the
 * function?  It must run on plnimble, and since analysing it plans its
 * expressions, which may run its immutable parts, the user must be allowed
 * to call it.  Raises an error if not.  For the checker, the plan view and
 * the dependency list alike: here, below all of them.
 */
void
pln_tool_may_analyse(Oid funcoid, const char *fname)
{
	if (!pln_function_runs_on_plnimble(funcoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("function %s is not run by %s",
						format_procedure(funcoid), PLN_OWN_TITLE)));
	if (pln_proc_aclcheck(funcoid, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK &&
		!pln_proc_ownercheck(funcoid, GetUserId()))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s",
						format_procedure(funcoid)),
				 errdetail("%s() needs EXECUTE on the function, or its ownership, as calling it would.",
						   fname)));
}

/* Is the function's language one whose call handler is ours? */
bool
pln_function_runs_on_plnimble(Oid funcoid)
{
	HeapTuple	proctup;
	HeapTuple	langtup;
	Oid			handler;
	char	   *handler_name;

	proctup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(proctup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function with OID %u does not exist", funcoid)));
	langtup = SearchSysCache1(LANGOID,
							  ObjectIdGetDatum(((Form_pg_proc) GETSTRUCT(proctup))->prolang));
	if (!HeapTupleIsValid(langtup))
		elog(ERROR, "cache lookup failed for language of function %u", funcoid);
	handler = ((Form_pg_language) GETSTRUCT(langtup))->lanplcallfoid;
	ReleaseSysCache(langtup);
	ReleaseSysCache(proctup);

	handler_name = OidIsValid(handler) ? get_func_name(handler) : NULL;
	return handler_name != NULL &&
		strcmp(handler_name, "plnimble_call_handler") == 0;
}
