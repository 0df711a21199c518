/*-------------------------------------------------------------------------
 *
 * lazy_check.h
 *	  What the checking build (src/lazy_check.c) asks of the executor.
 *
 * Kept apart from plnimble.h: nothing else uses it.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLNIMBLE_LAZY_CHECK_H
#define PLNIMBLE_LAZY_CHECK_H

#include "plnimble.h"

/* exec.c: the CONTEXT callback of a running call (its arg is the call) */
extern void exec_error_callback(void *arg);

/* savepoint.c */
extern bool pln_innermost_frame_is_lazy(PlnStmt **stmt);

#endif							/* PLNIMBLE_LAZY_CHECK_H */
