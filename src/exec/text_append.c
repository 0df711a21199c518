/*-------------------------------------------------------------------------
 *
 * text_append.c
 *	  Text variables that grow in place: "s := s || a || b" in linear time.
 *
 * Building a string in a loop, "s := s || x", copies the whole string on
 * every append when it is evaluated as written, so n appends cost O(n^2).
 * For an assignment of that shape this file lets the variable keep a
 * buffer with room to spare, growing geometrically, and appends only the
 * new part to it.
 *
 * How: when the simple plan of such an assignment is saved,
 * pln_choose_text_append recognises the shape and gives the one
 * reference to the variable at the bottom of the chain of || (or the
 * first argument of concat) a parameter number of its own, as
 * choose_rw_param does for arrays.  That reference evaluates to an empty
 * string and tells the assignment so (text_append_hit), so the
 * expression computes just the part to append; pln_text_append_store
 * then appends it to the variable.  Since the chain is evaluated in full
 * before anything is stored, an error in it leaves the variable as it
 * was.
 *
 * Invariant: a variable's value is changed in place only when it is
 * append_buf, a buffer this file allocated in the call's datum context
 * and that nobody else has seen in a way that outlives a statement.
 * Every value handed elsewhere is copied by the receiver: assignments to
 * other variables, record fields and array elements copy
 * (exec_assign_value, expanded records and arrays copy into their own
 * memory), SQL statements get parameters the executor copies into its
 * tuples and cursors copy into their portals, and RETURN NEXT copies
 * into the tuple store.  Any other store into the variable frees the
 * buffer (pln_free_var_value) and forgets it, so the next append starts
 * a new buffer: copy on the first append after anything else happened to
 * the variable.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/execExpr.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "rewrite/rewriteManip.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"

#include "plnimble.h"

/* the smallest buffer worth keeping room in */
#define TEXT_APPEND_MIN_CAPACITY 64

/* the value of the variable's marked reference: an empty string */
static text *empty_text = NULL;

static Param *find_append_leaf(Node *top, int target, PlnTextAppend *kind);
static bool count_refs_walker(Node *node, int *context);

/*
 * Does the reference node read datum dno?
 */
static bool
is_ref_to(Node *node, int dno)
{
	while (node != NULL && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node != NULL && IsA(node, Param) &&
		((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid == dno + 1;
}

/*
 * The reference to datum target that an append can replace, in top:
 * walking down the first argument of text || text (textcat), it must end
 * at the variable itself (*kind PLN_TEXT_APPEND_STRICT: a NULL variable
 * gives NULL, as || is strict) or at concat(variable, ...) (*kind
 * PLN_TEXT_APPEND_CONCAT: concat reads a NULL as an empty string).  Binary-compatible relabellings (varchar to text)
 * may appear on the way.  Returns NULL when top has another shape.
 *
 * Only shapes for which "old || tail" is exactly the value are accepted:
 * concat above a || would drop the variable when the || gave NULL.
 */
static Param *
find_append_leaf(Node *top, int target, PlnTextAppend *kind)
{
	Node	   *node = top;
	bool		under_cat = false;

	for (;;)
	{
		List	   *args;

		while (IsA(node, RelabelType))
			node = (Node *) ((RelabelType *) node)->arg;
		if (IsA(node, Param))
		{
			if (!under_cat || !is_ref_to(node, target))
				return NULL;
			*kind = PLN_TEXT_APPEND_STRICT;
			return (Param *) node;
		}
		if (IsA(node, OpExpr) && ((OpExpr *) node)->opfuncid == F_TEXTCAT)
			args = ((OpExpr *) node)->args;
		else if (IsA(node, FuncExpr) &&
				 ((FuncExpr *) node)->funcid == F_TEXTCAT)
			args = ((FuncExpr *) node)->args;
		else if (IsA(node, FuncExpr) &&
				 ((FuncExpr *) node)->funcid == F_CONCAT &&
				 !((FuncExpr *) node)->funcvariadic &&
				 list_length(((FuncExpr *) node)->args) >= 1 &&
				 is_ref_to(linitial(((FuncExpr *) node)->args), target))
		{
			node = linitial(((FuncExpr *) node)->args);
			while (IsA(node, RelabelType))
				node = (Node *) ((RelabelType *) node)->arg;
			*kind = PLN_TEXT_APPEND_CONCAT;
			return (Param *) node;
		}
		else
			return NULL;
		if (list_length(args) != 2)
			return NULL;
		node = linitial(args);
		under_cat = true;
	}
}

/* Count the references to datum *context (its dno in [0], count in [1]) */
static bool
count_refs_walker(Node *node, int *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param))
	{
		if (is_ref_to(node, context[0]))
			context[1]++;
		return false;
	}
	return expression_tree_walker(node, count_refs_walker, (void *) context);
}

/*
 * Called when the simple plan of an assignment to a scalar variable is
 * saved (choose_rw_param): if the assignment appends to a text variable
 * and reads the variable nowhere else, mark the reference that the append
 * replaces and set expr->text_append.  The rewritten tree is a copy in
 * the plan's memory, which lives exactly as long as the tree it replaces.
 */
void
pln_choose_text_append(PlnExpr *expr, PlnVar *var)
{
	Node	   *top = (Node *) expr->simple_expr;
	int			target = var->dno;
	int			refs[2];
	PlnTextAppend kind;
	Param	   *leaf;
	MemoryContext oldcontext;

	expr->text_append = PLN_TEXT_APPEND_NONE;
	if (empty_text == NULL)
		empty_text = (text *) MemoryContextAllocZero(TopMemoryContext,
													 VARHDRSZ);
	SET_VARSIZE(empty_text, VARHDRSZ);
	/* text or varchar without a length limit, no domain */
	if ((var->datatype->typoid != TEXTOID &&
		 var->datatype->typoid != VARCHAROID) ||
		var->datatype->atttypmod >= 0 ||
		expr->simple_type != var->datatype->typoid ||
		expr->simple_typmod >= 0)
		return;
	if (find_append_leaf(top, target, &kind) == NULL)
		return;
	/* the tail must not read the variable */
	refs[0] = target;
	refs[1] = 0;
	count_refs_walker(top, refs);
	if (refs[1] != 1)
		return;

	oldcontext = MemoryContextSwitchTo(GetMemoryChunkContext(top));
	top = copyObject(top);
	leaf = find_append_leaf(top, target, &kind);
	leaf->paramid = expr->func->ndatums + target + 1;
	MemoryContextSwitchTo(oldcontext);
	expr->simple_expr = (Expr *) top;
	expr->text_append = kind;
}

/*
 * Would an assignment of value (an analysed expression, not planned yet)
 * to var append in place, as pln_choose_text_append decides when its plan
 * is saved?  For plnimble_check, which warns about a string built by
 * concatenation in a loop only when it is copied at every iteration.  A
 * sublink keeps the expression from being simple, so from appending.
 */
bool
pln_text_append_would_apply(Node *value, PlnVar *var)
{
	PlnTextAppend kind;
	int			refs[2];

	if (value == NULL ||
		(var->datatype->typoid != TEXTOID &&
		 var->datatype->typoid != VARCHAROID) ||
		var->datatype->atttypmod >= 0 ||
		exprType(value) != var->datatype->typoid ||
		exprTypmod(value) >= 0 ||
		checkExprHasSubLink(value))
		return false;
	if (find_append_leaf(value, var->dno, &kind) == NULL)
		return false;
	refs[0] = var->dno;
	refs[1] = 0;
	count_refs_walker(value, refs);
	return refs[1] == 1;
}

/*
 * Run-time step of the marked reference: it reads as an empty string, so
 * the expression yields what is to be appended, and it tells
 * exec_assign_expr to append that rather than store it.
 */
void
pln_param_eval_append_slot(ExprState *state, ExprEvalStep *op,
						   ExprContext *econtext)
{
	PlnExecState *estate = (PlnExecState *) econtext->ecxt_param_list_info->paramFetchArg;

	estate->text_append_hit = true;
	*op->resvalue = PointerGetDatum(empty_text);
	*op->resnull = false;
}

/*
 * Finish an assignment whose expression computed only the tail to append
 * (see pln_param_eval_append_slot): the variable becomes old || tail with
 * the expression's NULL rules, and a variable that already has a buffer of
 * its own gets the tail appended in place.
 */
void
pln_text_append_store(PlnExecState *estate, PlnVar *var, PlnExpr *expr,
					  Datum tail, bool tailnull)
{
	MemoryContext scratch = estate->eval_econtext->ecxt_per_tuple_memory;
	MemoryContext oldcontext;
	struct varlena *tailv;
	Size		taillen;
	Size		oldlen;
	Size		need;
	char	   *buf;

	if (tailnull || (var->isnull && expr->text_append == PLN_TEXT_APPEND_STRICT))
	{
		exec_assign_value(estate, (PlnDatum *) var, (Datum) 0, true,
						  var->datatype->typoid, -1);
		return;
	}

	/* (detoasting copies, if anything, go to the statement's scratch) */
	oldcontext = MemoryContextSwitchTo(scratch);
	tailv = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(tail));
	MemoryContextSwitchTo(oldcontext);
	taillen = VARSIZE_ANY_EXHDR(tailv);

	if (var->append_buf != NULL && var->freeval && !var->isnull &&
		DatumGetPointer(var->value) == var->append_buf)
	{
		/* our own buffer: append in place, growing it when full */
		oldlen = VARSIZE(var->append_buf) - VARHDRSZ;
		need = VARHDRSZ + oldlen + taillen;
		if (need > var->append_cap)
		{
			Size		newcap = Max(need, Min(2 * (Size) var->append_cap,
											   MaxAllocSize));

			/* too long a string fails as || would: the request is too big */
			buf = repalloc(var->append_buf, newcap);
			var->append_buf = buf;
			var->append_cap = (uint32) newcap;
			var->value = PointerGetDatum(buf);
		}
		buf = var->append_buf;
	}
	else
	{
		/* first append since the value came from elsewhere: copy it */
		struct varlena *oldv = NULL;
		Size		cap;

		oldlen = 0;
		if (!var->isnull)
		{
			oldcontext = MemoryContextSwitchTo(scratch);
			oldv = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(var->value));
			MemoryContextSwitchTo(oldcontext);
			oldlen = VARSIZE_ANY_EXHDR(oldv);
		}
		need = VARHDRSZ + oldlen + taillen;
		cap = Max(need, TEXT_APPEND_MIN_CAPACITY);
		if (need <= MaxAllocSize / 2)
			cap = Max(cap, need + need / 2);
		buf = MemoryContextAlloc(estate->datum_context, cap);
		if (oldlen > 0)
			memcpy(buf + VARHDRSZ, VARDATA_ANY(oldv), oldlen);
		SET_VARSIZE(buf, VARHDRSZ + oldlen);
		/* the old value may be the source: replace it only now */
		assign_simple_var(estate, var, PointerGetDatum(buf), false, true);
		var->append_buf = buf;
		var->append_cap = (uint32) cap;
	}

	memcpy(buf + VARHDRSZ + oldlen, VARDATA_ANY(tailv), taillen);
	SET_VARSIZE(buf, need);
}
