/*-------------------------------------------------------------------------
 *
 * exec.c
 *	  Running a compiled function: calls, blocks and control flow.
 *
 * pln_exec_function sets up one call (its copy of the datums, parameter
 * list and expression context), runs the top block and converts the
 * result.  The statement dispatcher and the control-flow statements live
 * here; SQL statements are in exec_sql.c, assignment in assign.c, RAISE
 * and ASSERT in raise.c, and blocks with EXCEPTION clauses in
 * savepoint.c.
 *
 * Memory: variable values live in the call's datum context (the memory
 * context the call started in; SPI's procedure context for DO blocks and
 * procedures that may end transactions).  Expression results live in the expression context
 * until exec_eval_cleanup; statements that need scratch space use the
 * statement context, which each such statement resets itself.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupconvert.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "plnimble.h"

static pg_attribute_always_inline void copy_datums(PlnExecState *estate, PlnFunction *func);
static inline int exec_stmt(PlnExecState *estate, PlnStmt *stmt);
static int	exec_stmt_block(PlnExecState *estate, PlnStmtBlock *block);
static int	exec_stmt_assign(PlnExecState *estate, PlnStmtAssign *stmt);
static int	exec_stmt_if(PlnExecState *estate, PlnStmtIf *stmt);
static int	exec_stmt_case(PlnExecState *estate, PlnStmtCase *stmt);
static int	exec_stmt_loop(PlnExecState *estate, PlnStmtLoop *stmt);
static int	exec_stmt_while(PlnExecState *estate, PlnStmtWhile *stmt);
static int	exec_stmt_fori(PlnExecState *estate, PlnStmtForI *stmt);
static int	exec_stmt_exit(PlnExecState *estate, PlnStmtExit *stmt);
static int	exec_stmt_foreach_a(PlnExecState *estate, PlnStmtForeachA *stmt);
static int	exec_stmt_return(PlnExecState *estate, PlnStmtReturn *stmt);
static pg_attribute_always_inline Datum cast_return_value(PlnExecState *estate,
														 FunctionCallInfo fcinfo);
static int	exec_toplevel_block_observed(PlnExecState *estate);

/*
 * Run one call of a compiled function (pln_exec_function, and
 * pln_exec_function_replaying for a call the fast entry handed over).
 * Always inline, so that the usual call's copy has no trace of
 * fast_call_error.
 */
static pg_attribute_always_inline Datum
exec_function(PlnFunction *func, FunctionCallInfo fcinfo, bool atomic,
			  bool spi_connected, ResourceOwner procedure_resowner,
			  ErrorData *fast_call_error)
{
	PlnExecState estate;
	ErrorContextCallback plerrcontext;
	int			i;
	int			rc;

	memset(&estate, 0, sizeof(estate));
	estate.func = func;
	estate.retisnull = true;
	estate.rettype = InvalidOid;
	estate.readonly_func = func->fn_readonly;
	estate.atomic = atomic;
	estate.spi_connected = spi_connected;
	estate.procedure_resowner = procedure_resowner;
	estate.spi_finish = false;
	estate.datum_context = CurrentMemoryContext;
	/* (the caller counted this call in use_count) */
	estate.recursion_level = func->use_count - 1;
	estate.fast_call_error = fast_call_error;
	func->cur_estate = &estate;

	/* errors from here on say where in the function they happened */
	plerrcontext.callback = exec_error_callback;
	plerrcontext.arg = &estate;
	plerrcontext.previous = error_context_stack;
	error_context_stack = &plerrcontext;

	estate.err_text = "during initialization of execution state";
	if (func->fn_retset)
		pln_setret_begin(&estate, fcinfo);
	copy_datums(&estate, func);
	pln_setup_param_list(&estate);
	pln_create_econtext(&estate);

	/* the arguments */
	estate.err_text = "while storing call arguments into local variables";
	if (fcinfo != NULL)
	{
		for (i = 0; i < func->fn_nargs; i++)
		{
			PlnDatum   *datum = estate.datums[func->fn_argvarnos[i]];

			if (datum->dtype == PLN_DTYPE_VAR)
			{
				PlnVar	   *var = (PlnVar *) datum;

				assign_simple_var(&estate, var,
								  fcinfo->args[i].value,
								  fcinfo->args[i].isnull,
								  false);
				/*
				 * A read-write expanded argument would let us change the
				 * caller's object in place: work on a copy of our own.  A
				 * value stored in a TOAST table is fetched now: variables
				 * never hold such references, so reading a variable never
				 * reads a table (see pln_detoast_for_variable).  Other
				 * flat values are only ever replaced, never changed, so
				 * they can be used where they are.
				 */
				if (!var->isnull && var->datatype->typlen == -1 &&
					VARATT_IS_EXTERNAL(DatumGetPointer(var->value)))
				{
					if (VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(var->value)))
						var->value = datumCopy(var->value, false, -1);
					else
						var->value = pln_detoast_for_variable(var->value);
					var->freeval = (var->value != fcinfo->args[i].value);
				}
			}
			else
			{
				PlnRec	   *rec = (PlnRec *) datum;

				if (fcinfo->args[i].isnull)
					pln_rec_assign_null(&estate, rec);
				else
				{
					HeapTupleData tmptup;
					TupleDesc	tupdesc;

					tupdesc = pln_composite_as_tuple(fcinfo->args[i].value,
													 &tmptup);
					pln_rec_set_tuple(&estate, rec, &tmptup, tupdesc);
					ReleaseTupleDesc(tupdesc);
				}
			}
		}
	}

	if (func->fn_is_trigger || func->fn_is_event_trigger)
	{
		estate.err_text = "during function entry";
		pln_trigger_setup(&estate, fcinfo);
	}

	estate.err_text = "during function entry";
	/* FOUND starts false */
	assign_simple_var(&estate, (PlnVar *) estate.datums[func->found_varno],
					  BoolGetDatum(false), false, false);

	/* run the top block */
	estate.err_text = NULL;
	estate.err_stmt = (PlnStmt *) func->action;
	CHECK_FOR_INTERRUPTS();
	/* calls recurse too: the top block is not run through exec_stmt */
	check_stack_depth();

	/*
	 * (A block runs the same inside a handler block or not: no check.)
	 * Consumers of the plugin hook attached now watch the call.
	 */
	if (unlikely(pln_plugins.first != NULL))
		rc = exec_toplevel_block_observed(&estate);
	else
		rc = exec_stmt_block(&estate, func->action);

	/*
	 * A call the fast entry handed over raises its error again when the
	 * RETURN evaluates its expression (exec_eval_simple_expr); it cannot
	 * get here with the error still pending, but if it ever did, the
	 * result would be wrong.
	 */
	if (fast_call_error != NULL && estate.fast_call_error != NULL)
		elog(ERROR, "the error of a fast call was not raised again");
	if (rc != PLN_RC_RETURN)
	{
		estate.err_stmt = NULL;
		estate.err_text = NULL;

		/*
		 * Falling off the end is a RETURN for void and set-returning
		 * functions and for those with OUT parameters; anything else must
		 * return a value.  An EXIT naming the function's own label (the
		 * outermost one, which no block carries) leaves the body too, but
		 * that is no RETURN for any kind of function: PL/pgSQL ends those
		 * bodies with an implicit RETURN, which the EXIT skips.
		 */
		if (func->fn_is_trigger ||
			(func->fn_is_event_trigger && rc == PLN_RC_EXIT))
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_FUNCTION_EXECUTED_NO_RETURN_STATEMENT),
					 errmsg("control reached end of trigger procedure without RETURN")));
		else if (rc == PLN_RC_EXIT)
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_FUNCTION_EXECUTED_NO_RETURN_STATEMENT),
					 errmsg("control reached end of function without RETURN")));
		else if (func->out_param_varno >= 0 && !func->fn_retset)
		{
			int32		typmod;

			pln_exec_datum_value(&estate, estate.datums[func->out_param_varno],
								 &estate.rettype, &typmod,
								 &estate.retval, &estate.retisnull);
		}
		else if (func->fn_rettype != VOIDOID && !func->fn_retset)
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_FUNCTION_EXECUTED_NO_RETURN_STATEMENT),
					 errmsg("control reached end of function without RETURN")));
	}

	/* convert the result to the declared type */
	estate.err_stmt = NULL;
	estate.err_text = "while casting return value to function's return type";
	if (func->fn_retset)
		pln_setret_finish(&estate, fcinfo);
	else if (func->fn_is_trigger)
	{
		estate.err_text = "during function exit";
		estate.retval = pln_trigger_result(&estate, fcinfo);
	}
	else if (func->fn_rettype == VOIDOID)
	{
		/* a void result is a value, not NULL (count(f()) counts it) */
		if (fcinfo != NULL)
			fcinfo->isnull = false;
	}
	else if (fcinfo != NULL)
	{
		fcinfo->isnull = estate.retisnull;
		if (!estate.retisnull)
			estate.retval = cast_return_value(&estate, fcinfo);
		else if (func->fn_retisdomain && estate.rettype != func->fn_rettype)
		{
			/*
			 * A NULL needs no conversion, but the domain may reject it
			 * (unless it is a value of the domain already).
			 */
			MemoryContext oldcontext;

			oldcontext = MemoryContextSwitchTo(estate.eval_econtext->ecxt_per_tuple_memory);
			domain_check((Datum) 0, true, func->fn_rettype, NULL, NULL);
			MemoryContextSwitchTo(oldcontext);
		}
	}

	estate.err_text = "during function exit";
	exec_eval_cleanup(&estate);
	pln_destroy_econtext(&estate);

	/* the datum context is the caller's: leave nothing behind in it */
	if (estate.stmt_mcontext != NULL)
		MemoryContextDelete(estate.stmt_mcontext);

	if (estate.spi_finish)
	{
		int			finish_rc = SPI_finish();

		if (finish_rc != SPI_OK_FINISH)
			elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(finish_rc));
	}

	error_context_stack = plerrcontext.previous;

	if (func->fn_rettype == VOIDOID || func->fn_retset)
		return (Datum) 0;
	if (func->fn_is_trigger)
		fcinfo->isnull = false;
	return estate.retval;
}

Datum
pln_exec_function(PlnFunction *func, FunctionCallInfo fcinfo, bool atomic,
				  bool spi_connected, ResourceOwner procedure_resowner)
{
	return exec_function(func, fcinfo, atomic, spi_connected,
						 procedure_resowner, NULL);
}

/*
 * Run a call of a function of the fast entry's shape that the fast entry
 * handed over (fast_call.c): its RETURN raises fast_call_error again.
 */
Datum
pln_exec_function_replaying(PlnFunction *func, FunctionCallInfo fcinfo,
							ErrorData *fast_call_error)
{
	Assert(fast_call_error != NULL);
	return exec_function(func, fcinfo, true, false, NULL, fast_call_error);
}

/*
 * Move the result into the caller's memory, out of the expression context
 * and out of SPI's memory, which go away when the call ends.
 */
static Datum
transfer_result(PlnExecState *estate, Datum value, bool typByVal, int typLen)
{
	MemoryContext oldcontext;

	if (estate->spi_connected)
		return SPI_datumTransfer(value, typByVal, typLen);

	/* not connected: the datum context is the caller's */
	oldcontext = MemoryContextSwitchTo(estate->datum_context);
	value = datumTransfer(value, typByVal, typLen);
	MemoryContextSwitchTo(oldcontext);
	return value;
}

/*
 * Coerce the returned value to the function's result type, copying it
 * out of the call's memory (the caller's context outlives SPI's).  (Always
 * inline: exec_function has two copies, and each call pays for it.)
 */
static pg_attribute_always_inline Datum
cast_return_value(PlnExecState *estate, FunctionCallInfo fcinfo)
{
	PlnFunction *func = estate->func;
	Datum		result = estate->retval;

	if (func->fn_retistuple)
	{
		/* composite result: must have the declared row structure */
		TupleDesc	tupdesc;
		HeapTupleData tmptup;
		TupleDesc	srcdesc;
		TupleConversionMap *map;
		HeapTuple	tup;
		TypeFuncClass resultclass;
		Oid			resulttype;

		if (!type_is_rowtype(estate->rettype))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("cannot return non-composite value from function returning composite type")));

		resultclass = get_call_result_type(fcinfo, &resulttype, &tupdesc);
		switch (resultclass)
		{
			case TYPEFUNC_COMPOSITE:
			case TYPEFUNC_COMPOSITE_DOMAIN:
				break;
			case TYPEFUNC_RECORD:
				/* RETURNS record without a column list: pass it through */
				return transfer_result(estate, result, false, -1);
			default:
				elog(ERROR, "return type must be a row type");
				break;
		}

		srcdesc = pln_composite_as_tuple(result, &tmptup);
		map = convert_tuples_by_position(srcdesc, tupdesc,
										 gettext_noop("returned record type does not match expected record type"));
		tup = map ? execute_attr_map_tuple(&tmptup, map) : &tmptup;
		ReleaseTupleDesc(srcdesc);
		result = heap_copy_tuple_as_datum(tup, tupdesc);
		/* a domain over the row type: its constraints hold for the result */
		if (resultclass == TYPEFUNC_COMPOSITE_DOMAIN)
			domain_check(result, false, resulttype, NULL, NULL);
		return transfer_result(estate, result, false, -1);
	}

	result = exec_cast_value(estate, result, &fcinfo->isnull,
							 estate->rettype, -1,
							 func->fn_rettype, -1);
	if (!fcinfo->isnull && !func->fn_retbyval)
		result = transfer_result(estate, result, false, func->fn_rettyplen);
	return result;
}

/*
 * Set up an execution state for looking at a function without running it
 * (explain.c): variables as on entry, with SQL access to them, so that
 * its expressions can be planned.  The caller restores func->cur_estate
 * and releases the expression context with pln_destroy_econtext.
 */
void
pln_init_analysis_state(PlnExecState *estate, PlnFunction *func)
{
	memset(estate, 0, sizeof(*estate));
	estate->func = func;
	estate->retisnull = true;
	estate->readonly_func = func->fn_readonly;
	estate->atomic = true;
	estate->spi_connected = true;	/* by the caller */
	estate->datum_context = CurrentMemoryContext;
	func->cur_estate = estate;

	copy_datums(estate, func);
	pln_setup_param_list(estate);
	pln_create_econtext(estate);
}

/*
 * Each call works on its own copy of the variables, so that recursion and
 * concurrent calls do not interfere.  Rows have no run-time state and are
 * shared with the compiled function, and so are record fields: their
 * lookup cache is keyed by the tuple descriptor's identifier, which the
 * server never hands out twice in a session, so an entry left by an
 * earlier call (or an outer recursion level) is either right or ignored.
 * datum_copy_size says how much of a datum is copied.
 */
static Size
datum_copy_size(PlnDatumType dtype)
{
	switch (dtype)
	{
		case PLN_DTYPE_VAR:
			return sizeof(PlnVar);
		case PLN_DTYPE_REC:
			return sizeof(PlnRec);
		default:
			return 0;			/* shared, not copied */
	}
}

/*
 * Lay out, once per compiled function, the copies every call starts with:
 * one image holding them all, and each datum's offset in it.  The
 * compiled datums are never changed at run time, so the image stays
 * true to them.
 */
static void
build_datum_copy_image(PlnFunction *func)
{
	MemoryContext fn_context = func->fn_cxt;
	int			ndatums = func->ndatums;
	int		   *offsets;
	Size		image_size = 0;
	char	   *image;
	int			i;

	offsets = MemoryContextAlloc(fn_context, sizeof(int) * Max(ndatums, 1));
	for (i = 0; i < ndatums; i++)
	{
		Size		size = datum_copy_size(func->datums[i]->dtype);

		offsets[i] = -1;
		if (size > 0)
		{
			offsets[i] = (int) image_size;
			image_size += MAXALIGN(size);
		}
	}

	image = MemoryContextAlloc(fn_context, Max(image_size, 1));
	for (i = 0; i < ndatums; i++)
	{
		if (offsets[i] >= 0)
			memcpy(image + offsets[i], func->datums[i],
				   datum_copy_size(func->datums[i]->dtype));
	}

	func->datum_copy_offset = offsets;
	func->datum_copy_image = image;
	func->datum_copy_image_size = image_size;
	func->datum_copy_space = MAXALIGN(offsetof(ParamListInfoData, params)) +
		MAXALIGN(sizeof(PlnDatum *) * ndatums) + image_size;
}

static pg_attribute_always_inline void
copy_datums(PlnExecState *estate, PlnFunction *func)
{
	int			ndatums = func->ndatums;
	char	   *space;
	bool		fresh;

	if (func->datum_copy_space == 0)
		build_datum_copy_image(func);

	/*
	 * One allocation for the call's parameter list (set up by
	 * pln_setup_param_list), the array and all the copies, which are
	 * filled in with one memcpy: calls are frequent.  A call that is not
	 * a recursion uses the function's own space, kept from its last call:
	 * no allocation, and the array already points where it should.
	 * Nothing outlives a call that could still point into that space: the
	 * copies hold pointers to values in the call's memory, never the
	 * other way round.
	 */
	if (func->use_count > 1)
	{
		space = palloc(func->datum_copy_space);
		fresh = true;
	}
	else
	{
		fresh = (func->datum_space == NULL);
		if (fresh)
			func->datum_space = MemoryContextAlloc(func->fn_cxt,
												   func->datum_copy_space);
		space = func->datum_space;
	}
	estate->paramLI = (ParamListInfo) space;
	space += MAXALIGN(offsetof(ParamListInfoData, params));
	estate->ndatums = ndatums;
	estate->datums = (PlnDatum **) space;
	space += MAXALIGN(sizeof(PlnDatum *) * ndatums);

	memcpy(space, func->datum_copy_image, func->datum_copy_image_size);
	if (fresh)
	{
		const int  *offsets = func->datum_copy_offset;
		int			i;

		for (i = 0; i < ndatums; i++)
			estate->datums[i] = (offsets[i] >= 0) ?
				(PlnDatum *) (space + offsets[i]) : func->datums[i];
	}
}

/*
 * The CONTEXT line of errors raised while the call runs.  (Not static: the
 * checking build finds the running call by it, see lazy_check.c.)
 */
void
exec_error_callback(void *arg)
{
	PlnExecState *estate = (PlnExecState *) arg;
	int			lineno;

	/* nobody will see it: save the formatting */
	if (pln_error_context_unseen(estate, geterrcode()))
		return;

	/* a variable's declaration, else the statement's line (see err_var) */
	if (estate->err_var != NULL)
		lineno = estate->err_var->lineno;
	else if (estate->err_stmt != NULL)
		lineno = estate->err_stmt->lineno;
	else
		lineno = 0;

	if (estate->err_text != NULL)
	{
		/*
		 * The text says what we were doing, e.g. "during statement block
		 * entry"; with a line, name it.
		 */
		if (lineno > 0)
			errcontext("%s function %s line %d %s",
					   PLN_LANG_TITLE,
					   estate->func->fn_signature,
					   lineno,
					   _(estate->err_text));
		else
			errcontext("%s function %s %s",
					   PLN_LANG_TITLE,
					   estate->func->fn_signature,
					   _(estate->err_text));
	}
	else if (estate->err_stmt != NULL && lineno > 0)
	{
		errcontext("%s function %s line %d at %s",
				   PLN_LANG_TITLE,
				   estate->func->fn_signature,
				   lineno,
				   pln_stmt_typename(estate->err_stmt));
	}
	else
		errcontext("%s function %s",
				   PLN_LANG_TITLE,
				   estate->func->fn_signature);
}

/*
 * Hand the exception-block layer the executor's functions it calls
 * (PlnBlockRunner, lazy/pln_savepoint.h).  Called once, by _PG_init.
 */
void
pln_exec_init(void)
{
	pln_block_runner.exec_stmts = exec_stmts;
	pln_block_runner.loop_body_rc_slow = exec_loop_body_rc_slow;
	pln_block_runner.eval_cleanup_slowly = exec_eval_cleanup_slowly;
	pln_block_runner.error_callback = exec_error_callback;
	pln_block_runner.assign_text_var = assign_text_var;
	pln_block_runner.check_plan_before_block = pln_check_plan_before_block;
	pln_block_runner.create_econtext = pln_create_econtext;
	pln_block_runner.block_event = pln_plugin_block_event;
}

/* ----------
 * Statement dispatch
 * ----------
 */

/* Run a list of statements; stop at the first that does not return OK */
int
exec_stmts(PlnExecState *estate, List *stmts)
{
	PlnStmt    *outer_stmt = estate->err_stmt;
	int			rc = PLN_RC_OK;
	ListCell   *lc;

	/*
	 * Every statement checks for a cancel request (exec_stmt), but an
	 * empty list runs none: check here too, or "LOOP END LOOP" could
	 * never be interrupted.
	 */
	if (stmts == NIL)
		CHECK_FOR_INTERRUPTS();

	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);

		estate->err_stmt = stmt;
		rc = exec_stmt(estate, stmt);
		if (rc != PLN_RC_OK)
			break;
	}

	estate->err_stmt = outer_stmt;
	return rc;
}

/*
 * Run one statement (exec_stmt does).  This switch is copied into
 * exec_stmt_observed too, so the functions of exec.c it calls are marked
 * always-inline: with two callers each, the compiler would no longer
 * inline them here.
 */
static pg_attribute_always_inline int
exec_stmt_run(PlnExecState *estate, PlnStmt *stmt)
{
	int			rc = PLN_RC_OK; /* (set by every case; gcc 15 cannot tell) */
	bool		lazy;

	lazy = pln_stmt_may_run_lazily(stmt);
	if (!lazy)
		pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);

	/*
	 * Statements that run statements of their own are where the executor
	 * recurses, however deeply the body nests them: there the stack is
	 * checked (once per statement, not per iteration of a loop; the column
	 * "nests" of pln_stmtkinds.h), unless their own statements run none
	 * (see pln_stack_check_points).  Every kind has a case, and no other
	 * value can be there.
	 */
	if ((unsigned int) stmt->cmd_type >= PLN_STMT_NKINDS)
		pg_unreachable();
	switch (stmt->cmd_type)
	{
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) \
		case kind: \
			if (nests && estate->func->stmt_checks_stack[stmt->stmtid]) \
				check_stack_depth(); \
			rc = exec(estate, (node *) stmt); \
			break;
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
	}

	/* SQL it ran may have run any code (see simple_plan_known_valid) */
	if (!lazy)
		pln_forget_plan_checks();

	return rc;
}

/* exec_stmt while consumers of the plugin hook watch the call */
static pg_noinline int
exec_stmt_observed(PlnExecState *estate, PlnStmt *stmt)
{
	PlnPluginCall *call = estate->plugins;
	int			rc;

	pln_plugin_stmt_beg(call, estate, stmt);
	rc = exec_stmt_run(estate, stmt);
	pln_plugin_stmt_end(call, estate, stmt);
	return rc;
}

/* Run one statement: the plugin hook costs it one test */
static inline int
exec_stmt(PlnExecState *estate, PlnStmt *stmt)
{
	CHECK_FOR_INTERRUPTS();

	if (unlikely(estate->plugins != NULL))
		return exec_stmt_observed(estate, stmt);
	return exec_stmt_run(estate, stmt);
}

/*
 * The top block while consumers of the plugin hook watch: all of the
 * call's moments are here, so that a call costs one test (the call's
 * setup comes when its arguments are stored, its end before the result
 * is converted).  The top block is a statement too.
 */
static pg_noinline int
exec_toplevel_block_observed(PlnExecState *estate)
{
	PlnStmt    *top = (PlnStmt *) estate->func->action;
	int			rc;

	pln_plugin_call_setup(estate);
	pln_plugin_call_beg(estate);
	pln_plugin_stmt_beg(estate->plugins, estate, top);
	rc = exec_stmt_block(estate, estate->func->action);
	pln_plugin_stmt_end(estate->plugins, estate, top);
	pln_plugin_call_end(estate);
	return rc;
}

/*
 * Initialise the variables a block declares, in order: each gets its
 * default (or NULL), re-evaluated every time the block is entered.
 */
static void
exec_block_init_vars(PlnExecState *estate, PlnStmtBlock *block)
{
	int			i;

	estate->err_text = "during statement block local variable initialization";

	/* errors here name the line of the variable's declaration */
	for (i = 0; i < block->n_initvars; i++)
	{
		PlnVariable *var = (PlnVariable *) estate->datums[block->initvarnos[i]];

		estate->err_var = var;
		exec_init_datum(estate, (PlnDatum *) var);
	}

	estate->err_text = NULL;
}

/*
 * A block: initialise its variables, run its body, and handle EXIT aimed
 * at its label.
 */
static pg_attribute_always_inline int
exec_stmt_block(PlnExecState *estate, PlnStmtBlock *block)
{
	int			rc;

	if (block->n_initvars > 0)
		exec_block_init_vars(estate, block);
	/* (entering any block ends the effect of an earlier failed one) */
	estate->err_var = NULL;

	if (block->exceptions)
		rc = exec_stmt_block_with_handlers(estate, block);
	else
		rc = exec_stmts(estate, block->body);

	return exec_block_exit_rc(estate, block, rc);
}

static pg_attribute_always_inline int
exec_stmt_assign(PlnExecState *estate, PlnStmtAssign *stmt)
{
	Assert(stmt->varno >= 0);

	exec_assign_expr(estate, estate->datums[stmt->varno], stmt->expr);

	return PLN_RC_OK;
}

/* Is the condition true?  NULL counts as false. */
static bool
condition_holds(PlnExecState *estate, PlnExpr *cond)
{
	bool		isnull;
	bool		value = exec_eval_boolean(estate, cond, &isnull);

	exec_eval_cleanup(estate);
	return value && !isnull;
}

static pg_attribute_always_inline int
exec_stmt_if(PlnExecState *estate, PlnStmtIf *stmt)
{
	List	   *branch = stmt->else_body;

	if (condition_holds(estate, stmt->cond))
		branch = stmt->then_body;
	else
	{
		ListCell   *lc;

		foreach(lc, stmt->elsif_list)
		{
			PlnIfElsif *elsif = (PlnIfElsif *) lfirst(lc);

			if (condition_holds(estate, elsif->cond))
			{
				branch = elsif->stmts;
				break;
			}
		}
	}

	return exec_stmts(estate, branch);
}

/*
 * The hidden variable of CASE x (see make_case in the grammar), given the
 * type of the search value.  The variable was compiled with a stand-in
 * type; it takes on the value's type here, in this call's copy of the
 * datum.  The type is built once, on first use, and kept with the
 * statement: building it reads the catalogs (so it passes a gate) and
 * allocates in the function's memory.  The plan view (explain.c) asks
 * this too, so that it plans the WHEN tests against the type the executor
 * will use.
 */
PlnVar *
pln_case_search_var(PlnExecState *estate, PlnStmtCase *stmt,
					Oid valtype, int32 valtypmod)
{
	PlnVar	   *hidden = (PlnVar *) estate->datums[stmt->t_varno];

	if (hidden->datatype->typoid != valtype ||
		hidden->datatype->atttypmod != valtypmod)
	{
		if (stmt->t_type == NULL || stmt->t_type->typoid != valtype ||
			stmt->t_type->atttypmod != valtypmod)
		{
			MemoryContext oldcontext;

			pln_start_savepoints_before(estate, PLN_IMPURE_READS);
			oldcontext = MemoryContextSwitchTo(estate->func->fn_cxt);
			stmt->t_type = pln_build_datatype(valtype, valtypmod,
											  estate->func->fn_input_collation,
											  NULL);
			MemoryContextSwitchTo(oldcontext);
		}
		hidden->datatype = stmt->t_type;
	}
	return hidden;
}

/* Store the value of CASE x into the statement's hidden variable */
static PlnVar *
case_store_search_value(PlnExecState *estate, PlnStmtCase *stmt)
{
	PlnVar	   *hidden;
	Datum		value;
	bool		isnull;
	Oid			valtype;
	int32		valtypmod;

	value = exec_eval_expr(estate, stmt->t_expr, &isnull, &valtype,
						   &valtypmod);
	hidden = pln_case_search_var(estate, stmt, valtype, valtypmod);
	exec_assign_value(estate, (PlnDatum *) hidden, value, isnull,
					  valtype, valtypmod);
	exec_eval_cleanup(estate);
	return hidden;
}

static pg_attribute_always_inline int
exec_stmt_case(PlnExecState *estate, PlnStmtCase *stmt)
{
	PlnVar	   *hidden = NULL;
	List	   *branch = NIL;
	bool		matched = false;
	ListCell   *lc;

	if (stmt->t_expr != NULL)
		hidden = case_store_search_value(estate, stmt);

	foreach(lc, stmt->case_when_list)
	{
		PlnCaseWhen *when = (PlnCaseWhen *) lfirst(lc);

		if (condition_holds(estate, when->expr))
		{
			branch = when->stmts;
			matched = true;
			break;
		}
	}

	/* the WHEN tests are done with the search value: let it go */
	if (hidden != NULL)
		assign_simple_var(estate, hidden, (Datum) 0, true, false);

	if (!matched)
	{
		/* no branch taken and no ELSE: an error, as the standard says */
		if (!stmt->have_else)
			ereport(ERROR,
					(errcode(ERRCODE_CASE_NOT_FOUND),
					 errmsg("case not found"),
					 errhint("CASE statement is missing ELSE part.")));
		branch = stmt->else_stmts;
	}

	return exec_stmts(estate, branch);
}

/*
 * exec_loop_body_rc for a body that did not run to its end: EXIT,
 * CONTINUE or RETURN.
 */
int
exec_loop_body_rc_slow(PlnExecState *estate, int rc, const char *label,
					   bool *exit_loop)
{
	*exit_loop = false;
	switch (rc)
	{
		case PLN_RC_OK:
			return PLN_RC_OK;

		case PLN_RC_EXIT:
			*exit_loop = true;
			if (estate->exitlabel == NULL)
				return PLN_RC_OK;	/* unlabelled EXIT ends this loop */
			if (label != NULL && strcmp(label, estate->exitlabel) == 0)
			{
				estate->exitlabel = NULL;
				return PLN_RC_OK;
			}
			/* an outer block or loop is meant */
			return PLN_RC_EXIT;

		case PLN_RC_CONTINUE:
			if (estate->exitlabel == NULL)
				return PLN_RC_OK;	/* unlabelled CONTINUE: next iteration */
			if (label != NULL && strcmp(label, estate->exitlabel) == 0)
			{
				estate->exitlabel = NULL;
				return PLN_RC_OK;
			}
			/* continue an outer loop */
			*exit_loop = true;
			return PLN_RC_CONTINUE;

		case PLN_RC_RETURN:
			*exit_loop = true;
			return PLN_RC_RETURN;

		default:
			elog(ERROR, "unrecognized rc: %d", rc);
	}
	return PLN_RC_OK;
}

/*
 * A loop body that is just a block with an EXCEPTION clause (and no
 * variables of its own, whose initialisation would run outside the
 * block's protection) runs under one catch point for all its iterations
 * (pln_run_handler_block_loop): the usual shape of "try this for every
 * row", and entering the block then costs no sigsetjmp per iteration.
 */
static inline bool
body_is_handler_block(List *body)
{
	PlnStmtBlock *block;

	/* consumers of the plugin hook see every iteration's block */
	if (unlikely(pln_plugins.first != NULL))
		return false;
	if (list_length(body) != 1 ||
		((PlnStmt *) linitial(body))->cmd_type != PLN_STMT_BLOCK)
		return false;
	block = (PlnStmtBlock *) linitial(body);
	return block->exceptions != NULL && block->n_initvars == 0;
}

/* LOOP and WHILE (cond NULL for LOOP), for pln_run_handler_block_loop */
typedef struct CondHandlerLoop
{
	PlnHandlerBlockLoop hloop;	/* must be first */
	PlnExpr    *cond;
} CondHandlerLoop;

static bool
cond_next_iteration(PlnExecState *estate, PlnHandlerBlockLoop *hloop)
{
	CondHandlerLoop *loop = (CondHandlerLoop *) hloop;

	return loop->cond == NULL || condition_holds(estate, loop->cond);
}

static int
run_conditional_handler_loop(PlnExecState *estate, List *body,
							 const char *label, PlnExpr *cond)
{
	CondHandlerLoop loop;

	loop.hloop.next_iteration = cond_next_iteration;
	loop.hloop.label = label;
	loop.cond = cond;
	return pln_run_handler_block_loop(estate, (PlnStmtBlock *) linitial(body),
									  &loop.hloop);
}

static pg_attribute_always_inline int
exec_stmt_loop(PlnExecState *estate, PlnStmtLoop *stmt)
{
	if (body_is_handler_block(stmt->body))
		return run_conditional_handler_loop(estate, stmt->body, stmt->label,
											NULL);

	for (;;)
	{
		int			rc = exec_stmts(estate, stmt->body);
		bool		exit_loop;

		rc = exec_loop_body_rc(estate, rc, stmt->label, &exit_loop);
		if (exit_loop)
			return rc;
	}
}

static pg_attribute_always_inline int
exec_stmt_while(PlnExecState *estate, PlnStmtWhile *stmt)
{
	if (body_is_handler_block(stmt->body))
		return run_conditional_handler_loop(estate, stmt->body, stmt->label,
											stmt->cond);

	while (condition_holds(estate, stmt->cond))
	{
		int			rc;
		bool		exit_loop;

		rc = exec_stmts(estate, stmt->body);
		rc = exec_loop_body_rc(estate, rc, stmt->label, &exit_loop);
		if (exit_loop)
			return rc;
	}

	return PLN_RC_OK;
}

/*
 * Evaluate a bound (or step) of an integer FOR loop: an integer that must
 * not be NULL.  nullmsg is the error for NULL.
 */
static int32
eval_loop_bound(PlnExecState *estate, PlnExpr *expr, const char *nullmsg)
{
	Datum		value;
	bool		isnull;
	Oid			valtype;
	int32		valtypmod;

	value = exec_eval_expr(estate, expr, &isnull, &valtype, &valtypmod);
	value = exec_cast_value(estate, value, &isnull,
							valtype, valtypmod, INT4OID, -1);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg_internal("%s", _(nullmsg))));
	exec_eval_cleanup(estate);
	return DatumGetInt32(value);
}

/* An integer FOR loop's state, for pln_run_handler_block_loop */
typedef struct ForIHandlerLoop
{
	PlnHandlerBlockLoop hloop;	/* must be first */
	PlnVar	   *var;
	int32		loop_value;
	int32		end_value;
	int32		step_value;
	bool		reverse;
	bool		started;
	bool		found;
} ForIHandlerLoop;

/*
 * The same steps as the plain loop in exec_stmt_fori, which keeps its own
 * copy: with its state in locals rather than behind a pointer, an
 * iteration of an ordinary FOR loop is about 10 instructions cheaper.
 */
static bool
fori_next_iteration(PlnExecState *estate, PlnHandlerBlockLoop *hloop)
{
	ForIHandlerLoop *loop = (ForIHandlerLoop *) hloop;

	if (loop->started)
	{
		int64		next_value = (int64) loop->loop_value + loop->step_value;

		if (next_value < PG_INT32_MIN || next_value > PG_INT32_MAX)
			return false;
		loop->loop_value = (int32) next_value;
	}
	loop->started = true;

	if (loop->reverse ? loop->loop_value < loop->end_value :
		loop->loop_value > loop->end_value)
		return false;

	loop->found = true;
	assign_simple_var(estate, loop->var, Int32GetDatum(loop->loop_value),
					  false, false);
	return true;
}

/*
 * FOR i IN [REVERSE] lower .. upper [BY step]: the bounds and step are
 * evaluated once, as integers.
 */
static pg_attribute_always_inline int
exec_stmt_fori(PlnExecState *estate, PlnStmtForI *stmt)
{
	PlnVar	   *var;
	int32		loop_value;
	int32		end_value;
	int32		step_value;
	bool		found = false;
	int			rc = PLN_RC_OK;

	var = (PlnVar *) (estate->datums[stmt->var->dno]);

	loop_value = eval_loop_bound(estate, stmt->lower,
								 "lower bound of FOR loop cannot be null");
	end_value = eval_loop_bound(estate, stmt->upper,
								"upper bound of FOR loop cannot be null");
	if (stmt->step)
	{
		step_value = eval_loop_bound(estate, stmt->step,
									 "BY value of FOR loop cannot be null");
		if (step_value <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("BY value of FOR loop must be greater than zero")));
	}
	else
		step_value = 1;

	/* REVERSE counts down */
	if (stmt->reverse)
		step_value = -step_value;

	if (body_is_handler_block(stmt->body))
	{
		ForIHandlerLoop loop;

		loop.hloop.next_iteration = fori_next_iteration;
		loop.hloop.label = stmt->label;
		loop.var = var;
		loop.loop_value = loop_value;
		loop.end_value = end_value;
		loop.step_value = step_value;
		loop.reverse = stmt->reverse;
		loop.started = false;
		loop.found = false;
		rc = pln_run_handler_block_loop(estate,
										(PlnStmtBlock *) linitial(stmt->body),
										&loop.hloop);
		found = loop.found;
	}
	else
	{
		while (stmt->reverse ? loop_value >= end_value : loop_value <= end_value)
		{
			bool		exit_loop;
			int64		next_value;

			found = true;
			assign_simple_var(estate, var, Int32GetDatum(loop_value),
							  false, false);

			rc = exec_stmts(estate, stmt->body);
			rc = exec_loop_body_rc(estate, rc, stmt->label, &exit_loop);
			if (exit_loop)
				break;

			/*
			 * Stepping is done in 64 bits.  A value past the int4 range is
			 * necessarily past the end bound too, so the loop is over.
			 */
			next_value = (int64) loop_value + step_value;
			if (next_value < PG_INT32_MIN || next_value > PG_INT32_MAX)
				break;
			loop_value = (int32) next_value;
		}
	}

	/* FOUND says whether the loop ran at least once */
	assign_simple_var(estate, (PlnVar *) estate->datums[estate->func->found_varno],
					  BoolGetDatum(found), false, false);

	return rc;
}

/*
 * EXIT and CONTINUE hand the label (NULL for none) to the enclosing
 * blocks and loops, which look at it as the result code passes them.
 */
static pg_attribute_always_inline int
exec_stmt_exit(PlnExecState *estate, PlnStmtExit *stmt)
{
	/* "EXIT WHEN cond" does nothing while cond is false or NULL */
	if (stmt->cond != NULL && !condition_holds(estate, stmt->cond))
		return PLN_RC_OK;

	estate->exitlabel = stmt->label;
	return stmt->is_exit ? PLN_RC_EXIT : PLN_RC_CONTINUE;
}

/*
 * FOREACH target [SLICE n] IN ARRAY expr LOOP: the body once per element
 * (or per n-dimensional slice) of the array, in storage order.
 */
static pg_attribute_always_inline int
exec_stmt_foreach_a(PlnExecState *estate, PlnStmtForeachA *stmt)
{
	PlnDatum   *loop_var = estate->datums[stmt->varno];
	MemoryContext array_cxt;
	MemoryContext oldcontext;
	ArrayIterator iterator;
	ArrayType  *arr;
	Datum		value;
	bool		isnull;
	Oid			arrtype;
	int32		arrtypmod;
	Oid			itemtype;
	bool		found = false;
	int			rc = PLN_RC_OK;

	value = exec_eval_expr(estate, stmt->expr, &isnull, &arrtype, &arrtypmod);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("FOREACH expression must not be null")));
	if (!OidIsValid(get_element_type(arrtype)))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("FOREACH expression must yield an array, not type %s",
						format_type_be(arrtype))));

	/*
	 * The array must outlive the evaluation's scratch memory and whatever
	 * the body does with the statement context: it gets a context of its
	 * own for the loop.
	 */
	array_cxt = AllocSetContextCreate(estate->datum_context,
									  "PL/nimble FOREACH array",
									  ALLOCSET_DEFAULT_SIZES);
	oldcontext = MemoryContextSwitchTo(array_cxt);
	arr = DatumGetArrayTypePCopy(value);
	MemoryContextSwitchTo(oldcontext);
	exec_eval_cleanup(estate);

	if (stmt->slice < 0 || stmt->slice > ARR_NDIM(arr))
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("slice dimension (%d) is out of the valid range 0..%d",
						stmt->slice, ARR_NDIM(arr))));

	/* a slice goes into an array variable, an element into anything else */
	if (loop_var->dtype == PLN_DTYPE_VAR)
	{
		bool		var_is_array = OidIsValid(get_element_type(((PlnVar *) loop_var)->datatype->typoid));

		if (stmt->slice > 0 && !var_is_array)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("FOREACH ... SLICE loop variable must be of an array type")));
		if (stmt->slice == 0 && var_is_array)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("FOREACH loop variable must not be of an array type")));
	}
	else if (stmt->slice > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("FOREACH ... SLICE loop variable must be of an array type")));

	itemtype = (stmt->slice > 0) ? arrtype : ARR_ELEMTYPE(arr);

	oldcontext = MemoryContextSwitchTo(array_cxt);
	iterator = array_create_iterator(arr, stmt->slice, NULL);
	MemoryContextSwitchTo(oldcontext);

	for (;;)
	{
		bool		more;
		bool		exit_loop;

		oldcontext = MemoryContextSwitchTo(array_cxt);
		more = array_iterate(iterator, &value, &isnull);
		MemoryContextSwitchTo(oldcontext);
		if (!more)
			break;
		found = true;

		exec_assign_value(estate, loop_var, value, isnull, itemtype, arrtypmod);
		/* a slice is a fresh array each time */
		if (stmt->slice > 0)
			pfree(DatumGetPointer(value));

		rc = exec_stmts(estate, stmt->body);
		rc = exec_loop_body_rc(estate, rc, stmt->label, &exit_loop);
		if (exit_loop)
			break;
	}

	MemoryContextDelete(array_cxt);
	exec_set_found(estate, found);
	return rc;
}

/*
 * RETURN: remember the value (it is converted to the result type at
 * function exit).
 */
static pg_attribute_always_inline int
exec_stmt_return(PlnExecState *estate, PlnStmtReturn *stmt)
{
	estate->retval = (Datum) 0;
	estate->retisnull = true;
	estate->rettype = InvalidOid;

	if (stmt->retvarno >= 0)
	{
		PlnDatum   *retvar = estate->datums[stmt->retvarno];
		int32		typmod;

		/* records are not reviewed for pure use */
		if (retvar->dtype != PLN_DTYPE_VAR)
			pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
		pln_exec_datum_value(estate, retvar, &estate->rettype, &typmod,
							 &estate->retval, &estate->retisnull);
		/*
		 * A scalar variable (composite ones are records) is never a row,
		 * nor a trigger's result; checked here as PL/pgSQL does, so that
		 * the error is the RETURN's.
		 */
		if (retvar->dtype == PLN_DTYPE_VAR &&
			estate->func->fn_retistuple && !estate->retisnull)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("cannot return non-composite value from function returning composite type")));
		return PLN_RC_RETURN;
	}

	if (stmt->expr != NULL)
	{
		int32		rettypmod;

		estate->retval = exec_eval_expr(estate, stmt->expr,
										&(estate->retisnull),
										&(estate->rettype),
										&rettypmod);

		/* a function returning a row (or a trigger) must get one */
		if (estate->func->fn_retistuple && !estate->retisnull)
		{
			pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
			if (!type_is_rowtype(estate->rettype))
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("cannot return non-composite value from function returning composite type")));
		}
		/* the value must outlive the expression context */
		if (!estate->retisnull)
		{
			int16		typlen;
			bool		typbyval;

			/* the layout is known if the simple expression produced it */
			if (stmt->expr->simple_expr != NULL &&
				estate->rettype == stmt->expr->simple_type)
			{
				typlen = stmt->expr->simple_typlen;
				typbyval = stmt->expr->simple_typbyval;
			}
			else
			{
				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				get_typlenbyval(estate->rettype, &typlen, &typbyval);
			}
			if (!typbyval)
			{
				MemoryContext oldcontext = MemoryContextSwitchTo(estate->datum_context);

				estate->retval = datumCopy(estate->retval, typbyval, typlen);
				MemoryContextSwitchTo(oldcontext);
			}
		}
		exec_eval_cleanup(estate);
		return PLN_RC_RETURN;
	}

	/* RETURN with no value: void result */
	estate->rettype = VOIDOID;
	estate->retval = (Datum) 0;
	estate->retisnull = false;
	return PLN_RC_RETURN;
}

/* ----------
 * Small helpers shared by the executor files
 * ----------
 */

/* exec_eval_cleanup (plnimble.h) when there is something to release */
void
exec_eval_cleanup_slowly(PlnExecState *estate)
{
	SPITupleTable *tuptable = estate->eval_tuptable;

	estate->eval_tuptable = NULL;
	if (tuptable != NULL)
		SPI_freetuptable(tuptable);
	if (estate->eval_econtext != NULL)
		ResetExprContext(estate->eval_econtext);
}

/*
 * The call's statement context, created on first use, as a child of the
 * datum context.  Statements that use it reset it before returning.
 */
MemoryContext
get_stmt_mcontext(PlnExecState *estate)
{
	if (estate->stmt_mcontext == NULL)
		estate->stmt_mcontext =
			AllocSetContextCreate(estate->datum_context,
								  "PL/nimble statement context",
								  ALLOCSET_DEFAULT_SIZES);
	return estate->stmt_mcontext;
}
