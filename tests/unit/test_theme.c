/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Themes: the bundled files, a btop theme, bad lines, colour mapping, the
 * theme directories and cycle, and colour pairs on real terminfo entries
 * (newterm on /dev/null, so no terminal is needed).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"
#include "../../src/tui/theme.h"
#include "../tap.h"

/* Every warning of one parse, kept for checking. */
struct warnings {
	char msg[32][512];
	int n;
};

static void
collect(const char *msg, void *arg)
{
	struct warnings *w = arg;

	if (w->n < 32)
		snprintf(w->msg[w->n], sizeof(w->msg[0]), "%s", msg);
	w->n++;
}

static int
parse_str(struct theme *t, const char *text, struct warnings *w)
{
	memset(w, 0, sizeof(*w));
	return theme_parse(t, text, strlen(text), "inline.theme", collect, w);
}

static const char *
themes_dir(void)
{
	static char dir[2048];
	const char *top = getenv("top_srcdir");

	snprintf(dir, sizeof(dir), "%s/themes", top ? top : ".");
	return dir;
}

static int
load_bundled(struct theme *t, const char *name, struct warnings *w)
{
	char path[4096], err[ST_ERRLEN] = "";
	int n;

	snprintf(path, sizeof(path), "%s/%s.theme", themes_dir(), name);
	memset(w, 0, sizeof(*w));
	n = theme_load_file(t, path, collect, w, err, sizeof(err));
	if (n < 0)
		diag("%s", err);
	return n;
}

/* WCAG 2 contrast ratio of two 0xRRGGBB colours. */
static double
lin(int c)
{
	double v = c / 255.0;

	return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double
luminance(int32_t rgb)
{
	return 0.2126 * lin(rgb >> 16 & 0xff) + 0.7152 * lin(rgb >> 8 & 0xff) +
	       0.0722 * lin(rgb & 0xff);
}

static double
contrast(int32_t a, int32_t b)
{
	double la = luminance(a), lb = luminance(b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The bundled themes: every *.theme in themes/, sorted; however many there are. */
#define MAX_BUNDLED 64
static char bundled[MAX_BUNDLED][64];
static int nbundled;

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void
scan_bundled(void)
{
	struct dirent *de;
	size_t n;
	DIR *d = opendir(themes_dir());

	if (d == NULL) {
		printf("Bail out! cannot open %s\n", themes_dir());
		exit(1);
	}
	while ((de = readdir(d)) != NULL && nbundled < MAX_BUNDLED) {
		n = strlen(de->d_name);
		if (n > 6 && n - 6 < sizeof(bundled[0]) && de->d_name[0] != '.' &&
		    strcmp(de->d_name + n - 6, ".theme") == 0)
			snprintf(bundled[nbundled++], sizeof(bundled[0]), "%.*s", (int)(n - 6),
				 de->d_name);
	}
	closedir(d);
	qsort(bundled, (size_t)nbundled, sizeof(bundled[0]), name_cmp);
}

static int
is_bundled(const char *name)
{
	int i;

	for (i = 0; i < nbundled; i++) {
		if (strcmp(bundled[i], name) == 0)
			return 1;
	}
	return 0;
}

static void
test_bundled(void)
{
	struct warnings w;
	struct theme t;
	int i, r, missing;

	scan_bundled();
	ok(is_bundled("default") && is_bundled("light") && is_bundled("mono"),
	   "themes/ has default, light and mono (%d themes in all)", nbundled);
	for (i = 0; i < nbundled; i++) {
		is_int(load_bundled(&t, bundled[i], &w), 0,
		       "bundled theme parses without warnings");
		if (w.n > 0)
			diag("%s: first warning: %s", bundled[i], w.msg[0]);
		is_str(t.name, bundled[i], "the theme is named after its file");
		missing = 0;
		for (r = 0; r < ROLE_COUNT; r++) {
			if (t.monochrome ? t.role[r].mono_rank != THEME_RANK_OWN
					 : t.role[r].fg_rank != THEME_RANK_OWN) {
				diag("%s: %s is not set by the file", bundled[i],
				     theme_role_name(r));
				missing++;
			}
		}
		missing += !t.monochrome && (t.role[ROLE_MAIN].bg_rank != THEME_RANK_OWN ||
					     t.role[ROLE_SELECTED].bg_rank != THEME_RANK_OWN);
		ok(missing == 0, "%s.theme sets every role (%d missing)", bundled[i], missing);
	}
	load_bundled(&t, "mono", &w);
	ok(t.monochrome, "mono.theme is monochrome");
	load_bundled(&t, "light", &w);
	ok(!t.monochrome && luminance(t.role[ROLE_MAIN].bg) > 0.9,
	   "light.theme has a light background");
}

/* The built-in default is what default.theme says, field by field. */
static void
test_default_matches_builtin(void)
{
	struct theme file, builtin;
	struct warnings w;
	int r, diffs = 0;

	load_bundled(&file, "default", &w);
	theme_init(&builtin);
	for (r = 0; r < ROLE_COUNT; r++) {
		if (file.role[r].fg != builtin.role[r].fg ||
		    file.role[r].bg != builtin.role[r].bg ||
		    file.role[r].attr != builtin.role[r].attr ||
		    file.role[r].mono != builtin.role[r].mono) {
			diag("%s: file %06x/%06x %x %x, built in %06x/%06x %x %x",
			     theme_role_name(r), file.role[r].fg, file.role[r].bg,
			     file.role[r].attr, file.role[r].mono, builtin.role[r].fg,
			     builtin.role[r].bg, builtin.role[r].attr, builtin.role[r].mono);
			diffs++;
		}
		if (file.role[r].mono_rank != THEME_RANK_OWN)
			diffs++;
	}
	is_int(diffs, 0, "default.theme sets every colour and attribute to the built-in value");
	is_str(builtin.name, "default", "the built-in theme is named default");
}

static void
test_contrast(void)
{
	struct warnings w;
	struct theme t;
	double c, worst = 100;
	int r, worst_r = 0;

	load_bundled(&t, "high-contrast", &w);
	for (r = 0; r < ROLE_COUNT; r++) {
		c = contrast(t.role[r].fg, t.role[r].bg);
		if (c < worst) {
			worst = c;
			worst_r = r;
		}
	}
	ok(worst >= 7.0, "high-contrast: every role is 7:1 or better (worst %s %.2f)",
	   theme_role_name(worst_r), worst);
	load_bundled(&t, "default", &w);
	ok(contrast(t.role[ROLE_MAIN].fg, t.role[ROLE_MAIN].bg) >= 7.0 &&
		   contrast(t.role[ROLE_SELECTED].fg, t.role[ROLE_SELECTED].bg) >= 4.5,
	   "default: text and the selected row are readable");
	load_bundled(&t, "light", &w);
	c = 100;
	for (r = ROLE_CPU_USER; r <= ROLE_VERDICT_BAD; r++) {
		if (r != ROLE_IDEAL && contrast(t.role[r].fg, t.role[r].bg) < c)
			c = contrast(t.role[r].fg, t.role[r].bg);
	}
	ok(c >= 4.5 && contrast(t.role[ROLE_MAIN].fg, t.role[ROLE_MAIN].bg) >= 7.0,
	   "light: text, bars and chart colours are 4.5:1 or better on white (worst %.2f)", c);
}

static void
test_btop(void)
{
	size_t len;
	char *buf = fixture_read("themes/btop-harbor.theme", &len);
	struct warnings w = { .n = 0 };
	struct theme t;
	int r, bg_ok = 1;

	is_int(theme_parse(&t, buf, len, "btop-harbor.theme", collect, &w), 0,
	       "a btop theme loads without warnings");
	free(buf);
	is_str(t.name, "btop-harbor", "named after the file");
	is_int(t.role[ROLE_MAIN].fg, 0xd8d2c4, "main_fg");
	is_int(t.role[ROLE_MAIN].bg, 0x0a1a2f, "main_bg");
	is_int(t.role[ROLE_TITLE].fg, 0xf2e9d8, "title");
	is_int(t.role[ROLE_HI].fg, 0xe0a526, "hi_fg");
	is_int(t.role[ROLE_SELECTED].fg, 0xffffff,
	       "selected_fg \"#ff\" is a grey, trailing blank ignored");
	is_int(t.role[ROLE_SELECTED].bg, 0x23456b, "selected_bg");
	is_int(t.role[ROLE_INACTIVE].fg, 0x555555, "inactive_fg \"#55\"");
	is_int(t.role[ROLE_GRAPH].fg, 0x96a0aa, "graph_text in decimal \"150 160 170\"");
	is_int(t.role[ROLE_DIV].fg, 0x2c3e55, "div_line");
	is_int(t.role[ROLE_METER].fg, 0x1c2c40, "meter_bg");
	is_int(t.role[ROLE_CPU_USER].fg, 0x4f9d69, "cpu_user borrows cpu_box");
	is_int(t.role[ROLE_CPU_USER].fg_rank, THEME_RANK_BTOP, "... and says so");
	is_int(t.role[ROLE_CPU_SYS].fg, 0xb5483b, "cpu_sys borrows proc_box");
	is_int(t.role[ROLE_CPU_NICE].fg, 0x3f7cac, "cpu_nice borrows net_box");
	is_int(t.role[ROLE_CPU_IRQ].fg, 0xc9a227, "cpu_irq borrows mem_box");
	is_int(t.role[ROLE_CPU_IOWAIT].fg, 0x96a0aa, "cpu_iowait borrows graph_text");
	is_int(t.role[ROLE_CPU_STEAL].fg, 0xd9508a, "cpu_steal borrows temp_end");
	is_int(t.role[ROLE_IDEAL].fg, 0x5b8fb9, "ideal borrows temp_start");
	is_int(t.role[ROLE_USL].fg, 0x9a7fc7, "usl borrows temp_mid");
	is_int(t.role[ROLE_PEAK].fg, 0xe0a526, "peak borrows hi_fg");
	is_int(t.role[ROLE_COLLAPSE].fg, 0xd64933, "collapse borrows cpu_end");
	is_int(t.role[ROLE_OVERLAY1].fg, 0x7fd1b9, "overlay1 borrows proc_misc");
	is_int(t.role[ROLE_OVERLAY2].fg, 0xa9b8ec, "overlay2 borrows download_end");
	is_int(t.role[ROLE_OVERLAY6].fg, 0xef6f5e, "overlay6 borrows used_end");
	is_int(t.role[ROLE_VERDICT_OK].fg, 0x4f9d69, "verdict_ok borrows cpu_start");
	is_int(t.role[ROLE_VERDICT_BAD].fg, 0xd64933, "verdict_bad borrows cpu_end");
	is_int(t.role[ROLE_WARNING].fg, 0xffb454, "an empty cpu_mid leaves warning at the default");
	is_int(t.role[ROLE_HEAT0].fg, 0x4f9d69, "heat0 is cpu_start");
	is_int(t.role[ROLE_HEAT4].fg, 0xd64933, "heat4 is cpu_end");
	is_int(t.role[ROLE_HEAT2].fg, 0x93734e, "an empty cpu_mid makes heat2 halfway");
	is_int(t.role[ROLE_HEAT1].fg, 0x71885c, "heat1 blends heat0 and heat2");
	is_int(t.role[ROLE_HEAT3].fg, 0xb55e41, "heat3 blends heat2 and heat4");
	for (r = 0; r < ROLE_COUNT; r++) {
		if (r != ROLE_SELECTED && t.role[r].bg != 0x0a1a2f)
			bg_ok = 0;
	}
	ok(bg_ok, "every role but selected is drawn on main_bg");
}

/* Our own key wins over the btop key it borrows from, in either order. */
static void
test_rank(void)
{
	struct warnings w;
	struct theme t;

	parse_str(&t, "theme[cpu_user]=\"#010101\"\ntheme[cpu_box]=\"#020202\"\n", &w);
	is_int(t.role[ROLE_CPU_USER].fg, 0x010101, "cpu_user before cpu_box wins");
	parse_str(&t, "theme[cpu_box]=\"#020202\"\ntheme[cpu_user]=\"#010101\"\n", &w);
	is_int(t.role[ROLE_CPU_USER].fg, 0x010101, "cpu_user after cpu_box wins");
	parse_str(&t, "theme[cpu_user]=\"#010101\"\ntheme[cpu_user]=\"#030303\"\n", &w);
	is_int(t.role[ROLE_CPU_USER].fg, 0x030303, "the last of two own keys wins");
	parse_str(&t, "theme[heat0]=\"#000000\"\ntheme[heat2]=\"#646464\"\n", &w);
	is_int(t.role[ROLE_HEAT1].fg, 0x323232,
	       "heat1 left out between given neighbours is blended");
	is_int(t.role[ROLE_HEAT3].fg, 0xa64e5a, "heat3 blends given heat2 and default heat4");
}

static int
has(const char *s, const char *want)
{
	return strstr(s, want) != NULL;
}

static void
test_bad_lines(void)
{
	static const int lines[] = { 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 16, 17 };
	char want[64];
	size_t len, i;
	char *buf = fixture_read("themes/bad.theme", &len);
	const char *path = fixture_path("themes/bad.theme");
	struct warnings w = { .n = 0 };
	struct theme t, def;
	int all = 1;

	theme_init(&def);
	is_int(theme_parse(&t, buf, len, path, collect, &w), 12, "12 bad lines are counted");
	free(buf);
	is_int(w.n, 12, "one warning per bad line");
	for (i = 0; i < 12 && i < (size_t)w.n; i++) {
		snprintf(want, sizeof(want), "%s:%d: ", path, lines[i]);
		if (strncmp(w.msg[i], want, strlen(want)) != 0 || strchr(w.msg[i], '\n')) {
			diag("warning %zu: %s", i, w.msg[i]);
			all = 0;
		}
	}
	ok(all, "each warning is one line starting FILE:LINE");
	ok(has(w.msg[0], "no closing '\"'"), "unterminated quote: %s", w.msg[0]);
	ok(has(w.msg[1], "\"#12345g\" is not a colour") && has(w.msg[1], "#RRGGBB"),
	   "bad hex, with what to write: %s", w.msg[1]);
	ok(has(w.msg[2], "unknown key theme[colour_of_sky]"), "unknown key: %s", w.msg[2]);
	ok(has(w.msg[3], "missing '='"), "missing '=': %s", w.msg[3]);
	ok(has(w.msg[4], "\"#abc\" is not a colour"), "#RGB is not btop's: %s", w.msg[4]);
	ok(has(w.msg[5], "\"256 0 0\""), "decimal out of range: %s", w.msg[5]);
	ok(has(w.msg[6], "expected theme[key]"), "not a theme line: %s", w.msg[6]);
	ok(has(w.msg[7], "unknown attribute 'blink'"), "unknown attribute: %s", w.msg[7]);
	ok(has(w.msg[8], "unexpected text after the value"), "trailing words: %s", w.msg[8]);
	ok(has(w.msg[9], "lower-case"), "bad key characters: %s", w.msg[9]);
	ok(has(w.msg[10], "not yes or no"), "bad monochrome: %s", w.msg[10]);
	ok(has(w.msg[11], "\"1 2\""), "two decimals: %s", w.msg[11]);
	ok(t.role[ROLE_TITLE].fg == def.role[ROLE_TITLE].fg &&
		   t.role[ROLE_HI].fg == def.role[ROLE_HI].fg &&
		   t.role[ROLE_INACTIVE].fg == def.role[ROLE_INACTIVE].fg &&
		   t.role[ROLE_DIV].fg == def.role[ROLE_DIV].fg &&
		   t.role[ROLE_CPU_USER].fg == def.role[ROLE_CPU_USER].fg &&
		   t.role[ROLE_USL].fg == def.role[ROLE_USL].fg &&
		   t.role[ROLE_CPU_NICE].fg == def.role[ROLE_CPU_NICE].fg &&
		   t.role[ROLE_CPU_IRQ].fg == def.role[ROLE_CPU_IRQ].fg &&
		   t.role[ROLE_PEAK].mono == def.role[ROLE_PEAK].mono && !t.monochrome,
	   "each bad line's key keeps the default");
	is_int(t.role[ROLE_MAIN].fg, 0x102030, "the good line before them applies");
	is_int(t.role[ROLE_CPU_SYS].fg, 0x00ff00, "a good line between them applies");
	is_int(t.role[ROLE_COLLAPSE].fg, 0x0a141e, "decimals split by several blanks and a tab");
	is_int(t.role[ROLE_MAIN].bg, def.role[ROLE_MAIN].bg, "the non-theme line set nothing");
}

static void
test_values(void)
{
	struct warnings w;
	struct theme t;
	static const char nul[] = "theme[title]=\"#ff\0000\"\ntheme[hi_fg]=\"#010203\"\n";

	is_int(parse_str(&t, "", &w), 0, "an empty file is the default theme");
	is_int(t.role[ROLE_MAIN].fg, 0xc8ccd0, "... with the default colours");
	parse_str(&t, "theme[main_bg]=\"\"\ntheme[title]=\"\"\n", &w);
	ok(t.role[ROLE_MAIN].bg == THEME_COLOR_DEFAULT &&
		   t.role[ROLE_DIV].bg == THEME_COLOR_DEFAULT,
	   "empty main_bg is the terminal's background, for every role");
	is_int(t.role[ROLE_TITLE].fg, THEME_COLOR_DEFAULT, "empty title is the terminal's colour");
	is_int(parse_str(&t,
			 "  theme[title] = #a0B0c0  \r\n\ttheme[hi_fg]=\"0 0 255\" # blue\r\n"
			 "# theme[main_fg]=\"#000000\"\ntheme[div_line]=\"#1\"",
			 &w),
	       1, "CRLF, blanks, bare values and comments; a last line without newline");
	is_int(t.role[ROLE_TITLE].fg, 0xa0b0c0, "a bare value, mixed-case hex");
	is_int(t.role[ROLE_HI].fg, 0x0000ff, "a quoted value then a comment");
	is_int(t.role[ROLE_MAIN].fg, 0xc8ccd0, "a commented-out line is not applied");
	ok(w.n == 1 && has(w.msg[0], "inline.theme:4:"), "the last line is still numbered: %s",
	   w.n ? w.msg[0] : "");
	memset(&w, 0, sizeof(w));
	is_int(theme_parse(&t, nul, sizeof(nul) - 1, "nul.theme", collect, &w), 1,
	       "a NUL inside a value is a bad line");
	is_int(t.role[ROLE_HI].fg, 0x010203, "... and the next line still applies");
	parse_str(&t, "theme[heat0]=\"#000000\"\ntheme[heat2]=\"#808080\"\ntheme[heat4]=\"\"\n",
		  &w);
	is_int(t.role[ROLE_HEAT4].fg, 0x808080, "an empty heat4 takes heat2");
	parse_str(&t, "theme[heat0]=\"#000000\"\ntheme[heat2]=\"\"\ntheme[heat4]=\"\"\n", &w);
	ok(t.role[ROLE_HEAT4].fg == 0 && t.role[ROLE_HEAT2].fg == 0 && t.role[ROLE_HEAT3].fg == 0,
	   "empty heat2 and heat4 make one colour, as btop's single-colour gradients");
	parse_str(&t,
		  "theme[title_attr]=\"bold,underline  italic\"\ntheme[main_mono]=\"none\"\n"
		  "theme[monochrome]=\"true\"\n",
		  &w);
	is_int(t.role[ROLE_TITLE].attr, THEME_A_BOLD | THEME_A_UNDERLINE | THEME_A_ITALIC,
	       "attributes by commas and blanks");
	ok(t.role[ROLE_MAIN].mono == 0 && t.monochrome && w.n == 0, "none, and monochrome true");
	parse_str(&t, "theme[nosuchrole_attr]=\"bold\"\ntheme[process_end]=\"#zz\"\n", &w);
	ok(w.n == 1 && has(w.msg[0], "inline.theme:1: unknown key"),
	   "an attribute of no role is unknown; btop's unused keys are silent: %s",
	   w.n ? w.msg[0] : "");
}

static void
test_256(void)
{
	static const struct {
		int32_t rgb;
		int want;
		const char *what;
	} c[] = {
		{ 0xffffff, 231, "pure white" },
		{ 0xff0000, 196, "pure red" },
		{ 0x00ff00, 46, "pure green" },
		{ 0x0000ff, 21, "pure blue" },
		{ 0x000000, 16, "black" },
		{ 0x080808, 232, "darkest grey step" },
		{ 0x808080, 244, "grey 50%" },
		{ 0x8a8a8a, 245, "grey 138 on the ramp" },
		{ 0xeeeeee, 255, "lightest grey step" },
		{ 0x121212, 233, "grey 18" },
		{ 0x5f87af, 67, "a cube colour" },
		{ 0xd7af00, 178, "another cube colour" },
		{ 0x303030, 236, "div grey" },
		{ 0x7f7f7f, 244, "grey 127 rounds to 128" },
	};
	size_t i;
	char name[96];

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(name, sizeof(name), "256: #%06x (%s) -> %d", c[i].rgb, c[i].what,
			 c[i].want);
		is_int(theme_rgb_to_256(c[i].rgb), c[i].want, name);
	}
}

static void
test_8(void)
{
	static const struct {
		int32_t rgb;
		int want;
		const char *what;
	} c[] = {
		{ 0xffffff, 7, "white" },
		{ 0x000000, 0, "black" },
		{ 0xff0000, 1, "red" },
		{ 0x00ff00, 2, "green" },
		{ 0xffff00, 3, "yellow" },
		{ 0x0000ff, 4, "blue" },
		{ 0xff00ff, 5, "magenta" },
		{ 0x00ffff, 6, "cyan" },
		{ 0x808080, 7, "grey 128" },
		{ 0x7f7f7f, 0, "grey 127" },
		{ 0x6a2f2f, 1, "dark red" },
		{ 0xcbc06c, 3, "khaki" },
		{ 0x5474e8, 4, "cornflower" },
		{ 0x5c6670, 0, "slate grey" },
		{ 0x101418, 0, "tinted near-black" },
		{ 0x0a1a2f, 0, "navy background" },
		{ 0x400000, 1, "dark but clearly red" },
		{ 0xf2e9d8, 7, "warm white" },
	};
	size_t i;
	char name[96];

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(name, sizeof(name), "8: #%06x (%s) -> %d", c[i].rgb, c[i].what, c[i].want);
		is_int(theme_rgb_to_8(c[i].rgb), c[i].want, name);
	}
}

static void
test_depth_and_resolve(void)
{
	struct theme_pair p[ROLE_COUNT];
	struct warnings w;
	struct theme t;

	is_int(theme_depth_pick(0, 0, 0, 0), THEME_DEPTH_MONO, "no colour: mono");
	is_int(theme_depth_pick(1, 8, 0, 0), THEME_DEPTH_8, "8 colours");
	is_int(theme_depth_pick(1, 16, 0, 0), THEME_DEPTH_8, "16 colours draw as 8");
	is_int(theme_depth_pick(1, 256, 0, 0), THEME_DEPTH_256, "256 colours");
	is_int(theme_depth_pick(1, 0x1000000, 1, 0), THEME_DEPTH_DIRECT, "RGB flag: direct");
	is_int(theme_depth_pick(1, 0x1000000, 0, 0), THEME_DEPTH_256, "no RGB flag: not direct");
	is_int(theme_depth_pick(1, 256, 1, 1), THEME_DEPTH_MONO, "a monochrome theme or NO_COLOR");
	is_int(theme_depth_pick(1, 2, 0, 0), THEME_DEPTH_MONO, "2 colours are not enough");

	theme_init(&t);
	theme_resolve(&t, THEME_DEPTH_8, 64, 1, p);
	ok(p[ROLE_MAIN].pair == 1 && p[ROLE_MAIN].fg == 7 && p[ROLE_MAIN].bg == 0,
	   "8 colours: main is white on black, pair 1");
	ok(p[ROLE_INACTIVE].fg == 7 && p[ROLE_INACTIVE].bg == 0,
	   "8 colours: dim grey text stays visible on black (fg %d)", p[ROLE_INACTIVE].fg);
	ok(p[ROLE_TITLE].attr == THEME_A_BOLD, "colour mode uses the colour attributes");
	theme_resolve(&t, THEME_DEPTH_256, 20, 1, p);
	ok(p[ROLE_HEAT3].pair == 0 && p[ROLE_HEAT3].attr == THEME_A_REVERSE && p[18].pair == 19,
	   "roles past COLOR_PAIRS fall back to attributes");
	is_int(p[ROLE_MAIN].fg, theme_rgb_to_256(0xc8ccd0), "256: main fg mapped");
	theme_resolve(&t, THEME_DEPTH_DIRECT, 64, 1, p);
	ok(p[ROLE_MAIN].fg == 0xc8ccd0 && p[ROLE_MAIN].bg == 0x101418, "direct: colours as given");
	parse_str(&t, "theme[main_bg]=\"#000000\"\ntheme[title]=\"#000005\"\n", &w);
	theme_resolve(&t, THEME_DEPTH_DIRECT, 64, 1, p);
	ok(p[ROLE_MAIN].bg >= 8 && p[ROLE_TITLE].fg >= 8,
	   "direct: colours below 8 are kept off the ANSI palette");
	parse_str(&t, "theme[main_bg]=\"\"\ntheme[main_fg]=\"\"\n", &w);
	theme_resolve(&t, THEME_DEPTH_256, 64, 1, p);
	ok(p[ROLE_MAIN].fg == -1 && p[ROLE_MAIN].bg == -1, "terminal defaults stay -1");
	theme_resolve(&t, THEME_DEPTH_256, 64, 0, p);
	ok(p[ROLE_MAIN].fg == 7 && p[ROLE_MAIN].bg == 0,
	   "without use_default_colors they become white on black");
	load_bundled(&t, "mono", &w);
	theme_resolve(&t, THEME_DEPTH_256, 64, 1, p);
	ok(p[ROLE_SELECTED].pair == 0 && p[ROLE_SELECTED].attr == THEME_A_REVERSE &&
		   p[ROLE_VERDICT_BAD].attr == (THEME_A_BOLD | THEME_A_REVERSE),
	   "a monochrome theme uses attributes even on a colour terminal");
}

struct listing {
	char names[4096];
	char light_path[4096];
	int user_zeta;
};

static void
list_one(const char *name, const char *path, enum theme_origin origin, void *arg)
{
	struct listing *l = arg;

	strcat(l->names, name);
	strcat(l->names, " ");
	if (strcmp(name, "light") == 0)
		snprintf(l->light_path, sizeof(l->light_path), "%s", path ? path : "(none)");
	if (strcmp(name, "zeta") == 0)
		l->user_zeta = origin == THEME_FROM_USER;
}

static char tmpdir[] = "/tmp/test_theme.XXXXXX";

static void
test_dirs(void)
{
	char path[4096], err[ST_ERRLEN], udir[512], want[sizeof(((struct listing *)0)->names)];
	struct listing l = { "", "", 0 };
	const char *first = NULL, *last = NULL;
	int i;

	setenv("SCALETOP_THEMES_DIR", themes_dir(), 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	snprintf(udir, sizeof(udir), "%s/scaletop", tmpdir);
	mkdir(udir, 0700);
	snprintf(udir, sizeof(udir), "%s/scaletop/themes", tmpdir);
	mkdir(udir, 0700);
	snprintf(path, sizeof(path), "%s/zeta.theme", udir);
	write_file(path, "theme[main_fg]=\"#123456\"\n");
	snprintf(path, sizeof(path), "%s/light.theme", udir);
	write_file(path, "theme[main_fg]=\"#654321\"\n");
	snprintf(path, sizeof(path), "%s/.hidden.theme", udir);
	write_file(path, "");
	snprintf(path, sizeof(path), "%s/notes.txt", udir);
	write_file(path, "");

	/* default leads, then the other bundled themes by name, then the user's. */
	snprintf(want, sizeof(want), "default ");
	for (i = 0; i < nbundled; i++) {
		if (strcmp(bundled[i], "default") != 0) {
			strcat(want, bundled[i]);
			strcat(want, " ");
			last = bundled[i];
			if (first == NULL)
				first = bundled[i];
		}
	}
	strcat(want, "zeta ");
	is_int(theme_list(list_one, &l), nbundled + 1, "every bundled theme, and the user's own");
	is_str(l.names, want, "bundled first (default leading), then the user's");
	snprintf(path, sizeof(path), "%s/light.theme", udir);
	is_str(l.light_path, path, "a user theme of a bundled name takes its place");
	ok(l.user_zeta, "zeta is listed as the user's");
	is_str(theme_next("default"), first, "t after default");
	is_str(theme_next(last), "zeta", "t goes on from bundled to user themes");
	is_str(theme_next("zeta"), "default", "t wraps around");
	is_str(theme_next("no-such"), "default", "an unknown current starts the cycle");
	is_int(theme_find("mono", path, sizeof(path), err, sizeof(err)), 1, "find a bundled theme");
	ok(has(path, "/themes/mono.theme"), "... in the bundled directory: %s", path);
	is_int(theme_find("nope", path, sizeof(path), err, sizeof(err)), -1, "an unknown name");
	ok(has(err, "'nope' not found") && has(err, udir) && has(err, themes_dir()) &&
		   !strchr(err, '\n'),
	   "one line naming both directories: %s", err);
	is_int(theme_find("../x", path, sizeof(path), err, sizeof(err)), 1,
	       "a name with '/' is a path");
	is_int(theme_find("a\tb", path, sizeof(path), err, sizeof(err)), -1,
	       "control characters are refused");

	setenv("SCALETOP_THEMES_DIR", udir, 1);
	snprintf(path, sizeof(path), "%s/zeta.theme", udir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/light.theme", udir);
	unlink(path);
	is_int(theme_find("default", path, sizeof(path), err, sizeof(err)), 0,
	       "default is built in when no file has it");
	l.names[0] = '\0';
	is_int(theme_list(list_one, &l), 1,
	       "with no theme files the cycle is the built-in default");
	is_str(theme_next("default"), "default", "... and t stays on it");
	setenv("SCALETOP_THEMES_DIR", themes_dir(), 1);
}

/*
 * Where the bundled themes are without $SCALETOP_THEMES_DIR: the source
 * tree named by the marker beside the binary (a build-tree run), else the
 * installed directory.
 */
static void
test_marker(void)
{
	char bin[600], src[600], path[4096], err[ST_ERRLEN], want[4096];
	char cfg[600];

	snprintf(cfg, sizeof(cfg), "%s/nocfg", tmpdir);
	setenv("XDG_CONFIG_HOME", cfg, 1);
	unsetenv("SCALETOP_THEMES_DIR");
	snprintf(bin, sizeof(bin), "%s/build", tmpdir);
	mkdir(bin, 0700);
	snprintf(src, sizeof(src), "%s/checkout", tmpdir);
	mkdir(src, 0700);
	snprintf(path, sizeof(path), "%s/themes", src);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/themes/only-here.theme", src);
	write_file(path, "theme[main_fg]=\"#123456\"\n");
	snprintf(path, sizeof(path), "%s/scaletop.srcdir", bin);
	snprintf(want, sizeof(want), "%s\n", src); /* as the build writes it */
	write_file(path, want);
	snprintf(bin, sizeof(bin), "%s/build/scaletop", tmpdir);

	file_set_argv0(bin);
	is_int(theme_find("only-here", path, sizeof(path), err, sizeof(err)), 1,
	       "run from the build tree: the marker's source tree has the themes");
	snprintf(want, sizeof(want), "%s/themes/only-here.theme", src);
	is_str(path, want, "... its themes/");
	setenv("SCALETOP_THEMES_DIR", themes_dir(), 1);
	is_int(theme_find("only-here", path, sizeof(path), err, sizeof(err)), -1,
	       "$SCALETOP_THEMES_DIR comes before the marker");
	unsetenv("SCALETOP_THEMES_DIR");

	file_set_argv0("scaletop");
	is_int(theme_find("only-here", path, sizeof(path), err, sizeof(err)), -1,
	       "argv[0] found through PATH: no marker is looked for");
	ok(has(err, ST_THEMES_DIR), "... the installed directory is searched: %s", err);

	snprintf(path, sizeof(path), "%s/build/scaletop.srcdir", tmpdir);
	unlink(path);
	file_set_argv0(bin);
	is_int(theme_find("only-here", path, sizeof(path), err, sizeof(err)), -1,
	       "no marker beside the binary (an installed one)");
	ok(has(err, ST_THEMES_DIR), "... the installed directory is searched: %s", err);
	file_set_argv0(NULL);
	setenv("SCALETOP_THEMES_DIR", themes_dir(), 1);
}

/* Without initscr() the theme in use is attributes only. */
static void
test_use_without_terminal(void)
{
	char err[ST_ERRLEN];
	char path[4096];

	is_str(theme_current(), "default", "the default is current before any theme_use");
	is_int(theme_attr(ROLE_SELECTED), A_REVERSE, "before initscr: the selected row is reverse");
	is_int(theme_use("light", err, sizeof(err)), 0, "use light");
	is_str(theme_current(), "light", "light is current");
	is_int(theme_depth(), THEME_DEPTH_MONO, "no terminal yet: attributes only");
	is_int(theme_attr(ROLE_VERDICT_BAD), A_BOLD | A_REVERSE, "bad verdict: bold reverse");
	is_int(theme_use("no-such", err, sizeof(err)), -1, "an unknown theme fails");
	is_str(theme_current(), "light", "... and leaves the current one");
	snprintf(path, sizeof(path), "%s", fixture_path("themes/bad.theme"));
	is_int(theme_use(path, err, sizeof(err)), 1,
	       "a theme with bad lines loads, with a warning");
	ok(has(err, "bad.theme:4:") && has(err, "(and 11 more bad lines)") && !strchr(err, '\n'),
	   "the first warning and how many more: %s", err);
	is_str(theme_current(), "bad", "and it is current");
	is_int(theme_use("/nonexistent/x.theme", err, sizeof(err)), -1, "an unreadable path fails");
	ok(has(err, "/nonexistent/x.theme") && has(err, "cannot read"), "saying why: %s", err);
	is_int(theme_use(NULL, err, sizeof(err)), 0, "NULL is the default theme");
	is_str(err, "", "no warning leaves err empty");
}

/* Runs tic to compile a direct-colour terminfo entry into dir; 0 on success. */
static int
make_direct_terminfo(const char *dir)
{
	char src[4096];
	pid_t pid;
	int st;

	snprintf(src, sizeof(src), "%s/direct.src", dir);
	write_file(src, "scaletop-direct|direct-colour terminal for test_theme,\n"
			"\tuse=xterm-256color, colors#0x1000000, pairs#0x10000, RGB,\n");
	if ((pid = fork()) == 0) {
		char *argv[] = { "tic", "-x", "-o", (char *)dir, src, NULL };

		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(127);
		execvp("tic", argv);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0
											       : -1;
}

static SCREEN *
open_term(const char *term, FILE **out, FILE **in)
{
	SCREEN *s;

	*out = fopen("/dev/null", "w");
	*in = fopen("/dev/null", "r");
	s = newterm(term, *out, *in);
	if (s != NULL)
		set_term(s);
	return s;
}

static void
close_term(SCREEN *s, FILE *out, FILE *in)
{
	endwin();
	delscreen(s);
	fclose(out);
	fclose(in);
}

/* The role's pair as curses holds it: fg and bg, or -2 when it has none. */
static void
pair_colors(enum theme_role r, int *fg, int *bg)
{
	int pair = (int)PAIR_NUMBER(theme_attr(r));
#ifdef NCURSES_EXT_COLORS
	if (pair == 0 || extended_pair_content(pair, fg, bg) != OK)
		*fg = *bg = -2;
#else
	short f, b;

	*fg = *bg = -2;
	if (pair > 0 && pair_content((short)pair, &f, &b) == OK) {
		*fg = f;
		*bg = b;
	}
#endif
}

static void
test_terminal(const char *term, enum theme_depth want, const char *theme, int32_t want_fg)
{
	char err[ST_ERRLEN];
	FILE *out, *in;
	SCREEN *s;
	int fg, bg;

	if ((s = open_term(term, &out, &in)) == NULL) {
		skip("no terminfo entry", term);
		fclose(out);
		fclose(in);
		return;
	}
	ok(theme_use(theme, err, sizeof(err)) == 0, "%s: theme_use(%s) after newterm", term, theme);
	ok(theme_depth() == want, "%s draws %s at depth %d (got %d)", term, theme, want,
	   theme_depth());
	pair_colors(ROLE_MAIN, &fg, &bg);
	if (want == THEME_DEPTH_MONO) {
		ok(PAIR_NUMBER(theme_attr(ROLE_MAIN)) == 0 && theme_attr(ROLE_TITLE) == A_BOLD,
		   "%s: no colour pairs, attributes only", term);
	} else {
		ok(fg == want_fg && PAIR_NUMBER(theme_attr(ROLE_MAIN)) == 1,
		   "%s: main is pair 1 with fg %d (got %d, bg %d)", term, want_fg, fg, bg);
		ok((theme_attr(ROLE_TITLE) & A_BOLD) != 0 &&
			   PAIR_NUMBER(theme_attr(ROLE_TITLE)) == ROLE_TITLE + 1,
		   "%s: title is bold in its own pair", term);
	}
	close_term(s, out, in);
}

/* A theme chosen before initscr() gets its pairs on the first theme_attr() after it. */
static void
test_chosen_before_initscr(void)
{
	char err[ST_ERRLEN];
	FILE *out, *in;
	SCREEN *s;

	theme_use("light", err, sizeof(err));
	if ((s = open_term("xterm-256color", &out, &in)) == NULL) {
		skip("no xterm-256color terminfo entry", "pairs after initscr");
		fclose(out);
		fclose(in);
		return;
	}
	ok(PAIR_NUMBER(theme_attr(ROLE_MAIN)) == 1 && theme_depth() == THEME_DEPTH_256 &&
		   strcmp(theme_current(), "light") == 0,
	   "a theme used before initscr gets colour pairs once there is a screen");
	close_term(s, out, in);
}

static void
test_terminals(void)
{
	char dir[1024];

	unsetenv("NO_COLOR");
	test_chosen_before_initscr();
	test_terminal("xterm-256color", THEME_DEPTH_256, "default", theme_rgb_to_256(0xc8ccd0));
	test_terminal("xterm", THEME_DEPTH_8, "default", 7);
	test_terminal("vt100", THEME_DEPTH_MONO, "default", 0);
	test_terminal("xterm-256color", THEME_DEPTH_MONO, "mono", 0);
	setenv("NO_COLOR", "1", 1);
	test_terminal("xterm-256color", THEME_DEPTH_MONO, "default", 0);
	unsetenv("NO_COLOR");
	snprintf(dir, sizeof(dir), "%s/terminfo", tmpdir);
	mkdir(dir, 0700);
	if (make_direct_terminfo(dir) != 0) {
		skip("tic cannot compile a terminfo entry here", "direct colour");
		return;
	}
	setenv("TERMINFO", dir, 1);
	test_terminal("scaletop-direct", THEME_DEPTH_DIRECT, "high-contrast", 0xffffff);
	unsetenv("TERMINFO");
}

int
main(void)
{
	static const char *const no_btop[] = { NULL };

	/* This machine's own btop themes would change what the cycle tests count. */
	theme_set_btop_dirs(no_btop);
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_bundled();
	test_default_matches_builtin();
	test_contrast();
	test_btop();
	test_rank();
	test_bad_lines();
	test_values();
	test_256();
	test_8();
	test_depth_and_resolve();
	test_dirs();
	test_marker();
	test_use_without_terminal();
	test_terminals();
	remove_tree(tmpdir);
	return done_testing();
}
