#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/check-layers.sh: calls run downward between the layers of src/.
#
# Usage: bash scripts/check-layers.sh      (after a build: reads the .o files)
#
# The layers, highest first (src/README.md):
#     entry > tools > exec > write > lazy > compile > compat
# (grammar/ belongs to compile).  A layer may use the functions and
# variables of the layers below it and of its own; a use of a symbol
# defined in a higher layer is an upward call.  It is found in the object
# files (nm): a symbol one object leaves undefined and another defines.
# Upward uses that go through a documented callback do not show here: a
# call through a function pointer has no symbol.  An upward use listed in
# src/layers-known.txt ("caller-object symbol", one a line) is reported
# but allowed: that list only shrinks.  Prints each upward use, then
# "N passed, M failed" (one check: no unlisted upward use; a listed use
# that no longer exists is a failure too, so that the list stays true).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export LC_ALL=C

known=src/layers-known.txt
objs=$(ls grammar/*.o src/*/*.o 2>/dev/null | grep -v 'lazy_check\.o$')
if [ -z "$objs" ]; then
	echo "check-layers: no object files; build first (make)"
	echo "0 passed, 1 failed"
	exit 1
fi

rank() {
	case $1 in
	src/compat/*) echo 0 ;;
	grammar/* | src/compile/*) echo 1 ;;
	src/lazy/*) echo 2 ;;
	src/write/*) echo 3 ;;
	src/exec/*) echo 4 ;;
	src/tools/*) echo 5 ;;
	src/entry/*) echo 6 ;;
	*) echo 9 ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in $objs; do
	r=$(rank "$o")
	nm --defined-only "$o" | awk -v o="$o" -v r="$r" '$2 ~ /^[TDBR]$/ { print $3, o, r }'
done | sort >"$tmp/defs"
for o in $objs; do
	r=$(rank "$o")
	nm --undefined-only "$o" | awk -v o="$o" -v r="$r" '{ print $2, o, r }'
done | sort >"$tmp/uses"
# symbol user user-rank definer definer-rank, for upward uses only
join "$tmp/uses" "$tmp/defs" | awk '$3 < $5 { print $2, $1, "(defined in " $4 ")" }' |
	sort -u >"$tmp/up"

failed=0
while read -r user sym rest; do
	if grep -qxF "$user $sym" "$known" 2>/dev/null; then
		echo "known upward use: $user -> $sym $rest"
	else
		echo "UPWARD USE: $user -> $sym $rest"
		failed=1
	fi
done <"$tmp/up"
if [ -f "$known" ]; then
	grep -v '^#' "$known" | grep -v '^$' | while read -r user sym; do
		grep -q "^$user $sym " "$tmp/up" || echo "STALE in $known: $user $sym"
	done >"$tmp/stale"
	if [ -s "$tmp/stale" ]; then
		cat "$tmp/stale"
		failed=1
	fi
fi
echo "check-layers: $(wc -l <"$tmp/up") upward uses, $(grep -cv -e "^#" -e "^$" "$known" 2>/dev/null) listed in $known"
if [ $failed -eq 0 ]; then
	echo "1 passed, 0 failed"
else
	echo "0 passed, 1 failed"
	exit 1
fi
