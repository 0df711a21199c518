#!/bin/sh
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# sql/separate/adopt_app.sh install|remove: puts the files of the test
# extension regress_adopt_queue (sql/separate/adopt_app/) into the share/
# extension directory of the server under test, or takes them away again;
# run by sql/adopt_app.sql with psql's \! (from the repository root, with
# PGDATABASE set).  The directory is found through the server's pg_config
# view, so the --cassert and --lazy-check lanes use their own.  Where it
# is not writable (the system's installation), sudo -n is tried, as
# scripts/lib.sh's make install does.

files="regress_adopt_queue.control regress_adopt_queue--1.0.sql regress_adopt_queue--1.0--1.1.sql
	regress_adopt_queue--1.1--1.2.sql"
sharedir=$(timeout 60 psql -X -q -A -t -c "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'")
dir=$sharedir/extension
if [ -z "$sharedir" ] || [ ! -d "$dir" ]; then
	echo "(no share/extension directory found: '$dir')"
	exit 0
fi
as_owner() {
	if [ -w "$dir" ]; then
		"$@"
	else
		sudo -n "$@"
	fi
}
case $1 in
install)
	for f in $files; do
		as_owner cp "sql/separate/adopt_app/$f" "$dir/$f" || {
			echo "(could not copy $f into the server's share/extension)"
			exit 0
		}
	done
	echo "the test extension's files are in the server's share/extension"
	;;
remove)
	for f in $files; do
		as_owner rm -f "$dir/$f"
	done
	echo "the test extension's files are removed"
	;;
esac
