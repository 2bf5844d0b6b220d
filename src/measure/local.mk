# SPDX-License-Identifier: BSD-2-Clause
# The per-step measurements, one a file, and their table (collector.h,
# measures.h): the engine runs them over each window, the store writes and
# reads their sections, report prints their lines; and the JSON of whole
# stacks, which the hot paths' section and the kernel stacks' share.
libscaletop_a_SOURCES += src/measure/collectors.c src/measure/waits.c src/measure/kernel_locks.c \
	src/measure/probes.c src/measure/census.c src/measure/kstacks.c src/measure/hot.c \
	src/measure/freq.c src/measure/freq_range.c src/measure/latency.c src/measure/others.c src/measure/target.c \
	src/measure/field_read.c src/measure/stacks_write.c src/measure/stacks_read.c
noinst_HEADERS += include/scaletop/collector.h include/scaletop/measures.h \
	include/scaletop/field_read.h include/scaletop/stacks_json.h
