/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One-line prompts (N list, parameters, file names) and the workload
 * picker.  Editing is plain: printable keys insert, backspace, left/right,
 * home/end, ^U clears; enter submits, escape cancels.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/workload.h"
#include "ui.h"

void
prompt_open(struct ui *u, enum prompt_kind kind, const char *label, const char *text)
{
	struct prompt *p = &u->pr;

	p->kind = kind;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->text, sizeof(p->text), "%s", text != NULL ? text : "");
	p->len = p->cur = (int)strlen(p->text);
}

static int
prompt_count_workloads(void)
{
	int n = 0;

	while (workloads[n] != NULL)
		n++;
	return n;
}

void
prompt_pick_open(struct ui *u, const char *current)
{
	int i;

	prompt_open(u, PR_WORKLOAD, "", "");
	u->pr.pick = 0;
	for (i = 0; current != NULL && workloads[i] != NULL; i++) {
		if (strcmp(workloads[i]->name, current) == 0)
			u->pr.pick = i;
	}
}

/* The picker: up/down move, and stop at the ends (a list is not a ring); enter chooses. */
static int
prompt_pick_key(struct prompt *p, int ch)
{
	int n = prompt_count_workloads();

	if ((ch == KEY_UP || ch == 'k') && p->pick > 0)
		p->pick--;
	else if ((ch == KEY_DOWN || ch == 'j') && p->pick < n - 1)
		p->pick++;
	else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return 1;
	else if (ch == 27 || ch == 'q')
		return -1;
	return 0;
}

static void
prompt_insert(struct prompt *p, int ch)
{
	if (p->len + 1 >= (int)sizeof(p->text))
		return;
	memmove(p->text + p->cur + 1, p->text + p->cur, (size_t)(p->len - p->cur + 1));
	p->text[p->cur++] = (char)ch;
	p->len++;
}

/* 1: submitted, -1: cancelled, 0: still editing. */
int
prompt_key(struct ui *u, int ch)
{
	struct prompt *p = &u->pr;

	if (p->kind == PR_WORKLOAD)
		return prompt_pick_key(p, ch);
	if (PR_IS_CONFIRM(p->kind))
		return ch == 'y' || ch == 'Y' ? 1 : -1;
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return 1;
	case 27:
		return -1;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (p->cur > 0) {
			memmove(p->text + p->cur - 1, p->text + p->cur,
				(size_t)(p->len - p->cur + 1));
			p->cur--, p->len--;
		}
		return 0;
	case KEY_DC:
		if (p->cur < p->len) {
			memmove(p->text + p->cur, p->text + p->cur + 1, (size_t)(p->len - p->cur));
			p->len--;
		}
		return 0;
	case KEY_LEFT:
		if (p->cur > 0)
			p->cur--;
		return 0;
	case KEY_RIGHT:
		if (p->cur < p->len)
			p->cur++;
		return 0;
	case KEY_HOME:
	case 1:
		p->cur = 0;
		return 0;
	case KEY_END:
	case 5:
		p->cur = p->len;
		return 0;
	case 21:
		p->text[0] = '\0';
		p->len = p->cur = 0;
		return 0;
	default:
		if (ch >= 32 && ch < 127)
			prompt_insert(p, ch);
		return 0;
	}
}

static void
prompt_picker_draw(const struct ui *u, struct rect screen)
{
	int i;
	int n = prompt_count_workloads(), w = screen.w - 4 < 90 ? screen.w - 4 : 90, first = 0;
	struct rect box = { screen.y + 3, screen.x + 2, n + 3, w };

	if (box.h > screen.h - 4)
		box.h = screen.h - 4;
	if (u->pr.pick >= box.h - 2) /* the selected one is always in the box */
		first = u->pr.pick - (box.h - 2) + 1;
	ui_fill(box, theme_attr(ROLE_MAIN) | A_REVERSE);
	ui_put(box.y, box.x + 1, w - 2, theme_attr(ROLE_TITLE) | A_REVERSE,
	       "workload (up/down, enter: parameters next, esc: cancel)");
	for (i = first; i < n && 1 + i - first < box.h - 1; i++)
		ui_putf(box.y + 1 + i - first, box.x + 1, w - 2,
			i == u->pr.pick ? theme_attr(ROLE_SELECTED)
					: theme_attr(ROLE_MAIN) | A_REVERSE,
			" %-10s %s", workloads[i]->name, workloads[i]->summary);
}

void
prompt_draw(const struct ui *u, struct rect screen)
{
	const struct prompt *p = &u->pr;
	int y = screen.y + screen.h - 1, lw;

	if (p->kind == PR_NONE)
		return;
	if (p->kind == PR_WORKLOAD) {
		prompt_picker_draw(u, screen);
		return;
	}
	ui_fill((struct rect){ y, screen.x, 1, screen.w }, theme_attr(ROLE_HI) | A_REVERSE);
	lw = ui_putf(y, screen.x, screen.w, theme_attr(ROLE_HI) | A_REVERSE, " %s ", p->label);
	if (PR_IS_CONFIRM(p->kind))
		return;
	ui_put(y, screen.x + lw, screen.w - lw - 1, theme_attr(ROLE_MAIN), p->text);
	/* The cursor sits on the insertion point: the one place a cursor helps. */
	move(y, screen.x + lw + (p->cur < screen.w - lw - 1 ? p->cur : screen.w - lw - 1));
}
