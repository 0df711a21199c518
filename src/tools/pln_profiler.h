/*-------------------------------------------------------------------------
 *
 * pln_profiler.h
 *	  The profiler, coverage and tracer of PL/nimble (profiler.c,
 *	  tracer.c): consumers of the plugin hook of pln_plugin.h.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_PROFILER_H
#define PLN_PROFILER_H

#include "fmgr.h"
#include "nodes/pg_list.h"

/*
 * The counters of a statement (or of a function's calls).  Times are in
 * nanoseconds, except in the session's own counters (profiler.c), which
 * keep them in the profiler's clock ticks until they are shown or added
 * to shared memory.
 */
typedef struct PlnProfStats
{
	uint64		exec_count;		/* ended, normally or in an error */
	uint64		exec_err;
	uint64		total_ns;
	uint64		max_ns;
	uint64		rows;			/* processed by SQL statements */
	/* blocks with an EXCEPTION clause */
	uint64		block_entries;	/* exec_count, for them */
	uint64		savepoints_started;
	uint64		caught_lazy;	/* errors caught without a subtransaction */
	uint64		caught_subxact; /* and with one */
} PlnProfStats;

/* A function's totals, for plnimble_profiler_functions_all */
typedef struct PlnProfTotals
{
	Oid			fn_oid;
	PlnProfStats calls;			/* of the function's calls */
	PlnProfStats stmts;			/* of its statements, added up */
} PlnProfTotals;

/* profiler.c */
extern bool pln_profiler_enabled;
extern void pln_prof_stats_add(PlnProfStats *dst, const PlnProfStats *delta);
extern void pln_profiler_init(void);
extern PGDLLEXPORT Datum plnimble_profiler_function_tb(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_profiler_function_statements_tb(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_profiler_functions_all(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_profiler_reset(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_profiler_reset_all(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_coverage_statements(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_coverage_branches(PG_FUNCTION_ARGS);

/* profiler_shared.c: counters for all sessions (shared_preload_libraries) */
typedef struct PlnProfShared PlnProfShared;

extern void pln_prof_shared_init(void);
extern bool pln_prof_shared_active(void);
extern void pln_prof_shared_add(Oid fn_oid, TransactionId fn_xmin,
								PlnProfShared **cache, unsigned int ncache,
								uint64 *cache_generation,
								const PlnProfStats *deltas);
extern void pln_prof_shared_read(Oid fn_oid, TransactionId fn_xmin,
								 unsigned int nstatements, PlnProfStats *stats);
extern List *pln_prof_shared_totals(void);
extern void pln_prof_shared_reset(Oid fn_oid);

/* tracer.c */
extern void pln_tracer_init(void);

#endif							/* PLN_PROFILER_H */
