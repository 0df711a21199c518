/*-------------------------------------------------------------------------
 *
 * pln_tree.h
 *	  The compiled-function tree of PL/nimble.
 *
 * The grammar (grammar/gram.y) and the compiler (compile.c) build it, the
 * executor walks it.  Everything in a compiled function (PlnFunction and
 * all it points to) lives in the function's own memory context, fn_cxt,
 * and survives across transactions until the function is recompiled.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_TREE_H
#define PLN_TREE_H

#include "compat/pln_compat.h"

#include "access/htup.h"
#include "access/tupdesc.h"
#include "executor/spi.h"
#include "nodes/bitmapset.h"
#include "nodes/execnodes.h"
#include "parser/parser.h"
#include "utils/expandedrecord.h"
#include "utils/plancache.h"

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
/* A yes-or-no answer worked out on first need */
typedef enum PlnTriState
{
	PLN_TRI_UNKNOWN = 0,		/* not worked out yet */
	PLN_TRI_NO,
	PLN_TRI_YES
} PlnTriState;

/* How an assignment's simple expression appends to its target */
typedef enum PlnTextAppend
{
	PLN_TEXT_APPEND_NONE = 0,	/* it does not: the value is stored */
	PLN_TEXT_APPEND_STRICT,		/* s := s || ...: a NULL s gives NULL */
	PLN_TEXT_APPEND_CONCAT		/* s := concat(s, ...): NULL s reads as '' */
} PlnTextAppend;

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
	struct ArrayMetaState *elem_meta;	/* arrays: the element type's
										 * storage, looked up when the type
										 * is built (for expand_array) */

	/*
	 * For a named composite type (or a domain over one): the name it was
	 * declared with, if any, and the type cache entry of the row type with
	 * the identifier of its tuple descriptor when last checked.  When the
	 * type changes (is dropped and created again, say), the name is looked
	 * up again at the next use (see rec_revalidate_type in assign.c).
	 */
	TypeName   *origtypname;
	struct TypeCacheEntry *tcache;
	uint64		tupdesc_id;
} PlnType;

/* Fields common to every datum */
typedef struct PlnDatum
{
	PlnDatumType dtype;
	int			dno;
} PlnDatum;

/*
 * Fields common to the datums that can be named in the namespace, first in
 * each of their structs, so that any of them can be read as a PlnVariable
 */
#define PLN_VARIABLE_FIELDS \
	PlnDatumType dtype; \
	int			dno; \
	char	   *refname; \
	int			lineno; \
	bool		isconst; \
	bool		notnull; \
	struct PlnExpr *default_val

typedef struct PlnVariable
{
	PLN_VARIABLE_FIELDS;
} PlnVariable;

typedef struct PlnVar
{
	PLN_VARIABLE_FIELDS;

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
	 * text_append.c); append_cap is its allocated size (at most
	 * MaxAllocSize, and kept in what would be padding) */
	uint32		append_cap;
	char	   *append_buf;
} PlnVar;

typedef struct PlnRow
{
	PLN_VARIABLE_FIELDS;

	int			nfields;
	char	  **fieldnames;
	int		   *varnos;			/* dno of each member variable */
	TupleDesc	rowtupdesc;		/* for OUT parameters: the row's shape as
								 * a value; NULL for INTO lists */
} PlnRow;

typedef struct PlnRec
{
	PLN_VARIABLE_FIELDS;

	Oid			rectypeid;		/* RECORDOID, or a named composite type */
	PlnType    *datatype;		/* its description, shared by all calls */

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
	PLN_PURITY_GUARDED,			/* reads, writes nothing: may run under a
								 * read guard (lazy/guard.c) */
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
	bool		assigned;		/* the source of an assignment or a
								 * default: planned without parallel query,
								 * as PL/pgSQL plans what it assigns (see
								 * pln_expr_cursor_options) */
	bool		reads_variables;	/* the parsed query has a Param (set
									 * by exec_prepare_plan) */
	int			rw_param_dno;	/* 1 + dno of the variable the simple
								 * expression may change in place, or 0 */
	PlnTextAppend text_append;	/* does the simple expression append to
								 * the target, and how? (text_append.c) */
	int16		select_column;	/* the query of a SELECT ... INTO
								 * variables, which may be simple too:
								 * the column (from 1) evaluated, of
								 * select_ncols (exec_sql.c); else 0 */
	int16		select_ncols;

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
	bool		simple_folds_alike;	/* a custom plan shows what the generic
										 * one shows (purity.c) */
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
	MemoryContext simple_impure_cxt;	/* holds an impure one's state of
										 * transaction simple_impure_lxid */
	LocalTransactionId simple_impure_lxid;
	int			simple_state_generation;	/* of the plan it was built
											 * from */
	bool		simple_in_use;	/* recursion guard */
	LocalTransactionId simple_failed_lxid;	/* an evaluation failed in this
											 * transaction (the error was
											 * caught): see
											 * run_simple_expr_as_spi */
	bool		fast_error_pending; /* simple_failed_lxid was set by the
									 * fast entry handing a call over, and
									 * the error is not raised again yet
									 * (fast_call.c) */

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
	bool		generic_plan_failed;	/* the simple check's generic plan
										 * failed, none was made since */
} PlnExpr;

/* ----------
 * Statements
 * ----------
 */
/* one per line of pln_stmtkinds.h */
typedef enum PlnStmtType
{
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) kind,
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
} PlnStmtType;

/* how many kinds there are (not a member, so that switches need no case) */
enum
{
	PLN_STMT_NKINDS = 0
#define PLN_STMT_KIND(kind, node, name, lazy, nests, bodies, rows, quiet, exec, describe) + 1
#include "compile/pln_stmtkinds.h"
#undef PLN_STMT_KIND
};

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
	PlnTriState shows_context;	/* may it show the error's CONTEXT?
								 * (savepoint.c) */
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
	PlnType    *t_type;			/* the value's type, built on first use */
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

/*
 * The fields the loops over the rows of a query share (FOR over SELECT,
 * over EXECUTE, over a cursor), first in each: the label, the loop's
 * target (a record or a row; for a cursor, the loop's own record) and
 * the body
 */
#define PLN_QUERY_LOOP_FIELDS \
	PlnStmtType cmd_type; \
	int			lineno; \
	unsigned int stmtid; \
	char	   *label; \
	PlnVariable *var; \
	List	   *body

typedef struct PlnStmtForS
{
	PLN_QUERY_LOOP_FIELDS;
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
	bool		simple_into;	/* SELECT exprs INTO variables, run as
								 * assignments (exec_sql.c) */
	bool		into_one_var;	/* INTO one plain variable, not prepared
								 * yet: its first run may prepare it as an
								 * assignment, lazily (exec_sql.c) */
	int			simple_ncols;	/* how many */
	struct PlnExpr **simple_cols;	/* the expression of each (the first
									 * is sqlstmt itself when there is
									 * one) */
	char		write_path;		/* PLN_WRITE_PATH_*: may the INSERT run
								 * without its block's subtransaction?
								 * (write_path.c) */
	struct PlnWritePath *wpath; /* that path's state, once prepared */
	char		guarded_query;	/* PLN_GUARDED_QUERY_*: may the SELECT
								 * INTO run under a read guard, without
								 * the block's subtransaction?
								 * (lazy/guarded_query.c) */
	struct CachedPlan *guarded_plan;	/* the generic plan last checked
										 * for that (not a reference) */
	int			guarded_generation; /* its generation */
	bool		guarded_plan_ok;	/* and whether it may */
} PlnStmtExecSql;

/* PlnStmtExecSql.guarded_query (see lazy/guarded_query.c) */
#define PLN_GUARDED_QUERY_UNKNOWN	0	/* not prepared yet */
#define PLN_GUARDED_QUERY_CANDIDATE 'c' /* its shape may: its generic plan
										 * decides, each time it runs */
#define PLN_GUARDED_QUERY_NEVER	'n' /* its shape may not */

/* PlnStmtExecSql.write_path (see write_path.c) */
#define PLN_WRITE_PATH_NONE		0	/* not the last INSERT of a block whose
									 * handlers catch only unique_violation */
#define PLN_WRITE_PATH_CANDIDATE 'c'	/* is, not prepared yet */
#define PLN_WRITE_PATH_READY	'y' /* prepared: wpath is set */
#define PLN_WRITE_PATH_NEVER	'n' /* prepared: the statement cannot use it */

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
	PLN_QUERY_LOOP_FIELDS;
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
	PLN_DIAG_SCHEMA_NAME,
	PLN_DIAG_ROUTINE_OID		/* 16 on (PLN_HAS_PG_ROUTINE_OID) */
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
	char		guarded_shape;	/* PLN_GUARDED_QUERY_*: may the command run
								 * under a read guard if it is a reviewed
								 * SELECT (lazy/guarded_query.c)?  NEVER
								 * unless INTO variables without USING;
								 * UNKNOWN until the first run looks at
								 * the variables */
} PlnStmtDynExecute;

/* FOR target IN EXECUTE string [USING expr, ...] LOOP */
typedef struct PlnStmtDynForS
{
	PLN_QUERY_LOOP_FIELDS;
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
	bool		fn_retisdomain;	/* a domain: a NULL result must pass its checks */
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

	/*
	 * May the code read a handler's SQLSTATE or SQLERRM?  Not if its text
	 * never names it (see source_may_name in compile.c): then a handler
	 * need not set it, and the write path may hand a duplicate to its
	 * handler without the error (savepoint.c).
	 */
	bool		sqlstate_named;
	bool		sqlerrm_named;

	PlnResolveOption resolve_option;
	bool		print_strict_params;
	int			extra_warnings;
	int			extra_errors;

	int			ndatums;
	PlnDatum  **datums;
	PlnStmtBlock *action;
	unsigned int nstatements;
	/* by stmtid: must the statement check the stack before it runs? */
	bool	   *stmt_checks_stack;

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
	bool		fn_first_call_checked;	/* plnimble.check_on_first_call
										 * has checked it */
	unsigned long use_count;	/* calls in progress: do not free while > 0 */
	struct PlnExecState *cur_estate;	/* innermost active call */

	/*
	 * How the call handler runs a call of the function: the ordinary path
	 * or the fast entry (entry/fast_call.c), chosen once by the entry
	 * layer at the first call of the compiled function (handler.c,
	 * choose_call_entry); NULL until then.
	 */
	Datum		(*call) (FunctionCallInfo fcinfo, struct PlnFunction *func);

	/* the fast entry's (fast_call.c) */
	struct PlnFastCall *fast;	/* its state, built at its first use */
	struct PlnExpr *fast_expr;	/* and the RETURN's expression then */
} PlnFunction;

#endif							/* PLN_TREE_H */
