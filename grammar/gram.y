%{
/*-------------------------------------------------------------------------
 *
 * gram.y
 *	  Bison grammar of the PL/nimble language (the PL/pgSQL language).
 *
 * The grammar recognises the procedural layer only: blocks, declarations
 * and statements.  Everything that is SQL (expressions, queries, data type
 * names) is cut out of the source text verbatim and handed to the server's
 * own parser later, through SPI; when compiling for the validator the text
 * is syntax-checked right away so that errors point into CREATE FUNCTION.
 *
 * The actions build the statement tree of plnimble.h in the compile
 * context.  Errors are reported with positions inside the body (see
 * pln_scanner_errposition).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "parser/parse_type.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "plnimble.h"

#define YYLLOC_DEFAULT(Current, Rhs, N) \
	do { \
		if ((N) > 0) \
			(Current) = (Rhs)[1]; \
		else \
			(Current) = (Rhs)[0]; \
	} while (0)

#define YYMALLOC palloc
#define YYFREE	 pfree

/* Result of the most recent successful parse */
PlnStmtBlock *pln_parse_result;

static PlnExpr *read_sql_construct(int until, int until2, int until3,
								   const char *expected,
								   RawParseMode parsemode,
								   bool isexpression, bool valid_sql,
								   int *startloc, int *endtoken);
static PlnExpr *read_sql_expression(int until, const char *expected);
static PlnExpr *read_sql_expression2(int until, int until2,
									 const char *expected, int *endtoken);
static PlnExpr *make_plexpr(char *query, RawParseMode mode, int location);
static void check_sql_expr(const char *stmt, RawParseMode parseMode,
						   int location);
static PlnStmt *make_call_stmt(int location, bool is_do);
static PlnStmt *make_execsql_stmt(int firsttoken, int location,
								   PlnWord *word);
static PlnExpr *read_cursor_args(PlnVar *cursor, int until);
static PlnStmtFetch *read_fetch_direction(void);
static void read_fetch_count(PlnStmtFetch *fetch, bool *expect_from);
static PlnExpr *cursor_name_default(const char *name);
static PlnStmt *make_return_stmt(int location);
static PlnStmt *make_return_next_stmt(int location);
static PlnStmt *make_return_query_stmt(int location);
static PlnStmt *make_case(int location, PlnExpr *t_expr,
						  List *case_when_list, List *else_stmts);
static void read_into_target(PlnVariable **target, bool *strict);
static PlnRow *read_into_scalar_list(char *initial_name,
									 PlnDatum *initial_datum,
									 int initial_location);
static PlnRow *scalar_list1(char *name, PlnDatum *datum, int lineno,
							int location);
static PlnRow *make_scalar_row(List *names, List *dnos, int lineno);
static PlnType *read_datatype(int tok);
static PlnType *word_type(char *ident);
static PlnType *cword_type(List *idents);
static PlnType *rowtype_of(List *idents);
static PlnType *column_type_17(List *idents);
static PlnType *type_array_of(PlnType *elem);
static PlnType *read_type_array_decoration(PlnType *type);
static List *read_raise_options(void);
static void check_raise_parameters(PlnStmtRaise *stmt);
static void check_labels(const char *start_label, const char *end_label,
						 int end_location);
static void check_assignable(PlnDatum *datum, int location);
static void word_is_not_variable(PlnWord *word, int location) pg_attribute_noreturn();
static void cword_is_not_variable(PlnCWord *cword, int location) pg_attribute_noreturn();
static void current_token_is_not_variable(int tok) pg_attribute_noreturn();
static int	add_initdatums(int **varnos);
static PlnNsItem *alias_target(List *idents, const char *shown, int location);
static void check_name_is_new(const char *name, int location);
static int	make_handler_variable(const char *name, int lineno);
static char *read_sqlstate_literal(void);
static int	read_raise_level(int *tok);
static int	read_raise_body(PlnStmtRaise *stmt, int tok);
static void check_exit_target(PlnStmtExit *stmt, int label_location,
							  int stmt_location);
static bool next_token_makes_assignment(void);
static RawParseMode assign_parse_mode(PlnWDatum *wdatum);
static char *name_of_cword(PlnCWord *cword);
static char *name_of_cword_list(List *idents);

/*
 * Name of a variable reference as written: "a" or "a.b.c".
 */
#define NameOfDatum(wdatum) ((wdatum)->ident ? (wdatum)->ident : \
							 name_of_cword_list((wdatum)->idents))

/*
 * The parser's globals, which bison defines without a declaration (18's
 * PGXS warns about those: -Wmissing-variable-declarations).
 */
extern int	pln_yychar;
extern int	pln_yynerrs;

%}

%code requires
{
#define PLN_YYLTYPE int
#define PLN_YYLTYPE_IS_DECLARED 1

typedef struct DeclHeader
{
	char	   *label;
	int			n_initvars;
	int		   *initvarnos;
} DeclHeader;

typedef struct LoopBody
{
	List	   *stmts;
	char	   *end_label;
	int			end_label_location;
} LoopBody;
}

%define api.prefix {pln_yy}
%locations
%expect 0

%code
{
static bool tok_is_keyword(int token, PLN_YYSTYPE *lval,
						   int kw_token, const char *kw_str);
static DeclHeader end_of_declarations(char *label, bool has_decls);
}

%union
{
	char	   *str;
	const char *keyword;
	PlnWord		word;
	PlnCWord	cword;
	PlnWDatum	wdatum;
	bool		boolean;
	int			ival;
	Oid			oid;
	struct
	{
		char	   *name;
		int			lineno;
	}			varname;
	struct
	{
		char	   *name;
		int			lineno;
		PlnDatum   *scalar;
		PlnDatum   *row;
	}			forvariable;
	DeclHeader	declhdr;
	LoopBody	loop_body;
	List	   *list;
	PlnType    *dtype;
	PlnDatum   *datum;
	PlnVar	   *var;
	PlnExpr    *expr;
	PlnStmt    *stmt;
	PlnCondition *condition;
	PlnExceptionAction *exception;
	PlnExceptionBlock *exception_block;
	PlnNsItem  *nsitem;
	PlnIfElsif *elsif;
	PlnCaseWhen *casewhen;
	PlnDiagItem *diagitem;
	PlnStmtFetch *fetch;
}

%type <declhdr> decl_sect
%type <varname> decl_varname
%type <boolean> decl_const decl_notnull exit_type
%type <expr>	decl_defval
%type <dtype>	decl_datatype
%type <oid>		decl_collate
%type <nsitem>	decl_aliasitem

%type <expr>	expr_until_semi
%type <expr>	expr_until_then expr_until_loop opt_expr_until_when
%type <expr>	opt_exitcond

%type <var>		cursor_variable
%type <stmt>	for_control
%type <forvariable>	for_variable

%type <str>		any_identifier opt_block_label opt_loop_label opt_label
%type <str>		option_value

%type <list>	proc_sect stmt_elsifs stmt_else
%type <loop_body>	loop_body
%type <stmt>	proc_stmt pl_block
%type <stmt>	stmt_assign stmt_if stmt_loop stmt_while stmt_exit
%type <stmt>	stmt_return stmt_raise stmt_assert stmt_execsql
%type <stmt>	stmt_dynexecute stmt_for stmt_perform stmt_call stmt_getdiag
%type <stmt>	stmt_open stmt_fetch stmt_move stmt_close stmt_null
%type <stmt>	stmt_commit stmt_rollback
%type <stmt>	stmt_case stmt_foreach_a

%type <list>	proc_exceptions
%type <exception_block> exception_sect
%type <exception>	proc_exception
%type <condition>	proc_conditions proc_condition

%type <casewhen>	case_when
%type <list>	case_when_list opt_case_else

%type <ival>	opt_scrollable foreach_slice
%type <datum>	decl_cursor_args
%type <list>	decl_cursor_arglist
%type <datum>	decl_cursor_arg
%type <expr>	decl_cursor_query
%type <fetch>	opt_fetch_direction

%type <boolean>	getdiag_area_opt opt_transaction_chain
%type <list>	getdiag_list
%type <diagitem>	getdiag_list_item
%type <ival>	getdiag_item getdiag_target

%type <keyword>	unreserved_keyword

/*
 * Tokens produced by the raw SQL-like scanner in scan.l: identifiers,
 * literals, parameters and multi-character operators.  They come before
 * the keywords in this file, which gives them the lowest token numbers.
 */
%token <str>	IDENT UIDENT FCONST SCONST USCONST BCONST XCONST Op
%token <str>	ICONST PARAM
%token			TYPECAST DOT_DOT COLON_EQUALS EQUALS_GREATER
%token			LESS_EQUALS GREATER_EQUALS NOT_EQUALS

/*
 * Tokens made by the name-resolving layer of scan.l (pln_yylex)
 */
%token <word>		T_WORD		/* a name that is no variable of ours */
%token <cword>		T_CWORD		/* a dotted name that is no variable */
%token <wdatum>		T_DATUM		/* a name that denotes one of our datums */
%token				LESS_LESS
%token				GREATER_GREATER

/*
 * PL keywords.  The two keyword tables in scan.l say which of them are
 * reserved; the unreserved ones are also listed in unreserved_keyword at
 * the end of the rules.
 */
%token <keyword>	K_ABSOLUTE
%token <keyword>	K_ALIAS
%token <keyword>	K_ALL
%token <keyword>	K_AND
%token <keyword>	K_ARRAY
%token <keyword>	K_ASSERT
%token <keyword>	K_BACKWARD
%token <keyword>	K_BEGIN
%token <keyword>	K_BY
%token <keyword>	K_CALL
%token <keyword>	K_CASE
%token <keyword>	K_CHAIN
%token <keyword>	K_CLOSE
%token <keyword>	K_COLLATE
%token <keyword>	K_COLUMN
%token <keyword>	K_COLUMN_NAME
%token <keyword>	K_COMMIT
%token <keyword>	K_CONSTANT
%token <keyword>	K_CONSTRAINT
%token <keyword>	K_CONSTRAINT_NAME
%token <keyword>	K_CONTINUE
%token <keyword>	K_CURRENT
%token <keyword>	K_CURSOR
%token <keyword>	K_DATATYPE
%token <keyword>	K_DEBUG
%token <keyword>	K_DECLARE
%token <keyword>	K_DEFAULT
%token <keyword>	K_DETAIL
%token <keyword>	K_DIAGNOSTICS
%token <keyword>	K_DO
%token <keyword>	K_DUMP
%token <keyword>	K_ELSE
%token <keyword>	K_ELSIF
%token <keyword>	K_END
%token <keyword>	K_ERRCODE
%token <keyword>	K_ERROR
%token <keyword>	K_EXCEPTION
%token <keyword>	K_EXECUTE
%token <keyword>	K_EXIT
%token <keyword>	K_FETCH
%token <keyword>	K_FIRST
%token <keyword>	K_FOR
%token <keyword>	K_FOREACH
%token <keyword>	K_FORWARD
%token <keyword>	K_FROM
%token <keyword>	K_GET
%token <keyword>	K_HINT
%token <keyword>	K_IF
%token <keyword>	K_IMPORT
%token <keyword>	K_IN
%token <keyword>	K_INFO
%token <keyword>	K_INSERT
%token <keyword>	K_INTO
%token <keyword>	K_IS
%token <keyword>	K_LAST
%token <keyword>	K_LOG
%token <keyword>	K_LOOP
%token <keyword>	K_MERGE
%token <keyword>	K_MESSAGE
%token <keyword>	K_MESSAGE_TEXT
%token <keyword>	K_MOVE
%token <keyword>	K_NEXT
%token <keyword>	K_NO
%token <keyword>	K_NOT
%token <keyword>	K_NOTICE
%token <keyword>	K_NULL
%token <keyword>	K_OPEN
%token <keyword>	K_OPTION
%token <keyword>	K_OR
%token <keyword>	K_PERFORM
%token <keyword>	K_PG_CONTEXT
%token <keyword>	K_PG_DATATYPE_NAME
%token <keyword>	K_PG_EXCEPTION_CONTEXT
%token <keyword>	K_PG_EXCEPTION_DETAIL
%token <keyword>	K_PG_EXCEPTION_HINT
%token <keyword>	K_PRINT_STRICT_PARAMS
%token <keyword>	K_PRIOR
%token <keyword>	K_QUERY
%token <keyword>	K_RAISE
%token <keyword>	K_RELATIVE
%token <keyword>	K_RETURN
%token <keyword>	K_RETURNED_SQLSTATE
%token <keyword>	K_REVERSE
%token <keyword>	K_ROLLBACK
%token <keyword>	K_ROW_COUNT
%token <keyword>	K_ROWTYPE
%token <keyword>	K_SCHEMA
%token <keyword>	K_SCHEMA_NAME
%token <keyword>	K_SCROLL
%token <keyword>	K_SLICE
%token <keyword>	K_SQLSTATE
%token <keyword>	K_STACKED
%token <keyword>	K_STRICT
%token <keyword>	K_TABLE
%token <keyword>	K_TABLE_NAME
%token <keyword>	K_THEN
%token <keyword>	K_TO
%token <keyword>	K_TYPE
%token <keyword>	K_USE_COLUMN
%token <keyword>	K_USE_VARIABLE
%token <keyword>	K_USING
%token <keyword>	K_VARIABLE_CONFLICT
%token <keyword>	K_WARNING
%token <keyword>	K_WHEN
%token <keyword>	K_WHILE

%%

pl_function		: comp_options pl_block opt_semi
					{
						pln_parse_result = (PlnStmtBlock *) $2;
					}
				;

comp_options	:
				| comp_options comp_option
				;

comp_option		: '#' K_OPTION K_DUMP
					{
						pln_DumpExecTree = true;
					}
				| '#' K_PRINT_STRICT_PARAMS option_value
					{
						if (strcmp($3, "on") == 0)
							pln_curr_compile->print_strict_params = true;
						else if (strcmp($3, "off") == 0)
							pln_curr_compile->print_strict_params = false;
						else
							elog(ERROR, "unrecognized print_strict_params option %s", $3);
					}
				| '#' K_VARIABLE_CONFLICT K_ERROR
					{
						pln_curr_compile->resolve_option = PLN_RESOLVE_ERROR;
					}
				| '#' K_VARIABLE_CONFLICT K_USE_VARIABLE
					{
						pln_curr_compile->resolve_option = PLN_RESOLVE_VARIABLE;
					}
				| '#' K_VARIABLE_CONFLICT K_USE_COLUMN
					{
						pln_curr_compile->resolve_option = PLN_RESOLVE_COLUMN;
					}
				;

option_value : T_WORD
				{
					$$ = $1.ident;
				}
			 | unreserved_keyword
				{
					$$ = pstrdup($1);
				}

opt_semi		:
				| ';'
				;

pl_block		: decl_sect K_BEGIN proc_sect exception_sect K_END opt_label
					{
						PlnStmtBlock *new = palloc0(sizeof(PlnStmtBlock));

						new->cmd_type = PLN_STMT_BLOCK;
						new->lineno = pln_location_to_lineno(@2);
						new->stmtid = pln_next_stmtid();
						new->label = $1.label;
						new->n_initvars = $1.n_initvars;
						new->initvarnos = $1.initvarnos;
						new->body = $3;
						new->exceptions = $4;

						check_labels($1.label, $6, @6);
						pln_ns_pop();

						$$ = (PlnStmt *) new;
					}
				;


decl_sect		: opt_block_label
					{
						$$ = end_of_declarations($1, false);
					}
				| opt_block_label decl_start
					{
						$$ = end_of_declarations($1, false);
					}
				| opt_block_label decl_start decl_stmts
					{
						$$ = end_of_declarations($1, true);
					}
				;

decl_start		: K_DECLARE
					{
						/*
						 * Datums made before this point (arguments, loop
						 * variables, outer declarations) are not this
						 * block's to initialise.  The names that follow are
						 * being defined, so the scanner must not resolve
						 * them.
						 */
						add_initdatums(NULL);
						pln_IdentifierLookup = PLN_LOOKUP_DECLARE;
					}
				;

decl_stmts		: decl_stmts decl_stmt
				| decl_stmt
				;

decl_stmt		: decl_statement
				| K_DECLARE
					{
						/* a redundant DECLARE keyword is allowed */
					}
				| LESS_LESS any_identifier GREATER_GREATER
					{
						ereport(ERROR,
								(errcode(ERRCODE_SYNTAX_ERROR),
								 errmsg("block label must be placed before DECLARE, not after"),
								 pln_scanner_errposition(@1)));
					}
				;

decl_statement	: decl_varname decl_const decl_datatype decl_collate decl_notnull decl_defval
					{
						PlnVariable *var;

						/* a COLLATE clause overrides the type's collation */
						if (OidIsValid($4))
						{
							if (!OidIsValid($3->collation))
								ereport(ERROR,
										(errcode(ERRCODE_DATATYPE_MISMATCH),
										 errmsg("collations are not supported by type %s",
												format_type_be($3->typoid)),
										 pln_scanner_errposition(@4)));
							$3->collation = $4;
						}

						var = pln_build_variable($1.name, $1.lineno, $3, true);
						var->isconst = $2;
						var->notnull = $5;
						var->default_val = $6;
						/* (planned as an assignment's source) */
						if ($6 != NULL)
							$6->assigned = true;

						/*
						 * A NOT NULL variable would start out NULL without
						 * a default, so such a declaration is an error now
						 * rather than at every block entry.
						 */
						if (var->notnull && !var->default_val)
							ereport(ERROR,
									(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
									 errmsg("variable \"%s\" must have a default value, since it's declared NOT NULL",
											var->refname),
									 pln_scanner_errposition(@5)));
					}
				| decl_varname K_ALIAS K_FOR decl_aliasitem ';'
					{
						pln_ns_additem($4->itemtype, $4->itemno, $1.name);
					}
				| decl_varname opt_scrollable K_CURSOR
					{
						/* the arguments get a namespace level of their own */
						pln_ns_push($1.name, PLN_LABEL_OTHER);
					}
				  decl_cursor_args decl_is_for decl_cursor_query
					{
						PlnVar	   *cursor;

						pln_ns_pop();

						cursor = (PlnVar *)
							pln_build_variable($1.name, $1.lineno,
											   pln_build_datatype(REFCURSOROID, -1,
																  InvalidOid, NULL),
											   true);
						/*
						 * Up to 15 the portal is named after the variable by
						 * default; from 16 on the variable starts out null,
						 * and OPEN names the portal as for an unbound cursor.
						 */
						if (PLN_BOUND_CURSOR_NAMED_AFTER_VARIABLE)
						{
							cursor->default_val = cursor_name_default(cursor->refname);
							cursor->default_val->assigned = true;
						}
						cursor->cursor_explicit_expr = $7;
						cursor->cursor_explicit_argrow = $5 ? $5->dno : -1;
						cursor->cursor_options = CURSOR_OPT_FAST_PLAN | $2;
					}
				;

opt_scrollable :
					{ $$ = 0; }
				| K_NO K_SCROLL
					{ $$ = CURSOR_OPT_NO_SCROLL; }
				| K_SCROLL
					{ $$ = CURSOR_OPT_SCROLL; }
				;

decl_cursor_args :
					{ $$ = NULL; }
				| '(' decl_cursor_arglist ')'
					{
						PlnRow	   *row = palloc0(sizeof(PlnRow));
						ListCell   *lc;
						int			i = 0;

						/* a row of the argument variables: OPEN assigns it */
						row->dtype = PLN_DTYPE_ROW;
						row->refname = "(unnamed row)";
						row->lineno = pln_location_to_lineno(@1);
						row->nfields = list_length($2);
						row->fieldnames = palloc(sizeof(char *) * row->nfields);
						row->varnos = palloc(sizeof(int) * row->nfields);
						foreach(lc, $2)
						{
							PlnVariable *arg = (PlnVariable *) lfirst(lc);

							row->fieldnames[i] = arg->refname;
							row->varnos[i] = arg->dno;
							i++;
						}
						pln_add_datum((PlnDatum *) row);
						$$ = (PlnDatum *) row;
					}
				;

decl_cursor_arglist : decl_cursor_arg
					{ $$ = list_make1($1); }
				| decl_cursor_arglist ',' decl_cursor_arg
					{ $$ = lappend($1, $3); }
				;

decl_cursor_arg : decl_varname decl_datatype
					{
						$$ = (PlnDatum *) pln_build_variable($1.name, $1.lineno,
															 $2, true);
					}
				;

decl_is_for		: K_IS
				| K_FOR
				;

decl_cursor_query :
					{
						$$ = read_sql_construct(';', 0, 0, ";",
												RAW_PARSE_DEFAULT,
												false, true, NULL, NULL);
					}
				;

decl_aliasitem	: T_WORD
					{
						$$ = alias_target(list_make1(makeString($1.ident)),
										  $1.ident, @1);
					}
				| unreserved_keyword
					{
						$$ = alias_target(list_make1(makeString(pstrdup($1))),
										  $1, @1);
					}
				| T_CWORD
					{
						$$ = alias_target($1.idents, name_of_cword(&$1), @1);
					}
				;

decl_varname	: T_WORD
					{
						$$.name = $1.ident;
						$$.lineno = pln_location_to_lineno(@1);
						check_name_is_new($$.name, @1);
					}
				| unreserved_keyword
					{
						$$.name = pstrdup($1);
						$$.lineno = pln_location_to_lineno(@1);
						check_name_is_new($$.name, @1);
					}
				;

decl_const		:
					{ $$ = false; }
				| K_CONSTANT
					{ $$ = true; }
				;

decl_datatype	:
					{
						/*
						 * The type is read by hand.  Bison may already have
						 * fetched its first token as look-ahead: hand that
						 * over and drop it from the parser's state.
						 */
						$$ = read_datatype(yychar);
						yyclearin;
					}
				;

decl_collate	:
					{ $$ = InvalidOid; }
				| K_COLLATE T_WORD
					{
						$$ = get_collation_oid(list_make1(makeString($2.ident)),
											   false);
					}
				| K_COLLATE unreserved_keyword
					{
						$$ = get_collation_oid(list_make1(makeString(pstrdup($2))),
											   false);
					}
				| K_COLLATE T_CWORD
					{
						$$ = get_collation_oid($2.idents, false);
					}
				;

decl_notnull	:
					{ $$ = false; }
				| K_NOT K_NULL
					{ $$ = true; }
				;

decl_defval		: ';'
					{ $$ = NULL; }
				| decl_defkey
					{
						$$ = read_sql_expression(';', ";");
					}
				;

decl_defkey		: assign_operator
				| K_DEFAULT
				;

assign_operator	: '='
				| COLON_EQUALS
				;

proc_sect		:
					{ $$ = NIL; }
				| proc_sect proc_stmt
					{
						/* NULL; makes no node, so there is nothing to add */
						$$ = ($2 != NULL) ? lappend($1, $2) : $1;
					}
				;

proc_stmt		: pl_block ';'
						{ $$ = $1; }
				| stmt_assign
						{ $$ = $1; }
				| stmt_if
						{ $$ = $1; }
				| stmt_case
						{ $$ = $1; }
				| stmt_loop
						{ $$ = $1; }
				| stmt_while
						{ $$ = $1; }
				| stmt_for
						{ $$ = $1; }
				| stmt_foreach_a
						{ $$ = $1; }
				| stmt_exit
						{ $$ = $1; }
				| stmt_return
						{ $$ = $1; }
				| stmt_raise
						{ $$ = $1; }
				| stmt_assert
						{ $$ = $1; }
				| stmt_execsql
						{ $$ = $1; }
				| stmt_dynexecute
						{ $$ = $1; }
				| stmt_perform
						{ $$ = $1; }
				| stmt_call
						{ $$ = $1; }
				| stmt_getdiag
						{ $$ = $1; }
				| stmt_open
						{ $$ = $1; }
				| stmt_fetch
						{ $$ = $1; }
				| stmt_move
						{ $$ = $1; }
				| stmt_close
						{ $$ = $1; }
				| stmt_null
						{ $$ = $1; }
				| stmt_commit
						{ $$ = $1; }
				| stmt_rollback
						{ $$ = $1; }
				;

stmt_perform	: K_PERFORM
					{
						PlnStmtPerform *new;
						int			startloc;

						new = palloc0(sizeof(PlnStmtPerform));
						new->cmd_type = PLN_STMT_PERFORM;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						pln_push_back_token(K_PERFORM);

						/*
						 * PERFORM is not SQL: the text is read with it and
						 * the word is then replaced by SELECT, which is one
						 * character shorter; the syntax check therefore
						 * starts one character later.
						 */
						new->expr = read_sql_construct(';', 0, 0, ";",
													   RAW_PARSE_DEFAULT,
													   false, false,
													   &startloc, NULL);
						memmove(new->expr->query, "SELECT", 6);
						memmove(new->expr->query + 6, new->expr->query + 7,
								strlen(new->expr->query + 7) + 1);
						new->expr->location = startloc + 1;
						check_sql_expr(new->expr->query, new->expr->parseMode,
									   startloc + 1);
						$$ = (PlnStmt *) new;
					}
				;

stmt_call		: K_CALL
					{
						pln_push_back_token(K_CALL);
						$$ = make_call_stmt(@1, false);
					}
				| K_DO
					{
						pln_push_back_token(K_DO);
						$$ = make_call_stmt(@1, true);
					}
				;

stmt_assign		: T_DATUM
					{
						PlnStmtAssign *new;
						RawParseMode pmode = assign_parse_mode(&$1);

						check_assignable($1.datum, @1);
						new = palloc0(sizeof(PlnStmtAssign));
						new->cmd_type = PLN_STMT_ASSIGN;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->varno = $1.datum->dno;
						/* the target is part of the statement's text */
						pln_push_back_token(T_DATUM);
						new->expr = read_sql_construct(';', 0, 0, ";",
													   pmode,
													   false, true,
													   NULL, NULL);
						new->expr->target_param = new->varno;
						new->expr->assigned = true;

						$$ = (PlnStmt *) new;
					}
				;

stmt_getdiag	: K_GET getdiag_area_opt K_DIAGNOSTICS getdiag_list ';'
					{
						PlnStmtGetDiag *new;
						ListCell   *lc;

						new = palloc0(sizeof(PlnStmtGetDiag));
						new->cmd_type = PLN_STMT_GETDIAG;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->is_stacked = $2;
						new->diag_items = $4;

						/* ROW_COUNT is about the last command, the error
						 * fields about the caught error: each fits only one
						 * kind; PG_CONTEXT fits both */
						foreach(lc, new->diag_items)
						{
							PlnDiagItem *item = (PlnDiagItem *) lfirst(lc);
							bool		current_only = (item->kind == PLN_DIAG_ROW_COUNT ||
															item->kind == PLN_DIAG_ROUTINE_OID);
							bool		stacked_only = (!current_only &&
														item->kind != PLN_DIAG_CONTEXT);

							if (new->is_stacked && current_only)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("diagnostics item %s is not allowed in GET STACKED DIAGNOSTICS",
												pln_diag_kind_name(item->kind)),
										 pln_scanner_errposition(@1)));
							if (!new->is_stacked && stacked_only)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("diagnostics item %s is not allowed in GET CURRENT DIAGNOSTICS",
												pln_diag_kind_name(item->kind)),
										 pln_scanner_errposition(@1)));
						}

						$$ = (PlnStmt *) new;
					}
				;

getdiag_area_opt :
					{ $$ = false; }
				| K_CURRENT
					{ $$ = false; }
				| K_STACKED
					{ $$ = true; }
				;

getdiag_list	: getdiag_list ',' getdiag_list_item
					{ $$ = lappend($1, $3); }
				| getdiag_list_item
					{ $$ = list_make1($1); }
				;

getdiag_list_item : getdiag_target assign_operator getdiag_item
					{
						PlnDiagItem *new = palloc(sizeof(PlnDiagItem));

						new->target = $1;
						new->kind = $3;
						$$ = new;
					}
				;

/* the item names are unreserved words: compare the token read */
getdiag_item	:
					{
						static const struct
						{
							int			token;
							const char *word;
							PlnDiagKind kind;
						}			items[] = {
							{K_ROW_COUNT, "row_count", PLN_DIAG_ROW_COUNT},
							{K_PG_CONTEXT, "pg_context", PLN_DIAG_CONTEXT},
							{K_PG_EXCEPTION_DETAIL, "pg_exception_detail", PLN_DIAG_ERROR_DETAIL},
							{K_PG_EXCEPTION_HINT, "pg_exception_hint", PLN_DIAG_ERROR_HINT},
							{K_PG_EXCEPTION_CONTEXT, "pg_exception_context", PLN_DIAG_ERROR_CONTEXT},
							{K_COLUMN_NAME, "column_name", PLN_DIAG_COLUMN_NAME},
							{K_CONSTRAINT_NAME, "constraint_name", PLN_DIAG_CONSTRAINT_NAME},
							{K_PG_DATATYPE_NAME, "pg_datatype_name", PLN_DIAG_DATATYPE_NAME},
							{K_MESSAGE_TEXT, "message_text", PLN_DIAG_MESSAGE_TEXT},
							{K_TABLE_NAME, "table_name", PLN_DIAG_TABLE_NAME},
							{K_SCHEMA_NAME, "schema_name", PLN_DIAG_SCHEMA_NAME},
							{K_RETURNED_SQLSTATE, "returned_sqlstate", PLN_DIAG_RETURNED_SQLSTATE},
						};
						int			tok = yylex();
						int			i;

						/*
						 * PG_ROUTINE_OID (16 on): an unreserved keyword in
						 * PL/pgSQL, so here a word, or the name of a
						 * variable, spelled so.
						 */
						if (PLN_HAS_PG_ROUTINE_OID &&
							((tok == T_WORD && !yylval.word.quoted &&
							  strcmp(yylval.word.ident, "pg_routine_oid") == 0) ||
							 tok_is_keyword(tok, &yylval, -1, "pg_routine_oid")))
							$$ = PLN_DIAG_ROUTINE_OID;
						else
						{
							for (i = 0; i < lengthof(items); i++)
							{
								if (tok_is_keyword(tok, &yylval,
												   items[i].token, items[i].word))
									break;
							}
							if (i == lengthof(items))
								yyerror("unrecognized GET DIAGNOSTICS item");
							$$ = items[i].kind;
						}
					}
				;

getdiag_target	: T_DATUM
					{
						PlnDatum   *datum = $1.datum;

						/* only a whole scalar variable can receive an item */
						if (datum->dtype == PLN_DTYPE_ROW ||
							datum->dtype == PLN_DTYPE_REC ||
							pln_peek() == '[')
							ereport(ERROR,
									(errcode(ERRCODE_SYNTAX_ERROR),
									 errmsg("\"%s\" is not a scalar variable",
											NameOfDatum(&($1))),
									 pln_scanner_errposition(@1)));
						check_assignable(datum, @1);
						$$ = datum->dno;
					}
				| T_WORD
					{
						word_is_not_variable(&($1), @1);
					}
				| T_CWORD
					{
						cword_is_not_variable(&($1), @1);
					}
				;

stmt_if			: K_IF expr_until_then proc_sect stmt_elsifs stmt_else K_END K_IF ';'
					{
						PlnStmtIf  *new;

						new = palloc0(sizeof(PlnStmtIf));
						new->cmd_type = PLN_STMT_IF;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->cond = $2;
						new->then_body = $3;
						new->elsif_list = $4;
						new->else_body = $5;

						$$ = (PlnStmt *) new;
					}
				;

stmt_elsifs		:
					{
						$$ = NIL;
					}
				| stmt_elsifs K_ELSIF expr_until_then proc_sect
					{
						PlnIfElsif *new;

						new = palloc0(sizeof(PlnIfElsif));
						new->lineno = pln_location_to_lineno(@2);
						new->cond = $3;
						new->stmts = $4;

						$$ = lappend($1, new);
					}
				;

stmt_else		:
					{
						$$ = NIL;
					}
				| K_ELSE proc_sect
					{
						$$ = $2;
					}
				;

stmt_case		: K_CASE opt_expr_until_when case_when_list opt_case_else K_END K_CASE ';'
					{
						$$ = make_case(@1, $2, $3, $4);
					}
				;

opt_expr_until_when	:
					{
						PlnExpr    *expr = NULL;
						int			tok = yylex();

						if (tok != K_WHEN)
						{
							pln_push_back_token(tok);
							expr = read_sql_expression(K_WHEN, "WHEN");
						}
						pln_push_back_token(K_WHEN);
						$$ = expr;
					}
				;

case_when_list	: case_when_list case_when
					{
						$$ = lappend($1, $2);
					}
				| case_when
					{
						$$ = list_make1($1);
					}
				;

case_when		: K_WHEN expr_until_then proc_sect
					{
						PlnCaseWhen *new = palloc(sizeof(PlnCaseWhen));

						new->lineno = pln_location_to_lineno(@1);
						new->expr = $2;
						new->stmts = $3;
						$$ = new;
					}
				;

opt_case_else	:
					{
						$$ = NIL;
					}
				| K_ELSE proc_sect
					{
						/*
						 * NIL stands for "no ELSE", so an ELSE with no
						 * statements is passed on as a one-element list
						 * holding NULL; make_case turns it back into NIL.
						 */
						$$ = ($2 != NIL) ? $2 : list_make1(NULL);
					}
				;

stmt_loop		: opt_loop_label K_LOOP loop_body
					{
						PlnStmtLoop *new;

						new = palloc0(sizeof(PlnStmtLoop));
						new->cmd_type = PLN_STMT_LOOP;
						new->lineno = pln_location_to_lineno(@2);
						new->stmtid = pln_next_stmtid();
						new->label = $1;
						new->body = $3.stmts;

						check_labels($1, $3.end_label, $3.end_label_location);
						pln_ns_pop();

						$$ = (PlnStmt *) new;
					}
				;

stmt_while		: opt_loop_label K_WHILE expr_until_loop loop_body
					{
						PlnStmtWhile *new;

						new = palloc0(sizeof(PlnStmtWhile));
						new->cmd_type = PLN_STMT_WHILE;
						new->lineno = pln_location_to_lineno(@2);
						new->stmtid = pln_next_stmtid();
						new->label = $1;
						new->cond = $3;
						new->body = $4.stmts;

						check_labels($1, $4.end_label, $4.end_label_location);
						pln_ns_pop();

						$$ = (PlnStmt *) new;
					}
				;

stmt_for		: opt_loop_label K_FOR for_control loop_body
					{
						/*
						 * for_control built the statement before the body
						 * was read; attach the body, label and line now.
						 */
						if ($3->cmd_type == PLN_STMT_FORI)
						{
							PlnStmtForI *new = (PlnStmtForI *) $3;

							new->lineno = pln_location_to_lineno(@2);
							new->label = $1;
							new->body = $4.stmts;
							$$ = (PlnStmt *) new;
						}
						else if ($3->cmd_type == PLN_STMT_FORC)
						{
							PlnStmtForC *new = (PlnStmtForC *) $3;

							new->lineno = pln_location_to_lineno(@2);
							new->label = $1;
							new->body = $4.stmts;
							$$ = (PlnStmt *) new;
						}
						else if ($3->cmd_type == PLN_STMT_DYNFORS)
						{
							PlnStmtDynForS *new = (PlnStmtDynForS *) $3;

							new->lineno = pln_location_to_lineno(@2);
							new->label = $1;
							new->body = $4.stmts;
							$$ = (PlnStmt *) new;
						}
						else
						{
							PlnStmtForS *new = (PlnStmtForS *) $3;

							new->lineno = pln_location_to_lineno(@2);
							new->label = $1;
							new->body = $4.stmts;
							$$ = (PlnStmt *) new;
						}

						check_labels($1, $4.end_label, $4.end_label_location);
						/* the loop's namespace level ends with the loop */
						pln_ns_pop();
					}
				;

for_control		: for_variable K_IN
					{
						int			tok = yylex();
						int			tokloc = yylloc;

						if (tok == K_EXECUTE)
						{
							PlnStmtDynForS *new;
							int			endtoken;

							/* the query first: its errors come before the target's */
							PlnExpr    *query = read_sql_expression2(K_LOOP, K_USING,
																	 "LOOP or USING",
																	 &endtoken);

							new = palloc0(sizeof(PlnStmtDynForS));
							new->cmd_type = PLN_STMT_DYNFORS;
							new->stmtid = pln_next_stmtid();
							if ($1.row)
							{
								new->var = (PlnVariable *) $1.row;
								check_assignable($1.row, @1);
							}
							else if ($1.scalar)
								new->var = (PlnVariable *)
									scalar_list1($1.name, $1.scalar,
												 $1.lineno, @1);
							else
								ereport(ERROR,
										(errcode(ERRCODE_DATATYPE_MISMATCH),
										 errmsg("loop variable of loop over rows must be a record variable or list of scalar variables"),
										 pln_scanner_errposition(@1)));

							new->query = query;
							while (endtoken == K_USING || endtoken == ',')
								new->params = lappend(new->params,
													  read_sql_expression2(',', K_LOOP,
																		   ", or LOOP",
																		   &endtoken));
							$$ = (PlnStmt *) new;
						}
						else if (tok == T_DATUM &&
								 yylval.wdatum.datum->dtype == PLN_DTYPE_VAR &&
								 ((PlnVar *) yylval.wdatum.datum)->datatype->typoid == REFCURSOROID)
						{
							PlnVar	   *cursor = (PlnVar *) yylval.wdatum.datum;
							PlnStmtForC *new;

							/* the loop gets a record variable of its own */
							if ($1.scalar && $1.row)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("cursor FOR loop must have only one target variable"),
										 pln_scanner_errposition(@1)));
							if (cursor->cursor_explicit_expr == NULL)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("cursor FOR loop must use a bound cursor variable"),
										 pln_scanner_errposition(tokloc)));

							new = palloc0(sizeof(PlnStmtForC));
							new->cmd_type = PLN_STMT_FORC;
							new->stmtid = pln_next_stmtid();
							new->curvar = cursor->dno;
							new->argquery = read_cursor_args(cursor, K_LOOP);
							new->var = pln_build_variable($1.name, $1.lineno,
														  pln_build_datatype(RECORDOID, -1,
																			 InvalidOid, NULL),
														  true);
							$$ = (PlnStmt *) new;
						}
						else
						{
							PlnExpr    *expr1;
							int			expr1loc;
							bool		reverse = false;

							/*
							 * Both "FOR i IN lo .. hi" and "FOR r IN
							 * query" are left: nothing in the first token
							 * tells them apart, since a query may start
							 * with any word (WITH, VALUES, TABLE, a
							 * parenthesis...).  REVERSE can only begin
							 * the integer form; otherwise the text is
							 * read up to ".." or LOOP, whichever comes
							 * first outside parentheses, and the one
							 * found decides.
							 */
							if (tok_is_keyword(tok, &yylval,
											   K_REVERSE, "reverse"))
								reverse = true;
							else
								pln_push_back_token(tok);

							/*
							 * Until we know which form this is, the text
							 * cannot be syntax-checked: it is either a
							 * lower bound (an expression) or a query.
							 */
							expr1 = read_sql_construct(DOT_DOT,
													   K_LOOP,
													   0,
													   "LOOP",
													   RAW_PARSE_DEFAULT,
													   true,
													   false,
													   &expr1loc,
													   &tok);

							if (tok == DOT_DOT)
							{
								/* ".." came first: an integer loop */
								PlnExpr    *expr2;
								PlnExpr    *expr_by;
								PlnVar	   *fvar;
								PlnStmtForI *new;

								/* the text read is the lower bound */
								expr1->parseMode = RAW_PARSE_PLPGSQL_EXPR;
								check_sql_expr(expr1->query, expr1->parseMode,
											   expr1loc);

								/* then the upper bound, maybe BY step */
								expr2 = read_sql_expression2(K_LOOP, K_BY,
															 "LOOP",
															 &tok);

								if (tok == K_BY)
									expr_by = read_sql_expression(K_LOOP,
																  "LOOP");
								else
									expr_by = NULL;

								/* "FOR a, b IN 1 .. 2" makes no sense */
								if ($1.scalar && $1.row)
									ereport(ERROR,
											(errcode(ERRCODE_SYNTAX_ERROR),
											 errmsg("integer FOR loop must have only one target variable"),
											 pln_scanner_errposition(@1)));

								/*
								 * The loop variable is a new integer local
								 * to the loop, whatever the name meant
								 * outside it.
								 */
								fvar = (PlnVar *)
									pln_build_variable($1.name,
													   $1.lineno,
													   pln_build_datatype(INT4OID,
																		  -1,
																		  InvalidOid,
																		  NULL),
													   true);

								new = palloc0(sizeof(PlnStmtForI));
								new->cmd_type = PLN_STMT_FORI;
								new->stmtid = pln_next_stmtid();
								new->var = fvar;
								new->reverse = reverse;
								new->lower = expr1;
								new->upper = expr2;
								new->step = expr_by;

								$$ = (PlnStmt *) new;
							}
							else
							{
								/* LOOP came first: a loop over a query */
								PlnStmtForS *new;

								if (reverse)
									ereport(ERROR,
											(errcode(ERRCODE_SYNTAX_ERROR),
											 errmsg("cannot specify REVERSE in query FOR loop"),
											 pln_scanner_errposition(tokloc)));

								/* the text read is the whole query */
								check_sql_expr(expr1->query, expr1->parseMode,
											   expr1loc);

								new = palloc0(sizeof(PlnStmtForS));
								new->cmd_type = PLN_STMT_FORS;
								new->stmtid = pln_next_stmtid();
								if ($1.row)
								{
									new->var = (PlnVariable *) $1.row;
									check_assignable($1.row, @1);
								}
								else if ($1.scalar)
								{
									/* one scalar: a row of one field */
									new->var = (PlnVariable *)
										scalar_list1($1.name, $1.scalar,
													 $1.lineno, @1);
								}
								else
								{
									ereport(ERROR,
											(errcode(ERRCODE_SYNTAX_ERROR),
											 errmsg("loop variable of loop over rows must be a record variable or list of scalar variables"),
											 pln_scanner_errposition(@1)));
								}

								new->query = expr1;
								$$ = (PlnStmt *) new;
							}
						}
					}
				;

/*
 * The target of a FOR loop is read before we know what kind of loop it
 * is.  An integer loop declares a fresh variable under the name, whether
 * or not the name already means something; a query loop stores into
 * existing variables.  So the name as written is always kept, along with
 * the datum it denotes, if any, and no check is made yet.
 *
 * A comma after the first name settles it: only a query loop has a list
 * of targets.  The list is then read and checked right away (an unknown
 * name in it is reported as such), and both scalar and row are set, which
 * for_control takes as "more than one target".
 */
for_variable	: T_DATUM
					{
						$$.name = NameOfDatum(&($1));
						$$.lineno = pln_location_to_lineno(@1);
						if ($1.datum->dtype == PLN_DTYPE_ROW ||
							$1.datum->dtype == PLN_DTYPE_REC)
						{
							$$.scalar = NULL;
							$$.row = $1.datum;
						}
						else
						{
							int			tok;

							$$.scalar = $1.datum;
							$$.row = NULL;
							/* a comma means a list of targets */
							tok = yylex();
							pln_push_back_token(tok);
							if (tok == ',')
								$$.row = (PlnDatum *)
									read_into_scalar_list($$.name,
														  $$.scalar,
														  @1);
						}
					}
				| T_WORD
					{
						int			tok;

						$$.name = $1.ident;
						$$.lineno = pln_location_to_lineno(@1);
						$$.scalar = NULL;
						$$.row = NULL;
						/* a list cannot start with an unknown name */
						tok = yylex();
						pln_push_back_token(tok);
						if (tok == ',')
							word_is_not_variable(&($1), @1);
					}
				| T_CWORD
					{
						/* say the name is unknown rather than "syntax error" */
						cword_is_not_variable(&($1), @1);
					}
				;

stmt_foreach_a	: opt_loop_label K_FOREACH for_variable foreach_slice K_IN K_ARRAY expr_until_loop loop_body
					{
						PlnStmtForeachA *new;

						new = palloc0(sizeof(PlnStmtForeachA));
						new->cmd_type = PLN_STMT_FOREACH_A;
						new->lineno = pln_location_to_lineno(@2);
						new->stmtid = pln_next_stmtid();
						new->label = $1;
						new->slice = $4;
						new->expr = $7;
						new->body = $8.stmts;

						/* a list of targets comes as a row */
						if ($3.row)
						{
							new->varno = $3.row->dno;
							check_assignable($3.row, @3);
						}
						else if ($3.scalar)
						{
							new->varno = $3.scalar->dno;
							check_assignable($3.scalar, @3);
						}
						else
							ereport(ERROR,
									(errcode(ERRCODE_SYNTAX_ERROR),
									 errmsg("loop variable of FOREACH must be a known variable or list of variables"),
									 pln_scanner_errposition(@3)));

						check_labels($1, $8.end_label, $8.end_label_location);
						pln_ns_pop();
						$$ = (PlnStmt *) new;
					}
				;

foreach_slice	:
					{ $$ = 0; }
				| K_SLICE ICONST
					{ $$ = pg_strtoint32($2); }
				;

stmt_exit		: exit_type opt_label opt_exitcond
					{
						PlnStmtExit *new;

						new = palloc0(sizeof(PlnStmtExit));
						new->cmd_type = PLN_STMT_EXIT;
						new->stmtid = pln_next_stmtid();
						new->is_exit = $1;
						new->lineno = pln_location_to_lineno(@1);
						new->label = $2;
						new->cond = $3;

						check_exit_target(new, @2, @1);

						$$ = (PlnStmt *) new;
					}
				;

exit_type		: K_EXIT
					{
						$$ = true;
					}
				| K_CONTINUE
					{
						$$ = false;
					}
				;

stmt_return		: K_RETURN
					{
						int			tok;

						tok = yylex();
						if (tok == 0)
							yyerror("unexpected end of function definition");

						if (tok_is_keyword(tok, &yylval,
										   K_NEXT, "next"))
						{
							$$ = make_return_next_stmt(@1);
						}
						else if (tok_is_keyword(tok, &yylval,
												K_QUERY, "query"))
						{
							$$ = make_return_query_stmt(@1);
						}
						else
						{
							pln_push_back_token(tok);
							$$ = make_return_stmt(@1);
						}
					}
				;

stmt_raise		: K_RAISE
					{
						PlnStmtRaise *new;
						int			tok;

						new = palloc0(sizeof(PlnStmtRaise));
						new->cmd_type = PLN_STMT_RAISE;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->elog_level = ERROR;

						tok = yylex();
						if (tok == 0)
							yyerror("unexpected end of function definition");

						/* a bare "RAISE;" re-throws the error being handled */
						if (tok != ';')
						{
							new->elog_level = read_raise_level(&tok);
							if (tok == 0)
								yyerror("unexpected end of function definition");

							tok = read_raise_body(new, tok);
							if (tok == K_USING)
								new->options = read_raise_options();
						}

						check_raise_parameters(new);

						$$ = (PlnStmt *) new;
					}
				;

stmt_assert		: K_ASSERT
					{
						PlnStmtAssert *new;
						int			tok;

						new = palloc0(sizeof(PlnStmtAssert));
						new->cmd_type = PLN_STMT_ASSERT;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();

						new->cond = read_sql_expression2(',', ';',
														 ", or ;",
														 &tok);

						if (tok == ',')
							new->message = read_sql_expression(';', ";");
						else
							new->message = NULL;

						$$ = (PlnStmt *) new;
					}
				;

loop_body		: proc_sect K_END K_LOOP opt_label ';'
					{
						$$.stmts = $1;
						$$.end_label = $4;
						$$.end_label_location = @4;
					}
				;

/*
 * A statement that starts with a word the grammar does not know is taken
 * to be SQL (SELECT, UPDATE, CREATE and so on are not PL keywords); a
 * dotted name too, and the SQL parser will judge it.  The exception is a
 * word followed by an assignment operator, '[' or '.': that is no SQL
 * statement but an assignment to something that is not a variable, and
 * saying so is more helpful than the syntax error SQL would give.
 */
stmt_execsql	: K_IMPORT
					{
						$$ = make_execsql_stmt(K_IMPORT, @1, NULL);
					}
				| K_INSERT
					{
						$$ = make_execsql_stmt(K_INSERT, @1, NULL);
					}
				| K_MERGE
					{
						$$ = make_execsql_stmt(K_MERGE, @1, NULL);
					}
				| T_WORD
					{
						if (next_token_makes_assignment())
							word_is_not_variable(&($1), @1);
						$$ = make_execsql_stmt(T_WORD, @1, &($1));
					}
				| T_CWORD
					{
						if (next_token_makes_assignment())
							cword_is_not_variable(&($1), @1);
						$$ = make_execsql_stmt(T_CWORD, @1, NULL);
					}
				;

stmt_dynexecute : K_EXECUTE
					{
						PlnStmtDynExecute *new;
						int			endtoken;

						new = palloc0(sizeof(PlnStmtDynExecute));
						new->cmd_type = PLN_STMT_DYNEXECUTE;
						new->query = read_sql_construct(K_INTO, K_USING, ';',
														"INTO or USING or ;",
														RAW_PARSE_PLPGSQL_EXPR,
														true, true,
														NULL, &endtoken);
						/*
						 * (after the query: "near line N" of a compile error
						 * names the last line looked up, as in PL/pgSQL)
						 */
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();

						/* INTO and USING may come in either order, once each */
						while (endtoken != ';')
						{
							if (endtoken == K_INTO && !new->into)
							{
								new->into = true;
								read_into_target(&new->target, &new->strict);
								endtoken = yylex();
							}
							else if (endtoken == K_USING && new->params == NIL)
							{
								do
								{
									PlnExpr    *param;

									param = read_sql_construct(',', ';', K_INTO,
															   ", or ; or INTO",
															   RAW_PARSE_PLPGSQL_EXPR,
															   true, true,
															   NULL, &endtoken);
									new->params = lappend(new->params, param);
								} while (endtoken == ',');
							}
							else
								yyerror("syntax error");
						}
						new->guarded_shape =
							(new->into && new->params == NIL &&
							 new->target->dtype == PLN_DTYPE_ROW) ?
							PLN_GUARDED_QUERY_UNKNOWN : PLN_GUARDED_QUERY_NEVER;

						$$ = (PlnStmt *) new;
					}
				;

stmt_open		: K_OPEN cursor_variable
					{
						PlnStmtOpen *new;

						new = palloc0(sizeof(PlnStmtOpen));
						new->cmd_type = PLN_STMT_OPEN;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->curvar = $2->dno;
						new->cursor_options = CURSOR_OPT_FAST_PLAN;

						if ($2->cursor_explicit_expr != NULL)
						{
							/* a bound cursor: only its arguments may follow */
							new->argquery = read_cursor_args($2, ';');
						}
						else
						{
							/* OPEN var [[NO] SCROLL] FOR query | FOR EXECUTE ... */
							int			tok = yylex();

							if (tok_is_keyword(tok, &yylval, K_NO, "no"))
							{
								tok = yylex();
								if (tok_is_keyword(tok, &yylval, K_SCROLL, "scroll"))
								{
									new->cursor_options |= CURSOR_OPT_NO_SCROLL;
									tok = yylex();
								}
							}
							else if (tok_is_keyword(tok, &yylval, K_SCROLL, "scroll"))
							{
								new->cursor_options |= CURSOR_OPT_SCROLL;
								tok = yylex();
							}

							if (tok != K_FOR)
								yyerror("syntax error, expected \"FOR\"");

							tok = yylex();
							if (tok == K_EXECUTE)
							{
								int			endtoken;

								new->dynquery = read_sql_expression2(K_USING, ';',
																	 "USING or ;",
																	 &endtoken);
								while (endtoken == K_USING || endtoken == ',')
									new->params = lappend(new->params,
														  read_sql_expression2(',', ';',
																			   ", or ;",
																			   &endtoken));
							}
							else
							{
								pln_push_back_token(tok);
								new->query = read_sql_construct(';', 0, 0, ";",
																RAW_PARSE_DEFAULT,
																false, true,
																NULL, NULL);
							}
						}

						$$ = (PlnStmt *) new;
					}
				;

stmt_fetch		: K_FETCH opt_fetch_direction cursor_variable K_INTO
					{
						PlnStmtFetch *fetch = $2;

						read_into_target(&fetch->target, NULL);

						if (yylex() != ';')
							yyerror("syntax error");

						/* INTO takes one row: a direction that may give more is refused */
						if (fetch->returns_multiple_rows)
							ereport(ERROR,
									(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
									 errmsg("FETCH statement cannot return multiple rows"),
									 pln_scanner_errposition(@1)));

						fetch->lineno = pln_location_to_lineno(@1);
						fetch->curvar = $3->dno;
						fetch->is_move = false;
						$$ = (PlnStmt *) fetch;
					}
				;

stmt_move		: K_MOVE opt_fetch_direction cursor_variable ';'
					{
						PlnStmtFetch *fetch = $2;

						fetch->lineno = pln_location_to_lineno(@1);
						fetch->curvar = $3->dno;
						fetch->is_move = true;
						$$ = (PlnStmt *) fetch;
					}
				;

opt_fetch_direction	:
					{
						$$ = read_fetch_direction();
					}
				;

stmt_close		: K_CLOSE cursor_variable ';'
					{
						PlnStmtClose *new;

						new = palloc0(sizeof(PlnStmtClose));
						new->cmd_type = PLN_STMT_CLOSE;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->curvar = $2->dno;
						$$ = (PlnStmt *) new;
					}
				;

stmt_null		: K_NULL ';'
					{
						/* nothing to run; proc_sect leaves it out */
						$$ = NULL;
					}
				;

stmt_commit		: K_COMMIT opt_transaction_chain ';'
					{
						PlnStmtCommit *new;

						new = palloc0(sizeof(PlnStmtCommit));
						new->cmd_type = PLN_STMT_COMMIT;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->chain = $2;
						$$ = (PlnStmt *) new;
					}
				;

stmt_rollback	: K_ROLLBACK opt_transaction_chain ';'
					{
						PlnStmtCommit *new;

						new = palloc0(sizeof(PlnStmtCommit));
						new->cmd_type = PLN_STMT_ROLLBACK;
						new->lineno = pln_location_to_lineno(@1);
						new->stmtid = pln_next_stmtid();
						new->chain = $2;
						$$ = (PlnStmt *) new;
					}
				;

opt_transaction_chain :
					{ $$ = false; }
				| K_AND K_CHAIN
					{ $$ = true; }
				| K_AND K_NO K_CHAIN
					{ $$ = false; }
				;

cursor_variable	: T_DATUM
					{
						/*
						 * Only a plain refcursor variable names a cursor;
						 * an element of a refcursor array does not.
						 */
						if ($1.datum->dtype != PLN_DTYPE_VAR ||
							pln_peek() == '[')
							ereport(ERROR,
									(errcode(ERRCODE_DATATYPE_MISMATCH),
									 errmsg("cursor variable must be a simple variable"),
									 pln_scanner_errposition(@1)));

						if (((PlnVar *) $1.datum)->datatype->typoid != REFCURSOROID)
							ereport(ERROR,
									(errcode(ERRCODE_DATATYPE_MISMATCH),
									 errmsg("variable \"%s\" must be of type cursor or refcursor",
											((PlnVar *) $1.datum)->refname),
									 pln_scanner_errposition(@1)));
						$$ = (PlnVar *) $1.datum;
					}
				| T_WORD
					{
						/* say the name is unknown rather than "syntax error" */
						word_is_not_variable(&($1), @1);
					}
				| T_CWORD
					{
						cword_is_not_variable(&($1), @1);
					}
				;

exception_sect	:
					{ $$ = NULL; }
				| K_EXCEPTION
					{
						/*
						 * SQLSTATE and SQLERRM enter the namespace before the
						 * WHEN clauses are read; they stay visible to the end
						 * of the block.  That is why this is a mid-rule
						 * action.
						 */
						int			lineno = pln_location_to_lineno(@1);
						PlnExceptionBlock *new = palloc(sizeof(PlnExceptionBlock));

						new->sqlstate_varno = make_handler_variable("sqlstate",
																	lineno);
						new->sqlerrm_varno = make_handler_variable("sqlerrm",
																   lineno);

						$<exception_block>$ = new;
					}
					proc_exceptions
					{
						PlnExceptionBlock *new = $<exception_block>2;

						new->actions = $3;

						$$ = new;
					}
				;

proc_exceptions	: proc_exceptions proc_exception
						{
							$$ = lappend($1, $2);
						}
				| proc_exception
						{
							$$ = list_make1($1);
						}
				;

proc_exception	: K_WHEN proc_conditions K_THEN proc_sect
					{
						PlnExceptionAction *new;

						new = palloc0(sizeof(PlnExceptionAction));
						new->lineno = pln_location_to_lineno(@1);
						new->conditions = $2;
						new->action = $4;

						$$ = new;
					}
				;

proc_conditions	: proc_conditions K_OR proc_condition
						{
							PlnCondition *last = $1;

							/* a name may stand for several conditions */
							while (last->next != NULL)
								last = last->next;
							last->next = $3;
							$$ = $1;
						}
				| proc_condition
						{
							$$ = $1;
						}
				;

proc_condition	: any_identifier
						{
							if (strcmp($1, "sqlstate") == 0)
							{
								char	   *code = read_sqlstate_literal();
								PlnCondition *new = palloc(sizeof(PlnCondition));

								new->sqlerrstate = MAKE_SQLSTATE(code[0], code[1],
																 code[2], code[3],
																 code[4]);
								new->condname = code;
								new->next = NULL;
								$$ = new;
							}
							else
								$$ = pln_parse_err_condition($1);
						}
				;

expr_until_semi :
					{ $$ = read_sql_expression(';', ";"); }
				;

expr_until_then :
					{ $$ = read_sql_expression(K_THEN, "THEN"); }
				;

expr_until_loop :
					{ $$ = read_sql_expression(K_LOOP, "LOOP"); }
				;

opt_block_label	:
					{
						pln_ns_push(NULL, PLN_LABEL_BLOCK);
						$$ = NULL;
					}
				| LESS_LESS any_identifier GREATER_GREATER
					{
						pln_ns_push($2, PLN_LABEL_BLOCK);
						$$ = $2;
					}
				;

opt_loop_label	:
					{
						pln_ns_push(NULL, PLN_LABEL_LOOP);
						$$ = NULL;
					}
				| LESS_LESS any_identifier GREATER_GREATER
					{
						pln_ns_push($2, PLN_LABEL_LOOP);
						$$ = $2;
					}
				;

opt_label	:
					{
						$$ = NULL;
					}
				| any_identifier
					{
						/* the rule using the label checks that it matches */
						$$ = $1;
					}
				;

opt_exitcond	: ';'
					{ $$ = NULL; }
				| K_WHEN expr_until_semi
					{ $$ = $2; }
				;

/*
 * A plain name, as a label or condition name.  The scanner turns a word
 * that is also a variable's name into T_DATUM; only the word counts here,
 * and a dotted name is not allowed.
 */
any_identifier	: T_WORD
					{
						$$ = $1.ident;
					}
				| unreserved_keyword
					{
						$$ = pstrdup($1);
					}
				| T_DATUM
					{
						if ($1.ident == NULL)
							yyerror("syntax error");
						$$ = $1.ident;
					}
				;

unreserved_keyword	:
				K_ABSOLUTE
				| K_ALIAS
				| K_AND
				| K_ARRAY
				| K_ASSERT
				| K_BACKWARD
				| K_CALL
				| K_CHAIN
				| K_CLOSE
				| K_COLLATE
				| K_COLUMN
				| K_COLUMN_NAME
				| K_COMMIT
				| K_CONSTANT
				| K_CONSTRAINT
				| K_CONSTRAINT_NAME
				| K_CONTINUE
				| K_CURRENT
				| K_CURSOR
				| K_DATATYPE
				| K_DEBUG
				| K_DEFAULT
				| K_DETAIL
				| K_DIAGNOSTICS
				| K_DO
				| K_DUMP
				| K_ELSIF
				| K_ERRCODE
				| K_ERROR
				| K_EXCEPTION
				| K_EXIT
				| K_FETCH
				| K_FIRST
				| K_FORWARD
				| K_GET
				| K_HINT
				| K_IMPORT
				| K_INFO
				| K_INSERT
				| K_IS
				| K_LAST
				| K_LOG
				| K_MERGE
				| K_MESSAGE
				| K_MESSAGE_TEXT
				| K_MOVE
				| K_NEXT
				| K_NO
				| K_NOTICE
				| K_OPEN
				| K_OPTION
				| K_PERFORM
				| K_PG_CONTEXT
				| K_PG_DATATYPE_NAME
				| K_PG_EXCEPTION_CONTEXT
				| K_PG_EXCEPTION_DETAIL
				| K_PG_EXCEPTION_HINT
				| K_PRINT_STRICT_PARAMS
				| K_PRIOR
				| K_QUERY
				| K_RAISE
				| K_RELATIVE
				| K_RETURN
				| K_RETURNED_SQLSTATE
				| K_REVERSE
				| K_ROLLBACK
				| K_ROW_COUNT
				| K_ROWTYPE
				| K_SCHEMA
				| K_SCHEMA_NAME
				| K_SCROLL
				| K_SLICE
				| K_SQLSTATE
				| K_STACKED
				| K_TABLE
				| K_TABLE_NAME
				| K_TYPE
				| K_USE_COLUMN
				| K_USE_VARIABLE
				| K_VARIABLE_CONFLICT
				| K_WARNING
				;

%%

/* A dotted name as messages show it: the parts joined by dots, unquoted */
static char *
name_of_cword_list(List *idents)
{
	return NameListToString(idents);
}

static char *
name_of_cword(PlnCWord *cword)
{
	return name_of_cword_list(cword->idents);
}


/*
 * Is the token the given keyword?  Unreserved keywords can come back as
 * T_DATUM when a variable has that name; the statement's position decides.
 * Only a single unquoted word can be the keyword then.
 */
static bool
tok_is_keyword(int token, PLN_YYSTYPE *lval,
			   int kw_token, const char *kw_str)
{
	const char *word;

	if (token == kw_token)
		return true;
	if (token != T_DATUM || lval->wdatum.quoted)
		return false;
	word = lval->wdatum.ident;
	return word != NULL && strcmp(word, kw_str) == 0;
}

static void
word_is_not_variable(PlnWord *word, int location)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("\"%s\" is not a known variable",
					word->ident),
			 pln_scanner_errposition(location)));
}

static void
cword_is_not_variable(PlnCWord *cword, int location)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("\"%s\" is not a known variable",
					name_of_cword(cword)),
			 pln_scanner_errposition(location)));
}

/* Complain about the current token, which should have been a variable */
static void
current_token_is_not_variable(int tok)
{
	if (tok == T_WORD)
		word_is_not_variable(&(yylval.word), yylloc);
	else if (tok == T_CWORD)
		cword_is_not_variable(&(yylval.cword), yylloc);
	else
		yyerror("syntax error");
}


/*
 * Collect the SQL text that runs up to the first of the tokens until,
 * until2 and until3 (0 for an unused one) met outside parentheses and
 * brackets.  The terminator is consumed but is not part of the text.
 *
 * The result remembers how the SQL parser is to read the text
 * (parsemode).  expected names the terminator in the error for a missing
 * one, and isexpression chooses between "expression" and "statement" in
 * messages.  The text is syntax-checked at once if valid_sql is set (and
 * checking is on at all, see check_sql_expr).  *startloc receives the
 * offset of the text's first token and *endtoken the terminator found,
 * for callers that pass them.
 */
static PlnExpr *
read_sql_construct(int until, int until2, int until3,
				   const char *expected, RawParseMode parsemode,
				   bool isexpression, bool valid_sql,
				   int *startloc, int *endtoken)
{
	PlnIdentifierLookup outer_lookup = pln_IdentifierLookup;
	StringInfoData text;
	int			first_loc = -1;
	int			end_loc = -1;
	int			depth = 0;
	int			tok;
	PlnExpr    *expr;

	/*
	 * Names inside SQL are left alone here: the SQL parser resolves them
	 * later through the hooks in compile.c.
	 */
	pln_IdentifierLookup = PLN_LOOKUP_EXPR;

	for (;;)
	{
		tok = yylex();
		if (first_loc < 0)
			first_loc = yylloc;

		/*
		 * A terminator only counts at nesting depth zero.  (At the end of
		 * the body tok is 0, which matches an unused terminator slot.)
		 */
		if (depth == 0 &&
			(tok == until || tok == until2 || tok == until3))
			break;
		end_loc = yylloc + pln_token_length();

		if (tok == '(' || tok == '[')
			depth++;
		else if ((tok == ')' || tok == ']') && --depth < 0)
			yyerror("mismatched parentheses");

		/*
		 * The body ended, or a ';' that is not the terminator showed up:
		 * the construct was not closed.
		 */
		if (tok == 0 || tok == ';')
		{
			if (depth != 0)
				yyerror("mismatched parentheses");
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 isexpression ?
					 errmsg("missing \"%s\" at end of SQL expression",
							expected) :
					 errmsg("missing \"%s\" at end of SQL statement",
							expected),
					 pln_scanner_errposition(yylloc)));
		}
	}

	pln_IdentifierLookup = outer_lookup;

	if (startloc != NULL)
		*startloc = first_loc;
	if (endtoken != NULL)
		*endtoken = tok;

	/* the terminator came first: there is no text at all */
	if (first_loc >= yylloc)
		yyerror(isexpression ? "missing expression" : "missing SQL statement");

	/*
	 * The text stops where its last token ends: a comment between it and
	 * the terminator is not part of it (callers put the text inside other
	 * SQL, as in "x IN (text)", where a trailing "--" comment would hide
	 * the rest).
	 */
	initStringInfo(&text);
	pln_append_source_text(&text, first_loc, end_loc);

	expr = make_plexpr(text.data, parsemode, first_loc);
	if (valid_sql)
		check_sql_expr(expr->query, expr->parseMode, first_loc);

	return expr;
}

static PlnExpr *
read_sql_expression(int until, const char *expected)
{
	return read_sql_construct(until, 0, 0, expected,
							  RAW_PARSE_PLPGSQL_EXPR,
							  true, true, NULL, NULL);
}

static PlnExpr *
read_sql_expression2(int until, int until2, const char *expected,
					 int *endtoken)
{
	return read_sql_construct(until, until2, 0, expected,
							  RAW_PARSE_PLPGSQL_EXPR,
							  true, true, NULL, endtoken);
}

/* A new expression node for the given SQL text */
static PlnExpr *
make_plexpr(char *query, RawParseMode mode, int location)
{
	PlnExpr    *expr = palloc0(sizeof(PlnExpr));

	expr->query = query;
	expr->parseMode = mode;
	expr->location = location;
	expr->ns = pln_ns_top();
	expr->func = pln_curr_compile;
	expr->target_param = -1;
	return expr;
}

/* ----------
 * Handing SQL text to the server's parser
 *
 * SQL text is a piece of the body, but the server's parser counts error
 * positions from the start of the piece.  While it runs, an error context
 * callback moves such a position to the same character in the body.
 * ----------
 */
typedef struct SqlErrorCallbackArg
{
	int			location;		/* byte offset of the text in the body */
} SqlErrorCallbackArg;

static void
sql_syntax_error_callback(void *arg)
{
	SqlErrorCallbackArg *cbarg = (SqlErrorCallbackArg *) arg;
	int			sqlpos = geterrposition();
	int			textpos;

	/* make the position of the text's start the internal position */
	pln_scanner_errposition(cbarg->location);

	/* both positions count characters from 1 */
	textpos = getinternalerrposition();
	if (sqlpos > 0 && textpos > 0)
		internalerrposition(textpos + sqlpos - 1);

	/* only the position inside the body is reported */
	errposition(0);
}

static void
push_sql_errcontext(ErrorContextCallback *cb, SqlErrorCallbackArg *cbarg,
					int location)
{
	cbarg->location = location;
	cb->callback = sql_syntax_error_callback;
	cb->arg = cbarg;
	cb->previous = error_context_stack;
	error_context_stack = cb;
}

static void
pop_sql_errcontext(ErrorContextCallback *cb)
{
	error_context_stack = cb->previous;
}

/*
 * Check the syntax of SQL text at the given offset of the body, when this
 * compilation checks syntax (validator, DO).  Only the raw parser runs:
 * nothing is looked up in the catalogs.
 */
static void
check_sql_expr(const char *stmt, RawParseMode parseMode, int location)
{
	SqlErrorCallbackArg cbarg;
	ErrorContextCallback errcb;
	MemoryContext oldcxt;

	if (!pln_check_syntax)
		return;

	push_sql_errcontext(&errcb, &cbarg, location);
	oldcxt = MemoryContextSwitchTo(pln_compile_tmp_cxt);
	(void) raw_parser(stmt, parseMode);
	MemoryContextSwitchTo(oldcxt);
	pop_sql_errcontext(&errcb);
}

/*
 * Parse a data type name, with errors pointing into the body.
 */
PlnType *
pln_parse_datatype(const char *string, int location)
{
	TypeName   *typeName;
	Oid			type_id;
	int32		typmod;
	SqlErrorCallbackArg cbarg;
	ErrorContextCallback errcb;

	push_sql_errcontext(&errcb, &cbarg, location);
	typeName = pln_type_string_to_type_name(string);
	typenameTypeIdAndMod(NULL, typeName, &type_id, &typmod);
	pop_sql_errcontext(&errcb);

	return pln_build_datatype(type_id, typmod,
							  pln_curr_compile->fn_input_collation,
							  typeName);
}

/*
 * name%TYPE for a single word: the type of a scalar variable of that
 * name, else of a data type of that name (neither a shell nor a row type).
 * NULL when the word is neither, or names some other kind of variable: the
 * caller then hands the whole text to the type-name parser, which rejects
 * the "%" as PostgreSQL's own parser would.
 */
static PlnType *
word_type(char *ident)
{
	PlnNsItem  *nsi;
	TypeName   *typeName;
	Type		typeTup;
	PlnType    *result = NULL;

	nsi = pln_ns_lookup(pln_ns_top(), false, ident, NULL, NULL, NULL);
	if (PLN_TYPE_OF_VARIABLES_ONLY)
	{
		/* 17 on: a scalar or a record variable, nothing else */
		if (nsi != NULL && nsi->itemtype == PLN_NS_VAR)
			return ((PlnVar *) pln_curr_compile->datums[nsi->itemno])->datatype;
		if (nsi != NULL && nsi->itemtype == PLN_NS_REC &&
			((PlnRec *) pln_curr_compile->datums[nsi->itemno])->datatype != NULL)
			return ((PlnRec *) pln_curr_compile->datums[nsi->itemno])->datatype;
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("variable \"%s\" does not exist", ident)));
	}
	if (nsi != NULL)
	{
		if (nsi->itemtype == PLN_NS_VAR)
			return ((PlnVar *) pln_curr_compile->datums[nsi->itemno])->datatype;
		return NULL;
	}

	typeName = makeTypeName(ident);
	typeTup = LookupTypeName(NULL, typeName, NULL, false);
	if (typeTup == NULL)
		return NULL;
	if (((Form_pg_type) GETSTRUCT(typeTup))->typisdefined &&
		!OidIsValid(((Form_pg_type) GETSTRUCT(typeTup))->typrelid))
		result = pln_build_datatype(typeTypeId(typeTup), -1,
									pln_curr_compile->fn_input_collation,
									typeName);
	ReleaseSysCache(typeTup);
	return result;
}

/*
 * a.b%TYPE and a.b.c%TYPE: a scalar variable qualified by its block label
 * (two parts only), else the column of a table, view, sequence, composite
 * type or foreign table found through the search path (a.b) or in schema
 * a (a.b.c).  NULL if there is none.
 */
static PlnType *
cword_type(List *idents)
{
	Oid			relid;
	char		relkind;
	AttrNumber	attnum;
	Oid			typid;
	int32		typmod;
	Oid			collid;

	if (list_length(idents) == 2)
	{
		PlnNsItem  *nsi = pln_ns_lookup(pln_ns_top(), false,
										strVal(linitial(idents)),
										strVal(lsecond(idents)),
										NULL, NULL);

		if (nsi != NULL && nsi->itemtype == PLN_NS_VAR)
			return ((PlnVar *) pln_curr_compile->datums[nsi->itemno])->datatype;
		if (PLN_TYPE_OF_VARIABLES_ONLY)
			return column_type_17(idents);
		relid = RelnameGetRelid(strVal(linitial(idents)));
	}
	else if (PLN_TYPE_OF_VARIABLES_ONLY)
		return column_type_17(idents);
	else if (list_length(idents) == 3)
		relid = RangeVarGetRelid(makeRangeVar(strVal(linitial(idents)),
											  strVal(lsecond(idents)), -1),
								 NoLock, true);
	else
		return NULL;
	if (!OidIsValid(relid))
		return NULL;

	relkind = get_rel_relkind(relid);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_SEQUENCE &&
		relkind != RELKIND_VIEW && relkind != RELKIND_MATVIEW &&
		relkind != RELKIND_COMPOSITE_TYPE &&
		relkind != RELKIND_FOREIGN_TABLE &&
		relkind != RELKIND_PARTITIONED_TABLE)
		return NULL;

	attnum = get_attnum(relid, strVal(llast(idents)));
	if (attnum == InvalidAttrNumber)
		return NULL;
	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
	return pln_build_datatype(typid, typmod, collid, NULL);
}

/*
 * 17's table.column%TYPE (and schema.table.column, catalog.schema.table.
 * column): the relation must exist and have the column, whatever kind of
 * relation it is; each is an error otherwise.  Before the relation,
 * label.rec%TYPE: a record variable qualified by its block's label.
 */
static PlnType *
column_type_17(List *idents)
{
	RangeVar   *relvar;
	const char *fldname = strVal(llast(idents));
	Oid			relid;
	AttrNumber	attnum;
	Oid			typid;
	int32		typmod;
	Oid			collid;

	if (list_length(idents) == 2)
	{
		PlnNsItem  *nsi;
		int			nnames;

		nsi = pln_ns_lookup(pln_ns_top(), false, strVal(linitial(idents)),
							strVal(lsecond(idents)), NULL, &nnames);
		if (nsi != NULL && nsi->itemtype == PLN_NS_REC && nnames == 2 &&
			((PlnRec *) pln_curr_compile->datums[nsi->itemno])->datatype != NULL)
			return ((PlnRec *) pln_curr_compile->datums[nsi->itemno])->datatype;
		relvar = makeRangeVar(NULL, strVal(linitial(idents)), -1);
	}
	else
		relvar = makeRangeVarFromNameList(list_copy_head(idents,
														 list_length(idents) - 1));
	relid = RangeVarGetRelid(relvar, NoLock, false);
	attnum = get_attnum(relid, fldname);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						fldname, relvar->relname)));
	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
	return pln_build_datatype(typid, typmod, collid, NULL);
}

/*
 * 17's %TYPE[] and %ROWTYPE[] (also ARRAY, and sizes, which are ignored
 * as everywhere): the array type of what was read.  An array stays
 * itself; typmod and collation carry over.
 */
static PlnType *
type_array_of(PlnType *elem)
{
	Oid			arraytype;

	if (elem->typisarray)
		return elem;
	arraytype = get_array_type(elem->typoid);
	if (!OidIsValid(arraytype))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("could not find array type for data type %s",
						format_type_be(elem->typoid))));
	return pln_build_datatype(arraytype, elem->atttypmod, elem->collation,
							  NULL);
}

/*
 * name%ROWTYPE and schema.name%ROWTYPE: the row type of a relation.  A
 * missing relation is an error; NULL (left to the type-name parser) for a
 * name of three or more parts.
 */
static PlnType *
rowtype_of(List *idents)
{
	Oid			relid;
	Oid			typid;

	if (list_length(idents) == 1)
	{
		relid = RelnameGetRelid(strVal(linitial(idents)));
		if (!OidIsValid(relid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation \"%s\" does not exist",
							strVal(linitial(idents)))));
	}
	else if (list_length(idents) == 2)
		relid = RangeVarGetRelid(makeRangeVar(strVal(linitial(idents)),
											  strVal(lsecond(idents)), -1),
								 NoLock, false);
	else if (PLN_TYPE_OF_VARIABLES_ONLY)
		relid = RangeVarGetRelid(makeRangeVarFromNameList(idents), NoLock, false);
	else
		return NULL;

	typid = get_rel_type_id(relid);
	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation \"%s\" does not have a composite type",
						strVal(llast(idents)))));
	return pln_build_datatype(typid, -1, InvalidOid,
							  makeTypeNameFromNameList(idents));
}

/*
 * After 17's name%TYPE or name%ROWTYPE: [ ARRAY ] [ '[' [ integer ] ']' ... ]
 * makes it the array type.
 */
static PlnType *
read_type_array_decoration(PlnType *type)
{
	bool		is_array = false;
	int			tok = yylex();

	if (tok_is_keyword(tok, &yylval, K_ARRAY, "array"))
	{
		is_array = true;
		tok = yylex();
	}
	while (tok == '[')
	{
		is_array = true;
		tok = yylex();
		if (tok == ICONST)
			tok = yylex();
		if (tok != ']')
			yyerror("syntax error, expected \"]\"");
		tok = yylex();
	}
	pln_push_back_token(tok);
	return is_array ? type_array_of(type) : type;
}

/*
 * Read a data type in a declaration, up to what can follow it.  tok is the
 * lookahead token if the grammar already read one, else YYEMPTY.
 */
static PlnType *
read_datatype(int tok)
{
	StringInfoData ds;
	char	   *type_name;
	int			startlocation;
	PlnType    *result;
	int			parenlevel = 0;

	/* only declarations have types, and there names are not looked up */
	Assert(pln_IdentifierLookup == PLN_LOOKUP_DECLARE);

	if (tok == PLN_YYEMPTY)
		tok = yylex();

	startlocation = yylloc;

	/*
	 * name%TYPE and name%ROWTYPE.  A name that is neither a variable, a
	 * type nor a column is not an error here: the type-name parser below
	 * then gets the whole text, and rejects the "%" as PostgreSQL's own
	 * parser would.
	 */
	if (tok == T_WORD || tok == T_CWORD || pln_token_is_unreserved_keyword(tok))
	{
		List	   *idents;

		if (tok == T_WORD)
			idents = list_make1(makeString(yylval.word.ident));
		else if (tok == T_CWORD)
			idents = yylval.cword.idents;
		else
			idents = list_make1(makeString(pstrdup(yylval.keyword)));

		tok = yylex();
		if (tok == '%')
		{
			tok = yylex();
			result = NULL;
			if (tok_is_keyword(tok, &yylval, K_TYPE, "type"))
				result = (list_length(idents) == 1) ?
					word_type(strVal(linitial(idents))) : cword_type(idents);
			else if (tok_is_keyword(tok, &yylval, K_ROWTYPE, "rowtype"))
				result = rowtype_of(idents);
			if (result != NULL && PLN_TYPE_OF_VARIABLES_ONLY)
				return read_type_array_decoration(result);
			if (result != NULL)
				return result;
		}
	}

	/*
	 * The type name ends where something that may follow it in a
	 * declaration begins: COLLATE, NOT NULL, the default, or the end of
	 * the declaration; at the outer level also ',' or ')', as in a list of
	 * cursor arguments.  Parentheses of typmods are skipped over.
	 */
	for (;;)
	{
		if (tok == ';' || tok == K_COLLATE || tok == K_NOT ||
			tok == '=' || tok == COLON_EQUALS || tok == K_DEFAULT)
			break;
		if (tok == 0)
			yyerror(parenlevel != 0 ? "mismatched parentheses" :
					"incomplete data type declaration");
		if (parenlevel == 0 && (tok == ',' || tok == ')'))
			break;
		if (tok == '(')
			parenlevel++;
		else if (tok == ')')
			parenlevel--;
		tok = yylex();
	}

	/*
	 * The text runs up to the next token, spaces included: PL/pgSQL's
	 * "invalid type name" context shows them.
	 */
	initStringInfo(&ds);
	pln_append_source_text(&ds, startlocation, yylloc);
	type_name = ds.data;

	if (type_name[0] == '\0')
		yyerror("missing data type declaration");

	result = pln_parse_datatype(type_name, startlocation);

	pln_push_back_token(tok);

	return result;
}

/*
 * An SQL statement, possibly with an INTO clause that names PL/nimble
 * variables.  The INTO clause is cut out of the text (replaced by spaces
 * so that error positions still line up).
 */
/*
 * The default value of a bound cursor variable: its own name, so that the
 * portal OPEN creates is called like the variable.
 */
static PlnExpr *
cursor_name_default(const char *name)
{
	StringInfoData buf;
	const char *cp;

	initStringInfo(&buf);
	/* an E'' literal, whatever standard_conforming_strings says later */
	if (strchr(name, '\\') != NULL)
		appendStringInfoChar(&buf, 'E');
	appendStringInfoChar(&buf, '\'');
	for (cp = name; *cp; cp++)
	{
		if (*cp == '\'' || *cp == '\\')
			appendStringInfoChar(&buf, *cp);
		appendStringInfoChar(&buf, *cp);
	}
	appendStringInfoString(&buf, "'::pg_catalog.refcursor");
	return make_plexpr(buf.data, RAW_PARSE_PLPGSQL_EXPR, -1);
}

/*
 * The name a token stands for, if it can name a cursor argument: a single
 * identifier, whether or not a variable or an unreserved keyword has that
 * name; a reserved keyword or a dotted name cannot.
 */
static const char *
token_as_name(int tok, PLN_YYSTYPE *lval)
{
	if (tok == T_WORD)
		return lval->word.ident;
	if (tok == T_DATUM)
		return lval->wdatum.ident;
	if (pln_token_is_unreserved_keyword(tok))
		return lval->keyword;
	return NULL;
}

/*
 * Read the argument list of a bound cursor, after OPEN cursor or FOR x IN
 * cursor, up to the until token.  Arguments may be given by position or by
 * name (name := value); they are put in declaration order
 * into one expression list, which OPEN evaluates into the cursor's
 * argument variables.  NULL for a cursor without arguments.
 */
static PlnExpr *
read_cursor_args(PlnVar *cursor, int until)
{
	PlnRow	   *row;
	char	  **values;
	bool		any_named = false;
	StringInfoData list;
	int			tok = yylex();
	int			n;
	int			i;

	if (cursor->cursor_explicit_argrow < 0)
	{
		if (tok == '(')
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("cursor \"%s\" has no arguments", cursor->refname),
					 pln_scanner_errposition(yylloc)));
		if (tok != until)
			yyerror("syntax error");
		return NULL;
	}

	if (tok != '(')
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("cursor \"%s\" has arguments", cursor->refname),
				 pln_scanner_errposition(yylloc)));

	row = (PlnRow *) pln_curr_compile->datums[cursor->cursor_explicit_argrow];
	values = palloc0(sizeof(char *) * row->nfields);

	for (n = 0; n < row->nfields; n++)
	{
		int			tok1;
		int			tok2;
		int			argloc;
		int			target = n;
		int			endtoken;
		PlnExpr    *value;

		/*
		 * PL/pgSQL reads two raw tokens here whatever the first is, so an
		 * error in scanning the second (trailing junk after a number) is
		 * raised before the argument is parsed, and one in scanning the
		 * token after an identifier is not: so here.  (Up to 17 only :=
		 * names a cursor argument; 18 also takes =>.)
		 */
		pln_peek2_raw(&tok1, &tok2, &argloc);
		if (tok1 == IDENT &&
			(tok2 == COLON_EQUALS ||
			 (PLN_CURSOR_ARGS_ARROW && tok2 == EQUALS_GREATER)))
		{
			const char *name = token_as_name(yylex(), &yylval);

			/* (an identifier lexes as a name) */
			if (name == NULL)
				yyerror("syntax error");

			/* name := value: find the argument by name */
			for (target = 0; target < row->nfields; target++)
			{
				if (strcmp(row->fieldnames[target], name) == 0)
					break;
			}
			if (target == row->nfields)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("cursor \"%s\" has no argument named \"%s\"",
								cursor->refname, name),
						 pln_scanner_errposition(yylloc)));
			(void) yylex();		/* the := or => */
			any_named = true;
		}

		if (values[target] != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("value for parameter \"%s\" of cursor \"%s\" specified more than once",
							row->fieldnames[target], cursor->refname),
					 pln_scanner_errposition(argloc)));

		value = read_sql_construct(',', ')', 0, ",\" or \")",
								   RAW_PARSE_PLPGSQL_EXPR,
								   true, true, NULL, &endtoken);
		values[target] = value->query;

		if (endtoken == ')' && n < row->nfields - 1)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("not enough arguments for cursor \"%s\"",
							cursor->refname),
					 pln_scanner_errposition(yylloc)));
		if (endtoken == ',' && n == row->nfields - 1)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("too many arguments for cursor \"%s\"",
							cursor->refname),
					 pln_scanner_errposition(yylloc)));
	}

	/*
	 * One select list, in declaration order; with named arguments each
	 * value is labelled with its argument's name, so that a run-time error
	 * in it can be placed.
	 */
	initStringInfo(&list);
	for (i = 0; i < row->nfields; i++)
	{
		if (i > 0)
			appendStringInfoString(&list, ", ");
		appendStringInfoString(&list, values[i]);
		if (any_named)
			appendStringInfo(&list, " AS %s",
							 quote_identifier(row->fieldnames[i]));
	}

	if (yylex() != until)
		yyerror("syntax error");

	return make_plexpr(list.data, RAW_PARSE_PLPGSQL_EXPR, -1);
}

/*
 * Read the direction of FETCH or MOVE, up to and including FROM or IN if
 * it has one, into a new statement.  The cursor variable follows.
 */
static PlnStmtFetch *
read_fetch_direction(void)
{
	PlnStmtFetch *fetch = palloc0(sizeof(PlnStmtFetch));
	bool		expect_from = true;
	int			tok = yylex();

	fetch->cmd_type = PLN_STMT_FETCH;
	fetch->stmtid = pln_next_stmtid();
	fetch->direction = FETCH_FORWARD;
	fetch->how_many = 1;

	if (tok == 0)
		yyerror("unexpected end of function definition");

	if (tok_is_keyword(tok, &yylval, K_NEXT, "next"))
		;						/* the default */
	else if (tok_is_keyword(tok, &yylval, K_PRIOR, "prior"))
		fetch->direction = FETCH_BACKWARD;
	else if (tok_is_keyword(tok, &yylval, K_FIRST, "first"))
		fetch->direction = FETCH_ABSOLUTE;
	else if (tok_is_keyword(tok, &yylval, K_LAST, "last"))
	{
		fetch->direction = FETCH_ABSOLUTE;
		fetch->how_many = -1;
	}
	else if (tok_is_keyword(tok, &yylval, K_ABSOLUTE, "absolute"))
	{
		fetch->direction = FETCH_ABSOLUTE;
		fetch->expr = read_sql_expression2(K_FROM, K_IN, "FROM or IN", NULL);
		expect_from = false;
	}
	else if (tok_is_keyword(tok, &yylval, K_RELATIVE, "relative"))
	{
		fetch->direction = FETCH_RELATIVE;
		fetch->expr = read_sql_expression2(K_FROM, K_IN, "FROM or IN", NULL);
		expect_from = false;
	}
	else if (tok_is_keyword(tok, &yylval, K_ALL, "all"))
	{
		fetch->how_many = FETCH_ALL;
		fetch->returns_multiple_rows = true;
	}
	else if (tok_is_keyword(tok, &yylval, K_FORWARD, "forward"))
		read_fetch_count(fetch, &expect_from);
	else if (tok_is_keyword(tok, &yylval, K_BACKWARD, "backward"))
	{
		fetch->direction = FETCH_BACKWARD;
		read_fetch_count(fetch, &expect_from);
	}
	else if (tok == K_FROM || tok == K_IN)
		expect_from = false;	/* no direction at all */
	else if (tok == T_DATUM)
	{
		/* no direction: this is the cursor */
		pln_push_back_token(tok);
		expect_from = false;
	}
	else
	{
		/*
		 * A bare count, as in core SQL's FETCH 5 FROM c.  (A count that is
		 * a variable cannot be told from a cursor name; it is taken as the
		 * cursor above.)
		 */
		pln_push_back_token(tok);
		fetch->expr = read_sql_expression2(K_FROM, K_IN, "FROM or IN", NULL);
		fetch->returns_multiple_rows = true;
		expect_from = false;
	}

	if (expect_from)
	{
		tok = yylex();
		if (tok != K_FROM && tok != K_IN)
			yyerror("expected FROM or IN");
	}
	return fetch;
}

/* What may follow FORWARD or BACKWARD: nothing, ALL, or a count */
static void
read_fetch_count(PlnStmtFetch *fetch, bool *expect_from)
{
	int			tok = yylex();

	if (tok == 0)
		yyerror("unexpected end of function definition");

	if (tok == K_FROM || tok == K_IN)
		*expect_from = false;
	else if (tok == K_ALL)
	{
		fetch->how_many = FETCH_ALL;
		fetch->returns_multiple_rows = true;
		*expect_from = true;
	}
	else
	{
		pln_push_back_token(tok);
		fetch->expr = read_sql_expression2(K_FROM, K_IN, "FROM or IN", NULL);
		fetch->returns_multiple_rows = true;
		*expect_from = false;
	}
}

/*
 * CALL or DO, whose first token has been pushed back: read as a plain SQL
 * statement up to the ';', parentheses balanced, with no INTO clause.
 */
static PlnStmt *
make_call_stmt(int location, bool is_do)
{
	PlnStmtExecSql *execsql = palloc0(sizeof(PlnStmtExecSql));

	execsql->cmd_type = PLN_STMT_EXECSQL;
	execsql->lineno = pln_location_to_lineno(location);
	execsql->stmtid = pln_next_stmtid();
	execsql->sqlstmt = read_sql_construct(';', 0, 0, ";", RAW_PARSE_DEFAULT,
										  false, true, NULL, NULL);
	execsql->is_call = true;
	execsql->is_do = is_do;
	return (PlnStmt *) execsql;
}

static PlnStmt *
make_execsql_stmt(int firsttoken, int location, PlnWord *word)
{
	PlnIdentifierLookup outer_lookup = pln_IdentifierLookup;
	PlnStmtExecSql *execsql;
	PlnExpr    *expr;
	PlnVariable *target = NULL;
	StringInfoData text;
	bool		has_into = false;
	bool		is_strict = false;
	int			into_from = -1;		/* offset of the word INTO */
	int			into_to = -1;		/* offset just after the INTO clause */
	int			before = firsttoken;
	int			tok = firsttoken;
	int			paren_depth = 0;
	int			begin_depth = 0;
	int			ntokens = 1;	/* tokens read, while telling CREATE apart */
	bool		is_create;
	bool		or_replace = false;
	bool		in_routine = false;

	pln_IdentifierLookup = PLN_LOOKUP_EXPR;

	/*
	 * Scan to the end of the command, looking for an INTO clause.  INTO
	 * also appears in the SQL grammar itself: INSERT INTO, MERGE INTO and
	 * IMPORT FOREIGN SCHEMA ... INTO are not ours.  SELECT ... INTO is
	 * taken over by the PL meaning.
	 *
	 * The command ends at a ';' outside parentheses (CREATE RULE ... DO
	 * (a; b) has some inside) and, in CREATE [OR REPLACE] FUNCTION or
	 * PROCEDURE, outside BEGIN ... END: a BEGIN ATOMIC body holds
	 * statements of its own.  CASE ... END counts like BEGIN ... END
	 * there, since its END would otherwise close the body early.
	 */
	is_create = (firsttoken == T_WORD && strcmp(word->ident, "create") == 0);
	for (;;)
	{
		before = tok;
		tok = yylex();

		/* the first token after our INTO clause marks its end */
		if (has_into && into_to < 0)
			into_to = yylloc;

		if (is_create && ntokens < 4)
		{
			bool		is_routine = (tok == T_WORD &&
									  (strcmp(yylval.word.ident, "function") == 0 ||
									   strcmp(yylval.word.ident, "procedure") == 0));

			/* CREATE FUNCTION, or CREATE OR REPLACE FUNCTION */
			if (ntokens == 1)
				in_routine = is_routine;
			else if (ntokens == 2)
				or_replace = (before == K_OR && tok == T_WORD &&
							  strcmp(yylval.word.ident, "replace") == 0);
			else if (or_replace && is_routine)
				in_routine = true;
			ntokens++;
		}

		if (tok == '(')
			paren_depth++;
		else if (tok == ')' && paren_depth > 0)
			paren_depth--;
		if (in_routine && paren_depth == 0)
		{
			if (tok == K_BEGIN || tok == K_CASE)
				begin_depth++;
			else if (tok == K_END && begin_depth > 0)
				begin_depth--;
		}

		if (tok == ';' && paren_depth == 0 && begin_depth == 0)
			break;
		if (tok == 0)
			yyerror("unexpected end of function definition");
		if (tok != K_INTO || before == K_INSERT || before == K_MERGE ||
			firsttoken == K_IMPORT)
			continue;

		if (has_into)
			yyerror("INTO specified more than once");
		has_into = true;
		into_from = yylloc;

		/* the targets are our variables: look their names up */
		pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
		read_into_target(&target, &is_strict);
		pln_IdentifierLookup = PLN_LOOKUP_EXPR;
	}

	pln_IdentifierLookup = outer_lookup;

	/*
	 * The SQL is the text up to the ';', with the INTO clause blanked out:
	 * replacing it by as many spaces keeps every other character where it
	 * was, so error positions in the SQL still match the body.
	 */
	initStringInfo(&text);
	if (!has_into)
		pln_append_source_text(&text, location, yylloc);
	else
	{
		pln_append_source_text(&text, location, into_from);
		appendStringInfoSpaces(&text, into_to - into_from);
		pln_append_source_text(&text, into_to, yylloc);
	}
	while (text.len > 0 && scanner_isspace(text.data[text.len - 1]))
		text.data[--text.len] = '\0';

	expr = make_plexpr(text.data, RAW_PARSE_DEFAULT, location);
	check_sql_expr(expr->query, expr->parseMode, location);

	execsql = palloc0(sizeof(PlnStmtExecSql));
	execsql->cmd_type = PLN_STMT_EXECSQL;
	execsql->lineno = pln_location_to_lineno(location);
	execsql->stmtid = pln_next_stmtid();
	execsql->sqlstmt = expr;
	execsql->into = has_into;
	execsql->strict = is_strict;
	execsql->target = target;
	execsql->into_one_var = (has_into && target != NULL &&
							 target->dtype == PLN_DTYPE_ROW &&
							 ((PlnRow *) target)->rowtupdesc == NULL &&
							 ((PlnRow *) target)->nfields == 1 &&
							 pln_curr_compile->datums[((PlnRow *) target)->varnos[0]]->dtype == PLN_DTYPE_VAR);

	return (PlnStmt *) execsql;
}

/*
 * Read what follows INTO: an optional STRICT (only where strict is not
 * NULL), then either one record variable or a list of scalar variables.
 * A record must stand alone; a list of scalars becomes an anonymous row.
 */
static void
read_into_target(PlnVariable **target, bool *strict)
{
	PlnDatum   *datum;
	int			tok = yylex();

	*target = NULL;
	if (strict != NULL)
	{
		*strict = (tok == K_STRICT);
		if (*strict)
			tok = yylex();
	}

	if (tok != T_DATUM)
		current_token_is_not_variable(tok);

	datum = yylval.wdatum.datum;
	if (datum->dtype != PLN_DTYPE_ROW && datum->dtype != PLN_DTYPE_REC)
	{
		*target = (PlnVariable *)
			read_into_scalar_list(NameOfDatum(&(yylval.wdatum)),
								  datum, yylloc);
		return;
	}

	check_assignable(datum, yylloc);
	*target = (PlnVariable *) datum;

	/* "INTO rec, x" would need a record inside a list: not allowed */
	tok = yylex();
	if (tok == ',')
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("record variable cannot be part of multiple-item INTO list"),
				 pln_scanner_errposition(yylloc)));
	pln_push_back_token(tok);
}

/* The most scalar variables one INTO list (or FOR target list) may name */
#define MAX_INTO_SCALARS 1024

/*
 * Read the rest of a list of scalar targets, whose first member has been
 * read already, and make the anonymous row that stands for the list.  The
 * token after the list is left unread.
 */
static PlnRow *
read_into_scalar_list(char *initial_name,
					  PlnDatum *initial_datum,
					  int initial_location)
{
	List	   *names;
	List	   *dnos;
	int			tok;

	check_assignable(initial_datum, initial_location);
	names = list_make1(initial_name);
	dnos = list_make1_int(initial_datum->dno);

	while ((tok = yylex()) == ',')
	{
		PlnDatum   *datum;

		if (list_length(dnos) >= MAX_INTO_SCALARS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many INTO variables specified"),
					 pln_scanner_errposition(yylloc)));

		tok = yylex();
		if (tok != T_DATUM)
			current_token_is_not_variable(tok);

		datum = yylval.wdatum.datum;
		check_assignable(datum, yylloc);
		if (datum->dtype == PLN_DTYPE_ROW || datum->dtype == PLN_DTYPE_REC)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("\"%s\" is not a scalar variable",
							NameOfDatum(&(yylval.wdatum))),
					 pln_scanner_errposition(yylloc)));
		names = lappend(names, NameOfDatum(&(yylval.wdatum)));
		dnos = lappend_int(dnos, datum->dno);
	}

	/* that token was not a comma, so it belongs to what follows */
	pln_push_back_token(tok);

	return make_scalar_row(names, dnos,
						   pln_location_to_lineno(initial_location));
}

/*
 * A single scalar FOR target, whose name has been read already (a list
 * would have been read by for_variable): a row of one field.  Nothing
 * more is read.
 */
static PlnRow *
scalar_list1(char *name, PlnDatum *datum, int lineno, int location)
{
	check_assignable(datum, location);
	return make_scalar_row(list_make1(name), list_make1_int(datum->dno),
						   lineno);
}

/* The anonymous row that stands for a list of scalar targets */
static PlnRow *
make_scalar_row(List *names, List *dnos, int lineno)
{
	PlnRow	   *row;
	ListCell   *lc;
	int			i;

	row = palloc0(sizeof(PlnRow));
	row->dtype = PLN_DTYPE_ROW;
	row->refname = "(unnamed row)";
	row->lineno = lineno;
	row->nfields = list_length(dnos);
	row->fieldnames = palloc(sizeof(char *) * row->nfields);
	row->varnos = palloc(sizeof(int) * row->nfields);
	i = 0;
	foreach(lc, dnos)
	{
		row->fieldnames[i] = (char *) list_nth(names, i);
		row->varnos[i] = lfirst_int(lc);
		i++;
	}
	list_free(names);
	list_free(dnos);

	pln_add_datum((PlnDatum *) row);

	return row;
}

/*
 * RETURN in a function that returns nothing (a procedure, a void or a
 * set-returning function) must not have a value.
 */
static void
reject_return_value(void)
{
	PlnFunction *func = pln_curr_compile;

	if (func->fn_retset)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("RETURN cannot have a parameter in function returning set"),
				 errhint("Use RETURN NEXT or RETURN QUERY."),
				 pln_scanner_errposition(yylloc)));
	if (func->fn_prokind == PROKIND_PROCEDURE)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("RETURN cannot have a parameter in a procedure"),
				 pln_scanner_errposition(yylloc)));
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("RETURN cannot have a parameter in function returning void"),
			 pln_scanner_errposition(yylloc)));
}

/*
 * RETURN NEXT [expr]: only in a set-returning function; with OUT
 * parameters it takes no value (their values make the row).
 */
static PlnStmt *
make_return_next_stmt(int location)
{
	PlnStmtReturnNext *new;
	int			tok;

	if (!pln_curr_compile->fn_retset)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot use RETURN NEXT in a non-SETOF function"),
				 pln_scanner_errposition(location)));

	new = palloc0(sizeof(PlnStmtReturnNext));
	new->cmd_type = PLN_STMT_RETURN_NEXT;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();
	new->retvarno = -1;

	tok = yylex();
	if (pln_curr_compile->out_param_varno >= 0)
	{
		if (tok != ';')
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("RETURN NEXT cannot have a parameter in function with OUT parameters"),
					 pln_scanner_errposition(yylloc)));
		new->retvarno = pln_curr_compile->out_param_varno;
	}
	else if (tok == T_DATUM && pln_peek() == ';' &&
			 (yylval.wdatum.datum->dtype == PLN_DTYPE_VAR ||
			  yylval.wdatum.datum->dtype == PLN_DTYPE_ROW ||
			  yylval.wdatum.datum->dtype == PLN_DTYPE_REC))
	{
		/* a variable is handed over as it is */
		new->retvarno = yylval.wdatum.datum->dno;
		(void) yylex();			/* the ';' */
	}
	else
	{
		/* (a missing value is reported as a missing expression) */
		pln_push_back_token(tok);
		new->expr = read_sql_expression(';', ";");
	}

	return (PlnStmt *) new;
}

/* RETURN QUERY query | RETURN QUERY EXECUTE string [USING ...] */
static PlnStmt *
make_return_query_stmt(int location)
{
	PlnStmtReturnQuery *new;
	int			tok;

	if (!pln_curr_compile->fn_retset)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot use RETURN QUERY in a non-SETOF function"),
				 pln_scanner_errposition(location)));

	new = palloc0(sizeof(PlnStmtReturnQuery));
	new->cmd_type = PLN_STMT_RETURN_QUERY;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();

	tok = yylex();
	if (tok == K_EXECUTE)
	{
		int			endtoken;

		new->dynquery = read_sql_expression2(K_USING, ';', "USING or ;",
											 &endtoken);
		while (endtoken == K_USING || endtoken == ',')
			new->params = lappend(new->params,
								  read_sql_expression2(',', ';', ", or ;",
													   &endtoken));
	}
	else
	{
		pln_push_back_token(tok);
		new->query = read_sql_construct(';', 0, 0, ";", RAW_PARSE_DEFAULT,
										false, true, NULL, NULL);
	}

	return (PlnStmt *) new;
}

static PlnStmt *
make_return_stmt(int location)
{
	PlnStmtReturn *new;
	int			tok;

	new = palloc0(sizeof(PlnStmtReturn));
	new->cmd_type = PLN_STMT_RETURN;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();
	new->expr = NULL;
	new->retvarno = -1;

	tok = yylex();
	if (pln_curr_compile->fn_retset || pln_curr_compile->fn_rettype == VOIDOID)
	{
		if (tok != ';')
			reject_return_value();
		return (PlnStmt *) new;
	}

	/* with OUT parameters, the result is their values */
	if (pln_curr_compile->out_param_varno >= 0)
	{
		if (tok != ';')
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("RETURN cannot have a parameter in function with OUT parameters"),
					 pln_scanner_errposition(yylloc)));
		new->retvarno = pln_curr_compile->out_param_varno;
		return (PlnStmt *) new;
	}

	/*
	 * "RETURN var;" hands back the variable's value directly, without
	 * evaluating an expression.  Anything else is an expression, which
	 * is required here.
	 */
	if (tok == T_DATUM && pln_peek() == ';' &&
		(yylval.wdatum.datum->dtype == PLN_DTYPE_VAR ||
		 yylval.wdatum.datum->dtype == PLN_DTYPE_ROW ||
		 yylval.wdatum.datum->dtype == PLN_DTYPE_REC))
	{
		new->retvarno = yylval.wdatum.datum->dno;
		tok = yylex();			/* the ';' we peeked at */
		Assert(tok == ';');
	}
	else
	{
		pln_push_back_token(tok);
		new->expr = read_sql_expression(';', ";");
	}

	return (PlnStmt *) new;
}

/*
 * The options of RAISE ... USING, each "option = expression", separated
 * by commas up to the ';'.
 */
static List *
read_raise_options(void)
{
	static const struct
	{
		int			token;
		const char *word;
		PlnRaiseOptionType type;
	}			options[] =
	{
		{K_ERRCODE, "errcode", PLN_RAISEOPT_ERRCODE},
		{K_MESSAGE, "message", PLN_RAISEOPT_MESSAGE},
		{K_DETAIL, "detail", PLN_RAISEOPT_DETAIL},
		{K_HINT, "hint", PLN_RAISEOPT_HINT},
		{K_COLUMN, "column", PLN_RAISEOPT_COLUMN},
		{K_CONSTRAINT, "constraint", PLN_RAISEOPT_CONSTRAINT},
		{K_DATATYPE, "datatype", PLN_RAISEOPT_DATATYPE},
		{K_TABLE, "table", PLN_RAISEOPT_TABLE},
		{K_SCHEMA, "schema", PLN_RAISEOPT_SCHEMA},
	};
	List	   *result = NIL;
	int			tok;

	do
	{
		PlnRaiseOption *opt = palloc(sizeof(PlnRaiseOption));
		int			i;

		tok = yylex();
		if (tok == 0)
			yyerror("unexpected end of function definition");

		for (i = 0; i < lengthof(options); i++)
		{
			if (tok_is_keyword(tok, &yylval, options[i].token, options[i].word))
				break;
		}
		if (i == lengthof(options))
			yyerror("unrecognized RAISE statement option");
		opt->opt_type = options[i].type;

		tok = yylex();
		if (tok != '=' && tok != COLON_EQUALS)
			yyerror("syntax error, expected \"=\"");

		opt->expr = read_sql_expression2(',', ';', ", or ;", &tok);
		result = lappend(result, opt);
	} while (tok != ';');

	return result;
}

/*
 * The number of % placeholders in a RAISE format must match the number of
 * arguments ("%%" is a literal percent sign).
 */
static void
check_raise_parameters(PlnStmtRaise *stmt)
{
	const char *cp = stmt->message;
	int			placeholders = 0;
	int			nparams = list_length(stmt->params);

	if (cp == NULL)
		return;

	while ((cp = strchr(cp, '%')) != NULL)
	{
		if (cp[1] == '%')
			cp += 2;
		else
		{
			placeholders++;
			cp++;
		}
	}

	if (placeholders < nparams)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("too many parameters specified for RAISE")));
	if (placeholders > nparams)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("too few parameters specified for RAISE")));
}

/*
 * An end label must match the label at the start of the block or loop.
 */
static void
check_labels(const char *start_label, const char *end_label, int end_location)
{
	if (end_label == NULL)
		return;

	if (start_label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("end label \"%s\" specified for unlabeled block",
						end_label),
				 pln_scanner_errposition(end_location)));
	if (strcmp(start_label, end_label) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("end label \"%s\" differs from block's label \"%s\"",
						end_label, start_label),
				 pln_scanner_errposition(end_location)));
}

/*
 * A CONSTANT may not be the target of an assignment or INTO.  A field is
 * as assignable as its record; an anonymous row is built from targets
 * that were checked one by one.
 */
static void
check_assignable(PlnDatum *datum, int location)
{
	PlnVariable *var;

	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
		case PLN_DTYPE_REC:
			var = (PlnVariable *) datum;
			if (var->isconst)
				ereport(ERROR,
						(errcode(ERRCODE_ERROR_IN_ASSIGNMENT),
						 errmsg("variable \"%s\" is declared CONSTANT",
								var->refname),
						 pln_scanner_errposition(location)));
			break;
		case PLN_DTYPE_ROW:
			break;
		case PLN_DTYPE_RECFIELD:
			check_assignable(pln_curr_compile->datums[((PlnRecField *) datum)->recparentno],
							 location);
			break;
		default:
			elog(ERROR, "unrecognized dtype: %d", datum->dtype);
			break;
	}
}

/*
 * Build the CASE statement.  The searched form, CASE x WHEN a, b THEN ...,
 * is turned into the other one: x is stored in a hidden variable when the
 * statement runs, and each WHEN list becomes the condition
 * "hidden IN (a, b)".  The WHEN texts have only been read, not parsed, so
 * rewriting them is just string work.
 */
static PlnStmt *
make_case(int location, PlnExpr *t_expr,
		  List *case_when_list, List *else_stmts)
{
	PlnStmtCase *new = palloc0(sizeof(PlnStmtCase));
	bool		empty_else = (list_length(else_stmts) == 1 &&
							  linitial(else_stmts) == NULL);

	new->cmd_type = PLN_STMT_CASE;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();
	new->t_expr = t_expr;
	new->t_varno = 0;
	new->case_when_list = case_when_list;
	new->have_else = (else_stmts != NIL);
	new->else_stmts = empty_else ? NIL : else_stmts;

	if (t_expr != NULL)
	{
		char	   *hidden;
		PlnVar	   *hidden_var;
		ListCell   *lc;

		/*
		 * The name only has to be one that no user writes.  The type is a
		 * placeholder: the executor gives the variable the type of x's
		 * value before storing it.
		 */
		hidden = psprintf("__Case__Variable_%d__", pln_curr_compile->ndatums);
		hidden_var = (PlnVar *)
			pln_build_variable(hidden, new->lineno,
							   pln_build_datatype(INT4OID, -1, InvalidOid,
												  NULL),
							   true);
		new->t_varno = hidden_var->dno;

		foreach(lc, case_when_list)
		{
			PlnExpr    *cond = ((PlnCaseWhen *) lfirst(lc))->expr;
			char	   *old_query = cond->query;

			/* WHEN lists were read as expressions (expr_until_then) */
			Assert(cond->parseMode == RAW_PARSE_PLPGSQL_EXPR);

			cond->query = psprintf("\"%s\" IN (%s)", hidden, old_query);
			pfree(old_query);

			/* the hidden variable must be visible to the condition */
			cond->ns = pln_ns_top();
		}
	}

	return (PlnStmt *) new;
}

/*
 * Hand out the variables declared since the last call, for a block's list
 * of variables to initialise on entry; returns how many there are.  Only
 * scalars and records are initialised (rows and fields have no value of
 * their own).  With varnos == NULL the datums are just skipped.
 */
static int
add_initdatums(int **varnos)
{
	static int	first_unclaimed = 0;
	int			count = 0;

	if (pln_curr_compile == NULL)
		return 0;

	if (varnos != NULL)
	{
		int			ndatums = pln_curr_compile->ndatums;
		int		   *found = NULL;
		int			i;

		for (i = first_unclaimed; i < ndatums; i++)
		{
			PlnDatum   *d = pln_curr_compile->datums[i];

			if (d->dtype != PLN_DTYPE_VAR && d->dtype != PLN_DTYPE_REC)
				continue;
			if (found == NULL)
				found = palloc(sizeof(int) * (ndatums - first_unclaimed));
			found[count++] = d->dno;
		}
		*varnos = found;
	}

	first_unclaimed = pln_curr_compile->ndatums;
	return count;
}

/*
 * The end of a block's DECLARE part (or of its label, when there is no
 * DECLARE): names are looked up again from here on, and with has_decls
 * the variables just declared become the block's variables.
 */
static DeclHeader
end_of_declarations(char *label, bool has_decls)
{
	DeclHeader	hdr;

	pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
	hdr.label = label;
	hdr.n_initvars = 0;
	hdr.initvarnos = NULL;
	if (has_decls)
		hdr.n_initvars = add_initdatums(&hdr.initvarnos);
	return hdr;
}

/*
 * What ALIAS FOR names: a variable visible here, by one name or by two or
 * three dotted ones.  shown is the name as error messages give it.
 */
static PlnNsItem *
alias_target(List *idents, const char *shown, int location)
{
	int			n = list_length(idents);
	PlnNsItem  *nsi = NULL;

	if (n >= 1 && n <= 3)
		nsi = pln_ns_lookup(pln_ns_top(), false,
							strVal(linitial(idents)),
							n >= 2 ? strVal(lsecond(idents)) : NULL,
							n >= 3 ? strVal(lthird(idents)) : NULL,
							NULL);
	if (nsi == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("variable \"%s\" does not exist", shown),
				 pln_scanner_errposition(location)));
	return nsi;
}

/* A declaration may not reuse a name declared earlier in the same block */
/*
 * A declared name must be new in its block; with the shadowed_variables
 * extra check, one that hides a name of an enclosing block (or a
 * parameter) is reported too.
 */
static void
check_name_is_new(const char *name, int location)
{
	PlnFunction *func = pln_curr_compile;

	if (pln_ns_lookup(pln_ns_top(), true, name, NULL, NULL, NULL) != NULL)
		yyerror("duplicate declaration");

	if (((func->extra_warnings | func->extra_errors) & PLN_XCHECK_SHADOWVAR) &&
		pln_ns_lookup(pln_ns_top(), false, name, NULL, NULL, NULL) != NULL)
		ereport((func->extra_errors & PLN_XCHECK_SHADOWVAR) ? ERROR : WARNING,
				(errcode(ERRCODE_DUPLICATE_ALIAS),
				 errmsg("variable \"%s\" shadows a previously defined variable",
						name),
				 pln_scanner_errposition(location)));
}

/* SQLSTATE or SQLERRM of an exception block: a text constant */
static int
make_handler_variable(const char *name, int lineno)
{
	PlnType    *text_type;
	PlnVariable *var;

	text_type = pln_build_datatype(TEXTOID, -1,
								   pln_curr_compile->fn_input_collation,
								   NULL);
	var = pln_build_variable(name, lineno, text_type, true);
	var->isconst = true;
	return var->dno;
}

/*
 * The string after SQLSTATE: five characters, each a digit or an
 * upper-case letter.
 */
static char *
read_sqlstate_literal(void)
{
	char	   *code;

	if (yylex() != SCONST)
		yyerror("syntax error");
	code = yylval.str;
	if (strlen(code) != 5 ||
		strspn(code, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5)
		yyerror("invalid SQLSTATE code");
	return code;
}

/*
 * The optional level word of RAISE.  If *tok is one, the next token is
 * read into *tok; the level (ERROR when none is given) is returned.
 */
static int
read_raise_level(int *tok)
{
	static const struct
	{
		int			token;
		const char *word;
		int			level;
	}			levels[] =
	{
		{K_EXCEPTION, "exception", ERROR},
		{K_WARNING, "warning", WARNING},
		{K_NOTICE, "notice", NOTICE},
		{K_INFO, "info", INFO},
		{K_LOG, "log", LOG},
		{K_DEBUG, "debug", DEBUG1},
	};
	int			i;

	for (i = 0; i < lengthof(levels); i++)
	{
		if (tok_is_keyword(*tok, &yylval, levels[i].token, levels[i].word))
		{
			*tok = yylex();
			return levels[i].level;
		}
	}
	return ERROR;
}

/*
 * What RAISE raises, after the level: a format string followed by its
 * parameters, a condition name, SQLSTATE 'xxxxx', or nothing at all
 * before USING.  tok is its first token.  Returns the token that ends
 * it, which is ';' or USING.
 */
static int
read_raise_body(PlnStmtRaise *stmt, int tok)
{
	if (tok == K_USING)
		return tok;

	if (tok == SCONST)
	{
		stmt->message = yylval.str;
		tok = yylex();
		if (tok != ',' && tok != ';' && tok != K_USING)
			yyerror("syntax error");
		while (tok == ',')
			stmt->params = lappend(stmt->params,
								   read_sql_construct(',', ';', K_USING,
													  ", or ; or USING",
													  RAW_PARSE_PLPGSQL_EXPR,
													  true, true,
													  NULL, &tok));
		return tok;
	}

	if (tok_is_keyword(tok, &yylval, K_SQLSTATE, "sqlstate"))
		stmt->condname = read_sqlstate_literal();
	else
	{
		if (tok == T_WORD)
			stmt->condname = yylval.word.ident;
		else if (pln_token_is_unreserved_keyword(tok))
			stmt->condname = pstrdup(yylval.keyword);
		else
			yyerror("syntax error");
		/* an unknown condition name is an error now */
		pln_recognize_err_condition(stmt->condname, false);
	}

	tok = yylex();
	if (tok != ';' && tok != K_USING)
		yyerror("syntax error");
	return tok;
}

/*
 * EXIT and CONTINUE need somewhere to go.  A label must belong to a block
 * or loop around the statement, and CONTINUE can only name a loop.
 * Without a label, both need a loop around them: an unlabeled EXIT does
 * not leave a plain block.
 */
static void
check_exit_target(PlnStmtExit *stmt, int label_location, int stmt_location)
{
	PlnNsItem  *label;

	if (stmt->label == NULL)
	{
		if (pln_ns_find_nearest_loop(pln_ns_top()) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 stmt->is_exit ?
					 errmsg("EXIT cannot be used outside a loop, unless it has a label") :
					 errmsg("CONTINUE cannot be used outside a loop"),
					 pln_scanner_errposition(stmt_location)));
		return;
	}

	label = pln_ns_lookup_label(pln_ns_top(), stmt->label);
	if (label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("there is no label \"%s\" "
						"attached to any block or loop enclosing this statement",
						stmt->label),
				 pln_scanner_errposition(label_location)));
	if (!stmt->is_exit && label->itemno != PLN_LABEL_LOOP)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("block label \"%s\" cannot be used in CONTINUE",
						stmt->label),
				 pln_scanner_errposition(label_location)));
}

/*
 * After a word that starts a statement and is no variable: does the next
 * token show that an assignment was meant?  The token is left unread.
 */
static bool
next_token_makes_assignment(void)
{
	int			tok = yylex();

	pln_push_back_token(tok);
	return tok == '=' || tok == COLON_EQUALS || tok == '[' || tok == '.';
}

/*
 * An assignment is parsed by the SQL parser as a whole, target included;
 * the parse mode tells it how many dotted names the target has.
 */
static RawParseMode
assign_parse_mode(PlnWDatum *wdatum)
{
	int			nnames = wdatum->ident ? 1 : list_length(wdatum->idents);

	if (nnames == 1)
		return RAW_PARSE_PLPGSQL_ASSIGN1;
	if (nnames == 2)
		return RAW_PARSE_PLPGSQL_ASSIGN2;
	if (nnames != 3)
		elog(ERROR, "unexpected number of names");
	return RAW_PARSE_PLPGSQL_ASSIGN3;
}
