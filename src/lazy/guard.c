/*-------------------------------------------------------------------------
 *
 * guard.c
 *	  The read guard: reviewed read-only work in a handler block that has
 *	  no subtransaction yet (see pln_guard.h for the protocol).
 *
 * Invariant: while a guard is active, CurrentResourceOwner is the guard's
 * own owner, and everything running is reviewed work (purity.c, class
 * GUARDED, the guarded first planning of exec_expr.c, or a guarded
 * read-only query of guarded_query.c): it reads
 * catalogs, settings or tables, and writes nothing.  An error raised under
 * the guard leaves, at most, what such work can hold; pln_read_guard_abort
 * releases exactly that, as AbortSubTransaction would have released it,
 * before the block's handler runs.  docs/design.md ("The read guard")
 * argues, step by step of AbortSubTransaction and CleanupSubTransaction,
 * why this is all.
 *
 * This file is not for deciding what may run under a guard: that is
 * purity.c's table.
 *
 * The guard's resource owner is kept for reuse between guards (creating
 * one is a good part of the cost of a guard): while no guard is active it
 * has no parent, so that no owner's deletion takes it along, and it is
 * empty.  An error under a guard drops it (the next guard makes a new
 * one), so that an owner that overflowed its lock cache is not reused.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xloginsert.h"
#include "catalog/namespace.h"
#include "fmgr.h"
#include "libpq/pqsignal.h"
#include "miscadmin.h"
#include "optimizer/planner.h"
#include "storage/bufmgr.h"
#include "storage/condition_variable.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/sinval.h"
#include "utils/backend_progress.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"
#include "utils/wait_event.h"

#include "plnimble.h"

PlnReadGuard *pln_read_guard_top = NULL;

/*
 * The state of the active guard.  Not in the caller's PlnReadGuard: an
 * error unwinds the caller's stack frame (the longjmp to the block's catch
 * point) before the catch ends the guard, and the catch's own calls reuse
 * that stack.  Guards do not nest, so one is enough.
 */
static PlnReadGuard active_guard;

/*
 * Owners released and kept for the next guard or block (no parent,
 * empty), so as not to create two per guarded block (see take_owner)
 */
#define N_SPARE_OWNERS 2
static ResourceOwner spare_owners[N_SPARE_OWNERS];
static int	n_spare_owners = 0;

/*
 * Set while the handler block's lock owner is being kept, released or
 * handed to its subtransaction (the pln_frame_locks_* functions): that is
 * the guard's work, done after a guard, so the checking build lets its
 * server calls through as it does while a guard is active.
 */
bool		pln_guard_owner_work = false;

/*
 * Release an owner in its three phases, as a subtransaction's commit
 * (locks to the parent owner, anything else reported as leaked) or abort
 * (everything released) releases its owner
 */
static void
release_owner(ResourceOwner owner, bool isCommit)
{
	ResourceOwnerRelease(owner, RESOURCE_RELEASE_BEFORE_LOCKS, isCommit, false);
	ResourceOwnerRelease(owner, RESOURCE_RELEASE_LOCKS, isCommit, false);
	ResourceOwnerRelease(owner, RESOURCE_RELEASE_AFTER_LOCKS, isCommit, false);
}

/* A resource owner, child of parent: a spare one if there is one */
static ResourceOwner
take_owner(ResourceOwner parent, const char *name)
{
	ResourceOwner owner;

	if (n_spare_owners == 0)
		return ResourceOwnerCreate(parent, name);
	owner = spare_owners[--n_spare_owners];
	ResourceOwnerNewParent(owner, parent);
	return owner;
}

/* An owner released in its three phases, detached: kept or deleted */
static void
give_back_owner(ResourceOwner owner)
{
	ResourceOwnerNewParent(owner, NULL);
	if (n_spare_owners < N_SPARE_OWNERS && PLN_RELEASED_RESOWNER_REUSABLE)
		spare_owners[n_spare_owners++] = owner;
	else
		ResourceOwnerDelete(owner);
}

/*
 * The owner of the locks that guarded work took in the handler block
 * (frame) without a subtransaction, created at its first guard.  A
 * guard's owner is its child, so that a guard's normal end leaves the
 * locks to the block, not to the owner around it: under PL/pgSQL they
 * are the block's subtransaction's, kept when the block ends normally
 * (pln_frame_locks_keep), released when an error leaves it
 * (pln_frame_locks_release), and the subtransaction's when it starts
 * later (pln_frame_locks_adopt).  A block inside another one without a
 * subtransaction has its owner under that block's, so that the outer
 * block's rollback releases them too.
 */
static ResourceOwner
frame_lock_owner(PlnSavepointFrame *frame)
{
	if (frame->lock_owner == NULL)
	{
		ResourceOwner parent;

		if (frame->outer != NULL && !frame->outer->materialized)
			parent = frame_lock_owner(frame->outer);
		else
			parent = CurrentResourceOwner;
		frame->lock_owner = take_owner(parent, "PL/nimble handler block");
	}
	return frame->lock_owner;
}

/* The block's lock owner ends: its locks kept (passed on) or released */
static void
end_frame_locks(PlnSavepointFrame *frame, bool keep)
{
	ResourceOwner owner = frame->lock_owner;

	pln_guard_owner_work = true;
	frame->lock_owner = NULL;
	release_owner(owner, keep);
	give_back_owner(owner);
	pln_guard_owner_work = false;
}

/*
 * The block (frame) ended normally without its subtransaction: its locks
 * go to the owner around it (the enclosing block's, or the one current),
 * as a subtransaction's commit passes its locks on.
 */
void
pln_frame_locks_keep(PlnSavepointFrame *frame)
{
	end_frame_locks(frame, true);
}

/*
 * An error left the block (frame) without its subtransaction, caught by
 * one of its handlers or going on up: its locks are released, as the
 * rollback of its subtransaction releases them under PL/pgSQL (whoever
 * catches the error further up rolls back at least that much).  After
 * pln_read_guard_abort, whose owner was a child of this one.
 */
void
pln_frame_locks_release(PlnSavepointFrame *frame)
{
	end_frame_locks(frame, false);
}

/*
 * The block's subtransaction has just started (materialize_frame): the
 * locks its guarded work took become the subtransaction's, released or
 * kept with it, and the owner is deleted with the subtransaction's.
 */
void
pln_frame_locks_adopt(PlnSavepointFrame *frame)
{
	pln_guard_owner_work = true;
	ResourceOwnerNewParent(frame->lock_owner, CurrentResourceOwner);
	pln_guard_owner_work = false;
	frame->lock_owner = NULL;
}

static needs_fmgr_hook_type prev_needs_fmgr_hook = NULL;
static planner_hook_type prev_planner_hook = NULL;

/*
 * May a guard be entered now, instead of starting the subtransaction?
 * Only inside a handler block without one, outside parallel mode (where
 * enter_frame_slowly starts every block's subtransaction anyway), with a
 * resource owner to be the child of, and when no procedure's COMMIT has
 * left the portal without the snapshot impure work would push first (see
 * ensure_portal_snapshot in exec_expr.c: that snapshot belongs to the
 * block's subtransaction under PL/pgSQL).
 */
bool
pln_read_guard_usable(PlnExecState *estate)
{
	return pln_in_lazy_region(estate) &&
		pln_read_guard_top == NULL &&
		CurrentResourceOwner != NULL &&
		estate->portal_snapshot_ensured &&
		!estate->sp_top->unprotected_write &&
		!estate->guard_xid_moved &&
		!IsInParallelMode();
}

/*
 * Enter a guard: from now on, until pln_read_guard_leave or an error,
 * CurrentResourceOwner is the guard's.  handle is the caller's, to be
 * given to pln_read_guard_leave; the guard's state is kept here
 * (active_guard).
 */
void
pln_read_guard_enter(PlnExecState *estate, PlnReadGuard *handle)
{
	PlnReadGuard *guard;

	Assert(pln_read_guard_usable(estate));

	/* (first: the checking build lets the calls below through) */
	handle->outer = NULL;
	guard = &active_guard;
	guard->outer = pln_read_guard_top;
	guard->handle = handle;
	pln_read_guard_top = guard;

	guard->frame = estate->sp_top;
	guard->saved_owner = CurrentResourceOwner;
	if (ActiveSnapshotSet())
	{
		guard->saved_active = GetActiveSnapshot();
		guard->saved_active_count = guard->saved_active->active_count;
	}
	else
	{
		guard->saved_active = NULL;
		guard->saved_active_count = 0;
	}
	guard->saved_xid = GetCurrentTransactionIdIfAny();
	guard->saved_sinval = SharedInvalidMessageCounter;
	guard->subid = GetCurrentSubTransactionId();
	GetUserIdAndSecContext(&guard->saved_userid, &guard->saved_sec_context);
	guard->refuse_unreviewed = false;
	guard->refused = false;
	guard->refuse_planning = false;

	guard->owner = take_owner(frame_lock_owner(guard->frame),
							  "PL/nimble read guard");

	/* the block stayed lazy through a guard (counted when it ends) */
	estate->sp_top->guarded = true;

	CurrentResourceOwner = guard->owner;
}

/*
 * The guarded work wrote after all (it assigned a transaction ID): that
 * breaks the caller's promise, and no handler block without a
 * subtransaction of this call may catch the error (see
 * catch_without_savepoint), so that one that rolls back does.
 */
static void
report_xid_moved(PlnExecState *estate)
{
	estate->guard_xid_moved = true;
	elog(ERROR, "work under a PL/nimble read guard assigned a transaction ID");
}

/*
 * Normal end of a guard: what the work still holds is released as at a
 * subtransaction's commit (locks go to the parent owner; anything else is
 * reported as leaked and released), and the guard's owner waits, empty and
 * without a parent, for the next guard.
 */
void
pln_read_guard_leave(PlnExecState *estate, PlnReadGuard *handle)
{
	PlnReadGuard *guard = pln_read_guard_top;
	ResourceOwner owner;
	bool		xid_moved;

	if (unlikely(guard == NULL || guard->handle != handle))
		elog(ERROR, "PL/nimble read guards left out of order");
	owner = guard->owner;

	/*
	 * Invalidation messages came in under the guard (a catalog read took a
	 * lock): if they made the search path stale, it is recomputed now,
	 * under the guard, not by the next plan check of a pure expression in
	 * the block, which must read no catalogs (see enter_frame_slowly).
	 */
	if (SharedInvalidMessageCounter != guard->saved_sinval)
		(void) fetch_search_path_array(NULL, 0);

	/* released with the guard's owner current, as ResourceOwnerRelease does */
	release_owner(owner, true);

	CurrentResourceOwner = guard->saved_owner;
	xid_moved = (GetCurrentTransactionIdIfAny() != guard->saved_xid);

	give_back_owner(owner);

	/* (last: the checking build lets the calls above through) */
	pln_read_guard_top = guard->outer;

	if (unlikely(xid_moved))
		report_xid_moved(estate);
}

/*
 * An error raised under the active guard has reached a handler block
 * without a subtransaction (catch_without_savepoint): release what the
 * guarded work held, in AbortSubTransaction's order, and end the guard.
 * Runs before anything else of the catch, with the error still in the
 * error system.  Also for work the guard itself refused (for_caught_error
 * false: no error that PL/pgSQL would have seen), which is then done again
 * under the subtransaction.  Returns false if the work wrote (its transaction ID
 * moved): then the error is not that block's to catch.
 *
 * The steps, with the argument for those left out, are the table of
 * docs/design.md ("The read guard").
 */
bool
pln_read_guard_abort(bool for_caught_error)
{
	PlnReadGuard *guard = pln_read_guard_top;
	ResourceOwner owner = guard->owner;
	bool		clean;

	Assert(guard->outer == NULL);

	HOLD_INTERRUPTS();

	/* AbortSubTransaction's first steps, for everything below the guard */
	LWLockReleaseAll();
	pgstat_report_wait_end();
	/* (ends the command a caught error would end under PL/pgSQL) */
	if (for_caught_error)
		pgstat_progress_end_command();
	pln_error_cleanup_buffer_io();
	UnlockBuffers();
	XLogResetInsertion();
	ConditionVariableCancelSleep();
	LockErrorCleanup();
	reschedule_timeouts();
	pln_unblock_signals();

	SetUserIdAndSecContext(guard->saved_userid, guard->saved_sec_context);

	/* the owner's three phases, as for an aborted subtransaction */
	release_owner(owner, false);

	/*
	 * The active snapshot stack back to its level at entry
	 * (AtSubAbort_Snapshot).  A snapshot pushed under the guard is either
	 * another one or the one that was on top, pushed again (its
	 * active_count went up).
	 */
	while (ActiveSnapshotSet() &&
		   (GetActiveSnapshot() != guard->saved_active ||
			guard->saved_active->active_count > guard->saved_active_count))
		PopActiveSnapshot();

	/* CleanupSubTransaction: the parent's owner, the child's goes */
	CurrentResourceOwner = guard->saved_owner;
	ResourceOwnerDelete(owner);

	clean = (GetCurrentTransactionIdIfAny() == guard->saved_xid);
	pln_read_guard_top = guard->outer;

	RESUME_INTERRUPTS();
	return clean;
}

/*
 * A subtransaction or the transaction was rolled back with a guard
 * active: the error went past every handler block without a
 * subtransaction, and the abort released the guard's owner with its
 * parent (it is deleted with it).  Forget the guard.
 */
void
pln_read_guard_subxact_cb(SubXactEvent event, SubTransactionId mySubid,
						  SubTransactionId parentSubid, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB && pln_read_guard_top != NULL &&
		pln_read_guard_top->subid >= mySubid)
		pln_read_guard_top = NULL;
}

void
pln_read_guard_xact_cb(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
	{
		pln_read_guard_top = NULL;
		pln_guard_owner_work = false;
	}
}

/*
 * Under a guard that plans (refuse_unreviewed), a function that is not
 * built in is about to be looked up to be called: the planner folding a
 * user-defined immutable function, a literal's type input function, a
 * type modifier function.  Such code is not reviewed: the planning is
 * abandoned with this error, which the planning guard catches itself
 * (exec_expr.c) to plan again under the block's subtransaction.  Built-in
 * functions never reach this hook (fmgr_info finds them without it).
 * The planner also asks before it inlines an SQL function: the
 * concatenations of text with other types, which the guarded planning
 * accepts to be inlined (purity.c, pln_analysed_tree_is_guardable), are
 * let through; they are never called under a guard, since no planned
 * tree that holds one runs under one.
 */
static bool
guard_needs_fmgr_hook(Oid fn_oid)
{
	if (unlikely(pln_read_guard_top != NULL &&
				 pln_read_guard_top->refuse_unreviewed) &&
		!pln_function_is_inlined_concat(fn_oid))
	{
		pln_read_guard_top->refused = true;
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg_internal("function %u is not reviewed for a PL/nimble read guard",
								 fn_oid)));
	}
	return prev_needs_fmgr_hook != NULL && prev_needs_fmgr_hook(fn_oid);
}

/*
 * Under a guard that runs a query (refuse_planning, guarded_query.c), the
 * plan cache is about to plan it: a plan invalidated between the caller's
 * check and the locks GetCachedPlan takes, or a custom plan after all.
 * Planning a query over tables is not reviewed work (the planner's
 * estimates call stable functions, other modules' planning hooks): it is
 * refused as guard_needs_fmgr_hook refuses, and the query is run again
 * under the block's subtransaction.  Otherwise the planner is called as if
 * this hook were not there.
 */
static PlannedStmt *
guard_planner_hook(PLN_PLANNER_HOOK_PARAMS)
{
	if (unlikely(pln_read_guard_top != NULL &&
				 pln_read_guard_top->refuse_planning))
	{
		pln_read_guard_top->refused = true;
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg_internal("planning is not reviewed for a PL/nimble read guard")));
	}
	if (prev_planner_hook != NULL)
		return prev_planner_hook(PLN_PLANNER_HOOK_ARGS);
	return standard_planner(PLN_PLANNER_HOOK_ARGS);
}

/*
 * Does another module hook the planner?  (plnimble's own hook,
 * guard_planner_hook, only refuses under a guard that runs a query.)
 */
bool
pln_other_planner_hook_set(void)
{
	return planner_hook != guard_planner_hook || prev_planner_hook != NULL;
}

/* Called once, from _PG_init */
void
pln_read_guard_init(void)
{
	RegisterXactCallback(pln_read_guard_xact_cb, NULL);
	RegisterSubXactCallback(pln_read_guard_subxact_cb, NULL);
	prev_needs_fmgr_hook = needs_fmgr_hook;
	needs_fmgr_hook = guard_needs_fmgr_hook;
	prev_planner_hook = planner_hook;
	planner_hook = guard_planner_hook;
}
