# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# shellcheck shell=bash
# scripts/lib.sh: shell functions shared by plnimble's scripts.
#
# Source it, do not run it:   source scripts/lib.sh
# Used by scripts/test.sh, scripts/demo.sh, scripts/oracle-expected.sh and
# bench/.  The functions below are an interface that bench/ relies on: keep
# their names, arguments and exported variables stable.
#
#   pln_install_deps        apt-get the build dependencies, only if missing
#   pln_build_install       make -j2 && make install; shows compiler warnings
#   pln_cluster_start [PORT]
#                           initdb and start a throwaway server (unix socket
#                           only); exports PGHOST PGPORT PGUSER PGDATABASE
#                           PLN_CLUSTER_DIR PLN_SERVER_LOG; an EXIT trap
#                           stops it and deletes its directory;
#                           PLN_CLUSTER_CONF, if set, holds more
#                           postgresql.conf lines
#   pln_cluster_stop        stop that server and delete its directory
#   pln_make_templates      create template databases plnimble_tpl (the
#                           language named plpgsql runs on plnimble) and
#                           oracle_tpl (the language named plnimble runs on
#                           the real PL/pgSQL)
#   pln_install_plpgsql_check
#                           plpgsql_check into that installation (see below)
#   pln_check_server_log    non-zero, printing the lines, if the server log
#                           shows a backend crash, a failed assertion, a
#                           lazy-check report or a resource leak
#
# Further pln_* helpers near the end run one regression script through
# pg_regress; they are used by test.sh and oracle-expected.sh.
#
# All functions return non-zero on failure instead of exiting, so they work
# with or without `set -e` in the caller.  Settings that may be overridden
# from the environment: PLN_PG_VERSION, PLN_PGBIN, PLN_PORT, PLN_TIMEOUT,
# PLN_WERROR, PLN_LAZY_CHECK (1: the checking build, see
# src/lazy/lazy_check.c),
# PLN_SERVER_LOG_COPY (see below).

# Repository root, wherever the caller's working directory is.
PLN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The PostgreSQL installation we build against and test with: Debian's
# layout of major version PLN_PG_VERSION (15, the machine's own, unless
# scripts/in-pg.sh runs us inside another version's chroot).
PLN_PG_VERSION=${PLN_PG_VERSION:-15}
PLN_PGBIN=${PLN_PGBIN:-/usr/lib/postgresql/$PLN_PG_VERSION/bin}
PLN_PG_CONFIG=$PLN_PGBIN/pg_config
PLN_PG_REGRESS=${PLN_PG_REGRESS:-/usr/lib/postgresql/$PLN_PG_VERSION/lib/pgxs/src/test/regress/pg_regress}
PATH=$PLN_PGBIN:$PATH
export PATH

# Seconds before a single psql or pg_regress run counts as hung.
PLN_TIMEOUT=${PLN_TIMEOUT:-300}

pln_log() { printf '%s\n' "$*" >&2; }

# pln_debian_mirror: the Debian mirror to fetch other suites from
# (scripts/pg-server.sh, scripts/cassert-server.sh 18): PLN_DEBIAN_MIRROR,
# else the first non-security URI of the machine's own apt sources, else
# deb.debian.org.
pln_debian_mirror() {
	local mirror=${PLN_DEBIAN_MIRROR:-}
	if [ -z "$mirror" ]; then
		mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
			sed -nE 's/^(URIs:|deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?(https?:[^[:space:]]+).*/\3/p' |
			grep -v security | head -n 1) || true
	fi
	echo "${mirror:-http://deb.debian.org/debian}"
}

# pln_machine_deb_src DIR: deb-src lines for the machine's own suites, for
# an apt pointed at DIR (scripts/cassert-server.sh, scripts/check-suite.sh):
# the deb entries of /etc/apt/sources.list.d/*.sources and of the *.list
# files, with deb turned into deb-src, written to DIR/sources.list.d/ and
# DIR/sources.list (which must exist).  Fails if there were none.
pln_machine_deb_src() {
	local dir=$1 f n=0
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		sed -E 's/^Types:.*/Types: deb-src/' "$f" >"$dir/sources.list.d/$(basename "$f")" || return 1
		n=$((n + 1))
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$dir/sources.list" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# Run a command as root: directly when we are root, through sudo otherwise.
pln_sudo() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}

# Run a command as the owner of the throwaway cluster.  PostgreSQL refuses
# to run as root, so root hands it to the `postgres` OS user; anybody else
# simply owns the cluster themselves.
_pln_as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# ---------------------------------------------------------------------------
# pln_install_deps: install server headers, bison and flex if any is missing.
# ---------------------------------------------------------------------------
pln_install_deps() {
	local missing=0
	local tool
	for tool in bison flex make gcc; do
		command -v "$tool" >/dev/null 2>&1 || missing=1
	done
	[ -x "$PLN_PGBIN/postgres" ] || missing=1
	[ -x "$PLN_PG_REGRESS" ] || missing=1
	if [ -x "$PLN_PG_CONFIG" ] &&
		"$PLN_PG_CONFIG" --pgxs >/dev/null 2>&1 &&
		[ -f "$("$PLN_PG_CONFIG" --pgxs)" ] &&
		[ -f "$("$PLN_PG_CONFIG" --includedir-server)/postgres.h" ]; then
		:
	else
		missing=1
	fi
	[ "$missing" -eq 0 ] && return 0

	pln_log "deps: installing postgresql-server-dev-$PLN_PG_VERSION, bison, flex (apt-get)"
	if ! pln_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null; then
		pln_log "deps: apt-get update failed"
		return 1
	fi
	if ! pln_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		"postgresql-$PLN_PG_VERSION" "postgresql-server-dev-$PLN_PG_VERSION" \
		bison flex make gcc >/dev/null; then
		pln_log "deps: apt-get install failed"
		return 1
	fi
}

# ---------------------------------------------------------------------------
# pln_build_install: build with PGXS and install into the server.
# The full log goes to results/build.log.  Compiler warnings are printed
# (deduplicated) even when the build succeeds; with PLN_WERROR=1 they make
# the build fail.  On failure the errors and the end of the log are printed.
# ---------------------------------------------------------------------------
pln_build_install() {
	local log=$PLN_ROOT/results/build.log
	local warnings nwarn

	# The objects depend on the server's headers and the link on the
	# checking build: switching either rebuilds everything.  (make clean
	# also removes results/, so it comes first.)
	local config="$PLN_PG_CONFIG lazy_check=${PLN_LAZY_CHECK:-0} server_check=${PLN_SERVER_CHECK:-0}"
	local stamp=$PLN_ROOT/.build-config
	local make_args=(PG_CONFIG="$PLN_PG_CONFIG")
	[ "${PLN_LAZY_CHECK:-0}" = 1 ] && make_args+=(PLN_LAZY_CHECK=1)
	[ "${PLN_SERVER_CHECK:-0}" = 1 ] && make_args+=(PLN_SERVER_CHECK=1)
	if [ "$(cat "$stamp" 2>/dev/null)" != "$config" ]; then
		make -C "$PLN_ROOT" "${make_args[@]}" clean >/dev/null 2>&1 || true
	fi
	echo "$config" >"$stamp"
	mkdir -p "$PLN_ROOT/results" || return 1

	if ! make -C "$PLN_ROOT" "${make_args[@]}" -j2 >"$log" 2>&1; then
		pln_log "build: FAILED (make), from $log:"
		if [ "$(wc -l <"$log")" -le 80 ]; then
			cat "$log" >&2
		else
			grep -E 'error|Error|\*\*\*|undefined reference' "$log" | head -n 60 >&2
			pln_log "--- last lines:"
			tail -n 20 "$log" >&2
		fi
		return 1
	fi

	# gcc, clang (bitcode), bison and ld say "...: warning: ...", flex
	# says "..., line N: warning, ...".
	warnings=$(grep -E 'warning[:,] ' "$log" | awk '!seen[$0]++') || true
	nwarn=0
	[ -n "$warnings" ] && nwarn=$(printf '%s\n' "$warnings" | wc -l)
	if [ "$nwarn" -gt 0 ]; then
		pln_log "build: $nwarn compiler warning(s) (context in $log):"
		printf '%s\n' "$warnings" >&2
		if [ "${PLN_WERROR:-0}" = 1 ]; then
			pln_log "build: FAILED (PLN_WERROR=1 and there are warnings)"
			return 1
		fi
	fi

	if ! pln_sudo make -C "$PLN_ROOT" "${make_args[@]}" install >>"$log" 2>&1; then
		pln_log "build: FAILED (make install); last lines of $log:"
		tail -n 30 "$log" >&2
		return 1
	fi
	pln_log "build: ok ($nwarn warning(s)), installed into $("$PLN_PG_CONFIG" --pkglibdir)"
}

# ---------------------------------------------------------------------------
# pln_cluster_start [PORT]: initdb and start a throwaway server.
# Listens on a unix socket inside its own temporary directory only (no TCP),
# so the port merely names the socket and never clashes with other servers.
# ---------------------------------------------------------------------------
pln_cluster_start() {
	local port=${1:-${PLN_PORT:-5433}}
	local dir

	if [ -n "${PLN_CLUSTER_DIR:-}" ]; then
		pln_log "cluster: already running in $PLN_CLUSTER_DIR"
		return 1
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/plnimble-cluster.XXXXXX") || return 1
	export PLN_CLUSTER_DIR=$dir
	export PLN_SERVER_LOG=$dir/server.log

	# Stop the server however the script ends.  This replaces any EXIT
	# trap the caller had; a caller needing its own should call
	# pln_cluster_stop from it.
	trap '_pln_on_exit' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP

	if [ "$(id -u)" -eq 0 ]; then
		chown postgres:postgres "$dir" || return 1
	fi

	if ! (cd "$dir" && _pln_as_pg "$PLN_PGBIN/initdb" -D "$dir/data" \
		-A trust -U postgres --no-locale -E UTF8 --no-sync) >"$dir/initdb.log" 2>&1; then
		pln_log "cluster: initdb failed:"
		cat "$dir/initdb.log" >&2
		return 1
	fi

	# Appended settings override initdb's defaults.
	cat >>"$dir/data/postgresql.conf" <<EOF

# --- throwaway test cluster, settings added by scripts/lib.sh ---
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
max_connections = 20
fsync = off
synchronous_commit = off
full_page_writes = off
log_line_prefix = '%m [%p] %q%d '
${PLN_CLUSTER_CONF:-}
EOF

	if ! (cd "$dir" && _pln_as_pg "$PLN_PGBIN/pg_ctl" -D "$dir/data" \
		-l "$PLN_SERVER_LOG" -w -t 60 start) >"$dir/pg_ctl.log" 2>&1; then
		pln_log "cluster: server did not start:"
		cat "$dir/pg_ctl.log" >&2
		tail -n 20 "$PLN_SERVER_LOG" >&2 2>/dev/null
		return 1
	fi

	export PGHOST=$dir
	export PGPORT=$port
	export PGUSER=postgres
	export PGDATABASE=postgres
	pln_log "cluster: running, socket in $dir, port $port, log $PLN_SERVER_LOG"
}

# EXIT trap: stop the cluster, keep the script's exit status.
_pln_on_exit() {
	local rc=$?
	pln_cluster_stop || true
	exit "$rc"
}

# ---------------------------------------------------------------------------
# pln_cluster_stop: stop the server and remove its directory.  Safe to call
# twice.  If PLN_SERVER_LOG_COPY names a file, the server log is copied
# there first.  Prints nothing unless something goes wrong.
# ---------------------------------------------------------------------------
pln_cluster_stop() {
	local dir=${PLN_CLUSTER_DIR:-}
	local pid
	[ -n "$dir" ] || return 0

	if [ -f "$dir/data/postmaster.pid" ]; then
		if ! (cd "$dir" && _pln_as_pg "$PLN_PGBIN/pg_ctl" -D "$dir/data" \
			-m fast -w -t 30 stop) >/dev/null 2>&1; then
			pln_log "cluster: fast shutdown failed, using immediate"
			(cd "$dir" && _pln_as_pg "$PLN_PGBIN/pg_ctl" -D "$dir/data" \
				-m immediate -w -t 30 stop) >/dev/null 2>&1 || true
		fi
		if [ -f "$dir/data/postmaster.pid" ]; then
			pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null)
			if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
				pln_log "cluster: killing postmaster $pid"
				kill -9 "$pid" 2>/dev/null || true
			fi
		fi
	fi

	if [ -n "${PLN_SERVER_LOG_COPY:-}" ] && [ -f "$dir/server.log" ]; then
		cp "$dir/server.log" "$PLN_SERVER_LOG_COPY" 2>/dev/null || true
	fi
	rm -rf "$dir"
	unset PLN_CLUSTER_DIR PLN_SERVER_LOG PGHOST PGPORT PGUSER PGDATABASE
	return 0
}

# ---------------------------------------------------------------------------
# pln_make_templates [plnimble] [oracle]: create the template databases
# (both when no argument is given).  Tests copy them with createdb -T.
#
#   plnimble_tpl  plnimble is installed and the real plpgsql removed; the
#                 language *named* plpgsql is re-created on plnimble's
#                 handlers, so LANGUAGE plpgsql and plain DO blocks run on
#                 plnimble without rewriting the test text.
#   oracle_tpl    the real plpgsql stays; a language *named* plnimble is
#                 created on plpgsql's handlers, so LANGUAGE plnimble runs
#                 on the real PL/pgSQL.  Needs no plnimble build at all.
#
# Because the source text is the same in both, error positions and carets
# in the output line up.
# ---------------------------------------------------------------------------
pln_make_templates() {
	local which=("$@")
	local w
	[ ${#which[@]} -gt 0 ] || which=(plnimble oracle)
	for w in "${which[@]}"; do
		case $w in
		plnimble)
			_pln_make_template plnimble_tpl \
				"$(cat "$PLN_ROOT/scripts/as-plpgsql.sql")" || return 1
			;;
		oracle)
			_pln_make_template oracle_tpl "
				CREATE TRUSTED LANGUAGE plnimble
					HANDLER plpgsql_call_handler
					INLINE plpgsql_inline_handler
					VALIDATOR plpgsql_validator;" || return 1
			;;
		*)
			pln_log "pln_make_templates: unknown template '$w'"
			return 1
			;;
		esac
	done
}

# _pln_make_template NAME SQL: (re)create database NAME, run SQL in it as
# one transaction, and mark it as a template.
_pln_make_template() {
	local name=$1 sql=$2
	local out
	if ! out=$(timeout "$PLN_TIMEOUT" psql -X -q -v ON_ERROR_STOP=1 -d postgres \
		-v name="$name" 2>&1 <<'EOF'
SELECT format('ALTER DATABASE %I IS_TEMPLATE false', :'name')
  FROM pg_database WHERE datname = :'name' \gexec
SELECT format('DROP DATABASE %I', :'name')
  FROM pg_database WHERE datname = :'name' \gexec
SELECT format('CREATE DATABASE %I TEMPLATE template1', :'name') \gexec
EOF
	); then
		pln_log "templates: could not create database $name:"
		pln_log "$out"
		return 1
	fi
	if ! out=$(timeout "$PLN_TIMEOUT" psql -X -q -v ON_ERROR_STOP=1 -1 -d "$name" \
		-c "$sql" 2>&1); then
		pln_log "templates: setting up $name failed:"
		pln_log "$out"
		return 1
	fi
	if ! out=$(timeout "$PLN_TIMEOUT" psql -X -q -v ON_ERROR_STOP=1 -d postgres \
		-c "ALTER DATABASE $name IS_TEMPLATE true" 2>&1); then
		pln_log "templates: $out"
		return 1
	fi
}

# ---------------------------------------------------------------------------
# pln_check_server_log [LOGFILE]: fail (status 1) and print the offending
# lines if the server log shows a crashed backend, a failed assertion, a
# lazy-check report (the checking build) or a resource-leak warning.  Leak
# words are only looked for in WARNING, LOG, FATAL and PANIC lines, so a
# test's own ERROR text or logged statement cannot trigger it.
# ---------------------------------------------------------------------------
pln_check_server_log() {
	local log=${1:-${PLN_SERVER_LOG:-}}
	local crash='terminated by signal|server process .* was terminated|PANIC:|TRAP:|LOG:  lazy-check: '
	local severity='(WARNING|LOG|FATAL|PANIC):  '
	local leak='leaked|resource was not closed|still referenced|WARNING:  .*leak'
	local bad

	if [ -z "$log" ] || [ ! -f "$log" ]; then
		pln_log "server log: not found (${log:-no cluster running})"
		return 1
	fi
	bad=$( (grep -nE "$crash" "$log"; grep -nE "$severity" "$log" | grep -E "$leak") |
		sort -t: -k1,1n -u) || true
	if [ -n "$bad" ]; then
		echo "server log: backend crash or resource leak found ($log${PLN_SERVER_LOG_COPY:+, kept as $PLN_SERVER_LOG_COPY}):"
		printf '%s\n' "$bad"
		return 1
	fi
	echo "server log: no crashes, no leak warnings"
}

# ---------------------------------------------------------------------------
# Helpers for running one regression script (test.sh, oracle-expected.sh).
# They expect a running cluster and the current directory to be the
# repository root.  Database names are regress_NAME and oracle_NAME.
# ---------------------------------------------------------------------------

# pln_wait_ready: wait up to 120 s until the server accepts connections
# again (after a backend crash it restarts and recovers first).
pln_wait_ready() {
	local i
	for i in $(seq 120); do
		pg_isready -q -t 5 -d postgres && return 0
		[ "$i" -eq 1 ] && pln_log "server not accepting connections, waiting"
		sleep 1
	done
	pln_log "server still not accepting connections after 120 s"
	return 1
}

# pln_fresh_db DB TEMPLATE: drop DB if it exists and create it from TEMPLATE.
pln_fresh_db() {
	pln_wait_ready &&
		timeout "$PLN_TIMEOUT" dropdb --if-exists --force "$1" &&
		timeout "$PLN_TIMEOUT" createdb -T "$2" "$1"
}

# pln_pg_regress NAME DB INPUTDIR OUTPUTDIR: run sql/NAME.sql from INPUTDIR
# in the existing database DB.  psql's output lands in
# OUTPUTDIR/results/NAME.out and the diff against INPUTDIR/expected/ in
# OUTPUTDIR/regression.diffs.  Returns pg_regress's status (0 passed,
# 1 differs, 2 could not run) or 124 when it was killed after PLN_TIMEOUT
# seconds; in that case the backends still busy in DB are terminated.
pln_pg_regress() {
	local name=$1 db=$2 indir=$3 outdir=$4
	local rc=0
	# (16's pg_regress takes the expected files from --expecteddir,
	# "." by default, instead of from the input directory; 15's has no
	# such option)
	local expdir=()
	[ "$PLN_PG_VERSION" -ge 16 ] && expdir=(--expecteddir="$indir")
	mkdir -p "$outdir" || return 2
	rm -f "$outdir/results/$name.out" "$outdir/regression.diffs"
	timeout "$PLN_TIMEOUT" "$PLN_PG_REGRESS" --use-existing --dbname="$db" \
		--inputdir="$indir" "${expdir[@]}" --outputdir="$outdir" --bindir="$PLN_PGBIN" \
		--host="$PGHOST" --port="$PGPORT" --user="$PGUSER" "$name" || rc=$?
	if [ "$rc" -eq 124 ]; then
		echo "pg_regress: killed after $PLN_TIMEOUT seconds"
		timeout 60 psql -X -q -d postgres -v db="$db" -c \
			"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :'db'" \
			>/dev/null 2>&1 || true
	fi
	return "$rc"
}

# pln_expected_file NAME: the expected output of sql/NAME.sql on this
# server: expected/pgVERSION/NAME.out if there is one for PLN_PG_VERSION,
# else expected/NAME.out (PostgreSQL 15's, and every version's where its
# PL/pgSQL prints the same).
pln_expected_file() {
	if [ "$PLN_PG_VERSION" != 15 ] && [ -f "expected/pg$PLN_PG_VERSION/$1.out" ]; then
		echo "expected/pg$PLN_PG_VERSION/$1.out"
	else
		echo "expected/$1.out"
	fi
}

# pln_regress_run NAME: run sql/NAME.sql on plnimble (a fresh copy of
# plnimble_tpl) and compare with expected/NAME.out.  Output:
# results/regress/results/NAME.out, diff: results/regress/NAME.diff,
# pg_regress's own messages: results/regress/NAME.log.
pln_regress_run() {
	local name=$1 rc=0
	local out=results/regress
	local indir=. expected
	mkdir -p "$out" || return 2
	rm -f "$out/$name.diff" "$out/$name.log"
	# A version whose own PL/pgSQL prints something else has its expected
	# file in expected/pgVERSION/ (docs/testing.md, "Other major versions"):
	# pg_regress reads it from an input directory of its own.
	expected=$(pln_expected_file "$name")
	if [ "$expected" != "expected/$name.out" ]; then
		indir=results/regress_input
		mkdir -p "$indir/expected" || return 2
		ln -sfn ../../sql "$indir/sql" || return 2
		cp "$expected" "$indir/expected/$name.out" || return 2
	fi
	pln_fresh_db "regress_$name" plnimble_tpl >"$out/$name.log" 2>&1 || return 2
	pln_pg_regress "$name" "regress_$name" "$indir" "$out" >>"$out/$name.log" 2>&1 || rc=$?
	if [ -f "$out/regression.diffs" ]; then
		mv "$out/regression.diffs" "$out/$name.diff"
	fi
	timeout 60 dropdb --if-exists --force "regress_$name" >/dev/null 2>&1 || true
	return "$rc"
}

# pln_oracle_exact NAME: true if sql/NAME.sql has the line
# "-- oracle: no normalisation".  Such a script must print exactly what
# PL/pgSQL prints (it sets plnimble.identify_as_plpgsql): it runs on the
# oracle unchanged (a "plnimble." setting is then an unknown placeholder
# there, and SET prints the same), and neither output is normalised.
pln_oracle_exact() {
	grep -qx -e '-- oracle: no normalisation' "sql/$1.sql"
}

# pln_oracle_run NAME: run sql/NAME.sql on the real PL/pgSQL (a fresh copy
# of oracle_tpl), with "plnimble." rewritten to "plpgsql." so GUC names
# match (not for pln_oracle_exact scripts, which run as they are).  The
# rewritten script is results/oracle_input/sql/NAME.sql; the
# output is results/oracle/results/NAME.out.  pg_regress's verdict is
# meaningless here (the expected file it compares with is empty); returns 0
# when output was produced, non-zero otherwise (124 on timeout).
pln_oracle_run() {
	local name=$1 rc=0
	local in=results/oracle_input out=results/oracle
	mkdir -p "$in/sql" "$in/expected" "$out" || return 2
	if pln_oracle_exact "$name"; then
		cp "sql/$name.sql" "$in/sql/$name.sql" || return 2
	else
		sed -e 's/plnimble\./plpgsql./g' "sql/$name.sql" >"$in/sql/$name.sql" || return 2
	fi
	: >"$in/expected/$name.out"
	rm -f "$out/$name.log"
	pln_fresh_db "oracle_$name" oracle_tpl >"$out/$name.log" 2>&1 || return 2
	pln_pg_regress "$name" "oracle_$name" "$in" "$out" >>"$out/$name.log" 2>&1 || rc=$?
	rm -f "$out/regression.diffs"
	timeout 60 dropdb --if-exists --force "oracle_$name" >/dev/null 2>&1 || true
	[ "$rc" -eq 124 ] && return 124
	[ -f "$out/results/$name.out" ] || return 2
	return 0
}

# pln_normalise FILE: print FILE with plnimble's names mapped to PL/pgSQL's
# (PL/nimble -> PL/pgSQL, the word plnimble -> plpgsql, which includes the
# GUC prefix plnimble. -> plpgsql.), so both languages' outputs compare.
# The object number in "cache lookup failed for type 12345" (seen with
# debug_discard_caches) differs between the two databases: it becomes N.
pln_normalise() {
	sed -e 's|PL/nimble|PL/pgSQL|g' -e 's/\bplnimble\b/plpgsql/g' \
		-e 's/\(cache lookup failed for [a-z ]*[a-z]\) [0-9][0-9]*/\1 N/g' "$1"
}

# pln_oracle_compare_text NAME FILE: print FILE as the oracle check of
# sql/NAME.sql compares it: normalised, or as it is for a
# pln_oracle_exact script.
pln_oracle_compare_text() {
	if pln_oracle_exact "$1"; then
		cat "$2"
	else
		pln_normalise "$2"
	fi
}

# ---------------------------------------------------------------------------
# pln_install_plpgsql_check: make plpgsql_check (Debian package
# postgresql-15-plpgsql-check) available in the installation PLN_PGBIN
# names.  For a private copy (not under /usr/lib/postgresql) its files are
# taken from the package, downloaded with apt-get download; the system
# installation gets it from apt-get install only when PLN_CI=1 (as .ci/run
# sets), since others' tests share that installation.  Used by
# scripts/check-compare.sh and scripts/check-suite.sh.
# ---------------------------------------------------------------------------
pln_install_plpgsql_check() {
	local sharedir pkglibdir tmp
	sharedir=$("$PLN_PG_CONFIG" --sharedir) || return 1
	pkglibdir=$("$PLN_PG_CONFIG" --pkglibdir) || return 1
	[ -f "$sharedir/extension/plpgsql_check.control" ] && return 0
	case $pkglibdir in
	/usr/lib/postgresql/*)
		if [ "${PLN_CI:-0}" != 1 ]; then
			pln_log "plpgsql_check is not installed in $pkglibdir; set PLN_CI=1 to apt-get install it there"
			return 1
		fi
		pln_sudo apt-get install -y postgresql-15-plpgsql-check >&2 || return 1
		;;
	*)
		tmp=$(mktemp -d) || return 1
		(cd "$tmp" && apt-get download postgresql-15-plpgsql-check >&2 &&
			dpkg-deb -x postgresql-15-plpgsql-check_*.deb x) || return 1
		cp "$tmp"/x/usr/lib/postgresql/15/lib/plpgsql_check.so "$pkglibdir"/ &&
			cp "$tmp"/x/usr/share/postgresql/15/extension/plpgsql_check* \
				"$sharedir/extension/" || return 1
		rm -rf "$tmp"
		;;
	esac
}
