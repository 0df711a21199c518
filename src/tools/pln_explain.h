/*-------------------------------------------------------------------------
 *
 * pln_explain.h
 *	  plnimble_savepoint_plan(): the plan view, where each handler block of
 *	  a function would start its subtransaction and why (explain.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_EXPLAIN_H
#define PLN_EXPLAIN_H

#include "exec/pln_exec.h"

/* explain.c */
extern PGDLLEXPORT Datum plnimble_savepoint_plan(PG_FUNCTION_ARGS);
extern char **pln_savepoint_reasons(PlnExecState *estate, PlnFunction *func);
extern PlnStmt *pln_savepoint_start(PlnExecState *estate, char **why,
									PlnStmtBlock *block);

/* dump.c: #option dump (the compiler calls it through pln_compile_hooks) */
extern void pln_dump_function(PlnFunction *func);

#endif							/* PLN_EXPLAIN_H */
