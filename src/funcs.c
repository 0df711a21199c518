/*-------------------------------------------------------------------------
 *
 * funcs.c
 *	  SQL-callable functions that show what PL/nimble is doing.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "plnimble.h"

PG_FUNCTION_INFO_V1(plnimble_savepoint_stats);

/*
 * This session's exception-block counters: blocks entered, savepoints
 * materialized, errors caught without and with a subtransaction.
 */
Datum
plnimble_savepoint_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	values[0] = Int64GetDatum((int64) pln_stats.blocks_entered);
	values[1] = Int64GetDatum((int64) pln_stats.savepoints_materialized);
	values[2] = Int64GetDatum((int64) pln_stats.errors_caught_lazy);
	values[3] = Int64GetDatum((int64) pln_stats.errors_caught_subxact);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
