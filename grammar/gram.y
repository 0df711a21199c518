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
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "parser/parse_type.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

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
static PlnStmt *make_execsql_stmt(int firsttoken, int location);
static PlnStmt *make_return_stmt(int location);
static PlnStmt *make_case(int location, PlnExpr *t_expr,
						  List *case_when_list, List *else_stmts);
static void read_into_target(PlnVariable **target, bool *strict);
static PlnRow *read_into_scalar_list(char *initial_name,
									 PlnDatum *initial_datum,
									 int initial_location);
static PlnType *read_datatype(int tok);
static PlnType *column_type_of(List *idents);
static List *read_raise_options(void);
static void check_raise_parameters(PlnStmtRaise *stmt);
static void check_labels(const char *start_label, const char *end_label,
						 int end_location);
static void check_assignable(PlnDatum *datum, int location);
static void word_is_not_variable(PlnWord *word, int location) pg_attribute_noreturn();
static void cword_is_not_variable(PlnCWord *cword, int location) pg_attribute_noreturn();
static void current_token_is_not_variable(int tok) pg_attribute_noreturn();
static void not_supported_yet(const char *what, int location) pg_attribute_noreturn();
static int	add_initdatums(int **varnos);
static char *name_of_cword(PlnCWord *cword);
static char *name_of_cword_list(List *idents);

/*
 * Name of a variable reference as written: "a" or "a.b.c".
 */
#define NameOfDatum(wdatum) ((wdatum)->ident ? (wdatum)->ident : \
							 name_of_cword_list((wdatum)->idents))

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
}

%union
{
	char	   *str;
	const char *keyword;
	PlnWord		word;
	PlnCWord	cword;
	PlnWDatum	wdatum;
	bool		boolean;
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

%type <keyword>	unreserved_keyword

/*
 * Basic non-keyword token types.  These are hard-wired into the core lexer.
 * They must be listed first so that their numeric codes do not depend on
 * the set of keywords.
 */
%token <str>	IDENT UIDENT FCONST SCONST USCONST BCONST XCONST Op
%token <str>	ICONST PARAM
%token			TYPECAST DOT_DOT COLON_EQUALS EQUALS_GREATER
%token			LESS_EQUALS GREATER_EQUALS NOT_EQUALS

/*
 * Other tokens recognized by the PL scanner's lookup layer
 */
%token <word>		T_WORD		/* unrecognized simple identifier */
%token <cword>		T_CWORD		/* unrecognized composite identifier */
%token <wdatum>		T_DATUM		/* a VAR, ROW, REC, or RECFIELD variable */
%token				LESS_LESS
%token				GREATER_GREATER

/*
 * Keyword tokens.  Some of these are reserved and some are not;
 * see scan.l for which are which.
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
						/* done with decls, so resume identifier lookup */
						pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
						$$.label = $1;
						$$.n_initvars = 0;
						$$.initvarnos = NULL;
					}
				| opt_block_label decl_start
					{
						pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
						$$.label = $1;
						$$.n_initvars = 0;
						$$.initvarnos = NULL;
					}
				| opt_block_label decl_start decl_stmts
					{
						pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
						$$.label = $1;
						/* remember variables declared in decl_stmts */
						$$.n_initvars = add_initdatums(&($$.initvarnos));
					}
				;

decl_start		: K_DECLARE
					{
						/* forget any variables created before this block */
						add_initdatums(NULL);
						/* names in DECLARE are new, do not look them up */
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

						/*
						 * The combination of NOT NULL without an initializer
						 * can't work, so let's reject it at compile time.
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
						not_supported_yet("cursor declarations", @3);
					}
				;

opt_scrollable :
				| K_NO K_SCROLL
				| K_SCROLL
				;

decl_aliasitem	: T_WORD
					{
						PlnNsItem  *nsi;

						nsi = pln_ns_lookup(pln_ns_top(), false,
											$1.ident, NULL, NULL,
											NULL);
						if (nsi == NULL)
							ereport(ERROR,
									(errcode(ERRCODE_UNDEFINED_OBJECT),
									 errmsg("variable \"%s\" does not exist",
											$1.ident),
									 pln_scanner_errposition(@1)));
						$$ = nsi;
					}
				| unreserved_keyword
					{
						PlnNsItem  *nsi;

						nsi = pln_ns_lookup(pln_ns_top(), false,
											$1, NULL, NULL,
											NULL);
						if (nsi == NULL)
							ereport(ERROR,
									(errcode(ERRCODE_UNDEFINED_OBJECT),
									 errmsg("variable \"%s\" does not exist",
											$1),
									 pln_scanner_errposition(@1)));
						$$ = nsi;
					}
				| T_CWORD
					{
						PlnNsItem  *nsi;

						if (list_length($1.idents) == 2)
							nsi = pln_ns_lookup(pln_ns_top(), false,
												strVal(linitial($1.idents)),
												strVal(lsecond($1.idents)),
												NULL,
												NULL);
						else if (list_length($1.idents) == 3)
							nsi = pln_ns_lookup(pln_ns_top(), false,
												strVal(linitial($1.idents)),
												strVal(lsecond($1.idents)),
												strVal(lthird($1.idents)),
												NULL);
						else
							nsi = NULL;
						if (nsi == NULL)
							ereport(ERROR,
									(errcode(ERRCODE_UNDEFINED_OBJECT),
									 errmsg("variable \"%s\" does not exist",
											name_of_cword(&$1)),
									 pln_scanner_errposition(@1)));
						$$ = nsi;
					}
				;

decl_varname	: T_WORD
					{
						$$.name = $1.ident;
						$$.lineno = pln_location_to_lineno(@1);

						/* a name may be declared only once per block */
						if (pln_ns_lookup(pln_ns_top(), true,
										  $1.ident, NULL, NULL,
										  NULL) != NULL)
							yyerror("duplicate declaration");
					}
				| unreserved_keyword
					{
						$$.name = pstrdup($1);
						$$.lineno = pln_location_to_lineno(@1);

						if (pln_ns_lookup(pln_ns_top(), true,
										  $1, NULL, NULL,
										  NULL) != NULL)
							yyerror("duplicate declaration");
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
						 * If there's a lookahead token, read_datatype
						 * should consume it.
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
						/* don't bother linking null statements into list */
						if ($2 == NULL)
							$$ = $1;
						else
							$$ = lappend($1, $2);
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
						$$ = make_execsql_stmt(K_CALL, @1);
					}
				| K_DO
					{
						pln_push_back_token(K_DO);
						$$ = make_execsql_stmt(K_DO, @1);
					}
				;

stmt_assign		: T_DATUM
					{
						PlnStmtAssign *new;
						RawParseMode pmode;

						/* the parse mode says how many names the target has */
						switch ($1.ident ? 1 : list_length($1.idents))
						{
							case 1:
								pmode = RAW_PARSE_PLPGSQL_ASSIGN1;
								break;
							case 2:
								pmode = RAW_PARSE_PLPGSQL_ASSIGN2;
								break;
							case 3:
								pmode = RAW_PARSE_PLPGSQL_ASSIGN3;
								break;
							default:
								elog(ERROR, "unexpected number of names");
								pmode = 0;	/* keep compiler quiet */
						}

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

						$$ = (PlnStmt *) new;
					}
				;

stmt_getdiag	: K_GET
					{
						not_supported_yet("GET DIAGNOSTICS", @1);
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
						 * An empty ELSE must be told apart from no ELSE:
						 * represent it as a list holding one NULL.
						 */
						if ($2 != NIL)
							$$ = $2;
						else
							$$ = list_make1(NULL);
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
						/* This runs after we've scanned the loop body */
						if ($3->cmd_type == PLN_STMT_FORI)
						{
							PlnStmtForI *new = (PlnStmtForI *) $3;

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
						/* close namespace started in opt_loop_label */
						pln_ns_pop();
					}
				;

for_control		: for_variable K_IN
					{
						int			tok = yylex();
						int			tokloc = yylloc;

						if (tok == K_EXECUTE)
							not_supported_yet("FOR over EXECUTE", tokloc);
						else if (tok == T_DATUM &&
								 yylval.wdatum.datum->dtype == PLN_DTYPE_VAR &&
								 ((PlnVar *) yylval.wdatum.datum)->datatype->typoid == REFCURSOROID)
							not_supported_yet("FOR over a cursor", tokloc);
						else
						{
							PlnExpr    *expr1;
							int			expr1loc;
							bool		reverse = false;

							/*
							 * We have to distinguish between two
							 * alternatives: FOR var IN a .. b and FOR
							 * var IN query. Unfortunately this is
							 * tricky, since the query in the second
							 * form needn't start with a SELECT
							 * keyword.  We use the ugly hack of
							 * looking for two periods after the first
							 * token. We also check for the REVERSE
							 * keyword, which means it must be an
							 * integer loop.
							 */
							if (tok_is_keyword(tok, &yylval,
											   K_REVERSE, "reverse"))
								reverse = true;
							else
								pln_push_back_token(tok);

							/*
							 * Read tokens until we see either a ".."
							 * or a LOOP.  The text we read may be either
							 * an expression or a whole SQL statement, so
							 * we need to invoke read_sql_construct
							 * directly, and tell it not to check syntax
							 * yet.
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
								/* Saw "..", so it must be an integer loop */
								PlnExpr    *expr2;
								PlnExpr    *expr_by;
								PlnVar	   *fvar;
								PlnStmtForI *new;

								/*
								 * Relabel first expression as an
								 * expression; then we can check its syntax.
								 */
								expr1->parseMode = RAW_PARSE_PLPGSQL_EXPR;
								check_sql_expr(expr1->query, expr1->parseMode,
											   expr1loc);

								/* Read and check the second one */
								expr2 = read_sql_expression2(K_LOOP, K_BY,
															 "LOOP",
															 &tok);

								/* Get the BY clause if any */
								if (tok == K_BY)
									expr_by = read_sql_expression(K_LOOP,
																  "LOOP");
								else
									expr_by = NULL;

								/* Should have had a single variable name */
								if ($1.scalar && $1.row)
									ereport(ERROR,
											(errcode(ERRCODE_SYNTAX_ERROR),
											 errmsg("integer FOR loop must have only one target variable"),
											 pln_scanner_errposition(@1)));

								/* create loop's private variable */
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
								/*
								 * No "..", so it must be a query loop.
								 */
								PlnStmtForS *new;

								if (reverse)
									ereport(ERROR,
											(errcode(ERRCODE_SYNTAX_ERROR),
											 errmsg("cannot specify REVERSE in query FOR loop"),
											 pln_scanner_errposition(tokloc)));

								/* Check syntax as a regular query */
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
									/* convert single scalar to list */
									new->var = (PlnVariable *)
										read_into_scalar_list($1.name,
															  $1.scalar, @1);
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
 * Processing the for_variable is tricky because we don't yet know if the
 * FOR is an integer FOR loop or a loop over query results.  In the former
 * case, the variable is just a name that we must instantiate as a loop
 * local variable, regardless of any other definition it might have.
 * Therefore, we always save the actual identifier into $$.name where it
 * can be used for that case.  We also save the outer-variable definition,
 * if any, because that's what we need for the loop-over-query case.  Note
 * that we must NOT apply check_assignable() or any other semantic check
 * until we know what's what.
 *
 * However, if we see a comma-separated list of names, we know that it
 * can't be an integer FOR loop and so it's OK to check the variables
 * immediately.  In particular, for T_WORD followed by comma, we should
 * complain that the name is not known rather than say it's a syntax
 * error.  Note that the non-error result of this case sets *both*
 * $$.scalar and $$.row; see the for_control production.
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
							/* check for comma-separated list */
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
						/* check for comma-separated list */
						tok = yylex();
						pln_push_back_token(tok);
						if (tok == ',')
							word_is_not_variable(&($1), @1);
					}
				| T_CWORD
					{
						/* just to give a better message than "syntax error" */
						cword_is_not_variable(&($1), @1);
					}
				;

stmt_foreach_a	: opt_loop_label K_FOREACH
					{
						not_supported_yet("FOREACH", @2);
					}
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

						if ($2)
						{
							/* We have a label, so verify it exists */
							PlnNsItem  *label;

							label = pln_ns_lookup_label(pln_ns_top(), $2);
							if (label == NULL)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("there is no label \"%s\" "
												"attached to any block or loop enclosing this statement",
												$2),
										 pln_scanner_errposition(@2)));
							/* CONTINUE only allows loop labels */
							if (label->itemno != PLN_LABEL_LOOP && !new->is_exit)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 errmsg("block label \"%s\" cannot be used in CONTINUE",
												$2),
										 pln_scanner_errposition(@2)));
						}
						else
						{
							/*
							 * No label, so make sure there is some loop (an
							 * unlabeled EXIT does not match a block, so this
							 * is the same test for both EXIT and CONTINUE)
							 */
							if (pln_ns_find_nearest_loop(pln_ns_top()) == NULL)
								ereport(ERROR,
										(errcode(ERRCODE_SYNTAX_ERROR),
										 new->is_exit ?
										 errmsg("EXIT cannot be used outside a loop, unless it has a label") :
										 errmsg("CONTINUE cannot be used outside a loop"),
										 pln_scanner_errposition(@1)));
						}

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
							not_supported_yet("RETURN NEXT", @1);
						}
						else if (tok_is_keyword(tok, &yylval,
												K_QUERY, "query"))
						{
							not_supported_yet("RETURN QUERY", @1);
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
						new->elog_level = ERROR;	/* default */

						tok = yylex();
						if (tok == 0)
							yyerror("unexpected end of function definition");

						/*
						 * We could have just RAISE, meaning to re-throw
						 * the current error.
						 */
						if (tok != ';')
						{
							/*
							 * First is an optional elog severity level.
							 */
							if (tok_is_keyword(tok, &yylval,
											   K_EXCEPTION, "exception"))
							{
								new->elog_level = ERROR;
								tok = yylex();
							}
							else if (tok_is_keyword(tok, &yylval,
													K_WARNING, "warning"))
							{
								new->elog_level = WARNING;
								tok = yylex();
							}
							else if (tok_is_keyword(tok, &yylval,
													K_NOTICE, "notice"))
							{
								new->elog_level = NOTICE;
								tok = yylex();
							}
							else if (tok_is_keyword(tok, &yylval,
													K_INFO, "info"))
							{
								new->elog_level = INFO;
								tok = yylex();
							}
							else if (tok_is_keyword(tok, &yylval,
													K_LOG, "log"))
							{
								new->elog_level = LOG;
								tok = yylex();
							}
							else if (tok_is_keyword(tok, &yylval,
													K_DEBUG, "debug"))
							{
								new->elog_level = DEBUG1;
								tok = yylex();
							}
							if (tok == 0)
								yyerror("unexpected end of function definition");

							/*
							 * Next we can have a condition name, or
							 * equivalently SQLSTATE 'xxxxx', or a string
							 * literal that is the old-style message format,
							 * or USING to start the option list immediately.
							 */
							if (tok == SCONST)
							{
								/* old style message and parameters */
								new->message = yylval.str;

								/*
								 * We expect either a semi-colon, which
								 * indicates no parameters, or a comma that
								 * begins the list of parameter expressions,
								 * or USING to begin the options list.
								 */
								tok = yylex();
								if (tok != ',' && tok != ';' && tok != K_USING)
									yyerror("syntax error");

								while (tok == ',')
								{
									PlnExpr    *expr;

									expr = read_sql_construct(',', ';', K_USING,
															  ", or ; or USING",
															  RAW_PARSE_PLPGSQL_EXPR,
															  true, true,
															  NULL, &tok);
									new->params = lappend(new->params, expr);
								}
							}
							else if (tok != K_USING)
							{
								/* must be condition name or SQLSTATE */
								if (tok_is_keyword(tok, &yylval,
												   K_SQLSTATE, "sqlstate"))
								{
									/* next token should be a string literal */
									char	   *sqlstatestr;

									if (yylex() != SCONST)
										yyerror("syntax error");
									sqlstatestr = yylval.str;

									if (strlen(sqlstatestr) != 5)
										yyerror("invalid SQLSTATE code");
									if (strspn(sqlstatestr, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5)
										yyerror("invalid SQLSTATE code");
									new->condname = sqlstatestr;
								}
								else
								{
									if (tok == T_WORD)
										new->condname = yylval.word.ident;
									else if (pln_token_is_unreserved_keyword(tok))
										new->condname = pstrdup(yylval.keyword);
									else
										yyerror("syntax error");
									pln_recognize_err_condition(new->condname,
																false);
								}
								tok = yylex();
								if (tok != ';' && tok != K_USING)
									yyerror("syntax error");
							}

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
 * T_WORD+T_CWORD match any initial identifier that is not a known plpgsql
 * variable.  (The composite case is probably a syntax error, but we'll let
 * the core parser decide that.)  Normally, we should assume that such a
 * word is a SQL statement keyword that isn't also a plpgsql keyword.
 * However, if the next token is assignment or '[' or '.', it can't be a valid
 * SQL statement, and what we're probably looking at is an intended variable
 * assignment.  Give an appropriate complaint for that, instead of letting
 * the core parser throw an unhelpful "syntax error".
 */
stmt_execsql	: K_IMPORT
					{
						$$ = make_execsql_stmt(K_IMPORT, @1);
					}
				| K_INSERT
					{
						$$ = make_execsql_stmt(K_INSERT, @1);
					}
				| K_MERGE
					{
						$$ = make_execsql_stmt(K_MERGE, @1);
					}
				| T_WORD
					{
						int			tok;

						tok = yylex();
						pln_push_back_token(tok);
						if (tok == '=' || tok == COLON_EQUALS ||
							tok == '[' || tok == '.')
							word_is_not_variable(&($1), @1);
						$$ = make_execsql_stmt(T_WORD, @1);
					}
				| T_CWORD
					{
						int			tok;

						tok = yylex();
						pln_push_back_token(tok);
						if (tok == '=' || tok == COLON_EQUALS ||
							tok == '[' || tok == '.')
							cword_is_not_variable(&($1), @1);
						$$ = make_execsql_stmt(T_CWORD, @1);
					}
				;

stmt_dynexecute : K_EXECUTE
					{
						not_supported_yet("EXECUTE", @1);
					}
				;

stmt_open		: K_OPEN
					{
						not_supported_yet("OPEN", @1);
					}
				;

stmt_fetch		: K_FETCH
					{
						not_supported_yet("FETCH", @1);
					}
				;

stmt_move		: K_MOVE
					{
						not_supported_yet("MOVE", @1);
					}
				;

stmt_close		: K_CLOSE cursor_variable ';'
					{
						not_supported_yet("CLOSE", @1);
					}
				;

stmt_null		: K_NULL ';'
					{
						/* We do not bother building a node for NULL */
						$$ = NULL;
					}
				;

stmt_commit		: K_COMMIT
					{
						not_supported_yet("COMMIT", @1);
					}
				;

stmt_rollback	: K_ROLLBACK
					{
						not_supported_yet("ROLLBACK", @1);
					}
				;

cursor_variable	: T_DATUM
					{
						/*
						 * In principle we should support a cursor_variable
						 * that is an array element, but for now we don't, so
						 * just throw an error if next token is '['.
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
						/* just to give a better message than "syntax error" */
						word_is_not_variable(&($1), @1);
					}
				| T_CWORD
					{
						/* just to give a better message than "syntax error" */
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
						 * of the block.
						 */
						int			lineno = pln_location_to_lineno(@1);
						PlnExceptionBlock *new = palloc(sizeof(PlnExceptionBlock));
						PlnVariable *var;

						var = pln_build_variable("sqlstate", lineno,
												 pln_build_datatype(TEXTOID,
																	-1,
																	pln_curr_compile->fn_input_collation,
																	NULL),
												 true);
						var->isconst = true;
						new->sqlstate_varno = var->dno;

						var = pln_build_variable("sqlerrm", lineno,
												 pln_build_datatype(TEXTOID,
																	-1,
																	pln_curr_compile->fn_input_collation,
																	NULL),
												 true);
						var->isconst = true;
						new->sqlerrm_varno = var->dno;

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
							PlnCondition *old;

							for (old = $1; old->next != NULL; old = old->next)
								/* skip */ ;
							old->next = $3;
							$$ = $1;
						}
				| proc_condition
						{
							$$ = $1;
						}
				;

proc_condition	: any_identifier
						{
							if (strcmp($1, "sqlstate") != 0)
							{
								$$ = pln_parse_err_condition($1);
							}
							else
							{
								PlnCondition *new;
								char	   *sqlstatestr;

								/* next token should be a string literal */
								if (yylex() != SCONST)
									yyerror("syntax error");
								sqlstatestr = yylval.str;

								if (strlen(sqlstatestr) != 5)
									yyerror("invalid SQLSTATE code");
								if (strspn(sqlstatestr, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5)
									yyerror("invalid SQLSTATE code");

								new = palloc(sizeof(PlnCondition));
								new->sqlerrstate =
									MAKE_SQLSTATE(sqlstatestr[0],
												  sqlstatestr[1],
												  sqlstatestr[2],
												  sqlstatestr[3],
												  sqlstatestr[4]);
								new->condname = sqlstatestr;
								new->next = NULL;

								$$ = new;
							}
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
						/* label validity will be checked by outer production */
						$$ = $1;
					}
				;

opt_exitcond	: ';'
					{ $$ = NULL; }
				| K_WHEN expr_until_semi
					{ $$ = $2; }
				;

/*
 * need to allow DATUM because scanner will have tried to resolve as variable
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
						if ($1.ident == NULL) /* composite name not OK */
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

static char *
name_of_cword_list(List *idents)
{
	StringInfoData ds;
	ListCell   *lc;

	initStringInfo(&ds);
	foreach(lc, idents)
	{
		if (lc != list_head(idents))
			appendStringInfoChar(&ds, '.');
		appendStringInfoString(&ds, quote_identifier(strVal(lfirst(lc))));
	}
	return ds.data;
}

static char *
name_of_cword(PlnCWord *cword)
{
	return name_of_cword_list(cword->idents);
}


/*
 * Is the token the given keyword?  Unreserved keywords can come back as
 * T_DATUM when a variable has that name; the statement's position decides.
 */
static bool
tok_is_keyword(int token, PLN_YYSTYPE *lval,
			   int kw_token, const char *kw_str)
{
	if (token == kw_token)
		return true;
	if (token == T_DATUM)
	{
		if (!lval->wdatum.quoted && lval->wdatum.ident != NULL &&
			strcmp(lval->wdatum.ident, kw_str) == 0)
			return true;
	}
	return false;
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

static void
not_supported_yet(const char *what, int location)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s is not supported by PL/nimble yet", what),
			 pln_scanner_errposition(location)));
}

/*
 * Read SQL text up to one of the terminator tokens, which is consumed but
 * not included.  Parentheses must balance; the terminators only count
 * outside them.
 *
 * until, until2, until3: token codes that end the text (0 = unused)
 * expected: terminator text for the error message
 * parsemode: how the core parser should read the text
 * isexpression: for error messages, whether this is an expression
 * valid_sql: whether to syntax-check now (when compiling for validation)
 * startloc: if not NULL, receives the byte offset of the first token
 * endtoken: if not NULL, receives the terminator that ended the text
 */
static PlnExpr *
read_sql_construct(int until, int until2, int until3,
				   const char *expected, RawParseMode parsemode,
				   bool isexpression, bool valid_sql,
				   int *startloc, int *endtoken)
{
	int			tok;
	StringInfoData ds;
	PlnIdentifierLookup save_lookup;
	int			startlocation = -1;
	int			parenlevel = 0;
	PlnExpr    *expr;

	initStringInfo(&ds);

	/* inside SQL text, the core parser resolves names through our hooks */
	save_lookup = pln_IdentifierLookup;
	pln_IdentifierLookup = PLN_LOOKUP_EXPR;

	for (;;)
	{
		tok = yylex();
		if (startlocation < 0)	/* remember loc of first token */
			startlocation = yylloc;
		if (tok == until && parenlevel == 0)
			break;
		if (tok == until2 && parenlevel == 0)
			break;
		if (tok == until3 && parenlevel == 0)
			break;
		if (tok == '(' || tok == '[')
			parenlevel++;
		else if (tok == ')' || tok == ']')
		{
			parenlevel--;
			if (parenlevel < 0)
				yyerror("mismatched parentheses");
		}

		/*
		 * End of function definition is an error, and we don't expect to
		 * hit a semicolon either (unless it's the until symbol, in which
		 * case we should have fallen out above).
		 */
		if (tok == 0 || tok == ';')
		{
			if (parenlevel != 0)
				yyerror("mismatched parentheses");
			if (isexpression)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("missing \"%s\" at end of SQL expression",
								expected),
						 pln_scanner_errposition(yylloc)));
			else
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("missing \"%s\" at end of SQL statement",
								expected),
						 pln_scanner_errposition(yylloc)));
		}
	}

	pln_IdentifierLookup = save_lookup;

	if (startloc)
		*startloc = startlocation;
	if (endtoken)
		*endtoken = tok;

	/* give a helpful complaint about empty input */
	if (startlocation >= yylloc)
	{
		if (isexpression)
			yyerror("missing expression");
		else
			yyerror("missing SQL statement");
	}

	/*
	 * The text runs to the start of the terminator, less trailing
	 * whitespace and comments.
	 */
	pln_append_source_text(&ds, startlocation, yylloc);
	while (ds.len > 0 && scanner_isspace(ds.data[ds.len - 1]))
		ds.data[--ds.len] = '\0';

	expr = make_plexpr(ds.data, parsemode, startlocation);
	if (valid_sql)
		check_sql_expr(expr->query, expr->parseMode, startlocation);

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
 * Syntax checking of SQL text at validation time
 * ----------
 */
typedef struct SqlErrorCallbackArg
{
	int			location;		/* byte offset of the text in the body */
} SqlErrorCallbackArg;

/*
 * Move the core parser's error position, which counts from the start of
 * the SQL text, to the matching place in the function body.
 */
static void
sql_syntax_error_callback(void *arg)
{
	SqlErrorCallbackArg *cbarg = (SqlErrorCallbackArg *) arg;
	int			errpos;

	/* the start of the SQL text, as a position inside the body */
	pln_scanner_errposition(cbarg->location);

	errpos = geterrposition();
	if (errpos > 0)
	{
		int			mypos = getinternalerrposition();

		if (mypos > 0)
			internalerrposition(mypos + errpos - 1);
	}

	/* report only the position inside the body */
	errposition(0);
}

static void
check_sql_expr(const char *stmt, RawParseMode parseMode, int location)
{
	SqlErrorCallbackArg cbarg;
	ErrorContextCallback syntax_errcontext;
	MemoryContext oldCxt;

	if (!pln_check_syntax)
		return;

	cbarg.location = location;

	syntax_errcontext.callback = sql_syntax_error_callback;
	syntax_errcontext.arg = &cbarg;
	syntax_errcontext.previous = error_context_stack;
	error_context_stack = &syntax_errcontext;

	oldCxt = MemoryContextSwitchTo(pln_compile_tmp_cxt);
	(void) raw_parser(stmt, parseMode);
	MemoryContextSwitchTo(oldCxt);

	/* restore former ereport callback */
	error_context_stack = syntax_errcontext.previous;
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
	ErrorContextCallback syntax_errcontext;

	cbarg.location = location;

	syntax_errcontext.callback = sql_syntax_error_callback;
	syntax_errcontext.arg = &cbarg;
	syntax_errcontext.previous = error_context_stack;
	error_context_stack = &syntax_errcontext;

	/* let the main parser try to parse it under standard SQL rules */
	typeName = typeStringToTypeName(string);
	typenameTypeIdAndMod(NULL, typeName, &type_id, &typmod);

	error_context_stack = syntax_errcontext.previous;

	return pln_build_datatype(type_id, typmod,
							  pln_curr_compile->fn_input_collation,
							  typeName);
}

/*
 * The type of table.column (or schema.table.column), for %TYPE; NULL if
 * there is no such column.
 */
static PlnType *
column_type_of(List *idents)
{
	RangeVar   *relvar;
	Oid			relid;
	AttrNumber	attnum;
	Oid			typid;
	int32		typmod;
	Oid			collid;
	char	   *colname;

	if (list_length(idents) == 2)
		relvar = makeRangeVar(NULL, strVal(linitial(idents)), -1);
	else if (list_length(idents) == 3)
		relvar = makeRangeVar(strVal(linitial(idents)),
							  strVal(lsecond(idents)), -1);
	else
		return NULL;
	colname = strVal(llast(idents));

	relid = RangeVarGetRelid(relvar, NoLock, true);
	if (!OidIsValid(relid))
		return NULL;
	attnum = get_attnum(relid, colname);
	if (attnum == InvalidAttrNumber)
		return NULL;
	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
	return pln_build_datatype(typid, typmod, collid, NULL);
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

	/* Should only be called while parsing DECLARE sections */
	Assert(pln_IdentifierLookup == PLN_LOOKUP_DECLARE);

	/* Often there will be a lookahead token, but if not, get one */
	if (tok == PLN_YYEMPTY)
		tok = yylex();

	startlocation = yylloc;

	/*
	 * name%TYPE: the type of a variable or of a table column.
	 */
	if (tok == T_WORD || tok == T_CWORD || pln_token_is_unreserved_keyword(tok))
	{
		PLN_YYSTYPE save_lval = yylval;
		int			save_tok = tok;

		tok = yylex();
		if (tok == '%')
		{
			tok = yylex();
			if (tok_is_keyword(tok, &yylval, K_TYPE, "type"))
			{
				List	   *idents;
				PlnNsItem  *nsi = NULL;

				if (save_tok == T_WORD)
					idents = list_make1(makeString(save_lval.word.ident));
				else if (save_tok == T_CWORD)
					idents = save_lval.cword.idents;
				else
					idents = list_make1(makeString(pstrdup(save_lval.keyword)));

				if (list_length(idents) <= 3)
					nsi = pln_ns_lookup(pln_ns_top(), false,
										strVal(linitial(idents)),
										list_length(idents) > 1 ? strVal(lsecond(idents)) : NULL,
										list_length(idents) > 2 ? strVal(lthird(idents)) : NULL,
										NULL);
				if (nsi != NULL && nsi->itemtype == PLN_NS_VAR)
					result = ((PlnVar *) pln_curr_compile->datums[nsi->itemno])->datatype;
				else if (list_length(idents) >= 2 &&
						 (result = column_type_of(idents)) != NULL)
				{
					/* table.column%TYPE */
				}
				else if (list_length(idents) >= 2)
				{
					/* table.column%TYPE */
					TypeName   *tn = makeTypeNameFromNameList(idents);

					tn->pct_type = true;
					{
						Oid			typid;
						int32		typmod;
						SqlErrorCallbackArg cbarg;
						ErrorContextCallback errcb;

						cbarg.location = startlocation;
						errcb.callback = sql_syntax_error_callback;
						errcb.arg = &cbarg;
						errcb.previous = error_context_stack;
						error_context_stack = &errcb;
						typenameTypeIdAndMod(NULL, tn, &typid, &typmod);
						error_context_stack = errcb.previous;
						result = pln_build_datatype(typid, typmod,
													pln_curr_compile->fn_input_collation,
													tn);
					}
				}
				else
				{
					ereport(ERROR,
							(errcode(ERRCODE_UNDEFINED_OBJECT),
							 errmsg("variable \"%s\" does not exist",
									strVal(linitial(idents))),
							 pln_scanner_errposition(startlocation)));
					result = NULL;
				}
				return result;
			}
			else if (tok_is_keyword(tok, &yylval, K_ROWTYPE, "rowtype"))
				not_supported_yet("%ROWTYPE", startlocation);
			pln_push_back_token(tok);
			tok = '%';
		}
		else
		{
			/* not %TYPE: read on from here */
		}
	}

	while (tok != ';')
	{
		if (tok == 0)
		{
			if (parenlevel != 0)
				yyerror("mismatched parentheses");
			else
				yyerror("incomplete data type declaration");
		}
		/* Possible followers for datatype in a declaration */
		if (tok == K_COLLATE || tok == K_NOT ||
			tok == '=' || tok == COLON_EQUALS || tok == K_DEFAULT)
			break;
		/* Possible followers for datatype in a cursor_arg list */
		if ((tok == ',' || tok == ')') && parenlevel == 0)
			break;
		if (tok == '(')
			parenlevel++;
		else if (tok == ')')
			parenlevel--;

		tok = yylex();
	}

	/* set up ds to contain complete typename text */
	initStringInfo(&ds);
	pln_append_source_text(&ds, startlocation, yylloc);
	while (ds.len > 0 && scanner_isspace(ds.data[ds.len - 1]))
		ds.data[--ds.len] = '\0';
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
static PlnStmt *
make_execsql_stmt(int firsttoken, int location)
{
	StringInfoData ds;
	PlnIdentifierLookup save_lookup;
	PlnStmtExecSql *execsql;
	PlnExpr    *expr;
	PlnVariable *target = NULL;
	int			tok;
	int			prev_tok;
	bool		have_into = false;
	bool		have_strict = false;
	int			into_start_loc = -1;
	int			into_end_loc = -1;

	initStringInfo(&ds);

	/* special lookup mode for identifiers within the SQL text */
	save_lookup = pln_IdentifierLookup;
	pln_IdentifierLookup = PLN_LOOKUP_EXPR;

	/*
	 * Scan to the end of the command, looking for an INTO clause.  INTO
	 * also appears in the SQL grammar itself: INSERT INTO, MERGE INTO and
	 * IMPORT FOREIGN SCHEMA ... INTO are not ours.  SELECT ... INTO is
	 * taken over by the PL meaning.
	 */
	tok = firsttoken;
	for (;;)
	{
		prev_tok = tok;
		tok = yylex();
		if (have_into && into_end_loc < 0)
			into_end_loc = yylloc;	/* token after the INTO part */
		if (tok == ';')
			break;
		if (tok == 0)
			yyerror("unexpected end of function definition");
		if (tok == K_INTO)
		{
			if (prev_tok == K_INSERT)
				continue;		/* INSERT INTO is not an INTO-target */
			if (prev_tok == K_MERGE)
				continue;		/* MERGE INTO is not an INTO-target */
			if (firsttoken == K_IMPORT)
				continue;		/* IMPORT ... INTO is not an INTO-target */
			if (have_into)
				yyerror("INTO specified more than once");
			have_into = true;
			into_start_loc = yylloc;
			pln_IdentifierLookup = PLN_LOOKUP_NORMAL;
			read_into_target(&target, &have_strict);
			pln_IdentifierLookup = PLN_LOOKUP_EXPR;
		}
	}

	pln_IdentifierLookup = save_lookup;

	if (have_into)
	{
		/*
		 * Replace the INTO clause by spaces, so that positions in the
		 * remaining text match the original.
		 */
		pln_append_source_text(&ds, location, into_start_loc);
		appendStringInfoSpaces(&ds, into_end_loc - into_start_loc);
		pln_append_source_text(&ds, into_end_loc, yylloc);
	}
	else
		pln_append_source_text(&ds, location, yylloc);

	/* trim any trailing whitespace, for neatness */
	while (ds.len > 0 && scanner_isspace(ds.data[ds.len - 1]))
		ds.data[--ds.len] = '\0';

	expr = make_plexpr(ds.data, RAW_PARSE_DEFAULT, location);
	check_sql_expr(expr->query, expr->parseMode, location);

	execsql = palloc0(sizeof(PlnStmtExecSql));
	execsql->cmd_type = PLN_STMT_EXECSQL;
	execsql->lineno = pln_location_to_lineno(location);
	execsql->stmtid = pln_next_stmtid();
	execsql->sqlstmt = expr;
	execsql->into = have_into;
	execsql->strict = have_strict;
	execsql->target = target;

	return (PlnStmt *) execsql;
}

/*
 * Read an INTO target: one record variable, or a list of scalar variables.
 */
static void
read_into_target(PlnVariable **target, bool *strict)
{
	int			tok;

	/* Set default results */
	*target = NULL;
	if (strict)
		*strict = false;

	tok = yylex();
	if (strict && tok == K_STRICT)
	{
		*strict = true;
		tok = yylex();
	}

	/*
	 * Currently, a row or record variable can be the single INTO target,
	 * but not a member of a multi-target list.  So we throw error if there
	 * is a comma after it, because that probably means the user tried to
	 * write a multi-target list.  If this ever gets generalized, we should
	 * probably refactor read_into_scalar_list so it handles all cases.
	 */
	switch (tok)
	{
		case T_DATUM:
			if (yylval.wdatum.datum->dtype == PLN_DTYPE_ROW ||
				yylval.wdatum.datum->dtype == PLN_DTYPE_REC)
			{
				check_assignable(yylval.wdatum.datum, yylloc);
				*target = (PlnVariable *) yylval.wdatum.datum;

				if ((tok = yylex()) == ',')
					ereport(ERROR,
							(errcode(ERRCODE_SYNTAX_ERROR),
							 errmsg("record variable cannot be part of multiple-item INTO list"),
							 pln_scanner_errposition(yylloc)));
				pln_push_back_token(tok);
			}
			else
			{
				*target = (PlnVariable *)
					read_into_scalar_list(NameOfDatum(&(yylval.wdatum)),
										  yylval.wdatum.datum, yylloc);
			}
			break;

		default:
			/* just to give a better message than "syntax error" */
			current_token_is_not_variable(tok);
	}
}

/*
 * Given the first datum and name in the INTO list, continue to read
 * comma-separated scalar variables until we run out. Then construct
 * and return a fake "row" variable that represents the list of
 * scalars.
 */
static PlnRow *
read_into_scalar_list(char *initial_name,
					  PlnDatum *initial_datum,
					  int initial_location)
{
	int			nfields;
	char	   *fieldnames[1024];
	int			varnos[1024];
	PlnRow	   *row;
	int			tok;

	check_assignable(initial_datum, initial_location);
	fieldnames[0] = initial_name;
	varnos[0] = initial_datum->dno;
	nfields = 1;

	while ((tok = yylex()) == ',')
	{
		/* Check for array overflow */
		if (nfields >= 1024)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many INTO variables specified"),
					 pln_scanner_errposition(yylloc)));

		tok = yylex();
		switch (tok)
		{
			case T_DATUM:
				check_assignable(yylval.wdatum.datum, yylloc);
				if (yylval.wdatum.datum->dtype == PLN_DTYPE_ROW ||
					yylval.wdatum.datum->dtype == PLN_DTYPE_REC)
					ereport(ERROR,
							(errcode(ERRCODE_SYNTAX_ERROR),
							 errmsg("\"%s\" is not a scalar variable",
									NameOfDatum(&(yylval.wdatum))),
							 pln_scanner_errposition(yylloc)));
				fieldnames[nfields] = NameOfDatum(&(yylval.wdatum));
				varnos[nfields++] = yylval.wdatum.datum->dno;
				break;

			default:
				/* just to give a better message than "syntax error" */
				current_token_is_not_variable(tok);
		}
	}

	/*
	 * We read an extra, non-comma token from yylex(), so push it back onto
	 * the input stream
	 */
	pln_push_back_token(tok);

	row = palloc0(sizeof(PlnRow));
	row->dtype = PLN_DTYPE_ROW;
	row->refname = "(unnamed row)";
	row->lineno = pln_location_to_lineno(initial_location);
	row->nfields = nfields;
	row->fieldnames = palloc(sizeof(char *) * nfields);
	row->varnos = palloc(sizeof(int) * nfields);
	while (--nfields >= 0)
	{
		row->fieldnames[nfields] = fieldnames[nfields];
		row->varnos[nfields] = varnos[nfields];
	}

	pln_add_datum((PlnDatum *) row);

	return row;
}

static PlnStmt *
make_return_stmt(int location)
{
	PlnStmtReturn *new;

	new = palloc0(sizeof(PlnStmtReturn));
	new->cmd_type = PLN_STMT_RETURN;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();
	new->expr = NULL;
	new->retvarno = -1;

	if (pln_curr_compile->fn_retset)
	{
		if (yylex() != ';')
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("RETURN cannot have a parameter in function returning set"),
					 errhint("Use RETURN NEXT or RETURN QUERY."),
					 pln_scanner_errposition(yylloc)));
	}
	else if (pln_curr_compile->fn_rettype == VOIDOID)
	{
		if (yylex() != ';')
		{
			if (pln_curr_compile->fn_prokind == PROKIND_PROCEDURE)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("RETURN cannot have a parameter in a procedure"),
						 pln_scanner_errposition(yylloc)));
			else
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("RETURN cannot have a parameter in function returning void"),
						 pln_scanner_errposition(yylloc)));
		}
	}
	else
	{
		/* a plain variable is returned without the SQL machinery */
		int			tok = yylex();

		if (tok == T_DATUM && pln_peek() == ';' &&
			(yylval.wdatum.datum->dtype == PLN_DTYPE_VAR ||
			 yylval.wdatum.datum->dtype == PLN_DTYPE_ROW ||
			 yylval.wdatum.datum->dtype == PLN_DTYPE_REC))
		{
			new->retvarno = yylval.wdatum.datum->dno;
			/* eat the semicolon token that we only peeked at above */
			tok = yylex();
			Assert(tok == ';');
		}
		else
		{
			/* an expression is required here */
			pln_push_back_token(tok);
			new->expr = read_sql_expression(';', ";");
		}
	}

	return (PlnStmt *) new;
}

static List *
read_raise_options(void)
{
	List	   *result = NIL;

	for (;;)
	{
		PlnRaiseOption *opt;
		int			tok;

		if ((tok = yylex()) == 0)
			yyerror("unexpected end of function definition");

		opt = (PlnRaiseOption *) palloc(sizeof(PlnRaiseOption));

		if (tok_is_keyword(tok, &yylval,
						   K_ERRCODE, "errcode"))
			opt->opt_type = PLN_RAISEOPT_ERRCODE;
		else if (tok_is_keyword(tok, &yylval,
								K_MESSAGE, "message"))
			opt->opt_type = PLN_RAISEOPT_MESSAGE;
		else if (tok_is_keyword(tok, &yylval,
								K_DETAIL, "detail"))
			opt->opt_type = PLN_RAISEOPT_DETAIL;
		else if (tok_is_keyword(tok, &yylval,
								K_HINT, "hint"))
			opt->opt_type = PLN_RAISEOPT_HINT;
		else if (tok_is_keyword(tok, &yylval,
								K_COLUMN, "column"))
			opt->opt_type = PLN_RAISEOPT_COLUMN;
		else if (tok_is_keyword(tok, &yylval,
								K_CONSTRAINT, "constraint"))
			opt->opt_type = PLN_RAISEOPT_CONSTRAINT;
		else if (tok_is_keyword(tok, &yylval,
								K_DATATYPE, "datatype"))
			opt->opt_type = PLN_RAISEOPT_DATATYPE;
		else if (tok_is_keyword(tok, &yylval,
								K_TABLE, "table"))
			opt->opt_type = PLN_RAISEOPT_TABLE;
		else if (tok_is_keyword(tok, &yylval,
								K_SCHEMA, "schema"))
			opt->opt_type = PLN_RAISEOPT_SCHEMA;
		else
			yyerror("unrecognized RAISE statement option");

		tok = yylex();
		if (tok != '=' && tok != COLON_EQUALS)
			yyerror("syntax error, expected \"=\"");

		opt->expr = read_sql_expression2(',', ';', ", or ;", &tok);

		result = lappend(result, opt);

		if (tok == ';')
			break;
	}

	return result;
}

/*
 * The number of % placeholders in a RAISE format must match the number of
 * arguments ("%%" is a literal percent sign).
 */
static void
check_raise_parameters(PlnStmtRaise *stmt)
{
	char	   *cp;
	int			expected_nparams = 0;

	if (stmt->message == NULL)
		return;

	for (cp = stmt->message; *cp; cp++)
	{
		if (cp[0] == '%')
		{
			/* ignore literal % characters */
			if (cp[1] == '%')
				cp++;
			else
				expected_nparams++;
		}
	}

	if (expected_nparams < list_length(stmt->params))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("too many parameters specified for RAISE")));
	if (expected_nparams > list_length(stmt->params))
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
	if (end_label)
	{
		if (!start_label)
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
}

/* A CONSTANT may not be the target of an assignment or INTO */
static void
check_assignable(PlnDatum *datum, int location)
{
	switch (datum->dtype)
	{
		case PLN_DTYPE_VAR:
		case PLN_DTYPE_REC:
			if (((PlnVariable *) datum)->isconst)
				ereport(ERROR,
						(errcode(ERRCODE_ERROR_IN_ASSIGNMENT),
						 errmsg("variable \"%s\" is declared CONSTANT",
								((PlnVariable *) datum)->refname),
						 pln_scanner_errposition(location)));
			break;
		case PLN_DTYPE_ROW:
			/* always assignable; member vars were checked at compile time */
			break;
		case PLN_DTYPE_RECFIELD:
			/* assignable if parent record is */
			check_assignable(pln_curr_compile->datums[((PlnRecField *) datum)->recparentno],
							 location);
			break;
		default:
			elog(ERROR, "unrecognized dtype: %d", datum->dtype);
			break;
	}
}

/*
 * Build the statement for CASE.  With a search expression, its value goes
 * into a hidden variable and each WHEN becomes "var IN (when-list)".
 */
static PlnStmt *
make_case(int location, PlnExpr *t_expr,
		  List *case_when_list, List *else_stmts)
{
	PlnStmtCase *new;

	new = palloc(sizeof(PlnStmtCase));
	new->cmd_type = PLN_STMT_CASE;
	new->lineno = pln_location_to_lineno(location);
	new->stmtid = pln_next_stmtid();
	new->t_expr = t_expr;
	new->t_varno = 0;
	new->case_when_list = case_when_list;
	new->have_else = (else_stmts != NIL);
	/* Get rid of list-with-NULL hack */
	if (list_length(else_stmts) == 1 && linitial(else_stmts) == NULL)
		new->else_stmts = NIL;
	else
		new->else_stmts = else_stmts;

	if (t_expr)
	{
		char		varname[32];
		PlnVar	   *t_var;
		ListCell   *l;

		/* use a name unlikely to collide with any user names */
		snprintf(varname, sizeof(varname), "__Case__Variable_%d__",
				 pln_curr_compile->ndatums);

		/*
		 * We don't yet know the result datatype of t_expr.  Build the
		 * variable as if it were INT4; we'll fix this at runtime if needed.
		 */
		t_var = (PlnVar *)
			pln_build_variable(varname, new->lineno,
							   pln_build_datatype(INT4OID,
												  -1,
												  InvalidOid,
												  NULL),
							   true);
		new->t_varno = t_var->dno;

		foreach(l, case_when_list)
		{
			PlnCaseWhen *cwt = (PlnCaseWhen *) lfirst(l);
			PlnExpr    *expr = cwt->expr;
			StringInfoData ds;

			/* We expect to have expressions not statements */
			Assert(expr->parseMode == RAW_PARSE_PLPGSQL_EXPR);

			/* Do the string hacking */
			initStringInfo(&ds);

			appendStringInfo(&ds, "\"%s\" IN (%s)",
							 varname, expr->query);

			pfree(expr->query);
			expr->query = pstrdup(ds.data);
			/* Adjust expr's namespace to include the case variable */
			expr->ns = pln_ns_top();

			pfree(ds.data);
		}
	}

	return (PlnStmt *) new;
}

/*
 * Collect the variables declared since the last call, for the block's
 * initialisation list.  With varnos == NULL, just forget them.
 */
static int
add_initdatums(int **varnos)
{
	static int	datums_last = 0;
	int			i;
	int			n = 0;

	if (pln_curr_compile == NULL)
		return 0;

	if (varnos != NULL)
	{
		for (i = datums_last; i < pln_curr_compile->ndatums; i++)
		{
			switch (pln_curr_compile->datums[i]->dtype)
			{
				case PLN_DTYPE_VAR:
				case PLN_DTYPE_REC:
					n++;
					break;
				default:
					break;
			}
		}

		if (n > 0)
		{
			*varnos = (int *) palloc(sizeof(int) * n);

			n = 0;
			for (i = datums_last; i < pln_curr_compile->ndatums; i++)
			{
				switch (pln_curr_compile->datums[i]->dtype)
				{
					case PLN_DTYPE_VAR:
					case PLN_DTYPE_REC:
						(*varnos)[n++] = pln_curr_compile->datums[i]->dno;
						break;
					default:
						break;
				}
			}
		}
		else
			*varnos = NULL;
	}

	datums_last = pln_curr_compile->ndatums;
	return n;
}
