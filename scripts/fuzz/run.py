# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
"""Differential fuzzer: runs programs under plnimble and under PL/pgSQL and
compares everything the client can see.

Started by scripts/fuzz.sh, which builds plnimble, starts a throwaway
cluster and creates the databases:
  fz_nimble  from plnimble_tpl: LANGUAGE plpgsql and DO run on plnimble
  fz_oracle  from oracle_tpl:   the real PL/pgSQL (LANGUAGE plnimble too)
The same SQL text goes to both, so positions and carets line up.  See
docs/fuzzing.md for the whole picture.
"""

import argparse
import hashlib
import json
import os
import random
import re
import signal
import sys
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen      # noqa: E402
import mutate   # noqa: E402
import pq       # noqa: E402

TIMEOUT_MS = 2000
SESSION_SQL = ("SET statement_timeout = %d; SET client_min_messages = log; "
               "SET lock_timeout = 1000" % TIMEOUT_MS)
VACUUM_EVERY = 200  # programs
# Both sessions start afresh every so many programs: each program creates
# and drops functions, and a session keeps the compiled form of every
# function it ran (both languages do), so a long run would otherwise grow
# its two backends by gigabytes.
RECONNECT_EVERY = 2000  # programs
HANG_GRACE = 4.0   # seconds past statement_timeout before a backend counts as hung


def allowlisted_scripts(sqldir):
    """The scripts of sql/oracle-allowlist.txt: plnimble-only ones (their
    set-up calls plnimble's own functions, which the oracle database does
    not have) and those whose output differs from PL/pgSQL's by design.
    Mutating them finds only those known differences."""
    names = set()
    try:
        with open(os.path.join(sqldir, "oracle-allowlist.txt"), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and ":" in line:
                    names.add(line.split(":", 1)[0].strip())
    except OSError:
        pass
    return names

# ---------------------------------------------------------------------------
# rendering: program -> list of (label, sql) steps, per mode
# ---------------------------------------------------------------------------

RET_NEXT = re.compile(r"^(\s*)RETURN NEXT (.*);\s*$")
RET_QEXEC = re.compile(r"^(\s*)RETURN QUERY EXECUTE (.*);\s*$")
RET_QUERY = re.compile(r"^(\s*)RETURN QUERY (.*);\s*$")
RET_EXPR = re.compile(r"^(\s*)RETURN (.+);\s*$")


def do_body(body):
    """A function body as the body of a DO block: parameters become
    variables of an outer block, RETURN statements become NOTICEs."""
    out = []
    for line in body.split("\n"):
        m = RET_NEXT.match(line)
        if m:
            line = "%sRAISE NOTICE 'next %%', %s;" % (m.group(1), m.group(2))
        elif RET_QEXEC.match(line):
            m = RET_QEXEC.match(line)
            line = "%sFOR fz_rq IN EXECUTE %s LOOP RAISE NOTICE 'query %%', fz_rq; END LOOP;" % (m.group(1), m.group(2))
        elif RET_QUERY.match(line):
            m = RET_QUERY.match(line)
            line = "%sFOR fz_rq IN %s LOOP RAISE NOTICE 'query %%', fz_rq; END LOOP;" % (m.group(1), m.group(2))
        elif RET_EXPR.match(line):
            m = RET_EXPR.match(line)
            line = "%sRAISE NOTICE 'return %%', %s; RETURN;" % (m.group(1), m.group(2))
        out.append(line)
    return ("DO $fz$\nDECLARE p_i int := 3; p_t text := '7'; fz_rq record;\nBEGIN\n"
            + "\n".join(out).rstrip() + ";\nEND\n$fz$")


STATE_QUERY = "SELECT 'STATE ' || " + gen.STATE_SQL[len("SELECT "):]
STATE = "EXECUTE fz_state"   # prepared once per connection (Side.connect)


# The second call of a function: after ROLLBACK TO SAVEPOINT (undoing the
# first call, or recovering from its error), so that state kept across
# calls (plans, caches, the compiled function) meets a rolled-back
# subtransaction -- issue 15 item 1's kind of bug.
AGAIN = "ROLLBACK TO SAVEPOINT fz_s;\n%s;\n" + STATE + ";"


def modes(prog):
    k = prog["kind"]
    if k == "trigger":
        return ["func"]
    if k == "mut":
        return ["mut"]
    return ["func", "do"]


def render(prog, mode):
    """Steps (label, sql, transactional).  A transactional step (True) runs
    inside BEGIN ... ROLLBACK (the runner adds them), a "cont" step in the
    same transaction as the step before it; the others (False) run in
    autocommit mode and the runner resets the tables afterwards."""
    k, body = prog["kind"], prog["body"]
    if k == "mut":
        create = prog["head"] + prog["body"] + prog["tail"]
        parts = ["SET LOCAL search_path = %s, public" % prog["schema"], create]
        parts += [c.rstrip(";") for c in prog["calls"]]
        return [("mut", ";\n".join(parts) + ";", True)]
    if mode == "do":
        if k == "proc":
            return [("do", do_body(body), False), ("state", STATE, False)]
        return [("do", do_body(body) + ";\n" + STATE + ";", True)]
    if k == "func":
        create = ("CREATE FUNCTION fz_f(p_i int, p_t text) RETURNS text LANGUAGE plpgsql AS $fz$\n"
                  + body + "$fz$")
        return [("func", create + ";\nSAVEPOINT fz_s;\nSELECT fz_f(3, '7');\n" + STATE + ";", True),
                ("again", AGAIN % "SELECT fz_f(3, '7')", "cont")]
    if k == "srf":
        create = ("CREATE FUNCTION fz_f(p_i int, p_t text) RETURNS SETOF text LANGUAGE plpgsql AS $fz$\n"
                  + body + "$fz$")
        return [("func", create + ";\nSAVEPOINT fz_s;\nSELECT * FROM fz_f(3, '7');\n" + STATE + ";", True),
                ("again", AGAIN % "SELECT * FROM fz_f(3, '7')", "cont")]
    if k == "proc":
        create = ("CREATE PROCEDURE fz_p(INOUT p_i int, p_t text) LANGUAGE plpgsql AS $fz$\n"
                  + body + "$fz$")
        return [("create", create, False), ("call", "CALL fz_p(3, '7')", False),
                ("state", STATE, False)]
    # trigger
    create = ("CREATE FUNCTION fz_trg() RETURNS trigger LANGUAGE plpgsql AS $fz$\n" + body + "$fz$;\n"
              "CREATE TRIGGER fz_t %s %s ON %s FOR EACH %s%s EXECUTE FUNCTION fz_trg('a', 'b')"
              % (prog["when"], prog["events"], prog["table"], prog["level"],
                 # bodies write to the trigger's own table: bound the recursion
                 " WHEN (pg_trigger_depth() < 2)" if prog.get("depth_guard", True) else ""))
    # RETURNING comes in the physical order of the rows, which differs
    # between the two databases: sort it
    dml = ["WITH fz_r AS (%s) SELECT * FROM fz_r ORDER BY fz_r::text" % d for d in prog["dml"]]
    return [("trigger", create + ";\n" + ";\n".join(dml) + ";\n" + STATE + ";", True)]


CLEANUP = "DROP PROCEDURE IF EXISTS fz_p(int, text);" + gen.RESET_SQL


def repro_sql(prog, mode):
    """A psql script that reproduces the program (same SQL the runner
    sends), for either database."""
    out = ["\\set VERBOSITY verbose", SESSION_SQL + ";", "PREPARE fz_state AS " + STATE_QUERY + ";"]
    for label, sql, txn in render(prog, mode):
        if txn == "cont":
            out.insert(len(out) - 1, sql)   # before the ROLLBACK
        elif txn:
            out += ["BEGIN;", sql, "ROLLBACK;"]
        else:
            out.append(sql + ";")
    if not all(t for _, _, t in render(prog, mode)):
        out.append(CLEANUP)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# normalisation and comparison
# ---------------------------------------------------------------------------

NORMS = [
    (re.compile(r"PL/nimble"), "PL/pgSQL"),
    (re.compile(r"PL/NIMBLE"), "PL/PGSQL"),
    (re.compile(r"(?<=/)nimble function\b"), "pgSQL function"),   # a substring of the name
    (re.compile(r"\bplnimble\b"), "plpgsql"),
    (re.compile(r"\bPLNIMBLE\b"), "PLPGSQL"),
    # a value cut to a fixed length ("Failing row contains (..., 'PL/pgSQL
    # function f() line 3 at GET DIAGNOSTIC...)") is cut elsewhere when it
    # names the language, whose names differ in length
    (re.compile(r"(PL/pgSQL function )[^\n]*?\.\.\."), r"\1..."),
    (re.compile(r"0x[0-9a-f]{6,}"), "0x?"),
    (re.compile(r"<unnamed portal \d+>"), "<unnamed portal N>"),
    (re.compile(r"\bfz_(oracle|nimble)\b"), "fz_db"),   # current_database()
    (re.compile(r"\b(OID|oid) \d+"), r"\1 N"),
    (re.compile(r"(cache lookup failed for [a-z ]+) \d+"), r"\1 N"),
]


def norm(s):
    if s is None:
        return None
    for rx, rep in NORMS:
        s = rx.sub(rep, s)
    return s


FIELD_ORDER = ["severity", "sqlstate", "message", "detail", "hint", "context",
               "position", "internal_query", "internal_position", "schema",
               "table", "column", "datatype", "constraint"]


def norm_events(events):
    out = []
    for kind, val in events:
        if kind in ("notice", "error"):
            out.append((kind, tuple((k, norm(val.get(k))) for k in FIELD_ORDER)))
        elif kind == "rows":
            out.append((kind, tuple(tuple(norm(c) for c in r) for r in val)))
        else:
            out.append((kind, val))
    return out


def abstract(s, n=90):
    if s is None:
        return "-"
    s = re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", "Q", s)
    s = re.sub(r"\b\d+\b|<NULL>", "N", s)
    s = re.sub(r"\s+", " ", s).strip()
    return s[:n]


def describe(ev):
    if ev is None:
        return "nothing"
    kind, val = ev
    if kind in ("notice", "error"):
        d = dict(val)
        return "%s %s %s" % (kind, d.get("sqlstate"), abstract(d.get("message"), 60))
    if kind == "rows":
        if val and val[0] and str(val[0][0]).startswith("STATE "):
            return "state"
        return "rows"
    return "%s %s" % (kind, abstract(str(val), 30))


def compare(mode, o_steps, n_steps):
    """Signature of the first difference between the normalised outcomes,
    or None.  Each outcome: list of (label, events)."""
    for (label, oev), (_, nev) in zip(o_steps, n_steps):
        if nev == "HANG" and oev != "HANG":
            return "hang: %s/%s (backend did not answer, killed)" % (mode, label)
        if oev == "HANG" or nev == "HANG":
            return None
        if oev == "CRASH" or nev == "CRASH":
            if nev == "CRASH" and oev != "CRASH":
                return "crash: %s/%s" % (mode, label)
            if oev == "CRASH" and nev != "CRASH":
                return "oracle crash: %s/%s" % (mode, label)
            return None
        oe, ne = norm_events(oev), norm_events(nev)
        hang_o = any(k == "error" and dict(v).get("sqlstate") == "57014" for k, v in oe)
        hang_n = any(k == "error" and dict(v).get("sqlstate") == "57014" for k, v in ne)
        if hang_n and not hang_o:
            if any(k == "error" and dict(v).get("sqlstate") == "54001" for k, v in oe):
                # PL/pgSQL stopped an endless recursion at the stack limit;
                # plnimble, whose frames are smaller, gets deeper (F8), and
                # with a notice per level, each carrying a CONTEXT line per
                # level, its output grows with the square of the depth
                return "%s/%s: error 54001 stack depth limit reached at another depth (plnimble timed out first)" % (
                    mode, label)
            return "hang: %s/%s" % (mode, label)
        if hang_n and hang_o:
            # both ran into statement_timeout: where the cancel lands (its
            # CONTEXT, the notices before it) is timing, not behaviour, and
            # so is what the later steps see of it (a procedure that
            # commits in a loop has committed more or fewer rows)
            return None
        if oe == ne:
            continue
        for i in range(max(len(oe), len(ne))):
            a = oe[i] if i < len(oe) else None
            b = ne[i] if i < len(ne) else None
            if a == b:
                continue
            if a and b and a[0] == b[0] and a[0] in ("notice", "error"):
                da, db = dict(a[1]), dict(b[1])
                if da.get("sqlstate") == db.get("sqlstate") == "54001":
                    # recursion stopped at another depth: the CONTEXT
                    # has another number of lines
                    return "%s/%s: %s 54001 stack depth limit reached at another depth" % (mode, label, a[0])
                for f in FIELD_ORDER:
                    if da.get(f) != db.get(f):
                        if f == "message" and da.get("sqlstate") != db.get("sqlstate"):
                            f = "sqlstate"
                        va, vb = da.get(f), db.get(f)
                        if f == "context" and va and vb:
                            # the first line that differs says more
                            la, lb = va.split("\n"), vb.split("\n")
                            for x, y in zip(la + [None] * len(lb), lb + [None] * len(la)):
                                if x != y:
                                    va, vb = x, y
                                    break
                        if f != "sqlstate":
                            va, vb = abstract(va), abstract(vb)
                        else:
                            vb = "%s (%s | %s)" % (vb, abstract(da.get("message"), 50), abstract(db.get("message"), 50))
                        return "%s/%s: %s %s %s: %s <> %s" % (
                            mode, label, a[0], da.get("sqlstate"), f, va, vb)
            if a and b and a[0] == b[0] == "rows":
                if describe(a) == "state":
                    return "%s/%s: state differs" % (mode, label)
                ra = [r for r in a[1] if r not in b[1]][:1]
                rb = [r for r in b[1] if r not in a[1]][:1]
                return "%s/%s: rows differ: %s <> %s" % (mode, label, abstract(str(ra), 40), abstract(str(rb), 40))
            return "%s/%s: %s <> %s" % (mode, label, describe(a), describe(b))
    return None


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------

class Side:
    """One database: a connection that is re-made after a crash."""

    def __init__(self, conninfo, name, session_extra=""):
        self.conninfo, self.name = conninfo, name
        self.session_extra = session_extra
        self.conn = None
        self.prepare = None
        self.pending_rollback = False
        self.connect()

    def connect(self):
        deadline = time.time() + 120
        while True:
            try:
                self.conn = pq.Conn(self.conninfo)
                self.conn.run(SESSION_SQL)
                if self.session_extra:
                    self.conn.run(self.session_extra)
                if self.prepare:
                    self.conn.run(self.prepare)
                self.pending_rollback = False
                return
            except pq.ConnectionLost:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)

    def run(self, sql):
        """Events of one query string, or 'CRASH' when the connection
        broke (the backend died or was terminated by the postmaster), or
        'HANG' when the backend did not answer well after
        statement_timeout; a hung backend is killed with SIGKILL (it may
        not be cancellable), which makes the postmaster restart them all."""
        try:
            ev = self.conn.run(sql, timeout=TIMEOUT_MS / 1000.0 + HANG_GRACE)
        except pq.ConnectionLost:
            ev = "CRASH"
        except pq.Timeout:
            kill_backend(self.conn.pid())
            self.conn.close()
            time.sleep(1)
            self.connect()
            return "HANG"
        if isinstance(ev, list) and any(k == "error" and v.get("sqlstate", "").startswith("57P")
                                 for k, v in ev):
            ev = "CRASH"
        if ev == "CRASH":
            self.conn.close()
            time.sleep(1)
            self.connect()
        return ev

    def quiet(self, sql):
        return self.run(sql)

    def reconnect(self):
        self.conn.close()
        self.connect()
        self.quiet(CLEANUP)


def kill_backend(pid):
    """SIGKILL a backend of our own throwaway cluster (it ignores cancel
    and terminate requests when it loops without checking interrupts)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as e:
        print("fuzz: could not kill backend %d: %s" % (pid, e), flush=True)


def run_steps(side, steps):
    """Run the steps of one program on one side.  A transactional step is
    sent as "BEGIN; <step>"; its ROLLBACK travels in front of the next
    query string (saves a round trip per step)."""
    out = []
    nontxn = False
    for label, sql, txn in steps:
        if txn == "cont":
            ev = side.run(sql)
        elif txn:
            pre = "ROLLBACK;\n" if side.pending_rollback else ""
            ev = side.run(pre + "BEGIN;\n" + sql)
            if isinstance(ev, list):
                side.pending_rollback = True
                ev = ev[2 if pre else 1:]   # drop ROLLBACK's and BEGIN's "ok"
        else:
            nontxn = True
            if side.pending_rollback:
                side.quiet("ROLLBACK")
                side.pending_rollback = False
            ev = side.run(sql)
            if isinstance(ev, list) and side.conn.in_transaction():
                side.quiet("ROLLBACK")
        out.append((label, ev))
        if ev in ("CRASH", "HANG"):
            break
    if nontxn:
        side.quiet(CLEANUP)
    return out


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.oracle = Side(args.oracle, "oracle")
        # The nimble database has no PL/pgSQL (its language plpgsql runs on
        # plnimble), so plpgsql.* settings there would be unchecked
        # placeholders, where the oracle's session, which has run PL/pgSQL,
        # checks them (ALTER DATABASE ... SET plpgsql.extra_warnings = 'x'
        # fails only there).  Loading PL/pgSQL's library defines them.
        nimble_extra = "LOAD 'plpgsql'"
        if args.identify_as_plpgsql:
            nimble_extra += "; SET plnimble.identify_as_plpgsql = on"
        self.nimble = Side(args.nimble, "nimble", nimble_extra)
        self.known, self.skips = load_known(args.known)
        self.stats = {"programs": 0, "runs": 0, "differences": 0, "crashes": 0, "hangs": 0,
                      "flaky": 0, "known": 0, "unknown": 0, "gen": 0, "mut": 0}
        self.findings = {}   # signature -> dict
        self.outdir = args.out
        os.makedirs(self.outdir, exist_ok=True)

    def run_mode(self, prog, mode):
        steps = render(prog, mode)
        o = run_steps(self.oracle, steps)
        n = run_steps(self.nimble, steps)
        self.stats["runs"] += 1
        if any(ev in ("CRASH", "HANG") for _, ev in o + n):
            # a crash ends every backend of the cluster: start both afresh
            self.oracle.reconnect()
            self.nimble.reconnect()
        return o, n

    def check(self, prog, mode):
        o, n = self.run_mode(prog, mode)
        return compare(mode, o, n), o, n

    def one(self, prog):
        if self.skips:
            text = "\n".join(sql for m in modes(prog) for _, sql, _ in render(prog, m))
            for k in self.skips:
                if k[0].search(text):
                    k[2] += 1
                    self.stats["skipped"] = self.stats.get("skipped", 0) + 1
                    return
        self.stats["programs"] += 1
        for mode in modes(prog):
            sig, o, n = self.check(prog, mode)
            if sig is None:
                continue
            # confirm: a difference that does not come back is flaky
            sig2, o, n = self.check(prog, mode)
            if sig2 != sig:
                self.stats["flaky"] += 1
                continue
            self.record(prog, mode, sig, o, n)
            return

    def record(self, prog, mode, sig, o, n):
        self.stats["differences"] += 1
        if sig.startswith("crash"):
            self.stats["crashes"] += 1
        elif sig.startswith("hang"):
            self.stats["hangs"] += 1
        reason = known_reason(self.known, sig)
        self.stats["known" if reason else "unknown"] += 1
        f = self.findings.get(sig)
        if f:
            f["count"] += 1
            return
        f = {"signature": sig, "count": 1, "known": reason, "mode": mode,
             "first_program": self.stats["programs"]}
        self.findings[sig] = f
        if reason and not self.args.shrink_known:
            f["dir"] = self.save(sig, prog, mode, o, n, shrunk=False)
        else:
            small = self.shrink(prog, mode, sig)
            _, o2, n2 = self.check(small, mode)
            f["dir"] = self.save(sig, small, mode, o2, n2, shrunk=True)
        self.log("%s %s  [%s]" % ("known  " if reason else "NEW    ", sig, f["dir"]))
        self.write_summary()

    # -- shrinking: ddmin over calls, body lines, then body tokens ----------
    def shrink(self, prog, mode, sig):
        budget = {"tests": 0, "until": time.time() + self.args.shrink_seconds}

        def still(p):
            if budget["tests"] >= self.args.shrink_tests or time.time() > budget["until"]:
                return False
            budget["tests"] += 1
            s, _, _ = self.check(p, mode)
            return s == sig

        prog = dict(prog)
        if prog.get("calls"):
            prog["calls"] = ddmin(prog["calls"], lambda c: still(dict(prog, calls=c)))
        lines = prog["body"].split("\n")
        lines = ddmin(lines, lambda ls: still(dict(prog, body="\n".join(ls))))
        prog["body"] = "\n".join(lines)
        toks = [t for t in mutate.tokenize(prog["body"])]
        keep = ddmin(toks, lambda ts: still(dict(prog, body=join_tokens(ts))))
        prog["body"] = join_tokens(keep)
        if prog["kind"] == "trigger" and len(prog["dml"]) > 1:
            prog["dml"] = ddmin(prog["dml"], lambda d: still(dict(prog, dml=d)))
        self.stats.setdefault("shrink_tests", 0)
        self.stats["shrink_tests"] += budget["tests"]
        return prog

    def save(self, sig, prog, mode, o, n, shrunk):
        h = hashlib.sha1(sig.encode()).hexdigest()[:10]
        d = os.path.join(self.outdir, h)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump({"signature": sig, "mode": mode, "shrunk": shrunk, "program": prog}, f, indent=1)
        with open(os.path.join(d, "repro.sql"), "w") as f:
            f.write("-- fuzz case %s: %s\n" % (h, sig))
            f.write("-- run in a database made from plnimble_tpl and in one made from oracle_tpl,\n")
            f.write("-- or: bash scripts/fuzz.sh --replay %s\n" % os.path.join(d, "case.json"))
            f.write(repro_sql(prog, mode))
        with open(os.path.join(d, "outputs.txt"), "w") as f:
            f.write("signature: %s\n\n=== PL/pgSQL\n%s\n=== plnimble\n%s\n" % (
                sig, format_outcome(o), format_outcome(n)))
        return os.path.relpath(d)

    def vacuum(self):
        """VACUUM the tables of the generated programs on both sides at
        the same point of the run (see SETUP_SQL)."""
        for side in (self.oracle, self.nimble):
            if side.pending_rollback:
                side.quiet("ROLLBACK")
                side.pending_rollback = False
            side.quiet("VACUUM t1, t2, tlog")

    def log(self, msg):
        print(msg, flush=True)

    def write_summary(self):
        with open(os.path.join(self.outdir, "summary.json"), "w") as f:
            json.dump({"stats": self.stats, "findings": sorted(self.findings.values(), key=lambda x: -x["count"])},
                      f, indent=1)


def join_tokens(ts):
    return "".join(ts)


def ddmin(items, test):
    """Zeller's delta debugging: a small sublist of items for which test()
    still holds (test(items) is assumed to hold)."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        reduced = False
        for i in range(0, len(items), chunk):
            cand = items[:i] + items[i + chunk:]
            if cand and test(cand):
                items = cand
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def format_outcome(steps):
    out = []
    for label, ev in steps:
        out.append("--- %s" % label)
        if ev == "CRASH":
            out.append("CONNECTION LOST (backend crashed or was terminated)")
            continue
        if ev == "HANG":
            out.append("NO ANSWER within statement_timeout + %gs (backend killed)" % HANG_GRACE)
            continue
        for kind, val in ev:
            if kind in ("notice", "error"):
                out.append("%s %s: %s" % (val.get("severity"), val.get("sqlstate"), val.get("message")))
                for k in FIELD_ORDER[3:]:
                    if val.get(k) is not None:
                        out.append("  %s: %s" % (k.upper(), val[k].replace("\n", "\n    ")))
            elif kind == "rows":
                for r in val:
                    out.append("  | " + " | ".join("NULL" if c is None else c for c in r))
            else:
                out.append("%s %s" % (kind, val))
    return "\n".join(out)


def load_known(path):
    """known.txt: 'REGEX ## reason' per line, matched (re.search) against
    a difference's signature; 'skip-program: REGEX ## reason' lines are
    matched against a program's SQL text instead, and such programs are not
    run (for a known hang that would cost seconds per program)."""
    known, skips = [], []
    if path and os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            pat, _, reason = line.partition(" ## ")
            pat = pat.strip()
            entry = [None, reason.strip() or "known", 0, pat]
            if pat.startswith("skip-program:"):
                entry[3] = pat[len("skip-program:"):].strip()
                entry[0] = re.compile(entry[3])
                skips.append(entry)
            else:
                entry[0] = re.compile(pat)
                known.append(entry)
    return known, skips


def known_reason(known, sig):
    for k in known:
        if k[0].search(sig):
            k[2] += 1
            return k[1]
    return None


# ---------------------------------------------------------------------------
# set-up and main loop
# ---------------------------------------------------------------------------

DEFINES_RE = re.compile(r"^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE|VIEW)\s+([\w.\"]+)",
                        re.I)


def drop_plnimble_only_calls(c):
    """Drop the calls of a corpus script that use plnimble-only functions
    (plnimble_savepoint_plan, ...), also through a helper the script's
    set-up defines with them (a view or SQL function of the counters):
    the oracle has none of them, so such a call can only differ."""
    only = []

    def uses_only(sql):
        return "plnimble_" in sql or any(re.search(r"\b%s\b" % re.escape(n), sql, re.I) for n in only)

    changed = True
    while changed:
        changed = False
        for stmt in c["setup"]:
            m = DEFINES_RE.match(stmt)
            if m:
                name = m.group(1).split(".")[-1].strip('"').lower()
                if name not in only and uses_only(stmt):
                    only.append(name)
                    changed = True
    c["calls"] = [s for s in c["calls"] if not uses_only(s) and "pg_sleep" not in s]


def setup(fz, corpus):
    """Schema for generated programs and one schema per corpus script, in
    both databases (errors of corpus set-up statements are ignored: some
    scripts build on objects they create later or fail on purpose)."""
    for side in (fz.oracle, fz.nimble):
        side.run(gen.SETUP_SQL)
        side.run(gen.RESET_SQL)
        side.prepare = "PREPARE fz_state AS " + STATE_QUERY
        side.run(side.prepare)
        for c in corpus:
            side.run("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (c["schema"], c["schema"]))
            side.run("SET search_path = %s, public" % c["schema"])
            for s in c["setup"]:
                side.run(s)
            side.run("RESET search_path")


def replay(args):
    with open(args.replay) as f:
        case = json.load(f)
    fz = Fuzzer(args)
    fz.stats["programs"] = 0
    corpus = []
    if case["program"]["kind"] == "mut":
        corpus = [c for c in mutate.load_corpus(args.sqldir) if c["schema"] == case["program"]["schema"]]
    setup(fz, corpus)
    sig, o, n = fz.check(case["program"], case["mode"])
    if args.shrink_case and sig == case["signature"]:
        small = fz.shrink(case["program"], case["mode"], sig)
        sig, o, n = fz.check(small, case["mode"])
        print("shrunk, saved in %s" % fz.save(sig, small, case["mode"], o, n, shrunk=True))
    print("saved signature: %s" % case["signature"])
    print("now:             %s" % sig)
    print("\n=== PL/pgSQL\n%s\n\n=== plnimble\n%s" % (format_outcome(o), format_outcome(n)))
    return 0 if sig is None else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--nimble", required=True)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--mutate-share", type=float, default=0.4)
    ap.add_argument("--known", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "known.txt"))
    ap.add_argument("--out", default="results/fuzz")
    ap.add_argument("--sqldir", default="sql")
    ap.add_argument("--shrink-seconds", type=float, default=60)
    ap.add_argument("--shrink-tests", type=int, default=400)
    ap.add_argument("--shrink-known", action="store_true")
    ap.add_argument("--identify-as-plpgsql", action="store_true",
                    help="plnimble's session sets plnimble.identify_as_plpgsql (messages name PL/pgSQL)")
    ap.add_argument("--replay", help="run a saved case.json again")
    ap.add_argument("--shrink-case", action="store_true", help="with --replay: shrink it (saved under --out)")
    ap.add_argument("--progress", type=float, default=30, help="seconds between progress lines")
    args = ap.parse_args()
    if args.replay:
        return replay(args)
    if not args.count and not args.minutes:
        args.count = 1000

    skip = allowlisted_scripts(args.sqldir)
    corpus = [c for c in mutate.load_corpus(args.sqldir) if c["name"] not in skip]
    for c in corpus:
        drop_plnimble_only_calls(c)
    mut = mutate.Mutator(corpus)
    fz = Fuzzer(args)
    t0 = time.time()
    setup(fz, corpus)
    fz.vacuum()
    fz.log("fuzz: set-up %.1fs (%d corpus scripts, %d routines); seed %d" % (
        time.time() - t0, len(corpus), sum(len(c["routines"]) for c in corpus), args.seed))
    rng = random.Random(args.seed)
    start = time.time()
    last = start
    end = start + args.minutes * 60 if args.minutes else None
    i = 0
    while True:
        if args.count and i >= args.count:
            break
        if end and time.time() >= end:
            break
        # each program gets its own seed so that it can be regenerated
        prng = random.Random("%d/%d" % (args.seed, i))
        if prng.random() < args.mutate_share:
            prog = mut.mutate(prng)
            fz.stats["mut"] += 1
        else:
            prog = gen.generate(prng)
            fz.stats["gen"] += 1
        prog["id"] = "%d/%d" % (args.seed, i)
        fz.one(prog)
        i += 1
        if i % VACUUM_EVERY == 0:
            fz.vacuum()
        if i % RECONNECT_EVERY == 0:
            fz.oracle.reconnect()
            fz.nimble.reconnect()
        now = time.time()
        if now - last >= args.progress:
            last = now
            el = now - start
            fz.log("fuzz: %d programs (%d runs) in %.0fs, %.1f programs/s; %d differences (%d known), %d distinct, %d crashes, %d hangs"
                   % (fz.stats["programs"], fz.stats["runs"], el, fz.stats["programs"] / el,
                      fz.stats["differences"], fz.stats["known"], len(fz.findings), fz.stats["crashes"], fz.stats["hangs"]))
            fz.write_summary()
    el = time.time() - start
    fz.stats["seconds"] = round(el, 1)
    fz.stats["programs_per_second"] = round(fz.stats["programs"] / el, 1) if el else 0
    fz.write_summary()
    s = fz.stats
    new = [f for f in fz.findings.values() if not f["known"]]
    fz.log("fuzz: %d programs (%d generated, %d mutated), %d runs, %.0fs, %.1f programs/s"
           % (s["programs"], s["gen"], s["mut"], s["runs"], el, s["programs_per_second"]))
    fz.log("fuzz: %d differences in %d distinct signatures (%d new, %d known); %d crashes, %d hangs, %d flaky"
           % (s["differences"], len(fz.findings), len(new), len(fz.findings) - len(new),
              s["crashes"], s["hangs"], s["flaky"]))
    for f in sorted(fz.findings.values(), key=lambda x: -x["count"]):
        fz.log("  %-5s %6d  %s  [%s]%s" % ("known" if f["known"] else "NEW", f["count"], f["signature"], f["dir"],
                                           "  (%s)" % f["known"] if f["known"] else ""))
    unused = [k[3] for k in fz.known if k[2] == 0]
    if unused and args.count:
        fz.log("fuzz: %d known.txt entries matched nothing in this run:" % len(unused))
        for u in unused:
            fz.log("  unused: %s" % u)
    failed = s["unknown"]
    fz.log("%d passed, %d failed" % (s["programs"] - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
