/*-------------------------------------------------------------------------
 *
 * write_path.c
 *	  The write path: an INSERT in a handler block that catches only
 *	  unique_violation, run without the block's subtransaction.
 *
 * The commonest exception block of real code inserts a row and handles a
 * duplicate:
 *
 *		BEGIN
 *			INSERT INTO t(k, v) VALUES (r.k, r.v);
 *		EXCEPTION WHEN unique_violation THEN
 *			...
 *		END;
 *
 * Lazy savepoints cannot help it: the INSERT writes, so the block starts
 * its subtransaction, and a successful INSERT assigns it a subtransaction
 * ID.  The write path runs such an INSERT as INSERT ... ON CONFLICT DO
 * NOTHING instead, without the subtransaction: the server's speculative
 * insertion checks the unique index before anything is written (and
 * retries when a concurrent insert wins the race), so either the row is
 * inserted, or nothing is written and this file raises the unique_violation
 * the plain INSERT would have raised, which the handler then catches like
 * any error of pure work (savepoint.c), or, when nothing could see that
 * error but through the handler, hands the duplicate to the handler
 * without raising it (pln_handler_may_take_duplicate).  That form runs
 * below the executor where it can (write_direct.c), through SPI
 * otherwise.  The executor calls one entry, pln_write_path_run, which
 * says what happened: not taken (run the plain statement), inserted, or
 * handed to the handler.
 *
 * That is exact only under conditions, each argued in docs/design.md
 * ("The write path"), and when any does not hold the block takes its
 * subtransaction as usual:
 *
 * - the block's handlers catch only unique_violation, and the INSERT is the
 *   last statement of the block's body (marked when the function is
 *   compiled, pln_write_path_mark): after the row is written nothing runs
 *   in the block, and nothing the handlers catch can be raised while it is
 *   being written;
 * - the statement is a single-row INSERT ... VALUES without WITH, ON
 *   CONFLICT, or RETURNING anything but columns; INTO, if any, goes to
 *   plain variables of the columns' types; every expression it evaluates
 *   has no effect that a rollback would undo: the values and column
 *   defaults of the query, and what the planner adds to them, a domain's
 *   check of a column left out (analyse_query reads the planned target
 *   list, which is what runs);
 * - the table is a plain table without triggers on INSERT but its foreign
 *   keys' checks (insert_triggers_why_not), rules or row-level security,
 *   with unique indexes that are B-trees neither deferrable, partial nor on
 *   expressions, no other kind of index that could conflict, CHECK
 *   constraints and generated columns without effects, and indexes that
 *   run no code but the server's (index_entries_why_not: an entry that
 *   fails, fails as the plain INSERT's, written in the same order and
 *   stopping at the same duplicate, write_direct.c);
 * - at run time: READ COMMITTED, not read-only, no subtransaction open,
 *   and the plan still valid (write_path_may_start).  The table is locked
 *   in the INSERT's mode before the table's conditions are checked again
 *   (may_write_now); a lock this run took is released again if nothing is
 *   written, as PL/pgSQL's rollback would release it.
 *
 * While the write runs, and after a row was written, the block's frame is
 * marked (pln_begin_unprotected_write): it catches nothing and starts no
 * subtransaction, so that a broken condition shows as an error, never as
 * a wrong result.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/tableam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "plnimble.h"

/* The write path's state of one INSERT statement */
typedef struct PlnWritePath
{
	PlnStmtBlock *block;		/* the block the INSERT ends */

	/*
	 * The statement's query with ON CONFLICT DO NOTHING: an expression of
	 * its own (on the function's planned_exprs, which frees its plan).
	 */
	PlnExpr    *expr;
	const char *query_why_not;	/* why the analysed query does not
								 * qualify, or NULL */
	Oid			relid;			/* the table it inserts into */

	/* the table's check, valid while table_epoch == pln_relcache_epoch */
	uint64		table_epoch;
	const char *table_why_not;	/* why the table does not qualify, or NULL */
	PlnUniqueKey uniques[PLN_MAX_UNIQUE_INDEXES];	/* its unique indexes,
													 * in index order */
	int			nuniques;
	bool		fires_ri_checks;	/* its INSERT fires foreign key checks */
	bool		spi_names_duplicate;	/* through SPI, a duplicate can be
										 * named (describe_duplicate) */
	float		duplicate_rate; /* moving average of the runs that found a
								 * duplicate: worth looking first? */
	char	   *table_name;		/* the table's and schema's names, for */
	char	   *schema_name;	/* the error (valid with the check) */
	PlnDirectValues direct_values;	/* for write_direct.c */
} PlnWritePath;

/* What names the duplicate in the error: see describe_duplicate */
typedef struct DuplicateReport
{
	char	   *index_name;
	char	   *table_name;
	char	   *schema_name;
	char	   *key;			/* (cols)=(values), or NULL if the user may
								 * not see them */
} DuplicateReport;

static inline void note_outcome(PlnWritePath *wpath, bool duplicate);
static void end_write_without_row(PlnExecState *estate, PlnStmtExecSql *stmt,
								  bool took_lock);
static pg_attribute_noreturn() void raise_duplicate(PlnExecState *estate,
													 PlnStmtExecSql *stmt,
													 DuplicateReport *report);

/* Bumped by every relation cache invalidation this session processes */
static uint64 pln_relcache_epoch = 1;

static void
relcache_changed(Datum arg, Oid relid)
{
	pln_relcache_epoch++;
}

/*
 * Has this session processed no relation cache invalidation since the
 * write path's checks of a table, made at this epoch?  Then every relation
 * the checks looked at, the table and its indexes, is as they saw it.
 */
bool
pln_table_checks_current(uint64 epoch)
{
	return epoch == pln_relcache_epoch;
}

/* Called once, from _PG_init */
void
pln_write_path_init(void)
{
	CacheRegisterRelcacheCallback(relcache_changed, (Datum) 0);
	pln_write_direct_init();
}

/* ----------
 * Which statements: marked when the function is compiled
 * ----------
 */

/* Do the block's handlers catch unique_violation and nothing else? */
static bool
handlers_catch_only_unique_violation(PlnStmtBlock *block)
{
	ListCell   *lc;

	foreach(lc, block->exceptions->actions)
	{
		PlnExceptionAction *action = (PlnExceptionAction *) lfirst(lc);
		PlnCondition *cond;

		for (cond = action->conditions; cond != NULL; cond = cond->next)
		{
			if (cond->sqlerrstate != ERRCODE_UNIQUE_VIOLATION)
				return false;
		}
	}
	return true;
}

/* Does the SQL text start with the word INSERT? */
static bool
text_is_insert(const char *query)
{
	return pg_strncasecmp(query, "insert", 6) == 0 &&
		!(IS_HIGHBIT_SET(query[6]) || isalnum((unsigned char) query[6]) ||
		  query[6] == '_' || query[6] == '$');
}

/* Does the block's body end with an INSERT (not a CALL)? */
static inline bool
ends_with_insert(PlnStmtBlock *block)
{
	PlnStmt    *last = (PlnStmt *) llast(block->body);

	return last->cmd_type == PLN_STMT_EXECSQL &&
		!((PlnStmtExecSql *) last)->is_call &&
		text_is_insert(((PlnStmtExecSql *) last)->sqlstmt->query);
}

/*
 * The write path's conditions on the block and on the moment, in one
 * table read by the run time (pln_write_path_mark, write_path_may_start),
 * the plan view and the checker (block_why_not_now): X(fails, reason),
 * one row per condition in the order they are tested; "fails" is true
 * when the condition does not hold, "reason" is what the plan view and
 * the checker say then.  The rows read block (the block with handlers)
 * and estate (the call).
 *
 * WRITE_BLOCK_CONDITIONS are checked when the function is compiled
 * (pln_write_path_mark); WRITE_MOMENT_CONDITIONS each time the INSERT
 * starts (write_path_may_start), and by the plan view as they are when it
 * runs, not by the checker.  The conditions on the statement and its
 * table have reasons naming what fails: analyse_query,
 * raw_statement_why_not and table_why_not, which all three use too.
 */
#define WRITE_BLOCK_CONDITIONS(X) \
	X(!handlers_catch_only_unique_violation(block), \
	  "its handlers catch conditions other than unique_violation") \
	X(block->body == NIL, \
	  "its body is empty") \
	X(!ends_with_insert(block), \
	  "its body does not end with an INSERT")

#define WRITE_MOMENT_CONDITIONS(X) \
	X(!pln_write_path, \
	  "plnimble.write_path is off") \
	X(GetCurrentTransactionNestLevel() != 1, \
	  "a subtransaction is open (a SAVEPOINT, or an exception block of a caller)") \
	X(XactIsoLevel != XACT_READ_COMMITTED, \
	  "the transaction is not READ COMMITTED") \
	X(XactReadOnly || estate->readonly_func, \
	  "the transaction or the function is read-only") \
	X(IsInParallelMode(), \
	  "the transaction is in parallel mode")

#define WRITE_CONDITION_TEST(fails, reason) \
	if (fails) \
		return reason;

/*
 * Why a block with handlers cannot use the write path whatever its INSERT
 * is, or NULL; *insert is then its last statement.
 */
static const char *
block_why_not(PlnStmtBlock *block, PlnStmtExecSql **insert)
{
	*insert = NULL;
	WRITE_BLOCK_CONDITIONS(WRITE_CONDITION_TEST)
	*insert = (PlnStmtExecSql *) llast(block->body);
	return NULL;
}

/* Why the moment does not allow the write path, or NULL */
static inline const char *
moment_why_not(PlnExecState *estate)
{
	WRITE_MOMENT_CONDITIONS(WRITE_CONDITION_TEST)
	return NULL;
}

/* For the checker: do the block's handlers catch only unique_violation? */
bool
pln_handlers_catch_only_unique_violation(PlnStmtBlock *block)
{
	return handlers_catch_only_unique_violation(block);
}

/*
 * Mark the INSERTs that may take the write path: each is the last
 * statement of a block whose handlers catch only unique_violation, and
 * that block is not in the protected part of another block with handlers
 * of the same function (whose subtransaction would be open: see
 * write_path_may_start).  Walks the tree without recursing, as
 * pln_stack_check_points does; each pending list carries whether it is
 * inside such a protected part.  Allocates in the current memory context
 * (the function's).
 */
void
pln_write_path_mark(PlnFunction *func)
{
	List	   *pending = list_make1(list_make1(func->action));
	List	   *protected = list_make1_int(0);

	while (pending != NIL)
	{
		List	   *stmts = (List *) llast(pending);
		bool		inside = llast_int(protected) != 0;
		ListCell   *lc;

		pending = list_delete_last(pending);
		protected = list_delete_last(protected);
		foreach(lc, stmts)
		{
			PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
			ListCell   *b;

			if (stmt->cmd_type == PLN_STMT_BLOCK &&
				((PlnStmtBlock *) stmt)->exceptions != NULL)
			{
				PlnStmtBlock *block = (PlnStmtBlock *) stmt;
				PlnStmtExecSql *insert;

				if (!inside && block_why_not(block, &insert) == NULL)
				{
					insert->write_path = PLN_WRITE_PATH_CANDIDATE;
					insert->wpath = palloc0(sizeof(PlnWritePath));
					insert->wpath->block = block;
				}
				/* its body is protected; its handlers run outside it */
				pending = lappend(pending, block->body);
				protected = lappend_int(protected, 1);
				foreach(b, block->exceptions->actions)
				{
					pending = lappend(pending,
									  ((PlnExceptionAction *) lfirst(b))->action);
					protected = lappend_int(protected, inside);
				}
				continue;
			}
			foreach(b, pln_stmt_nested_bodies(stmt))
			{
				pending = lappend(pending, lfirst(b));
				protected = lappend_int(protected, inside);
			}
		}
	}
}

/* ----------
 * What the statement and the table must be
 * ----------
 */

/* Functions that change nothing a rollback would undo, though not pure */
static const Oid harmless_functions[] = {
	F_NOW,						/* now(), CURRENT_TIMESTAMP's function */
	F_STATEMENT_TIMESTAMP,
	F_CLOCK_TIMESTAMP,
	F_TIMEOFDAY,
	PLN_F_RANDOM,
	F_GEN_RANDOM_UUID,

	/*
	 * A sequence's value is not rolled back by a subtransaction's end
	 * either: nextval() gives the same numbers with or without one.
	 */
	F_NEXTVAL,
};

static Oid	index_access_method(Oid indexoid);
static bool key_equality_functions(PlnUniqueKey *key);

typedef struct EffectsContext
{
	PlnFunction *func;
	const char *culprit;		/* what has an effect, for the plan view */
} EffectsContext;

/*
 * Does the expression (of an INSERT's target list, a CHECK constraint or
 * a generated column) do anything that a subtransaction's rollback would
 * undo, or could it run code that does?  Functions on the pure list
 * (purity.c) and harmless_functions[] do nothing of the kind; everything
 * else, among them domain checks, sub-selects and other functions, is
 * assumed to.  Columns of the row and the function's variables are read
 * only.
 */
static bool
has_effects_walker(Node *node, EffectsContext *context)
{
	Oid			funcid = InvalidOid;

	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_Const:
		case T_Var:
		case T_Param:
		case T_RelabelType:
		case T_BoolExpr:
		case T_CaseExpr:
		case T_CaseWhen:
		case T_CaseTestExpr:
		case T_CoalesceExpr:
		case T_NullTest:
		case T_BooleanTest:
		case T_SQLValueFunction:

			/*
			 * An identity column's default: the sequence's advance is not
			 * rolled back by a subtransaction's end, as for nextval()
			 */
		case T_NextValueExpr:
		case T_TargetEntry:
		case T_List:
			break;
		case T_FuncExpr:
			funcid = ((FuncExpr *) node)->funcid;
			break;
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			set_opfuncid((OpExpr *) node);
			funcid = ((OpExpr *) node)->opfuncid;
			break;
		case T_CoerceViaIO:
			{
				CoerceViaIO *io = (CoerceViaIO *) node;

				/* the I/O functions of built-in types change nothing */
				if (exprType((Node *) io->arg) >= FirstGenbkiObjectId ||
					io->resulttype >= FirstGenbkiObjectId)
				{
					context->culprit = "a conversion of a type that is not built in";
					return true;
				}
				break;
			}
		case T_CoerceToDomain:
			context->culprit = "a domain's check";
			return true;
		default:
			context->culprit = "an expression of a kind not reviewed";
			return true;
	}
	if (OidIsValid(funcid) &&
		!pln_function_is_on_pure_list(funcid) &&
		!pln_oid_in_list(funcid, harmless_functions,
						 lengthof(harmless_functions)))
	{
		context->culprit = psprintf("function %s", pln_format_routine(funcid));
		return true;
	}
	return expression_tree_walker(node, has_effects_walker, (void *) context);
}

/* NULL if the expression has no effects, else what has */
static const char *
effects_of(Node *node, PlnFunction *func)
{
	EffectsContext context;

	context.func = func;
	context.culprit = NULL;
	if (has_effects_walker(node, &context))
		return context.culprit;
	return NULL;
}

/* The target list entry of a column, or NULL */
static TargetEntry *
column_entry(Query *query, AttrNumber attnum)
{
	ListCell   *lc;

	foreach(lc, query->targetList)
	{
		TargetEntry *tle = (TargetEntry *) lfirst(lc);

		if (tle->resno == attnum)
			return tle;
	}
	return NULL;
}

/*
 * Why the values the statement's plan computes have effects, or NULL.
 * What runs, below the executor or through SPI, is the planned target
 * list, not the query's: the planner adds an entry for every column the
 * INSERT leaves out, and for a column of a domain type that entry is NULL
 * coerced to the domain, whose check then runs for the row though the
 * query never names it.  (Any domain's check counts, as in the query's
 * own values: its constraints can change without the plan changing.)
 */
static const char *
planned_values_why_not(SPIPlanPtr plan, PlnFunction *func)
{
	CachedPlan *cplan = SPI_plan_get_cached_plan(plan);
	PlannedStmt *pstmt = NULL;
	const char *why;

	if (cplan == NULL)
		return "a plan that cannot be made";
	if (list_length(cplan->stmt_list) == 1)
		pstmt = linitial_node(PlannedStmt, cplan->stmt_list);
	if (pstmt == NULL || !IsA(pstmt->planTree, ModifyTable) ||
		outerPlan(pstmt->planTree) == NULL)
		why = "a plan of another shape";
	else
		why = effects_of((Node *) outerPlan(pstmt->planTree)->targetlist,
						 func);
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
	return why;
}

/*
 * Why the analysed query (the statement's, with ON CONFLICT DO NOTHING)
 * cannot take the write path, or NULL.  Sets wpath->relid.
 */
static const char *
analyse_query(PlnExecState *estate, PlnStmtExecSql *stmt,
			  CachedPlanSource *plansource)
{
	PlnWritePath *wpath = stmt->wpath;
	Query	   *query;
	const char *why;
	ListCell   *lc;
	int			nreturning = 0;

	if (list_length(plansource->query_list) != 1)
		return "a rule turns it into more than one statement";
	query = linitial_node(Query, plansource->query_list);
	if (query->commandType != CMD_INSERT || query->onConflict == NULL ||
		query->onConflict->action != ONCONFLICT_NOTHING)
		return "a rule turns it into another statement";
	if (query->cteList != NIL || query->hasModifyingCTE)
		return "it has a WITH clause";
	if (query->hasSubLinks)
		return "it has a sub-select";
	wpath->relid = rt_fetch(query->resultRelation, query->rtable)->relid;

	/* a view's INSERT runs on its table, but locks the view too */
	foreach(lc, query->rtable)
	{
		RangeTblEntry *rte = (RangeTblEntry *) lfirst(lc);

		if (rte->rtekind == RTE_RELATION && rte->relid != wpath->relid)
			return "it inserts into a view";
	}

	why = effects_of((Node *) query->targetList, stmt->sqlstmt->func);
	if (why != NULL)
		return psprintf("its values call %s", why);
	why = planned_values_why_not(wpath->expr->plan, stmt->sqlstmt->func);
	if (why != NULL)
		return psprintf("its planned values call %s", why);

	foreach(lc, query->returningList)
	{
		TargetEntry *tle = (TargetEntry *) lfirst(lc);

		if (!IsA(tle->expr, Var))
			return "RETURNING computes more than columns";
		if (!pln_var_of_new_row((Var *) tle->expr))
			return "its RETURNING names OLD or NEW";
		nreturning++;
	}

	/* INTO: storing the values must be plain copies, nothing to convert */
	if (stmt->into)
	{
		PlnRow	   *row;
		int			i = 0;

		if (stmt->target == NULL || stmt->target->dtype != PLN_DTYPE_ROW)
			return "INTO a record";
		row = (PlnRow *) estate->datums[stmt->target->dno];
		if (row->rowtupdesc != NULL || row->nfields != nreturning)
			return "INTO a row or a different number of variables";
		foreach(lc, query->returningList)
		{
			TargetEntry *tle = (TargetEntry *) lfirst(lc);
			PlnDatum   *datum = estate->datums[row->varnos[i++]];

			if (datum->dtype != PLN_DTYPE_VAR ||
				((PlnVar *) datum)->datatype->typoid != exprType((Node *) tle->expr) ||
				((PlnVar *) datum)->datatype->typtype == TYPTYPE_DOMAIN)
				return "INTO a variable of another type than its column";
		}
	}
	return NULL;
}

/*
 * Why the table's triggers keep its INSERT off the write path, or NULL;
 * *fires_ri_checks: the INSERT fires foreign key checks.  Triggers on
 * other events (UPDATE, DELETE, TRUNCATE: those of a table that foreign
 * keys reference, among them) do not fire on an INSERT.  Of those on
 * INSERT, only the foreign key's check of the new row (the table is the
 * referencing one) is taken: the server's own trigger, after each row,
 * fired at the end of the statement, which the direct insertion queues
 * and fires as the executor does (write_direct.c), so that it checks,
 * locks and fails as after the plain INSERT.  A deferrable one is not
 * taken (its check would wait for the commit).  Every other trigger on
 * INSERT could run any code, before or after the row, with transition
 * tables: not taken.
 */
static const char *
insert_triggers_why_not(TriggerDesc *trigdesc, bool *fires_ri_checks)
{
	int			i;

	*fires_ri_checks = false;
	for (i = 0; trigdesc != NULL && i < trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &trigdesc->triggers[i];

		if (!TRIGGER_FOR_INSERT(trigger->tgtype))
			continue;
		if (!trigger->tgisinternal || trigger->tgfoid != F_RI_FKEY_CHECK_INS ||
			!TRIGGER_FOR_ROW(trigger->tgtype) ||
			!TRIGGER_FOR_AFTER(trigger->tgtype) ||
			trigger->tgnewtable != NULL || trigger->tgqual != NULL)
			return "it has triggers on INSERT (other than the checks of its foreign keys)";
		if (trigger->tgdeferrable || trigger->tginitdeferred)
			return "it has a deferrable foreign key";
		*fires_ri_checks = true;
	}
	return NULL;
}

/*
 * Why the table's index entries keep its INSERT off the write path, or
 * NULL; records how the duplicate may be found (look_first_exact) and
 * named (spi_names_duplicate).  indexes: the table's, in the relation
 * cache's order, the order the INSERT writes them in.
 *
 * The plain INSERT writes the heap tuple, then the index entries in that
 * order, and fails at the first unique index with the duplicate.  The
 * direct insertion does the same and stops there too
 * (pln_index_entry_is_exact), whatever the indexes' kinds.  Looking for the
 * key first skips the heap tuple and the entries before the duplicate's
 * index: exact only where none of those can fail by itself
 * (pln_row_cannot_be_too_big, pln_index_entry_cannot_fail).  Through SPI,
 * ON CONFLICT looks first and then writes every entry, past the duplicate:
 * exact only where no entry can fail, with one unique index, whose key can
 * be computed again to name the duplicate (describe_duplicate).  (Each
 * index is locked only while it is looked at, as the INSERT locks it.)
 */
static const char *
index_entries_why_not(PlnWritePath *wpath, Relation rel, List *indexes)
{
	bool		before_cannot_fail = pln_row_cannot_be_too_big(RelationGetDescr(rel));
	bool		all_cannot_fail = before_cannot_fail;
	const char *why = NULL;
	ListCell   *lc;
	int			nuniques = 0;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), RowExclusiveLock);
		bool		unique = index->rd_index->indisunique;

		if (!pln_index_entry_is_exact(index, unique))
			why = "it has an index of a kind not reviewed (an operator class, access method or column type that is not built in, or a unique index in a nondeterministic collation)";
		if (unique && nuniques < wpath->nuniques)
			wpath->uniques[nuniques++].look_first_exact = before_cannot_fail;
		if (!pln_index_entry_cannot_fail(index, unique))
			all_cannot_fail = false;
		/* (a duplicate's own entry is no bigger than the one it meets) */
		if (!pln_index_entry_cannot_fail(index, false))
			before_cannot_fail = false;
		index_close(index, RowExclusiveLock);
		if (why != NULL)
			break;
	}
	wpath->spi_names_duplicate = all_cannot_fail && wpath->nuniques == 1 &&
		wpath->uniques[0].fixed;
	return why;
}

/*
 * Why the table cannot take the write path for this query, or NULL;
 * records its unique index and all its indexes in wpath.  The table and
 * its indexes are locked (by the caller) at least in lockmode.
 */
static const char *
table_why_not(PlnWritePath *wpath, Query *query, LOCKMODE lockmode)
{
	Relation	rel = table_open(wpath->relid, lockmode);
	TupleConstr *constr = RelationGetDescr(rel)->constr;
	const char *why = NULL;
	List	   *indexes;
	ListCell   *lc;
	int			i;

	if (rel->rd_rel->relkind != RELKIND_RELATION)
		why = "it is not a plain table";
	else if (rel->rd_rel->relispartition)
		why = "it is a partition";
	else if ((why = insert_triggers_why_not(rel->trigdesc,
											&wpath->fires_ri_checks)) != NULL)
		;
	else if (rel->rd_rules != NULL)
		why = "it has rules";
	else if (rel->rd_rel->relrowsecurity)
		why = "it has row-level security";
	else if (IsCatalogRelation(rel) || RelationIsUsedAsCatalogTable(rel))
		why = "it is a catalog table";

	/* CHECK constraints and generated columns, computed before the write */
	for (i = 0; why == NULL && constr != NULL && i < constr->num_check; i++)
	{
		const char *effects = effects_of(stringToNode(constr->check[i].ccbin),
										 NULL);

		if (effects != NULL)
			why = psprintf("its CHECK constraint \"%s\" calls %s",
						   constr->check[i].ccname, effects);
	}
	for (i = 0; why == NULL && constr != NULL && i < constr->num_defval; i++)
	{
		AttrDefault *def = &constr->defval[i];
		const char *effects;

		if (!TupleDescAttr(RelationGetDescr(rel), def->adnum - 1)->attgenerated)
			continue;
		effects = effects_of(stringToNode(def->adbin), NULL);
		if (effects != NULL)
			why = psprintf("its generated column \"%s\" calls %s",
						   NameStr(TupleDescAttr(RelationGetDescr(rel),
												 def->adnum - 1)->attname),
						   effects);
	}

	/*
	 * The indexes are read from the catalogs, not opened: the INSERT locks
	 * them only while it runs, and so must we (a lock taken here would be
	 * held until the transaction ends).
	 */
	indexes = RelationGetIndexList(rel);
	wpath->nuniques = 0;
	foreach(lc, indexes)
	{
		Oid			indexoid = lfirst_oid(lc);
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexoid));
		Form_pg_index form;

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "cache lookup failed for index %u", indexoid);
		form = (Form_pg_index) GETSTRUCT(tuple);
		if (why != NULL)
			;
		else if (!form->indisvalid || !form->indisready || !form->indislive)
			why = "it has an index that is being built or is not valid";
		else if (form->indisexclusion)
			why = "it has an exclusion constraint";
		else if (!heap_attisnull(tuple, Anum_pg_index_indexprs, NULL))
			why = "it has an index on expressions";
		else if (!heap_attisnull(tuple, Anum_pg_index_indpred, NULL))
			why = "it has a partial index";
		else if (form->indisunique)
		{
			if (!form->indimmediate)
				why = "it has a deferrable unique constraint";
			else if (index_access_method(indexoid) != BTREE_AM_OID)
				why = "it has a unique index that is not a B-tree";
			else if (wpath->nuniques == PLN_MAX_UNIQUE_INDEXES)
				why = psprintf("it has more than %d unique indexes",
							   PLN_MAX_UNIQUE_INDEXES);
			else
			{
				PlnUniqueKey *key = &wpath->uniques[wpath->nuniques++];

				key->index = indexoid;
				key->nkeys = form->indnkeyatts;

				/*
				 * Can the key's values be computed again, to name the
				 * duplicate when the statement ran through SPI?  (Below the
				 * executor they are read from the row: any will do, a
				 * sequence's or an identity column's next value too.)
				 */
				key->fixed = true;
				for (i = 0; i < form->indnkeyatts; i++)
				{
					TargetEntry *tle = column_entry(query, form->indkey.values[i]);

					if (tle == NULL ||
						contain_mutable_functions((Node *) tle->expr))
						key->fixed = false;
				}
			}
		}
		ReleaseSysCache(tuple);
	}
	if (why == NULL && wpath->nuniques == 0)
		why = "it has no unique index";

	if (why == NULL)
		why = index_entries_why_not(wpath, rel, indexes);
	list_free(indexes);

	/* what looking for the keys first needs (write_direct.c) */
	for (i = 0; why == NULL && i < wpath->nuniques; i++)
		wpath->uniques[i].eqprocs_ok = key_equality_functions(&wpath->uniques[i]);

	table_close(rel, NoLock);
	return why;
}

/* ----------
 * Preparing the statement's ON CONFLICT DO NOTHING form
 * ----------
 */

/*
 * Why the raw statement is not a single-row INSERT ... VALUES of the kind
 * the write path takes, or NULL.
 */
static const char *
raw_statement_why_not(CachedPlanSource *plansource)
{
	InsertStmt *insert;
	SelectStmt *select;
	List	   *returning;
	bool		returning_options;
	ListCell   *lc;

	if (plansource->raw_parse_tree == NULL ||
		!IsA(plansource->raw_parse_tree->stmt, InsertStmt))
		return "it is not a plain INSERT";
	insert = (InsertStmt *) plansource->raw_parse_tree->stmt;
	if (insert->withClause != NULL)
		return "it has a WITH clause";
	if (insert->onConflictClause != NULL)
		return "it has an ON CONFLICT clause";
	select = (SelectStmt *) insert->selectStmt;
	if (select == NULL)
		return "it inserts DEFAULT VALUES";
	if (!IsA(select, SelectStmt) || select->valuesLists == NIL ||
		select->op != SETOP_NONE || select->withClause != NULL ||
		select->sortClause != NIL || select->limitCount != NULL ||
		select->limitOffset != NULL || select->lockingClause != NIL)
		return "it inserts the result of a query";
	if (list_length(select->valuesLists) != 1)
		return "it inserts more than one row";
	returning = pln_insert_returning(insert, &returning_options);
	if (returning_options)
		return "its RETURNING renames OLD or NEW";
	foreach(lc, returning)
	{
		ResTarget  *target = (ResTarget *) lfirst(lc);
		ColumnRef  *ref = (ColumnRef *) target->val;

		if (!IsA(ref, ColumnRef))
			return "RETURNING computes more than columns";

		/*
		 * old.x and new.x: from 18 on the row before and after the
		 * statement (old.x is null for an INSERT), which the direct
		 * insert's projection of the new row does not know.  A table or
		 * alias of that name (the only meaning before 18) loses nothing
		 * but the write path.
		 */
		if (list_length(ref->fields) > 1 && IsA(linitial(ref->fields), String) &&
			(strcmp(strVal(linitial(ref->fields)), "old") == 0 ||
			 strcmp(strVal(linitial(ref->fields)), "new") == 0))
			return "its RETURNING names OLD or NEW";
	}
	return NULL;
}

/* The one plan source of a prepared statement */
static CachedPlanSource *
the_plan_source(SPIPlanPtr plan)
{
	List	   *sources = SPI_plan_get_plan_sources(plan);

	if (list_length(sources) != 1)
		return NULL;
	return (CachedPlanSource *) linitial(sources);
}

/*
 * Prepare the expression's query through SPI and keep the plan, as
 * exec_prepare_plan does but without passing the gate (which would start
 * the block's subtransaction): the caller runs it in a subtransaction of
 * its own, which it rolls back.
 */
static void
prepare_plan(PlnExpr *expr)
{
	SPIPrepareOptions options;
	SPIPlanPtr	plan;
	MemoryContext oldcontext;

	memset(&options, 0, sizeof(options));
	options.parserSetup = (ParserSetupHook) pln_parser_setup;
	options.parserSetupArg = (void *) expr;
	options.parseMode = expr->parseMode;
	options.cursorOptions = CURSOR_OPT_PARALLEL_OK;
	plan = SPI_prepare_extended(expr->query, &options);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare_extended failed for \"%s\": %s",
			 expr->query, SPI_result_code_string(SPI_result));
	SPI_keepplan(plan);
	expr->plan = plan;

	/* recompiling the function frees it */
	oldcontext = MemoryContextSwitchTo(expr->func->fn_cxt);
	expr->func->planned_exprs = lappend(expr->func->planned_exprs, expr);
	MemoryContextSwitchTo(oldcontext);
}

/* What refresh_write_plan does in its subtransaction */
typedef struct RefreshWritePlanArgs
{
	PlnExecState *estate;
	PlnStmtExecSql *stmt;
	const char *why;
} RefreshWritePlanArgs;

static void
refresh_write_plan_work(void *arg)
{
	RefreshWritePlanArgs *args = (RefreshWritePlanArgs *) arg;
	PlnStmtExecSql *stmt = args->stmt;
	PlnWritePath *wpath = stmt->wpath;
	PlnFunction *func = stmt->sqlstmt->func;
	PlnExpr    *expr = wpath->expr;
	CachedPlanSource *plansource;
	CachedPlan *cplan;

	if (expr->plan == NULL)
	{
		prepare_plan(expr);
		plansource = the_plan_source(expr->plan);
		args->why = plansource ? raw_statement_why_not(plansource) :
			"it is more than one statement";
		if (args->why == NULL)
		{
			InsertStmt *insert = (InsertStmt *) plansource->raw_parse_tree->stmt;
			OnConflictClause *clause;

			clause = MemoryContextAllocZero(plansource->context,
											sizeof(OnConflictClause));
			clause->type = T_OnConflictClause;
			clause->action = ONCONFLICT_NOTHING;
			clause->location = -1;
			insert->onConflictClause = clause;
			plansource->is_valid = false;
		}
	}
	if (args->why == NULL)
	{
		plansource = the_plan_source(expr->plan);
		cplan = SPI_plan_get_cached_plan(expr->plan);
		if (cplan == NULL)
			elog(ERROR, "could not plan \"%s\"", expr->query);
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
		args->why = analyse_query(args->estate, stmt, plansource);
	}
	if (args->why != NULL)
		args->why = MemoryContextStrdup(func->fn_cxt, args->why);
}

/*
 * Make (first) or bring up to date the statement's ON CONFLICT DO NOTHING
 * form, and analyse its query.  The first time, the statement's text is
 * prepared again, the clause is added to the raw parse tree of its plan
 * source, and the plan source is marked invalid, so that the plan cache
 * analyses it again, then and whenever an invalidation requires it.  The
 * text stays the user's, so that errors show it and positions in it stay
 * right.  Bringing it up to date runs parse analysis again if the plan
 * cache invalidated it.
 *
 * A failure only means that the statement cannot take the path (ON
 * CONFLICT has restrictions of its own, and the plain statement will fail
 * on its own if it must): it is caught in a subtransaction of our own,
 * rolled back, and the statement never takes the path again.
 */
static void
refresh_write_plan(PlnExecState *estate, PlnStmtExecSql *stmt)
{
	PlnWritePath *wpath = stmt->wpath;
	PlnFunction *func = stmt->sqlstmt->func;
	RefreshWritePlanArgs args;
	ErrorData  *edata;
	const char *why;

	/* (the values compiled for the plan this replaces) */
	pln_forget_direct_values(&wpath->direct_values);

	if (wpath->expr == NULL)
	{
		PlnExpr    *orig = stmt->sqlstmt;
		PlnExpr    *expr = MemoryContextAllocZero(func->fn_cxt, sizeof(PlnExpr));

		expr->query = orig->query;
		expr->parseMode = orig->parseMode;
		expr->location = orig->location;
		expr->ns = orig->ns;
		expr->func = func;
		expr->target_param = -1;
		wpath->expr = expr;
	}

	/*
	 * Rolled back, not committed: what parsing and planning did in the
	 * database is taking locks, which the INSERT takes again itself when it
	 * runs (the plan stays, outside any transaction).
	 */
	args.estate = estate;
	args.stmt = stmt;
	args.why = NULL;
	edata = pln_try_in_subtransaction(refresh_write_plan_work, &args, true);
	why = args.why;
	if (edata != NULL)
	{
		if (wpath->expr->plan != NULL)
		{
			SPI_freeplan(wpath->expr->plan);
			wpath->expr->plan = NULL;
		}
		/* a cancel is not ours to swallow */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		why = MemoryContextStrdup(func->fn_cxt,
								  psprintf("its ON CONFLICT form fails: %s",
										   edata->message));
		FreeErrorData(edata);
	}

	wpath->query_why_not = why;
	wpath->table_epoch = 0;
	stmt->write_path = (wpath->expr->plan != NULL) ?
		PLN_WRITE_PATH_READY : PLN_WRITE_PATH_NEVER;
}

/* ----------
 * Running it
 * ----------
 */

/*
 * The table's column of each key column of the unique index, and its
 * equality function, for looking a key up in it; false if one cannot be
 * found.
 */
static bool
key_equality_functions(PlnUniqueKey *key)
{
	Relation	index = index_open(key->index, AccessShareLock);
	bool		ok = true;
	int			i;

	for (i = 0; i < key->nkeys; i++)
	{
		Oid			eqop = get_opfamily_member(index->rd_opfamily[i],
											   index->rd_opcintype[i],
											   index->rd_opcintype[i],
											   BTEqualStrategyNumber);

		key->attnums[i] = index->rd_index->indkey.values[i];
		key->collations[i] = index->rd_indcollation[i];
		key->eqprocs[i] = OidIsValid(eqop) ? get_opcode(eqop) : InvalidOid;
		if (!OidIsValid(key->eqprocs[i]))
			ok = false;
	}
	/* (the statement locks the index only while it runs: so do we) */
	index_close(index, AccessShareLock);
	return ok;
}

/* The access method of an index */
static Oid
index_access_method(Oid indexoid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(indexoid));
	Oid			amoid;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", indexoid);
	amoid = ((Form_pg_class) GETSTRUCT(tuple))->relam;
	ReleaseSysCache(tuple);
	return amoid;
}

/* Does the transaction hold the relation's lock in the INSERT's mode? */
static bool
holds_row_exclusive_lock(Oid relid)
{
	LOCKTAG		tag;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	return pln_lock_held_by_me(&tag, RowExclusiveLock);
}

/*
 * Release the table lock of relid that a run of the write path took
 * (took_lock), for a statement that wrote nothing: a rolled-back
 * subtransaction would have released it (the INSERT's own acquisitions
 * of it, under the same resource owner, go too).
 */
static void
release_table_lock(Oid relid, bool took_lock)
{
	LOCKTAG		tag;

	if (!took_lock)
		return;
	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	while (pln_lock_held_by_me(&tag, RowExclusiveLock))
	{
		/* (every count was taken since, under the current owner) */
		if (!LockRelease(&tag, RowExclusiveLock, false))
			break;
	}
}

/* Keep the names the error of a duplicate shows (see describe_duplicate) */
static void
remember_names(PlnWritePath *wpath)
{
	MemoryContext cxt = GetMemoryChunkContext(wpath);
	char	   *schema = get_namespace_name(get_rel_namespace(wpath->relid));

	int			i;

	for (i = 0; i < wpath->nuniques; i++)
	{
		if (wpath->uniques[i].name)
			pfree(wpath->uniques[i].name);
		wpath->uniques[i].name = MemoryContextStrdup(cxt,
													 get_rel_name(wpath->uniques[i].index));
	}
	if (wpath->table_name)
		pfree(wpath->table_name);
	if (wpath->schema_name)
		pfree(wpath->schema_name);
	wpath->table_name = MemoryContextStrdup(cxt, get_rel_name(wpath->relid));
	wpath->schema_name = MemoryContextStrdup(cxt, schema);
}

/*
 * Do the run-time conditions hold for taking the write path now?  The
 * block's frame is marked while they are checked (so that the checking
 * build sees the checks as the path's, not as pure work).
 *
 * The table is locked first, in the INSERT's mode, as the INSERT itself
 * would lock it when its plan is fetched: taking the lock processes the
 * invalidations other sessions have committed, so the checks see the
 * table as the INSERT will, and holding it keeps out every change to the
 * table's triggers, rules, indexes and constraints until the transaction
 * ends.  If the transaction did not hold it before, it is released again
 * when nothing is written (release_table_lock), as the rollback of the
 * block's subtransaction would: *took_lock says whether it must be.
 */
static bool
may_write_now(PlnExecState *estate, PlnStmtExecSql *stmt, bool *took_lock)
{
	PlnWritePath *wpath = stmt->wpath;
	Oid			locked;

	if (wpath->query_why_not != NULL)
		return false;
	locked = wpath->relid;
	*took_lock = !holds_row_exclusive_lock(locked);
	if (*took_lock)
		LockRelationOid(locked, RowExclusiveLock);

	/* (an invalidation processed just now, or earlier in the transaction) */
	if (!SPI_plan_is_valid(wpath->expr->plan))
	{
		refresh_write_plan(estate, stmt);

		/*
		 * The statement may name another table now (one dropped and made
		 * again): not locked by us, so not this time.
		 */
		if (wpath->relid != locked)
		{
			release_table_lock(locked, *took_lock);
			*took_lock = false;
			return false;
		}
		if (stmt->write_path != PLN_WRITE_PATH_READY ||
			wpath->query_why_not != NULL ||
			!SPI_plan_is_valid(wpath->expr->plan))
			return false;
	}
	if (wpath->table_epoch != pln_relcache_epoch)
	{
		CachedPlanSource *plansource = the_plan_source(wpath->expr->plan);
		MemoryContext oldcontext;
		const char *why;

		oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
		why = table_why_not(wpath,
							linitial_node(Query, plansource->query_list),
							NoLock);
		MemoryContextSwitchTo(oldcontext);
		wpath->table_why_not = why ?
			MemoryContextStrdup(GetMemoryChunkContext(wpath), why) : NULL;
		if (why == NULL)
			remember_names(wpath);
		wpath->table_epoch = pln_relcache_epoch;
	}
	return wpath->table_why_not == NULL;
}

/*
 * Above this moving average of the runs that found a duplicate, the key
 * is looked for before the row is written (write_direct.c).  Only speed
 * depends on it.
 */
#define DUPLICATES_COMMON 0.3f

/*
 * May the statement take the write path now?  Then the innermost frame is
 * marked for the write (pln_begin_unprotected_write), the table locked,
 * and *took_lock says whether this run took the lock.  Otherwise the
 * statement has passed the gate (its block has its subtransaction), and
 * returns false.
 */
static bool
write_path_may_start(PlnExecState *estate, PlnStmtExecSql *stmt,
					 bool *took_lock)
{
	PlnSavepointFrame *frame = estate->sp_top;

	*took_lock = false;

	/*
	 * The block's frame must be the innermost, without its subtransaction,
	 * and the moment must allow (WRITE_MOMENT_CONDITIONS).  No
	 * subtransaction may be open (a SAVEPOINT, a block of a caller, a
	 * block around this one): the row would belong to it, where PL/pgSQL's
	 * belongs to the block's own subtransaction, committed into it, and a
	 * concurrent inserter of the same key waits for the one or the other
	 * differently (for the top-level transaction under PL/pgSQL, so it
	 * keeps waiting when the enclosing subtransaction is rolled back).
	 */
	if (frame != NULL && !frame->materialized && frame->outer == NULL &&
		frame->block == stmt->wpath->block && moment_why_not(estate) == NULL)
	{
		pln_begin_unprotected_write(estate);
		if (stmt->write_path == PLN_WRITE_PATH_CANDIDATE)
			refresh_write_plan(estate, stmt);
		if (stmt->write_path == PLN_WRITE_PATH_READY &&
			may_write_now(estate, stmt, took_lock))
			return true;
		release_table_lock(stmt->wpath->relid, *took_lock);
		*took_lock = false;
		pln_end_unprotected_write(estate);
	}

	pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);

	/* for the next time */
	if (stmt->write_path == PLN_WRITE_PATH_CANDIDATE ||
		(stmt->write_path == PLN_WRITE_PATH_READY &&
		 !SPI_plan_is_valid(stmt->wpath->expr->plan)))
		refresh_write_plan(estate, stmt);
	return false;
}

/*
 * Evaluate the expression of a key column's target list entry of the
 * statement's query (immutable, or the statement does not qualify:
 * table_why_not), with the function's variables, in the current memory
 * context.
 */
static Datum
evaluate_target(PlnExecState *estate, TargetEntry *tle, bool *isnull)
{
	ExprContext *econtext = estate->eval_econtext;
	Expr	   *expr = expression_planner((Expr *) copyObject(tle->expr));
	ExprState  *state = ExecInitExprWithParams(expr, estate->paramLI);
	Datum		value;

	econtext->ecxt_param_list_info = estate->paramLI;
	value = ExecEvalExpr(state, econtext, isnull);
	econtext->ecxt_param_list_info = NULL;
	return value;
}

/*
 * Compute the values of the duplicate key, as the INSERT computed them:
 * the key columns' expressions are immutable functions of constants and
 * the function's variables (table_why_not), which have not changed since.
 */
static void
evaluate_key(PlnExecState *estate, Query *query, Relation index,
			 Datum *values, bool *isnull)
{
	int			i;

	for (i = 0; i < index->rd_index->indnkeyatts; i++)
		values[i] = evaluate_target(estate,
									column_entry(query, index->rd_index->indkey.values[i]),
									&isnull[i]);
}

/*
 * Find what the unique_violation of the plain INSERT would have said,
 * given that its ON CONFLICT DO NOTHING form inserted nothing.  The
 * conflict was with one of the arbiters the executor saw, which are those
 * of the table as its relation cache entry is now: if that is still the one
 * unique index of the checks (a concurrent CREATE INDEX may have added
 * one meanwhile), it is the one.  Else returns false.  Allocates in the
 * expression context's scratch memory, which the catch resets.
 */
static bool
describe_duplicate(PlnExecState *estate, PlnStmtExecSql *stmt,
				   DuplicateReport *report)
{
	PlnWritePath *wpath = stmt->wpath;
	CachedPlanSource *plansource = the_plan_source(wpath->expr->plan);
	Query	   *query;
	Relation	rel;
	Relation	index;
	List	   *indexes;
	ListCell   *lc;
	int			narbiters = 0;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	if (plansource == NULL || !plansource->is_valid ||
		list_length(plansource->query_list) != 1)
		return false;
	query = linitial_node(Query, plansource->query_list);
	if (rt_fetch(query->resultRelation, query->rtable)->relid != wpath->relid)
		return false;

	/*
	 * No relation cache invalidation since the checks (the common case):
	 * the table's arbiters are the one unique index of the checks, and its
	 * names are those remembered then.  The DETAIL is not built when nobody
	 * can see it (see pln_error_context_unseen: the handler neither shows
	 * the error's fields nor re-throws it); it costs more than the rest.
	 */
	if (wpath->table_epoch == pln_relcache_epoch)
	{
		report->index_name = wpath->uniques[0].name;
		report->table_name = wpath->table_name;
		report->schema_name = wpath->schema_name;
		report->key = NULL;
		if (pln_write_path_error_unseen(estate))
			return true;
		index = index_open(wpath->uniques[0].index, RowExclusiveLock);
		evaluate_key(estate, query, index, values, isnull);
		report->key = BuildIndexValueDescription(index, values, isnull);
		index_close(index, RowExclusiveLock);
		return true;
	}

	/* (the INSERT has locked the table, and locked its indexes while it ran) */
	rel = table_open(wpath->relid, NoLock);
	indexes = RelationGetIndexList(rel);
	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID,
											ObjectIdGetDatum(lfirst_oid(lc)));
		Form_pg_index form;

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "cache lookup failed for index %u", lfirst_oid(lc));
		form = (Form_pg_index) GETSTRUCT(tuple);
		if ((form->indisunique || form->indisexclusion) && form->indisready)
			narbiters++;
		ReleaseSysCache(tuple);
	}
	if (narbiters != 1 || !list_member_oid(indexes, wpath->uniques[0].index))
	{
		table_close(rel, NoLock);
		return false;
	}

	/*
	 * The index is locked as the INSERT locked it, while it reads the key
	 * (the error of the plain INSERT is raised there), and released as the
	 * INSERT releases it at its end.
	 */
	index = index_open(wpath->uniques[0].index, RowExclusiveLock);
	evaluate_key(estate, query, index, values, isnull);
	report->key = BuildIndexValueDescription(index, values, isnull);
	report->index_name = pstrdup(RelationGetRelationName(index));
	report->table_name = pstrdup(RelationGetRelationName(rel));
	report->schema_name = get_namespace_name(RelationGetNamespace(rel));
	index_close(index, RowExclusiveLock);
	table_close(rel, NoLock);
	return true;
}

/* The CONTEXT line SPI adds to the errors of a statement it runs */
static void
sql_statement_error_callback(void *arg)
{
	set_errcontext_domain(PG_TEXTDOMAIN("postgres"));
	errcontext_msg("SQL statement \"%s\"", (const char *) arg);
}

/* Update the moving average of the runs that found a duplicate */
static inline void
note_outcome(PlnWritePath *wpath, bool duplicate)
{
	wpath->duplicate_rate = wpath->duplicate_rate * 0.875f +
		(duplicate ? 0.125f : 0.0f);
}

/*
 * The statement wrote nothing: release the table lock if this run took it
 * (took_lock), and let the frame catch again.
 */
static void
end_write_without_row(PlnExecState *estate, PlnStmtExecSql *stmt,
					  bool took_lock)
{
	release_table_lock(stmt->wpath->relid, took_lock);
	pln_end_unprotected_write(estate);
}

/*
 * Raise the unique_violation the plain INSERT would have raised, with the
 * same message, DETAIL, fields and CONTEXT lines, for the block's handler
 * to catch.  Nothing was written (end_write_without_row has run): the
 * frame may catch again.
 */
static pg_attribute_noreturn() void
raise_duplicate(PlnExecState *estate, PlnStmtExecSql *stmt,
				DuplicateReport *report)
{
	ErrorContextCallback errcallback;


	/* (as the call's own line, not built when nobody will see it) */
	if (!pln_error_context_unseen(estate, ERRCODE_UNIQUE_VIOLATION))
	{
		errcallback.callback = sql_statement_error_callback;
		errcallback.arg = (void *) stmt->sqlstmt->query;
		errcallback.previous = error_context_stack;
		error_context_stack = &errcallback;
	}

	ereport_domain(ERROR, PG_TEXTDOMAIN("postgres"),
				   (errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("duplicate key value violates unique constraint \"%s\"",
						   report->index_name),
					report->key ? errdetail("Key %s already exists.", report->key) : 0,
					err_generic_string(PG_DIAG_SCHEMA_NAME, report->schema_name),
					err_generic_string(PG_DIAG_TABLE_NAME, report->table_name),
					err_generic_string(PG_DIAG_CONSTRAINT_NAME, report->index_name)));
	pg_unreachable();
}

/*
 * Run the statement's ON CONFLICT DO NOTHING form below the executor
 * (write_direct.c), which costs a fraction of running it through SPI.  See
 * pln_insert_directly for the outcome; for a duplicate, *report names it
 * (in the scratch memory the catch resets).
 */
static PlnDirectOutcome
insert_directly(PlnExecState *estate, PlnStmtExecSql *stmt,
				HeapTuple *returned, TupleDesc *returned_desc,
				DuplicateReport *report)
{
	PlnWritePath *wpath = stmt->wpath;
	MemoryContext oldcontext;
	PlnDirectOutcome outcome;
	PlnDirectTarget target;
	char	   *key = NULL;
	int			conflict = -1;

	target.relid = wpath->relid;
	target.uniques = wpath->uniques;
	target.nuniques = wpath->nuniques;
	target.fires_ri_checks = wpath->fires_ri_checks;
	target.values = &wpath->direct_values;
	target.values_parent = stmt->sqlstmt->func->fn_cxt;
	target.checked_epoch = wpath->table_epoch;

	/* (the key's description in the scratch memory the catch resets) */
	oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
	outcome = pln_insert_directly(wpath->expr->plan, estate->paramLI,
								  &target, stmt->sqlstmt->query,
								  wpath->duplicate_rate > DUPLICATES_COMMON,
								  !pln_write_path_error_unseen(estate), &key,
								  &conflict, returned, returned_desc);
	if (outcome == PLN_DIRECT_DUPLICATE)
	{
		/* (names read again if the table's cache entry changed meanwhile) */
		if (wpath->table_epoch != pln_relcache_epoch)
			remember_names(wpath);
		report->index_name = wpath->uniques[conflict].name;
		report->table_name = wpath->table_name;
		report->schema_name = wpath->schema_name;
		report->key = key;
	}
	MemoryContextSwitchTo(oldcontext);
	return outcome;
}

/*
 * The write path's one entry: run an INSERT that may take it (marked by
 * pln_write_path_mark) without its block's subtransaction, when the
 * path's conditions hold now.  The lock the run takes on the table and
 * the frame's mark for the write (pln_begin_unprotected_write) begin and
 * end here.  maxrows is what the caller would ask SPI for.  Returns
 *
 *	PLN_WRITE_NOT_TAKEN		nothing was written, and the statement has
 *							passed the gate (its block's subtransaction
 *							is open): the caller runs the plain statement;
 *	PLN_WRITE_INSERTED		the row is in: *rc is SPI's result code, as
 *							after the plain INSERT, SPI_processed is 1, and
 *							the row RETURNING returns is either in
 *							SPI_tuptable or (inserted below the executor)
 *							in *returned with *returned_desc (see
 *							pln_insert_directly; else *returned is NULL);
 *							the block's frame catches nothing more;
 *	PLN_WRITE_HANDED		a duplicate, for the block's handler without
 *							the error being raised (see
 *							pln_handler_may_take_duplicate): as if the
 *							error had been raised, the statement sets
 *							nothing, and the caller returns
 *							PLN_RC_HANDED_TO_HANDLER to the block.
 *
 * Otherwise a duplicate raises the unique_violation the plain INSERT would
 * have raised, for the block's handler to catch.  The statement started as
 * lazy statements do; after SQL ran, plans are checked again.
 */
PlnWriteOutcome
pln_write_path_run(PlnExecState *estate, PlnStmtExecSql *stmt, long maxrows,
				   int *rc, HeapTuple *returned, TupleDesc *returned_desc)
{
	PlnWritePath *wpath = stmt->wpath;
	DuplicateReport report;
	MemoryContext oldcontext;
	bool		took_lock;
	bool		named;

	*returned = NULL;
	if (!write_path_may_start(estate, stmt, &took_lock))
		return PLN_WRITE_NOT_TAKEN;

	pln_stats.writes_without_savepoint++;
	switch (insert_directly(estate, stmt, returned, returned_desc, &report))
	{
		case PLN_DIRECT_INSERTED:
			/* (the lock stays, as a subtransaction's end would pass it on) */
			note_outcome(wpath, false);
			SPI_processed = 1;
			SPI_tuptable = NULL;
			*rc = *returned ? SPI_OK_INSERT_RETURNING : SPI_OK_INSERT;
			return PLN_WRITE_INSERTED;
		case PLN_DIRECT_DUPLICATE:
			note_outcome(wpath, true);
			end_write_without_row(estate, stmt, took_lock);
			if (pln_handler_may_take_duplicate(estate))
				return PLN_WRITE_HANDED;
			raise_duplicate(estate, stmt, &report);
			break;
		case PLN_DIRECT_NOT_TAKEN:
			break;
	}

	/*
	 * Through SPI (an executor hook is installed, or the plan changed),
	 * where a duplicate can be named (spi_names_duplicate); else nothing
	 * has run yet, and the statement passes the gate.
	 */
	if (!wpath->spi_names_duplicate)
	{
		/* (not counted: it runs in its subtransaction after all) */
		pln_stats.writes_without_savepoint--;
		end_write_without_row(estate, stmt, took_lock);
		pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
		return PLN_WRITE_NOT_TAKEN;
	}
	*rc = SPI_execute_plan_with_paramlist(wpath->expr->plan, estate->paramLI,
										  false, maxrows);
	pln_forget_plan_checks();
	note_outcome(wpath, SPI_processed == 0);
	if (SPI_processed != 0)
		return PLN_WRITE_INSERTED;

	/*
	 * Inserted nothing: a duplicate was there.  In the one case where it
	 * cannot be named here (see describe_duplicate), the statement passes
	 * the gate, and the caller runs the plain INSERT in the block's
	 * subtransaction.
	 */
	SPI_freetuptable(SPI_tuptable);
	oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
	named = describe_duplicate(estate, stmt, &report);
	MemoryContextSwitchTo(oldcontext);
	end_write_without_row(estate, stmt, took_lock);
	if (named)
		raise_duplicate(estate, stmt, &report);
	pln_start_savepoints_before(estate, PLN_IMPURE_STATEMENT);
	return PLN_WRITE_NOT_TAKEN;
}

/* ----------
 * For plnimble_savepoint_plan()
 * ----------
 */

/*
 * Why the block's INSERT would not take the write path, as the view and
 * the checker say it, or NULL if it would.  savepoint_at is the statement
 * of the block's body where its savepoint starts when the body runs
 * straight through (explain.c), or NULL; now: the moment counts too
 * (WRITE_MOMENT_CONDITIONS, for the plan view, not for the checker).
 * Prepares the statement's ON CONFLICT form as its first run would (the
 * view plans everything), and checks the table as it is now.
 */
static char *
block_why_not_now(PlnExecState *estate, PlnStmtBlock *block,
				  PlnStmt *savepoint_at, bool now)
{
	PlnStmtExecSql *insert;
	const char *why = block_why_not(block, &insert);
	PlnWritePath *wpath;
	CachedPlanSource *plansource;

	if (why != NULL)
		return pstrdup(why);
	if (insert->wpath == NULL)
		return pstrdup("it is inside another block with an EXCEPTION clause");
	if (savepoint_at != NULL && savepoint_at != (PlnStmt *) insert)
		return psprintf("its savepoint starts before the INSERT, at line %d",
						savepoint_at->lineno);
	if (now && (why = moment_why_not(estate)) != NULL)
		return psprintf("now: %s", why);
	if (insert->write_path == PLN_WRITE_PATH_CANDIDATE)
		refresh_write_plan(estate, insert);
	wpath = insert->wpath;
	if (wpath->query_why_not != NULL)
		return psprintf("the INSERT at line %d: %s",
						insert->lineno, wpath->query_why_not);
	plansource = the_plan_source(wpath->expr->plan);
	why = table_why_not(wpath, linitial_node(Query, plansource->query_list),
						AccessShareLock);
	/* (the checks of a call must not trust what the view worked out) */
	wpath->table_epoch = 0;
	if (why != NULL)
		return psprintf("the INSERT at line %d: table %s: %s",
						insert->lineno, get_rel_name(wpath->relid), why);
	if (now && !pln_may_insert_directly() && !wpath->spi_names_duplicate)
		return psprintf("now: an executor hook is installed, and through SPI the INSERT at line %d could not name its duplicate (table %s has more than one unique index, a computed key or index entries that could fail)",
						insert->lineno, get_rel_name(wpath->relid));
	return NULL;
}

/* The plan view's line for a block with handlers (see block_why_not_now) */
char *
pln_write_path_block_status(PlnExecState *estate, PlnStmtBlock *block,
							PlnStmt *savepoint_at)
{
	char	   *why = block_why_not_now(estate, block, savepoint_at, true);

	if (why != NULL)
		return psprintf("write path: no: %s", why);
	return psprintf("write path: the INSERT at line %d runs without the savepoint (as ON CONFLICT DO NOTHING) in READ COMMITTED, with no subtransaction open",
					((PlnStmt *) llast(block->body))->lineno);
}

/* For plnimble_check_function: does the block's INSERT take the path? */
bool
pln_write_path_block_qualifies(PlnExecState *estate, PlnStmtBlock *block,
							   PlnStmt *savepoint_at)
{
	return block_why_not_now(estate, block, savepoint_at, false) == NULL;
}
