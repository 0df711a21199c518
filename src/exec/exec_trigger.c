/*-------------------------------------------------------------------------
 *
 * exec_trigger.c
 *	  Trigger functions: what NEW, OLD and the TG_ variables hold in a call,
 *	  and the row handed back to the trigger manager.
 *
 * NEW and OLD are records whose shape is the triggering table's; they are
 * NULL where they do not apply (statement-level triggers, NEW in DELETE,
 * OLD in INSERT).  Since cached plans depend on that shape, a trigger
 * function is compiled once per trigger (compute_function_hashkey).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupconvert.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "plnimble.h"

/*
 * Set a TG_ variable to a C string.  They are of type name or text, and
 * are set on every call: the value is built in the variable's type
 * directly rather than as text to be cast.
 */
static void
set_tg_text(PlnExecState *estate, PlnTgVar which, const char *str)
{
	int			dno = estate->func->tg_varnos[which];
	PlnVar	   *var;
	MemoryContext oldcontext;
	Datum		value;

	/* a variable the code cannot name keeps its NULL */
	if (dno < 0 || !estate->func->tg_var_named[which])
		return;
	var = (PlnVar *) estate->datums[dno];
	if (var->dtype != PLN_DTYPE_VAR ||
		(var->datatype->typoid != NAMEOID && var->datatype->typoid != TEXTOID))
	{
		exec_assign_c_string(estate, (PlnDatum *) var, str);
		return;
	}

	oldcontext = MemoryContextSwitchTo(estate->datum_context);
	if (var->datatype->typoid == NAMEOID)
	{
		Name		name = (Name) palloc0(NAMEDATALEN);

		/* (the strings are names already: nothing to clip) */
		namestrcpy(name, str ? str : "");
		value = NameGetDatum(name);
	}
	else
		value = CStringGetTextDatum(str ? str : "");
	MemoryContextSwitchTo(oldcontext);

	assign_simple_var(estate, var, value, false, true);
}

/* Set a TG_ variable to a Datum of the given type */
static void
set_tg_value(PlnExecState *estate, PlnTgVar which, Datum value, bool isnull,
			 Oid valtype)
{
	int			dno = estate->func->tg_varnos[which];

	if (dno >= 0 && estate->func->tg_var_named[which])
		exec_assign_value(estate, estate->datums[dno], value, isnull,
						  valtype, -1);
}

/* TG_ARGV: the trigger's arguments as a text array counted from 0, or NULL */
static Datum
trigger_argv(Trigger *trigger, bool *isnull)
{
	Datum	   *elems;
	int			dims[1];
	int			lbs[1];
	int			i;

	if (trigger->tgnargs == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	elems = palloc(sizeof(Datum) * trigger->tgnargs);
	for (i = 0; i < trigger->tgnargs; i++)
		elems[i] = CStringGetTextDatum(trigger->tgargs[i]);
	dims[0] = trigger->tgnargs;
	lbs[0] = 0;
	*isnull = false;
	return PointerGetDatum(construct_md_array(elems, NULL, 1, dims, lbs,
											  TEXTOID, -1, false, 'i'));
}

/* Set the stored generated columns of a record of the table's shape NULL */
static void
null_generated_columns(PlnRec *rec, TupleDesc tupdesc)
{
	int			i;

	for (i = 0; i < tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i)->attgenerated == ATTRIBUTE_GENERATED_STORED)
			expanded_record_set_field_internal(rec->erh, i + 1, (Datum) 0,
											   true, false, false);
	}
}

/* Fill NEW, OLD and the TG_ variables of a DML trigger call */
static void
setup_dml_trigger(PlnExecState *estate, TriggerData *trigdata)
{
	PlnFunction *func = estate->func;
	Relation	rel = trigdata->tg_relation;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PlnRec	   *rec_new = (PlnRec *) estate->datums[func->new_varno];
	PlnRec	   *rec_old = (PlnRec *) estate->datums[func->old_varno];
	TriggerEvent event = trigdata->tg_event;
	const char *when;
	const char *op;
	Datum		argv;
	bool		isnull;

	estate->trigdata = trigdata;

	/*
	 * Both have the table's shape even where they hold no row (a NULL
	 * record whose fields read as NULL), so that code shared by several
	 * kinds of trigger can name their fields.
	 */
	pln_rec_set_empty(estate, rec_new, tupdesc);
	pln_rec_set_empty_like(estate, rec_old, rec_new);
	if (TRIGGER_FIRED_FOR_ROW(event))
	{
		if (TRIGGER_FIRED_BY_INSERT(event))
			pln_rec_set_tuple(estate, rec_new, trigdata->tg_trigtuple, tupdesc);
		else if (TRIGGER_FIRED_BY_UPDATE(event))
		{
			pln_rec_set_tuple(estate, rec_new, trigdata->tg_newtuple, tupdesc);
			pln_rec_set_tuple(estate, rec_old, trigdata->tg_trigtuple, tupdesc);

			/*
			 * Before the update, stored generated columns are not computed
			 * yet: NEW shows them NULL, not the old value (nor one an
			 * earlier trigger stored), as in PL/pgSQL.  (An inserted row
			 * has them NULL already.)
			 */
			if (TRIGGER_FIRED_BEFORE(event) && tupdesc->constr != NULL &&
				tupdesc->constr->has_generated_stored)
				null_generated_columns(rec_new, tupdesc);
		}
		else if (TRIGGER_FIRED_BY_DELETE(event))
			pln_rec_set_tuple(estate, rec_old, trigdata->tg_trigtuple, tupdesc);
	}

	if (TRIGGER_FIRED_BEFORE(event))
		when = "BEFORE";
	else if (TRIGGER_FIRED_AFTER(event))
		when = "AFTER";
	else if (TRIGGER_FIRED_INSTEAD(event))
		when = "INSTEAD OF";
	else
		elog(ERROR, "unrecognized trigger execution time: not BEFORE, AFTER, or INSTEAD OF");

	if (TRIGGER_FIRED_BY_INSERT(event))
		op = "INSERT";
	else if (TRIGGER_FIRED_BY_UPDATE(event))
		op = "UPDATE";
	else if (TRIGGER_FIRED_BY_DELETE(event))
		op = "DELETE";
	else if (TRIGGER_FIRED_BY_TRUNCATE(event))
		op = "TRUNCATE";
	else
		elog(ERROR, "unrecognized trigger action: not INSERT, DELETE, UPDATE, or TRUNCATE");

	set_tg_text(estate, PLN_TG_NAME, trigdata->tg_trigger->tgname);
	set_tg_text(estate, PLN_TG_WHEN, when);
	set_tg_text(estate, PLN_TG_LEVEL,
				TRIGGER_FIRED_FOR_ROW(event) ? "ROW" : "STATEMENT");
	set_tg_text(estate, PLN_TG_OP, op);
	set_tg_value(estate, PLN_TG_RELID,
				 ObjectIdGetDatum(RelationGetRelid(rel)), false, OIDOID);
	set_tg_text(estate, PLN_TG_RELNAME, RelationGetRelationName(rel));
	set_tg_text(estate, PLN_TG_TABLE_NAME, RelationGetRelationName(rel));
	if (func->tg_var_named[PLN_TG_TABLE_SCHEMA])
		set_tg_text(estate, PLN_TG_TABLE_SCHEMA,
					get_namespace_name(RelationGetNamespace(rel)));
	set_tg_value(estate, PLN_TG_NARGS,
				 Int32GetDatum(trigdata->tg_trigger->tgnargs), false, INT4OID);
	if (func->tg_var_named[PLN_TG_ARGV])
	{
		argv = trigger_argv(trigdata->tg_trigger, &isnull);
		set_tg_value(estate, PLN_TG_ARGV, argv, isnull, TEXTARRAYOID);
	}
}

/*
 * At the start of a trigger call: give the trigger variables their values.
 */
void
pln_trigger_setup(PlnExecState *estate, FunctionCallInfo fcinfo)
{
	if (CALLED_AS_TRIGGER(fcinfo))
		setup_dml_trigger(estate, (TriggerData *) fcinfo->context);
	else if (CALLED_AS_EVENT_TRIGGER(fcinfo))
	{
		EventTriggerData *evdata = (EventTriggerData *) fcinfo->context;

		set_tg_text(estate, PLN_TG_EVENT, evdata->event);
		set_tg_text(estate, PLN_TG_TAG, GetCommandTagName(evdata->tag));
	}
}

/*
 * How to turn a returned row into the triggering table's shape: NULL when
 * it has that shape already (a row of the table's own row type), else a
 * conversion map, or an error if the shapes do not match.
 */
static TupleConversionMap *
trigger_result_map(TupleDesc retdesc, TupleDesc reldesc)
{
	if (retdesc->tdtypeid == reldesc->tdtypeid &&
		retdesc->tdtypeid != RECORDOID &&
		retdesc->natts == reldesc->natts)
		return NULL;
	return convert_tuples_by_position(retdesc, reldesc,
									  gettext_noop("returned row structure does not match the structure of the triggering table"));
}

/*
 * The result of a DML trigger: for row triggers, the returned row in the
 * shape of the triggering table (or NULL to skip the operation); for
 * statement triggers always NULL, whatever was returned.
 */
Datum
pln_trigger_result(PlnExecState *estate, FunctionCallInfo fcinfo)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	TupleDesc	reldesc = RelationGetDescr(trigdata->tg_relation);
	HeapTupleData tmptup;
	TupleDesc	retdesc;
	TupleConversionMap *map;
	HeapTuple	rettup;
	MemoryContext oldcontext;

	if (estate->retisnull || !TRIGGER_FIRED_FOR_ROW(trigdata->tg_event))
		return PointerGetDatum(NULL);

	/*
	 * The type first: only a composite value may be looked at as a pointer
	 * (an int or "char" variable is passed by value).
	 */
	if (!type_is_rowtype(estate->rettype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot return non-composite value from function returning composite type")));

	/*
	 * The usual case, RETURN NEW or another record variable: take the
	 * tuple from the expanded record, which saves flattening it first.
	 */
	if (VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(estate->retval)) &&
		((ExpandedRecordHeader *) DatumGetEOHP(estate->retval))->er_magic == ER_MAGIC)
	{
		ExpandedRecordHeader *erh = (ExpandedRecordHeader *) DatumGetEOHP(estate->retval);

		retdesc = expanded_record_get_tupdesc(erh);
		rettup = expanded_record_get_tuple(erh);
		if (rettup == NULL)
			return PointerGetDatum(NULL);
		map = trigger_result_map(retdesc, reldesc);
		if (map != NULL)
			rettup = execute_attr_map_tuple(rettup, map);
	}
	else
	{
		retdesc = pln_composite_as_tuple(estate->retval, &tmptup);

		map = trigger_result_map(retdesc, reldesc);
		rettup = map ? execute_attr_map_tuple(&tmptup, map) : &tmptup;
		ReleaseTupleDesc(retdesc);
	}

	/* the trigger manager takes it in the caller's memory */
	oldcontext = MemoryContextSwitchTo(estate->datum_context);
	rettup = heap_copytuple(rettup);
	MemoryContextSwitchTo(oldcontext);

	return PointerGetDatum(rettup);
}
