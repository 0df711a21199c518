#!/bin/sh
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/installcheck-launcher.sh: pg_regress's --launcher for `make
# installcheck` (see the Makefile).
#
# pg_regress runs every script of REGRESS as
#     LAUNCHER PSQL -X -a -q -d DB ... < sql/NAME.sql > results/NAME.out
# in the one database DB.  The scripts of sql/ each expect a database of
# their own in which the language named plpgsql runs on plnimble (as
# scripts/test.sh gives them).  So this runs PSQL with its arguments
# unchanged except for DB: a new database DB_PID, created from template1,
# set up by scripts/as-plpgsql.sql, and dropped again afterwards.  Set-up
# errors land in the test's output, where pg_regress shows them as a diff.

psql=$1
shift
here=$(cd "$(dirname "$0")" && pwd)

db=
prev=
for arg in "$@"; do
	[ "$prev" = -d ] && db=$arg
	prev=$arg
done
if [ -z "$db" ]; then
	echo "installcheck-launcher: no -d DB in: $*" >&2
	exit 2
fi
own=${db}_$$

# Replace the argument after -d with our database.
n=$#
i=0
prev=
while [ "$i" -lt "$n" ]; do
	arg=$1
	shift
	if [ "$prev" = -d ]; then
		set -- "$@" "$own"
	else
		set -- "$@" "$arg"
	fi
	prev=$arg
	i=$((i + 1))
done

# Our own statements print only warnings and errors.
quiet() {
	PGOPTIONS="${PGOPTIONS:+$PGOPTIONS }-c client_min_messages=warning" \
		"$psql" -X -q -v ON_ERROR_STOP=1 "$@" </dev/null >/dev/null
}

quiet -d "$db" -c "DROP DATABASE IF EXISTS \"$own\"" \
	-c "CREATE DATABASE \"$own\" TEMPLATE template1" || exit 2
if ! quiet -1 -d "$own" -f "$here/as-plpgsql.sql"; then
	quiet -d "$db" -c "DROP DATABASE IF EXISTS \"$own\""
	exit 2
fi

rc=0
"$psql" "$@" || rc=$?
quiet -d "$db" -c "DROP DATABASE IF EXISTS \"$own\" WITH (FORCE)"
exit "$rc"
