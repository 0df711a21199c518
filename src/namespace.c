/*-------------------------------------------------------------------------
 *
 * namespace.c
 *	  The names visible at each point of a function body.
 *
 * The namespace is a chain of items, innermost first.  Each block or loop
 * starts with a label item (possibly unnamed); the variables it declares
 * follow.  Popping a level unlinks back to before its label, but the items
 * themselves stay allocated: every expression keeps a pointer to the chain
 * as it was where the expression was written, and the parser hooks resolve
 * its names through that pointer at run time.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plnimble.h"

/* innermost item while compiling */
static PlnNsItem *ns_top = NULL;

/* Start a new function's namespace */
void
pln_ns_init(void)
{
	ns_top = NULL;
}

/* Open a level, named by label (NULL for an unlabelled block or loop) */
void
pln_ns_push(const char *label, PlnLabelType label_type)
{
	if (label == NULL)
		label = "";
	pln_ns_additem(PLN_NS_LABEL, (int) label_type, label);
}

/* Close the innermost level */
void
pln_ns_pop(void)
{
	Assert(ns_top != NULL);
	while (ns_top->itemtype != PLN_NS_LABEL)
		ns_top = ns_top->prev;
	ns_top = ns_top->prev;
}

PlnNsItem *
pln_ns_top(void)
{
	return ns_top;
}

/* Add a name to the current level */
void
pln_ns_additem(PlnNsType itemtype, int itemno, const char *name)
{
	PlnNsItem  *nse;

	Assert(name != NULL);
	/* first item added must be a label */
	Assert(ns_top != NULL || itemtype == PLN_NS_LABEL);

	nse = palloc(offsetof(PlnNsItem, name) + strlen(name) + 1);
	nse->itemtype = itemtype;
	nse->itemno = itemno;
	nse->prev = ns_top;
	strcpy(nse->name, name);
	ns_top = nse;
}

/*
 * Find the variable named by name1 (or name1.name2 / name1.name2.name3)
 * visible from ns_cur.
 *
 * Each level is searched innermost first.  Within a level, an unqualified
 * match of name1 wins (name2 then being a record field); failing that, if
 * the level's label is name1, name2 is looked up among its variables.  The
 * number of names that identified the variable goes to *names_used.
 *
 * localmode: look only at the innermost level (for duplicate checks).
 */
PlnNsItem *
pln_ns_lookup(PlnNsItem *ns_cur, bool localmode,
			  const char *name1, const char *name2, const char *name3,
			  int *names_used)
{
	while (ns_cur != NULL)
	{
		PlnNsItem  *nsitem;

		/* search this level for name1, unqualified */
		for (nsitem = ns_cur;
			 nsitem->itemtype != PLN_NS_LABEL;
			 nsitem = nsitem->prev)
		{
			if (strcmp(nsitem->name, name1) == 0)
			{
				if (name2 == NULL ||
					nsitem->itemtype != PLN_NS_VAR)
				{
					if (names_used)
						*names_used = 1;
					return nsitem;
				}
			}
		}

		/* is the level's label name1? then name2 qualified by it */
		if (name2 != NULL &&
			strcmp(nsitem->name, name1) == 0)
		{
			PlnNsItem  *labelitem = nsitem;

			for (nsitem = ns_cur;
				 nsitem != labelitem;
				 nsitem = nsitem->prev)
			{
				if (strcmp(nsitem->name, name2) == 0)
				{
					if (name3 == NULL ||
						nsitem->itemtype != PLN_NS_VAR)
					{
						if (names_used)
							*names_used = 2;
						return nsitem;
					}
				}
			}
		}

		if (localmode)
			break;

		ns_cur = nsitem->prev;
	}

	return NULL;
}

/* Find the label named name enclosing ns_cur */
PlnNsItem *
pln_ns_lookup_label(PlnNsItem *ns_cur, const char *name)
{
	while (ns_cur != NULL)
	{
		if (ns_cur->itemtype == PLN_NS_LABEL &&
			strcmp(ns_cur->name, name) == 0)
			return ns_cur;
		ns_cur = ns_cur->prev;
	}
	return NULL;
}

/* Find the innermost loop label enclosing ns_cur */
PlnNsItem *
pln_ns_find_nearest_loop(PlnNsItem *ns_cur)
{
	while (ns_cur != NULL)
	{
		if (ns_cur->itemtype == PLN_NS_LABEL &&
			ns_cur->itemno == PLN_LABEL_LOOP)
			return ns_cur;
		ns_cur = ns_cur->prev;
	}
	return NULL;
}
