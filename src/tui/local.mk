# The interactive monitor (ncursesw): one file per panel, the loop glue in
# app.c.  It lives with main() because it shares the CLI's option parsing
# (src/cli/run_args.c) and table (src/cli/table.c).  Themes: theme.mk.
noinst_HEADERS += include/scaletop/tui.h
scaletop_SOURCES += \
	src/tui/ui.h \
	src/tui/app.h \
	src/tui/paint.h \
	src/tui/idle.h \
	src/tui/app.c \
	src/tui/cmd.c \
	src/tui/control.c \
	src/tui/input.c \
	src/tui/idle.c \
	src/tui/layout.c \
	src/tui/paint.c \
	src/tui/glyphs.c \
	src/tui/header.c \
	src/tui/cpus.c \
	src/tui/chart.c \
	src/tui/contention.c \
	src/tui/verdict.c \
	src/tui/steps.c \
	src/tui/help.c \
	src/tui/prompt.c \
	src/tui/snapshots.c \
	src/tui/replay.c

# TUI tests drive the real binary in tmux.
TUI_TESTS = \
	tests/tui/screen.sh \
	tests/tui/keys.sh \
	tests/tui/robust.sh \
	tests/tui/replay.sh
# valgrind cannot run an AddressSanitizer build; the plain build runs it.
if !SANITIZE
TUI_TESTS += tests/tui/valgrind.sh
endif
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/valgrind.sh tests/tui/tmux.sh docs/tui.md bench/tui-cpu.sh
