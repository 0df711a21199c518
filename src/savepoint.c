/*-------------------------------------------------------------------------
 *
 * savepoint.c
 *	  Blocks with an EXCEPTION clause: the subtransaction that lets a
 *	  handler see the database as it was when the block was entered.
 *
 * Invariant: while a block's body runs, a subtransaction started on entry
 * to the block is open, and nothing else started inside the block is;
 * when the body ends normally the subtransaction is released, and when an
 * error escapes the body it is rolled back before any handler runs.  The
 * call's state (memory context, resource owner, expression context) is
 * restored to what it was on entry in both cases.
 *
 * All savepoint handling is in this file so that the lazy variant (start
 * the subtransaction only when the block first needs it) can replace the
 * eager one without touching the rest of the executor.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "plnimble.h"

/* this session's counters, see funcs.c */
PlnSavepointStats pln_stats;

/*
 * Does the error match one of the WHEN conditions?  OTHERS matches all but
 * query cancel and assertion failure, which must be named to be caught.
 */
static bool
exception_matches_conditions(ErrorData *edata, PlnCondition *cond)
{
	for (; cond != NULL; cond = cond->next)
	{
		int			sqlerrstate = cond->sqlerrstate;

		if (sqlerrstate == 0)
		{
			if (edata->sqlerrcode != ERRCODE_QUERY_CANCELED &&
				edata->sqlerrcode != ERRCODE_ASSERT_FAILURE)
				return true;
		}
		else if (edata->sqlerrcode == sqlerrstate)
			return true;
		else if (ERRCODE_IS_CATEGORY(sqlerrstate) &&
				 ERRCODE_TO_CATEGORY(edata->sqlerrcode) == sqlerrstate)
			return true;
	}
	return false;
}

/*
 * Run the handler that matches the caught error, with SQLSTATE and
 * SQLERRM set and the error available to bare RAISE.  Re-throws the error
 * if no handler matches.
 */
static int
run_matching_handler(PlnExecState *estate, PlnStmtBlock *block,
					 ErrorData *edata)
{
	ErrorData  *save_cur_error = estate->cur_error;
	ListCell   *e;
	int			rc = PLN_RC_OK;

	foreach(e, block->exceptions->actions)
	{
		PlnExceptionAction *action = (PlnExceptionAction *) lfirst(e);

		if (exception_matches_conditions(edata, action->conditions))
		{
			PlnVar	   *state_var;
			PlnVar	   *errm_var;

			state_var = (PlnVar *)
				estate->datums[block->exceptions->sqlstate_varno];
			errm_var = (PlnVar *)
				estate->datums[block->exceptions->sqlerrm_varno];

			assign_text_var(estate, state_var,
							unpack_sql_state(edata->sqlerrcode));
			assign_text_var(estate, errm_var, edata->message);

			estate->cur_error = edata;
			estate->err_text = NULL;

			rc = exec_stmts(estate, action->action);

			estate->cur_error = save_cur_error;
			FreeErrorData(edata);
			return rc;
		}
	}

	/* no handler: the error goes on up */
	estate->cur_error = save_cur_error;
	ReThrowError(edata);
	return PLN_RC_OK;			/* keep compiler quiet */
}

/*
 * Run a block that has an EXCEPTION clause.  Its variables have already
 * been initialised (outside the subtransaction, so errors there are not
 * caught by the block's own handlers).
 */
int
exec_stmt_block_with_handlers(PlnExecState *estate, PlnStmtBlock *block)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	ExprContext *old_eval_econtext = estate->eval_econtext;
	PlnStmt    *save_err_stmt = estate->err_stmt;
	volatile int rc = PLN_RC_OK;
	ErrorData  *edata = NULL;

	pln_stats.blocks_entered++;

	estate->err_text = "during statement block entry";
	BeginInternalSubTransaction(NULL);
	pln_stats.savepoints_materialized++;
	/* run the block in the function's own memory context */
	MemoryContextSwitchTo(oldcontext);

	PG_TRY();
	{
		/*
		 * Expressions get a context of their own inside the
		 * subtransaction, so that its end takes care of them.
		 */
		pln_create_econtext(estate);
		estate->err_text = NULL;

		rc = exec_stmts(estate, block->body);

		estate->err_text = "during statement block exit";

		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;

		/* the inner expression context went with the subtransaction */
		estate->eval_econtext = old_eval_econtext;
		estate->err_text = NULL;
	}
	PG_CATCH();
	{
		estate->err_text = "during exception cleanup";

		/* keep the error data in memory that survives the rollback */
		MemoryContextSwitchTo(estate->datum_context);
		edata = CopyErrorData();
		FlushErrorState();

		/* undo everything the block did in the database */
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;

		estate->eval_econtext = old_eval_econtext;
		/* the SPI result of a failed query went with the rollback */
		estate->eval_tuptable = NULL;
		exec_eval_cleanup(estate);

		/*
		 * A simple expression that failed is no longer being evaluated;
		 * it may be used again in this transaction.
		 */
		if (estate->simple_expr_running)
		{
			estate->simple_expr_running->simple_in_use = false;
			estate->simple_expr_running = NULL;
		}
		estate->err_stmt = save_err_stmt;
		pln_stats.errors_caught_subxact++;
	}
	PG_END_TRY();

	if (edata != NULL)
		rc = run_matching_handler(estate, block, edata);

	return rc;
}
