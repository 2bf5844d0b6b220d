/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CPUs' frequency range over a step's window: the lowest and highest of
 * the readings the frequency collector takes for its mean.  A range that
 * moves says the clock moved under the measurement (turbo, thermal or power
 * capping), which a mean alone hides.  null where the OS does not say.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <jansson.h>

#include "scaletop/field_read.h"
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

/* compare says two ranges differ when an end moved by more than this share. */
#define FREQ_RANGE_NOTABLE 0.05

/* A step's figures (its slot). */
struct freq_range {
	bool known; /* the OS said, at least once */
	double min_mhz, max_mhz;
};

/*
 * The range of the readings the frequency collector made for its mean, so
 * the CPUs' files are read once; it ends after this one (collectors.c), so
 * its last reading is in.
 */
static void
freq_range_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot,
	       uint64_t now)
{
	const struct freq_sampler *fs = &c->freq;
	struct freq_range *out;

	if (slot->data != NULL && slot->free != NULL)
		slot->free(slot->data);
	slot->data = NULL;
	if ((out = malloc(sizeof(*out))) == NULL)
		return;
	out->known = fs->n > 0;
	out->min_mhz = out->known ? fs->min_mhz : 0;
	out->max_mhz = out->known ? fs->max_mhz : 0;
	slot->data = out;
	slot->free = free;
}

static json_t *
freq_range_write(const struct step *st, const struct step_slot *slot)
{
	const struct freq_range *r = slot->data;

	if (r == NULL)
		return NULL;
	if (!r->known)
		return json_null();
	return json_pack("{s:f, s:f}", "min_mhz", r->min_mhz, "max_mhz", r->max_mhz);
}

/* Absent: not measured; null: the OS did not say; else both ends, min <= max. */
static int
freq_range_parse(struct field_ctx *f, const json_t *v, const char *path, struct step *st,
		 struct step_slot *slot)
{
	struct freq_range r = { 0 };
	struct freq_range *out;

	(void)st;
	if (v == NULL)
		return 0;
	if (!json_is_null(v)) {
		if (field_type(f, v, path, F_OBJ) != 0 ||
		    field_num(f, v, path, "min_mhz", 1, 1e7, 0, &r.min_mhz) != 0 ||
		    field_num(f, v, path, "max_mhz", r.min_mhz, 1e7, 0, &r.max_mhz) != 0)
			return -1;
		r.known = true;
	}
	if ((out = malloc(sizeof(*out))) == NULL)
		return field_fail(f, path, "out of memory");
	*out = r;
	slot->data = out;
	slot->free = free;
	return 0;
}

/* The next step from *i on with a known range, or NULL; *i moves past it. */
static const struct freq_range *
freq_range_next(const struct session *s, int slot, int *i)
{
	const struct freq_range *r;

	while (*i < s->nsteps) {
		r = s->steps[(*i)++].slot[slot].data;
		if (r != NULL && r->known)
			return r;
	}
	return NULL;
}

/* One line after the table, when any step has a range. */
static void
freq_range_table(FILE *f, const struct session *s, int slot)
{
	const struct freq_range *r;
	bool any = false;
	int i = 0;

	while ((r = freq_range_next(s, slot, &i)) != NULL) {
		fprintf(f, "%s N=%d %.0f-%.0f",
			any ? "," : "CPU MHz over the window:", s->steps[i - 1].n, r->min_mhz,
			r->max_mhz);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* The whole sweep's range of s; false when no step has one. */
static bool
freq_range_sweep(const struct session *s, int slot, double *lo, double *hi)
{
	const struct freq_range *r;
	int i = 0;
	bool any = false;

	while ((r = freq_range_next(s, slot, &i)) != NULL) {
		*lo = any ? fmin(*lo, r->min_mhz) : r->min_mhz;
		*hi = any ? fmax(*hi, r->max_mhz) : r->max_mhz;
		any = true;
	}
	return any;
}

static bool
freq_range_apart(double a, double b)
{
	return fabs(a - b) > FREQ_RANGE_NOTABLE * fmax(a, b);
}

/* A line when a side's sweep ran at a notably other frequency range than the first's. */
static void
freq_range_compare(FILE *f, const struct session *const *v, int k, int slot)
{
	double lo[2] = { 0, 0 }, hi[2] = { 0, 0 };
	bool differ = false;
	int i;

	if (k < 2 || !freq_range_sweep(v[0], slot, &lo[0], &hi[0]))
		return;
	for (i = 1; i < k && !differ; i++) {
		if (freq_range_sweep(v[i], slot, &lo[1], &hi[1]))
			differ = freq_range_apart(lo[0], lo[1]) || freq_range_apart(hi[0], hi[1]);
	}
	if (!differ)
		return;
	fprintf(f, "\nCPU frequency range (MHz) differs:");
	for (i = 0; i < k; i++) {
		if (freq_range_sweep(v[i], slot, &lo[1], &hi[1]))
			fprintf(f, " %c %.0f-%.0f", 'A' + i % 26, lo[1], hi[1]);
		else
			fprintf(f, " %c not known", 'A' + i % 26);
	}
	fputc('\n', f);
}

const struct collector freq_range_collector = {
	.key = "freq_range",
	.end = freq_range_end,
	.write = freq_range_write,
	.read = freq_range_parse,
	.table = freq_range_table,
	.compare = freq_range_compare,
};
