/*-------------------------------------------------------------------------
 *
 * pln_guard.h
 *	  The read guard (guard.c): a protection much cheaper than a
 *	  subtransaction, under which a handler block that has none yet may
 *	  run work that reads database state but writes nothing.
 *
 * Use, in a lazy region (pln_in_lazy_region: the innermost handler block
 * of the call has no subtransaction):
 *
 *		PlnReadGuard guard;		(a handle: the state is kept in guard.c,
 *								 since an error unwinds this frame before
 *								 the block's catch ends the guard)
 *
 *		if (pln_read_guard_usable(estate))
 *		{
 *			pln_read_guard_enter(estate, &guard);
 *			... reviewed read-only work (purity.c's class GUARDED) ...
 *			pln_read_guard_leave(estate, &guard);
 *		}
 *		else
 *			pln_start_savepoints_before(estate, ...);	 (the subtransaction)
 *
 * The caller guarantees:
 * - the work runs no PL code and no function that is not on purity.c's
 *   list (the functions of class GUARDED read catalogs or settings and
 *   write nothing), opens no portal that outlives it, starts no
 *   subtransaction, changes no setting, sends no NOTIFY, touches no large
 *   object and no foreign table, and uses no parallel plan;
 * - guards do not nest (no PL code runs under one, so no block can be
 *   entered under one), and leave is called on the normal path only;
 * - SPI, if the work uses it, was connected before the guard was entered.
 *
 * Under the guard, CurrentResourceOwner is the guard's own, a child of
 * the owner current at entry.  So everything the work registers with a
 * resource owner (buffer pins, catcache/relcache/plancache/tupdesc and
 * snapshot references, temporary files, heavyweight locks) is the
 * guard's.
 *
 * The guard's owner is a child of the block's lock owner (one per handler
 * block without a subtransaction that ran guarded work, frame->lock_owner,
 * under the enclosing such block's): the locks guarded work takes are the
 * block's, as under PL/pgSQL they are its subtransaction's.
 *
 * Normal end (pln_read_guard_leave): the guard's owner is released as a
 * subtransaction commit releases its owner: locks go to the block's lock
 * owner, anything else still held is a leak and is reported as the
 * server reports leaks at subtransaction commit.  The block's lock owner
 * passes them on to the owner around it when the block ends normally
 * (pln_frame_locks_keep: kept, as PL/pgSQL keeps a block's locks),
 * releases them when an error leaves the block (pln_frame_locks_release:
 * as its subtransaction's rollback would), and hands them to the block's
 * subtransaction when that starts (pln_frame_locks_adopt).
 *
 * Error: nothing is done where the error is raised.  When the error
 * reaches the catch of a handler block without a subtransaction
 * (catch_without_savepoint in savepoint.c), pln_read_guard_abort runs
 * first, before anything else of the catch: it does what
 * AbortSubTransaction and CleanupSubTransaction do for the subsystems the
 * work may have touched (LWLocks, buffer I/O and pin waits, lock waits,
 * condition variables, timeouts, wait events, the user id, the active
 * snapshot stack back to its level at entry, and the guard's owner
 * released in its three phases as for an aborted subtransaction, which
 * releases the locks taken under it).  docs/design.md, "The read guard",
 * has the table that argues each step of those two functions.  If the
 * error goes elsewhere (a materialized block's rollback, the transaction's
 * abort), the (sub)transaction abort does all of that itself, and the
 * guard is forgotten by the (sub)transaction callback.
 *
 * Whether the guarded work wrote after all is checked: the transaction ID
 * must not have moved (GetCurrentTransactionIdIfAny).  If it did, the
 * error (or, on normal end, an internal error raised for it) is caught by
 * no handler block without a subtransaction of that call, so that it
 * reaches one that rolls back.
 *
 * pln_read_guard_active() says whether a guard is active in the session;
 * the checking build (lazy_check.c) and the wrapped-server lane let
 * server calls through while it is.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_GUARD_H
#define PLN_GUARD_H

#include "access/xact.h"
#include "exec/pln_exec.h"
#include "utils/resowner.h"
#include "utils/snapshot.h"

typedef struct PlnReadGuard
{
	struct PlnReadGuard *outer; /* (always NULL: guards do not nest) */
	struct PlnReadGuard *handle;	/* the caller's (guard.c keeps the state
									 * of the active guard itself) */
	PlnSavepointFrame *frame;	/* the innermost handler block at entry */
	ResourceOwner saved_owner;	/* CurrentResourceOwner at entry */
	ResourceOwner owner;		/* the guard's own, current under it */
	Snapshot	saved_active;	/* top of the active snapshot stack, or NULL */
	uint32		saved_active_count; /* and its active_count */
	TransactionId saved_xid;	/* GetCurrentTransactionIdIfAny() */
	uint64		saved_sinval;	/* SharedInvalidMessageCounter */
	SubTransactionId subid;		/* the subtransaction it runs in */
	Oid			saved_userid;
	int			saved_sec_context;
	bool		refuse_unreviewed;	/* planning: functions that are not
									 * built in are refused (guard.c) */
	bool		refused;		/* and one was */
	bool		refuse_planning;	/* a guarded query (guarded_query.c):
									 * planning is refused too */
} PlnReadGuard;

/*
 * The active guard of the session, or NULL (guard.c).  Its fields
 * refuse_unreviewed (set by the caller after entering) and refused (read by
 * the caller's own catch) are for the callers that plan or evaluate.
 */
extern PlnReadGuard *pln_read_guard_top;
extern bool pln_guard_owner_work;

static inline bool
pln_read_guard_active(void)
{
	return pln_read_guard_top != NULL;
}

/*
 * In the PG_CATCH of guarded work that may be refused (guard.c's hooks
 * raise a refusal for what is not reviewed): an error the guard did not
 * refuse is the work's own and is thrown on; a refusal is undone as if
 * nothing had run (the guard ended as after an error, its locks
 * released), for the caller to forget its half-done state and do the
 * work the usual way.
 */
#define pln_read_guard_undo_refusal(oldcontext) \
	do { \
		if (pln_read_guard_top == NULL || !pln_read_guard_top->refused) \
			PG_RE_THROW(); \
		(void) pln_read_guard_abort(false); \
		MemoryContextSwitchTo(oldcontext); \
		FlushErrorState(); \
	} while (0)

extern bool pln_read_guard_usable(PlnExecState *estate);
extern void pln_read_guard_enter(PlnExecState *estate, PlnReadGuard *guard);
extern void pln_read_guard_leave(PlnExecState *estate, PlnReadGuard *guard);
extern bool pln_read_guard_abort(bool for_caught_error);
extern void pln_frame_locks_keep(PlnSavepointFrame *frame);
extern void pln_frame_locks_release(PlnSavepointFrame *frame);
extern void pln_frame_locks_adopt(PlnSavepointFrame *frame);
extern void pln_read_guard_init(void);
extern bool pln_other_planner_hook_set(void);
extern void pln_read_guard_xact_cb(XactEvent event, void *arg);
extern void pln_read_guard_subxact_cb(SubXactEvent event,
									  SubTransactionId mySubid,
									  SubTransactionId parentSubid,
									  void *arg);

#endif							/* PLN_GUARD_H */
