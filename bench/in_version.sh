# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/in_version.sh: sourced first by bench/run.sh and bench/callgrind.sh,
# with their arguments.  Takes "--pg VERSION" out of them; for a version
# other than the machine's own (15), runs the same script with the other
# arguments inside that version's chroot (scripts/in-pg.sh: that server,
# its own PL/pgSQL, plnimble built against it) and exits with its status.
# The report is printed as here; the run's bench/results/ stays in the
# chroot's throwaway copy.
bench_args=()
bench_pg=
while [ $# -gt 0 ]; do
	case "$1" in
		--pg)
			[ $# -ge 2 ] || { echo "--pg needs a version" >&2; exit 1; }
			bench_pg=$2
			shift 2
			;;
		*)
			bench_args+=("$1")
			shift
			;;
	esac
done
if [ -n "$bench_pg" ] && [ "$bench_pg" != 15 ] && [ -z "${PLN_IN_PG:-}" ]; then
	exec bash "$(dirname "${BASH_SOURCE[0]}")/../scripts/in-pg.sh" "$bench_pg" \
		bash "bench/$(basename "$0")" "${bench_args[@]}"
fi
set -- "${bench_args[@]}"
