#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/oracle-expected.sh: write expected/NAME.out from real PL/pgSQL.
#
# Usage: bash scripts/oracle-expected.sh NAME...      (NAME = sql/NAME.sql)
#
# For writing new tests: runs each script on the real PL/pgSQL exactly as
# the oracle check of scripts/test.sh does (a fresh copy of oracle_tpl, in
# a throwaway cluster), then (re)writes expected/NAME.out from that output
# with the names mapped back to plnimble's: "PL/pgSQL" -> "PL/nimble" and
# "plpgsql." -> "plnimble.", except in the server's own context line
# 'PL/pgSQL assignment "..."' (the core's parser writes it for any PL
# that uses its assignment syntax).  The word plpgsql is otherwise left alone, and
# so are echoed lines that appear verbatim in sql/NAME.sql (a comment
# mentioning PL/pgSQL stays as written).  The output of a script with the
# line "-- oracle: no normalisation" is taken as it is.  Does not need a working plnimble
# build.  Review the result with git diff before committing it.

set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

if [ $# -eq 0 ]; then
	echo "usage: bash scripts/oracle-expected.sh NAME..." >&2
	exit 2
fi
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

status=0
for name in "${names[@]}"; do
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
		cp "results/oracle/results/$name.out" "expected/$name.out"
		echo "wrote expected/$name.out ($(wc -l <"expected/$name.out") lines, not mapped)"
		continue
	fi
	# Mark each output line K (keep: an echoed line of the script as
	# written) or M (map back), then map only the M lines.
	awk 'FNR == NR { script[$0] = 1; next }
	     { print (($0 in script) ? "K" : "M") "\t" $0 }' \
		"sql/$name.sql" "results/oracle/results/$name.out" |
		sed -e '/^M\t/{s|PL/pgSQL|PL/nimble|g; s/\bplpgsql\./plnimble./g}' \
			-e 's|PL/nimble assignment "|PL/pgSQL assignment "|g' \
			-e 's/^[KM]\t//' >"expected/$name.out.tmp"
	mv "expected/$name.out.tmp" "expected/$name.out"
	echo "wrote expected/$name.out ($(wc -l <"expected/$name.out") lines)"
done
pln_cluster_stop
exit "$status"
