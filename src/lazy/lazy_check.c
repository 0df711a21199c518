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
 * Only calls made by plnimble's own code are seen: a server function
 * that does a lookup internally is caught only if plnimble's call of it
 * is wrapped (expand_array below is one such).
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

#include "plnimble.h"

#if !defined(__x86_64__) || !defined(__ELF__)
#error "the checking build (PLN_LAZY_CHECK) needs x86-64 ELF"
#endif

extern void pln_lazy_check_call(const char *fn, const char *header);

/*
 * Called by every wrapper before the real function: a no-op unless the
 * innermost handler block has no subtransaction.
 */
void
pln_lazy_check_call(const char *fn, const char *header)
{
	PlnStmt    *stmt = NULL;
	const char *kind;
	int			lineno;

	if (likely(!pln_innermost_frame_is_lazy(&stmt)) || pln_lazy_check_exempt)
		return;

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
