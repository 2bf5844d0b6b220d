/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/cli/: run's progress line (progress.c), redrawn in place on
 * a terminal that can erase a line, else not drawn at all (plain lines only).
 */
#ifndef SCALETOP_CLI_PROGRESS_H
#define SCALETOP_CLI_PROGRESS_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct progress {
	int fd;
	bool redraw;    /* a terminal with el: the line is redrawn in place */
	char el[32];    /* its erase-to-end-of-line */
	locale_t ctype; /* the user's LC_CTYPE, to count display columns */
};

/* What the terminal on fd (stderr) allows: terminfo's el, under $TERM. */
void progress_open(struct progress *p, int fd);
void progress_close(struct progress *p);
/* The width to cut to: $COLUMNS, else the terminal's (TIOCGWINSZ), else 80. */
int progress_width(const struct progress *p);
/* Cuts s to at most cols display columns (whole characters); its new length. */
size_t progress_cut(char *s, int cols, locale_t ctype);
/* Redraws the line in place, cut to the width (only when redraw). */
void progress_show(struct progress *p, FILE *f, char *line);
/* Erases the line, before a line of its own is written (nothing unless redraw). */
void progress_clear(const struct progress *p, FILE *f);

#endif
