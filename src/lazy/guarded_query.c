/*-------------------------------------------------------------------------
 *
 * guarded_query.c
 *	  Guarded read-only queries: "SELECT ... INTO [STRICT] variables FROM
 *	  table ..." in a handler block that has no subtransaction yet, run
 *	  under a read guard (guard.c) instead of the block's subtransaction.
 *
 * Invariant: a query runs here only when every condition of
 * pln_guarded_query_refusal holds for the very plan it runs (the plan
 * cache's generic plan, checked once per generation) and the moment
 * allows it (moment_allows).  Then it reads tables and catalogs and
 * writes nothing: no row lock, no data-modifying CTE, no function that
 * is not on purity.c's reviewed list, no foreign table, no parallel plan,
 * no JIT, no sub-plan, nothing that opens a portal, no other module's
 * executor, planner or permission hook.  An error it raises is caught by
 * the block's catch, which ends the guard first (pln_read_guard_abort);
 * docs/design.md ("Guarded read-only queries") argues why what that
 * releases is everything the query can have left.
 *
 * The query is not run through SPI: SPI's executor start lets the
 * statement's AFTER triggers be queued (AfterTriggerBeginQuery), and an
 * error before its end leaves the trigger query depth one too high, which
 * only a subtransaction's abort puts back.  So the plan is run here with
 * the executor's own calls and EXEC_FLAG_SKIP_TRIGGERS (a SELECT queues
 * no trigger event), with the snapshot SPI would give it.
 *
 * This file holds the conditions, which the run time and the plan view
 * read; running the query is src/exec/exec_guarded_query.c's (it uses the
 * executor's state), and storing the row exec_sql.c's, after the guard is
 * left, as for a query run through SPI.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "tcop/cmdtag.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "plnimble.h"
#include "lazy/pln_guard.h"
#include "lazy/pln_guarded_query.h"

/* ----------
 * The conditions
 * ----------
 */

/* The statement's one plan source, or NULL */
static CachedPlanSource *
only_plansource(PlnExpr *expr)
{
	List	   *plansources;

	if (expr->plan == NULL)
		return NULL;
	plansources = SPI_plan_get_plan_sources(expr->plan);
	if (list_length(plansources) != 1)
		return NULL;
	return (CachedPlanSource *) linitial(plansources);
}

/*
 * May the statement's shape run under a guard, once its plan is known:
 * SELECT ... INTO (STRICT or not) variables, each a scalar variable of a
 * base or enum type that is not an array (storing such a value is a copy:
 * no domain check, no expanded array, no record), one SELECT query?
 * Called once, when the statement has been prepared; reads no catalog.
 */
char
pln_guarded_query_shape(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	PlnExpr    *expr = stmt->sqlstmt;
	CachedPlanSource *plansource = only_plansource(expr);
	PlnRow	   *row;
	Query	   *query;
	int			i;

	if (!stmt->into || stmt->is_call || stmt->simple_into ||
		(stmt->write_path != PLN_WRITE_PATH_NONE &&
		 stmt->write_path != PLN_WRITE_PATH_NEVER) ||
		stmt->target == NULL || stmt->target->dtype != PLN_DTYPE_ROW ||
		expr->parseMode != RAW_PARSE_DEFAULT || plansource == NULL ||
		plansource->commandTag != CMDTAG_SELECT ||
		plansource->is_oneshot ||
		list_length(plansource->query_list) != 1)
		return PLN_GUARDED_QUERY_NEVER;
	query = linitial_node(Query, plansource->query_list);
	if (query->commandType != CMD_SELECT || query->utilityStmt != NULL ||
		query->rowMarks != NIL || query->hasModifyingCTE)
		return PLN_GUARDED_QUERY_NEVER;

	row = (PlnRow *) estate->datums[stmt->target->dno];
	if (row->rowtupdesc != NULL || row->nfields < 1)
		return PLN_GUARDED_QUERY_NEVER;
	for (i = 0; i < row->nfields; i++)
	{
		PlnVar	   *var = (PlnVar *) estate->datums[row->varnos[i]];
		PlnType    *type;

		if (var->dtype != PLN_DTYPE_VAR)
			return PLN_GUARDED_QUERY_NEVER;
		type = var->datatype;
		if ((type->typtype != TYPTYPE_BASE && type->typtype != TYPTYPE_ENUM) ||
			type->typisarray || type->is_composite)
			return PLN_GUARDED_QUERY_NEVER;
	}
	return PLN_GUARDED_QUERY_CANDIDATE;
}

/*
 * Do the query's columns go into the variables without a conversion: as
 * many, each of the variable's type, and of its type modifier where the
 * variable has one?  (Anything else is a cast, which keeps the
 * subtransaction.)
 */
static bool
columns_match_targets(PlnExecState *estate, PlnStmtExecSql *stmt,
					  TupleDesc desc)
{
	PlnRow	   *row = (PlnRow *) estate->datums[stmt->target->dno];
	int			i;

	if (desc == NULL || desc->natts != row->nfields)
		return false;
	for (i = 0; i < row->nfields; i++)
	{
		PlnVar	   *var = (PlnVar *) estate->datums[row->varnos[i]];
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped || att->atttypid != var->datatype->typoid ||
			(var->datatype->atttypmod != -1 &&
			 var->datatype->atttypmod != att->atttypmod))
			return false;
	}
	return true;
}

/* plan_node_refusal's reason for an expression the walk does not accept */
static const char *const expr_not_reviewed =
"an expression that is not reviewed for a read guard";

/* The expressions of a list (a target list or a qual), each guardable? */
static bool
exprs_are_guardable(List *exprs, PlnFunction *func)
{
	ListCell   *lc;

	foreach(lc, exprs)
	{
		Node	   *node = (Node *) lfirst(lc);

		if (IsA(node, TargetEntry))
			node = (Node *) ((TargetEntry *) node)->expr;
		if (!pln_plan_expr_is_guardable(node, func))
			return false;
	}
	return true;
}

/* Is the index a btree one?  (Other access methods are not reviewed.) */
static bool
index_is_btree(Oid indexoid)
{
	HeapTuple	tuple;
	bool		btree;

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(indexoid));
	if (!HeapTupleIsValid(tuple))
		return false;
	btree = ((Form_pg_class) GETSTRUCT(tuple))->relam == BTREE_AM_OID;
	ReleaseSysCache(tuple);
	return btree;
}

/*
 * Do the sort's comparisons call only reviewed functions?  A sort
 * compares with the btree support function of the ordering operator's
 * family; for the built-in operators of the reviewed list that is the
 * built-in comparison of the same type (the fmgr hook refuses any other,
 * see guard_needs_fmgr_hook).
 */
static bool
sort_is_guardable(int ncols, Oid *operators, Oid *collations)
{
	int			i;

	for (i = 0; i < ncols; i++)
	{
		RegProcedure opcode = get_opcode(operators[i]);

		if (!OidIsValid(opcode) ||
			pln_reviewed_function_class(opcode, NULL) == PLN_FN_NOT_REVIEWED ||
			operators[i] >= FirstNormalObjectId ||
			(OidIsValid(collations[i]) &&
			 !pln_collation_needs_no_lookup(collations[i])))
			return false;
	}
	return true;
}

/*
 * Why the plan node (and the nodes below it) may not run under a guard,
 * or NULL.  The node kinds accepted are the scans of a heap table through
 * no index or a btree one, and the nodes that only pass rows on, filter,
 * join them in a nested loop, sort them with reviewed comparisons, or
 * stop after a number of them.  Any other kind (hash, merge and memoize
 * joins, aggregates, function and values scans, CTE scans, gather, ...)
 * calls functions the walk cannot see or is not reviewed.
 */
static const char *
plan_node_refusal(Plan *plan, PlnFunction *func)
{
	ListCell   *lc;
	const char *why;

	check_stack_depth();

	if (plan == NULL)
		return NULL;
	if (plan->initPlan != NIL)
		return "an initplan";
	if (!exprs_are_guardable(plan->targetlist, func) ||
		!exprs_are_guardable(plan->qual, func))
		return expr_not_reviewed;

	switch (nodeTag(plan))
	{
		case T_SeqScan:
		case T_SubqueryScan:
			break;
		case T_Result:
			if (!pln_plan_expr_is_guardable(((Result *) plan)->resconstantqual,
											func))
				return expr_not_reviewed;
			break;
		case T_Limit:
			if (!pln_plan_expr_is_guardable(((Limit *) plan)->limitOffset, func) ||
				!pln_plan_expr_is_guardable(((Limit *) plan)->limitCount, func))
				return expr_not_reviewed;
			break;
		case T_IndexScan:
			{
				IndexScan  *scan = (IndexScan *) plan;

				if (scan->indexorderby != NIL || !index_is_btree(scan->indexid))
					return "an index scan that is not a btree one";
				if (!exprs_are_guardable(scan->indexqual, func) ||
					!exprs_are_guardable(scan->indexqualorig, func))
					return expr_not_reviewed;
				break;
			}
		case T_IndexOnlyScan:
			{
				IndexOnlyScan *scan = (IndexOnlyScan *) plan;

				if (scan->indexorderby != NIL || !index_is_btree(scan->indexid))
					return "an index scan that is not a btree one";
				if (!exprs_are_guardable(scan->indexqual, func) ||
					!exprs_are_guardable(scan->recheckqual, func))
					return expr_not_reviewed;
				break;
			}
		case T_BitmapIndexScan:
			{
				BitmapIndexScan *scan = (BitmapIndexScan *) plan;

				if (!index_is_btree(scan->indexid))
					return "an index scan that is not a btree one";
				if (!exprs_are_guardable(scan->indexqual, func) ||
					!exprs_are_guardable(scan->indexqualorig, func))
					return expr_not_reviewed;
				break;
			}
		case T_BitmapHeapScan:
			if (!exprs_are_guardable(((BitmapHeapScan *) plan)->bitmapqualorig,
									 func))
				return expr_not_reviewed;
			break;
		case T_BitmapAnd:
			foreach(lc, ((BitmapAnd *) plan)->bitmapplans)
				if ((why = plan_node_refusal((Plan *) lfirst(lc), func)) != NULL)
					return why;
			break;
		case T_BitmapOr:
			foreach(lc, ((BitmapOr *) plan)->bitmapplans)
				if ((why = plan_node_refusal((Plan *) lfirst(lc), func)) != NULL)
					return why;
			break;
		case T_Append:
			{
				Append	   *append = (Append *) plan;

				/* (run-time pruning calls the partition key's functions) */
				if (pln_append_prunes_at_run_time(append))
					return "run-time partition pruning";
				foreach(lc, append->appendplans)
					if ((why = plan_node_refusal((Plan *) lfirst(lc), func)) != NULL)
						return why;
				break;
			}
		case T_NestLoop:
			if (!exprs_are_guardable(((Join *) plan)->joinqual, func))
				return expr_not_reviewed;
			break;
		case T_Sort:
			{
				Sort	   *sort = (Sort *) plan;

				if (!sort_is_guardable(sort->numCols, sort->sortOperators,
									   sort->collations))
					return "a sort by a comparison that is not reviewed";
				break;
			}
		default:
			return "a plan node that is not reviewed for a read guard";
	}

	if (IsA(plan, SubqueryScan))
		return plan_node_refusal(((SubqueryScan *) plan)->subplan, func);
	if ((why = plan_node_refusal(plan->lefttree, func)) != NULL)
		return why;
	return plan_node_refusal(plan->righttree, func);
}

/*
 * Why the relations the plan reads may not be read under a guard, or
 * NULL: each a heap table, a materialized view or a partitioned table
 * (whose partitions are in the range table too), or a view (its entry is
 * there for the permission check only: the rewriter replaced the view by
 * its query), without TABLESAMPLE; no foreign table, no function, values
 * list or CTE in the range table.
 */
static const char *
range_table_refusal(List *rtable)
{
	ListCell   *lc;

	foreach(lc, rtable)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		switch (rte->rtekind)
		{
			case RTE_RELATION:
				{
					HeapTuple	tuple;
					Form_pg_class form;
					bool		ok;

					if (rte->tablesample != NULL)
						return "TABLESAMPLE";
					tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
					if (!HeapTupleIsValid(tuple))
						return "a relation that was dropped";
					form = (Form_pg_class) GETSTRUCT(tuple);
					switch (form->relkind)
					{
						case RELKIND_RELATION:
						case RELKIND_MATVIEW:
							ok = form->relam == HEAP_TABLE_AM_OID;
							break;
						case RELKIND_PARTITIONED_TABLE:
						case RELKIND_VIEW:
							ok = true;
							break;
						default:
							ok = false;
							break;
					}
					ReleaseSysCache(tuple);
					if (!ok)
						return "a relation that is not a heap table";
					break;
				}
			case RTE_SUBQUERY:
			case RTE_JOIN:
			case RTE_RESULT:
				break;
			default:
				return "a function, values list or CTE in FROM";
		}
	}
	return NULL;
}

/*
 * Why the plan may not run under a guard, or NULL: one SELECT, no row
 * locks, no data-modifying CTE, no parallel mode, no JIT, no sub-plan,
 * relations that are heap tables, and nodes and expressions that are
 * reviewed.  May read catalogs (under a subtransaction, or the plan view's
 * own).
 */
const char *
pln_guarded_query_plan_refusal(CachedPlan *cplan, PlnFunction *func)
{
	PlannedStmt *pstmt;
	const char *why;

	if (list_length(cplan->stmt_list) != 1)
		return "more than one statement";
	pstmt = linitial_node(PlannedStmt, cplan->stmt_list);
	if (pstmt->commandType != CMD_SELECT || pstmt->utilityStmt != NULL ||
		pstmt->hasReturning)
		return "not a SELECT";
	if (pstmt->rowMarks != NIL)
		return "a locking clause";
	if (pstmt->hasModifyingCTE)
		return "a data-modifying CTE";
	if (pstmt->parallelModeNeeded)
		return "a parallel plan";
	if (pstmt->jitFlags != PGJIT_NONE)
		return "JIT compilation";
	if (pstmt->subplans != NIL)
		return "a sub-plan";
	if ((why = range_table_refusal(pstmt->rtable)) != NULL)
		return why;
	return plan_node_refusal(pstmt->planTree, func);
}

/*
 * Why the statement may not run under a guard with its plan cache's
 * current generic plan, or NULL if it may.  The one decision of the run
 * time (which keeps its answer per generic plan, see
 * pln_guarded_query_note_plan) and the plan view.  May read catalogs.
 */
const char *
pln_guarded_query_refusal(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	CachedPlanSource *plansource;

	if (stmt->guarded_query != PLN_GUARDED_QUERY_CANDIDATE)
		return "not a SELECT INTO scalar variables";
	plansource = only_plansource(stmt->sqlstmt);
	if (plansource == NULL || plansource->gplan == NULL ||
		!plansource->is_valid || !plansource->gplan->is_valid)
		return "no generic plan yet";
	if (!columns_match_targets(estate, stmt, plansource->resultDesc))
		return "a column needs a conversion to its variable's type";
	return pln_guarded_query_plan_refusal(plansource->gplan,
										  estate->func);
}

/*
 * After the statement ran the usual way (under the block's subtransaction,
 * or outside any handler block): if the plan cache now has a generic plan
 * that was not checked yet, check it, for the next run.
 */
void
pln_guarded_query_note_plan(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	CachedPlanSource *plansource = only_plansource(stmt->sqlstmt);
	CachedPlan *gplan;

	if (plansource == NULL || (gplan = plansource->gplan) == NULL ||
		!gplan->is_valid ||
		(gplan == stmt->guarded_plan &&
		 gplan->generation == stmt->guarded_generation))
		return;
	stmt->guarded_plan_ok = (pln_guarded_query_refusal(estate, stmt) == NULL);
	stmt->guarded_plan = gplan;
	stmt->guarded_generation = gplan->generation;
}

/*
 * Would the plan cache run the query with its generic plan next time?
 * The same decision as the plan cache's own (plancache.c, which does not
 * export it) for a saved plan that is given parameters: the settings or
 * cursor options may force it; otherwise the first five plans are custom
 * plans, and after that the generic plan is used when its cost is below
 * the custom plans' average, or not known yet because making it failed.
 */
bool
pln_plan_cache_chooses_generic(CachedPlanSource *plansource)
{
	if (plan_cache_mode == PLAN_CACHE_MODE_FORCE_GENERIC_PLAN)
		return true;
	if (plan_cache_mode == PLAN_CACHE_MODE_FORCE_CUSTOM_PLAN)
		return false;
	if (plansource->cursor_options & CURSOR_OPT_GENERIC_PLAN)
		return true;
	if (plansource->cursor_options & CURSOR_OPT_CUSTOM_PLAN)
		return false;
	if (plansource->num_custom_plans < 5)
		return false;
	return plansource->generic_cost <
		plansource->total_custom_cost / plansource->num_custom_plans;
}

/*
 * May the statement run under a guard now?  Everything that can change
 * between runs and is cheap to see: the checked generic plan is still the
 * plan cache's and will be chosen, nothing hooks the executor, the planner
 * or analysis, the call is atomic, a guard may be entered here, there is
 * an active snapshot (in an atomic call there always is), and STRICT's
 * errors will print no parameters (that runs output functions).  Reads no
 * catalog.  (pln_guarded_query_run, in exec_guarded_query.c, asks it.)
 */
bool
pln_guarded_query_moment_allows(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	CachedPlanSource *plansource = only_plansource(stmt->sqlstmt);
	CachedPlan *gplan;

	/* (as the other guarded steps: an atomic call always has one) */
	if (!estate->portal_snapshot_ensured && ActiveSnapshotSet())
		estate->portal_snapshot_ensured = true;

	if (plansource == NULL || !stmt->guarded_plan_ok ||
		(gplan = plansource->gplan) == NULL ||
		gplan != stmt->guarded_plan ||
		gplan->generation != stmt->guarded_generation ||
		!plansource->is_valid || !gplan->is_valid ||
		!pln_plan_cache_chooses_generic(plansource))
		return false;
	return estate->atomic &&
		!estate->func->print_strict_params &&
		ExecutorStart_hook == NULL && ExecutorRun_hook == NULL &&
		ExecutorFinish_hook == NULL && ExecutorEnd_hook == NULL &&
		ExecutorCheckPerms_hook == NULL &&
		post_parse_analyze_hook == NULL && !pln_other_planner_hook_set() &&
		ActiveSnapshotSet() &&
		pln_read_guard_usable(estate);
}
