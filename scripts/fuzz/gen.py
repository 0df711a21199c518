# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
"""Program generator: random PL/pgSQL bodies from the grammar.

A program is a dict; its 'kind' says how the runner turns it into SQL
(see render.py):
  func     RETURNS text function, called with (3, 'x'); also run as a DO
           block (parameters become variables of an outer block, RETURN e
           becomes a NOTICE)
  srf      RETURNS SETOF text (RETURN NEXT / RETURN QUERY); also as DO
  proc     procedure (INOUT p_i int, p_t text) with COMMIT / ROLLBACK,
           called outside a transaction block; also as a top-level DO
  trigger  trigger function on t1 or t2, fired by INSERT / UPDATE / DELETE
The body is the whole block text, one statement per line, RETURN
statements always on a line of their own (render.py rewrites them for DO).

The schema the bodies use is SETUP_SQL (created in both databases).
"""

import random

SETUP_SQL = r"""
CREATE TABLE t1 (id int PRIMARY KEY, v text, n numeric, d date);
CREATE TABLE t2 (a int, b int GENERATED ALWAYS AS (a * 2) STORED);
CREATE TABLE tlog (k int, msg text);
-- The physical order of the rows decides the order in which UPDATE and
-- DELETE visit them (trigger NOTICEs, the first row to fail): keep it the
-- same in both databases, so no autovacuum at random moments; the runner
-- vacuums both at the same points instead.
ALTER TABLE t1 SET (autovacuum_enabled = off);
ALTER TABLE t2 SET (autovacuum_enabled = off);
ALTER TABLE tlog SET (autovacuum_enabled = off);
CREATE TYPE pt AS (x int, y text);
CREATE DOMAIN dpos AS int CHECK (VALUE > 0);
CREATE DOMAIN dnn AS text NOT NULL;
CREATE DOMAIN dpt AS pt CHECK ((VALUE).x IS DISTINCT FROM 0);
CREATE FUNCTION fz_fail(k int) RETURNS int LANGUAGE plpgsql AS $f$
BEGIN
  IF k < 0 THEN
    RAISE EXCEPTION 'fz_fail %', k USING DETAIL = 'negative', HINT = 'use k >= 0';
  END IF;
  INSERT INTO tlog VALUES (k, 'fz_fail');
  RETURN k * 10;
END
$f$;
CREATE PROCEDURE fz_proc(INOUT x int, y text DEFAULT 'dflt') LANGUAGE plpgsql AS $f$
BEGIN
  RAISE NOTICE 'fz_proc % %', x, y;
  INSERT INTO tlog VALUES (x, 'fz_proc');
  x := x + 1;
END
$f$;
"""

# DELETE, not TRUNCATE: no new relation files, no catalog changes
RESET_SQL = r"""
DELETE FROM t1; DELETE FROM t2; DELETE FROM tlog;
INSERT INTO t1 VALUES (1, 'a', 1.5, '2024-01-01'), (2, 'b', NULL, NULL),
  (3, NULL, -2, '2020-02-29');
INSERT INTO t2 (a) VALUES (1), (2);
"""

STATE_SQL = (
    "SELECT concat_ws(' / ', "
    "(SELECT string_agg(t1::text, ' ' ORDER BY id) FROM t1), "
    "(SELECT string_agg(t2::text, ' ' ORDER BY a, b) FROM t2), "
    "(SELECT string_agg(tlog::text, ' ' ORDER BY k, msg) FROM tlog))"
)

SCALAR_TYPES = ["int", "text", "numeric", "bool", "date", "jsonb"]
CONDITIONS = [
    "division_by_zero", "unique_violation", "not_null_violation",
    "check_violation", "invalid_text_representation", "raise_exception",
    "no_data_found", "too_many_rows", "case_not_found", "assert_failure",
    "numeric_value_out_of_range", "string_data_right_truncation",
    "undefined_table", "syntax_error", "data_exception",
    "integrity_constraint_violation", "SQLSTATE '22012'", "SQLSTATE 'P0001'",
    "SQLSTATE '23505'", "others",
]
RAISE_LEVELS = ["DEBUG", "LOG", "INFO", "NOTICE", "WARNING", "EXCEPTION"]
RAISE_OPTS = ["MESSAGE", "DETAIL", "HINT", "ERRCODE", "COLUMN", "CONSTRAINT",
              "DATATYPE", "TABLE", "SCHEMA"]
DIAG_ITEMS = ["ROW_COUNT", "PG_CONTEXT"]
STACKED_ITEMS = ["RETURNED_SQLSTATE", "MESSAGE_TEXT", "PG_EXCEPTION_DETAIL",
                 "PG_EXCEPTION_HINT", "PG_EXCEPTION_CONTEXT", "COLUMN_NAME",
                 "CONSTRAINT_NAME", "PG_DATATYPE_NAME", "TABLE_NAME",
                 "SCHEMA_NAME"]


class Var:
    def __init__(self, name, typ, const=False, cursor=None):
        self.name, self.typ, self.const, self.cursor = name, typ, const, cursor


class Gen:
    def __init__(self, rng, kind):
        self.r = rng
        self.kind = kind
        self.scopes = [[]]
        self.n = 0
        self.loops = []          # labels (or None) of enclosing loops
        self.handler = 0         # inside an exception handler
        self.depth = 0
        self.stmts_left = rng.randint(6, 40)
        self.lines = []
        if kind in ("func", "srf", "proc"):
            self.scopes[0] += [Var("p_i", "int"), Var("p_t", "text")]
        if kind == "trigger":
            self.scopes[0] += [Var("new", "row"), Var("old", "row"),
                               Var("tg_op", "text", True), Var("tg_name", "text", True),
                               Var("tg_when", "text", True), Var("tg_level", "text", True),
                               Var("tg_table_name", "text", True),
                               Var("tg_nargs", "int", True)]

    # -- helpers --------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def fresh(self, prefix):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def visible(self, typ=None, writable=False):
        out = []
        for sc in self.scopes:
            for v in sc:
                if typ is not None and v.typ != typ:
                    continue
                if writable and v.const and not self.chance(0.03):
                    continue
                out.append(v)
        return out

    def var_of(self, typ, writable=False):
        vs = self.visible(typ, writable)
        return self.pick(vs).name if vs else None

    def emit(self, text):
        self.lines.append("  " * (self.depth + 1) + text)

    # -- expressions ----------------------------------------------------
    def expr(self, typ, d=0):
        r = self.r
        if d > 2 or self.chance(0.25):
            return self.leaf(typ)
        f = getattr(self, "expr_" + typ.replace("[]", "_arr"), None)
        return f(d + 1) if f else self.leaf(typ)

    def leaf(self, typ):
        v = self.var_of(typ) if self.chance(0.6) else None
        if typ == "int" and not v and self.chance(0.3):
            v = self.var_of("dpos")
        if v:
            return v
        lits = {
            "int": ["0", "1", "2", "3", "-1", "42", "2147483647", "NULL"],
            "text": ["'a'", "''", "'x y'", "NULL", "'12'", "'it''s'", "'%'"],
            "numeric": ["1.5", "0.0", "-2", "NULL", "1e3"],
            "bool": ["true", "false", "NULL"],
            "date": ["'2024-01-01'::date", "NULL::date", "'infinity'::date"],
            "jsonb": ["'{\"a\": 1}'::jsonb", "'[1, 2]'::jsonb", "NULL::jsonb"],
            "int[]": ["ARRAY[1, 2, 3]", "'{}'::int[]", "NULL::int[]", "'{4,5}'::int[]"],
            "text[]": ["ARRAY['a', 'b']", "'{}'::text[]", "ARRAY[NULL, 'z']"],
            "pt": ["ROW(1, 'p')::pt", "NULL::pt", "(2, NULL)::pt"],
            "dpos": ["1", "5"],
            "dnn": ["'nn'"],
            "dpt": ["ROW(1, 'q')::dpt"],
            "row": ["(SELECT t1 FROM t1 WHERE id = 1)"],
        }
        return self.pick(lits.get(typ, ["NULL"]))

    def ctx_var(self):
        """A variable for PG_CONTEXT / PG_EXCEPTION_CONTEXT, which is only
        printed: these texts name the language, and PL/nimble is longer
        than PL/pgSQL, so lengths and substrings of them differ anyway."""
        if "fz_ctx text;" not in self.lines_decl_extra:
            self.lines_decl_extra.append("fz_ctx text;")
        return "fz_ctx"

    def cond(self):
        e = self.expr("bool")
        return "(%s)" % e if self.chance(0.8) else e

    def in_handler_text(self):
        return ["SQLERRM", "SQLSTATE"] if self.handler else []

    def expr_int(self, d):
        e = lambda: self.expr("int", d)
        opts = [
            lambda: "(%s + %s)" % (e(), e()),
            lambda: "(%s * %s)" % (e(), e()),
            lambda: "(%s / %s)" % (e(), e()),
            lambda: "(%s %% %s)" % (e(), e()),
            lambda: "length(%s)" % self.expr("text", d),
            lambda: "coalesce(%s, 0)" % e(),
            lambda: "(SELECT count(*) FROM t1)::int",
            lambda: "(SELECT max(id) FROM t1 WHERE id > %s)" % e(),
            lambda: "%s::int" % self.expr("text", d),
            lambda: "fz_fail(%s)" % e(),
            lambda: "(CASE WHEN %s THEN %s ELSE %s END)" % (self.expr("bool", d), e(), e()),
            lambda: "abs(%s)" % e(),
            lambda: "array_length(%s, 1)" % self.expr("int[]", d),
            lambda: "(%s)[%s]" % (self.expr("int[]", d), e()),
            lambda: "(%s).x" % self.expr("pt", d),
        ]
        rv = self.var_of("row")
        if rv:
            opts.append(lambda: "%s.id" % rv)
        return self.pick(opts)()

    def expr_text(self, d):
        e = lambda: self.expr("text", d)
        opts = [
            lambda: "(%s || %s)" % (e(), e()),
            lambda: "upper(%s)" % e(),
            lambda: "%s::text" % self.expr("int", d),
            lambda: "format('%%s-%%s', %s, %s)" % (e(), self.expr("int", d)),
            lambda: "coalesce(%s, 'null')" % e(),
            lambda: "substr(%s, %s)" % (e(), self.expr("int", d)),
            lambda: "repeat(%s, 2)" % e(),
            lambda: "(%s)[%s]" % (self.expr("text[]", d), self.expr("int", d)),
            lambda: "(SELECT v FROM t1 WHERE id = %s)" % self.expr("int", d),
            lambda: "%s::text" % self.expr("jsonb", d),
            lambda: "(%s).y" % self.expr("pt", d),
            lambda: "quote_nullable(%s)" % e(),
        ]
        opts += [(lambda s=s: s) for s in self.in_handler_text()]
        rv = self.var_of("row")
        if rv:
            opts.append(lambda: "%s.v" % rv)
        return self.pick(opts)()

    def expr_numeric(self, d):
        e = lambda: self.expr("numeric", d)
        return self.pick([
            lambda: "(%s + %s)" % (e(), e()),
            lambda: "(%s / %s)" % (e(), e()),
            lambda: "round(%s, 1)" % e(),
            lambda: "%s::numeric" % self.expr("int", d),
            lambda: "(SELECT sum(n) FROM t1)",
            lambda: "%s::numeric(3,1)" % e(),
        ])()

    def expr_bool(self, d):
        i = lambda: self.expr("int", d)
        return self.pick([
            lambda: "%s = %s" % (i(), i()),
            lambda: "%s < %s" % (i(), i()),
            lambda: "%s IS NULL" % self.expr(self.pick(SCALAR_TYPES), d),
            lambda: "NOT %s" % self.expr("bool", d),
            lambda: "(%s AND %s)" % (self.expr("bool", d), self.expr("bool", d)),
            lambda: "(%s OR %s)" % (self.expr("bool", d), self.expr("bool", d)),
            lambda: "FOUND",
            lambda: "EXISTS (SELECT 1 FROM t1 WHERE id = %s)" % i(),
            lambda: "%s IS DISTINCT FROM %s" % (self.expr("text", d), self.expr("text", d)),
            lambda: "%s = ANY (%s)" % (i(), self.expr("int[]", d)),
        ])()

    def expr_date(self, d):
        return self.pick([
            lambda: "(%s + %s)" % (self.expr("date", d), self.expr("int", d)),
            lambda: "%s::date" % self.pick(["'2023-02-30'", "'2024-02-29'", "'2024-02-29'", "'epoch'"]),
            lambda: "(SELECT max(d) FROM t1)",
        ])()

    def expr_jsonb(self, d):
        return self.pick([
            lambda: "jsonb_build_object('k', %s)" % self.expr("text", d),
            lambda: "to_jsonb(%s)" % self.expr("int[]", d),
            lambda: "(%s -> 'a')" % self.expr("jsonb", d),
            lambda: "%s::jsonb" % self.pick(["'{\"b\": [1]}'", "'bad json'", "'null'"]),
        ])()

    def expr_int_arr(self, d):
        i = lambda: self.expr("int", d)
        return self.pick([
            lambda: "ARRAY[%s, %s]" % (i(), i()),
            lambda: "(%s || %s)" % (self.expr("int[]", d), i()),
            lambda: "array_append(%s, %s)" % (self.expr("int[]", d), i()),
            lambda: "(SELECT array_agg(id ORDER BY id) FROM t1)::int[]",
            lambda: "(%s)[1:2]" % self.expr("int[]", d),
        ])()

    def expr_text_arr(self, d):
        return self.pick([
            lambda: "ARRAY[%s]" % self.expr("text", d),
            lambda: "string_to_array(%s, ' ')" % self.expr("text", d),
            lambda: "(SELECT array_agg(v ORDER BY id) FROM t1)::text[]",
        ])()

    def expr_pt(self, d):
        return self.pick([
            lambda: "ROW(%s, %s)::pt" % (self.expr("int", d), self.expr("text", d)),
            lambda: "(%s, %s)::pt" % (self.expr("int", d), self.expr("text", d)),
        ])()

    def expr_dpos(self, d):
        return "%s::dpos" % self.expr("int", d) if self.chance(0.5) else self.expr("int", d)

    def expr_dnn(self, d):
        return self.expr("text", d)

    def expr_dpt(self, d):
        return self.expr("pt", d)

    # -- declarations ---------------------------------------------------
    def declare(self, count, toplevel):
        lines = []
        for _ in range(count):
            name = self.fresh("v")
            c = self.r.random()
            if c < 0.08:
                # cursors
                k = self.pick(["plain", "args", "scroll", "ref"])
                if k == "ref":
                    lines.append("%s%s refcursor;" % (name, " CONSTANT" if self.chance(0.1) else ""))
                    self.scopes[-1].append(Var(name, "refcursor", cursor="ref"))
                elif k == "args":
                    lines.append("%s CURSOR (k int) FOR SELECT id, v FROM t1 WHERE id >= k ORDER BY id;" % name)
                    self.scopes[-1].append(Var(name, "refcursor", True, cursor="args"))
                else:
                    lines.append("%s %sCURSOR FOR SELECT * FROM t1 ORDER BY id%s;" % (
                        name, "SCROLL " if k == "scroll" else "",
                        " FOR UPDATE" if self.chance(0.2) else ""))
                    self.scopes[-1].append(Var(name, "refcursor", True, cursor=k))
                continue
            if c < 0.14:
                lines.append("%s record;" % name)
                self.scopes[-1].append(Var(name, "record"))
                continue
            if c < 0.22:
                lines.append("%s %s;" % (name, self.pick(["t1%ROWTYPE", "t1"])))
                self.scopes[-1].append(Var(name, "row"))
                continue
            if c < 0.28:
                olds = [v for v in self.visible() if v.typ in SCALAR_TYPES + ["int[]", "text[]"]]
                if olds:
                    o = self.pick(olds)
                    lines.append("%s %s%%TYPE%s;" % (name, o.name, self.init(o.typ, False)))
                    self.scopes[-1].append(Var(name, o.typ))
                    continue
            if c < 0.33:
                col, typ = self.pick([("id", "int"), ("v", "text"), ("n", "numeric"), ("d", "date")])
                lines.append("%s t1.%s%%TYPE%s;" % (name, col, self.init(typ, False)))
                self.scopes[-1].append(Var(name, typ))
                continue
            if c < 0.36:
                al = self.visible()
                al = [v for v in al if v.cursor is None]
                if al:
                    o = self.pick(al)
                    lines.append("%s ALIAS FOR %s;" % (name, o.name))
                    self.scopes[-1].append(Var(name, o.typ, o.const))
                    continue
            typ = self.pick(SCALAR_TYPES * 3 + ["int[]", "text[]", "pt", "dpos", "dnn", "dpt"])
            spell = {"int": self.pick(["int", "integer", "int4"]),
                     "text": self.pick(["text", "varchar(5)", "text"]),
                     "numeric": self.pick(["numeric", "numeric(5,2)"]),
                     "bool": "boolean", "int[]": self.pick(["int[]", "integer ARRAY", "int[3]"])}.get(typ, typ)
            const = self.chance(0.12)
            notnull = self.chance(0.12) or (typ == "dnn" and self.chance(0.8))
            must = const or notnull or typ in ("dpos",)
            init = self.init(typ, must)
            lines.append("%s%s %s%s%s%s;" % (
                name, " CONSTANT" if const else "", spell,
                " COLLATE \"C\"" if typ == "text" and self.chance(0.05) else "",
                " NOT NULL" if notnull else "", init))
            self.scopes[-1].append(Var(name, typ, const))
        return lines

    def init(self, typ, must):
        if not must and self.chance(0.4):
            return ""
        return " %s %s" % (self.pick([":=", "=", "DEFAULT"]), self.expr(typ, 1))

    # -- statements -----------------------------------------------------
    def stmts(self, n):
        for _ in range(n):
            if self.stmts_left <= 0:
                break
            self.stmts_left -= 1
            self.stmt()

    def stmt(self):
        r = self.r
        ch = [
            (10, self.s_assign), (5, self.s_if), (3, self.s_case),
            (4, self.s_loop), (6, self.s_block), (8, self.s_sql),
            (5, self.s_raise), (3, self.s_execute), (2, self.s_getdiag),
            (3, self.s_cursor), (1, self.s_null), (2, self.s_perform),
            (1, self.s_assert), (1, self.s_call), (2, self.s_select_into),
        ]
        if self.loops:
            ch.append((2, self.s_exit))
        if self.kind == "srf":
            ch.append((4, self.s_return_next))
        if self.kind == "proc" and not self.handler:
            ch.append((4, self.s_txn))
        if self.chance(0.02):
            ch.append((30, self.s_return))
        tot = sum(w for w, _ in ch)
        x = r.uniform(0, tot)
        for w, f in ch:
            x -= w
            if x <= 0:
                return f()
        ch[-1][1]()

    def target(self):
        vs = [v for v in self.visible(writable=True) if v.cursor is None and not v.name.startswith("tg_")]
        if not vs:
            return None, None
        v = self.pick(vs)
        if v.typ == "int[]" and self.chance(0.3):
            return "%s[%s]" % (v.name, self.expr("int", 2)), "int"
        if v.typ == "row" and self.chance(0.5):
            col, t = self.pick([("id", "int"), ("v", "text"), ("n", "numeric")])
            return "%s.%s" % (v.name, col), t
        if v.typ in ("pt", "dpt") and self.chance(0.4):
            return "%s.x" % v.name, "int"
        if v.typ == "record":
            return v.name, "row"
        return v.name, v.typ

    def s_assign(self):
        t, typ = self.target()
        if not t:
            return self.s_null()
        if typ == "row":
            self.emit("%s %s (SELECT t1 FROM t1 WHERE id = %s);" % (t, self.pick([":=", "="]), self.expr("int", 1)))
            return
        self.emit("%s %s %s;" % (t, self.pick([":=", ":=", "="]), self.expr(typ)))

    def s_if(self):
        self.emit("IF %s THEN" % self.cond())
        self.nested(2)
        for _ in range(self.r.randint(0, 2)):
            self.emit("%s %s THEN" % (self.pick(["ELSIF", "ELSEIF"]), self.cond()))
            self.nested(2)
        if self.chance(0.5):
            self.emit("ELSE")
            self.nested(2)
        self.emit("END IF;")

    def s_case(self):
        if self.chance(0.5):
            self.emit("CASE %s" % self.expr("int"))
            for _ in range(self.r.randint(1, 3)):
                self.emit("WHEN %s%s THEN" % (self.expr("int", 2), ", 2" if self.chance(0.2) else ""))
                self.nested(2)
        else:
            self.emit("CASE")
            for _ in range(self.r.randint(1, 3)):
                self.emit("WHEN %s THEN" % self.cond())
                self.nested(2)
        if self.chance(0.6):
            self.emit("ELSE")
            self.nested(1)
        self.emit("END CASE;")

    def nested(self, n):
        self.depth += 1
        before = len(self.lines)
        self.stmts(self.r.randint(1, n))
        if len(self.lines) == before:
            self.emit("NULL;")
        self.depth -= 1

    def loop_body(self, label, extra=None):
        self.loops.append(label)
        if extra:
            self.scopes.append(extra)
        self.nested(4)
        if extra:
            self.scopes.pop()
        self.loops.pop()

    def s_loop(self):
        label = self.fresh("l") if self.chance(0.3) else None
        lab = "<<%s>> " % label if label else ""
        end = " %s" % label if label and self.chance(0.7) else ""
        k = self.pick(["for", "for", "while", "loop", "forq", "fore", "foreach", "forc"])
        if k == "for":
            iv = self.fresh("i")
            self.emit("%sFOR %s IN %s%s..%s%s LOOP" % (
                lab, iv, "REVERSE " if self.chance(0.2) else "",
                self.pick(["1", "0", self.expr("int", 2)]), self.pick(["3", "2", "1"]),
                " BY %s" % self.pick(["1", "2", "0"]) if self.chance(0.2) else ""))
            self.loop_body(label, [Var(iv, "int")])
        elif k == "while":
            cnt = self.fresh("w")
            self.lines_decl_extra.append("%s int := 0;" % cnt)
            self.emit("%sWHILE %s < %s LOOP" % (lab, cnt, self.pick(["2", "3"])))
            self.emit("  %s := %s + 1;" % (cnt, cnt))
            self.loop_body(label)
        elif k == "loop":
            cnt = self.fresh("w")
            self.lines_decl_extra.append("%s int := 0;" % cnt)
            self.emit("%sLOOP" % lab)
            self.emit("  %s := %s + 1;" % (cnt, cnt))
            self.emit("  EXIT%s WHEN %s > %s;" % (" %s" % label if label else "", cnt, self.pick(["2", "3"])))
            self.loop_body(label)
        elif k == "forq":
            rv = self.fresh("r")
            self.scopes[-1].append(Var(rv, "record"))
            self.lines_decl_extra.append("%s record;" % rv)
            self.emit("%sFOR %s IN SELECT * FROM t1 WHERE id <= %s ORDER BY id LOOP" % (lab, rv, self.expr("int", 2)))
            self.loop_body(label)
        elif k == "fore":
            rv = self.fresh("r")
            self.scopes[-1].append(Var(rv, "record"))
            self.lines_decl_extra.append("%s record;" % rv)
            self.emit("%sFOR %s IN EXECUTE 'SELECT id, v FROM t1 WHERE id > $1 ORDER BY 1' USING %s LOOP" % (
                lab, rv, self.expr("int", 2)))
            self.loop_body(label)
        elif k == "foreach" and self.chance(0.25):
            ev = self.fresh("e")
            self.lines_decl_extra.append("%s int[];" % ev)
            self.scopes[-1].append(Var(ev, "int[]"))
            self.emit("%sFOREACH %s SLICE %s IN ARRAY %s LOOP" % (
                lab, ev, self.pick(["1", "1", "2", "0"]),
                self.pick(["ARRAY[[1, 2], [3, 4]]", "'{{5},{6}}'::int[]", self.expr("int[]", 1)])))
            self.loop_body(label)
        elif k == "foreach":
            ev = self.fresh("e")
            self.lines_decl_extra.append("%s int;" % ev)
            self.scopes[-1].append(Var(ev, "int"))
            self.emit("%sFOREACH %s IN ARRAY %s LOOP" % (lab, ev, self.expr("int[]", 1)))
            self.loop_body(label)
        else:
            cs = [v for v in self.visible("refcursor") if v.cursor in ("plain", "args", "scroll")]
            if not cs:
                self.emit("%sFOR %s IN 1..2 LOOP" % (lab, self.fresh("i")))
                self.loop_body(label)
            else:
                c = self.pick(cs)
                rv = self.fresh("r")
                self.emit("%sFOR %s IN %s%s LOOP" % (lab, rv, c.name, "(%s)" % self.expr("int", 2) if c.cursor == "args" else ""))
                self.loop_body(label, [Var(rv, "record")])
        self.emit("END LOOP%s;" % end)

    def s_exit(self):
        labs = [l for l in self.loops if l]
        word = self.pick(["EXIT", "CONTINUE"])
        lab = " %s" % self.pick(labs) if labs and self.chance(0.5) else ""
        cond = " WHEN %s" % self.expr("bool") if self.chance(0.6) else ""
        self.emit("%s%s%s;" % (word, lab, cond))

    def s_block(self):
        label = self.fresh("b") if self.chance(0.2) else None
        if label:
            self.emit("<<%s>>" % label)
        self.scopes.append([])
        decl = self.declare(self.r.randint(0, 2), False) if self.chance(0.4) else []
        if decl:
            self.emit("DECLARE")
            for d in decl:
                self.emit("  " + d)
        self.emit("BEGIN")
        handlers = self.chance(0.8)
        self.depth += 1
        self.stmts(self.r.randint(0, 2))
        if handlers:
            self.s_sql()
            self.risky()
            self.stmts(self.r.randint(0, 2))
        self.depth -= 1
        if handlers:
            self.emit("EXCEPTION")
            for _ in range(self.r.randint(1, 3)):
                conds = " OR ".join(self.pick(CONDITIONS) for _ in range(self.r.randint(1, 2)))
                self.emit("  WHEN %s THEN" % conds)
                self.handler += 1
                self.depth += 1
                if self.chance(0.5):
                    self.s_stacked()
                self.stmts(self.r.randint(1, 2))
                if self.chance(0.1):
                    self.emit("RAISE;")
                self.depth -= 1
                self.handler -= 1
        self.scopes.pop()
        self.emit("END%s;" % (" %s" % label if label and self.chance(0.5) else ""))

    def risky(self):
        k = self.pick(["div", "cast", "dup", "strict", "raise", "dom", "fail", "notnull", "stmt"])
        if k == "div":
            t, typ = self.target()
            self.emit("%s := 1 / %s;" % (t, self.pick(["0", "p_i - 3", self.expr("int", 2)])) if typ == "int"
                      else "PERFORM 1 / %s;" % self.pick(["0", self.expr("int", 2)]))
        elif k == "cast":
            self.emit("PERFORM %s::int;" % self.pick(["'abc'", self.expr("text", 2)]))
        elif k == "dup":
            self.emit("INSERT INTO t1 (id, v) VALUES (%s, 'dup');" % self.pick(["1", "2", self.expr("int", 2)]))
        elif k == "strict":
            v = self.var_of("int", True) or "p_i"
            self.emit("SELECT id INTO STRICT %s FROM t1 WHERE id %s %s;" % (v, self.pick(["=", ">", "<"]), self.expr("int", 2)))
        elif k == "raise":
            self.s_raise(force_exc=True)
        elif k == "dom":
            v = self.var_of("dpos", True) or self.var_of("dnn", True)
            if v:
                self.emit("%s := %s;" % (v, self.pick(["0", "NULL", "-1", "'x'"])))
            else:
                self.emit("PERFORM (-1)::dpos;")
        elif k == "fail":
            self.emit("PERFORM fz_fail(%s);" % self.pick(["-1", self.expr("int", 2)]))
        elif k == "notnull":
            self.emit("UPDATE t1 SET id = NULL WHERE id = %s;" % self.expr("int", 2))
        else:
            self.stmt()

    def s_stacked(self):
        items = self.r.sample(STACKED_ITEMS, self.r.randint(1, 3))
        parts = []
        for it in items:
            v = self.ctx_var() if it == "PG_EXCEPTION_CONTEXT" else self.var_of("text", True)
            if not v:
                return
            parts.append("%s %s %s" % (v, self.pick(["=", ":="]), it))
        self.emit("GET STACKED DIAGNOSTICS %s;" % ", ".join(parts))
        self.emit("RAISE NOTICE 'stacked %%', concat_ws('|', %s);" % ", ".join(p.split()[0] for p in parts))

    def s_sql(self):
        k = self.pick(["ins", "ins", "upd", "del", "insret", "log", "sel"])
        if k == "ins":
            self.emit("INSERT INTO t1 VALUES (%s, %s, %s, %s);" % (
                self.pick(["10", "11", self.expr("int", 2)]), self.expr("text", 2), self.expr("numeric", 2), self.expr("date", 2)))
        elif k == "upd":
            self.emit("UPDATE t1 SET v = %s, n = %s WHERE id %s %s;" % (
                self.expr("text", 2), self.expr("numeric", 2), self.pick(["=", "<=", ">"]), self.expr("int", 2)))
        elif k == "del":
            self.emit("DELETE FROM t1 WHERE id = %s;" % self.expr("int", 2))
        elif k == "insret":
            v = self.var_of("int", True)
            self.emit("INSERT INTO tlog VALUES (%s, %s) RETURNING k INTO %s;" % (self.expr("int", 2), self.expr("text", 2), v) if v
                      else "INSERT INTO tlog VALUES (1, 'x');")
        elif k == "log":
            self.emit("INSERT INTO tlog VALUES (%s, %s);" % (self.expr("int", 2), self.expr("text", 2)))
            if self.chance(0.2):
                self.emit("INSERT INTO t2 (a) VALUES (%s);" % self.expr("int", 2))
        else:
            self.emit("UPDATE t2 SET a = a + %s;" % self.expr("int", 2))

    def s_select_into(self):
        vs = self.visible("record", True) + self.visible("row", True)
        vs = [v for v in vs if not v.name.startswith(("new", "old"))] or vs
        if vs and self.chance(0.6):
            v = self.pick(vs)
            self.emit("SELECT * INTO %s%s FROM t1 WHERE id %s %s ORDER BY id;" % (
                "STRICT " if self.chance(0.3) else "", v.name, self.pick(["=", ">=", "<"]), self.expr("int", 2)))
            return
        a, b = self.var_of("int", True), self.var_of("text", True)
        if a and b:
            self.emit("SELECT id, v INTO %s%s, %s FROM t1 WHERE id = %s;" % (
                "STRICT " if self.chance(0.2) else "", a, b, self.expr("int", 2)))
        else:
            self.s_sql()

    def s_raise(self, force_exc=False):
        lvl = "EXCEPTION" if force_exc else self.pick(RAISE_LEVELS[:5] * 4 + ["EXCEPTION"])
        form = self.r.random()
        opts = []
        if self.chance(0.4):
            for o in self.r.sample(RAISE_OPTS, self.r.randint(1, 3)):
                if o == "ERRCODE":
                    val = self.pick(["'22012'", "'P0001'", "'unique_violation'", "'XX001'", "'23505'"])
                else:
                    val = self.expr("text", 2) if self.chance(0.3) else self.pick(["'opt'", "'d e'", "p_t"])
                opts.append("%s %s %s" % (o, self.pick(["=", ":="]), val))
        using = " USING " + ", ".join(opts) if opts else ""
        if form < 0.6:
            n = self.r.randint(0, 3)
            fmt = "'%s%s'" % (self.pick(["msg", "m %% lit", "a\\b", "val"]), " %" * n)
            args = "".join(", (%s)" % self.expr(self.pick(SCALAR_TYPES + ["pt", "int[]"]), 1) for _ in range(n + (1 if self.chance(0.05) else 0)))
            self.emit("RAISE %s %s%s%s;" % (lvl, fmt, args, using))
        elif form < 0.75:
            self.emit("RAISE %s %s%s;" % (lvl, self.pick(CONDITIONS[:-1]), using))
        elif form < 0.85 and opts:
            self.emit("RAISE %s%s;" % (lvl, using))
        elif form < 0.92 and self.handler:
            self.emit("RAISE;")
        else:
            self.emit("RAISE %s SQLSTATE '%s'%s;" % (lvl, self.pick(["22012", "P0001", "12345", "0A000"]), using))

    def s_execute(self):
        k = self.pick(["ins", "sel", "fmt", "bad", "into"])
        if k == "ins":
            self.emit("EXECUTE 'INSERT INTO tlog VALUES ($1, $2)' USING %s, %s;" % (self.expr("int", 2), self.expr("text", 2)))
        elif k == "into":
            v = self.var_of("int", True)
            if v:
                self.emit("EXECUTE 'SELECT count(*) FROM t1 WHERE id > $1' INTO %s%s USING %s;" % (
                    "STRICT " if self.chance(0.3) else "", v, self.expr("int", 2)))
            else:
                self.emit("EXECUTE 'SELECT 1';")
        elif k == "fmt":
            v = self.var_of("text", True)
            self.emit("EXECUTE format('SELECT %%L::text || $1', %s) %sUSING %s;" % (
                self.expr("text", 2), "INTO %s " % v if v else "", self.expr("text", 2)))
        elif k == "bad":
            self.emit("EXECUTE %s;" % self.pick(["'SELECT 1/0'", "'SELEC 1'", "'UPDATE t1 SET v = v WHERE id = 1'", "NULL::text", "'SELECT $1' USING 1, 2"]))
        else:
            rv = self.var_of("record", True) or self.var_of("row", True)
            if rv:
                self.emit("EXECUTE 'SELECT * FROM t1 WHERE id = $1' INTO %s USING %s;" % (rv, self.expr("int", 2)))
            else:
                self.emit("EXECUTE 'SELECT 1' USING %s;" % self.expr("int", 2))

    def s_getdiag(self):
        it = self.pick(DIAG_ITEMS + (["RETURNED_SQLSTATE"] if self.chance(0.03) else []))
        v = self.var_of("int" if it == "ROW_COUNT" else "text", True)
        if it == "PG_CONTEXT":
            v = self.ctx_var()
        if not v:
            return self.s_null()
        self.emit("GET %sDIAGNOSTICS %s %s %s;" % (self.pick(["", "", "CURRENT "]) if not self.chance(0.05) else "STACKED ",
                                                   v, self.pick(["=", ":="]), it))
        if it == "PG_CONTEXT":
            self.emit("RAISE NOTICE 'ctx %%', %s;" % v)

    def s_cursor(self):
        cs = self.visible("refcursor")
        if not cs:
            return self.s_null()
        c = self.pick(cs)
        k = self.r.random()
        if k < 0.3:
            if c.cursor == "ref":
                self.emit("OPEN %s %sFOR %s;" % (c.name, self.pick(["", "SCROLL ", "NO SCROLL "]), self.pick([
                    "SELECT id, v FROM t1 ORDER BY id",
                    "EXECUTE 'SELECT id FROM t1 WHERE id > $1 ORDER BY id' USING %s" % self.expr("int", 2),
                    "SELECT %s" % self.expr("int", 2)])))
            elif c.cursor == "args":
                self.emit("OPEN %s(%s%s);" % (c.name, "k := " if self.chance(0.3) else "", self.expr("int", 2)))
            else:
                self.emit("OPEN %s;" % c.name)
        elif k < 0.7:
            rv = self.var_of("record", True)
            dirn = self.pick(["", "NEXT ", "PRIOR ", "FIRST ", "LAST ", "ABSOLUTE 2 ", "RELATIVE -1 ", "FORWARD ", "BACKWARD "])
            if rv:
                self.emit("FETCH %sFROM %s INTO %s;" % (dirn, c.name, rv))
            else:
                a = self.var_of("int", True) or "p_i"
                self.emit("FETCH %s%s INTO %s;" % (dirn, c.name, a))
            self.emit("RAISE NOTICE 'fetch %', FOUND;")
        elif k < 0.8:
            self.emit("MOVE %s%s %s;" % (self.pick(["", "NEXT ", "LAST ", "FORWARD 2 ", "FORWARD ALL "]), "FROM" if self.chance(0.5) else "IN", c.name))
        elif k < 0.9 and c.cursor in ("plain",):
            self.emit("UPDATE t1 SET v = 'cur' WHERE CURRENT OF %s;" % c.name)
        else:
            self.emit("CLOSE %s;" % c.name)

    def s_null(self):
        self.emit("NULL;")

    def s_perform(self):
        self.emit("PERFORM %s;" % self.pick([self.expr("int"), "fz_fail(%s)" % self.expr("int", 2),
                                             "* FROM t1 WHERE id = %s" % self.expr("int", 2), "pg_sleep(0)"]))

    def s_assert(self):
        self.emit("ASSERT %s%s;" % (self.expr("bool"), ", %s" % self.expr("text", 2) if self.chance(0.5) else ""))

    def s_call(self):
        v = self.var_of("int", True)
        if v and self.chance(0.7):
            self.emit("CALL fz_proc(%s%s);" % (v, ", %s" % self.expr("text", 2) if self.chance(0.5) else ""))
        else:
            self.emit("CALL fz_proc(%s);" % self.pick(["1", "NULL", self.expr("int", 2)]))

    def s_txn(self):
        self.emit(self.pick(["COMMIT;", "ROLLBACK;", "COMMIT AND CHAIN;", "ROLLBACK AND NO CHAIN;"]))

    def s_return_next(self):
        if self.chance(0.7):
            self.emit("RETURN NEXT %s;" % self.expr("text"))
        elif self.chance(0.5):
            self.emit("RETURN QUERY SELECT v FROM t1 WHERE id >= %s ORDER BY id;" % self.expr("int", 2))
        else:
            self.emit("RETURN QUERY EXECUTE 'SELECT $1::text' USING %s;" % self.expr("int", 2))

    def s_return(self):
        self.emit(self.final_return())

    def final_return(self):
        if self.kind == "func":
            vs = [v.name for v in self.visible() if v.cursor is None and v.typ not in ("record",) and not v.name.startswith("tg_")]
            return "RETURN concat_ws(',', %s);" % ", ".join(vs[:12] or ["'none'"])
        if self.kind == "trigger":
            return "RETURN %s;" % self.pick(["NEW", "NEW", "OLD", "NULL"])
        return "RETURN;"


TRIGGER_DML = [
    "INSERT INTO t1 VALUES (4, 'd', 4, NULL), (5, 'e', 5, '2024-05-05') RETURNING *",
    "UPDATE t1 SET v = coalesce(v, '') || 'u' WHERE id <= 2 RETURNING *",
    "DELETE FROM t1 WHERE id >= 2 RETURNING *",
    "INSERT INTO t1 VALUES (1, 'c', 0, NULL) ON CONFLICT (id) DO UPDATE SET v = 'conflict' RETURNING *",
]


def generate(rng):
    kind = rng.choices(["func", "srf", "proc", "trigger"], [60, 12, 14, 14])[0]
    g = Gen(rng, kind)
    g.lines_decl_extra = []
    decl = g.declare(rng.randint(1, 7), True)
    g.stmts(rng.randint(3, 14))
    g.emit(g.final_return())
    body = []
    extra = g.lines_decl_extra
    if decl or extra:
        body.append("DECLARE")
        body += ["  " + d for d in decl + extra]
    body.append("BEGIN")
    body += g.lines
    body.append("END")
    prog = {"kind": kind, "body": "\n".join(body) + "\n"}
    if kind == "trigger":
        prog["table"] = "t2" if rng.random() < 0.2 else "t1"
        prog["when"] = rng.choice(["BEFORE", "BEFORE", "AFTER"])
        prog["level"] = rng.choice(["ROW", "ROW", "ROW", "STATEMENT"])
        prog["events"] = rng.choice(["INSERT OR UPDATE OR DELETE", "INSERT", "UPDATE", "DELETE", "UPDATE OR INSERT"])
        if prog["table"] == "t2":
            prog["dml"] = [rng.choice(["UPDATE t2 SET a = a + 1 RETURNING *", "INSERT INTO t2 (a) VALUES (7) RETURNING *"])]
        else:
            prog["dml"] = rng.sample(TRIGGER_DML, rng.randint(1, 2))
    return prog
