# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
"""A minimal libpq binding (ctypes) for the fuzzer.

Why not a driver module: the fuzzer needs every field of every notice
(SQLSTATE, DETAIL, HINT, CONTEXT, positions), which psycopg2 does not
give for notices, and it needs nothing but libpq5, which every machine
with the PostgreSQL client already has.  Only the simple query protocol
is used: one round trip per call of Conn.run().
"""

import ctypes
import ctypes.util
import select
import time

_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    name = ctypes.util.find_library("pq") or "libpq.so.5"
    lib = ctypes.CDLL(name)
    vp, cp, ci = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    for fn, res, args in (
        ("PQconnectdb", vp, [cp]),
        ("PQstatus", ci, [vp]),
        ("PQerrorMessage", cp, [vp]),
        ("PQfinish", None, [vp]),
        ("PQsendQuery", ci, [vp, cp]),
        ("PQgetResult", vp, [vp]),
        ("PQresultStatus", ci, [vp]),
        ("PQresultErrorField", cp, [vp, ci]),
        ("PQresultErrorMessage", cp, [vp]),
        ("PQntuples", ci, [vp]),
        ("PQnfields", ci, [vp]),
        ("PQgetvalue", cp, [vp, ci, ci]),
        ("PQgetisnull", ci, [vp, ci, ci]),
        ("PQcmdStatus", cp, [vp]),
        ("PQclear", None, [vp]),
        ("PQsetNoticeReceiver", vp, [vp, vp, vp]),
        ("PQtransactionStatus", ci, [vp]),
        ("PQbackendPID", ci, [vp]),
        ("PQsocket", ci, [vp]),
        ("PQconsumeInput", ci, [vp]),
        ("PQisBusy", ci, [vp]),
    ):
        f = getattr(lib, fn)
        f.restype = res
        f.argtypes = args
    _lib = lib
    return lib


# PGresult status codes and error fields (libpq-fe.h / postgres_ext.h)
PGRES_COMMAND_OK, PGRES_TUPLES_OK = 1, 2
PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR = 7, 6
CONNECTION_OK = 0
FIELDS = (
    ("severity", ord("V")),
    ("sqlstate", ord("C")),
    ("message", ord("M")),
    ("detail", ord("D")),
    ("hint", ord("H")),
    ("position", ord("P")),
    ("internal_position", ord("p")),
    ("internal_query", ord("q")),
    ("context", ord("W")),
    ("schema", ord("s")),
    ("table", ord("t")),
    ("column", ord("c")),
    ("datatype", ord("d")),
    ("constraint", ord("n")),
)

_RECEIVER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


def _fields(lib, res):
    out = {}
    for key, code in FIELDS:
        v = lib.PQresultErrorField(res, code)
        if v is not None:
            out[key] = v.decode("utf-8", "replace")
    return out


class ConnectionLost(Exception):
    pass


class Timeout(Exception):
    """The server did not answer within the client-side limit."""


class Conn:
    """One connection.  run(sql) returns a list of events: the results
    ('rows', [tuple...]), ('ok', cmdstatus), ('error', fields) in order,
    then the notices ('notice', fields) in the order they arrived."""

    def __init__(self, conninfo):
        self.lib = _load()
        self.conninfo = conninfo
        self.events = []
        self.notices = []
        self.pg = self.lib.PQconnectdb(conninfo.encode())
        if self.lib.PQstatus(self.pg) != CONNECTION_OK:
            msg = self.lib.PQerrorMessage(self.pg).decode("utf-8", "replace")
            self.lib.PQfinish(self.pg)
            self.pg = None
            raise ConnectionLost(msg.strip())
        lib = self.lib

        def receive(_arg, res):
            self.notices.append(("notice", _fields(lib, res)))

        self._receiver = _RECEIVER(receive)  # keep a reference
        lib.PQsetNoticeReceiver(self.pg, ctypes.cast(self._receiver, ctypes.c_void_p), None)

    def pid(self):
        return self.lib.PQbackendPID(self.pg)

    def alive(self):
        return self.pg is not None and self.lib.PQstatus(self.pg) == CONNECTION_OK

    def in_transaction(self):
        # PQTRANS_IDLE = 0
        return self.lib.PQtransactionStatus(self.pg) != 0

    def run(self, sql, timeout=None):
        """Send sql (one or more statements), collect everything.  With a
        timeout (seconds), raise Timeout when the answer takes longer."""
        lib = self.lib
        self.events = []
        self.notices = []
        if not lib.PQsendQuery(self.pg, sql.encode("utf-8")):
            raise ConnectionLost(lib.PQerrorMessage(self.pg).decode("utf-8", "replace").strip())
        deadline = time.time() + timeout if timeout else None
        while True:
            if deadline:
                self._wait(deadline)
            res = lib.PQgetResult(self.pg)
            if not res:
                break
            st = lib.PQresultStatus(res)
            if st == PGRES_TUPLES_OK:
                nr, nf = lib.PQntuples(res), lib.PQnfields(res)
                rows = []
                for r in range(nr):
                    row = []
                    for f in range(nf):
                        if lib.PQgetisnull(res, r, f):
                            row.append(None)
                        else:
                            row.append(lib.PQgetvalue(res, r, f).decode("utf-8", "replace"))
                    rows.append(tuple(row))
                self.events.append(("rows", rows))
            elif st == PGRES_COMMAND_OK:
                self.events.append(("ok", lib.PQcmdStatus(res).decode()))
            elif st in (PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR):
                f = _fields(lib, res)
                if not f.get("sqlstate"):
                    # no SQLSTATE: libpq's own error, the connection broke
                    msg = (lib.PQresultErrorMessage(res) or b"").decode("utf-8", "replace")
                    lib.PQclear(res)
                    raise ConnectionLost(msg.strip())
                self.events.append(("error", f))
            else:
                self.events.append(("status", st))
            lib.PQclear(res)
        if lib.PQstatus(self.pg) != CONNECTION_OK:
            raise ConnectionLost(lib.PQerrorMessage(self.pg).decode("utf-8", "replace").strip())
        # Notices last: libpq may read ahead, so where a notice lands among
        # the results of a multi-statement string depends on timing.
        return self.events + self.notices

    def _wait(self, deadline):
        lib = self.lib
        sock = lib.PQsocket(self.pg)
        while lib.PQisBusy(self.pg):
            left = deadline - time.time()
            if left <= 0:
                raise Timeout()
            r, _, _ = select.select([sock], [], [], left)
            if r and not lib.PQconsumeInput(self.pg):
                return   # broken: PQgetResult reports it

    def close(self):
        if self.pg is not None:
            self.lib.PQfinish(self.pg)
            self.pg = None
