# SPDX-License-Identifier: BSD-2-Clause
scaletop_SOURCES += \
	src/cli/main.c \
	src/cli/cli.h
# The commands other than the monitor (main's cmd_tui).
libscaletop_a_SOURCES += src/cli/sample.h src/cli/sample.c src/cli/sample_args.c src/cli/run.h \
	src/cli/run.c src/cli/progress.h src/cli/progress.c src/cli/list.c src/cli/list_topo.c \
	src/cli/show.c \
	src/cli/compare.c src/cli/export.c src/cli/import.c src/cli/runs.c
