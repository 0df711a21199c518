#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# sql/separate/profiler_shared.sh: the profiler's shared-memory mode, run
# by sql/profiler_shared.sql with psql's \! (from the repository root).
#
# The test's own server does not preload plnimble, so this starts a second
# throwaway cluster (scripts/lib.sh's pln_cluster_start: a socket in a
# temporary directory, no TCP) with shared_preload_libraries = 'plnimble'
# and plnimble.profiler_max_statements = 100, on the binaries of the
# server under test: its pg_config view names their directory, which is
# the private copy or the assertion-enabled one in the --cassert lane.
# Several sessions then run against it, their input echoed as pg_regress's
# psql does; everything they print lands in the test's output.  The
# cluster is stopped and its directory removed however the script ends
# (lib.sh's EXIT trap; sql/profiler_shared.sql runs it under timeout, and
# every psql here has a timeout of its own).

unset PLN_CLUSTER_DIR PLN_SERVER_LOG_COPY

# The test's server: where are its binaries?
bindir=$(timeout 60 psql -X -q -A -t -c "SELECT setting FROM pg_config WHERE name = 'BINDIR'")
if [ -z "$bindir" ] || [ ! -x "$bindir/postgres" ]; then
	echo "(no server binaries found: '$bindir')"
	exit 0
fi
export PLN_PGBIN=$bindir
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

export PLN_CLUSTER_CONF="shared_preload_libraries = 'plnimble'
plnimble.profiler_max_statements = 100"
log=$(mktemp "${TMPDIR:-/tmp}/plnimble-profshared.XXXXXX") || exit 0
# shellcheck disable=SC2119 # default port
if ! pln_cluster_start 2>"$log"; then
	echo "(the second cluster did not start)"
	cat "$log"
	rm -f "$log"
	exit 0
fi
rm -f "$log"
dir=$PLN_CLUSTER_DIR
inner=$(timeout 60 psql -X -q -A -t -d postgres -c "SELECT setting FROM pg_config WHERE name = 'BINDIR'")
if [ "$inner" = "$bindir" ]; then
	echo "the second cluster runs the binaries of the server under test"
else
	echo "(the second cluster runs '$inner', the server under test '$bindir')"
fi

# session [psql options]: one session on the second cluster, input on stdin
session() {
	timeout 60 psql -X -a -q -d postgres "$@" 2>&1
	local status=$?
	[ "$status" -eq 0 ] || echo "(the session ended with status $status)"
}

echo "-- session 1: a superuser sets up, profiles f(3)"
session <<'EOF'
SHOW shared_preload_libraries;
CREATE EXTENSION plnimble;
CREATE ROLE prof_reader LOGIN;
CREATE FUNCTION f(n int) RETURNS int LANGUAGE plnimble AS $$
DECLARE
  s int := 0;
BEGIN
  FOR i IN 1..n LOOP
    BEGIN
      s := s + 10 / (i - 2);
    EXCEPTION WHEN division_by_zero THEN
      s := s - 1;
    END;
  END LOOP;
  RETURN s;
END
$$;
SET plnimble.profiler = on;
SELECT f(3);
EOF

echo "-- session 2: another session profiles f(2)"
session <<'EOF'
SET plnimble.profiler = on;
SELECT f(2);
EOF

# (no NOTICE that profiles are counted per session: they are not)
echo "-- session 3: an ordinary user, profiler off, sees both sessions' counts"
session -U prof_reader <<'EOF'
SHOW plnimble.profiler;
SELECT lineno, exec_stmts, exec_stmts_err, savepoints_started,
       savepoints_avoided, source
  FROM plnimble_profiler_function_tb('f(int)') ORDER BY lineno;
SELECT funcoid, exec_count, exec_err, exec_stmts, savepoints_started,
       savepoints_avoided
  FROM plnimble_profiler_functions_all();
-- resetting the shared counters needs a superuser
SELECT plnimble_profiler_reset_all();
SELECT plnimble_profiler_reset('f(int)');
SELECT sum(exec_stmts) FROM plnimble_profiler_function_tb('f(int)');
EOF

echo "-- session 4: a function with more statements than the table has room for"
session <<'EOF'
-- (121 statements, made by a DO block so that they are not echoed)
DO $$
BEGIN
  EXECUTE format('CREATE FUNCTION big() RETURNS int LANGUAGE plnimble AS %L',
                 E'DECLARE x int := 0;\nBEGIN\n'
                 || repeat(E'  x := x + 1;\n', 120) || E'  RETURN x;\nEND\n');
END
$$;
SET plnimble.profiler = on;
-- a WARNING, once per session
SELECT big();
SELECT big();
-- the statements that found room were counted, the others not
SELECT count(*) FILTER (WHERE exec_stmts = 2) AS counted,
       count(*) FILTER (WHERE exec_stmts = 0) AS not_counted
  FROM plnimble_profiler_function_statements_tb('big()');
SELECT sum(exec_stmts) FROM plnimble_profiler_function_tb('f(int)');
-- a superuser may reset: the table is empty, and has room again
SELECT plnimble_profiler_reset_all();
SELECT count(*) FROM plnimble_profiler_functions_all();
SELECT f(1);
SELECT funcoid, exec_count, exec_stmts FROM plnimble_profiler_functions_all();
EOF

pln_check_server_log "$PLN_SERVER_LOG"
pln_cluster_stop
if [ -e "$dir" ]; then
	echo "(the second cluster's directory is still there)"
else
	echo "the second cluster is stopped and removed"
fi
exit 0
