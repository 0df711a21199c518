-- The profiler's shared-memory mode (plnimble in shared_preload_libraries):
-- counters for all sessions, read by an ordinary user from another
-- session; the WARNING, once per session, when the fixed-size table is
-- full; the reset refused to a non-superuser and allowed to a superuser.
-- It needs a server that preloads plnimble, so sql/separate/
-- profiler_shared.sh starts a second throwaway cluster on the same
-- binaries and stops it again; its output follows.  (Per session, without
-- preloading, is in sql/profiler.sql.)
-- plnimble-only (listed in oracle-allowlist.txt): the oracle database has
-- no plnimble, and the second cluster runs only on plnimble.

SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'plnimble') AS have_plnimble \gset
\if :have_plnimble
\! timeout 240 bash sql/separate/profiler_shared.sh
\else
\echo 'no plnimble in this database: the second cluster is not started'
\endif
