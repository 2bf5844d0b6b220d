/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the quiet check's names read back from an event
 * (others_names_cpus, which the analysis runs on a loaded file's events):
 * the first line is the command asked for, the rest the text.  The answer
 * is -1 or a finite number of CPUs, never below 0.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/others.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1), *text;
	double c;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	p[size] = '\0';
	if ((text = strchr(p, '\n')) != NULL)
		*text++ = '\0';
	else
		text = p + size;
	c = others_names_cpus(text, p);
	if (c != -1 && !(isfinite(c) && c >= 0))
		abort();
	free(p);
	return 0;
}
