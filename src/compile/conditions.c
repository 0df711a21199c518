/*-------------------------------------------------------------------------
 *
 * conditions.c
 *	  Exception condition names (division_by_zero, unique_violation, ...).
 *
 * The table is generated at build time from the server's own errcodes.txt
 * by scripts/gen-conditions.awk, so it always matches the server we are
 * built against.  Some names stand for more than one SQLSTATE; a WHEN
 * clause naming them catches all of them.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plnimble.h"

typedef struct PlnConditionName
{
	const char *name;
	int			sqlerrstate;
} PlnConditionName;

static const PlnConditionName condition_names[] = {
#include "compile/conditions_table.h"
	{NULL, 0}
};

static void
report_unknown_condition(const char *condname)
{
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("unrecognized exception condition \"%s\"",
					condname)));
}

/*
 * Translate a condition name (or, if allowed, a five-character SQLSTATE)
 * to its error code.  Raises an error for an unknown name.  A name that
 * stands for several codes gives the first.
 */
int
pln_recognize_err_condition(const char *condname, bool allow_sqlstate)
{
	const PlnConditionName *cn;

	if (allow_sqlstate && strlen(condname) == 5 &&
		strspn(condname, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5)
		return MAKE_SQLSTATE(condname[0], condname[1], condname[2],
							 condname[3], condname[4]);

	for (cn = condition_names; cn->name != NULL; cn++)
	{
		if (strcmp(cn->name, condname) == 0)
			return cn->sqlerrstate;
	}

	report_unknown_condition(condname);
	return 0;					/* not reached */
}

static PlnCondition *
make_condition(int sqlerrstate, char *condname, PlnCondition *next)
{
	PlnCondition *cond = palloc(sizeof(PlnCondition));

	cond->sqlerrstate = sqlerrstate;
	cond->condname = condname;
	cond->next = next;
	return cond;
}

/*
 * Build the list of conditions a WHEN clause names.  "others" is the
 * catch-all with code 0; a name with several codes yields several entries
 * (in the reverse of the table's order).
 */
PlnCondition *
pln_parse_err_condition(char *condname)
{
	const PlnConditionName *cn;
	PlnCondition *list = NULL;

	if (strcmp(condname, "others") == 0)
		return make_condition(0, condname, NULL);

	for (cn = condition_names; cn->name != NULL; cn++)
	{
		if (strcmp(cn->name, condname) == 0)
			list = make_condition(cn->sqlerrstate, condname, list);
	}
	if (list == NULL)
		report_unknown_condition(condname);
	return list;
}
