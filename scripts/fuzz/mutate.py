# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
"""Mutation programs: the routine bodies and DO blocks of sql/*.sql, changed
token by token.

load_corpus() splits every test script into statements and keeps, per
script, its set-up (CREATE TABLE / TYPE / DOMAIN / VIEW / INDEX / FUNCTION
/ PROCEDURE / TRIGGER and INSERT statements, run once into a schema of
its own in both databases), its routines (CREATE FUNCTION / PROCEDURE in a
procedural language, with their body cut out) and DO blocks, and the
SELECT / CALL statements that call each routine.  mutate() returns a
'mut' program: one routine or DO block with one to three token
mutations applied to its body, plus up to three of the script's calls.
"""

import os
import re

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<dollar>\$(?P<tag>[A-Za-z_][A-Za-z0-9_]*)?\$.*?\$(?P=tag)?\$)
  | (?P<string>[EeBbXxUu]?'(?:[^']|'')*')
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<param>\$\d+)
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
  | (?P<ident>[A-Za-z_\x80-\uffff][A-Za-z0-9_$\x80-\uffff]*)
  | (?P<op>:=|::|\.\.|<>|!=|<=|>=|\|\||=>|<<|>>|[-+*/%^<>=~!@#&|?]+)
  | (?P<punct>[(),;\[\].:])
  | (?P<other>.)
""", re.S | re.X)


def tokenize(text):
    return [m.group(0) for m in TOKEN_RE.finditer(text)]


KEYWORDS = """
ALIAS ALL AND ARRAY AS ASSERT BACKWARD BEGIN BY CALL CASE CHAIN CLOSE COLLATE
COLUMN COLUMN_NAME COMMIT CONSTANT CONSTRAINT CONTINUE CURRENT CURSOR DATATYPE
DEBUG DECLARE DEFAULT DETAIL DIAGNOSTICS DO DUMP ELSE ELSIF ELSEIF END ERRCODE
ERROR EXCEPTION EXECUTE EXIT FETCH FIRST FOR FOREACH FORWARD FROM GET HINT IF
IMPORT IN INFO INSERT INTO IS LAST LOG LOOP MERGE MESSAGE MESSAGE_TEXT MOVE NEXT
NO NOT NOTICE NULL OPEN OPTION OR PERFORM PG_CONTEXT PG_DATATYPE_NAME
PG_EXCEPTION_CONTEXT PG_EXCEPTION_DETAIL PG_EXCEPTION_HINT PRINT_STRICT_PARAMS
PRIOR QUERY RAISE RELATIVE RETURN RETURNED_SQLSTATE REVERSE ROLLBACK ROW_COUNT
ROWTYPE SCHEMA SCHEMA_NAME SCROLL SLICE SQLSTATE STACKED STRICT TABLE
TABLE_NAME THEN TO TYPE USE_COLUMN USE_VARIABLE USING VARIABLE_CONFLICT WARNING
WHEN WHILE SELECT UPDATE DELETE WHERE RETURNING NEW OLD FOUND SQLERRM comment
return type query record refcursor integer text %TYPE %ROWTYPE
""".split()

SPECIAL = ["0", "-1", "0x1F", "1_000", "0o17", "2147483648", "1e400", "''",
           "'\\'", "E'\\n'", "$1", "$$", ";", "(", ")", ",", ":=", "=", "..",
           "[", "]", "::", ".", "%", "'%'", "NULL", "<<lbl>>", "\n"]
COMMENTS = ["-- fz comment\n", "/* fz */", "/* fz /* nested */ */",
            "/*****************/\n", "--\n"]


def split_statements(text):
    """Split a psql script into statements (without backslash commands)."""
    text = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("\\"))
    out, cur, depth = [], [], 0
    for tok in tokenize(text):
        cur.append(tok)
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif tok == ";" and depth == 0:
            stmt = "".join(cur).strip()
            cur = []
            # drop leading comments
            stmt = re.sub(r"^(\s*--[^\n]*\n)+", "", stmt).strip()
            if stmt and stmt != ";":
                out.append(stmt)
    return out


ROUTINE_RE = re.compile(r"^CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE)\s+([\w.\"]+)", re.I)
# (ANALYZE too: without it the statistics a script's calls read, such as
# pg_statistic.stavalues1, would come from autovacuum, at another moment in
# each database)
SETUP_RE = re.compile(r"^(CREATE\s+(TABLE|TEMP|TYPE|DOMAIN|VIEW|INDEX|UNIQUE\s+INDEX|SEQUENCE|TRIGGER|"
                      r"OR\s+REPLACE\s+(FUNCTION|PROCEDURE|VIEW)|FUNCTION|PROCEDURE|AGGREGATE)|INSERT|ANALYZE)\b",
                      re.I)
LANG_RE = re.compile(r"\bLANGUAGE\s+(plnimble|plpgsql)\b", re.I)


def _body_span(stmt):
    """(start, end) of the first dollar-quoted string's content."""
    for m in TOKEN_RE.finditer(stmt):
        if m.group("dollar"):
            tag = "$%s$" % (m.group("tag") or "")
            return m.start() + len(tag), m.end() - len(tag), len(tag)
    return None


def load_corpus(sqldir):
    corpus = []
    for fn in sorted(os.listdir(sqldir)):
        if not fn.endswith(".sql"):
            continue
        name = fn[:-4]
        with open(os.path.join(sqldir, fn), encoding="utf-8", errors="replace") as f:
            stmts = split_statements(f.read())
        setup, routines, calls = [], [], []
        for s in stmts:
            head = s.lstrip("( ")
            if SETUP_RE.match(head) and "EVENT TRIGGER" not in head.upper():
                setup.append(s)
            m = ROUTINE_RE.match(s)
            if m and LANG_RE.search(s) and _body_span(s):
                routines.append(("routine", m.group(3).split(".")[-1].strip('"').lower(), s))
            elif re.match(r"^DO\b", s, re.I) and _body_span(s) and not re.search(r"LANGUAGE\s+(sql|c)\b", s, re.I):
                routines.append(("do", None, s))
            elif re.match(r"^(SELECT|CALL)\b", head, re.I):
                calls.append(s)
        if routines:
            corpus.append({"name": name, "schema": "fz_" + re.sub(r"\W", "_", name),
                           "setup": setup, "routines": routines, "calls": calls})
    return corpus


def mutate_tokens(rng, toks, pool):
    sig = [i for i, t in enumerate(toks) if not t.isspace()]
    if not sig:
        return toks
    toks = list(toks)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        sig = [i for i, t in enumerate(toks) if not t.isspace()]
        if not sig:
            break
        i = rng.choice(sig)
        op = rng.random()
        if op < 0.18:
            del toks[i]
        elif op < 0.28:
            toks.insert(i, toks[i] + " ")
        elif op < 0.48:
            toks[i] = rng.choice(pool)
        elif op < 0.58:
            j = sig[min(sig.index(i) + 1, len(sig) - 1)]
            toks[i], toks[j] = toks[j], toks[i]
        elif op < 0.70:
            toks.insert(i, " %s " % rng.choice(pool))
        elif op < 0.78:
            toks.insert(i, rng.choice(COMMENTS))
        elif op < 0.86:
            toks[i] = rng.choice(KEYWORDS)
        else:
            toks.insert(i, " %s " % rng.choice(SPECIAL))
    return toks


class Mutator:
    def __init__(self, corpus):
        self.corpus = corpus
        pool = set()
        for c in corpus:
            for _, _, s in c["routines"]:
                a, b, _ = _body_span(s)
                pool.update(t for t in tokenize(s[a:b]) if not t.isspace() and len(t) < 40)
        self.pool = sorted(pool) + KEYWORDS + SPECIAL

    def mutate(self, rng):
        c = rng.choice(self.corpus)
        what, name, stmt = rng.choice(c["routines"])
        a, b, tl = _body_span(stmt)
        head = stmt[:a - tl]
        head = re.sub(r"^CREATE\s+(OR\s+REPLACE\s+)?", "CREATE OR REPLACE ", head, flags=re.I) \
            if what == "routine" else head
        tail = stmt[b + tl:].rstrip().rstrip(";")
        body = "".join(mutate_tokens(rng, tokenize(stmt[a:b]), self.pool))
        calls = []
        if what == "routine":
            pat = re.compile(r"\b%s\s*\(" % re.escape(name), re.I)
            calls = [s for s in c["calls"] if pat.search(s)][:3]
        return {"kind": "mut", "schema": c["schema"], "file": c["name"],
                "head": head.rstrip() + " $fzq$", "body": body, "tail": "$fzq$" + tail,
                "calls": calls}
