/*-------------------------------------------------------------------------
 *
 * check_depend.c
 *	  plnimble_show_dependency_tb(): the relations, functions and
 *	  operators a function's statements use, as plpgsql_check's
 *	  plpgsql_show_dependency_tb lists them.
 *
 * The function is checked (check.c) with a list to collect into: every
 * statement it analyses adds what its query tree refers to.  Objects of
 * the system (below FirstNormalObjectId) are left out; the rest is sorted
 * by kind, schema and name, each object once.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "funcapi.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "plnimble.h"
#include "tools/pln_check.h"

PG_FUNCTION_INFO_V1(plnimble_show_dependency_tb);

/* One object: its kind ('r' relation, 'f' function, 'o' operator), oid */
typedef struct Dependency
{
	char		kind;
	Oid			oid;
} Dependency;

static void
add_dependency(List **deps, char kind, Oid oid)
{
	ListCell   *lc;
	Dependency *d;

	if (oid < FirstNormalObjectId)
		return;
	foreach(lc, *deps)
	{
		d = (Dependency *) lfirst(lc);
		if (d->kind == kind && d->oid == oid)
			return;
	}
	d = palloc(sizeof(Dependency));
	d->kind = kind;
	d->oid = oid;
	*deps = lappend(*deps, d);
}

static bool
collect_walker(Node *node, List **deps)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
	{
		RangeTblEntry *rte = (RangeTblEntry *) node;

		if (rte->rtekind == RTE_RELATION)
			add_dependency(deps, 'r', rte->relid);
		return false;
	}
	if (IsA(node, FuncExpr))
		add_dependency(deps, 'f', ((FuncExpr *) node)->funcid);
	else if (IsA(node, Aggref))
		add_dependency(deps, 'f', ((Aggref *) node)->aggfnoid);
	else if (IsA(node, WindowFunc))
		add_dependency(deps, 'f', ((WindowFunc *) node)->winfnoid);
	else if (IsA(node, OpExpr) || IsA(node, DistinctExpr) || IsA(node, NullIfExpr))
		add_dependency(deps, 'o', ((OpExpr *) node)->opno);
	else if (IsA(node, ScalarArrayOpExpr))
		add_dependency(deps, 'o', ((ScalarArrayOpExpr *) node)->opno);
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, collect_walker, (void *) deps,
								 QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, collect_walker, (void *) deps);
}

/* Called by check.c for every analysed query */
void
pln_check_collect_dependencies(List **deps, Query *query)
{
	(void) collect_walker((Node *) query, deps);
}

static const char *
kind_name(char kind)
{
	switch (kind)
	{
		case 'r':
			return "RELATION";
		case 'f':
			return "FUNCTION";
		case 'o':
			return "OPERATOR";
	}
	return "?";
}

/* The schema, name and parameters of an object, for the row */
static void
describe(Dependency *d, char **schema, char **name, char **params)
{
	*params = NULL;
	switch (d->kind)
	{
		case 'r':
			*schema = get_namespace_name(get_rel_namespace(d->oid));
			*name = get_rel_name(d->oid);
			break;
		case 'f':
			{
				HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(d->oid));
				Oid		   *argtypes;
				char	  **argnames;
				char	   *argmodes;
				int			nargs;
				int			i;
				StringInfoData s;

				*schema = get_namespace_name(get_func_namespace(d->oid));
				*name = get_func_name(d->oid);
				if (!HeapTupleIsValid(tup))
					break;
				nargs = get_func_arg_info(tup, &argtypes, &argnames, &argmodes);
				ReleaseSysCache(tup);
				initStringInfo(&s);
				appendStringInfoChar(&s, '(');
				for (i = 0; i < nargs; i++)
				{
					if (argmodes && argmodes[i] == PROARGMODE_OUT)
						continue;
					if (s.len > 1)
						appendStringInfoChar(&s, ',');
					appendStringInfoString(&s, format_type_be(argtypes[i]));
				}
				appendStringInfoChar(&s, ')');
				*params = s.data;
				break;
			}
		case 'o':
			{
				HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(d->oid));
				Form_pg_operator op;

				*schema = NULL;
				*name = NULL;
				if (!HeapTupleIsValid(tup))
					break;
				op = (Form_pg_operator) GETSTRUCT(tup);
				*schema = get_namespace_name(op->oprnamespace);
				*name = pstrdup(NameStr(op->oprname));
				*params = psprintf("(%s,%s)",
								   OidIsValid(op->oprleft) ? format_type_be(op->oprleft) : "NONE",
								   OidIsValid(op->oprright) ? format_type_be(op->oprright) : "NONE");
				ReleaseSysCache(tup);
				break;
			}
	}
}

static int
dependency_cmp(const ListCell *a, const ListCell *b)
{
	Dependency *x = (Dependency *) lfirst(a);
	Dependency *y = (Dependency *) lfirst(b);
	int			c = strcmp(kind_name(x->kind), kind_name(y->kind));
	char	   *xs,
			   *xn,
			   *xp,
			   *ys,
			   *yn,
			   *yp;

	if (c != 0)
		return c;
	describe(x, &xs, &xn, &xp);
	describe(y, &ys, &yn, &yp);
	if ((c = strcmp(xs ? xs : "", ys ? ys : "")) != 0)
		return c;
	if ((c = strcmp(xn ? xn : "", yn ? yn : "")) != 0)
		return c;
	return strcmp(xp ? xp : "", yp ? yp : "");
}

/*
 * plnimble_show_dependency_tb(funcoid regprocedure | name text,
 *							   relid regclass)
 * returns table (type text, oid oid, schema text, name text, params text)
 */
Datum
plnimble_show_dependency_tb(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PlnCheckOptions opts;
	Oid			funcoid = pln_check_routine_arg(fcinfo, "plnimble_show_dependency_tb");
	List	   *deps = NIL;
	ListCell   *lc;

	memset(&opts, 0, sizeof(opts));
	opts.relid = PG_ARGISNULL(1) ? InvalidOid : PG_GETARG_OID(1);
	opts.dependencies = &deps;
	pln_tool_may_analyse(funcoid, "plnimble_show_dependency_tb");
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	(void) pln_check_function(funcoid, &opts, NULL);

	list_sort(deps, dependency_cmp);
	foreach(lc, deps)
	{
		Dependency *d = (Dependency *) lfirst(lc);
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};
		char	   *schema,
				   *name,
				   *params;

		describe(d, &schema, &name, &params);
		values[0] = CStringGetTextDatum(kind_name(d->kind));
		values[1] = ObjectIdGetDatum(d->oid);
		values[2] = schema ? CStringGetTextDatum(schema) : (Datum) 0;
		nulls[2] = (schema == NULL);
		values[3] = name ? CStringGetTextDatum(name) : (Datum) 0;
		nulls[3] = (name == NULL);
		values[4] = params ? CStringGetTextDatum(params) : (Datum) 0;
		nulls[4] = (params == NULL);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
