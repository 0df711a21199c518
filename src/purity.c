/*-------------------------------------------------------------------------
 *
 * purity.c
 *	  Which expressions only compute, without touching database state.
 *
 * Invariant: an expression is marked pure only if evaluating its planned
 * tree can do nothing but compute from constants and PL variables with
 * built-in functions that read no catalogs, take no locks and touch no
 * shared state.  When in doubt, an expression is impure.
 *
 * For now only trees of constants and variables count as pure; the
 * allowlist of functions comes with lazy savepoints.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/nodeFuncs.h"

#include "plnimble.h"

static bool
impure_node_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_Const:
		case T_CaseTestExpr:
			return false;
		case T_Param:
			if (((Param *) node)->paramkind != PARAM_EXTERN)
				return true;
			return false;
		default:
			/* anything not known to be harmless */
			return true;
	}
}

/* Is every node of the tree known to be pure? */
bool
pln_expr_tree_is_pure(Node *node)
{
	return !impure_node_walker(node, NULL);
}

/* Classify an expression's current simple plan */
void
pln_expr_analyse_purity(PlnExpr *expr)
{
	if (expr->simple_expr != NULL &&
		pln_expr_tree_is_pure((Node *) expr->simple_expr))
		expr->purity = PLN_PURITY_PURE;
	else
		expr->purity = PLN_PURITY_IMPURE;
}
