/*-------------------------------------------------------------------------
 *
 * exec_guarded_query.c
 *	  Running a guarded read-only query: "SELECT ... INTO variables FROM
 *	  table ..." in a handler block without a subtransaction, under a read
 *	  guard, once lazy/guarded_query.c's conditions hold for its plan and
 *	  the moment (pln_guarded_query_moment_allows).
 *
 * The query is not run through SPI: SPI's executor start lets the
 * statement's AFTER triggers be queued (AfterTriggerBeginQuery), and an
 * error before its end leaves the trigger query depth one too high, which
 * only a subtransaction's abort puts back.  So the plan is run here with
 * the executor's own calls and EXEC_FLAG_SKIP_TRIGGERS (a SELECT queues
 * no trigger event), with the snapshot SPI would give it.  docs/design.md
 * ("Guarded read-only queries") argues why the guard's cleanup is all an
 * error of the query needs.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "tcop/dest.h"
#include "tcop/tcopprot.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "plnimble.h"
#include "lazy/pln_guard.h"
#include "lazy/pln_guarded_query.h"

/*
 * The receiver of the query's rows: keeps the first (its out-of-line
 * values fetched, so that storing it reads no TOAST table after the guard
 * is left) and a copy of the row type, in the statement context.
 */
typedef struct FirstRowReceiver
{
	DestReceiver pub;
	MemoryContext cxt;
	TupleDesc	tupdesc;
	HeapTuple	first;
} FirstRowReceiver;

static void
first_row_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	FirstRowReceiver *r = (FirstRowReceiver *) self;
	MemoryContext oldcontext = MemoryContextSwitchTo(r->cxt);

	r->tupdesc = CreateTupleDescCopy(typeinfo);
	MemoryContextSwitchTo(oldcontext);
}

static bool
first_row_receive(TupleTableSlot *slot, DestReceiver *self)
{
	FirstRowReceiver *r = (FirstRowReceiver *) self;
	MemoryContext oldcontext;
	HeapTuple	tuple;

	if (r->first != NULL)
		return true;
	oldcontext = MemoryContextSwitchTo(r->cxt);
	tuple = ExecCopySlotHeapTuple(slot);
	if (HeapTupleHasExternal(tuple))
		tuple = toast_flatten_tuple(tuple, r->tupdesc);
	r->first = tuple;
	MemoryContextSwitchTo(oldcontext);
	return true;
}

static void
first_row_noop(DestReceiver *self)
{
}

/* what guarded_query_error_callback needs */
typedef struct GuardedQueryErrorArg
{
	PlnExecState *estate;
	const char *query;
} GuardedQueryErrorArg;

/*
 * The CONTEXT line SPI adds to an error of a query it runs ("SQL
 * statement"), and its conversion of a syntax error position into a
 * position in the query, for the same errors of the guarded run.
 */
static void
guarded_query_error_callback(void *arg)
{
	GuardedQueryErrorArg *cb = (GuardedQueryErrorArg *) arg;
	int			position;

	if (pln_error_context_unseen(cb->estate, geterrcode()))
		return;
	position = geterrposition();
	if (position > 0)
	{
		errposition(0);
		internalerrposition(position);
		internalerrquery(cb->query);
	}
	else
		errcontext("SQL statement \"%s\"", cb->query);
}

/* Set up the receiver of the first row, keeping it in cxt */
static void
init_first_row_receiver(FirstRowReceiver *receiver, MemoryContext cxt)
{
	receiver->pub.receiveSlot = first_row_receive;
	receiver->pub.rStartup = first_row_startup;
	receiver->pub.rShutdown = first_row_noop;
	receiver->pub.rDestroy = first_row_noop;
	receiver->pub.mydest = DestNone;
	receiver->cxt = cxt;
	receiver->tupdesc = NULL;
	receiver->first = NULL;
}

/*
 * Run a checked plan of a SELECT under the active guard, as SPI runs a
 * plan for an atomic call (_SPI_execute_plan): a function that is not
 * volatile runs it with the active snapshot as it is; a volatile one with
 * a new snapshot, after a command counter increment, and increments the
 * counter again afterwards.  Returns the number of rows processed (at
 * most maxrows, 0 for all), which went to dest.
 */
static uint64
run_guarded_select(PlannedStmt *pstmt, const char *query_string,
				   ParamListInfo params, bool read_only, long maxrows,
				   DestReceiver *dest)
{
	QueryDesc  *qd;
	uint64		nrows;

	if (!read_only)
	{
		PushActiveSnapshot(GetTransactionSnapshot());
		CommandCounterIncrement();
		UpdateActiveSnapshotCommandId();
	}
	qd = CreateQueryDesc(pstmt, query_string, GetActiveSnapshot(),
						 InvalidSnapshot, dest, params, NULL, 0);
	ExecutorStart(qd, EXEC_FLAG_SKIP_TRIGGERS);
	pln_executor_run(qd, ForwardScanDirection, maxrows);
	nrows = qd->estate->es_processed;
	ExecutorFinish(qd);
	ExecutorEnd(qd);
	FreeQueryDesc(qd);
	if (!read_only)
	{
		CommandCounterIncrement();
		PopActiveSnapshot();
	}
	return nrows;
}

/*
 * Run the statement's query under a read guard, if the moment and its
 * checked generic plan allow it (else return false, with nothing done).
 * maxrows is the number of rows to ask for, as SPI would be asked.  The
 * row-count rules of INTO (exec_check_into_rows, with check_too_many) are
 * applied under the guard, after FOUND and ROW_COUNT are set (as after
 * SPI).  On return (true), the guard has been left; *nrows is the number of rows
 * processed (at most maxrows), *first the first row or NULL and *tupdesc
 * the row type, both in the statement context (get_stmt_mcontext), which
 * the caller resets once it has stored the row.  An error raised by the
 * query goes to the block's catch, which ends the guard and resets the
 * statement context (where the executor's memory was).
 * The snapshot is SPI's (run_guarded_select).
 */
bool
pln_guarded_query_run(PlnExecState *estate, PlnStmtExecSql *stmt,
					  long maxrows, bool check_too_many, uint64 *nrows,
					  HeapTuple *first, TupleDesc *tupdesc)
{
	CachedPlanSource *plansource =
		(CachedPlanSource *) linitial(SPI_plan_get_plan_sources(stmt->sqlstmt->plan));
	bool		read_only = estate->readonly_func;
	MemoryContext oldcontext = CurrentMemoryContext;
	MemoryContext cxt;
	PlnReadGuard guard;
	FirstRowReceiver receiver;
	ErrorContextCallback errcallback;
	GuardedQueryErrorArg cbarg;
	volatile bool done = false;

	if (!pln_guarded_query_moment_allows(estate, stmt))
		return false;

	cxt = get_stmt_mcontext(estate);
	init_first_row_receiver(&receiver, cxt);

	cbarg.estate = estate;
	cbarg.query = plansource->query_string;
	errcallback.callback = guarded_query_error_callback;
	errcallback.arg = &cbarg;
	errcallback.previous = error_context_stack;

	pln_read_guard_enter(estate, &guard);
	pln_read_guard_top->refuse_unreviewed = true;
	pln_read_guard_top->refuse_planning = true;
	PG_TRY();
	{
		CachedPlan *cplan;

		error_context_stack = &errcallback;
		MemoryContextSwitchTo(cxt);

		/* (takes the locks for the guard's owner, as SPI for the block's) */
		cplan = GetCachedPlan(plansource, estate->paramLI,
							  CurrentResourceOwner, NULL);
		if (cplan == stmt->guarded_plan &&
			cplan->generation == stmt->guarded_generation)
		{
			*nrows = run_guarded_select(linitial_node(PlannedStmt, cplan->stmt_list),
										plansource->query_string,
										estate->paramLI, read_only, maxrows,
										&receiver.pub);
			done = true;
		}
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
		error_context_stack = errcallback.previous;
		MemoryContextSwitchTo(oldcontext);
	}
	PG_CATCH();
	{
		error_context_stack = errcallback.previous;
		/* refused (planning, or a function not built in): as if not run */
		pln_read_guard_undo_refusal(oldcontext);
		MemoryContextReset(cxt);
		return false;
	}
	PG_END_TRY();

	if (!done)
	{
		/* another plan than the one checked: undone, run the usual way */
		(void) pln_read_guard_abort(false);
		MemoryContextReset(cxt);
		return false;
	}

	/*
	 * FOUND and ROW_COUNT, set before the row is checked as after SPI;
	 * then STRICT's and too_many_rows' errors, still under the guard: a caught
	 * one releases the query's locks, as PL/pgSQL's rollback of the block's
	 * subtransaction does (the errors are raised after SPI has returned,
	 * so without the query's CONTEXT line).
	 */
	exec_set_found(estate, *nrows != 0);
	estate->eval_processed = *nrows;
	exec_check_into_rows(estate, stmt, check_too_many, *nrows);

	pln_read_guard_leave(estate, &guard);
	/* (the query may have taken locks, so invalidations may have come) */
	pln_forget_plan_checks();

	*first = receiver.first;
	*tupdesc = receiver.tupdesc;
	return true;
}

/*
 * Run the command of EXECUTE ... INTO under a read guard, as SPI would run
 * it (SPI_execute_extended: parse, analyse and rewrite, plan, execute,
 * with SPI's "SQL statement" CONTEXT callback), each step going on only if
 * guarded_query.c accepts what the step before it made.  Returns false,
 * with nothing done (what the guard did undone as after an error), when
 * the moment or a step's result does not allow it; the caller then runs
 * the command the usual way.  Else the guard has been left, *nrows is the
 * number of rows the command processed (ROW_COUNT: all of them, as SPI is
 * asked for all), *first the first row or NULL and *tupdesc the row type,
 * both in the statement context, which the caller resets once it has
 * stored the row.  STRICT's errors are raised under the guard, as
 * PL/pgSQL raises them inside the block's subtransaction, so that a
 * caught one releases the command's locks.
 *
 * Parsing, analysis and planning work in a context of their own under the
 * statement context (which holds the command's text the caller needs if
 * the guard is refused); the block's catch resets the statement context
 * on an error.
 */
bool
pln_guarded_dynamic_run(PlnExecState *estate, PlnStmtDynExecute *stmt,
						const char *querystr, uint64 *nrows,
						HeapTuple *first, TupleDesc *tupdesc)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	MemoryContext stmt_cxt;
	MemoryContext work_cxt;
	PlnReadGuard guard;
	FirstRowReceiver receiver;
	ErrorContextCallback errcallback;
	GuardedQueryErrorArg cbarg;
	volatile bool refused = false;

	if (!pln_guarded_dynamic_moment_allows(estate))
		return false;

	stmt_cxt = get_stmt_mcontext(estate);
	work_cxt = AllocSetContextCreate(stmt_cxt, "guarded EXECUTE",
									 ALLOCSET_DEFAULT_SIZES);
	init_first_row_receiver(&receiver, stmt_cxt);

	cbarg.estate = estate;
	cbarg.query = querystr;
	errcallback.callback = guarded_query_error_callback;
	errcallback.arg = &cbarg;
	errcallback.previous = error_context_stack;

	pln_read_guard_enter(estate, &guard);
	pln_read_guard_top->refuse_unreviewed = true;
	PG_TRY();
	{
		List	   *raw;
		List	   *querytrees = NIL;
		PlannedStmt *pstmt = NULL;

		error_context_stack = &errcallback;
		MemoryContextSwitchTo(work_cxt);

		raw = raw_parser(querystr, RAW_PARSE_DEFAULT);
		refused = (pln_guarded_dynamic_raw_refusal(raw) != NULL);
		if (!refused)
		{
			querytrees = pg_analyze_and_rewrite_fixedparams(linitial_node(RawStmt, raw),
															querystr, NULL, 0,
															NULL);
			refused = (pln_guarded_dynamic_query_refusal(estate, stmt,
														 querytrees) != NULL);
		}
		if (!refused)
		{
			pstmt = pln_plan_query(linitial_node(Query, querytrees), querystr,
								   CURSOR_OPT_PARALLEL_OK, NULL);
			refused = (pln_guarded_stmt_refusal(pstmt, NULL) != NULL);
		}
		if (!refused)
			*nrows = run_guarded_select(pstmt, querystr, NULL,
										estate->readonly_func, 0,
										&receiver.pub);
		error_context_stack = errcallback.previous;
		MemoryContextSwitchTo(oldcontext);
	}
	PG_CATCH();
	{
		error_context_stack = errcallback.previous;
		/* refused (a function not built in): as if not run */
		pln_read_guard_undo_refusal(oldcontext);
		MemoryContextDelete(work_cxt);
		return false;
	}
	PG_END_TRY();
	MemoryContextDelete(work_cxt);

	if (refused)
	{
		/* not a reviewed SELECT: undone, run the usual way */
		(void) pln_read_guard_abort(false);
		return false;
	}

	/* ROW_COUNT, then STRICT's errors, as after SPI (FOUND is left alone) */
	estate->eval_processed = *nrows;
	exec_check_dynamic_into_rows(estate, stmt->strict, *nrows, NULL);

	pln_read_guard_leave(estate, &guard);
	/* (analysis and the query took locks, so invalidations may have come) */
	pln_forget_plan_checks();

	*first = receiver.first;
	*tupdesc = receiver.tupdesc;
	return true;
}
