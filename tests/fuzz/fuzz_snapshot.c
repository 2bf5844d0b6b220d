/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the snapshot loader: snapshot_parse (the session) and
 * snapshot_read (plus the meta data, the saved analysis and its
 * recomputation).  Any input must give 0 or one error line; never a crash,
 * a leak, or a session the views could not walk.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads what views read, so the sanitizers check the loaded session's bounds. */
static double
fuzz_walk(const struct session *s)
{
	const struct tick *k;
	double sum = 0;
	int i, j;

	for (i = 0; i < s->nsteps; i++) {
		for (j = 0; j < s->steps[i].niv; j++)
			sum += s->steps[i].iv[j];
		for (j = 0; j < s->steps[i].ncpu; j++)
			sum += s->steps[i].cpu[j].busy;
		sum += strlen(s->steps[i].reason);
	}
	for (i = 0; i < s->nevents; i++)
		sum += strlen(s->events[i].text);
	for (i = 0; i < series_len(&s->ticks); i++) {
		k = series_at(&s->ticks, i);
		for (j = 0; j < s->ticks.ncpu; j++)
			sum += k->busy[j];
	}
	for (i = 0; i < s->set.nn; i++)
		sum += s->set.n[i];
	for (i = 0; s->wl.argv != NULL && s->wl.argv[i] != NULL; i++)
		sum += strlen(s->wl.argv[i]);
	return sum;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile double sink;
	char err[ST_ERRLEN];
	struct snapshot snap;
	struct session s;
	int i, parsed, read;

	err[0] = '\0';
	parsed = snapshot_parse((const char *)data, size, "fuzz.json", &s, err, sizeof(err));
	if (parsed != 0 && (err[0] == '\0' || strchr(err, '\n') != NULL))
		abort(); /* a failure is exactly one line */
	sink = fuzz_walk(&s);
	session_free(&s);
	snapshot_init(&snap);
	read = snapshot_read((const char *)data, size, "fuzz.json", &snap, err, sizeof(err));
	if (read == 0) {
		sink = fuzz_walk(&snap.s);
		for (i = 0; i < snap.saved.npoints; i++)
			sink = sink + snap.saved.pts[i].x;
		for (i = 0; i < snap.now.npoints; i++)
			sink = sink + snap.now.pts[i].x;
	}
	snapshot_free(&snap);
	/* The full reader only adds checks: it cannot accept what the parser refused. */
	if (parsed != 0 && read == 0)
		abort();
	(void)sink;
	return 0;
}
