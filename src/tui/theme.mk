# Themes and preferences for the TUI.  Bundled themes are installed to
# $(pkgdatadir)/themes; a binary run from the build tree falls back to the
# source tree's themes/ when that directory is not installed (docs/themes.md).
themesdir = $(pkgdatadir)/themes
dist_themes_DATA = \
	themes/default.theme \
	themes/light.theme \
	themes/high-contrast.theme \
	themes/mono.theme

AM_CPPFLAGS += -DST_THEMES_DIR='"$(themesdir)"' -DST_SRC_THEMES_DIR='"$(abs_top_srcdir)/themes"'

noinst_HEADERS += include/scaletop/theme.h include/scaletop/prefs.h src/tui/theme_priv.h
libscaletop_a_SOURCES += \
	src/tui/theme.c \
	src/tui/theme_keys.c \
	src/tui/theme_parse.c \
	src/tui/theme_color.c \
	src/tui/theme_find.c \
	src/tui/prefs.c

EXTRA_DIST += docs/themes.md docs/config.md

check_PROGRAMS += tests/unit/test_theme tests/unit/test_prefs
TESTS += tests/unit/test_theme tests/unit/test_prefs
tests_unit_test_theme_LDADD = $(TEST_LIBS)
tests_unit_test_prefs_LDADD = $(TEST_LIBS)
