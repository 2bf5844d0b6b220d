/*
 * Why two snapshots may not be comparable: one warning line for each
 * difference that can change the result.  compare still compares; the
 * warnings say what to keep in mind.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

/* An imported snapshot's description and source say where it came from, not what ran. */
static bool
cmp_is_note(const struct workload_desc *w, int i)
{
	return strcmp(w->name, "imported") == 0 &&
	       (strcmp(w->key[i], "description") == 0 || strcmp(w->key[i], "source") == 0);
}

/* "work=1000 dir=/tmp" or the command line: what a workload ran with. */
static void
cmp_params(const struct workload_desc *w, char *buf, size_t len)
{
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < w->nparams && k < len; i++) {
		if (!cmp_is_note(w, i))
			k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", k ? " " : "", w->key[i],
					      w->value[i]);
	}
	for (i = 0; w->argv != NULL && w->argv[i] != NULL && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? " " : "", w->argv[i]);
}

static void
cmp_workload(const struct snapshot *sn, char *buf, size_t len)
{
	char params[512];

	cmp_params(&sn->s.wl, params, sizeof(params));
	snprintf(buf, len, "%s (%s%s%s)", sn->s.wl.name,
		 sn->s.set.mode == MODE_PROCESSES ? "processes" : "threads", params[0] ? ", " : "",
		 params);
}

int
snapshot_compare_warn(FILE *f, struct snapshot *const *v, int k)
{
	char a[700], b[700];
	int i, n = 0;

	cmp_workload(v[0], a, sizeof(a));
	for (i = 1; i < k; i++) {
		cmp_workload(v[i], b, sizeof(b));
		if (strcmp(a, b) == 0 && strcmp(v[0]->s.wl.unit, v[i]->s.wl.unit) == 0)
			continue;
		fprintf(f,
			"warning: %c ran %s %s, %c ran %s %s: the figures may not be "
			"comparable\n",
			'A', a, v[0]->s.wl.unit, (char)('A' + i), b, v[i]->s.wl.unit);
		n++;
	}
	return n;
}
