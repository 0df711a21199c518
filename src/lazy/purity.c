/*-------------------------------------------------------------------------
 *
 * purity.c
 *	  Which expressions only compute, without touching database state.
 *
 * Invariant: a planned expression tree is called pure only if evaluating
 * it, once its ExprState exists, can do nothing but compute from
 * constants and scalar PL variables with the built-in functions listed
 * below.  Such an evaluation reads no catalogs, takes no locks, pins no
 * buffers, opens no files, registers nothing with a resource owner and
 * runs no SQL, so an error raised in the middle of it leaves nothing that
 * a subtransaction abort would have to clean up.  That is what lets an
 * exception block catch it without a subtransaction (see savepoint.c and
 * docs/design.md).  When in doubt, a node is impure.
 *
 * Building the ExprState (ExecInitExpr) and planning are not covered:
 * they read catalogs, and the executor only does them with the block's
 * savepoint in place.
 *
 * This file is the allowlist: every function on it was reviewed for the
 * property above.  Each group says why it qualifies.  Keep additions to
 * plain C code over the argument values; anything that looks things up
 * lazily through fn_extra, reads a catalog, consults a collation other
 * than the database default, opens a file (time zones) or can call user
 * code stays off.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "nodes/nodeFuncs.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "plnimble.h"

/*
 * Functions that may be called in a pure region.
 */
static const Oid pure_functions[] = {
	/*
	 * Integer arithmetic and comparison, including the cross-type
	 * variants.  Plain C on the argument values; the only errors are
	 * overflow and division by zero.
	 */
	F_INT2PL, F_INT2MI, F_INT2MUL, F_INT2DIV, F_INT2MOD, F_INT2UM, F_INT2ABS,
	F_INT2EQ, F_INT2NE, F_INT2LT, F_INT2LE, F_INT2GT, F_INT2GE,
	F_INT4PL, F_INT4MI, F_INT4MUL, F_INT4DIV, F_INT4MOD, F_INT4UM, F_INT4ABS,
	F_INT4EQ, F_INT4NE, F_INT4LT, F_INT4LE, F_INT4GT, F_INT4GE,
	F_INT8PL, F_INT8MI, F_INT8MUL, F_INT8DIV, F_INT8MOD, F_INT8UM, F_INT8ABS,
	F_INT8EQ, F_INT8NE, F_INT8LT, F_INT8LE, F_INT8GT, F_INT8GE,
	F_INT24PL, F_INT24MI, F_INT24MUL, F_INT24DIV,
	F_INT24EQ, F_INT24NE, F_INT24LT, F_INT24LE, F_INT24GT, F_INT24GE,
	F_INT42PL, F_INT42MI, F_INT42MUL, F_INT42DIV,
	F_INT42EQ, F_INT42NE, F_INT42LT, F_INT42LE, F_INT42GT, F_INT42GE,
	F_INT28PL, F_INT28MI, F_INT28MUL, F_INT28DIV,
	F_INT28EQ, F_INT28NE, F_INT28LT, F_INT28LE, F_INT28GT, F_INT28GE,
	F_INT82PL, F_INT82MI, F_INT82MUL, F_INT82DIV,
	F_INT82EQ, F_INT82NE, F_INT82LT, F_INT82LE, F_INT82GT, F_INT82GE,
	F_INT48PL, F_INT48MI, F_INT48MUL, F_INT48DIV,
	F_INT48EQ, F_INT48NE, F_INT48LT, F_INT48LE, F_INT48GT, F_INT48GE,
	F_INT84PL, F_INT84MI, F_INT84MUL, F_INT84DIV,
	F_INT84EQ, F_INT84NE, F_INT84LT, F_INT84LE, F_INT84GT, F_INT84GE,
	F_ABS_INT2, F_ABS_INT4, F_ABS_INT8,
	F_MOD_INT2_INT2, F_MOD_INT4_INT4, F_MOD_INT8_INT8,

	/*
	 * Floating point arithmetic, comparison and rounding.  Plain C; the
	 * errors are overflow, underflow and division by zero.
	 */
	F_FLOAT4PL, F_FLOAT4MI, F_FLOAT4MUL, F_FLOAT4DIV, F_FLOAT4UM, F_FLOAT4ABS,
	F_FLOAT4EQ, F_FLOAT4NE, F_FLOAT4LT, F_FLOAT4LE, F_FLOAT4GT, F_FLOAT4GE,
	F_FLOAT8PL, F_FLOAT8MI, F_FLOAT8MUL, F_FLOAT8DIV, F_FLOAT8UM, F_FLOAT8ABS,
	F_FLOAT8EQ, F_FLOAT8NE, F_FLOAT8LT, F_FLOAT8LE, F_FLOAT8GT, F_FLOAT8GE,
	F_FLOAT48PL, F_FLOAT48MI, F_FLOAT48MUL, F_FLOAT48DIV,
	F_FLOAT48EQ, F_FLOAT48NE, F_FLOAT48LT, F_FLOAT48LE, F_FLOAT48GT,
	F_FLOAT48GE,
	F_FLOAT84PL, F_FLOAT84MI, F_FLOAT84MUL, F_FLOAT84DIV,
	F_FLOAT84EQ, F_FLOAT84NE, F_FLOAT84LT, F_FLOAT84LE, F_FLOAT84GT,
	F_FLOAT84GE,
	F_ABS_FLOAT4, F_ABS_FLOAT8, F_DSQRT, F_SQRT_FLOAT8, F_DROUND,
	F_ROUND_FLOAT8, F_DTRUNC, F_TRUNC_FLOAT8, F_FLOOR_FLOAT8, F_CEIL_FLOAT8,
	F_CEILING_FLOAT8, F_DPOW, F_POWER_FLOAT8_FLOAT8,

	/*
	 * Numeric arithmetic, comparison and rounding.  Computes in palloc'd
	 * memory of the current context only; errors are overflow, division
	 * by zero and invalid arguments.
	 */
	F_NUMERIC_ADD, F_NUMERIC_SUB, F_NUMERIC_MUL, F_NUMERIC_DIV,
	F_NUMERIC_MOD, F_NUMERIC_UMINUS, F_NUMERIC_UPLUS, F_NUMERIC_ABS,
	F_ABS_NUMERIC, F_MOD_NUMERIC_NUMERIC, F_NUMERIC_DIV_TRUNC,
	F_NUMERIC_EQ, F_NUMERIC_NE, F_NUMERIC_LT, F_NUMERIC_LE, F_NUMERIC_GT,
	F_NUMERIC_GE,
	F_ROUND_NUMERIC, F_ROUND_NUMERIC_INT4, F_TRUNC_NUMERIC,
	F_TRUNC_NUMERIC_INT4, F_FLOOR_NUMERIC, F_CEIL_NUMERIC, F_CEILING_NUMERIC,
	F_NUMERIC_SQRT, F_SQRT_NUMERIC, F_NUMERIC_POWER, F_POWER_NUMERIC_NUMERIC,

	/* Boolean comparison: trivially pure */
	F_BOOLEQ, F_BOOLNE, F_BOOLLT, F_BOOLLE, F_BOOLGT, F_BOOLGE,

	/*
	 * Casts between the numeric types and boolean: plain C conversions
	 * whose only errors are out-of-range values.  The typmod coercion of
	 * numeric(p,s) rounds and checks the precision.
	 */
	F_INT2_INT4, F_INT2_INT8, F_INT4_INT2, F_INT4_INT8, F_INT8_INT2,
	F_INT8_INT4,
	F_FLOAT4_INT2, F_FLOAT4_INT4, F_FLOAT4_INT8, F_FLOAT8_INT2, F_FLOAT8_INT4,
	F_FLOAT8_INT8, F_INT2_FLOAT4, F_INT2_FLOAT8, F_INT4_FLOAT4,
	F_INT4_FLOAT8, F_INT8_FLOAT4, F_INT8_FLOAT8, F_FLOAT4_FLOAT8,
	F_FLOAT8_FLOAT4,
	F_NUMERIC_INT2, F_NUMERIC_INT4, F_NUMERIC_INT8, F_NUMERIC_FLOAT4,
	F_NUMERIC_FLOAT8, F_INT2_NUMERIC, F_INT4_NUMERIC, F_INT8_NUMERIC,
	F_FLOAT4_NUMERIC, F_FLOAT8_NUMERIC, F_NUMERIC_NUMERIC_INT4,
	F_BOOL_INT4, F_INT4_BOOL, F_TEXT_BOOL,

	/*
	 * Text.  Concatenation, lengths and substrings work on the bytes and
	 * the server encoding only.  Comparisons and LIKE consult the
	 * collation: they are pure only with the database default, C or
	 * POSIX collation, which need no catalog lookup (checked below).
	 * The length coercions of varchar(n) and char(n) only check and cut.
	 */
	F_TEXTCAT, F_TEXTLEN, F_LENGTH_TEXT, F_OCTET_LENGTH_TEXT,
	F_LENGTH_BPCHAR, F_OCTET_LENGTH_BPCHAR,
	F_SUBSTR_TEXT_INT4, F_SUBSTR_TEXT_INT4_INT4, F_SUBSTRING_TEXT_INT4,
	F_SUBSTRING_TEXT_INT4_INT4, F_LEFT, F_RIGHT,
	F_TEXTEQ, F_TEXTNE, F_TEXT_LT, F_TEXT_LE, F_TEXT_GT, F_TEXT_GE,
	F_TEXTLIKE, F_TEXTNLIKE,
	F_BPCHAREQ, F_BPCHARNE, F_BPCHARLT, F_BPCHARLE, F_BPCHARGT, F_BPCHARGE,
	F_TEXT_BPCHAR, F_BPCHAR_BPCHAR_INT4_BOOL, F_VARCHAR_VARCHAR_INT4_BOOL,
};

/*
 * Functions that are not pure, because they may read the catalogs, but run
 * no user code and change nothing: calling them cannot invalidate a plan
 * or change a setting.  Expressions made of these, pure functions and
 * record reads need a savepoint, but keep the plan check of
 * simple_plan_known_valid (exec_expr.c); see
 * pln_expr_tree_calls_only_pure.  Never used for pure regions.
 *
 * The array functions: array_append, array_prepend and array_cat look up
 * the element type's layout on first use (cached in fn_extra); the others
 * read only the array header.
 */
static const Oid catalog_reading_functions[] = {
	F_ARRAY_APPEND, F_ARRAY_PREPEND, F_ARRAY_CAT,
	F_ARRAY_LENGTH, F_ARRAY_UPPER, F_ARRAY_LOWER, F_ARRAY_NDIMS,
	F_CARDINALITY,
};

/*
 * Types whose input and output functions may run in a pure region: for
 * I/O conversions (text to integer, say) and for RAISE parameters.  The
 * functions are the types' own from pg_type, named here so that no
 * catalog lookup is needed to find them.  Their input functions parse
 * with plain C and report bad input as an error; float output reads the
 * extra_float_digits setting, which is only a variable.  Date and time
 * types stay off: their input may load time zone files.
 */
typedef struct PureIOType
{
	Oid			typid;
	Oid			input;
	Oid			output;
} PureIOType;

static const PureIOType pure_io_types[] = {
	{INT2OID, F_INT2IN, F_INT2OUT},
	{INT4OID, F_INT4IN, F_INT4OUT},
	{INT8OID, F_INT8IN, F_INT8OUT},
	{FLOAT4OID, F_FLOAT4IN, F_FLOAT4OUT},
	{FLOAT8OID, F_FLOAT8IN, F_FLOAT8OUT},
	{NUMERICOID, F_NUMERIC_IN, F_NUMERIC_OUT},
	{BOOLOID, F_BOOLIN, F_BOOLOUT},
	{TEXTOID, F_TEXTIN, F_TEXTOUT},
	{VARCHAROID, F_VARCHARIN, F_VARCHAROUT},
	{BPCHAROID, F_BPCHARIN, F_BPCHAROUT},
};

/*
 * Types whose comparison GREATEST and LEAST may use: the btree support
 * functions of the number types are plain C.
 */
static const Oid pure_minmax_types[] = {
	INT2OID, INT4OID, INT8OID, FLOAT4OID, FLOAT8OID, NUMERICOID,
};

/* What the walker found wrong, for the explain view */
typedef struct PurityContext
{
	PlnFunction *func;			/* owner of the Params, or NULL */
	bool		records_allowed;	/* accept reads of records and fields,
									 * and catalog_reading_functions */
	Node	   *culprit;		/* first impure node */
} PurityContext;

/* Is oid one of the n in list?  (Also for snapshots.c.) */
bool
pln_oid_in_list(Oid oid, const Oid *list, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (list[i] == oid)
			return true;
	}
	return false;
}

static const PureIOType *
pure_io_type(Oid typid)
{
	int			i;

	for (i = 0; i < lengthof(pure_io_types); i++)
	{
		if (pure_io_types[i].typid == typid)
			return &pure_io_types[i];
	}
	return NULL;
}

/* Collations that need no catalog lookup to be used */
static bool
collation_is_pure(Oid collid)
{
	return pln_collation_needs_no_lookup(collid);
}

static bool
function_call_is_pure(Oid funcid, Oid inputcollid)
{
	return pln_oid_in_list(funcid, pure_functions, lengthof(pure_functions)) &&
		collation_is_pure(inputcollid);
}

/*
 * Is the function on the pure list, whatever collation it is called with?
 * (For the write path, which asks about effects, not catalog reads.)
 */
bool
pln_function_is_on_pure_list(Oid funcid)
{
	return pln_oid_in_list(funcid, pure_functions, lengthof(pure_functions));
}

/* Pure, or (where reads are allowed) only reading the catalogs */
static bool
function_call_is_allowed(Oid funcid, Oid inputcollid, PurityContext *context)
{
	return function_call_is_pure(funcid, inputcollid) ||
		(context->records_allowed &&
		 pln_oid_in_list(funcid, catalog_reading_functions,
					 lengthof(catalog_reading_functions)));
}

/*
 * A Param is pure if it reads a scalar variable of the function.  Records
 * and their fields are read through the type cache, and their values may
 * be toasted (reading them may read a table): they are accepted only
 * where the caller allows them.
 */
static bool
param_is_pure(Param *param, PurityContext *context)
{
	int			dno = param->paramid - 1;
	PlnFunction *func = context->func;
	PlnDatumType dtype;

	if (param->paramkind != PARAM_EXTERN || func == NULL)
		return false;
	/*
	 * An array variable that an assignment changes in place is referenced
	 * by a number above the datums' (see choose_rw_param): it is still the
	 * variable, and changing its expanded array in place is plain C.
	 */
	if (dno >= func->ndatums && dno < 2 * func->ndatums)
		dno -= func->ndatums;
	if (dno < 0 || dno >= func->ndatums)
		return false;
	dtype = func->datums[dno]->dtype;
	if (dtype == PLN_DTYPE_VAR)
		return true;
	return context->records_allowed &&
		(dtype == PLN_DTYPE_REC || dtype == PLN_DTYPE_RECFIELD);
}

/* Returns true, and remembers the node, at the first impure node */
static bool
impure_node_walker(Node *node, PurityContext *context)
{
	bool		pure;

	if (node == NULL)
		return false;

	switch (nodeTag(node))
	{
		case T_Const:
		case T_CaseTestExpr:
		case T_BoolExpr:
		case T_CaseExpr:
		case T_CaseWhen:
		case T_CoalesceExpr:
		case T_BooleanTest:
		case T_RelabelType:
			pure = true;
			break;
		case T_Param:
			pure = param_is_pure((Param *) node, context);
			break;
		case T_FuncExpr:
			{
				FuncExpr   *fexpr = (FuncExpr *) node;

				pure = (!fexpr->funcretset &&
						function_call_is_allowed(fexpr->funcid,
												 fexpr->inputcollid,
												 context));
				break;
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *opexpr = (OpExpr *) node;

				set_opfuncid(opexpr);
				pure = (!opexpr->opretset &&
						function_call_is_allowed(opexpr->opfuncid,
												 opexpr->inputcollid,
												 context));
				break;
			}
		case T_CoerceViaIO:
			{
				CoerceViaIO *iocoerce = (CoerceViaIO *) node;

				pure = (pure_io_type(exprType((Node *) iocoerce->arg)) != NULL &&
						pure_io_type(iocoerce->resulttype) != NULL);
				break;
			}
		case T_NullTest:
			/* a row-wise test looks up the row type */
			pure = !((NullTest *) node)->argisrow;
			break;
		case T_MinMaxExpr:
			pure = pln_oid_in_list(((MinMaxExpr *) node)->minmaxtype,
							   pure_minmax_types,
							   lengthof(pure_minmax_types));
			break;
		case T_ArrayExpr:
			/* building an array of plain values is plain C */
			pure = (pure_io_type(((ArrayExpr *) node)->element_typeid) != NULL &&
					!((ArrayExpr *) node)->multidims);
			break;
		case T_SubscriptingRef:
			{
				SubscriptingRef *sbsref = (SubscriptingRef *) node;

				/*
				 * Reading or setting an element of an array of plain
				 * values; the element type's layout is looked up when the
				 * ExprState is built, not when it runs.  Other subscript
				 * handlers (jsonb, hstore, ...) are not reviewed.
				 */
				pure = (pure_io_type(sbsref->refelemtype) != NULL &&
						get_typsubscript(sbsref->refcontainertype, NULL) ==
						F_ARRAY_SUBSCRIPT_HANDLER);
				break;
			}
		default:

			/*
			 * Everything else, among them: sub-selects, records, array
			 * coercions, arrays of other element types or built of
			 * arrays (the cases above cover the rest), x IN (list) (it
			 * looks up the element type on first use), domain checks,
			 * CURRENT_USER and friends.
			 */
			pure = false;
			break;
	}

	if (!pure)
	{
		context->culprit = node;
		return true;
	}
	return expression_tree_walker(node, impure_node_walker, (void *) context);
}

/*
 * Is every node of the tree known to be pure?  func owns the Params the
 * tree may contain; NULL if it contains none (cast expressions).
 */
bool
pln_expr_tree_is_pure(Node *node, PlnFunction *func)
{
	PurityContext context;

	context.func = func;
	context.records_allowed = false;
	context.culprit = NULL;
	return !impure_node_walker(node, &context);
}

/*
 * Does the tree call nothing but functions of the pure list, though it
 * may read records and call catalog_reading_functions?  Such an
 * expression is not pure (it needs a savepoint), but it runs no code that
 * could change a setting or the catalogs, which is what lets exec_expr.c
 * keep trusting a plan it has checked (see simple_plan_known_valid).
 */
bool
pln_expr_tree_calls_only_pure(Node *node, PlnFunction *func)
{
	PurityContext context;

	context.func = func;
	context.records_allowed = true;
	context.culprit = NULL;
	return !impure_node_walker(node, &context);
}

/*
 * Could folding an array subscripting show another error than running it?
 * The planner folds a SubscriptingRef's subscripts, then its array, then
 * the value assigned; the executor evaluates the array first and skips
 * the subscripts when it is NULL, and refuses a NULL subscript of an
 * assignment before it evaluates the value.  Subscripts that are plain
 * values (a variable, a constant) cannot fail, and an assigned value that
 * is one cannot either, which makes the order invisible; so can
 * subscripts that are constants other than NULL.
 */
static bool
is_plain_value(Node *node, bool nonnull_const)
{
	node = strip_implicit_coercions(node);
	if (nonnull_const)
		return IsA(node, Const) && !((Const *) node)->constisnull;
	return IsA(node, Param) || IsA(node, Const);
}

static bool
subscripts_are_values(List *subscripts, bool nonnull_consts)
{
	ListCell   *lc;

	foreach(lc, subscripts)
	{
		/* (a slice's omitted bound is NULL) */
		if (lfirst(lc) != NULL &&
			!is_plain_value((Node *) lfirst(lc), nonnull_consts))
			return false;
	}
	return true;
}

static bool
subscript_may_fail_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubscriptingRef))
	{
		SubscriptingRef *sbsref = (SubscriptingRef *) node;

		if (!subscripts_are_values(sbsref->refupperindexpr, false) ||
			!subscripts_are_values(sbsref->reflowerindexpr, false))
			return true;
		if (sbsref->refassgnexpr != NULL &&
			!is_plain_value((Node *) sbsref->refassgnexpr, false) &&
			(!subscripts_are_values(sbsref->refupperindexpr, true) ||
			 !subscripts_are_values(sbsref->reflowerindexpr, true)))
			return true;
	}
	return expression_tree_walker(node, subscript_may_fail_walker, context);
}

/*
 * Classify an expression's current simple plan.  Called when the plan is
 * saved, which happens with any savepoint in place.
 *
 * simple_folds_alike says that a custom plan of the expression (the
 * variables' values folded in) would show nothing that evaluating the
 * generic plan does not, so that where PL/pgSQL runs the expression
 * through SPI (see pln_custom_plan_would_show) plnimble need not: it calls
 * only functions of the pure list, whose only effect is their value or
 * error, and the planner folds its nodes in the executor's order -- but
 * for array subscripts, which must then be plain values.
 */
void
pln_expr_analyse_purity(PlnExpr *expr)
{
	if (expr->simple_expr != NULL &&
		pln_expr_tree_is_pure((Node *) expr->simple_expr, expr->func))
		expr->purity = PLN_PURITY_PURE;
	else
		expr->purity = PLN_PURITY_IMPURE;
	expr->simple_calls_only_pure = (expr->purity == PLN_PURITY_PURE ||
									(expr->simple_expr != NULL &&
									 pln_expr_tree_calls_only_pure((Node *) expr->simple_expr,
																   expr->func)));
	expr->simple_folds_alike = (expr->simple_calls_only_pure &&
								!subscript_may_fail_walker((Node *) expr->simple_expr,
														   NULL));
}

/*
 * The output function of a type on the pure list, or InvalidOid.  Lets
 * RAISE format its parameters without a catalog lookup.
 */
Oid
pln_pure_output_function(Oid typid)
{
	const PureIOType *io = pure_io_type(typid);

	return io ? io->output : InvalidOid;
}

/*
 * Is the assignment expr "variable := 'literal'", into a scalar variable
 * of a type on the pure list?  The parser converts such a literal with
 * the type's input function, which depends on nothing but the text, so
 * an error it raises would be raised again the same way (exec_expr.c
 * keeps it: see "Planning errors" there).
 *
 * The text is only scanned, not parsed (it may not even parse): a name,
 * := or =, one plain quoted literal without backslashes, and nothing
 * else but white space.  Anything more (comments, E'' strings, casts)
 * does not qualify.
 */
bool
pln_assigns_literal_purely(PlnExpr *expr)
{
	PlnDatum   *datum;
	const char *p = expr->query;

	if (expr->parseMode != RAW_PARSE_PLPGSQL_ASSIGN1 ||
		expr->target_param < 0)
		return false;
	datum = expr->func->datums[expr->target_param];
	if (datum->dtype != PLN_DTYPE_VAR ||
		pure_io_type(((PlnVar *) datum)->datatype->typoid) == NULL)
		return false;

	/* the variable's name, plain or quoted */
	if (*p == '"')
	{
		for (p++; *p != '\0'; p++)
		{
			if (*p == '"' && p[1] != '"')
				break;
			if (*p == '"')
				p++;
		}
		if (*p++ != '"')
			return false;
	}
	else
	{
		if (!(isalpha((unsigned char) *p) || *p == '_' || IS_HIGHBIT_SET(*p)))
			return false;
		while (isalnum((unsigned char) *p) || *p == '_' || *p == '$' ||
			   IS_HIGHBIT_SET(*p))
			p++;
	}
	while (scanner_isspace(*p))
		p++;
	if (p[0] == ':' && p[1] == '=')
		p += 2;
	else if (p[0] == '=')
		p++;
	else
		return false;
	while (scanner_isspace(*p))
		p++;

	/* one literal */
	if (*p++ != '\'')
		return false;
	for (;;)
	{
		if (*p == '\0' || *p == '\\')
			return false;
		if (*p == '\'' && p[1] == '\'')
			p += 2;
		else if (*p == '\'')
			break;
		else
			p++;
	}
	for (p++; scanner_isspace(*p); p++)
		;
	return *p == '\0';
}

/*
 * A routine's name for the plan view: schema-qualified whatever the search
 * path, its argument types as format_type_be prints them.  The result is
 * palloc'd in the current memory context; reads the catalogs.
 */
char *
pln_format_routine(Oid funcoid)
{
	HeapTuple	tup;
	Form_pg_proc proc;
	StringInfoData buf;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcoid));
	if (!HeapTupleIsValid(tup))
		return psprintf("%u", funcoid);
	proc = (Form_pg_proc) GETSTRUCT(tup);
	initStringInfo(&buf);
	appendStringInfo(&buf, "%s(",
					 quote_qualified_identifier(get_namespace_name(proc->pronamespace),
												NameStr(proc->proname)));
	for (int i = 0; i < proc->pronargs; i++)
	{
		if (i > 0)
			appendStringInfoChar(&buf, ',');
		appendStringInfoString(&buf, format_type_be(proc->proargtypes.values[i]));
	}
	appendStringInfoChar(&buf, ')');
	ReleaseSysCache(tup);
	return buf.data;
}

/*
 * Say in words why a tree is impure, or return NULL if it is pure.  For
 * the explain view: it may read catalogs to name functions.
 */
char *
pln_describe_impurity(Node *node, PlnFunction *func)
{
	PurityContext context;
	Node	   *culprit;

	context.func = func;
	context.records_allowed = false;
	context.culprit = NULL;
	if (!impure_node_walker(node, &context))
		return NULL;
	culprit = context.culprit;

	switch (nodeTag(culprit))
	{
		case T_FuncExpr:
			{
				FuncExpr   *fexpr = (FuncExpr *) culprit;

				if (!collation_is_pure(fexpr->inputcollid))
					return psprintf("function %s uses a non-default collation",
									pln_format_routine(fexpr->funcid));
				return psprintf("function %s is not on the allowlist",
								pln_format_routine(fexpr->funcid));
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *opexpr = (OpExpr *) culprit;

				if (!collation_is_pure(opexpr->inputcollid))
					return psprintf("operator %s uses a non-default collation",
									format_operator(opexpr->opno));
				return psprintf("operator %s (function %s) is not on the allowlist",
								format_operator(opexpr->opno),
								pln_format_routine(opexpr->opfuncid));
			}
		case T_CoerceViaIO:
			{
				CoerceViaIO *iocoerce = (CoerceViaIO *) culprit;

				return psprintf("conversion from %s to %s through text is not on the allowlist",
								format_type_be(exprType((Node *) iocoerce->arg)),
								format_type_be(iocoerce->resulttype));
			}
		case T_Param:
			return pstrdup("reads a record variable or a field of one");
		case T_CoerceToDomain:
			return psprintf("checks the constraints of domain %s",
							format_type_be(((CoerceToDomain *) culprit)->resulttype));
		case T_ScalarArrayOpExpr:
			return pstrdup("x IN (list) and ANY/ALL are not on the allowlist");
		case T_SubLink:
			return pstrdup("contains a sub-select");
		case T_FieldSelect:
		case T_FieldStore:
		case T_RowExpr:
			return pstrdup("works on a composite value");
		case T_ArrayExpr:
		case T_SubscriptingRef:
		case T_ArrayCoerceExpr:
			return pstrdup("works on an array whose element type is not on the allowlist");
		case T_SQLValueFunction:
			return pstrdup("reads session or transaction state");
		default:
			return pstrdup("uses an expression kind that is not on the allowlist");
	}
}
