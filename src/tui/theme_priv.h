/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the theme files: the key tables and the steps of parsing. */
#ifndef SCALETOP_THEME_PRIV_H
#define SCALETOP_THEME_PRIV_H

#include "theme.h"

/* What a key sets in its role. */
enum theme_field {
	THEME_FIELD_FG,
	THEME_FIELD_BG,
};

/* What an empty value ("") means for a key. */
enum theme_empty {
	THEME_EMPTY_DEFAULT, /* the terminal's own colour */
	THEME_EMPTY_IGNORE,  /* nothing: the key keeps its value */
	THEME_EMPTY_DERIVE,  /* blend the heat neighbours, as btop's empty _mid and _end */
};

/* A colour key and what it sets; a btop key may set several roles. */
struct theme_key {
	const char *name;
	enum theme_role role;
	enum theme_field field;
	enum theme_rank rank;
	enum theme_empty empty;
};

/*
 * Calls fn (unless NULL) for each colour key named name (len bytes).
 * Returns the number of keys found.
 */
size_t theme_key_each(const char *name, size_t len, void (*fn)(const struct theme_key *, void *),
		      void *arg);

/* The role whose base name ("cpu_user") is name, or ROLE_COUNT. */
enum theme_role theme_role_find(const char *name, size_t len);

/* True for btop keys that scaletop does not use: they are ignored without a warning. */
int theme_key_btop_unused(const char *name, size_t len);

/* After parsing: fills derived heat colours and copies main_bg to the roles drawn on it. */
void theme_finish(struct theme *t);

#endif
