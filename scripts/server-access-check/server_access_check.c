/*-------------------------------------------------------------------------
 *
 * server_access_check.c
 *	  Wrappers around the server's entry points for catalog, buffer, lock,
 *	  SPI and snapshot access, for the wrapped-server lane.
 *
 * Not part of PostgreSQL and not a patch of it: scripts/cassert-server.sh
 * compiles this file against the configured source tree of the
 * assertion-enabled build of 15 and links the postgres binary once more
 * with it and with -Wl,--wrap=NAME for every function wrapped here (the
 * list is read from this file: each __wrap_NAME definition).  The linker
 * then sends every call of NAME made from another object file of the
 * server to __wrap_NAME, which calls the hook (server_access_check.h) and
 * goes on to the real function, __real_NAME.  Calls inside the object
 * file that defines NAME are not redirected; the entry points below are
 * chosen so that the way in from outside is always one of them.
 * Extensions (plnimble itself, PL/pgSQL) resolve NAME at load time to the
 * real function: what they call directly is the business of plnimble's
 * own checking build (src/lazy/lazy_check.c), what the server does below
 * them is seen here.
 *
 * Each entry point is one where the caller is left holding something
 * that only a (sub)transaction abort, or plnimble's read guard, releases
 * if an error interrupts the work before the caller gives it back:
 *
 *	SearchCatCache, SearchCatCache1..4	a catalog cache entry's reference
 *						(hits too: the reference is taken either way; a
 *						miss also scans the catalog)
 *	SearchCatCacheList	a catalog cache list's reference
 *	systable_beginscan, systable_beginscan_ordered	a catalog scan: its
 *						registered snapshot, buffer pins, index relations
 *	RelationIdGetRelation	a relation cache reference (relation_open,
 *						table_open and index_open all come through here)
 *	ReadBuffer, ReadBufferExtended, ReadBufferWithoutRelcache,
 *	ReleaseAndReadBuffer	a buffer pin (and the read: I/O, a content lock
 *						taken after it)
 *	LockAcquire, LockAcquireExtended	a heavyweight lock (and a lock wait,
 *						with its timeout state)
 *	SPI_connect, SPI_connect_ext	an SPI connection, and the queries run
 *						through it
 *	RegisterSnapshot, RegisterSnapshotOnOwner	a registered snapshot
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "executor/spi.h"
#include "storage/bufmgr.h"
#include "storage/lock.h"
#include "utils/catcache.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"

#include "server_access_check.h"

PGDLLIMPORT server_access_check_hook_type server_access_check_hook = NULL;

#define CHECK(name) \
	do { \
		if (unlikely(server_access_check_hook != NULL)) \
			server_access_check_hook(name); \
	} while (0)

/*
 * One wrapper: RET NAME(PARAMS) calling the real one with ARGS.  The
 * declaration of __real_NAME is checked against the server's own
 * declaration of NAME (a compile-time assertion that the types agree).
 */
#define WRAP(ret, name, params, args) \
	extern ret __real_##name params; \
	extern ret __wrap_##name params; \
	StaticAssertDecl(__builtin_types_compatible_p(__typeof__(name), \
												  __typeof__(__real_##name)), \
					 "the wrapper of " #name " has its type"); \
	ret \
	__wrap_##name params \
	{ \
		CHECK(#name); \
		return __real_##name args; \
	}

/* catalog caches */
WRAP(HeapTuple, SearchCatCache,
	 (CatCache *cache, Datum v1, Datum v2, Datum v3, Datum v4),
	 (cache, v1, v2, v3, v4))
WRAP(HeapTuple, SearchCatCache1, (CatCache *cache, Datum v1), (cache, v1))
WRAP(HeapTuple, SearchCatCache2, (CatCache *cache, Datum v1, Datum v2),
	 (cache, v1, v2))
WRAP(HeapTuple, SearchCatCache3,
	 (CatCache *cache, Datum v1, Datum v2, Datum v3), (cache, v1, v2, v3))
WRAP(HeapTuple, SearchCatCache4,
	 (CatCache *cache, Datum v1, Datum v2, Datum v3, Datum v4),
	 (cache, v1, v2, v3, v4))
WRAP(CatCList *, SearchCatCacheList,
	 (CatCache *cache, int nkeys, Datum v1, Datum v2, Datum v3),
	 (cache, nkeys, v1, v2, v3))

/* catalog scans */
WRAP(SysScanDesc, systable_beginscan,
	 (Relation heapRelation, Oid indexId, bool indexOK, Snapshot snapshot,
	  int nkeys, ScanKey key),
	 (heapRelation, indexId, indexOK, snapshot, nkeys, key))
WRAP(SysScanDesc, systable_beginscan_ordered,
	 (Relation heapRelation, Relation indexRelation, Snapshot snapshot,
	  int nkeys, ScanKey key),
	 (heapRelation, indexRelation, snapshot, nkeys, key))

/* the relation cache */
WRAP(Relation, RelationIdGetRelation, (Oid relationId), (relationId))

/* buffer reads */
WRAP(Buffer, ReadBuffer, (Relation reln, BlockNumber blockNum),
	 (reln, blockNum))
WRAP(Buffer, ReadBufferExtended,
	 (Relation reln, ForkNumber forkNum, BlockNumber blockNum,
	  ReadBufferMode mode, BufferAccessStrategy strategy),
	 (reln, forkNum, blockNum, mode, strategy))
WRAP(Buffer, ReadBufferWithoutRelcache,
	 (RelFileNode rnode, ForkNumber forkNum, BlockNumber blockNum,
	  ReadBufferMode mode, BufferAccessStrategy strategy, bool permanent),
	 (rnode, forkNum, blockNum, mode, strategy, permanent))
WRAP(Buffer, ReleaseAndReadBuffer,
	 (Buffer buffer, Relation relation, BlockNumber blockNum),
	 (buffer, relation, blockNum))

/* heavyweight locks */
WRAP(LockAcquireResult, LockAcquire,
	 (const LOCKTAG *locktag, LOCKMODE lockmode, bool sessionLock,
	  bool dontWait),
	 (locktag, lockmode, sessionLock, dontWait))
WRAP(LockAcquireResult, LockAcquireExtended,
	 (const LOCKTAG *locktag, LOCKMODE lockmode, bool sessionLock,
	  bool dontWait, bool reportMemoryError, LOCALLOCK **locallockp),
	 (locktag, lockmode, sessionLock, dontWait, reportMemoryError,
	  locallockp))

/* SPI */
WRAP(int, SPI_connect, (void), ())
WRAP(int, SPI_connect_ext, (int options), (options))

/* snapshots */
WRAP(Snapshot, RegisterSnapshot, (Snapshot snapshot), (snapshot))
WRAP(Snapshot, RegisterSnapshotOnOwner,
	 (Snapshot snapshot, ResourceOwner owner), (snapshot, owner))
