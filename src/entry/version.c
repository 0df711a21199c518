/*-------------------------------------------------------------------------
 *
 * version.c
 *	  Which build of PL/nimble is loaded, and whether the extension's SQL
 *	  objects in this database are the ones it was built for.
 *
 * The library's version, git commit and build time come from the Makefile
 * as macros (PLN_EXT_VERSION, PLN_GIT_COMMIT, PLN_BUILD_TIME).  A library
 * newer than the installed SQL objects keeps working: every object of an
 * older version is still provided by it.  It says so once per session,
 * naming ALTER EXTENSION plnimble UPDATE; this is not for speed, so it
 * reads the catalog the simple way.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "plnimble.h"

#ifndef PLN_EXT_VERSION
#error "PLN_EXT_VERSION must be defined by the Makefile"
#endif
#ifndef PLN_GIT_COMMIT
#define PLN_GIT_COMMIT "unknown"
#endif
#ifndef PLN_BUILD_TIME
#define PLN_BUILD_TIME "unknown"
#endif

PG_FUNCTION_INFO_V1(plnimble_version);

/* has this session compared the library with the installed objects? */
static bool sql_version_checked = false;

/*
 * The installed version of extension plnimble in this database, palloc'd
 * in the current context; NULL when it is not installed (the language
 * may have been created by hand on our handlers).
 */
static char *
installed_version(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *version = NULL;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("plnimble"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bool		isnull;
		Datum		d = heap_getattr(tuple, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = text_to_cstring(DatumGetTextPP(d));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	return version;
}

/*
 * Warn, once per session, when the installed SQL objects are not the
 * version this library was built for.  Called from the entry points; the
 * caller must be in a transaction.  Parallel workers, sessions of their
 * own that run for a query of the user's, leave it to the leader: else
 * every parallel query would repeat the warning once per worker.
 */
void
pln_check_sql_version(void)
{
	char	   *installed;

	if (likely(sql_version_checked))
		return;
	sql_version_checked = true;
	if (IsParallelWorker())
		return;

	installed = installed_version();
	if (installed != NULL && strcmp(installed, PLN_EXT_VERSION) != 0)
		ereport(WARNING,
				(errmsg("the %s library is version %s, but the SQL objects of extension plnimble in this database are version %s",
						PLN_OWN_TITLE, PLN_EXT_VERSION, installed),
				 errhint("Run ALTER EXTENSION plnimble UPDATE in this database.")));
}

/*
 * plnimble_version(): the loaded library's version, git commit and build
 * time, and the version of the SQL objects installed in this database.
 */
Datum
plnimble_version(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	char	   *installed;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	values[0] = CStringGetTextDatum(PLN_EXT_VERSION);
	installed = installed_version();
	if (installed != NULL)
		values[1] = CStringGetTextDatum(installed);
	else
		nulls[1] = true;
	values[2] = CStringGetTextDatum(PLN_GIT_COMMIT);
	values[3] = CStringGetTextDatum(PLN_BUILD_TIME);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
