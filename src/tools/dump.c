/*-------------------------------------------------------------------------
 *
 * dump.c
 *	  #option dump: the compiled tree of a function, in the server log.
 *
 * A function whose body starts with "#option dump" has its compiled form
 * written to the server log each time it is compiled, as PL/pgSQL writes
 * its tree to the server's output: the variables, then the statements,
 * one line each, nested statements indented, with the SQL text of the
 * expressions they evaluate.  It is a LOG message, so clients do not see
 * it unless they ask for LOG messages.  For people reading the log, not
 * for programs: the format may change.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "plnimble.h"

static void
dump_expr(StringInfo buf, const char *label, PlnExpr *expr)
{
	if (expr != NULL)
		appendStringInfo(buf, "%s%s '%s'", *label ? " " : "", label,
						 expr->query);
}

/* A datum as the function text names it, for statements that use it */
static void
dump_datum_name(StringInfo buf, const char *label, PlnFunction *func, int dno)
{
	PlnDatum   *datum = func->datums[dno];

	if (datum->dtype == PLN_DTYPE_RECFIELD)
	{
		PlnRecField *recfield = (PlnRecField *) datum;

		appendStringInfo(buf, "%s%s \"%s\".\"%s\"", *label ? " " : "", label,
						 ((PlnVariable *) func->datums[recfield->recparentno])->refname,
						 recfield->fieldname);
	}
	else
		appendStringInfo(buf, "%s%s \"%s\"", *label ? " " : "", label,
						 ((PlnVariable *) datum)->refname);
}

static void
dump_datum(StringInfo buf, PlnDatum *datum)
{
	appendStringInfo(buf, "  %d: ", datum->dno);
	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
			{
				PlnVar	   *var = (PlnVar *) datum;

				appendStringInfo(buf, "variable \"%s\" %s%s%s",
								 var->refname,
								 format_type_with_typemod(var->datatype->typoid,
														  var->datatype->atttypmod),
								 var->isconst ? " CONSTANT" : "",
								 var->notnull ? " NOT NULL" : "");
				dump_expr(buf, "default", var->default_val);
				dump_expr(buf, "cursor for", var->cursor_explicit_expr);
				break;
			}
		case PLN_DTYPE_ROW:
			{
				PlnRow	   *row = (PlnRow *) datum;
				int			i;

				appendStringInfo(buf, "row \"%s\" of", row->refname);
				for (i = 0; i < row->nfields; i++)
					appendStringInfo(buf, "%s %d", i > 0 ? "," : "",
									 row->varnos[i]);
				break;
			}
		case PLN_DTYPE_REC:
			{
				PlnRec	   *rec = (PlnRec *) datum;

				appendStringInfo(buf, "record \"%s\" %s%s%s", rec->refname,
								 format_type_be(rec->rectypeid),
								 rec->isconst ? " CONSTANT" : "",
								 rec->notnull ? " NOT NULL" : "");
				dump_expr(buf, "default", rec->default_val);
				break;
			}
		case PLN_DTYPE_RECFIELD:
			{
				PlnRecField *recfield = (PlnRecField *) datum;

				appendStringInfo(buf, "field \"%s\" of record %d",
								 recfield->fieldname, recfield->recparentno);
				break;
			}
	}
	appendStringInfoChar(buf, '\n');
}

/* What RETURN or RETURN NEXT returns: a variable, or an expression */
static void
dump_returned(StringInfo buf, PlnFunction *func, int retvarno, PlnExpr *expr)
{
	if (retvarno >= 0)
		dump_datum_name(buf, "", func, retvarno);
	dump_expr(buf, "", expr);
}

/* The expressions and targets of a statement, after its name */
static void
dump_stmt_details(StringInfo buf, PlnFunction *func, PlnStmt *stmt)
{
	ListCell   *lc;

	switch (stmt->cmd_type)
	{
		case PLN_STMT_BLOCK:
			{
				PlnStmtBlock *block = (PlnStmtBlock *) stmt;
				int			i;

				if (block->label != NULL)
					appendStringInfo(buf, " <<%s>>", block->label);
				if (block->n_initvars > 0)
				{
					for (i = 0; i < block->n_initvars; i++)
						dump_datum_name(buf, i == 0 ? "declares" : "and", func,
										block->initvarnos[i]);
				}
				if (block->exceptions != NULL)
					appendStringInfoString(buf, " with EXCEPTION");
				break;
			}
		case PLN_STMT_ASSIGN:
			dump_datum_name(buf, "to", func, ((PlnStmtAssign *) stmt)->varno);
			dump_expr(buf, ":=", ((PlnStmtAssign *) stmt)->expr);
			break;
		case PLN_STMT_IF:
			dump_expr(buf, "if", ((PlnStmtIf *) stmt)->cond);
			foreach(lc, ((PlnStmtIf *) stmt)->elsif_list)
				dump_expr(buf, "elsif", ((PlnIfElsif *) lfirst(lc))->cond);
			break;
		case PLN_STMT_CASE:
			dump_expr(buf, "of", ((PlnStmtCase *) stmt)->t_expr);
			foreach(lc, ((PlnStmtCase *) stmt)->case_when_list)
				dump_expr(buf, "when", ((PlnCaseWhen *) lfirst(lc))->expr);
			break;
		case PLN_STMT_LOOP:
			break;
		case PLN_STMT_WHILE:
			dump_expr(buf, "while", ((PlnStmtWhile *) stmt)->cond);
			break;
		case PLN_STMT_FORI:
			{
				PlnStmtForI *fori = (PlnStmtForI *) stmt;

				dump_datum_name(buf, "", func, fori->var->dno);
				if (fori->reverse)
					appendStringInfoString(buf, " reverse");
				dump_expr(buf, "from", fori->lower);
				dump_expr(buf, "to", fori->upper);
				dump_expr(buf, "by", fori->step);
				break;
			}
		case PLN_STMT_FORS:
			dump_datum_name(buf, "", func, ((PlnStmtForS *) stmt)->var->dno);
			dump_expr(buf, "in", ((PlnStmtForS *) stmt)->query);
			break;
		case PLN_STMT_EXIT:
			if (((PlnStmtExit *) stmt)->label != NULL)
				appendStringInfo(buf, " %s", ((PlnStmtExit *) stmt)->label);
			dump_expr(buf, "when", ((PlnStmtExit *) stmt)->cond);
			break;
		case PLN_STMT_RETURN:
			dump_returned(buf, func, ((PlnStmtReturn *) stmt)->retvarno,
						  ((PlnStmtReturn *) stmt)->expr);
			break;
		case PLN_STMT_RAISE:
			{
				PlnStmtRaise *raise = (PlnStmtRaise *) stmt;

				if (raise->condname != NULL)
					appendStringInfo(buf, " %s", raise->condname);
				if (raise->message != NULL)
					appendStringInfo(buf, " '%s'", raise->message);
				foreach(lc, raise->params)
					dump_expr(buf, "param", (PlnExpr *) lfirst(lc));
				foreach(lc, raise->options)
					dump_expr(buf, "option", ((PlnRaiseOption *) lfirst(lc))->expr);
				break;
			}
		case PLN_STMT_ASSERT:
			dump_expr(buf, "", ((PlnStmtAssert *) stmt)->cond);
			dump_expr(buf, "message", ((PlnStmtAssert *) stmt)->message);
			break;
		case PLN_STMT_EXECSQL:
			dump_expr(buf, "", ((PlnStmtExecSql *) stmt)->sqlstmt);
			if (((PlnStmtExecSql *) stmt)->into)
				dump_datum_name(buf,
								((PlnStmtExecSql *) stmt)->strict ? "into strict" : "into",
								func, ((PlnStmtExecSql *) stmt)->target->dno);
			break;
		case PLN_STMT_PERFORM:
			dump_expr(buf, "", ((PlnStmtPerform *) stmt)->expr);
			break;
		case PLN_STMT_GETDIAG:
			foreach(lc, ((PlnStmtGetDiag *) stmt)->diag_items)
			{
				PlnDiagItem *item = (PlnDiagItem *) lfirst(lc);

				dump_datum_name(buf, "", func, item->target);
				appendStringInfo(buf, " = %s", pln_diag_kind_name(item->kind));
			}
			break;
		case PLN_STMT_DYNEXECUTE:
			dump_expr(buf, "", ((PlnStmtDynExecute *) stmt)->query);
			foreach(lc, ((PlnStmtDynExecute *) stmt)->params)
				dump_expr(buf, "using", (PlnExpr *) lfirst(lc));
			break;
		case PLN_STMT_DYNFORS:
			dump_datum_name(buf, "", func, ((PlnStmtDynForS *) stmt)->var->dno);
			dump_expr(buf, "in execute", ((PlnStmtDynForS *) stmt)->query);
			foreach(lc, ((PlnStmtDynForS *) stmt)->params)
				dump_expr(buf, "using", (PlnExpr *) lfirst(lc));
			break;
		case PLN_STMT_OPEN:
			dump_datum_name(buf, "", func, ((PlnStmtOpen *) stmt)->curvar);
			dump_expr(buf, "arguments", ((PlnStmtOpen *) stmt)->argquery);
			dump_expr(buf, "for", ((PlnStmtOpen *) stmt)->query);
			dump_expr(buf, "for execute", ((PlnStmtOpen *) stmt)->dynquery);
			break;
		case PLN_STMT_FETCH:
			dump_datum_name(buf, "", func, ((PlnStmtFetch *) stmt)->curvar);
			dump_expr(buf, "count", ((PlnStmtFetch *) stmt)->expr);
			if (((PlnStmtFetch *) stmt)->target != NULL)
				dump_datum_name(buf, "into", func,
								((PlnStmtFetch *) stmt)->target->dno);
			break;
		case PLN_STMT_CLOSE:
			dump_datum_name(buf, "", func, ((PlnStmtClose *) stmt)->curvar);
			break;
		case PLN_STMT_FORC:
			dump_datum_name(buf, "", func, ((PlnStmtForC *) stmt)->var->dno);
			dump_datum_name(buf, "in", func, ((PlnStmtForC *) stmt)->curvar);
			dump_expr(buf, "arguments", ((PlnStmtForC *) stmt)->argquery);
			break;
		case PLN_STMT_RETURN_NEXT:
			dump_returned(buf, func, ((PlnStmtReturnNext *) stmt)->retvarno,
						  ((PlnStmtReturnNext *) stmt)->expr);
			break;
		case PLN_STMT_RETURN_QUERY:
			dump_expr(buf, "", ((PlnStmtReturnQuery *) stmt)->query);
			dump_expr(buf, "execute", ((PlnStmtReturnQuery *) stmt)->dynquery);
			foreach(lc, ((PlnStmtReturnQuery *) stmt)->params)
				dump_expr(buf, "using", (PlnExpr *) lfirst(lc));
			break;
		case PLN_STMT_FOREACH_A:
			dump_datum_name(buf, "", func, ((PlnStmtForeachA *) stmt)->varno);
			if (((PlnStmtForeachA *) stmt)->slice > 0)
				appendStringInfo(buf, " slice %d", ((PlnStmtForeachA *) stmt)->slice);
			dump_expr(buf, "in array", ((PlnStmtForeachA *) stmt)->expr);
			break;
		case PLN_STMT_COMMIT:
		case PLN_STMT_ROLLBACK:
			if (((PlnStmtCommit *) stmt)->chain)
				appendStringInfoString(buf, " and chain");
			break;
	}
}

/* The state of a dump's walk over the statements */
typedef struct DumpWalk
{
	StringInfo	buf;
	PlnFunction *func;
} DumpWalk;

/* A statement: its line, name and details, indented by its depth */
static PlnWalkResult
dump_stmt(PlnStmt *stmt, int depth, void *arg)
{
	DumpWalk   *dw = (DumpWalk *) arg;

	appendStringInfo(dw->buf, "%*sline %d: %s", depth * 2 + 2, "",
					 stmt->lineno, pln_stmt_typename(stmt));
	dump_stmt_details(dw->buf, dw->func, stmt);
	appendStringInfoChar(dw->buf, '\n');
	return PLN_WALK_CONTINUE;
}

/* A handler names its conditions before its statements */
static PlnWalkResult
dump_body(PlnStmt *stmt, const PlnNestedBody *body, int depth, void *arg)
{
	StringInfo	buf = ((DumpWalk *) arg)->buf;
	PlnExceptionAction *action = (PlnExceptionAction *) body->part;
	PlnCondition *cond;

	if (body->role != PLN_BODY_HANDLER)
		return PLN_WALK_CONTINUE;
	appendStringInfo(buf, "%*sline %d: handler for", depth * 2 + 2, "",
					 action->lineno);
	for (cond = action->conditions; cond != NULL; cond = cond->next)
		appendStringInfo(buf, "%s %s",
						 cond == action->conditions ? "" : " or",
						 cond->condname);
	appendStringInfoChar(buf, '\n');
	return PLN_WALK_CONTINUE;
}

static const PlnStmtWalker dump_walker = {
	.stmt = dump_stmt,
	.body = dump_body,
};

/*
 * Write the compiled function to the server log (called by the compiler
 * when the body asked for it with #option dump).
 */
void
pln_dump_function(PlnFunction *func)
{
	StringInfoData buf;
	DumpWalk	dw;
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "compiled tree of %s function %s\nvariables:\n",
					 PLN_LANG_TITLE, func->fn_signature);
	for (i = 0; i < func->ndatums; i++)
		dump_datum(&buf, func->datums[i]);
	appendStringInfoString(&buf, "statements:\n");
	dw.buf = &buf;
	dw.func = func;
	(void) pln_walk_stmt((PlnStmt *) func->action, &dump_walker, &dw);

	ereport(LOG,
			(errmsg_internal("%s", buf.data),
			 errhidestmt(true),
			 errhidecontext(true)));
	pfree(buf.data);
}
