# Live tests: real servers and tools under scaletop (PostgreSQL and pgbench,
# MariaDB and sysbench's OLTP, sysbench cpu and fileio).  Each starts what it
# needs in a temporary folder of its own and checks scaletop's figures against
# the tool's own output, copied by tee-tool.sh.
LIVE_TESTS = \
	tests/live/postgres.sh \
	tests/live/mariadb.sh \
	tests/live/sysbench.sh

TESTS += $(LIVE_TESTS)
EXTRA_DIST += $(LIVE_TESTS) tests/live/live.sh tests/live/tee-tool.sh
