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
#include "catalog/objectaccess.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/plancat.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "rewrite/rowsecurity.h"
#include "tcop/cmdtag.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
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
 * Is the INTO target a list of scalar variables, each of a base or enum
 * type that is not an array (storing such a value is a copy: no domain
 * check, no expanded array, no record)?  Reads no catalog.
 */
static bool
row_target_is_scalar(PlnExecState *estate, PlnVariable *target)
{
	PlnRow	   *row;
	int			i;

	if (target == NULL || target->dtype != PLN_DTYPE_ROW)
		return false;
	row = (PlnRow *) estate->datums[target->dno];
	if (row->rowtupdesc != NULL || row->nfields < 1)
		return false;
	for (i = 0; i < row->nfields; i++)
	{
		PlnVar	   *var = (PlnVar *) estate->datums[row->varnos[i]];
		PlnType    *type;

		if (var->dtype != PLN_DTYPE_VAR)
			return false;
		type = var->datatype;
		if ((type->typtype != TYPTYPE_BASE && type->typtype != TYPTYPE_ENUM) ||
			type->typisarray || type->is_composite)
			return false;
	}
	return true;
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
	Query	   *query;

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
	return row_target_is_scalar(estate, stmt->target) ?
		PLN_GUARDED_QUERY_CANDIDATE : PLN_GUARDED_QUERY_NEVER;
}

/*
 * Do the query's columns go into the variables without a conversion: as
 * many, each of the variable's type, and of its type modifier where the
 * variable has one?  (Anything else is a cast, which keeps the
 * subtransaction.)
 */
static bool
columns_match_targets(PlnExecState *estate, PlnVariable *target,
					  TupleDesc desc)
{
	PlnRow	   *row = (PlnRow *) estate->datums[target->dno];
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
 * Why the relation of a range table entry may not be read under a guard,
 * or NULL: a heap table or materialized view, a view (its entry is there
 * for the permission check only: the rewriter replaced the view by its
 * query), or, in a plan, a partitioned table (whose partitions are in the
 * range table too); no TABLESAMPLE.
 *
 * Before planning (a dynamic command's analysed query) also no
 * partitioned table and no table with inheritance children: planning
 * would reach code that is not reviewed (the partitions or children may
 * be foreign tables, whose wrapper is asked for sizes and paths, and
 * partition pruning calls the key's support functions).  Planning a heap
 * table opens it, its indexes and their expressions and reads its
 * statistics and size: catalog and buffer reads, and locks on the
 * indexes, all the guard's.
 */
static const char *
relation_refusal(RangeTblEntry *rte, bool before_planning)
{
	HeapTuple	tuple;
	Form_pg_class form;
	const char *why = NULL;

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
			if (form->relam != HEAP_TABLE_AM_OID)
				why = "a relation that is not a heap table";
			else if (before_planning && rte->inh && form->relhassubclass)
				why = "a table with inheritance children";
			break;
		case RELKIND_PARTITIONED_TABLE:
			if (before_planning)
				why = "a partitioned table";
			break;
		case RELKIND_VIEW:
			break;
		default:
			why = "a relation that is not a heap table";
			break;
	}
	ReleaseSysCache(tuple);
	return why;
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
					const char *why = relation_refusal(rte, false);

					if (why != NULL)
						return why;
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
	if (list_length(cplan->stmt_list) != 1)
		return "more than one statement";
	return pln_guarded_stmt_refusal(linitial_node(PlannedStmt, cplan->stmt_list),
									func);
}

/*
 * pln_guarded_query_plan_refusal's conditions for one planned statement
 * (also those of a dynamic command's fresh plan, with func NULL: a
 * dynamic command reads no PL variable).
 */
const char *
pln_guarded_stmt_refusal(PlannedStmt *pstmt, PlnFunction *func)
{
	const char *why;

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
	if (!columns_match_targets(estate, stmt->target, plansource->resultDesc))
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
 * Is a hook of another module set that running a query under a guard
 * would call: the executor's, its permission check's, analysis's (a plan
 * cache revalidation analyses again), the planner's?  Their code is not
 * reviewed.
 */
static bool
query_hook_set(void)
{
	return ExecutorStart_hook != NULL || ExecutorRun_hook != NULL ||
		ExecutorFinish_hook != NULL || ExecutorEnd_hook != NULL ||
		ExecutorCheckPerms_hook != NULL ||
		post_parse_analyze_hook != NULL || pln_other_planner_hook_set();
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
		!query_hook_set() &&
		ActiveSnapshotSet() &&
		pln_read_guard_usable(estate);
}

/* ----------
 * Guarded dynamic commands: EXECUTE '...' INTO variables
 *
 * PL/pgSQL parses, analyses and plans the command afresh each time it
 * runs (SPI_execute_extended, a one-shot plan), all of it under the
 * block's subtransaction.  Here the same steps run under a read guard
 * (exec_guarded_query.c, pln_guarded_dynamic_run), each judged by the
 * condition below before the next one starts: the raw parse tree before
 * analysis, the analysed query before planning, the plan before it runs.
 * A refusal undoes what the guard did as after an error (the locks that
 * analysis took are released) and the command runs again the usual way,
 * under the subtransaction, from its text: as if the guard had never
 * been tried.  An error of any step (an unknown table, a syntax error) is
 * the command's own, the one PL/pgSQL raises at the same step, and goes
 * to the block's catch, which ends the guard first.
 * ----------
 */

/*
 * May the statement's shape run its command under a guard: INTO scalar
 * variables (the grammar has already refused USING, and records)?
 */
char
pln_guarded_dynamic_shape(PlnExecState *estate, PlnStmtDynExecute *stmt)
{
	if (stmt->guarded_shape == PLN_GUARDED_QUERY_NEVER)
		return PLN_GUARDED_QUERY_NEVER;
	return row_target_is_scalar(estate, stmt->target) ?
		PLN_GUARDED_QUERY_CANDIDATE : PLN_GUARDED_QUERY_NEVER;
}

/*
 * May a dynamic command be tried under a guard now?  As for a static
 * query (pln_guarded_query_moment_allows): an atomic call, no other
 * module's executor, planner, analysis or permission hook, an active
 * snapshot, a guard that may be entered.  Also: none of the hooks that
 * planning a query over tables, the rewriter's row security or name
 * lookup call (object access), and no transition tables of a trigger
 * (PL/pgSQL's SPI would resolve their names; the guarded analysis has no
 * query environment).  Reads no catalog.
 */
bool
pln_guarded_dynamic_moment_allows(PlnExecState *estate)
{
	if (!estate->portal_snapshot_ensured && ActiveSnapshotSet())
		estate->portal_snapshot_ensured = true;

	if (estate->trigdata != NULL &&
		(estate->trigdata->tg_oldtable != NULL ||
		 estate->trigdata->tg_newtable != NULL))
		return false;
	return estate->atomic &&
		!query_hook_set() &&
		!pln_planning_hook_set() &&
		row_security_policy_hook_permissive == NULL &&
		row_security_policy_hook_restrictive == NULL &&
		object_access_hook == NULL && object_access_hook_str == NULL &&
		ActiveSnapshotSet() &&
		pln_read_guard_usable(estate);
}

/*
 * Why the raw parse tree of the command may not be analysed under a
 * guard, or NULL: it must be one SELECT without INTO (which creates a
 * table) and without a locking clause.  Raw parsing reads nothing.
 */
const char *
pln_guarded_dynamic_raw_refusal(List *raw_parsetree_list)
{
	RawStmt    *raw;
	SelectStmt *select;

	if (list_length(raw_parsetree_list) != 1)
		return "not one command";
	raw = linitial_node(RawStmt, raw_parsetree_list);
	if (!IsA(raw->stmt, SelectStmt))
		return "not a SELECT";
	select = (SelectStmt *) raw->stmt;
	if (select->intoClause != NULL)
		return "SELECT INTO a table";
	if (select->lockingClause != NIL)
		return "a locking clause";
	return NULL;
}

/* The expressions of a list (a target list or quals) of an analysed query */
static bool
analysed_exprs_are_guardable(List *exprs)
{
	ListCell   *lc;

	foreach(lc, exprs)
	{
		Node	   *node = (Node *) lfirst(lc);

		if (IsA(node, TargetEntry))
			node = (Node *) ((TargetEntry *) node)->expr;
		if (!pln_analysed_query_expr_is_guardable(node))
			return false;
	}
	return true;
}

/* The quals of a query's join tree, each guardable? */
static bool
jointree_is_guardable(Node *node)
{
	ListCell   *lc;

	if (node == NULL || IsA(node, RangeTblRef))
		return true;
	if (IsA(node, FromExpr))
	{
		FromExpr   *from = (FromExpr *) node;

		foreach(lc, from->fromlist)
			if (!jointree_is_guardable((Node *) lfirst(lc)))
				return false;
		return pln_analysed_query_expr_is_guardable(from->quals);
	}
	if (IsA(node, JoinExpr))
	{
		JoinExpr   *join = (JoinExpr *) node;

		return jointree_is_guardable(join->larg) &&
			jointree_is_guardable(join->rarg) &&
			pln_analysed_query_expr_is_guardable(join->quals);
	}
	return false;
}

/*
 * Why the analysed (and rewritten) query may not be planned under a
 * guard, or NULL.  The planner folds constant calls and estimates with
 * the functions and operators the query names: each must be on purity.c's
 * list (class PURE or GUARDED), as the planned tree's nodes must be
 * afterwards.  Sub-selects, aggregates, grouping, DISTINCT, set
 * operations, window and set-returning functions, WITH and LATERAL are
 * not reviewed (their plan nodes are not either).  Views are accepted:
 * the rewriter has replaced them by their queries, which are judged as
 * sub-queries, and so are a table's row security quals.
 */
static const char *
analysed_query_refusal(Query *query)
{
	ListCell   *lc;
	const char *why;

	check_stack_depth();

	if (query->commandType != CMD_SELECT || query->utilityStmt != NULL)
		return "not a SELECT";
	if (query->rowMarks != NIL)
		return "a locking clause";
	if (query->cteList != NIL || query->hasModifyingCTE || query->hasRecursive)
		return "a WITH query";
	if (query->hasSubLinks)
		return "a sub-select";
	if (query->hasAggs || query->groupClause != NIL ||
		query->groupingSets != NIL || query->havingQual != NULL ||
		query->hasWindowFuncs || query->hasTargetSRFs ||
		query->distinctClause != NIL || query->setOperations != NULL)
		return "aggregates, grouping, DISTINCT, a set operation, window or set-returning functions";

	foreach(lc, query->rtable)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		if (rte->lateral)
			return "LATERAL";
		if (!analysed_exprs_are_guardable(rte->securityQuals))
			return expr_not_reviewed;
		switch (rte->rtekind)
		{
			case RTE_RELATION:
				if ((why = relation_refusal(rte, true)) != NULL)
					return why;
				break;
			case RTE_SUBQUERY:
				if ((why = analysed_query_refusal(rte->subquery)) != NULL)
					return why;
				break;
			case RTE_JOIN:
				if (!analysed_exprs_are_guardable(rte->joinaliasvars))
					return expr_not_reviewed;
				break;
			case RTE_RESULT:
				break;
			default:
				return "a function, values list or CTE in FROM";
		}
	}

	if (!analysed_exprs_are_guardable(query->targetList) ||
		!jointree_is_guardable((Node *) query->jointree) ||
		!pln_analysed_query_expr_is_guardable(query->limitOffset) ||
		!pln_analysed_query_expr_is_guardable(query->limitCount))
		return expr_not_reviewed;
	return NULL;
}

/*
 * The columns of the analysed query, each of its variable's type (and
 * type modifier, where the variable has one)?  As columns_match_targets,
 * from the target list, before planning.
 */
static bool
query_columns_match_targets(PlnExecState *estate, PlnVariable *target,
							List *targetlist)
{
	PlnRow	   *row = (PlnRow *) estate->datums[target->dno];
	ListCell   *lc;
	int			i = 0;

	foreach(lc, targetlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		PlnVar	   *var;

		if (tle->resjunk)
			continue;
		if (i >= row->nfields)
			return false;
		var = (PlnVar *) estate->datums[row->varnos[i++]];
		if (exprType((Node *) tle->expr) != var->datatype->typoid ||
			(var->datatype->atttypmod != -1 &&
			 exprTypmod((Node *) tle->expr) != var->datatype->atttypmod))
			return false;
	}
	return i == row->nfields;
}

/*
 * Why the analysed command (the list of queries analysis and rewriting
 * made of it) may not be planned under a guard, or NULL.  May read
 * catalogs (under the guard).
 */
const char *
pln_guarded_dynamic_query_refusal(PlnExecState *estate,
								  PlnStmtDynExecute *stmt, List *querytrees)
{
	Query	   *query;

	if (list_length(querytrees) != 1)
		return "a rule made more than one query";
	query = linitial_node(Query, querytrees);
	if (!query_columns_match_targets(estate, stmt->target, query->targetList))
		return "a column needs a conversion to its variable's type";
	return analysed_query_refusal(query);
}
