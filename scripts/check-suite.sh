#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/check-suite.sh: plnimble_check against plpgsql_check's own
# regression suite (issue 29).
#
# Usage: bash scripts/check-suite.sh [SCRIPT...]
#
# Takes plpgsql_check's regression scripts for PostgreSQL 15
# (plpgsql_check_active, plpgsql_check_active-15, plpgsql_check_passive),
# runs each as it is on PL/pgSQL with plpgsql_check, in a database of its
# own, and once more transformed mechanically (scripts/check-suite/
# transform.pl: LANGUAGE plpgsql -> plnimble, plpgsql_check_function ->
# plnimble_check_function, plpgsql_check_pragma -> plnimble_check_pragma,
# plpgsql_check.mode -> plnimble.check_on_first_call, a DO block gets
# LANGUAGE plnimble, ...) on plnimble in another, with
# plnimble.identify_as_plpgsql on.  Then compares call by call
# (scripts/check-suite/compare.pl): each check call's errors (line,
# SQLSTATE, message; of several at one line the first), its warnings (level,
# line, SQLSTATE, message) and whether it fails; for the passive script,
# the errors and warnings of every SELECT and DO.  The differences are
# printed and kept in results/check-suite/; a summary gives the
# error-agreement percentage (all differences count there); the last line
# is "N passed, M failed" with N, M calls, a call failing on a difference
# not listed in scripts/check-suite/known.txt (intended ones, and
# plpgsql_check 2.3's own defects).
#
# The scripts are plpgsql_check's, not plnimble's: they are not in this
# repository.  They are looked for in $PLN_CHECK_SUITE (a directory holding
# the .sql files, or a source tree with them in sql/), then in the cache
# $PLN_CHECK_SUITE_CACHE (default /var/cache/plnimble/plpgsql-check), where
# a first run puts the source package plpgsql-check fetched with apt-get
# source (a private deb-src list made from the machine's apt sources, as
# scripts/cassert-server.sh does; the system's apt configuration is not
# touched).  When neither has them (an archive that does not serve the
# source package), the lane says so and ends "0 passed, 0 failed, 1
# skipped".
#
# plpgsql_check itself is installed as scripts/check-compare.sh does
# (pln_install_plpgsql_check: PLN_CI=1 for the system installation).

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

SCRIPTS=("$@")
[ ${#SCRIPTS[@]} -gt 0 ] ||
	SCRIPTS=(plpgsql_check_active plpgsql_check_active-15 plpgsql_check_passive)
CACHE=${PLN_CHECK_SUITE_CACHE:-/var/cache/plnimble/plpgsql-check}

# --- find the suite ---------------------------------------------------------
suite_dir() {
	local d
	for d in "${PLN_CHECK_SUITE:-}" "${PLN_CHECK_SUITE:-}/sql" "$CACHE"/plpgsql-check-*/sql; do
		[ -n "$d" ] && [ -f "$d/plpgsql_check_active.sql" ] && { echo "$d"; return 0; }
	done
	return 1
}

fetch_suite() {
	local work
	work=$(mktemp -d) || return 1
	mkdir -p "$work/apt/sources.list.d" "$work/apt/lists/partial" \
		"$work/apt/cache/archives/partial" "$CACHE" || return 1
	: >"$work/apt/sources.list"
	pln_machine_deb_src "$work/apt" || return 1
	local opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list"
		-o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
		-o "Dir::State::Lists=$work/apt/lists"
		-o "Dir::Cache=$work/apt/cache"
		-o "APT::Sandbox::User=root")
	apt-get "${opts[@]}" update -q >&2 &&
		(cd "$CACHE" && apt-get "${opts[@]}" source plpgsql-check >&2)
	local rc=$?
	rm -rf "$work"
	return $rc
}

if ! dir=$(suite_dir); then
	pln_log "check-suite: fetching plpgsql_check's source package into $CACHE"
	fetch_suite || pln_log "check-suite: apt-get source plpgsql-check failed"
	dir=$(suite_dir) || {
		echo "check-suite: plpgsql_check's regression scripts are not available"
		echo "  (set PLN_CHECK_SUITE to a directory with plpgsql_check_active.sql)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	}
fi
pln_log "check-suite: scripts from $dir"

out=results/check-suite
mkdir -p results
pln_install_plpgsql_check || { echo "0 passed, 1 failed"; exit 1; }
pln_build_install || { echo "0 passed, 1 failed"; exit 1; }
pln_cluster_start "${PLN_PORT:-5434}" || { echo "0 passed, 1 failed"; exit 1; }
rm -rf "$out"
mkdir -p "$out"

: >"$out/summary.txt"
for s in "${SCRIPTS[@]}"; do
	kind=active
	case $s in *passive*) kind=passive ;; esac
	[ -f "$dir/$s.sql" ] || { pln_log "check-suite: no $dir/$s.sql"; continue; }
	for side in pg nb; do
		perl scripts/check-suite/transform.pl "$side" "$kind" scripts/check-suite/skip.txt <"$dir/$s.sql" >"$out/$s.$side.sql"
		db="suite_${side}_$(echo "$s" | tr -c 'a-z0-9\n' '_')"
		psql -X -q -d postgres -c "CREATE DATABASE $db" || exit 1
		opts=""
		[ "$side" = nb ] && opts="-c plnimble.identify_as_plpgsql=on"
		# psql prints an error's "psql:FILE:LINE:" prefix with the file's
		# name: run it from $out so that both sides print the same
		(cd "$out" && PGOPTIONS="$opts" timeout "$PLN_TIMEOUT" \
			psql -X -q -d "$db" -f "$s.$side.sql" >"$s.$side.out" 2>&1)
	done
	perl scripts/check-suite/compare.pl "$s" "$out/$s.pg.out" "$out/$s.nb.out" \
		scripts/check-suite/known.txt >"$out/$s.diff"
	grep -v '^summary ' "$out/$s.diff"
	grep '^summary ' "$out/$s.diff" >>"$out/summary.txt"
done

pln_check_server_log || { echo "0 passed, 1 failed"; exit 1; }

awk '
{ calls += $3; failed += $4; errors += $5; found += $6; line += $7; falsee += $8;
  w += $9; wf += $10; wx += $11; passed += $12
  printf "%-26s calls %3d (failing %d), errors %d/%d (%d at line+SQLSTATE), false errors %d, warnings %d/%d (+%d extra), calls agreeing %d\n",
	$2, $3, $4, $6, $5, $7, $8, $10, $9, $11, $12 }
END {
  pct = errors ? 100.0 * found / errors : 100
  printf "check-suite: %d calls, %d fail on plnimble only; errors found %d of %d (%.1f %%, %d at line and SQLSTATE); false errors %d; warnings found %d of %d, %d extra\n",
	calls, failed, found, errors, pct, line, falsee, wf, w, wx
  printf "%d passed, %d failed\n", passed, calls - passed
}' "$out/summary.txt"
