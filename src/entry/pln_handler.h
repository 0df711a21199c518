/*-------------------------------------------------------------------------
 *
 * pln_handler.h
 *	  The language handler of PL/nimble: its settings and the entry points
 *	  the server calls (handler.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_HANDLER_H
#define PLN_HANDLER_H

#include "fmgr.h"
#include "compile/pln_tree.h"

/* handler.c */
extern Datum pln_call_ordinary(FunctionCallInfo fcinfo, PlnFunction *func,
							   ErrorData *fast_call_error);

/* fast_call.c: the fast entry */
typedef struct PlnFastCall PlnFastCall;

extern bool pln_fast_call_fits(PlnFunction *func);
extern Datum pln_fast_call(FunctionCallInfo fcinfo, PlnFunction *func);

/*
 * What the server looks up in the library by name: with the two functions
 * of pln_savepoint.h and plnimble_version below marked PGDLLEXPORT, the
 * only symbols it exports (the Makefile builds with hidden visibility).
 */
extern PGDLLEXPORT void _PG_init(void);
extern PGDLLEXPORT Datum plnimble_call_handler(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_inline_handler(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_validator(PG_FUNCTION_ARGS);

/* version.c */
extern PGDLLEXPORT Datum plnimble_version(PG_FUNCTION_ARGS);
extern void pln_check_sql_version(void);

#endif							/* PLN_HANDLER_H */
