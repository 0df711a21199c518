#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/callgrind.sh: instruction counts, plpgsql vs plnimble, for the
# workloads of bench/workloads/.
#
#   bench/callgrind.sh [--pg VERSION] [--no-build] [--scale F | -n N] [--keep] [workload|group ...]
#
# Wall-clock times on a shared or virtual machine can swing by 30-60%
# between runs (see bench/README.md).  This runner counts instructions
# instead, with valgrind's callgrind, which gives the same numbers on every
# run.  It reads the same workload files as bench/run.sh (@param, @case,
# @@setup, @@reset, @@functions) and, for each selected workload:
#
#   1. copies a freshly initdb'ed data directory, starts a temporary server
#      on a unix socket in a temp dir, and creates two databases:
#        bench_full  setup at the measured size (parameters x --scale, or -n)
#        bench_base  setup with every size parameter at 1 (the baseline)
#      Both get the @@setup SQL and the @@functions SQL twice, with @LANG@ =
#      plpgsql and plnimble.  Every case is then run once per language and
#      database through psql: this catches errors before valgrind time is
#      spent and gives the answers (checked across languages).  The server
#      is stopped and every case runs once more, unmeasured, in a
#      single-user backend, so that the first measured run finds the data
#      directory as every later one does and pays nothing they do not.
#   2. for each @case and language, runs the case SQL in a fresh
#      single-user backend (postgres --single) under callgrind, once in
#      bench_full and once in bench_base, and reports
#        Ir(net) = Ir(full) - Ir(base)
#      which takes out backend start-up and shutdown, compiling the
#      function, planning and the first call; what is left is the cost of
#      the n - 1 extra iterations (rows, calls).  Ir/iter = Ir(net) / (n - 1),
#      the same per-iteration method this script always used.  Workloads
#      without any scalable parameter use "SELECT 1" in bench_full as baseline.
#      The @@reset SQL runs before every measured run, outside valgrind
#      (through the temporary server, because psql splits statements
#      properly and runs each in its own transaction, as VACUUM needs).
#
# Every workload gets its own copy of the data directory, so a workload's
# numbers do not depend on which other workloads ran.  With no workload
# names, the lazy-savepoint group runs (what this script always did).
# Instructions are not time (cache misses and stalls do not show), so this
# complements bench/run.sh rather than replacing it.  Prints a markdown
# report and writes it to bench/results/callgrind.md.
#
# Options:
#   --no-build  do not build and install the extension first
#   --scale F   multiply the workload sizes by F, as bench/run.sh does
#               (default 0.1: loops of about 100k iterations, 10k SQL
#               statements; one measurement takes 2-15 s under valgrind,
#               groups exec + data about 4.5 minutes)
#   -n N        instead: every linear size parameter is N (log-scaled ones,
#               i.e. fib, follow --scale); "-n 20001" reproduces the sizes
#               of the earlier, hard-coded version of this script
#   --keep      keep the work directory (logs, callgrind files) for debugging
# Workload and group names are as for bench/run.sh (bench/run.sh --list).
#
# Exit status: 0 all ran, 1 bad usage or setup failure, 2 some case failed.
set -euo pipefail
# --pg VERSION: the same run on another PostgreSQL (bench/in_version.sh)
# shellcheck source=bench/in_version.sh
source "$(dirname "$0")/in_version.sh"

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
WORKLOAD_DIR=$BENCH_DIR/workloads
OUT=$BENCH_DIR/results/callgrind.md
ORIG_ARGS=("$@")

SCALE=0.1
FIXED_N=
BUILD=1
KEEP=0
SELECTED=()
# Port of the temporary server; its socket lives in our own temp dir, so
# this cannot clash with another server.
PORT=5499
# A single measurement that takes longer than this (seconds) is killed.
CG_TIMEOUT=${CG_TIMEOUT:-1800}

usage() {
	sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}
die() { echo "callgrind: $*" >&2; exit 1; }
info() { echo "callgrind: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--no-build) BUILD=0 ;;
	--scale) [ $# -ge 2 ] || die "--scale needs a value"; SCALE=$2; shift ;;
	--scale=*) SCALE=${1#*=} ;;
	-n) [ $# -ge 2 ] || die "-n needs a value"; FIXED_N=$2; shift ;;
	--keep) KEEP=1 ;;
	-h | --help) usage; exit 0 ;;
	-*) die "unknown option: $1 (try --help)" ;;
	*) SELECTED+=("$1") ;;
	esac
	shift
done
if ! [[ $SCALE =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || ! awk -v s="$SCALE" 'BEGIN { exit !(s > 0) }'; then
	die "--scale must be a positive number, got '$SCALE'"
fi
if [ -n "$FIXED_N" ] && ! [[ $FIXED_N =~ ^[1-9][0-9]*$ ]]; then
	die "-n must be a positive integer, got '$FIXED_N'"
fi
# Today's default: the lazy-savepoint workloads.
[ ${#SELECTED[@]} -gt 0 ] || SELECTED=(lazy)

# ---------------------------------------------------------------------------
# Workload files: directive, section, trim and scaled
# shellcheck source=bench/workload_file.sh
. "$BENCH_DIR/workload_file.sh"

# All workloads, ordered by their "@order" directive, then name.
mapfile -t ALL < <(
	for f in "$WORKLOAD_DIR"/*.sql; do
		[ -e "$f" ] || continue
		order=$(directive order "$f" | head -n1)
		printf '%s\t%s\n' "${order:-999}" "$(basename "$f" .sql)"
	done | sort -t$'\t' -k1,1n -k2,2 | cut -f2
)
[ ${#ALL[@]} -gt 0 ] || die "no workloads in $WORKLOAD_DIR"

WORKLOADS=()
for w in "${ALL[@]}"; do
	g=$(directive group "$WORKLOAD_DIR/$w.sql" | head -n1)
	for s in "${SELECTED[@]}"; do
		if [ "$s" = "$w" ] || [ "$s" = "$g" ]; then WORKLOADS+=("$w"); break; fi
	done
done
for s in "${SELECTED[@]}"; do
	found=0
	for w in "${ALL[@]}"; do
		if [ "$s" = "$w" ] || [ "$s" = "$(directive group "$WORKLOAD_DIR/$w.sql" | head -n1)" ]; then found=1; break; fi
	done
	[ $found = 1 ] || die "unknown workload or group '$s' (see bench/run.sh --list)"
done

# ---------------------------------------------------------------------------
# Build, tools

# shellcheck source=scripts/lib.sh
source "$REPO_DIR/scripts/lib.sh"
if [ "$BUILD" = 1 ]; then
	pln_install_deps
	pln_build_install
fi
command -v valgrind >/dev/null || pln_sudo apt-get install -y valgrind >/dev/null
PGBIN=$PLN_PGBIN
SO=$("$PGBIN/pg_config" --pkglibdir)/plnimble.so
[ -f "$SO" ] || die "$SO not found: build and install plnimble first (without --no-build)"

# The extension may be reinstalled by somebody else while we measure; its
# checksum is recorded at the start and checked after every workload, so
# that a changed library is flagged instead of silently mixing two builds.
so_sum() { md5sum "$SO" | cut -c1-12; }
SO_SUM=$(so_sum)
SO_DATE=$(date -u -r "$SO" '+%Y-%m-%d %H:%M:%S UTC')

# Run a command as the owner of the data directories: PostgreSQL refuses to
# run as root, so root hands it to the postgres OS user (as scripts/lib.sh
# does).
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plnimble-callgrind.XXXXXX")
[ "$(id -u)" -ne 0 ] || chown postgres: "$WORK"
SERVER_DATA=   # data directory of the running temporary server, if any
cleanup() {
	local rc=$?
	[ -z "$SERVER_DATA" ] || server_stop || true
	if [ "$KEEP" = 1 ]; then info "work directory kept: $WORK"; else rm -rf "$WORK"; fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One initdb for the whole run; every workload starts from a copy, so all
# start from the same state and no workload sees another's leftovers.
# autovacuum is off so that nothing changes the data behind our back, jit
# and parallel query are off so that a plan never depends on the size in a
# way that has nothing to do with the language.  synchronous_commit stays
# on: with it off, the setup's VACUUM cannot set hint bits on rows whose
# commit record is not flushed yet, and the first measured run then pays
# for setting them (3% more instructions in for_query at n = 20000).  The
# settings also apply to the single-user backends, which read the same
# postgresql.conf.
info "initdb (template data directory)"
(cd "$WORK" && as_pg "$PGBIN/initdb" -D "$WORK/template" -A trust -U postgres \
	--no-locale -E UTF8 --no-sync) >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; die "initdb failed"; }
cat >>"$WORK/template/postgresql.conf" <<EOF

# --- added by bench/callgrind.sh ---
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
fsync = off
full_page_writes = off
autovacuum = off
jit = off
max_parallel_workers_per_gather = 0
EOF

export PGHOST=$WORK PGPORT=$PORT PGUSER=postgres
unset PGDATABASE PGOPTIONS PGSERVICE
PSQL=(psql -X -q -v ON_ERROR_STOP=1)

# server_start DATADIR / server_stop: the temporary server, used for setup
# and for reset SQL only.  Never running while a single-user backend is.
server_start() {
	(cd "$WORK" && as_pg "$PGBIN/pg_ctl" -D "$1" -l "$1/../server.log" -w -t 60 start) >/dev/null 2>&1 || {
		tail -n 20 "$1/../server.log" >&2
		return 1
	}
	SERVER_DATA=$1
}
server_stop() {
	local d=$SERVER_DATA
	SERVER_DATA=
	(cd "$WORK" && as_pg "$PGBIN/pg_ctl" -D "$d" -m fast -w -t 60 stop) >/dev/null 2>&1
}

# ---------------------------------------------------------------------------
# One workload.  Globals set by load_workload:
#   SUB_full, SUB_base  sed scripts replacing @PARAM@ at each size
#   SIZES_full, SIZES_base  "N=100000" text for the report
#   SCALABLE            1 if any parameter scales (then "base" exists)
#   C_NAME C_SQL C_NFLAG C_PERITER  per case: name, SQL (with @LANG@ and
#                       @PARAM@), the raw n= flag, 1 if n counts iterations

load_workload() {
	local w=$1 f=$WORKLOAD_DIR/$1.sql
	local pname pbase pkind v line rest cflags nflag p
	local -A kind=()
	SUB_full="" SUB_base="" SIZES_full="" SIZES_base="" SCALABLE=0
	C_NAME=() C_SQL=() C_NFLAG=() C_PERITER=()

	while read -r pname pbase pkind; do
		[ -n "$pname" ] || continue
		[[ $pname =~ ^[A-Z][A-Z0-9_]*$ ]] || die "$w: bad parameter name '$pname'"
		pkind=${pkind:-linear}
		kind[$pname]=$pkind
		if [ -n "$FIXED_N" ] && [ "$pkind" = linear ]; then
			v=$FIXED_N
		else
			v=$(scaled "$pbase" "$pkind") || die "$w: bad parameter '$pname $pbase $pkind'"
		fi
		SUB_full+="s/@$pname@/$v/g;"
		SIZES_full+="${SIZES_full:+ }$pname=$v"
		# The baseline has every size at 1; fixed parameters never change.
		[ "$pkind" = fixed ] || { v=1; SCALABLE=1; }
		SUB_base+="s/@$pname@/$v/g;"
		SIZES_base+="${SIZES_base:+ }$pname=$v"
	done < <(directive param "$f")

	while IFS= read -r line; do
		rest=$line
		C_NAME+=("$(trim "${rest%%|*}")"); rest=${rest#*|}
		rest=${rest#*|}                      # the target: not used here
		cflags=$(trim "${rest%%|*}"); rest=${rest#*|}
		rest=$(trim "$rest")
		C_SQL+=("${rest%;}")
		nflag=$(printf '%s\n' "$cflags" | tr ',' '\n' | sed -n 's/^ *n=//p' | head -n1)
		C_NFLAG+=("$nflag")
		# Ir/iter makes sense only if n is made of linear parameters (fib's
		# K is an argument, not a count of iterations).
		p=0
		if [ "$SCALABLE" = 1 ] && [[ $nflag =~ @[A-Z] ]]; then
			p=1
			for pname in "${!kind[@]}"; do
				[[ $nflag == *"@$pname@"* ]] && [ "${kind[$pname]}" != linear ] && p=0
			done
		fi
		C_PERITER+=("$p")
	done < <(directive case "$f")
	[ ${#C_NAME[@]} -gt 0 ] || die "$w: no @case lines"
}

# subst SIZE: stdin with the @PARAM@ placeholders of SIZE (full or base).
subst() {
	local s
	if [ "$1" = full ]; then s=$SUB_full; else s=$SUB_base; fi
	if [ -n "$s" ]; then sed "$s"; else cat; fi
}

# psql_answer DB SQL: run SQL through the temporary server and print the
# first column of the first row, the "answer" of a case (as run.sh does).
psql_answer() {
	"${PSQL[@]}" -d "$1" -At -F $'\t' -c "$2" | head -n1 | cut -f1
}

# run_reset DB SIZE: the workload's @@reset SQL, if any, through the server.
run_reset() {
	[ -n "$RESET_SQL" ] || return 0
	subst "$2" <<<"$RESET_SQL" | "${PSQL[@]}" -d "$1" >/dev/null
}

# measure DB SQL: instructions (total Ir) of a fresh single-user backend
# running SQL in database DB of the current workload; sets IR and ANSWER
# (the first column of the first row, as the backend prints it).  The
# reset SQL runs first, outside valgrind.  Identical measurements are not
# repeated: the numbers are deterministic, and select_for_update_small's
# baseline, for example, is the same as select_for_update's.
declare -A IR_CACHE=() ANSWER_CACHE=()
measure() {
	local db=$1 sql=$2 size key out=$WDIR/run.out t0
	key="$db"$'\x1f'"$sql"
	if [ -n "${IR_CACHE[$key]:-}" ]; then
		IR=${IR_CACHE[$key]} ANSWER=${ANSWER_CACHE[$key]}
		return 0
	fi
	if [ -n "$RESET_SQL" ]; then
		size=${db#bench_}
		server_start "$WDIR/data" || { ERRMSG="the server for the reset SQL did not start"; return 1; }
		if ! run_reset "$db" "$size" 2>"$WDIR/reset.err"; then
			server_stop
			ERRMSG="reset failed: $(grep -m1 -E 'ERROR|FATAL' "$WDIR/reset.err")"
			return 1
		fi
		server_stop
	fi
	rm -f "$WDIR"/cg.out.*
	t0=$SECONDS
	# -j: a command ends with ";" and an empty line, so a statement may span
	# lines.  All output (answers and server messages) goes to run.out.
	if ! printf '%s;\n\n' "$sql" | as_pg timeout "$CG_TIMEOUT" valgrind --tool=callgrind \
		--callgrind-out-file="$WDIR/cg.out.%p" --log-file="$WDIR/valgrind.log" \
		"$PGBIN/postgres" --single -j -D "$WDIR/data" "$db" >"$out" 2>&1; then
		ERRMSG="single-user backend failed: $(grep -m1 -E '(ERROR|FATAL|PANIC):' "$out" || tail -n1 "$out")"
		return 1
	fi
	if grep -q -E '(ERROR|FATAL|PANIC):' "$out"; then
		ERRMSG=$(grep -m1 -E '(ERROR|FATAL|PANIC):' "$out" | sed 's/^.*\(ERROR\|FATAL\|PANIC\):  */\1: /')
		return 1
	fi
	IR=$(grep -h '^summary:' "$WDIR"/cg.out.* | awk '{ s += $2 } END { printf "%.0f", s }')
	[ "${IR:-0}" -gt 0 ] || { ERRMSG="no callgrind summary (see $WDIR/valgrind.log)"; return 1; }
	# Tuples print as:   <TAB> 1: colname = "value"<TAB>(typeid = ...)
	ANSWER=$(sed -n 's/^[[:space:]]*1: .* = "\(.*\)"[[:space:]]*(typeid = .*/\1/p' "$out" | head -n1)
	IR_CACHE[$key]=$IR
	ANSWER_CACHE[$key]=$ANSWER
	info "    $db: $IR Ir ($((SECONDS - t0)) s)"
}

# ---------------------------------------------------------------------------
# Run

RESULTS=$WORK/results.tsv   # workload case n pg_net pn_net pg_iter pn_iter note pg_base pg_full pn_base pn_full
SIZES=$WORK/sizes.tsv       # workload full-sizes base-sizes
: >"$RESULTS"
: >"$SIZES"
ERRORS=0
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
T_START=$SECONDS

widx=0
for w in "${WORKLOADS[@]}"; do
	widx=$((widx + 1))
	load_workload "$w"
	f=$WORKLOAD_DIR/$w.sql
	RESET_SQL=$(section reset "$f")
	WDIR=$WORK/$w
	DBS=(bench_full)
	[ "$SCALABLE" = 0 ] || DBS+=(bench_base)
	if [ "$SCALABLE" = 1 ]; then
		printf '%s\t%s\t%s\n' "$w" "$SIZES_full" "$SIZES_base" >>"$SIZES"
	else
		printf '%s\t%s\t%s\n' "$w" "${SIZES_full:-(none)}" "SELECT 1" >>"$SIZES"
	fi
	info "[$widx/${#WORKLOADS[@]}] $w (${SIZES_full:-no parameters}; baseline ${SIZES_base:-SELECT 1})"
	mkdir -p "$WDIR"
	cp -a "$WORK/template" "$WDIR/data"
	[ "$(id -u)" -ne 0 ] || chown postgres: "$WDIR"

	# --- 1. setup, functions and one unmeasured call of every case --------
	declare -A WARM=()
	SETUP_ERR=
	server_start "$WDIR/data" || die "$w: the temporary server did not start"
	for db in "${DBS[@]}"; do
		size=${db#bench_}
		if ! err=$( {
			echo "SET client_min_messages = warning;"
			echo "CREATE EXTENSION plnimble;"
			section setup "$f" | subst "$size"
			for lang in plpgsql plnimble; do
				section functions "$f" | subst "$size" | sed "s/@LANG@/$lang/g"
			done
		} | { "${PSQL[@]}" -d postgres -c "CREATE DATABASE $db" && "${PSQL[@]}" -d "$db"; } 2>&1 >/dev/null); then
			SETUP_ERR="setup failed: $(grep -m1 -E 'ERROR|FATAL' <<<"$err" || echo "$err" | head -n1)"
			break
		fi
		for i in "${!C_NAME[@]}"; do
			for lang in plpgsql plnimble; do
				sql=$(subst "$size" <<<"${C_SQL[$i]//@LANG@/$lang}")
				if run_reset "$db" "$size" 2>"$WDIR/warm.err" && ans=$(psql_answer "$db" "$sql" 2>>"$WDIR/warm.err"); then
					WARM[$i.$lang.$db]=$ans
				else
					WARM[$i.$lang.$db]=$'\x1fERROR '$(grep -m1 -E 'ERROR|FATAL' "$WDIR/warm.err" | sed 's/^.*\(ERROR\|FATAL\): */\1: /')
				fi
			done
		done
	done
	server_stop
	# The very first single-user backend on a database still does a little
	# more work than the next ones (20-30k instructions in our tests), so
	# one unmeasured single-user run of all cases comes first.  Cases that write have reset SQL, which runs again before
	# every measured run.
	for db in "${DBS[@]}"; do
		[ -n "$SETUP_ERR" ] && break
		for i in "${!C_NAME[@]}"; do
			for lang in plpgsql plnimble; do
				[[ ${WARM[$i.$lang.$db]} == $'\x1f'ERROR* ]] ||
					printf '%s;\n\n' "$(subst "${db#bench_}" <<<"${C_SQL[$i]//@LANG@/$lang}")"
			done
		done | as_pg "$PGBIN/postgres" --single -j -D "$WDIR/data" "$db" >"$WDIR/warm-single.out" 2>&1 || true
	done
	if [ -n "$SETUP_ERR" ]; then
		info "  $SETUP_ERR"
		ERRORS=$((ERRORS + 1))
		for i in "${!C_NAME[@]}"; do
			printf '%s\t%s\t%s\t\t\t\t\t%s\t\t\t\t\n' "$w" "${C_NAME[$i]}" "-" "ERROR: $SETUP_ERR" >>"$RESULTS"
		done
		continue
	fi

	# --- 2. measure ------------------------------------------------------
	for i in "${!C_NAME[@]}"; do
		c=${C_NAME[$i]}
		n_full=$(subst full <<<"${C_NFLAG[$i]}")
		n_base=$(subst base <<<"${C_NFLAG[$i]}")
		note=""
		declare -A NET=() ITER=() BASE=() FULL=()
		for lang in plpgsql plnimble; do
			for db in "${DBS[@]}"; do
				a=${WARM[$i.$lang.$db]}
				[[ $a != $'\x1f'ERROR* ]] || { note="$lang $db: ${a#$'\x1f'ERROR }"; break 2; }
			done
			sql=$(subst full <<<"${C_SQL[$i]//@LANG@/$lang}")
			info "  $c, $lang"
			measure bench_full "$sql" || { note="$lang: $ERRMSG"; break; }
			FULL[$lang]=$IR
			[ "$ANSWER" = "${WARM[$i.$lang.bench_full]}" ] ||
				note+="${note:+; }$lang answered '$ANSWER' under valgrind but '${WARM[$i.$lang.bench_full]}' in the warm-up"
			if [ "$SCALABLE" = 1 ]; then
				measure bench_base "$(subst base <<<"${C_SQL[$i]//@LANG@/$lang}")" || { note="$lang baseline: $ERRMSG"; break; }
			else
				measure bench_full "SELECT 1" || { note="$lang baseline: $ERRMSG"; break; }
			fi
			BASE[$lang]=$IR
			NET[$lang]=$((FULL[$lang] - BASE[$lang]))
			ITER[$lang]=
			if [ "${C_PERITER[$i]}" = 1 ] && [[ $n_full =~ ^[0-9]+$ && $n_base =~ ^[0-9]+$ ]] && [ "$n_full" -gt "$n_base" ]; then
				ITER[$lang]=$(awk -v d="${NET[$lang]}" -v k="$((n_full - n_base))" 'BEGIN { printf "%.0f", d / k }')
			fi
		done
		if [ -z "${NET[plnimble]:-}" ]; then
			ERRORS=$((ERRORS + 1))
			info "  $c: ERROR: $note"
			printf '%s\t%s\t%s\t\t\t\t\t%s\t\t\t\t\n' "$w" "$c" "${n_full:--}" "ERROR: $note" >>"$RESULTS"
			continue
		fi
		[ "${WARM[$i.plpgsql.bench_full]}" = "${WARM[$i.plnimble.bench_full]}" ] ||
			note+="${note:+; }MISMATCH: plpgsql '${WARM[$i.plpgsql.bench_full]}', plnimble '${WARM[$i.plnimble.bench_full]}'"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$c" "${n_full:--}" \
			"${NET[plpgsql]}" "${NET[plnimble]}" "${ITER[plpgsql]}" "${ITER[plnimble]}" "$note" \
			"${BASE[plpgsql]}" "${FULL[plpgsql]}" "${BASE[plnimble]}" "${FULL[plnimble]}" >>"$RESULTS"
		info "  $c: net Ir plpgsql ${NET[plpgsql]}, plnimble ${NET[plnimble]}${note:+ ($note)}"
	done

	# Compared with the start of the run, not of this workload: rows
	# measured with another build than the header says are flagged too.
	if [ "$(so_sum)" != "$SO_SUM" ]; then
		info "  WARNING: $SO changed since the start of the run; rerun $w"
		awk -F'\t' -v OFS='\t' -v w="$w" '$1 == w { $8 = $8 (($8 == "") ? "" : "; ") "plnimble.so was reinstalled during the run: rerun" } 1' \
			"$RESULTS" >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
	fi
	unset WARM NET ITER BASE FULL
	rm -rf "$WDIR/data" "$WDIR"/cg.out.*   # a data directory per workload adds up
done

# ---------------------------------------------------------------------------
# Report

COMMAND="bench/callgrind.sh"
for a in "${ORIG_ARGS[@]}"; do COMMAND+=" $(printf '%q' "$a")"; done
GIT_REV=$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo 'no commit')
if [ -n "$(git -C "$REPO_DIR" status --porcelain 2>/dev/null | head -n1)" ]; then GIT_REV="$GIT_REV (uncommitted changes)"; fi
if [ -n "$FIXED_N" ]; then
	SIZE_RULE="-n $FIXED_N: every linear size parameter = $FIXED_N (log-scaled ones at scale $SCALE)"
else
	SIZE_RULE="workload sizes × $SCALE (--scale)"
fi

REPORT=$WORK/report.md
{
	echo "# Instruction counts (callgrind): plpgsql vs plnimble"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $START_DATE |"
	echo "| command | \`$COMMAND\` |"
	echo "| PostgreSQL | $("$PGBIN/postgres" --version) |"
	echo "| plnimble.so | md5 $SO_SUM…, installed $SO_DATE |"
	echo "| source | git $GIT_REV (the installed library may differ with --no-build) |"
	echo "| sizes | $SIZE_RULE; the baseline has every size parameter at 1 (see Sizes) |"
	echo "| method | each measurement is a fresh single-user backend under callgrind; Ir (net) = Ir(case at n) − Ir(same case at the baseline size, on data set up at that size): start-up, compilation, planning and the first call are taken out. Ir/iter = Ir (net) / (n − 1), where n counts iterations (rows, calls) |"
	echo "| run time | $(( (SECONDS - T_START) / 60 )) min $(( (SECONDS - T_START) % 60 )) s |"
	echo
	echo "**ratio = plpgsql / plnimble net instructions: above 1 means plnimble executes fewer.**"
	echo
	echo "| workload | case | n | plpgsql Ir (net) | plnimble Ir (net) | plpgsql Ir/iter | plnimble Ir/iter | ratio | notes |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
	awk -F'\t' '
		function group(x,   s) {   # 1234567 -> 1,234,567
			if (x == "") return "—"
			s = ""
			while (length(x) > 3 && x ~ /^[0-9]+$/) { s = "," substr(x, length(x) - 2) s; x = substr(x, 1, length(x) - 3) }
			return x s
		}
		{
			if ($4 == "") { printf "| %s | %s | %s | — | — | — | — | ERROR | %s |\n", $1, $2, $3, $8; next }
			ratio = ($5 > 0) ? sprintf("%.2f", $4 / $5) : "—"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, group($4), group($5), group($6), group($7), ratio, $8
		}' "$RESULTS"
	echo
	echo "## Sizes"
	echo
	echo "| workload | measured | baseline |"
	echo "|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$SIZES"
	echo
	echo "## Raw counts (total Ir per single-user backend)"
	echo
	echo "| workload | case | plpgsql baseline | plpgsql case | plnimble baseline | plnimble case |"
	echo "|---|---|---:|---:|---:|---:|"
	awk -F'\t' '$4 != "" { printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $9, $10, $11, $12 }' "$RESULTS"
} >"$REPORT"

mkdir -p "$(dirname "$OUT")"
cp "$REPORT" "$OUT"
cat "$REPORT"
info "written to $OUT"
if [ "$ERRORS" -gt 0 ]; then
	info "$ERRORS case(s) or workload(s) failed"
	exit 2
fi
