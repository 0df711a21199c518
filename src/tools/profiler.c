/*-------------------------------------------------------------------------
 *
 * profiler.c
 *	  The profiler and coverage of PL/nimble functions: a consumer of the
 *	  plugin hook (pln_plugin.h), attached while plnimble.profiler is on.
 *
 * Per statement of every function it sees run, the profiler counts
 * executions, executions that ended in an error, total and maximum time
 * (from a monotonic clock, see prof_clock below, shown as microseconds)
 * and rows processed by SQL statements; per exception block also the
 * subtransactions started and the errors caught with and without one
 * (block_event).  Entries of a block that never needed its subtransaction
 * are its executions minus the subtransactions started: a block starts at
 * most one per entry.
 *
 * The counters live in session memory that survives transactions: a hash
 * table by function OID, each entry with an array of counters indexed by
 * statement id.  Replacing a function starts its counters afresh.  What
 * the counters are shown against (lines, statement nesting, branches) is
 * taken from the compiled tree when they are shown, not while they are
 * counted.  DO blocks are not profiled: they have no OID to show them by.
 * With shared_preload_libraries, the session's counters hold what a call
 * counted until it ends, and are then added to shared memory
 * (profiler_shared.c) and cleared: a lock per call, not per statement.
 *
 * The profiler runs for every statement, so its two callbacks there do as
 * little as they can (prof_stmt_beg, prof_stmt_end): times are kept in
 * the clock's ticks and converted when shown; a block's entries are its
 * executions, filled in when shown; and a statement that starts right
 * where another ended takes that one's end as its start (ProfStmtInfo),
 * so that a list of statements reads the clock once per statement.
 *
 * No callback runs when an error leaves a statement, so the profiler
 * keeps its own stack of the statements and calls running, each entry
 * tagged with the serial number of its call.  An entry is known to have
 * ended in an error when
 *	- a block of its call caught an error (block_event): every entry above
 *	  the block's own;
 *	- an event of a call finds entries of another call above its own: a
 *	  nested call that an error left;
 *	- a subtransaction is rolled back: the entries pushed inside it;
 *	- the transaction aborts: all of them, unless the statement on top is
 *	  a ROLLBACK of a procedure, which goes on running.
 * Its time then runs until the profiler learns of the error.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "plnimble.h"
#include "tools/pln_check.h"
#include "tools/pln_profiler.h"

bool		pln_profiler_enabled = false;

/*
 * What the profiler needs to know of a statement while counting, taken
 * from the tree once per version of a function (prof_fill_info).
 *
 * follow is the statement that may start right where this one ends: the
 * next one of the same list, and after the last statement of the body of
 * an integer FOR loop or a plain LOOP, its first (stepping the loop
 * variable, or nothing, comes between).  Its start is then this one's end,
 * as long as nothing else happened in between (prof_follow_call).  After
 * the top block comes the end of the call (PROF_FOLLOW_CALL_END).  Other
 * statements read the clock as they start: what a WHILE, a FOR over a
 * query, an IF or a CASE evaluates before its statements run stays in its
 * own time and is not counted against them.
 */
typedef struct ProfStmtInfo
{
	unsigned int follow;		/* a stmtid, 0 or PROF_FOLLOW_CALL_END */
	unsigned int flags;			/* PROF_* below */
} ProfStmtInfo;

#define PROF_FOLLOW_CALL_END	UINT_MAX

#define PROF_HANDLER_BLOCK	0x01	/* a block with an EXCEPTION clause */
#define PROF_ROWS			0x02	/* reports rows in estate->eval_processed */
#define PROF_ROLLBACK		0x04	/* a ROLLBACK (of a procedure) */

/* the counters of one version of a function, in session memory */
typedef struct ProfVersion
{
	Oid			fn_oid;
	TransactionId fn_xmin;
	ItemPointerData fn_tid;
	unsigned int nstatements;
	PlnProfStats *stats;		/* [nstatements + 1], by stmtid; [0]: calls.
								 * Times in clock ticks; block_entries not
								 * kept (prof_shown_stats fills it in) */
	ProfStmtInfo *info;			/* [nstatements + 1], by stmtid */
	PlnProfShared **shared;		/* where the statements' counters are in
								 * shared memory, looked up on first use;
								 * NULL when not preloaded */
	uint64		shared_generation;	/* of the entries in shared[] */
} ProfVersion;

/* per function: the hash entry */
typedef struct ProfFunc
{
	Oid			fn_oid;			/* hash key */
	ProfVersion *ver;			/* the newest version counted */
} ProfFunc;

/* per call, PLN_PLUGIN_INFO (in the call's memory) */
typedef struct ProfCall
{
	uint64		serial;
	ProfVersion *ver;
	unsigned int nstatements;	/* ver's */
	uint64		follow_serial;	/* serial, or 0 when another consumer runs
								 * at each statement too (prof_func_beg) */
} ProfCall;

/* an entry of the stack of things running */
typedef struct ProfRunning
{
	uint64		serial;			/* of its call */
	PlnStmt    *stmt;			/* NULL for the call itself; compared, never
								 * read (an error may free the tree) */
	ProfVersion *ver;
	unsigned int stmtid;		/* 0 for the call */
	SubTransactionId subid;		/* current when it started */
	uint64		start;			/* prof_clock() */
} ProfRunning;

static MemoryContext prof_cxt = NULL;
static HTAB *prof_funcs = NULL;

/*
 * The stack: prof_stack[0 .. prof_depth - 1], room for prof_alloc.  Below
 * prof_stack[0] is an entry of no call (serial 0), so that the callbacks
 * of every statement can look at the top entry without testing for an
 * empty stack first.
 */
static ProfRunning *prof_stack_alloc = NULL;
static ProfRunning *prof_stack = NULL;
static int	prof_depth = 0;
static int	prof_alloc = 0;
static uint64 prof_serial = 0;

/*
 * The statement that ended last, while nothing else has happened since:
 * its call's serial (0: none), its follow and its end (ProfStmtInfo).
 */
static uint64 prof_follow_call = 0;
static unsigned int prof_follow_id = 0;
static uint64 prof_follow_time = 0;

/*
 * The current subtransaction, kept by the callbacks of subtransactions
 * rather than asked for at every statement.
 */
static SubTransactionId prof_subid = InvalidSubTransactionId;

static void prof_choose_clock(void);
#if defined(__x86_64__)
static void prof_stmt_beg_tsc(PlnExecState *estate, PlnStmt *stmt);
static void prof_stmt_end_tsc(PlnExecState *estate, PlnStmt *stmt);
#endif
static void prof_func_setup(PlnExecState *estate, PlnFunction *func);
static void prof_func_beg(PlnExecState *estate, PlnFunction *func);
static void prof_func_end(PlnExecState *estate, PlnFunction *func);
static void prof_stmt_beg_gettime(PlnExecState *estate, PlnStmt *stmt);
static void prof_stmt_end_gettime(PlnExecState *estate, PlnStmt *stmt);
static void prof_block_event(PlnExecState *estate, PlnStmtBlock *block,
							 PlnBlockEvent event);

static PlnPlugin prof_plugin = {
	.name = "plnimble profiler",
	.func_setup = prof_func_setup,
	.func_beg = prof_func_beg,
	.func_end = prof_func_end,
	.stmt_beg = prof_stmt_beg_gettime,	/* or the _tsc ones: prof_choose_clock */
	.stmt_end = prof_stmt_end_gettime,
	.block_event = prof_block_event,
};

static void
prof_init_memory(void)
{
	HASHCTL		ctl;

	if (prof_cxt != NULL)
		return;
	prof_cxt = AllocSetContextCreate(TopMemoryContext,
									 "PL/nimble profiler",
									 ALLOCSET_DEFAULT_SIZES);
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(ProfFunc);
	ctl.hcxt = prof_cxt;
	prof_funcs = hash_create("PL/nimble profiler functions", 64, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	prof_alloc = 64;
	prof_stack_alloc = MemoryContextAllocZero(prof_cxt,
											  sizeof(ProfRunning) * (prof_alloc + 1));
	prof_stack = prof_stack_alloc + 1;
	prof_choose_clock();
}

/* ----------
 * Counting
 * ----------
 */

/* Add counters to counters (the maximum is a maximum) */
void
pln_prof_stats_add(PlnProfStats *dst, const PlnProfStats *delta)
{
	dst->exec_count += delta->exec_count;
	dst->exec_err += delta->exec_err;
	dst->total_ns += delta->total_ns;
	if (delta->max_ns > dst->max_ns)
		dst->max_ns = delta->max_ns;
	dst->rows += delta->rows;
	dst->block_entries += delta->block_entries;
	dst->savepoints_started += delta->savepoints_started;
	dst->caught_lazy += delta->caught_lazy;
	dst->caught_subxact += delta->caught_subxact;
}

/*
 * The clock.  A statement is timed as it starts and ends, so the clock's
 * cost is a good part of the profiler's: clock_gettime (instr_time.h)
 * costs 20-60 ns on the virtual machines the benchmarks ran on, the CPU's
 * time-stamp counter (rdtsc) 10-20.  The counter is used where the kernel
 * itself keeps time with it (its clocksource is "tsc": the counter runs at
 * a constant rate and agrees across CPUs), its ticks converted to
 * nanoseconds, when shown, with a rate measured against clock_gettime
 * once per session; elsewhere instr_time.h's clock, in nanoseconds.
 */
#if defined(__x86_64__)
#include <x86intrin.h>
#define PROF_HAVE_TSC 1
#endif

static bool prof_use_tsc = false;
static double prof_ns_per_tick = 1.0;

/* (out of line: the callers' usual path then needs no stack frame) */
static pg_noinline uint64
prof_clock_gettime(void)
{
	instr_time	t;

	INSTR_TIME_SET_CURRENT(t);
	return pln_instr_time_ns(t);
}

static inline uint64
prof_clock(void)
{
#ifdef PROF_HAVE_TSC
	if (likely(prof_use_tsc))
		return __rdtsc();
#endif
	return prof_clock_gettime();
}

/* the clock of the statements' callbacks, tsc or not (a constant) */
#ifdef PROF_HAVE_TSC
#define PROF_CLOCK(tsc) ((tsc) ? __rdtsc() : prof_clock_gettime())
#else
#define PROF_CLOCK(tsc) prof_clock_gettime()
#endif

/* Ticks from start to now (none if the clock went back) */
static inline uint64
elapsed_ticks(uint64 start, uint64 now)
{
	return now > start ? now - start : 0;
}

static inline uint64
ticks_to_ns(uint64 ticks)
{
	if (prof_use_tsc)
		return (uint64) ((double) ticks * prof_ns_per_tick);
	return ticks;
}

/* Decide on the clock, once per session: see prof_clock */
static void
prof_choose_clock(void)
{
#ifdef PROF_HAVE_TSC
	FILE	   *f;
	char		source[32] = "";
	instr_time	t0,
				t1;
	uint64		tsc0,
				tsc1;

	f = AllocateFile("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f == NULL)
		return;
	if (fgets(source, sizeof(source), f) == NULL)
		source[0] = '\0';
	FreeFile(f);
	if (strncmp(source, "tsc\n", 4) != 0)
		return;

	/* the counter's rate, over a millisecond */
	INSTR_TIME_SET_CURRENT(t0);
	tsc0 = __rdtsc();
	do
	{
		INSTR_TIME_SET_CURRENT(t1);
		INSTR_TIME_SUBTRACT(t1, t0);
	} while (INSTR_TIME_GET_MICROSEC(t1) < 1000);
	tsc1 = __rdtsc();
	if (tsc1 <= tsc0)
		return;
	prof_ns_per_tick = INSTR_TIME_GET_DOUBLE(t1) * 1e9 / (double) (tsc1 - tsc0);
	prof_use_tsc = true;

	/*
	 * Statements are timed by callbacks of their own for each clock, so
	 * that the counter's never call a function (and need no stack frame).
	 * This runs at the first call's func_setup, before the call takes the
	 * callbacks it will run for its statements.
	 */
	prof_plugin.stmt_beg = prof_stmt_beg_tsc;
	prof_plugin.stmt_end = prof_stmt_end_tsc;
	elog(DEBUG1, "PL/nimble profiler: time-stamp counter at %.4f ns per tick",
		 prof_ns_per_tick);
#endif
}

/*
 * A statement's counters as they are shown and added to shared memory:
 * times in nanoseconds, a block's entries filled in.
 */
static void
prof_shown_stats(ProfVersion *ver, unsigned int stmtid, PlnProfStats *out)
{
	*out = ver->stats[stmtid];
	out->total_ns = ticks_to_ns(out->total_ns);
	out->max_ns = ticks_to_ns(out->max_ns);
	out->block_entries = (ver->info[stmtid].flags & PROF_HANDLER_BLOCK) ?
		out->exec_count : 0;
}

/*
 * Add what the version counted to shared memory, and count afresh.  (The
 * counters are made what is shown in place: they are cleared next.)
 */
static void
prof_flush(ProfVersion *ver)
{
	unsigned int i;

	for (i = 0; i <= ver->nstatements; i++)
		prof_shown_stats(ver, i, &ver->stats[i]);
	pln_prof_shared_add(ver->fn_oid, ver->fn_xmin, ver->shared,
						ver->nstatements + 1, &ver->shared_generation,
						ver->stats);
	memset(ver->stats, 0, sizeof(PlnProfStats) * (ver->nstatements + 1));
}

/* With shared memory, add there what every function counted so far */
static void
prof_flush_all(void)
{
	HASH_SEQ_STATUS scan;
	ProfFunc   *pf;

	if (prof_funcs == NULL || !pln_prof_shared_active())
		return;
	hash_seq_init(&scan, prof_funcs);
	while ((pf = hash_seq_search(&scan)) != NULL)
		if (pf->ver->shared != NULL)
			prof_flush(pf->ver);
}

/* One execution of a statement (or call) that took this many ticks */
static inline void
prof_count_exec(PlnProfStats *st, uint64 ticks)
{
	st->exec_count++;
	st->total_ns += ticks;
	if (ticks > st->max_ns)
		st->max_ns = ticks;
}

/*
 * Pop the top entry: it ended now, in an error or not.  A call's end adds
 * its counts to shared memory.  (Statements that end normally have their
 * own path, prof_stmt_ended.)
 */
static void
prof_pop(uint64 now, bool error)
{
	ProfRunning *r = &prof_stack[--prof_depth];
	ProfVersion *ver = r->ver;
	PlnProfStats *st = &ver->stats[r->stmtid];

	prof_count_exec(st, elapsed_ticks(r->start, now));
	st->exec_err += error;
	if (r->stmtid == 0 && ver->shared != NULL)
		prof_flush(ver);
}

/* Entries above the call's own belong to calls an error left */
static void
prof_pop_dead_calls(uint64 serial, uint64 now)
{
	while (prof_depth > 0 && prof_stack[prof_depth - 1].serial != serial)
		prof_pop(now, true);
}

/* Room for one more entry on the stack */
static void
prof_grow_stack(void)
{
	prof_alloc *= 2;
	prof_stack_alloc = repalloc(prof_stack_alloc,
								sizeof(ProfRunning) * (prof_alloc + 1));
	prof_stack = prof_stack_alloc + 1;
}

static inline void
prof_push(ProfCall *call, PlnStmt *stmt, unsigned int stmtid, uint64 start)
{
	ProfRunning *r;

	if (unlikely(prof_depth == prof_alloc))
		prof_grow_stack();
	r = &prof_stack[prof_depth++];
	r->serial = call->serial;
	r->stmt = stmt;
	r->ver = call->ver;
	r->stmtid = stmtid;
	r->subid = prof_subid;
	r->start = start;
}

/*
 * Find the entry of the call's statement (or of the call, stmt NULL), and
 * end everything above it in an error.  False if it is not there (the
 * profiler was attached while the call ran).
 */
static bool
prof_unwind_to(uint64 serial, PlnStmt *stmt, uint64 now)
{
	int			i;

	prof_follow_call = 0;
	prof_pop_dead_calls(serial, now);
	for (i = prof_depth - 1; i >= 0; i--)
	{
		if (prof_stack[i].serial != serial)
			return false;
		if (prof_stack[i].stmt == stmt)
			break;
	}
	if (i < 0)
		return false;
	while (prof_depth > i + 1)
		prof_pop(now, true);
	return true;
}

static inline ProfCall *
prof_call(PlnExecState *estate)
{
	return (ProfCall *) PLN_PLUGIN_INFO(estate, &prof_plugin);
}

/* Fill in ProfStmtInfo for a statement (a walk of prof_info_walker) */
static PlnWalkResult
prof_fill_stmt(PlnStmt *stmt, int depth, void *arg)
{
	ProfStmtInfo *si = &((ProfStmtInfo *) arg)[stmt->stmtid];

	if (stmt->cmd_type == PLN_STMT_BLOCK &&
		((PlnStmtBlock *) stmt)->exceptions != NULL)
		si->flags |= PROF_HANDLER_BLOCK;
	if (pln_stmt_kinds[stmt->cmd_type].rows)
		si->flags |= PROF_ROWS;
	if (stmt->cmd_type == PLN_STMT_ROLLBACK)
		si->flags |= PROF_ROLLBACK;
	return PLN_WALK_CONTINUE;
}

/* ... and which statement follows each of a body's statements */
static PlnWalkResult
prof_fill_body(PlnStmt *stmt, const PlnNestedBody *body, int depth,
			   void *arg)
{
	ProfStmtInfo *info = (ProfStmtInfo *) arg;

	/* (these two run nothing between iterations but the step) */
	bool		loops_back = (stmt->cmd_type == PLN_STMT_FORI ||
							  stmt->cmd_type == PLN_STMT_LOOP);
	ListCell   *lc;

	foreach(lc, body->stmts)
	{
		PlnStmt    *s = (PlnStmt *) lfirst(lc);
		ListCell   *next = lnext(body->stmts, lc);

		if (next != NULL)
			info[s->stmtid].follow = ((PlnStmt *) lfirst(next))->stmtid;
		else if (loops_back)
			info[s->stmtid].follow = ((PlnStmt *) linitial(body->stmts))->stmtid;
	}
	return PLN_WALK_CONTINUE;
}

static const PlnStmtWalker prof_info_walker = {
	.stmt = prof_fill_stmt,
	.body = prof_fill_body,
};

/* The counters of the function's version, made afresh for a new one */
static ProfVersion *
prof_lookup(PlnFunction *func)
{
	ProfFunc   *pf;
	ProfVersion *ver;
	bool		found;

	prof_init_memory();
	pf = hash_search(prof_funcs, &func->fn_oid, HASH_ENTER, &found);
	ver = found ? pf->ver : NULL;
	if (ver != NULL && ver->fn_xmin == func->fn_xmin &&
		ItemPointerEquals(&ver->fn_tid, &func->fn_tid) &&
		ver->nstatements == func->nstatements)
		return ver;

	/*
	 * The old version's counters are left to calls of it still running:
	 * they are small, and replacing a function while profiling is rare.
	 */
	ver = MemoryContextAllocZero(prof_cxt, sizeof(ProfVersion));
	ver->fn_oid = func->fn_oid;
	ver->fn_xmin = func->fn_xmin;
	ver->fn_tid = func->fn_tid;
	ver->nstatements = func->nstatements;
	ver->stats = MemoryContextAllocZero(prof_cxt,
										sizeof(PlnProfStats) * (func->nstatements + 1));
	ver->info = MemoryContextAllocZero(prof_cxt,
									   sizeof(ProfStmtInfo) * (func->nstatements + 1));
	(void) pln_walk_stmt((PlnStmt *) func->action, &prof_info_walker,
						 ver->info);
	ver->info[func->action->stmtid].follow = PROF_FOLLOW_CALL_END;
	if (pln_prof_shared_active())
		ver->shared = MemoryContextAllocZero(prof_cxt,
											 sizeof(PlnProfShared *) * (func->nstatements + 1));
	pf->ver = ver;
	return ver;
}

static void
prof_func_setup(PlnExecState *estate, PlnFunction *func)
{
	ProfCall   *call;

	if (!OidIsValid(func->fn_oid))
		return;					/* a DO block */
	call = palloc(sizeof(ProfCall));
	call->serial = ++prof_serial;
	call->ver = prof_lookup(func);
	call->nstatements = call->ver->nstatements;
	call->follow_serial = 0;
	PLN_PLUGIN_INFO(estate, &prof_plugin) = call;
}

static void
prof_func_beg(PlnExecState *estate, PlnFunction *func)
{
	ProfCall   *call = prof_call(estate);
	uint64		now;

	if (call == NULL)
		return;

	/*
	 * A statement takes the end of the one before as its start only when
	 * no other consumer runs in between: what that one does at each
	 * statement (a tracer's NOTICE, a debugger's stop) would be counted
	 * against the next statement.
	 */
	if (estate->plugins->n_stmt_beg == 1 && estate->plugins->n_stmt_end == 1)
		call->follow_serial = call->serial;

	now = prof_clock();
	prof_push(call, NULL, 0, now);
	/* the top block starts now too */
	prof_follow_call = call->follow_serial;
	prof_follow_id = func->action->stmtid;
	prof_follow_time = now;
}

static void
prof_func_end(PlnExecState *estate, PlnFunction *func)
{
	ProfCall   *call = prof_call(estate);
	uint64		now;

	if (call == NULL)
		return;
	if (prof_follow_call == call->serial &&
		prof_follow_id == PROF_FOLLOW_CALL_END)
		now = prof_follow_time;
	else
		now = prof_clock();
	if (prof_unwind_to(call->serial, NULL, now))
		prof_pop(now, false);
}

/*
 * A statement starts: prof_stmt_beg, when entries of dead calls are above
 * the call's, or the stack has no room
 */
static pg_noinline void
prof_stmt_beg_slow(ProfCall *call, PlnStmt *stmt)
{
	uint64		now = prof_clock();

	prof_follow_call = 0;
	if (prof_depth > 0 && prof_stack[prof_depth - 1].serial != call->serial)
		prof_pop_dead_calls(call->serial, now);
	prof_push(call, stmt, stmt->stmtid, now);
}

/*
 * A statement starts.  This and prof_stmt_end run for every statement:
 * their usual path is a few loads and stores and one reading of the
 * clock between them (none when the statement follows another).  Each
 * comes in two versions, one per clock (tsc: the CPU's counter).
 */
static pg_attribute_always_inline void
prof_stmt_beg(PlnExecState *estate, PlnStmt *stmt, bool tsc)
{
	ProfCall   *call = prof_call(estate);
	int			depth = prof_depth;
	unsigned int id = stmt->stmtid;
	uint64		serial;
	uint64		start;
	ProfRunning *r;

	/* (a statement's id is within its function's: see prof_lookup) */
	if (unlikely(call == NULL))
		return;
	Assert(id <= call->nstatements);
	serial = call->serial;
	if (unlikely(depth == prof_alloc || prof_stack[depth - 1].serial != serial))
	{
		prof_stmt_beg_slow(call, stmt);
		return;
	}

	if (prof_follow_call == serial && prof_follow_id == id)
		start = prof_follow_time;
	else
		start = PROF_CLOCK(tsc);
	prof_follow_call = 0;

	r = &prof_stack[depth];
	prof_depth = depth + 1;
	r->serial = serial;
	r->stmt = stmt;
	r->ver = call->ver;
	r->stmtid = id;
	r->subid = prof_subid;
	r->start = start;
}

/* The top entry, the call's statement, ended now */
static inline void
prof_stmt_ended(PlnExecState *estate, ProfCall *call, ProfRunning *r,
				unsigned int id, uint64 now)
{
	ProfVersion *ver = call->ver;
	ProfStmtInfo *si = &ver->info[id];
	PlnProfStats *st = &ver->stats[id];
	uint64		ticks = elapsed_ticks(r->start, now);

	prof_depth--;
	prof_count_exec(st, ticks);
	if (si->flags & PROF_ROWS)
		st->rows += estate->eval_processed;

	prof_follow_call = call->follow_serial;
	prof_follow_id = si->follow;
	prof_follow_time = now;
}

/* prof_stmt_end, when the statement is not on top */
static pg_noinline void
prof_stmt_end_slow(PlnExecState *estate, ProfCall *call, PlnStmt *stmt,
				   uint64 now)
{
	/* statements above it ended in an error (or it is not there) */
	if (!prof_unwind_to(call->serial, stmt, now))
		return;
	prof_stmt_ended(estate, call, &prof_stack[prof_depth - 1], stmt->stmtid,
					now);
}

static pg_attribute_always_inline void
prof_stmt_end(PlnExecState *estate, PlnStmt *stmt, bool tsc)
{
	ProfCall   *call = prof_call(estate);
	ProfRunning *r = &prof_stack[prof_depth - 1];
	uint64		now;

	if (unlikely(call == NULL))
		return;
	Assert(stmt->stmtid <= call->nstatements);
	now = PROF_CLOCK(tsc);
	if (unlikely(r->serial != call->serial || r->stmt != stmt))
	{
		prof_stmt_end_slow(estate, call, stmt, now);
		return;
	}
	prof_stmt_ended(estate, call, r, stmt->stmtid, now);
}

/* The plugin's statement hooks, one pair for each clock */
#define PROF_STMT_HOOKS(clock, tsc) \
static void \
prof_stmt_beg_##clock(PlnExecState *estate, PlnStmt *stmt) \
{ \
	prof_stmt_beg(estate, stmt, tsc); \
} \
static void \
prof_stmt_end_##clock(PlnExecState *estate, PlnStmt *stmt) \
{ \
	prof_stmt_end(estate, stmt, tsc); \
}

PROF_STMT_HOOKS(gettime, false)
#ifdef PROF_HAVE_TSC
PROF_STMT_HOOKS(tsc, true)
#endif

static void
prof_block_event(PlnExecState *estate, PlnStmtBlock *block,
				 PlnBlockEvent event)
{
	ProfCall   *call = prof_call(estate);
	PlnProfStats *st;

	if (call == NULL || block->stmtid > call->ver->nstatements)
		return;
	prof_follow_call = 0;
	st = &call->ver->stats[block->stmtid];
	switch (event)
	{
		case PLN_BLOCK_SAVEPOINT_STARTED:
			st->savepoints_started++;
			return;
		case PLN_BLOCK_CAUGHT_LAZY:
			st->caught_lazy++;
			break;
		case PLN_BLOCK_CAUGHT_SUBXACT:
			st->caught_subxact++;
			break;
	}
	/* what ran inside the block ended in the error */
	(void) prof_unwind_to(call->serial, (PlnStmt *) block, prof_clock());
}

/* Transaction and subtransaction ends: see the file header */
static void
prof_xact_cb(XactEvent event, void *arg)
{
	ProfRunning *top;
	uint64		now;

	if (event == XACT_EVENT_ABORT)
		pln_lazy_check_exempt = false;	/* see pln_savepoint.h */
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PREPARE || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT)
		prof_subid = TopSubTransactionId;	/* the next one's */
	if (event != XACT_EVENT_ABORT || prof_depth == 0)
		return;
	prof_follow_call = 0;
	top = &prof_stack[prof_depth - 1];
	if (top->stmt != NULL &&
		(top->ver->info[top->stmtid].flags & PROF_ROLLBACK))
		return;
	now = prof_clock();
	while (prof_depth > 0)
		prof_pop(now, true);
}

static void
prof_subxact_cb(SubXactEvent event, SubTransactionId mySubid,
				SubTransactionId parentSubid, void *arg)
{
	uint64		now;

	switch (event)
	{
		case SUBXACT_EVENT_START_SUB:
			prof_subid = mySubid;
			return;
		case SUBXACT_EVENT_COMMIT_SUB:
			prof_subid = parentSubid;
			return;
		case SUBXACT_EVENT_ABORT_SUB:
			prof_subid = parentSubid;
			break;
		case SUBXACT_EVENT_PRE_COMMIT_SUB:
			return;
	}
	if (prof_depth == 0)
		return;
	prof_follow_call = 0;
	now = prof_clock();
	while (prof_depth > 0 && prof_stack[prof_depth - 1].subid >= mySubid)
		prof_pop(now, true);
}

static void
prof_assign(bool newval, void *extra)
{
	pln_plugin_set_attached(&prof_plugin, newval);
}

/* At module load (handler.c) */
void
pln_profiler_init(void)
{
	DefineCustomBoolVariable("plnimble.profiler",
							 gettext_noop("Count executions and time of every statement of PL/nimble functions."),
							 gettext_noop("plnimble_profiler_function_tb() and the other profiler functions show the counts."),
							 &pln_profiler_enabled,
							 false,
							 PGC_USERSET, 0,
							 NULL, prof_assign, NULL);
	prof_subid = GetCurrentSubTransactionId();
	RegisterXactCallback(prof_xact_cb, NULL);
	RegisterSubXactCallback(prof_subxact_cb, NULL);
	if (process_shared_preload_libraries_in_progress)
		pln_prof_shared_init();
}

/* ----------
 * Showing
 * ----------
 */

/* What a statement is in the tree, for showing its counters */
typedef struct ProfStmtPlace
{
	PlnStmt    *stmt;
	int			parent;			/* stmtid, 0 for the top block */
	const char *parent_note;
	int			nesting;
} ProfStmtPlace;

/* The statements of a compiled function, in order, with their places */
typedef struct ProfTree
{
	PlnFunction *func;
	ProfStmtPlace *places;		/* in tree order */
	int			nplaces;
	PlnProfStats *stats;		/* [nstatements + 1]: the counters of this
								 * version (zeros when none) */
} ProfTree;

/* The state of prof_tree's walk: where each level of nesting hangs */
typedef struct ProfTreeWalk
{
	ProfTree   *tree;
	int		   *parent;			/* [depth]: the stmtid statements hang from */
	const char **note;			/* [depth]: what they are to it */
} ProfTreeWalk;

static PlnWalkResult
tree_stmt(PlnStmt *stmt, int depth, void *arg)
{
	ProfTreeWalk *tw = (ProfTreeWalk *) arg;
	ProfStmtPlace *place = &tw->tree->places[tw->tree->nplaces++];

	place->stmt = stmt;
	place->parent = tw->parent[depth];
	place->parent_note = tw->note[depth];
	place->nesting = depth;
	return PLN_WALK_CONTINUE;
}

static PlnWalkResult
tree_body(PlnStmt *stmt, const PlnNestedBody *body, int depth, void *arg)
{
	ProfTreeWalk *tw = (ProfTreeWalk *) arg;

	tw->parent[depth + 1] = stmt->stmtid;
	tw->note[depth + 1] = pln_body_role_name(body->role);
	return PLN_WALK_CONTINUE;
}

static const PlnStmtWalker prof_tree_walker = {
	.stmt = tree_stmt,
	.body = tree_body,
};

/*
 * Compile the function (as the validator would) and find its counters.
 * Only functions run by plnimble can be shown.
 */
static void
prof_tree(Oid funcoid, ProfTree *tree)
{
	ProfTreeWalk tw;
	int			rc;

	if (!pln_function_runs_on_plnimble(funcoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("function %s is not run by %s",
						format_procedure(funcoid), PLN_LANG_TITLE)));

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	tree->func = pln_compile_for_validation(funcoid, get_func_rettype(funcoid));
	if ((rc = SPI_finish()) != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));

	tree->places = palloc0(sizeof(ProfStmtPlace) * (tree->func->nstatements + 1));
	tree->nplaces = 0;
	/* (statements nest at most nstatements deep) */
	tw.tree = tree;
	tw.parent = palloc0(sizeof(int) * (tree->func->nstatements + 1));
	tw.note = palloc0(sizeof(char *) * (tree->func->nstatements + 1));
	(void) pln_walk_stmt((PlnStmt *) tree->func->action, &prof_tree_walker,
						 &tw);

	tree->stats = palloc0(sizeof(PlnProfStats) * (tree->func->nstatements + 1));
	if (pln_prof_shared_active())
	{
		/* (with what calls running in this session counted so far) */
		prof_flush_all();
		pln_prof_shared_read(funcoid, tree->func->fn_xmin,
							 tree->func->nstatements, tree->stats);
	}
	else if (prof_funcs != NULL)
	{
		ProfFunc   *pf = hash_search(prof_funcs, &funcoid, HASH_FIND, NULL);
		ProfVersion *ver = pf ? pf->ver : NULL;
		unsigned int i;

		if (ver != NULL && ver->fn_xmin == tree->func->fn_xmin &&
			ItemPointerEquals(&ver->fn_tid, &tree->func->fn_tid) &&
			ver->nstatements == tree->func->nstatements)
			for (i = 0; i <= ver->nstatements; i++)
				prof_shown_stats(ver, i, &tree->stats[i]);
	}
}

/* The counters of a statement */
static inline const PlnProfStats *
stmt_stats(ProfTree *tree, PlnStmt *stmt)
{
	return &tree->stats[stmt->stmtid];
}

/*
 * Without shared_preload_libraries the counters are this session's: the
 * functions that show them say so, once per session.
 */
static void
note_per_session(void)
{
	static bool noted = false;

	if (pln_prof_shared_active() || noted)
		return;
	noted = true;
	ereport(NOTICE,
			(errmsg("PL/nimble profiles are counted per session"),
			 errhint("Load plnimble through shared_preload_libraries to count them for all sessions.")));
}

static inline Datum
us_datum(uint64 ns)
{
	return Float8GetDatum((double) ns / 1000.0);
}

static inline bool
is_handler_block(PlnStmt *stmt)
{
	return stmt->cmd_type == PLN_STMT_BLOCK &&
		((PlnStmtBlock *) stmt)->exceptions != NULL;
}

/* The function's source, as the line numbers count it */
static char *
function_source(Oid funcoid)
{
	HeapTuple	proctup;
	Datum		prosrc;
	bool		isnull;
	char	   *src;

	proctup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(proctup))
		elog(ERROR, "cache lookup failed for function %u", funcoid);
	prosrc = SysCacheGetAttr(PROCOID, proctup, Anum_pg_proc_prosrc, &isnull);
	src = isnull ? pstrdup("") : TextDatumGetCString(prosrc);
	ReleaseSysCache(proctup);
	return src;
}

PG_FUNCTION_INFO_V1(plnimble_profiler_function_tb);
PG_FUNCTION_INFO_V1(plnimble_profiler_function_statements_tb);
PG_FUNCTION_INFO_V1(plnimble_profiler_functions_all);
PG_FUNCTION_INFO_V1(plnimble_profiler_reset);
PG_FUNCTION_INFO_V1(plnimble_profiler_reset_all);
PG_FUNCTION_INFO_V1(plnimble_coverage_statements);
PG_FUNCTION_INFO_V1(plnimble_coverage_branches);

/*
 * plnimble_profiler_function_tb(regprocedure): one row per line of the
 * source.  A line with several statements shows the most executions of
 * any of them, and the time of those not nested in another on the line.
 */
Datum
plnimble_profiler_function_tb(PG_FUNCTION_ARGS)
{
	Oid			funcoid = pln_check_routine_arg(fcinfo, "plnimble_profiler_function_tb");
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ProfTree	tree;
	char	   *src;
	char	   *line;
	int			lineno = 1;

	note_per_session();
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	prof_tree(funcoid, &tree);
	src = function_source(funcoid);

	for (line = src; line != NULL; lineno++)
	{
		char	   *eol = strchr(line, '\n');
		Datum		values[11];
		bool		nulls[11];
		bool		any = false;
		bool		blocks = false;
		uint64		execs = 0,
					errs = 0,
					total = 0,
					maxt = 0,
					rows = 0,
					started = 0,
					avoided = 0;
		int			i;

		if (eol != NULL)
			*eol = '\0';

		for (i = 0; i < tree.nplaces; i++)
		{
			ProfStmtPlace *p = &tree.places[i];
			const PlnProfStats *st;
			bool		outermost;
			int			j;

			if (p->stmt->lineno != lineno)
				continue;
			st = stmt_stats(&tree, p->stmt);
			any = true;
			execs = Max(execs, st->exec_count);
			errs += st->exec_err;
			rows += st->rows;

			/* nested in a statement of the same line? */
			outermost = true;
			for (j = 0; j < tree.nplaces; j++)
				if (tree.places[j].stmt->stmtid == p->parent &&
					tree.places[j].stmt->lineno == lineno)
					outermost = false;
			if (outermost)
			{
				total += st->total_ns;
				maxt = Max(maxt, st->max_ns);
			}
			if (is_handler_block(p->stmt))
			{
				blocks = true;
				started += st->savepoints_started;
				avoided += st->block_entries - st->savepoints_started;
			}
		}

		memset(nulls, !any, sizeof(nulls));
		values[0] = Int32GetDatum(lineno);
		nulls[0] = false;
		values[1] = Int32GetDatum(lineno);
		values[2] = Int64GetDatum((int64) execs);
		values[3] = Int64GetDatum((int64) errs);
		values[4] = us_datum(total);
		values[5] = us_datum(execs > 0 ? total / execs : 0);
		values[6] = us_datum(maxt);
		values[7] = Int64GetDatum((int64) rows);
		values[8] = Int64GetDatum((int64) started);
		values[9] = Int64GetDatum((int64) avoided);
		nulls[8] = nulls[9] = !blocks;
		values[10] = CStringGetTextDatum(line);
		nulls[10] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);

		line = eol != NULL ? eol + 1 : NULL;
	}
	return (Datum) 0;
}

/* plnimble_profiler_function_statements_tb(regprocedure): one row per statement */
Datum
plnimble_profiler_function_statements_tb(PG_FUNCTION_ARGS)
{
	Oid			funcoid = pln_check_routine_arg(fcinfo, "plnimble_profiler_function_statements_tb");
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ProfTree	tree;
	int			i;

	note_per_session();
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	prof_tree(funcoid, &tree);

	for (i = 0; i < tree.nplaces; i++)
	{
		ProfStmtPlace *p = &tree.places[i];
		const PlnProfStats *st = stmt_stats(&tree, p->stmt);
		bool		block = is_handler_block(p->stmt);
		Datum		values[16];
		bool		nulls[16];

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(p->stmt->stmtid);
		values[1] = Int32GetDatum(p->parent);
		nulls[1] = (p->parent == 0);
		values[2] = p->parent_note ? CStringGetTextDatum(p->parent_note) : (Datum) 0;
		nulls[2] = (p->parent_note == NULL);
		values[3] = Int32GetDatum(p->stmt->lineno);
		values[4] = Int32GetDatum(p->nesting);
		values[5] = CStringGetTextDatum(pln_stmt_typename(p->stmt));
		values[6] = Int64GetDatum((int64) st->exec_count);
		values[7] = Int64GetDatum((int64) st->exec_err);
		values[8] = us_datum(st->total_ns);
		values[9] = us_datum(st->exec_count > 0 ? st->total_ns / st->exec_count : 0);
		values[10] = us_datum(st->max_ns);
		values[11] = Int64GetDatum((int64) st->rows);
		values[12] = Int64GetDatum((int64) st->savepoints_started);
		values[13] = Int64GetDatum((int64) (st->block_entries - st->savepoints_started));
		values[14] = Int64GetDatum((int64) st->caught_lazy);
		values[15] = Int64GetDatum((int64) st->caught_subxact);
		nulls[12] = nulls[13] = nulls[14] = nulls[15] = !block;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* plnimble_profiler_functions_all(): one row per function with counters */
Datum
plnimble_profiler_functions_all(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *totals = NIL;
	ListCell   *lc;

	note_per_session();
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);

	if (pln_prof_shared_active())
	{
		prof_flush_all();
		totals = pln_prof_shared_totals();
	}
	else if (prof_funcs != NULL)
	{
		HASH_SEQ_STATUS scan;
		ProfFunc   *pf;

		hash_seq_init(&scan, prof_funcs);
		while ((pf = hash_seq_search(&scan)) != NULL)
		{
			PlnProfTotals *t = palloc0(sizeof(PlnProfTotals));
			unsigned int i;

			t->fn_oid = pf->fn_oid;
			prof_shown_stats(pf->ver, 0, &t->calls);
			for (i = 1; i <= pf->ver->nstatements; i++)
			{
				PlnProfStats st;

				prof_shown_stats(pf->ver, i, &st);
				pln_prof_stats_add(&t->stmts, &st);
			}
			totals = lappend(totals, t);
		}
	}

	foreach(lc, totals)
	{
		PlnProfTotals *t = (PlnProfTotals *) lfirst(lc);
		Datum		values[9];
		bool		nulls[9] = {0};

		if (t->calls.exec_count == 0)
			continue;
		values[0] = ObjectIdGetDatum(t->fn_oid);
		values[1] = Int64GetDatum((int64) t->calls.exec_count);
		values[2] = Int64GetDatum((int64) t->calls.exec_err);
		values[3] = us_datum(t->calls.total_ns);
		values[4] = us_datum(t->calls.total_ns / t->calls.exec_count);
		values[5] = us_datum(t->calls.max_ns);
		values[6] = Int64GetDatum((int64) t->stmts.exec_count);
		values[7] = Int64GetDatum((int64) t->stmts.savepoints_started);
		values[8] = Int64GetDatum((int64) (t->stmts.block_entries -
										   t->stmts.savepoints_started));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* Forget the counters of one function, or of all (InvalidOid) */
static void
prof_reset(Oid funcoid)
{
	HASH_SEQ_STATUS scan;
	ProfFunc   *pf;

	if (pln_prof_shared_active())
		pln_prof_shared_reset(funcoid);
	if (prof_funcs == NULL)
		return;
	hash_seq_init(&scan, prof_funcs);
	while ((pf = hash_seq_search(&scan)) != NULL)
	{
		if (OidIsValid(funcoid) && pf->fn_oid != funcoid)
			continue;
		/* (calls running keep writing to the same counters) */
		memset(pf->ver->stats, 0,
			   sizeof(PlnProfStats) * (pf->ver->nstatements + 1));
	}
}

Datum
plnimble_profiler_reset(PG_FUNCTION_ARGS)
{
	prof_reset(PG_GETARG_OID(0));
	PG_RETURN_VOID();
}

Datum
plnimble_profiler_reset_all(PG_FUNCTION_ARGS)
{
	prof_reset(InvalidOid);
	PG_RETURN_VOID();
}

/* ----------
 * Coverage
 * ----------
 */

/* plnimble_coverage_statements(regprocedure): fraction of statements run */
Datum
plnimble_coverage_statements(PG_FUNCTION_ARGS)
{
	ProfTree	tree;
	int			run = 0;
	int			i;

	prof_tree(pln_check_routine_arg(fcinfo, "plnimble_coverage_statements"), &tree);
	for (i = 0; i < tree.nplaces; i++)
		if (stmt_stats(&tree, tree.places[i].stmt)->exec_count > 0)
			run++;
	PG_RETURN_FLOAT8((double) run / tree.nplaces);
}

/*
 * plnimble_coverage_branches(regprocedure): fraction of branches taken.
 * A branch is a body nested in a statement (a THEN, ELSIF or ELSE of IF,
 * an arm of CASE, the body of a loop, an exception handler), taken when
 * its first statement ran; an IF without ELSE has the branch of falling
 * through, taken when the IF ran more often than its branches were
 * entered (and it failed).  A body without statements cannot be seen
 * running and is not counted.
 */
/* The counts of plnimble_coverage_branches, over one statement's bodies */
typedef struct BranchCount
{
	ProfTree   *tree;
	int			branches;
	int			taken;
	uint64		entered;		/* runs of the statement's branches */
} BranchCount;

static bool
count_branch(PlnStmt *stmt, const PlnNestedBody *body, void *arg)
{
	BranchCount *bc = (BranchCount *) arg;
	uint64		count;

	/* a block's own body is not a branch, its handlers are */
	if (body->role == PLN_BODY_BLOCK || body->stmts == NIL)
		return false;
	bc->branches++;
	count = stmt_stats(bc->tree, linitial(body->stmts))->exec_count;
	if (count > 0)
	{
		bc->taken++;
		bc->entered += count;
	}
	return false;
}

Datum
plnimble_coverage_branches(PG_FUNCTION_ARGS)
{
	ProfTree	tree;
	BranchCount bc;
	int			i;

	prof_tree(pln_check_routine_arg(fcinfo, "plnimble_coverage_branches"), &tree);
	bc.tree = &tree;
	bc.branches = 0;
	bc.taken = 0;
	for (i = 0; i < tree.nplaces; i++)
	{
		PlnStmt    *stmt = tree.places[i].stmt;

		if (stmt->cmd_type == PLN_STMT_BLOCK && !is_handler_block(stmt))
			continue;			/* one way through */
		bc.entered = 0;
		(void) pln_stmt_visit_bodies(stmt, count_branch, &bc);
		if (stmt->cmd_type == PLN_STMT_IF &&
			((PlnStmtIf *) stmt)->else_body == NIL)
		{
			const PlnProfStats *st = stmt_stats(&tree, stmt);

			bc.branches++;
			if (st->exec_count > bc.entered + st->exec_err)
				bc.taken++;
		}
	}
	if (bc.branches == 0)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8((double) bc.taken / bc.branches);
}
