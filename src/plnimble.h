/*-------------------------------------------------------------------------
 *
 * plnimble.h
 *	  Shared definitions of the PL/nimble procedural language.
 *
 * The pipeline is: scanner (grammar/scan.l) -> grammar (grammar/gram.y)
 * -> compiler and function cache (compile.c, namespace.c) -> executor
 * (exec.c for statements, exec_expr.c for expressions, exec_sql.c for SQL
 * statements, assign.c for targets, raise.c for RAISE, savepoint.c for
 * exception blocks).  The definitions are split by concern, each
 * prototype under the file that defines it:
 *
 *	pln_tree.h		the compiled-function tree the grammar builds and the
 *					executor walks
 *	pln_compile.h	scanner, grammar, compiler and function cache,
 *					namespace, condition names
 *	pln_exec.h		the state of a call and the executor's entry points
 *	pln_savepoint.h lazy savepoints: exception blocks, the gates impure
 *					work passes, purity analysis, the plan view
 *	pln_handler.h	settings and the entry points the server calls
 *	pln_plugin.h	the plugin hook for debuggers, profilers, tracers
 *	pln_profiler.h	the profiler, coverage and tracer built on it
 *
 * Every source file includes this header, which includes them all.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLNIMBLE_H
#define PLNIMBLE_H

#include "postgres.h"

/*
 * The language's name in messages and CONTEXT lines: PL/nimble, or
 * PL/pgSQL's own name while plnimble.identify_as_plpgsql is on, for tools
 * that compare message texts (the setting is in pln_handler.h).
 */
#define PLN_LANG_TITLE		(pln_identify_as_plpgsql ? "PL/pgSQL" : "PL/nimble")

/* The name in messages PL/pgSQL has no counterpart for: always our own */
#define PLN_OWN_TITLE		"PL/nimble"

#include "pln_tree.h"
#include "pln_compile.h"
#include "pln_exec.h"
#include "pln_savepoint.h"
#include "pln_handler.h"
#include "pln_plugin.h"
#include "pln_profiler.h"

#endif							/* PLNIMBLE_H */
