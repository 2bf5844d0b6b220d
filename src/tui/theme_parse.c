/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The theme file parser: btop's theme[key]="value" lines, read strictly
 * enough that a typo is reported with its file and line instead of silently
 * changing nothing.  Pure code: text in, struct theme and warnings out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "theme_priv.h"

struct theme_ctx {
	struct theme *t;
	const char *file;
	size_t lineno;
	theme_warn_fn warn;
	void *arg;
	int bad;
	/* The line being applied, for theme_key_each's callback. */
	const char *key;
	size_t keylen;
	int32_t color;
	int empty;
};

#define THEME_COLOR_HINT "write \"#RRGGBB\", \"#GG\" (a grey) or \"R G B\" (0-255 each)"

static int
theme_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Copies s for a message: at most 40 bytes, anything unprintable as '?'. */
static const char *
theme_quote(char *buf, size_t len, const char *s, size_t n)
{
	size_t i, max = len - 1 < 40 ? len - 1 : 40;

	for (i = 0; i < n && i < max; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static void __attribute__((format(printf, 2, 3)))
theme_bad(struct theme_ctx *c, const char *fmt, ...)
{
	char msg[512];
	int n;
	va_list ap;

	c->bad++;
	if (c->warn == NULL)
		return;
	n = snprintf(msg, sizeof(msg), "%s:%zu: ", c->file, c->lineno);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	c->warn(msg, c->arg);
}

static int
theme_hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* "#RRGGBB" or "#GG" (a grey, as btop reads it). */
static int
theme_color_hex(const char *s, size_t n, int32_t *rgb)
{
	int32_t v = 0;
	size_t i;
	int d;

	if (n != 7 && n != 3)
		return -1;
	for (i = 1; i < n; i++) {
		if ((d = theme_hexval((unsigned char)s[i])) < 0)
			return -1;
		v = v << 4 | d;
	}
	*rgb = n == 3 ? v << 16 | v << 8 | v : v;
	return 0;
}

/* One 0-255 decimal field; returns the end, or NULL. */
static const char *
theme_dec_field(const char *s, const char *e, int *v)
{
	const char *start = s;

	*v = 0;
	while (s < e && *s >= '0' && *s <= '9' && s - start < 3)
		*v = *v * 10 + (*s++ - '0');
	if (s == start || (s < e && !theme_blank(*s)) || *v > 255)
		return NULL;
	return s;
}

/* "R G B": three decimal fields separated by blanks. */
static int
theme_color_dec(const char *s, size_t n, int32_t *rgb)
{
	const char *e = s + n;
	int i, v;

	*rgb = 0;
	for (i = 0; i < 3; i++) {
		while (i > 0 && s < e && theme_blank(*s))
			s++;
		if ((s = theme_dec_field(s, e, &v)) == NULL)
			return -1;
		*rgb = *rgb << 8 | v;
	}
	return s == e ? 0 : -1;
}

static int
theme_color_parse(const char *s, size_t n, int32_t *rgb)
{
	if (n > 0 && s[0] == '#')
		return theme_color_hex(s, n, rgb);
	return theme_color_dec(s, n, rgb);
}

/* Sets one field if no key of a better rank has set it already. */
static void
theme_set_color(const struct theme_key *k, void *arg)
{
	struct theme_ctx *c = arg;
	struct theme_style *st = &c->t->role[k->role];
	unsigned char *rank = k->field == THEME_FIELD_FG ? &st->fg_rank : &st->bg_rank;
	int32_t *dst = k->field == THEME_FIELD_FG ? &st->fg : &st->bg;
	int32_t v = c->color;

	if (c->empty) {
		if (k->empty == THEME_EMPTY_IGNORE)
			return;
		v = k->empty == THEME_EMPTY_DERIVE ? THEME_COLOR_DERIVE : THEME_COLOR_DEFAULT;
	}
	if (k->rank > *rank)
		return;
	*dst = v;
	*rank = (unsigned char)k->rank;
}

static const struct {
	const char *word;
	unsigned bit;
} theme_attr_words[] = {
	{ "bold", THEME_A_BOLD },
	{ "dim", THEME_A_DIM },
	{ "reverse", THEME_A_REVERSE },
	{ "underline", THEME_A_UNDERLINE },
	{ "italic", THEME_A_ITALIC },
	{ "none", 0 },
	{ "normal", 0 },
};

static int
theme_attr_word(const char *w, size_t n, unsigned *bits)
{
	size_t i;

	for (i = 0; i < sizeof(theme_attr_words) / sizeof(theme_attr_words[0]); i++) {
		if (strlen(theme_attr_words[i].word) == n &&
		    memcmp(theme_attr_words[i].word, w, n) == 0) {
			*bits |= theme_attr_words[i].bit;
			return 0;
		}
	}
	return -1;
}

/* "bold underline" or "bold,underline"; "" and "none" are no attribute. */
static int
theme_attr_parse(struct theme_ctx *c, const char *v, size_t n, unsigned *bits)
{
	const char *e = v + n, *w;
	char q[64];

	*bits = 0;
	while (v < e) {
		while (v < e && (theme_blank(*v) || *v == ','))
			v++;
		for (w = v; v < e && !theme_blank(*v) && *v != ','; v++)
			;
		if (v > w && theme_attr_word(w, v - w, bits) != 0) {
			theme_bad(c,
				  "theme[%.*s]: unknown attribute '%s'; use bold, dim, reverse, "
				  "underline, italic or none; using the default",
				  (int)c->keylen, c->key, theme_quote(q, sizeof(q), w, v - w));
			return -1;
		}
	}
	return 0;
}

/* name_attr and name_mono: attributes in colour, and without colour. */
static int
theme_apply_attr(struct theme_ctx *c, const char *v, size_t n)
{
	enum theme_role r;
	struct theme_style *st;
	unsigned bits;
	int mono;

	if (c->keylen < 6)
		return 0;
	mono = memcmp(c->key + c->keylen - 5, "_mono", 5) == 0;
	if (!mono && memcmp(c->key + c->keylen - 5, "_attr", 5) != 0)
		return 0;
	if ((r = theme_role_find(c->key, c->keylen - 5)) == ROLE_COUNT)
		return 0;
	if (theme_attr_parse(c, v, n, &bits) == 0) {
		st = &c->t->role[r];
		*(mono ? &st->mono : &st->attr) = bits;
		*(mono ? &st->mono_rank : &st->attr_rank) = THEME_RANK_OWN;
	}
	return 1;
}

static int
theme_apply_mono(struct theme_ctx *c, const char *v, size_t n)
{
	static const char *const yes[] = { "yes", "true", "1" }, *const no[] = { "no", "false",
										 "0" };
	char q[64];
	size_t i;

	for (i = 0; i < 3; i++) {
		if (strlen(yes[i]) == n && memcmp(yes[i], v, n) == 0)
			return c->t->monochrome = 1;
		if (strlen(no[i]) == n && memcmp(no[i], v, n) == 0)
			return c->t->monochrome = 0;
	}
	theme_bad(c, "theme[monochrome]: \"%s\" is not yes or no; using the default",
		  theme_quote(q, sizeof(q), v, n));
	return 0;
}

static void
theme_apply(struct theme_ctx *c, const char *v, size_t n)
{
	char q[64], kq[64];

	if (c->keylen == 10 && memcmp(c->key, "monochrome", 10) == 0) {
		theme_apply_mono(c, v, n);
		return;
	}
	if (theme_apply_attr(c, v, n))
		return;
	if (theme_key_each(c->key, c->keylen, NULL, NULL) == 0) {
		if (!theme_key_btop_unused(c->key, c->keylen))
			theme_bad(c, "unknown key theme[%s], ignored; themes.md lists the keys",
				  theme_quote(kq, sizeof(kq), c->key, c->keylen));
		return;
	}
	c->empty = n == 0;
	if (!c->empty && theme_color_parse(v, n, &c->color) != 0) {
		theme_bad(c,
			  "theme[%s]: \"%s\" is not a colour; " THEME_COLOR_HINT
			  "; using the default",
			  theme_quote(kq, sizeof(kq), c->key, c->keylen),
			  theme_quote(q, sizeof(q), v, n));
		return;
	}
	theme_key_each(c->key, c->keylen, theme_set_color, c);
}

static int
theme_key_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* The value after '=': quoted, or bare up to the end of the line (btop reads both). */
static int
theme_value(struct theme_ctx *c, const char *s, const char *e, const char **v, size_t *n)
{
	const char *q;

	while (s < e && theme_blank(*s))
		s++;
	if (s == e || *s != '"') {
		while (e > s && theme_blank(e[-1]))
			e--;
		*v = s;
		*n = e - s;
		return 0;
	}
	if ((q = memchr(s + 1, '"', e - s - 1)) == NULL) {
		theme_bad(c, "theme[%.*s]: the value has no closing '\"'; using the default",
			  (int)c->keylen, c->key);
		return -1;
	}
	*v = s + 1;
	*n = q - s - 1;
	for (s = q + 1; s < e && theme_blank(*s); s++)
		;
	if (s < e && *s != '#') {
		theme_bad(c,
			  "theme[%.*s]: unexpected text after the value; put comments on "
			  "their own line after '#'; using the default",
			  (int)c->keylen, c->key);
		return -1;
	}
	return 0;
}

static void
theme_line(struct theme_ctx *c, const char *s, const char *e)
{
	const char *k, *v;
	size_t n;

	while (s < e && theme_blank(*s))
		s++;
	if (s == e || *s == '#')
		return;
	if (e - s < 6 || memcmp(s, "theme[", 6) != 0) {
		theme_bad(c, "expected theme[key]=\"value\" or a '#' comment");
		return;
	}
	for (k = s += 6; s < e && theme_key_char((unsigned char)*s); s++)
		;
	c->key = k;
	c->keylen = s - k;
	if (s == e || *s != ']' || c->keylen == 0 || c->keylen > 40) {
		theme_bad(c, "a key is lower-case letters, digits and '_' closed by ']'; "
			     "expected theme[key]=\"value\"");
		return;
	}
	for (s++; s < e && theme_blank(*s); s++)
		;
	if (s == e || *s != '=') {
		theme_bad(c, "theme[%.*s]: missing '=' before the value; using the default",
			  (int)c->keylen, c->key);
		return;
	}
	if (theme_value(c, s + 1, e, &v, &n) == 0)
		theme_apply(c, v, n);
}

int
theme_parse(struct theme *t, const char *buf, size_t len, const char *name, theme_warn_fn warn,
	    void *arg)
{
	struct theme_ctx c = { .t = t, .file = name, .warn = warn, .arg = arg };
	const char *s = buf, *end = buf + len, *nl, *base;
	size_t n;

	theme_init(t);
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	n = strlen(base);
	if (n > 6 && strcmp(base + n - 6, ".theme") == 0)
		n -= 6;
	if (n > 0 && n < sizeof(t->name))
		snprintf(t->name, sizeof(t->name), "%.*s", (int)n, base);
	while (s < end) {
		c.lineno++;
		nl = memchr(s, '\n', end - s);
		if (nl == NULL)
			nl = end;
		theme_line(&c, s, nl > s && nl[-1] == '\r' ? nl - 1 : nl);
		s = nl + 1;
	}
	theme_finish(t);
	return c.bad;
}
