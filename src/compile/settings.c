/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  The values of PL/nimble's settings; see pln_settings.h.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plnimble.h"

/* The defaults are PL/pgSQL's; _PG_init registers them as plnimble.* */
int			pln_variable_conflict = PLN_RESOLVE_ERROR;
bool		pln_print_strict_params = false;
bool		pln_check_asserts = true;
bool		pln_lazy_savepoints = true;
bool		pln_write_path = true;
bool		pln_identify_as_plpgsql = false;
int			pln_extra_warnings = PLN_XCHECK_NONE;
int			pln_extra_errors = PLN_XCHECK_NONE;
