/*-------------------------------------------------------------------------
 *
 * pln_plugin.h
 *	  The plugin hook of PL/nimble: how debuggers, profilers and tracers
 *	  watch functions run.
 *
 * The hook offers the moments PL/pgSQL's PLpgSQL_plugin offers, and one
 * of its own:
 *
 *	func_setup	a call starts: its datums exist and hold the arguments
 *				(unlike PL/pgSQL's, which comes before they are stored;
 *				plnimble tests for consumers once per call, here)
 *	func_beg	right after func_setup: the top block is about to run
 *	func_end	the top block has ended normally; the result is converted
 *				after it (not called when an error leaves the call)
 *	stmt_beg	a statement is about to run (the top block included)
 *	stmt_end	it has run to its end (not called when it fails: an error
 *				ends every statement it passes through)
 *	block_event	an exception block started its subtransaction, or caught
 *				an error with or without one (see PlnBlockEvent)
 *
 * Any of the callbacks may be NULL.  Unlike PL/pgSQL's single plugin
 * pointer, several consumers can be attached at once: they are chained
 * in a list, and each moment calls them in the order they were attached.
 * The list lives behind the rendezvous variable "PLnimble_plugin"
 * (find_rendezvous_variable), so a module can attach whether it is loaded
 * before or after plnimble, without linking against it:
 *
 *		static PlnPlugin my_plugin = {.name = "my_debugger",
 *									  .stmt_beg = my_stmt_beg};
 *
 *		void _PG_init(void)
 *		{
 *			pln_plugin_attach(&my_plugin);
 *		}
 *
 * The struct must live as long as the session (static storage).  A
 * consumer that wants to stop watching sets its callbacks to NULL, or
 * detaches with pln_plugin_detach.  Attaching and detaching take effect
 * from the next call of a function on: a call in progress is watched by
 * the consumers that were attached when it started (estate->plugins).
 * The same goes for stmt_beg and stmt_end, which run for every statement:
 * the call takes them once, after func_setup (which may still change
 * them for the call); the other callbacks are looked up at each moment.
 *
 * Per call, each consumer has one pointer of its own,
 * PLN_PLUGIN_INFO(estate, plugin), NULL when the call starts; what it
 * points to is the consumer's (allocate it in the current memory context
 * at func_setup, which lives as long as the call).
 *
 * An error that leaves a statement or a call runs no callback: a consumer
 * that keeps a stack of running statements learns of it through
 * block_event (an exception block of the same call caught it), or
 * through the server's transaction and subtransaction callbacks.
 *
 * The registry also carries a few helpers plnimble fills in when it is
 * loaded (the library exports no symbols a consumer could link to).
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_PLUGIN_H
#define PLN_PLUGIN_H

#include "fmgr.h"
#include "utils/memutils.h"
#include "lazy/pln_savepoint.h"

/* the structs are those of pln_tree.h and pln_exec.h */
struct PlnExecState;
struct PlnFunction;
struct PlnStmt;
struct PlnStmtBlock;

/* What happened in an exception block (block_event): PlnBlockEvent, lazy/pln_savepoint.h */

typedef struct PlnPlugin
{
	const char *name;			/* for messages */

	void		(*func_setup) (struct PlnExecState *estate,
							   struct PlnFunction *func);
	void		(*func_beg) (struct PlnExecState *estate,
							 struct PlnFunction *func);
	void		(*func_end) (struct PlnExecState *estate,
							 struct PlnFunction *func);
	void		(*stmt_beg) (struct PlnExecState *estate,
							 struct PlnStmt *stmt);
	void		(*stmt_end) (struct PlnExecState *estate,
							 struct PlnStmt *stmt);
	void		(*block_event) (struct PlnExecState *estate,
								struct PlnStmtBlock *block,
								PlnBlockEvent event);

	/* set by pln_plugin_attach */
	struct PlnPlugin *next;
	int			slot;			/* index into estate->plugin_info */
} PlnPlugin;

typedef void (*PlnStmtCallback) (struct PlnExecState *estate,
								 struct PlnStmt *stmt);

/* The consumers watching a call, and their per-call pointers */
typedef struct PlnPluginCall
{
	PlnPlugin  *chain;			/* the chain as the call started */
	int			nslots;			/* slots handed out then */
	/* the chain's non-NULL stmt_beg and stmt_end, in order, after func_setup */
	int			n_stmt_beg;
	int			n_stmt_end;
	PlnStmtCallback *stmt_beg;
	PlnStmtCallback *stmt_end;
	void	   *info[FLEXIBLE_ARRAY_MEMBER];	/* by PlnPlugin.slot */
} PlnPluginCall;

#define PLN_PLUGIN_INFO(estate, plugin) ((estate)->plugins->info[(plugin)->slot])

/* the rendezvous variable's value */
typedef struct PlnPluginRegistry
{
	int			version;		/* PLN_PLUGIN_VERSION */
	PlnPlugin  *first;			/* attached consumers, in order */
	int			nslots;			/* slots handed out so far */

	/* filled in by plnimble when it is loaded (NULL before) */
	const char *(*stmt_typename) (struct PlnStmt *stmt);
	/* a variable's value as text (palloc'd), or NULL for SQL NULL */
	char	   *(*datum_text) (struct PlnExecState *estate, int dno);
} PlnPluginRegistry;

#define PLN_PLUGIN_VERSION		2	/* 2: PlnPluginCall's stmt_beg/stmt_end */
#define PLN_PLUGIN_RENDEZVOUS	"PLnimble_plugin"

/* The registry, created by whichever of plnimble and consumers asks first */
static inline PlnPluginRegistry *
pln_plugin_registry(void)
{
	PlnPluginRegistry **var;

	var = (PlnPluginRegistry **) find_rendezvous_variable(PLN_PLUGIN_RENDEZVOUS);
	if (*var == NULL)
	{
		*var = MemoryContextAllocZero(TopMemoryContext,
									  sizeof(PlnPluginRegistry));
		(*var)->version = PLN_PLUGIN_VERSION;
	}
	return *var;
}

/* The link of the chain that points to the consumer, or its NULL end */
static inline PlnPlugin **
pln_plugin_link(PlnPlugin *plugin)
{
	PlnPlugin **link = &pln_plugin_registry()->first;

	while (*link != NULL && *link != plugin)
		link = &(*link)->next;
	return link;
}

/* Attach a consumer at the end of the chain */
static inline void
pln_plugin_attach(PlnPlugin *plugin)
{
	PlnPlugin **link = pln_plugin_link(plugin);

	if (*link == plugin)
		return;					/* attached already */
	plugin->next = NULL;
	plugin->slot = pln_plugin_registry()->nslots++;
	*link = plugin;
}

/* Detach a consumer (its slot is not reused) */
static inline void
pln_plugin_detach(PlnPlugin *plugin)
{
	PlnPlugin **link = pln_plugin_link(plugin);

	if (*link != plugin)
		return;					/* not attached */
	*link = plugin->next;
	plugin->next = NULL;
}

/* Attach or detach (a setting's assign hook, say) */
static inline void
pln_plugin_set_attached(PlnPlugin *plugin, bool attached)
{
	if (attached)
		pln_plugin_attach(plugin);
	else
		pln_plugin_detach(plugin);
}

/* ----------
 * plnimble's side (plugin.c)
 * ----------
 */
extern PlnPluginRegistry pln_plugins;

extern void pln_plugin_init(void);
extern void pln_plugin_call_setup(struct PlnExecState *estate);
extern void pln_plugin_call_beg(struct PlnExecState *estate);
extern void pln_plugin_call_end(struct PlnExecState *estate);
extern void pln_plugin_block_event(struct PlnExecState *estate,
								   struct PlnStmtBlock *block,
								   PlnBlockEvent event);

/*
 * The moments of every statement, in the executor's own code: the
 * callbacks the call took at its setup, without walking the chain.
 */
static inline void
pln_plugin_stmt_callbacks(PlnStmtCallback *cb, int n,
						  struct PlnExecState *estate, struct PlnStmt *stmt)
{
	int			i;

	if (likely(n == 1))
	{
		cb[0] (estate, stmt);	/* (the usual case: one consumer) */
		return;
	}
	for (i = 0; i < n; i++)
		cb[i] (estate, stmt);
}

#define pln_plugin_stmt_beg(call, estate, stmt) \
	pln_plugin_stmt_callbacks((call)->stmt_beg, (call)->n_stmt_beg, estate, stmt)
#define pln_plugin_stmt_end(call, estate, stmt) \
	pln_plugin_stmt_callbacks((call)->stmt_end, (call)->n_stmt_end, estate, stmt)

#endif							/* PLN_PLUGIN_H */
