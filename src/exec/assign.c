/*-------------------------------------------------------------------------
 *
 * assign.c
 *	  Storing values into variables, records, fields and rows.
 *
 * Every store goes through exec_assign_value, which converts the value to
 * the target's type with PL/pgSQL's assignment rules (an assignment cast
 * if there is one, else conversion through text) and enforces NOT NULL.
 * Values are copied into the call's datum context, so they outlive the
 * expression that computed them.
 *
 * Records are kept as expanded records; an unassigned record has no
 * expanded record at all.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/tupconvert.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "nodes/makefuncs.h"
#include "parser/parse_coerce.h"
#include "parser/parse_type.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/expandeddatum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "plnimble.h"

/*
 * Cast expressions, cached for the session by (source type, target type).
 * The expression tree is kept for the session; its ExprState too if the
 * cast is pure, else it is built once per transaction in the
 * per-transaction executor state.
 *
 * An impure cast is marked in use while it runs.  If an error ends the
 * evaluation, its state may be half way through running something (an SQL
 * function's query, with a snapshot that belonged to a subtransaction
 * rolled back since), so it is marked failed and the next use builds a
 * fresh one, as PL/pgSQL does; so does a cast used again while it runs (a
 * recursion).  Each impure state has a memory context of its own, so that
 * a failed one, which nothing runs any more, is freed when it is replaced:
 * a loop that catches an error of the cast in every iteration must not
 * pile up states until the transaction ends.
 *
 * The tree is a cached expression, which the server marks invalid when a
 * function it calls (or inlined) is replaced or dropped, also by the
 * rollback of the subtransaction that created it; an impure cast is then
 * planned again, as in PL/pgSQL.  A pure one calls only built-in
 * functions, which do not change.
 */
typedef struct CastKey
{
	Oid			srctype;
	int32		srctypmod;
	Oid			dsttype;
	int32		dsttypmod;
} CastKey;

typedef struct CastEntry
{
	CastKey		key;
	CachedExpression *cast_cexpr;	/* the planned tree; NULL for a no-op */
	Expr	   *cast_expr;		/* its expression; NULL: the cast is a no-op */
	bool		cast_is_pure;	/* see purity.c */
	bool		cast_exprstate_is_kept; /* built once for the session */
	ExprState  *cast_exprstate;
	LocalTransactionId cast_lxid;
	MemoryContext cast_state_cxt;	/* holds an impure state of cast_lxid */
	bool		cast_in_use;	/* an impure cast is running */
	bool		cast_failed;	/* an error ended its last evaluation */
} CastEntry;

static HTAB *cast_hash = NULL;
static MemoryContext cast_context = NULL;

/*
 * The entry found last: loops tend to convert between the same types over
 * and over.  Entries are never removed and do not move, so the pointer
 * stays good for the session.
 */
static CastEntry *last_cast = NULL;

static CastEntry *get_cast_entry(PlnExecState *estate,
								 Oid srctype, int32 srctypmod,
								 Oid dsttype, int32 dsttypmod);
static Datum keep_var_value(PlnExecState *estate, PlnVar *var, Datum value);
static Datum run_impure_cast(CastEntry *cast, ExprContext *econtext,
							 bool *isnull);
static void rec_revalidate_type(PlnRec *rec);
static void rec_instantiate(PlnExecState *estate, PlnRec *rec);
static void recfield_lookup(PlnExecState *estate, PlnRecField *recfield,
							PlnRec *rec);

/*
 * Evaluate an expression and store its value into a datum.
 */
void
exec_assign_expr(PlnExecState *estate, PlnDatum *target, PlnExpr *expr)
{
	Datum		value;
	bool		isnull;
	Oid			valtype;
	int32		valtypmod;

	/*
	 * (before its first planning, pln_expr_cursor_options; the grammar
	 * marks the statements' and defaults' already, so that the plan view
	 * plans them as their run will)
	 */
	expr->assigned = true;
	estate->text_append_hit = false;
	value = exec_eval_expr(estate, expr, &isnull, &valtype, &valtypmod);
	if (unlikely(estate->text_append_hit))
		pln_text_append_store(estate, (PlnVar *) target, expr,
							  value, isnull);
	else
		exec_assign_value(estate, target, value, isnull, valtype, valtypmod);
	exec_eval_cleanup(estate);
}

/* Store a C string into a datum, converting from text */
void
exec_assign_c_string(PlnExecState *estate, PlnDatum *target, const char *str)
{
	text	   *value;
	MemoryContext oldcontext;

	oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
	if (str != NULL)
		value = cstring_to_text(str);
	else
		value = cstring_to_text("");
	MemoryContextSwitchTo(oldcontext);

	exec_assign_value(estate, target, PointerGetDatum(value), false,
					  TEXTOID, -1);
}

/*
 * Fail unless the datum may be assigned to, for statements whose targets
 * the grammar cannot check: OPEN of a NULL cursor variable (it receives
 * the portal's name) and the output arguments of CALL.  A record field is
 * assignable if its record is.
 */
void
pln_check_assignable(PlnExecState *estate, int dno)
{
	PlnDatum   *datum = estate->datums[dno];

	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
		case PLN_DTYPE_REC:
			if (((PlnVariable *) datum)->isconst)
				ereport(ERROR,
						(errcode(ERRCODE_ERROR_IN_ASSIGNMENT),
						 errmsg("variable \"%s\" is declared CONSTANT",
								((PlnVariable *) datum)->refname)));
			break;
		case PLN_DTYPE_RECFIELD:
			pln_check_assignable(estate,
								 ((PlnRecField *) datum)->recparentno);
			break;
		case PLN_DTYPE_ROW:
			/* its members were checked at compile time */
			break;
	}
}

/*
 * A composite value assigned to a row variable (to_row) or a record
 * variable, as a tuple in *tmptup that points into the value; returns its
 * row type, for the caller to release (ReleaseTupleDesc).  A value that
 * is not composite is an error, worded as PL/pgSQL words it.
 */
static TupleDesc
composite_to_assign(Datum value, Oid valtype, bool to_row,
					HeapTupleData *tmptup)
{
	if (!type_is_rowtype(valtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 to_row ?
				 errmsg("cannot assign non-composite value to a row variable") :
				 errmsg("cannot assign non-composite value to a record variable")));
	return pln_composite_as_tuple(value, tmptup);
}

/*
 * Store a value of type valtype into target, converting it as needed.
 */
void
exec_assign_value(PlnExecState *estate, PlnDatum *target,
				  Datum value, bool isNull,
				  Oid valtype, int32 valtypmod)
{
	switch (target->dtype)
	{
		case PLN_DTYPE_VAR:
			{
				PlnVar	   *var = (PlnVar *) target;
				Datum		newvalue;

				newvalue = exec_cast_value(estate, value, &isNull,
										   valtype, valtypmod,
										   var->datatype->typoid,
										   var->datatype->atttypmod);

				if (isNull && var->notnull)
					ereport(ERROR,
							(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
							 errmsg("null value cannot be assigned to variable \"%s\" declared NOT NULL",
									var->refname)));

				/*
				 * The expression changed the variable's own array in place
				 * (see choose_rw_param in exec_expr.c): nothing to store.
				 */
				if (!isNull && !var->isnull && var->freeval &&
					DatumGetPointer(newvalue) == DatumGetPointer(var->value))
					break;

				/* keep our own copy of a by-reference value */
				if (!var->datatype->typbyval && !isNull)
					newvalue = keep_var_value(estate, var, newvalue);

				/* the old value may be the source: replace it only now */
				assign_simple_var(estate, var, newvalue, isNull,
								  (!var->datatype->typbyval && !isNull));
				break;
			}

		case PLN_DTYPE_ROW:
			{
				PlnRow	   *row = (PlnRow *) target;

				/* rows and records go through the type cache */
				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);

				if (isNull)
				{
					/* a NULL row sets every member to NULL */
					exec_move_row(estate, (PlnVariable *) row, NULL, NULL);
				}
				else
				{
					TupleDesc	tupdesc;
					HeapTupleData tmptup;

					tupdesc = composite_to_assign(value, valtype, true, &tmptup);
					exec_move_row(estate, (PlnVariable *) row, &tmptup, tupdesc);
					ReleaseTupleDesc(tupdesc);
				}
				break;
			}

		case PLN_DTYPE_REC:
			{
				PlnRec	   *rec = (PlnRec *) target;

				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				if (isNull)
				{
					if (rec->notnull)
						ereport(ERROR,
								(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
								 errmsg("null value cannot be assigned to variable \"%s\" declared NOT NULL",
										rec->refname)));
					pln_rec_assign_null(estate, rec);
				}
				else
				{
					TupleDesc	tupdesc;
					HeapTupleData tmptup;

					tupdesc = composite_to_assign(value, valtype, false, &tmptup);
					pln_rec_set_tuple(estate, rec, &tmptup, tupdesc);
					ReleaseTupleDesc(tupdesc);
				}
				break;
			}

		case PLN_DTYPE_RECFIELD:
			{
				PlnRecField *recfield = (PlnRecField *) target;
				PlnRec	   *rec = (PlnRec *) estate->datums[recfield->recparentno];
				Datum		newvalue;

				/*
				 * Storing a field reads the type cache; it runs other code
				 * only to check a domain over the row type (a cast to the
				 * field's type takes care of itself).
				 */
				pln_start_savepoints_before(estate, PLN_IMPURE_READS);
				if (rec->erh == NULL)
					rec_instantiate(estate, rec);
				if (ExpandedRecordIsDomain(rec->erh))
					pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				recfield_lookup(estate, recfield, rec);

				newvalue = exec_cast_value(estate, value, &isNull,
										   valtype, valtypmod,
										   recfield->finfo.ftypeid,
										   recfield->finfo.ftypmod);
				/* the expanded record copies the value into its context */
				expanded_record_set_field(rec->erh, recfield->finfo.fnumber,
										  newvalue, isNull, true);
				break;
			}

		default:
			elog(ERROR, "unrecognized dtype: %d", target->dtype);
	}
}

/*
 * The variable's own copy of a by-reference value, in the datum context.
 *
 * An array is kept as a read/write expanded array, so that element
 * assignments and appends can change it in place rather than copy it
 * whole each time (a loop that grows an array stays linear).  An expanded
 * array handed over read/write is ours already and only changes context;
 * anything else is expanded into a new one.  Other values are copied
 * flat.
 */
static Datum
keep_var_value(PlnExecState *estate, PlnVar *var, Datum value)
{
	MemoryContext oldcontext;
	Datum		result;

	if (var->datatype->typisarray &&
		VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(value)))
		return TransferExpandedObject(value, estate->datum_context);

	oldcontext = MemoryContextSwitchTo(estate->datum_context);
	if (var->datatype->typisarray)
		result = expand_array(value, estate->datum_context,
							  var->datatype->elem_meta);
	else if (var->datatype->typlen == -1 &&
			 VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(value)))
		result = datumCopy(value, false, -1);
	else if (var->datatype->typlen == -1 &&
			 VARATT_IS_EXTERNAL(DatumGetPointer(value)))
		result = pln_detoast_for_variable(value);
	else
		result = datumCopy(value, false, var->datatype->typlen);
	MemoryContextSwitchTo(oldcontext);
	return result;
}

/*
 * A copy, in the current memory context, of a value that refers to data
 * stored elsewhere (a TOAST table, or an indirect pointer).
 *
 * Variables hold only values in memory, never such references: reading
 * one would read the TOAST table, taking a lock and pinning buffers, and
 * a pure region (see savepoint.c) must do neither.  Lazy savepoints rely
 * on this: a scalar variable may be read without a savepoint.  The fetch
 * happens when the value is stored, which is at function entry for
 * arguments and otherwise after the statement that produced the value
 * has started the savepoints it needs.  (A value compressed in line is
 * left as it is: expanding it is plain computation.)
 */
Datum
pln_detoast_for_variable(Datum value)
{
	return PointerGetDatum(detoast_external_attr((struct varlena *) DatumGetPointer(value)));
}

/* Free the value a variable owns (see assign_simple_var) */
void
pln_free_var_value(PlnVar *var)
{
	if (DatumIsReadWriteExpandedObject(var->value,
									   var->isnull,
									   var->datatype->typlen))
		DeleteExpandedObject(var->value);
	else
		pfree(DatumGetPointer(var->value));
	var->freeval = false;
	var->append_buf = NULL;
}

/* Set a text variable from a C string, copied into the datum context */
void
assign_text_var(PlnExecState *estate, PlnVar *var, const char *str)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(estate->datum_context);
	Datum		value = CStringGetTextDatum(str);

	MemoryContextSwitchTo(oldcontext);
	assign_simple_var(estate, var, value, false, true);
}

/*
 * Give a declared variable its initial value: its DEFAULT, or NULL.
 */
void
exec_init_datum(PlnExecState *estate, PlnDatum *datum)
{
	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
			{
				PlnVar	   *var = (PlnVar *) datum;

				assign_simple_var(estate, var, (Datum) 0, true, false);
				if (var->default_val == NULL)
				{
					/*
					 * A domain may reject NULL: give it the chance, with the
					 * value claimed to be of type unknown so that the
					 * domain's checks run.
					 */
					if (var->datatype->typtype == TYPTYPE_DOMAIN)
						exec_assign_value(estate, datum, (Datum) 0, true,
										  UNKNOWNOID, -1);
				}
				else
					exec_assign_expr(estate, datum, var->default_val);
				break;
			}
		case PLN_DTYPE_REC:
			{
				PlnRec	   *rec = (PlnRec *) datum;

				/* records are not reviewed for pure use */
				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				if (rec->default_val == NULL)
					pln_rec_assign_null(estate, rec);
				else
				{
					pln_rec_set_null(estate, rec);
					exec_assign_expr(estate, datum, rec->default_val);
				}
				break;
			}
		default:
			break;
	}
}

/* ----------
 * Reading datums
 * ----------
 */

/*
 * The current value of a datum and its type.  Pass-by-reference values
 * point into the datum's storage: the caller must not change them.
 */
void
pln_exec_datum_value(PlnExecState *estate, PlnDatum *datum,
					 Oid *typeid, int32 *typetypmod,
					 Datum *value, bool *isnull)
{
	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
			{
				PlnVar	   *var = (PlnVar *) datum;

				*typeid = var->datatype->typoid;
				*typetypmod = var->datatype->atttypmod;
				*value = var->value;
				*isnull = var->isnull;
				/* readers must not change an expanded array in place */
				if (unlikely(var->datatype->typisarray))
					*value = MakeExpandedObjectReadOnly(*value, *isnull, -1);
				break;
			}

		case PLN_DTYPE_REC:
			{
				PlnRec	   *rec = (PlnRec *) datum;

				/*
				 * A variable of a declared type reports that type, which
				 * for a domain over a composite is the domain, not the
				 * row type its value is stored as; only a "record"
				 * variable takes its type from the value it holds.
				 */
				if (rec->erh == NULL || rec->rectypeid != RECORDOID)
				{
					*typeid = rec->rectypeid;
					*typetypmod = -1;
				}
				else
				{
					*typeid = rec->erh->er_typeid;
					*typetypmod = rec->erh->er_typmod;
				}
				if (rec->erh == NULL || ExpandedRecordIsEmpty(rec->erh))
				{
					*value = (Datum) 0;
					*isnull = true;
				}
				else
				{
					*value = ExpandedRecordGetRODatum(rec->erh);
					*isnull = false;
				}
				break;
			}

		case PLN_DTYPE_ROW:
			{
				/* the OUT parameters as one composite value */
				PlnRow	   *row = (PlnRow *) datum;
				MemoryContext oldcontext;
				HeapTuple	tup;

				if (row->rowtupdesc == NULL)
					elog(ERROR, "row variable has no row type");
				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				oldcontext = MemoryContextSwitchTo(estate->datum_context);
				tup = pln_row_to_tuple(estate, row, row->rowtupdesc);
				if (tup == NULL)
					elog(ERROR, "row does not match its own row type");
				*typeid = row->rowtupdesc->tdtypeid;
				*typetypmod = row->rowtupdesc->tdtypmod;
				*value = HeapTupleGetDatum(tup);
				*isnull = false;
				MemoryContextSwitchTo(oldcontext);
				break;
			}

		case PLN_DTYPE_RECFIELD:
			{
				PlnRecField *recfield = (PlnRecField *) datum;
				PlnRec	   *rec = (PlnRec *) estate->datums[recfield->recparentno];

				/* finding the field may read the catalogs */
				pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
				if (rec->erh == NULL)
					rec_instantiate(estate, rec);
				recfield_lookup(estate, recfield, rec);

				*typeid = recfield->finfo.ftypeid;
				*typetypmod = recfield->finfo.ftypmod;
				*value = expanded_record_get_field(rec->erh,
												   recfield->finfo.fnumber,
												   isnull);
				break;
			}

		default:
			elog(ERROR, "unrecognized dtype: %d", datum->dtype);
	}
}

/* The type of a datum, for planning (see make_datum_param) */
void
pln_exec_get_datum_type_info(PlnExecState *estate, PlnDatum *datum,
							 Oid *typeId, int32 *typMod, Oid *collation)
{
	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
			{
				PlnVar	   *var = (PlnVar *) datum;

				*typeId = var->datatype->typoid;
				*typMod = var->datatype->atttypmod;
				*collation = var->datatype->collation;
				break;
			}

		case PLN_DTYPE_REC:
			{
				PlnRec	   *rec = (PlnRec *) datum;

				if (rec->erh == NULL || rec->rectypeid != RECORDOID)
				{
					/* report the declared type */
					*typeId = rec->rectypeid;
					*typMod = -1;
				}
				else
				{
					/* a RECORD variable: the type of its current value */
					*typeId = rec->erh->er_typeid;
					*typMod = rec->erh->er_typmod;
				}
				*collation = InvalidOid;
				break;
			}

		case PLN_DTYPE_RECFIELD:
			{
				PlnRecField *recfield = (PlnRecField *) datum;
				PlnRec	   *rec = (PlnRec *) estate->datums[recfield->recparentno];

				if (rec->erh == NULL)
					rec_instantiate(estate, rec);
				recfield_lookup(estate, recfield, rec);

				*typeId = recfield->finfo.ftypeid;
				*typMod = recfield->finfo.ftypmod;
				*collation = recfield->finfo.fcollation;
				break;
			}

		default:
			elog(ERROR, "unrecognized dtype: %d", datum->dtype);
			*typeId = InvalidOid;	/* keep compiler quiet */
			*typMod = -1;
			*collation = InvalidOid;
			break;
	}
}

Oid
pln_exec_get_datum_type(PlnExecState *estate, PlnDatum *datum)
{
	Oid			typeId;
	int32		typMod;
	Oid			collation;

	pln_exec_get_datum_type_info(estate, datum, &typeId, &typMod, &collation);
	return typeId;
}

/* ----------
 * Records
 * ----------
 */

/*
 * Give an unassigned record of a named composite type an (all-NULL)
 * value so that its fields can be read or set.  A RECORD variable has no
 * structure until assigned.
 */
static void
rec_instantiate(PlnExecState *estate, PlnRec *rec)
{
	if (rec->rectypeid == RECORDOID)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("record \"%s\" is not assigned yet", rec->refname),
				 errdetail("The tuple structure of a not-yet-assigned record is indeterminate.")));

	rec_revalidate_type(rec);
	rec->erh = make_expanded_record_from_typeid(rec->rectypeid, -1,
												estate->datum_context);
}

/* Find the field a recfield names, caching the answer per row shape */
static void
recfield_lookup(PlnExecState *estate, PlnRecField *recfield, PlnRec *rec)
{
	if (unlikely(recfield->rectupdescid != rec->erh->er_tupdesc_id))
	{
		if (!expanded_record_lookup_field(rec->erh,
										  recfield->fieldname,
										  &recfield->finfo))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("record \"%s\" has no field \"%s\"",
							rec->refname, recfield->fieldname)));
		recfield->rectupdescid = rec->erh->er_tupdesc_id;
	}
}

/*
 * Make a record NULL but with a known shape: its value is NULL and its
 * fields read as NULL (NEW and OLD where a trigger has no such row).
 */
void
pln_rec_set_empty(PlnExecState *estate, PlnRec *rec, TupleDesc tupdesc)
{
	ExpandedRecordHeader *newerh;

	newerh = make_expanded_record_from_tupdesc(tupdesc, estate->datum_context);
	pln_rec_set_null(estate, rec);
	rec->erh = newerh;
}

/*
 * A composite Datum seen as a tuple: fills *tuple to point into the value
 * and returns the row type's descriptor, reference-counted (release it
 * with ReleaseTupleDesc).
 */
TupleDesc
pln_composite_as_tuple(Datum value, HeapTupleData *tuple)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(value);

	tuple->t_len = HeapTupleHeaderGetDatumLength(td);
	ItemPointerSetInvalid(&(tuple->t_self));
	tuple->t_tableOid = InvalidOid;
	tuple->t_data = td;
	return lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(td),
								  HeapTupleHeaderGetTypMod(td));
}

/* Like pln_rec_set_empty, with the shape of another record's value */
void
pln_rec_set_empty_like(PlnExecState *estate, PlnRec *rec, PlnRec *model)
{
	ExpandedRecordHeader *newerh;

	/* (cheaper: the row type is taken from the model, not looked up) */
	newerh = make_expanded_record_from_exprecord(model->erh,
												 estate->datum_context);
	pln_rec_set_null(estate, rec);
	rec->erh = newerh;
}

/* Make a record NULL (unassigned) */
void
pln_rec_set_null(PlnExecState *estate, PlnRec *rec)
{
	if (rec->erh != NULL)
	{
		DeleteExpandedObject(ExpandedRecordGetDatum(rec->erh));
		rec->erh = NULL;
	}
}

/*
 * Assign NULL to a record variable.  A domain over a row type may not
 * allow it (NOT NULL, or a CHECK that a NULL fails): its constraints are
 * checked first, as for any other value stored into the variable.
 */
void
pln_rec_assign_null(PlnExecState *estate, PlnRec *rec)
{
	if (rec->datatype != NULL && rec->datatype->typtype == TYPTYPE_DOMAIN)
	{
		MemoryContext oldcontext;

		rec_revalidate_type(rec);
		oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
		domain_check((Datum) 0, true, rec->rectypeid, NULL, NULL);
		MemoryContextSwitchTo(oldcontext);
	}
	pln_rec_set_null(estate, rec);
}

/*
 * Bring a record variable's declared row type up to date before a value
 * of it is made.  The type may have changed since the function was
 * compiled (dropped and created again, or its columns altered): then the
 * name it was declared with is looked up again, so that the variable
 * follows the type of that name, as in PL/pgSQL ("type ... does not
 * exist" while there is none).  The description is shared by all calls;
 * rectypeid, copied per call, is set from it.
 */
static void
rec_revalidate_type(PlnRec *rec)
{
	PlnType    *typ = rec->datatype;
	TypeCacheEntry *typentry;

	if (rec->rectypeid == RECORDOID || typ == NULL || typ->tcache == NULL)
		return;
	if (typ->tcache->tupDesc_identifier != typ->tupdesc_id)
	{
		if (typ->origtypname != NULL)
			typenameTypeIdAndMod(NULL, typ->origtypname,
								 &typ->typoid, &typ->atttypmod);
		/* (fails if the type was made again as something else) */
		typentry = pln_row_type_cache_entry(typ->typoid);
		typ->tcache = typentry;
		typ->tupdesc_id = typentry->tupDesc_identifier;
	}
	rec->rectypeid = typ->typoid;
}

/*
 * The strict_multi_assignment extra check: a row assigned to a list of
 * targets, or to a record of declared type, must have as many (live)
 * columns as there are targets.
 */
static void
check_strict_multi_assignment(PlnExecState *estate, TupleDesc tupdesc,
							  int ntargets)
{
	int			level;
	int			nlive = 0;
	int			i;

	if (pln_extra_errors & PLN_XCHECK_STRICTMULTIASSIGNMENT)
		level = ERROR;
	else if (pln_extra_warnings & PLN_XCHECK_STRICTMULTIASSIGNMENT)
		level = WARNING;
	else
		return;

	for (i = 0; i < tupdesc->natts; i++)
	{
		if (!TupleDescAttr(tupdesc, i)->attisdropped)
			nlive++;
	}
	if (nlive != ntargets)
		ereport(level,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("number of source and target fields in assignment does not match"),
				 errdetail("%s check of %s is active.",
						   "strict_multi_assignment",
						   level == ERROR ? "extra_errors" : "extra_warnings"),
				 errhint("Make sure the query returns the exact list of columns.")));
}

/* Do two row shapes have the same columns, type for type? */
static bool
same_row_layout(TupleDesc a, TupleDesc b)
{
	int			i;

	if (a->natts != b->natts)
		return false;
	for (i = 0; i < a->natts; i++)
	{
		Form_pg_attribute aa = TupleDescAttr(a, i);
		Form_pg_attribute ba = TupleDescAttr(b, i);

		if (aa->attisdropped != ba->attisdropped)
			return false;
		if (!aa->attisdropped &&
			(aa->atttypid != ba->atttypid || aa->atttypmod != ba->atttypmod))
			return false;
	}
	return true;
}

/*
 * A row of shape tupdesc made into one of shape target the way PL/pgSQL
 * assigns rows: the n-th live source column goes into the n-th live
 * target column, converted with the assignment rules; source columns left
 * over are ignored, target columns left over are NULL.
 */
static HeapTuple
convert_row_by_fields(PlnExecState *estate, HeapTuple tup,
					  TupleDesc tupdesc, TupleDesc target)
{
	Datum	   *values = palloc(sizeof(Datum) * Max(target->natts, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(target->natts, 1));
	int			src = -1;
	int			i;

	for (i = 0; i < target->natts; i++)
	{
		Form_pg_attribute tattr = TupleDescAttr(target, i);
		Datum		value = (Datum) 0;
		bool		isnull = true;
		Oid			valtype = UNKNOWNOID;
		int32		valtypmod = -1;

		if (tattr->attisdropped)
		{
			values[i] = (Datum) 0;
			nulls[i] = true;
			continue;
		}

		do
			src++;
		while (src < tupdesc->natts &&
			   TupleDescAttr(tupdesc, src)->attisdropped);

		if (src < tupdesc->natts)
		{
			Form_pg_attribute sattr = TupleDescAttr(tupdesc, src);

			value = heap_getattr(tup, src + 1, tupdesc, &isnull);
			valtype = sattr->atttypid;
			valtypmod = sattr->atttypmod;
		}

		values[i] = exec_cast_value(estate, value, &isnull,
									valtype, valtypmod,
									tattr->atttypid, tattr->atttypmod);
		nulls[i] = isnull;
	}

	return heap_form_tuple(target, values, nulls);
}

/*
 * Set a record to a copy of a tuple of the given shape (tup NULL: a row of
 * NULLs of that shape).  Anonymous row shapes are registered so that the
 * record can be passed to SQL.
 *
 * Where the call may end transactions (a procedure, a DO block), fields
 * stored in a TOAST table are fetched now: after a COMMIT the row they
 * came from may be gone, and with it the TOAST data a reference would
 * point to.  Elsewhere the row outlives the call, as PL/pgSQL assumes too.
 */
void
pln_rec_set_tuple(PlnExecState *estate, PlnRec *rec,
				  HeapTuple tup, TupleDesc tupdesc)
{
	ExpandedRecordHeader *newerh;
	MemoryContext oldcontext;
	HeapTuple	nulltup = NULL;

	/*
	 * A "record" variable that already holds a row of this (registered)
	 * row type just takes the new row's values: no new expanded record,
	 * which matters for a FOR loop storing row after row.
	 */
	if (rec->rectypeid == RECORDOID && rec->erh != NULL && tup != NULL &&
		(tupdesc->tdtypeid != RECORDOID || tupdesc->tdtypmod >= 0) &&
		rec->erh->er_typeid == tupdesc->tdtypeid &&
		rec->erh->er_typmod == tupdesc->tdtypmod)
	{
		expanded_record_set_tuple(rec->erh, tup, true, !estate->atomic);
		return;
	}

	oldcontext = MemoryContextSwitchTo(get_stmt_mcontext(estate));

	if (rec->rectypeid != RECORDOID)
	{
		/* a declared row type: fields are assigned one by one */
		rec_revalidate_type(rec);
		newerh = make_expanded_record_from_typeid(rec->rectypeid, -1,
												  estate->datum_context);
		if (tup != NULL)
		{
			TupleDesc	target = expanded_record_get_tupdesc(newerh);

			if (!same_row_layout(tupdesc, target))
			{
				int			nlive = 0;
				int			i;

				for (i = 0; i < target->natts; i++)
				{
					if (!TupleDescAttr(target, i)->attisdropped)
						nlive++;
				}
				check_strict_multi_assignment(estate, tupdesc, nlive);
				tup = convert_row_by_fields(estate, tup, tupdesc, target);
			}
		}
	}
	else
	{
		TupleDesc	desc = tupdesc;

		if (desc->tdtypeid == RECORDOID && desc->tdtypmod < 0)
		{
			desc = CreateTupleDescCopy(tupdesc);
			BlessTupleDesc(desc);
		}
		newerh = make_expanded_record_from_tupdesc(desc,
												   estate->datum_context);
	}

	if (tup == NULL)
	{
		TupleDesc	target = expanded_record_get_tupdesc(newerh);
		Datum	   *values = palloc0(sizeof(Datum) * Max(target->natts, 1));
		bool	   *nulls = palloc(sizeof(bool) * Max(target->natts, 1));

		memset(nulls, true, sizeof(bool) * Max(target->natts, 1));
		nulltup = heap_form_tuple(target, values, nulls);
		tup = nulltup;
	}

	expanded_record_set_tuple(newerh, tup, true, !estate->atomic);

	MemoryContextSwitchTo(oldcontext);
	MemoryContextReset(get_stmt_mcontext(estate));

	pln_rec_set_null(estate, rec);
	rec->erh = newerh;
}

/*
 * Store a query row into an INTO target: a record takes the whole row; a
 * row of scalars takes the columns in order (missing ones become NULL).
 * tup NULL means no row: everything becomes NULL.
 */
void
exec_move_row(PlnExecState *estate, PlnVariable *target,
			  HeapTuple tup, TupleDesc tupdesc)
{
	if (target->dtype == PLN_DTYPE_REC)
	{
		PlnRec	   *rec = (PlnRec *) target;

		if (tupdesc == NULL)
			pln_rec_assign_null(estate, rec);
		else
			pln_rec_set_tuple(estate, rec, tup, tupdesc);
		return;
	}

	if (target->dtype == PLN_DTYPE_ROW)
	{
		PlnRow	   *row = (PlnRow *) target;
		int			ncols = tupdesc ? tupdesc->natts : 0;
		int			col = -1;	/* last source column used */
		int			i;

		if (tupdesc != NULL)
			check_strict_multi_assignment(estate, tupdesc, row->nfields);

		for (i = 0; i < row->nfields; i++)
		{
			Datum		value = (Datum) 0;
			bool		isnull = true;
			Oid			valtype = UNKNOWNOID;
			int32		valtypmod = -1;

			/* the next column that was not dropped */
			do
				col++;
			while (col < ncols && TupleDescAttr(tupdesc, col)->attisdropped);

			/* past the last column, targets get an untyped NULL */
			if (col < ncols)
			{
				Form_pg_attribute attr = TupleDescAttr(tupdesc, col);

				if (tup != NULL)
					value = heap_getattr(tup, col + 1, tupdesc, &isnull);
				valtype = attr->atttypid;
				valtypmod = attr->atttypmod;
			}

			exec_assign_value(estate, estate->datums[row->varnos[i]],
							  value, isnull, valtype, valtypmod);
		}
		return;
	}

	elog(ERROR, "unsupported target type: %d", target->dtype);
}

/* ----------
 * Type conversion
 * ----------
 */

/*
 * Convert a value to the requested type with PL/pgSQL's assignment
 * rules, when the types differ (exec_cast_value in plnimble.h handles the
 * common case of equal types).  The result may live in the expression
 * context.
 */
Datum
exec_cast_value_slow(PlnExecState *estate, Datum value, bool *isnull,
					 Oid valtype, int32 valtypmod,
					 Oid reqtype, int32 reqtypmod)
{
	CastEntry  *cast;

	cast = get_cast_entry(estate, valtype, valtypmod, reqtype, reqtypmod);
	if (cast->cast_expr != NULL)
	{
		ExprContext *econtext = estate->eval_econtext;
		MemoryContext oldcontext;

		oldcontext = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);

		econtext->caseValue_datum = value;
		econtext->caseValue_isNull = *isnull;

		if (cast->cast_exprstate_is_kept)
			value = ExecEvalExpr(cast->cast_exprstate, econtext, isnull);
		else
			value = run_impure_cast(cast, econtext, isnull);

		MemoryContextSwitchTo(oldcontext);
	}

	return value;
}

/* Evaluate an impure cast's state, marked in use meanwhile (see CastEntry) */
static Datum
run_impure_cast(CastEntry *cast, ExprContext *econtext, bool *isnull)
{
	ExprState  *state = cast->cast_exprstate;
	Datum		value;

	cast->cast_in_use = true;
	PG_TRY();
	{
		value = ExecEvalExpr(state, econtext, isnull);
	}
	PG_CATCH();
	{
		/* (unless a recursive use built the cast another state meanwhile) */
		if (cast->cast_exprstate == state)
		{
			cast->cast_in_use = false;
			cast->cast_failed = true;
		}
		PG_RE_THROW();
	}
	PG_END_TRY();
	cast->cast_in_use = false;
	return value;
}

/*
 * The expression tree that converts a value of (srctype, srctypmod) to
 * (dsttype, dsttypmod) the way PL/pgSQL assignment does, with a
 * CaseTestExpr standing for the value; NULL if the value can be used as
 * it is.  The conversion is the parser's assignment coercion in its
 * PL/pgSQL flavour, which also accepts conversion through text; when the
 * parser knows no way at all, the value goes through the types' output
 * and input functions, and then the length coercion of dsttypmod.
 */
static Node *
build_cast_tree(Oid srctype, int32 srctypmod, Oid dsttype, int32 dsttypmod)
{
	CaseTestExpr *value = makeNode(CaseTestExpr);
	Node	   *tree;

	value->typeId = srctype;
	value->typeMod = srctypmod;
	value->collation = get_typcollation(srctype);

	tree = coerce_to_target_type(NULL, (Node *) value, srctype,
								 dsttype, dsttypmod,
								 COERCION_PLPGSQL, COERCE_IMPLICIT_CAST, -1);
	if (tree == NULL)
	{
		CoerceViaIO *via_text = makeNode(CoerceViaIO);

		via_text->arg = (Expr *) value;
		via_text->resulttype = dsttype;
		via_text->resultcollid = InvalidOid;
		via_text->coerceformat = COERCE_IMPLICIT_CAST;
		via_text->location = -1;
		tree = (Node *) via_text;
		if (dsttypmod != -1)
			tree = coerce_to_target_type(NULL, tree, dsttype,
										 dsttype, dsttypmod,
										 COERCION_ASSIGNMENT,
										 COERCE_IMPLICIT_CAST, -1);
	}

	return (tree == (Node *) value) ? NULL : tree;
}

/*
 * Plan the cast from (srctype, srctypmod) to (dsttype, dsttypmod) as a
 * cached expression (see CastEntry); NULL if the value can be used as it
 * is, also when planning folds the tree down to the bare value.
 */
static CachedExpression *
plan_cast(Oid srctype, int32 srctypmod, Oid dsttype, int32 dsttypmod)
{
	Node	   *tree;
	CachedExpression *cexpr;

	/* (the unplanned tree is copied: it is left in the current context) */
	tree = build_cast_tree(srctype, srctypmod, dsttype, dsttypmod);
	if (tree == NULL)
		return NULL;
	cexpr = GetCachedExpression(tree);
	if (IsA(cexpr->expr, CaseTestExpr))
	{
		FreeCachedExpression(cexpr);
		return NULL;
	}
	return cexpr;
}

/* Give a cast entry a newly planned tree, with no state built yet */
static void
set_cast_tree(CastEntry *entry, CachedExpression *cexpr)
{
	entry->cast_cexpr = cexpr;
	entry->cast_expr = cexpr ? (Expr *) cexpr->expr : NULL;
	entry->cast_is_pure = false;
	entry->cast_exprstate = NULL;
	entry->cast_exprstate_is_kept = false;
	entry->cast_lxid = InvalidLocalTransactionId;
	entry->cast_state_cxt = NULL;
	entry->cast_in_use = false;
	entry->cast_failed = false;
	if (cexpr != NULL)
		entry->cast_is_pure = pln_expr_tree_is_pure((Node *) cexpr->expr,
													 NULL);
}

/*
 * Find or build the cast from (srctype, srctypmod) to (dsttype, dsttypmod),
 * with its ExprState ready for this transaction.  Returns an entry whose
 * cast_expr is NULL when no work is needed.
 *
 * A cast found ready and pure is handed out as is; building one reads
 * the catalogs, and running an impure one may do anything, so both first
 * start any pending savepoint.
 */
static CastEntry *
get_cast_entry(PlnExecState *estate,
			   Oid srctype, int32 srctypmod, Oid dsttype, int32 dsttypmod)
{
	CastKey		key;
	CastEntry  *entry;
	bool		found;
	LocalTransactionId curlxid = PLN_MY_LXID;

	if (cast_hash == NULL)
	{
		HASHCTL		ctl;

		cast_context = AllocSetContextCreate(TopMemoryContext,
											 "PL/nimble cast cache",
											 ALLOCSET_DEFAULT_SIZES);
		ctl.keysize = sizeof(CastKey);
		ctl.entrysize = sizeof(CastEntry);
		ctl.hcxt = cast_context;
		cast_hash = hash_create("PL/nimble cast cache", 16, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	memset(&key, 0, sizeof(key));
	key.srctype = srctype;
	key.srctypmod = srctypmod;
	key.dsttype = dsttype;
	key.dsttypmod = dsttypmod;
	if (last_cast != NULL && memcmp(&last_cast->key, &key, sizeof(key)) == 0)
		entry = last_cast;
	else
	{
		entry = (CastEntry *) hash_search(cast_hash, &key, HASH_FIND, &found);
		if (entry != NULL)
			last_cast = entry;
	}

	/* a no-op, or a pure cast whose state is kept for the session */
	if (entry != NULL &&
		(entry->cast_expr == NULL || entry->cast_exprstate_is_kept))
		return entry;

	pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);

	if (entry == NULL)
	{
		CachedExpression *cexpr;

		cexpr = plan_cast(srctype, srctypmod, dsttype, dsttypmod);
		entry = (CastEntry *) hash_search(cast_hash, &key, HASH_ENTER, &found);
		last_cast = entry;
		set_cast_tree(entry, cexpr);
	}
	else if (!entry->cast_cexpr->is_valid)
	{
		CachedExpression *old = entry->cast_cexpr;
		bool		old_in_use = entry->cast_in_use;

		set_cast_tree(entry, plan_cast(srctype, srctypmod,
									   dsttype, dsttypmod));
		/* (a state still running from the old tree keeps it) */
		if (!old_in_use)
			FreeCachedExpression(old);
	}

	if (entry->cast_expr == NULL)
		return entry;

	/*
	 * A pure cast's ExprState depends on nothing but the cast, so it is
	 * built once for the session; any other lives in the per-transaction
	 * executor state.
	 */
	if (entry->cast_is_pure)
	{
		MemoryContext oldcontext = MemoryContextSwitchTo(cast_context);

		entry->cast_exprstate = ExecInitExpr(entry->cast_expr, NULL);
		entry->cast_exprstate_is_kept = true;
		MemoryContextSwitchTo(oldcontext);
	}
	else if (entry->cast_lxid != curlxid || entry->cast_in_use ||
			 entry->cast_failed)
	{
		MemoryContext oldcontext;

		/*
		 * A failed state of this transaction is run by nothing: it goes.
		 * (One in use is still run by an outer recursion level; one of an
		 * earlier transaction went with that transaction's memory.)
		 */
		if (entry->cast_lxid == curlxid && !entry->cast_in_use &&
			entry->cast_state_cxt != NULL)
			MemoryContextDelete(entry->cast_state_cxt);
		entry->cast_state_cxt =
			AllocSetContextCreate(pln_transaction_eval_context(),
								  "PL/nimble cast state",
								  ALLOCSET_SMALL_SIZES);
		oldcontext = MemoryContextSwitchTo(entry->cast_state_cxt);
		entry->cast_exprstate = ExecInitExpr(entry->cast_expr, NULL);
		entry->cast_lxid = curlxid;
		entry->cast_in_use = false;
		entry->cast_failed = false;
		MemoryContextSwitchTo(oldcontext);
	}

	return entry;
}

/*
 * Would the conversion run without a savepoint once its state is built?
 * For the explain view; may build the cast.
 */
bool
pln_cast_is_pure(PlnExecState *estate,
				 Oid srctype, int32 srctypmod, Oid dsttype, int32 dsttypmod)
{
	CastEntry  *cast;

	if (srctype == dsttype && (srctypmod == dsttypmod || dsttypmod == -1))
		return true;
	cast = get_cast_entry(estate, srctype, srctypmod, dsttype, dsttypmod);
	return cast->cast_expr == NULL || cast->cast_is_pure;
}

/*
 * Convert a value to its text form, in the expression context's scratch
 * memory: valid until the next exec_eval_cleanup.
 */
char *
convert_value_to_string(PlnExecState *estate, Datum value, Oid valtype)
{
	Oid			typoutput;
	bool		typIsVarlena;
	MemoryContext oldcontext;
	char	   *result;

	/* the common types need no catalog lookup, see purity.c */
	typoutput = pln_pure_output_function(valtype);
	if (!OidIsValid(typoutput))
	{
		pln_start_savepoints_before(estate, PLN_IMPURE_RUNS_CODE);
		getTypeOutputInfo(valtype, &typoutput, &typIsVarlena);
	}

	/* scratch memory: statements in loops must not pile up strings */
	oldcontext = MemoryContextSwitchTo(estate->eval_econtext->ecxt_per_tuple_memory);
	result = OidOutputFunctionCall(typoutput, value);
	MemoryContextSwitchTo(oldcontext);
	return result;
}
