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
	TupleTableSlot *row;		/* the new row */
	TupleTableSlot *found;		/* a row found with its key */
} PlnDirectValues;

/* What pln_insert_directly needs to know of the write path's checks */
typedef struct PlnDirectTarget
{
	Oid			relid;			/* the table */
	Oid			unique_index;	/* its one unique index */
	int			nkeys;			/* the index's key columns */
	const AttrNumber *key_attnums;	/* the table's column of each */
	const Oid  *key_eqprocs;	/* the key columns' equality functions, or
								 * NULL if unknown */
	const Oid  *key_collations;
	PlnDirectValues *values;	/* the cache of compiled values */
	MemoryContext values_parent;	/* for the cache's memory */
	uint64		checked_epoch;	/* when the table passed the write path's
								 * checks (see pln_table_checks_current) */
} PlnDirectTarget;

extern bool pln_index_entry_cannot_fail(Relation index, bool unique);
extern bool pln_row_cannot_be_too_big(TupleDesc desc);
extern void pln_forget_direct_values(PlnDirectValues *values);
extern void pln_write_direct_init(void);
extern PlnDirectOutcome pln_insert_directly(SPIPlanPtr plan,
											ParamListInfo params,
											PlnDirectTarget *target,
											const char *query,
											bool look_first,
											bool want_key, char **key,
											HeapTuple *returned,
											TupleDesc *returned_desc);

#endif							/* PLN_WRITE_H */
