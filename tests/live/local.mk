# Live tests: real servers and tools under scaletop (PostgreSQL and pgbench,
# MariaDB and sysbench's OLTP, sysbench cpu and fileio).  Each starts what it
# needs in a temporary folder of its own and checks scaletop's figures against
# the tool's own output, copied by tee-tool.sh.
#
# They are not in `make check`: they measure, and a step measured while other
# tests load the CPUs has intervals too ragged to be ok (one 1 s interval of
# pgbench falls to a third while a neighbour spins two threads).  So
# `make check-live` runs them one at a time, after the rest, as
# ./bootstrap check does; their results count in its closing line like any.
LIVE_TESTS = \
	tests/live/postgres.sh \
	tests/live/mariadb.sh \
	tests/live/sysbench.sh

check-live: scaletop$(EXEEXT)
	@$(MAKE) $(AM_MAKEFLAGS) -j1 check-TESTS TESTS='$(LIVE_TESTS)' \
		TEST_SUITE_LOG=test-suite-live.log
.PHONY: check-live

EXTRA_DIST += $(LIVE_TESTS) tests/live/live.sh tests/live/tee-tool.sh
CLEANFILES += test-suite-live.log $(LIVE_TESTS:.sh=.log) $(LIVE_TESTS:.sh=.trs)
