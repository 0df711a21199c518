/*-------------------------------------------------------------------------
 *
 * plugin.c
 *	  plnimble's side of the plugin hook (pln_plugin.h): calling the
 *	  attached consumers at each moment.
 *
 * The executor tests one field, estate->plugins, at each moment; it is
 * NULL unless some consumer was attached when the call started, and then
 * everything that follows is out of line, here.  A loop whose body is a
 * single exception block runs it through the ordinary dispatch while
 * consumers watch (body_is_handler_block in exec.c), so that they see the
 * block start and end at every iteration.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plnimble.h"
#include "exec/pln_plugin.h"

/*
 * The registry behind the rendezvous variable: plnimble's own, so that
 * testing for consumers is one load of a static address.
 */
PlnPluginRegistry pln_plugins;

/* PlnPluginRegistry.datum_text */
static char *
plugin_datum_text(PlnExecState *estate, int dno)
{
	Oid			typeid;
	int32		typmod;
	Datum		value;
	bool		isnull;

	if (dno < 0 || dno >= estate->ndatums)
		return NULL;
	pln_exec_datum_value(estate, estate->datums[dno], &typeid, &typmod,
						 &value, &isnull);
	if (isnull)
		return NULL;
	return pstrdup(convert_value_to_string(estate, value, typeid));
}

/*
 * At module load: make our registry the rendezvous variable's, taking over
 * the consumers of one that a module loaded before us made, and fill in
 * the helpers.  (Consumers always go through the rendezvous variable.)
 */
void
pln_plugin_init(void)
{
	PlnPluginRegistry **var;

	var = (PlnPluginRegistry **) find_rendezvous_variable(PLN_PLUGIN_RENDEZVOUS);
	if (*var != NULL && *var != &pln_plugins)
	{
		pln_plugins.first = (*var)->first;
		pln_plugins.nslots = (*var)->nslots;
	}
	pln_plugins.version = PLN_PLUGIN_VERSION;
	pln_plugins.stmt_typename = pln_stmt_typename;
	pln_plugins.datum_text = plugin_datum_text;
	*var = &pln_plugins;
}

/*
 * A call starts: take the chain as it is now, with a slot for each
 * consumer, and tell them.  Called only when the chain is not empty, in
 * the call's memory context.
 */
void
pln_plugin_call_setup(PlnExecState *estate)
{
	PlnPluginCall *call;
	PlnPlugin  *p;

	call = palloc0(offsetof(PlnPluginCall, info) +
				   sizeof(void *) * pln_plugins.nslots);
	call->chain = pln_plugins.first;
	call->nslots = pln_plugins.nslots;
	estate->plugins = call;

	for (p = call->chain; p != NULL; p = p->next)
		if (p->slot < call->nslots && p->func_setup)
			p->func_setup(estate, estate->func);

	/* the callbacks of every statement, looked up once (pln_plugin.h) */
	call->stmt_beg = palloc(sizeof(PlnStmtCallback) * call->nslots);
	call->stmt_end = palloc(sizeof(PlnStmtCallback) * call->nslots);
	for (p = call->chain; p != NULL; p = p->next)
	{
		if (p->slot >= call->nslots)
			continue;
		if (p->stmt_beg)
			call->stmt_beg[call->n_stmt_beg++] = p->stmt_beg;
		if (p->stmt_end)
			call->stmt_end[call->n_stmt_end++] = p->stmt_end;
	}
}

/*
 * The other moments: every consumer of the call's chain that was attached
 * when the call started (a later one has no slot in it).
 */
#define FOR_EACH_PLUGIN(p, estate) \
	for ((p) = (estate)->plugins->chain; (p) != NULL; (p) = (p)->next) \
		if ((p)->slot < (estate)->plugins->nslots)

/* Call the member of every such consumer that has it */
#define CALL_EACH_PLUGIN(estate, member, ...) \
	do { \
		PlnPlugin  *p_; \
		FOR_EACH_PLUGIN(p_, estate) \
		{ \
			if (p_->member) \
				p_->member(__VA_ARGS__); \
		} \
	} while (0)

void
pln_plugin_call_beg(PlnExecState *estate)
{
	CALL_EACH_PLUGIN(estate, func_beg, estate, estate->func);
}

void
pln_plugin_call_end(PlnExecState *estate)
{
	CALL_EACH_PLUGIN(estate, func_end, estate, estate->func);
}

void
pln_plugin_block_event(PlnExecState *estate, PlnStmtBlock *block,
					   PlnBlockEvent event)
{
	CALL_EACH_PLUGIN(estate, block_event, estate, block, event);
}
