/*-------------------------------------------------------------------------
 *
 * exec_setret.c
 *	  Set-returning functions: RETURN NEXT, RETURN QUERY, and handing the
 *	  rows to the caller; and the composite value of OUT parameters.
 *
 * The rows go into a tuplestore, created at the first row in the memory
 * and under the resource owner the caller gave the call, so that neither
 * the function's memory nor a subtransaction rolled back by an exception
 * block takes rows already returned with it (as in PL/pgSQL).  At exit the
 * tuplestore is handed over in materialize mode.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupconvert.h"
#include "executor/spi.h"
#include "executor/tstoreReceiver.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "plnimble.h"

/* Remember where the rows are to go, at the start of a call */
void
pln_setret_begin(PlnExecState *estate, FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsi = fcinfo ? (ReturnSetInfo *) fcinfo->resultinfo : NULL;

	estate->rsi = (rsi && IsA(rsi, ReturnSetInfo)) ? rsi : NULL;
	estate->tuple_store = NULL;
	estate->tuple_store_desc = NULL;
	estate->tuple_store_cxt = estate->rsi ?
		estate->rsi->econtext->ecxt_per_query_memory : NULL;
	estate->tuple_store_owner = CurrentResourceOwner;
}

/* The caller must take a materialized set */
static void
check_set_result_allowed(PlnExecState *estate, bool need_desc)
{
	if (estate->rsi == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	if (!(estate->rsi->allowedModes & SFRM_Materialize) ||
		(need_desc && estate->rsi->expectedDesc == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
}

/* The tuplestore, created on the first row */
static Tuplestorestate *
get_tuple_store(PlnExecState *estate)
{
	if (estate->tuple_store == NULL)
	{
		MemoryContext oldcontext;
		ResourceOwner oldowner = CurrentResourceOwner;

		check_set_result_allowed(estate, true);

		oldcontext = MemoryContextSwitchTo(estate->tuple_store_cxt);
		CurrentResourceOwner = estate->tuple_store_owner;
		estate->tuple_store =
			tuplestore_begin_heap(estate->rsi->allowedModes & SFRM_Materialize_Random,
								  false, work_mem);
		CurrentResourceOwner = oldowner;
		MemoryContextSwitchTo(oldcontext);
		estate->tuple_store_desc = estate->rsi->expectedDesc;
	}
	return estate->tuple_store;
}

/* At exit: hand the rows, if any, to the caller */
void
pln_setret_finish(PlnExecState *estate, FunctionCallInfo fcinfo)
{
	check_set_result_allowed(estate, false);

	estate->rsi->returnMode = SFRM_Materialize;
	if (estate->tuple_store != NULL)
	{
		MemoryContext oldcontext = MemoryContextSwitchTo(estate->tuple_store_cxt);

		estate->rsi->setResult = estate->tuple_store;
		estate->rsi->setDesc = CreateTupleDescCopy(estate->tuple_store_desc);
		MemoryContextSwitchTo(oldcontext);
	}
	fcinfo->isnull = true;
}

/*
 * The values of a row's variables, for a tuple of shape tupdesc, in
 * arrays palloc'd in the current memory context; false if they do not fit
 * it type for type.
 */
static bool
row_values(PlnExecState *estate, PlnRow *row, TupleDesc tupdesc,
		   Datum **values, bool **nulls)
{
	int			i;

	if (tupdesc->natts != row->nfields)
		return false;

	*values = palloc(sizeof(Datum) * Max(row->nfields, 1));
	*nulls = palloc(sizeof(bool) * Max(row->nfields, 1));
	for (i = 0; i < row->nfields; i++)
	{
		Oid			valtype;
		int32		valtypmod;

		pln_exec_datum_value(estate, estate->datums[row->varnos[i]],
							 &valtype, &valtypmod,
							 &(*values)[i], &(*nulls)[i]);
		if (valtype != TupleDescAttr(tupdesc, i)->atttypid)
			return false;
	}
	return true;
}

/*
 * The values of a row's variables as one tuple of shape tupdesc, in the
 * current memory context; NULL if they do not fit it type for type.
 */
HeapTuple
pln_row_to_tuple(PlnExecState *estate, PlnRow *row, TupleDesc tupdesc)
{
	Datum	   *values;
	bool	   *nulls;

	if (!row_values(estate, row, tupdesc, &values, &nulls))
		return NULL;
	return heap_form_tuple(tupdesc, values, nulls);
}

/* One composite value into the tuplestore, converted to its shape */
static void
store_composite(PlnExecState *estate, Datum value, Oid valtype,
				const char *mismatch_msg)
{
	TupleDesc	tupdesc = estate->tuple_store_desc;
	HeapTupleData tmptup;
	TupleDesc	valdesc;
	TupleConversionMap *map;
	HeapTuple	tup;

	if (!type_is_rowtype(valtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot return non-composite value from function returning composite type")));

	valdesc = pln_composite_as_tuple(value, &tmptup);

	map = convert_tuples_by_position(valdesc, tupdesc, mismatch_msg);
	tup = map ? execute_attr_map_tuple(&tmptup, map) : &tmptup;
	tuplestore_puttuple(estate->tuple_store, tup);
	ReleaseTupleDesc(valdesc);
}

/* A row of NULLs into the tuplestore, in the current memory context */
static void
store_null_row(PlnExecState *estate)
{
	TupleDesc	tupdesc = estate->tuple_store_desc;
	int			n = Max(tupdesc->natts, 1);
	Datum	   *values = palloc0(sizeof(Datum) * n);
	bool	   *nulls = palloc(sizeof(bool) * n);

	memset(nulls, true, sizeof(bool) * n);
	tuplestore_putvalues(estate->tuple_store, tupdesc, values, nulls);
}

/* One scalar value into a one-column tuplestore */
static void
store_scalar(PlnExecState *estate, Datum value, bool isnull,
			 Oid valtype, int32 valtypmod)
{
	TupleDesc	tupdesc = estate->tuple_store_desc;
	Form_pg_attribute attr;

	if (tupdesc->natts != 1)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("wrong result type supplied in RETURN NEXT")));
	attr = TupleDescAttr(tupdesc, 0);
	value = exec_cast_value(estate, value, &isnull, valtype, valtypmod,
							attr->atttypid, attr->atttypmod);
	tuplestore_putvalues(estate->tuple_store, tupdesc, &value, &isnull);
}

/* RETURN NEXT [expr] */
int
exec_stmt_return_next(PlnExecState *estate, PlnStmtReturnNext *stmt)
{
	MemoryContext oldcontext;
	TupleDesc	tupdesc;

	(void) get_tuple_store(estate);
	tupdesc = estate->tuple_store_desc;

	/* conversion work happens in the expression context's scratch memory */
	oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);

	if (stmt->retvarno >= 0)
	{
		PlnDatum   *retvar = estate->datums[stmt->retvarno];

		if (retvar->dtype == PLN_DTYPE_VAR &&
			!((PlnVar *) retvar)->datatype->typisarray)
		{
			/* the common case, a scalar variable */
			PlnVar	   *var = (PlnVar *) retvar;
			Datum		value = var->value;
			bool		isnull = var->isnull;
			Form_pg_attribute attr = TupleDescAttr(tupdesc, 0);

			if (tupdesc->natts == 1 &&
				attr->atttypid == var->datatype->typoid &&
				(attr->atttypmod == -1 ||
				 attr->atttypmod == var->datatype->atttypmod))
			{
				/* no conversion: nothing is left in scratch memory */
				tuplestore_putvalues(estate->tuple_store, tupdesc,
									 &value, &isnull);
				MemoryContextSwitchTo(oldcontext);
				return PLN_RC_OK;
			}
			store_scalar(estate, value, isnull,
						 var->datatype->typoid, var->datatype->atttypmod);
		}
		else if (retvar->dtype == PLN_DTYPE_ROW)
		{
			/* the OUT parameters, stored without a heap tuple in between */
			Datum	   *values;
			bool	   *nulls;

			if (!row_values(estate, (PlnRow *) retvar, tupdesc,
							&values, &nulls))
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("wrong record type supplied in RETURN NEXT")));
			tuplestore_putvalues(estate->tuple_store, tupdesc, values, nulls);
		}
		else
		{
			Oid			valtype;
			int32		valtypmod;
			Datum		value;
			bool		isnull;

			pln_exec_datum_value(estate, retvar, &valtype, &valtypmod,
								 &value, &isnull);
			if (retvar->dtype == PLN_DTYPE_REC)
			{
				PlnRec	   *rec = (PlnRec *) retvar;

				/* an unassigned record of a named type is a row of NULLs */
				if (isnull && rec->rectypeid == RECORDOID)
					ereport(ERROR,
							(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
							 errmsg("record \"%s\" is not assigned yet",
									rec->refname),
							 errdetail("The tuple structure of a not-yet-assigned record is indeterminate.")));
				if (isnull)
					store_null_row(estate);
				else
					store_composite(estate, value, valtype,
									gettext_noop("wrong record type supplied in RETURN NEXT"));
			}
			else
				store_scalar(estate, value, isnull, valtype, valtypmod);
		}
	}
	else
	{
		Oid			valtype;
		int32		valtypmod;
		Datum		value;
		bool		isnull;

		MemoryContextSwitchTo(oldcontext);
		value = exec_eval_expr(estate, stmt->expr, &isnull, &valtype, &valtypmod);
		MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);

		if (estate->func->fn_retistuple)
		{
			if (isnull)
				store_null_row(estate);		/* a NULL composite */
			else
				store_composite(estate, value, valtype,
								gettext_noop("returned record type does not match expected record type"));
		}
		else
			store_scalar(estate, value, isnull, valtype, valtypmod);
	}

	MemoryContextSwitchTo(oldcontext);
	exec_eval_cleanup(estate);
	return PLN_RC_OK;
}

/*
 * RETURN QUERY: the query's rows go straight into the tuplestore, through
 * a receiver that converts them to the result's shape (or complains).
 * FOUND and ROW_COUNT say how many came.
 */
int
exec_stmt_return_query(PlnExecState *estate, PlnStmtReturnQuery *stmt)
{
	MemoryContext stmt_mcontext = get_stmt_mcontext(estate);
	Tuplestorestate *store = get_tuple_store(estate);
	int64		before = tuplestore_tuple_count(store);
	DestReceiver *receiver;
	MemoryContext oldcontext;
	uint64		processed;
	int			rc;

	oldcontext = MemoryContextSwitchTo(stmt_mcontext);
	receiver = CreateDestReceiver(DestTuplestore);
	SetTuplestoreDestReceiverParams(receiver, store, estate->tuple_store_cxt,
									false, estate->tuple_store_desc,
									gettext_noop("structure of query does not match function result type"));
	MemoryContextSwitchTo(oldcontext);

	if (stmt->query != NULL)
	{
		SPIExecuteOptions options;

		if (stmt->query->plan == NULL)
			exec_prepare_plan(estate, stmt->query, CURSOR_OPT_PARALLEL_OK);
		memset(&options, 0, sizeof(options));
		options.params = estate->paramLI;
		options.read_only = estate->readonly_func;
		options.must_return_tuples = true;
		options.dest = receiver;
		estate->cur_expr = stmt->query;
		rc = SPI_execute_plan_extended(stmt->query->plan, &options);
		if (rc < 0)
			elog(ERROR, "SPI_execute_plan_extended failed executing query \"%s\": %s",
				 stmt->query->query, SPI_result_code_string(rc));
	}
	else
	{
		SPIExecuteOptions options;
		char	   *querystr = eval_dynamic_query(estate, stmt->dynquery);

		memset(&options, 0, sizeof(options));
		options.params = eval_using_params(estate, stmt->params);
		options.read_only = estate->readonly_func;
		options.must_return_tuples = true;
		options.dest = receiver;
		rc = SPI_execute_extended(querystr, &options);
		if (rc < 0)
			elog(ERROR, "SPI_execute_extended failed executing query \"%s\": %s",
				 querystr, SPI_result_code_string(rc));
	}

	receiver->rDestroy(receiver);
	exec_eval_cleanup(estate);
	MemoryContextReset(stmt_mcontext);

	processed = tuplestore_tuple_count(store) - before;
	estate->eval_processed = processed;
	exec_set_found(estate, processed != 0);
	return PLN_RC_OK;
}
