/*-------------------------------------------------------------------------
 *
 * plnimble.h
 *	  Shared definitions of the PL/nimble procedural language.
 *
 * The sources are in one folder per layer (src/README.md has the map and
 * what each layer may call): entry (the server's entry points), tools
 * (checker, profiler, tracer, dump, plugin hook), exec (statements,
 * expressions, assignment), write (the write path), lazy (exception
 * blocks, purity, the plan view), compile (scanner/grammar glue, compiler,
 * namespace, the compiled tree) and compat (what depends on the server
 * version).  This header includes every layer's header, for the files
 * that have not yet been narrowed to the layers they use.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLNIMBLE_H
#define PLNIMBLE_H

#include "postgres.h"

#include "compat/pln_compat.h"

/*
 * The language's name in messages and CONTEXT lines: PL/nimble, or
 * PL/pgSQL's own name while plnimble.identify_as_plpgsql is on, for tools
 * that compare message texts (the setting is in pln_handler.h).
 */
#define PLN_LANG_TITLE		(pln_identify_as_plpgsql ? "PL/pgSQL" : "PL/nimble")

/* The name in messages PL/pgSQL has no counterpart for: always our own */
#define PLN_OWN_TITLE		"PL/nimble"

#include "compile/pln_settings.h"
#include "compile/pln_tree.h"
#include "compile/pln_compile.h"
#include "exec/pln_exec.h"
#include "lazy/pln_savepoint.h"
#include "write/pln_write.h"
#include "entry/pln_handler.h"
#include "exec/pln_plugin.h"
#include "tools/pln_profiler.h"
#include "tools/pln_explain.h"

#endif							/* PLNIMBLE_H */
