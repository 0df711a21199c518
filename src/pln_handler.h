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
#include "pln_tree.h"

/* ----------
 * GUCs (handler.c)
 * ----------
 */
extern int	pln_variable_conflict;
extern bool pln_print_strict_params;
extern bool pln_check_asserts;
extern bool pln_lazy_savepoints;
extern bool pln_write_path;
extern bool pln_identify_as_plpgsql;
extern int	pln_extra_warnings;
extern int	pln_extra_errors;

#define PLN_XCHECK_NONE						0
#define PLN_XCHECK_SHADOWVAR				(1 << 1)
#define PLN_XCHECK_TOOMANYROWS				(1 << 2)
#define PLN_XCHECK_STRICTMULTIASSIGNMENT	(1 << 3)
#define PLN_XCHECK_ALL						((int) ~0)

/* handler.c */
extern PlnFunction *pln_compile_for_validation(Oid funcoid, Oid rettype);
extern Datum pln_call_ordinary(FunctionCallInfo fcinfo, PlnFunction *func,
							   ErrorData *fast_call_error);

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
