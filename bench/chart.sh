#!/usr/bin/env bash
# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/chart.sh: a bar chart of plnimble's speed-ups over PL/pgSQL, per
# benchmark case, on a log scale: wall-clock ratio of medians and
# instruction ratio side by side (above 1: plnimble is faster).
#
# Usage: bench/chart.sh [-o OUT.png] [REPORT...]
#
# Each REPORT is a markdown file with a table whose header has a "case"
# column and one or more ratio columns:
#   - bench/run.sh's report (bench/results/latest.md): "ratio" is the
#     wall-clock ratio (its lazy_savepoints = off table is left out);
#   - bench/callgrind.sh's report (bench/results/callgrind.md): a table
#     with "Ir" columns, whose "ratio" is the instruction ratio;
#   - a summary table with "wall ratio" and "instr ratio" columns, as the
#     one leading docs/benchmarks.md.
# Default: bench/results/latest.md and bench/results/callgrind.md, the
# latest run's.  Writes docs/speedups.png unless -o says otherwise.  The
# cases appear in the order of the first report.  Needs gnuplot (Debian
# package gnuplot-nox), which it installs with apt-get when missing.

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=$ROOT/docs/speedups.png
if [ "${1:-}" = -o ]; then
	out=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	set -- "$ROOT/bench/results/latest.md" "$ROOT/bench/results/callgrind.md"
fi
for f in "$@"; do
	[ -f "$f" ] || { echo "chart.sh: no such report: $f" >&2; exit 1; }
done

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "chart.sh: installing gnuplot-nox (apt-get)" >&2
	if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox >/dev/null
fi

data=$(mktemp)
trap 'rm -f "$data"' EXIT

# case <TAB> wall ratio <TAB> instr ratio ("-" when a report lacks one)
awk -F'|' '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	function num(s) { s = trim(s); return (s ~ /^[0-9]+(\.[0-9]+)?$/) ? s : "" }
	/^\|/ {
		if (!intable) {
			# a header row: which columns hold what
			intable = 1; header = 1; ccase = cwall = cinstr = 0
			ir = ($0 ~ /Ir/); off = ($0 ~ /\(off\)/)
			for (i = 2; i < NF; i++) {
				h = trim($i)
				if (h == "case") ccase = i
				else if (h == "wall ratio") cwall = i
				else if (h == "instr ratio") cinstr = i
				else if (h == "ratio" && ir) cinstr = i
				else if (h == "ratio") cwall = i
			}
			if (off || !ccase) cwall = cinstr = 0
			next
		}
		if (header) { header = 0; next }	# the |---| row
		if (!cwall && !cinstr) next
		c = trim($ccase)
		if (c == "") next
		if (!(c in seen)) { seen[c] = 1; order[++n] = c }
		if (cwall && num($cwall) != "" && !(c in wall)) wall[c] = num($cwall)
		if (cinstr && num($cinstr) != "" && !(c in instr)) instr[c] = num($cinstr)
		next
	}
	{ intable = 0 }
	END {
		for (i = 1; i <= n; i++) {
			c = order[i]
			if (!(c in wall) && !(c in instr)) continue
			printf "%s\t%s\t%s\n", c, (c in wall) ? wall[c] : "-", (c in instr) ? instr[c] : "-"
		}
	}' "$@" >"$data"

if [ ! -s "$data" ]; then
	echo "chart.sh: no ratios found in: $*" >&2
	exit 1
fi

gnuplot <<EOF
set terminal pngcairo size 1100,560 noenhanced font "sans,10" background rgb "white"
set output "$out"
set datafile separator "\t"
set datafile missing "-"
set title "plnimble vs PL/pgSQL: speed-up per benchmark case (log scale; above 1 = plnimble faster)"
set logscale y
set yrange [0.5:50]
set ytics (0.5, 1, 2, 3, 5, 10, 20, 30, 50)
set grid ytics lc rgb "#dddddd"
set ylabel "PL/pgSQL time / plnimble time"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set xtics rotate by -50 left nomirror font ",9"
set key top right
set bmargin 9
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "black" dt 2
plot "$data" using 2:xtic(1) title "wall clock (ratio of medians)" lc rgb "#3b75af", \
     "" using 3 title "instructions (callgrind)" lc rgb "#ef8636"
EOF
echo "chart.sh: wrote $out ($(wc -l <"$data") cases)" >&2
