# SPDX-License-Identifier: BSD-2-Clause
# The interactive monitor (ncursesw): the loop glue in app.c, its command
# lines in args.c, keys to commands in input.c (keymap.c's table), commands
# run by commands.c's table, what runs in sweeps.c, one file per view
# (views.c's table) and per panel (src/tui/app.h draws the layers).  It is linked into the
# program only: the unit tests need no terminal.
noinst_HEADERS += include/scaletop/tui.h
scaletop_SOURCES += src/tui/ui.h src/tui/app.h src/tui/commands.h src/tui/view.h src/tui/views.h \
	src/tui/replay.h src/tui/paint.h src/tui/idle.h src/tui/app.c src/tui/args.c \
	src/tui/input.c src/tui/keymap.c src/tui/commands.c src/tui/commands_prompts.c \
	src/tui/sweeps.c src/tui/rerun.c src/tui/playback.c src/tui/snapshots.c src/tui/keep.c \
	src/tui/history.c src/tui/record.c src/tui/frame.c src/tui/state.c src/tui/replay.c \
	src/tui/idle.c src/tui/layout.c src/tui/views.c src/tui/overview.c src/tui/paint.c \
	src/tui/glyphs.c src/tui/header.c src/tui/cpus.c src/tui/chart.c src/tui/chart_legend.c \
	src/tui/chart_latency.c src/tui/chart_axes.c src/tui/contention.c src/tui/verdict.c \
	src/tui/footer.c src/tui/waits.c \
	src/tui/waits_why.c src/tui/waits_locks.c src/tui/steps.c src/tui/step_latency.c \
	src/tui/help.c src/tui/prompt.c \
	src/tui/theme_pick.h src/tui/theme_pick.c

# The keys against the help, the views' table held to its rules, and what a
# key or the wheel means where: input.c, the tables and the views built into
# a test of their own (command_run is the test's).
TUI_VIEW_SOURCES = src/tui/views.c src/tui/overview.c src/tui/cpus.c src/tui/chart.c \
	src/tui/chart_legend.c src/tui/chart_latency.c src/tui/chart_axes.c src/tui/contention.c \
	src/tui/verdict.c \
	src/tui/steps.c src/tui/step_latency.c \
	src/tui/waits.c src/tui/waits_why.c src/tui/waits_locks.c src/tui/history.c \
	src/tui/header.c src/tui/paint.c src/tui/glyphs.c
UNIT_TESTS += tests/unit/test_keys
tests_unit_test_keys_SOURCES = tests/unit/test_keys.c src/tui/input.c src/tui/keymap.c \
	src/tui/help.c $(TUI_VIEW_SOURCES)
# Text into curses cells: ASCII runs, UTF-8, wide characters, controls, rules.
UNIT_TESTS += tests/unit/test_paint
tests_unit_test_paint_SOURCES = tests/unit/test_paint.c src/tui/paint.c src/tui/glyphs.c

# TUI tests drive the real binary in tmux.
TUI_TESTS = tests/tui/screen.sh tests/tui/keys.sh tests/tui/robust.sh tests/tui/replay.sh \
	tests/tui/theme.sh tests/tui/history.sh tests/tui/words.sh tests/tui/files.sh \
	tests/tui/why.sh tests/tui/locks.sh tests/tui/interval.sh tests/tui/rerun.sh \
	tests/tui/small.sh tests/tui/latency.sh tests/tui/refine.sh
# valgrind cannot run an AddressSanitizer build; the plain build runs it.
if !SANITIZE
TUI_TESTS += tests/tui/valgrind.sh
endif
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/valgrind.sh tests/tui/tmux.sh docs/tui.md

# Themes and preferences for the TUI.  Bundled themes are installed to
# $(pkgdatadir)/themes, and the installed binary looks there.  A binary run
# from the build tree finds the source tree's themes/ through a marker file
# beside it that names the source tree: built here, cleaned, never installed
# (docs/themes.md).  Any file dropped into themes/ is a bundled theme.
# Every themes/*.theme is installed and shipped, found by a glob: automake's
# _DATA lists cannot glob, so these are install, uninstall and dist hooks.
themesdir = $(pkgdatadir)/themes
install-data-local: install-themes
uninstall-local: uninstall-themes
dist-hook: dist-themes
install-themes:
	$(MKDIR_P) '$(DESTDIR)$(themesdir)'
	for t in $(srcdir)/themes/*.theme; do \
		$(INSTALL_DATA) "$$t" '$(DESTDIR)$(themesdir)' || exit 1; \
	done
uninstall-themes:
	for t in $(srcdir)/themes/*.theme; do \
		rm -f '$(DESTDIR)$(themesdir)'/"$${t##*/}"; \
	done
dist-themes:
	$(MKDIR_P) '$(distdir)/themes'
	cp -p $(srcdir)/themes/*.theme '$(distdir)/themes/'
.PHONY: install-themes uninstall-themes dist-themes

AM_CPPFLAGS += -DST_THEMES_DIR='"$(themesdir)"'

noinst_DATA = scaletop.srcdir
CLEANFILES += scaletop.srcdir
scaletop.srcdir: Makefile
	$(AM_V_GEN)echo '$(abs_top_srcdir)' >$@

noinst_HEADERS += src/tui/theme.h src/tui/prefs.h src/tui/theme_priv.h
libscaletop_a_SOURCES += src/tui/theme.c src/tui/theme_keys.c src/tui/theme_parse.c \
	src/tui/theme_color.c src/tui/theme_find.c src/tui/prefs.c

# docs/themes.md and docs/config.md are installed and shipped by docs/local.mk.

check_PROGRAMS += tests/unit/test_theme tests/unit/test_theme_dirs tests/unit/test_prefs
TESTS += tests/unit/test_theme tests/unit/test_theme_dirs tests/unit/test_prefs
