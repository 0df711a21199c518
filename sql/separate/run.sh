#!/bin/sh
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# sql/separate/run.sh NAME: run sql/separate/NAME.sql in a session of its
# own, for the test scripts whose statements once crashed a backend or
# looped in one (a test runs it with psql's \! and then reconnects with \c).
#
# The second session connects to the test's database (the calling script
# sets PGDATABASE with \setenv; pg_regress sets PGHOST and PGPORT), echoes
# its input as pg_regress's psql does, and its output lands in the test's
# output.  If its backend crashes, the postmaster ends every session and
# restarts: this script then waits until the server accepts connections
# again, so that the calling script's \c finds it up and its own output
# shows the difference instead of ending.  A session that does not end
# within two minutes is stopped (its output then shows that too).
#
# The file must work under both languages unchanged: the oracle run does
# not rewrite it, so it names no plnimble.* setting.

name=$1
timeout 120 psql -X -a -q <"sql/separate/$name.sql" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
	echo "(the second session ended with status $status)"
fi
# (pg_isready does not wait while the server is recovering: ask again)
tries=0
until pg_isready -q >/dev/null 2>&1; do
	tries=$((tries + 1))
	if [ "$tries" -ge 120 ]; then
		echo "(the server is not accepting connections)"
		break
	fi
	sleep 1
done
exit 0
