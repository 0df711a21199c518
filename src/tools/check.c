/*-------------------------------------------------------------------------
 *
 * check.c
 *	  plnimble_check_function(): static checking of a function, without
 *	  running it, in the manner of plpgsql_check.
 *
 * The function is compiled and every statement is visited once, in text
 * order, without being run.  Each embedded SQL statement and expression
 * is parsed and analysed against the catalogs by SPI with the function's
 * own parser hooks, so that variables have their declared types; a record
 * variable gets the row type of the query that fills it (SELECT INTO, FOR
 * IN query, a bound cursor) so that later references to its fields can
 * be checked too.  Everything happens inside a subtransaction that is
 * rolled back, and each analysis in one of its own, so that an error is
 * a finding and nothing survives.  Plans are made and freed, never kept
 * on the compiled function.
 *
 * Besides the analysis errors, the walk reports INTO targets and RETURN
 * QUERY results that do not match their query, assignments whose implicit
 * conversion can fail, variables never read or never used, shadowing
 * declarations (an error with plnimble.extra_errors), INTO targets whose
 * column count differs (strict_multi_assignment, at the level of
 * plnimble.extra_errors/extra_warnings), unreachable statements, a
 * function that can reach its
 * end without RETURN, and (performance_warnings) exception blocks whose
 * savepoint starts at their first statement, decided as
 * plnimble_savepoint_plan() decides (explain.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_type.h"
#include "parser/parser.h"
#include "parser/scansup.h"
#include "utils/varlena.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/queryenvironment.h"
#include "utils/regproc.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "plnimble.h"
#include "tools/pln_check.h"

bool		pln_check_on_first_call = false;
bool		pln_check_on_every_call = false;
bool		pln_check_fatal_errors = true;

typedef struct CheckState
{
	PlnExecState *estate;
	PlnFunction *func;
	PlnCheckOptions *opts;
	MemoryContext cxt;			/* where findings live */
	List	   *findings;
	bool		stop;			/* fatal_errors and an error was found */
	bool	   *read;			/* by dno: read somewhere */
	bool	   *written;		/* by dno: assigned somewhere */
	bool	   *sanitized;		/* by dno: last assigned a quoted value */
	TupleDesc  *opened;			/* by dno: the result shape of the query
								 * an unbound cursor was last opened for */
	List	   *scope;			/* visible PlnVariables, innermost last */
	char	  **why;			/* savepoint reasons, or NULL */
	Query	   *last_query;		/* of the last check_expr with firstexpr */
	int			loop_depth;		/* loops around the current statement */
	List	   *query_loops;	/* enclosing FOR IN query loops */
	PlnStmt    *cur_stmt;		/* for walkers that report */
	bool		returns_query;	/* a RETURN QUERY was seen */
	char		needs_volatility;	/* PROVOLATILE_* the body needs, at
									 * least: 'i' until something says
									 * more */
	int			subxact_depth;	/* bodies of blocks with handlers around */
	int			handler_depth;	/* exception handlers around */
	bool		disabled[PLN_PRAGMA_NWHAT];	/* by pragmas, to the end of the
											 * statement list */
	List	   *saved_disabled;	/* disabled[] as each body around began */
	bool		unreachable;	/* the statement before never ends */
} CheckState;

static bool is_in_param(PlnFunction *func, int dno);
static Node *check_dynamic_string(CheckState *cs, PlnStmt *stmt, PlnExpr *query);
static TupleDesc check_dynamic_query(CheckState *cs, PlnStmt *stmt, PlnExpr *query,
									 List *params, bool into, bool *known);
static void warn_unknown_dynamic_record(CheckState *cs, PlnStmt *stmt, PlnVariable *target);
static void check_analysed(CheckState *cs, PlnStmt *stmt, CachedPlanSource *ps);
static Node *strip_implicit(Node *node);
static bool where_column_casts(Node *node, CheckState *cs);
static void check_refcursor_literal(CheckState *cs, PlnStmt *stmt, Node *value);
static char *const_string(Node *node);
static void check_format_call(CheckState *cs, FuncExpr *fe);
static TupleDesc record_desc(CheckState *cs, PlnRec *rec);
static TupleDesc composite_value_desc(Node *value);
static void check_composite_result(CheckState *cs, PlnStmt *stmt, TupleDesc got,
								   bool retset, bool variable);
static void check_recfield_target(CheckState *cs, PlnStmt *stmt, int dno);
static void warn(CheckState *cs, PlnStmt *stmt, PlnCheckLevel level, int sqlerrcode,
				 char *message, char *detail, char *hint);
static bool concatenates_raw_param(CheckState *cs, Node *node);
static bool format_takes_raw_string(CheckState *cs, FuncExpr *fe);
static bool is_sanitized_value(Node *node);
static void apply_pragmas(CheckState *cs, PlnStmt *stmt, List *strings);
static void check_assign_cast_type(CheckState *cs, PlnStmt *stmt,
								   Oid srctype, Oid dsttype);

/* ----------
 * Findings
 * ----------
 */
static PlnCheckFinding *
add_finding(CheckState *cs, PlnStmt *stmt, PlnCheckLevel level,
			int sqlerrcode, char *message)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(cs->cxt);
	PlnCheckFinding *f = palloc0(sizeof(PlnCheckFinding));

	f->level = level;
	f->lineno = stmt ? stmt->lineno : 0;
	f->stmtname = stmt ? pln_stmt_typename(stmt) : NULL;
	f->sqlerrcode = sqlerrcode;
	f->message = pstrdup(message);
	MemoryContextSwitchTo(oldcontext);
	/* under a disable:check pragma, a finding is made but not reported */
	if (cs->disabled[PLN_PRAGMA_CHECK])
		return f;
	cs->findings = lappend(cs->findings, f);
	if (level == PLN_CHECK_ERROR && cs->opts->fatal_errors)
		cs->stop = true;
	return f;
}

/* Is a finding of this level wanted? */
static bool
wanted(CheckState *cs, PlnCheckLevel level)
{
	int			i;

	if (level == PLN_CHECK_ERROR)
		return true;
	for (i = 0; i < PLN_NWARNING_CLASSES; i++)
	{
		const PlnWarningClass *wc = &pln_warning_classes[i];

		if (wc->level == level)
			return *pln_warning_option(cs->opts, wc) &&
				!cs->disabled[wc->pragma];
	}
	return false;
}

static void
warn(CheckState *cs, PlnStmt *stmt, PlnCheckLevel level, int sqlerrcode,
	 char *message, char *detail, char *hint)
{
	PlnCheckFinding *f;

	if (!wanted(cs, level))
		return;
	f = add_finding(cs, stmt, level, sqlerrcode, message);
	f->detail = detail ? MemoryContextStrdup(cs->cxt, detail) : NULL;
	f->hint = hint ? MemoryContextStrdup(cs->cxt, hint) : NULL;
}

/* A finding at line lineno that belongs to no statement (a declaration) */
static void
warn_at_line(CheckState *cs, int lineno, PlnCheckLevel level,
			 char *message)
{
	PlnCheckFinding *f;

	if (!wanted(cs, level))
		return;
	f = add_finding(cs, NULL, level, ERRCODE_SUCCESSFUL_COMPLETION, message);
	f->lineno = lineno;
	/* plpgsql_check names the statement of a declaration's finding so */
	if (lineno > 0)
		f->stmtname = "DECLARE";
}

/* An error caught while analysing a statement's SQL */
static void
add_error_finding(CheckState *cs, PlnStmt *stmt, ErrorData *edata)
{
	PlnCheckFinding *f = add_finding(cs, stmt, PLN_CHECK_ERROR,
									 edata->sqlerrcode, edata->message);
	MemoryContext oldcontext = MemoryContextSwitchTo(cs->cxt);

	f->detail = edata->detail ? pstrdup(edata->detail) : NULL;
	f->hint = edata->hint ? pstrdup(edata->hint) : NULL;
	if (edata->internalquery != NULL)
	{
		f->query = pstrdup(edata->internalquery);
		f->position = edata->internalpos;
	}
	else if (edata->cursorpos > 0)
		f->position = edata->cursorpos;
	f->context = edata->context ? pstrdup(edata->context) : NULL;
	MemoryContextSwitchTo(oldcontext);
}

/* ----------
 * Which variables are read and written
 * ----------
 */
static void
mark_dno(CheckState *cs, int dno, bool *marks)
{
	PlnDatum   *datum;

	if (dno < 0 || dno >= cs->func->ndatums)
		return;
	marks[dno] = true;
	datum = cs->func->datums[dno];
	if (datum->dtype == PLN_DTYPE_ROW)
	{
		PlnRow	   *row = (PlnRow *) datum;
		int			i;

		for (i = 0; i < row->nfields; i++)
			if (row->varnos[i] >= 0)
				mark_dno(cs, row->varnos[i], marks);
	}
	else if (datum->dtype == PLN_DTYPE_RECFIELD)
		mark_dno(cs, ((PlnRecField *) datum)->recparentno, marks);
}

static void
mark_read_expr(CheckState *cs, PlnExpr *expr)
{
	int			dno = -1;

	if (expr == NULL)
		return;
	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
		mark_dno(cs, dno, cs->read);
}

/* The variables an analysed expression reads: its Params */
static bool
mark_reads(Node *node, CheckState *cs)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN)
		mark_dno(cs, ((Param *) node)->paramid - 1, cs->read);
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, mark_reads, (void *) cs, 0);
	/* a[i] := x stores into a: the old value of a is not "read" */
	if (IsA(node, SubscriptingRef) &&
		((SubscriptingRef *) node)->refassgnexpr != NULL &&
		IsA(((SubscriptingRef *) node)->refexpr, Param))
	{
		SubscriptingRef *sr = (SubscriptingRef *) node;

		return mark_reads((Node *) sr->refupperindexpr, cs) ||
			mark_reads((Node *) sr->reflowerindexpr, cs) ||
			mark_reads((Node *) sr->refassgnexpr, cs);
	}
	return expression_tree_walker(node, mark_reads, (void *) cs);
}

/* ----------
 * Analysing SQL
 * ----------
 */

/*
 * A record of unknown shape makes analysis fail ("not assigned yet").
 * That is a finding only if nothing before assigned the record: else its
 * shape is known at run time only (EXECUTE ... INTO, say).
 */
static bool
unknown_record_was_assigned(CheckState *cs, PlnExpr *expr)
{
	int			dno = -1;

	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
	{
		PlnDatum   *datum = cs->estate->datums[dno];

		if (datum->dtype == PLN_DTYPE_RECFIELD)
			datum = cs->estate->datums[((PlnRecField *) datum)->recparentno];
		if (datum->dtype == PLN_DTYPE_REC && ((PlnRec *) datum)->erh == NULL &&
			cs->written[datum->dno])
			return true;
	}
	return cs->func->fn_is_trigger;	/* NEW and OLD without relid */
}

/*
 * format() with a constant format string: the arguments it takes must be
 * there, its type specifiers known (else the call fails), and an argument
 * it never takes is likely a mistake (a warning).
 */
static void
check_format_call(CheckState *cs, FuncExpr *fe)
{
	char	   *fmt;
	const char *p;
	int			nargs = list_length(fe->args) - 1;
	int			argno = 0;		/* next argument, from 0 */
	int			used = 0;		/* highest argument taken, from 1 */

	if (fe->funcvariadic || (fmt = const_string(linitial(fe->args))) == NULL)
		return;
	for (p = fmt; *p; p++)
	{
		int			n = 0;
		const char *save;

		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		save = p;
		while (isdigit((unsigned char) *p))
			n = n * 10 + (*p++ - '0');
		if (*p == '$' && n > 0)
		{
			argno = n - 1;
			p++;
		}
		else
			p = save;
		/* flags, and a width that may be taken from an argument */
		while (*p == '-')
			p++;
		if (*p == '*')
		{
			p++;
			n = 0;
			save = p;
			while (isdigit((unsigned char) *p))
				n = n * 10 + (*p++ - '0');
			if (*p == '$' && n > 0)
			{
				used = Max(used, n);
				p++;
			}
			else
			{
				p = save;
				argno++;
				used = Max(used, argno);
			}
		}
		while (isdigit((unsigned char) *p))
			p++;
		if (*p == '\0')
			return;				/* "unterminated format() type specifier" */
		if (*p != 's' && *p != 'I' && *p != 'L')
		{
			warn(cs, cs->cur_stmt, PLN_CHECK_ERROR, ERRCODE_INVALID_PARAMETER_VALUE,
				 psprintf("unrecognized format() type specifier \"%c\"", *p),
				 NULL, NULL);
			return;
		}
		argno++;
		used = Max(used, argno);
	}
	if (used > nargs)
		warn(cs, cs->cur_stmt, PLN_CHECK_ERROR, ERRCODE_INVALID_PARAMETER_VALUE,
			 pstrdup("too few arguments for format()"), NULL, NULL);
	else if (used < nargs)
		warn(cs, cs->cur_stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("unused parameters of function \"format\""), NULL, NULL);
}

/* ----------
 * Volatility: what the body needs, against what the routine is marked
 * ----------
 */
static void
needs_at_least(CheckState *cs, char v)
{
	if (v == PROVOLATILE_VOLATILE ||
		(v == PROVOLATILE_STABLE && cs->needs_volatility == PROVOLATILE_IMMUTABLE))
		cs->needs_volatility = v;
}

/* Does the query read a table (a relation of any kind, at any depth)? */
static bool
reads_relation(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
		return ((RangeTblEntry *) node)->rtekind == RTE_RELATION;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, reads_relation, context,
								 QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, reads_relation, context);
}

/* The volatility an analysed statement needs */
static void
note_query_volatility(CheckState *cs, Query *q)
{
	if (q->commandType != CMD_SELECT || q->rowMarks != NIL ||
		q->hasModifyingCTE || contain_volatile_functions((Node *) q))
		needs_at_least(cs, PROVOLATILE_VOLATILE);
	else if (contain_mutable_functions((Node *) q) ||
			 reads_relation((Node *) q, NULL))
		needs_at_least(cs, PROVOLATILE_STABLE);
}

/*
 * performance_warnings: a routine marked VOLATILE whose body needs only
 * STABLE or IMMUTABLE, or STABLE that could be IMMUTABLE (the planner
 * could do more with it), as plpgsql_check 2.3 reports it: not when the
 * check stopped at an error (fatal_errors), nor STABLE for a VOLATILE one without arguments
 * returning void (as plpgsql_check's regression suite shows it).
 */
static void
check_volatility(CheckState *cs)
{
	PlnFunction *func = cs->func;
	char		marked;

	if (!OidIsValid(func->fn_oid) || func->fn_is_trigger ||
		func->fn_is_event_trigger || func->fn_prokind == PROKIND_PROCEDURE)
		return;
	marked = func_volatile(func->fn_oid);
	if (marked == PROVOLATILE_VOLATILE && func->fn_rettype == VOIDOID &&
		func->fn_nargs == 0 && cs->needs_volatility != PROVOLATILE_IMMUTABLE)
		return;
	if (marked == cs->needs_volatility ||
		(marked == PROVOLATILE_IMMUTABLE) ||
		(marked == PROVOLATILE_STABLE && cs->needs_volatility != PROVOLATILE_IMMUTABLE) ||
		cs->needs_volatility == PROVOLATILE_VOLATILE)
		return;
	warn(cs, NULL, PLN_CHECK_PERFORMANCE, ERRCODE_SUCCESSFUL_COMPLETION,
		 psprintf("routine is marked as %s, should be %s",
				  marked == PROVOLATILE_VOLATILE ? "VOLATILE" : "STABLE",
				  cs->needs_volatility == PROVOLATILE_STABLE ? "STABLE" : "IMMUTABLE"),
		 NULL,
		 pstrdup("When you fix this issue, please, recheck other functions that uses this function."));
}

/*
 * A nextval(), currval() or setval() of a relation that is not a sequence
 * fails at run time; a constant argument can be looked at now.
 */
static bool
check_sequence_calls(Node *node, CheckState *cs)
{
	if (node == NULL)
		return false;
	if (IsA(node, FuncExpr))
	{
		FuncExpr   *fe = (FuncExpr *) node;

		if ((fe->funcid == F_NEXTVAL || fe->funcid == F_CURRVAL ||
			 fe->funcid == F_SETVAL_REGCLASS_INT8 ||
			 fe->funcid == F_SETVAL_REGCLASS_INT8_BOOL) && fe->args != NIL)
		{
			Node	   *arg = strip_implicit(linitial(fe->args));

			if (IsA(arg, Const) && !((Const *) arg)->constisnull &&
				((Const *) arg)->consttype == REGCLASSOID)
			{
				Oid			relid = DatumGetObjectId(((Const *) arg)->constvalue);
				char		relkind = get_rel_relkind(relid);

				if (relkind != '\0' && relkind != RELKIND_SEQUENCE)
					warn(cs, cs->cur_stmt, PLN_CHECK_ERROR, ERRCODE_WRONG_OBJECT_TYPE,
						 psprintf("\"%s\" is not a sequence", get_rel_name(relid)),
						 NULL, NULL);
			}
		}
	}
	if (IsA(node, FuncExpr) &&
		(((FuncExpr *) node)->funcid == F_FORMAT_TEXT_ANY ||
		 ((FuncExpr *) node)->funcid == F_FORMAT_TEXT))
		check_format_call(cs, (FuncExpr *) node);
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, check_sequence_calls, (void *) cs, 0);
	return expression_tree_walker(node, check_sequence_calls, (void *) cs);
}

/*
 * performance_warnings: a WHERE condition comparing a column with a
 * variable of another type through an implicit cast of the column: an
 * index on the column cannot be used.
 */
static bool
find_column_casts(Node *node, CheckState *cs)
{
	if (node == NULL)
		return false;
	if (IsA(node, OpExpr) && list_length(((OpExpr *) node)->args) == 2)
	{
		Node	   *l = linitial(((OpExpr *) node)->args);
		Node	   *r = lsecond(((OpExpr *) node)->args);
		int			k;

		for (k = 0; k < 2; k++)
		{
			Node	   *col = k == 0 ? l : r;
			Node	   *var = k == 0 ? r : l;

			if (IsA(col, FuncExpr) &&
				((FuncExpr *) col)->funcformat == COERCE_IMPLICIT_CAST &&
				list_length(((FuncExpr *) col)->args) >= 1 &&
				IsA(linitial(((FuncExpr *) col)->args), Var) &&
				IsA(strip_implicit(var), Param) &&
				((Param *) strip_implicit(var))->paramkind == PARAM_EXTERN)
			{
				warn(cs, cs->cur_stmt, PLN_CHECK_PERFORMANCE, ERRCODE_DATATYPE_MISMATCH,
					 pstrdup("implicit cast of attribute caused by different PLpgSQL variable type in WHERE clause"),
					 pstrdup("An index of some attribute cannot be used, when variable, used in predicate, has not right type like a attribute"),
					 psprintf("Check a variable type - %s versus %s",
							  format_type_be(exprType(linitial(((FuncExpr *) col)->args))),
							  format_type_be(exprType(strip_implicit(var)))));
				return false;
			}
		}
	}
	if (IsA(node, SubLink))
	{
		(void) where_column_casts(((SubLink *) node)->subselect, cs);
		return expression_tree_walker(((SubLink *) node)->testexpr,
									  find_column_casts, (void *) cs);
	}
	return expression_tree_walker(node, find_column_casts, (void *) cs);
}

static bool
where_column_casts(Node *node, CheckState *cs)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, where_column_casts, (void *) cs, 0);
	if (IsA(node, FromExpr))
		(void) find_column_casts(((FromExpr *) node)->quals, cs);
	else if (IsA(node, JoinExpr))
		(void) find_column_casts(((JoinExpr *) node)->quals, cs);
	else if (IsA(node, SubLink))
		return where_column_casts(((SubLink *) node)->subselect, cs);
	return expression_tree_walker(node, where_column_casts, (void *) cs);
}

/*
 * CALL's output arguments must be variables that can be written: as the
 * statement's first run would find (exec_sql.c, make_call_target).
 */
static void
check_call_arguments(CheckState *cs, PlnStmt *stmt, CallStmt *call)
{
	HeapTuple	proctup;
	Oid		   *argtypes;
	char	  **argnames;
	char	   *argmodes;
	int			numargs;
	int			i;
	int			nout = 0;

	if (call->outargs == NIL)
		return;
	proctup = SearchSysCache1(PROCOID, ObjectIdGetDatum(call->funcexpr->funcid));
	if (!HeapTupleIsValid(proctup))
		return;
	numargs = get_func_arg_info(proctup, &argtypes, &argnames, &argmodes);
	ReleaseSysCache(proctup);
	for (i = 0; i < numargs && nout < list_length(call->outargs); i++)
	{
		Node	   *arg;

		if (argmodes == NULL ||
			(argmodes[i] != PROARGMODE_INOUT && argmodes[i] != PROARGMODE_OUT))
			continue;
		arg = list_nth(call->outargs, nout++);
		if (IsA(arg, Param) && ((Param *) arg)->paramkind == PARAM_EXTERN)
		{
			int			dno = ((Param *) arg)->paramid - 1;
			PlnDatum   *datum;

			if (dno < 0 || dno >= cs->func->ndatums)
				continue;
			datum = cs->estate->datums[dno];
			if (datum->dtype == PLN_DTYPE_RECFIELD)
				datum = cs->estate->datums[((PlnRecField *) datum)->recparentno];
			if ((datum->dtype == PLN_DTYPE_VAR || datum->dtype == PLN_DTYPE_REC) &&
				((PlnVariable *) datum)->isconst)
				warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_ERROR_IN_ASSIGNMENT,
					 psprintf("variable \"%s\" is declared CONSTANT",
							  ((PlnVariable *) datum)->refname),
					 NULL, NULL);
			mark_dno(cs, dno, cs->written);
		}
		else
			warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_SYNTAX_ERROR,
				 argnames && argnames[i] && argnames[i][0] ?
				 psprintf("procedure parameter \"%s\" is an output parameter but corresponding argument is not writable",
						  argnames[i]) :
				 psprintf("procedure parameter %d is an output parameter but corresponding argument is not writable",
						  i + 1),
				 NULL, NULL);
	}
}

/*
 * What the analysed statement shows that its run would fail on: a
 * data-modifying statement in a function that is not VOLATILE (SPI runs
 * it read-only), sequence functions on other relations, CALL's output
 * arguments.
 */
static void
check_analysed(CheckState *cs, PlnStmt *stmt, CachedPlanSource *ps)
{
	ListCell   *lc;

	if (stmt == NULL)
		return;
	if (cs->func->fn_readonly && ps->raw_parse_tree != NULL)
	{
		Node	   *raw = ps->raw_parse_tree->stmt;
		const char *what = NULL;

		if (IsA(raw, InsertStmt))
			what = "INSERT";
		else if (IsA(raw, UpdateStmt))
			what = "UPDATE";
		else if (IsA(raw, DeleteStmt))
			what = "DELETE";
		else if (IsA(raw, MergeStmt))
			what = "MERGE";
		if (what != NULL)
			warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_FEATURE_NOT_SUPPORTED,
				 psprintf("%s is not allowed in a non volatile function", what),
				 NULL, NULL);
	}
	cs->cur_stmt = stmt;
	foreach(lc, ps->query_list)
	{
		Query	   *q = lfirst_node(Query, lc);

		note_query_volatility(cs, q);
		if (cs->opts->dependencies != NULL)
			pln_check_collect_dependencies(cs->opts->dependencies, q);
		if (q->commandType == CMD_UTILITY && q->utilityStmt != NULL &&
			IsA(q->utilityStmt, CallStmt))
			check_call_arguments(cs, stmt, (CallStmt *) q->utilityStmt);
		else
		{
			(void) check_sequence_calls((Node *) q, cs);
			(void) where_column_casts((Node *) q, cs);
		}
	}
}

/*
 * Parse and analyse an expression or SQL statement as its first execution
 * would, in a subtransaction of its own.  Returns the shape of its result
 * (a copy), or NULL if it has none or could not be analysed; then an
 * error was reported unless the cause is only that a record has no shape
 * yet (its structure is known at run time only).  If firstexpr is given,
 * it is set to the first result column's expression.
 */
typedef struct CheckExprArgs
{
	CheckState *cs;
	PlnStmt    *stmt;
	PlnExpr    *expr;
	bool		want_first;
	TupleDesc	result;			/* out: the result's shape, or NULL */
	Node	   *first;			/* out: the first column, or NULL */
} CheckExprArgs;

/* check_expr's analysis, in its subtransaction */
static void
check_expr_work(void *arg)
{
	CheckExprArgs *args = (CheckExprArgs *) arg;
	CheckState *cs = args->cs;
	PlnExpr    *expr = args->expr;
	MemoryContext oldcontext = CurrentMemoryContext;
	SPIPrepareOptions options;
	SPIPlanPtr	plan;
	List	   *sources;

	memset(&options, 0, sizeof(options));
	options.parserSetup = (ParserSetupHook) pln_parser_setup;
	options.parserSetupArg = (void *) expr;
	options.parseMode = expr->parseMode;
	options.cursorOptions = CURSOR_OPT_PARALLEL_OK;
	cs->estate->cur_expr = expr;
	plan = SPI_prepare_extended(expr->query, &options);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare_extended failed for \"%s\": %s",
			 expr->query, SPI_result_code_string(SPI_result));
	sources = SPI_plan_get_plan_sources(plan);
	if (list_length(sources) == 1)
	{
		CachedPlanSource *ps = (CachedPlanSource *) linitial(sources);

		MemoryContextSwitchTo(oldcontext);
		check_analysed(cs, args->stmt, ps);
		if (ps->resultDesc != NULL)
			args->result = CreateTupleDescCopy(ps->resultDesc);
		if (args->want_first && list_length(ps->query_list) == 1)
		{
			Query	   *q = linitial_node(Query, ps->query_list);

			cs->last_query = copyObject(q);
			if (q->commandType == CMD_SELECT && q->targetList != NIL)
				args->first = copyObject((Node *) ((TargetEntry *) linitial(q->targetList))->expr);
		}
	}
	SPI_freeplan(plan);
}

static TupleDesc
check_expr(CheckState *cs, PlnStmt *stmt, PlnExpr *expr, Node **firstexpr)
{
	CheckExprArgs args = {cs, stmt, expr, firstexpr != NULL, NULL, NULL};
	ErrorData  *edata;

	if (firstexpr)
		*firstexpr = NULL;
	cs->last_query = NULL;
	if (expr == NULL || cs->stop)
		return NULL;

	edata = pln_try_in_subtransaction(check_expr_work, &args, false);
	if (edata != NULL)
	{
		args.result = NULL;
		args.first = NULL;
		if (edata->sqlerrcode != ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE ||
			!unknown_record_was_assigned(cs, expr))
			add_error_finding(cs, stmt, edata);
		FreeErrorData(edata);
	}

	/* an assignment's target is among its parameters: see mark_reads */
	if (expr->target_param < 0)
		mark_read_expr(cs, expr);
	if (firstexpr)
		*firstexpr = args.first;
	return args.result;
}

/*
 * An assignment (or a default, a loop bound) of the value of expr to a
 * variable of type dsttype: a warning if the conversion is not implicit,
 * so that it can fail or lose precision at run time.
 */
static void
check_assign_cast(CheckState *cs, PlnStmt *stmt, Node *value, Oid dsttype)
{
	if (value == NULL || !OidIsValid(dsttype))
		return;

	/* the parser may have added the conversion to the target type */
	if (IsA(value, FuncExpr) &&
		((FuncExpr *) value)->funcformat == COERCE_IMPLICIT_CAST)
		value = linitial(((FuncExpr *) value)->args);
	else if (IsA(value, CoerceViaIO) &&
			 ((CoerceViaIO *) value)->coerceformat == COERCE_IMPLICIT_CAST)
		value = (Node *) ((CoerceViaIO *) value)->arg;
	else if (IsA(value, RelabelType))
		value = (Node *) ((RelabelType *) value)->arg;

	/* a constant is converted once, when the plan is made */
	if (IsA(value, Const))
		return;
	check_assign_cast_type(cs, stmt, exprType(value), dsttype);
}

/*
 * The same, for a value of type srctype.  As plpgsql_check grades it: a
 * conversion the parser would do by itself (implicit or assignment) is a
 * hidden cost (performance); one that needs an explicit cast can fail
 * (warning); one with no cast at all is likely a bug (warning).  A
 * binary-compatible one costs nothing.
 */
static void
check_assign_cast_type(CheckState *cs, PlnStmt *stmt, Oid srctype,
					   Oid dsttype)
{
	Oid			funcid;
	CoercionPathType path;
	PlnCheckLevel level;
	const char *hint;

	if (!OidIsValid(srctype) || !OidIsValid(dsttype))
		return;
	if (srctype == dsttype || srctype == UNKNOWNOID ||
		getBaseType(dsttype) == srctype)
		return;
	path = find_coercion_pathway(dsttype, srctype, COERCION_IMPLICIT, &funcid);
	if (path == COERCION_PATH_RELABELTYPE)
		return;
	if (path != COERCION_PATH_NONE ||
		find_coercion_pathway(dsttype, srctype, COERCION_ASSIGNMENT,
							  &funcid) != COERCION_PATH_NONE)
	{
		level = PLN_CHECK_PERFORMANCE;
		hint = "Hidden casting can be a performance issue.";
	}
	else if (find_coercion_pathway(dsttype, srctype, COERCION_EXPLICIT,
								   &funcid) != COERCION_PATH_NONE)
	{
		level = PLN_CHECK_WARNING;
		hint = "The input expression type does not have an assignment cast to the target type.";
	}
	else
	{
		level = PLN_CHECK_WARNING;
		hint = "There are no possible explicit coercion between those types, possibly bug!";
	}
	warn(cs, stmt, level, ERRCODE_DATATYPE_MISMATCH,
		 pstrdup("target type is different type than source type"),
		 psprintf("cast \"%s\" value to \"%s\" type",
				  format_type_be(srctype), format_type_be(dsttype)),
		 pstrdup(hint));
}

/* The type of a variable datum, or InvalidOid */
static Oid
var_type(CheckState *cs, int dno)
{
	PlnDatum   *datum = cs->estate->datums[dno];

	if (datum->dtype != PLN_DTYPE_VAR)
		return InvalidOid;
	return ((PlnVar *) datum)->datatype->typoid;
}

/* Columns of a row, not counting dropped ones */
static int
live_columns(TupleDesc tupdesc)
{
	int			n = 0;
	int			i;

	for (i = 0; i < tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i)->attisdropped)
			n++;
	return n;
}

/*
 * The strict_multi_assignment extra check, as it would fail or warn at run
 * time (assign.c): ncols columns assigned to nfields targets, ncols !=
 * nfields.  An error with plnimble.extra_errors, a warning extra with
 * plnimble.extra_warnings, nothing without either.  Returns whether it
 * was an error.
 */
static bool
check_strict_multi_assignment(CheckState *cs, PlnStmt *stmt, int ncols,
							  int nfields)
{
	bool		is_error = (pln_extra_errors & PLN_XCHECK_STRICTMULTIASSIGNMENT) != 0;
	PlnCheckLevel level = is_error ? PLN_CHECK_ERROR : PLN_CHECK_WARNING_EXTRA;

	Assert(ncols != nfields);
	if (!is_error && !(pln_extra_warnings & PLN_XCHECK_STRICTMULTIASSIGNMENT))
		return false;
	warn(cs, stmt, level, ERRCODE_DATATYPE_MISMATCH,
		 pstrdup("number of source and target fields in assignment does not match"),
		 psprintf("strict_multi_assignment check of %s is active (%d columns, %d targets).",
				  is_error ? "extra_errors" : "extra_warnings", ncols, nfields),
		 pstrdup("Make sure the query returns the exact list of columns."));
	return is_error;
}

/*
 * A query's columns stored into a record of declared row type, field by
 * field: a composite column cannot go into a scalar field, and a count
 * that differs leaves fields NULL or drops columns.
 */
static void
check_composite_target(CheckState *cs, PlnStmt *stmt, PlnRec *rec,
					   TupleDesc tupdesc)
{
	TupleDesc	decl = lookup_rowtype_tupdesc_noerror(rec->rectypeid, -1, true);
	int			i,
				j;
	int			ncols,
				nfields;

	if (decl == NULL)
		return;
	ncols = live_columns(tupdesc);
	nfields = live_columns(decl);
	for (i = 0, j = 0; i < tupdesc->natts && j < decl->natts; i++, j++)
	{
		Form_pg_attribute src,
					dst;

		while (i < tupdesc->natts && TupleDescAttr(tupdesc, i)->attisdropped)
			i++;
		while (j < decl->natts && TupleDescAttr(decl, j)->attisdropped)
			j++;
		if (i >= tupdesc->natts || j >= decl->natts)
			break;
		src = TupleDescAttr(tupdesc, i);
		dst = TupleDescAttr(decl, j);
		if (type_is_rowtype(src->atttypid) && !type_is_rowtype(dst->atttypid))
		{
			warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH,
				 psprintf("cannot cast composite value of \"%s\" type to a scalar value of \"%s\" type",
						  format_type_be(src->atttypid), format_type_be(dst->atttypid)),
				 NULL, NULL);
			break;
		}
	}
	ReleaseTupleDesc(decl);
	if (ncols != nfields &&
		!(pln_extra_errors & PLN_XCHECK_STRICTMULTIASSIGNMENT) &&
		!(pln_extra_warnings & PLN_XCHECK_STRICTMULTIASSIGNMENT))
		warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup(ncols < nfields ? "too few attributes for composite variable" :
					 "too many attributes for composite variable"),
			 NULL, NULL);
}

/*
 * A query's result stored in an INTO target, a loop's row or a record:
 * a row must have as many variables as the result has columns; a record
 * takes the result's shape, so that later statements see its fields.
 */
static void
check_target(CheckState *cs, PlnStmt *stmt, PlnVariable *target,
			 TupleDesc tupdesc)
{
	if (target == NULL)
		return;
	mark_dno(cs, target->dno, cs->written);
	if (tupdesc == NULL)
		return;

	if (target->dtype == PLN_DTYPE_ROW)
	{
		PlnRow	   *row = (PlnRow *) target;
		int			ncols = live_columns(tupdesc);
		int			i;

		for (i = 0; i < row->nfields; i++)
			check_recfield_target(cs, stmt, row->varnos[i]);

		if (ncols != row->nfields &&
			check_strict_multi_assignment(cs, stmt, ncols, row->nfields))
			;					/* an error, reported */
		else if (ncols < row->nfields)
			warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
				 pstrdup("too few attributes for target variables"),
				 pstrdup("There are more target variables than output columns in query."),
				 pstrdup("Check target variables in SELECT INTO statement."));
		else if (ncols > row->nfields)
			warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
				 pstrdup("too many attributes for target variables"),
				 pstrdup("There are less target variables than output columns in query."),
				 pstrdup("Check target variables in SELECT INTO statement."));
		else
		{
			int			col = 0;

			for (i = 0; i < tupdesc->natts; i++)
			{
				Form_pg_attribute att = TupleDescAttr(tupdesc, i);
				Oid			dst;

				if (att->attisdropped)
					continue;
				dst = row->varnos[col] >= 0 ? var_type(cs, row->varnos[col]) : InvalidOid;
				col++;
				if (OidIsValid(dst) && type_is_rowtype(att->atttypid) &&
					!type_is_rowtype(dst))
				{
					warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH,
						 psprintf("cannot cast composite value of \"%s\" type to a scalar value of \"%s\" type",
								  format_type_be(att->atttypid), format_type_be(dst)),
						 NULL, NULL);
					continue;
				}
				check_assign_cast_type(cs, stmt, att->atttypid, dst);
			}
		}
	}
	else if (target->dtype == PLN_DTYPE_REC)
	{
		PlnRec	   *rec = (PlnRec *) cs->estate->datums[target->dno];

		if (rec->rectypeid == RECORDOID)
		{
			TupleDesc	blessed = CreateTupleDescCopy(tupdesc);

			BlessTupleDesc(blessed);
			pln_rec_set_empty(cs->estate, rec, blessed);
		}
		else
			check_composite_target(cs, stmt, rec, tupdesc);
		if (rec->rectypeid != RECORDOID &&
			(pln_extra_errors & PLN_XCHECK_STRICTMULTIASSIGNMENT ||
			 pln_extra_warnings & PLN_XCHECK_STRICTMULTIASSIGNMENT))
		{
			/* a declared row type takes the columns field by field */
			TupleDesc	decl = lookup_rowtype_tupdesc_noerror(rec->rectypeid,
															  -1, true);

			if (decl != NULL)
			{
				int			ncols = live_columns(tupdesc);
				int			nfields = live_columns(decl);

				ReleaseTupleDesc(decl);
				if (ncols != nfields)
					(void) check_strict_multi_assignment(cs, stmt, ncols,
														 nfields);
			}
		}
	}
}

/*
 * RETURN QUERY and RETURN NEXT: the columns must be those of the
 * function's result row, in number and type.
 */
static TupleDesc
function_result_desc(CheckState *cs)
{
	HeapTuple	tup;
	TupleDesc	desc = NULL;

	if (!cs->func->fn_retistuple)
	{
		if (cs->func->fn_rettype == VOIDOID)
			return NULL;
		desc = CreateTemplateTupleDesc(1);
		TupleDescInitEntry(desc, 1, "result", cs->func->fn_rettype, -1, 0);
		return desc;
	}
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(cs->func->fn_oid));
	if (!HeapTupleIsValid(tup))
		return NULL;
	desc = build_function_result_tupdesc_t(tup);
	ReleaseSysCache(tup);
	if (desc == NULL && cs->func->fn_rettype != RECORDOID &&
		type_is_rowtype(cs->func->fn_rettype))
		desc = lookup_rowtype_tupdesc_copy(cs->func->fn_rettype, -1);
	return desc;
}

static void
check_result_shape(CheckState *cs, PlnStmt *stmt, TupleDesc got)
{
	TupleDesc	want;
	int			i;

	if (got == NULL || (want = function_result_desc(cs)) == NULL)
		return;
	if (got->natts != want->natts)
	{
		PlnCheckFinding *f = add_finding(cs, stmt, PLN_CHECK_ERROR,
										 ERRCODE_DATATYPE_MISMATCH,
										 "structure of query does not match function result type");

		f->detail = MemoryContextStrdup(cs->cxt,
										psprintf("Number of returned columns (%d) does not match expected column count (%d).",
												 got->natts, want->natts));
		return;
	}
	for (i = 0; i < got->natts; i++)
	{
		Oid			g = TupleDescAttr(got, i)->atttypid;
		Oid			w = TupleDescAttr(want, i)->atttypid;

		if (g != w && g != UNKNOWNOID)
		{
			PlnCheckFinding *f = add_finding(cs, stmt, PLN_CHECK_ERROR,
											 ERRCODE_DATATYPE_MISMATCH,
											 "structure of query does not match function result type");

			f->detail = MemoryContextStrdup(cs->cxt,
											psprintf("Returned type %s does not match expected type %s in column %d.",
													 format_type_be(g), format_type_be(w), i + 1));
			return;
		}
	}
}

/*
 * The value of RETURN expr (retset false) or RETURN NEXT expr (retset
 * true) of a function whose result, or each row of it, is one scalar: one
 * column, converting to the result type.
 */
static bool
returns_scalar(CheckState *cs, bool retset)
{
	return cs->func->fn_retset == retset && !cs->func->fn_retistuple &&
		cs->func->fn_rettype != VOIDOID;
}

static void
check_scalar_result(CheckState *cs, PlnStmt *stmt, PlnExpr *expr,
					bool retset)
{
	Node	   *first;
	TupleDesc	desc;

	desc = check_expr(cs, stmt, expr, &first);
	if (desc != NULL && desc->natts == 1 && first != NULL &&
		cs->func->fn_retistuple)
		check_composite_result(cs, stmt, composite_value_desc(first), retset, false);
	if (desc == NULL || !returns_scalar(cs, retset))
		return;
	if (desc->natts != 1)
	{
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH,
			 pstrdup("query returned more than one column"), NULL, NULL);
		return;
	}
	if (cs->func->fn_rettype == REFCURSOROID)
		check_refcursor_literal(cs, stmt, first);
	/* a RETURN of a constant is reported, of NULL not (plpgsql_check) */
	if (first != NULL && IsA(strip_implicit(first), Const) &&
		!((Const *) strip_implicit(first))->constisnull)
		check_assign_cast_type(cs, stmt, exprType(strip_implicit(first)),
							   cs->func->fn_rettype);
	else
		check_assign_cast(cs, stmt, first, cs->func->fn_rettype);
}

/* The row type of a composite value, if it can be known now, or NULL */
static TupleDesc
composite_value_desc(Node *value)
{
	Oid			typid;
	TupleDesc	desc = NULL;
	MemoryContext oldcontext = CurrentMemoryContext;

	if (value == NULL)
		return NULL;
	typid = exprType(value);
	if (typid == RECORDOID)
	{
		PG_TRY();
		{
			desc = get_expr_result_tupdesc(value, true);
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(oldcontext);
			FlushErrorState();
			desc = NULL;
		}
		PG_END_TRY();
		return desc ? CreateTupleDescCopy(desc) : NULL;
	}
	if (type_is_rowtype(typid))
		return lookup_rowtype_tupdesc_copy(typid, exprTypmod(value));
	return NULL;
}

/* The row type of a record or row variable, if known now, or NULL */
static TupleDesc
variable_row_desc(CheckState *cs, int dno)
{
	PlnDatum   *datum = cs->estate->datums[dno];

	if (datum->dtype == PLN_DTYPE_REC)
		return record_desc(cs, (PlnRec *) datum);
	if (datum->dtype == PLN_DTYPE_ROW)
	{
		PlnRow	   *row = (PlnRow *) datum;
		TupleDesc	desc = CreateTemplateTupleDesc(row->nfields);
		int			i;

		for (i = 0; i < row->nfields; i++)
		{
			Oid			t = row->varnos[i] >= 0 ? var_type(cs, row->varnos[i]) : InvalidOid;

			if (!OidIsValid(t))
				return NULL;
			TupleDescInitEntry(desc, i + 1, row->fieldnames[i], t, -1, 0);
		}
		return desc;
	}
	return NULL;
}

/*
 * RETURN (retset false) or RETURN NEXT (true) of a composite value in a
 * function returning rows: its columns must be the result's, in number
 * and type, as the conversion at run time requires.
 */
static void
check_composite_result(CheckState *cs, PlnStmt *stmt, TupleDesc got,
					   bool retset, bool variable)
{
	TupleDesc	want;
	int			i,
				j;
	int			ngot,
				nwant;
	const char *msg = retset && variable ?
		"wrong record type supplied in RETURN NEXT" :
		"returned record type does not match expected record type";

	if (got == NULL || cs->func->fn_retset != retset || cs->func->fn_is_trigger ||
		!cs->func->fn_retistuple || (want = function_result_desc(cs)) == NULL)
		return;
	ngot = live_columns(got);
	nwant = live_columns(want);
	if (ngot != nwant)
	{
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH, pstrdup(msg),
			 psprintf("Number of returned columns (%d) does not match expected column count (%d).",
					  ngot, nwant), NULL);
		return;
	}
	for (i = 0, j = 0; i < got->natts && j < want->natts; i++, j++)
	{
		Form_pg_attribute g,
					w;

		while (i < got->natts && TupleDescAttr(got, i)->attisdropped)
			i++;
		while (j < want->natts && TupleDescAttr(want, j)->attisdropped)
			j++;
		if (i >= got->natts || j >= want->natts)
			break;
		g = TupleDescAttr(got, i);
		w = TupleDescAttr(want, j);
		if (g->atttypid != w->atttypid && g->atttypid != UNKNOWNOID)
		{
			warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH, pstrdup(msg),
				 psprintf("Returned type %s does not match expected type %s in column %d.",
						  format_type_be(g->atttypid), format_type_be(w->atttypid),
						  j + 1), NULL);
			return;
		}
	}
}

/* RETURN expr of a function returning one value */
static void
check_return_value(CheckState *cs, PlnStmtReturn *ret)
{
	if (ret->retvarno >= 0)
	{
		mark_dno(cs, ret->retvarno, cs->read);
		if (returns_scalar(cs, false))
			check_assign_cast_type(cs, (PlnStmt *) ret,
								   var_type(cs, ret->retvarno),
								   cs->func->fn_rettype);
		else
			check_composite_result(cs, (PlnStmt *) ret,
								   variable_row_desc(cs, ret->retvarno), false, true);
		return;
	}
	check_scalar_result(cs, (PlnStmt *) ret, ret->expr, false);
}

/* ----------
 * Control flow: statements that never run, falling off the end
 * ----------
 */

static PlnWalkResult
is_exit_stmt(PlnStmt *stmt, void *arg)
{
	return (stmt->cmd_type == PLN_STMT_EXIT && ((PlnStmtExit *) stmt)->is_exit) ?
		PLN_WALK_STOP : PLN_WALK_CONTINUE;
}

/* Does the list contain an EXIT (at any depth) that could end a loop? */
static bool
contains_exit(List *stmts)
{
	return pln_stmts_any(stmts, is_exit_stmt, NULL);
}

static bool stmts_never_end(List *stmts);

/* Does running the statement never continue with the next one? */
static bool
stmt_never_ends(PlnStmt *stmt)
{
	ListCell   *lc;

	switch (stmt->cmd_type)
	{
		case PLN_STMT_RETURN:
			return true;
		case PLN_STMT_RAISE:
			return ((PlnStmtRaise *) stmt)->elog_level >= ERROR;
		case PLN_STMT_EXIT:
			return ((PlnStmtExit *) stmt)->cond == NULL;
		case PLN_STMT_BLOCK:
			{
				PlnStmtBlock *block = (PlnStmtBlock *) stmt;

				if (!stmts_never_end(block->body))
					return false;
				if (block->exceptions)
				{
					foreach(lc, block->exceptions->actions)
						if (!stmts_never_end(((PlnExceptionAction *) lfirst(lc))->action))
							return false;
				}
				return true;
			}
		case PLN_STMT_IF:
			{
				PlnStmtIf  *ifs = (PlnStmtIf *) stmt;

				if (ifs->else_body == NIL || !stmts_never_end(ifs->then_body) ||
					!stmts_never_end(ifs->else_body))
					return false;
				foreach(lc, ifs->elsif_list)
					if (!stmts_never_end(((PlnIfElsif *) lfirst(lc))->stmts))
						return false;
				return true;
			}
		case PLN_STMT_CASE:
			{
				PlnStmtCase *cases = (PlnStmtCase *) stmt;

				/* without ELSE, no match raises case_not_found */
				if (cases->have_else && !stmts_never_end(cases->else_stmts))
					return false;
				foreach(lc, cases->case_when_list)
					if (!stmts_never_end(((PlnCaseWhen *) lfirst(lc))->stmts))
						return false;
				return true;
			}
		case PLN_STMT_LOOP:
			return !contains_exit(((PlnStmtLoop *) stmt)->body);
		default:
			return false;
	}
}

static bool
stmts_never_end(List *stmts)
{
	ListCell   *lc;

	foreach(lc, stmts)
		if (stmt_never_ends((PlnStmt *) lfirst(lc)))
			return true;
	return false;
}

/* ----------
 * The walk
 * ----------
 */

/*
 * A declaration that hides an outer variable or a parameter: an error
 * when plnimble.extra_errors has shadowed_variables (the compiler would
 * refuse the function; the check compiles it without that check so that
 * it is reported here, at its line), else a warning extra.
 */
static void
report_shadowing(CheckState *cs, PlnStmtBlock *block, PlnVariable *var,
				 PlnVariable *outer)
{
	if (pln_extra_errors & PLN_XCHECK_SHADOWVAR)
	{
		PlnCheckFinding *f;

		f = add_finding(cs, NULL, PLN_CHECK_ERROR, ERRCODE_DUPLICATE_ALIAS,
						psprintf("variable \"%s\" shadows a previously defined variable",
								 var->refname));
		f->lineno = var->lineno;
		f->detail = MemoryContextStrdup(cs->cxt,
										"shadowed_variables check of extra_errors is active.");
		return;
	}
	/* as plpgsql_check reports it: at the block that declares it */
	if (outer->lineno == 0)
		warn(cs, (PlnStmt *) block, PLN_CHECK_WARNING,
			 ERRCODE_SUCCESSFUL_COMPLETION,
			 psprintf("parameter \"%s\" is overlapped", var->refname),
			 pstrdup("Local variable overlap function parameter."), NULL);
	else
		warn(cs, (PlnStmt *) block, PLN_CHECK_WARNING_EXTRA,
			 ERRCODE_SUCCESSFUL_COMPLETION,
			 psprintf("variable \"%s\" shadows a previously defined variable",
					  var->refname),
			 NULL,
			 pstrdup("SET plnimble.extra_warnings TO 'shadowed_variables'"));
}

/* Declarations of a block: defaults, and names that hide outer ones */
static void
check_declarations(CheckState *cs, PlnStmtBlock *block)
{
	int			i;

	for (i = 0; i < block->n_initvars; i++)
	{
		PlnVariable *var = (PlnVariable *) cs->estate->datums[block->initvarnos[i]];
		ListCell   *lc;

		if (var->refname == NULL)
			continue;
		foreach(lc, cs->scope)
		{
			PlnVariable *outer = (PlnVariable *) lfirst(lc);

			if (outer->refname != NULL && strcmp(outer->refname, var->refname) == 0)
			{
				report_shadowing(cs, block, var, outer);
				break;
			}
		}
		if (var->default_val != NULL)
		{
			Node	   *first;

			(void) check_expr(cs, (PlnStmt *) block, var->default_val, &first);
			if (var->dtype == PLN_DTYPE_VAR)
				check_assign_cast(cs, (PlnStmt *) block, first,
								  ((PlnVar *) var)->datatype->typoid);
			else if (var->dtype == PLN_DTYPE_REC &&
					 ((PlnRec *) var)->rectypeid != RECORDOID)
			{
				/* a ROW(...) default with fewer or more fields */
				TupleDesc	got = composite_value_desc(first);
				TupleDesc	decl = got ? lookup_rowtype_tupdesc_noerror(((PlnRec *) var)->rectypeid, -1, true) : NULL;

				if (decl != NULL)
				{
					if (live_columns(got) != live_columns(decl))
						warn(cs, (PlnStmt *) block, PLN_CHECK_WARNING,
							 ERRCODE_SUCCESSFUL_COMPLETION,
							 pstrdup(live_columns(got) < live_columns(decl) ?
									 "too few attributes for composite variable" :
									 "too many attributes for composite variable"),
							 NULL, NULL);
					ReleaseTupleDesc(decl);
				}
			}
		}
		/* a bound cursor's query is checked where it is opened */
		if (var->dtype == PLN_DTYPE_VAR &&
			((PlnVar *) var)->cursor_explicit_expr != NULL)
		{
			PlnVar	   *cur = (PlnVar *) var;

			if (cur->cursor_explicit_argrow >= 0)
			{
				mark_dno(cs, cur->cursor_explicit_argrow, cs->read);
				mark_dno(cs, cur->cursor_explicit_argrow, cs->written);
			}
		}
	}
	for (i = 0; i < block->n_initvars; i++)
		cs->scope = lappend(cs->scope, cs->estate->datums[block->initvarnos[i]]);
}

/*
 * performance_warnings: s := s || ... in a loop, on a text variable that
 * grows with every iteration, when each one copies the whole string: not
 * when the language appends in place (s := s || text, concat(s, ...):
 * text_append.c), only for other shapes (s := s || 1, a varchar(n), s
 * read again in the tail).
 */
static void
check_growing_text(CheckState *cs, PlnStmtAssign *assign, Node *value)
{
	OpExpr	   *op;
	Node	   *left;

	if (cs->loop_depth == 0 || value == NULL || !IsA(value, OpExpr))
		return;
	op = (OpExpr *) value;
	if (list_length(op->args) != 2 ||
		(get_opcode(op->opno) != F_TEXTCAT &&
		 get_opcode(op->opno) != F_TEXTANYCAT &&
		 get_opcode(op->opno) != F_ANYTEXTCAT))
		return;
	left = strip_implicit(linitial(op->args));
	if (!IsA(left, Param) || ((Param *) left)->paramid - 1 != assign->varno)
		return;
	/* the language appends such an assignment in place (text_append.c) */
	if (cs->estate->datums[assign->varno]->dtype == PLN_DTYPE_VAR &&
		pln_text_append_would_apply(value, (PlnVar *) cs->estate->datums[assign->varno]))
		return;
	warn(cs, (PlnStmt *) assign, PLN_CHECK_PERFORMANCE,
		 ERRCODE_SUCCESSFUL_COMPLETION,
		 psprintf("text variable \"%s\" grows by concatenation in a loop",
				  ((PlnVariable *) cs->estate->datums[assign->varno])->refname),
		 pstrdup("Each iteration copies the whole string."),
		 pstrdup("string_agg() or array_to_string() of an array builds it once."));
}

/*
 * performance_warnings: a query in a FOR IN query loop whose variables are
 * all fields of that loop's row: one query with a join would do.
 */
static void
check_query_in_query_loop(CheckState *cs, PlnStmt *stmt, PlnExpr *expr)
{
	PlnStmtForS *loop;
	PlnVariable *loopvar;
	int			dno = -1;
	bool		any = false;

	if (cs->query_loops == NIL || expr == NULL || expr->paramnos == NULL)
		return;
	loop = (PlnStmtForS *) llast(cs->query_loops);
	loopvar = loop->var;
	while ((dno = bms_next_member(expr->paramnos, dno)) >= 0)
	{
		PlnDatum   *datum = cs->estate->datums[dno];

		if (datum->dtype == PLN_DTYPE_RECFIELD &&
			((PlnRecField *) datum)->recparentno == loopvar->dno)
			any = true;
		else if (loopvar->dtype == PLN_DTYPE_ROW)
		{
			PlnRow	   *row = (PlnRow *) loopvar;
			int			i;
			bool		member = false;

			for (i = 0; i < row->nfields; i++)
				if (row->varnos[i] == dno)
					member = true;
			if (!member)
				return;
			any = true;
		}
		else
			return;
	}
	if (any)
		warn(cs, stmt, PLN_CHECK_PERFORMANCE, ERRCODE_SUCCESSFUL_COMPLETION,
			 psprintf("the query runs once per row of the loop at line %d, with values only from that row",
					  loop->lineno),
			 NULL,
			 pstrdup("Joining it into the loop's query would run one query instead."));
}

/* A condition: its value is converted to boolean */
/*
 * An expression whose value is used (a condition, a loop bound, a RAISE
 * parameter): it must give one column, or the statement fails at run
 * time.
 */
static TupleDesc
check_value_expr(CheckState *cs, PlnStmt *stmt, PlnExpr *expr,
				 Node **firstexpr)
{
	TupleDesc	desc = check_expr(cs, stmt, expr, firstexpr);

	if (desc != NULL && desc->natts != 1)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_SYNTAX_ERROR,
			 psprintf(desc->natts == 0 ? "query \"%s\" returned no columns" :
					  "query \"%s\" returned %d columns",
					  expr->query, desc->natts),
			 NULL, NULL);
	return desc;
}

static void
check_condition(CheckState *cs, PlnStmt *stmt, PlnExpr *cond)
{
	Node	   *first;

	(void) check_value_expr(cs, stmt, cond, &first);
	check_assign_cast(cs, stmt, first, BOOLOID);
}

/* The query of a bound cursor variable, or NULL */
static PlnExpr *
cursor_query(CheckState *cs, int curvar)
{
	PlnDatum   *datum = cs->estate->datums[curvar];

	if (datum->dtype != PLN_DTYPE_VAR)
		return NULL;
	return ((PlnVar *) datum)->cursor_explicit_expr;
}

/* ----------
 * Pragmas (check_pragma.c parses them)
 * ----------
 */

/* A pragma that cannot be applied: a warning to the client, as plpgsql_check */
static void
pragma_not_processed(PlnStmt *stmt, const char *str, PlnPragma *pragma,
					 const char *why)
{
	if (pragma->kind == PLN_PRAGMA_NONE)
		ereport(WARNING,
				(errmsg("unsupported pragma: %s", str)));
	else
		ereport(WARNING,
				(errmsg("Pragma \"%s\" on line %d is not processed.",
						pragma->kindname, stmt->lineno),
				 why ? errdetail("%s", why) : 0));
}

/* The variable visible under the name of a type pragma ([label.]name) */
static PlnRec *
pragma_record(CheckState *cs, const char *qualified)
{
	List	   *names;
	char	   *copy = pstrdup(qualified);
	char	   *varname;
	int			i;

	if (!SplitIdentifierString(copy, '.', &names) || names == NIL)
		return NULL;
	varname = (char *) llast(names);
	for (i = list_length(cs->scope) - 1; i >= 0; i--)
	{
		PlnVariable *var = (PlnVariable *) list_nth(cs->scope, i);

		if (var->refname != NULL && strcmp(var->refname, varname) == 0)
			return var->dtype == PLN_DTYPE_REC ? (PlnRec *) var : NULL;
	}
	return NULL;
}

/* "a int, b numeric(10,2)" as a row type */
static TupleDesc
pragma_columns(const char *columns)
{
	List	   *defs = NIL;
	const char *p = columns;
	const char *start = p;
	int			depth = 0;
	TupleDesc	desc;
	int			i = 0;
	ListCell   *lc;

	for (;; p++)
	{
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (*p == '\0' || (*p == ',' && depth == 0))
		{
			defs = lappend(defs, pnstrdup(start, p - start));
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	desc = CreateTemplateTupleDesc(list_length(defs));
	foreach(lc, defs)
	{
		char	   *def = (char *) lfirst(lc);
		char	   *q;
		Oid			typid;
		int32		typmod;

		while (isspace((unsigned char) *def))
			def++;
		for (q = def; *q && !isspace((unsigned char) *q); q++)
			;
		if (*q == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("column \"%s\" has no type", def)));
		*q++ = '\0';
		parseTypeString(q, &typid, &typmod, false);
		TupleDescInitEntry(desc, ++i, downcase_identifier(def, strlen(def), false, false),
						   typid, typmod, 0);
	}
	return desc;
}

typedef struct PragmaArgs
{
	CheckState *cs;
	PlnPragma  *pragma;
	PlnRec	   *rec;			/* a type: pragma's record */
} PragmaArgs;

/* apply_pragma_guarded's work, in its subtransaction */
static void
pragma_work(void *arg)
{
	PragmaArgs *args = (PragmaArgs *) arg;
	PlnPragma  *pragma = args->pragma;

	if (pragma->kind == PLN_PRAGMA_TYPE)
	{
		TupleDesc	desc;

		if (pragma->columns != NULL)
			desc = pragma_columns(pragma->columns);
		else
		{
			Oid			typid;
			int32		typmod;

			parseTypeString(pragma->type, &typid, &typmod, false);
			desc = lookup_rowtype_tupdesc_copy(typid, typmod);
		}
		BlessTupleDesc(desc);
		pln_rec_set_empty(args->cs->estate, args->rec, desc);
		mark_dno(args->cs, args->rec->dno, args->cs->written);
	}
	else
	{
		/* one CREATE TABLE, made temporary; rolled back with the check */
		char	   *sql = psprintf("CREATE TEMP TABLE %s %s",
								   pragma->name, pragma->columns);
		List	   *raw = raw_parser(sql, RAW_PARSE_DEFAULT);
		int			rc;

		if (list_length(raw) != 1 ||
			!IsA(linitial_node(RawStmt, raw)->stmt, CreateStmt))
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("the table pragma is not one table definition")));
		rc = SPI_execute(sql, false, 0);
		if (rc != SPI_OK_UTILITY)
			elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
	}
}

/*
 * type: and table: pragmas, which may fail; in a subtransaction that is
 * kept (the table lives to the end of the check, rolled back with it)
 */
static void
apply_pragma_guarded(CheckState *cs, PlnStmt *stmt, const char *str,
					 PlnPragma *pragma)
{
	PragmaArgs	args = {cs, pragma, NULL};
	ErrorData  *edata;

	if (pragma->kind == PLN_PRAGMA_TYPE &&
		(args.rec = pragma_record(cs, pragma->name)) == NULL)
	{
		pragma_not_processed(stmt, str, pragma,
							 psprintf("There is no record variable \"%s\".", pragma->name));
		return;
	}

	edata = pln_try_in_subtransaction(pragma_work, &args, false);
	if (edata != NULL)
	{
		pragma_not_processed(stmt, str, pragma, edata->message);
		FreeErrorData(edata);
	}
}

/* PERFORM plnimble_check_pragma('...', ...) */
static void
apply_pragmas(CheckState *cs, PlnStmt *stmt, List *strings)
{
	ListCell   *lc;

	foreach(lc, strings)
	{
		const char *str = (const char *) lfirst(lc);
		PlnPragma	pragma;
		const char *why;

		if (*str == '\0')
			continue;
		if (!pln_pragma_parse(str, &pragma, &why))
		{
			pragma_not_processed(stmt, str, &pragma, why);
			continue;
		}
		if (pragma.kind == PLN_PRAGMA_SWITCH)
			cs->disabled[pragma.what] = !pragma.on;
		else if (!cs->disabled[PLN_PRAGMA_CHECK])
			apply_pragma_guarded(cs, stmt, str, &pragma);
	}
}

/* The row type of a record variable, if known now (a copy), or NULL */
static TupleDesc
record_desc(CheckState *cs, PlnRec *rec)
{
	if (rec->erh != NULL)
		return CreateTupleDescCopy(expanded_record_get_tupdesc(rec->erh));
	if (rec->rectypeid != RECORDOID)
		return lookup_rowtype_tupdesc_copy(rec->rectypeid, -1);
	return NULL;
}

/*
 * A field of a record as a target (INTO r.f, GET DIAGNOSTICS r.f = ...):
 * the record must have that field, if its shape is known.
 */
static void
check_recfield_target(CheckState *cs, PlnStmt *stmt, int dno)
{
	PlnRecField *field;
	PlnRec	   *rec;
	TupleDesc	desc;
	int			i;

	if (dno < 0 || dno >= cs->func->ndatums ||
		cs->estate->datums[dno]->dtype != PLN_DTYPE_RECFIELD)
		return;
	field = (PlnRecField *) cs->estate->datums[dno];
	rec = (PlnRec *) cs->estate->datums[field->recparentno];
	desc = record_desc(cs, rec);
	if (desc == NULL)
		return;
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), field->fieldname) == 0)
			return;
	}
	warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_UNDEFINED_COLUMN,
		 psprintf("record \"%s\" has no field \"%s\"", rec->refname, field->fieldname),
		 NULL, NULL);
}

/*
 * r := expression, r a record: r takes the row type of a composite value
 * (a function with OUT parameters, an array element, a ROW(...)), so that
 * later uses of its fields are checked.
 */
static void
assign_record_shape(CheckState *cs, PlnRec *rec, Node *value)
{
	TupleDesc	desc;

	if (rec->rectypeid != RECORDOID)
		return;
	desc = composite_value_desc(value);
	if (desc == NULL)
		return;
	BlessTupleDesc(desc);
	pln_rec_set_empty(cs->estate, rec, desc);
}

/*
 * FOREACH: each element (or slice) is assigned to the target, converted
 * as an assignment converts it; a record or row target takes the
 * element's fields one by one.
 */
static void
check_foreach_target(CheckState *cs, PlnStmt *stmt, PlnStmtForeachA *fe,
					 Node *arr)
{
	Oid			arrtype;
	Oid			elemtype;
	PlnDatum   *target = cs->estate->datums[fe->varno];

	if (arr == NULL)
		return;
	arrtype = getBaseType(exprType(arr));
	elemtype = get_element_type(arrtype);
	if (!OidIsValid(elemtype))
		return;					/* not an array: the run fails, analysed elsewhere */
	if (fe->slice > 0)
		elemtype = arrtype;
	if (target->dtype == PLN_DTYPE_VAR)
		check_assign_cast_type(cs, stmt, elemtype, var_type(cs, fe->varno));
	else if (type_is_rowtype(elemtype) && elemtype != RECORDOID)
	{
		TupleDesc	desc = lookup_rowtype_tupdesc_copy(elemtype, -1);

		if (target->dtype == PLN_DTYPE_REC &&
			((PlnRec *) target)->rectypeid == RECORDOID)
		{
			BlessTupleDesc(desc);
			pln_rec_set_empty(cs->estate, (PlnRec *) target, desc);
		}
		else if (target->dtype == PLN_DTYPE_REC)
		{
			TupleDesc	decl = lookup_rowtype_tupdesc_noerror(((PlnRec *) target)->rectypeid, -1, true);
			int			i,
						j;

			if (decl == NULL)
				return;
			if (live_columns(desc) != live_columns(decl))
				warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
					 pstrdup(live_columns(desc) < live_columns(decl) ?
							 "too few attributes for composite variable" :
							 "too many attributes for composite variable"),
					 NULL, NULL);
			for (i = 0, j = 0; i < desc->natts && j < decl->natts; i++, j++)
			{
				while (i < desc->natts && TupleDescAttr(desc, i)->attisdropped)
					i++;
				while (j < decl->natts && TupleDescAttr(decl, j)->attisdropped)
					j++;
				if (i >= desc->natts || j >= decl->natts)
					break;
				check_assign_cast_type(cs, stmt, TupleDescAttr(desc, i)->atttypid,
									   TupleDescAttr(decl, j)->atttypid);
			}
			ReleaseTupleDesc(decl);
		}
	}
}

/*
 * compatibility_warnings: a refcursor set from a string names the portal
 * itself, which plpgsql_check calls obsolete.
 */
static void
check_refcursor_literal(CheckState *cs, PlnStmt *stmt, Node *value)
{
	value = strip_implicit(value);
	if (value != NULL && IsA(value, Const) && !((Const *) value)->constisnull)
		warn(cs, stmt, PLN_CHECK_COMPATIBILITY, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("obsolete setting of refcursor or cursor variable"),
			 pstrdup("Internal name of cursor should not be specified by users."),
			 NULL);
}

/* Does the expression read a variable (or call anything volatile)? */
static bool
has_params(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param))
		return true;
	return expression_tree_walker(node, has_params, context);
}

/* The node under implicit conversions */
static Node *
strip_implicit(Node *node)
{
	for (;;)
	{
		if (node && IsA(node, RelabelType))
			node = (Node *) ((RelabelType *) node)->arg;
		else if (node && IsA(node, CoerceViaIO))
			node = (Node *) ((CoerceViaIO *) node)->arg;
		else if (node && IsA(node, FuncExpr) &&
				 ((FuncExpr *) node)->funcformat == COERCE_IMPLICIT_CAST &&
				 ((FuncExpr *) node)->args != NIL)
			node = linitial(((FuncExpr *) node)->args);
		else
			return node;
	}
}

/*
 * format() with a constant format string: is an argument that %s puts in
 * as it is a raw string variable?  (%I and %L quote theirs.)
 */
static bool
format_takes_raw_string(CheckState *cs, FuncExpr *fe)
{
	Node	   *fmt = strip_implicit(linitial(fe->args));
	const char *p;
	int			argno = 0;

	if (fe->funcvariadic || fmt == NULL || !IsA(fmt, Const) ||
		((Const *) fmt)->constisnull)
		return false;
	p = TextDatumGetCString(((Const *) fmt)->constvalue);
	for (; *p; p++)
	{
		int			n = 0;

		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		/* an explicit position n$ */
		while (isdigit((unsigned char) *p))
			n = n * 10 + (*p++ - '0');
		if (*p == '$')
		{
			argno = n - 1;
			p++;
		}
		/* flags and width */
		while (*p == '-' || *p == '*' || isdigit((unsigned char) *p))
			p++;
		if (*p == '\0')
			break;
		if (*p == 's' && argno + 1 < list_length(fe->args) &&
			concatenates_raw_param(cs, list_nth(fe->args, argno + 1)))
			return true;
		argno++;
	}
	return false;
}

/* Does an assigned value come quoted (or is it a constant)? */
static bool
is_sanitized_value(Node *node)
{
	node = strip_implicit(node);
	if (node == NULL)
		return false;
	if (IsA(node, Const))
		return true;
	if (IsA(node, FuncExpr))
	{
		switch (((FuncExpr *) node)->funcid)
		{
			case F_QUOTE_IDENT:
			case F_QUOTE_LITERAL_TEXT:
			case F_QUOTE_LITERAL_ANYELEMENT:
			case F_QUOTE_NULLABLE_TEXT:
			case F_QUOTE_NULLABLE_ANYELEMENT:
				return true;
			default:
				break;
		}
	}
	return false;
}

/*
 * Is a variable of a string type concatenated into the string as it is,
 * not through quote_ident, quote_literal or format's %I and %L, and not
 * last assigned such a value?  (Only
 * concatenation is looked into: what a function call does with its
 * arguments is its own business.)
 */
static bool
concatenates_raw_param(CheckState *cs, Node *node)
{
	List	   *args;
	Oid			funcid;
	ListCell   *lc;

	node = strip_implicit(node);
	if (node == NULL)
		return false;
	if (IsA(node, Param))
	{
		int			dno = ((Param *) node)->paramid - 1;
		Oid			typid = exprType(node);
		char		category;
		bool		preferred;

		/* a variable of a string type whose value came unquoted */
		if (dno < 0 || dno >= cs->func->ndatums || cs->sanitized[dno])
			return false;
		get_type_category_preferred(getBaseType(typid), &category, &preferred);
		return category == TYPCATEGORY_STRING;
	}
	if (IsA(node, OpExpr))
	{
		funcid = ((OpExpr *) node)->opfuncid;
		if (!OidIsValid(funcid))
			funcid = get_opcode(((OpExpr *) node)->opno);
		args = ((OpExpr *) node)->args;
	}
	else if (IsA(node, FuncExpr))
	{
		funcid = ((FuncExpr *) node)->funcid;
		args = ((FuncExpr *) node)->args;
	}
	else
		return false;
	if (funcid == F_FORMAT_TEXT_ANY)
		return format_takes_raw_string(cs, (FuncExpr *) node);
	if (funcid != F_TEXTCAT && funcid != F_TEXTANYCAT &&
		funcid != F_ANYTEXTCAT && funcid != F_CONCAT && funcid != F_CONCAT_WS)
		return false;
	foreach(lc, args)
		if (concatenates_raw_param(cs, (Node *) lfirst(lc)))
			return true;
	return false;
}

/*
 * EXECUTE's string: a constant, or built from an unquoted text parameter.
 * Returns its analysed expression, or NULL.
 */
static Node *
check_dynamic_string(CheckState *cs, PlnStmt *stmt, PlnExpr *query)
{
	Node	   *first;

	(void) check_expr(cs, stmt, query, &first);
	if (first == NULL)
		return NULL;
	if (!has_params(first, NULL))
		warn(cs, stmt, PLN_CHECK_PERFORMANCE, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("the EXECUTE string is a constant"),
			 NULL,
			 pstrdup("Static SQL would be checked, and its plan cached."));
	else if (concatenates_raw_param(cs, first))
		warn(cs, stmt, PLN_CHECK_SECURITY, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("text type variable is not sanitized"),
			 pstrdup("The EXECUTE expression is SQL injection vulnerable."),
			 pstrdup("Use quote_ident, quote_literal or format function to secure variable."));
	return first;
}

/* The text of a constant string expression, or NULL */
static char *
const_string(Node *node)
{
	Const	   *c;

	node = strip_implicit(node);
	if (node == NULL || !IsA(node, Const) || ((Const *) node)->constisnull)
		return NULL;
	c = (Const *) node;
	if (c->consttype == UNKNOWNOID)
		return pstrdup(DatumGetCString(c->constvalue));
	if (c->consttype == TEXTOID || c->consttype == VARCHAROID ||
		c->consttype == BPCHAROID)
		return TextDatumGetCString(c->constvalue);
	return NULL;
}

/*
 * The SQL an EXECUTE string stands for when it is known now: a constant,
 * or format() of a constant with %I (as a quoted identifier "%I"), %L (as
 * NULL, *literal set) and %s of constants.  NULL otherwise.
 */
static char *
known_dynamic_sql(Node *node, bool *literal)
{
	FuncExpr   *fe;
	char	   *fmt;
	StringInfoData sql;
	int			argno = 0;
	const char *p;

	*literal = false;
	node = strip_implicit(node);
	if (node == NULL)
		return NULL;
	if (IsA(node, Const))
		return const_string(node);
	if (!IsA(node, FuncExpr))
		return NULL;
	fe = (FuncExpr *) node;
	if ((fe->funcid != F_FORMAT_TEXT_ANY && fe->funcid != F_FORMAT_TEXT) ||
		fe->funcvariadic || (fmt = const_string(linitial(fe->args))) == NULL)
		return NULL;
	initStringInfo(&sql);
	for (p = fmt; *p; p++)
	{
		int			n = 0;
		const char *save;

		if (*p != '%')
		{
			appendStringInfoChar(&sql, *p);
			continue;
		}
		p++;
		if (*p == '%')
		{
			appendStringInfoChar(&sql, '%');
			continue;
		}
		save = p;
		while (isdigit((unsigned char) *p))
			n = n * 10 + (*p++ - '0');
		if (*p == '$')
		{
			argno = n - 1;
			p++;
		}
		else
			p = save;
		while (*p == '-' || isdigit((unsigned char) *p))
			p++;
		if (*p == 'I')
			appendStringInfoString(&sql, "\"%I\"");
		else if (*p == 'L')
		{
			appendStringInfoString(&sql, "NULL");
			*literal = true;
		}
		else if (*p == 's' && argno + 1 < list_length(fe->args) &&
				 const_string(list_nth(fe->args, argno + 1)) != NULL)
			appendStringInfoString(&sql, const_string(list_nth(fe->args, argno + 1)));
		else
			return NULL;
		argno++;
	}
	return sql.data;
}

/* Does the SQL refer to a parameter ($1, ...)? */
static bool
mentions_params(const char *sql)
{
	for (; *sql; sql++)
		if (*sql == '$' && isdigit((unsigned char) sql[1]))
			return true;
	return false;
}

/*
 * EXECUTE (and FOR ... IN EXECUTE, RETURN QUERY EXECUTE, OPEN ... FOR
 * EXECUTE): the string's expression and the USING values; when the string
 * is known now (known_dynamic_sql), it is analysed as its run would
 * analyse it, with the USING values' types.  Returns the shape of its
 * result (NULL if unknown or none); *known tells whether it was known.
 */
typedef struct DynamicQueryArgs
{
	CheckState *cs;
	PlnStmt    *stmt;
	const char *sql;
	int			nparams;
	Oid		   *argtypes;
	TupleDesc	result;			/* out: the last result shape, or NULL */
	bool		returns;		/* out: does it return rows? */
} DynamicQueryArgs;

/* check_dynamic_query's analysis, in its subtransaction */
static void
dynamic_query_work(void *arg)
{
	DynamicQueryArgs *args = (DynamicQueryArgs *) arg;
	MemoryContext oldcontext = CurrentMemoryContext;
	SPIPlanPtr	plan = SPI_prepare(args->sql, args->nparams, args->argtypes);
	ListCell   *lc;

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s",
			 args->sql, SPI_result_code_string(SPI_result));
	foreach(lc, SPI_plan_get_plan_sources(plan))
	{
		CachedPlanSource *ps = (CachedPlanSource *) lfirst(lc);

		if (ps->resultDesc != NULL)
		{
			MemoryContextSwitchTo(oldcontext);
			args->result = CreateTupleDescCopy(ps->resultDesc);
			args->returns = true;
		}
		check_analysed(args->cs, args->stmt, ps);
	}
	SPI_freeplan(plan);
}

static TupleDesc
check_dynamic_query(CheckState *cs, PlnStmt *stmt, PlnExpr *query,
					List *params, bool into, bool *known)
{
	Node	   *first = check_dynamic_string(cs, stmt, query);
	int			nparams = list_length(params);
	Oid		   *argtypes = palloc0(sizeof(Oid) * Max(nparams, 1));
	DynamicQueryArgs args;
	ErrorData  *edata;
	char	   *sql;
	bool		literal;
	bool		from_format;
	ListCell   *lc;

	*known = false;
	foreach(lc, params)
	{
		Node	   *pfirst;
		TupleDesc	pdesc = check_expr(cs, stmt, (PlnExpr *) lfirst(lc), &pfirst);

		if (pfirst != NULL)
			argtypes[foreach_current_index(lc)] = exprType(pfirst);
		else if (pdesc != NULL && pdesc->natts == 1)
			argtypes[foreach_current_index(lc)] = TupleDescAttr(pdesc, 0)->atttypid;
		else
			return NULL;		/* cannot tell */
	}
	if (first == NULL || cs->stop || (sql = known_dynamic_sql(first, &literal)) == NULL)
	{
		needs_at_least(cs, PROVOLATILE_VOLATILE);	/* it could do anything */
		return NULL;
	}
	from_format = !IsA(strip_implicit(first), Const);
	*known = true;

	if (nparams > 0 && !mentions_params(sql))
		warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("values passed to EXECUTE statement by USING clause was not used"),
			 NULL, NULL);

	memset(&args, 0, sizeof(args));
	args.cs = cs;
	args.stmt = stmt;
	args.sql = sql;
	args.nparams = nparams;
	args.argtypes = argtypes;
	edata = pln_try_in_subtransaction(dynamic_query_work, &args, false);
	if (edata == NULL)
	{
		if (into && !args.returns)
			warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_INTERNAL_ERROR,
				 pstrdup("expression does not return data"), NULL, NULL);
		return args.result;
	}

	/*
	 * From format(), the placeholders stand in for what is known at run
	 * time only: only a syntax error is the string's own, and not even
	 * that where a %L literal could hold anything.
	 */
	if (!from_format ||
		(edata->sqlerrcode == ERRCODE_SYNTAX_ERROR && !literal))
	{
		if (edata->internalquery == NULL)
		{
			edata->internalquery = sql;
			edata->internalpos = edata->cursorpos;
		}
		add_error_finding(cs, stmt, edata);
	}
	FreeErrorData(edata);
	return NULL;
}

/*
 * A record filled by dynamic SQL that is not known now: its fields cannot
 * be checked (a warning, as plpgsql_check gives).
 */
static void
warn_unknown_dynamic_record(CheckState *cs, PlnStmt *stmt, PlnVariable *target)
{
	if (target == NULL || target->dtype != PLN_DTYPE_REC ||
		((PlnRec *) target)->rectypeid != RECORDOID)
		return;
	warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
		 pstrdup("cannot determinate a result of dynamic SQL"),
		 pstrdup("There is a risk of related false alarms."),
		 pstrdup("Don't use dynamic SQL and record type together, when you would check function."));
}

/* count_impure's walk */
typedef struct CountImpure
{
	CheckState *cs;
	int			n;
	PlnStmt    *last;
} CountImpure;

static PlnWalkResult
count_impure_stmt(PlnStmt *stmt, int depth, void *arg)
{
	CountImpure *ci = (CountImpure *) arg;

	if (ci->cs->why[stmt->stmtid] != NULL)
	{
		ci->n++;
		ci->last = stmt;
	}
	return PLN_WALK_CONTINUE;
}

/*
 * The statements of a list (at any depth) that need a savepoint; *last is
 * set to the last of them in text order, if any
 */
static int
count_impure(CheckState *cs, List *stmts, PlnStmt **last)
{
	static const PlnStmtWalker walker = {.stmt = count_impure_stmt};
	CountImpure ci = {cs, 0, NULL};

	(void) pln_walk_stmts(stmts, &walker, &ci);
	if (ci.last != NULL)
		*last = ci.last;
	return ci.n;
}

/*
 * performance_warnings: a block that only catches unique_violation of its
 * one impure statement, an INSERT: ON CONFLICT needs no subtransaction.
 */
static void
check_upsert_block(CheckState *cs, PlnStmtBlock *block)
{
	PlnStmt    *only = NULL;
	const char *query;

	if (!pln_handlers_catch_only_unique_violation(block))
		return;
	if (count_impure(cs, block->body, &only) != 1 ||
		only->cmd_type != PLN_STMT_EXECSQL)
		return;
	query = ((PlnStmtExecSql *) only)->sqlstmt->query;
	while (*query == ' ' || *query == '\t' || *query == '\n' || *query == '(')
		query++;
	if (pg_strncasecmp(query, "insert", 6) != 0)
		return;
	/* the write path runs it without one already */
	if (pln_write_path_block_qualifies(cs->estate, block,
									   pln_savepoint_start(cs->estate, cs->why,
														   block)))
		return;
	warn(cs, (PlnStmt *) block, PLN_CHECK_PERFORMANCE,
		 ERRCODE_SUCCESSFUL_COMPLETION,
		 psprintf("the exception block only catches unique_violation of the INSERT at line %d",
				  only->lineno),
		 NULL,
		 pstrdup("INSERT ... ON CONFLICT does the same without a subtransaction."));
}

/* performance_warnings: a handler block that starts its savepoint at once */
static void
check_savepoint_start(CheckState *cs, PlnStmtBlock *block)
{
	PlnStmt    *first;

	if (cs->why == NULL || block->exceptions == NULL || block->body == NIL)
		return;
	check_upsert_block(cs, block);
	first = pln_savepoint_start(cs->estate, cs->why, block);
	if (first == NULL || first != (PlnStmt *) linitial(block->body))
		return;
	/* an INSERT alone in its block that the write path runs needs none */
	if (list_length(block->body) == 1 &&
		pln_write_path_block_qualifies(cs->estate, block, first))
		return;
	warn(cs, (PlnStmt *) block, PLN_CHECK_PERFORMANCE,
		 ERRCODE_SUCCESSFUL_COMPLETION,
		 psprintf("the subtransaction of this exception block starts at its first statement (line %d, %s)",
				  first->lineno, pln_stmt_typename(first)),
		 psprintf("%s", cs->why[first->stmtid]),
		 pstrdup("Nothing in the block runs before its savepoint: it costs what a PL/pgSQL exception block costs."));
}

/* ----------
 * The checks of a statement's own SQL and targets, before its bodies: one
 * function per statement node, check_<node>, found through the table
 * check_stmt_own below
 * ----------
 */

static void
check_PlnStmtBlock(CheckState *cs, PlnStmt *stmt)
{
	check_declarations(cs, (PlnStmtBlock *) stmt);
	check_savepoint_start(cs, (PlnStmtBlock *) stmt);
}

static void
check_PlnStmtAssign(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtAssign *assign = (PlnStmtAssign *) stmt;
	Node	   *first;

	(void) check_expr(cs, stmt, assign->expr, &first);
	(void) mark_reads((Node *) cs->last_query, cs);
	check_growing_text(cs, assign, first);
	if (first != NULL && IsA(first, SubscriptingRef) &&
		((SubscriptingRef *) first)->refassgnexpr != NULL)
	{
		/* a[i] := x: x converts to the element type */
		SubscriptingRef *sr = (SubscriptingRef *) first;

		check_assign_cast(cs, stmt, (Node *) sr->refassgnexpr,
						  sr->refelemtype);
	}
	else
		check_assign_cast(cs, stmt, first, var_type(cs, assign->varno));
	if (var_type(cs, assign->varno) == REFCURSOROID)
		check_refcursor_literal(cs, stmt, first);
	if (cs->estate->datums[assign->varno]->dtype == PLN_DTYPE_REC)
		assign_record_shape(cs, (PlnRec *) cs->estate->datums[assign->varno], first);
	mark_dno(cs, assign->varno, cs->written);
	cs->sanitized[assign->varno] = is_sanitized_value(first);
}

static void
check_PlnStmtIf(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtIf  *ifs = (PlnStmtIf *) stmt;
	ListCell   *lc;

	check_condition(cs, stmt, ifs->cond);
	foreach(lc, ifs->elsif_list)
		check_condition(cs, stmt, ((PlnIfElsif *) lfirst(lc))->cond);
}

static void
check_PlnStmtCase(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtCase *cases = (PlnStmtCase *) stmt;
	TupleDesc	desc;
	ListCell   *lc;

	desc = check_expr(cs, stmt, cases->t_expr, NULL);
	if (desc != NULL && desc->natts == 1)
		(void) pln_case_search_var(cs->estate, cases,
								   TupleDescAttr(desc, 0)->atttypid,
								   TupleDescAttr(desc, 0)->atttypmod);
	if (cases->t_expr == NULL || desc != NULL)
	{
		foreach(lc, cases->case_when_list)
			(void) check_expr(cs, stmt, ((PlnCaseWhen *) lfirst(lc))->expr, NULL);
	}
}

static void
check_PlnStmtLoop(CheckState *cs, PlnStmt *stmt)
{
	/* nothing of its own: its body is walked */
}

static void
check_PlnStmtWhile(CheckState *cs, PlnStmt *stmt)
{
	check_condition(cs, stmt, ((PlnStmtWhile *) stmt)->cond);
}

static void
check_PlnStmtForI(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtForI *fori = (PlnStmtForI *) stmt;

	(void) check_value_expr(cs, stmt, fori->lower, NULL);
	(void) check_value_expr(cs, stmt, fori->upper, NULL);
	(void) check_value_expr(cs, stmt, fori->step, NULL);
	mark_dno(cs, fori->var->dno, cs->written);
}

static void
check_PlnStmtForS(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtForS *fors = (PlnStmtForS *) stmt;
	TupleDesc	desc = check_expr(cs, stmt, fors->query, NULL);

	check_target(cs, stmt, fors->var, desc);
}

static void
check_PlnStmtForC(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtForC *forc = (PlnStmtForC *) stmt;
	TupleDesc	desc;

	mark_dno(cs, forc->curvar, cs->read);
	(void) check_expr(cs, stmt, forc->argquery, NULL);
	desc = check_expr(cs, stmt, cursor_query(cs, forc->curvar), NULL);
	check_target(cs, stmt, forc->var, desc);
}

static void
check_PlnStmtExit(CheckState *cs, PlnStmt *stmt)
{
	check_condition(cs, stmt, ((PlnStmtExit *) stmt)->cond);
}

static void
check_PlnStmtReturn(CheckState *cs, PlnStmt *stmt)
{
	check_return_value(cs, (PlnStmtReturn *) stmt);
}

static void
check_PlnStmtRaise(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtRaise *raise = (PlnStmtRaise *) stmt;
	ListCell   *lc;

	foreach(lc, raise->params)
		(void) check_value_expr(cs, stmt, (PlnExpr *) lfirst(lc), NULL);
	foreach(lc, raise->options)
		(void) check_value_expr(cs, stmt, ((PlnRaiseOption *) lfirst(lc))->expr, NULL);
}

static void
check_PlnStmtAssert(CheckState *cs, PlnStmt *stmt)
{
	check_condition(cs, stmt, ((PlnStmtAssert *) stmt)->cond);
	(void) check_expr(cs, stmt, ((PlnStmtAssert *) stmt)->message, NULL);
}

static void
check_PlnStmtExecSql(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtExecSql *sql = (PlnStmtExecSql *) stmt;
	TupleDesc	desc;

	desc = check_expr(cs, stmt, sql->sqlstmt, NULL);
	check_query_in_query_loop(cs, stmt, sql->sqlstmt);
	if (desc != NULL && !sql->into && !sql->is_call)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_SYNTAX_ERROR,
			 pstrdup("query has no destination for result data"),
			 NULL,
			 pstrdup("If you want to discard the results of a SELECT, use PERFORM instead."));
	if (sql->into)
		check_target(cs, stmt, sql->target, desc);
}

static void
check_PlnStmtPerform(CheckState *cs, PlnStmt *stmt)
{
	PlnExpr    *expr = ((PlnStmtPerform *) stmt)->expr;
	List	   *pragmas = pln_pragma_strings(expr ? expr->query : NULL);

	if (pragmas != NIL)
		apply_pragmas(cs, stmt, pragmas);
	else
		(void) check_expr(cs, stmt, expr, NULL);
}

static void
check_PlnStmtGetDiag(CheckState *cs, PlnStmt *stmt)
{
	ListCell   *lc;

	if (((PlnStmtGetDiag *) stmt)->is_stacked && cs->handler_depth == 0)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_STACKED_DIAGNOSTICS_ACCESSED_WITHOUT_ACTIVE_HANDLER,
			 pstrdup("GET STACKED DIAGNOSTICS cannot be used outside an exception handler"),
			 NULL, NULL);
	foreach(lc, ((PlnStmtGetDiag *) stmt)->diag_items)
	{
		int			target = ((PlnDiagItem *) lfirst(lc))->target;

		check_recfield_target(cs, stmt, target);
		mark_dno(cs, target, cs->written);
	}
}

/*
 * A dynamic query whose rows go to target (none if NULL): analysed, and
 * the target checked against its shape, or warned about if the query is
 * not known now
 */
static void
check_dynamic_into(CheckState *cs, PlnStmt *stmt, PlnExpr *query,
				   List *params, bool into, PlnVariable *target)
{
	bool		known;
	TupleDesc	desc = check_dynamic_query(cs, stmt, query, params, into,
										   &known);

	if (target == NULL)
		return;
	check_target(cs, stmt, target, desc);
	if (!known)
		warn_unknown_dynamic_record(cs, stmt, target);
}

static void
check_PlnStmtDynExecute(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtDynExecute *dyn = (PlnStmtDynExecute *) stmt;

	check_dynamic_into(cs, stmt, dyn->query, dyn->params, dyn->into,
					   dyn->into ? dyn->target : NULL);
}

static void
check_PlnStmtDynForS(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtDynForS *dyn = (PlnStmtDynForS *) stmt;

	check_dynamic_into(cs, stmt, dyn->query, dyn->params, false, dyn->var);
}

static void
check_PlnStmtOpen(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtOpen *open = (PlnStmtOpen *) stmt;
	PlnVariable *curvar = (PlnVariable *) cs->estate->datums[open->curvar];

	/* OPEN sets the cursor variable; FETCH, CLOSE, RETURN read it */
	mark_dno(cs, open->curvar, cs->written);
	/* an unbound cursor gets the portal name: it is assigned */
	if (cursor_query(cs, open->curvar) == NULL && curvar->isconst)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_ERROR_IN_ASSIGNMENT,
			 psprintf("variable \"%s\" is declared CONSTANT", curvar->refname),
			 NULL, NULL);
	(void) check_expr(cs, stmt, open->argquery, NULL);
	cs->opened[open->curvar] = check_expr(cs, stmt, open->query, NULL);
	if (open->query == NULL && open->dynquery == NULL)
		(void) check_expr(cs, stmt, cursor_query(cs, open->curvar), NULL);
	if (open->dynquery != NULL)
	{
		bool		known;

		(void) check_dynamic_query(cs, stmt, open->dynquery,
								   open->params, false, &known);
	}
}

static void
check_PlnStmtFetch(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtFetch *fetch = (PlnStmtFetch *) stmt;
	TupleDesc	desc = NULL;

	mark_dno(cs, fetch->curvar, cs->read);
	(void) check_expr(cs, stmt, fetch->expr, NULL);
	/* the target takes the shape of a bound cursor's query */
	if (fetch->target != NULL && cursor_query(cs, fetch->curvar) != NULL)
		desc = check_expr(cs, stmt, cursor_query(cs, fetch->curvar), NULL);
	else if (fetch->target != NULL)
		desc = cs->opened[fetch->curvar];
	check_target(cs, stmt, fetch->target, desc);
}

static void
check_PlnStmtClose(CheckState *cs, PlnStmt *stmt)
{
	mark_dno(cs, ((PlnStmtClose *) stmt)->curvar, cs->read);
}

static void
check_PlnStmtReturnNext(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtReturnNext *next = (PlnStmtReturnNext *) stmt;

	if (next->retvarno >= 0)
	{
		mark_dno(cs, next->retvarno, cs->read);
		if (returns_scalar(cs, true))
			check_assign_cast_type(cs, stmt,
								   var_type(cs, next->retvarno),
								   cs->func->fn_rettype);
		else
			check_composite_result(cs, stmt,
								   variable_row_desc(cs, next->retvarno), true, true);
	}
	check_scalar_result(cs, stmt, next->expr, true);
}

static void
check_PlnStmtReturnQuery(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtReturnQuery *rq = (PlnStmtReturnQuery *) stmt;
	TupleDesc	desc;

	cs->returns_query = true;
	desc = check_expr(cs, stmt, rq->query, NULL);
	if (rq->query != NULL)
		check_result_shape(cs, stmt, desc);
	if (rq->dynquery != NULL)
	{
		bool		known;

		desc = check_dynamic_query(cs, stmt, rq->dynquery,
								   rq->params, false, &known);
		check_result_shape(cs, stmt, desc);
	}
}

static void
check_PlnStmtForeachA(CheckState *cs, PlnStmt *stmt)
{
	PlnStmtForeachA *fe = (PlnStmtForeachA *) stmt;
	Node	   *arr;

	(void) check_value_expr(cs, stmt, fe->expr, &arr);
	check_foreach_target(cs, stmt, fe, arr);
	mark_dno(cs, fe->varno, cs->written);
}

/* COMMIT and ROLLBACK */
static void
check_PlnStmtCommit(CheckState *cs, PlnStmt *stmt)
{
	needs_at_least(cs, PROVOLATILE_VOLATILE);
	/* as the statement's run would fail */
	if (cs->func->fn_prokind != PROKIND_PROCEDURE && cs->func->fn_oid != InvalidOid)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_INVALID_TRANSACTION_TERMINATION,
			 pstrdup("invalid transaction termination"), NULL, NULL);
	else if (cs->subxact_depth > 0)
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_INVALID_TRANSACTION_TERMINATION,
			 pstrdup(stmt->cmd_type == PLN_STMT_COMMIT ?
					 "cannot commit while a subtransaction is active" :
					 "cannot roll back while a subtransaction is active"),
			 NULL, NULL);
}

/*
 * By statement kind, its check_<node>: generated from pln_stmtkinds.h, so
 * that a new kind without its function does not compile
 */
typedef void (*CheckStmtOwn) (CheckState *cs, PlnStmt *stmt);

static const CheckStmtOwn check_stmt_own[PLN_STMT_NKINDS] = {
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) \
	[kind] = check_##node,
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
};

/* ----------
 * The walk (pln_walk_stmts): each statement's own checks, and what holds
 * inside a nested body
 * ----------
 */

static PlnWalkResult
check_walk_stmt(PlnStmt *stmt, int depth, void *arg)
{
	CheckState *cs = (CheckState *) arg;

	CHECK_FOR_INTERRUPTS();
	if (cs->stop)
		return PLN_WALK_STOP;
	if (cs->unreachable)
	{
		warn(cs, stmt, PLN_CHECK_WARNING_EXTRA,
			 ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("unreachable code"), NULL, NULL);
		/* once: the next one is reported only if this one never ends */
		cs->unreachable = false;
	}
	check_stmt_own[stmt->cmd_type] (cs, stmt);
	return PLN_WALK_CONTINUE;
}

/*
 * What a nested body adds to the depths around its statements: step is 1
 * as the body begins, -1 as it ends
 */
static void
step_body_depths(CheckState *cs, PlnStmt *stmt, const PlnNestedBody *body,
				 int step)
{
	/*
	 * A block with handlers runs its body in a subtransaction and its
	 * handlers outside it, where the error is active.
	 */
	if (body->role == PLN_BODY_BLOCK &&
		((PlnStmtBlock *) stmt)->exceptions != NULL)
		cs->subxact_depth += step;
	else if (body->role == PLN_BODY_HANDLER)
		cs->handler_depth += step;
	else if (body->role == PLN_BODY_LOOP)
		cs->loop_depth += step;
}

static PlnWalkResult
check_walk_body(PlnStmt *stmt, const PlnNestedBody *body, int depth,
				void *arg)
{
	CheckState *cs = (CheckState *) arg;
	bool	   *saved = palloc(sizeof(cs->disabled));

	/* a pragma holds to the end of the list it is in */
	memcpy(saved, cs->disabled, sizeof(cs->disabled));
	cs->saved_disabled = lappend(cs->saved_disabled, saved);
	step_body_depths(cs, stmt, body, 1);
	if (stmt->cmd_type == PLN_STMT_FORS)
		cs->query_loops = lappend(cs->query_loops, stmt);
	return PLN_WALK_CONTINUE;
}

static void
check_walk_body_done(PlnStmt *stmt, const PlnNestedBody *body, void *arg)
{
	CheckState *cs = (CheckState *) arg;
	bool	   *saved = (bool *) llast(cs->saved_disabled);

	memcpy(cs->disabled, saved, sizeof(cs->disabled));
	pfree(saved);
	cs->saved_disabled = list_delete_last(cs->saved_disabled);
	step_body_depths(cs, stmt, body, -1);
	if (stmt->cmd_type == PLN_STMT_FORS)
		cs->query_loops = list_delete_last(cs->query_loops);
	/* the body's last statement has no next one to be unreachable */
	cs->unreachable = false;
}

static void
check_walk_stmt_done(PlnStmt *stmt, void *arg)
{
	CheckState *cs = (CheckState *) arg;

	/* a block's declarations (check_declarations) end with it */
	if (stmt->cmd_type == PLN_STMT_BLOCK)
		cs->scope = list_truncate(cs->scope,
								  list_length(cs->scope) -
								  ((PlnStmtBlock *) stmt)->n_initvars);
	cs->unreachable = stmt_never_ends(stmt);
}

static const PlnStmtWalker check_walker = {
	.stmt = check_walk_stmt,
	.body = check_walk_body,
	.body_done = check_walk_body_done,
	.stmt_done = check_walk_stmt_done,
};

/* ----------
 * After the walk: variables, the end of the function
 * ----------
 */

/* Is dno a parameter (an IN or an OUT one)? */
static bool
is_in_param(PlnFunction *func, int dno)
{
	int			i;

	for (i = 0; i < func->fn_nargs; i++)
		if (func->fn_argvarnos[i] == dno)
			return true;
	return false;
}

static bool
is_out_param(PlnFunction *func, int dno)
{
	PlnDatum   *out;

	if (func->out_param_varno < 0)
		return false;
	if (func->out_param_varno == dno)
		return true;
	out = func->datums[func->out_param_varno];
	if (out->dtype == PLN_DTYPE_ROW)
	{
		PlnRow	   *row = (PlnRow *) out;
		int			i;

		for (i = 0; i < row->nfields; i++)
			if (row->varnos[i] == dno)
				return true;
	}
	return false;
}

static PlnWalkResult
collect_declared_stmt(PlnStmt *stmt, int depth, void *arg)
{
	bool	   *declared = (bool *) arg;

	if (stmt->cmd_type == PLN_STMT_BLOCK)
	{
		PlnStmtBlock *block = (PlnStmtBlock *) stmt;
		int			i;

		for (i = 0; i < block->n_initvars; i++)
			declared[block->initvarnos[i]] = true;
	}
	return PLN_WALK_CONTINUE;
}

/* Collect the declared variables of every block */
static void
collect_declared(List *stmts, bool *declared)
{
	static const PlnStmtWalker walker = {.stmt = collect_declared_stmt};

	(void) pln_walk_stmts(stmts, &walker, declared);
}

static void
check_variables(CheckState *cs)
{
	PlnFunction *func = cs->func;
	bool	   *declared = palloc0(sizeof(bool) * func->ndatums);
	int			dno;

	collect_declared(list_make1(func->action), declared);

	for (dno = 0; dno < func->ndatums; dno++)
	{
		PlnVariable *var = (PlnVariable *) func->datums[dno];

		if (var->dtype == PLN_DTYPE_RECFIELD || var->dtype == PLN_DTYPE_ROW)
			continue;
		if (is_out_param(func, dno) && func->out_param_varno >= 0 &&
			func->datums[func->out_param_varno]->dtype == PLN_DTYPE_ROW &&
			(var->dtype == PLN_DTYPE_REC ||
			 (var->dtype == PLN_DTYPE_VAR &&
			  type_is_rowtype(((PlnVar *) var)->datatype->typoid))))
			warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
						 psprintf("composite OUT variable \"%s\" is not single argument",
								  var->refname));
		if (is_in_param(func, dno))
		{
			if (!cs->read[dno] && !cs->written[dno])
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("unused parameter \"%s\"", var->refname));
			else if (!cs->read[dno] && !is_out_param(func, dno))
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("parameter \"%s\" is overwritten and never read",
									  var->refname));
			/* an INOUT parameter is an OUT one too */
			if (is_out_param(func, dno) && !cs->written[dno])
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("unmodified OUT variable \"%s\"", var->refname));
		}
		else if (is_out_param(func, dno))
		{
			/* a set-returning function may return its rows by RETURN QUERY */
			if (!cs->written[dno] && !(func->fn_retset && cs->returns_query))
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("unmodified OUT variable \"%s\"", var->refname));
		}
		else if (declared[dno])
		{
			if (!cs->read[dno] && !cs->written[dno])
				warn_at_line(cs, var->lineno, PLN_CHECK_WARNING,
							 psprintf("unused variable \"%s\"", var->refname));
			else if (!cs->read[dno])
				warn_at_line(cs, var->lineno, PLN_CHECK_WARNING_EXTRA,
							 psprintf("never read variable \"%s\"", var->refname));
		}
	}
}

static PlnWalkResult
is_return_stmt(PlnStmt *stmt, void *arg)
{
	return stmt->cmd_type == PLN_STMT_RETURN ? PLN_WALK_STOP : PLN_WALK_CONTINUE;
}

/* Is there a RETURN anywhere in the list? */
static bool
contains_return(List *stmts)
{
	return pln_stmts_any(stmts, is_return_stmt, NULL);
}

/*
 * A function with a result that can reach its end without RETURN: an
 * error if it has no RETURN at all, else a warning (the paths that fall
 * off the end may be ones that never run, or end in an error).
 */
static void
check_missing_return(CheckState *cs)
{
	PlnFunction *func = cs->func;
	List	   *top = list_make1(func->action);

	if (func->fn_retset || func->fn_rettype == VOIDOID ||
		func->fn_prokind == PROKIND_PROCEDURE ||
		func->out_param_varno >= 0 || func->fn_is_event_trigger)
		return;
	if (stmt_never_ends((PlnStmt *) func->action))
		return;
	if (contains_return(top))
		warn(cs, NULL, PLN_CHECK_WARNING_EXTRA,
			 ERRCODE_S_R_E_FUNCTION_EXECUTED_NO_RETURN_STATEMENT,
			 pstrdup("control reached end of function without RETURN"),
			 NULL, NULL);
	else
		(void) add_finding(cs, NULL, PLN_CHECK_ERROR,
						   ERRCODE_S_R_E_FUNCTION_EXECUTED_NO_RETURN_STATEMENT,
						   "control reached end of function without RETURN");
}

/* Trigger functions: NEW and OLD get the row type of the table */
static void
set_trigger_rows(CheckState *cs)
{
	Relation	rel;
	TupleDesc	desc;

	if (!cs->func->fn_is_trigger || !OidIsValid(cs->opts->relid))
		return;
	/* the lock stays: the transition tables' descriptions open it again */
	rel = table_open(cs->opts->relid, AccessShareLock);
	desc = CreateTupleDescCopy(RelationGetDescr(rel));
	table_close(rel, NoLock);
	BlessTupleDesc(desc);
	if (cs->func->new_varno >= 0)
		pln_rec_set_empty(cs->estate,
						  (PlnRec *) cs->estate->datums[cs->func->new_varno], desc);
	if (cs->func->old_varno >= 0)
		pln_rec_set_empty(cs->estate,
						  (PlnRec *) cs->estate->datums[cs->func->old_varno], desc);
}

/* A transition table of the trigger's table, for queries to name */
static void
register_transition_table(Oid relid, const char *name)
{
	EphemeralNamedRelation enr = palloc0(sizeof(EphemeralNamedRelationData));
	int			rc;

	enr->md.name = pstrdup(name);
	enr->md.reliddesc = relid;
	enr->md.tupdesc = NULL;
	enr->md.enrtype = ENR_NAMED_TUPLESTORE;
	enr->md.enrtuples = 0;
	enr->reldata = NULL;
	if ((rc = SPI_register_relation(enr)) != SPI_OK_REL_REGISTER)
		elog(ERROR, "SPI_register_relation failed: %s",
			 SPI_result_code_string(rc));
}

/* Run the checks on a compiled function, with SPI connected */
static void
check_compiled(CheckState *cs, PlnFunction *func)
{
	PlnExecState estate;
	PlnExecState *save_cur_estate = func->cur_estate;

	func->use_count++;
	PG_TRY();
	{
		pln_init_analysis_state(&estate, func);
		cs->estate = &estate;
		cs->func = func;
		cs->read = palloc0(sizeof(bool) * func->ndatums);
		cs->written = palloc0(sizeof(bool) * func->ndatums);
		cs->sanitized = palloc0(sizeof(bool) * func->ndatums);
		cs->opened = palloc0(sizeof(TupleDesc) * func->ndatums);
		set_trigger_rows(cs);
		if (func->fn_is_trigger && OidIsValid(cs->opts->relid))
		{
			if (cs->opts->newtable)
				register_transition_table(cs->opts->relid, cs->opts->newtable);
			if (cs->opts->oldtable)
				register_transition_table(cs->opts->relid, cs->opts->oldtable);
		}

		/* parameters are the outermost names */
		{
			int			dno;

			for (dno = 0; dno < func->ndatums; dno++)
				if ((is_in_param(func, dno) || is_out_param(func, dno)) &&
					func->datums[dno]->dtype != PLN_DTYPE_ROW)
					cs->scope = lappend(cs->scope, func->datums[dno]);
		}

		if (cs->opts->performance_warnings)
			cs->why = pln_savepoint_reasons(&estate, func);

		(void) pln_walk_stmt((PlnStmt *) func->action, &check_walker, cs);
		if (!cs->stop)
		{
			check_missing_return(cs);
			check_volatility(cs);
			check_variables(cs);
		}
		pln_destroy_econtext(&estate);
	}
	PG_FINALLY();
	{
		func->cur_estate = save_cur_estate;
		func->use_count--;
	}
	PG_END_TRY();
}

/*
 * Compile a function for pln_check_function as the validator does; a
 * failure to compile is a finding, and NULL.  (A function of its own: a
 * PG_TRY nested in another's block shadows its variables.)
 */
static PlnFunction *
compile_for_check(CheckState *cs, Oid funcoid, MemoryContext oldcontext)
{
	PlnFunction *volatile func = NULL;
	int			save_extra_warnings = pln_extra_warnings;
	int			save_extra_errors = pln_extra_errors;

	PG_TRY();
	{
		/*
		 * Without the compiler's shadowed_variables check: its warning
		 * would go to the client and its error would stop the compile;
		 * the walk reports each shadowing as a finding at its line
		 * instead.
		 */
		pln_extra_warnings &= ~PLN_XCHECK_SHADOWVAR;
		pln_extra_errors &= ~PLN_XCHECK_SHADOWVAR;
		func = pln_compile_for_validation(funcoid, get_func_rettype(funcoid));
		pln_extra_warnings = save_extra_warnings;
		pln_extra_errors = save_extra_errors;
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		PlnCheckFinding *f;

		pln_extra_warnings = save_extra_warnings;
		pln_extra_errors = save_extra_errors;
		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		f = add_finding(cs, NULL, PLN_CHECK_ERROR, edata->sqlerrcode,
						edata->message);
		f->detail = edata->detail;
		f->hint = edata->hint;
		f->context = edata->context;
		f->position = edata->cursorpos;
		func = NULL;
	}
	PG_END_TRY();
	return func;
}

typedef struct CheckFunctionArgs
{
	CheckState *cs;
	Oid			funcoid;
	PlnFunction *compiled;
} CheckFunctionArgs;

/* pln_check_function's work, in its subtransaction */
static void
check_function_work(void *arg)
{
	CheckFunctionArgs *args = (CheckFunctionArgs *) arg;
	PlnFunction *func = args->compiled;

	if (func == NULL)
		func = compile_for_check(args->cs, args->funcoid,
								 CurrentMemoryContext);
	if (func != NULL)
		check_compiled(args->cs, func);
}

/*
 * Check a function (compiled: as called, or NULL to compile it as the
 * validator does); returns its findings (PlnCheckFinding), allocated in
 * the caller's memory context.  A failure to compile is a finding too.
 * Everything runs in a subtransaction that is rolled back; an error the
 * check does not catch as a finding is raised again after it.
 */
List *
pln_check_function(Oid funcoid, PlnCheckOptions *opts, PlnFunction *compiled)
{
	CheckState	cs;
	CheckFunctionArgs args;
	ErrorData  *edata;
	int			rc;

	memset(&cs, 0, sizeof(cs));
	if (opts->use_incomment_options && OidIsValid(funcoid))
	{
		/* the function's own comments may say more: on a copy */
		PlnCheckOptions *own = palloc(sizeof(PlnCheckOptions));

		*own = *opts;
		pln_check_incomment_options(funcoid, own);
		opts = own;
	}
	cs.opts = opts;
	cs.needs_volatility = PROVOLATILE_IMMUTABLE;
	cs.cxt = CurrentMemoryContext;

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));

	/*
	 * The work runs in the caller's context, not in SPI's procedure
	 * context that SPI_connect made current: the list of findings (and
	 * opts->dependencies) is appended to there and returned, and
	 * SPI_finish deletes that context.
	 */
	MemoryContextSwitchTo(cs.cxt);
	args.cs = &cs;
	args.funcoid = funcoid;
	args.compiled = compiled;
	edata = pln_try_in_subtransaction(check_function_work, &args, true);
	if (edata != NULL)
		ReThrowError(edata);

	if ((rc = SPI_finish()) != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));

	return cs.findings;
}

/*
 * plnimble.check_on_first_call: check a function when a session first
 * compiles it, and fail the call if an error is found (plpgsql_check's
 * passive mode).  Only errors are looked for.  A trigger function is
 * checked with the table and transition tables of the trigger that fires
 * it.
 */
void
pln_check_at_first_call(PlnFunction *func, FunctionCallInfo fcinfo)
{
	PlnCheckOptions opts;
	List	   *findings;
	ListCell   *lc;

	memset(&opts, 0, sizeof(opts));
	opts.fatal_errors = pln_check_fatal_errors;
	opts.use_incomment_options = true;
	opts.other_warnings = false;
	opts.extra_warnings = false;
	if (func->fn_is_event_trigger)
		return;
	if (func->fn_is_trigger)
	{
		/* NEW, OLD and the transition tables of the firing trigger */
		TriggerData *trigdata = (TriggerData *) fcinfo->context;

		if (trigdata == NULL || !IsA(trigdata, TriggerData))
			return;
		opts.relid = RelationGetRelid(trigdata->tg_relation);
		opts.newtable = trigdata->tg_trigger->tgnewtable;
		opts.oldtable = trigdata->tg_trigger->tgoldtable;
	}
	if (IsInParallelMode())
		return;					/* no subtransactions: checked elsewhere */

	/* the compiled function has the call's actual argument types */
	findings = pln_check_function(func->fn_oid, &opts, func);
	foreach(lc, findings)
	{
		PlnCheckFinding *f = (PlnCheckFinding *) lfirst(lc);

		if (f->level != PLN_CHECK_ERROR)
			continue;

		/*
		 * With plnimble.check_fatal_errors off each error is a warning and
		 * the call goes on, as plpgsql_check.fatal_errors = off does.  The
		 * context names the line as a run-time error's does; under
		 * identify_as_plpgsql, as plpgsql_check's passive mode words it.
		 */
		ereport(pln_check_fatal_errors ? ERROR : WARNING,
				(errcode(f->sqlerrcode),
				 errmsg("%s", f->message),
				 f->detail ? errdetail("%s", f->detail) : 0,
				 f->hint ? errhint("%s", f->hint) : 0,
				 f->query ? internalerrquery(f->query) : 0,
				 f->position > 0 && f->query ? internalerrposition(f->position) : 0,
				 errcontext("%s %s line %d%s%s",
							pln_identify_as_plpgsql ? "PL/pgSQL function" :
							PLN_OWN_TITLE " check of function",
							func->fn_signature, f->lineno,
							f->stmtname ? " at " : "",
							f->stmtname ? f->stmtname : "")));
	}
}
