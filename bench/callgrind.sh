#!/usr/bin/env bash
# bench/callgrind.sh: instructions per iteration, plpgsql vs plnimble.
#
#   bench/callgrind.sh [--no-build] [-n N]
#
# Wall-clock times on a shared or virtual machine can swing by 30-60%
# between runs (see bench/README.md).  This runner counts instructions
# instead, with valgrind's callgrind, which gives the same numbers on
# every run: each case runs in a fresh single-user backend
# (postgres --single) on a throwaway data directory, once with 1 iteration
# and once with N; the difference divided by N-1 is the cost of one
# iteration, with start-up, compilation and planning taken out.
#
# Instructions are not time (cache misses and stalls do not show), so this
# complements bench/run.sh rather than replacing it.  The cases are the
# lazy-savepoint workloads (a)-(e) of bench/workloads/, same function
# bodies, smaller N.  Prints a markdown table and writes it to
# bench/results/callgrind.md.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
N=20001
BUILD=1
while [ $# -gt 0 ]; do
	case $1 in
		--no-build) BUILD=0 ;;
		-n) N=$2; shift ;;
		*) echo "usage: bench/callgrind.sh [--no-build] [-n N]" >&2; exit 2 ;;
	esac
	shift
done

# shellcheck source=scripts/lib.sh
source "$REPO_DIR/scripts/lib.sh"
if [ "$BUILD" = 1 ]; then
	pln_install_deps
	pln_build_install
fi
command -v valgrind >/dev/null || { apt-get install -y valgrind >/dev/null; }

BINDIR=$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)
WORK=$(mktemp -d /tmp/plnimble-callgrind.XXXXXX)
chown postgres "$WORK"
trap 'rm -rf "$WORK"' EXIT
runuser -u postgres -- "$BINDIR/initdb" -D "$WORK/data" >/dev/null 2>&1

# Run SQL in a single-user backend (statements end with ";" + newline).
single() {
	runuser -u postgres -- "$BINDIR/postgres" --single -j -D "$WORK/data" postgres \
		>"$WORK/single.out" 2>&1
	if grep -q "ERROR:" "$WORK/single.out"; then
		grep "ERROR:" "$WORK/single.out" >&2
		exit 1
	fi
}

# Instructions executed by a single-user backend running the SQL.
count() {
	rm -f "$WORK"/cg.out.*
	echo "$1" | runuser -u postgres -- valgrind --tool=callgrind \
		--callgrind-out-file="$WORK/cg.out.%p" \
		"$BINDIR/postgres" --single -j -D "$WORK/data" postgres >/dev/null 2>"$WORK/vg.log"
	grep -h "^summary:" "$WORK"/cg.out.* | awk '{ s += $2 } END { print s }'
}

# Instructions per iteration: (cost with N - cost with 1) / (N - 1).
# $1 is the SQL with @N@ where the size goes.
per_iter() {
	local one many
	one=$(count "${1//@N@/1}")
	many=$(count "${1//@N@/$N}")
	awk -v a="$one" -v b="$many" -v n="$N" 'BEGIN { printf "%.0f", (b - a) / (n - 1) }'
}

{
	echo "CREATE EXTENSION plnimble;"
	echo "CREATE TABLE dups (id int PRIMARY KEY, v int);"
	echo "CREATE TABLE sfu (id int PRIMARY KEY, v int NOT NULL);"
	echo "INSERT INTO sfu SELECT g, g * 10 FROM generate_series(1, 100) g;"
	echo "CREATE TABLE inputs_valid (k int, s text);"
	echo "INSERT INTO inputs_valid SELECT i, i::text FROM generate_series(1, $N) i;"
	echo "CREATE TABLE inputs_mixed (k int, s text);"
	echo "INSERT INTO inputs_mixed SELECT i, CASE WHEN i % 2 = 0 THEN i::text ELSE 'x' || i END FROM generate_series(1, $N) i;"
	for L in plpgsql plnimble; do
		sed "s/@LANG@/$L/g" <<'EOF'
CREATE FUNCTION exc_empty_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      NULL;
    EXCEPTION WHEN OTHERS THEN
      NULL;
    END;
  END LOOP;
  RETURN n;
END
$$;
CREATE FUNCTION exc_empty_noexc_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      NULL;
    END;
  END LOOP;
  RETURN n;
END
$$;
CREATE FUNCTION safe_int_@LANG@(s text) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  RETURN s::int;
EXCEPTION WHEN invalid_text_representation THEN
  RETURN NULL;
END
$$;
CREATE FUNCTION div_zero_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  caught int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      x := 1/0;
    EXCEPTION WHEN division_by_zero THEN
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END
$$;
CREATE FUNCTION div_zero_var_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  zero int := 0;
  caught int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      x := i / zero;
    EXCEPTION WHEN division_by_zero THEN
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END
$$;
CREATE FUNCTION insert_dups_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
DECLARE
  dup int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dups VALUES (i / 2, i);
    EXCEPTION WHEN unique_violation THEN
      dup := dup + 1;
    END;
  END LOOP;
  RETURN dup;
END
$$;
CREATE FUNCTION insert_unique_exc_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      INSERT INTO dups VALUES (i, i);
    EXCEPTION WHEN unique_violation THEN
      NULL;
    END;
  END LOOP;
  RETURN n;
END
$$;
CREATE FUNCTION insert_unique_noexc_@LANG@(n int) RETURNS int LANGUAGE @LANG@ AS $$
BEGIN
  FOR i IN 1..n LOOP
    INSERT INTO dups VALUES (i, i);
  END LOOP;
  RETURN n;
END
$$;
CREATE FUNCTION select_for_update_@LANG@(n int) RETURNS bigint LANGUAGE @LANG@ AS $$
DECLARE
  x int;
  s bigint := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      SELECT v INTO x FROM sfu WHERE id = 42 FOR UPDATE;
      s := s + x;
    EXCEPTION WHEN lock_not_available THEN
      s := s - 1;
    END;
  END LOOP;
  RETURN s;
END
$$;
EOF
	done
} | single

CASES=(
	"exc_empty|SELECT exc_empty_@L@(@N@);"
	"exc_empty_noexc|SELECT exc_empty_noexc_@L@(@N@);"
	"safe_cast_valid|SELECT count(safe_int_@L@(s)) FROM inputs_valid WHERE k <= @N@;"
	"safe_cast_mixed|SELECT count(safe_int_@L@(s)) FROM inputs_mixed WHERE k <= @N@;"
	"div_zero|SELECT div_zero_@L@(@N@);"
	"div_zero_var|SELECT div_zero_var_@L@(@N@);"
	"insert_dups|TRUNCATE dups; SELECT insert_dups_@L@(@N@);"
	"insert_unique_exc|TRUNCATE dups; SELECT insert_unique_exc_@L@(@N@);"
	"insert_unique_noexc|TRUNCATE dups; SELECT insert_unique_noexc_@L@(@N@);"
	"select_for_update|SELECT select_for_update_@L@(@N@);"
)

OUT=$BENCH_DIR/results/callgrind.md
mkdir -p "$BENCH_DIR/results"
{
	echo "# Instructions per iteration (callgrind)"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
	echo "| command | \`bench/callgrind.sh -n $N\` |"
	echo "| PostgreSQL | $("$BINDIR/postgres" --version) |"
	echo "| source | git $(git -C "$REPO_DIR" rev-parse --short HEAD)$(git -C "$REPO_DIR" diff --quiet || echo ' (uncommitted changes)') |"
	echo "| method | each case in a fresh single-user backend under callgrind, with 1 and with $N iterations (rows for safe_cast); (Ir(N) - Ir(1)) / (N - 1) |"
	echo
	echo "**ratio = plpgsql / plnimble instructions: > 1 means plnimble executes fewer.**"
	echo
	echo "| case | plpgsql instr/iter | plnimble instr/iter | ratio |"
	echo "|---|---:|---:|---:|"
} >"$OUT"
cat "$OUT"
for c in "${CASES[@]}"; do
	name=${c%%|*}
	sql=${c#*|}
	pg=$(per_iter "${sql//@L@/plpgsql}")
	pn=$(per_iter "${sql//@L@/plnimble}")
	line=$(awk -v n="$name" -v a="$pg" -v b="$pn" 'BEGIN { printf "| %s | %d | %d | %.2f |", n, a, b, a / b }')
	echo "$line" | tee -a "$OUT"
done
echo
echo "written to $OUT"
