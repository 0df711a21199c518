#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/fuzz.sh: differential fuzzer, plnimble against the real PL/pgSQL.
#
# Usage: bash scripts/fuzz.sh [--pg VERSION] [--count N] [--seed S] [--minutes M] [run.py options]
#        bash scripts/fuzz.sh --replay results/fuzz/HASH/case.json
#
# Builds and installs plnimble (scripts/lib.sh), starts a throwaway cluster,
# creates fz_nimble (from plnimble_tpl: LANGUAGE plpgsql and DO run on
# plnimble) and fz_oracle (from oracle_tpl: the real PL/pgSQL), and runs
# scripts/fuzz/run.py: generated and mutated programs, each as a function
# and as a DO block in both databases, outcomes compared.  Differences,
# crashes and hangs are saved, shrunk, under results/fuzz/ (see
# docs/fuzzing.md).  Without --count or --minutes: 1000 programs.  The last
# line is "N passed, M failed": programs whose difference is not listed in
# scripts/fuzz/known.txt count as failed; exits non-zero when any did.

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export LC_ALL=C
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

PY=/usr/bin/python3 # Debian's; run.py needs nothing but the standard library and libpq5

# --pg VERSION (first): the same batch on another major version, inside
# its chroot (scripts/in-pg.sh), against that version's PL/pgSQL.
if [ "${1:-}" = --pg ]; then
	pg=${2:-}
	shift 2 || true
	if [ "$pg" != 15 ] && [ -z "${PLN_IN_PG:-}" ]; then
		exec bash scripts/in-pg.sh "$pg" bash scripts/fuzz.sh "$@"
	fi
fi

fail() {
	pln_cluster_stop
	echo "fuzz: $1"
	echo "0 passed, 1 failed"
	exit 1
}

pln_install_deps || fail "installing dependencies failed"
if [ ! -x "$PY" ] || ! ldconfig -p 2>/dev/null | grep -q 'libpq\.so\.5'; then
	pln_log "deps: installing python3, libpq5 (apt-get)"
	pln_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 libpq5 >/dev/null ||
		fail "apt-get install python3 libpq5 failed"
fi
pln_build_install || fail "build failed (see results/build.log)"
mkdir -p results/fuzz
PLN_SERVER_LOG_COPY=$PWD/results/fuzz/server.log
# shellcheck disable=SC2119 # default port
pln_cluster_start || fail "could not start a PostgreSQL cluster"
pln_make_templates plnimble oracle || fail "could not create the template databases"
createdb -T plnimble_tpl fz_nimble && createdb -T oracle_tpl fz_oracle ||
	fail "could not create the fuzz databases"

conn="host=$PGHOST port=$PGPORT user=$PGUSER"
"$PY" scripts/fuzz/run.py --oracle "$conn dbname=fz_oracle" --nimble "$conn dbname=fz_nimble" "$@"
rc=$?
pln_cluster_stop
exit "$rc"
