#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/valgrind.sh: run regression scripts against a server that runs
# under valgrind's memcheck, and count the errors valgrind attributes to
# plnimble (an error whose stack has a frame in plnimble.so).
#
# Usage: bash scripts/valgrind.sh [NAME...]   (NAME = sql/NAME.sql; default:
#        the exception-block scripts listed below)
#
# Slow (every backend runs 20 to 50 times slower), so it is not part of
# .ci/run.  It builds and installs like scripts/test.sh, starts a
# throwaway cluster, restarts its postmaster under valgrind (backends are
# forked, not executed, so they run under the same valgrind), and runs each
# script through pg_regress as scripts/test.sh does.  valgrind writes one
# log per process to results/valgrind/vg.PID.log.  The report lists, per
# kind of error, how many valgrind found and how many of those have
# plnimble in their stack; it exits non-zero if any has.
#
# The server is a release build (no USE_VALGRIND), so valgrind sees freed
# memory only where a memory context gives a block back to malloc: freed
# chunks inside a block that the context keeps are not caught.  The tests
# that matter here use large values (bigger than a context's chunk limit)
# for exactly that reason.  Errors without a plnimble frame (PostgreSQL
# writing padding bytes to files and sockets, and the like) are counted but
# not judged.

set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

default_tests=(exceptions handler_loops lazy_rollback_matrix lazy_savepoints
	diagnostics blockers_caught_errors memory_in_loops)
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("${default_tests[@]}")
for name in "${tests[@]}"; do
	if [ ! -f "sql/$name.sql" ]; then
		echo "no such test script: sql/$name.sql" >&2
		exit 2
	fi
done
command -v valgrind >/dev/null || pln_sudo apt-get install -y valgrind

pln_install_deps
pln_build_install
# shellcheck disable=SC2119 # default port
pln_cluster_start

out=$PLN_ROOT/results/valgrind
rm -rf "$out"
mkdir -p "$out"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$out"

# The same cluster, its postmaster now under valgrind.
_pln_as_pg "$PLN_PGBIN/pg_ctl" -D "$PLN_CLUSTER_DIR/data" -m fast -w stop >/dev/null
(cd "$PLN_CLUSTER_DIR" && _pln_as_pg valgrind --quiet --tool=memcheck \
	--error-limit=no --num-callers=30 --read-var-info=no \
	--log-file="$out/vg.%p.log" \
	"$PLN_PGBIN/postgres" -D "$PLN_CLUSTER_DIR/data" \
	>>"$PLN_SERVER_LOG" 2>&1 &)
for _ in $(seq 300); do
	pg_isready -q -d postgres && break
	sleep 1
done
pg_isready -q -d postgres || { pln_log "valgrind: server did not start"; exit 1; }

PLN_TIMEOUT=3600
pln_make_templates plnimble
status=0
for name in "${tests[@]}"; do
	rc=0
	pln_regress_run "$name" || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok    $name"
	else
		echo "FAIL  $name (see results/regress/$name.diff)"
		status=1
	fi
done

# Stop the server so that every process finishes its log.
_pln_as_pg "$PLN_PGBIN/pg_ctl" -D "$PLN_CLUSTER_DIR/data" -m fast -w -t 600 stop >/dev/null || true

# One record per error: the lines from "==PID== <kind>" to the blank line
# that ends its stack.  A frame is ours if it is in plnimble.so or names
# one of our source files (valgrind shows file:line where it can).
ours=$(cd src && ls ./*.c | sed 's|^\./||; s/\.c$//' | paste -sd '|')
ours="plnimble\\.so|\\((${ours}|gram|scan)\\.[cly]:[0-9]+\\)"
awk -v ours="$ours" '
	/^==[0-9]+== [A-Z]/ && !/^==[0-9]+== (HEAP|LEAK|ERROR SUMMARY|For lists|Memcheck|Copyright|Using|Command|Parent)/ {
		if (kind != "") { total[kind]++; if (hit) mine[kind]++ }
		kind = $0; sub(/^==[0-9]+== /, "", kind); sub(/ of size [0-9]+/, "", kind)
		hit = 0; next
	}
	kind != "" && $0 ~ ours { hit = 1 }
	kind != "" && /^==[0-9]+== $/ { total[kind]++; if (hit) mine[kind]++; kind = "" }
	END {
		if (kind != "") { total[kind]++; if (hit) mine[kind]++ }
		n = 0
		for (k in total) {
			printf "%7d  %7d  %s\n", total[k], mine[k] + 0, k
			n += mine[k]
		}
		printf "plnimble errors: %d\n", n
		exit n > 0
	}' "$out"/vg.*.log >"$out/summary.txt" || status=1
echo "valgrind: $(find "$out" -name 'vg.*.log' | wc -l) process logs in results/valgrind/"
echo "  found  plnimble  kind"
cat "$out/summary.txt"
exit "$status"
