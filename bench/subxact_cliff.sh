#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/subxact_cliff.sh: the subtransaction cliff (issue 30), plnimble's
# writer against PL/pgSQL's, readers' throughput side by side.
#
#   bench/subxact_cliff.sh [--no-build] [--rows N] [--seconds S] [--clients C]
#
# One transaction inserts N rows (default 300,000) through the
# insert-or-handle-duplicate block, half of them duplicates, and then stays
# open; while it is open, C pgbench clients (default 2) read the table for
# S seconds (default 15) with range sums over the keys the writer
# inserted.  Under PL/pgSQL every block started a subtransaction and every
# inserted row carries a subtransaction's ID: past 64 of them the writer's
# snapshot entry overflows, and every reader's visibility check of those
# rows looks the ID up in pg_subtrans.  Under plnimble the write path
# inserts with the transaction's own ID.  Three runs, in one cluster: no
# writer (baseline), PL/pgSQL's writer, plnimble's writer.  Prints the
# readers' transactions per second of each and the ratios, and the
# writer's subtransaction count (the xmin of its rows that are not its own
# top-level ID).  Nothing here is a test: the numbers are machine- and
# load-dependent; compare the two writers within one run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

build=1
rows=300000
seconds=15
clients=2
while [ $# -gt 0 ]; do
	case "$1" in
		--no-build) build=0 ;;
		--rows) rows=$2; shift ;;
		--seconds) seconds=$2; shift ;;
		--clients) clients=$2; shift ;;
		*) echo "usage: bench/subxact_cliff.sh [--no-build] [--rows N] [--seconds S] [--clients C]" >&2; exit 1 ;;
	esac
	shift
done

if [ "$build" = 1 ]; then
	pln_install_deps
	pln_build_install
fi
pln_cluster_start 5449
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION plnimble;
CREATE TABLE cliff (k int PRIMARY KEY, v int NOT NULL) WITH (autovacuum_enabled = off);
INSERT INTO cliff SELECT g, g FROM generate_series(1, 100000) g;
VACUUM ANALYZE cliff;
SQL
# the writer's function, once in each language
for lang in plpgsql plnimble; do
	psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE FUNCTION cliff_load_$lang(n int) RETURNS int LANGUAGE $lang AS \$\$
DECLARE
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO cliff (k, v) VALUES (100000 + i / 2, i);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN dup;
END
\$\$;
SQL
done
work=$(mktemp -d)
# readers: a range of 100 keys among the writer's, committed rows or not
cat >"$work/read.sql" <<SQL
\set a random(100001, 100000 + $rows / 2 - 100)
SELECT sum(v) FROM cliff WHERE k BETWEEN :a AND :a + 100;
SQL

readers_tps() {
	pgbench -n -c "$clients" -j "$clients" -T "$seconds" -f "$work/read.sql" 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -n 1
}

# run_writer LANG: the writer's transaction, left open (sleeping) while the
# readers run; prints the readers' tps and the writer's subtransaction IDs
run_writer() {
	local lang=$1 tps subx
	psql -X -q -c "DELETE FROM cliff WHERE k > 100000" -c "VACUUM cliff" >/dev/null
	psql -X -q -At >"$work/writer.$lang" 2>&1 <<SQL &
BEGIN;
SELECT cliff_load_$lang($rows);
SELECT 'loaded';
SELECT count(*) FILTER (WHERE xmin::text::bigint <> txid_current() % 4294967296) FROM cliff WHERE k > 100000;
SELECT pg_sleep($seconds + 30);
COMMIT;
SQL
	local writer=$!
	until grep -q loaded "$work/writer.$lang" 2>/dev/null; do sleep 0.2; done
	sleep 1
	tps=$(readers_tps)
	subx=$(sed -n 3p "$work/writer.$lang")
	psql -X -q -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(%' AND pid <> pg_backend_pid()" >/dev/null
	wait "$writer" 2>/dev/null || true
	echo "$tps $subx"
}

base=$(readers_tps)
read -r pl_tps pl_subx <<<"$(run_writer plpgsql)"
read -r pn_tps pn_subx <<<"$(run_writer plnimble)"
echo "## subtransaction cliff: $rows rows in one open transaction, $clients readers for $seconds s"
echo
echo "| writer | readers' tps | vs no writer | rows not of the top-level transaction ID |"
echo "|---|---:|---:|---:|"
echo "| none | $base | 1.00 | |"
awk -v b="$base" -v t="$pl_tps" -v s="$pl_subx" 'BEGIN { printf "| PL/pgSQL | %s | %.2f | %s |\n", t, t / b, s }'
awk -v b="$base" -v t="$pn_tps" -v s="$pn_subx" 'BEGIN { printf "| plnimble | %s | %.2f | %s |\n", t, t / b, s }'
awk -v a="$pl_tps" -v b="$pn_tps" 'BEGIN { printf "\nreaders under plnimble'"'"'s writer: %.1fx their tps under PL/pgSQL'"'"'s\n", b / a }'
rm -rf "$work"
