# SPDX-License-Identifier: BSD-2-Clause
# Built-in workloads, their registry and parameter parsing, then the
# workloads' bodies (the forked child runs them): a new workload's file
# goes at the end of the list.
libscaletop_a_SOURCES += src/workload/builtin.h src/workload/params.c src/workload/file_path.c \
	src/workload/registry.c src/workload/cpu.c src/workload/memory.c src/workload/mutex.c \
	src/workload/spinlock.c src/workload/fileio.c src/workload/fdshare.c \
	src/workload/fdtable.c src/workload/unixsock.c src/workload/pagefault.c

WORKLOAD_TESTS = tests/unit/test_workload_params tests/unit/test_workloads tests/unit/test_fdtable \
	tests/unit/test_lockwait

check_PROGRAMS += $(WORKLOAD_TESTS)
TESTS += $(WORKLOAD_TESTS)

# Parsers of external commands' throughput lines: the registry (parse.c),
# one file per kind, the parser object they share (parser.c) and their
# scanning helpers (parse_scan.c).  A new kind's file goes in this list.
noinst_HEADERS += include/scaletop/parse.h
libscaletop_a_SOURCES += src/workload/parse.c src/workload/parse_sysbench.c \
	src/workload/parse_pgbench.c src/workload/parse_regex.c src/workload/parser.h \
	src/workload/parser.c src/workload/parse_scan.c src/workload/parse_pgbench_log.c

UNIT_TESTS += tests/unit/test_parse

UNIT_TESTS += tests/unit/test_parse_limits
