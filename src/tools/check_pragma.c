/*-------------------------------------------------------------------------
 *
 * check_pragma.c
 *	  The pragmas of plnimble_check_function(), as plpgsql_check 2.3 reads
 *	  them: a statement
 *
 *		PERFORM plnimble_check_pragma('disable:check', ...);
 *
 *	  (or plpgsql_check_pragma, the name plpgsql_check's users wrote) tells
 *	  the checker something the code cannot: which checks to skip from
 *	  there to the end of the enclosing statement list, the row type of a
 *	  record variable ('type: r (a int, b int)'), a temporary table the
 *	  function creates for itself ('table: foo(like bar)').
 *
 * This file recognises a pragma statement and parses its strings; check.c
 * applies them during its walk.  At run time plnimble_check_pragma() only
 * returns 1.  It also reads the options a function's comments give
 * (-- @plpgsql_check_options: fatal_errors = false, ...), which override
 * the call's arguments.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "catalog/pg_proc.h"
#include "utils/builtins.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "plnimble.h"
#include "tools/pln_check.h"

PG_FUNCTION_INFO_V1(plnimble_check_pragma);

/* plnimble_check_pragma(VARIADIC text[]) returns integer: nothing to do */
Datum
plnimble_check_pragma(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(1);
}

/*
 * If query (the text of a PERFORM, "SELECT ...") is a call of
 * plnimble_check_pragma or plpgsql_check_pragma with constant strings
 * only, return the strings (palloc'd char *); else NIL.  A pragma is not
 * analysed as SQL: it may name plpgsql_check's function, which need not
 * exist where plnimble runs.
 */
List *
pln_pragma_strings(const char *query)
{
	List	   *raw;
	RawStmt    *rs;
	SelectStmt *sel;
	ResTarget  *rt;
	FuncCall   *fc;
	char	   *fname;
	List	   *result = NIL;
	ListCell   *lc;

	if (query == NULL || strstr(query, "check_pragma") == NULL)
		return NIL;
	PG_TRY();
	{
		raw = raw_parser(query, RAW_PARSE_DEFAULT);
	}
	PG_CATCH();
	{
		FlushErrorState();
		raw = NIL;
	}
	PG_END_TRY();
	if (list_length(raw) != 1)
		return NIL;
	rs = linitial_node(RawStmt, raw);
	if (!IsA(rs->stmt, SelectStmt))
		return NIL;
	sel = (SelectStmt *) rs->stmt;
	if (sel->fromClause != NIL || sel->whereClause != NULL ||
		list_length(sel->targetList) != 1)
		return NIL;
	rt = linitial_node(ResTarget, sel->targetList);
	if (rt->val == NULL || !IsA(rt->val, FuncCall))
		return NIL;
	fc = (FuncCall *) rt->val;
	fname = strVal(llast(fc->funcname));
	if (strcmp(fname, "plnimble_check_pragma") != 0 &&
		strcmp(fname, "plpgsql_check_pragma") != 0)
		return NIL;
	foreach(lc, fc->args)
	{
		Node	   *arg = (Node *) lfirst(lc);

		if (IsA(arg, A_Const) && IsA(&((A_Const *) arg)->val, String))
			result = lappend(result, pstrdup(strVal(&((A_Const *) arg)->val)));
		else
			return NIL;			/* not constant: not read, not analysed */
	}
	/* a call without strings is still a pragma, of nothing */
	if (result == NIL)
		result = lappend(result, pstrdup(""));
	return result;
}

/* Skip white space */
static const char *
skip_space(const char *p)
{
	while (*p && isspace((unsigned char) *p))
		p++;
	return p;
}

/*
 * Parse one pragma string into *pragma.  Returns false (with *why set)
 * for a pragma that cannot be read.
 */
bool
pln_pragma_parse(const char *str, PlnPragma *pragma, const char **why)
{
	const char *p = skip_space(str);
	const char *colon = strchr(p, ':');
	char	   *word;
	const char *rest;

	memset(pragma, 0, sizeof(*pragma));
	pragma->kindname = "";
	*why = NULL;
	if (colon == NULL)
	{
		*why = "a pragma is \"kind: ...\"";
		return false;
	}
	word = pnstrdup(p, colon - p);
	while (*word && isspace((unsigned char) word[strlen(word) - 1]))
		word[strlen(word) - 1] = '\0';
	rest = skip_space(colon + 1);
	pragma->kindname = word;

	if (pg_strcasecmp(word, "disable") == 0 || pg_strcasecmp(word, "enable") == 0)
	{
		char	   *what = pstrdup(rest);
		int			len = strlen(what);

		while (len > 0 && isspace((unsigned char) what[len - 1]))
			what[--len] = '\0';
		pragma->kind = PLN_PRAGMA_SWITCH;
		pragma->on = pg_strcasecmp(word, "enable") == 0;
		if (pg_strcasecmp(what, "check") == 0)
			pragma->what = PLN_PRAGMA_CHECK;
		else if (pg_strcasecmp(what, "tracer") == 0)
			pragma->what = PLN_PRAGMA_TRACER;
		else
		{
			int			i;

			for (i = 0; i < PLN_NWARNING_CLASSES; i++)
				if (pg_strcasecmp(what, pln_warning_classes[i].name) == 0)
					break;
			if (i == PLN_NWARNING_CLASSES)
			{
				*why = "unknown check";
				return false;
			}
			pragma->what = pln_warning_classes[i].pragma;
		}
		return true;
	}
	if (pg_strcasecmp(word, "type") == 0)
	{
		/* [label.]name typename, or [label.]name (col type, ...) */
		const char *q = rest;
		const char *start = q;
		bool		quoted = false;

		pragma->kind = PLN_PRAGMA_TYPE;

		while (*q && (quoted || !isspace((unsigned char) *q)) &&
			   (quoted || *q != '('))
		{
			if (*q == '"')
				quoted = !quoted;
			q++;
		}
		if (q == start)
		{
			*why = "Syntax error (expected identifier)";
			return false;
		}
		pragma->name = pnstrdup(start, q - start);
		q = skip_space(q);
		if (*q == '\0')
		{
			*why = "Syntax error (expected type specification)";
			return false;
		}
		if (*q == '(')
		{
			int			depth = 0;
			const char *s = q;

			for (; *q; q++)
			{
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
			}
			if (*q != ')')
			{
				*why = "Syntax error (unclosed composite type definition - expected \")\")";
				return false;
			}
			pragma->columns = pnstrdup(s + 1, q - s - 1);
			q++;
		}
		else
		{
			const char *s = q;

			while (*q && !isspace((unsigned char) *q))
				q++;
			pragma->type = pnstrdup(s, q - s);
		}
		if (*skip_space(q) != '\0')
		{
			*why = "Syntax error (unexpected chars after type specification)";
			return false;
		}
		return true;
	}
	if (pg_strcasecmp(word, "table") == 0)
	{
		/* name(definition): CREATE TEMP TABLE name(definition) */
		const char *paren = strchr(rest, '(');

		pragma->kind = PLN_PRAGMA_TABLE;
		if (paren == NULL || paren == rest || rest[strlen(rest) - 1] != ')')
		{
			*why = "Syntax error (expected table name and definition)";
			return false;
		}
		pragma->name = pnstrdup(rest, paren - rest);
		pragma->columns = pstrdup(paren);
		return true;
	}
	*why = "unsupported pragma";
	return false;
}

/* A boolean option's value; false (with a warning) if it is not one */
static bool
incomment_bool(const char *name, const char *value, bool *result)
{
	if (value == NULL)
	{
		*result = true;			/* a bare name turns the option on */
		return true;
	}
	if (parse_bool(value, result))
		return true;
	ereport(WARNING,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the value \"%s\" of the in-comment option \"%s\" is not a boolean",
					value, name)));
	return false;
}

/* One "name = value" (or "name") of an options comment */
static void
apply_incomment_option(char *item, PlnCheckOptions *opts)
{
	char	   *eq = strchr(item, '=');
	char	   *name = item;
	char	   *value = NULL;
	bool		b;
	int			i;

	if (eq != NULL)
	{
		*eq = '\0';
		value = eq + 1;
		while (isspace((unsigned char) *value))
			value++;
		while (*value && isspace((unsigned char) value[strlen(value) - 1]))
			value[strlen(value) - 1] = '\0';
	}
	while (isspace((unsigned char) *name))
		name++;
	while (*name && isspace((unsigned char) name[strlen(name) - 1]))
		name[strlen(name) - 1] = '\0';
	if (*name == '\0')
		return;

	if (pg_strcasecmp(name, "fatal_errors") == 0)
	{
		if (incomment_bool(name, value, &b))
			opts->fatal_errors = b;
		return;
	}
	for (i = 0; i < PLN_NWARNING_CLASSES; i++)
	{
		if (pg_strcasecmp(name, pln_warning_classes[i].name) != 0)
			continue;
		if (incomment_bool(name, value, &b))
			*pln_warning_option(opts, &pln_warning_classes[i]) = b;
		return;
	}
	if (pg_strcasecmp(name, "all_warnings") == 0 ||
		pg_strcasecmp(name, "without_warnings") == 0)
	{
		if (incomment_bool(name, value, &b) && b)
			pln_check_set_all_warnings(opts,
									   pg_strcasecmp(name, "all_warnings") == 0);
		return;
	}
	if (value != NULL && pg_strcasecmp(name, "relid") == 0)
	{
		opts->relid = DatumGetObjectId(DirectFunctionCall1(regclassin,
														   CStringGetDatum(value)));
		return;
	}
	if (value != NULL && pg_strcasecmp(name, "oldtable") == 0)
	{
		opts->oldtable = pstrdup(value);
		return;
	}
	if (value != NULL && pg_strcasecmp(name, "newtable") == 0)
	{
		opts->newtable = pstrdup(value);
		return;
	}
	ereport(WARNING,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unsupported in-comment option \"%s\"", name)));
}

/*
 * The options of a function's comments: each "@plpgsql_check_options:"
 * (or "@plnimble_check_options:") in its source, to the end of its line
 * or comment, a comma-separated list of name = value.  They override
 * opts.
 */
void
pln_check_incomment_options(Oid funcoid, PlnCheckOptions *opts)
{
	HeapTuple	tup;
	Datum		src;
	bool		isnull;
	char	   *source;
	char	   *p;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(tup))
		return;
	src = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc, &isnull);
	source = isnull ? NULL : TextDatumGetCString(src);
	ReleaseSysCache(tup);
	if (source == NULL)
		return;

	for (p = source; (p = strchr(p, '@')) != NULL; p++)
	{
		const char *marks[] = {"@plpgsql_check_options:", "@plnimble_check_options:"};
		int			i;

		for (i = 0; i < lengthof(marks); i++)
		{
			size_t		len = strlen(marks[i]);
			char	   *end;
			char	   *line;
			char	   *item;
			char	   *save;

			if (strncmp(p, marks[i], len) != 0)
				continue;
			end = p + len;
			while (*end && *end != '\n' && strncmp(end, "*/", 2) != 0)
				end++;
			line = pnstrdup(p + len, end - (p + len));
			if (opts->incomment_options_usage_warning)
				ereport(WARNING,
						(errmsg("in-comment options are used: %s", line)));
			for (item = strtok_r(line, ",", &save); item != NULL;
				 item = strtok_r(NULL, ",", &save))
				apply_incomment_option(item, opts);
		}
	}
}
