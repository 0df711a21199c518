#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/in-pg.sh: run one of plnimble's commands against another major
# version of PostgreSQL, inside that version's chroot.
#
# Usage: bash scripts/in-pg.sh VERSION COMMAND [ARG...]
#        e.g. bash scripts/in-pg.sh 17 bash scripts/test.sh basics
#
# scripts/test.sh --pg VERSION, scripts/fuzz.sh --pg VERSION,
# scripts/demo.sh --pg VERSION and bench/run.sh --pg VERSION call it; it is
# rarely needed by hand.  VERSION 15 runs COMMAND here, on the machine's
# own PostgreSQL.
#
# The chroot (scripts/pg-server.sh VERSION, cached) is not written to: in a
# private mount namespace (unshare -m) an overlay is mounted with the
# cached chroot as its lower layer and a throwaway upper layer, with /proc
# and /dev inside it.  A copy of this checkout (its files, without results/,
# build products and .git) is put at /plnimble in the overlay, and COMMAND
# runs there as root with PLN_PG_VERSION=VERSION (scripts/lib.sh then uses
# /usr/lib/postgresql/VERSION), PLN_IN_PG=VERSION, LC_ALL=C, and the
# caller's PGOPTIONS and PLN_* settings.  So plnimble is built with the
# chroot's compiler against the chroot's libc and headers, installed into
# that run's copy of the server only, and the oracle is that server's own
# PL/pgSQL.  Afterwards the copy's results/ replaces this checkout's
# results/ (test.sh's messages name files there), and its
# expected/pgVERSION/ this checkout's if they differ (what
# oracle-expected.sh --pg VERSION wrote), the overlay goes away
# with the namespace, and the upper layer is deleted.  Exits with
# COMMAND's status.  Needs root (mount, chroot).

set -uo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")/.." && pwd)

version=${1:-}
shift || true
if [ -z "$version" ] || [ $# -eq 0 ]; then
	echo "usage: in-pg.sh VERSION COMMAND [ARG...]" >&2
	exit 2
fi
if [ "$version" = 15 ]; then
	cd "$here" && exec "$@"
fi
if [ -n "${PLN_IN_PG:-}" ]; then
	echo "in-pg.sh: already inside the PostgreSQL $PLN_IN_PG chroot" >&2
	exit 2
fi

# --- inside the private mount namespace ------------------------------------------
if [ "${_PLN_IN_PG_NS:-}" = 1 ]; then
	lower=$_PLN_IN_PG_LOWER run=$_PLN_IN_PG_RUN
	m=$run/merged
	mount -t overlay overlay \
		-o "lowerdir=$lower,upperdir=$run/upper,workdir=$run/work" "$m" || exit 1
	mount -t proc proc "$m/proc" || exit 1
	mount --rbind /dev "$m/dev" || exit 1
	mkdir -p "$m/plnimble" "$m/tmp" && chmod 1777 "$m/tmp" || exit 1
	(cd "$here" && tar --exclude=./results --exclude=./.git --exclude=./.build-config \
		--exclude='*.o' --exclude='*.bc' --exclude='*.so' -cf - .) |
		tar -C "$m/plnimble" -xf - || exit 1
	envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
		HOME=/root LC_ALL=C PLN_PG_VERSION="$version" PLN_IN_PG="$version")
	while IFS= read -r v; do
		case $v in
		PLN_PGBIN | PLN_PG_REGRESS | PLN_ROOT | PLN_PG_VERSION | PLN_IN_PG) ;;
		PLN_* | PGOPTIONS) envs+=("$v=${!v}") ;;
		esac
	done < <(compgen -e)
	rc=0
	chroot "$m" env -i "${envs[@]}" bash -c 'cd /plnimble && exec "$@"' in-pg "$@" || rc=$?
	if [ -d "$m/plnimble/results" ]; then
		rm -rf "$here/results" && cp -a "$m/plnimble/results" "$here/results"
	fi
	# (scripts/oracle-expected.sh --pg VERSION writes there)
	if ! diff -rq "$m/plnimble/expected/pg$version" "$here/expected/pg$version" >/dev/null 2>&1; then
		rm -rf "$here/expected/pg$version"
		if [ -d "$m/plnimble/expected/pg$version" ]; then
			cp -a "$m/plnimble/expected/pg$version" "$here/expected/pg$version"
		fi
	fi
	exit "$rc"
fi

# --- outside: the chroot, a run directory, the namespace -------------------------
[ "$(id -u)" -eq 0 ] || {
	echo "in-pg.sh: needs root (mount, chroot)" >&2
	exit 1
}
lower=$(bash "$here/scripts/pg-server.sh" "$version") || exit 1
run=$(mktemp -d "${TMPDIR:-/tmp}/plnimble-pg$version.XXXXXX") || exit 1
mkdir -p "$run/upper" "$run/work" "$run/merged"
rc=0
_PLN_IN_PG_NS=1 _PLN_IN_PG_LOWER=$lower _PLN_IN_PG_RUN=$run \
	unshare -m --propagation private bash "$here/scripts/in-pg.sh" "$version" "$@" || rc=$?
# The namespace is gone, and with it every mount: $run/merged is an empty
# directory again, so removing $run cannot reach /dev or the chroot.
if mountpoint -q "$run/merged"; then
	echo "in-pg.sh: $run/merged is still mounted, not removing $run" >&2
else
	rm -rf "$run"
fi
exit "$rc"
