/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: what a view is.  A view's file defines one struct
 * view, and views.c's table lists it: the panels it lays out, its tab's
 * name, the keys of its own, and its line of help.
 */
#ifndef SCALETOP_TUI_VIEW_H
#define SCALETOP_TUI_VIEW_H

#include "commands.h"
#include "ui.h"

#define VIEW_MAX_CODES 4

struct view {
	const char *name; /* its tab's word, and its word in the help's "views:" line */
	int key;          /* a key that opens it besides its digit, or 0 */
	/* A help line of its own (the view has keys of its own), or NULL: named among "views:". */
	const char *help;
	int help_codes[VIEW_MAX_CODES]; /* the keys its help line names besides its two */
	/* Draws the view in body, between the header and the verdict line. */
	void (*draw)(const struct ui *u, const struct frame *f, struct rect body,
		     struct ui_hits *h);
	const struct binding *keys; /* its own keys, looked up before all others, or NULL */
	int nkeys;
	bool has_detail; /* it shows the selected step's detail itself: none is drawn over it */
	/* On coming to it from the view before, or NULL; -1: it cannot open (no memory). */
	int (*enter)(struct ui *u, int before);
};

#endif
