/*-------------------------------------------------------------------------
 *
 * pln_compat.h
 *	  Everything in PL/nimble that depends on the PostgreSQL major version
 *	  it is built against.
 *
 * The rest of the sources are written against one server API; where the
 * server's API differs between the supported major versions, the
 * difference is bridged here (a macro, an inline function, or a
 * declaration of a function in a .c file of compat/), so that no other file tests
 * PG_VERSION_NUM.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_COMPAT_H
#define PLN_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "PL/nimble needs PostgreSQL 15 or later"
#endif

#endif							/* PLN_COMPAT_H */
