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
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_coerce.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/queryenvironment.h"
#include "utils/regproc.h"
#include "utils/rel.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "plnimble.h"
#include "tools/pln_check.h"

PG_FUNCTION_INFO_V1(plnimble_check_function);
PG_FUNCTION_INFO_V1(plnimble_check_function_tb);

bool		pln_check_on_first_call = false;

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
	List	   *scope;			/* visible PlnVariables, innermost last */
	char	  **why;			/* savepoint reasons, or NULL */
	Query	   *last_query;		/* of the last check_expr with firstexpr */
	int			loop_depth;		/* loops around the current statement */
	List	   *query_loops;	/* enclosing FOR IN query loops */
} CheckState;

static void check_stmts(CheckState *cs, List *stmts);
static bool is_in_param(PlnFunction *func, int dno);
static void check_dynamic_string(CheckState *cs, PlnStmt *stmt, PlnExpr *query);
static Node *strip_implicit(Node *node);
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
	cs->findings = lappend(cs->findings, f);
	MemoryContextSwitchTo(oldcontext);
	if (level == PLN_CHECK_ERROR && cs->opts->fatal_errors)
		cs->stop = true;
	return f;
}

/* Is a finding of this level wanted? */
static bool
wanted(CheckState *cs, PlnCheckLevel level)
{
	switch (level)
	{
		case PLN_CHECK_ERROR:
			return true;
		case PLN_CHECK_WARNING:
			return cs->opts->other_warnings;
		case PLN_CHECK_WARNING_EXTRA:
			return cs->opts->extra_warnings;
		case PLN_CHECK_PERFORMANCE:
			return cs->opts->performance_warnings;
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
 * Parse and analyse an expression or SQL statement as its first execution
 * would, in a subtransaction of its own.  Returns the shape of its result
 * (a copy), or NULL if it has none or could not be analysed; then an
 * error was reported unless the cause is only that a record has no shape
 * yet (its structure is known at run time only).  If firstexpr is given,
 * it is set to the first result column's expression.
 */
static TupleDesc
check_expr(CheckState *cs, PlnStmt *stmt, PlnExpr *expr, Node **firstexpr)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	TupleDesc volatile result = NULL;
	Node	   *volatile first = NULL;

	if (firstexpr)
		*firstexpr = NULL;
	cs->last_query = NULL;
	if (expr == NULL || cs->stop)
		return NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
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
			if (ps->resultDesc != NULL)
				result = CreateTupleDescCopy(ps->resultDesc);
			if (firstexpr && list_length(ps->query_list) == 1)
			{
				Query	   *q = linitial_node(Query, ps->query_list);

				cs->last_query = copyObject(q);
				if (q->commandType == CMD_SELECT && q->targetList != NIL)
					first = copyObject((Node *) ((TargetEntry *) linitial(q->targetList))->expr);
			}
		}
		SPI_freeplan(plan);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
		result = NULL;
		first = NULL;
		if (edata->sqlerrcode != ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE ||
			!unknown_record_was_assigned(cs, expr))
			add_error_finding(cs, stmt, edata);
		FreeErrorData(edata);
	}
	PG_END_TRY();

	/* an assignment's target is among its parameters: see mark_reads */
	if (expr->target_param < 0)
		mark_read_expr(cs, expr);
	if (firstexpr)
		*firstexpr = first;
	return result;
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

	check_assign_cast_type(cs, stmt, exprType(value), dsttype);
}

/* The same, for a value of type srctype */
static void
check_assign_cast_type(CheckState *cs, PlnStmt *stmt, Oid srctype,
					   Oid dsttype)
{
	Oid			funcid;

	if (!OidIsValid(srctype) || !OidIsValid(dsttype))
		return;
	if (srctype == dsttype || srctype == UNKNOWNOID ||
		getBaseType(dsttype) == srctype)
		return;
	if (find_coercion_pathway(dsttype, srctype, COERCION_IMPLICIT,
							  &funcid) != COERCION_PATH_NONE)
		return;

	warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_DATATYPE_MISMATCH,
		 pstrdup("target type is different type than source type"),
		 psprintf("cast \"%s\" value to \"%s\" type",
				  format_type_be(srctype), format_type_be(dsttype)),
		 find_coercion_pathway(dsttype, srctype, COERCION_ASSIGNMENT,
							   &funcid) == COERCION_PATH_NONE ?
		 pstrdup("The input expression type does not have an assignment cast to the target type.") :
		 pstrdup("The conversion may round or fail at run time."));
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
				Oid			funcid;

				if (att->attisdropped)
					continue;
				dst = row->varnos[col] >= 0 ? var_type(cs, row->varnos[col]) : InvalidOid;
				col++;
				if (!OidIsValid(dst) || dst == att->atttypid ||
					att->atttypid == UNKNOWNOID ||
					find_coercion_pathway(dst, att->atttypid, COERCION_IMPLICIT,
										  &funcid) != COERCION_PATH_NONE)
					continue;
				warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_DATATYPE_MISMATCH,
					 pstrdup("target type is different type than source type"),
					 psprintf("cast \"%s\" value to \"%s\" type",
							  format_type_be(att->atttypid),
							  format_type_be(dst)),
					 pstrdup("The conversion may round or fail at run time."));
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
		else if (pln_extra_errors & PLN_XCHECK_STRICTMULTIASSIGNMENT ||
				 pln_extra_warnings & PLN_XCHECK_STRICTMULTIASSIGNMENT)
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
	if (desc == NULL && cs->func->fn_rettype != RECORDOID)
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
	if (desc == NULL || !returns_scalar(cs, retset))
		return;
	if (desc->natts != 1)
	{
		warn(cs, stmt, PLN_CHECK_ERROR, ERRCODE_DATATYPE_MISMATCH,
			 pstrdup("query returned more than one column"), NULL, NULL);
		return;
	}
	check_assign_cast(cs, stmt, first, cs->func->fn_rettype);
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
		return;
	}
	check_scalar_result(cs, (PlnStmt *) ret, ret->expr, false);
}

/* ----------
 * Control flow: statements that never run, falling off the end
 * ----------
 */

/* Does the list contain an EXIT (at any depth) that could end a loop? */
static bool
contains_exit(List *stmts)
{
	ListCell   *lc;

	check_stack_depth();
	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		ListCell   *b;

		if (stmt->cmd_type == PLN_STMT_EXIT && ((PlnStmtExit *) stmt)->is_exit)
			return true;
		foreach(b, pln_stmt_nested_bodies(stmt))
			if (contains_exit((List *) lfirst(b)))
				return true;
	}
	return false;
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
report_shadowing(CheckState *cs, PlnVariable *var, PlnVariable *outer)
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
	warn_at_line(cs, var->lineno, PLN_CHECK_WARNING_EXTRA,
				 psprintf(outer->lineno == 0 ?
						  "parameter \"%s\" is shadowed" :
						  "variable \"%s\" shadows a previously defined variable",
						  var->refname));
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
				report_shadowing(cs, var, outer);
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

/* Does the statement run its body repeatedly? */
static bool
is_loop(PlnStmt *stmt)
{
	switch (stmt->cmd_type)
	{
		case PLN_STMT_LOOP:
		case PLN_STMT_WHILE:
		case PLN_STMT_FORI:
		case PLN_STMT_FORS:
		case PLN_STMT_FORC:
		case PLN_STMT_DYNFORS:
		case PLN_STMT_FOREACH_A:
			return true;
		default:
			return false;
	}
}

/*
 * performance_warnings: s := s || ... in a loop, on a text variable that
 * grows with every iteration (each one copies the whole string).
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
static void
check_condition(CheckState *cs, PlnStmt *stmt, PlnExpr *cond)
{
	Node	   *first;

	(void) check_expr(cs, stmt, cond, &first);
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

static void
check_expr_list(CheckState *cs, PlnStmt *stmt, List *exprs)
{
	ListCell   *lc;

	foreach(lc, exprs)
		(void) check_expr(cs, stmt, (PlnExpr *) lfirst(lc), NULL);
}

/* The checks of a statement's own SQL and targets, before its bodies */
static void
check_stmt_own(CheckState *cs, PlnStmt *stmt)
{
	ListCell   *lc;
	Node	   *first;
	TupleDesc	desc;

	switch (stmt->cmd_type)
	{
		case PLN_STMT_BLOCK:
			check_declarations(cs, (PlnStmtBlock *) stmt);
			break;
		case PLN_STMT_ASSIGN:
			{
				PlnStmtAssign *assign = (PlnStmtAssign *) stmt;

				(void) check_expr(cs, stmt, assign->expr, &first);
				(void) mark_reads((Node *) cs->last_query, cs);
				check_growing_text(cs, assign, first);
				check_assign_cast(cs, stmt, first, var_type(cs, assign->varno));
				mark_dno(cs, assign->varno, cs->written);
				break;
			}
		case PLN_STMT_IF:
			{
				PlnStmtIf  *ifs = (PlnStmtIf *) stmt;

				check_condition(cs, stmt, ifs->cond);
				foreach(lc, ifs->elsif_list)
					check_condition(cs, stmt, ((PlnIfElsif *) lfirst(lc))->cond);
				break;
			}
		case PLN_STMT_CASE:
			{
				PlnStmtCase *cases = (PlnStmtCase *) stmt;

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
				break;
			}
		case PLN_STMT_LOOP:
			break;
		case PLN_STMT_WHILE:
			check_condition(cs, stmt, ((PlnStmtWhile *) stmt)->cond);
			break;
		case PLN_STMT_FORI:
			{
				PlnStmtForI *fori = (PlnStmtForI *) stmt;

				(void) check_expr(cs, stmt, fori->lower, NULL);
				(void) check_expr(cs, stmt, fori->upper, NULL);
				(void) check_expr(cs, stmt, fori->step, NULL);
				mark_dno(cs, fori->var->dno, cs->written);
				break;
			}
		case PLN_STMT_FORS:
			{
				PlnStmtForS *fors = (PlnStmtForS *) stmt;

				desc = check_expr(cs, stmt, fors->query, NULL);
				check_target(cs, stmt, fors->var, desc);
				break;
			}
		case PLN_STMT_FORC:
			{
				PlnStmtForC *forc = (PlnStmtForC *) stmt;

				mark_dno(cs, forc->curvar, cs->read);
				(void) check_expr(cs, stmt, forc->argquery, NULL);
				desc = check_expr(cs, stmt, cursor_query(cs, forc->curvar), NULL);
				check_target(cs, stmt, forc->var, desc);
				break;
			}
		case PLN_STMT_EXIT:
			check_condition(cs, stmt, ((PlnStmtExit *) stmt)->cond);
			break;
		case PLN_STMT_RETURN:
			check_return_value(cs, (PlnStmtReturn *) stmt);
			break;
		case PLN_STMT_RAISE:
			{
				PlnStmtRaise *raise = (PlnStmtRaise *) stmt;

				check_expr_list(cs, stmt, raise->params);
				foreach(lc, raise->options)
					(void) check_expr(cs, stmt, ((PlnRaiseOption *) lfirst(lc))->expr, NULL);
				break;
			}
		case PLN_STMT_ASSERT:
			check_condition(cs, stmt, ((PlnStmtAssert *) stmt)->cond);
			(void) check_expr(cs, stmt, ((PlnStmtAssert *) stmt)->message, NULL);
			break;
		case PLN_STMT_EXECSQL:
			{
				PlnStmtExecSql *sql = (PlnStmtExecSql *) stmt;

				desc = check_expr(cs, stmt, sql->sqlstmt, NULL);
				check_query_in_query_loop(cs, stmt, sql->sqlstmt);
				if (sql->into)
					check_target(cs, stmt, sql->target, desc);
				break;
			}
		case PLN_STMT_PERFORM:
			(void) check_expr(cs, stmt, ((PlnStmtPerform *) stmt)->expr, NULL);
			break;
		case PLN_STMT_GETDIAG:
			foreach(lc, ((PlnStmtGetDiag *) stmt)->diag_items)
				mark_dno(cs, ((PlnDiagItem *) lfirst(lc))->target, cs->written);
			break;
		case PLN_STMT_DYNEXECUTE:
			{
				PlnStmtDynExecute *dyn = (PlnStmtDynExecute *) stmt;

				check_dynamic_string(cs, stmt, dyn->query);
				check_expr_list(cs, stmt, dyn->params);
				if (dyn->into)
					check_target(cs, stmt, dyn->target, NULL);
				break;
			}
		case PLN_STMT_DYNFORS:
			{
				PlnStmtDynForS *dyn = (PlnStmtDynForS *) stmt;

				check_dynamic_string(cs, stmt, dyn->query);
				check_expr_list(cs, stmt, dyn->params);
				check_target(cs, stmt, dyn->var, NULL);
				break;
			}
		case PLN_STMT_OPEN:
			{
				PlnStmtOpen *open = (PlnStmtOpen *) stmt;

				mark_dno(cs, open->curvar, cs->read);
				mark_dno(cs, open->curvar, cs->written);
				(void) check_expr(cs, stmt, open->argquery, NULL);
				(void) check_expr(cs, stmt, open->query, NULL);
				if (open->query == NULL && open->dynquery == NULL)
					(void) check_expr(cs, stmt, cursor_query(cs, open->curvar), NULL);
				check_dynamic_string(cs, stmt, open->dynquery);
				check_expr_list(cs, stmt, open->params);
				break;
			}
		case PLN_STMT_FETCH:
			{
				PlnStmtFetch *fetch = (PlnStmtFetch *) stmt;

				mark_dno(cs, fetch->curvar, cs->read);
				(void) check_expr(cs, stmt, fetch->expr, NULL);
				desc = NULL;
				/* the target takes the shape of a bound cursor's query */
				if (fetch->target != NULL && cursor_query(cs, fetch->curvar) != NULL)
					desc = check_expr(cs, stmt, cursor_query(cs, fetch->curvar), NULL);
				check_target(cs, stmt, fetch->target, desc);
				break;
			}
		case PLN_STMT_CLOSE:
			mark_dno(cs, ((PlnStmtClose *) stmt)->curvar, cs->read);
			break;
		case PLN_STMT_RETURN_NEXT:
			{
				PlnStmtReturnNext *next = (PlnStmtReturnNext *) stmt;

				if (next->retvarno >= 0)
				{
					mark_dno(cs, next->retvarno, cs->read);
					if (returns_scalar(cs, true))
						check_assign_cast_type(cs, stmt,
											   var_type(cs, next->retvarno),
											   cs->func->fn_rettype);
				}
				check_scalar_result(cs, stmt, next->expr, true);
				break;
			}
		case PLN_STMT_RETURN_QUERY:
			{
				PlnStmtReturnQuery *rq = (PlnStmtReturnQuery *) stmt;

				desc = check_expr(cs, stmt, rq->query, NULL);
				if (rq->query != NULL)
					check_result_shape(cs, stmt, desc);
				check_dynamic_string(cs, stmt, rq->dynquery);
				check_expr_list(cs, stmt, rq->params);
				break;
			}
		case PLN_STMT_FOREACH_A:
			{
				PlnStmtForeachA *fe = (PlnStmtForeachA *) stmt;

				(void) check_expr(cs, stmt, fe->expr, NULL);
				mark_dno(cs, fe->varno, cs->written);
				break;
			}
		case PLN_STMT_COMMIT:
		case PLN_STMT_ROLLBACK:
			break;
	}
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
 * Is a text parameter of the function concatenated into the string as
 * it is, not through quote_ident, quote_literal or format?  (Only
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

		if (dno < 0 || dno >= cs->func->ndatums || !is_in_param(cs->func, dno))
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
	if (funcid != F_TEXTCAT && funcid != F_TEXTANYCAT &&
		funcid != F_ANYTEXTCAT && funcid != F_CONCAT && funcid != F_CONCAT_WS)
		return false;
	foreach(lc, args)
		if (concatenates_raw_param(cs, (Node *) lfirst(lc)))
			return true;
	return false;
}

/* EXECUTE's string: a constant, or built from an unquoted text parameter */
static void
check_dynamic_string(CheckState *cs, PlnStmt *stmt, PlnExpr *query)
{
	Node	   *first;

	(void) check_expr(cs, stmt, query, &first);
	if (first == NULL)
		return;
	if (!has_params(first, NULL))
		warn(cs, stmt, PLN_CHECK_PERFORMANCE, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("the EXECUTE string is a constant"),
			 NULL,
			 pstrdup("Static SQL would be checked, and its plan cached."));
	else if (concatenates_raw_param(cs, first))
		warn(cs, stmt, PLN_CHECK_WARNING, ERRCODE_SUCCESSFUL_COMPLETION,
			 pstrdup("text type variable is not sanitized"),
			 pstrdup("The EXECUTE expression is SQL injection vulnerable."),
			 pstrdup("Use quote_ident, quote_literal or format function to secure variable."));
}

/* The statements of a list (at any depth) that need a savepoint */
static int
count_impure(CheckState *cs, List *stmts, PlnStmt **last)
{
	ListCell   *lc;
	int			n = 0;

	check_stack_depth();
	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		ListCell   *b;

		if (cs->why[stmt->stmtid] != NULL)
		{
			n++;
			*last = stmt;
		}
		foreach(b, pln_stmt_nested_bodies(stmt))
			n += count_impure(cs, (List *) lfirst(b), last);
	}
	return n;
}

/*
 * performance_warnings: a block that only catches unique_violation of its
 * one impure statement, an INSERT: ON CONFLICT needs no subtransaction.
 */
static void
check_upsert_block(CheckState *cs, PlnStmtBlock *block)
{
	PlnStmt    *only = NULL;
	ListCell   *lc;
	const char *query;

	foreach(lc, block->exceptions->actions)
	{
		PlnCondition *cond;

		for (cond = ((PlnExceptionAction *) lfirst(lc))->conditions; cond; cond = cond->next)
			if (cond->sqlerrstate != ERRCODE_UNIQUE_VIOLATION)
				return;
	}
	if (count_impure(cs, block->body, &only) != 1 ||
		only->cmd_type != PLN_STMT_EXECSQL)
		return;
	query = ((PlnStmtExecSql *) only)->sqlstmt->query;
	while (*query == ' ' || *query == '\t' || *query == '\n' || *query == '(')
		query++;
	if (pg_strncasecmp(query, "insert", 6) != 0)
		return;
	/* the write path runs it without one already */
	if (pln_write_path_block_qualifies(cs->estate, block))
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
		pln_write_path_block_qualifies(cs->estate, block))
		return;
	warn(cs, (PlnStmt *) block, PLN_CHECK_PERFORMANCE,
		 ERRCODE_SUCCESSFUL_COMPLETION,
		 psprintf("the subtransaction of this exception block starts at its first statement (line %d, %s)",
				  first->lineno, pln_stmt_typename(first)),
		 psprintf("%s", cs->why[first->stmtid]),
		 pstrdup("Nothing in the block runs before its savepoint: it costs what a PL/pgSQL exception block costs."));
}

static void
check_stmts(CheckState *cs, List *stmts)
{
	ListCell   *lc;
	bool		unreachable = false;

	check_stack_depth();

	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		int			scope_len = list_length(cs->scope);
		ListCell   *b;

		CHECK_FOR_INTERRUPTS();
		if (cs->stop)
			return;
		if (unreachable)
		{
			warn(cs, stmt, PLN_CHECK_WARNING_EXTRA,
				 ERRCODE_SUCCESSFUL_COMPLETION,
				 pstrdup("unreachable code"), NULL, NULL);
			unreachable = false;	/* once per list */
		}

		check_stmt_own(cs, stmt);
		if (stmt->cmd_type == PLN_STMT_BLOCK)
			check_savepoint_start(cs, (PlnStmtBlock *) stmt);

		if (is_loop(stmt))
			cs->loop_depth++;
		if (stmt->cmd_type == PLN_STMT_FORS)
			cs->query_loops = lappend(cs->query_loops, stmt);
		foreach(b, pln_stmt_nested_bodies(stmt))
			check_stmts(cs, (List *) lfirst(b));
		if (stmt->cmd_type == PLN_STMT_FORS)
			cs->query_loops = list_delete_last(cs->query_loops);
		if (is_loop(stmt))
			cs->loop_depth--;
		cs->scope = list_truncate(cs->scope, scope_len);

		if (stmt_never_ends(stmt) && lnext(stmts, lc) != NULL)
			unreachable = true;
	}
}

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

/* Collect the declared variables of every block */
static void
collect_declared(List *stmts, bool *declared)
{
	ListCell   *lc;

	check_stack_depth();
	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		ListCell   *b;

		if (stmt->cmd_type == PLN_STMT_BLOCK)
		{
			PlnStmtBlock *block = (PlnStmtBlock *) stmt;
			int			i;

			for (i = 0; i < block->n_initvars; i++)
				declared[block->initvarnos[i]] = true;
		}
		foreach(b, pln_stmt_nested_bodies(stmt))
			collect_declared((List *) lfirst(b), declared);
	}
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
		if (is_in_param(func, dno))
		{
			if (!cs->read[dno] && !cs->written[dno] && !is_out_param(func, dno))
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("unused parameter \"%s\"", var->refname));
			else if (!cs->read[dno] && !is_out_param(func, dno))
				warn_at_line(cs, 0, PLN_CHECK_WARNING_EXTRA,
							 psprintf("parameter \"%s\" is overwritten and never read",
									  var->refname));
		}
		else if (is_out_param(func, dno))
		{
			/* a set-returning function may return its rows otherwise */
			if (!cs->written[dno] && !func->fn_retset)
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

/* Is there a RETURN anywhere in the list? */
static bool
contains_return(List *stmts)
{
	ListCell   *lc;

	check_stack_depth();
	foreach(lc, stmts)
	{
		PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
		ListCell   *b;

		if (stmt->cmd_type == PLN_STMT_RETURN)
			return true;
		foreach(b, pln_stmt_nested_bodies(stmt))
			if (contains_return((List *) lfirst(b)))
				return true;
	}
	return false;
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
						   func->fn_is_trigger ?
						   "control reached end of trigger procedure without RETURN" :
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

		check_stmts(cs, list_make1(func->action));
		if (!cs->stop)
		{
			check_missing_return(cs);
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

/*
 * Check a function (compiled: as called, or NULL to compile it as the
 * validator does); returns its findings (PlnCheckFinding), allocated in
 * the caller's memory context.  A failure to compile is a finding too.
 * Everything runs in a subtransaction that is rolled back.
 */
List *
pln_check_function(Oid funcoid, PlnCheckOptions *opts, PlnFunction *compiled)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	CheckState	cs;
	int			rc;

	memset(&cs, 0, sizeof(cs));
	cs.opts = opts;
	cs.cxt = oldcontext;

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
		PlnFunction *func = compiled;

		if (func == NULL)
			func = compile_for_check(&cs, funcoid, oldcontext);

		if (func != NULL)
			check_compiled(&cs, func);
	}
	PG_FINALLY();
	{
		MemoryContextSwitchTo(oldcontext);
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_END_TRY();

	if ((rc = SPI_finish()) != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed: %s", SPI_result_code_string(rc));

	return cs.findings;
}

/* The arguments common to both SQL functions */
static Oid
check_arguments(FunctionCallInfo fcinfo, PlnCheckOptions *opts)
{
	Oid			funcoid;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the first argument of plnimble_check_function must not be NULL")));
	funcoid = PG_GETARG_OID(0);
	memset(opts, 0, sizeof(*opts));
	opts->relid = PG_ARGISNULL(1) ? InvalidOid : PG_GETARG_OID(1);
	opts->fatal_errors = PG_ARGISNULL(2) ? true : PG_GETARG_BOOL(2);
	opts->other_warnings = PG_ARGISNULL(3) ? true : PG_GETARG_BOOL(3);
	opts->performance_warnings = PG_ARGISNULL(4) ? false : PG_GETARG_BOOL(4);
	opts->extra_warnings = PG_ARGISNULL(5) ? true : PG_GETARG_BOOL(5);
	opts->newtable = PG_ARGISNULL(6) ? NULL : pstrdup(NameStr(*PG_GETARG_NAME(6)));
	opts->oldtable = PG_ARGISNULL(7) ? NULL : pstrdup(NameStr(*PG_GETARG_NAME(7)));

	if (!pln_function_runs_on_plnimble(funcoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("function %s is not run by %s",
						format_procedure(funcoid), PLN_OWN_TITLE)));

	/* analysis may run the function's immutable parts: as a call would */
	if (pln_proc_aclcheck(funcoid, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK &&
		!pln_proc_ownercheck(funcoid, GetUserId()))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s",
						format_procedure(funcoid)),
				 errdetail("plnimble_check_function() needs EXECUTE on the function, or its ownership, as calling it would.")));

	if (get_func_rettype(funcoid) == TRIGGEROID && OidIsValid(opts->relid) &&
		get_rel_relkind(opts->relid) == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", opts->relid)));
	return funcoid;
}

/* What both SQL functions do first: check, and prepare the result set */
static List *
check_for_sql(FunctionCallInfo fcinfo, Oid *funcoid)
{
	PlnCheckOptions opts;

	*funcoid = check_arguments(fcinfo, &opts);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return pln_check_function(*funcoid, &opts, NULL);
}

/*
 * plnimble_check_function(funcoid regprocedure, relid regclass, ...)
 * returns setof text
 */
Datum
plnimble_check_function(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			funcoid;
	List	   *findings = check_for_sql(fcinfo, &funcoid);
	ListCell   *lc;

	foreach(lc, findings)
	{
		ListCell   *l;

		foreach(l, pln_check_finding_lines((PlnCheckFinding *) lfirst(lc)))
		{
			Datum		value = CStringGetTextDatum((char *) lfirst(l));
			bool		isnull = false;

			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
								 &value, &isnull);
		}
	}
	return (Datum) 0;
}

static Datum
text_or_null(const char *s, bool *isnull)
{
	*isnull = (s == NULL);
	return s ? CStringGetTextDatum(s) : (Datum) 0;
}

/* plnimble_check_function_tb(...): one row a finding */
Datum
plnimble_check_function_tb(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			funcoid;
	List	   *findings = check_for_sql(fcinfo, &funcoid);
	ListCell   *lc;

	foreach(lc, findings)
	{
		PlnCheckFinding *f = (PlnCheckFinding *) lfirst(lc);
		Datum		values[11];
		bool		nulls[11];

		values[0] = ObjectIdGetDatum(funcoid);
		nulls[0] = false;
		values[1] = Int32GetDatum(f->lineno);
		nulls[1] = (f->lineno <= 0);
		values[2] = text_or_null(f->stmtname, &nulls[2]);
		values[3] = text_or_null(unpack_sql_state(f->sqlerrcode), &nulls[3]);
		values[4] = text_or_null(f->message, &nulls[4]);
		values[5] = text_or_null(f->detail, &nulls[5]);
		values[6] = text_or_null(f->hint, &nulls[6]);
		values[7] = text_or_null(pln_check_level_name(f->level), &nulls[7]);
		values[8] = Int32GetDatum(f->position);
		nulls[8] = (f->position <= 0);
		values[9] = text_or_null(f->query, &nulls[9]);
		values[10] = text_or_null(f->context, &nulls[10]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
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
	opts.fatal_errors = true;
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
		ereport(ERROR,
				(errcode(f->sqlerrcode),
				 errmsg("%s", f->message),
				 f->detail ? errdetail("%s", f->detail) : 0,
				 f->hint ? errhint("%s", f->hint) : 0,
				 f->query ? internalerrquery(f->query) : 0,
				 f->position > 0 && f->query ? internalerrposition(f->position) : 0,
				 errcontext("%s check of function %s line %d%s%s",
							PLN_OWN_TITLE, func->fn_signature, f->lineno,
							f->stmtname ? " at " : "",
							f->stmtname ? f->stmtname : "")));
	}
}
