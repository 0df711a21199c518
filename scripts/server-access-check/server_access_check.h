/*-------------------------------------------------------------------------
 *
 * server_access_check.h
 *	  The hook of the wrapped-server build (scripts/cassert-server.sh 15).
 *
 * Not part of PostgreSQL: scripts/cassert-server.sh links the server of
 * the assertion-enabled lane with server_access_check.c, whose wrappers
 * (-Wl,--wrap) stand in front of the server's own entry points for
 * catalog caches, catalog scans, the relation cache, buffer reads,
 * heavyweight locks, SPI connections and snapshot registration, and
 * installs this header next to the server's.  Each wrapper calls the hook,
 * when set, with the name of the entry point, before going on.  plnimble
 * built with PLN_SERVER_CHECK=1 sets it (src/lazy/lazy_check.c); a stock
 * server has neither the header nor the variable, so such a build of
 * plnimble does not even load there.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SERVER_ACCESS_CHECK_H
#define SERVER_ACCESS_CHECK_H

/* bumped when the set of wrapped entry points changes */
#define SERVER_ACCESS_CHECK_VERSION 1

typedef void (*server_access_check_hook_type) (const char *entry_point);

extern PGDLLIMPORT server_access_check_hook_type server_access_check_hook;

#endif							/* SERVER_ACCESS_CHECK_H */
