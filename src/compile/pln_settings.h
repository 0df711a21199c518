/*-------------------------------------------------------------------------
 *
 * pln_settings.h
 *	  The values of PL/nimble's settings (plnimble.*, mirroring plpgsql.*),
 *	  read by every layer.
 *
 * The variables live here, at the bottom, so that any layer may read them;
 * the entry layer registers them with the server (_PG_init in
 * entry/handler.c), which then sets them.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_SETTINGS_H
#define PLN_SETTINGS_H

/* ----------
 * Settings (settings.c)
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

#endif							/* PLN_SETTINGS_H */
