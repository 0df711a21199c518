# Copyright (c) 2026, the plnimble developers.  PostgreSQL License: see LICENSE.
# plnimble: a PL/pgSQL-compatible procedural language with lazy savepoints.
#
# Built with PGXS against the server found by pg_config.  The parser is
# generated from grammar/ at build time; the condition-name table is
# generated from the server's own errcodes.txt.  Generated files are build
# output and are not committed.

MODULE_big = plnimble
EXTENSION = plnimble
# One install script, 0.1's, and the upgrade scripts from each version to
# the next: CREATE EXTENSION plnimble installs the default version by
# running 0.1's script and then the upgrade path (PostgreSQL chooses it when
# the version has no install script of its own), so a fresh install and
# an updated one run the same text (sql/extension_upgrade.sql compares
# them).  A new version adds an upgrade script, never an install script.
DATA = plnimble--0.1.sql plnimble--0.1--1.0.sql \
	plnimble--1.0--1.1.sql plnimble--1.1--1.2.sql
PGFILEDESC = "plnimble - PL/pgSQL-compatible language with lazy savepoints"

OBJS = \
	grammar/gram.o \
	grammar/scan.o \
	src/entry/handler.o \
	src/entry/fast_call.o \
	src/entry/funcs.o \
	src/entry/version.o \
	src/compile/compile.o \
	src/compile/namespace.o \
	src/compile/conditions.o \
	src/compile/settings.o \
	src/compile/stmts.o \
	src/exec/exec.o \
	src/exec/exec_expr.o \
	src/exec/exec_sql.o \
	src/exec/exec_dynamic.o \
	src/exec/exec_cursor.o \
	src/exec/exec_setret.o \
	src/exec/exec_trigger.o \
	src/exec/assign.o \
	src/exec/raise.o \
	src/exec/text_append.o \
	src/exec/plugin.o \
	src/exec/exec_guarded_query.o \
	src/lazy/savepoint.o \
	src/lazy/purity.o \
	src/lazy/guard.o \
	src/lazy/guarded_query.o \
	src/lazy/snapshots.o \
	src/write/write_path.o \
	src/write/write_direct.o \
	src/tools/check.o \
	src/tools/check_call.o \
	src/tools/check_depend.o \
	src/tools/check_pragma.o \
	src/tools/check_report.o \
	src/tools/dump.o \
	src/tools/explain.o \
	src/tools/profiler.o \
	src/tools/profiler_shared.o \
	src/tools/tracer.o

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
PG_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/grammar -Igrammar -Isrc

# Only the entry points the server looks up by name are exported (they are
# declared PGDLLEXPORT in the layers' headers); every other symbol stays inside
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

EXTRA_CLEAN = grammar/gram.c grammar/gram.h grammar/scan.c src/compile/conditions_table.h \
	src/lazy/lazy_check_list.h src/lazy/lazy_check.wrap src/entry/version.stamp

# The checking build (make PLN_LAZY_CHECK=1; docs/design.md, "The checking
# build"): the server functions plnimble's objects call that belong to the
# groups in scripts/gen-lazy-check.sh are wrapped by src/lazy/lazy_check.c.
ifdef PLN_LAZY_CHECK
LAZY_CHECKED_OBJS := $(OBJS)
OBJS += src/lazy/lazy_check.o
SHLIB_LINK += @src/lazy/lazy_check.wrap
endif
# With PLN_SERVER_CHECK=1 as well, for the server scripts/cassert-server.sh 15
# builds (wrapped at its own entry points for catalog, buffer, lock, SPI
# and snapshot access): lazy_check.c sets that server's hook.  Such a build
# does not load into any other server (the hook variable is missing).
ifdef PLN_SERVER_CHECK
ifndef PLN_LAZY_CHECK
$(error PLN_SERVER_CHECK=1 needs PLN_LAZY_CHECK=1)
endif
ifeq ($(wildcard $(shell $(PG_CONFIG) --includedir-server)/server_access_check.h),)
$(error PLN_SERVER_CHECK=1: this server has no server_access_check.h (build it with scripts/cassert-server.sh 15))
endif
PG_CPPFLAGS += -DPLN_SERVER_CHECK
endif

# make installcheck: the regression scripts of sql/, in an existing server
# (PGHOST, PGPORT, PGUSER as usual; a superuser, as the scripts create
# languages).  pg_regress would run them all in one database; the launcher
# gives each script a database of its own set up as scripts/test.sh's
# template is (the language named plpgsql runs on plnimble), and drops it
# afterwards.  scripts/test.sh runs the same scripts and also compares
# them with the real PL/pgSQL.
REGRESS = $(sort $(patsubst sql/%.sql,%,$(wildcard sql/*.sql)))
REGRESS_OPTS = --launcher=$(abspath scripts/installcheck-launcher.sh)

# What plnimble_version() reports about the library: the extension version
# it implements (default_version of the control file), the git commit of
# the source (with -dirty for uncommitted changes; "unknown" when this
# directory is not the top of a git checkout), and when src/entry/version.o was
# compiled (SOURCE_DATE_EPOCH, if set, for reproducible builds).  version.o
# is compiled again whenever any other object is, or the commit changes
# (src/entry/version.stamp).  These are passed to version.c only, as -D macros.
PLN_EXT_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" plnimble.control)
PLN_GIT = git -c safe.directory='*' -C $(CURDIR)
PLN_GIT_COMMIT := $(shell test "$$($(PLN_GIT) rev-parse --show-toplevel 2>/dev/null)" = "$(realpath $(CURDIR))" && \
	$(PLN_GIT) describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
PLN_BUILD_TIME = $(shell date -u $(if $(SOURCE_DATE_EPOCH),-d @$(SOURCE_DATE_EPOCH)) +%Y-%m-%dT%H:%M:%SZ)

include $(PGXS)

# plnimble--1.0.sql was an install script until 1.2.  A copy an earlier
# make install left would be a shorter path to the default version than
# 0.1's script and the upgrades, and CREATE EXTENSION would take it.
install: remove-old-install-scripts
.PHONY: remove-old-install-scripts
remove-old-install-scripts:
	rm -f '$(DESTDIR)$(datadir)/$(datamoduledir)/plnimble--1.0.sql'

# Parser generation.  The scanner needs the token numbers from gram.h.
# One bison run writes both files: a grouped target (GNU make 4.3), so that
# make -j runs it once rather than once per file.
grammar/gram.c grammar/gram.h &: grammar/gram.y
	bison -Wno-deprecated -d -o grammar/gram.c $<

grammar/scan.c: grammar/scan.l
	flex -o $@ $<

grammar/scan.o: grammar/scan.c grammar/gram.h
grammar/gram.o: grammar/gram.c grammar/gram.h
src/compile/compile.o src/compile/namespace.o src/entry/handler.o: grammar/gram.h

# Condition names come from the server's errcodes.txt, never typed by hand.
src/compile/conditions_table.h: scripts/gen-conditions.awk $(ERRCODES_TXT)
	awk -f scripts/gen-conditions.awk $(ERRCODES_TXT) > $@

src/compile/conditions.o: src/compile/conditions_table.h

# Every object depends on every header of the project (a header is small,
# and a full rebuild takes seconds).
PLN_HEADERS := $(wildcard $(srcdir)/src/*.h $(srcdir)/src/*/*.h)
$(OBJS): $(filter-out %/conditions_table.h %/lazy_check_list.h,$(PLN_HEADERS))

src/entry/version.stamp: FORCE
	@echo '$(PLN_EXT_VERSION) $(PLN_GIT_COMMIT)' | cmp -s - $@ || \
		echo '$(PLN_EXT_VERSION) $(PLN_GIT_COMMIT)' > $@

PLN_VERSION_DEFINES = -DPLN_EXT_VERSION='"$(PLN_EXT_VERSION)"' \
	-DPLN_GIT_COMMIT='"$(PLN_GIT_COMMIT)"' -DPLN_BUILD_TIME='"$(PLN_BUILD_TIME)"'
src/entry/version.o: src/entry/version.stamp $(filter-out src/entry/version.o src/lazy/lazy_check.o,$(OBJS))
src/entry/version.o src/entry/version.bc: private override CPPFLAGS += $(PLN_VERSION_DEFINES)
src/entry/version.bc: src/entry/version.o

.PHONY: FORCE
FORCE:

ifdef PLN_LAZY_CHECK
src/lazy/lazy_check_list.h src/lazy/lazy_check.wrap &: scripts/gen-lazy-check.sh $(LAZY_CHECKED_OBJS)
	bash scripts/gen-lazy-check.sh "$(shell $(PG_CONFIG) --includedir-server)" \
		src/lazy/lazy_check_list.h src/lazy/lazy_check.wrap $(LAZY_CHECKED_OBJS)

src/lazy/lazy_check.o src/lazy/lazy_check.bc: src/lazy/lazy_check_list.h
$(shlib): src/lazy/lazy_check.wrap
endif
