# SPDX-License-Identifier: BSD-2-Clause
# What the BSD samplers, which cannot run here, must not do (in their source),
# the shape of the tree (layers.py: lengths, loops, layers), and the map
# docs/architecture.md naming every file (archmap.sh), and every file's
# opening comment short (opening.sh).
LINT_TESTS = tests/lint/bsd_samplers.sh tests/lint/layers.sh tests/lint/licence.sh \
	tests/lint/manpage.sh tests/lint/summary.sh \
	tests/lint/workload_work.sh \
	tests/lint/archmap.sh \
	tests/lint/opening.sh
TESTS += $(LINT_TESTS)
EXTRA_DIST += $(LINT_TESTS) tests/lint/layers.py

# make check-layers: the tree's shape alone (after a build: it reads the objects).
check-layers: all
	python3 $(top_srcdir)/tests/lint/layers.py $(top_srcdir) $(top_builddir)
.PHONY: check-layers
