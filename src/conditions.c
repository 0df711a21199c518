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
#include "conditions_table.h"
	{NULL, 0}
};

/*
 * Translate a condition name (or, if allowed, a five-character SQLSTATE)
 * to its error code.  Raises an error for an unknown name.
 */
int
pln_recognize_err_condition(const char *condname, bool allow_sqlstate)
{
	const PlnConditionName *cn;

	if (allow_sqlstate)
	{
		if (strlen(condname) == 5 &&
			strspn(condname, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5)
			return MAKE_SQLSTATE(condname[0],
								 condname[1],
								 condname[2],
								 condname[3],
								 condname[4]);
	}

	for (cn = condition_names; cn->name != NULL; cn++)
	{
		if (strcmp(condname, cn->name) == 0)
			return cn->sqlerrstate;
	}

	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("unrecognized exception condition \"%s\"",
					condname)));
	return 0;					/* keep compiler quiet */
}

/*
 * Build the list of conditions a WHEN clause names.  "others" is the
 * catch-all with code 0; a name with several codes yields several entries.
 */
PlnCondition *
pln_parse_err_condition(char *condname)
{
	const PlnConditionName *cn;
	PlnCondition *prev = NULL;

	if (strcmp(condname, "others") == 0)
	{
		PlnCondition *new = palloc(sizeof(PlnCondition));

		new->sqlerrstate = 0;
		new->condname = condname;
		new->next = NULL;
		return new;
	}

	for (cn = condition_names; cn->name != NULL; cn++)
	{
		if (strcmp(condname, cn->name) == 0)
		{
			PlnCondition *new = palloc(sizeof(PlnCondition));

			new->sqlerrstate = cn->sqlerrstate;
			new->condname = condname;
			new->next = prev;
			prev = new;
		}
	}

	if (!prev)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unrecognized exception condition \"%s\"",
						condname)));

	return prev;
}
