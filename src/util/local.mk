# SPDX-License-Identifier: BSD-2-Clause
# The bottom layer: messages, number formatting, command-line splitting and
# parsing, and the small file helpers.  Nothing here includes another module.
libscaletop_a_SOURCES += src/util/error.c src/util/format.c src/util/cmdline.c src/util/argparse.c \
	src/util/files.c src/util/grow.c
noinst_HEADERS += include/scaletop/argparse.h include/scaletop/files.h include/scaletop/grow.h

UTIL_TESTS = tests/unit/test_argparse tests/unit/test_files tests/unit/test_grow
check_PROGRAMS += $(UTIL_TESTS)
TESTS += $(UTIL_TESTS)
