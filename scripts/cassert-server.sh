#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/cassert-server.sh: build PostgreSQL 15 or 18 with assertions, cached.
#
# Usage: bash scripts/cassert-server.sh [15|18]   (prints the prefix on stdout)
#
# Builds PostgreSQL MAJOR (15 unless given) from Debian's own source
# package, configured with --enable-cassert --enable-debug, and installs
# it into
#     $PLN_CASSERT_CACHE/<version>     (default /var/cache/plnimble/pg15-cassert-checked,
#                                       /var/cache/plnimble/pg18-cassert)
# 15 is the wrapped server: its postgres binary is linked once more with
# scripts/server-access-check/server_access_check.c (our own file; no line
# of PostgreSQL's source is edited) and -Wl,--wrap=NAME for each entry
# point it wraps (catalog caches and scans, relation cache, buffer reads,
# heavyweight locks, SPI connections, snapshot registration), and
# server_access_check.h is installed with its headers: plnimble built with
# PLN_SERVER_CHECK=1 sets the hook (docs/design.md, "The checking build").
# The checksum of those files is part of the cache key.
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
# 15 is the wrapped server (see the header): a cache directory of its own,
# so that a prefix built before the wrappers is never taken for one.
case $major in
15) CACHE=${PLN_CASSERT_CACHE:-/var/cache/plnimble/pg15-cassert-checked} ;;
18) CACHE=${PLN_CASSERT_CACHE:-/var/cache/plnimble/pg18-cassert} ;;
esac
JOBS=${PLN_CASSERT_JOBS:-2}
# The wrapped entry points (15 only): our own source, linked into the
# server; its checksum is part of the cache key.
CHECKDIR=$(cd "$(dirname "$0")/server-access-check" && pwd)
CHECK_FILES=(server_access_check.c server_access_check.h)
# How the server is configured (ICU as in Debian's build: the suite uses
# ICU collations).  Part of the cache key, with the source version.
CONFIGURE_FLAGS=(--enable-cassert --enable-debug --disable-rpath --with-icu
	--without-readline --with-zlib)
# The contrib modules the test suite uses (write_path_keys: citext;
# write_path_tables: file_fdw and btree_gist), built and installed with the
# server.
CONTRIB=(citext file_fdw btree_gist)
RECIPE="${CONFIGURE_FLAGS[*]} contrib: ${CONTRIB[*]}"
if [ "$major" = 15 ]; then
	RECIPE="$RECIPE server-access-check: $(cd "$CHECKDIR" && cat "${CHECK_FILES[@]}" | sha256sum | cut -c1-16)"
fi

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

# The wrapped server (15): compile server_access_check.c in the configured
# tree (the backend's own compiler flags) and link the postgres binary once
# more, with it and one -Wl,--wrap=NAME per wrapper it defines.  Nothing of
# PostgreSQL's source is edited.  The binary is checked: every wrapper and
# the hook variable must be in its dynamic symbol table (extensions, and
# so plnimble, find the hook there).
wrapped=()
link_wrapped_server() {
	local n wraps=()
	mapfile -t wrapped < <(sed -n 's/^WRAP([^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' \
		"$CHECKDIR/server_access_check.c")
	[ ${#wrapped[@]} -gt 0 ] || { echo "no wrappers in server_access_check.c"; return 1; }
	for n in "${wrapped[@]}"; do
		wraps+=("-Wl,--wrap=$n")
	done
	echo "== server-access-check: ${wrapped[*]}"
	cp "${CHECK_FILES[@]/#/$CHECKDIR/}" src/backend/ || return 1
	make -C src/backend -s server_access_check.o || return 1
	rm -f src/backend/postgres
	make -C src/backend -s postgres \
		LDFLAGS_EX="server_access_check.o ${wraps[*]}" || return 1
	check_wrapped_binary src/backend/postgres
}
check_wrapped_binary() {
	local n syms
	syms=$(nm -D --defined-only "$1") || return 1
	for n in "${wrapped[@]/#/__wrap_}" server_access_check_hook; do
		grep -qE " $n\$" <<<"$syms" || { echo "$1 lacks $n"; return 1; }
	done
}
# After the install: the installed binary is the wrapped one (installed
# again, so that a relink by make install could not lose the wrappers),
# and the header goes next to the server's headers.
install_wrapped_server() {
	local inc
	install -m 755 src/backend/postgres "$stage$tmpprefix/bin/postgres" || return 1
	check_wrapped_binary "$stage$tmpprefix/bin/postgres" || return 1
	inc=$(find "$stage$tmpprefix/include" -path '*/server/utils/catcache.h' | head -n 1)
	[ -n "$inc" ] || { echo "no server headers in the staged install"; return 1; }
	install -m 644 "$CHECKDIR/server_access_check.h" "$(dirname "$(dirname "$inc")")/" || return 1
}

build() {
	local stray
	cd "$srcdir" || return 1
	echo "== configure"
	./configure --prefix="$tmpprefix" --libdir="$tmpprefix/lib/postgresql" \
		"${CONFIGURE_FLAGS[@]}" CFLAGS="-O2 -g" || return 1
	echo "== make"
	nice -n 19 make -j"$JOBS" -s || return 1
	if [ "$major" = 15 ]; then
		link_wrapped_server || return 1
	fi
	echo "== make install (staged)"
	make -s install DESTDIR="$stage" || return 1
	if [ "$major" = 15 ]; then
		install_wrapped_server || return 1
	fi
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
