/*-------------------------------------------------------------------------
 *
 * write_direct.c
 *	  The write path's INSERT run below the executor: the row formed and
 *	  inserted speculatively, heap and index, by the executor's own parts.
 *
 * The write path (write_path.c) runs its INSERT as INSERT ... ON CONFLICT
 * DO NOTHING.  Through SPI that form costs more than the subtransaction it
 * spares: the executor is started and ended for one row, and before every
 * write ON CONFLICT looks for a conflict in the unique index, a search of
 * its own, only to keep a failing insertion from leaving a dead tuple
 * behind.  This file runs the same planned statement without the executor
 * machinery around its one row, and without that first search:
 *
 *	1. the statement's cached plan is fetched as SPI fetches it (a custom
 *	   or the generic plan, the table locked); its shape is checked before
 *	   anything runs: one row of values into the one table, nothing else;
 *	2. the privileges are checked, the table and its indexes opened, as
 *	   the executor does when it starts (when the key is looked for first,
 *	   the unique indexes alone while the write path's checks hold, and the
 *	   others only if there is a row to write: open_unique_indexes);
 *	3. the values are computed from the plan's target list, the generated
 *	   columns, NOT NULL and CHECK constraints checked, by the executor's
 *	   functions, in its order (compiled once per plan and transaction,
 *	   with the run's slots: direct_cache);
 *	4. the row is inserted speculatively, its index entries written in
 *	   index order, each unique index told not to raise but to report a
 *	   conflict (as ON CONFLICT does), the writing stopping at the first
 *	   that reports one, as the plain INSERT stops at its duplicate
 *	   (insert_index_entries);
 *	5. if one reports one, the row is killed (as ON CONFLICT does) and the
 *	   executor's check for conflicts runs on that index, which waits for a
 *	   transaction still writing a conflicting row: no conflict left means
 *	   the other transaction rolled back, and the insertion is tried again;
 *	   a conflict left is the duplicate the plain INSERT would have failed
 *	   on;
 *	6. a row written queues its foreign keys' checks, fired at the end of
 *	   the statement, as the executor queues and fires them.
 *
 * So the outcome is the plain INSERT's, as write_path.c argues.  A failed insertion leaves a dead heap
 * tuple, as PL/pgSQL's rolled-back INSERT does; when duplicates are common
 * (look_first), the key is looked for before the row is written
 * (committed_duplicate), and a duplicate found so leaves nothing.
 *
 * What the executor would do besides, and why it is not needed here:
 * statement triggers, after-row triggers but foreign key checks, row-level
 * security, partition
 * routing, foreign tables and views are excluded by the path's conditions;
 * RETURNING of plain columns is computed here from the inserted row
 * (returned_row), anything more excludes the statement; the executor's
 * hooks would see the statement, so with any hook installed
 * (pg_stat_statements, auditing, auto_explain) the statement runs through
 * SPI instead; SPI's snapshot and command counter handling is repeated
 * here as it is.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/heaptoast.h"
#include "access/detoast.h"
#include "storage/proc.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "utils/lsyscache.h"
#include "executor/executor.h"
#include "executor/nodeModifyTable.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "parser/parsetree.h"
#include "storage/lmgr.h"
#include "tcop/pquery.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "plnimble.h"

/*
 * What one run has open, for closing it on every way out but an error (it
 * also pushed an active snapshot, popped last)
 */
typedef struct DirectInsert
{
	CachedPlan *cplan;
	EState	   *estate;
	ResultRelInfo *rinfo;		/* its indexes opened by open_indexes */
	/* the unique indexes opened alone by open_unique_indexes, or none */
	Relation	uniques_alone[PLN_MAX_UNIQUE_INDEXES];
	int			nalone;
	TupleTableSlot *slot;		/* the new row (direct_cache's) */
	TupleTableSlot *found;		/* a row found with its key (likewise) */
	bool		privileges_checked; /* by this run, at roles_epoch: */
	uint64		roles_epoch;
} DirectInsert;

/*
 * Bumped by every invalidation of a role or of role memberships that this
 * session processes (see privileges_known)
 */
static uint64 roles_epoch = 1;

static void
roles_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	roles_epoch++;
}

/* What a search of a unique index for the new row's key found */
typedef enum KeyLookup
{
	KEY_ABSENT,					/* no row has the key */
	KEY_COMMITTED,				/* a committed or the transaction's own row,
								 * that nobody is deleting */
	KEY_IN_PROGRESS				/* a row still being inserted or deleted */
} KeyLookup;

static KeyLookup look_up_key(Relation heap, Relation index, int nkeys,
							 ScanKey skeys, TupleTableSlot *slot);
static Relation take_unique_alone(DirectInsert *run, Oid indexoid);

/* Called once, from _PG_init (through pln_write_path_init) */
void
pln_write_direct_init(void)
{
	CacheRegisterSyscacheCallback(AUTHOID, roles_changed, (Datum) 0);
	CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, roles_changed, (Datum) 0);
}

/* The statement's CONTEXT line, as SPI adds it to its statements' errors */
static void
direct_insert_error_callback(void *arg)
{
	const char *query = (const char *) arg;
	int			position = geterrposition();

	/* a position points into the statement, not into the function */
	if (position > 0)
	{
		errposition(0);
		internalerrposition(position);
		internalerrquery(query);
	}
	else
		errcontext("SQL statement \"%s\"", query);
}

/* Does the INSERT return nothing, or only columns of the row it inserts? */
static bool
returning_is_columns(ModifyTable *mt)
{
	ListCell   *lc;

	if (mt->returningLists == NIL)
		return true;
	if (list_length(mt->returningLists) != 1)
		return false;
	foreach(lc, (List *) linitial(mt->returningLists))
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		Var		   *var = (Var *) tle->expr;

		if (tle->resjunk || !IsA(var, Var) || var->varlevelsup != 0 ||
			var->varno != linitial_int(mt->resultRelations) ||
			var->varattno <= 0)
			return false;
	}
	return true;
}

/*
 * The row the INSERT returns (its RETURNING list's columns of the row
 * inserted), as a tuple with a descriptor of its own, in the current
 * memory context.
 */
static HeapTuple
returned_row(DirectInsert *run, List *returning, TupleDesc *desc)
{
	Datum	   *values = palloc(sizeof(Datum) * Max(list_length(returning), 1));
	bool	   *isnull = palloc(sizeof(bool) * Max(list_length(returning), 1));
	ListCell   *lc;
	int			i = 0;

	*desc = ExecTypeFromTL(returning);
	foreach(lc, returning)
	{
		Var		   *var = (Var *) lfirst_node(TargetEntry, lc)->expr;

		values[i] = slot_getattr(run->slot, var->varattno, &isnull[i]);
		i++;
	}
	return heap_form_tuple(*desc, values, isnull);
}

/*
 * Is the plan the one-row INSERT the direct insertion knows how to run?
 * The ON CONFLICT DO NOTHING form of a single-row INSERT ... VALUES into
 * relid, returning nothing or columns: a ModifyTable over a Result that
 * only computes
 * its target list, whose entries are the table's columns, in order (that
 * there is one for each is checked when the table is open).
 */
static bool
plan_is_one_row_insert(PlannedStmt *pstmt, Oid relid)
{
	ModifyTable *mt;
	Result	   *values;
	ListCell   *lc;
	AttrNumber	attnum = 0;

	/*
	 * (There are executor parameters, the ModifyTable's own for rechecking
	 * rows, but without subplans nothing computes or reads them.)
	 */
	if (pstmt->commandType != CMD_INSERT ||
		pstmt->hasModifyingCTE || pstmt->utilityStmt != NULL ||
		pstmt->subplans != NIL || pstmt->rowMarks != NIL ||
		!IsA(pstmt->planTree, ModifyTable))
		return false;
	mt = (ModifyTable *) pstmt->planTree;
	if (mt->operation != CMD_INSERT || mt->onConflictAction != ONCONFLICT_NOTHING ||
		list_length(mt->resultRelations) != 1 || !returning_is_columns(mt) ||
		mt->withCheckOptionLists != NIL || mt->rootRelation != 0 ||
		mt->plan.initPlan != NIL || mt->plan.qual != NIL ||
		mt->plan.righttree != NULL ||
		rt_fetch(linitial_int(mt->resultRelations), pstmt->rtable)->relid != relid)
		return false;
	if (mt->plan.lefttree == NULL || !IsA(mt->plan.lefttree, Result))
		return false;
	values = (Result *) mt->plan.lefttree;
	if (values->plan.lefttree != NULL || values->plan.righttree != NULL ||
		values->resconstantqual != NULL || values->plan.qual != NIL ||
		values->plan.initPlan != NIL)
		return false;
	foreach(lc, values->plan.targetlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (tle->resjunk || tle->resno != ++attnum)
			return false;
	}
	return true;
}

/*
 * Close what the run opened, in the reverse order.  The indexes' locks are
 * released, as the executor releases them at the end of every statement
 * (the table's stays, and is write_path.c's to release).
 */
static void
close_direct_insert(DirectInsert *run)
{
	int			i;

	/* (the slots are kept for the next run: see direct_cache) */
	if (run->slot != NULL)
		ExecClearTuple(run->slot);
	for (i = 0; i < run->nalone; i++)
	{
		if (run->uniques_alone[i] != NULL)
			index_close(run->uniques_alone[i], RowExclusiveLock);
	}
	if (run->rinfo != NULL)
	{
		/* (nothing to close if open_indexes did not run) */
		ExecCloseIndices(run->rinfo);
		table_close(run->rinfo->ri_RelationDesc, NoLock);
	}
	if (run->estate != NULL)
	{
		ListCell   *lc;

		/*
		 * (what firing foreign key checks may have opened, as the
		 * executor's end closes it: other relations' result relations, and
		 * the slots holding the rows they fetched)
		 */
		foreach(lc, run->estate->es_trig_target_relations)
			table_close(((ResultRelInfo *) lfirst(lc))->ri_RelationDesc, NoLock);
		ExecResetTupleTable(run->estate->es_tupleTable, false);
		FreeExecutorState(run->estate);
	}
	if (run->cplan != NULL)
		ReleaseCachedPlan(run->cplan, CurrentResourceOwner);
	PopActiveSnapshot();
}

/*
 * Open the table for the insertion, as the executor opens a result
 * relation (its indexes come with open_indexes).  Is the plan's target
 * list one of the table's columns?
 */
static bool
open_result_relation(DirectInsert *run, PlannedStmt *pstmt, Oid relid)
{
	ModifyTable *mt = (ModifyTable *) pstmt->planTree;
	Relation	rel;

	/*
	 * (Locked already, by write_path.c and again by the plan's fetch, in
	 * the INSERT's mode: as the executor opens a result relation its plan
	 * locked, without locking it once more.)
	 */
	rel = table_open(relid, NoLock);
	run->rinfo = makeNode(ResultRelInfo);
	InitResultRelInfo(run->rinfo, rel, linitial_int(mt->resultRelations),
					  NULL, 0);
	pln_check_valid_result_rel(run->rinfo, CMD_INSERT, mt->onConflictAction);
	run->rinfo->ri_onConflictArbiterIndexes = mt->arbiterIndexes;
	/* (where firing the foreign key checks looks for it) */
	run->estate->es_opened_result_relations =
		lappend(run->estate->es_opened_result_relations, run->rinfo);

	/* a value for each column */
	return list_length(mt->plan.lefttree->targetlist) ==
		RelationGetNumberOfAttributes(rel);
}

/*
 * Are the table's indexes that can conflict exactly the unique indexes of
 * the write path's checks, in the same order?  The list of indexes was
 * read when they were opened, which may be after the checks (a CREATE
 * INDEX CONCURRENTLY, which does not wait for our lock, may have made one
 * ready meanwhile).  (Both lists are the relation cache's, in its order.)
 */
static bool
arbiters_are_checked_uniques(ResultRelInfo *rinfo,
							 const PlnDirectTarget *target)
{
	int			narbiters = 0;
	int			i;

	for (i = 0; i < rinfo->ri_NumIndices; i++)
	{
		IndexInfo  *info = rinfo->ri_IndexRelationInfo[i];

		if (!info->ii_ReadyForInserts)
			continue;
		if (info->ii_Unique || info->ii_ExclusionOps != NULL)
		{
			if (narbiters >= target->nuniques ||
				RelationGetRelid(rinfo->ri_IndexRelationDescs[i]) !=
				target->uniques[narbiters].index)
				return false;
			narbiters++;
		}
	}
	return narbiters == target->nuniques;
}

/* Is the index one of the unique indexes of the write path's checks? */
static bool
is_checked_unique(const PlnDirectTarget *target, Oid indexoid)
{
	int			i;

	for (i = 0; i < target->nuniques; i++)
	{
		if (target->uniques[i].index == indexoid)
			return true;
	}
	return false;
}

/*
 * The unique index of the checks, as this run opened it (alone, or with
 * the others)
 */
static Relation
opened_unique(DirectInsert *run, const PlnUniqueKey *key)
{
	int			i;

	for (i = 0; i < run->nalone; i++)
	{
		if (run->uniques_alone[i] != NULL &&
			RelationGetRelid(run->uniques_alone[i]) == key->index)
			return run->uniques_alone[i];
	}
	for (i = 0; i < run->rinfo->ri_NumIndices; i++)
	{
		if (RelationGetRelid(run->rinfo->ri_IndexRelationDescs[i]) == key->index)
			return run->rinfo->ri_IndexRelationDescs[i];
	}
	elog(ERROR, "unique index %u of the write path is not open", key->index);
	return NULL;				/* keep compiler quiet */
}

/*
 * Forget the compiled values and the slots (their plan is replaced or
 * gone).  A run leaves the slots empty, holding no buffer pin; a run that
 * failed took its transaction with it, and the pins were released then.
 */
void
pln_forget_direct_values(PlnDirectValues *values)
{
	if (values->cxt != NULL)
		MemoryContextDelete(values->cxt);
	values->cxt = NULL;
	values->plansource = NULL;
	values->states = NULL;
	values->checks = NULL;
	values->row = NULL;
	values->found = NULL;
	values->privileges_user = InvalidOid;
}

/* Is the statement's cache of the last run (direct_cache) good for this one? */
static bool
direct_cache_valid(DirectInsert *run, PlnDirectTarget *target,
				   CachedPlanSource *plansource)
{
	PlnDirectValues *cache = target->values;

	return cache->cxt != NULL && cache->plansource == plansource &&
		cache->generation == run->cplan->generation &&
		cache->lxid == PLN_MY_LXID &&
		cache->checked_epoch == target->checked_epoch;
}

/*
 * Were the plan's privileges checked by an earlier run for the same user,
 * with the catalogs as they are now?  The check (ExecCheckRTPerms) reads
 * the table's and its columns' ACLs and owner, through the catalog
 * caches, and the user's roles: the same plan in the same transaction,
 * with no invalidation of a relation (which a change of an ACL or an owner
 * brings, pln_table_checks_current) nor of a role or a role membership
 * processed since (roles_epoch), checks the same, unless a hook of the
 * server's check is installed, which may do anything.
 */
static bool
privileges_known(DirectInsert *run, PlnDirectTarget *target,
				 CachedPlanSource *plansource)
{
	PlnDirectValues *cache = target->values;

	return ExecutorCheckPerms_hook == NULL &&
		direct_cache_valid(run, target, plansource) &&
		pln_table_checks_current(target->checked_epoch) &&
		cache->privileges_user == GetUserId() &&
		cache->privileges_roles_epoch == roles_epoch;
}

/*
 * The compiled expressions of the plan's target list and the slots of a
 * run: those of the last run if it had the same plan in the same
 * transaction, with the table as the same checks saw it, else made again.
 * The expressions call built-in functions only, which look nothing up
 * that a transaction could change meanwhile (see write_path.c).  The
 * slots have a copy of the table's descriptor, which only an invalidation
 * of the table can change (it would change the checks' epoch, and the
 * plan); a copy, so that no resource owner tracks it, and the slots can
 * outlive the statement.
 */
static PlnDirectValues *
direct_cache(DirectInsert *run, PlnDirectTarget *target,
			 CachedPlanSource *plansource, List *tlist, ParamListInfo params)
{
	PlnDirectValues *cache = target->values;
	Relation	rel = run->rinfo->ri_RelationDesc;
	MemoryContext oldcontext;
	ListCell   *lc;
	int			i = 0;

	if (direct_cache_valid(run, target, plansource))
		return cache;

	pln_forget_direct_values(cache);
	cache->cxt = AllocSetContextCreate(target->values_parent,
									   "PL/nimble INSERT values",
									   ALLOCSET_SMALL_SIZES);
	oldcontext = MemoryContextSwitchTo(cache->cxt);
	cache->states = palloc(sizeof(ExprState *) * Max(list_length(tlist), 1));
	foreach(lc, tlist)
		cache->states[i++] = ExecInitExprWithParams(lfirst_node(TargetEntry, lc)->expr,
													params);
	cache->row = MakeSingleTupleTableSlot(CreateTupleDescCopy(RelationGetDescr(rel)),
										  table_slot_callbacks(rel));
	cache->found = MakeSingleTupleTableSlot(cache->row->tts_tupleDescriptor,
											table_slot_callbacks(rel));
	MemoryContextSwitchTo(oldcontext);
	cache->plansource = plansource;
	cache->generation = run->cplan->generation;
	cache->lxid = PLN_MY_LXID;
	cache->checked_epoch = target->checked_epoch;
	return cache;
}

/* Compute the row's values from the plan's target list, into the slot */
static void
compute_values(DirectInsert *run, ExprState **states, int natts,
			   ParamListInfo params)
{
	ExprContext *econtext = GetPerTupleExprContext(run->estate);
	TupleTableSlot *slot = run->slot;
	int			i;

	ExecClearTuple(slot);
	econtext->ecxt_param_list_info = params;
	for (i = 0; i < natts; i++)
		slot->tts_values[i] = ExecEvalExpr(states[i], econtext,
										   &slot->tts_isnull[i]);
	ExecStoreVirtualTuple(slot);
}

/*
 * Check the row's NOT NULL and CHECK constraints, as the executor does
 * (ExecConstraints).  The executor compiles a table's CHECK constraints on
 * the first row of every statement, from their stored text; a statement of
 * the write path runs one row, so it would parse and plan them on every
 * run, at about a sixth of a run's cost.  So the first run of a cache lets
 * ExecConstraints compile them in the cache's memory (the executor state's
 * query memory, where it compiles them, is the cache's for that call) and
 * keeps them with the values' expressions: they are the table's as long
 * as the cache is valid (a change of a constraint is a change of the table,
 * which invalidates the checks and the cache: direct_cache_valid), and the
 * compiled expressions refer to nothing of the executor state.  An error
 * raised meanwhile takes the transaction with it (no subtransaction is
 * open), and the cache with it (made anew in the next one).  The
 * executor's per-tuple context, which the checks are evaluated in, exists
 * already (compute_values made it) and stays the run's.
 */
static void
check_constraints(DirectInsert *run, PlnDirectValues *cache)
{
	ResultRelInfo *rinfo = run->rinfo;
	MemoryContext query_cxt = run->estate->es_query_cxt;

	if (cache->checks != NULL)
	{
		pln_ri_check_exprs(rinfo) = cache->checks;
		ExecConstraints(rinfo, run->slot, run->estate);
		return;
	}
	Assert(run->estate->es_per_tuple_exprcontext != NULL);
	run->estate->es_query_cxt = cache->cxt;
	ExecConstraints(rinfo, run->slot, run->estate);
	run->estate->es_query_cxt = query_cxt;
	cache->checks = pln_ri_check_exprs(rinfo);
}

/*
 * Can writing the index's entry for a row not fail by itself, so that
 * inserting into it fails only where the plain INSERT's would fail, and
 * the same way?  (True when the index is safe for the write path.)  The
 * plain INSERT stops at the unique index's
 * duplicate; a speculative insertion goes on to the indexes after it, and
 * looking first (committed_duplicate) skips the heap and the indexes
 * before it.  So, for the others: the index has nothing to compute and no
 * entry that could be too big or compared by code that is not built in (a
 * B-tree on columns of built-in types of fixed size).  For the unique index
 * also: text, varchar and bytea, in deterministic collations, where equal
 * keys are the same bytes (a duplicate's entry is no bigger than the one
 * already in the index).
 */
bool
pln_index_entry_cannot_fail(Relation index, bool unique)
{
	TupleDesc	desc = RelationGetDescr(index);
	int			i;

	if (index->rd_rel->relam != BTREE_AM_OID ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL) ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL))
		return false;
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Oid			collation = index->rd_indcollation[i];

		if (att->atttypid >= FirstGenbkiObjectId)
			return false;
		if (att->attlen > 0)
			continue;
		if (!unique ||
			(att->atttypid != TEXTOID && att->atttypid != VARCHAROID &&
			 att->atttypid != BYTEAOID))
			return false;
		if (OidIsValid(collation) && collation != DEFAULT_COLLATION_OID &&
			collation != C_COLLATION_OID &&
			!get_collation_isdeterministic(collation))
			return false;
	}
	return true;
}

/*
 * Is writing the index's entry for a row, in the plain INSERT's order and
 * stopping where it stops (insert_index_entries), exactly what the plain
 * INSERT does, its errors included?  Then the index runs nothing but the
 * server's own code, whose effects no rollback undoes (an index entry
 * pointing to a row killed is dead, like one to a rolled-back row): it has
 * no expressions and no predicate (they could call any function), its
 * access method, operator families and column types are built in (their
 * support functions could be user code).  Of any other kind (GIN, GiST,
 * BRIN, hash, SP-GiST; any column types), its entry may fail, too big or
 * rejected: then it fails where the plain INSERT's fails, with the same
 * error.  A unique index must also be a B-tree whose entry cannot fail
 * where the plain INSERT raises the duplicate, having checked the key
 * before writing: a speculative insertion writes the entry of a key found
 * there, which then is the same bytes as the one in the index (no bigger)
 * only in a deterministic collation.
 */
bool
pln_index_entry_is_exact(Relation index, bool unique)
{
	TupleDesc	desc = RelationGetDescr(index);
	int			i;

	if (index->rd_rel->relam >= FirstGenbkiObjectId ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL) ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL))
		return false;
	if (unique && index->rd_rel->relam != BTREE_AM_OID)
		return false;
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Oid			collation = index->rd_indcollation[i];

		if (att->atttypid >= FirstGenbkiObjectId ||
			(i < IndexRelationGetNumberOfKeyAttributes(index) &&
			 index->rd_opfamily[i] >= FirstGenbkiObjectId))
			return false;
		if (unique && att->attlen < 0 && OidIsValid(collation) &&
			collation != DEFAULT_COLLATION_OID &&
			collation != C_COLLATION_OID &&
			!get_collation_isdeterministic(collation))
			return false;
	}
	return true;
}

/*
 * ... for every index of the table, as opened for this run (write_path.c
 * checked them too, but a CREATE INDEX CONCURRENTLY does not wait for our
 * lock)
 */
static bool
index_entries_are_exact(ResultRelInfo *rinfo, const PlnDirectTarget *target)
{
	int			i;

	for (i = 0; i < rinfo->ri_NumIndices; i++)
	{
		Relation	index = rinfo->ri_IndexRelationDescs[i];

		if (!pln_index_entry_is_exact(index,
									  is_checked_unique(target,
														RelationGetRelid(index))))
			return false;
	}
	return true;
}

/*
 * Open the table's indexes, as the executor does for its result relation
 * (ExecOpenIndices), each locked in the INSERT's mode; the unique index,
 * if open_unique_indexes opened it already, is taken over instead of being
 * opened again (ExecCloseIndices then closes it with the others).  Do they
 * still qualify (arbiters_are_checked_uniques, index_entries_are_exact)?
 */
static bool
open_indexes(DirectInsert *run, const PlnDirectTarget *target)
{
	ResultRelInfo *rinfo = run->rinfo;
	List	   *indexes = RelationGetIndexList(rinfo->ri_RelationDesc);
	int			n = list_length(indexes);
	ListCell   *lc;
	int			i = 0;

	rinfo->ri_IndexRelationDescs = palloc(sizeof(Relation) * Max(n, 1));
	rinfo->ri_IndexRelationInfo = palloc(sizeof(IndexInfo *) * Max(n, 1));
	foreach(lc, indexes)
	{
		Relation	index;

		index = take_unique_alone(run, lfirst_oid(lc));
		if (index == NULL)
			index = index_open(lfirst_oid(lc), RowExclusiveLock);
		rinfo->ri_IndexRelationDescs[i] = index;
		/* (what only the check for conflicts needs is added by it) */
		rinfo->ri_IndexRelationInfo[i] = BuildIndexInfo(index);
		rinfo->ri_NumIndices = ++i;
	}
	list_free(indexes);

	return arbiters_are_checked_uniques(rinfo, target) &&
		index_entries_are_exact(rinfo, target);
}

/*
 * The unique index indexoid if open_unique_indexes opened it, handed over
 * (its closing goes with it), or NULL
 */
static Relation
take_unique_alone(DirectInsert *run, Oid indexoid)
{
	Relation	index;
	int			i;

	for (i = 0; i < run->nalone; i++)
	{
		index = run->uniques_alone[i];
		if (index != NULL && RelationGetRelid(index) == indexoid)
		{
			run->uniques_alone[i] = NULL;
			return index;
		}
	}
	return NULL;
}

/*
 * Open only the unique indexes, locked as the executor locks them, to look
 * for the new row's keys before the others are opened.  Then the checks need
 * not be made again on the opened indexes if the table is as the write
 * path's checks saw it (pln_table_checks_current): no relation cache
 * invalidation was processed since, not even by taking this lock, which
 * processes the invalidations other sessions have committed.  So the
 * table's indexes are those the checks saw, and while the transaction
 * holds the table's lock (taken before the checks, and kept) none can
 * become ready for insertions or go (CREATE INDEX and DROP INDEX
 * CONCURRENTLY wait for it), nor can one be made otherwise.  Returns
 * false, with the index open, if the table changed.
 */
static bool
open_unique_indexes(DirectInsert *run, const PlnDirectTarget *target)
{
	for (run->nalone = 0; run->nalone < target->nuniques; run->nalone++)
		run->uniques_alone[run->nalone] =
			index_open(target->uniques[run->nalone].index, RowExclusiveLock);
	return pln_table_checks_current(target->checked_epoch);
}

/*
 * Can the row not be too big for a heap page, whatever its values?  Each
 * value of variable size that TOAST may move out counts as a pointer to
 * it; one it may not move (storage PLAIN) could be of any size.
 */
bool
pln_row_cannot_be_too_big(TupleDesc desc)
{
	Size		size = SizeofHeapTupleHeader + BITMAPLEN(desc->natts);
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped)
			continue;
		if (att->attlen > 0)
			size = att_align_nominal(size, att->attalign) + att->attlen;
		else if (att->attlen == -1 && att->attstorage != TYPSTORAGE_PLAIN)
			size = att_align_nominal(size, att->attalign) +
				MAXALIGN(TOAST_POINTER_SIZE);
		else
			return false;
	}
	return MAXALIGN(size) <= MaxHeapTupleSize;
}

/*
 * The new row's key in a unique index: its key columns' values (the index
 * computes nothing: write_path.c's checks)
 */
static void
form_key(DirectInsert *run, const PlnUniqueKey *key, Datum *values,
		 bool *isnull)
{
	int			i;

	for (i = 0; i < key->nkeys; i++)
		values[i] = slot_getattr(run->slot, key->attnums[i], &isnull[i]);
}

/*
 * Look for the new row's key in a unique index, with the same dirty
 * snapshot as the server's check, by the key columns' equality functions.
 */
static KeyLookup
look_up_new_key(DirectInsert *run, const PlnUniqueKey *key)
{
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	ScanKeyData skeys[INDEX_MAX_KEYS];
	int			i;

	form_key(run, key, values, isnull);
	for (i = 0; i < key->nkeys; i++)
	{
		/* (NULLs never conflict) */
		if (isnull[i])
			return KEY_ABSENT;
		ScanKeyEntryInitialize(&skeys[i], 0, i + 1, BTEqualStrategyNumber,
							   InvalidOid, key->collations[i],
							   key->eqprocs[i], values[i]);
	}
	return look_up_key(run->rinfo->ri_RelationDesc, opened_unique(run, key),
					   key->nkeys, skeys, run->found);
}

/*
 * Is there a row with the new row's key in a unique index, committed or
 * the transaction's own, that nobody is deleting, the plain INSERT failing
 * on it for certain, and on no earlier index?  Then returns that index's
 * place in target->uniques; else -1.  The plain INSERT checks the unique
 * indexes in order, and waits at one where a row with the key is still
 * being inserted or deleted: from such an index on nothing is certain, and
 * it is left to the speculative insertion, which sees that row and then
 * waits for it (conflicting_unique).
 */
static int
committed_duplicate(DirectInsert *run, const PlnDirectTarget *target)
{
	int			i;

	for (i = 0; i < target->nuniques; i++)
	{
		switch (look_up_new_key(run, &target->uniques[i]))
		{
			case KEY_COMMITTED:
				/* (else the speculative insertion finds it, in order) */
				return target->uniques[i].look_first_exact ? i : -1;
			case KEY_IN_PROGRESS:
				return -1;
			case KEY_ABSENT:
				break;
		}
	}
	return -1;
}

/*
 * What a unique index of heap has of the key of skeys: a row that is
 * committed or the transaction's own and that nobody is deleting, one
 * still being inserted or deleted (whoever goes on to write sees it and
 * waits for it), or none.  The search the server's check makes, with the
 * same dirty snapshot.  slot, one of the heap's, is left empty.
 */
static KeyLookup
look_up_key(Relation heap, Relation index, int nkeys, ScanKey skeys,
			TupleTableSlot *slot)
{
	SnapshotData dirty;
	IndexScanDesc scan;
	KeyLookup	found = KEY_ABSENT;

	InitDirtySnapshot(dirty);
	scan = pln_index_beginscan(heap, index, &dirty, nkeys, 0);
	index_rescan(scan, skeys, nkeys, NULL, 0);
	if (index_getnext_slot(scan, ForwardScanDirection, slot))
		found = (!TransactionIdIsValid(dirty.xmin) &&
				 !TransactionIdIsValid(dirty.xmax) &&
				 dirty.speculativeToken == 0) ?
			KEY_COMMITTED : KEY_IN_PROGRESS;
	index_endscan(scan);
	/* (releasing the row's buffer) */
	ExecClearTuple(slot);
	return found;
}

/*
 * Write the row's index entries as the plain INSERT writes them: index by
 * index, in the order of the relation cache's list, each unique one told
 * not to raise a duplicate but to report a possible one (as ON CONFLICT
 * does), and stop at the first that reports one, as the plain INSERT
 * stops at its duplicate.  So every entry the plain INSERT writes before
 * its duplicate is written here too, in the same order, failing the same
 * way, and none after it (where the executor's speculative insertion
 * would go on).  Returns the place in target->uniques of the unique index
 * that reported a possible conflict, or -1.  (The indexes have neither
 * expressions nor predicates: pln_index_entry_is_exact.)
 */
static int
insert_index_entries(DirectInsert *run, const PlnDirectTarget *target)
{
	ResultRelInfo *rinfo = run->rinfo;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	int			i;
	int			j;

	for (i = 0; i < rinfo->ri_NumIndices; i++)
	{
		Relation	index = rinfo->ri_IndexRelationDescs[i];
		IndexInfo  *info = rinfo->ri_IndexRelationInfo[i];

		/* (an index being built concurrently, not yet written) */
		if (!info->ii_ReadyForInserts)
			continue;
		FormIndexDatum(info, run->slot, run->estate, values, isnull);
		if (index_insert(index, values, isnull, &run->slot->tts_tid,
						 rinfo->ri_RelationDesc,
						 info->ii_Unique ? UNIQUE_CHECK_PARTIAL : UNIQUE_CHECK_NO,
						 false, info) || !info->ii_Unique)
			continue;
		for (j = 0; j < target->nuniques; j++)
		{
			if (target->uniques[j].index == RelationGetRelid(index))
				return j;
		}
		elog(ERROR, "unique index \"%s\" is not one of the write path's",
			 RelationGetRelationName(index));
	}
	return -1;
}

/*
 * Insert the row speculatively.  Returns -1 if it is in; else the place in
 * target->uniques of the unique index that reported a possible conflict,
 * after killing the row (as ON CONFLICT does).
 */
static int
insert_speculatively(DirectInsert *run, const PlnDirectTarget *target)
{
	Relation	rel = run->rinfo->ri_RelationDesc;
	uint32		token;
	int			conflict;

	token = SpeculativeInsertionLockAcquire(GetCurrentTransactionId());
	table_tuple_insert_speculative(rel, run->slot, run->estate->es_output_cid,
								   0, NULL, token);
	conflict = insert_index_entries(run, target);
	table_tuple_complete_speculative(rel, run->slot, token, conflict < 0);
	SpeculativeInsertionLockRelease(GetCurrentTransactionId());
	return conflict;
}

/*
 * Is the possible conflict the speculative insertion found at a unique
 * index a duplicate the plain INSERT would have failed on there?  The
 * executor's check for a conflicting row (ON CONFLICT's, before it writes)
 * of that index, which waits for a transaction still writing or deleting
 * such a row, as the plain INSERT waits at that index; none left means the
 * other transaction rolled back (or deleted it), and the insertion is
 * tried again.  The indexes were opened without what the check needs for
 * a unique index's key (inserting does not need it): added first.
 */
static bool
conflict_is_duplicate(DirectInsert *run, const PlnUniqueKey *key)
{
	ResultRelInfo *rinfo = run->rinfo;
	ItemPointerData conflict_tid;
	MemoryContext oldcontext = MemoryContextSwitchTo(run->estate->es_query_cxt);
	bool		duplicate;
	int			i;

	for (i = 0; i < rinfo->ri_NumIndices; i++)
	{
		IndexInfo  *info = rinfo->ri_IndexRelationInfo[i];

		if (info->ii_Unique && info->ii_UniqueOps == NULL)
			BuildSpeculativeIndexInfo(rinfo->ri_IndexRelationDescs[i], info);
	}
	duplicate = !pln_check_index_constraints(rinfo, run->slot, run->estate,
											 &conflict_tid,
											 list_make1_oid(key->index));
	MemoryContextSwitchTo(oldcontext);
	return duplicate;
}

/*
 * Insert the row into the open table, in the executor's order: the values,
 * the generated columns, NOT NULL and CHECK constraints, then the row
 * speculatively, heap and indexes.  look_first: look for a committed
 * duplicate before writing (when duplicates are common); a duplicate found
 * so skips the writing of the heap tuple, which must then be one that
 * cannot fail.  PLN_DIRECT_NOT_TAKEN if the table's indexes no longer
 * qualify, found before anything is computed.  Runs in the run's memory.
 */
static PlnDirectOutcome
insert_row(DirectInsert *run, CachedPlanSource *plansource, List *tlist,
		   ParamListInfo params, PlnDirectTarget *target, bool look_first,
		   int *conflict)
{
	Relation	rel = run->rinfo->ri_RelationDesc;
	PlnDirectValues *cache;
	int			i;

	/*
	 * Looking first skips writing what the plain INSERT writes before the
	 * duplicate: only where that cannot fail (look_first_exact, found by
	 * the checks, so while they hold).
	 */
	for (i = 0; i < target->nuniques; i++)
		look_first = look_first && target->uniques[i].eqprocs_ok;
	look_first = look_first && pln_table_checks_current(target->checked_epoch);

	/*
	 * The unique indexes alone, while the checks hold (a duplicate then
	 * needs no other); else all of them, checked again.
	 */
	if (!look_first || !open_unique_indexes(run, target))
	{
		if (!open_indexes(run, target))
			return PLN_DIRECT_NOT_TAKEN;
	}

	cache = direct_cache(run, target, plansource, tlist, params);
	if (run->privileges_checked)
	{
		cache->privileges_user = GetUserId();
		cache->privileges_roles_epoch = run->roles_epoch;
	}
	run->slot = cache->row;
	run->found = cache->found;
	compute_values(run, cache->states, list_length(tlist), params);
	run->slot->tts_tableOid = RelationGetRelid(rel);
	if (rel->rd_att->constr && rel->rd_att->constr->has_generated_stored)
		ExecComputeStoredGenerated(run->rinfo, run->estate, run->slot,
								   CMD_INSERT);
	if (rel->rd_att->constr)
		check_constraints(run, cache);

	if (look_first && (*conflict = committed_duplicate(run, target)) >= 0)
		return PLN_DIRECT_DUPLICATE;

	/*
	 * Writing needs all the indexes.  Opened only now, they are the ones
	 * the checks saw (open_unique_indexes): checked again all the same.
	 */
	if (run->rinfo->ri_NumIndices == 0 &&
		!open_indexes(run, target))
		elog(ERROR, "the indexes of table \"%s\" changed while an INSERT ran without its block's subtransaction",
			 RelationGetRelationName(rel));

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		*conflict = insert_speculatively(run, target);
		if (*conflict < 0)
		{
			/*
			 * The row is in: queue its foreign key checks, as the executor
			 * does after writing a row (fired at the statement's end, by
			 * pln_insert_directly).  No index needs a recheck: none is
			 * deferrable (write_path.c).
			 */
			if (target->fires_ri_checks)
				ExecARInsertTriggers(run->estate, run->rinfo, run->slot,
									 NIL, NULL);
			return PLN_DIRECT_INSERTED;
		}
		/* (waits for a writer of the key still in progress) */
		if (conflict_is_duplicate(run, &target->uniques[*conflict]))
			return PLN_DIRECT_DUPLICATE;
	}
}

/*
 * Describe the duplicate key, as the error of the unique index shows it
 * (the index must be open)
 */
static char *
describe_key(DirectInsert *run, const PlnUniqueKey *key)
{
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	form_key(run, key, values, isnull);
	return BuildIndexValueDescription(opened_unique(run, key), values, isnull);
}

/*
 * May an INSERT run below the executor now?  Not if an executor hook is
 * installed: it would not see the statement.
 */
bool
pln_may_insert_directly(void)
{
	return ExecutorStart_hook == NULL && ExecutorRun_hook == NULL &&
		ExecutorFinish_hook == NULL && ExecutorEnd_hook == NULL;
}

/*
 * Run the write path's INSERT directly (see the top of the file).  plan is
 * the statement's ON CONFLICT DO NOTHING form, target what the write
 * path's checks found of its table (its unique indexes, the only ones that
 * may conflict); look_first: check for a conflicting row before writing
 * (when duplicates are common).  Returns
 *
 *	PLN_DIRECT_NOT_TAKEN	nothing was run (an executor hook is installed,
 *							or the plan or the table is not of the kind);
 *							the caller runs the statement through SPI;
 *	PLN_DIRECT_INSERTED		the row is in; if the statement has RETURNING,
 *							*returned is the row it returns, with its
 *							descriptor in *returned_desc (else NULL), in the
 *							caller's memory context;
 *	PLN_DIRECT_DUPLICATE	a committed or the transaction's own row has the
 *							key of the unique index target->uniques[*conflict]:
 *							nothing was written; *key is the
 *							key's description for the error's DETAIL (NULL
 *							if !want_key or the user may not see it),
 *							allocated in the caller's memory context.
 *
 * Errors are raised with the statement's CONTEXT line, as SPI would.
 */
PlnDirectOutcome
pln_insert_directly(SPIPlanPtr plan, ParamListInfo params,
					PlnDirectTarget *target, const char *query,
					bool look_first, bool want_key, char **key,
					int *conflict, HeapTuple *returned,
					TupleDesc *returned_desc)
{
	MemoryContext caller_context = CurrentMemoryContext;
	CachedPlanSource *plansource;
	ErrorContextCallback errcallback;
	DirectInsert run;
	PlannedStmt *pstmt;
	PlnDirectOutcome outcome = PLN_DIRECT_NOT_TAKEN;
	List	   *plansources = SPI_plan_get_plan_sources(plan);

	*returned = NULL;
	if (!pln_may_insert_directly() || list_length(plansources) != 1)
		return PLN_DIRECT_NOT_TAKEN;
	plansource = linitial(plansources);
	if (!plansource->is_saved)
		return PLN_DIRECT_NOT_TAKEN;

	memset(&run, 0, sizeof(run));
	errcallback.callback = direct_insert_error_callback;
	errcallback.arg = (void *) query;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	/* the snapshot and command counter as SPI sets them for a statement */
	EnsurePortalSnapshotExists();
	PushActiveSnapshot(GetTransactionSnapshot());
	CommandCounterIncrement();
	UpdateActiveSnapshotCommandId();

	run.cplan = GetCachedPlan(plansource, params, CurrentResourceOwner, NULL);
	pstmt = list_length(run.cplan->stmt_list) == 1 ?
		linitial_node(PlannedStmt, run.cplan->stmt_list) : NULL;

	if (pstmt != NULL && plan_is_one_row_insert(pstmt, target->relid))
	{
		List	   *tlist = ((ModifyTable *) pstmt->planTree)->plan.lefttree->targetlist;

		run.estate = CreateExecutorState();
		MemoryContextSwitchTo(run.estate->es_query_cxt);
		run.estate->es_param_list_info = params;
		run.estate->es_snapshot = GetActiveSnapshot();
		run.estate->es_sourceText = query;
		run.estate->es_output_cid = GetCurrentCommandId(true);
		pln_exec_init_range_table(run.estate, pstmt);
		/* (the executor checks them first) */
		if (!privileges_known(&run, target, plansource))
		{
			run.roles_epoch = roles_epoch;
			pln_exec_check_permissions(pstmt);
			run.privileges_checked = true;
		}
		if (open_result_relation(&run, pstmt, target->relid))
		{
			/*
			 * The foreign key checks of the row are queued while it is
			 * written and fired at the end of the statement, as the
			 * executor does (its start and finish); a failing check raises
			 * its error here, with the statement's CONTEXT line.
			 */
			if (target->fires_ri_checks)
				AfterTriggerBeginQuery();
			outcome = insert_row(&run, plansource, tlist, params, target,
								 look_first, conflict);
			if (target->fires_ri_checks)
				AfterTriggerEndQuery(run.estate);
			MemoryContextSwitchTo(caller_context);
			if (outcome == PLN_DIRECT_DUPLICATE)
				*key = want_key ?
					describe_key(&run, &target->uniques[*conflict]) : NULL;
			else if (outcome == PLN_DIRECT_INSERTED &&
					 ((ModifyTable *) pstmt->planTree)->returningLists != NIL)
				*returned = returned_row(&run,
										 linitial(((ModifyTable *) pstmt->planTree)->returningLists),
										 returned_desc);
		}
		MemoryContextSwitchTo(caller_context);
	}

	close_direct_insert(&run);

	/* (SPI advances the command counter after every statement) */
	if (outcome == PLN_DIRECT_INSERTED)
		CommandCounterIncrement();
	error_context_stack = errcallback.previous;
	return outcome;
}
