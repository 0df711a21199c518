/*-------------------------------------------------------------------------
 *
 * lazy_check.c
 *	  The checking build: server calls that would break the lazy rule.
 *
 * Built only with `make PLN_LAZY_CHECK=1` (bash scripts/test.sh
 * --lazy-check).  The linker is given -Wl,--wrap=NAME for every server
 * function on the list scripts/gen-lazy-check.sh derives from the server's
 * headers (functions that read catalogs, take locks, pin buffers, run SPI,
 * take snapshots, build executor state, start subtransactions ...), so
 * that plnimble's calls of NAME reach __wrap_NAME here instead.  Each
 * wrapper asks whether the innermost handler block of the running call is
 * without its subtransaction; if so, the rule of docs/design.md ("while
 * the innermost handler block has no subtransaction, only pure work may
 * run") has been broken, and it raises an internal error naming the
 * server function and the statement, after logging the same text, so
 * that a handler that catches the error cannot hide it (the test run
 * fails on such a line in the server log).  Otherwise it goes on to the
 * real function.
 *
 * The wrappers of the generated list do not know their function's
 * arguments, so they are written in assembler: save the argument
 * registers, call the check, restore them and jump to the real function
 * with the caller's stack untouched.  That works for every signature
 * (varargs and stack arguments included) and ties the build to x86-64
 * ELF, which is where the suite runs.  A few functions look the catalogs
 * up only for some arguments; they have C wrappers below that look at
 * them.
 *
 * Only calls made by plnimble's own code are seen here: a server function
 * that does a lookup internally is caught only if plnimble's call of it
 * is wrapped (expand_array below is one such).  What the server does
 * inside is seen in the wrapped-server lane (PLN_SERVER_CHECK, at the
 * end of this file): that server calls a hook at its own entry points
 * for catalog, buffer, lock, SPI and snapshot access, and the hook here
 * applies the same rule.
 *
 * Copyright (c) 2026, the plnimble developers.
 * Licensed under the PostgreSQL License; see the LICENSE file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/array.h"
#include "utils/expandeddatum.h"
#include "utils/fmgrtab.h"
#ifdef PLN_SERVER_CHECK
#include <dlfcn.h>

#include "access/genam.h"
#include "catalog/pg_namespace.h"
#include "server_access_check.h"
#include "storage/lmgr.h"
#include "utils/guc.h"
#include "utils/syscache.h"
#endif

#include "plnimble.h"

#if !defined(__x86_64__) || !defined(__ELF__)
#error "the checking build (PLN_LAZY_CHECK) needs x86-64 ELF"
#endif

extern void pln_lazy_check_call(const char *fn, const char *header);

static pg_attribute_noreturn() void lazy_check_report(const char *fn,
													   const char *header,
													   PlnStmt *stmt);

/*
 * Called by every wrapper before the real function: a no-op unless the
 * innermost handler block has no subtransaction.
 */
void
pln_lazy_check_call(const char *fn, const char *header)
{
	PlnStmt    *stmt = NULL;

	if (likely(!pln_innermost_frame_is_lazy(&stmt)) || pln_lazy_check_exempt)
		return;
	lazy_check_report(fn, header, stmt);
}

/* The rule was broken: a log line, then an internal error */
static void
lazy_check_report(const char *fn, const char *header, PlnStmt *stmt)
{
	const char *kind;
	int			lineno;

	kind = stmt != NULL ? pln_stmt_typename(stmt) : "no statement";
	lineno = stmt != NULL ? stmt->lineno : 0;
	/* first in the server log, where no handler can catch it */
	ereport(LOG,
			(errmsg("lazy-check: %s (%s) called in a handler block without its subtransaction, at %s line %d",
					fn, header, kind, lineno)));
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg_internal("lazy-check: %s (%s) called in a handler block without its subtransaction",
							 fn, header),
			 errdetail_internal("The running plnimble statement is %s at line %d.",
								kind, lineno)));
}

/*
 * __wrap_NAME for a function of the generated list: keep the argument
 * registers (the six integer ones, %rax, which counts vector registers
 * for varargs calls, and %xmm0-7), call the check, restore them, and
 * jump to the real function, which returns straight to our caller.  At
 * entry %rsp is 8 modulo 16; seven pushes and 128 bytes make the call
 * aligned.
 */
#define PLN_LAZY_WRAP(name, header) \
__asm__( \
	"	.section .rodata\n" \
	".Lpln_lazy_name_" #name ":\n" \
	"	.string \"" #name "\"\n" \
	".Lpln_lazy_header_" #name ":\n" \
	"	.string \"" header "\"\n" \
	"	.text\n" \
	"	.p2align 4\n" \
	"	.globl __wrap_" #name "\n" \
	"	.hidden __wrap_" #name "\n" \
	"	.type __wrap_" #name ", @function\n" \
	"__wrap_" #name ":\n" \
	"	pushq %rdi\n" \
	"	pushq %rsi\n" \
	"	pushq %rdx\n" \
	"	pushq %rcx\n" \
	"	pushq %r8\n" \
	"	pushq %r9\n" \
	"	pushq %rax\n" \
	"	subq $128, %rsp\n" \
	"	movdqu %xmm0, 0(%rsp)\n" \
	"	movdqu %xmm1, 16(%rsp)\n" \
	"	movdqu %xmm2, 32(%rsp)\n" \
	"	movdqu %xmm3, 48(%rsp)\n" \
	"	movdqu %xmm4, 64(%rsp)\n" \
	"	movdqu %xmm5, 80(%rsp)\n" \
	"	movdqu %xmm6, 96(%rsp)\n" \
	"	movdqu %xmm7, 112(%rsp)\n" \
	"	leaq .Lpln_lazy_name_" #name "(%rip), %rdi\n" \
	"	leaq .Lpln_lazy_header_" #name "(%rip), %rsi\n" \
	"	call pln_lazy_check_call\n" \
	"	movdqu 0(%rsp), %xmm0\n" \
	"	movdqu 16(%rsp), %xmm1\n" \
	"	movdqu 32(%rsp), %xmm2\n" \
	"	movdqu 48(%rsp), %xmm3\n" \
	"	movdqu 64(%rsp), %xmm4\n" \
	"	movdqu 80(%rsp), %xmm5\n" \
	"	movdqu 96(%rsp), %xmm6\n" \
	"	movdqu 112(%rsp), %xmm7\n" \
	"	addq $128, %rsp\n" \
	"	popq %rax\n" \
	"	popq %r9\n" \
	"	popq %r8\n" \
	"	popq %rcx\n" \
	"	popq %rdx\n" \
	"	popq %rsi\n" \
	"	popq %rdi\n" \
	"	jmp __real_" #name "@PLT\n" \
	"	.size __wrap_" #name ", .-__wrap_" #name "\n");

#include "lazy/lazy_check_list.h"

/*
 * expand_array looks up the element type's storage (get_typlenbyvalalign)
 * unless it is given a cache that holds it or expands an expanded array;
 * a TOAST pointer it would fetch from the table.
 */
extern Datum __real_expand_array(Datum arraydatum, MemoryContext parentcontext,
								 ArrayMetaState *metacache);
extern Datum __wrap_expand_array(Datum arraydatum, MemoryContext parentcontext,
								 ArrayMetaState *metacache);

Datum
__wrap_expand_array(Datum arraydatum, MemoryContext parentcontext,
					ArrayMetaState *metacache)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(arraydatum);

	/* (an expanded array's own metadata is copied, with no lookup) */
	if (VARATT_IS_EXTERNAL_EXPANDED(v))
		;
	else if (VARATT_IS_EXTERNAL(v))
		pln_lazy_check_call("expand_array of a TOAST pointer", "utils/array.h");
	else if (metacache == NULL ||
			 (VARATT_IS_4B_U(v) &&
			  metacache->element_type != ARR_ELEMTYPE((ArrayType *) v)))
		pln_lazy_check_call("expand_array without the element type's storage (get_typlenbyvalalign)",
							"utils/array.h");
	return __real_expand_array(arraydatum, parentcontext, metacache);
}

/* array_create_iterator: the same lookup when given no cache */
extern ArrayIterator __real_array_create_iterator(ArrayType *arr, int slice_ndim,
												  ArrayMetaState *mstate);
extern ArrayIterator __wrap_array_create_iterator(ArrayType *arr, int slice_ndim,
												  ArrayMetaState *mstate);

ArrayIterator
__wrap_array_create_iterator(ArrayType *arr, int slice_ndim,
							 ArrayMetaState *mstate)
{
	if (mstate == NULL)
		pln_lazy_check_call("array_create_iterator without the element type's storage (get_typlenbyvalalign)",
							"utils/array.h");
	return __real_array_create_iterator(arr, slice_ndim, mstate);
}

/*
 * OidOutputFunctionCall: finding a built-in function (fmgr_info) needs no
 * catalog, any other is looked up in pg_proc.  (Whether a built-in output
 * function reads the catalogs itself is purity.c's list's business: the
 * wrapper cannot see inside the server.)
 */
extern char *__real_OidOutputFunctionCall(Oid functionId, Datum val);
extern char *__wrap_OidOutputFunctionCall(Oid functionId, Datum val);

char *
__wrap_OidOutputFunctionCall(Oid functionId, Datum val)
{
	if (functionId > fmgr_last_builtin_oid ||
		fmgr_builtin_oid_index[functionId] == InvalidOidBuiltinMapping)
		pln_lazy_check_call("OidOutputFunctionCall of a function that is not built in",
							"fmgr.h");
	return __real_OidOutputFunctionCall(functionId, val);
}

#ifdef PLN_SERVER_CHECK

/*
 * The wrapped-server lane: the server built by scripts/cassert-server.sh 15
 * calls server_access_check_hook at its own entry points for catalog
 * caches, catalog scans, the relation cache, buffer reads, heavyweight
 * locks, SPI connections and snapshot registration
 * (scripts/server-access-check/server_access_check.c says why those), from
 * wherever in the server they are called.  The rule is the one above: in a
 * handler block without its subtransaction, outside materializing and
 * without a read guard, none of them may be reached.
 *
 * While the report itself runs (its log line, the error's context
 * callbacks) the hook lets everything through, so that a lookup made by
 * the reporting cannot report again.
 */
static bool server_check_reporting = false;

static void
server_access_checked(const char *entry_point)
{
	PlnStmt    *stmt = NULL;

	if (server_check_reporting || pln_lazy_check_exempt ||
		likely(!pln_innermost_frame_is_lazy(&stmt)))
		return;
	server_check_reporting = true;
	PG_TRY();
	{
		lazy_check_report(entry_point, "inside the server", stmt);
	}
	PG_FINALLY();
	{
		server_check_reporting = false;
	}
	PG_END_TRY();
}

/*
 * The lane's self-test (plnimble.server_check_probe): where a simple
 * expression is evaluated, do one server access, through server functions
 * whose own calls of the entry points are wrapped:
 *	catcache	a catalog cache lookup (SearchSysCacheExists, which reaches
 *				SearchCatCache)
 *	lock		a heavyweight lock on pg_namespace (LockRelationOid, which
 *				reaches LockAcquireExtended)
 *	scan		the same lock, then an index scan of pg_namespace:
 *				relation cache, catalog scan, snapshot, buffer reads
 * The server functions are looked up by name (dlsym), so that plnimble's
 * own wrappers (-Wl,--wrap acts on every object of the library, this one
 * too) do not stand in front of them: only the server's hook can see
 * these accesses.  scripts/server-access-check/probe.sql shows each caught
 * in a handler block without its subtransaction, and let through under a
 * read guard and where the block has its subtransaction.
 */
enum
{
	PROBE_NONE,
	PROBE_CATCACHE,
	PROBE_LOCK,
	PROBE_SCAN
};

static const struct config_enum_entry probe_options[] = {
	{"none", PROBE_NONE, false},
	{"catcache", PROBE_CATCACHE, false},
	{"lock", PROBE_LOCK, false},
	{"scan", PROBE_SCAN, false},
	{NULL, 0, false}
};

static int	server_check_probe = PROBE_NONE;

static struct
{
	bool		(*syscache_exists) (int cacheId, Datum key1, Datum key2,
									Datum key3, Datum key4);
	void		(*lock_relation_oid) (Oid relid, LOCKMODE lockmode);
	Relation	(*table_open) (Oid relationId, LOCKMODE lockmode);
	void		(*table_close) (Relation relation, LOCKMODE lockmode);
	SysScanDesc (*beginscan) (Relation heapRelation, Oid indexId,
							  bool indexOK, Snapshot snapshot,
							  int nkeys, ScanKey key);
	HeapTuple	(*getnext) (SysScanDesc sysscan);
	void		(*endscan) (SysScanDesc sysscan);
}			probe_fn;

static void *
server_function(const char *name)
{
	void	   *fn = dlsym(RTLD_DEFAULT, name);

	if (fn == NULL)
		elog(ERROR, "server-check probe: the server has no function %s", name);
	return fn;
}

void
pln_server_check_probe(void)
{
	Relation	rel;
	SysScanDesc scan;

	switch (server_check_probe)
	{
		case PROBE_NONE:
			break;
		case PROBE_CATCACHE:
			(void) probe_fn.syscache_exists(NAMESPACEOID,
											ObjectIdGetDatum(PG_CATALOG_NAMESPACE),
											0, 0, 0);
			break;
		case PROBE_LOCK:
			probe_fn.lock_relation_oid(NamespaceRelationId, AccessShareLock);
			break;
		case PROBE_SCAN:
			rel = probe_fn.table_open(NamespaceRelationId, AccessShareLock);
			scan = probe_fn.beginscan(rel, NamespaceOidIndexId, true, NULL,
									  0, NULL);
			(void) probe_fn.getnext(scan);
			probe_fn.endscan(scan);
			probe_fn.table_close(rel, NoLock);
			break;
	}
}

/* Called once, from _PG_init */
void
pln_server_check_init(void)
{
	/* (a server that calls it with another set of entry points) */
	StaticAssertStmt(SERVER_ACCESS_CHECK_VERSION == 1,
					 "the wrapped entry points are the ones described here");
	server_access_check_hook = server_access_checked;

	probe_fn.syscache_exists = server_function("SearchSysCacheExists");
	probe_fn.lock_relation_oid = server_function("LockRelationOid");
	probe_fn.table_open = server_function("table_open");
	probe_fn.table_close = server_function("table_close");
	probe_fn.beginscan = server_function("systable_beginscan");
	probe_fn.getnext = server_function("systable_getnext");
	probe_fn.endscan = server_function("systable_endscan");

	DefineCustomEnumVariable("plnimble.server_check_probe",
							 "The wrapped-server lane's self-test: a server access at each simple expression.",
							 NULL,
							 &server_check_probe,
							 PROBE_NONE,
							 probe_options,
							 PGC_USERSET, GUC_NOT_IN_SAMPLE,
							 NULL, NULL, NULL);
}

#endif							/* PLN_SERVER_CHECK */
