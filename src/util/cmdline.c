/* SPDX-License-Identifier: BSD-2-Clause */
/* Splitting a --cmd string into argv, with shell-like quoting but no shell (cmdline.h). */
#include <stdlib.h>
#include <string.h>

#include "scaletop/cmdline.h"
#include "scaletop/error.h"

void
cmdline_free(char **argv)
{
	char **p;

	if (argv == NULL)
		return;
	for (p = argv; *p != NULL; p++)
		free(*p);
	free(argv);
}

/* Copies one word starting at *sp into word (big enough for all of s); advances *sp. */
static int
cmdline_word(const char *s, const char **sp, char *word, char *err, size_t errlen)
{
	const char *p = *sp, *opened = p;
	char quote = 0, *w = word;

	for (; *p != '\0'; p++) {
		if (quote != 0) {
			if (*p == quote)
				quote = 0;
			else if (*p == '\\' && quote == '"' && (p[1] == '"' || p[1] == '\\'))
				*w++ = *++p;
			else
				*w++ = *p;
		} else if (*p == ' ' || *p == '\t' || *p == '\n') {
			break;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			opened = p;
		} else if (*p == '\\' && p[1] != '\0') {
			*w++ = *++p;
		} else {
			*w++ = *p;
		}
	}
	if (quote != 0)
		return st_error(err, errlen,
				"command \"%s\": unterminated %c quote at column %d: "
				"close it",
				s, quote, (int)(opened - s) + 1);
	*w = '\0';
	*sp = p;
	return 0;
}

int
cmdline_split(const char *s, char ***out, char *err, size_t errlen)
{
	size_t len = strlen(s), n = 0;
	char **argv = calloc(len / 2 + 2, sizeof(*argv));
	char *word = malloc(len + 1);
	const char *p = s;

	*out = NULL;
	if (argv == NULL || word == NULL) {
		free(argv);
		free(word);
		return st_error(err, errlen, "out of memory");
	}
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		if (cmdline_word(s, &p, word, err, errlen) != 0 ||
		    (argv[n++] = strdup(word)) == NULL) {
			if (n > 0 && argv[n - 1] == NULL)
				st_error(err, errlen, "out of memory");
			free(word);
			cmdline_free(argv);
			return -1;
		}
	}
	free(word);
	if (n == 0) {
		free(argv);
		return st_error(err, errlen, "empty command: give the program and its arguments");
	}
	*out = argv;
	return 0;
}
