/*-------------------------------------------------------------------------
 *
 * pln_compile.h
 *	  The front end of PL/nimble: scanner, grammar, compiler and function
 *	  cache, namespace, condition names.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_COMPILE_H
#define PLN_COMPILE_H

#include "compat/pln_compat.h"

#include "compile/pln_tree.h"

/* ----------
 * Scanner and grammar (grammar/)
 * ----------
 */
typedef enum PlnIdentifierLookup
{
	PLN_LOOKUP_NORMAL,			/* look up variables */
	PLN_LOOKUP_DECLARE,			/* in DECLARE: names are new */
	PLN_LOOKUP_EXPR				/* inside SQL text: the core parser decides */
} PlnIdentifierLookup;

/* A word, possibly quoted */
typedef struct PlnWord
{
	char	   *ident;
	bool		quoted;
} PlnWord;

/* A compound word a.b or a.b.c */
typedef struct PlnCWord
{
	List	   *idents;			/* List of String */
} PlnCWord;

/* A reference to a variable, as found by the scanner */
typedef struct PlnWDatum
{
	PlnDatum   *datum;
	char	   *ident;			/* the first word, if single */
	bool		quoted;
	List	   *idents;			/* all words if compound */
} PlnWDatum;

extern PlnIdentifierLookup pln_IdentifierLookup;

extern void pln_scanner_init(const char *str);
extern void pln_scanner_finish(void);
extern int	pln_yylex(void);
extern int	pln_token_length(void);
extern void pln_push_back_token(int token);
extern int	pln_peek(void);
extern void pln_peek2_raw(int *tok1, int *tok2, int *loc1);
extern bool pln_token_is_unreserved_keyword(int token);
extern int	pln_location_to_lineno(int location);
extern int	pln_latest_lineno(void);
extern int	pln_scanner_errposition(int location);
extern void pln_append_source_text(StringInfo buf, int startlocation,
								   int endlocation);
extern const char *pln_scanner_text(void);
extern void pln_yyerror(const char *message) pg_attribute_noreturn();
extern int	pln_yyparse(void);
extern PlnStmtBlock *pln_parse_result;
extern PlnType *pln_parse_datatype(const char *string, int location);

/* ----------
 * Compiler and function cache (compile.c)
 * ----------
 */
extern bool pln_check_syntax;
extern bool pln_DumpExecTree;
extern PlnFunction *pln_curr_compile;
extern char *pln_error_funcname;
extern MemoryContext pln_compile_tmp_cxt;

extern PlnFunction *pln_compile_or_look_up(FunctionCallInfo fcinfo,
											bool forValidator);

/*
 * Find or build the compiled form of the function being called.  A
 * function found through fn_extra and checked against its pg_proc row
 * since the row last changed needs no catalog lookup: a change clears
 * fn_proc_checked (pln_proc_inval_callback).  Inline: every call does it.
 */
static inline PlnFunction *
pln_compile(FunctionCallInfo fcinfo, bool forValidator)
{
	PlnFunction *function = (PlnFunction *) fcinfo->flinfo->fn_extra;

	if (likely(function != NULL && function->fn_proc_checked && !forValidator))
		return function;
	return pln_compile_or_look_up(fcinfo, forValidator);
}
extern PlnFunction *pln_compile_inline(char *proc_source);
extern PlnFunction *pln_compile_for_validation(Oid funcoid, Oid rettype);
extern bool pln_function_runs_on_plnimble(Oid funcoid);
extern void pln_tool_may_analyse(Oid funcoid, const char *fname);
extern void pln_parser_setup(struct ParseState *pstate, PlnExpr *expr);
extern struct TypeCacheEntry *pln_row_type_cache_entry(Oid typeOid);
extern PlnType *pln_build_datatype(Oid typeOid, int32 typmod,
								   Oid collation, TypeName *origtypname);
extern PlnVariable *pln_build_variable(const char *refname, int lineno,
									   PlnType *dtype, bool add2namespace);
extern PlnRecField *pln_build_recfield(PlnRec *rec, const char *fldname);
extern int	pln_add_datum(PlnDatum *datum);
extern int	pln_next_stmtid(void);
extern void pln_free_function_memory(PlnFunction *func);
extern void pln_proc_inval_callback(Datum arg, int cacheid, uint32 hashvalue);

/* word lookup, used by the scanner */
extern bool pln_parse_word(char *word1, const char *yytxt, bool lookup,
						   PlnWDatum *wdatum, PlnWord *word);
extern bool pln_parse_dblword(char *word1, char *word2,
							  PlnWDatum *wdatum, PlnCWord *cword);
extern bool pln_parse_tripword(char *word1, char *word2, char *word3,
							   PlnWDatum *wdatum, PlnCWord *cword);

/* ----------
 * Statement kinds and the statement walker (stmts.c)
 * ----------
 */

/* What a statement list nested in a statement is to it */
typedef enum PlnBodyRole
{
	PLN_BODY_BLOCK,				/* a block's own statements */
	PLN_BODY_HANDLER,			/* an exception handler of a block */
	PLN_BODY_THEN,				/* IF's first branch */
	PLN_BODY_ELSIF,				/* an ELSIF branch */
	PLN_BODY_WHEN,				/* a WHEN branch of CASE */
	PLN_BODY_ELSE,				/* the ELSE of IF or CASE (NIL if none) */
	PLN_BODY_LOOP				/* a loop's body: runs repeatedly */
} PlnBodyRole;

typedef struct PlnNestedBody
{
	PlnBodyRole role;
	List	   *stmts;			/* List of PlnStmt, possibly NIL */
	void	   *part;			/* the PlnExceptionAction of a handler, the
								 * PlnIfElsif or PlnCaseWhen of a branch;
								 * else NULL */
} PlnNestedBody;

/* Called for each nested body; returning true stops the visit */
typedef bool (*PlnBodyVisitor) (PlnStmt *stmt, const PlnNestedBody *body,
								void *arg);

/* What every part of PL/nimble knows of a statement kind: pln_stmtkinds.h */
typedef struct PlnStmtKind
{
	const char *name;			/* untranslated */
	bool		nests;			/* runs statements of its own */
	bool		rows;			/* reports rows in eval_processed */
	bool		quiet;			/* leaves a caught error's CONTEXT unseen */
	bool		(*bodies) (PlnStmt *stmt, PlnBodyVisitor visit, void *arg);
	const char *(*describe) (PlnStmt *stmt);	/* or NULL: the name */
} PlnStmtKind;

extern const PlnStmtKind pln_stmt_kinds[];

/* What a walker's function tells pln_walk_stmts to do next */
typedef enum PlnWalkResult
{
	PLN_WALK_CONTINUE,			/* on, into the statement's (body's) content */
	PLN_WALK_SKIP,				/* on, but not into its content */
	PLN_WALK_STOP				/* stop the whole walk */
} PlnWalkResult;

/*
 * A walk over statements (pln_walk_stmts).  Every function may be NULL.
 * stmt is called for each statement before its nested bodies, body for
 * each nested body before its statements, body_done after them (unless
 * skipped), stmt_done after the statement's bodies (also when they were
 * skipped).  depth is the statement's nesting, 0 for the statements the
 * walk starts with (for body, that of the statement it is nested in).
 * arg is the walk's own state.
 */
typedef struct PlnStmtWalker
{
	PlnWalkResult (*stmt) (PlnStmt *stmt, int depth, void *arg);
	PlnWalkResult (*body) (PlnStmt *stmt, const PlnNestedBody *body,
						   int depth, void *arg);
	void		(*body_done) (PlnStmt *stmt, const PlnNestedBody *body,
							  void *arg);
	void		(*stmt_done) (PlnStmt *stmt, void *arg);
} PlnStmtWalker;

extern const char *pln_stmt_typename(PlnStmt *stmt);
extern const char *pln_body_role_name(PlnBodyRole role);
extern const char *pln_diag_kind_name(PlnDiagKind kind);
extern bool pln_stmt_visit_bodies(PlnStmt *stmt, PlnBodyVisitor visit,
								  void *arg);
extern List *pln_stmt_nested_bodies(PlnStmt *stmt);
extern bool pln_walk_stmts(List *stmts, const PlnStmtWalker *walker,
						   void *arg);
extern bool pln_walk_stmt(PlnStmt *stmt, const PlnStmtWalker *walker,
						  void *arg);
extern bool pln_stmts_any(List *stmts,
						  PlnWalkResult (*test) (PlnStmt *stmt, void *arg),
						  void *arg);
extern bool *pln_stack_check_points(PlnFunction *func);

/* ----------
 * What the compiler needs of the layers above it
 * ----------
 */

/*
 * The compiler runs at the bottom of the layers but, around a compilation,
 * asks for things only higher layers know.  They hand it these functions
 * once, in _PG_init (entry/handler.c), before anything is compiled; every
 * member is set.  Not on any per-call or per-statement path: each is
 * called once per compilation, or once per variable reference while
 * parsing.
 */
typedef struct PlnCompileHooks
{
	/* entry/version.c: once per session, are the SQL objects ours? */
	void		(*check_sql_version) (void);
	/* exec/assign.c: a datum's type, for planning a reference to it */
	void		(*datum_type_info) (struct PlnExecState *estate, PlnDatum *datum,
									Oid *typeId, int32 *typMod,
									Oid *collation);
	/* write/write_path.c: mark the statements the write path may run */
	void		(*mark_write_path) (PlnFunction *func);
	/* tools/dump.c: #option dump */
	void		(*dump_function) (PlnFunction *func);
} PlnCompileHooks;

extern PlnCompileHooks pln_compile_hooks;

/* ----------
 * Namespace (namespace.c)
 * ----------
 */
extern void pln_ns_init(void);
extern void pln_ns_push(const char *label, PlnLabelType label_type);
extern void pln_ns_pop(void);
extern PlnNsItem *pln_ns_top(void);
extern void pln_ns_additem(PlnNsType itemtype, int itemno, const char *name);
extern PlnNsItem *pln_ns_lookup(PlnNsItem *ns_cur, bool localmode,
								const char *name1, const char *name2,
								const char *name3, int *names_used);
extern PlnNsItem *pln_ns_lookup_label(PlnNsItem *ns_cur, const char *name);
extern PlnNsItem *pln_ns_find_nearest_loop(PlnNsItem *ns_cur);

/* ----------
 * Condition names (conditions.c)
 * ----------
 */
extern int	pln_recognize_err_condition(const char *condname,
										bool allow_sqlstate);
extern PlnCondition *pln_parse_err_condition(char *condname);

#endif							/* PLN_COMPILE_H */
