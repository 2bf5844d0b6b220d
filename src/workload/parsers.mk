# Parsers of external commands' throughput lines.
noinst_HEADERS += include/scaletop/parse.h
libscaletop_a_SOURCES += \
	src/workload/parse.c \
	src/workload/parse_sysbench.c \
	src/workload/parse_pgbench.c \
	src/workload/parse_regex.c

check_PROGRAMS += tests/unit/test_parse
TESTS += tests/unit/test_parse
tests_unit_test_parse_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/unit/test_parse_limits
TESTS += tests/unit/test_parse_limits
tests_unit_test_parse_limits_LDADD = $(TEST_LIBS)
