/*-------------------------------------------------------------------------
 *
 * pln_compat.h
 *	  Everything in PL/nimble that depends on the PostgreSQL major version
 *	  it is built against.
 *
 * The rest of the sources are written against one server API; where the
 * server's API differs between the supported major versions, the
 * difference is bridged here (a macro, an inline function, or a
 * declaration of a function in a .c file of compat/), so that no other file tests
 * PG_VERSION_NUM.
 *
 * plnimble builds against PostgreSQL 15, 17, 18 and 19 (docs/user-guide.md,
 * "Server versions").  16 is not shipped by any Debian suite any more and
 * is neither built nor tested; the boundaries below are drawn where 16
 * moved all the same.  Each bridge is named for what plnimble needs and
 * says what changed in which version.  Every feature is re-established
 * on every version (docs/user-guide.md, "Server versions"); a feature
 * that could not be would be turned off here, on that version, with its
 * reason in plnimble_savepoint_plan() and the user guide.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PLN_COMPAT_H
#define PLN_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "PL/nimble needs PostgreSQL 15 or later"
#endif

#include "access/genam.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_proc_d.h"
#include "executor/executor.h"
#include "nodes/parsenodes.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#endif
#include "parser/parse_type.h"
#include "parser/parser.h"
#include "portability/instr_time.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/plancache.h"

/*
 * 18 replaced the postfix pg_attribute_noreturn() by the prefix
 * pg_noreturn (C11's _Noreturn).  GCC's and clang's attribute (the only
 * compilers PGXS builds plnimble with: gcc, and clang for the bitcode)
 * goes in either place, so the old spelling is kept.
 */
#ifndef pg_attribute_noreturn
#define pg_attribute_noreturn() __attribute__((noreturn))
#endif

/*
 * The backend's current local transaction id: 17 moved it into
 * PGPROC.vxid.  (Caches keyed by it are valid until the transaction
 * ends, on every version.)
 */
#if PG_VERSION_NUM >= 170000
#define PLN_MY_LXID (MyProc->vxid.lxid)
#else
#define PLN_MY_LXID (MyProc->lxid)
#endif

/*
 * Whether a cached plan's saved search path is still the current one: 17
 * renamed OverrideSearchPath to SearchPathMatcher along with its matcher.
 */
#if PG_VERSION_NUM >= 170000
#define pln_search_path_matches(sp) SearchPathMatchesCurrentEnvironment(sp)
#else
#define pln_search_path_matches(sp) OverrideSearchPathMatchesCurrent(sp)
#endif

/*
 * Release every plan-cache reference a resource owner holds: 17 rewrote
 * resource owners (ResourceOwnerRemember* by a kind descriptor) and moved
 * this function to plancache.c under a new name.  It does the same.
 */
#if PG_VERSION_NUM >= 170000
#define pln_release_all_plan_refs(owner) ReleaseAllPlanCacheRefsInOwner(owner)
#else
#define pln_release_all_plan_refs(owner) ResourceOwnerReleaseAllPlanCacheRefs(owner)
#endif

/*
 * Whether this backend holds exactly this lock mode on a lock tag: 17
 * added "or a stronger one" (false: exactly, as 15's did).
 */
#if PG_VERSION_NUM >= 170000
#define pln_lock_held_by_me(tag, mode) LockHeldByMe((tag), (mode), false)
#else
#define pln_lock_held_by_me(tag, mode) LockHeldByMe((tag), (mode))
#endif

/*
 * A type name from a string, errors thrown: 16 added a soft-error
 * context (NULL: throw, as 15 does).
 */
#if PG_VERSION_NUM >= 160000
#define pln_type_string_to_type_name(str) typeStringToTypeName((str), NULL)
#else
#define pln_type_string_to_type_name(str) typeStringToTypeName(str)
#endif

/*
 * EXECUTE privilege on, and ownership of, a function: 16 replaced the
 * per-catalog functions by object_aclcheck and object_ownercheck.
 */
#if PG_VERSION_NUM >= 160000
#define pln_proc_aclcheck(oid, role, mode) \
	object_aclcheck(ProcedureRelationId, (oid), (role), (mode))
#define pln_proc_ownercheck(oid, role) \
	object_ownercheck(ProcedureRelationId, (oid), (role))
#else
#define pln_proc_aclcheck(oid, role, mode) pg_proc_aclcheck((oid), (role), (mode))
#define pln_proc_ownercheck(oid, role) pg_proc_ownercheck((oid), (role))
#endif

/*
 * An instr_time in nanoseconds: 16 made instr_time an opaque tick count
 * and added the conversion; 15's is a struct timespec on this platform.
 */
#if PG_VERSION_NUM >= 160000
#define pln_instr_time_ns(t) ((uint64) INSTR_TIME_GET_NANOSEC(t))
#else
#define pln_instr_time_ns(t) ((uint64) (t).tv_sec * 1000000000 + (t).tv_nsec)
#endif

/*
 * random() without arguments: 17 added random(min, max) for three types,
 * so the OID macro of the old one got a trailing underscore.  (The new
 * ones are not on plnimble's lists of harmless functions: a call of one
 * is treated as any unreviewed function's.)
 */
#if PG_VERSION_NUM >= 170000
#define PLN_F_RANDOM F_RANDOM_
#else
#define PLN_F_RANDOM F_RANDOM
#endif

/*
 * The planner hook's arguments: 19 added the EXPLAIN state (NULL when the
 * query is not being explained).
 */
#if PG_VERSION_NUM >= 190000
#define PLN_PLANNER_HOOK_PARAMS Query *parse, const char *query_string, \
	int cursorOptions, ParamListInfo boundParams, ExplainState *es
#define PLN_PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams, es
#else
#define PLN_PLANNER_HOOK_PARAMS Query *parse, const char *query_string, \
	int cursorOptions, ParamListInfo boundParams
#define PLN_PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams
#endif

/*
 * Planning one analysed query: 19 added the EXPLAIN state (NULL: not
 * being explained).
 */
#if PG_VERSION_NUM >= 190000
#define pln_plan_query(query, text, options, params) \
	pg_plan_query((query), (text), (options), (params), NULL)
#else
#define pln_plan_query(query, text, options, params) \
	pg_plan_query((query), (text), (options), (params))
#endif

/*
 * Is a hook of another module set that planning a query over tables
 * calls (besides planner_hook, see pln_other_planner_hook_set)?  Their
 * code is not reviewed.  19 replaced get_relation_info_hook by
 * build_simple_rel_hook and added hooks for join set-up and for the
 * planner's set-up and shut-down.
 */
#if PG_VERSION_NUM >= 190000
#define pln_planning_hook_set() \
	(build_simple_rel_hook != NULL || joinrel_setup_hook != NULL || \
	 join_path_setup_hook != NULL || planner_setup_hook != NULL || \
	 planner_shutdown_hook != NULL || set_rel_pathlist_hook != NULL || \
	 set_join_pathlist_hook != NULL || join_search_hook != NULL || \
	 create_upper_paths_hook != NULL || get_relation_stats_hook != NULL || \
	 get_index_stats_hook != NULL || get_attavgwidth_hook != NULL)
#else
#define pln_planning_hook_set() \
	(get_relation_info_hook != NULL || set_rel_pathlist_hook != NULL || \
	 set_join_pathlist_hook != NULL || join_search_hook != NULL || \
	 create_upper_paths_hook != NULL || get_relation_stats_hook != NULL || \
	 get_index_stats_hook != NULL || get_attavgwidth_hook != NULL)
#endif

/*
 * Run-time partition pruning of an Append: 18 keeps the pruning steps in
 * the plan's list and the Append an index into it (-1 for none).
 */
#if PG_VERSION_NUM >= 180000
#define pln_append_prunes_at_run_time(append) ((append)->part_prune_index >= 0)
#else
#define pln_append_prunes_at_run_time(append) ((append)->part_prune_info != NULL)
#endif

/*
 * ExecutorRun: 18 dropped its execute_once argument (a plan is run once,
 * as plnimble runs it).
 */
#if PG_VERSION_NUM >= 180000
#define pln_executor_run(qd, dir, count) ExecutorRun((qd), (dir), (count))
#else
#define pln_executor_run(qd, dir, count) ExecutorRun((qd), (dir), (count), true)
#endif

/*
 * reverse(text): 18 added reverse(bytea), so the OID macro of the text
 * one got the argument type in its name.
 */
#if PG_VERSION_NUM >= 180000
#define PLN_F_REVERSE_TEXT F_REVERSE_TEXT
#else
#define PLN_F_REVERSE_TEXT F_REVERSE
#endif

/*
 * The executor's checks of a result relation before an INSERT: 16 added
 * MERGE's actions (none here), 18 the ON CONFLICT action.
 */
#if PG_VERSION_NUM >= 180000
#define pln_check_valid_result_rel(rinfo, cmd, onconflict) \
	CheckValidResultRel((rinfo), (cmd), (onconflict), NIL)
#elif PG_VERSION_NUM >= 160000
#define pln_check_valid_result_rel(rinfo, cmd, onconflict) \
	CheckValidResultRel((rinfo), (cmd), NIL)
#else
#define pln_check_valid_result_rel(rinfo, cmd, onconflict) \
	CheckValidResultRel((rinfo), (cmd))
#endif

/*
 * A result relation's compiled CHECK constraints, which ExecConstraints
 * builds on its first call for the relation: 18 renamed the field (beside
 * the NOT NULL checks of virtual generated columns it added).
 */
#if PG_VERSION_NUM >= 180000
#define pln_ri_check_exprs(rinfo) ((rinfo)->ri_CheckConstraintExprs)
#else
#define pln_ri_check_exprs(rinfo) ((rinfo)->ri_ConstraintExprs)
#endif

/*
 * A planned statement's range table into an EState, and the permission
 * checks the executor makes on it before running it.  16 moved the
 * permissions out of the range table entries into the statement's
 * RTEPermissionInfo list (and ExecCheckRTPerms became
 * ExecCheckPermissions); 18 passes the relations that initial pruning
 * cannot remove (all of a plain INSERT's).  Both are done exactly as
 * standard_ExecutorStart's InitPlan does them on that version.
 */
static inline void
pln_exec_init_range_table(EState *estate, PlannedStmt *pstmt)
{
#if PG_VERSION_NUM >= 180000
	ExecInitRangeTable(estate, pstmt->rtable, pstmt->permInfos,
					   bms_copy(pstmt->unprunableRelids));
#elif PG_VERSION_NUM >= 160000
	ExecInitRangeTable(estate, pstmt->rtable, pstmt->permInfos);
#else
	ExecInitRangeTable(estate, pstmt->rtable);
#endif
}

static inline void
pln_exec_check_permissions(PlannedStmt *pstmt)
{
#if PG_VERSION_NUM >= 160000
	ExecCheckPermissions(pstmt->rtable, pstmt->permInfos, true);
#else
	ExecCheckRTPerms(pstmt->rtable, true);
#endif
}

/*
 * A pre-check of a row against the ON CONFLICT arbiter indexes, before it
 * is inserted: 18 added the TID of an inserted tuple to leave out of the
 * check (invalid before the insertion, as the executor's ExecInsert
 * passes it there).
 */
static inline bool
pln_check_index_constraints(ResultRelInfo *rinfo, TupleTableSlot *slot,
							EState *estate, ItemPointer conflict_tid,
							List *arbiters)
{
#if PG_VERSION_NUM >= 180000
	ItemPointerData none;

	ItemPointerSetInvalid(&none);
	return ExecCheckIndexConstraints(rinfo, slot, estate, conflict_tid,
									 &none, arbiters);
#else
	return ExecCheckIndexConstraints(rinfo, slot, estate, conflict_tid,
									 arbiters);
#endif
}

/*
 * An index scan without instrumentation: 18 added the instrumentation, 19
 * scan-option flags (none here).
 */
#if PG_VERSION_NUM >= 190000
#define pln_index_beginscan(heap, index, snap, nkeys, norderbys) \
	index_beginscan((heap), (index), (snap), NULL, (nkeys), (norderbys), 0)
#elif PG_VERSION_NUM >= 180000
#define pln_index_beginscan(heap, index, snap, nkeys, norderbys) \
	index_beginscan((heap), (index), (snap), NULL, (nkeys), (norderbys))
#else
#define pln_index_beginscan(heap, index, snap, nkeys, norderbys) \
	index_beginscan((heap), (index), (snap), (nkeys), (norderbys))
#endif

/*
 * An INSERT statement's RETURNING targets (ResTargets).  18 added
 * RETURNING WITH (OLD AS ..., NEW AS ...) and put the targets in a
 * ReturningClause beside those options; *options is set when there are
 * any (15 and 17 have none).
 */
static inline List *
pln_insert_returning(InsertStmt *stmt, bool *options)
{
#if PG_VERSION_NUM >= 180000
	if (stmt->returningClause == NULL)
	{
		*options = false;
		return NIL;
	}
	*options = stmt->returningClause->options != NIL;
	return stmt->returningClause->exprs;
#else
	*options = false;
	return stmt->returningList;
#endif
}

/*
 * Collations the server uses without a catalog lookup.  Up to 17 the C
 * and POSIX collations both had a shortcut; 18's
 * pg_newlocale_from_collation has one for C (and the database default)
 * only, and dropped POSIX's OID macro.
 */
static inline bool
pln_collation_needs_no_lookup(Oid collid)
{
	return collid == InvalidOid ||
		collid == DEFAULT_COLLATION_OID ||
		collid == C_COLLATION_OID
#if PG_VERSION_NUM < 180000
		|| collid == POSIX_COLLATION_OID
#endif
		;
}

/*
 * A shared hash table of a fixed number of entries: 19 dropped the
 * separate initial size.
 */
#if PG_VERSION_NUM >= 190000
#define pln_shmem_init_hash(name, nelems, info, flags) \
	ShmemInitHash((name), (nelems), (info), (flags))
#else
#define pln_shmem_init_hash(name, nelems, info, flags) \
	ShmemInitHash((name), (nelems), (nelems), (info), (flags))
#endif

/*
 * The string-literal settings the scanner follows as the server's does:
 * 19 removed standard_conforming_strings = off and with it
 * escape_string_warning.
 */
#if PG_VERSION_NUM >= 190000
#define pln_standard_conforming_strings true
#define pln_escape_string_warning false
#else
#define pln_standard_conforming_strings standard_conforming_strings
#define pln_escape_string_warning escape_string_warning
#endif

/*
 * Whether a Var of a RETURNING list is the inserted row's column as it
 * is stored (what RETURNING meant before 18); 18's old.x and new.x are
 * Vars marked with the row they read.
 */
static inline bool
pln_var_of_new_row(Var *var)
{
#if PG_VERSION_NUM >= 180000
	return var->varreturningtype == VAR_RETURNING_DEFAULT;
#else
	return true;
#endif
}

/*
 * Memory for a check hook's "extra" value, which the GUC machinery frees:
 * 16 moved GUC memory into a memory context (guc_malloc, freed with
 * pfree); 15 frees it with free().  NULL when out of memory, as the hook
 * expects.
 */
#if PG_VERSION_NUM >= 160000
#define pln_guc_extra_alloc(size) guc_malloc(LOG, (size))
#else
#define pln_guc_extra_alloc(size) malloc(size)
#endif

/*
 * PL/pgSQL's own language changes, followed on the version that made
 * them (docs/user-guide.md, "Server versions"):
 *
 * PLN_HAS_PG_ROUTINE_OID: 16 added GET DIAGNOSTICS ... = PG_ROUTINE_OID
 * (the running function's OID).
 *
 * PLN_BOUND_CURSOR_NAMED_AFTER_VARIABLE: up to 15 a bound cursor variable
 * starts out holding its own name, so its portal is named after it; 16
 * made it start out null, and OPEN gives the portal a generated name, as
 * for an unbound cursor variable.
 */
#define PLN_HAS_PG_ROUTINE_OID (PG_VERSION_NUM >= 160000)
/*
 * PLN_TYPE_OF_VARIABLES_ONLY: 17 reworked %TYPE and %ROWTYPE.  name%TYPE
 * names a scalar or record variable only (15 also took a data type's
 * name, and left anything else to the type-name parser's syntax error),
 * anything else being "variable ... does not exist"; a.b%TYPE a missing
 * table or column is an error; schema-qualified names may have any number
 * of parts; and either may be followed by [] or ARRAY for its array type.
 */
#define PLN_TYPE_OF_VARIABLES_ONLY (PG_VERSION_NUM >= 170000)

/*
 * PLN_NUMERIC_LITERALS_16: 16's core scanner, which PL/pgSQL uses, reads
 * hexadecimal, octal and binary integers and underscores between digits
 * (grammar/scan.l has both sets of rules).  pln_integer_literal_fits: such
 * an integer is an ICONST if it fits an int4, else a numeric constant
 * (16's pg_strtoint32 reads all those forms).
 */
#define PLN_NUMERIC_LITERALS_16 (PG_VERSION_NUM >= 160000)

/*
 * PLN_CURSOR_ARGS_ARROW: 18 takes name => value for a cursor's named
 * arguments (OPEN c(a => 1), FOR r IN c(a => 1)) besides name := value.
 */
#define PLN_CURSOR_ARGS_ARROW (PG_VERSION_NUM >= 180000)

static inline bool
pln_integer_literal_fits(const char *str)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext escontext = {T_ErrorSaveContext};

	(void) pg_strtoint32_safe(str, (Node *) &escontext);
	return !escontext.error_occurred;
#else
	return true;				/* (not called: 15 has no such literals) */
#endif
}
#define PLN_BOUND_CURSOR_NAMED_AFTER_VARIABLE (PG_VERSION_NUM < 160000)

/*
 * The CONTEXT line SPI adds for an expression of a PL (plnimble writes it
 * itself where it evaluates an expression without SPI): 18 names it
 * "PL/pgSQL expression", as it already named assignments.
 */
#if PG_VERSION_NUM >= 180000
#define PLN_SPI_EXPR_CONTEXT "PL/pgSQL expression \"%s\""
#else
#define PLN_SPI_EXPR_CONTEXT "SQL expression \"%s\""
#endif

/*
 * Message texts of the server's that plnimble's scanner repeats: 17 put
 * configuration parameter names in messages in double quotes.
 */
#if PG_VERSION_NUM >= 170000
#define PLN_MSG_UNICODE_ESCAPES_SCS_OFF \
	"String constants with Unicode escapes cannot be used when \"standard_conforming_strings\" is off."
#else
#define PLN_MSG_UNICODE_ESCAPES_SCS_OFF \
	"String constants with Unicode escapes cannot be used when standard_conforming_strings is off."
#endif

/*
 * What an error's cleanup does for buffer I/O, as AbortSubTransaction does
 * it (the read guard, lazy/guard.c).  15 and 16 end a buffer I/O in
 * progress with AbortBufferIO; from 17 on a buffer I/O belongs to the
 * resource owner, whose release ends it (the guard releases its own), and
 * 18 also cleans up the asynchronous I/O handle the backend holds.
 */
#if PG_VERSION_NUM >= 180000
#include "storage/aio_subsys.h"
#define pln_error_cleanup_buffer_io()	pgaio_error_cleanup()
#elif PG_VERSION_NUM >= 170000
#define pln_error_cleanup_buffer_io()	((void) 0)
#else
#define pln_error_cleanup_buffer_io()	AbortBufferIO()
#endif

/*
 * Signals unblocked again after an error (16 removed PG_SETMASK for
 * sigprocmask, which libpq/pqsignal.h maps on every platform).
 */
#if PG_VERSION_NUM >= 160000
#define pln_unblock_signals()	((void) sigprocmask(SIG_SETMASK, &UnBlockSig, NULL))
#else
#define pln_unblock_signals()	((void) PG_SETMASK(&UnBlockSig))
#endif

/*
 * May a resource owner that has been released be used again?  Through 16
 * it may (the read guard keeps one to save creating one per guard); from
 * 17 on a released owner refuses new resources (ResourceOwnerEnlarge
 * called after release started), so it is deleted and the next guard
 * creates its own.
 */
#define PLN_RELEASED_RESOWNER_REUSABLE (PG_VERSION_NUM < 170000)

#endif							/* PLN_COMPAT_H */
