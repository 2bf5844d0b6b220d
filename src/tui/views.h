/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: the views' table (views.c).  Its order is the tabs'
 * (view i is tab i + 1, and its digit opens it); the help lists the views
 * from it.  Each view is a struct view (view.h) defined in its own file.
 */
#ifndef SCALETOP_TUI_VIEWS_H
#define SCALETOP_TUI_VIEWS_H

#include <stddef.h>

#include "view.h"

#define VIEW_MAX 9 /* a digit each */

extern const struct view view_overview, view_cpus, view_chart, view_steps, view_waits, view_history;
extern const struct view *const views[];
extern const int nviews;

/* The view on screen. */
const struct view *ui_view(const struct ui *u);
/* v's place in the table (its tab), or -1. */
int view_index(const struct view *v);
/*
 * Whether a table of n views can be registered: each has a name and a draw,
 * a help line explains each key of its own, and no key opens two things (a
 * view's key is another's, a digit, or bound in the keymap).  0, or -1 and
 * why.
 */
int views_check(const struct view *const *t, int n, char *why, size_t len);

#endif
