# SPDX-License-Identifier: BSD-2-Clause
# Benchmarks compare scaletop with a peer in one run and print ratios; they
# are run by hand (make bench), never as tests.
EXTRA_DIST += bench/README bench/results.md bench/tui-cpu.sh bench/sample-accuracy.sh bench/sample-cost \
	bench/fidelity.sh bench/count-overhead bench/until-stable.sh bench/tui-latency.sh \
	bench/start-line bench/target-cost.sh bench/suite-under-load.sh bench/aa-compare.sh \
	bench/lock-cost.sh bench/mariadb-sweep.sh bench/wait-accuracy.sh \
	bench/why-accuracy.sh bench/why/twohot.c bench/why/twolocks.c bench/mariadb-why.sh \
	bench/tick-realtime.sh bench/busy-verdict.sh bench/latency-cost.sh bench/refine.sh

# Built only for `make bench`, never by `make` or `make check`.
EXTRA_PROGRAMS = bench/sample_cost bench/count_overhead bench/pwrite_loop bench/start_line \
	bench/sleepers bench/refine_sim
bench_sample_cost_SOURCES = bench/sample_cost.c
bench_sample_cost_LDADD = $(ST_LIBS)
bench_count_overhead_SOURCES = bench/count_overhead.c
bench_count_overhead_LDADD = $(ST_LIBS)
bench_pwrite_loop_SOURCES = bench/pwrite_loop.c
bench_pwrite_loop_LDADD =
bench_start_line_SOURCES = bench/start_line.c
bench_start_line_LDADD = $(ST_LIBS)
bench_sleepers_SOURCES = bench/sleepers.c
bench_sleepers_LDADD = -lpthread
bench_refine_sim_SOURCES = bench/refine_sim.c
bench_refine_sim_LDADD = $(ST_LIBS)
CLEANFILES += bench/sample_cost$(EXEEXT) bench/count_overhead$(EXEEXT) \
	bench/pwrite_loop$(EXEEXT) bench/start_line$(EXEEXT) bench/sleepers$(EXEEXT) \
	bench/refine_sim$(EXEEXT)

BENCH_ENV = top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)'

bench: bench-cost bench-accuracy bench-fidelity bench-overhead bench-stable bench-latency bench-latcost \
	bench-start bench-tui bench-target bench-aa bench-waits bench-refine
bench-cost: scaletop$(EXEEXT) bench/sample_cost$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/sample-cost
bench-accuracy: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/sample-accuracy.sh
bench-fidelity: scaletop$(EXEEXT) bench/pwrite_loop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/fidelity.sh
bench-overhead: bench/count_overhead$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/count-overhead
bench-stable: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/until-stable.sh
bench-latency: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/tui-latency.sh
bench-start: bench/start_line$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/start-line
bench-tui: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/tui-cpu.sh
bench-target: scaletop$(EXEEXT) bench/sleepers$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/target-cost.sh
# Not in bench: the whole suite on a clone of HEAD, under a come-and-go load.
bench-suite:
	bash $(top_srcdir)/bench/suite-under-load.sh
bench-lock: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/lock-cost.sh
.PHONY: bench-lock
bench-waits: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/wait-accuracy.sh
.PHONY: bench-waits
bench-aa: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/aa-compare.sh
.PHONY: bench-aa
# Not in bench: as root, with perf and bpftrace; builds bench/why/*.c itself.
bench-why: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/why-accuracy.sh
.PHONY: bench-why
# Not in bench: as root, for SCHED_FIFO; 1000 runnable threads for about a minute a round.
bench-realtime: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/tick-realtime.sh
.PHONY: bench-realtime
bench-busy: scaletop$(EXEEXT)
	$(BENCH_ENV) bash $(top_srcdir)/bench/busy-verdict.sh
.PHONY: bench-busy
bench-latcost: scaletop$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/latency-cost.sh
.PHONY: bench-latcost
bench-refine: bench/refine_sim$(EXEEXT)
	$(BENCH_ENV) $(SHELL) $(top_srcdir)/bench/refine.sh
.PHONY: bench-refine
.PHONY: bench bench-cost bench-accuracy bench-fidelity bench-overhead bench-stable \
	bench-latency bench-start bench-target bench-suite
