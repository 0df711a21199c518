#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/run.sh: plpgsql vs plnimble benchmark suite.
#
#   bench/run.sh [--pg VERSION] [--reps N] [--scale F] [--no-build] [workload|group ...]
#
# Every workload in bench/workloads/ is run under plpgsql and plnimble,
# alternately, in one psql session on one cluster, and the medians are
# reported as a markdown table on stdout and in bench/results/latest.md.
# See bench/README.md for the file format and how to read the results.
set -euo pipefail
# --pg VERSION: the same run on another PostgreSQL (bench/in_version.sh)
# shellcheck source=bench/in_version.sh
source "$(dirname "$0")/in_version.sh"

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
WORKLOAD_DIR=$BENCH_DIR/workloads
RESULTS_DIR=$BENCH_DIR/results
WORK=$RESULTS_DIR/work
ORIG_ARGS=("$@")

REPS=${BENCH_REPS:-5}
SCALE=${BENCH_SCALE:-1}
PORT=${BENCH_PORT:-5443}
TIMEOUT=${BENCH_TIMEOUT:-10min}
BENCH_DB=${BENCH_DB:-plnimble_bench}
LIB_SH=${PLN_LIB_SH:-$REPO_DIR/scripts/lib.sh}
BUILD=1
CLUSTER=1
STANDIN=0
LAZY_OFF=1
LIST=0
SELECTED=()

usage() {
	cat <<'EOF'
usage: bench/run.sh [options] [workload|group ...]

Runs each workload (default: all) under plpgsql and plnimble alternately in
one session and prints a markdown table of medians (also written to
bench/results/latest.md).

options:
  --reps N        timed repetitions per language and case (default 5; env BENCH_REPS)
  --scale F       multiply workload sizes by F, e.g. 0.1 for a quick run
                  (default 1; env BENCH_SCALE)
  --no-build      do not build and install the extension first
  --port P        port of the throwaway cluster (default 5443; env BENCH_PORT)
  --no-cluster    do not start a cluster: use the server that PGHOST/PGPORT/
                  PGUSER point at (database BENCH_DB, default plnimble_bench,
                  is dropped and recreated)
  --stand-in      create "plnimble" as an alias of plpgsql's handlers instead
                  of CREATE EXTENSION plnimble; only for testing the harness,
                  all ratios are then ~1.0
  --no-lazy-off   skip the plnimble.lazy_savepoints = off variant
  --timeout T     statement_timeout for every statement (default 10min)
  --list          list workloads and groups, then exit
  -h, --help      this text

A workload is a file bench/workloads/<name>.sql; a group ("lazy", "exec")
selects every workload that declares it.
EOF
}

die() { echo "bench: $*" >&2; exit 1; }
info() { echo "bench: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--reps) [ $# -ge 2 ] || die "--reps needs a value"; REPS=$2; shift 2 ;;
	--reps=*) REPS=${1#*=}; shift ;;
	--scale) [ $# -ge 2 ] || die "--scale needs a value"; SCALE=$2; shift 2 ;;
	--scale=*) SCALE=${1#*=}; shift ;;
	--port) [ $# -ge 2 ] || die "--port needs a value"; PORT=$2; shift 2 ;;
	--port=*) PORT=${1#*=}; shift ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs a value"; TIMEOUT=$2; shift 2 ;;
	--timeout=*) TIMEOUT=${1#*=}; shift ;;
	--no-build) BUILD=0; shift ;;
	--no-cluster) CLUSTER=0; shift ;;
	--stand-in) STANDIN=1; shift ;;
	--no-lazy-off) LAZY_OFF=0; shift ;;
	--list) LIST=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; SELECTED+=("$@"); break ;;
	-*) usage >&2; die "unknown option: $1" ;;
	*) SELECTED+=("$1"); shift ;;
	esac
done

[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "--reps must be a positive integer, got '$REPS'"
if ! [[ $SCALE =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || ! awk -v s="$SCALE" 'BEGIN { exit !(s > 0) }'; then
	die "--scale must be a positive number, got '$SCALE'"
fi
[[ $PORT =~ ^[0-9]+$ ]] || die "--port must be a number, got '$PORT'"
[[ $TIMEOUT =~ ^[0-9]+[a-z]*$ ]] || die "--timeout must look like 600s or 30min, got '$TIMEOUT'"

# ---------------------------------------------------------------------------
# Workload files: directive, section, trim and scaled
# shellcheck source=bench/workload_file.sh
. "$BENCH_DIR/workload_file.sh"

# All workloads, ordered by their "@order" directive, then name.
all_workloads() {
	local f name order
	for f in "$WORKLOAD_DIR"/*.sql; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sql)
		order=$(directive order "$f" | head -n1)
		printf '%s\t%s\n' "${order:-999}" "$name"
	done | sort -t$'\t' -k1,1n -k2,2 | cut -f2
}

mapfile -t ALL < <(all_workloads)
[ ${#ALL[@]} -gt 0 ] || die "no workloads in $WORKLOAD_DIR"

if [ $LIST = 1 ]; then
	for w in "${ALL[@]}"; do
		printf '%-20s %-6s %s\n' "$w" "$(directive group "$WORKLOAD_DIR/$w.sql" | head -n1)" \
			"$(directive desc "$WORKLOAD_DIR/$w.sql" | head -n1)"
	done
	exit 0
fi

WORKLOADS=()
if [ ${#SELECTED[@]} -eq 0 ]; then
	WORKLOADS=("${ALL[@]}")
else
	for w in "${ALL[@]}"; do
		g=$(directive group "$WORKLOAD_DIR/$w.sql" | head -n1)
		for s in "${SELECTED[@]}"; do
			if [ "$s" = "$w" ] || [ "$s" = "$g" ]; then WORKLOADS+=("$w"); break; fi
		done
	done
	for s in "${SELECTED[@]}"; do
		found=0
		for w in "${ALL[@]}"; do
			g=$(directive group "$WORKLOAD_DIR/$w.sql" | head -n1)
			if [ "$s" = "$w" ] || [ "$s" = "$g" ]; then found=1; break; fi
		done
		[ $found = 1 ] || die "unknown workload or group '$s' (try --list)"
	done
fi

# ---------------------------------------------------------------------------
# Script generation.  One psql script per workload: setup, the functions in
# both languages, then for every case one warm-up call per language and REPS
# timed calls per language, alternating (odd reps plpgsql first, even reps
# plnimble first).  Each timed call is its own top-level statement (its own
# transaction); the reset SQL runs before every call, outside the timing.

# emit_call CASE LANG MODE REP SQL RESET [CHECK]
# With CHECK, a failed call clears the psql variable pln_ok.
emit_call() {
	local c=$1 lang=$2 mode=$3 rep=$4 sql=$5 reset=$6 check=${7:-}
	[ -n "$reset" ] && printf '%s\n' "$reset"
	[ "$mode" = lazy_off ] && [ "$lang" = plnimble ] && echo "SET plnimble.lazy_savepoints = off;"
	printf "SELECT 'RESULT', '%s', '%s', '%s', %d, round(t.ms::numeric, 3)," "$c" "$lang" "$mode" "$rep"
	printf '%s\n' " translate(coalesce(t.result, '<null>'), E'|\\t\\n\\r', '/   ')"
	# shellcheck disable=SC2016 # $pln_bench$ is an SQL dollar quote
	printf '  FROM pg_temp.pln_bench_time($pln_bench$%s$pln_bench$) t;\n' "${sql//@LANG@/$lang}"
	[ -n "$check" ] && printf '\\if :ERROR\n\\set pln_ok 0\n\\endif\n'
	[ "$mode" = lazy_off ] && [ "$lang" = plnimble ] && echo "RESET plnimble.lazy_savepoints;"
	return 0
}

# emit_case CASE MODE SQL RESET
# The "\warn" marker line lets the runner attribute errors to the case.  The
# timed reps run only if both warm-up calls succeeded.
emit_case() {
	local c=$1 mode=$2 sql=$3 reset=$4 r
	echo "\\warn '  case $c [$mode]'"
	printf '%s\n' '\set pln_ok 1'
	emit_call "$c" plpgsql "$mode" 0 "$sql" "$reset" check
	emit_call "$c" plnimble "$mode" 0 "$sql" "$reset" check
	printf '%s\n' '\if :pln_ok'
	for ((r = 1; r <= REPS; r++)); do
		if ((r % 2 == 1)); then
			emit_call "$c" plpgsql "$mode" $r "$sql" "$reset"
			emit_call "$c" plnimble "$mode" $r "$sql" "$reset"
		else
			emit_call "$c" plnimble "$mode" $r "$sql" "$reset"
			emit_call "$c" plpgsql "$mode" $r "$sql" "$reset"
		fi
	done
	printf '%s\n' '\else'
	echo "\\warn '  warm-up failed: timed reps of $c [$mode] not run'"
	printf '%s\n' '\endif'
}

# gen_workload NAME: writes $WORK/NAME.sql and appends to the metadata files.
gen_workload() {
	local w=$1 f=$WORKLOAD_DIR/$1.sql out=$WORK/$1.sql
	local subst="" line pname pbase pkind v reset rest cname ctarget cflags csql n i c lang
	local -a lazy_cases=() lazy_sqls=()

	while read -r pname pbase pkind; do
		[ -n "$pname" ] || continue
		[[ $pname =~ ^[A-Z][A-Z0-9_]*$ ]] || die "$w: bad parameter name '$pname'"
		[ "$pname" != LANG ] || die "$w: LANG is reserved"
		v=$(scaled "$pbase" "$pkind") || die "$w: bad parameter '$pname $pbase $pkind'"
		subst+="s/@$pname@/$v/g;"
	done < <(directive param "$f")
	sub() { if [ -n "$subst" ]; then sed "$subst"; else cat; fi; }

	reset=$(section reset "$f" | sub)
	{
		echo "-- generated by bench/run.sh from bench/workloads/$w.sql (scale $SCALE, reps $REPS)"
		echo "\\set ON_ERROR_STOP 1"
		echo "SET client_min_messages = warning;"
		echo "SET jit = off;"
		echo "SET statement_timeout = '$TIMEOUT';"
		cat <<'EOF'
-- Times one statement inside the server; returns the first column of its
-- first row as text so that both languages' answers can be compared.
CREATE FUNCTION pg_temp.pln_bench_time(q text, OUT ms float8, OUT result text)
LANGUAGE plpgsql AS $fn$
DECLARE
  t0 timestamptz;
BEGIN
  t0 := clock_timestamp();
  EXECUTE q INTO result;
  ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
END
$fn$;
EOF
		echo "DROP SCHEMA IF EXISTS bench_$w CASCADE;"
		echo "CREATE SCHEMA bench_$w;"
		echo "SET search_path = bench_$w, public;"
		echo "\\warn '  setup'"
		section setup "$f" | sub
		for lang in plpgsql plnimble; do
			section functions "$f" | sub | sed "s/@LANG@/$lang/g"
		done
		echo "-- From here on a failing call is reported against its case and the"
		echo "-- run goes on with the next statement."
		echo "\\set ON_ERROR_STOP 0"
	} >"$out"

	while IFS= read -r line; do
		rest=$(printf '%s' "$line" | sub)
		cname=$(trim "${rest%%|*}"); rest=${rest#*|}
		ctarget=$(trim "${rest%%|*}"); rest=${rest#*|}
		cflags=$(trim "${rest%%|*}"); rest=${rest#*|}
		csql=$(trim "$rest")
		[[ $cname =~ ^[a-z][a-z0-9_]*$ ]] || die "$w: bad case name '$cname' in: $line"
		[ -n "$csql" ] || die "$w: case $cname has no SQL"
		n=$(printf '%s\n' "$cflags" | tr ',' '\n' | sed -n 's/^ *n=//p' | head -n1)
		printf '%s\t%s\t%s\t%s\t%s\n' "$w" "$cname" "$ctarget" "${n:--}" "$cflags" >>"$WORK/cases.tsv"
		emit_case "$cname" main "$csql" "$reset" >>"$out"
		if [[ ,$cflags, == *,lazy_off,* ]]; then
			lazy_cases+=("$cname")
			lazy_sqls+=("$csql")
		fi
	done < <(directive case "$f")

	local dlabel dexpr
	while IFS= read -r line; do
		rest=$(printf '%s' "$line" | sub)
		dlabel=$(trim "${rest%%|*}"); rest=${rest#*|}
		dexpr=$(trim "${rest%%|*}"); rest=${rest#*|}
		printf '%s\t%s\t%s\t%s\n' "$w" "$dlabel" "$dexpr" "$(trim "$rest")" >>"$WORK/derived.tsv"
	done < <(directive derived "$f")

	if [ $LAZY_OFF = 1 ] && [ ${#lazy_cases[@]} -gt 0 ]; then
		{
			echo "-- (f) the same cases with plnimble.lazy_savepoints = off on the plnimble side."
			echo "-- The GUC exists only once the plnimble library is loaded (it is, by now)."
			echo "SELECT count(*) > 0 AS pln_has_guc FROM pg_settings WHERE name = 'plnimble.lazy_savepoints' \\gset"
			printf '%s\n' '\if :pln_has_guc'
			for i in "${!lazy_cases[@]}"; do
				emit_case "${lazy_cases[$i]}" lazy_off "${lazy_sqls[$i]}" "$reset"
			done
			printf '%s\n' '\else'
			for c in "${lazy_cases[@]}"; do
				echo "SELECT 'SKIP', '$c', 'lazy_off', 'GUC plnimble.lazy_savepoints does not exist';"
			done
			printf '%s\n' '\endif'
		} >>"$out"
	fi
	echo "DROP SCHEMA bench_$w CASCADE;" >>"$out"
}

# ---------------------------------------------------------------------------
# Cluster, build, database

lib_call() {
	# lib.sh is sourced into this shell; run its functions without nounset in
	# case they rely on unset variables, and keep their status.
	local rc=0
	set +u
	"$@" || rc=$?
	set -u
	return $rc
}

if [ $BUILD = 1 ] || [ $CLUSTER = 1 ]; then
	[ -f "$LIB_SH" ] || die "$LIB_SH not found (use --no-build --no-cluster with a running server)"
	set +u
	# shellcheck source=/dev/null
	. "$LIB_SH"
	set -u
fi
if [ $BUILD = 1 ]; then
	info "building and installing plnimble"
	(cd "$REPO_DIR" && lib_call pln_install_deps) >&2 || die "pln_install_deps failed"
	(cd "$REPO_DIR" && lib_call pln_build_install) >&2 || die "build failed (pln_build_install); use --no-build to bench what is installed"
fi
if [ $CLUSTER = 1 ]; then
	info "starting a throwaway cluster on port $PORT"
	# Not in a subshell: it exports PG* and sets the EXIT trap that stops it.
	lib_call pln_cluster_start "$PORT" >&2 || die "pln_cluster_start $PORT failed"
fi

PSQL=(psql -X -q -v ON_ERROR_STOP=1)
pg_isready -q -t 30 || die "no server at PGHOST=${PGHOST:-} PGPORT=${PGPORT:-}"
ADMIN_DB=${PGDATABASE:-postgres}
[ "$ADMIN_DB" != "$BENCH_DB" ] || ADMIN_DB=postgres
PGOPTIONS="-c client_min_messages=warning" "${PSQL[@]}" -d "$ADMIN_DB" -c "DROP DATABASE IF EXISTS $BENCH_DB" -c "CREATE DATABASE $BENCH_DB" >&2 ||
	die "cannot create database $BENCH_DB"
export PGDATABASE=$BENCH_DB

if [ $STANDIN = 1 ]; then
	LANG_DESC="STAND-IN: plnimble = plpgsql's own handlers (harness test only; ratios are meaningless)"
	"${PSQL[@]}" -c "CREATE TRUSTED LANGUAGE plnimble HANDLER plpgsql_call_handler INLINE plpgsql_inline_handler VALIDATOR plpgsql_validator" >&2 ||
		die "cannot create the stand-in language"
else
	"${PSQL[@]}" -c "CREATE EXTENSION plnimble" >&2 || die "CREATE EXTENSION plnimble failed (not built/installed? try without --no-build)"
	LANG_DESC="extension plnimble $("${PSQL[@]}" -At -c "SELECT extversion FROM pg_extension WHERE extname = 'plnimble'")"
fi

# ---------------------------------------------------------------------------
# Run

rm -rf "$WORK"
mkdir -p "$WORK"
for f in cases derived results notes; do : >"$WORK/$f.tsv"; done

START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
PG_VERSION=$("${PSQL[@]}" -At -c "SELECT version()")
CPU_MODEL=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
[ -n "$CPU_MODEL" ] || CPU_MODEL=$(sed -n 's/^\(Hardware\|cpu model\|Processor\)[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
CPU_MODEL=${CPU_MODEL:-unknown}
NPROC=$(nproc 2>/dev/null || echo '?')
GIT_REV=$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo 'no commit')
if [ -n "$(git -C "$REPO_DIR" status --porcelain 2>/dev/null | head -n1)" ]; then GIT_REV="$GIT_REV (uncommitted changes)"; fi
COMMAND="bench/run.sh"
for a in "${ORIG_ARGS[@]}"; do COMMAND+=" $(printf '%q' "$a")"; done

ERRORS=0
SERVER_DOWN=0
widx=0
for w in "${WORKLOADS[@]}"; do
	widx=$((widx + 1))
	gen_workload "$w"
	if [ $SERVER_DOWN = 1 ]; then
		printf '%s\t*\terror\tnot run: the server did not come back after an earlier failure\n' "$w" >>"$WORK/notes.tsv"
		continue
	fi
	info "[$widx/${#WORKLOADS[@]}] $w"
	t0=$(date +%s)
	rc=0
	# stderr goes to the terminal (progress from \warn) and to $w.err
	"${PSQL[@]}" -A -t -F '|' -f "$WORK/$w.sql" >"$WORK/$w.out" 2> >(tee "$WORK/$w.err" >&2) || rc=$?
	wait $! 2>/dev/null || true
	grep '^RESULT|' "$WORK/$w.out" | cut -d'|' -f2- | awk -F'|' -v OFS='\t' -v w="$w" '{ $1 = $1; print w, $0 }' >>"$WORK/results.tsv" || true
	grep '^SKIP|' "$WORK/$w.out" | cut -d'|' -f2- | awk -F'|' -v OFS='\t' -v w="$w" '{ print w, $1, "skip:" $2, $3 }' >>"$WORK/notes.tsv" || true
	# Errors after a "case" marker belong to that case; earlier ones (setup,
	# functions) and a lost connection to the whole workload.
	awk -v OFS='\t' -v w="$w" '
		/^  case [a-z0-9_]+ \[[a-z_]+\]$/ { c = $2; m = $3; gsub(/[][]/, "", m); next }
		/(ERROR|FATAL|PANIC):/ || /connection to server was lost/ || /server closed the connection/ {
			msg = $0; sub(/^psql:[^:]*:[0-9]*: /, "", msg); gsub(/[ \t|]+/, " ", msg)
			if (c == "" || msg ~ /^(FATAL|PANIC)|connection/) { if (!wdone) print w, "*", "error", substr(msg, 1, 200); wdone = 1 }
			else if (!((c, m) in seen)) { seen[c, m] = 1; print w, c, "error:" m, substr(msg, 1, 200) }
		}' "$WORK/$w.err" >"$WORK/$w.errors"
	if [ $rc != 0 ] && ! grep -q $'\t\\*\terror\t' "$WORK/$w.errors"; then
		printf '%s\t*\terror\tpsql exited with status %s\n' "$w" "$rc" >>"$WORK/$w.errors"
	fi
	if [ -s "$WORK/$w.errors" ]; then
		ERRORS=$((ERRORS + 1))
		cat "$WORK/$w.errors" >>"$WORK/notes.tsv"
		info "  errors: $(cut -f2,3,4 "$WORK/$w.errors" | head -n1 | tr '\t' ' ')"
	fi
	if [ $rc != 0 ]; then
		# A backend crash restarts the server; wait for it before going on.
		if ! pg_isready -q -t 120; then
			info "  server is not accepting connections; remaining workloads are not run"
			SERVER_DOWN=1
		fi
	fi
	info "  done in $(($(date +%s) - t0))s"
done

# ---------------------------------------------------------------------------
# Report

# medians.tsv: case mode lang median count min max (timed reps only)
awk -F'\t' -v OFS='\t' '
	$5 > 0 { k = $2 SUBSEP $4 SUBSEP $3; n[k]++; v[k, n[k]] = $6 + 0 }
	END {
		for (k in n) {
			m = n[k]
			for (i = 1; i <= m; i++) a[i] = v[k, i]
			for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
			split(k, p, SUBSEP)
			print p[1], p[2], p[3], med, m, a[1], a[m]
		}
	}' "$WORK/results.tsv" | sort >"$WORK/medians.tsv"

# derived_values.tsv: workload label target value (value "n/a" if an input is missing)
while IFS=$'\t' read -r w label expr target; do
	val=$(awk -F'\t' -v expr="$expr" '
		$2 == "main" { med[$1 "." $3] = $4 }
		END {
			out = ""; rest = expr
			while (match(rest, /[A-Za-z_][A-Za-z0-9_]*\.(plpgsql|plnimble)/)) {
				tok = substr(rest, RSTART, RLENGTH)
				if (!(tok in med)) { print "n/a"; exit }
				out = out substr(rest, 1, RSTART - 1) "(" med[tok] ")"
				rest = substr(rest, RSTART + RLENGTH)
			}
			print out rest
		}' "$WORK/medians.tsv")
	if [ "$val" != "n/a" ]; then
		[[ $val =~ ^[-+*/().0-9eE[:space:]]+$ ]] || die "derived '$label': bad expression '$expr'"
		val=$(awk "BEGIN { d = ($val); printf \"%.4f\", d }" 2>/dev/null) || val="n/a"
	fi
	printf '%s\t%s\t%s\t%s\n' "$w" "$label" "$target" "$val"
done <"$WORK/derived.tsv" >"$WORK/derived_values.tsv"

REPORT=$WORK/report.md
awk -F'\t' \
	-v date="$START_DATE" -v command="$COMMAND" -v nproc="$NPROC" -v cpu="$CPU_MODEL" \
	-v pgversion="$PG_VERSION" -v langdesc="$LANG_DESC" -v reps="$REPS" -v scale="$SCALE" \
	-v gitrev="$GIT_REV" -v lazyoff="$LAZY_OFF" \
	-f "$BENCH_DIR/report.awk" \
	"$WORK/cases.tsv" "$WORK/medians.tsv" "$WORK/results.tsv" "$WORK/notes.tsv" "$WORK/derived_values.tsv" \
	>"$REPORT"

mkdir -p "$RESULTS_DIR"
cp "$REPORT" "$RESULTS_DIR/latest.md"
cp "$REPORT" "$RESULTS_DIR/$(date -u '+%Y%m%d-%H%M%S').md"
cat "$REPORT"
info "report written to bench/results/latest.md (generated scripts and raw output in bench/results/work/)"
if [ $ERRORS -gt 0 ]; then
	info "$ERRORS workload(s) failed"
	exit 2
fi
exit 0
