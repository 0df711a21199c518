/*-------------------------------------------------------------------------
 *
 * pln_write.h
 *	  The write path: an INSERT whose block's only handler catches
 *	  unique_violation, run without the block's subtransaction
 *	  (write_path.c decides and hands over, write_direct.c inserts below
 *	  the executor).
 *
 * See docs/design.md, "Writes without a subtransaction".
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_WRITE_H
#define PLN_WRITE_H

#include "exec/pln_exec.h"

/* write_path.c */
extern void pln_write_path_mark(PlnFunction *func);

/* What pln_write_path_run did */
typedef enum PlnWriteOutcome
{
	PLN_WRITE_NOT_TAKEN,		/* nothing written, the gate passed: run the
								 * plain statement */
	PLN_WRITE_INSERTED,			/* the row is in */
	PLN_WRITE_HANDED			/* a duplicate, for the block's handler
								 * without an error (see
								 * pln_handler_may_take_duplicate) */
} PlnWriteOutcome;

extern PlnWriteOutcome pln_write_path_run(PlnExecState *estate,
										  PlnStmtExecSql *stmt, long maxrows,
										  int *rc, HeapTuple *returned,
										  TupleDesc *returned_desc);
extern void pln_write_path_init(void);
extern bool pln_table_checks_current(uint64 epoch);
extern char *pln_write_path_block_status(PlnExecState *estate,
										 PlnStmtBlock *block,
										 PlnStmt *savepoint_at);
extern bool pln_write_path_block_qualifies(PlnExecState *estate,
										   PlnStmtBlock *block,
										   PlnStmt *savepoint_at);
extern bool pln_handlers_catch_only_unique_violation(PlnStmtBlock *block);

/* write_direct.c */
typedef enum PlnDirectOutcome
{
	PLN_DIRECT_NOT_TAKEN,		/* nothing ran: run the statement via SPI */
	PLN_DIRECT_INSERTED,		/* the row is in */
	PLN_DIRECT_DUPLICATE		/* nothing written: the key is there */
} PlnDirectOutcome;

/*
 * The compiled expressions of an INSERT's values, and the slots its run
 * uses, kept by the statement for the next run while its plan, the
 * transaction and the table's checks are the same (write_direct.c).
 */
typedef struct PlnDirectValues
{
	MemoryContext cxt;			/* where they live, or NULL */
	CachedPlanSource *plansource;	/* the plan they were built for */
	int			generation;
	LocalTransactionId lxid;
	uint64		checked_epoch;	/* PlnDirectTarget's */
	ExprState **states;			/* one per column */
	Oid			privileges_user;	/* the user the plan's privileges were
									 * checked for, or InvalidOid */
	uint64		privileges_roles_epoch; /* see privileges_known */
	ExprState **checks;			/* the table's CHECK constraints, compiled
								 * by the first run's ExecConstraints, or
								 * NULL (see check_constraints) */
	TupleTableSlot *row;		/* the new row */
	TupleTableSlot *found;		/* a row found with its key */
} PlnDirectValues;

/*
 * At most this many unique indexes on a table the write path takes (a
 * table with more takes its subtransaction: the fixed arrays below)
 */
#define PLN_MAX_UNIQUE_INDEXES 8

/*
 * One unique index of the table, as the write path's checks saw it
 * (write_path.c, table_why_not), in the order the INSERT writes the
 * table's indexes: the order of the relation cache's list of them.
 */
typedef struct PlnUniqueKey
{
	Oid			index;
	int			nkeys;			/* its key columns */
	AttrNumber	attnums[INDEX_MAX_KEYS];	/* the table's column of each */
	Oid			eqprocs[INDEX_MAX_KEYS];	/* their equality functions */
	Oid			collations[INDEX_MAX_KEYS];
	bool		eqprocs_ok;		/* eqprocs found: may be looked up */
	bool		look_first_exact;	/* nothing the plain INSERT writes
									 * before this index's duplicate can
									 * fail: the row cannot be too big,
									 * the entries of the indexes before
									 * it cannot fail */
	bool		fixed;			/* the INSERT gives every key column a
								 * value that can be computed again (an
								 * immutable expression of constants and
								 * the function's variables) */
	char	   *name;			/* the index's name, for the error */
} PlnUniqueKey;

/* What pln_insert_directly needs to know of the write path's checks */
typedef struct PlnDirectTarget
{
	Oid			relid;			/* the table */
	const PlnUniqueKey *uniques;	/* its unique indexes, in index order */
	int			nuniques;
	bool		fires_ri_checks;	/* the INSERT fires foreign key checks
									 * (the table's only insert triggers) */
	PlnDirectValues *values;	/* the cache of compiled values */
	MemoryContext values_parent;	/* for the cache's memory */
	uint64		checked_epoch;	/* when the table passed the write path's
								 * checks (see pln_table_checks_current) */
} PlnDirectTarget;

extern bool pln_index_entry_cannot_fail(Relation index, bool unique);
extern bool pln_index_entry_is_exact(Relation index, bool unique);
extern bool pln_row_cannot_be_too_big(TupleDesc desc);
extern void pln_forget_direct_values(PlnDirectValues *values);
extern void pln_write_direct_init(void);
extern bool pln_may_insert_directly(void);
extern PlnDirectOutcome pln_insert_directly(SPIPlanPtr plan,
											ParamListInfo params,
											PlnDirectTarget *target,
											const char *query,
											bool look_first,
											bool want_key, char **key,
											int *conflict,
											HeapTuple *returned,
											TupleDesc *returned_desc);

#endif							/* PLN_WRITE_H */
