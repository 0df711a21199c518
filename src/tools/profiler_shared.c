/*-------------------------------------------------------------------------
 *
 * profiler_shared.c
 *	  The profiler's counters for all sessions: a fixed-size hash table in
 *	  shared memory, there when plnimble is loaded through
 *	  shared_preload_libraries.
 *
 * One entry per (database, function, statement id), statement 0 holding
 * the function's calls, with the version of the function (xmin of its
 * pg_proc row) it counts: a session running another version starts the
 * entry afresh.  The table has room for plnimble.profiler_max_statements
 * entries; when it is full, statements not in it are not counted (the
 * profiler shows the shared counters), and the session is told once.
 *
 * A session adds what it counted at the end of each call (a call's
 * statements are counted in session memory first).  It remembers where
 * the entries of the statements it counted are, so that adding takes the
 * table's lock in shared mode once and each entry's spinlock, without a
 * lookup.  Resetting removes entries, under
 * the lock in exclusive mode, and bumps the table's generation, which
 * tells the sessions to forget where entries were.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/guc.h"
#include "utils/hsearch.h"

#include "plnimble.h"

typedef struct PlnProfSharedKey
{
	Oid			dbid;
	Oid			fn_oid;
	uint32		stmtid;
} PlnProfSharedKey;

struct PlnProfShared
{
	PlnProfSharedKey key;		/* hash key: must be first */
	TransactionId fn_xmin;		/* the version counted */
	slock_t		mutex;			/* protects the counters */
	PlnProfStats stats;
};

typedef struct PlnProfSharedHeader
{
	LWLock	   *lock;			/* the table: shared to count, exclusive to
								 * add or remove entries */
	uint64		generation;		/* bumped when entries are removed */
} PlnProfSharedHeader;

static int	prof_max_statements = 10000;
static PlnProfSharedHeader *prof_header = NULL;
static HTAB *prof_shared_hash = NULL;
static bool prof_full_reported = false;

/* in a session's cache: the statement found no room (until a reset) */
static PlnProfShared prof_no_room;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static Size
prof_shared_size(void)
{
	return add_size(MAXALIGN(sizeof(PlnProfSharedHeader)),
					hash_estimate_size(prof_max_statements,
									   sizeof(PlnProfShared)));
}

static void
prof_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(prof_shared_size());
	RequestNamedLWLockTranche("plnimble_profiler", 1);
}

static void
prof_shmem_startup(void)
{
	HASHCTL		info;
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	prof_header = ShmemInitStruct("plnimble profiler",
								  sizeof(PlnProfSharedHeader), &found);
	if (!found)
	{
		prof_header->lock = &(GetNamedLWLockTranche("plnimble_profiler"))->lock;
		prof_header->generation = 1;
	}
	info.keysize = sizeof(PlnProfSharedKey);
	info.entrysize = sizeof(PlnProfShared);
	prof_shared_hash = pln_shmem_init_hash("plnimble profiler statements",
										   prof_max_statements,
										   &info, HASH_ELEM | HASH_BLOBS);
	LWLockRelease(AddinShmemInitLock);
}

/* At module load, when preloading (pln_profiler_init) */
void
pln_prof_shared_init(void)
{
	DefineCustomIntVariable("plnimble.profiler_max_statements",
							gettext_noop("How many statements the profiler counts for all sessions."),
							gettext_noop("Statements beyond that are not counted."),
							&prof_max_statements,
							10000, 100, INT_MAX / 1024,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = prof_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = prof_shmem_startup;
}

/* Are the counters kept for all sessions? */
bool
pln_prof_shared_active(void)
{
	return prof_header != NULL;
}

/* Tell the session, once, that the table is full */
static void
report_full(void)
{
	if (prof_full_reported)
		return;
	prof_full_reported = true;
	ereport(WARNING,
			(errmsg("the shared table of the PL/nimble profiler is full"),
			 errdetail("It holds plnimble.profiler_max_statements = %d statements; statements not in it are not counted.",
					   prof_max_statements),
			 errhint("Reset the profiles with plnimble_profiler_reset_all(), or raise plnimble.profiler_max_statements.")));
}

/* Find or make the entry of a statement; NULL when the table is full */
static PlnProfShared *
shared_entry(Oid fn_oid, TransactionId fn_xmin, unsigned int stmtid)
{
	PlnProfSharedKey key;
	PlnProfShared *entry;
	bool		found;

	memset(&key, 0, sizeof(key));
	key.dbid = MyDatabaseId;
	key.fn_oid = fn_oid;
	key.stmtid = stmtid;

	/* (the caller holds the lock in shared mode) */
	entry = hash_search(prof_shared_hash, &key, HASH_FIND, NULL);
	if (entry != NULL && entry->fn_xmin == fn_xmin)
		return entry;

	LWLockRelease(prof_header->lock);
	LWLockAcquire(prof_header->lock, LW_EXCLUSIVE);
	entry = hash_search(prof_shared_hash, &key, HASH_FIND, NULL);
	if (entry == NULL)
	{
		if (hash_get_num_entries(prof_shared_hash) >= prof_max_statements)
		{
			LWLockRelease(prof_header->lock);
			LWLockAcquire(prof_header->lock, LW_SHARED);
			return NULL;
		}
		entry = hash_search(prof_shared_hash, &key, HASH_ENTER_NULL, &found);
		if (entry == NULL)
		{
			LWLockRelease(prof_header->lock);
			LWLockAcquire(prof_header->lock, LW_SHARED);
			return NULL;
		}
		SpinLockInit(&entry->mutex);
		entry->fn_xmin = InvalidTransactionId;
	}
	if (entry->fn_xmin != fn_xmin)
	{
		/* another version of the function: start afresh */
		entry->fn_xmin = fn_xmin;
		memset(&entry->stats, 0, sizeof(entry->stats));
	}
	LWLockRelease(prof_header->lock);
	LWLockAcquire(prof_header->lock, LW_SHARED);
	return entry;
}

/*
 * Add to the shared counters of a statement; the caller holds the table's
 * lock in shared mode.  True if the table is full.  cache[] (ncache
 * entries, by statement id) remembers where the session found the
 * entries, valid while the table's generation is *cache_generation.
 */
static bool
count_locked(Oid fn_oid, TransactionId fn_xmin, unsigned int stmtid,
			 PlnProfShared **cache, unsigned int ncache,
			 uint64 *cache_generation, const PlnProfStats *delta)
{
	PlnProfShared *entry;
	bool		full = false;

	if (*cache_generation != prof_header->generation)
	{
		memset(cache, 0, sizeof(PlnProfShared *) * ncache);
		*cache_generation = prof_header->generation;
	}
	entry = cache[stmtid];
	if (entry == &prof_no_room)
		return false;
	if (entry == NULL || entry->fn_xmin != fn_xmin)
	{
		entry = shared_entry(fn_oid, fn_xmin, stmtid);
		full = (entry == NULL);

		/*
		 * shared_entry let go of the lock for a moment: if entries were
		 * removed meanwhile, this one may be gone (the count is lost).
		 */
		if (*cache_generation != prof_header->generation)
		{
			memset(cache, 0, sizeof(PlnProfShared *) * ncache);
			*cache_generation = prof_header->generation;
			entry = NULL;
			full = false;
		}
		cache[stmtid] = full ? &prof_no_room : entry;
	}
	if (entry != NULL)
	{
		SpinLockAcquire(&entry->mutex);
		pln_prof_stats_add(&entry->stats, delta);
		SpinLockRelease(&entry->mutex);
	}
	return full;
}

/*
 * Add what a session counted for a version of a function, deltas[] by
 * statement id (ncache entries, times in nanoseconds), to the shared
 * counters, taking the table's lock once; statements with nothing counted
 * are left alone (see count_locked for cache[]).  The profiler does this
 * at the end of each call, not of each statement.
 *
 * This runs inside handler blocks that have no subtransaction too;
 * nothing between taking the table's lock and letting it go raises an
 * error, so nothing is left for a subtransaction's abort to release, and
 * the checking build is told so for exactly this section.  The WARNING of
 * a full table comes after the lock is let go.
 */
void
pln_prof_shared_add(Oid fn_oid, TransactionId fn_xmin,
					PlnProfShared **cache, unsigned int ncache,
					uint64 *cache_generation, const PlnProfStats *deltas)
{
	static const PlnProfStats nothing;
	bool		full = false;
	unsigned int i;

	pln_lazy_check_exempt = true;
	LWLockAcquire(prof_header->lock, LW_SHARED);
	for (i = 0; i < ncache; i++)
	{
		if (memcmp(&deltas[i], &nothing, sizeof(nothing)) == 0)
			continue;
		if (count_locked(fn_oid, fn_xmin, i, cache, ncache,
						 cache_generation, &deltas[i]))
			full = true;
	}
	LWLockRelease(prof_header->lock);
	pln_lazy_check_exempt = false;

	if (full)
		report_full();
}

/* The shared counters of a version of a function, by statement id */
void
pln_prof_shared_read(Oid fn_oid, TransactionId fn_xmin,
					 unsigned int nstatements, PlnProfStats *stats)
{
	PlnProfSharedKey key;
	unsigned int i;

	memset(&key, 0, sizeof(key));
	key.dbid = MyDatabaseId;
	key.fn_oid = fn_oid;

	LWLockAcquire(prof_header->lock, LW_SHARED);
	for (i = 0; i <= nstatements; i++)
	{
		PlnProfShared *entry;

		key.stmtid = i;
		entry = hash_search(prof_shared_hash, &key, HASH_FIND, NULL);
		if (entry == NULL || entry->fn_xmin != fn_xmin)
			continue;
		SpinLockAcquire(&entry->mutex);
		stats[i] = entry->stats;
		SpinLockRelease(&entry->mutex);
	}
	LWLockRelease(prof_header->lock);
}

/* The totals of every function of this database (PlnProfTotals) */
List *
pln_prof_shared_totals(void)
{
	HASHCTL		ctl;
	HTAB	   *byfunc;
	HASH_SEQ_STATUS scan;
	PlnProfShared *entry;
	PlnProfTotals *t;
	List	   *result = NIL;

	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(PlnProfTotals);
	ctl.hcxt = CurrentMemoryContext;
	byfunc = hash_create("PL/nimble profiler totals", 64, &ctl,
						 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);

	LWLockAcquire(prof_header->lock, LW_SHARED);
	hash_seq_init(&scan, prof_shared_hash);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		PlnProfStats stats;
		bool		found;

		if (entry->key.dbid != MyDatabaseId)
			continue;
		SpinLockAcquire(&entry->mutex);
		stats = entry->stats;
		SpinLockRelease(&entry->mutex);

		t = hash_search(byfunc, &entry->key.fn_oid, HASH_ENTER, &found);
		if (!found)
		{
			memset(&t->calls, 0, sizeof(t->calls));
			memset(&t->stmts, 0, sizeof(t->stmts));
		}
		if (entry->key.stmtid == 0)
			t->calls = stats;
		else
			pln_prof_stats_add(&t->stmts, &stats);
	}
	LWLockRelease(prof_header->lock);

	hash_seq_init(&scan, byfunc);
	while ((t = hash_seq_search(&scan)) != NULL)
	{
		PlnProfTotals *copy = palloc(sizeof(PlnProfTotals));

		*copy = *t;
		result = lappend(result, copy);
	}
	return result;
}

/*
 * Remove the entries of a function of this database, or of all its
 * functions (InvalidOid).  They count every session's work, so only a
 * superuser may.
 */
void
pln_prof_shared_reset(Oid fn_oid)
{
	HASH_SEQ_STATUS scan;
	PlnProfShared *entry;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to reset the shared profiles of PL/nimble"),
				 errdetail("plnimble is loaded through shared_preload_libraries: its profiles count every session's work.")));

	LWLockAcquire(prof_header->lock, LW_EXCLUSIVE);
	hash_seq_init(&scan, prof_shared_hash);
	while ((entry = hash_seq_search(&scan)) != NULL)
	{
		if (entry->key.dbid != MyDatabaseId)
			continue;
		if (OidIsValid(fn_oid) && entry->key.fn_oid != fn_oid)
			continue;
		hash_search(prof_shared_hash, &entry->key, HASH_REMOVE, NULL);
	}
	prof_header->generation++;
	LWLockRelease(prof_header->lock);
	prof_full_reported = false;
}
