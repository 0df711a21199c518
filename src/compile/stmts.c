/*-------------------------------------------------------------------------
 *
 * stmts.c
 *	  The statement kinds' table and the one walker over a compiled
 *	  function's statements.
 *
 * Everything that visits the statements of a compiled function (the
 * checker, the dump, the plan view, the profiler, the exception-block
 * layer, the stack-check points below) finds a statement's nested
 * statement lists through the "bodies" column of pln_stmtkinds.h, here,
 * and most walk them with pln_walk_stmts.  So a new statement kind names
 * its bodies once, in its line of pln_stmtkinds.h and its function here,
 * and no walk can miss them.  Not for running statements: the executor
 * dispatches on the kind itself (exec_stmt in exec/exec.c).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "compile/pln_compile.h"

/* ----------
 * Nested bodies, one function per kind that has any (the "bodies" column)
 * ----------
 */

/* Hand one body to the visitor; true if the visitor stops the walk */
static inline bool
visit_body(PlnStmt *stmt, PlnBodyRole role, List *stmts, void *part,
		   PlnBodyVisitor visit, void *arg)
{
	PlnNestedBody body;

	body.role = role;
	body.stmts = stmts;
	body.part = part;
	return visit(stmt, &body, arg);
}

/* (in a bodies function: hand one body over, stop if the visitor stops) */
#define VISIT_BODY(role, stmts, part) \
	do { \
		if (visit_body(stmt, (role), (stmts), (part), visit, arg)) \
			return true; \
	} while (0)

static bool
bodies_block(PlnStmt *stmt, PlnBodyVisitor visit, void *arg)
{
	PlnStmtBlock *block = (PlnStmtBlock *) stmt;
	ListCell   *lc;

	VISIT_BODY(PLN_BODY_BLOCK, block->body, NULL);
	if (block->exceptions == NULL)
		return false;
	foreach(lc, block->exceptions->actions)
	{
		PlnExceptionAction *action = (PlnExceptionAction *) lfirst(lc);

		VISIT_BODY(PLN_BODY_HANDLER, action->action, action);
	}
	return false;
}

/*
 * The branches of IF (ELSIF) or CASE (WHEN), then the ELSE: each branch
 * is a struct with its statement list at stmts_offset
 */
static bool
visit_branches(PlnStmt *stmt, PlnBodyRole role, List *branches,
			   size_t stmts_offset, List *else_stmts,
			   PlnBodyVisitor visit, void *arg)
{
	ListCell   *lc;

	foreach(lc, branches)
		VISIT_BODY(role, *(List **) ((char *) lfirst(lc) + stmts_offset),
				   lfirst(lc));
	VISIT_BODY(PLN_BODY_ELSE, else_stmts, NULL);
	return false;
}

static bool
bodies_if(PlnStmt *stmt, PlnBodyVisitor visit, void *arg)
{
	PlnStmtIf  *ifs = (PlnStmtIf *) stmt;

	VISIT_BODY(PLN_BODY_THEN, ifs->then_body, NULL);
	return visit_branches(stmt, PLN_BODY_ELSIF, ifs->elsif_list,
						  offsetof(PlnIfElsif, stmts), ifs->else_body,
						  visit, arg);
}

static bool
bodies_case(PlnStmt *stmt, PlnBodyVisitor visit, void *arg)
{
	PlnStmtCase *cases = (PlnStmtCase *) stmt;

	return visit_branches(stmt, PLN_BODY_WHEN, cases->case_when_list,
						  offsetof(PlnCaseWhen, stmts), cases->else_stmts,
						  visit, arg);
}

#undef VISIT_BODY

/* The loops: one body each, run repeatedly */
#define LOOP_BODIES(fn, node) \
static bool \
fn(PlnStmt *stmt, PlnBodyVisitor visit, void *arg) \
{ \
	return visit_body(stmt, PLN_BODY_LOOP, ((node *) stmt)->body, NULL, \
					  visit, arg); \
}
LOOP_BODIES(bodies_loop, PlnStmtLoop)
LOOP_BODIES(bodies_while, PlnStmtWhile)
LOOP_BODIES(bodies_fori, PlnStmtForI)
LOOP_BODIES(bodies_fors, PlnStmtForS)
LOOP_BODIES(bodies_dynfors, PlnStmtDynForS)
LOOP_BODIES(bodies_forc, PlnStmtForC)
LOOP_BODIES(bodies_foreach_a, PlnStmtForeachA)
#undef LOOP_BODIES

/* ----------
 * Names
 * ----------
 */

/* The names of the kinds whose name depends on the statement */
static const char *
describe_exit(PlnStmt *stmt)
{
	return ((PlnStmtExit *) stmt)->is_exit ? "EXIT" : "CONTINUE";
}

static const char *
describe_execsql(PlnStmt *stmt)
{
	PlnStmtExecSql *execsql = (PlnStmtExecSql *) stmt;

	if (execsql->is_call)
		return execsql->is_do ? "DO" : "CALL";
	return _("SQL statement");
}

static const char *
describe_getdiag(PlnStmt *stmt)
{
	return ((PlnStmtGetDiag *) stmt)->is_stacked ?
		"GET STACKED DIAGNOSTICS" : "GET DIAGNOSTICS";
}

static const char *
describe_fetch(PlnStmt *stmt)
{
	return ((PlnStmtFetch *) stmt)->is_move ? "MOVE" : "FETCH";
}

const PlnStmtKind pln_stmt_kinds[] = {
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) \
	[kind] = {name, nests, rows, quiet, bodies, describe},
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
};

StaticAssertDecl(lengthof(pln_stmt_kinds) == PLN_STMT_NKINDS,
				 "one entry per statement kind");

/* The name of a statement, as CONTEXT lines show it */
const char *
pln_stmt_typename(PlnStmt *stmt)
{
	const PlnStmtKind *kind = &pln_stmt_kinds[stmt->cmd_type];

	if (kind->describe != NULL)
		return kind->describe(stmt);
	return _(kind->name);
}

/* What a nested body is, as the profiler's tree names it */
const char *
pln_body_role_name(PlnBodyRole role)
{
	switch (role)
	{
		case PLN_BODY_BLOCK:
			return "body";
		case PLN_BODY_HANDLER:
			return "exception handler";
		case PLN_BODY_THEN:
			return "then";
		case PLN_BODY_ELSIF:
			return "elsif";
		case PLN_BODY_WHEN:
			return "when";
		case PLN_BODY_ELSE:
			return "else";
		case PLN_BODY_LOOP:
			return "loop body";
	}
	return "body";				/* (not reached) */
}

/* A GET DIAGNOSTICS item's name as written, for messages */
const char *
pln_diag_kind_name(PlnDiagKind kind)
{
	switch (kind)
	{
		case PLN_DIAG_ROW_COUNT:
			return "ROW_COUNT";
		case PLN_DIAG_CONTEXT:
			return "PG_CONTEXT";
		case PLN_DIAG_ERROR_CONTEXT:
			return "PG_EXCEPTION_CONTEXT";
		case PLN_DIAG_ERROR_DETAIL:
			return "PG_EXCEPTION_DETAIL";
		case PLN_DIAG_ERROR_HINT:
			return "PG_EXCEPTION_HINT";
		case PLN_DIAG_RETURNED_SQLSTATE:
			return "RETURNED_SQLSTATE";
		case PLN_DIAG_COLUMN_NAME:
			return "COLUMN_NAME";
		case PLN_DIAG_CONSTRAINT_NAME:
			return "CONSTRAINT_NAME";
		case PLN_DIAG_DATATYPE_NAME:
			return "PG_DATATYPE_NAME";
		case PLN_DIAG_MESSAGE_TEXT:
			return "MESSAGE_TEXT";
		case PLN_DIAG_TABLE_NAME:
			return "TABLE_NAME";
		case PLN_DIAG_SCHEMA_NAME:
			return "SCHEMA_NAME";
		case PLN_DIAG_ROUTINE_OID:
			return "PG_ROUTINE_OID";
	}
	return "unknown";
}

/* ----------
 * Walking
 * ----------
 */

/*
 * Hand each statement list nested in stmt to visit, in the order of the
 * text; returns true if visit stopped it (by returning true).
 */
bool
pln_stmt_visit_bodies(PlnStmt *stmt, PlnBodyVisitor visit, void *arg)
{
	const PlnStmtKind *kind = &pln_stmt_kinds[stmt->cmd_type];

	if (kind->bodies == NULL)
		return false;
	return kind->bodies(stmt, visit, arg);
}

static bool
append_body(PlnStmt *stmt, const PlnNestedBody *body, void *arg)
{
	List	  **bodies = (List **) arg;

	*bodies = lappend(*bodies, body->stmts);
	return false;
}

/*
 * The statement lists nested in a statement, as a List of Lists (bodies of
 * blocks, branches and loops, and the handlers of a block), in the current
 * memory context.  For walks that keep their own list of lists to visit.
 */
List *
pln_stmt_nested_bodies(PlnStmt *stmt)
{
	List	   *bodies = NIL;

	(void) pln_stmt_visit_bodies(stmt, append_body, &bodies);
	return bodies;
}

typedef struct WalkState
{
	const PlnStmtWalker *walker;
	void	   *arg;
	int			depth;			/* of the statements being visited */
	/* pln_stmts_any's test and its argument */
	PlnWalkResult (*test) (PlnStmt *stmt, void *arg);
	void	   *test_arg;
} WalkState;

static bool walk_list(List *stmts, WalkState *ws);

static bool
walk_body(PlnStmt *stmt, const PlnNestedBody *body, void *arg)
{
	WalkState  *ws = (WalkState *) arg;
	const PlnStmtWalker *walker = ws->walker;
	bool		stopped;

	if (walker->body != NULL)
	{
		PlnWalkResult r = walker->body(stmt, body, ws->depth, ws->arg);

		if (r == PLN_WALK_STOP)
			return true;
		if (r == PLN_WALK_SKIP)
			return false;
	}
	ws->depth++;
	stopped = walk_list(body->stmts, ws);
	ws->depth--;
	if (stopped)
		return true;
	if (walker->body_done != NULL)
		walker->body_done(stmt, body, ws->arg);
	return false;
}

/* One statement and, unless skipped, its bodies */
static bool
walk_one(PlnStmt *stmt, WalkState *ws)
{
	const PlnStmtWalker *walker = ws->walker;
	PlnWalkResult r = PLN_WALK_CONTINUE;

	if (walker->stmt != NULL)
		r = walker->stmt(stmt, ws->depth, ws->arg);
	if (r == PLN_WALK_STOP)
		return true;
	if (r == PLN_WALK_CONTINUE &&
		pln_stmt_visit_bodies(stmt, walk_body, ws))
		return true;
	if (walker->stmt_done != NULL)
		walker->stmt_done(stmt, ws->arg);
	return false;
}

static bool
walk_list(List *stmts, WalkState *ws)
{
	ListCell   *lc;

	/* the tree is as deep as the function text nests */
	check_stack_depth();

	foreach(lc, stmts)
	{
		if (walk_one((PlnStmt *) lfirst(lc), ws))
			return true;
	}
	return false;
}

static void
init_walk(WalkState *ws, const PlnStmtWalker *walker, void *arg)
{
	ws->walker = walker;
	ws->arg = arg;
	ws->depth = 0;
	ws->test = NULL;
	ws->test_arg = NULL;
}

/*
 * Walk the statements of the list and, depth first in the order of the
 * text, every statement nested in them, calling the walker's functions
 * (see PlnStmtWalker).  Returns true if one of them stopped the walk.
 * Recursive, with a stack-depth check at each level: for the tools and
 * for walks at run time, not for the compiler (pln_stack_check_points).
 */
bool
pln_walk_stmts(List *stmts, const PlnStmtWalker *walker, void *arg)
{
	WalkState	ws;

	init_walk(&ws, walker, arg);
	return walk_list(stmts, &ws);
}

/* pln_walk_stmts for one statement (a function's top block, say) */
bool
pln_walk_stmt(PlnStmt *stmt, const PlnStmtWalker *walker, void *arg)
{
	WalkState	ws;

	init_walk(&ws, walker, arg);
	check_stack_depth();
	return walk_one(stmt, &ws);
}

/* pln_stmts_any's walker: its arg is the walk's own state */
static PlnWalkResult
any_stmt(PlnStmt *stmt, int depth, void *arg)
{
	WalkState  *ws = (WalkState *) arg;

	return ws->test(stmt, ws->test_arg);
}

/*
 * Is test true for a statement of the list, at any depth?  Stops at the
 * first one.
 */
bool
pln_stmts_any(List *stmts, PlnWalkResult (*test) (PlnStmt *stmt, void *arg),
			  void *arg)
{
	static const PlnStmtWalker walker = {.stmt = any_stmt};
	WalkState	ws;

	/* (any_stmt gets the walk's state itself) */
	init_walk(&ws, &walker, &ws);
	ws.test = test;
	ws.test_arg = arg;
	return walk_list(stmts, &ws);
}

/*
 * Where the executor checks the stack depth, by stmtid: at every statement
 * that runs statements of its own of which one again runs statements of
 * its own.  The executor recurses only through such statements, so each
 * level of nesting but the innermost is checked; the innermost adds one
 * level of frames at most, and whatever its statements call (expressions,
 * SQL, other functions) checks for itself.  A loop whose body is a list
 * of simple statements, or an IF choosing between such lists, so pays
 * nothing for the check.
 *
 * The walk keeps its own list of statement lists still to visit instead of
 * recursing: compiling must not need more stack the deeper the text nests
 * (PL/pgSQL's compiler does not).  Allocated in the current memory
 * context.
 */
bool *
pln_stack_check_points(PlnFunction *func)
{
	bool	   *checks = palloc0(sizeof(bool) * (func->nstatements + 1));
	List	   *pending = list_make1(list_make1(func->action));

	while (pending != NIL)
	{
		List	   *stmts = (List *) llast(pending);
		ListCell   *lc;

		pending = list_delete_last(pending);
		foreach(lc, stmts)
		{
			PlnStmt    *stmt = (PlnStmt *) lfirst(lc);
			ListCell   *b;

			if (!pln_stmt_kinds[stmt->cmd_type].nests)
				continue;
			foreach(b, pln_stmt_nested_bodies(stmt))
			{
				List	   *body = (List *) lfirst(b);
				ListCell   *c;

				foreach(c, body)
				{
					if (pln_stmt_kinds[((PlnStmt *) lfirst(c))->cmd_type].nests)
						checks[stmt->stmtid] = true;
				}
				pending = lappend(pending, body);
			}
		}
	}
	return checks;
}
