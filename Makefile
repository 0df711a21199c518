# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# plnimble: a PL/pgSQL-compatible procedural language with lazy savepoints.
#
# Built with PGXS against the server found by pg_config.  The parser is
# generated from grammar/ at build time; the condition-name table is
# generated from the server's own errcodes.txt.  Generated files are build
# output and are not committed.

MODULE_big = plnimble
EXTENSION = plnimble
DATA = plnimble--0.1.sql
PGFILEDESC = "plnimble - PL/pgSQL-compatible language with lazy savepoints"

OBJS = \
	grammar/gram.o \
	grammar/scan.o \
	src/handler.o \
	src/compile.o \
	src/namespace.o \
	src/exec.o \
	src/exec_expr.o \
	src/exec_sql.o \
	src/exec_dynamic.o \
	src/exec_cursor.o \
	src/exec_setret.o \
	src/exec_trigger.o \
	src/assign.o \
	src/raise.o \
	src/savepoint.o \
	src/purity.o \
	src/text_append.o \
	src/snapshots.o \
	src/conditions.o \
	src/funcs.o \
	src/explain.o

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
PG_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/grammar -Igrammar -Isrc

# Only the entry points the server looks up by name are exported (they are
# declared PGDLLEXPORT in src/plnimble.h); every other symbol stays inside
# the library, so calls between our files are direct calls and our globals
# are reached without the symbol table's indirection.  This is what
# PostgreSQL 16's PGXS does for every module; 15's leaves PGDLLEXPORT empty
# on this platform, so it is defined here.
PG_CFLAGS = -fvisibility=hidden
# Calls into the server and libc go straight through the symbol table
# instead of through a stub each.
PG_CFLAGS += -fno-plt
PG_CPPFLAGS += -D'PGDLLEXPORT=__attribute__((visibility("default")))'
ERRCODES_TXT := $(shell $(PG_CONFIG) --sharedir)/errcodes.txt

EXTRA_CLEAN = grammar/gram.c grammar/gram.h grammar/scan.c src/conditions_table.h

include $(PGXS)

# Parser generation.  The scanner needs the token numbers from gram.h.
grammar/gram.c grammar/gram.h: grammar/gram.y
	bison -Wno-deprecated -d -o grammar/gram.c $<

grammar/scan.c: grammar/scan.l
	flex -o $@ $<

grammar/scan.o: grammar/scan.c grammar/gram.h
grammar/gram.o: grammar/gram.c grammar/gram.h
src/compile.o src/namespace.o src/handler.o: grammar/gram.h

# Condition names come from the server's errcodes.txt, never typed by hand.
src/conditions_table.h: scripts/gen-conditions.awk $(ERRCODES_TXT)
	awk -f scripts/gen-conditions.awk $(ERRCODES_TXT) > $@

src/conditions.o: src/conditions_table.h

$(OBJS): src/plnimble.h src/pln_tree.h src/pln_compile.h src/pln_exec.h \
	src/pln_savepoint.h src/pln_handler.h
