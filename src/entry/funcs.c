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
 * materialized, errors caught without and with a subtransaction, INSERTs
 * run by the write path without one, calls run by the fast entry, blocks
 * that stayed without one through a read guard.  The SQL objects of
 * version 1.0 declare the first four columns only, those of 1.1 five: as
 * many are filled as the function's declared result has.
 */
Datum
plnimble_savepoint_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {false, false, false, false, false, false, false};
	int			natts;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	natts = tupdesc->natts;
	if (natts < 4 || natts > lengthof(values))
		elog(ERROR, "plnimble_savepoint_stats() is declared with %d columns", natts);

	values[0] = Int64GetDatum((int64) pln_stats.blocks_entered);
	values[1] = Int64GetDatum((int64) pln_stats.savepoints_materialized);
	values[2] = Int64GetDatum((int64) pln_stats.errors_caught_lazy);
	values[3] = Int64GetDatum((int64) pln_stats.errors_caught_subxact);
	values[4] = Int64GetDatum((int64) pln_stats.writes_without_savepoint);
	values[5] = Int64GetDatum((int64) pln_stats.fast_calls);
	values[6] = Int64GetDatum((int64) pln_stats.blocks_lazy_guarded);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
