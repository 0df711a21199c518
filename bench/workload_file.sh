# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/workload_file.sh: reading the workload files of bench/workloads/.
# Sourced by bench/run.sh and bench/callgrind.sh, so that both read a file
# the same way.  scaled reads the caller's $SCALE.
# shellcheck shell=bash

# directive NAME FILE: the values of "-- @NAME value" header lines, one a line.
directive() {
	sed -n "s/^-- @$1[[:space:]]\{1,\}//p" "$2" | sed 's/[[:space:]]*$//'
}

# section NAME FILE: the SQL between "-- @@NAME" and the next "-- @@" marker.
section() {
	awk -v want="$1" '
		/^-- @@[a-z_]+[ \t]*$/ { cur = $0; sub(/^-- @@/, "", cur); sub(/[ \t]+$/, "", cur); next }
		cur == want' "$2"
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

# scaled BASE KIND: a parameter value at the current scale ($SCALE).
#   linear (default): BASE * scale, rounded, at least 1
#   log:B           : BASE + log_B(scale), rounded (for exponential work such as fib)
#   fixed           : BASE
scaled() {
	awk -v b="$1" -v k="${2:-linear}" -v s="$SCALE" 'BEGIN {
		if (k == "linear") v = int(b * s + 0.5)
		else if (k == "fixed") v = b
		else if (k ~ /^log:/) { x = log(s) / log(substr(k, 5) + 0); v = b + int(x + (x >= 0 ? 0.5 : -0.5)) }
		else { print "bad parameter kind " k > "/dev/stderr"; exit 1 }
		if (v < 1) v = 1
		printf "%d\n", v }'
}
