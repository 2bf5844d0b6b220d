/* SPDX-License-Identifier: BSD-2-Clause */
/* Colour themes: what each thing on screen looks like. */
#ifndef SCALETOP_THEME_H
#define SCALETOP_THEME_H

#include <stddef.h>
#include <stdint.h>

#include <curses.h>

/*
 * A theme file uses btop's line syntax, theme[key]="value", so a btop theme
 * loads for the keys we share; docs/themes.md lists every key.  The TUI asks
 * for a role (ROLE_PEAK, ROLE_HEAT3 ...) and gets curses attributes that are
 * right for the terminal: 24-bit colour where the terminfo entry has the RGB
 * flag, the nearest xterm-256 colour, the nearest of the 8 basic colours, or
 * attributes alone (bold, dim, reverse, underline) without colour.
 *
 * Two layers.  The pure one (theme_init, theme_parse, theme_rgb_to_256,
 * theme_rgb_to_8, theme_depth_pick, theme_resolve) touches neither the
 * terminal nor global state and is unit-tested without a terminal.  The
 * other (theme_use, theme_attr, theme_current, theme_next, theme_list) finds
 * theme files, keeps the theme in use and sets up curses colour pairs.
 *
 * Colour pairs 1 .. ROLE_COUNT belong to this module: the TUI must not
 * init_pair them.
 */

enum theme_role {
	ROLE_MAIN,     /* ordinary text and the screen background */
	ROLE_TITLE,    /* panel titles */
	ROLE_HI,       /* key hints, highlighted words */
	ROLE_INACTIVE, /* disabled or stale text */
	ROLE_DIV,      /* box lines and dividers */
	ROLE_CPU_USER, /* per-CPU bar segments, by kind of time */
	ROLE_CPU_NICE,
	ROLE_CPU_SYS,
	ROLE_CPU_IRQ,
	ROLE_CPU_IOWAIT,
	ROLE_CPU_STEAL,
	ROLE_GRAPH,    /* chart axes, scales and their labels */
	ROLE_IDEAL,    /* the linear-scaling line */
	ROLE_USL,      /* the fitted USL curve */
	ROLE_PEAK,     /* the peak marker */
	ROLE_COLLAPSE, /* the collapse marker and region */
	ROLE_OVERLAY1, /* throughput series: 1 is the live run, */
	ROLE_OVERLAY2, /* 2-6 compared snapshots in the order loaded */
	ROLE_OVERLAY3,
	ROLE_OVERLAY4,
	ROLE_OVERLAY5,
	ROLE_OVERLAY6,
	ROLE_VERDICT_OK,  /* "scales to 8 clients" */
	ROLE_VERDICT_BAD, /* "collapse above 8 clients" */
	ROLE_WARNING,     /* unstable step, failed workload, theme warnings */
	ROLE_HEAT0,       /* utilisation heat, idle ... */
	ROLE_HEAT1,
	ROLE_HEAT2,
	ROLE_HEAT3,
	ROLE_HEAT4,    /* ... saturated */
	ROLE_SELECTED, /* the selected row */
	ROLE_METER,    /* the empty part of bars and meters (btop's meter_bg) */
	ROLE_COUNT
};

#define THEME_NAME_MAX 64

/* A colour is 0xRRGGBB, or one of these. */
#define THEME_COLOR_DEFAULT (-1) /* the terminal's own colour ("" in a file) */
#define THEME_COLOR_DERIVE (-2)  /* heat1-4: blend the neighbours; gone after theme_parse */

/* Attributes in our own bits, so the pure layer needs no curses values. */
#define THEME_A_BOLD 0x01u
#define THEME_A_DIM 0x02u
#define THEME_A_REVERSE 0x04u
#define THEME_A_UNDERLINE 0x08u
#define THEME_A_ITALIC 0x10u

/*
 * Which kind of key set a field, so that our own keys win over the btop
 * keys we borrow from, whatever their order in the file.
 */
enum theme_rank {
	THEME_RANK_OWN,     /* the role's own key (main_fg, cpu_user ...) */
	THEME_RANK_BTOP,    /* borrowed from a btop key (cpu_box for cpu_user ...) */
	THEME_RANK_DEFAULT, /* the built-in default theme */
};

struct theme_style {
	int32_t fg;    /* 0xRRGGBB or THEME_COLOR_DEFAULT */
	int32_t bg;    /* main_bg, except for ROLE_SELECTED (selected_bg) */
	unsigned attr; /* THEME_A_* added when drawing in colour */
	unsigned mono; /* THEME_A_* used alone when there is no colour */
	unsigned char fg_rank, bg_rank, attr_rank, mono_rank; /* enum theme_rank */
};

struct theme {
	char name[THEME_NAME_MAX]; /* file name without ".theme" */
	int monochrome;            /* theme[monochrome]="yes": attributes only */
	struct theme_style role[ROLE_COUNT];
};

/* Called once per bad line with "FILE:LINE: what; why; using the default". */
typedef void (*theme_warn_fn)(const char *msg, void *arg);

/* The built-in default theme (the same as themes/default.theme), named "default". */
void theme_init(struct theme *t);

/*
 * Parses a theme file's text: starts from the built-in default, applies
 * every good line, and warns (warn may be NULL) once per bad line, which
 * leaves its key at the default.  name is used in warnings as the file
 * name, and its last component without ".theme" names the theme.  Keys of
 * btop's that scaletop does not use are ignored silently; other unknown
 * keys are warned about.  Returns the number of bad lines.
 */
int theme_parse(struct theme *t, const char *buf, size_t len, const char *name, theme_warn_fn warn,
		void *arg);

/*
 * Reads and parses the theme file at path.  Returns the number of bad
 * lines, or -1 with a one-line message in err when the file cannot be read
 * (t is then the built-in default).
 */
int theme_load_file(struct theme *t, const char *path, theme_warn_fn warn, void *arg, char *err,
		    size_t errlen);

/* The role's name as used in keys ("cpu_user", "heat3"), or NULL. */
const char *theme_role_name(enum theme_role r);

/* Nearest xterm-256 colour (16-231 cube, 232-255 greys) to 0xRRGGBB. */
int theme_rgb_to_256(int32_t rgb);
/* Nearest of the 8 basic colours (COLOR_BLACK ... COLOR_WHITE) by hue and lightness. */
int theme_rgb_to_8(int32_t rgb);

enum theme_depth {
	THEME_DEPTH_MONO,   /* attributes only */
	THEME_DEPTH_8,      /* the 8 basic colours */
	THEME_DEPTH_256,    /* xterm-256 palette */
	THEME_DEPTH_DIRECT, /* 24-bit colour numbers (terminfo RGB flag) */
};

/*
 * The depth to draw in: rgb_flag is the terminfo RGB capability; mono is
 * true for a monochrome theme or when NO_COLOR is set.
 */
enum theme_depth theme_depth_pick(int has_colors, int colors, int rgb_flag, int mono);

/* One role as the terminal will draw it. */
struct theme_pair {
	int pair;      /* curses colour pair, 0 for none (then fg and bg are unused) */
	int fg, bg;    /* colour numbers for the depth; -1 for the terminal's default */
	unsigned attr; /* THEME_A_* */
};

/*
 * Maps a theme to pairs for a depth: role r gets pair r + 1 if it is below
 * npairs (COLOR_PAIRS), else attributes only.  default_colors says whether
 * use_default_colors() worked; without it the terminal's default colours
 * become white on black.
 */
void theme_resolve(const struct theme *t, enum theme_depth depth, int npairs, int default_colors,
		   struct theme_pair out[ROLE_COUNT]);

/*
 * Finds theme name (or a path, if name has a '/'), parses it and makes it
 * the theme in use; once initscr() has run, also sets up colour pairs
 * (calling start_color() if nobody has).  Called before initscr(), the
 * pairs are set up by the first theme_attr() after it.
 * Look-up order: $XDG_CONFIG_HOME/scaletop/themes (default
 * ~/.config/scaletop/themes), then the bundled directory
 * ($SCALETOP_THEMES_DIR if set, else the installed one, else the source
 * tree's themes/), then btop's: $XDG_CONFIG_HOME/btop/themes,
 * /usr/local/share/btop/themes, /usr/share/btop/themes; the first found
 * wins.  "default" always exists, built in, and is never taken from btop.
 * Returns 0; 1 if the theme loaded with bad lines (the first warning, and
 * how many more, in err); -1 if it cannot be found or read (err says why,
 * and the theme in use is unchanged).
 */
int theme_use(const char *name, char *err, size_t errlen);

/* COLOR_PAIR and attributes for role r in the theme in use; right without colour too. */
attr_t theme_attr(enum theme_role r);

/* The name of the theme in use ("default" before any theme_use). Static storage. */
const char *theme_current(void);

/* The depth the theme in use is drawn in. */
enum theme_depth theme_depth(void);

/*
 * The theme after current in the cycle: bundled themes ("default" first,
 * then by name), then the user's own by name, then btop's (the user's,
 * then the system's) by name, wrapping around; the first one if current is
 * not in the cycle.  Static storage, overwritten by the next call.
 */
const char *theme_next(const char *current);

/* Where a theme was found, in look-up order. */
enum theme_origin {
	THEME_FROM_BUILTIN,   /* the built-in default: no file */
	THEME_FROM_BUNDLED,   /* scaletop's bundled directory */
	THEME_FROM_USER,      /* $XDG_CONFIG_HOME/scaletop/themes */
	THEME_FROM_BTOP_USER, /* $XDG_CONFIG_HOME/btop/themes */
	THEME_FROM_BTOP,      /* btop's installed themes */
	THEME_FROM_PATH,      /* not listed: a path, as --theme FILE gives */
};

/* A few words for an origin ("btop's, yours"), for the picker. */
const char *theme_origin_name(enum theme_origin o);

/* Called for each theme in cycle order; path is NULL for the built-in. */
typedef void (*theme_list_fn)(const char *name, const char *path, enum theme_origin origin,
			      void *arg);
/* Returns the number of themes listed. */
int theme_list(theme_list_fn fn, void *arg);

/*
 * btop's installed theme directories, searched in this order after the
 * user's btop directory; NULL-terminated.  NULL restores the default
 * (/usr/local/share/btop/themes, /usr/share/btop/themes).  For tests, so
 * that a machine's own btop themes do not change what they count.
 */
void theme_set_btop_dirs(const char *const *dirs);

/*
 * True if name could name a theme: a path (it has a '/') that fits, or a
 * file name without control characters, not empty, not starting with '.'.
 * Whether such a theme exists is theme_find's question.
 */
int theme_name_valid(const char *name);

/*
 * The file theme name would be loaded from, into path.  Returns 1 if found,
 * 0 for the built-in default (no file), -1 with a one-line message in err.
 */
int theme_find(const char *name, char *path, size_t len, char *err, size_t errlen);

#endif
