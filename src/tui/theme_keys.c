/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The theme keys: each role's own keys, the btop keys we borrow colours
 * from, the btop keys we ignore, and the built-in default theme.
 */
#include <string.h>

#include "theme_priv.h"

#define B THEME_A_BOLD
#define D THEME_A_DIM
#define R THEME_A_REVERSE
#define U THEME_A_UNDERLINE

/*
 * The defaults here are themes/default.theme; test_theme checks that the
 * two agree, so that a missing themes directory or a bad line in any theme
 * falls back to the same colours that the bundled file shows.
 */

struct theme_role_info {
	const char *base;   /* "cpu_user": the role's name, and prefix of _attr and _mono */
	const char *fg_key; /* its colour key; btop's name where btop has the thing */
	const char *bg_key; /* NULL: the role is drawn on main_bg */
	int32_t fg, bg;
	unsigned attr, mono;
};

static const struct theme_role_info theme_roles[ROLE_COUNT] = {
	[ROLE_MAIN] = { "main", "main_fg", "main_bg", 0xc8ccd0, 0x101418, 0, 0 },
	[ROLE_TITLE] = { "title", "title", NULL, 0xeef1f4, 0, B, B },
	[ROLE_HI] = { "hi", "hi_fg", NULL, 0xffb454, 0, B, B | U },
	[ROLE_INACTIVE] = { "inactive", "inactive_fg", NULL, 0x5c6670, 0, 0, D },
	[ROLE_DIV] = { "div", "div_line", NULL, 0x3a424a, 0, 0, 0 },
	[ROLE_CPU_USER] = { "cpu_user", "cpu_user", NULL, 0x5fd068, 0, 0, B },
	[ROLE_CPU_NICE] = { "cpu_nice", "cpu_nice", NULL, 0x5aa9e6, 0, 0, 0 },
	[ROLE_CPU_SYS] = { "cpu_sys", "cpu_sys", NULL, 0xff6464, 0, 0, R },
	[ROLE_CPU_IRQ] = { "cpu_irq", "cpu_irq", NULL, 0xe6c84f, 0, 0, U },
	[ROLE_CPU_IOWAIT] = { "cpu_iowait", "cpu_iowait", NULL, 0x9d8fe8, 0, 0, D },
	[ROLE_CPU_STEAL] = { "cpu_steal", "cpu_steal", NULL, 0x4fd1c5, 0, 0, D | U },
	[ROLE_GRAPH] = { "graph", "graph_text", NULL, 0x8a949e, 0, 0, 0 },
	[ROLE_IDEAL] = { "ideal", "ideal", NULL, 0x7c8a99, 0, 0, D },
	[ROLE_USL] = { "usl", "usl", NULL, 0xc792ea, 0, 0, U },
	[ROLE_PEAK] = { "peak", "peak", NULL, 0xffd75f, 0, B, B },
	[ROLE_COLLAPSE] = { "collapse", "collapse", NULL, 0xff3b5c, 0, B, B | R },
	[ROLE_OVERLAY1] = { "overlay1", "overlay1", NULL, 0x5fd7ff, 0, B, B },
	[ROLE_OVERLAY2] = { "overlay2", "overlay2", NULL, 0xffaf5f, 0, 0, 0 },
	[ROLE_OVERLAY3] = { "overlay3", "overlay3", NULL, 0xaf87ff, 0, 0, U },
	[ROLE_OVERLAY4] = { "overlay4", "overlay4", NULL, 0x87d75f, 0, 0, D },
	[ROLE_OVERLAY5] = { "overlay5", "overlay5", NULL, 0xff87af, 0, 0, B | U },
	[ROLE_OVERLAY6] = { "overlay6", "overlay6", NULL, 0xd7d787, 0, 0, D | U },
	[ROLE_VERDICT_OK] = { "verdict_ok", "verdict_ok", NULL, 0x5fd068, 0, B, B },
	[ROLE_VERDICT_BAD] = { "verdict_bad", "verdict_bad", NULL, 0xff5f5f, 0, B, B | R },
	[ROLE_WARNING] = { "warning", "warning", NULL, 0xffb454, 0, B, B | U },
	[ROLE_HEAT0] = { "heat0", "heat0", NULL, 0x2f6b45, 0, 0, D },
	[ROLE_HEAT1] = { "heat1", "heat1", NULL, 0x4caf50, 0, 0, 0 },
	[ROLE_HEAT2] = { "heat2", "heat2", NULL, 0xd4c24a, 0, 0, B },
	[ROLE_HEAT3] = { "heat3", "heat3", NULL, 0xf08c3a, 0, 0, R },
	[ROLE_HEAT4] = { "heat4", "heat4", NULL, 0xe8384f, 0, B, B | R },
	[ROLE_SELECTED] = { "selected", "selected_fg", "selected_bg", 0xffffff, 0x284a6e, 0, R },
	[ROLE_METER] = { "meter", "meter_bg", NULL, 0x262d34, 0, 0, D },
};

/*
 * btop keys that lend their colour to a role whose own key the file lacks,
 * so that a btop theme colours everything in its own palette: box colours
 * become CPU-time colours, the cpu gradient becomes the heat scale and the
 * verdicts, the bright ends of the meter gradients become overlays.
 */
static const struct theme_key theme_btop_keys[] = {
	{ "cpu_box", ROLE_CPU_USER, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "net_box", ROLE_CPU_NICE, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "proc_box", ROLE_CPU_SYS, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "mem_box", ROLE_CPU_IRQ, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "graph_text", ROLE_CPU_IOWAIT, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "temp_end", ROLE_CPU_STEAL, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "temp_start", ROLE_IDEAL, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "temp_mid", ROLE_USL, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "hi_fg", ROLE_PEAK, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_end", ROLE_COLLAPSE, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "proc_misc", ROLE_OVERLAY1, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "download_end", ROLE_OVERLAY2, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "upload_end", ROLE_OVERLAY3, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cached_end", ROLE_OVERLAY4, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "available_end", ROLE_OVERLAY5, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "used_end", ROLE_OVERLAY6, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_start", ROLE_VERDICT_OK, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_end", ROLE_VERDICT_BAD, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_mid", ROLE_WARNING, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_start", ROLE_HEAT0, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_IGNORE },
	{ "cpu_mid", ROLE_HEAT2, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_DERIVE },
	{ "cpu_end", ROLE_HEAT4, THEME_FIELD_FG, THEME_RANK_BTOP, THEME_EMPTY_DERIVE },
};

/* btop keys with nothing to colour here. */
static const char *const theme_btop_unused[] = {
	"free_start", "free_mid",        "free_end",      "cached_start",
	"cached_mid", "available_start", "available_mid", "used_start",
	"used_mid",   "download_start",  "download_mid",  "upload_start",
	"upload_mid", "process_start",   "process_mid",   "process_end",
};

#define nitems(a) (sizeof(a) / sizeof((a)[0]))

static int
theme_name_is(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(s, name, len) == 0;
}

void
theme_init(struct theme *t)
{
	const struct theme_role_info *ri;
	struct theme_style *st;
	int r;

	memset(t, 0, sizeof(*t));
	strcpy(t->name, "default");
	for (r = 0; r < ROLE_COUNT; r++) {
		ri = &theme_roles[r];
		st = &t->role[r];
		st->fg = ri->fg;
		st->bg = ri->bg_key != NULL ? ri->bg : theme_roles[ROLE_MAIN].bg;
		st->attr = ri->attr;
		st->mono = ri->mono;
		st->fg_rank = st->bg_rank = THEME_RANK_DEFAULT;
		st->attr_rank = st->mono_rank = THEME_RANK_DEFAULT;
	}
}

const char *
theme_role_name(enum theme_role r)
{
	if ((int)r < 0 || r >= ROLE_COUNT)
		return NULL;
	return theme_roles[r].base;
}

enum theme_role
theme_role_find(const char *name, size_t len)
{
	int r;

	for (r = 0; r < ROLE_COUNT; r++) {
		if (theme_name_is(name, len, theme_roles[r].base))
			return (enum theme_role)r;
	}
	return ROLE_COUNT;
}

/* An empty heat1-4 blends its neighbours, as an empty btop _mid or _end does. */
static enum theme_empty
theme_own_empty(int r)
{
	if (r > ROLE_HEAT0 && r <= ROLE_HEAT4)
		return THEME_EMPTY_DERIVE;
	return THEME_EMPTY_DEFAULT;
}

size_t
theme_key_each(const char *name, size_t len, void (*fn)(const struct theme_key *, void *),
	       void *arg)
{
	struct theme_key k;
	size_t i, n = 0;
	int r;

	for (r = 0; r < ROLE_COUNT; r++) {
		k.role = (enum theme_role)r;
		k.rank = THEME_RANK_OWN;
		k.empty = theme_own_empty(r);
		if (theme_name_is(name, len, theme_roles[r].fg_key)) {
			k.name = theme_roles[r].fg_key;
			k.field = THEME_FIELD_FG;
			if (fn != NULL)
				fn(&k, arg);
			n++;
		}
		if (theme_roles[r].bg_key != NULL &&
		    theme_name_is(name, len, theme_roles[r].bg_key)) {
			k.name = theme_roles[r].bg_key;
			k.field = THEME_FIELD_BG;
			k.empty = THEME_EMPTY_DEFAULT;
			if (fn != NULL)
				fn(&k, arg);
			n++;
		}
	}
	for (i = 0; i < nitems(theme_btop_keys); i++) {
		if (theme_name_is(name, len, theme_btop_keys[i].name)) {
			if (fn != NULL)
				fn(&theme_btop_keys[i], arg);
			n++;
		}
	}
	return n;
}

int
theme_key_btop_unused(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nitems(theme_btop_unused); i++) {
		if (theme_name_is(name, len, theme_btop_unused[i]))
			return 1;
	}
	return 0;
}
