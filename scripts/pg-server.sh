#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/pg-server.sh: a PostgreSQL of another major version, from Debian,
# cached.
#
# Usage: bash scripts/pg-server.sh VERSION     (prints the chroot's root)
#
#   VERSION  suite that ships it           packages
#   17       trixie                        postgresql-17 (17.x)
#   18       sid                           postgresql-18 (18.x)
#   19       sid + experimental            postgresql-19 (19~rc1)
#   (15 is the machine's own, /usr/lib/postgresql/15; no Debian suite
#   ships 16 any more, so there is no 16 here.)
#
# The machine is Debian 12 (bookworm); the newer servers are built against
# the newer suites' libc, so they run in a chroot of their own suite:
# `debootstrap --variant=minbase SUITE`, then, inside it, apt-get install
# of postgresql-VERSION, postgresql-server-dev-VERSION (headers, PGXS,
# pg_regress, isolationtester) and what building and testing plnimble needs
# (bison, flex, make, gcc, python3 and libpq5 for the fuzzer).  Debian's
# PostgreSQL packages carry contrib (citext, file_fdw, btree_gist: the
# suite uses them) and PL/pgSQL, the oracle.  No cluster is created in the
# chroot (createcluster.conf) and no service is started (policy-rc.d).
#
# The chroot is $PLN_PG_CACHE/pgVERSION-SUITE (default
# /var/cache/plnimble/pgVERSION-SUITE).  It is made under a temporary name
# and renamed when complete, with .complete naming the installed package
# version and the recipe; a directory without it is never used.  A
# finished chroot is reused as it is, without asking the archive for a
# newer point release: PLN_PG_REFRESH=1 makes a new one (the old is
# replaced only when the new is complete).  The log of the set-up is
# $PLN_PG_CACHE/pgVERSION-SUITE.log.  One set-up per version at a time
# (flock); a second caller waits and reuses it.
#
# The chroot is only ever used read-only: scripts/in-pg.sh runs commands
# in an overlay of it (a throwaway upper layer per run), so plnimble is
# installed into that run's copy of the server and checkouts sharing the
# machine do not see each other's builds.
#
# The mirror is the first http(s) URI of the machine's own apt sources
# (PLN_DEBIAN_MIRROR overrides it); the archive's signatures are checked
# with the machine's debian-archive-keyring.  Needs root (debootstrap,
# chroot); installs debootstrap with apt-get if it is missing.

set -euo pipefail
export LC_ALL=C

log() { printf 'pg-server: %s\n' "$*" >&2; }

version=${1:-}
case $version in
17) suite=trixie extra_suite= ;;
18) suite=sid extra_suite= ;;
19) suite=sid extra_suite=experimental ;;
15)
	log "15 is the machine's own PostgreSQL (/usr/lib/postgresql/15): nothing to set up"
	exit 1
	;;
16)
	log "no Debian suite ships PostgreSQL 16 any more (bookworm has 15, trixie 17, sid 18)"
	exit 1
	;;
*)
	log "usage: pg-server.sh 17|18|19"
	exit 2
	;;
esac
[ "$(id -u)" -eq 0 ] || {
	log "needs root (debootstrap, chroot)"
	exit 1
}

CACHE=${PLN_PG_CACHE:-/var/cache/plnimble}
name=pg$version-$suite${extra_suite:+-$extra_suite}
root=$CACHE/$name
PACKAGES=(postgresql-"$version" postgresql-server-dev-"$version"
	bison flex make gcc python3 libpq5)
# What apt-get installs: experimental's packages are not chosen by
# default, and -t experimental would take everything from there (its perl
# then conflicts with sid's): the server's own packages are named with
# /experimental, the rest comes from sid.
install=("${PACKAGES[@]}")
if [ -n "$extra_suite" ]; then
	install=()
	for p in "${PACKAGES[@]}" postgresql-client-"$version" libpq-dev libpq5; do
		case $p in
		postgresql-* | libpq*) install+=("$p/$extra_suite") ;;
		*) install+=("$p") ;;
		esac
	done
	mapfile -t install < <(printf '%s\n' "${install[@]}" | awk '!seen[$0]++')
fi
# Part of the cache key: a change of the package list makes a new chroot.
RECIPE="debootstrap minbase $suite${extra_suite:+ + $extra_suite}: ${install[*]}"

# cached: succeed if $root is complete and made by this recipe.
cached() {
	[ -x "$root/usr/lib/postgresql/$version/bin/postgres" ] &&
		[ "$(sed -n 2p "$root/.complete" 2>/dev/null)" = "$RECIPE" ]
}
if [ "${PLN_PG_REFRESH:-0}" != 1 ] && cached; then
	log "using cached PostgreSQL $(sed -n 1p "$root/.complete") in $root"
	echo "$root"
	exit 0
fi

mkdir -p "$CACHE"
exec 9>"$CACHE/.$name.lock"
if ! flock -n 9; then
	log "another set-up of $name is running, waiting for it"
	flock 9
	if cached; then
		echo "$root"
		exit 0
	fi
fi

# (in a subshell: nothing else of lib.sh is wanted here)
# shellcheck source=scripts/lib.sh
mirror=$(source "$(dirname "$0")/lib.sh" && pln_debian_mirror)
if ! command -v debootstrap >/dev/null; then
	log "installing debootstrap (apt-get)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >&2
fi

buildlog=$CACHE/$name.log
tmp=$root.tmp
start=$SECONDS
log "setting up PostgreSQL $version from $suite${extra_suite:+ + $extra_suite} in $root (log: $buildlog)"

setup() {
	rm -rf "$tmp"
	echo "== debootstrap --variant=minbase $suite $tmp $mirror"
	nice debootstrap --variant=minbase "$suite" "$tmp" "$mirror" || return 1
	if [ -n "$extra_suite" ]; then
		echo "deb $mirror $extra_suite main" >>"$tmp/etc/apt/sources.list"
	fi
	# sid's and experimental's Release files are valid for a week only, and
	# a mirror may be a dated snapshot (this machine's is): their
	# signatures are still checked, their age is not.
	echo 'Acquire::Check-Valid-Until "false";' >"$tmp/etc/apt/apt.conf.d/90plnimble"
	# No cluster, no service: the tests make their own throwaway clusters.
	mkdir -p "$tmp/etc/postgresql-common"
	echo 'create_main_cluster = false' >"$tmp/etc/postgresql-common/createcluster.conf"
	printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
	chmod +x "$tmp/usr/sbin/policy-rc.d"
	echo "== apt-get install ${install[*]}"
	# (postgresql-common's set-up wants /proc: mounted in a mount
	# namespace of its own, so that it goes away with it.)
	unshare -m --propagation private sh -c 'mount -t proc proc "$1/proc" && shift &&
		exec nice chroot "$@"' sh "$tmp" "$tmp" \
		env DEBIAN_FRONTEND=noninteractive LC_ALL=C sh -c \
		"apt-get update -q && apt-get install -y -q --no-install-recommends \
			${install[*]} && apt-get clean" || return 1
	[ -x "$tmp/usr/lib/postgresql/$version/bin/postgres" ] || {
		echo "no $tmp/usr/lib/postgresql/$version/bin/postgres after the install"
		return 1
	}
}
if ! setup >"$buildlog" 2>&1; then
	log "set-up failed; last lines of $buildlog:"
	tail -n 30 "$buildlog" >&2
	exit 1
fi
pkgversion=$(chroot "$tmp" dpkg-query -W -f='${Version}' "postgresql-$version")
printf '%s\n%s\n' "postgresql-$version $pkgversion" "$RECIPE" >"$tmp/.complete"
rm -rf "$root.old"
[ -d "$root" ] && mv "$root" "$root.old"
mv "$tmp" "$root"
rm -rf "$root.old"
log "PostgreSQL $version ($pkgversion) set up in $((SECONDS - start)) s: $root"
echo "$root"
