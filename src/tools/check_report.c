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
 * and the XML and JSON documents of format => 'xml' and 'json', element
 * for element as plpgsql_check writes them, so that tools reading its
 * documents read these.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/json.h"
#include "utils/xml.h"

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
		case PLN_CHECK_SECURITY:
			return "security";
		case PLN_CHECK_COMPATIBILITY:
			return "compatibility";
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

/*
 * format => 'xml': one document, an <Issue> for each finding inside
 * <Function>.
 */
char *
pln_check_findings_xml(List *findings)
{
	StringInfoData s;
	ListCell   *lc;

	initStringInfo(&s);
	appendStringInfoString(&s, "<Function>\n");
	foreach(lc, findings)
	{
		PlnCheckFinding *f = (PlnCheckFinding *) lfirst(lc);

		appendStringInfoString(&s, "  <Issue>\n");
		appendStringInfo(&s, "    <Level>%s</Level>\n",
						 pln_check_level_name(f->level));
		appendStringInfo(&s, "    <Sqlstate>%s</Sqlstate>\n",
						 unpack_sql_state(f->sqlerrcode));
		appendStringInfo(&s, "    <Message>%s</Message>\n",
						 escape_xml(f->message));
		if (f->lineno > 0 && f->stmtname != NULL)
			appendStringInfo(&s, "    <Stmt lineno=\"%d\">%s</Stmt>\n",
							 f->lineno, escape_xml(f->stmtname));
		if (f->hint != NULL)
			appendStringInfo(&s, "    <Hint>%s</Hint>\n", escape_xml(f->hint));
		if (f->detail != NULL)
			appendStringInfo(&s, "    <Detail>%s</Detail>\n", escape_xml(f->detail));
		if (f->query != NULL)
			appendStringInfo(&s, "    <Query position=\"%d\">%s</Query>\n",
							 f->position, escape_xml(f->query));
		if (f->context != NULL)
			appendStringInfo(&s, "    <Context>%s</Context>\n",
							 escape_xml(f->context));
		appendStringInfoString(&s, "  </Issue>\n");
	}
	appendStringInfoString(&s, "</Function>");
	return s.data;
}

/* A JSON member "name":"value", with the separator after it */
static void
json_member(StringInfo s, const char *indent, const char *name,
			const char *value, const char *after)
{
	appendStringInfo(s, "%s\"%s\":", indent, name);
	escape_json(s, value);
	appendStringInfoString(s, after);
}

/*
 * format => 'json': one document, {"issues":[...]} with an object for each
 * finding.
 */
char *
pln_check_findings_json(List *findings)
{
	StringInfoData s;
	ListCell   *lc;

	initStringInfo(&s);
	appendStringInfoString(&s, "{ \"issues\":[\n");
	foreach(lc, findings)
	{
		PlnCheckFinding *f = (PlnCheckFinding *) lfirst(lc);

		appendStringInfoString(&s, "  {\n");
		json_member(&s, "    ", "level", pln_check_level_name(f->level), ",\n");
		json_member(&s, "    ", "message", f->message, ",\n");
		if (f->lineno > 0 && f->stmtname != NULL)
		{
			appendStringInfo(&s, "    \"statement\":{\n\"lineNumber\":\"%d\",\n",
							 f->lineno);
			json_member(&s, "", "text", f->stmtname, "\n},\n");
		}
		if (f->hint != NULL)
			json_member(&s, "    ", "hint", f->hint, ",\n");
		if (f->detail != NULL)
			json_member(&s, "    ", "detail", f->detail, ",\n");
		if (f->query != NULL)
		{
			appendStringInfo(&s, "    \"query\":{\n\"position\":\"%d\",\n",
							 f->position);
			json_member(&s, "", "text", f->query, "\n},\n");
		}
		if (f->context != NULL)
			json_member(&s, "    ", "context", f->context, ",\n");
		json_member(&s, "    ", "sqlState", unpack_sql_state(f->sqlerrcode), "\n");
		appendStringInfoString(&s, lnext(findings, lc) ? "  },\n" : "  }\n");
	}
	appendStringInfoString(&s, "\n]\n}");
	return s.data;
}
