#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/oracle-expected.sh: write expected/NAME.out from real PL/pgSQL.
#
# Usage: bash scripts/oracle-expected.sh [--pg VERSION] NAME...  (NAME = sql/NAME.sql)
#
# With --pg VERSION (17, 18, 19) it runs inside that version's chroot
# (scripts/in-pg.sh) and writes expected/pgVERSION/NAME.out instead, kept
# only where that version's PL/pgSQL prints something else than
# expected/NAME.out (docs/testing.md, "Other major versions").
#
# For writing new tests: runs each script on the real PL/pgSQL exactly as
# the oracle check of scripts/test.sh does (a fresh copy of oracle_tpl, in
# a throwaway cluster), then (re)writes expected/NAME.out from that output
# with the names mapped back to plnimble's: "PL/pgSQL" -> "PL/nimble" and
# "plpgsql." -> "plnimble.", except in the server's own context line
# 'PL/pgSQL assignment "..."' (the core's parser writes it for any PL
# that uses its assignment syntax) and, from 18 on, 'PL/pgSQL expression
# "..."' (SPI's, likewise).  The word plpgsql is otherwise left alone, and
# so are echoed lines that appear verbatim in sql/NAME.sql (a comment
# mentioning PL/pgSQL stays as written).  The output of a script with the
# line "-- oracle: no normalisation" is taken as it is.  Does not need a working plnimble
# build.  Review the result with git diff before committing it.

set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

pg=
case ${1:-} in
--pg)
	pg=${2:-}
	shift 2 || true
	;;
--pg=*)
	pg=${1#--pg=}
	shift
	;;
esac
if [ $# -eq 0 ]; then
	echo "usage: bash scripts/oracle-expected.sh [--pg VERSION] NAME..." >&2
	exit 2
fi
# Another major version: the same inside its chroot (scripts/in-pg.sh
# copies expected/pgVERSION/ back).
if [ -n "$pg" ] && [ "$pg" != 15 ] && [ -z "${PLN_IN_PG:-}" ]; then
	exec bash scripts/in-pg.sh "$pg" bash scripts/oracle-expected.sh "$@"
fi
# Where this version's expected files go: expected/ for 15, else
# expected/pgVERSION/, kept only where they differ from expected/.
outdir=expected
[ "$PLN_PG_VERSION" != 15 ] && outdir=expected/pg$PLN_PG_VERSION
mkdir -p "$outdir"
names=()
for arg in "$@"; do
	name=$(basename "$arg" .sql)
	if [ ! -f "sql/$name.sql" ]; then
		echo "no such test script: sql/$name.sql" >&2
		exit 2
	fi
	names+=("$name")
done

pln_install_deps
# shellcheck disable=SC2119 # default port
pln_cluster_start
pln_make_templates oracle

# keep_if_different NAME NOTE: report the file written; a version's own
# file that says what expected/NAME.out says is removed again.
keep_if_different() {
	local f=$outdir/$1.out
	if [ "$outdir" != expected ] && cmp -s "$f" "expected/$1.out"; then
		rm -f "$f"
		echo "expected/$1.out holds for PostgreSQL $PLN_PG_VERSION too (no $f)"
	else
		echo "wrote $f ($(wc -l <"$f") lines${2:+, $2})"
	fi
}

status=0
for name in "${names[@]}"; do
	# An allowlisted script's expected output is plnimble's own
	# (scripts/accept.sh), not PL/pgSQL's: leave a version's file alone.
	if [ "$outdir" != expected ] &&
		grep -qE "^[[:space:]]*${name}[[:space:]]*:" sql/oracle-allowlist.txt 2>/dev/null; then
		echo "skipped $name: in sql/oracle-allowlist.txt (scripts/accept.sh after test.sh --pg $PLN_PG_VERSION)"
		continue
	fi
	rc=0
	pln_oracle_run "$name" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "FAIL  $name: the PL/pgSQL run failed (status $rc), see results/oracle/$name.log"
		cat "results/oracle/$name.log"
		status=1
		continue
	fi
	# A script that must match PL/pgSQL exactly expects its output as is.
	if pln_oracle_exact "$name"; then
		cp "results/oracle/results/$name.out" "$outdir/$name.out"
		keep_if_different "$name" "not mapped"
		continue
	fi
	# Mark each output line K (keep: an echoed line of the script as
	# written) or M (map back), then map only the M lines.
	awk 'FNR == NR { script[$0] = 1; next }
	     { print (($0 in script) ? "K" : "M") "\t" $0 }' \
		"sql/$name.sql" "results/oracle/results/$name.out" |
		sed -e '/^M\t/{s|PL/pgSQL|PL/nimble|g; s/\bplpgsql\./plnimble./g}' \
			-e 's|PL/nimble assignment "|PL/pgSQL assignment "|g' \
			-e 's|PL/nimble expression "|PL/pgSQL expression "|g' \
			-e 's/^[KM]\t//' >"$outdir/$name.out.tmp"
	mv "$outdir/$name.out.tmp" "$outdir/$name.out"
	keep_if_different "$name" ""
done
rmdir "$outdir" 2>/dev/null || true
pln_cluster_stop
exit "$status"
