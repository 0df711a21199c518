/*-------------------------------------------------------------------------
 *
 * pln_guarded_query.h
 *	  Guarded read-only queries (guarded_query.c): a SELECT ... INTO
 *	  variables in a handler block without a subtransaction, run under a
 *	  read guard (pln_guard.h) instead of the block's subtransaction.
 *
 * Use (exec_stmt_execsql): a statement whose shape may
 * (pln_guarded_query_shape says PLN_GUARDED_QUERY_CANDIDATE) starts
 * running in a lazy region (pln_stmt_may_run_lazily) and first asks
 * pln_guarded_query_run.  If that returns false, nothing was done and the
 * statement passes the gate (pln_start_savepoints_before) and runs as
 * usual, after which pln_guarded_query_note_plan checks the generic plan
 * the plan cache made, if any, for next time.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_GUARDED_QUERY_H
#define PLN_GUARDED_QUERY_H

#include "access/htup.h"
#include "access/tupdesc.h"
#include "nodes/plannodes.h"
#include "exec/pln_exec.h"
#include "utils/plancache.h"

extern char pln_guarded_query_shape(PlnExecState *estate,
									PlnStmtExecSql *stmt);
extern const char *pln_guarded_query_plan_refusal(CachedPlan *cplan,
												  PlnFunction *func);
extern const char *pln_guarded_query_refusal(PlnExecState *estate,
											 PlnStmtExecSql *stmt);
extern void pln_guarded_query_note_plan(PlnExecState *estate,
										PlnStmtExecSql *stmt);
extern bool pln_plan_cache_chooses_generic(CachedPlanSource *plansource);
extern bool pln_guarded_query_moment_allows(PlnExecState *estate,
											PlnStmtExecSql *stmt);

extern const char *pln_guarded_stmt_refusal(PlannedStmt *pstmt,
											PlnFunction *func);

/* EXECUTE ... INTO variables (guarded_query.c) */
extern char pln_guarded_dynamic_shape(PlnExecState *estate,
									  PlnStmtDynExecute *stmt);
extern bool pln_guarded_dynamic_moment_allows(PlnExecState *estate);
extern const char *pln_guarded_dynamic_raw_refusal(List *raw_parsetree_list);
extern const char *pln_guarded_dynamic_query_refusal(PlnExecState *estate,
													 PlnStmtDynExecute *stmt,
													 List *querytrees);

/* exec/exec_guarded_query.c */
extern bool pln_guarded_query_run(PlnExecState *estate, PlnStmtExecSql *stmt,
								  long maxrows, bool check_too_many,
								  uint64 *nrows,
								  HeapTuple *first, TupleDesc *tupdesc);
extern bool pln_guarded_dynamic_run(PlnExecState *estate,
									PlnStmtDynExecute *stmt,
									const char *querystr, uint64 *nrows,
									HeapTuple *first, TupleDesc *tupdesc);

#endif							/* PLN_GUARDED_QUERY_H */
