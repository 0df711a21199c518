/*-------------------------------------------------------------------------
 *
 * plnimble.h
 *	  Shared definitions of the PL/nimble procedural language.
 *
 * The pipeline is: scanner (grammar/scan.l) -> grammar (grammar/gram.y)
 * -> compiler and function cache (compile.c, namespace.c) -> executor
 * (exec.c for statements, exec_expr.c for expressions, exec_sql.c for SQL
 * statements, assign.c for targets, raise.c for RAISE, savepoint.c for
 * exception blocks).  This header holds the compiled-function tree that
 * the grammar builds and the executor walks, plus the entry points each
 * module offers the others.
 *
 * Everything in a compiled function (PlnFunction and all it points to)
 * lives in the function's own memory context, fn_cxt, and survives across
 * transactions until the function is recompiled.  Per-call state lives in
 * PlnExecState and is allocated in the caller's SPI procedure context.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLNIMBLE_H
#define PLNIMBLE_H

#include "postgres.h"

#include "access/htup.h"
#include "access/tupdesc.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "nodes/bitmapset.h"
#include "nodes/execnodes.h"
#include "nodes/memnodes.h"
#include "parser/parser.h"
#include "utils/expandedrecord.h"
#include "utils/plancache.h"
#include "utils/tuplestore.h"

#define PLN_LANG_TITLE		"PL/nimble"

/* ----------
 * Datums: the variables of a function, numbered by dno
 * ----------
 */
typedef enum PlnDatumType
{
	PLN_DTYPE_VAR,				/* scalar variable */
	PLN_DTYPE_ROW,				/* fixed list of variables (INTO a, b) */
	PLN_DTYPE_REC,				/* record variable of any row shape */
	PLN_DTYPE_RECFIELD			/* field of a record variable */
} PlnDatumType;

/* A resolved data type, as needed to store and convert values */
typedef struct PlnType
{
	char	   *typname;		/* for messages */
	Oid			typoid;
	int32		atttypmod;
	Oid			collation;
	int16		typlen;
	bool		typbyval;
	char		typtype;		/* 'b', 'c', 'd', 'e', 'p', 'r', 'm' */
	bool		is_composite;	/* row type or RECORD: stored in a PlnRec */
	bool		typisarray;		/* an array (or a domain over one): kept
								 * as an expanded array */
} PlnType;

/* Fields common to every datum */
typedef struct PlnDatum
{
	PlnDatumType dtype;
	int			dno;
} PlnDatum;

/* Fields common to the datums that can be named in the namespace */
typedef struct PlnVariable
{
	PlnDatumType dtype;
	int			dno;
	char	   *refname;
	int			lineno;
	bool		isconst;
	bool		notnull;
	struct PlnExpr *default_val;
} PlnVariable;

typedef struct PlnVar
{
	PlnDatumType dtype;
	int			dno;
	char	   *refname;
	int			lineno;
	bool		isconst;
	bool		notnull;
	struct PlnExpr *default_val;

	PlnType    *datatype;

	/* a bound cursor (name CURSOR [(args)] FOR query): its query, the row
	 * of its argument variables (or -1) and its scroll options */
	struct PlnExpr *cursor_explicit_expr;
	int			cursor_explicit_argrow;
	int			cursor_options;

	/* run-time value; freeval says whether value is ours to pfree */
	Datum		value;
	bool		isnull;
	bool		freeval;
	/* a text buffer with room to grow, valid while it is value (see
	 * text_append.c); append_cap is its allocated size */
	char	   *append_buf;
	Size		append_cap;
} PlnVar;

typedef struct PlnRow
{
	PlnDatumType dtype;
	int			dno;
	char	   *refname;
	int			lineno;
	bool		isconst;
	bool		notnull;
	struct PlnExpr *default_val;

	int			nfields;
	char	  **fieldnames;
	int		   *varnos;			/* dno of each member variable */
	TupleDesc	rowtupdesc;		/* for OUT parameters: the row's shape as
								 * a value; NULL for INTO lists */
} PlnRow;

typedef struct PlnRec
{
	PlnDatumType dtype;
	int			dno;
	char	   *refname;
	int			lineno;
	bool		isconst;
	bool		notnull;
	struct PlnExpr *default_val;

	Oid			rectypeid;		/* RECORDOID, or a named composite type */

	/*
	 * Run-time value: an expanded record (NULL when never assigned).  The
	 * expanded record lives in a context of its own, child of the call's
	 * datum context, so replacing it frees the old one.
	 */
	ExpandedRecordHeader *erh;
} PlnRec;

typedef struct PlnRecField
{
	PlnDatumType dtype;
	int			dno;
	char	   *fieldname;
	int			recparentno;	/* dno of the record */
	/* lookup cache, valid while the record's tupdesc id is unchanged */
	uint64		rectupdescid;
	ExpandedRecordFieldInfo finfo;
} PlnRecField;

/* ----------
 * Namespace: names visible at a point of the function text
 * ----------
 */
typedef enum PlnNsType
{
	PLN_NS_LABEL,				/* block or loop label (may be unnamed) */
	PLN_NS_VAR,					/* a PlnVar */
	PLN_NS_REC,					/* a PlnRec */
	PLN_NS_ROW					/* a PlnRow */
} PlnNsType;

typedef enum PlnLabelType
{
	PLN_LABEL_BLOCK,
	PLN_LABEL_LOOP,
	PLN_LABEL_OTHER				/* the function's outer label */
} PlnLabelType;

typedef struct PlnNsItem
{
	PlnNsType	itemtype;
	int			itemno;			/* dno, or PlnLabelType for labels */
	struct PlnNsItem *prev;		/* previous item, innermost first */
	char		name[FLEXIBLE_ARRAY_MEMBER];
} PlnNsItem;

/* #variable_conflict settings */
typedef enum PlnResolveOption
{
	PLN_RESOLVE_ERROR,
	PLN_RESOLVE_VARIABLE,
	PLN_RESOLVE_COLUMN
} PlnResolveOption;

/* ----------
 * Expressions and SQL statement texts
 * ----------
 */
typedef enum PlnPurity
{
	PLN_PURITY_UNKNOWN = 0,		/* not analysed yet (treated as impure) */
	PLN_PURITY_PURE,			/* computes only; see purity.c */
	PLN_PURITY_IMPURE
} PlnPurity;

typedef struct PlnExpr
{
	char	   *query;			/* text given to the SQL parser */
	RawParseMode parseMode;
	int			location;		/* byte offset of query in the body */
	SPIPlanPtr	plan;			/* prepared plan, or NULL */
	Bitmapset  *paramnos;		/* dnos referenced, set while parsing */
	struct PlnFunction *func;	/* owning function */
	PlnNsItem  *ns;				/* names visible to the expression */
	int			target_param;	/* dno assigned by an assignment, or -1 */
	int			rw_param_dno;	/* 1 + dno of the variable the simple
								 * expression may change in place, or 0 */
	char		text_append;	/* 's' or 'c': the simple expression
								 * appends to the target (text_append.c) */

	/* simple-expression evaluation state, see exec_expr.c */
	Expr	   *simple_expr;	/* NULL if not simple */
	Oid			simple_type;
	int32		simple_typmod;
	bool		simple_is_param;	/* expression is just a variable */
	bool		simple_needs_snapshot;	/* calls a volatile or stable
										 * function that may read tables
										 * (snapshots.c) */
	bool		simple_calls_only_pure; /* pure but for reading records
										 * (see purity.c) */
	int			simple_param_dno;
	CachedPlanSource *simple_plansource;
	CachedPlan *simple_plan;	/* refcounted by the shared resowner */
	LocalTransactionId simple_plan_lxid;
	uint64		simple_checked_epoch;	/* pln_validity_epoch at the last
										 * validity check of simple_plan */
	uint64		simple_checked_sinval;	/* SharedInvalidMessageCounter then */
	ExprState  *simple_state;	/* valid in transaction simple_state_lxid */
	LocalTransactionId simple_state_lxid;
	MemoryContext simple_state_cxt; /* holds a pure expression's state */
	int			simple_state_generation;	/* of the plan it was built
											 * from */
	bool		simple_in_use;	/* recursion guard */

	/*
	 * States for evaluations that start while the expression is busy in
	 * an outer recursion level, indexed by the level (see
	 * exec_eval_simple_expr_nested); valid in transaction
	 * simple_nested_lxid for plan generation simple_nested_generation.
	 */
	ExprState **simple_nested_states;
	int			simple_nested_count;
	LocalTransactionId simple_nested_lxid;
	int			simple_nested_generation;

	/* lazy-savepoint analysis of the current simple plan (purity.c) */
	PlnPurity	purity;
	int16		simple_typlen;	/* layout of simple_type */
	bool		simple_typbyval;

	/*
	 * A data error the planner raised while folding constants (1/0), kept
	 * to be raised again without planning again; see exec_expr.c.
	 */
	ErrorData  *plan_error;
	char	   *plan_error_context;	/* its CONTEXT lines inside ours */
	MemoryContext plan_error_cxt;	/* holds both, or NULL */
	CachedPlanSource *plan_error_source;
	LocalTransactionId plan_error_lxid;
} PlnExpr;

/* ----------
 * Statements
 * ----------
 */
typedef enum PlnStmtType
{
	PLN_STMT_BLOCK,
	PLN_STMT_ASSIGN,
	PLN_STMT_IF,
	PLN_STMT_CASE,
	PLN_STMT_LOOP,
	PLN_STMT_WHILE,
	PLN_STMT_FORI,
	PLN_STMT_FORS,
	PLN_STMT_EXIT,
	PLN_STMT_RETURN,
	PLN_STMT_RAISE,
	PLN_STMT_ASSERT,
	PLN_STMT_EXECSQL,
	PLN_STMT_PERFORM,
	PLN_STMT_GETDIAG,
	PLN_STMT_DYNEXECUTE,
	PLN_STMT_DYNFORS,
	PLN_STMT_OPEN,
	PLN_STMT_FETCH,
	PLN_STMT_CLOSE,
	PLN_STMT_FORC,
	PLN_STMT_RETURN_NEXT,
	PLN_STMT_RETURN_QUERY,
	PLN_STMT_FOREACH_A,
	PLN_STMT_COMMIT,
	PLN_STMT_ROLLBACK
} PlnStmtType;

typedef struct PlnStmt
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;		/* 1..nstatements within the function */
} PlnStmt;

typedef struct PlnCondition
{
	int			sqlerrstate;	/* 0 means OTHERS */
	char	   *condname;
	struct PlnCondition *next;
} PlnCondition;

typedef struct PlnExceptionAction
{
	int			lineno;
	PlnCondition *conditions;
	List	   *action;			/* List of PlnStmt */
	char		shows_context;	/* may it show the error's CONTEXT?  'y',
								 * 'n', or 0 until worked out (savepoint.c) */
} PlnExceptionAction;

typedef struct PlnExceptionBlock
{
	int			sqlstate_varno;
	int			sqlerrm_varno;
	List	   *actions;		/* List of PlnExceptionAction */
} PlnExceptionBlock;

typedef struct PlnStmtBlock
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	List	   *body;
	int			n_initvars;
	int		   *initvarnos;
	PlnExceptionBlock *exceptions;	/* NULL if no EXCEPTION clause */
} PlnStmtBlock;

typedef struct PlnStmtAssign
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	int			varno;
	PlnExpr    *expr;
} PlnStmtAssign;

typedef struct PlnIfElsif
{
	int			lineno;
	PlnExpr    *cond;
	List	   *stmts;
} PlnIfElsif;

typedef struct PlnStmtIf
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *cond;
	List	   *then_body;
	List	   *elsif_list;		/* List of PlnIfElsif */
	List	   *else_body;
} PlnStmtIf;

typedef struct PlnCaseWhen
{
	int			lineno;
	PlnExpr    *expr;
	List	   *stmts;
} PlnCaseWhen;

typedef struct PlnStmtCase
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *t_expr;			/* search expression, or NULL */
	int			t_varno;		/* hidden variable holding its value */
	List	   *case_when_list; /* List of PlnCaseWhen */
	bool		have_else;
	List	   *else_stmts;
} PlnStmtCase;

typedef struct PlnStmtLoop
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	List	   *body;
} PlnStmtLoop;

typedef struct PlnStmtWhile
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	PlnExpr    *cond;
	List	   *body;
} PlnStmtWhile;

typedef struct PlnStmtForI
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	PlnVar	   *var;
	PlnExpr    *lower;
	PlnExpr    *upper;
	PlnExpr    *step;			/* NULL means 1 */
	bool		reverse;
	List	   *body;
} PlnStmtForI;

typedef struct PlnStmtForS
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	PlnVariable *var;			/* loop target: a record or a row */
	List	   *body;
	PlnExpr    *query;
} PlnStmtForS;

typedef struct PlnStmtExit
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	bool		is_exit;		/* EXIT, or CONTINUE */
	char	   *label;			/* NULL: innermost loop */
	PlnExpr    *cond;
} PlnStmtExit;

typedef struct PlnStmtReturn
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *expr;
	int			retvarno;		/* return a datum directly, or -1 */
} PlnStmtReturn;

typedef enum PlnRaiseOptionType
{
	PLN_RAISEOPT_ERRCODE,
	PLN_RAISEOPT_MESSAGE,
	PLN_RAISEOPT_DETAIL,
	PLN_RAISEOPT_HINT,
	PLN_RAISEOPT_COLUMN,
	PLN_RAISEOPT_CONSTRAINT,
	PLN_RAISEOPT_DATATYPE,
	PLN_RAISEOPT_TABLE,
	PLN_RAISEOPT_SCHEMA
} PlnRaiseOptionType;

typedef struct PlnRaiseOption
{
	PlnRaiseOptionType opt_type;
	PlnExpr    *expr;
} PlnRaiseOption;

typedef struct PlnStmtRaise
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	int			elog_level;
	char	   *condname;		/* after the level: a name, a SQLSTATE or NULL */
	char	   *message;		/* format string, or NULL */
	List	   *params;			/* PlnExpr for each % in message */
	List	   *options;		/* PlnRaiseOption */
} PlnStmtRaise;

typedef struct PlnStmtAssert
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *cond;
	PlnExpr    *message;
} PlnStmtAssert;

typedef struct PlnStmtExecSql
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *sqlstmt;
	bool		mod_stmt;		/* INSERT/UPDATE/DELETE/MERGE: set at prepare */
	bool		mod_stmt_set;
	bool		into;			/* has an INTO clause */
	bool		strict;
	PlnVariable *target;		/* INTO target: a record or a row */
	bool		is_call;		/* CALL or DO: may end the transaction */
	bool		is_do;			/* DO, for the CONTEXT line */
	bool		call_target_set;	/* call_target worked out yet? */
	struct PlnRow *call_target; /* variables of CALL's output arguments */
} PlnStmtExecSql;

typedef struct PlnStmtPerform
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *expr;
} PlnStmtPerform;

/* COMMIT [AND [NO] CHAIN] and ROLLBACK [AND [NO] CHAIN] */
typedef struct PlnStmtCommit
{
	PlnStmtType cmd_type;		/* PLN_STMT_COMMIT or PLN_STMT_ROLLBACK */
	int			lineno;
	unsigned int stmtid;
	bool		chain;
} PlnStmtCommit;

/* FOREACH target [SLICE n] IN ARRAY expr LOOP */
typedef struct PlnStmtForeachA
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	int			varno;			/* the target: a variable, record or row */
	int			slice;			/* 0: elements; n: n-dimensional slices */
	PlnExpr    *expr;
	List	   *body;
} PlnStmtForeachA;

/* RETURN NEXT [expr]: one more row of a set-returning function */
typedef struct PlnStmtReturnNext
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *expr;
	int			retvarno;		/* a variable returned as is, or -1 */
} PlnStmtReturnNext;

/* RETURN QUERY query | RETURN QUERY EXECUTE string [USING ...] */
typedef struct PlnStmtReturnQuery
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *query;
	PlnExpr    *dynquery;
	List	   *params;
} PlnStmtReturnQuery;

/* OPEN cursor: exactly one of query, dynquery, or the bound cursor's own */
typedef struct PlnStmtOpen
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	int			curvar;			/* dno of the refcursor variable */
	int			cursor_options;
	PlnExpr    *argquery;		/* bound cursor's argument values, or NULL */
	PlnExpr    *query;			/* OPEN ... FOR query */
	PlnExpr    *dynquery;		/* OPEN ... FOR EXECUTE string */
	List	   *params;			/* its USING expressions */
} PlnStmtOpen;

/* FETCH or MOVE */
typedef struct PlnStmtFetch
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnVariable *target;		/* FETCH's INTO target; NULL for MOVE */
	int			curvar;
	FetchDirection direction;
	long		how_many;		/* count, when expr is NULL */
	PlnExpr    *expr;			/* count or position expression */
	bool		is_move;
	bool		returns_multiple_rows;	/* direction may cover several */
} PlnStmtFetch;

typedef struct PlnStmtClose
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	int			curvar;
} PlnStmtClose;

/* FOR rec IN bound_cursor [(args)] LOOP */
typedef struct PlnStmtForC
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	PlnVariable *var;			/* the loop's own record variable */
	List	   *body;
	int			curvar;
	PlnExpr    *argquery;
} PlnStmtForC;

/* What GET DIAGNOSTICS can ask for */
typedef enum PlnDiagKind
{
	PLN_DIAG_ROW_COUNT,
	PLN_DIAG_CONTEXT,
	PLN_DIAG_ERROR_CONTEXT,
	PLN_DIAG_ERROR_DETAIL,
	PLN_DIAG_ERROR_HINT,
	PLN_DIAG_RETURNED_SQLSTATE,
	PLN_DIAG_COLUMN_NAME,
	PLN_DIAG_CONSTRAINT_NAME,
	PLN_DIAG_DATATYPE_NAME,
	PLN_DIAG_MESSAGE_TEXT,
	PLN_DIAG_TABLE_NAME,
	PLN_DIAG_SCHEMA_NAME
} PlnDiagKind;

typedef struct PlnDiagItem
{
	PlnDiagKind kind;
	int			target;			/* dno of the variable it is stored in */
} PlnDiagItem;

typedef struct PlnStmtGetDiag
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	bool		is_stacked;		/* STACKED: the error being handled */
	List	   *diag_items;		/* List of PlnDiagItem */
} PlnStmtGetDiag;

/* EXECUTE string [INTO [STRICT] target] [USING expr, ...] */
typedef struct PlnStmtDynExecute
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	PlnExpr    *query;			/* evaluates to the command text */
	bool		into;
	bool		strict;
	PlnVariable *target;		/* INTO target: a record or a row */
	List	   *params;			/* USING expressions, $1, $2, ... */
} PlnStmtDynExecute;

/* FOR target IN EXECUTE string [USING expr, ...] LOOP */
typedef struct PlnStmtDynForS
{
	PlnStmtType cmd_type;
	int			lineno;
	unsigned int stmtid;
	char	   *label;
	PlnVariable *var;			/* loop target: a record or a row */
	List	   *body;
	PlnExpr    *query;
	List	   *params;
} PlnStmtDynForS;

/* ----------
 * Compiled functions and the cache key they are found by
 * ----------
 */
/* The TG_ variables of trigger functions, in tg_varnos[] */
typedef enum PlnTgVar
{
	PLN_TG_NAME,
	PLN_TG_WHEN,
	PLN_TG_LEVEL,
	PLN_TG_OP,
	PLN_TG_RELID,
	PLN_TG_RELNAME,
	PLN_TG_TABLE_NAME,
	PLN_TG_TABLE_SCHEMA,
	PLN_TG_NARGS,
	PLN_TG_ARGV,
	PLN_TG_EVENT,
	PLN_TG_TAG,
	PLN_TG_NVARS
} PlnTgVar;

typedef struct PlnFuncKey
{
	Oid			funcOid;
	bool		isTrigger;
	Oid			trigOid;		/* for per-trigger compilation later */
	Oid			inputCollation;
	Oid			argtypes[FUNC_MAX_ARGS];	/* actual types (polymorphism) */
} PlnFuncKey;

typedef struct PlnFunction
{
	char	   *fn_signature;	/* for CONTEXT lines */
	Oid			fn_oid;
	TransactionId fn_xmin;
	ItemPointerData fn_tid;
	PlnFuncKey *fn_hashkey;		/* NULL for DO blocks */
	MemoryContext fn_cxt;
	bool		fn_is_trigger;
	char		fn_prokind;
	Oid			fn_input_collation;

	Oid			fn_rettype;
	int16		fn_rettyplen;
	bool		fn_retbyval;
	bool		fn_retistuple;
	bool		fn_retset;
	bool		fn_readonly;

	int			fn_nargs;
	int			fn_argvarnos[FUNC_MAX_ARGS];
	int			found_varno;
	int			out_param_varno;	/* the OUT parameters: a var, a row of
									 * several, or -1 */

	/* trigger functions: NEW, OLD and the TG_ variables (-1 if none) */
	bool		fn_is_event_trigger;
	int			new_varno;
	int			old_varno;
	int			tg_varnos[PLN_TG_NVARS];
	bool		tg_var_named[PLN_TG_NVARS]; /* may the code read it? */

	PlnResolveOption resolve_option;
	bool		print_strict_params;
	int			extra_warnings;
	int			extra_errors;

	int			ndatums;
	PlnDatum  **datums;
	PlnStmtBlock *action;
	unsigned int nstatements;

	/* expressions with prepared plans, to free them on recompilation */
	List	   *planned_exprs;

	/* run-time bookkeeping */
	Size		datum_copy_space;	/* bytes per call for datum copies, or
									 * 0 until the first call */
	char	   *datum_copy_image;	/* the copies as each call starts */
	Size		datum_copy_image_size;
	int		   *datum_copy_offset;	/* per datum: its place in the image,
									 * or -1 when shared */
	char	   *datum_space;	/* datum_copy_space bytes for calls that
								 * are not recursions, or NULL */
	uint32		fn_proc_hashvalue;	/* of its pg_proc row in the syscache */
	bool		fn_proc_checked;	/* valid as of the row's last change */
	unsigned long use_count;	/* calls in progress: do not free while > 0 */
	struct PlnExecState *cur_estate;	/* innermost active call */
} PlnFunction;

/* ----------
 * Execution state of one call
 * ----------
 */
typedef struct PlnSavepointFrame PlnSavepointFrame;

struct PlnSavepointFrame
{
	PlnSavepointFrame *outer;	/* enclosing handler block of this call */
	PlnStmtBlock *block;
	bool		materialized;	/* has its subtransaction been started? */

	/* saved on entry to the block */
	MemoryContext entry_context;
	ErrorData  *entry_cur_error;
	int			entry_handler_depth;	/* pln_handler_depth */

	/* saved when the subtransaction starts */
	ResourceOwner outer_owner;
	ExprContext *outer_econtext;
};

typedef struct PlnExecState
{
	PlnFunction *func;

	Datum		retval;
	bool		retisnull;
	Oid			rettype;		/* type of retval */
	bool		readonly_func;
	bool		atomic;

	char	   *exitlabel;		/* label being exited by EXIT/CONTINUE */
	ErrorData  *cur_error;		/* error being handled, in a handler */

	int			ndatums;
	PlnDatum  **datums;			/* this call's copies of the datums */
	MemoryContext datum_context;	/* where variable values live */

	ParamListInfo paramLI;		/* gives SQL access to the datums */
	PlnExpr    *cur_expr;		/* expression being prepared or run by SPI */
	PlnExpr    *simple_expr_running;	/* simple expression being evaluated */
	bool		text_append_hit;	/* the expression computed only what
									 * to append (text_append.c) */
	int			recursion_level;	/* calls of this function that were
									 * running when this one started */

	ExprContext *eval_econtext; /* for simple expressions */
	uint64		econtext_xact;	/* pln_transaction_count when created */
	MemoryContext stmt_mcontext;	/* short-lived, reset per statement */

	/* SPI results of the last exec_run_select, freed by exec_eval_cleanup */
	SPITupleTable *eval_tuptable;
	uint64		eval_processed;

	/* the innermost exception block in progress, see savepoint.c */
	PlnSavepointFrame *sp_top;
	bool		raising_notice; /* RAISE of a level below ERROR running */

	/* holds plan references of CALL and DO across transaction ends */
	ResourceOwner procedure_resowner;

	/* the trigger call, for transition tables (exec_trigger.c) */
	TriggerData *trigdata;

	/* a set-returning function's result, see exec_setret.c */
	ReturnSetInfo *rsi;
	Tuplestorestate *tuple_store;	/* created at the first row */
	TupleDesc	tuple_store_desc;
	MemoryContext tuple_store_cxt;
	ResourceOwner tuple_store_owner;
	bool		search_path_checked;	/* up to date since the last
										 * impure work? */
	bool		portal_snapshot_ensured;	/* active snapshot known to exist
											 * since the last impure work? */
	bool		spi_connected;	/* has this call connected to SPI? */
	bool		spi_finish;		/* and must it finish SPI at exit? */

	/* error context */
	PlnStmt    *err_stmt;
	const char *err_text;
} PlnExecState;

/* Result codes of statement execution */
enum
{
	PLN_RC_OK,
	PLN_RC_EXIT,
	PLN_RC_RETURN,
	PLN_RC_CONTINUE
};

/* ----------
 * GUCs (handler.c)
 * ----------
 */
extern int	pln_variable_conflict;
extern bool pln_print_strict_params;
extern bool pln_check_asserts;
extern bool pln_lazy_savepoints;
extern int	pln_extra_warnings;
extern int	pln_extra_errors;

#define PLN_XCHECK_NONE						0
#define PLN_XCHECK_SHADOWVAR				(1 << 1)
#define PLN_XCHECK_TOOMANYROWS				(1 << 2)
#define PLN_XCHECK_STRICTMULTIASSIGNMENT	(1 << 3)
#define PLN_XCHECK_ALL						((int) ~0)

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

/* ----------
 * Compiler and function cache (compile.c)
 * ----------
 */
extern bool pln_check_syntax;
extern bool pln_DumpExecTree;
extern PlnFunction *pln_curr_compile;
extern char *pln_error_funcname;
extern MemoryContext pln_compile_tmp_cxt;

extern PlnFunction *pln_compile(FunctionCallInfo fcinfo, bool forValidator);
extern PlnFunction *pln_compile_inline(char *proc_source);
extern void pln_parser_setup(struct ParseState *pstate, PlnExpr *expr);
extern PlnType *pln_build_datatype(Oid typeOid, int32 typmod,
								   Oid collation, TypeName *origtypname);
extern PlnType *pln_parse_datatype(const char *string, int location);
extern PlnVariable *pln_build_variable(const char *refname, int lineno,
									   PlnType *dtype, bool add2namespace);
extern PlnRow *pln_build_row_from_vars(List *varnos);
extern PlnRecField *pln_build_recfield(PlnRec *rec, const char *fldname);
extern int	pln_add_datum(PlnDatum *datum);
extern int	pln_next_stmtid(void);
extern void pln_free_function_memory(PlnFunction *func);
extern void pln_mark_local_assignment_targets(void);

/* word lookup, used by the scanner */
extern bool pln_parse_word(char *word1, const char *yytxt, bool lookup,
						   PlnWDatum *wdatum, PlnWord *word);
extern bool pln_parse_dblword(char *word1, char *word2,
							  PlnWDatum *wdatum, PlnCWord *cword);
extern bool pln_parse_tripword(char *word1, char *word2, char *word3,
							   PlnWDatum *wdatum, PlnCWord *cword);

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

/* ----------
 * Executor (exec.c and friends)
 * ----------
 */
extern Datum pln_exec_function(PlnFunction *func, FunctionCallInfo fcinfo,
							   bool atomic, bool spi_connected,
							   ResourceOwner procedure_resowner);
extern void pln_connect_spi(PlnExecState *estate);
extern void pln_xact_cb(XactEvent event, void *arg);
extern void pln_subxact_cb(SubXactEvent event, SubTransactionId mySubid,
						   SubTransactionId parentSubid, void *arg);
extern const char *pln_stmt_typename(PlnStmt *stmt);
extern List *pln_stmt_nested_bodies(PlnStmt *stmt);

/* exec.c: statements */
extern int	exec_stmts(PlnExecState *estate, List *stmts);
extern void exec_eval_cleanup_slowly(PlnExecState *estate);
extern MemoryContext get_stmt_mcontext(PlnExecState *estate);

/*
 * Has the memory context nothing to free?  Resetting one that has neither
 * allocations of its own nor children does nothing, and is frequent.
 */
static inline bool
pln_context_is_clean(MemoryContext context)
{
	return context->isReset && context->firstchild == NULL;
}

/*
 * Release what the last expression evaluation left behind: the SPI result
 * of a query and the expression context's per-tuple memory.  Most
 * statements leave neither (a by-value result, no query): that case stays
 * inline.
 */
static inline void
exec_eval_cleanup(PlnExecState *estate)
{
	if (estate->eval_tuptable == NULL &&
		(estate->eval_econtext == NULL ||
		 pln_context_is_clean(estate->eval_econtext->ecxt_per_tuple_memory)))
		return;
	exec_eval_cleanup_slowly(estate);
}

/* exec_expr.c: expressions */
extern void exec_prepare_plan(PlnExecState *estate, PlnExpr *expr,
							  int cursorOptions);
extern bool pln_check_plan_before_block(PlnExpr *expr);
extern bool exec_eval_simple_expr(PlnExecState *estate, PlnExpr *expr,
								  Datum *result, bool *isNull,
								  Oid *rettype, int32 *rettypmod);
extern Datum exec_eval_expr_general(PlnExecState *estate, PlnExpr *expr,
									bool *isNull, Oid *rettype,
									int32 *rettypmod);

/*
 * Evaluate an expression to a single value.  The result is valid until the
 * next exec_eval_cleanup.  Inline, so that the common case, a simple
 * expression planned without trouble, costs one call.
 */
static inline Datum
exec_eval_expr(PlnExecState *estate, PlnExpr *expr,
			   bool *isNull, Oid *rettype, int32 *rettypmod)
{
	Datum		result;

	if (likely(expr->simple_expr != NULL && expr->plan_error == NULL) &&
		exec_eval_simple_expr(estate, expr, &result, isNull,
							  rettype, rettypmod))
		return result;
	return exec_eval_expr_general(estate, expr, isNull, rettype, rettypmod);
}
extern bool exec_eval_boolean(PlnExecState *estate, PlnExpr *expr,
							  bool *isNull);
extern int	exec_eval_integer(PlnExecState *estate, PlnExpr *expr,
							  bool *isNull);
extern void pln_setup_param_list(PlnExecState *estate);
extern void pln_create_econtext(PlnExecState *estate);
extern void pln_renew_econtext_if_needed(PlnExecState *estate);
extern uint64 pln_transaction_count;
extern void pln_destroy_econtext(PlnExecState *estate);
extern MemoryContext pln_transaction_eval_context(void);
extern void pln_exec_datum_value(PlnExecState *estate, PlnDatum *datum,
								 Oid *typeid, int32 *typetypmod,
								 Datum *value, bool *isnull);
extern Oid	pln_exec_get_datum_type(PlnExecState *estate, PlnDatum *datum);
extern void pln_exec_get_datum_type_info(PlnExecState *estate,
										 PlnDatum *datum, Oid *typeId,
										 int32 *typMod, Oid *collation);

/* exec_sql.c: SQL statements */
extern int	exec_stmt_execsql(PlnExecState *estate, PlnStmtExecSql *stmt);
extern int	exec_stmt_perform(PlnExecState *estate, PlnStmtPerform *stmt);
extern int	exec_stmt_fors(PlnExecState *estate, PlnStmtForS *stmt);
extern int	exec_stmt_commit(PlnExecState *estate, PlnStmtCommit *stmt);

/* exec_dynamic.c: EXECUTE, FOR ... IN EXECUTE, GET DIAGNOSTICS */
extern int	exec_stmt_dynexecute(PlnExecState *estate, PlnStmtDynExecute *stmt);
extern int	exec_stmt_dynfors(PlnExecState *estate, PlnStmtDynForS *stmt);
extern int	exec_stmt_getdiag(PlnExecState *estate, PlnStmtGetDiag *stmt);
extern int	exec_for_query_loop(PlnExecState *estate, Portal portal,
								PlnVariable *target, List *body,
								const char *label, bool prefetch);
extern void exec_set_found(PlnExecState *estate, bool state);
extern char *format_param_values(PlnExecState *estate, ParamListInfo params);
extern char *eval_dynamic_query(PlnExecState *estate, PlnExpr *query);
extern ParamListInfo eval_using_params(PlnExecState *estate, List *params);
extern Portal pln_open_dynamic_portal(PlnExecState *estate, PlnExpr *query,
									  List *params, const char *curname,
									  int cursor_options);
extern const char *pln_diag_kind_name(PlnDiagKind kind);

/* exec_setret.c: RETURN NEXT, RETURN QUERY, the result of a set function */
extern int	exec_stmt_return_next(PlnExecState *estate, PlnStmtReturnNext *stmt);
extern int	exec_stmt_return_query(PlnExecState *estate, PlnStmtReturnQuery *stmt);
extern void pln_setret_begin(PlnExecState *estate, FunctionCallInfo fcinfo);
extern void pln_setret_finish(PlnExecState *estate, FunctionCallInfo fcinfo);
extern HeapTuple pln_row_to_tuple(PlnExecState *estate, PlnRow *row,
								  TupleDesc tupdesc);

/* exec_cursor.c: OPEN, FETCH, MOVE, CLOSE, FOR over a cursor */
extern int	exec_stmt_open(PlnExecState *estate, PlnStmtOpen *stmt);
extern int	exec_stmt_fetch(PlnExecState *estate, PlnStmtFetch *stmt);
extern int	exec_stmt_close(PlnExecState *estate, PlnStmtClose *stmt);
extern int	exec_stmt_forc(PlnExecState *estate, PlnStmtForC *stmt);
extern int	exec_run_select(PlnExecState *estate, PlnExpr *expr,
							long maxtuples, Portal *portalP);
extern int	exec_loop_body_rc_slow(PlnExecState *estate, int rc,
								   const char *label, bool *exit_loop);

/*
 * What a loop does with its body's result code.  Sets *exit_loop when the
 * loop must stop, and returns the code the loop statement should return
 * in that case.  The usual case, a body that ran to its end, is inline.
 */
static inline int
exec_loop_body_rc(PlnExecState *estate, int rc, const char *label,
				  bool *exit_loop)
{
	if (likely(rc == PLN_RC_OK))
	{
		*exit_loop = false;
		return PLN_RC_OK;
	}
	return exec_loop_body_rc_slow(estate, rc, label, exit_loop);
}

/*
 * What a block does with its body's result code: an EXIT that names the
 * block's label ends there.  An unlabelled EXIT always leaves the
 * innermost loop, passing through any blocks in between.
 */
static inline int
exec_block_exit_rc(PlnExecState *estate, PlnStmtBlock *block, int rc)
{
	if (unlikely(rc == PLN_RC_EXIT) && estate->exitlabel != NULL &&
		block->label != NULL && strcmp(block->label, estate->exitlabel) == 0)
	{
		estate->exitlabel = NULL;
		return PLN_RC_OK;
	}
	return rc;
}

/* assign.c: storing values into datums */
extern void exec_assign_value(PlnExecState *estate, PlnDatum *target,
							  Datum value, bool isNull,
							  Oid valtype, int32 valtypmod);
extern void exec_assign_expr(PlnExecState *estate, PlnDatum *target,
							 PlnExpr *expr);
extern void exec_assign_c_string(PlnExecState *estate, PlnDatum *target,
								 const char *str);
extern void exec_move_row(PlnExecState *estate, PlnVariable *target,
						  HeapTuple tup, TupleDesc tupdesc);
extern Datum exec_cast_value_slow(PlnExecState *estate, Datum value,
								  bool *isnull,
								  Oid valtype, int32 valtypmod,
								  Oid reqtype, int32 reqtypmod);

/*
 * Convert a value of (valtype, valtypmod) to (reqtype, reqtypmod).  Most
 * values already have the wanted type; only the others take the call.
 */
static inline Datum
exec_cast_value(PlnExecState *estate, Datum value, bool *isnull,
				Oid valtype, int32 valtypmod,
				Oid reqtype, int32 reqtypmod)
{
	if (likely(valtype == reqtype &&
			   (valtypmod == reqtypmod || reqtypmod == -1)))
		return value;
	return exec_cast_value_slow(estate, value, isnull, valtype, valtypmod,
								reqtype, reqtypmod);
}
extern void pln_free_var_value(PlnVar *var);
extern Datum pln_detoast_for_variable(Datum value);

/*
 * Replace a scalar variable's value.  freeable says whether newvalue is a
 * copy the variable now owns.  (Inline: loops assign all the time.)
 */
static inline void
assign_simple_var(PlnExecState *estate, PlnVar *var,
				  Datum newvalue, bool isnull, bool freeable)
{
	if (unlikely(var->freeval))
		pln_free_var_value(var);
	var->value = newvalue;
	var->isnull = isnull;
	var->freeval = freeable;
}
extern void assign_text_var(PlnExecState *estate, PlnVar *var,
							const char *str);
extern void exec_init_datum(PlnExecState *estate, PlnDatum *datum);
extern void pln_rec_set_null(PlnExecState *estate, PlnRec *rec);
extern TupleDesc pln_composite_as_tuple(Datum value, HeapTupleData *tuple);
extern void pln_rec_set_empty(PlnExecState *estate, PlnRec *rec,
							  TupleDesc tupdesc);
extern void pln_rec_set_empty_like(PlnExecState *estate, PlnRec *rec,
								   PlnRec *model);
extern void pln_rec_set_tuple(PlnExecState *estate, PlnRec *rec,
							  HeapTuple tup, TupleDesc tupdesc);
extern void pln_rec_expand_for_read(PlnRec *rec);
extern char *convert_value_to_string(PlnExecState *estate, Datum value,
									 Oid valtype);

/* text_append.c: text variables that grow in place */
extern void pln_choose_text_append(PlnExpr *expr, PlnVar *var);
extern void pln_param_eval_append_slot(ExprState *state, struct ExprEvalStep *op,
									   ExprContext *econtext);
extern void pln_text_append_store(PlnExecState *estate, PlnVar *var,
								  PlnExpr *expr, Datum tail, bool tailnull);

/* raise.c */
extern int	exec_stmt_raise(PlnExecState *estate, PlnStmtRaise *stmt);
extern int	exec_stmt_assert(PlnExecState *estate, PlnStmtAssert *stmt);

/* ----------
 * Exception blocks (savepoint.c)
 * ----------
 */
extern int	exec_stmt_block_with_handlers(PlnExecState *estate,
										  PlnStmtBlock *block);

/*
 * A loop whose body is a single block with an EXCEPTION clause, run by
 * pln_run_handler_block_loop: next_iteration prepares the next iteration
 * (sets the loop variable) and returns false when the loop is over.  It
 * must not fail in a way the block's handlers could catch: errors it
 * raises leave the loop, as errors of the loop statement itself do.
 */
typedef struct PlnHandlerBlockLoop
{
	bool		(*next_iteration) (PlnExecState *estate,
								   struct PlnHandlerBlockLoop *loop);
	const char *label;			/* the loop's label, for EXIT and CONTINUE */
} PlnHandlerBlockLoop;

extern int	pln_run_handler_block_loop(PlnExecState *estate,
									   PlnStmtBlock *block,
									   PlnHandlerBlockLoop *loop);
extern void pln_materialize_savepoints(PlnExecState *estate);
extern bool pln_error_context_unseen(PlnExecState *estate, int sqlerrcode);

/*
 * Statements that may start running inside a handler block that has no
 * subtransaction yet.  They only compute; whatever impure work their
 * expressions, casts or targets need starts the savepoint on the way
 * (pln_need_savepoint).  Every other statement (SQL, and anything added
 * later) starts it before running.
 */
static inline bool
pln_stmt_may_run_lazily(PlnStmt *stmt)
{
	switch (stmt->cmd_type)
	{
		case PLN_STMT_BLOCK:
		case PLN_STMT_ASSIGN:
		case PLN_STMT_IF:
		case PLN_STMT_CASE:
		case PLN_STMT_LOOP:
		case PLN_STMT_WHILE:
		case PLN_STMT_FORI:
		case PLN_STMT_EXIT:
		case PLN_STMT_RETURN:
		case PLN_STMT_RAISE:
		case PLN_STMT_ASSERT:
			return true;
		default:
			return false;
	}
}

/*
 * Is the call running inside a handler block whose subtransaction has not
 * been started yet?  Then only pure work may be done (purity.c).
 */
static inline bool
pln_in_lazy_region(PlnExecState *estate)
{
	return estate->sp_top != NULL && !estate->sp_top->materialized;
}

/*
 * Entering a handler block is the hot path of lazy savepoints, and the
 * sigjmp_buf PG_TRY keeps on the stack would otherwise get a stack
 * protector canary, checked at every exit.  Only sigsetjmp writes to it.
 */
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define pln_no_stack_protector __attribute__((no_stack_protector))
#endif
#endif
#ifndef pln_no_stack_protector
#define pln_no_stack_protector
#endif

/* savepoint.c: handlers running in the session (for caught errors' memory) */
extern int	pln_handler_depth;

/* exec_expr.c: bumped by anything that may invalidate a plan */
extern uint64 pln_validity_epoch;

/*
 * For evaluating a simple expression, which needs no SPI connection (a
 * call that only evaluates expressions never makes one): the savepoint
 * part of pln_need_savepoint_to_read and pln_need_savepoint.  A
 * savepoint is never started without SPI connected first
 * (materialize_frame sees to it), and the one use of SPI while
 * evaluating, planning again, calls pln_ensure_spi.
 */
static inline void
pln_expr_need_savepoint_to_read(PlnExecState *estate)
{
	/* impure work may change the search path (see savepoint.c) */
	estate->search_path_checked = false;
	if (unlikely(pln_in_lazy_region(estate)))
		pln_materialize_savepoints(estate);
}

static inline void
pln_expr_need_savepoint(PlnExecState *estate)
{
	pln_expr_need_savepoint_to_read(estate);
	/* impure work may invalidate plans (see exec_expr.c) */
	pln_validity_epoch++;
}

static inline void
pln_ensure_spi(PlnExecState *estate)
{
	if (unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
}

/*
 * The savepoint half of pln_need_savepoint, for work that is impure only
 * because it may read the database, and runs no code that could change
 * settings or catalogs (an expression of pure-list functions over
 * records: see pln_expr_tree_calls_only_pure).
 */
static inline void
pln_need_savepoint_to_read(PlnExecState *estate)
{
	/* SPI is connected before any impure work, outside our savepoints */
	if (unlikely(!estate->spi_connected))
		pln_connect_spi(estate);
	pln_expr_need_savepoint_to_read(estate);
}

/*
 * Call before doing anything that is not known to be pure, inside a
 * handler block or not: it connects to SPI if the call has not yet (every
 * use of SPI is impure), and starts the subtransactions of all enclosing
 * handler blocks that do not have one.
 */
static inline void
pln_need_savepoint(PlnExecState *estate)
{
	pln_need_savepoint_to_read(estate);
	/* impure work may invalidate plans (see exec_expr.c) */
	pln_validity_epoch++;
}

/* compile.c */
extern void pln_proc_inval_callback(Datum arg, int cacheid, uint32 hashvalue);

/* exec_trigger.c */
extern void pln_trigger_setup(PlnExecState *estate, FunctionCallInfo fcinfo);
extern Datum pln_trigger_result(PlnExecState *estate, FunctionCallInfo fcinfo);

/* handler.c */
extern PlnFunction *pln_compile_for_validation(Oid funcoid, Oid rettype);

/*
 * What the server looks up in the library by name: the only symbols it
 * exports (the Makefile builds with hidden visibility).
 */
extern PGDLLEXPORT void _PG_init(void);
extern PGDLLEXPORT Datum plnimble_call_handler(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_inline_handler(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_validator(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum plnimble_savepoint_stats(PG_FUNCTION_ARGS);	/* funcs.c */
extern PGDLLEXPORT Datum plnimble_savepoint_plan(PG_FUNCTION_ARGS);	/* explain.c */

/* explain.c */
extern void pln_init_analysis_state(PlnExecState *estate, PlnFunction *func);
extern bool pln_cast_is_pure(PlnExecState *estate,
							 Oid srctype, int32 srctypmod,
							 Oid dsttype, int32 dsttypmod);

/* purity.c */
extern bool pln_oid_in_list(Oid oid, const Oid *list, int n);
extern bool pln_expr_tree_is_pure(Node *node, PlnFunction *func);
extern bool pln_expr_tree_calls_only_pure(Node *node, PlnFunction *func);
extern void pln_expr_analyse_purity(PlnExpr *expr);
extern Oid	pln_pure_output_function(Oid typid);
extern char *pln_describe_impurity(Node *node, PlnFunction *func);

/* snapshots.c */
extern bool pln_expr_needs_snapshot(Node *node);

/* session counters (savepoint.c) */
typedef struct PlnSavepointStats
{
	uint64		blocks_entered;
	uint64		savepoints_materialized;
	uint64		errors_caught_lazy;
	uint64		errors_caught_subxact;
} PlnSavepointStats;

extern PlnSavepointStats pln_stats;

#endif							/* PLNIMBLE_H */
