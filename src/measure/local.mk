# SPDX-License-Identifier: BSD-2-Clause
# The per-step measurements, one a file, and their table (collector.h,
# measures.h): the engine runs them over each window, the store writes,
# reads and reports their sections.
libscaletop_a_SOURCES += src/measure/collectors.c src/measure/waits.c src/measure/kernel_locks.c \
	src/measure/probes.c src/measure/census.c src/measure/kstacks.c src/measure/hot.c \
	src/measure/freq.c src/measure/freq_range.c src/measure/others.c src/measure/target.c \
	src/measure/field_read.c
noinst_HEADERS += include/scaletop/collector.h include/scaletop/measures.h \
	include/scaletop/field_read.h
