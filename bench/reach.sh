#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/reach.sh: how many of PL/pgSQL's subtransactions plnimble avoids
# on the project's corpus of application-style code (sql/corpus_*.sql).
#
#   bench/reach.sh [--no-build] [--probes]
#
# Each corpus script runs in a database of its own, in one session, with
# every function switched to plnimble (LANGUAGE plpgsql replaced); at its
# end plnimble_savepoint_stats() says how many handler blocks were entered
# (PL/pgSQL starts one subtransaction for each) and how many of them
# started their subtransaction.  Prints a row per script and the total.
# Statement outputs are not compared here: the test suite does that
# (every corpus script is an oracle test).
#
# --probes also runs bench/reach_probes.sql: one-line functions of the
# shapes issue 28 measured on real code, each called twice on a first
# call in a session, with the subtransactions each started.
#
# A count, not a timing: the same on every run of the same build.

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
BUILD=1
PROBES=0

die() {
	echo "bench/reach.sh: $*" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	--no-build) BUILD=0 ;;
	--probes) PROBES=1 ;;
	-h | --help)
		sed -n '2,19p' "$0"
		exit 0
		;;
	*) die "unknown argument: $1 (try --help)" ;;
	esac
	shift
done

# shellcheck source=scripts/lib.sh
source "$REPO_DIR/scripts/lib.sh"
if [ $BUILD = 1 ]; then
	pln_install_deps || die "could not install the build dependencies"
	pln_build_install || die "build failed"
fi
pln_cluster_start 5445 >&2 || die "could not start a cluster"

PSQL=(psql -X -q -A -t)

# "blocks|savepoints" after running the SQL on standard input in a new
# database
run_counting() {
	"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS pln_reach" \
		-c "CREATE DATABASE pln_reach" >/dev/null
	"${PSQL[@]}" -d pln_reach -c "CREATE EXTENSION plnimble" >/dev/null
	{
		cat
		echo
		echo "SELECT 'pln_reach_stats', blocks_entered, savepoints_materialized FROM plnimble_savepoint_stats();"
	} | "${PSQL[@]}" -d pln_reach 2>/dev/null |
		awk -F'|' '$1 == "pln_reach_stats" { r = $2 "|" $3 } END { print r }'
}

total_blocks=0
total_savepoints=0
printf '| script | handler blocks entered | subtransactions started | avoided |\n'
printf '|---|---:|---:|---:|\n'
for f in "$REPO_DIR"/sql/corpus_*.sql; do
	name=$(basename "$f" .sql)
	r=$(sed -e 's/LANGUAGE plpgsql/LANGUAGE plnimble/Ig' "$f" | run_counting)
	[ -n "$r" ] || die "$name: no counts (did the session end early?)"
	blocks=${r%%|*}
	savepoints=${r##*|}
	total_blocks=$((total_blocks + blocks))
	total_savepoints=$((total_savepoints + savepoints))
	printf '| %s | %d | %d | %d |\n' "$name" "$blocks" "$savepoints" \
		$((blocks - savepoints))
done
printf '| all | %d | %d | %d |\n' "$total_blocks" "$total_savepoints" \
	$((total_blocks - total_savepoints))

if [ $PROBES = 1 ]; then
	printf '\n| probe | subtransactions started by its first two calls |\n|---|---:|\n'
	"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS pln_reach" \
		-c "CREATE DATABASE pln_reach" >/dev/null
	"${PSQL[@]}" -d pln_reach -c "CREATE EXTENSION plnimble" >/dev/null
	"${PSQL[@]}" -F $'\t' -d pln_reach -v ON_ERROR_STOP=1 \
		-f "$BENCH_DIR/reach_probes.sql" 2>/dev/null |
		awk -F'\t' '$1 == "probe" { gsub(/\|/, "\\|", $2); printf "| `%s` | %s |\n", $2, $3 }'
fi
pln_cluster_stop >&2
