# SPDX-License-Identifier: BSD-2-Clause
# Compile checks of the FreeBSD 14 and DragonFly 6 builds against the
# header-only sysroots in ../shared/sysroots beside the checkout: every source
# the BSD build compiles, plus the BSD decoder tests, with the project's
# warning flags and -Werror (tests/bsd/compile-check.sh).  Each writes
# check-OS.trs, which tests/summary.sh counts in the closing line; without a
# sysroot, one skip saying so.  Run once by ./bootstrap check, not by make
# check: the sysroot is not in the release tarball.
BSD_SYSROOTS = $(abs_top_srcdir)/../shared/sysroots
# What a BSD build compiles, from the build's own lists: every file of the
# library and the program that is not one OS's own, then that OS's own
# files (compile-check.sh sorts it out, so the lists stay plain make).
BSD_CHECK = srcdir='$(top_srcdir)' WARN_CFLAGS='$(ST_WARN_CFLAGS)' PACKAGE='$(PACKAGE)' \
	PACKAGE_NAME='$(PACKAGE_NAME)' PACKAGE_VERSION='$(PACKAGE_VERSION)' \
	PACKAGE_STRING='$(PACKAGE_STRING)' PACKAGE_TARNAME='$(PACKAGE_TARNAME)' \
	VERSION='$(VERSION)' BUILD_SRC='$(libscaletop_a_SOURCES) $(scaletop_SOURCES)' \
	PER_OS_SRC='$(ST_SRC_LINUX) $(ST_SRC_FREEBSD) $(ST_SRC_DRAGONFLY) $(ST_SRC_GENERIC)' \
	TEST_SRC='tests/tap.c tests/unit/test_decode_bsd.c tests/unit/test_decode_kinfo.c tests/unit/test_decode_host.c \
	tests/unit/test_decode_proc.c tests/unit/test_census.c' \
	$(SHELL) $(top_srcdir)/tests/bsd/compile-check.sh

check-freebsd:
	@$(BSD_CHECK) freebsd $(BSD_SYSROOTS)/freebsd-14 check-freebsd.trs $(ST_SRC_FREEBSD) \
		>check-freebsd.log 2>&1; st=$$?; grep -E '^(not ok|# )' check-freebsd.log | head -40; \
	exit $$st
check-dragonfly:
	@$(BSD_CHECK) dragonfly $(BSD_SYSROOTS)/dragonfly-6 check-dragonfly.trs $(ST_SRC_DRAGONFLY) \
		>check-dragonfly.log 2>&1; st=$$?; grep -E '^(not ok|# )' check-dragonfly.log | head -40; \
	exit $$st
check-bsd: check-freebsd check-dragonfly
.PHONY: check-freebsd check-dragonfly check-bsd

EXTRA_DIST += tests/bsd/compile-check.sh
CLEANFILES += check-freebsd.trs check-freebsd.log check-dragonfly.trs check-dragonfly.log
