# SPDX-License-Identifier: BSD-2-Clause
# What is read out of sessions and snapshots for a person: the results
# table, compare, the gnuplot and folded exports, and the table importer.
# No JSON here: the store reads and writes the files.

# The results table (one row per step) that run, show and the TUI's steps view print.
libscaletop_a_SOURCES += src/report/step_table.c src/report/step_table_hot.c
noinst_HEADERS += include/scaletop/step_table.h include/scaletop/report.h

# Comparing, exporting and importing.
noinst_HEADERS += src/report/compare_priv.h src/report/snapshot_gnuplot.h src/report/import_table.h
libscaletop_a_SOURCES += \
	src/report/host_text.c \
	src/report/snapshot_compare.c \
	src/report/snapshot_compare_warn.c \
	src/report/snapshot_compare_waits.c src/report/snapshot_compare_fair.c \
	src/report/snapshot_compare_hot.c src/report/snapshot_compare_locks.c \
	src/report/snapshot_compare_stats.c \
	src/report/snapshot_compare_trials.c \
	src/report/snapshot_side.c \
	src/report/snapshot_compare_md.c src/report/snapshot_compare_md_fit.c \
	src/report/snapshot_gnuplot.c src/report/snapshot_gnuplot_axes.c \
	src/report/snapshot_gnuplot_lat.c src/report/snapshot_compare_lat.c \
	src/report/snapshot_folded.c \
	src/report/snapshot_import.c \
	src/report/snapshot_import_table.c \
	src/report/snapshot_import_fields.c
