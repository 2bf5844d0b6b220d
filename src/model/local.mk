# SPDX-License-Identifier: BSD-2-Clause
# Pure model code: -n lists, interval statistics and a sweep's phases.
noinst_HEADERS += include/scaletop/phase.h
noinst_HEADERS += include/scaletop/nlist.h include/scaletop/stats.h
libscaletop_a_SOURCES += src/model/nlist.c src/model/phase.c src/model/stats.c

# The topology's boundary N and its words, and -n topo (nlist.c), on the fixtures' topologies.
noinst_HEADERS += include/scaletop/topology.h
libscaletop_a_SOURCES += src/model/topology.c
UNIT_TESTS += tests/unit/test_topology

# Where threads wait: the profile's tally and shares.
noinst_HEADERS += include/scaletop/waits.h include/scaletop/probe_join.h
libscaletop_a_SOURCES += src/model/waits.c src/model/probe_join.c
check_PROGRAMS += tests/unit/test_waits tests/unit/test_probe_join
TESTS += tests/unit/test_waits tests/unit/test_probe_join

# The lock census: futex waiters grouped into locks per (process, address).
noinst_HEADERS += include/scaletop/census.h
libscaletop_a_SOURCES += src/model/census.c
UNIT_TESTS += tests/unit/test_census

# The blocked threads' kernel stacks: a histogram by their first frames.
noinst_HEADERS += include/scaletop/kstacks.h
libscaletop_a_SOURCES += src/model/kstacks.c
UNIT_TESTS += tests/unit/test_kstacks

# Where the CPUs went: on-CPU samples by call path, and lock spin.
noinst_HEADERS += include/scaletop/hotpaths.h include/scaletop/hotstacks.h
libscaletop_a_SOURCES += src/model/hotpaths.c src/model/hotspin.c src/model/hotstacks.c
UNIT_TESTS += tests/unit/test_hotpaths

check_PROGRAMS += tests/unit/test_nlist tests/unit/test_stats tests/unit/test_series
TESTS += tests/unit/test_nlist tests/unit/test_stats tests/unit/test_series

# The session model and contention arithmetic; a --target's book of
# processes and figures, and a thread's time into the wait profile.
noinst_HEADERS += include/scaletop/session.h include/scaletop/contention.h \
	include/scaletop/series.h include/scaletop/fairness.h \
	include/scaletop/procbook.h include/scaletop/thread_wait.h
libscaletop_a_SOURCES += src/model/session.c src/model/series.c src/model/contention.c \
	src/model/target_figures.c src/model/procbook.c src/model/thread_wait.c \
	src/model/fairness.c
libscaletop_a_SOURCES += src/model/analysis.c src/model/analysis_verdict.h \
	src/model/analysis_verdict.c src/model/analysis_cause.h src/model/analysis_cause.c \
	src/model/step_status.c src/model/analysis_knee.c \
	src/model/analysis_latency.c src/model/analysis_serving.h src/model/analysis_serving.c
noinst_HEADERS += include/scaletop/analysis.h

# Scaling analysis and the USL fit.
libscaletop_a_SOURCES += src/model/usl.c src/model/usl_terms.c \
	src/model/usl_lm.h src/model/usl_lm.c src/model/usl_model.h src/model/usl_model.c
check_PROGRAMS += tests/unit/test_analysis tests/unit/test_usl
TESTS += tests/unit/test_analysis tests/unit/test_usl

# The USL fit's model and solver (usl_model.h, usl_lm.h).
UNIT_TESTS += tests/unit/test_usl_lm

# The verdict writer (analysis_verdict.h).
UNIT_TESTS += tests/unit/test_verdict

# The cause a collapse's verdict names, from the steps' wait profiles (analysis_cause.h).
UNIT_TESTS += tests/unit/test_cause

# compare's statistics: Welch's t per N, the noise floor, the geometric mean (compare_stats.h).
noinst_HEADERS += include/scaletop/compare_stats.h
libscaletop_a_SOURCES += src/model/compare_stats.c
UNIT_TESTS += tests/unit/test_compare_stats

# Who else was on the CPUs: a book of every process's CPU time over a window.
noinst_HEADERS += include/scaletop/others.h
libscaletop_a_SOURCES += src/model/others.c

# A step's latency: its percentiles from a histogram or a tool's intervals.
noinst_HEADERS += include/scaletop/latency.h
libscaletop_a_SOURCES += src/model/latency.c
UNIT_TESTS += tests/unit/test_latency

# --refine's next N where the curve is least known (refine.h).
noinst_HEADERS += include/scaletop/refine.h
libscaletop_a_SOURCES += src/model/refine.c
UNIT_TESTS += tests/unit/test_refine
