#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/test.sh: build plnimble and run its regression scripts.
#
# Usage: bash scripts/test.sh [--pg VERSION] [--lazy-check | --cassert | --executor-hooks] [NAME...]
#        (NAME = sql/NAME.sql; default all)
#
#   --pg VERSION  on PostgreSQL VERSION (17, 18, 19; 15, the machine's own,
#                 is the default) in its chroot (scripts/pg-server.sh,
#                 scripts/in-pg.sh), against that version's own PL/pgSQL,
#                 with expected/pgVERSION/NAME.out where that version's
#                 output differs from expected/NAME.out; combines with
#                 --lazy-check, and with --cassert for 18 (below)
#   --lazy-check  the checking build: plnimble linked with wrappers around
#                 the server functions a handler block without its
#                 subtransaction must not call (src/lazy/lazy_check.c); a call
#                 of one there is an internal error and a server-log line
#   --cassert     on a PostgreSQL 15 built with --enable-cassert
#                 --enable-debug (scripts/cassert-server.sh, cached), then
#                 the scripts in DISCARD_CACHES_SCRIPTS once more with
#                 debug_discard_caches = 1.  With --pg 18: the same on 18
#                 (scripts/cassert-server.sh 18, sid's source built here,
#                 so not in the chroot), with expected/pg18/
#   --executor-hooks  the cluster preloads pg_stat_statements and
#                 auto_explain, so that the executor's hooks are installed
#                 (the write path then runs its INSERT through SPI, never
#                 below the executor); both languages run with them, so
#                 expected/ is the same
#
# See docs/testing-lanes.md.
#
# Installs missing build dependencies, builds and installs plnimble, starts a
# throwaway PostgreSQL 15 cluster and creates the template databases (see
# scripts/lib.sh).  Then every sql/*.sql script gets two checks:
#
#   regress  run on plnimble (LANGUAGE plpgsql means plnimble there) and
#            compared by pg_regress with expected/NAME.out;
#   oracle   run again on the real PL/pgSQL (LANGUAGE plnimble means
#            plpgsql there, "plnimble." rewritten to "plpgsql."); both
#            outputs are normalised (PL/nimble -> PL/pgSQL, plnimble ->
#            plpgsql) and must be identical, unless the script is listed in
#            sql/oracle-allowlist.txt.  A script with the line
#            "-- oracle: no normalisation" runs unchanged on PL/pgSQL and
#            is compared without normalising (see pln_oracle_exact).
#
# Prints one line per script, the diffs of the failures, an oracle summary,
# the server-log check and, as the very last line, "N passed, M failed"
# (two checks per script; a crash or leak in the server log is one more
# failure).  A full run of the plain lane also runs the isolation specs
# (scripts/isolation.sh, one check each).  Exits non-zero when anything failed.  This is what .ci/run
# runs; it does not use `make installcheck`.
#
# Outputs: results/regress/ (plnimble run), results/oracle/ (PL/pgSQL run
# and normalised diffs), results/build.log, results/server.log.

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

ALLOWLIST=sql/oracle-allowlist.txt
MAX_DIFF_LINES=200 # per diff printed; the whole diff stays in results/

# The very last line of output.  Stops the cluster first so that nothing
# the shutdown might print comes after it.
finish() {
	pln_cluster_stop
	echo "$1 passed, $2 failed"
	[ "$2" -eq 0 ]
	exit
}

# Print a diff file, cut after MAX_DIFF_LINES lines.
show_diff() {
	local title=$1 file=$2 n
	echo "=== $title ($file)"
	n=$(wc -l <"$file")
	head -n "$MAX_DIFF_LINES" "$file"
	if [ "$n" -gt "$MAX_DIFF_LINES" ]; then
		echo "... ($((n - MAX_DIFF_LINES)) more lines in $file)"
	fi
}

# --- lanes ---------------------------------------------------------------------
lane=plain
pg=
args=() # the arguments without --pg VERSION, for the run in the chroot
while [ $# -gt 0 ]; do
	case $1 in
	--lazy-check) lane=lazy-check ;;
	--cassert) lane=cassert ;;
	--executor-hooks) lane=executor-hooks ;;
	--pg)
		pg=${2:-}
		shift
		;;
	--pg=*) pg=${1#--pg=} ;;
	--) shift; break ;;
	-*)
		echo "unknown option: $1"
		finish 0 1
		;;
	*) break ;;
	esac
	case $1 in --pg | --pg=* | "$pg") ;; *) args+=("$1") ;; esac
	shift
done
args+=("$@")
# Another major version: the same command inside its chroot (see
# scripts/in-pg.sh; 15 is the machine's own server).
# The assertion-enabled servers are built on this machine instead
# (scripts/cassert-server.sh), for 15 and 18.
cassert_major=15
if [ "$lane" = cassert ] && [ -n "$pg" ]; then
	case $pg in
	15 | 18) cassert_major=$pg ;;
	*)
		echo "--cassert runs on PostgreSQL 15 or 18 (scripts/cassert-server.sh)"
		finish 0 1
		;;
	esac
	pg=
fi
if [ -n "$pg" ] && [ "$pg" != 15 ] && [ -z "${PLN_IN_PG:-}" ]; then
	exec bash scripts/in-pg.sh "$pg" bash scripts/test.sh "${args[@]}"
fi
if [ -n "$pg" ] && [ "$pg" != "$PLN_PG_VERSION" ]; then
	echo "--pg $pg: but this is PostgreSQL $PLN_PG_VERSION's installation"
	finish 0 1
fi
# Recompilation, plan invalidation, records and triggers: run once more
# on the assertion-enabled server with every cache flushed at each chance.
# (Records: composite_domains; data_model's loops of 10,000 appends take
# longer than the timeout there.)
DISCARD_CACHES_SCRIPTS=(recompile plan_validity composite_domains triggers)

# --- which scripts -----------------------------------------------------------
tests=()
all_scripts=1
if [ $# -gt 0 ]; then
	all_scripts=0
	for arg in "$@"; do
		name=$(basename "$arg" .sql)
		if [ ! -f "sql/$name.sql" ]; then
			echo "no such test script: sql/$name.sql"
			finish 0 1
		fi
		tests+=("$name")
	done
else
	for f in sql/*.sql; do
		[ -f "$f" ] && tests+=("$(basename "$f" .sql)")
	done
fi
if [ ${#tests[@]} -eq 0 ]; then
	echo "warning: no test scripts in sql/"
fi

# --- allowlist: "name: reason" lines, # comments -------------------------------
declare -A allowed=()
if [ -f "$ALLOWLIST" ]; then
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		if [[ $line =~ ^[[:space:]]*([^:[:space:]]+)[[:space:]]*:[[:space:]]*([^[:space:]].*)$ ]]; then
			allowed[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
			if [ ! -f "sql/${BASH_REMATCH[1]}.sql" ]; then
				echo "warning: $ALLOWLIST:$lineno: no script sql/${BASH_REMATCH[1]}.sql"
			fi
		else
			echo "warning: $ALLOWLIST:$lineno: not 'name: reason', ignored: $line"
		fi
	done <"$ALLOWLIST"
fi

# --- set-up --------------------------------------------------------------------
setup_failed() {
	local n=$((2 * ${#tests[@]}))
	[ "$n" -gt 0 ] || n=1
	echo "FAIL  set-up: $1"
	finish 0 "$n"
}

pln_install_deps || setup_failed "installing dependencies failed"
case $lane in
lazy-check) export PLN_LAZY_CHECK=1 ;;
executor-hooks)
	# Both install ExecutorStart/Run/Finish/End hooks when loaded;
	# pg_stat_statements tracks the statements functions run too.  Query
	# identifiers are not computed, so that no EXPLAIN output changes.
	PLN_CLUSTER_CONF="shared_preload_libraries = 'pg_stat_statements,auto_explain'
pg_stat_statements.track = all
compute_query_id = off
auto_explain.log_min_duration = -1
${PLN_CLUSTER_CONF:-}"
	export PLN_CLUSTER_CONF
	echo "lane: executor hooks (pg_stat_statements, auto_explain preloaded)"
	;;
cassert)
	# A private copy of the cached server, so that checkouts sharing the
	# machine each install their plnimble into their own (outside results/,
	# which make clean removes).
	cassert_prefix=$(bash scripts/cassert-server.sh "$cassert_major") ||
		setup_failed "building the assertion-enabled server failed"
	copy=${TMPDIR:-/tmp}/plnimble-cassert${cassert_major#15}-$(id -u)-$(printf '%s' "$PWD" | md5sum | cut -c1-8)
	if ! cmp -s "$cassert_prefix/.complete" "$copy/.complete"; then
		rm -rf "$copy" && cp -a "$cassert_prefix" "$copy" ||
			setup_failed "could not copy $cassert_prefix"
	fi
	PLN_PGBIN=$copy/bin
	PLN_PG_CONFIG=$PLN_PGBIN/pg_config
	PLN_PG_REGRESS=$(dirname "$("$PLN_PG_CONFIG" --pgxs)")/../test/regress/pg_regress
	PATH=$PLN_PGBIN:$PATH
	export PLN_PGBIN PLN_PG_REGRESS PATH
	if [ "$cassert_major" != 15 ]; then
		# This version's expected files (pln_expected_file) and
		# pg_regress options; and its own libpq: the prefix's programs
		# have no rpath, and the machine's libpq5 is 15's, which lacks
		# functions 18's psql calls (PQsetChunkedRowsMode,
		# PQfullProtocolVersion, ...).
		PLN_PG_VERSION=$cassert_major
		LD_LIBRARY_PATH=$("$PLN_PG_CONFIG" --libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export PLN_PG_VERSION LD_LIBRARY_PATH
	fi
	if [ "$cassert_major" = 15 ]; then
		# The wrapped server: plnimble's checking build, with the server's
		# own access check hook set (docs/design.md, "The checking build")
		[ -f "$("$PLN_PG_CONFIG" --includedir-server)/server_access_check.h" ] ||
			setup_failed "$cassert_prefix is not the wrapped server (no server_access_check.h)"
		export PLN_LAZY_CHECK=1 PLN_SERVER_CHECK=1
	fi
	echo "lane: assertion-enabled PostgreSQL $("$PLN_PG_CONFIG" --version) from $cassert_prefix${PLN_SERVER_CHECK:+, wrapped at its catalog, buffer, lock, SPI and snapshot entry points, plnimble in its checking build}"
	;;
esac
pln_build_install || setup_failed "build failed (see above and results/build.log)"
mkdir -p results
# (for scripts/accept.sh: which version's expected files these results are)
echo "$PLN_PG_VERSION" >results/server_version
PLN_SERVER_LOG_COPY=$PWD/results/server.log
# shellcheck disable=SC2119 # default port
pln_cluster_start || setup_failed "could not start a PostgreSQL cluster"
pln_make_templates plnimble oracle || setup_failed "could not create the template databases"

# --- run -------------------------------------------------------------------------
width=0
for t in "${tests[@]}"; do
	[ ${#t} -gt "$width" ] && width=${#t}
done

passed=0 failed=0
identical=0 differ=0 allowlisted=0
failed_diffs=() # "title|file" for the diffs shown after the per-script lines

# run_scripts LABEL NAME...: both checks for each script; LABEL, if not
# empty, is added to each script's line.  With oracle_only=1 only the
# oracle check counts (one check per script): with debug_discard_caches
# PL/pgSQL's own output changes (it reports "cache lookup failed" where
# a type was dropped), so expected/ no longer applies.
oracle_only=0
run_scripts() {
	local label=$1 t
	shift
	for t in "$@"; do
		# regress: plnimble against expected/NAME.out
		rc=0
		pln_regress_run "$t" || rc=$?
		[ "$oracle_only" = 1 ] && rc=0
		if [ "$rc" -eq 0 ]; then
			regress="regress ok"
		else
			case $rc in
			124) regress="regress TIMEOUT" ;;
			*)
				if [ ! -f "expected/$t.out" ]; then
					regress="regress FAILED, no expected/$t.out"
				else
					regress="regress FAILED"
				fi
				;;
			esac
			if [ ! -f "expected/$t.out" ]; then
				failed_diffs+=("$t: no expected output; write it with: bash scripts/oracle-expected.sh $t|results/regress/$t.log")
			elif [ -s "results/regress/$t.diff" ]; then
				failed_diffs+=("$t: regress diff, expected vs plnimble|results/regress/$t.diff")
			else
				failed_diffs+=("$t: pg_regress messages|results/regress/$t.log")
			fi
		fi

		# oracle: the same script on real PL/pgSQL, normalised outputs compared
		rc=0
		pln_oracle_run "$t" || rc=$?
		mine=results/regress/results/$t.out
		theirs=results/oracle/results/$t.out
		odiff=results/oracle/$t.diff
		rm -f "$odiff"
		oracle_ok=0 note=""
		if [ "$rc" -eq 124 ]; then
			oracle="oracle TIMEOUT"
			differ=$((differ + 1))
			failed_diffs+=("$t: oracle run messages|results/oracle/$t.log")
		elif [ "$rc" -ne 0 ]; then
			oracle="oracle ERROR"
			differ=$((differ + 1))
			failed_diffs+=("$t: oracle run messages|results/oracle/$t.log")
		elif [ ! -f "$mine" ]; then
			oracle="oracle not compared, no plnimble output"
			differ=$((differ + 1))
		else
			pln_oracle_compare_text "$t" "$theirs" >"results/oracle/$t.pgsql.norm"
			pln_oracle_compare_text "$t" "$mine" >"results/oracle/$t.nimble.norm"
			if diff -u --label "oracle: PL/pgSQL, normalised" \
				--label "plnimble, normalised" \
				"results/oracle/$t.pgsql.norm" "results/oracle/$t.nimble.norm" \
				>"$odiff"; then
				oracle="oracle identical"
				oracle_ok=1
				identical=$((identical + 1))
				rm -f "$odiff"
				if [ -n "${allowed[$t]+set}" ]; then
					note="; allowlist entry $t no longer needed"
				fi
			else
				differ=$((differ + 1))
				if [ -n "${allowed[$t]+set}" ]; then
					oracle="oracle differs, allowlisted"
					oracle_ok=1
					allowlisted=$((allowlisted + 1))
				else
					oracle="oracle differs"
					failed_diffs+=("$t: oracle diff, PL/pgSQL vs plnimble|$odiff")
				fi
			fi
		fi

		checks_failed=0
		if [ "$oracle_only" = 1 ]; then
			regress="regress not compared"
		elif [ "$regress" = "regress ok" ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			checks_failed=1
		fi
		if [ "$oracle_ok" -eq 1 ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			checks_failed=1
		fi
		if [ "$checks_failed" -eq 0 ]; then verdict=ok; else verdict=FAIL; fi
		printf '%-5s %-*s  (%s, %s%s)%s\n' "$verdict" "$width" "$t" "$regress" "$oracle" "$note" "${label:+ [$label]}"
	done
}

run_scripts "" "${tests[@]}"

if [ "$lane" = cassert ]; then
	again=()
	for t in "${DISCARD_CACHES_SCRIPTS[@]}"; do
		for u in "${tests[@]}"; do
			[ "$t" = "$u" ] && again+=("$t")
		done
	done
	if [ ${#again[@]} -gt 0 ]; then
		if psql -X -q -d postgres -c "ALTER SYSTEM SET debug_discard_caches = 1" \
			-c "SELECT pg_reload_conf()" >/dev/null; then
			# (every catalog lookup rebuilds its cache entry: slow)
			oracle_only=1 PLN_TIMEOUT=$((PLN_TIMEOUT * 4)) \
				run_scripts "debug_discard_caches = 1" "${again[@]}"
			psql -X -q -d postgres -c "ALTER SYSTEM RESET debug_discard_caches" \
				-c "SELECT pg_reload_conf()" >/dev/null || true
		else
			echo "FAIL  could not set debug_discard_caches"
			failed=$((failed + 1))
		fi
	fi
fi

# --- isolation specs -------------------------------------------------------------
# Plain lane, full run only: the concurrency specs of isolation/specs/ on
# this cluster, each one check (plpgsql and plnimble outputs identical, and
# PL/pgSQL's the expected one; see scripts/isolation.sh).
if [ "$lane" = plain ] && [ "$all_scripts" = 1 ] && compgen -G "isolation/specs/*.spec" >/dev/null; then
	bash scripts/isolation.sh --running >results/isolation.log 2>&1
	sed '$d' results/isolation.log
	if [[ $(tail -n 1 results/isolation.log) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else
		echo "FAIL  isolation: scripts/isolation.sh did not finish (results/isolation.log)"
		failed=$((failed + 1))
	fi
fi

# --- layers --------------------------------------------------------------------
# Plain lane, full run only: calls between the layers of src/ run downward
# (scripts/check-layers.sh reads the objects just built), one check.
if [ "$lane" = plain ] && [ "$all_scripts" = 1 ]; then
	bash scripts/check-layers.sh >results/layers.log 2>&1
	if [ "$(tail -n 1 results/layers.log)" = "1 passed, 0 failed" ]; then
		echo "ok    layers (results/layers.log)"
		passed=$((passed + 1))
	else
		grep -v '^known upward use' results/layers.log | sed '$d'
		echo "FAIL  layers: a call runs upward between the layers of src/ (results/layers.log)"
		failed=$((failed + 1))
	fi
fi

# --- report ----------------------------------------------------------------------
for entry in "${failed_diffs[@]}"; do
	echo
	show_diff "${entry%%|*}" "${entry#*|}"
done
[ ${#failed_diffs[@]} -gt 0 ] && echo

echo "oracle: $identical identical, $differ differ ($allowlisted allowlisted)"
if ! pln_check_server_log "$PLN_SERVER_LOG"; then
	failed=$((failed + 1))
fi

# --- the wrapped server's self-test ------------------------------------------------
# --cassert on 15: the server's hook is installed and fires (one check;
# scripts/server-access-check/probe.sql).  After the server-log check, as
# the accesses it makes on purpose log lazy-check lines; its output must
# match probe.out, and each of its caught accesses must be in the log.
if [ "${PLN_SERVER_CHECK:-0}" = 1 ]; then
	probe=scripts/server-access-check/probe
	before=$(wc -l <"$PLN_SERVER_LOG")
	if pln_fresh_db regress_server_check plnimble_tpl >/dev/null 2>&1 &&
		timeout "$PLN_TIMEOUT" psql -X -q -d regress_server_check -f "$probe.sql" \
			>results/server-check-probe.out 2>&1 &&
		diff -u "$probe.out" results/server-check-probe.out >results/server-check-probe.diff &&
		[ "$(tail -n +"$((before + 1))" "$PLN_SERVER_LOG" | grep -c 'LOG:  lazy-check: .* (inside the server) called in a handler block')" \
			-eq "$(grep -o '\[lazy-check: ' "$probe.out" | wc -l)" ]; then
		echo "ok    server-check probe (the server's hook is installed and fires)"
		passed=$((passed + 1))
	else
		echo "FAIL  server-check probe: results/server-check-probe.out differs from $probe.out, or the log lines are missing"
		cat results/server-check-probe.diff 2>/dev/null
		failed=$((failed + 1))
	fi
fi
finish "$passed" "$failed"
