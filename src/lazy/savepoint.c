/*-------------------------------------------------------------------------
 *
 * savepoint.c
 *	  Blocks with an EXCEPTION clause, with lazy savepoints.
 *
 * PL/pgSQL starts a subtransaction on every entry to such a block so that
 * a handler sees the database as it was when the block was entered.
 * plnimble starts it only when the block is about to do something that
 * could change or hold database state.
 *
 * Entering a block pushes a frame (on the C stack) that has no
 * subtransaction yet.  Anything that is not known to be pure calls
 * pln_start_savepoints_before() first; if the innermost frame has no
 * subtransaction, pln_materialize_savepoints() starts one for every frame
 * of the call that lacks one, outermost first, so that subtransactions
 * nest exactly like the blocks.
 *
 * Invariants:
 * - Frames with a subtransaction form a prefix of the frame stack of a
 *   call: if a frame is materialized, so are all frames around it.
 * - While the innermost frame is not materialized, everything done since
 *   it was entered was pure (purity.c): it read no catalogs, took no
 *   locks, pinned no buffers, opened nothing, called no other function
 *   and ran no SQL.  So when an error is raised there, the only state to
 *   restore is the PL's own: the memory context, the expression context's
 *   scratch memory and the executor's bookkeeping.  That is the cheap
 *   catch below.
 * - A materialized frame ends exactly as in PL/pgSQL: release on normal
 *   exit, rollback before any handler runs on error.
 *
 * docs/design.md has the full argument.  With plnimble.lazy_savepoints
 * off, every frame is materialized on entry, like PL/pgSQL.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "plnimble.h"

/* The memory for the errors caught at one handler depth (see below) */
typedef struct CaughtErrorMemory
{
	MemoryContext current;		/* holds the error of that depth's handler */
	MemoryContext spare;		/* empty, for the next catch at that depth */
} CaughtErrorMemory;

static CaughtErrorMemory *caught_error_memory(void);
static bool handler_hides_error(PlnStmtBlock *block, int sqlerrcode);

/* this session's counters, see funcs.c */
PlnSavepointStats pln_stats;

/*
 * Run work(arg) in an internal subtransaction of its own, for work whose
 * failure is only a finding (the checker, the plan view, the write path
 * preparing its plan): on success the subtransaction is committed, or
 * rolled back if roll_back is set; on an error it is rolled back and the
 * error, copied into the caller's memory context, is returned for the
 * caller to report, rethrow or free.  Returns NULL when work succeeded.
 * work runs in the caller's memory context; the caller's resource owner
 * is current again on return either way.  Not for lazy savepoints: this
 * subtransaction is always started.
 */
ErrorData *
pln_try_in_subtransaction(void (*work) (void *arg), void *arg,
						  bool roll_back)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	ErrorData  *volatile edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
		work(arg);
		if (roll_back)
			RollbackAndReleaseCurrentSubTransaction();
		else
			ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_END_TRY();

	return edata;
}

/* the executor's functions this layer calls (set by _PG_init) */
PlnBlockRunner pln_block_runner;

/*
 * A plan checked in the current epoch is still valid: see
 * simple_plan_known_valid in exec/exec_expr.c, and pln_forget_plan_checks.
 * Here because the gate (pln_start_savepoints_before) bumps it.
 */
uint64		pln_validity_epoch = 1;

/*
 * Connect the call to SPI.  Done on first need
 * (pln_start_savepoints_before), never inside a subtransaction of ours, so that releasing one does not find the
 * connection still open.  The caller's context, where the call's memory
 * lives, is where SPI_finish will return to.
 */
void
pln_connect_spi(PlnExecState *estate)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(estate->datum_context);
	int			rc;

	rc = SPI_connect_ext(estate->atomic ? 0 : SPI_OPT_NONATOMIC);
	if (rc != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	MemoryContextSwitchTo(oldcontext);
	estate->spi_connected = true;
	estate->spi_finish = true;

	/* a trigger's transition tables become visible to its queries */
	if (estate->trigdata != NULL &&
		SPI_register_trigger_data(estate->trigdata) < 0)
		elog(ERROR, "SPI_register_trigger_data failed");
}

/*
 * Does a WHEN condition catch an error with this SQLSTATE?  A condition is
 * a full SQLSTATE, a class (a code ending in 000, which catches its whole
 * class) or OTHERS (0).  OTHERS catches everything except a query cancel
 * and a failed ASSERT: those are caught only where they are named.
 */
static bool
condition_catches(int wanted, int sqlerrcode)
{
	if (wanted == 0)
		return sqlerrcode != ERRCODE_QUERY_CANCELED &&
			sqlerrcode != ERRCODE_ASSERT_FAILURE;
	if (ERRCODE_IS_CATEGORY(wanted))
		return ERRCODE_TO_CATEGORY(sqlerrcode) == wanted;
	return sqlerrcode == wanted;
}

/* Does any of the conditions of a WHEN clause catch it? */
static bool
exception_matches_conditions(int sqlerrcode, PlnCondition *cond)
{
	for (; cond != NULL; cond = cond->next)
	{
		if (condition_catches(cond->sqlerrstate, sqlerrcode))
			return true;
	}
	return false;
}

/* The handler that catches an error with this SQLSTATE, or NULL */
static PlnExceptionAction *
find_handler(PlnStmtBlock *block, int sqlerrcode)
{
	ListCell   *e;

	foreach(e, block->exceptions->actions)
	{
		PlnExceptionAction *action = (PlnExceptionAction *) lfirst(e);

		if (exception_matches_conditions(sqlerrcode, action->conditions))
			return action;
	}
	return NULL;
}

/* Does a handler of the block (which has an EXCEPTION clause) catch it? */
bool
pln_block_catches(PlnStmtBlock *block, int sqlerrcode)
{
	return find_handler(block, sqlerrcode) != NULL;
}

/*
 * Could this statement show a caught error's CONTEXT?  A bare RAISE
 * re-throws the error as it was.  Statement kinds not known to leave the
 * error alone are assumed to show it.  (For pln_stmts_any: the walk
 * stops at the first that may.)
 */
static PlnWalkResult
stmt_may_show_error_context(PlnStmt *stmt, void *arg)
{
	if (stmt->cmd_type == PLN_STMT_RAISE)
	{
		PlnStmtRaise *raise = (PlnStmtRaise *) stmt;

		if (raise->condname == NULL && raise->message == NULL &&
			raise->options == NIL)
			return PLN_WALK_STOP;
	}
	/* the column "quiet" of pln_stmtkinds.h */
	return pln_stmt_kinds[stmt->cmd_type].quiet ?
		PLN_WALK_CONTINUE : PLN_WALK_STOP;
}

/* Could these statements (at any depth) show a caught error's CONTEXT? */
static bool
stmts_may_show_error_context(List *stmts)
{
	return pln_stmts_any(stmts, stmt_may_show_error_context, NULL);
}

/*
 * Would an ERROR raised now be an ERROR, for a handler to catch?  errstart
 * makes it FATAL under exit_on_error and during a process exit (the
 * session ends, and the error is reported in full), and a PANIC in a
 * critical section.
 */
static inline bool
error_stays_error(void)
{
	return !ExitOnAnyError && !proc_exit_inprogress && CritSectionCount == 0;
}

/*
 * Will an error with this SQLSTATE, raised now, be caught in this call
 * without anyone ever seeing its CONTEXT lines?  Then the call's error
 * context callback need not build its line, which is a good part of the
 * cost of a caught error.
 *
 * That holds when the innermost handler block has no subtransaction (so
 * the error comes from this call's own pure work, not from a function it
 * called, which might show the context itself), the error stays an error
 * (error_stays_error: else it ends the session, reported in full), one of
 * the block's handlers catches it, and that handler cannot show the
 * context.
 */
bool
pln_error_context_unseen(PlnExecState *estate, int sqlerrcode)
{
	PlnSavepointFrame *frame = estate->sp_top;

	if (frame == NULL || frame->materialized || estate->raising_notice ||
		estate->starting_savepoint || frame->unprotected_write ||
		!error_stays_error())
		return false;

	/*
	 * Only for errors: the callback also runs for notices and warnings
	 * (their codes are in classes 00 to 02) and for reports that end the
	 * session (classes 08, 28 and 57), which are shown, never caught.
	 */
	switch (ERRCODE_TO_CATEGORY(sqlerrcode))
	{
		case ERRCODE_SUCCESSFUL_COMPLETION:
		case ERRCODE_WARNING:
		case ERRCODE_NO_DATA:
		case ERRCODE_CONNECTION_EXCEPTION:
		case ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION:
		case ERRCODE_OPERATOR_INTERVENTION:
			return false;
		default:
			break;
	}

	return handler_hides_error(frame->block, sqlerrcode);
}

/*
 * Does the handler of the block that catches an error with this SQLSTATE
 * never show the error's fields (its CONTEXT and DETAIL)?  The handler
 * does not re-throw it (a bare RAISE) and asks nothing of it but SQLSTATE
 * and SQLERRM.
 */
static bool
handler_hides_error(PlnStmtBlock *block, int sqlerrcode)
{
	PlnExceptionAction *action = find_handler(block, sqlerrcode);

	if (action == NULL)
		return false;
	if (action->shows_context == PLN_TRI_UNKNOWN)
		action->shows_context =
			stmts_may_show_error_context(action->action) ?
			PLN_TRI_YES : PLN_TRI_NO;
	return action->shows_context == PLN_TRI_NO;
}

/*
 * For the write path (write_path.c): will a unique_violation raised now
 * be caught by the innermost frame, whose write it is, without anyone
 * seeing its DETAIL?  Then it need not be built.
 */
bool
pln_write_path_error_unseen(PlnExecState *estate)
{
	PlnSavepointFrame *frame = estate->sp_top;

	Assert(frame != NULL && frame->unprotected_write);
	return !frame->materialized && error_stays_error() &&
		handler_hides_error(frame->block, ERRCODE_UNIQUE_VIOLATION);
}

/*
 * For the write path (write_path.c), whose INSERT found a duplicate: may
 * the block's handler run without the unique_violation being raised at
 * all?  Then the INSERT's statement returns PLN_RC_HANDED_TO_HANDLER, and
 * the block runs the handler when its body returns with it
 * (run_handler_for_duplicate); else the caller raises the error.  Raising and catching it does nothing anyone can see, apart from
 * the error's data, when:
 *
 * - the frame has no subtransaction (it is the write path's), and the
 *   handler that catches the error never shows it (no bare RAISE, no GET
 *   STACKED DIAGNOSTICS, no statement kind not reviewed: handler_hides_error)
 *   and the function's text never names SQLERRM (compile.c), so the error's
 *   message, DETAIL, CONTEXT and fields are never read;
 * - nobody watches the call through the plugin hook (the profiler, the
 *   tracer, a debugger), which would see the catch;
 * - errstart would raise an ERROR, not end the session: exit_on_error is
 *   off and no process exit is in progress, and no critical section turns
 *   it into a PANIC (error_stays_error);
 * - errfinish would change nothing on its way to the catch: it resets the
 *   interrupt and critical section holdoff counts, here all zero.
 *
 * What else a raise does is to run the error context callbacks, which
 * describe the error for its report; and the catch restores the call's
 * state, which run_handler_for_duplicate does too.
 */
bool
pln_handler_may_take_duplicate(PlnExecState *estate)
{
	PlnSavepointFrame *frame = estate->sp_top;

	Assert(frame != NULL && !frame->unprotected_write);
	if (frame->materialized || estate->plugins != NULL ||
		estate->func->sqlerrm_named || estate->raising_notice ||
		estate->starting_savepoint || !error_stays_error() ||
		InterruptHoldoffCount != 0 || QueryCancelHoldoffCount != 0 ||
		!handler_hides_error(frame->block, ERRCODE_UNIQUE_VIOLATION))
		return false;
	return true;
}

/*
 * Run a handler of the block for an error with this SQLSTATE, with
 * SQLSTATE and SQLERRM set and the error available to bare RAISE.  edata
 * is the caught error, in caught_error_memory(), and goes with it; NULL
 * when the write path hands the handler a duplicate without raising it
 * (pln_handler_may_take_duplicate), whose handler reads neither SQLERRM nor
 * the error.
 */
static int
run_handler(PlnExecState *estate, PlnStmtBlock *block,
			PlnExceptionAction *action, int sqlerrcode, ErrorData *edata)
{
	ErrorData  *save_cur_error = estate->cur_error;
	int			rc;

	/*
	 * (A variable the text never names cannot be read, see compile.c, but
	 * by a consumer of the plugin hook, which may look at every variable.)
	 */
	if (estate->func->sqlstate_named || estate->plugins != NULL)
		pln_block_runner.assign_text_var(estate,
										 (PlnVar *) estate->datums[block->exceptions->sqlstate_varno],
										 unpack_sql_state(sqlerrcode));
	if (edata != NULL)
		pln_block_runner.assign_text_var(estate,
										 (PlnVar *) estate->datums[block->exceptions->sqlerrm_varno],
										 edata->message);

	estate->cur_error = edata;
	estate->err_text = NULL;

	/* errors caught inside the handler go one level deeper */
	pln_handler_depth++;
	rc = pln_block_runner.exec_stmts(estate, action->action);
	pln_handler_depth--;

	estate->cur_error = save_cur_error;
	MemoryContextReset(caught_error_memory()->current);
	return rc;
}

/*
 * Run the handler that matches the caught error (see run_handler).
 * Re-throws the error if no handler matches.
 */
static pg_noinline int
run_matching_handler(PlnExecState *estate, PlnStmtBlock *block,
					 ErrorData *edata)
{
	PlnExceptionAction *action = find_handler(block, edata->sqlerrcode);

	if (action == NULL)
		ReThrowError(edata);
	return run_handler(estate, block, action, edata->sqlerrcode, edata);
}

/* ----------
 * Memory for caught errors
 *
 * A caught error is copied out of the error system (CopyErrorData) and
 * must stay while its handler runs, for SQLERRM, GET STACKED DIAGNOSTICS
 * and bare RAISE.  FreeErrorData does not free everything CopyErrorData
 * allocates (the copies of the file and function names, for one), so the
 * copy goes into a memory context of its own, reset when the handler is
 * done: a loop that catches millions of errors must not grow.
 *
 * Handlers nest (an error caught inside a handler, in the same call or in
 * a function it calls), and an inner catch must not destroy the outer
 * handler's error.  So each nesting level has memory of its own:
 * pln_handler_depth counts the handlers running in the session, and a
 * catch at depth d keeps the error in depth d's memory, whose handler then
 * runs at depth d + 1.  Blocks and calls put the depth back as it was when
 * an error leaves a handler (restore_call_state, plnimble_call_handler);
 * a block puts it back *before* it copies the error, so that an error
 * escaping from a handler lands in the memory of the block that catches
 * it, not in that of the handler it left (which a later catch at that
 * depth would free while the block's own handler still uses the error).
 *
 * When a block entered at depth d catches, no handler at depth d + 1 or
 * deeper is running any more, so what depth d's memory still holds (an
 * error whose handler failed, in this call or in one that has returned)
 * is dead, and goes: a depth never keeps more than one error, however many
 * handlers end in an error.  It cannot go before the copy, though: the
 * error being caught may be one of those dead errors re-thrown (a bare
 * RAISE), and ReThrowError leaves the file and function names pointing
 * into the old copy.  So each depth has two contexts: the new error is
 * copied into the spare one, then the old one is reset and becomes the
 * spare.
 *
 * The contexts live for the session: a COMMIT in a handler (allowed in a
 * procedure) must not free the error.  Their first block, which a reset
 * keeps, is large enough for a typical error with its context lines, so
 * that catching one allocates nothing from the system.
 * ----------
 */
int			pln_handler_depth = 0;

static CaughtErrorMemory *caught_errors = NULL;
static int	n_caught_errors = 0;

/* The memory of the current handler depth, created on first use */
static CaughtErrorMemory *
caught_error_memory(void)
{
	int			depth = pln_handler_depth;
	CaughtErrorMemory *mem;

	if (unlikely(depth >= n_caught_errors))
	{
		int			newsize = Max(8, depth * 2);

		if (caught_errors == NULL)
			caught_errors =
				MemoryContextAllocZero(TopMemoryContext,
									   sizeof(CaughtErrorMemory) * newsize);
		else
		{
			caught_errors =
				repalloc(caught_errors, sizeof(CaughtErrorMemory) * newsize);
			memset(caught_errors + n_caught_errors, 0,
				   sizeof(CaughtErrorMemory) * (newsize - n_caught_errors));
		}
		n_caught_errors = newsize;
	}
	mem = &caught_errors[depth];
	if (unlikely(mem->current == NULL))
	{
		mem->current = AllocSetContextCreate(TopMemoryContext,
											 "PL/nimble caught error",
											 ALLOCSET_DEFAULT_SIZES);
		mem->spare = AllocSetContextCreate(TopMemoryContext,
										   "PL/nimble caught error",
										   ALLOCSET_DEFAULT_SIZES);
	}
	return mem;
}

/*
 * Start the subtransaction of one frame, after those of the frames around
 * it.  The call keeps running in its own memory context; expressions get
 * a context of their own inside the subtransaction, so that its end takes
 * care of whatever they registered there.
 *
 * PL/pgSQL starts the subtransaction when the block is entered, before its
 * protected part, so an error in starting it (in a parallel worker:
 * "cannot start subtransactions during a parallel operation") is not the
 * block's to catch, and it says "during statement block entry".  Here the
 * block's catch point is armed already: starting_savepoint tells the
 * catch that the error is not the frame's (see catch_without_savepoint),
 * and the error's CONTEXT line names the block's entry.
 */
static void
materialize_frame(PlnExecState *estate, PlnSavepointFrame *frame)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	PlnStmt    *save_err_stmt;
	const char *save_err_text;
	PlnVariable *save_err_var;

	if (frame->outer != NULL && !frame->outer->materialized)
		materialize_frame(estate, frame->outer);

	save_err_stmt = estate->err_stmt;
	save_err_text = estate->err_text;
	save_err_var = estate->err_var;
	estate->starting_savepoint = true;
	estate->err_stmt = (PlnStmt *) frame->block;
	estate->err_text = "during statement block entry";
	/* (the block's variables were initialised when it was entered) */
	estate->err_var = NULL;

	/* SPI must be connected outside our subtransactions */
	if (!estate->spi_connected)
		pln_connect_spi(estate);

	frame->outer_owner = CurrentResourceOwner;
	frame->outer_econtext = estate->eval_econtext;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	frame->materialized = true;
	/* (the locks guarded work took in the block become the new one's) */
	if (frame->lock_owner != NULL)
		pln_frame_locks_adopt(frame);
	pln_stats.savepoints_materialized++;
	if (unlikely(estate->plugins != NULL))
		pln_block_runner.block_event(estate, frame->block,
									 PLN_BLOCK_SAVEPOINT_STARTED);

	estate->starting_savepoint = false;
	estate->err_stmt = save_err_stmt;
	estate->err_text = save_err_text;
	estate->err_var = save_err_var;

	pln_block_runner.create_econtext(estate);
}

/*
 * Give every frame of the call a subtransaction, outermost first.  Called
 * (through pln_start_savepoints_before) right before the first thing
 * that is not pure.
 */
void
pln_materialize_savepoints(PlnExecState *estate)
{
	Assert(estate->sp_top != NULL);

	/*
	 * A subtransaction started now would not cover what the write path
	 * wrote in the innermost frame.  Its conditions leave nothing impure
	 * to run there after the write; should that ever break, this error
	 * (which the frame does not catch) is the answer, not a wrong result.
	 */
	if (unlikely(estate->sp_top->unprotected_write))
		elog(ERROR, "impure work after an INSERT run without its block's subtransaction");

	/* (if starting one fails, restore_call_state clears the flag) */
	estate->materializing = true;
	materialize_frame(estate, estate->sp_top);
	estate->materializing = false;
}

/*
 * The write path (write_path.c) is about to run an INSERT in the innermost
 * handler block of the call without starting that block's subtransaction.
 * The frames around it get theirs first, as for any impure work, so that
 * an error the block does not catch is undone by the block that does.
 * From now on the innermost frame catches nothing (catch_without_savepoint)
 * and lets nothing start its subtransaction (pln_materialize_savepoints),
 * until pln_end_unprotected_write says that nothing was written after all.
 * What pln_start_savepoints_before clears for a statement is cleared too.
 */
void
pln_begin_unprotected_write(PlnExecState *estate)
{
	PlnSavepointFrame *frame = estate->sp_top;

	Assert(frame != NULL && !frame->materialized && !frame->unprotected_write);
	pln_ensure_spi(estate);
	if (frame->outer != NULL && !frame->outer->materialized)
	{
		/* (if starting one fails, restore_call_state clears the flag) */
		estate->materializing = true;
		materialize_frame(estate, frame->outer);
		estate->materializing = false;
	}
	frame->unprotected_write = true;

	estate->search_path_checked = false;
	pln_forget_plan_checks();
	estate->portal_snapshot_ensured = false;
}

/*
 * The write path wrote nothing: the innermost frame is as if only pure
 * work had run in it (see write_path.c for why), and may catch again.
 */
void
pln_end_unprotected_write(PlnExecState *estate)
{
	Assert(estate->sp_top != NULL && estate->sp_top->unprotected_write);
	estate->sp_top->unprotected_write = false;
}

/* see pln_savepoint.h */
bool		pln_lazy_check_exempt = false;

/*
 * For the checking build (lazy_check.c): is the innermost handler block of
 * the innermost running call one without its subtransaction?  Then only
 * pure work may run, and *stmt is the statement running.  The running
 * call is the nearest on the error context stack: each call pushes its
 * callback on entry, and every way out (normal or by error) pops it.
 */
bool
pln_innermost_frame_is_lazy(PlnStmt **stmt)
{
	ErrorContextCallback *cb;

	for (cb = error_context_stack; cb != NULL; cb = cb->previous)
	{
		if (cb->callback == pln_block_runner.error_callback)
		{
			PlnExecState *estate = (PlnExecState *) cb->arg;

			/*
			 * (starting the savepoints is what a gate is for, the
			 * write path is another gate, write_path.c, and a read
			 * guard the third, guard.c)
			 */
			if (!pln_in_lazy_region(estate) || estate->materializing ||
				estate->sp_top->unprotected_write ||
				pln_read_guard_active() || pln_guard_owner_work)
				return false;
			*stmt = estate->err_stmt;
			return true;
		}
	}
	return false;
}

/*
 * The state every caught error must leave behind: the call's memory
 * context, the statement and handler that were running when the block was
 * entered, no simple expression marked as being evaluated, and empty
 * scratch memory.  (No statement keeps anything in the statement context
 * while statements nested in it run, so it can be reset here.)  A failed simple
 * expression may be used again in this transaction, with a fresh state
 * unless it is pure; PL/pgSQL instead sends it through SPI from then on,
 * which shows, and whose custom plans plnimble then uses as well
 * (simple_failed_lxid, see exec_expr.c).
 */
static void
restore_call_state(PlnExecState *estate, PlnSavepointFrame *frame)
{
	MemoryContextSwitchTo(frame->entry_context);
	estate->materializing = false;
	/* the error may have come from anywhere: check plans again */
	pln_forget_plan_checks();
	if (estate->simple_expr_running)
	{
		pln_simple_expr_failed(estate->simple_expr_running);
		estate->simple_expr_running = NULL;
	}
	/*
	 * A call handed over by the fast entry whose block caught an error (a
	 * cancel, say) before the RETURN raised the handed-over one: that one
	 * is dropped, with its mark (see pln_fast_handover_dropped).
	 */
	if (unlikely(estate->fast_call_error != NULL))
	{
		pln_fast_handover_dropped(estate->func->fast_expr);
		estate->fast_call_error = NULL;
	}
	/* the block was the running statement when it was entered */
	estate->err_stmt = (PlnStmt *) frame->block;
	estate->raising_notice = false;
	/* a handler inside the block that failed is no longer running */
	estate->cur_error = frame->entry_cur_error;
	pln_handler_depth = frame->entry_handler_depth;
	/* what the failed statement left in scratch memory */
	pln_block_runner.eval_cleanup_slowly(estate);
	if (estate->stmt_mcontext != NULL)
		MemoryContextReset(estate->stmt_mcontext);
}

/*
 * Take the error being handled out of the error system into the caught
 * error memory of the current handler depth, which must already be the
 * depth of the block that catches it.  The error that memory held before
 * is one whose handler is no longer running; it is freed once the new one
 * is copied (see "Memory for caught errors").
 */
static ErrorData *
copy_caught_error(void)
{
	CaughtErrorMemory *mem = caught_error_memory();
	MemoryContext old = mem->current;
	ErrorData  *edata;

	MemoryContextSwitchTo(mem->spare);
	edata = CopyErrorData();
	FlushErrorState();

	MemoryContextReset(old);
	mem->current = mem->spare;
	mem->spare = old;
	return edata;
}

/*
 * A block that had run work under a read guard ended without its
 * subtransaction: count it, and the block around it, if it has none
 * either, stayed lazy through the guard too.
 */
static pg_noinline void
frame_stayed_lazy_guarded(PlnSavepointFrame *frame)
{
	pln_stats.blocks_lazy_guarded++;
	if (frame->outer != NULL && !frame->outer->materialized)
		frame->outer->guarded = true;
}

/*
 * Catch an error raised while the frame had no subtransaction.  Nothing
 * but PL state can need restoring (see the file header).  If no handler
 * matches, the error goes on up untouched, without even being copied.
 */
static pg_noinline ErrorData *
catch_without_savepoint(PlnExecState *estate, PlnSavepointFrame *frame,
						PlnStmtBlock *block)
{
	ErrorData  *edata;

	/*
	 * An error under a read guard: first release what the guarded work
	 * held, as the subtransaction's abort would have (guard.c).  If it
	 * wrote after all, no block without a subtransaction may catch the
	 * error.
	 */
	if (unlikely(pln_read_guard_top != NULL) && !pln_read_guard_abort(true))
		estate->guard_xid_moved = true;
	/* and the locks guarded work took in the block, caught or not */
	if (unlikely(frame->lock_owner != NULL))
		pln_frame_locks_release(frame);

	restore_call_state(estate, frame);

	if (unlikely(estate->guard_xid_moved))
		PG_RE_THROW();

	/*
	 * An error in starting the subtransaction of this frame or of one
	 * around it: PL/pgSQL would never have entered the block (see
	 * materialize_frame), so it goes on up, to a frame that has one.
	 */
	if (unlikely(estate->starting_savepoint) ||
		find_handler(block, geterrcode()) == NULL)
	{
		/*
		 * (an error of work under a guard that the block around catches
		 * without its subtransaction: that block stayed lazy through it)
		 */
		if (unlikely(frame->guarded) && frame->outer != NULL &&
			!frame->outer->materialized)
			frame->outer->guarded = true;
		PG_RE_THROW();
	}

	/*
	 * The write path ran, or was running, an INSERT in this block without
	 * its subtransaction: what it wrote cannot be undone here, so the
	 * error is not the block's to catch.  (Its conditions make this
	 * unreachable for the errors its handlers catch; see write_path.c.)
	 */
	if (unlikely(frame->unprotected_write))
		PG_RE_THROW();

	edata = copy_caught_error();
	MemoryContextSwitchTo(frame->entry_context);

	pln_stats.errors_caught_lazy++;
	if (unlikely(frame->guarded))
		frame_stayed_lazy_guarded(frame);
	if (unlikely(estate->plugins != NULL))
		pln_block_runner.block_event(estate, block, PLN_BLOCK_CAUGHT_LAZY);
	return edata;
}

/*
 * Catch an error raised inside the frame's subtransaction: roll it back,
 * undoing everything the block did in the database, exactly as PL/pgSQL
 * does.
 */
static pg_noinline ErrorData *
catch_with_savepoint(PlnExecState *estate, PlnSavepointFrame *frame)
{
	ErrorData  *edata;

	estate->err_text = "during exception cleanup";
	/* an inner frame failed to start its subtransaction: ours to catch */
	estate->starting_savepoint = false;

	/*
	 * The handlers that ran inside the block are over: the error belongs
	 * to the depth the block was entered at, and goes into that depth's
	 * memory, which survives the rollback.
	 */
	estate->cur_error = frame->entry_cur_error;
	pln_handler_depth = frame->entry_handler_depth;
	edata = copy_caught_error();

	RollbackAndReleaseCurrentSubTransaction();
	CurrentResourceOwner = frame->outer_owner;
	/* what guarded work wrote in the block went with the rollback */
	estate->guard_xid_moved = false;
	/* a snapshot pushed inside the subtransaction went with it */
	estate->portal_snapshot_ensured = false;

	/* the expression context and any SPI result went with the rollback */
	estate->eval_econtext = frame->outer_econtext;
	estate->eval_tuptable = NULL;

	restore_call_state(estate, frame);
	estate->err_text = NULL;

	pln_stats.errors_caught_subxact++;
	if (unlikely(estate->plugins != NULL))
		pln_block_runner.block_event(estate, frame->block,
									 PLN_BLOCK_CAUGHT_SUBXACT);
	return edata;
}

/*
 * The write path handed the block's handler a duplicate without raising
 * the unique_violation (pln_handler_may_take_duplicate): the block's body
 * has returned PLN_RC_HANDED_TO_HANDLER (the INSERT was its last
 * statement).  Leave the frame
 * as catch_without_savepoint would have after catching the error, and run
 * the handler as run_matching_handler would have.
 */
static pg_noinline int
run_handler_for_duplicate(PlnExecState *estate, PlnSavepointFrame *frame)
{
	PlnStmtBlock *block = frame->block;

	estate->sp_top = frame->outer;
	if (unlikely(frame->lock_owner != NULL))
		pln_frame_locks_release(frame);
	restore_call_state(estate, frame);
	pln_stats.errors_caught_lazy++;
	if (unlikely(frame->guarded))
		frame_stayed_lazy_guarded(frame);
	return run_handler(estate, block,
					   find_handler(block, ERRCODE_UNIQUE_VIOLATION),
					   ERRCODE_UNIQUE_VIOLATION, NULL);
}

/* Normal end of a materialized frame: keep what the block did */
static pg_noinline void
release_savepoint(PlnExecState *estate, PlnSavepointFrame *frame)
{
	estate->err_text = "during statement block exit";

	ReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(frame->entry_context);
	CurrentResourceOwner = frame->outer_owner;

	/* the inner expression context went with the subtransaction */
	estate->eval_econtext = frame->outer_econtext;
	estate->err_text = NULL;
}

/*
 * Does the block's body start with a statement that starts the savepoint,
 * or with one that the write path runs (it needs no pure region either)?
 */
static bool
block_starts_impure(PlnStmtBlock *block)
{
	PlnStmt    *first;

	if (block->body == NIL)
		return false;
	first = (PlnStmt *) linitial(block->body);
	return !pln_stmt_may_run_lazily(first) ||
		(first->cmd_type == PLN_STMT_EXECSQL &&
		 ((PlnStmtExecSql *) first)->write_path != PLN_WRITE_PATH_NONE);
}

/*
 * The expression a block's first statement evaluates, if it is an
 * assignment or a RETURN of an expression; else NULL.
 */
static PlnExpr *
first_expression(PlnStmtBlock *block)
{
	PlnStmt    *first;

	if (block->body == NIL)
		return NULL;
	first = (PlnStmt *) linitial(block->body);
	if (first->cmd_type == PLN_STMT_ASSIGN)
		return ((PlnStmtAssign *) first)->expr;
	if (first->cmd_type == PLN_STMT_RETURN)
		return ((PlnStmtReturn *) first)->expr;
	return NULL;
}

/*
 * The unusual parts of entering a block: with lazy savepoints off, or in
 * parallel mode, start the subtransaction right away (the PL/pgSQL way);
 * otherwise bring the
 * search path up to date if impure work may have changed it.
 *
 * Checking that a cached plan is still valid compares search paths, which
 * recomputes ours from the catalogs if it changed since it was last used
 * (CachedPlanIsSimplyValid brings the current path up to date before it
 * compares).  That must never happen in a pure region, so it is done
 * here, before the region starts.  When the block starts by evaluating a
 * pure expression, checking that expression's plan here does it, and the
 * block then finds the plan checked and does not check it again;
 * otherwise the path is asked for directly.  A block whose first
 * statement is impure needs neither: that statement starts the savepoint
 * before anything runs.
 *
 * Only impure work can change the search path (a SET, a role change,
 * catalog invalidations), and all impure work passes
 * pln_start_savepoints_before(), which clears search_path_checked; so once checked it stays good until
 * then.  The flag is only ever set here, and only while lazy savepoints
 * are on, so the hot path tests that one flag: the setting, too, can only
 * change through impure work (SET, set_config(), a function's SET clause,
 * the end of a subtransaction or transaction), so a change is seen at the
 * next block entry.
 */
static pg_noinline void
enter_frame_slowly(PlnExecState *estate, PlnSavepointFrame *frame,
				   PlnStmtBlock *block)
{
	if (!pln_lazy_savepoints || IsInParallelMode())
	{
		/*
		 * In parallel mode no subtransaction can start: the block fails
		 * here, as it enters, the way PL/pgSQL's does, before anything in
		 * it has run.  (search_path_checked stays false, so every entry
		 * comes here; parallel mode starts only in a query, which is
		 * impure work and so clears it.)
		 */
		materialize_frame(estate, frame);
	}
	else if (block_starts_impure(block))
	{
		/*
		 * Its first statement starts the savepoint before it runs, so no
		 * pure work will run in this block before impure work: nothing to
		 * prepare (and search_path_checked stays false).
		 */
	}
	else
	{
		if (!pln_block_runner.check_plan_before_block(first_expression(block)))
			(void) fetch_search_path_array(NULL, 0);
		estate->search_path_checked = true;
	}
}

/*
 * Push the frame of a block that is being entered.  Its variables have
 * already been initialised.  Errors raised here are not the block's.
 */
static inline void
enter_frame(PlnExecState *estate, PlnSavepointFrame *frame,
			PlnStmtBlock *block)
{
	pln_stats.blocks_entered++;

	/* the block is the statement running (restore_call_state relies on it) */
	Assert(estate->err_stmt == (PlnStmt *) block);

	frame->outer = estate->sp_top;
	frame->block = block;
	frame->materialized = false;
	frame->unprotected_write = false;
	frame->guarded = false;
	frame->lock_owner = NULL;
	frame->entry_context = CurrentMemoryContext;
	frame->entry_cur_error = estate->cur_error;
	frame->entry_handler_depth = pln_handler_depth;

	/* (never set while lazy savepoints are off: see enter_frame_slowly) */
	if (unlikely(!estate->search_path_checked))
		enter_frame_slowly(estate, frame, block);

	estate->sp_top = frame;
}

/* Pop the frame of a block whose body ran to its end */
static inline void
leave_frame(PlnExecState *estate, PlnSavepointFrame *frame)
{
	estate->sp_top = frame->outer;
	if (frame->materialized)
		release_savepoint(estate, frame);
	else if (unlikely(frame->guarded))
	{
		if (frame->lock_owner != NULL)
			pln_frame_locks_keep(frame);
		frame_stayed_lazy_guarded(frame);
	}
}

/* Pop the frame of a block whose body threw an error; returns the error */
static inline ErrorData *
catch_in_frame(PlnExecState *estate, PlnSavepointFrame *frame)
{
	estate->sp_top = frame->outer;
	if (frame->materialized)
		return catch_with_savepoint(estate, frame);
	return catch_without_savepoint(estate, frame, frame->block);
}

/*
 * Run a block that has an EXCEPTION clause.  Its variables have already
 * been initialised (outside the block's protection, so errors there are
 * not caught by its own handlers).
 *
 * This is the hot path of lazy savepoints: entering and leaving a block
 * that stays pure costs a frame on the C stack and a sigsetjmp.  The work
 * for the other cases is kept out of line (pg_noinline above) so that
 * this function stays small.
 *
 * The error handling is PG_TRY/PG_CATCH written out (elog.h describes the
 * protocol: save PG_exception_stack and error_context_stack, point the
 * former at a local sigjmp_buf, restore both on the way out), so that the
 * normal exit returns straight from the protected part instead of passing
 * through the flags PG_END_TRY tests.  Only the arguments and the frame,
 * whose address estate->sp_top holds, are used after a longjmp; neither
 * variable is changed after sigsetjmp.
 */
pln_no_stack_protector int
exec_stmt_block_with_handlers(PlnExecState *estate, PlnStmtBlock *block)
{
	sigjmp_buf *save_exception_stack = PG_exception_stack;
	ErrorContextCallback *save_context_stack = error_context_stack;
	sigjmp_buf	local_sigjmp_buf;
	PlnSavepointFrame frame;
	ErrorData  *edata;

	enter_frame(estate, &frame, block);

	if (sigsetjmp(local_sigjmp_buf, 0) == 0)
	{
		int			rc;

		PG_exception_stack = &local_sigjmp_buf;

		rc = pln_block_runner.exec_stmts(estate, block->body);

		if (unlikely(rc == PLN_RC_HANDED_TO_HANDLER))
		{
			PG_exception_stack = save_exception_stack;
			error_context_stack = save_context_stack;
			return run_handler_for_duplicate(estate, &frame);
		}
		leave_frame(estate, &frame);

		PG_exception_stack = save_exception_stack;
		error_context_stack = save_context_stack;
		return rc;
	}

	/* an error was thrown inside the block */
	PG_exception_stack = save_exception_stack;
	error_context_stack = save_context_stack;

	edata = catch_in_frame(estate, &frame);

	return run_matching_handler(estate, block, edata);
}

/*
 * The end of one iteration of pln_run_handler_block_loop, whether the
 * block's body or its handler ran: the loop is the running statement
 * again, and the result code passes the block and then the loop.
 */
static inline int
finish_iteration(PlnExecState *estate, PlnStmtBlock *block,
				 PlnHandlerBlockLoop *loop, PlnStmt *loop_stmt, int rc,
				 bool *exit_loop)
{
	estate->err_stmt = loop_stmt;
	rc = exec_block_exit_rc(estate, block, rc);
	/* (exec_loop_body_rc, through the executor's function) */
	if (likely(rc == PLN_RC_OK))
	{
		*exit_loop = false;
		return PLN_RC_OK;
	}
	return pln_block_runner.loop_body_rc_slow(estate, rc, loop->label,
											  exit_loop);
}

/*
 * Run a loop whose body is a single block with an EXCEPTION clause and no
 * variables (see body_is_handler_block in exec.c), doing for every
 * iteration what running the body through exec_stmts would do: set the
 * block as the running statement, check for interrupts, run the block,
 * and pass its result code to the block and then to the loop.
 *
 * The difference is the catch point: one sigsetjmp serves every
 * iteration until an error is caught, instead of one per entry of the
 * block.  Whether an error belongs to the block or to the loop around it
 * is told by in_block, set exactly while exec_stmt_block_with_handlers
 * would have had its catch point armed: an error from next_iteration, the
 * interrupt check or the block's entry leaves the loop, as it would have.
 * After an error the block's handler runs as usual, outside the catch
 * point, and the next iteration arms it again.
 *
 * As in exec_stmt_block_with_handlers, the frame is reached through
 * estate->sp_top, and in_block is volatile: both are read after a
 * longjmp.  The loop's own state lives behind the loop pointer.
 */
pln_no_stack_protector int
pln_run_handler_block_loop(PlnExecState *estate, PlnStmtBlock *block,
						   PlnHandlerBlockLoop *loop)
{
	sigjmp_buf *save_exception_stack = PG_exception_stack;
	ErrorContextCallback *save_context_stack = error_context_stack;
	PlnStmt    *loop_stmt = estate->err_stmt;
	sigjmp_buf	local_sigjmp_buf;
	PlnSavepointFrame frame;
	volatile bool in_block = false;

	for (;;)
	{
		ErrorData  *edata;
		bool		exit_loop;
		int			rc;

		if (sigsetjmp(local_sigjmp_buf, 0) == 0)
		{
			PG_exception_stack = &local_sigjmp_buf;

			rc = PLN_RC_OK;
			while (loop->next_iteration(estate, loop))
			{
				estate->err_stmt = (PlnStmt *) block;
				/* (as exec_stmt_block does for a block without variables) */
				estate->err_var = NULL;
				CHECK_FOR_INTERRUPTS();

				enter_frame(estate, &frame, block);
				in_block = true;

				rc = pln_block_runner.exec_stmts(estate, block->body);

				if (unlikely(rc == PLN_RC_HANDED_TO_HANDLER))
				{
					/* (an error in the handler leaves the loop) */
					in_block = false;
					rc = run_handler_for_duplicate(estate, &frame);
				}
				else
				{
					leave_frame(estate, &frame);
					in_block = false;
				}

				rc = finish_iteration(estate, block, loop, loop_stmt, rc,
									  &exit_loop);
				if (exit_loop)
					break;
			}

			PG_exception_stack = save_exception_stack;
			error_context_stack = save_context_stack;
			return rc;
		}

		/* an error was thrown in the loop */
		PG_exception_stack = save_exception_stack;
		error_context_stack = save_context_stack;

		if (!in_block)
			PG_RE_THROW();
		in_block = false;

		edata = catch_in_frame(estate, &frame);

		rc = run_matching_handler(estate, block, edata);

		rc = finish_iteration(estate, block, loop, loop_stmt, rc, &exit_loop);
		if (exit_loop)
			return rc;
		/* on with the next iteration, under a new catch point */
	}
}
