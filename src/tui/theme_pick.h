/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: the theme picker (T).  Every theme the look-up finds,
 * where each is from, and the selected one applied to the whole screen as a
 * preview; Enter keeps it, Esc goes back to the one in use before.
 * theme_pick.c keeps this state and draws the box; commands.c saves the
 * choice and writes the message.
 */
#ifndef SCALETOP_TUI_THEME_PICK_H
#define SCALETOP_TUI_THEME_PICK_H

#include <limits.h>
#include <stdbool.h>

#include "scaletop/error.h"

#define TP_MAX 256 /* as many as the theme cycle holds */

struct theme_pick {
	bool open;
	int n, sel, top; /* themes listed, the selected one, the first row shown */
	char name[TP_MAX][64];
	unsigned char origin[TP_MAX]; /* enum theme_origin */
	char prev[64];                /* the theme in use when it opened: Esc goes back */
	char path[PATH_MAX];          /* the selected theme's file; "" for the built-in */
	char warn[ST_ERRLEN];         /* its first warning, or why it cannot be read */
	bool unusable;                /* it cannot be read: Enter keeps nothing */
};

enum tp_action {
	TP_NONE,   /* a key with no meaning here */
	TP_MOVED,  /* another theme is selected and applied */
	TP_KEEP,   /* Enter */
	TP_CANCEL, /* Esc or q: the previous theme is back in use */
};

/* Lists the themes and applies none yet: current is selected. */
void theme_pick_open(struct theme_pick *tp, const char *current);
/* One key: moves (and previews), keeps or cancels; the picker is closed after the last two. */
enum tp_action theme_pick_key(struct theme_pick *tp, int ch, int rows);
/* Applies the selected theme, as a preview: its warnings go to tp->warn. */
void theme_pick_preview(struct theme_pick *tp);
/* The rows of themes the box shows on a screen of h lines (for PgUp and PgDn). */
int theme_pick_rows(int h);

#endif
