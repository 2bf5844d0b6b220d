# SPDX-License-Identifier: BSD-2-Clause
# Live tests: real servers and tools under scaletop (PostgreSQL and pgbench,
# MariaDB and sysbench's OLTP, sysbench cpu and fileio).  Each starts what it
# needs in a temporary folder of its own and checks scaletop's figures against
# the tool's own output, copied by tee-tool.sh.
#
# These, and the tests that load the whole machine on purpose (1024
# workers; a spinlock at 4x the CPUs, alone and refined), are not in `make
# check`: a measured step beside other tests' spinning workers is too
# ragged to be ok (one 1 s interval of pgbench falls to a third while a
# neighbour spins two threads; a 0.1 s cpu interval beside 1024 threads
# came out +-1322%), and the loaders are what makes a neighbour that bad.
# `make check-alone` runs them one at a time, after the rest, as
# ./bootstrap check does; their results count in its closing line like any.
LIVE_TESTS = tests/live/postgres.sh tests/live/mariadb.sh tests/live/presets.sh \
	tests/live/sysbench.sh
# serving.sh judges the machine's CPU by process name: beside the parallel suite another
# test's scaletop, whose CPU rose across its two N, was taken for a second server.
LOAD_TESTS = \
	tests/cli/many.sh \
	tests/cli/lockwait.sh \
	tests/cli/refine.sh \
	tests/cli/serving.sh

check-alone: scaletop$(EXEEXT)
	@$(MAKE) $(AM_MAKEFLAGS) -j1 check-TESTS TESTS='$(LOAD_TESTS) $(LIVE_TESTS)' \
		TEST_SUITE_LOG=test-suite-alone.log
.PHONY: check-alone

EXTRA_DIST += $(LIVE_TESTS) $(LOAD_TESTS) tests/live/live.sh tests/live/tee-tool.sh
CLEANFILES += test-suite-alone.log $(LIVE_TESTS:.sh=.log) $(LIVE_TESTS:.sh=.trs) \
	$(LOAD_TESTS:.sh=.log) $(LOAD_TESTS:.sh=.trs)
