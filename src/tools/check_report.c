/*-------------------------------------------------------------------------
 *
 * check_report.c
 *	  The text form of plnimble_check_function()'s findings, in the
 *	  layout plpgsql_check users know:
 *
 *		level:SQLSTATE:line:statement:message
 *		Query: the query
 *		--     ^ (a caret under the error position)
 *		Detail: ...
 *		Hint: ...
 *		Context: ...
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"

#include "plnimble.h"
#include "tools/pln_check.h"

const char *
pln_check_level_name(PlnCheckLevel level)
{
	switch (level)
	{
		case PLN_CHECK_ERROR:
			return "error";
		case PLN_CHECK_WARNING:
			return "warning";
		case PLN_CHECK_WARNING_EXTRA:
			return "warning extra";
		case PLN_CHECK_PERFORMANCE:
			return "performance";
	}
	return "?";
}

/* Lines "Label: text", one per line of text, the later ones indented */
static List *
labelled_lines(List *lines, const char *label, const char *text)
{
	const char *p = text;
	bool		firstline = true;

	while (*p)
	{
		const char *nl = strchr(p, '\n');
		int			len = nl ? (int) (nl - p) : (int) strlen(p);

		lines = lappend(lines, psprintf("%s%.*s",
										firstline ? label : "",
										len, p));
		firstline = false;
		p += len;
		if (*p == '\n')
			p++;
	}
	return lines;
}

/*
 * The query with a caret under the position (counted in characters from
 * 1): after the line that holds it, "--" and spaces up to the column.
 */
static List *
query_lines(List *lines, const char *query, int position)
{
	const char *prefix = "Query: ";
	int			prefixlen = strlen(prefix);
	const char *p = query;
	int			charno = 1;		/* of the current line's first char */
	bool		firstline = true;

	while (*p)
	{
		const char *nl = strchr(p, '\n');
		int			len = nl ? (int) (nl - p) : (int) strlen(p);
		int			nchars = pg_mbstrlen_with_len(p, len);

		lines = lappend(lines, psprintf("%*s%.*s",
										prefixlen,
										firstline ? prefix : "",
										len, p));
		firstline = false;
		if (position >= charno && position <= charno + nchars)
			lines = lappend(lines, psprintf("--%*s^",
											prefixlen - 2 + (position - charno),
											""));
		charno += nchars + 1;
		p += len;
		if (*p == '\n')
			p++;
	}
	return lines;
}

/* The text lines of a finding */
List *
pln_check_finding_lines(PlnCheckFinding *f)
{
	List	   *lines = NIL;
	StringInfoData head;

	initStringInfo(&head);
	appendStringInfo(&head, "%s:%s:", pln_check_level_name(f->level),
					 unpack_sql_state(f->sqlerrcode));
	if (f->lineno > 0)
		appendStringInfo(&head, "%d:", f->lineno);
	if (f->stmtname != NULL)
		appendStringInfo(&head, "%s:", f->stmtname);
	appendStringInfoString(&head, f->message);
	lines = lappend(lines, head.data);

	if (f->query != NULL)
		lines = query_lines(lines, f->query, f->position);
	if (f->detail != NULL)
		lines = labelled_lines(lines, "Detail: ", f->detail);
	if (f->hint != NULL)
		lines = labelled_lines(lines, "Hint: ", f->hint);
	if (f->context != NULL)
		lines = labelled_lines(lines, "Context: ", f->context);
	return lines;
}
