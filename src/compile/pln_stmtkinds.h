/*-------------------------------------------------------------------------
 *
 * pln_stmtkinds.h
 *	  The statement kinds of PL/nimble: one line each.
 *
 * Everything that must exist once per statement kind is generated from
 * this list: the PlnStmtType enum (pln_tree.h), the table
 * pln_stmt_kinds[] (compile/stmts.c: names and nested bodies, read by the
 * statement walker that the checker, the dump, the plan view, the profiler
 * and the exception-block layer share), the laziness test
 * (pln_stmt_may_run_lazily, lazy/pln_savepoint.h), the switch that
 * dispatches a statement to the function that runs it (exec_stmt in
 * exec.c) and the checker's table of per-kind checks (check_stmt_own in
 * tools/check.c).  A kind has exactly one
 * line here, so it cannot be missing from any of them.  The hand-written
 * switches over statement kinds have no default: -Wswitch names a kind one
 * of them does not handle.  docs/design.md has the checklist for adding a
 * kind.
 *
 * This file has no include guard: include it with PLN_STMT_KIND defined,
 * and undefine that afterwards.
 *
 *	PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec,
 *				  describe)
 *
 * kind		the PlnStmtType value
 * node		the struct of a statement of the kind
 * name		how CONTEXT lines and the plan view name it (untranslated)
 * lazy		may it start running in a handler block whose subtransaction
 *			has not been started (a lazy region, see savepoint.c)?  Such a
 *			kind only computes, and whatever impure work its expressions,
 *			casts and targets need starts the savepoint on the way
 *			(pln_start_savepoints_before).  Every other kind starts it
 *			before it runs.  A new kind is false until reviewed.
 * nests	does it run statements of its own (a body, branches)?  That is
 *			where the executor recurses, however deeply the text nests
 *			them, so the stack depth is checked before it runs (once per
 *			statement, not per iteration of a loop) if one of its own
 *			statements nests too (pln_stack_check_points in stmts.c).
 * bodies	bool bodies(PlnStmt *, PlnBodyVisitor, void *) (compile/stmts.c):
 *			hands each statement list nested in it, with its role (a
 *			block's body, a handler, a branch, a loop's body), to the
 *			visitor, in the order they appear in the text; NULL exactly
 *			when nests is false.  Every walk over the tree goes through it
 *			(pln_walk_stmts), so a new kind's bodies are named once, here.
 * rows		does it report the rows it processed in estate->eval_processed
 *			(the profiler's row counts)?
 * quiet	has it been reviewed to leave a caught error's CONTEXT unseen
 *			when a handler runs it (savepoint.c, handler_hides_error)?
 *			RAISE is, unless it re-raises the error bare (looked at per
 *			statement).  A new kind is false until reviewed.
 * exec		int exec(PlnExecState *, node *): runs it
 * describe	const char *describe(PlnStmt *): the name, for kinds whose
 *			name depends on the statement (EXIT or CONTINUE); else NULL
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */

/* kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe */
PLN_STMT_KIND(PLN_STMT_BLOCK, PlnStmtBlock, gettext_noop("statement block"), true, true, bodies_block, false, true, exec_stmt_block, NULL)
PLN_STMT_KIND(PLN_STMT_ASSIGN, PlnStmtAssign, gettext_noop("assignment"), true, false, NULL, false, true, exec_stmt_assign, NULL)
PLN_STMT_KIND(PLN_STMT_IF, PlnStmtIf, "IF", true, true, bodies_if, false, true, exec_stmt_if, NULL)
PLN_STMT_KIND(PLN_STMT_CASE, PlnStmtCase, "CASE", true, true, bodies_case, false, true, exec_stmt_case, NULL)
PLN_STMT_KIND(PLN_STMT_LOOP, PlnStmtLoop, "LOOP", true, true, bodies_loop, false, true, exec_stmt_loop, NULL)
PLN_STMT_KIND(PLN_STMT_WHILE, PlnStmtWhile, "WHILE", true, true, bodies_while, false, true, exec_stmt_while, NULL)
PLN_STMT_KIND(PLN_STMT_FORI, PlnStmtForI, gettext_noop("FOR with integer loop variable"), true, true, bodies_fori, false, true, exec_stmt_fori, NULL)
PLN_STMT_KIND(PLN_STMT_FORS, PlnStmtForS, gettext_noop("FOR over SELECT rows"), false, true, bodies_fors, false, true, exec_stmt_fors, NULL)
PLN_STMT_KIND(PLN_STMT_EXIT, PlnStmtExit, "EXIT", true, false, NULL, false, true, exec_stmt_exit, describe_exit)
PLN_STMT_KIND(PLN_STMT_RETURN, PlnStmtReturn, "RETURN", true, false, NULL, false, true, exec_stmt_return, NULL)
PLN_STMT_KIND(PLN_STMT_RAISE, PlnStmtRaise, "RAISE", true, false, NULL, false, true, exec_stmt_raise, NULL)
PLN_STMT_KIND(PLN_STMT_ASSERT, PlnStmtAssert, "ASSERT", true, false, NULL, false, true, exec_stmt_assert, NULL)
PLN_STMT_KIND(PLN_STMT_EXECSQL, PlnStmtExecSql, gettext_noop("SQL statement"), false, false, NULL, true, true, exec_stmt_execsql, describe_execsql)
PLN_STMT_KIND(PLN_STMT_PERFORM, PlnStmtPerform, "PERFORM", false, false, NULL, true, true, exec_stmt_perform, NULL)
PLN_STMT_KIND(PLN_STMT_GETDIAG, PlnStmtGetDiag, "GET DIAGNOSTICS", false, false, NULL, false, false, exec_stmt_getdiag, describe_getdiag)
PLN_STMT_KIND(PLN_STMT_DYNEXECUTE, PlnStmtDynExecute, "EXECUTE", false, false, NULL, true, false, exec_stmt_dynexecute, NULL)
PLN_STMT_KIND(PLN_STMT_DYNFORS, PlnStmtDynForS, gettext_noop("FOR over EXECUTE statement"), false, true, bodies_dynfors, false, false, exec_stmt_dynfors, NULL)
PLN_STMT_KIND(PLN_STMT_OPEN, PlnStmtOpen, "OPEN", false, false, NULL, false, false, exec_stmt_open, NULL)
PLN_STMT_KIND(PLN_STMT_FETCH, PlnStmtFetch, "FETCH", false, false, NULL, true, false, exec_stmt_fetch, describe_fetch)
PLN_STMT_KIND(PLN_STMT_CLOSE, PlnStmtClose, "CLOSE", false, false, NULL, false, false, exec_stmt_close, NULL)
PLN_STMT_KIND(PLN_STMT_FORC, PlnStmtForC, gettext_noop("FOR over cursor"), false, true, bodies_forc, false, false, exec_stmt_forc, NULL)
PLN_STMT_KIND(PLN_STMT_RETURN_NEXT, PlnStmtReturnNext, "RETURN NEXT", false, false, NULL, false, false, exec_stmt_return_next, NULL)
PLN_STMT_KIND(PLN_STMT_RETURN_QUERY, PlnStmtReturnQuery, "RETURN QUERY", false, false, NULL, true, false, exec_stmt_return_query, NULL)
PLN_STMT_KIND(PLN_STMT_FOREACH_A, PlnStmtForeachA, gettext_noop("FOREACH over array"), false, true, bodies_foreach_a, false, false, exec_stmt_foreach_a, NULL)
PLN_STMT_KIND(PLN_STMT_COMMIT, PlnStmtCommit, "COMMIT", false, false, NULL, false, false, exec_stmt_commit, NULL)
PLN_STMT_KIND(PLN_STMT_ROLLBACK, PlnStmtCommit, "ROLLBACK", false, false, NULL, false, false, exec_stmt_commit, NULL)
