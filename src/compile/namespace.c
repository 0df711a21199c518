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
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
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
	/* the label item's itemno says what kind of level this is */
	pln_ns_additem(PLN_NS_LABEL, (int) label_type, label ? label : "");
}

/* Close the innermost level: drop its items and its label */
void
pln_ns_pop(void)
{
	PlnNsItem  *item = ns_top;

	Assert(item != NULL);
	while (item->itemtype != PLN_NS_LABEL)
		item = item->prev;
	ns_top = item->prev;
}

PlnNsItem *
pln_ns_top(void)
{
	return ns_top;
}

/*
 * Add a name to the current level.  The name is stored in the item
 * itself.  A namespace always starts with a label.
 */
void
pln_ns_additem(PlnNsType itemtype, int itemno, const char *name)
{
	size_t		namelen = strlen(name);
	PlnNsItem  *item;

	Assert(ns_top != NULL || itemtype == PLN_NS_LABEL);

	item = palloc(offsetof(PlnNsItem, name) + namelen + 1);
	item->itemtype = itemtype;
	item->itemno = itemno;
	memcpy(item->name, name, namelen + 1);
	item->prev = ns_top;
	ns_top = item;
}

/*
 * Search one level, from item down to the level's label, for a variable
 * called name.  With more_names, the caller's name goes on after this one
 * (name.field), which a scalar cannot have, so scalars are passed over.
 * Returns the variable, or NULL with *label set to the level's label.
 */
static PlnNsItem *
search_level(PlnNsItem *item, const char *name, bool more_names,
			 PlnNsItem **label)
{
	for (; item->itemtype != PLN_NS_LABEL; item = item->prev)
	{
		if (more_names && item->itemtype == PLN_NS_VAR)
			continue;
		if (strcmp(item->name, name) == 0)
			return item;
	}
	*label = item;
	return NULL;
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
		PlnNsItem  *label = NULL;
		PlnNsItem  *found;
		int			used = 1;

		found = search_level(ns_cur, name1, name2 != NULL, &label);
		if (found == NULL && name2 != NULL && strcmp(label->name, name1) == 0)
		{
			found = search_level(ns_cur, name2, name3 != NULL, &label);
			used = 2;
		}
		if (found != NULL)
		{
			if (names_used)
				*names_used = used;
			return found;
		}

		if (localmode)
			break;
		ns_cur = label->prev;
	}

	return NULL;
}

/*
 * Walk outwards from ns_cur to the first label that has the given name
 * (name != NULL) or else belongs to a loop.
 */
static PlnNsItem *
find_enclosing_label(PlnNsItem *ns_cur, const char *name)
{
	for (; ns_cur != NULL; ns_cur = ns_cur->prev)
	{
		if (ns_cur->itemtype != PLN_NS_LABEL)
			continue;
		if (name != NULL ? strcmp(ns_cur->name, name) == 0 :
			ns_cur->itemno == PLN_LABEL_LOOP)
			return ns_cur;
	}
	return NULL;
}

/* Find the label named name enclosing ns_cur */
PlnNsItem *
pln_ns_lookup_label(PlnNsItem *ns_cur, const char *name)
{
	Assert(name != NULL);
	return find_enclosing_label(ns_cur, name);
}

/* Find the innermost loop label enclosing ns_cur */
PlnNsItem *
pln_ns_find_nearest_loop(PlnNsItem *ns_cur)
{
	return find_enclosing_label(ns_cur, NULL);
}
