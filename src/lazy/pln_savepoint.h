/*-------------------------------------------------------------------------
 *
 * pln_savepoint.h
 *	  Lazy savepoints: exception blocks whose subtransaction starts only
 *	  when impure work comes (savepoint.c), the purity analysis that decides
 *	  (purity.c); the views of both are tools/explain.c and entry/funcs.c.
 *
 * See docs/design.md and the comments of savepoint.c for the rule: while
 * the innermost handler block has no subtransaction, only pure work may
 * run.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_SAVEPOINT_H
#define PLN_SAVEPOINT_H

#include "exec/pln_exec.h"
#include "lazy/pln_guard.h"

/* An exception block in progress, innermost first from estate->sp_top */
struct PlnSavepointFrame
{
	PlnSavepointFrame *outer;	/* enclosing handler block of this call */
	PlnStmtBlock *block;
	bool		materialized;	/* has its subtransaction been started? */
	bool		unprotected_write;	/* is the write path running or done in
									 * it?  Then it catches nothing (see
									 * write_path.c) */
	bool		guarded;		/* did work run in it under a read guard
								 * while it had no subtransaction (guard.c)? */
	ResourceOwner lock_owner;	/* the locks that work took, or NULL
								 * (guard.c, frame_lock_owner) */

	/* saved on entry to the block */
	MemoryContext entry_context;
	ErrorData  *entry_cur_error;
	int			entry_handler_depth;	/* pln_handler_depth */

	/* saved when the subtransaction starts */
	ResourceOwner outer_owner;
	ExprContext *outer_econtext;
};

/* ----------
 * Exception blocks (savepoint.c)
 * ----------
 */

/* What happened in an exception block (the plugin hook's block_event) */
typedef enum PlnBlockEvent
{
	PLN_BLOCK_SAVEPOINT_STARTED,	/* its subtransaction was started */
	PLN_BLOCK_CAUGHT_LAZY,		/* it caught an error without one */
	PLN_BLOCK_CAUGHT_SUBXACT	/* it caught an error, rolling back */
} PlnBlockEvent;

/*
 * What the exception-block layer needs of the executor above it: running
 * a block's body and its handlers, setting SQLSTATE and SQLERRM, telling
 * the plugin hook's consumers, and a few executor helpers.  The executor
 * hands them down once (pln_exec_init in exec.c, which _PG_init calls),
 * before any call runs; every member is set.  exec_stmts is called once per entry of a
 * handler block (or per iteration of a loop of such blocks), the others
 * only when a subtransaction starts, an error is caught or a loop's body
 * ends otherwise than normally: no indirect call is on the per-statement
 * path.
 */
typedef struct PlnBlockRunner
{
	/* exec/exec.c: run a list of statements (a body, a handler) */
	int			(*exec_stmts) (PlnExecState *estate, List *stmts);
	/* exec/exec.c: a loop's treatment of a body's code other than OK */
	int			(*loop_body_rc_slow) (PlnExecState *estate, int rc,
									  const char *label, bool *exit_loop);
	/* exec/exec.c: exec_eval_cleanup when there is something to release */
	void		(*eval_cleanup_slowly) (PlnExecState *estate);
	/* exec/exec.c: the call's error context callback, to find a call */
	void		(*error_callback) (void *arg);
	/* exec/assign.c: store a string into a text variable */
	void		(*assign_text_var) (PlnExecState *estate, PlnVar *var,
									const char *str);
	/* exec/exec_expr.c: see enter_frame_slowly */
	bool		(*check_plan_before_block) (PlnExpr *expr);
	/* exec/exec_expr.c: a new expression context, in a new subtransaction */
	void		(*create_econtext) (PlnExecState *estate);
	/* exec/plugin.c: tell the plugin hook's consumers */
	void		(*block_event) (PlnExecState *estate, PlnStmtBlock *block,
								PlnBlockEvent event);
} PlnBlockRunner;

extern PlnBlockRunner pln_block_runner;

extern int	exec_stmt_block_with_handlers(PlnExecState *estate,
										  PlnStmtBlock *block);
extern bool pln_block_catches(PlnStmtBlock *block, int sqlerrcode);

/*
 * A loop whose body is a single block with an EXCEPTION clause, run by
 * pln_run_handler_block_loop: next_iteration prepares the next iteration
 * (sets the loop variable) and returns false when the loop is over.  It
 * must not fail in a way the block's handlers could catch: errors it
 * raises leave the loop, as errors of the loop statement itself do.
 */
typedef struct PlnHandlerBlockLoop
{
	bool		(*next_iteration) (PlnExecState *estate,
								   struct PlnHandlerBlockLoop *loop);
	const char *label;			/* the loop's label, for EXIT and CONTINUE */
} PlnHandlerBlockLoop;

extern int	pln_run_handler_block_loop(PlnExecState *estate,
									   PlnStmtBlock *block,
									   PlnHandlerBlockLoop *loop);
extern void pln_materialize_savepoints(PlnExecState *estate);
extern ErrorData *pln_try_in_subtransaction(void (*work) (void *arg),
											void *arg, bool roll_back);
extern void pln_begin_unprotected_write(PlnExecState *estate);
extern void pln_end_unprotected_write(PlnExecState *estate);
extern bool pln_error_context_unseen(PlnExecState *estate, int sqlerrcode);
extern bool pln_write_path_error_unseen(PlnExecState *estate);
extern bool pln_handler_may_take_duplicate(PlnExecState *estate);
extern bool pln_innermost_frame_is_lazy(PlnStmt **stmt);	/* lazy_check.c */

/*
 * While set, the checking build (lazy_check.c) lets server calls through
 * even in a lazy region.  Only code that is not the language's own work
 * and that raises no error while it holds what it takes may set it, for
 * exactly that section: the shared profiler's counting, which holds its
 * table's LWLock around hash lookups and counter additions.  A transaction
 * abort clears it, in case that promise was ever broken.
 */
extern bool pln_lazy_check_exempt;

/*
 * The wrapped-server lane (make PLN_LAZY_CHECK=1 PLN_SERVER_CHECK=1, on the
 * server scripts/cassert-server.sh 15 builds): lazy_check.c also sets the
 * server's own access check hook, and pln_server_check_probe (called
 * where a simple expression is evaluated) does the server access that the
 * setting plnimble.server_check_probe names, so that the lane can show
 * that the hook is installed and fires.  Neither exists in other builds.
 */
#ifdef PLN_SERVER_CHECK
extern void pln_server_check_init(void);
extern void pln_server_check_probe(void);
#else
#define pln_server_check_probe() ((void) 0)
#endif

/*
 * May the statement start running inside a handler block that has no
 * subtransaction yet?  The column "lazy" of pln_stmtkinds.h says, but for
 * four cases: a SELECT expr INTO variable that runs as an assignment
 * (exec_stmt_execsql) may, once its first run has established that; an
 * INSERT that the write path may run (write_path.c); a SELECT ... INTO
 * variables that may run under a read guard (guarded_query.c); and an
 * EXECUTE ... INTO variables, whose command may (the same file).
 */
static inline bool
pln_stmt_may_run_lazily(PlnStmt *stmt)
{
	/*
	 * SELECT expr INTO var run as an assignment (see exec_stmt_execsql) is
	 * the first of the two exceptions to the table's lazy column; also its
	 * first run, which prepares it as an expression is first planned (under
	 * a read guard, or else under the block's subtransaction) and passes
	 * the gate itself when it is not such a statement.
	 */
	if (stmt->cmd_type == PLN_STMT_EXECSQL &&
		(((PlnStmtExecSql *) stmt)->simple_into ||
		 (((PlnStmtExecSql *) stmt)->into_one_var &&
		  ((PlnStmtExecSql *) stmt)->sqlstmt->plan == NULL)))
		return true;

	/*
	 * The second: an INSERT that the write path may run without the
	 * block's subtransaction.  It decides as it starts (pln_write_path_run),
	 * and passes the gate itself when it does not take the path.
	 */
	if (stmt->cmd_type == PLN_STMT_EXECSQL &&
		((PlnStmtExecSql *) stmt)->write_path != PLN_WRITE_PATH_NONE &&
		((PlnStmtExecSql *) stmt)->write_path != PLN_WRITE_PATH_NEVER)
		return true;

	/*
	 * The third: a SELECT ... INTO variables that may run under a read
	 * guard (guarded_query.c).  It decides as it starts, and passes the
	 * gate itself when it does not take the guard.
	 */
	if (stmt->cmd_type == PLN_STMT_EXECSQL &&
		((PlnStmtExecSql *) stmt)->guarded_query == PLN_GUARDED_QUERY_CANDIDATE)
		return true;

	/*
	 * The fourth: EXECUTE ... INTO variables, whose command may run under
	 * a read guard when it turns out to be a reviewed SELECT
	 * (guarded_query.c).  It decides as it runs, and passes the gate
	 * itself when it does not take the guard.
	 */
	if (stmt->cmd_type == PLN_STMT_DYNEXECUTE &&
		((PlnStmtDynExecute *) stmt)->guarded_shape != PLN_GUARDED_QUERY_NEVER)
		return true;

	/* generated from pln_stmtkinds.h; the compiler makes it one bit test */
	switch (stmt->cmd_type)
	{
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) \
		case kind: \
			return lazy;
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
	}
	return false;
}

/*
 * Is the call running inside a handler block whose subtransaction has not
 * been started yet?  Then only pure work may be done (purity.c).
 */
static inline bool
pln_in_lazy_region(PlnExecState *estate)
{
	return estate->sp_top != NULL && !estate->sp_top->materialized;
}

/*
 * Entering a handler block is the hot path of lazy savepoints, and the
 * sigjmp_buf PG_TRY keeps on the stack would otherwise get a stack
 * protector canary, checked at every exit.  Only sigsetjmp writes to it.
 */
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define pln_no_stack_protector __attribute__((no_stack_protector))
#endif
#endif
#ifndef pln_no_stack_protector
#define pln_no_stack_protector
#endif

/* savepoint.c: handlers running in the session (for caught errors' memory) */
extern int	pln_handler_depth;

/*
 * What impure work is about to do, for pln_start_savepoints_before.  Each
 * extent includes the ones before it.
 */
typedef enum PlnImpureWork
{
	/*
	 * Reads the database (the type cache, a TOAST table) but runs no code
	 * that could change settings or catalogs: an expression of pure-list
	 * functions over records (pln_expr_tree_calls_only_pure), storing a
	 * record field.  Plans checked before stay good.
	 */
	PLN_IMPURE_READS,
	/* may run any code, so plans must be checked again afterwards */
	PLN_IMPURE_RUNS_CODE,
	/* also uses SPI (parses, plans or runs a query) */
	PLN_IMPURE_USES_SPI,
	/* a statement that is not lazy: may also end the transaction (COMMIT) */
	PLN_IMPURE_STATEMENT
} PlnImpureWork;

/*
 * A plan checked in the current epoch is still valid (exec_expr.c).  After
 * anything that may have run code other than pure work, call
 * pln_forget_plan_checks.  (savepoint.c)
 */
extern uint64 pln_validity_epoch;

static inline void
pln_forget_plan_checks(void)
{
	pln_validity_epoch++;
}

/* savepoint.c: connect the call to SPI (see pln_start_savepoints_before) */
extern void pln_connect_spi(PlnExecState *estate);

/*
 * The gate in front of everything that is not known to be pure, inside a
 * handler block or not.  When it returns, work of the given extent may
 * run: every enclosing handler block of the call has its subtransaction,
 * so that a caught error undoes the work, and the flags that let pure work
 * skip checks are cleared where the work may invalidate what they vouch
 * for (docs/design.md has the table of these flags):
 *
 *	search_path_checked		always (impure work may change the search path)
 *	pln_validity_epoch		bumped from PLN_IMPURE_RUNS_CODE on
 *	portal_snapshot_ensured	PLN_IMPURE_STATEMENT
 *
 * SPI is connected for PLN_IMPURE_USES_SPI and up, outside our
 * subtransactions.  Below that it is not: a call that only evaluates
 * expressions never connects (starting a subtransaction connects first,
 * see materialize_frame, and the one use of SPI while evaluating,
 * planning again, calls pln_ensure_spi).  Inline, with work a constant at
 * every call, so that each call site keeps only the tests it needs.
 */
static inline void
pln_start_savepoints_before(PlnExecState *estate, PlnImpureWork work)
{
	if (work >= PLN_IMPURE_USES_SPI && unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
	estate->search_path_checked = false;
	if (unlikely(pln_in_lazy_region(estate)))
		pln_materialize_savepoints(estate);
	if (work >= PLN_IMPURE_RUNS_CODE)
		pln_forget_plan_checks();
	if (work >= PLN_IMPURE_STATEMENT)
		estate->portal_snapshot_ensured = false;
}

static inline void
pln_ensure_spi(PlnExecState *estate)
{
	if (unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
}

/* session counters (savepoint.c) */
typedef struct PlnSavepointStats
{
	uint64		blocks_entered;
	uint64		savepoints_materialized;
	uint64		errors_caught_lazy;
	uint64		errors_caught_subxact;
	uint64		writes_without_savepoint;	/* write path runs (write_path.c) */
	uint64		fast_calls;		/* calls the fast entry ran to their end,
								 * or to an error it let go up
								 * (entry/fast_call.c) */
	uint64		blocks_lazy_guarded;	/* blocks that ended (normally or by a
										 * caught error) without their
										 * subtransaction, having run work
										 * under a read guard (guard.c) */
} PlnSavepointStats;

extern PlnSavepointStats pln_stats;

/* purity.c: the classes of its table of reviewed functions */
typedef enum PlnFnClass
{
	PLN_FN_NOT_REVIEWED = 0,
	PLN_FN_PURE,				/* computes only */
	PLN_FN_GUARDED				/* reads database state, writes nothing:
								 * under a read guard (guard.c) */
} PlnFnClass;

extern PlnFnClass pln_reviewed_function_class(Oid funcid,
											  const char **review);
extern bool pln_expr_tree_is_guardable(Node *node, PlnFunction *func);
extern bool pln_analysed_tree_is_guardable(Node *node, PlnFunction *func);
extern bool pln_function_is_inlined_concat(Oid funcid);
extern bool pln_plan_expr_is_guardable(Node *node, PlnFunction *func);
extern bool pln_analysed_query_expr_is_guardable(Node *node);
extern bool pln_reviewed_call_needs_no_snapshot(Oid funcid, List *args);
extern bool pln_reviewed_io_conversion(Oid fromtype, Oid totype);
extern char *pln_describe_guarded(Node *node, PlnFunction *func);
extern bool pln_oid_in_list(Oid oid, const Oid *list, int n);
extern bool pln_function_is_on_pure_list(Oid funcid);
extern bool pln_expr_tree_is_pure(Node *node, PlnFunction *func);
extern bool pln_expr_tree_calls_only_pure(Node *node, PlnFunction *func);
extern void pln_expr_analyse_purity(PlnExpr *expr);
extern Oid	pln_pure_output_function(Oid typid);
extern bool pln_assigns_literal_purely(PlnExpr *expr);
extern char *pln_describe_impurity(Node *node, PlnFunction *func);
extern char *pln_format_routine(Oid funcoid);

/* funcs.c */
extern PGDLLEXPORT Datum plnimble_savepoint_stats(PG_FUNCTION_ARGS);

#endif							/* PLN_SAVEPOINT_H */
