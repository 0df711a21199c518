#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/cassert-server.sh: build PostgreSQL 15 or 18 with assertions, cached.
#
# Usage: bash scripts/cassert-server.sh [15|18]   (prints the prefix on stdout)
#
# Builds PostgreSQL MAJOR (15 unless given) from Debian's own source
# package, configured with --enable-cassert --enable-debug, and installs
# it into
#     $PLN_CASSERT_CACHE/<version>     (default /var/cache/plnimble/pgMAJOR-cassert)
# Which version:
#   15  the version of the installed postgresql-15 package, from the
#       machine's own suites (bookworm);
#   18  the version of postgresql-18 in the PostgreSQL 18 chroot
#       (scripts/pg-server.sh 18, /var/cache/plnimble/pg18-sid), so that
#       both 18 lanes test the same release; without that chroot, the
#       newest postgresql-18 in sid.
# A finished prefix is reused: the key is the source version, so a new
# Debian point release builds a new prefix.  scripts/test.sh --cassert
# [--pg 18] uses it (through a private copy, so that several checkouts on
# one machine can install plnimble into "their" server at the same time).
#
# The source is fetched by `apt-get source postgresql-MAJOR=<version>` from
# deb-src lines written to a private apt directory: for 15, the deb lines
# of /etc/apt/sources.list.d/*.sources (and /etc/apt/sources.list) with
# Types/deb turned into deb-src; for 18, one deb-src line for sid on the
# machine's Debian mirror, checked with the machine's
# debian-archive-keyring (sid's Release file is valid for a week only and a
# mirror may be a dated snapshot: its age is not checked, its signature
# is).  apt is pointed there with -o Dir::Etc::SourceList/SourceParts/
# Dir::State::Lists/Dir::Cache, so the system's apt configuration and
# state stay untouched.  Nothing else is downloaded (besides, on a machine
# that lacks them, the build dependencies dpkg-dev, pkg-config, libicu-dev
# and zlib1g-dev, from apt).  Both build on this machine (bookworm's
# compiler and libraries).  The compile runs under nice on two jobs and
# takes 4 minutes on an idle two-core machine, 15 to 30 under load; its log
# is <cache>/<wanted>.log.

set -euo pipefail
export LC_ALL=C

major=${1:-15}
case $major in
15 | 18) ;;
*)
	printf 'cassert-server: usage: cassert-server.sh [15|18]\n' >&2
	exit 2
	;;
esac
CACHE=${PLN_CASSERT_CACHE:-/var/cache/plnimble/pg$major-cassert}
JOBS=${PLN_CASSERT_JOBS:-2}
# How the server is configured (ICU as in Debian's build: the suite uses
# ICU collations).  Part of the cache key, with the source version.
CONFIGURE_FLAGS=(--enable-cassert --enable-debug --disable-rpath --with-icu
	--without-readline --with-zlib)
# The contrib modules the test suite uses (write_path_keys: citext;
# write_path_tables: file_fdw and btree_gist), built and installed with the
# server.
CONTRIB=(citext file_fdw btree_gist)
RECIPE="${CONFIGURE_FLAGS[*]} contrib: ${CONTRIB[*]}"

log() { printf 'cassert-server: %s\n' "$*" >&2; }

# wanted: the version to build (see above), or "sid" for sid's newest
# when there is no 18 chroot.
case $major in
15)
	wanted=$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null) || {
		log "postgresql-15 is not installed (dpkg-query), cannot tell which source to build"
		exit 1
	}
	;;
18)
	chroot18=${PLN_PG_CACHE:-/var/cache/plnimble}/pg18-sid
	wanted=$(sed -n '1s/^postgresql-18 //p' "$chroot18/.complete" 2>/dev/null) || true
	wanted=${wanted:-sid}
	;;
esac

# cached PREFIX: succeed (printing it) if the build for the wanted
# version is complete.  $CACHE/<wanted>.source names the source version
# that was built for it (the same, unless the archive no longer had it).
cached() {
	local v p
	[ -f "$CACHE/$wanted.source" ] || return 1
	v=$(cat "$CACHE/$wanted.source")
	p=$CACHE/$v
	[ -x "$p/bin/postgres" ] && [ "$(cat "$p/.complete" 2>/dev/null)" = "$v $RECIPE" ] ||
		return 1
	echo "$p"
}
if prefix=$(cached); then
	log "using cached build $prefix"
	echo "$prefix"
	exit 0
fi

mkdir -p "$CACHE"
# One build at a time per machine; a second caller waits and then reuses it.
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	log "another build is running, waiting for it ($CACHE/.lock)"
	flock 9
fi
if prefix=$(cached); then
	echo "$prefix"
	exit 0
fi

# What building needs beyond the compiler, bison and flex (lib.sh's
# pln_install_deps): unpacking a source package, ICU and zlib headers.
# Installed with apt-get only when missing (a fresh CI machine).
if ! command -v dpkg-source >/dev/null || ! pkg-config --exists icu-uc icu-i18n zlib 2>/dev/null; then
	log "installing build dependencies: dpkg-dev pkg-config libicu-dev zlib1g-dev"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		dpkg-dev pkg-config libicu-dev zlib1g-dev >&2 || exit 1
fi

buildlog=$CACHE/$wanted.log
work=$CACHE/build-$wanted
rm -rf "$work"
mkdir -p "$work/apt/sources.list.d" "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src"
: >"$work/apt/sources.list"
log "building PostgreSQL $major ($wanted) with assertions (log: $buildlog)"

# --- a private deb-src: the machine's own suites (15), sid (18) ---------------
nsrc=0
if [ "$major" = 18 ]; then
	# (in a subshell: nothing else of lib.sh is wanted here)
	# shellcheck source=scripts/lib.sh
	mirror=$(source "$(dirname "$0")/lib.sh" && pln_debian_mirror)
	cat >"$work/apt/sources.list.d/sid.sources" <<EOF
Types: deb-src
URIs: $mirror
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	nsrc=1
fi
if [ "$major" = 15 ]; then
	# shellcheck source=scripts/lib.sh
	if (source "$(dirname "$0")/lib.sh" && pln_machine_deb_src "$work/apt"); then
		nsrc=1
	fi
fi
if [ "$nsrc" -eq 0 ]; then
	log "no apt sources found under /etc/apt"
	exit 1
fi
apt_opts=(
	-o "Dir::Etc::SourceList=$work/apt/sources.list"
	-o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
	-o "Dir::State::Lists=$work/apt/lists"
	-o "Dir::Cache=$work/apt/cache"
	-o "APT::Sandbox::User=root"
)
[ "$major" = 18 ] && apt_opts+=(-o "Acquire::Check-Valid-Until=false")

fetch() {
	local v
	echo "== apt-get update (private deb-src lists)"
	apt-get "${apt_opts[@]}" update -q || return 1
	# The wanted version first; if the archive no longer serves its
	# source (a security archive keeps only what it has to, sid only its
	# newest), the newest version of the same suites that it does serve.
	versions=$( ([ "$wanted" = sid ] || echo "$wanted"
		apt-cache "${apt_opts[@]}" showsrc "postgresql-$major" |
			sed -n 's/^Version: //p' | sort -u |
			sort -r -V) | awk '!seen[$0]++')
	for v in $versions; do
		echo "== apt-get source postgresql-$major=$v"
		rm -rf "${work:?}/src" && mkdir -p "$work/src" || return 1
		if (cd "$work/src" && apt-get "${apt_opts[@]}" source -q "postgresql-$major=$v"); then
			return 0
		fi
	done
	return 1
}
fetch >"$buildlog" 2>&1 || {
	log "fetching the source failed; last lines of $buildlog:"
	tail -n 20 "$buildlog" >&2
	exit 1
}
version=$(sed -n "s/^== apt-get source postgresql-$major=//p" "$buildlog" | tail -n 1)
[ "$version" = "$wanted" ] || [ "$wanted" = sid ] ||
	log "the source of $wanted is not available; building $version instead"
prefix=$CACHE/$version
rm -rf "$prefix"
srcdir=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name "postgresql-$major*" | head -n 1)
if [ -z "$srcdir" ] || [ ! -f "$srcdir/configure" ]; then
	log "no unpacked source tree in $work/src"
	exit 1
fi

# --- configure, build, install -------------------------------------------------
# The server, PL/pgSQL (the oracle), pg_regress, PGXS and CONTRIB.  Debian's
# patches put the module directory at /usr/lib/postgresql/MAJOR/lib unless
# libdir names "postgres" (50-per-version-dirs), so libdir is given; and
# the install goes to a staging directory (DESTDIR) first, so that nothing
# can land in the system's installation whatever a patch hard-codes: it
# fails if anything is installed outside the prefix.  The staged prefix is
# renamed when complete, so an interrupted build is never mistaken for a
# cached one.
tmpprefix=$prefix.tmp
stage=$work/stage
rm -rf "$tmpprefix" "$stage"

build() {
	local stray
	cd "$srcdir" || return 1
	echo "== configure"
	./configure --prefix="$tmpprefix" --libdir="$tmpprefix/lib/postgresql" \
		"${CONFIGURE_FLAGS[@]}" CFLAGS="-O2 -g" || return 1
	echo "== make"
	nice -n 19 make -j"$JOBS" -s || return 1
	echo "== make install (staged)"
	make -s install DESTDIR="$stage" || return 1
	for m in "${CONTRIB[@]}"; do
		echo "== contrib/$m"
		nice -n 19 make -C "contrib/$m" -s || return 1
		make -C "contrib/$m" -s install DESTDIR="$stage" || return 1
	done
	stray=$(find "$stage" ! -type d | grep -vF "$stage$tmpprefix/") || true
	if [ -n "$stray" ]; then
		echo "installed outside the prefix:"
		echo "$stray"
		return 1
	fi
}
if ! build >>"$buildlog" 2>&1; then
	log "build failed; last lines of $buildlog:"
	tail -n 30 "$buildlog" >&2
	exit 1
fi
# The binaries find their libraries and share directory relative to
# themselves (and use the system's libpq: no rpath), so the prefix can be
# moved and copied after installing.
mv "$stage$tmpprefix" "$prefix"
echo "$version $RECIPE" >"$prefix/.complete"
echo "$version" >"$CACHE/$wanted.source"
rm -rf "$work"
log "built $prefix"
echo "$prefix"
