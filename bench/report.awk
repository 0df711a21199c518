# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# bench/report.awk: turns the runner's TSV files into the markdown report.
#
# Input files (tab-separated, recognised by name):
#   cases.tsv           workload case target n flags
#   medians.tsv         case mode lang median count min max
#   results.tsv         workload case lang mode rep ms result   (rep 0 = warm-up)
#   notes.tsv           workload case kind message              (case "*" = whole workload)
#   derived_values.tsv  workload label target value
# Variables (-v): date command nproc cpu pgversion langdesc reps scale gitrev lazyoff

function fmt_ms(x) {
	if (x == "") return "—"
	x += 0
	if (x >= 100) return sprintf("%.0f", x)
	if (x >= 10) return sprintf("%.1f", x)
	return sprintf("%.2f", x)
}

function fmt_num(x) {
	if (x == "" || x == "n/a") return "n/a"
	x += 0
	if (x >= 100 || x <= -100) return sprintf("%.0f", x)
	if (x >= 10 || x <= -10) return sprintf("%.1f", x)
	return sprintf("%.2f", x)
}

# Pretty form of a target: ">=10" -> "≥ 10", "0.9..1.1" -> "0.9–1.1", "info" -> "—".
function fmt_target(t, suffix) {
	if (t == "" || t == "info" || t == "-") return "—"
	if (t ~ /^>=/) return "≥ " substr(t, 3) suffix
	if (t ~ /^<=/) return "≤ " substr(t, 3) suffix
	if (t ~ /\.\./) { split(t, p, /\.\./); return p[1] "–" p[2] suffix }
	return t
}

# PASS / FAIL / "—" (no target) for value v against target t.
function check(v, t,    p) {
	if (t == "" || t == "info" || t == "-") return "—"
	if (v == "" || v == "n/a") return "n/a"
	v += 0
	if (t ~ /^>=/) return (v >= substr(t, 3) + 0) ? "PASS" : "FAIL"
	if (t ~ /^<=/) return (v <= substr(t, 3) + 0) ? "PASS" : "FAIL"
	if (t ~ /\.\./) { split(t, p, /\.\./); return (v >= p[1] + 0 && v <= p[2] + 0) ? "PASS" : "FAIL" }
	return "?"
}

function count_status(s) {
	if (s == "PASS") npass++
	else if (s == "FAIL") nfail++
	else if (s == "ERROR" || s == "n/a" || s == "MISMATCH") nerr++
	else if (s == "SKIPPED") nskip++
}

function short(s) {
	if (length(s) > 40) return substr(s, 1, 37) "..."
	return s
}

function add_note(notes, s) { return notes == "" ? s : notes "; " s }

# One table row for case c in mode m; returns nothing, prints the row.
function row(w, c, m,    kp, kn, pg, nim, ratio, st, t, notes, sp, k, key, r, q, qlo, qhi, range) {
	kp = c SUBSEP m SUBSEP "plpgsql"; kn = c SUBSEP m SUBSEP "plnimble"
	pg = (kp in med) ? med[kp] : ""
	nim = (kn in med) ? med[kn] : ""
	t = (m == "lazy_off") ? ">=0.9" : target[c]
	notes = ""
	if (pg != "" && nim != "" && nim + 0 > 0) {
		ratio = sprintf("%.2f", pg / nim)
		st = check(ratio, t)
	} else {
		ratio = "—"
		st = "ERROR"
	}
	if ((w SUBSEP c SUBSEP "skip:" m) in note) {
		st = "SKIPPED"; notes = add_note(notes, note[w, c, "skip:" m])
	} else {
		if ((w SUBSEP c SUBSEP "error:" m) in note) notes = add_note(notes, "failed: " note[w, c, "error:" m])
		if (pg == "" || nim == "" || cnt_of[kp] < reps || cnt_of[kn] < reps) {
			if ((w SUBSEP "*" SUBSEP "error") in note) notes = add_note(notes, "workload failed: " note[w, "*", "error"])
			if (pg != "" || nim != "") notes = add_note(notes, sprintf("incomplete: %d+%d of %d reps", cnt_of[kp], cnt_of[kn], reps))
			st = "ERROR"
		}
	}
	# Do both languages compute the same answer (over all calls)?  If not,
	# the timings are not comparable.
	if (results[kp] != "" && results[kn] != "" && results[kp] != results[kn]) {
		notes = add_note(notes, "RESULTS DIFFER: plpgsql `" short(results[kp]) "` vs plnimble `" short(results[kn]) "`")
		if (st != "ERROR" && st != "SKIPPED") st = "MISMATCH"
	} else if (index(results[kp], " / ") || index(results[kn], " / "))
		notes = add_note(notes, "results vary between calls")
	# Noise: spread of the timed reps relative to the median.
	for (k = 1; k <= 2; k++) {
		key = (k == 1) ? kp : kn
		if ((key in med) && med[key] > 0 && cnt_of[key] > 1) {
			sp = (maxv[key] - minv[key]) / med[key]
			if (sp > 0.25) notes = add_note(notes, sprintf("noisy: %s spread %.0f%%", (k == 1 ? "plpgsql" : "plnimble"), 100 * sp))
		}
	}
	# Range of the per-rep ratios (each rep's plpgsql and plnimble calls run
	# back to back, so this shows how much the ratio itself moves).
	qlo = ""; qhi = ""
	for (r = 1; r <= maxrep; r++)
		if (((kp, r) in raw) && ((kn, r) in raw) && raw[kn, r] > 0) {
			q = raw[kp, r] / raw[kn, r]
			if (qlo == "" || q < qlo) qlo = q
			if (qhi == "" || q > qhi) qhi = q
		}
	range = (qlo == "") ? "—" : sprintf("%.2f–%.2f", qlo, qhi)
	count_status(st)
	printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, c, ncol[c], fmt_ms(pg), fmt_ms(nim), ratio, range, fmt_target(t, "×"), st, notes
}

FILENAME ~ /cases\.tsv$/ {
	ncases++; cw[ncases] = $1; cc[ncases] = $2; target[$2] = $3; ncol[$2] = $4
	if (("," $5 ",") ~ /,lazy_off,/) lazy[$2] = 1
	if (!($1 in seenw)) { seenw[$1] = 1; nw++; wl[nw] = $1 }
	next
}
FILENAME ~ /medians\.tsv$/ {
	k = $1 SUBSEP $2 SUBSEP $3
	med[k] = $4; cnt_of[k] = $5; minv[k] = $6; maxv[k] = $7
	next
}
FILENAME ~ /results\.tsv$/ {
	k = $2 SUBSEP $4 SUBSEP $3
	if (!((k SUBSEP $7) in seenres)) {
		seenres[k, $7] = 1
		results[k] = (results[k] == "") ? $7 : results[k] " / " $7
	}
	raw[k, $5 + 0] = $6 + 0
	if (!(k in rawseen)) { rawseen[k] = 1; nrk++; rk[nrk] = k }
	if ($5 + 0 > maxrep) maxrep = $5 + 0
	next
}
FILENAME ~ /notes\.tsv$/ {
	note[$1, $2, $3] = $4
	if ($2 == "*" && $3 == "error") { werr[$1] = $4; if (!($1 in seenw)) { seenw[$1] = 1; nw++; wl[nw] = $1 } }
	next
}
FILENAME ~ /derived_values\.tsv$/ {
	nd++; dw[nd] = $1; dl[nd] = $2; dt[nd] = $3; dv[nd] = $4
	next
}

END {
	print "# plnimble benchmark: plpgsql vs plnimble"
	print ""
	print "| | |"
	print "|---|---|"
	print "| date | " date " |"
	print "| command | `" command "` |"
	print "| machine | nproc " nproc ", " cpu " |"
	print "| PostgreSQL | " pgversion " |"
	print "| plnimble | " langdesc " |"
	print "| source | git " gitrev " |"
	print "| method | " reps " timed reps per language and case (scale " scale "), after one warm-up call each; plpgsql and plnimble calls alternate (odd reps plpgsql first, even reps plnimble first) in one psql session per workload; each call is timed inside the server with clock_timestamp() and is its own transaction; per-call reset SQL is not timed |"
	print ""
	print "**ratio = plpgsql median / plnimble median: > 1 means plnimble is faster.** Times are medians in ms; n is the workload size (iterations, rows or fib argument); rep ratios is the range of plpgsql/plnimble over the individual reps (each rep's two calls run back to back), a guide to how much of the ratio is noise."
	print ""
	print "## Results"
	print ""
	print "| workload | case | n | plpgsql ms | plnimble ms | ratio | rep ratios | target | status | notes |"
	print "|---|---|---:|---:|---:|---:|---|---|---|---|"
	for (i = 1; i <= ncases; i++) row(cw[i], cc[i], "main")
	for (i = 1; i <= nw; i++)
		if (wl[i] in werr) {
			# a failed workload none of whose cases got listed
			found = 0
			for (j = 1; j <= ncases; j++) if (cw[j] == wl[i]) found = 1
			if (!found) { printf "| %s | — | | | | | | | ERROR | %s |\n", wl[i], werr[wl[i]]; nerr++ }
		}

	nl = 0
	for (i = 1; i <= ncases; i++) if (cc[i] in lazy) nl++
	if (nl > 0) {
		print ""
		print "## (f) plnimble.lazy_savepoints = off"
		print ""
		if (lazyoff == 1) {
			print "The same cases again, with `SET plnimble.lazy_savepoints = off` around the plnimble calls only; plpgsql is measured again alongside. Target: the non-lazy path is not slower than plpgsql by more than 10% (ratio ≥ 0.9; being faster is fine)."
			print ""
			print "| workload | case | n | plpgsql ms | plnimble (off) ms | ratio | rep ratios | target | status | notes |"
			print "|---|---|---:|---:|---:|---:|---|---|---|---|"
			for (i = 1; i <= ncases; i++) if (cc[i] in lazy) row(cw[i], cc[i], "lazy_off")
		} else {
			print "Not run (--no-lazy-off)."
		}
	}

	if (nd > 0) {
		print ""
		print "## Derived"
		print ""
		print "| workload | metric | value | target | status |"
		print "|---|---|---:|---|---|"
		for (i = 1; i <= nd; i++) {
			st = check(dv[i], dt[i])
			count_status(st)
			printf "| %s | %s | %s | %s | %s |\n", dw[i], dl[i], fmt_num(dv[i]), fmt_target(dt[i], ""), st
		}
	}

	print ""
	printf "**Summary:** %d targets met, %d missed", npass, nfail
	if (nerr) printf ", %d could not be measured", nerr
	if (nskip) printf ", %d skipped", nskip
	print "."

	if (nrk > 0) {
		print ""
		print "## Raw timings (ms)"
		print ""
		hdr = "| case | mode | language | warm-up"
		sep = "|---|---|---|---:"
		for (r = 1; r <= maxrep; r++) { hdr = hdr " | rep " r; sep = sep "|---:" }
		print hdr " | result |"
		print sep "|---|"
		for (i = 1; i <= nrk; i++) {
			split(rk[i], p, SUBSEP)
			line = "| " p[1] " | " p[2] " | " p[3]
			for (r = 0; r <= maxrep; r++) line = line " | " (((rk[i], r) in raw) ? fmt_ms(raw[rk[i], r]) : "")
			print line " | " short(results[rk[i]]) " |"
		}
	}
}
