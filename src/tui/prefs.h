/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preferences kept between runs: the theme, the interval, the last
 * workload and whether sweeps are kept, in $XDG_CONFIG_HOME/scaletop/config (default
 * ~/.config/scaletop/config).  The file is "key = value" lines with '#'
 * comments; docs/config.md describes it.
 */
#ifndef SCALETOP_PREFS_H
#define SCALETOP_PREFS_H

#include <stddef.h>

#define PREFS_INTERVAL_DEFAULT 1.0 /* the TUI's screen refresh, which d changes */
#define PREFS_INTERVAL_MIN 0.01
#define PREFS_INTERVAL_MAX 60.0

/*
 * The caller owns the struct.  Strings are NUL-terminated and hold no
 * control characters.
 */

struct prefs {
	char theme[64];    /* a theme name for theme_use; "default" by default */
	double interval_s; /* seconds, PREFS_INTERVAL_MIN .. PREFS_INTERVAL_MAX */
	char workload[64]; /* the last workload, "" for none */
	int autosave;      /* 1: the TUI keeps every sweep in the runs directory (the default) */
};

/* The built-in preferences. */
void prefs_defaults(struct prefs *p);

/* The config file's path, file_config_dir() (scaletop/files.h) + "/config".  Returns 0 or -1. */
int prefs_path(char *buf, size_t len, char *err, size_t errlen);

/*
 * Fills p with the defaults, then with what the config file says.  Returns
 * 0 (a missing file is not an error); 1 if some lines were bad (warn holds
 * the first as "FILE:LINE: ..." and how many more; those keys keep their
 * defaults); -1 if the file exists but cannot be read (warn says why; p
 * holds the defaults).
 */
int prefs_load(struct prefs *p, char *warn, size_t len);

/* Parses config text; name is used in warnings.  Returns like prefs_load. */
int prefs_parse(struct prefs *p, const char *buf, size_t len, const char *name, char *warn,
		size_t warnlen);

/*
 * Writes p to the config file atomically: a temporary file in the same
 * directory, fsync, rename.  Creates the directories (mode 0700) if
 * missing.  On failure the old file is untouched, no temporary file is left,
 * and err says what failed.  A config file that is a symbolic link has its
 * target replaced.  Returns 0 or -1.
 */
int prefs_save(const struct prefs *p, char *err, size_t len);

#endif
