# SPDX-License-Identifier: BSD-2-Clause
# Every test speaks TAP; automake's driver counts each assertion.
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = top_srcdir='$(top_srcdir)'; top_builddir='$(top_builddir)'; \
	export top_srcdir top_builddir;

noinst_LIBRARIES += libtap.a
libtap_a_SOURCES = tests/tap.c tests/tap.h tests/sim_noise.h
TEST_LIBS = libtap.a $(ST_LIBS) -lm
# Every program without a link line of its own is a unit test.
LDADD = $(TEST_LIBS)

EXTRA_DIST += tests/summary.sh tests/fixtures

include tests/unit/local.mk
include tests/lint/local.mk
include tests/live/local.mk
