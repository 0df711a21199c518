#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/accept.sh: accept plnimble's latest output as the expected output.
#
# Usage: bash scripts/accept.sh NAME...
#
# Copies results/regress/results/NAME.out, written by the last
# `bash scripts/test.sh` run, to expected/NAME.out.  Meant for scripts in
# sql/oracle-allowlist.txt, whose plnimble output knowingly differs from
# PL/pgSQL's; for all others generate expected/ with
# scripts/oracle-expected.sh instead.  Review with git diff before committing.

set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
	echo "usage: bash scripts/accept.sh NAME..." >&2
	exit 2
fi
# The results are of the server version the last test.sh run used
# (results/server_version): for another version than 15 they go to
# expected/pgVERSION/, and only where they differ from expected/NAME.out.
version=$(cat results/server_version 2>/dev/null || echo 15)
outdir=expected
[ "$version" != 15 ] && outdir=expected/pg$version
status=0
for arg in "$@"; do
	name=$(basename "$arg" .sql)
	src=results/regress/results/$name.out
	if [ ! -f "$src" ]; then
		echo "no $src: run 'bash scripts/test.sh $name' first" >&2
		status=1
		continue
	fi
	if ! grep -qE "^[[:space:]]*${name}[[:space:]]*:" sql/oracle-allowlist.txt 2>/dev/null; then
		echo "note: $name is not in sql/oracle-allowlist.txt" >&2
	fi
	if [ "$outdir" != expected ] && cmp -s "$src" "expected/$name.out"; then
		rm -f "$outdir/$name.out"
		echo "$src is expected/$name.out: no $outdir/$name.out"
		continue
	fi
	mkdir -p "$outdir"
	cp "$src" "$outdir/$name.out"
	echo "accepted $src (PostgreSQL $version) -> $outdir/$name.out"
done
exit "$status"
