#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/memory.sh: does a long-running loop grow the backend's memory?
#
#   bench/memory.sh [--no-build] [-n N]
#
# Runs one function of N iterations (default 10,000,000) that does
# assignments, string building, array appends, a SELECT INTO every 10th
# iteration, an EXECUTE and a caught error every 100th, first in plpgsql and then in
# plnimble, each in a session of its own on a throwaway cluster.  Before and
# after the long call it reads the backend's resident memory (VmRSS) and its
# peak (VmHWM) from /proc, and the total of pg_backend_memory_contexts.  A
# warm-up call of 10,000 iterations comes first, so that plans, caches and
# the compiled function are in place before the "before" reading.
#
# Prints a markdown table and writes it to bench/results/memory.md.  Needs
# root (to read another user's /proc entries), like the other runners.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
RESULTS_DIR=$BENCH_DIR/results
N=10000000
BUILD=1

die() {
	echo "bench/memory.sh: $*" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	--no-build) BUILD=0 ;;
	-n)
		[ $# -ge 2 ] || die "-n needs a value"
		N=$2
		shift
		;;
	-h | --help)
		sed -n '2,16p' "$0"
		exit 0
		;;
	*) die "unknown argument: $1 (try --help)" ;;
	esac
	shift
done
[[ $N =~ ^[1-9][0-9]*$ ]] || die "-n must be a positive integer, got '$N'"

# shellcheck source=scripts/lib.sh
source "$REPO_DIR/scripts/lib.sh"
if [ $BUILD = 1 ]; then
	pln_install_deps || die "could not install the build dependencies"
	pln_build_install || die "build failed"
fi
pln_cluster_start 5444 >&2 || die "could not start a cluster"

PSQL=(psql -X -q -v ON_ERROR_STOP=1 -d postgres)
"${PSQL[@]}" >/dev/null <<'SQL'
CREATE EXTENSION plnimble;
CREATE TABLE mem_t (id int PRIMARY KEY, v text NOT NULL);
INSERT INTO mem_t SELECT g, repeat('x', g % 50) FROM generate_series(1, 100) g;
SQL

for lang in plpgsql plnimble; do
	"${PSQL[@]}" >/dev/null <<SQL
CREATE FUNCTION mem_loop_$lang(n int) RETURNS bigint LANGUAGE $lang AS \$\$
DECLARE
  s text;
  v text;
  a int[] := '{}';
  total bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    s := 'row ' || i || ':' || (i % 97);
    total := total + length(s);
    IF i % 1000 = 0 THEN
      a := '{}';
    END IF;
    a := a || i;
    IF i % 10 = 0 THEN
      SELECT t.v INTO v FROM mem_t t WHERE t.id = i % 100 + 1;
      total := total + length(v) + array_length(a, 1);
    END IF;
    IF i % 100 = 0 THEN
      EXECUTE format('SELECT length(%L)', s) INTO v;
      total := total + v::int;
    END IF;
    BEGIN
      IF i % 100 = 0 THEN
        total := total / 0;
      END IF;
    EXCEPTION WHEN division_by_zero THEN
      total := total + 1;
    END;
  END LOOP;
  RETURN total;
END
\$\$;
SQL
done

# "VmRSS kB|VmHWM kB" of a process
proc_mem() {
	awk '/^VmRSS:/ { rss = $2 } /^VmHWM:/ { hwm = $2 } END { print rss "|" hwm }' "/proc/$1/status"
}

# One session per language: the pid comes first, then the function runs
# after a pause long enough to read /proc, through a fifo.
measure() {
	local lang=$1 fifo out pid before after ctx_before ctx_after result
	fifo=$(mktemp -u "${TMPDIR:-/tmp}/plnimble-mem.XXXXXX")
	out=$(mktemp "${TMPDIR:-/tmp}/plnimble-mem-out.XXXXXX")
	mkfifo "$fifo"
	psql -X -q -A -t -v ON_ERROR_STOP=1 -d postgres <"$fifo" >"$out" 2>&1 &
	local psql_pid=$!
	exec 9>"$fifo"

	echo "SELECT pg_backend_pid();" >&9
	echo "SELECT mem_loop_$lang(10000);" >&9
	echo "SELECT sum(total_bytes) FROM pg_backend_memory_contexts;" >&9
	while [ "$(wc -l <"$out")" -lt 3 ]; do sleep 0.2; done
	pid=$(sed -n 1p "$out")
	ctx_before=$(sed -n 3p "$out")
	before=$(proc_mem "$pid")

	echo "SELECT mem_loop_$lang($N);" >&9
	echo "SELECT sum(total_bytes) FROM pg_backend_memory_contexts;" >&9
	while [ "$(wc -l <"$out")" -lt 5 ]; do sleep 1; done
	result=$(sed -n 4p "$out")
	ctx_after=$(sed -n 5p "$out")
	after=$(proc_mem "$pid")

	exec 9>&-
	wait "$psql_pid" || true
	rm -f "$fifo" "$out"
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$lang" "$result" \
		"${before%|*}" "${after%|*}" "${before#*|}" "${after#*|}" \
		"$((ctx_before / 1024))" "$((ctx_after / 1024))"
}

mkdir -p "$RESULTS_DIR"
{
	echo "# Backend memory over a long loop"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
	echo "| command | \`bench/memory.sh -n $N\` |"
	echo "| PostgreSQL | $("${PSQL[@]}" -A -t -c 'SHOW server_version') |"
	echo "| source | git $(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown) |"
	echo "| workload | $N iterations of string building, array appends, a SELECT INTO every 10th, an EXECUTE and a caught division by zero every 100th, in one call |"
	echo
	echo "| language | result | VmRSS before kB | VmRSS after kB | VmHWM before kB | VmHWM after kB | memory contexts before kB | after kB |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	measure plpgsql
	measure plnimble
} | tee "$RESULTS_DIR/memory.md"
