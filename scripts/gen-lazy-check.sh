#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/gen-lazy-check.sh: the list of server functions the checking build
# wraps (see "The checking build" in docs/design.md).
#
# Usage: bash scripts/gen-lazy-check.sh INCLUDEDIR OUT.h OUT.wrap OBJECT...
#
# INCLUDEDIR is the server's include directory (pg_config
# --includedir-server), OBJECT... plnimble's object files other than
# src/lazy/lazy_check.o.  A server function is wrapped when
#   1. one of the objects calls it (it is undefined in them: nm -u), and
#   2. it is declared (extern ... name(...)) in one of the header groups
#      below, each of which is about reading catalogs, taking locks,
#      pinning buffers, running SPI, taking snapshots, building executor
#      state or starting (sub)transactions, or it is one of the single
#      functions listed after them, and
#   3. it is not on the list of exemptions at the end, each of which says
#      why it may run in a handler block without its subtransaction.
# So a server call added to plnimble later is wrapped without anyone
# remembering to, as long as its header belongs to a group.
#
# OUT.h gets one PLN_LAZY_WRAP(name, "header") line per function (read by
# src/lazy/lazy_check.c), OUT.wrap the matching -Wl,--wrap=name options (given
# to the linker as @OUT.wrap).

set -euo pipefail
export LC_ALL=C

incdir=$1 out_h=$2 out_wrap=$3
shift 3

# --- header groups, relative to INCLUDEDIR (shell globs) ---------------------
groups=(
	# catalog caches and catalog lookups
	utils/syscache.h utils/catcache.h utils/lsyscache.h utils/typcache.h
	utils/relcache.h utils/regproc.h utils/inval.h 'catalog/*.h'
	# relations, indexes, scans, TOAST tables
	access/relation.h access/table.h access/genam.h access/tableam.h
	access/heapam.h access/detoast.h access/toast_internals.h
	# locks and buffers
	storage/lmgr.h storage/lock.h storage/lwlock.h storage/bufmgr.h
	# SPI, the executor, portals, temporary storage
	executor/spi.h executor/executor.h executor/execExpr.h
	executor/functions.h utils/portal.h tcop/pquery.h tcop/utility.h
	utils/tuplestore.h tcop/dest.h executor/tstoreReceiver.h
	# snapshots, transactions, resource owners, settings
	utils/snapmgr.h access/xact.h utils/resowner.h utils/guc.h
	# parsing, planning, plans
	'parser/parse_*.h' parser/analyze.h 'optimizer/*.h' utils/plancache.h
	# names, result types and records: they look types and relations up
	catalog/namespace.h funcapi.h utils/expandedrecord.h
	'commands/*.h'
)

# --- single functions from mixed headers -----------------------------------
# (looked up in the catalogs, or run user code, depending on their input)
singles=(
	format_type_be format_type_be_qualified format_type_with_typemod
	domain_check fmgr_info fmgr_info_cxt fmgr_info_copy
	OidInputFunctionCall OidReceiveFunctionCall
	OidSendFunctionCall OidFunctionCall0Coll OidFunctionCall1Coll
	OidFunctionCall2Coll OidFunctionCall3Coll get_call_result_type
	pg_detoast_datum pg_detoast_datum_copy DatumGetHeapTupleHeader
)

# --- wrapped in C, checking their arguments (src/lazy/lazy_check.c) --------------
# The first two look the element type up only when not given a cache for
# it; OidOutputFunctionCall reads pg_proc unless the function is built in.
conditional=(expand_array array_create_iterator OidOutputFunctionCall)

# --- exemptions: in a group, but allowed in a lazy region -------------------
# name:reason
exempt=(
	"CachedPlanIsSimplyValid:checks a simple plan without catalog access; the design relies on it (see The simple-expression fast path)"
	"OverrideSearchPathMatchesCurrent:compares search paths; in a lazy region the path is up to date (block entry brings it up to date, pure work cannot change it), so it reads no catalog, as inside CachedPlanIsSimplyValid"
	"GetCurrentSubTransactionId:reads a field of the transaction state"
	"GetCurrentTransactionNestLevel:reads a field of the transaction state (the write path asks it before it starts)"
	"IsInParallelMode:reads a field of the transaction state (the write path's moment conditions ask it before it starts)"
	"SPI_result_code_string:formats a number"
	"SPI_connect:the gates connect right before starting the savepoints, outside them on purpose (the connection is the call's); all work through it is checked"
	"SPI_connect_ext:as SPI_connect"
	"SPI_plan_get_plan_sources:returns the plan's list of plan sources, a field read (no copy, no reference taken); what the caller then reads of a plan source is in memory"
	"SPI_register_trigger_data:part of connecting (pln_connect_spi): hands the connection the trigger's transition tables, in memory"
	"ActiveSnapshotSet:reads whether the active snapshot stack is empty (a pointer test); asked before a read guard is entered (pln_read_guard_usable's callers)"
	"IsInParallelMode:reads a field of the transaction state; asked before a read guard is entered (pln_read_guard_usable)"
)

declared=$(mktemp) used=$(mktemp)
trap 'rm -f "$declared" "$used"' EXIT

# name header, for every function declared in a group header
for g in "${groups[@]}"; do
	for f in $incdir/$g; do
		[ -f "$f" ] || continue
		{ grep -hoE '^extern[^;(]*[[:space:]*][A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' "$f" || true; } |
			sed -E 's/^.*[[:space:]*]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\($/\1/' |
			awk -v h="${f#"$incdir"/}" '{print $1, h}'
	done
done >"$declared"
for s in "${singles[@]}"; do
	echo "$s (function)"
done >>"$declared"

nm -u "$@" | awk 'NF == 2 && $1 == "U" {print $2}' | sed 's/@.*//' | sort -u >"$used"

{
	echo "/* Generated by scripts/gen-lazy-check.sh; do not edit. */"
	awk -v exempt="$(printf '%s\n' "${exempt[@]}" | cut -d: -f1 | tr '\n' ' ')" '
		BEGIN { n = split(exempt, e, " "); for (i = 1; i <= n; i++) skip[e[i]] = 1 }
		FNR == NR { used[$1] = 1; next }
		($1 in used) && !($1 in skip) && !($1 in done) {
			done[$1] = 1
			printf "PLN_LAZY_WRAP(%s, \"%s\")\n", $1, $2
		}' "$used" "$declared" | sort
} >"$out_h"
{
	sed -n 's/^PLN_LAZY_WRAP(\([A-Za-z0-9_]*\),.*/-Wl,--wrap=\1/p' "$out_h"
	printf -- '-Wl,--wrap=%s\n' "${conditional[@]}"
} >"$out_wrap"
