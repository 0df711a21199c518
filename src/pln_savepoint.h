/*-------------------------------------------------------------------------
 *
 * pln_savepoint.h
 *	  Lazy savepoints: exception blocks whose subtransaction starts only
 *	  when impure work comes (savepoint.c), the purity analysis that decides
 *	  (purity.c) and the views of both (explain.c, funcs.c).
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

#include "pln_exec.h"

/* An exception block in progress, innermost first from estate->sp_top */
struct PlnSavepointFrame
{
	PlnSavepointFrame *outer;	/* enclosing handler block of this call */
	PlnStmtBlock *block;
	bool		materialized;	/* has its subtransaction been started? */

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
extern int	exec_stmt_block_with_handlers(PlnExecState *estate,
										  PlnStmtBlock *block);

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
extern bool pln_error_context_unseen(PlnExecState *estate, int sqlerrcode);

/*
 * Statements that may start running inside a handler block that has no
 * subtransaction yet.  They only compute; whatever impure work their
 * expressions, casts or targets need starts the savepoint on the way
 * (pln_need_savepoint).  Every other statement (SQL, and anything added
 * later) starts it before running.
 */
static inline bool
pln_stmt_may_run_lazily(PlnStmt *stmt)
{
	switch (stmt->cmd_type)
	{
		case PLN_STMT_BLOCK:
		case PLN_STMT_ASSIGN:
		case PLN_STMT_IF:
		case PLN_STMT_CASE:
		case PLN_STMT_LOOP:
		case PLN_STMT_WHILE:
		case PLN_STMT_FORI:
		case PLN_STMT_EXIT:
		case PLN_STMT_RETURN:
		case PLN_STMT_RAISE:
		case PLN_STMT_ASSERT:
			return true;
		default:
			return false;
	}
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
 * For evaluating a simple expression, which needs no SPI connection (a
 * call that only evaluates expressions never makes one): the savepoint
 * part of pln_need_savepoint_to_read and pln_need_savepoint.  A
 * savepoint is never started without SPI connected first
 * (materialize_frame sees to it), and the one use of SPI while
 * evaluating, planning again, calls pln_ensure_spi.
 */
static inline void
pln_expr_need_savepoint_to_read(PlnExecState *estate)
{
	/* impure work may change the search path (see savepoint.c) */
	estate->search_path_checked = false;
	if (unlikely(pln_in_lazy_region(estate)))
		pln_materialize_savepoints(estate);
}

static inline void
pln_expr_need_savepoint(PlnExecState *estate)
{
	pln_expr_need_savepoint_to_read(estate);
	/* impure work may invalidate plans (see exec_expr.c) */
	pln_validity_epoch++;
}

static inline void
pln_ensure_spi(PlnExecState *estate)
{
	if (unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
}

/*
 * The savepoint half of pln_need_savepoint, for work that is impure only
 * because it may read the database, and runs no code that could change
 * settings or catalogs (an expression of pure-list functions over
 * records: see pln_expr_tree_calls_only_pure).
 */
static inline void
pln_need_savepoint_to_read(PlnExecState *estate)
{
	/* SPI is connected before any impure work, outside our savepoints */
	if (unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
	pln_expr_need_savepoint_to_read(estate);
}

/*
 * Call before doing anything that is not known to be pure, inside a
 * handler block or not: it connects to SPI if the call has not yet (every
 * use of SPI is impure), and starts the subtransactions of all enclosing
 * handler blocks that do not have one.
 */
static inline void
pln_need_savepoint(PlnExecState *estate)
{
	pln_need_savepoint_to_read(estate);
	/* impure work may invalidate plans (see exec_expr.c) */
	pln_validity_epoch++;
}

/* session counters (savepoint.c) */
typedef struct PlnSavepointStats
{
	uint64		blocks_entered;
	uint64		savepoints_materialized;
	uint64		errors_caught_lazy;
	uint64		errors_caught_subxact;
} PlnSavepointStats;

extern PlnSavepointStats pln_stats;

/* purity.c */
extern bool pln_oid_in_list(Oid oid, const Oid *list, int n);
extern bool pln_expr_tree_is_pure(Node *node, PlnFunction *func);
extern bool pln_expr_tree_calls_only_pure(Node *node, PlnFunction *func);
extern void pln_expr_analyse_purity(PlnExpr *expr);
extern Oid	pln_pure_output_function(Oid typid);
extern char *pln_describe_impurity(Node *node, PlnFunction *func);

/* explain.c */
extern PGDLLEXPORT Datum plnimble_savepoint_plan(PG_FUNCTION_ARGS);

/* funcs.c */
extern PGDLLEXPORT Datum plnimble_savepoint_stats(PG_FUNCTION_ARGS);

#endif							/* PLN_SAVEPOINT_H */
