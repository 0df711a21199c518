#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/isolation.sh: concurrency tests with PostgreSQL's isolation tester.
#
# Usage: bash scripts/isolation.sh [--running] [NAME | PATH.spec ...]
#        (NAME = isolation/specs/NAME.spec; default all of those; a path
#        names a spec elsewhere, such as /tmp/NAME.spec, whose
#        expected output is NAME.out next to it)
#
# Each spec is written with the placeholder @LANG@ for the language of its
# functions.  It runs twice, in a fresh database with CREATE EXTENSION
# plnimble: once with @LANG@ = plpgsql (the real PL/pgSQL), once with
# @LANG@ = plnimble.  A spec passes (one check) when
#   - both outputs are identical after normalising the language's name
#     (pln_normalise of scripts/lib.sh, as the oracle check of
#     scripts/test.sh does: PL/nimble -> PL/pgSQL, plnimble -> plpgsql), and
#   - the PL/pgSQL output is isolation/expected/NAME.out.
# A missing expected file is written from the PL/pgSQL output and counts as
# a failure (review it with git diff and commit it).
#
# Without --running it installs the dependencies, builds and installs
# plnimble and starts a throwaway cluster (scripts/lib.sh).  With --running
# it uses the cluster that PGHOST/PGPORT/PGUSER point at, which must have
# plnimble installed (scripts/test.sh calls it so, in its plain lane).
#
# Prints one line per spec, the diffs of the failures, and as the last line
# "N passed, M failed".  Outputs: results/isolation/ (NAME.SPEC with the
# language substituted, NAME.LANG.out, NAME.diff).

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

out=results/isolation
running=0
if [ "${1:-}" = --running ]; then
	running=1
	shift
fi

# specs: the spec files; expected file of each: isolation/expected/NAME.out
# for isolation/specs/, NAME.out beside the spec for any other directory
specs=()
if [ $# -gt 0 ]; then
	for arg in "$@"; do
		case $arg in
		*.spec) specs+=("$arg") ;;
		*) specs+=("isolation/specs/$arg.spec") ;;
		esac
	done
else
	for f in isolation/specs/*.spec; do
		[ -f "$f" ] && specs+=("$f")
	done
fi
expected_of() {
	local dir
	dir=$(dirname "$1")
	if [ "$dir" = isolation/specs ]; then
		echo "isolation/expected/$(basename "$1" .spec).out"
	else
		echo "$dir/$(basename "$1" .spec).out"
	fi
}

finish() {
	[ "$running" = 1 ] || pln_cluster_stop
	echo "$1 passed, $2 failed"
	[ "$2" -eq 0 ]
	exit
}

if [ "$running" = 0 ]; then
	pln_install_deps || finish 0 1
	pln_build_install || finish 0 1
	# shellcheck disable=SC2119 # default port
	pln_cluster_start || finish 0 1
fi
isolationtester=$(dirname "$("$PLN_PG_CONFIG" --pgxs)")/../test/isolation/isolationtester
if [ ! -x "$isolationtester" ]; then
	echo "FAIL  isolation: no isolationtester at $isolationtester"
	finish 0 "${#specs[@]}"
fi
mkdir -p "$out" || finish 0 1

# run_spec FILE LANG: run the spec FILE with @LANG@ = LANG in a fresh
# database; the output lands in $out/NAME.LANG.out.  Returns non-zero when
# the database could not be made or the tester failed or timed out.
run_spec() {
	local name db lang=$2
	name=$(basename "$1" .spec)
	db="isolation_$name"
	local spec=$out/$name.$lang.spec
	sed -e "s/@LANG@/$lang/g" "$1" >"$spec" || return 1
	pln_wait_ready &&
		{ timeout "$PLN_TIMEOUT" dropdb --if-exists --force "$db" >/dev/null 2>&1 || true; } &&
		timeout "$PLN_TIMEOUT" createdb -T template0 "$db" &&
		timeout "$PLN_TIMEOUT" psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
			-c "CREATE EXTENSION plnimble" || return 1
	# (isolationtester reads the spec from standard input; every session
	# connects with this conninfo, PGHOST/PGPORT/PGUSER from the environment)
	timeout "$PLN_TIMEOUT" "$isolationtester" "dbname=$db" \
		<"$spec" >"$out/$name.$lang.out" 2>&1
	local rc=$?
	timeout 60 dropdb --if-exists --force "$db" >/dev/null 2>&1 || true
	return "$rc"
}

passed=0 failed=0
diffs=()
for file in "${specs[@]}"; do
	name=$(basename "$file" .spec)
	expected_file=$(expected_of "$file")
	if [ ! -f "$file" ]; then
		echo "FAIL  isolation/$name  (no such spec: $file)"
		failed=$((failed + 1))
		continue
	fi
	start=$SECONDS
	rm -f "$out/$name.diff" "$out/$name.langs.diff"
	status=""
	for lang in plpgsql plnimble; do
		if ! run_spec "$file" "$lang"; then
			status="${status:+$status, }$lang run failed"
		fi
	done
	# the two languages against each other, normalised
	pln_normalise "$out/$name.plpgsql.out" >"$out/$name.plpgsql.norm" 2>/dev/null
	pln_normalise "$out/$name.plnimble.out" >"$out/$name.plnimble.norm" 2>/dev/null
	if diff -u --label "PL/pgSQL, normalised" --label "plnimble, normalised" \
		"$out/$name.plpgsql.norm" "$out/$name.plnimble.norm" >"$out/$name.langs.diff"; then
		langs="languages identical"
		rm -f "$out/$name.langs.diff"
	else
		langs="languages differ"
		diffs+=("$name: PL/pgSQL vs plnimble|$out/$name.langs.diff")
	fi
	# PL/pgSQL against the committed expected output
	if [ ! -f "$expected_file" ]; then
		cp "$out/$name.plpgsql.out" "$expected_file"
		expected="no expected output, wrote $expected_file"
		status="${status:+$status, }new expected file"
	elif diff -u "$expected_file" "$out/$name.plpgsql.out" >"$out/$name.diff"; then
		expected="expected ok"
		rm -f "$out/$name.diff"
	else
		expected="expected differs"
		diffs+=("$name: expected vs PL/pgSQL|$out/$name.diff")
	fi
	if [ -z "$status" ] && [ "$langs" = "languages identical" ] && [ "$expected" = "expected ok" ]; then
		verdict=ok
		passed=$((passed + 1))
	else
		verdict=FAIL
		failed=$((failed + 1))
	fi
	printf '%-5s isolation/%s  (%s, %s%s; %d s)\n' "$verdict" "$name" "$expected" "$langs" \
		"${status:+, $status}" "$((SECONDS - start))"
done

for entry in "${diffs[@]}"; do
	echo
	echo "=== ${entry%%|*} (${entry#*|})"
	head -n 200 "${entry#*|}"
done
[ ${#diffs[@]} -gt 0 ] && echo
finish "$passed" "$failed"
