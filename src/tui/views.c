/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The views, in the order of their tabs.  A new view is a file that
 * defines its struct view, and a line here; views_check holds the table
 * to its rules (tests/unit/test_keys).
 */
#include <stdio.h>
#include <string.h>

#include "views.h"

const struct view *const views[] = {
	&view_overview, &view_cpus, &view_chart, &view_steps, &view_waits, &view_history,
};
const int nviews = (int)(sizeof(views) / sizeof(views[0]));

const struct view *
ui_view(const struct ui *u)
{
	return u->view >= 0 && u->view < nviews ? views[u->view] : views[0];
}

int
view_index(const struct view *v)
{
	int i;

	for (i = 0; i < nviews; i++) {
		if (views[i] == v)
			return i;
	}
	return -1;
}

/* Whether the keymap binds key in any context. */
static bool
views_keymap_binds(int key)
{
	int i, k;

	for (i = 0; i < nkeymap; i++) {
		for (k = 0; k < KEY_MAX_BINDS && keymap[i].bind[k].key != 0; k++) {
			if (keymap[i].bind[k].key == key)
				return true;
		}
	}
	return false;
}

/*
 * The rules for the view t[i].  A view without a help line of its own may
 * bind only keys the keymap's lines explain (the steps view's list keys
 * are the event log's, moving the list instead).
 */
static int
views_check_one(const struct view *const *t, int i, char *why, size_t len)
{
	const struct view *v = t[i];
	const char *name = v->name != NULL ? v->name : "(unnamed)";
	bool help = v->help != NULL && v->help[0] != '\0';
	int j;

	if (v->name == NULL || v->name[0] == '\0' || v->draw == NULL)
		return snprintf(why, len, "view %d has no name or no draw", i + 1), -1;
	if (v->key != 0 && !help)
		return snprintf(why, len, "view %s has a key and no help line", name), -1;
	for (j = 0; j < v->nkeys && !help; j++) {
		if (!views_keymap_binds(v->keys[j].key))
			return snprintf(why, len, "view %s binds a key no help line names", name),
			       -1;
	}
	if (v->key == 0)
		return 0;
	if ((v->key >= '1' && v->key <= '9') || views_keymap_binds(v->key))
		return snprintf(why, len, "view %s: its key is already bound", name), -1;
	for (j = 0; j < i; j++) {
		if (t[j]->key == v->key)
			return snprintf(why, len, "views %s and %s have one key", t[j]->name, name),
			       -1;
	}
	return 0;
}

int
views_check(const struct view *const *t, int n, char *why, size_t len)
{
	int i;

	if (n < 1 || n > VIEW_MAX)
		return snprintf(why, len, "%d views: 1 to %d, a digit each", n, VIEW_MAX), -1;
	for (i = 0; i < n; i++) {
		if (views_check_one(t, i, why, len) != 0)
			return -1;
	}
	return 0;
}
