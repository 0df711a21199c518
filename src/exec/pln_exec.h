/*-------------------------------------------------------------------------
 *
 * pln_exec.h
 *	  The executor of PL/nimble: the state of a call and the entry points
 *	  of exec*.c, assign.c and raise.c.
 *
 * Per-call state lives in PlnExecState, on the C stack of
 * pln_exec_function; what a call allocates lives in the memory context it
 * started in (datum_context).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_EXEC_H
#define PLN_EXEC_H

#include "commands/trigger.h"
#include "nodes/memnodes.h"
#include "storage/proc.h"
#include "utils/tuplestore.h"
#include "compile/pln_tree.h"

/* ----------
 * Execution state of one call
 * ----------
 */
typedef struct PlnSavepointFrame PlnSavepointFrame;

typedef struct PlnExecState
{
	PlnFunction *func;

	Datum		retval;
	bool		retisnull;
	Oid			rettype;		/* type of retval */
	bool		readonly_func;
	bool		atomic;

	char	   *exitlabel;		/* label being exited by EXIT/CONTINUE */
	ErrorData  *cur_error;		/* error being handled, in a handler */

	int			ndatums;
	PlnDatum  **datums;			/* this call's copies of the datums */
	MemoryContext datum_context;	/* where variable values live */

	ParamListInfo paramLI;		/* gives SQL access to the datums */
	PlnExpr    *cur_expr;		/* expression being prepared or run by SPI */
	PlnExpr    *simple_expr_running;	/* simple expression being evaluated */
	bool		text_append_hit;	/* the expression computed only what
									 * to append (text_append.c) */
	int			recursion_level;	/* calls of this function that were
									 * running when this one started */

	ExprContext *eval_econtext; /* for simple expressions */
	uint64		econtext_xact;	/* pln_transaction_count when created */
	MemoryContext stmt_mcontext;	/* short-lived, reset per statement */

	/* SPI results of the last exec_run_select, freed by exec_eval_cleanup */
	SPITupleTable *eval_tuptable;
	uint64		eval_processed;

	/* the innermost exception block in progress, see savepoint.c */
	PlnSavepointFrame *sp_top;
	bool		materializing;	/* its savepoints are being started (for
								 * the checking build, lazy_check.c) */
	bool		raising_notice; /* RAISE of a level below ERROR running */
	bool		guard_xid_moved;	/* work under a read guard assigned a
									 * transaction ID: no lazy catch of
									 * this call may catch (guard.c) */
	bool		starting_savepoint; /* a frame's subtransaction is being
									 * started: an error now is not the
									 * frame's (nor its inner frames') */

	/* holds plan references of CALL and DO across transaction ends */
	ResourceOwner procedure_resowner;

	/* the trigger call, for transition tables (exec_trigger.c) */
	TriggerData *trigdata;

	/* a set-returning function's result, see exec_setret.c */
	ReturnSetInfo *rsi;
	Tuplestorestate *tuple_store;	/* created at the first row */
	TupleDesc	tuple_store_desc;
	MemoryContext tuple_store_cxt;
	ResourceOwner tuple_store_owner;
	bool		search_path_checked;	/* up to date since the last
										 * impure work? */
	bool		portal_snapshot_ensured;	/* active snapshot known to exist
											 * since the last impure work? */
	bool		spi_connected;	/* has this call connected to SPI? */
	bool		spi_finish;		/* and must it finish SPI at exit? */

	/* error context */
	PlnStmt    *err_stmt;
	const char *err_text;

	/*
	 * The variable being initialised at block entry, whose declaration's
	 * line the CONTEXT lines name instead of the statement's.  As in
	 * PL/pgSQL, a failed initialisation leaves it set (also for CONTEXT
	 * lines of later statements, when the error is caught) until the next
	 * block entered has initialised its variables.
	 */
	PlnVariable *err_var;

	/* consumers of the plugin hook watching this call, or NULL */
	struct PlnPluginCall *plugins;	/* see pln_plugin.h */

	/*
	 * The error a fast call's expression raised, to be raised again by the
	 * RETURN that evaluates it, or NULL (see fast_call.c).
	 */
	ErrorData  *fast_call_error;
} PlnExecState;

/* Result codes of statement execution */
enum
{
	PLN_RC_OK,
	PLN_RC_EXIT,
	PLN_RC_RETURN,
	PLN_RC_CONTINUE,

	/*
	 * The write path's INSERT, the last statement of a handler block's
	 * body, found a duplicate that goes to the block's handler without the
	 * error being raised (pln_write_path_run): exec_stmts returns it to
	 * the block, which runs the handler (savepoint.c).  No other statement
	 * list sees it.
	 */
	PLN_RC_HANDED_TO_HANDLER
};

/* ----------
 * Executor (exec.c and friends)
 * ----------
 */
extern Datum pln_exec_function(PlnFunction *func, FunctionCallInfo fcinfo,
							   bool atomic, bool spi_connected,
							   ResourceOwner procedure_resowner);
extern Datum pln_exec_function_replaying(PlnFunction *func,
										 FunctionCallInfo fcinfo,
										 ErrorData *fast_call_error);


/* the CONTEXT callback of a running call (its arg is the call's state) */
extern void exec_error_callback(void *arg);
extern void pln_init_analysis_state(PlnExecState *estate, PlnFunction *func);

/* exec.c: statements */
extern void pln_exec_init(void);
extern int	exec_stmts(PlnExecState *estate, List *stmts);
extern PlnVar *pln_case_search_var(PlnExecState *estate, PlnStmtCase *stmt,
								   Oid valtype, int32 valtypmod);
extern void exec_eval_cleanup_slowly(PlnExecState *estate);
extern MemoryContext get_stmt_mcontext(PlnExecState *estate);

/*
 * Has the memory context nothing to free?  Resetting one that has neither
 * allocations of its own nor children does nothing, and is frequent.
 */
static inline bool
pln_context_is_clean(MemoryContext context)
{
	return context->isReset && context->firstchild == NULL;
}

/*
 * Release what the last expression evaluation left behind: the SPI result
 * of a query and the expression context's per-tuple memory.  Most
 * statements leave neither (a by-value result, no query): that case stays
 * inline.
 */
static inline void
exec_eval_cleanup(PlnExecState *estate)
{
	if (estate->eval_tuptable == NULL &&
		(estate->eval_econtext == NULL ||
		 pln_context_is_clean(estate->eval_econtext->ecxt_per_tuple_memory)))
		return;
	exec_eval_cleanup_slowly(estate);
}

/* exec_expr.c: expressions */
/*
 * The cursor options an expression is first planned with, as PL/pgSQL's:
 * what it assigns (an assignment's source, a variable's default) without
 * parallel query, everything else evaluated as an expression with it
 * allowed.  (An assignment's query could otherwise get a Gather, and run
 * its functions in parallel workers, where PL/pgSQL runs them in the
 * backend.)
 */
static inline int
pln_expr_cursor_options(PlnExpr *expr)
{
	return expr->assigned ? 0 : CURSOR_OPT_PARALLEL_OK;
}

extern void exec_prepare_plan(PlnExecState *estate, PlnExpr *expr,
							  int cursorOptions);
extern void exec_prepare_plan_first(PlnExecState *estate, PlnExpr *expr);
extern void pln_discard_failed_plan(PlnExpr *expr);
extern bool pln_check_plan_before_block(PlnExpr *expr);
extern bool pln_simple_plan_is_current(PlnExpr *expr);

/*
 * An evaluation of the simple expression failed, and the error was caught
 * in this call (by a handler block, savepoint.c, or by the fast entry,
 * fast_call.c).  PL/pgSQL would leave the expression marked as busy and
 * send it through SPI for the rest of the transaction; see
 * run_simple_expr_as_spi.  Only a pure state is sure to hold nothing
 * between evaluations; any other may be left half way through what the
 * error interrupted, so it is built afresh at its next use.
 */
static inline void
pln_simple_expr_failed(PlnExpr *expr)
{
	expr->simple_in_use = false;
	expr->simple_failed_lxid = PLN_MY_LXID;
	if (expr->purity != PLN_PURITY_PURE)
		expr->simple_state_lxid = InvalidLocalTransactionId;
}
/*
 * A call the fast entry handed over (fast_call.c) failed, or its block
 * caught an error, before its RETURN raised the handed-over error again
 * (raise_fast_call_error): in PL/pgSQL's order of things the expression
 * was never evaluated, so the mark that was to send the RETURN there is
 * taken back.  (The gate let the call in only with the expression not
 * failed in this transaction, so no mark of an earlier failure is lost.)
 */
static inline void
pln_fast_handover_dropped(PlnExpr *expr)
{
	Assert(expr->fast_error_pending);
	expr->fast_error_pending = false;
	expr->simple_failed_lxid = InvalidLocalTransactionId;
}

extern bool pln_custom_plan_would_show(PlnExpr *expr);
extern void exec_check_into_rows(PlnExecState *estate, PlnStmtExecSql *stmt,
								 bool check_too_many, uint64 nrows);
extern bool exec_eval_simple_expr(PlnExecState *estate, PlnExpr *expr,
								  Datum *result, bool *isNull,
								  Oid *rettype, int32 *rettypmod);
extern Datum exec_eval_expr_general(PlnExecState *estate, PlnExpr *expr,
									bool *isNull, Oid *rettype,
									int32 *rettypmod);

/*
 * Evaluate an expression to a single value.  The result is valid until the
 * next exec_eval_cleanup.  Inline, so that the common case, a simple
 * expression planned without trouble, costs one call.
 */
static inline Datum
exec_eval_expr(PlnExecState *estate, PlnExpr *expr,
			   bool *isNull, Oid *rettype, int32 *rettypmod)
{
	Datum		result;

	if (likely(expr->simple_expr != NULL && expr->plan_error == NULL) &&
		exec_eval_simple_expr(estate, expr, &result, isNull,
							  rettype, rettypmod))
		return result;
	return exec_eval_expr_general(estate, expr, isNull, rettype, rettypmod);
}
extern bool exec_eval_boolean(PlnExecState *estate, PlnExpr *expr,
							  bool *isNull);
extern int	exec_eval_integer(PlnExecState *estate, PlnExpr *expr,
							  bool *isNull);
extern void pln_setup_param_list(PlnExecState *estate);
extern void pln_create_econtext(PlnExecState *estate);
extern void pln_renew_econtext_if_needed(PlnExecState *estate);
extern uint64 pln_transaction_count;
extern void pln_destroy_econtext(PlnExecState *estate);
extern void pln_xact_cb(XactEvent event, void *arg);
extern void pln_subxact_cb(SubXactEvent event, SubTransactionId mySubid,
						   SubTransactionId parentSubid, void *arg);
extern int	exec_run_select(PlnExecState *estate, PlnExpr *expr,
							long maxtuples, Portal *portalP);
extern MemoryContext pln_transaction_eval_context(void);

/*
 * Did SPI (by its result code) run a SELECT or a statement that changes
 * rows, with or without RETURNING?
 */
static inline bool
pln_spi_ran_query(int rc)
{
	switch (rc)
	{
		case SPI_OK_SELECT:
		case SPI_OK_INSERT:
		case SPI_OK_UPDATE:
		case SPI_OK_DELETE:
		case SPI_OK_MERGE:
		case SPI_OK_INSERT_RETURNING:
		case SPI_OK_UPDATE_RETURNING:
		case SPI_OK_DELETE_RETURNING:
			return true;
		default:
			return false;
	}
}

/* exec_sql.c: SQL statements */
extern int	exec_stmt_execsql(PlnExecState *estate, PlnStmtExecSql *stmt);
extern int	exec_stmt_perform(PlnExecState *estate, PlnStmtPerform *stmt);
extern int	exec_stmt_fors(PlnExecState *estate, PlnStmtForS *stmt);
extern int	exec_stmt_commit(PlnExecState *estate, PlnStmtCommit *stmt);
extern int	exec_for_query_loop(PlnExecState *estate, Portal portal,
								PlnVariable *target, List *body,
								const char *label, bool prefetch);
extern void exec_set_found(PlnExecState *estate, bool state);

/* exec_dynamic.c: EXECUTE, FOR ... IN EXECUTE, GET DIAGNOSTICS */
extern int	exec_stmt_dynexecute(PlnExecState *estate, PlnStmtDynExecute *stmt);
extern int	exec_stmt_dynfors(PlnExecState *estate, PlnStmtDynForS *stmt);
extern int	exec_stmt_getdiag(PlnExecState *estate, PlnStmtGetDiag *stmt);
extern char *format_param_values(PlnExecState *estate, ParamListInfo params);
extern void exec_check_dynamic_into_rows(PlnExecState *estate, bool strict,
										 uint64 nrows, ParamListInfo params);
extern char *eval_dynamic_query(PlnExecState *estate, PlnExpr *query);
extern ParamListInfo eval_using_params(PlnExecState *estate, List *params);
extern Portal pln_open_dynamic_portal(PlnExecState *estate, PlnExpr *query,
									  List *params, const char *curname,
									  int cursor_options);

/* exec_setret.c: RETURN NEXT, RETURN QUERY, the result of a set function */
extern int	exec_stmt_return_next(PlnExecState *estate, PlnStmtReturnNext *stmt);
extern int	exec_stmt_return_query(PlnExecState *estate, PlnStmtReturnQuery *stmt);
extern void pln_setret_begin(PlnExecState *estate, FunctionCallInfo fcinfo);
extern void pln_setret_finish(PlnExecState *estate, FunctionCallInfo fcinfo);
extern HeapTuple pln_row_to_tuple(PlnExecState *estate, PlnRow *row,
								  TupleDesc tupdesc);

/* exec_cursor.c: OPEN, FETCH, MOVE, CLOSE, FOR over a cursor */
extern int	exec_stmt_open(PlnExecState *estate, PlnStmtOpen *stmt);
extern int	exec_stmt_fetch(PlnExecState *estate, PlnStmtFetch *stmt);
extern int	exec_stmt_close(PlnExecState *estate, PlnStmtClose *stmt);
extern int	exec_stmt_forc(PlnExecState *estate, PlnStmtForC *stmt);
extern int	exec_loop_body_rc_slow(PlnExecState *estate, int rc,
								   const char *label, bool *exit_loop);

/*
 * What a loop does with its body's result code.  Sets *exit_loop when the
 * loop must stop, and returns the code the loop statement should return
 * in that case.  The usual case, a body that ran to its end, is inline.
 */
static inline int
exec_loop_body_rc(PlnExecState *estate, int rc, const char *label,
				  bool *exit_loop)
{
	if (likely(rc == PLN_RC_OK))
	{
		*exit_loop = false;
		return PLN_RC_OK;
	}
	return exec_loop_body_rc_slow(estate, rc, label, exit_loop);
}

/*
 * What a block does with its body's result code: an EXIT that names the
 * block's label ends there.  An unlabelled EXIT always leaves the
 * innermost loop, passing through any blocks in between.
 */
static inline int
exec_block_exit_rc(PlnExecState *estate, PlnStmtBlock *block, int rc)
{
	if (unlikely(rc == PLN_RC_EXIT) && estate->exitlabel != NULL &&
		block->label != NULL && strcmp(block->label, estate->exitlabel) == 0)
	{
		estate->exitlabel = NULL;
		return PLN_RC_OK;
	}
	return rc;
}

/* assign.c: storing values into datums */
extern void exec_assign_value(PlnExecState *estate, PlnDatum *target,
							  Datum value, bool isNull,
							  Oid valtype, int32 valtypmod);
extern void exec_assign_expr(PlnExecState *estate, PlnDatum *target,
							 PlnExpr *expr);
extern void exec_assign_c_string(PlnExecState *estate, PlnDatum *target,
								 const char *str);
extern void exec_move_row(PlnExecState *estate, PlnVariable *target,
						  HeapTuple tup, TupleDesc tupdesc);
extern void pln_exec_datum_value(PlnExecState *estate, PlnDatum *datum,
								 Oid *typeid, int32 *typetypmod,
								 Datum *value, bool *isnull);
extern Oid	pln_exec_get_datum_type(PlnExecState *estate, PlnDatum *datum);
extern void pln_exec_get_datum_type_info(PlnExecState *estate,
										 PlnDatum *datum, Oid *typeId,
										 int32 *typMod, Oid *collation);
extern Datum exec_cast_value_slow(PlnExecState *estate, Datum value,
								  bool *isnull,
								  Oid valtype, int32 valtypmod,
								  Oid reqtype, int32 reqtypmod);
extern bool pln_cast_is_pure(PlnExecState *estate,
							 Oid srctype, int32 srctypmod,
							 Oid dsttype, int32 dsttypmod);

/*
 * Convert a value of (valtype, valtypmod) to (reqtype, reqtypmod).  Most
 * values already have the wanted type; only the others take the call.
 */
static inline Datum
exec_cast_value(PlnExecState *estate, Datum value, bool *isnull,
				Oid valtype, int32 valtypmod,
				Oid reqtype, int32 reqtypmod)
{
	if (likely(valtype == reqtype &&
			   (valtypmod == reqtypmod || reqtypmod == -1)))
		return value;
	return exec_cast_value_slow(estate, value, isnull, valtype, valtypmod,
								reqtype, reqtypmod);
}
extern void pln_free_var_value(PlnVar *var);
extern Datum pln_detoast_for_variable(Datum value);

/*
 * Replace a scalar variable's value.  freeable says whether newvalue is a
 * copy the variable now owns.  (Inline: loops assign all the time.)
 */
static inline void
assign_simple_var(PlnExecState *estate, PlnVar *var,
				  Datum newvalue, bool isnull, bool freeable)
{
	if (unlikely(var->freeval))
		pln_free_var_value(var);
	var->value = newvalue;
	var->isnull = isnull;
	var->freeval = freeable;
}
extern void assign_text_var(PlnExecState *estate, PlnVar *var,
							const char *str);
extern void exec_init_datum(PlnExecState *estate, PlnDatum *datum);
extern void pln_rec_set_null(PlnExecState *estate, PlnRec *rec);
extern void pln_rec_assign_null(PlnExecState *estate, PlnRec *rec);
extern void pln_check_assignable(PlnExecState *estate, int dno);
extern TupleDesc pln_composite_as_tuple(Datum value, HeapTupleData *tuple);
extern void pln_rec_set_empty(PlnExecState *estate, PlnRec *rec,
							  TupleDesc tupdesc);
extern void pln_rec_set_empty_like(PlnExecState *estate, PlnRec *rec,
								   PlnRec *model);
extern void pln_rec_set_tuple(PlnExecState *estate, PlnRec *rec,
							  HeapTuple tup, TupleDesc tupdesc);
extern char *convert_value_to_string(PlnExecState *estate, Datum value,
									 Oid valtype);

/* text_append.c: text variables that grow in place */
extern void pln_choose_text_append(PlnExpr *expr, PlnVar *var);
extern bool pln_text_append_would_apply(Node *value, PlnVar *var);
extern void pln_param_eval_append_slot(ExprState *state,
									   struct ExprEvalStep *op,
									   ExprContext *econtext);
extern void pln_text_append_store(PlnExecState *estate, PlnVar *var,
								  PlnExpr *expr, Datum tail, bool tailnull);

/* raise.c */
extern int	exec_stmt_raise(PlnExecState *estate, PlnStmtRaise *stmt);
extern int	exec_stmt_assert(PlnExecState *estate, PlnStmtAssert *stmt);

/* exec_trigger.c */
extern void pln_trigger_setup(PlnExecState *estate, FunctionCallInfo fcinfo);
extern Datum pln_trigger_result(PlnExecState *estate, FunctionCallInfo fcinfo);

/* snapshots.c */
extern bool pln_expr_needs_snapshot(Node *node);

#endif							/* PLN_EXEC_H */
