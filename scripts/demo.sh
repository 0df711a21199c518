#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# scripts/demo.sh: a two-minute look at plnimble next to PL/pgSQL.
#
# Usage: bash scripts/demo.sh [--pg VERSION]     (VERSION: 15, 17, 18, 19)
#
# Installs missing build dependencies, builds and installs plnimble, starts
# a throwaway PostgreSQL cluster (15, the machine's own, or VERSION's in
# its chroot: scripts/in-pg.sh), and creates a database that has both
# languages (the real plpgsql and plnimble).  The same three functions are
# created in each language, then called; one table shows both languages'
# results and elapsed times side by side.  Timings are whatever they are:
# only an error (a failing query, build or set-up) makes this script fail.
# The cluster is stopped and removed at the end.

set -euo pipefail
cd "$(dirname "$0")/.."
# --pg VERSION: the same on another major version, inside its chroot
# (scripts/in-pg.sh; 15 is the machine's own).
if [ "${1:-}" = --pg ] && [ "${2:-15}" != 15 ] && [ -z "${PLN_IN_PG:-}" ]; then
	exec bash scripts/in-pg.sh "$2" bash scripts/demo.sh
fi
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

pln_install_deps
pln_build_install
# shellcheck disable=SC2119 # default port
pln_cluster_start
createdb demo

echo
echo "== plnimble demo on $(psql -X -A -t -d demo -c 'SELECT version()')"
psql -X -q -v ON_ERROR_STOP=1 -d demo <<'SQL'
\pset footer off
\pset null '(null)'

CREATE EXTENSION plnimble;

\echo
\echo 'Both languages are installed in this database:'
SELECT lanname AS language, lanplcallfoid::regproc AS call_handler
  FROM pg_language WHERE lanname IN ('plpgsql', 'plnimble') ORDER BY 1;

-- The same three function bodies, created once in schema nimble with
-- LANGUAGE plnimble and once in schema pgsql with LANGUAGE plpgsql.
CREATE SCHEMA nimble;
CREATE SCHEMA pgsql;
CREATE TABLE demo_function (name text, body text);
INSERT INTO demo_function VALUES
  ('add_one(i int) RETURNS int',
   'begin return i + 1; end'),
  ('safe_int(s text) RETURNS int',
   'begin return s::int; exception when invalid_text_representation then return null; end'),
  ('empty_blocks(n int) RETURNS int',
   'begin for k in 1..n loop begin null; exception when others then null; end; end loop; return n; end');

\echo
\echo 'The functions (identical text in both languages):'
SELECT name AS "function", body FROM demo_function;

SELECT format('CREATE FUNCTION %s.%s LANGUAGE %s AS %L', l.schema, f.name, l.lang, f.body)
  FROM demo_function f,
       (VALUES ('nimble', 'plnimble'), ('pgsql', 'plpgsql')) AS l(schema, lang)
\gexec

-- timed(query): run query three times; return the elapsed milliseconds
-- of the fastest run, measured with clock_timestamp().  Written in the
-- real PL/pgSQL so that it measures both languages the same way.
CREATE FUNCTION timed(query text) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  ms numeric;
BEGIN
  FOR run IN 1..3 LOOP
    t0 := clock_timestamp();
    EXECUTE query;
    ms := least(ms, extract(epoch FROM clock_timestamp() - t0) * 1000);
  END LOOP;
  RETURN ms;
END
$$;

-- result_of(query): the value query returns, as text.
CREATE FUNCTION result_of(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN result;
END
$$;

-- Warm up: compile every function once, so the timings below show
-- execution only.
SELECT nimble.add_one(0), nimble.safe_int('0'), nimble.empty_blocks(1),
       pgsql.add_one(0), pgsql.safe_int('0'), pgsql.empty_blocks(1) \gset warm_

-- One call of add_one or safe_int takes about a microsecond, far below
-- what a single measurement can resolve, so each is called n times from
-- one query (SELECT count(f(...)) FROM generate_series(1, n)) and the
-- time divided by n.  One call of empty_blocks(200000) is long enough on
-- its own.
\echo
\echo 'Side by side: time per call, from the fastest of three runs of n calls'
SELECT c.call,
       n_result.v AS plnimble,
       p_result.v AS plpgsql,
       c.n,
       to_char(n.ms * 1000 / c.n, 'FM999999990.00') || ' us' AS "plnimble per call",
       to_char(p.ms * 1000 / c.n, 'FM999999990.00') || ' us' AS "plpgsql per call",
       CASE WHEN n.ms > 0 THEN to_char(p.ms / n.ms, 'FM999990.0') || 'x' END
         AS "plnimble speed-up"
  FROM (VALUES (1, 'add_one(41)', 200000),
               (2, 'safe_int(''42'')', 200000),
               (3, 'safe_int(''forty-two'')', 100000),
               (4, 'empty_blocks(200000)', 1)) AS c(ord, call, n)
       CROSS JOIN LATERAL (SELECT timed(format(
           'SELECT count(nimble.%s) FROM generate_series(1, %s)', c.call, c.n)) AS ms) AS n
       CROSS JOIN LATERAL (SELECT timed(format(
           'SELECT count(pgsql.%s) FROM generate_series(1, %s)', c.call, c.n)) AS ms) AS p
       CROSS JOIN LATERAL result_of('SELECT nimble.' || c.call) AS n_result(v)
       CROSS JOIN LATERAL result_of('SELECT pgsql.' || c.call) AS p_result(v)
 ORDER BY c.ord;
SQL

echo "empty_blocks(200000) enters 200000 BEGIN ... EXCEPTION blocks.  PL/pgSQL opens"
echo "a subtransaction for each; plnimble opens one only when a block is about to"
echo "touch database state (lazy savepoints, docs/design.md), so these cost it"
echo "almost nothing, and safe_int() catches bad input without a subtransaction."
echo "Each time is per call: the fastest of three runs of n calls (the n column),"
echo "divided by n, on whatever else this machine is doing.  docs/benchmarks.md has"
echo "the measured ratios, with medians over many repetitions and instruction counts."
pln_cluster_stop
