#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/check-compare.sh: plnimble_check_function side by side with
# plpgsql_check.
#
# Usage: bash scripts/check-compare.sh
#
# Creates every function of scripts/check-compare/functions.sql twice, in
# schema pg as PL/pgSQL and in schema nb as plnimble, and checks the first
# with plpgsql_check_function_tb and the second with
# plnimble_check_function_tb (fatal_errors off; trigger functions with relid
# cmp_t).  A function passes when every error plpgsql_check reports is
# reported by plnimble at the same line with the same SQLSTATE (of several
# at one line, plpgsql_check's first: the later ones are its consequences).  The
# differences (plnimble's extra errors too) are printed; the last line is
# "N passed, M failed" (N, M: functions).
#
# plpgsql_check (Debian package postgresql-15-plpgsql-check) must be in
# the PostgreSQL installation that PLN_PGBIN names.  If it is not: for a
# private copy (not under /usr/lib/postgresql) its files are taken from the
# package, downloaded with apt-get download; for the system installation it
# is installed with apt-get only when PLN_CI=1 (as .ci/run sets), since
# others' tests share that installation.

set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

mkdir -p results
pln_install_plpgsql_check || { echo "0 passed, 1 failed"; exit 1; }
pln_build_install || { echo "0 passed, 1 failed"; exit 1; }
pln_cluster_start "${PLN_PORT:-5433}" || { echo "0 passed, 1 failed"; exit 1; }

psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql_q -d postgres -c "CREATE DATABASE cmp" || exit 1
psql_q -d cmp <<'EOF' || { echo "0 passed, 1 failed"; exit 1; }
CREATE EXTENSION plpgsql_check;
CREATE EXTENSION plnimble;
CREATE TABLE cmp_t (a int, b text);
CREATE SCHEMA pg;
CREATE SCHEMA nb;
EOF

# the same text in both schemas, with the language swapped for nb
{ echo "SET search_path = pg, public;"; cat scripts/check-compare/functions.sql; } |
	psql_q -d cmp || exit 1
{ echo "SET search_path = nb, public;"; sed 's/LANGUAGE plpgsql/LANGUAGE plnimble/' scripts/check-compare/functions.sql; } |
	psql_q -d cmp || exit 1

psql -X -d cmp -v ON_ERROR_STOP=1 -At -F ' | ' <<'EOF' >results/check-compare.txt
CREATE TEMP TABLE found AS
SELECT 'pg' AS checker, p.proname::text AS fn, t.lineno, t.sqlstate, t.level,
       t.message, t.n
  FROM pg_proc p,
       plpgsql_check_function_tb(p.oid::regprocedure,
                                 CASE WHEN p.prorettype = 'trigger'::regtype
                                      THEN 'cmp_t'::regclass ELSE 0 END,
                                 fatal_errors := false)
           WITH ORDINALITY AS t(functionid, lineno, statement, sqlstate, message,
                                detail, hint, level, "position", query, context, n)
 WHERE p.pronamespace = 'pg'::regnamespace
UNION ALL
SELECT 'nb', p.proname::text, t.lineno, t.sqlstate, t.level, t.message, t.n
  FROM pg_proc p,
       plnimble_check_function_tb(p.oid::regprocedure,
                                  CASE WHEN p.prorettype = 'trigger'::regtype
                                       THEN 'cmp_t'::regclass ELSE 0 END,
                                  fatal_errors := false)
           WITH ORDINALITY AS t(functionid, lineno, statement, sqlstate, message,
                                detail, hint, level, "position", query, context, n)
 WHERE p.pronamespace = 'nb'::regnamespace;
-- plpgsql_check's errors that follow another error at the same line (its
-- internal "there are no plan for query", "cached plan is not valid plan",
-- and "query does not return data" after a query that failed) are
-- consequences of the first; only the first one at a line is compared
CREATE TEMP VIEW primary_pg AS
SELECT * FROM found g
 WHERE checker = 'pg' AND level = 'error'
   AND NOT EXISTS (SELECT FROM found e
                    WHERE e.checker = 'pg' AND e.level = 'error' AND e.fn = g.fn
                      AND e.lineno IS NOT DISTINCT FROM g.lineno AND e.n < g.n);
-- every finding, for reading
SELECT 'finding', checker, fn, coalesce(lineno::text, '-'), sqlstate, level, message
  FROM found ORDER BY fn, checker, lineno NULLS FIRST, sqlstate;
-- plpgsql_check's errors that plnimble does not report (line, SQLSTATE)
SELECT 'missed', fn, coalesce(lineno::text, '-'), sqlstate, message
  FROM primary_pg g
 WHERE NOT EXISTS (SELECT FROM found n
                    WHERE n.checker = 'nb' AND n.level = 'error' AND n.fn = g.fn
                      AND n.lineno IS NOT DISTINCT FROM g.lineno
                      AND n.sqlstate = g.sqlstate)
 ORDER BY fn;
-- plnimble's errors that plpgsql_check does not report
SELECT 'extra', fn, coalesce(lineno::text, '-'), sqlstate, message
  FROM found n
 WHERE checker = 'nb' AND level = 'error'
   AND NOT EXISTS (SELECT FROM found g
                    WHERE g.checker = 'pg' AND g.level = 'error' AND g.fn = n.fn
                      AND g.lineno IS NOT DISTINCT FROM n.lineno
                      AND g.sqlstate = n.sqlstate)
 ORDER BY fn;
SELECT 'summary',
       (SELECT count(*) FROM pg_proc WHERE pronamespace = 'pg'::regnamespace),
       (SELECT count(DISTINCT fn) FROM primary_pg g
         WHERE NOT EXISTS (SELECT FROM found n
                            WHERE n.checker = 'nb' AND n.level = 'error' AND n.fn = g.fn
                              AND n.lineno IS NOT DISTINCT FROM g.lineno
                              AND n.sqlstate = g.sqlstate));
EOF
rc=$?
grep -E '^(missed|extra) ' results/check-compare.txt
if [ $rc -ne 0 ]; then
	echo "0 passed, 1 failed"
	exit 1
fi
read -r total failed < <(awk -F ' [|] ' '$1 == "summary" { print $2, $3 }' results/check-compare.txt)
echo "findings in results/check-compare.txt"
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
