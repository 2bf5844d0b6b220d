# SPDX-License-Identifier: BSD-2-Clause
# The bottom layer: messages, number formatting, command-line splitting and
# parsing, the small file helpers, growing arrays, and the latency histogram
# the parsers, the workloads and the measures share.  Nothing here includes
# another module.
libscaletop_a_SOURCES += src/util/error.c src/util/format.c src/util/cmdline.c src/util/argparse.c \
	src/util/files.c src/util/grow.c src/util/lathist.c
noinst_HEADERS += include/scaletop/argparse.h include/scaletop/files.h include/scaletop/grow.h \
	include/scaletop/lathist.h

UTIL_TESTS = tests/unit/test_argparse tests/unit/test_files tests/unit/test_grow \
	tests/unit/test_lathist
check_PROGRAMS += $(UTIL_TESTS)
TESTS += $(UTIL_TESTS)
