/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back what session_json_host.c writes: the host's fingerprint and
 * a step's mean frequency.  Every member is optional, since files from
 * before the fingerprint lack them; absent and null both mean unknown (""
 * or 0).  A count of 0 is refused: the writer says null for "not known".
 * Shared by snapshots and streams; see session_read.h.
 */
#include <math.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/topology.h"
#include "session_read.h"

#define READ_MAX_MHZ 100000

static const struct {
	const char *key;
	size_t off;
	long long max;
} read_fp_counts[] = {
	{ "sockets", offsetof(struct host_info, sockets), SESSION_READ_MAX_CPUS },
	{ "cores", offsetof(struct host_info, cores), SESSION_READ_MAX_CPUS },
	{ "threads", offsetof(struct host_info, threads), SESSION_READ_MAX_CPUS },
	{ "numa_nodes", offsetof(struct host_info, numa_nodes), SESSION_READ_MAX_CPUS },
	{ "freq_min_mhz", offsetof(struct host_info, freq_min_mhz), READ_MAX_MHZ },
	{ "freq_max_mhz", offsetof(struct host_info, freq_max_mhz), READ_MAX_MHZ },
};

static const struct {
	const char *key;
	size_t off, size;
} read_fp_texts[] = {
#define FP_TEXT(f)                                                                    \
	{                                                                             \
#f, offsetof(struct host_info, f), sizeof(((struct host_info *)0)->f) \
	}
	FP_TEXT(kernel_cmdline), FP_TEXT(freq_driver), FP_TEXT(governor), FP_TEXT(hypervisor),
	FP_TEXT(clocksource),    FP_TEXT(scheduler),   FP_TEXT(boot_id),
#undef FP_TEXT
};

static int
read_fp_smt(struct field_ctx *c, const json_t *j, const char *P, struct host_info *h)
{
	static const char *const names[] = { "on", "off", "unsupported" };
	json_t *s = json_object_get(j, "smt");
	int v;

	if (s == NULL || json_is_null(s))
		return 0;
	if (field_enum(c, j, P, "smt", names, 3, &v) != 0)
		return -1;
	h->smt = (enum host_smt)(HOST_SMT_ON + v);
	return 0;
}

static int
read_fp_mitigations(struct field_ctx *c, const json_t *j, const char *P, struct host_info *h)
{
	json_t *m = json_object_get(j, "mitigations"), *v;
	char p[160], text[HOST_MITIGATION_TEXT_LEN];
	const char *name;

	if (m == NULL || json_is_null(m))
		return 0;
	field_path(p, sizeof(p), P, "mitigations");
	if (field_type(c, m, p, F_OBJ | F_NULL) != 0)
		return -1;
	if (json_object_size(m) > HOST_MAX_MITIGATIONS)
		return field_fail(c, p, "%zu entries; expected at most %d", json_object_size(m),
				  HOST_MAX_MITIGATIONS);
	json_object_foreach(m, name, v)
	{
		char q[224];

		field_path(q, sizeof(q), p, name);
		if (strlen(name) == 0 || strlen(name) >= HOST_MITIGATION_NAME_LEN)
			return field_fail(c, q, "expected a name of 1 to %d bytes",
					  HOST_MITIGATION_NAME_LEN - 1);
		if (field_str(c, m, p, name, 0, text, sizeof(text)) != 0)
			return -1;
		/* kept sorted, whatever order a hand-edited file lists them in */
		if (host_mitigation_add(h, name, text, strlen(text)) != 0)
			return field_fail(c, q, "an empty text; expected what the kernel says");
	}
	return 0;
}

/* One level of the topology: null is not known; a unit's sizes must nest. */
static int
read_topo_unit(struct field_ctx *c, const json_t *lv, const char *P, int l, struct topology *t)
{
	struct topo_unit *u = &t->unit[l];
	json_t *o = json_object_get(lv, topo_level_names[l]);
	long long count, cpus, lo, hi;
	char p[160];

	if (o == NULL || json_is_null(o))
		return 0;
	field_path(p, sizeof(p), P, topo_level_names[l]);
	if (field_type(c, o, p, F_OBJ) != 0 ||
	    field_int(c, o, p, "count", 1, t->online, 0, 0, &count) != 0 ||
	    field_int(c, o, p, "cpus", 1, t->online, 0, 0, &cpus) != 0 ||
	    field_int(c, o, p, "min_cpus", 1, cpus, 0, 0, &lo) != 0 ||
	    field_int(c, o, p, "max_cpus", cpus, t->online, 0, 0, &hi) != 0 ||
	    field_str(c, o, p, "first", 0, u->first, sizeof(u->first)) != 0)
		return -1;
	u->count = (int)count;
	u->cpus = (int)cpus;
	u->min_cpus = (int)lo;
	u->max_cpus = (int)hi;
	return 0;
}

/* "topology": absent (older files) and null leave it unknown. */
static int
read_fp_topology(struct field_ctx *c, const json_t *j, const char *P, struct topology *t)
{
	json_t *o = json_object_get(j, "topology"), *lv;
	long long v;
	char p[160], q[176];
	int l;

	memset(t, 0, sizeof(*t));
	if (o == NULL || json_is_null(o))
		return 0;
	field_path(p, sizeof(p), P, "topology");
	if (field_type(c, o, p, F_OBJ) != 0 ||
	    field_int(c, o, p, "online", 1, SESSION_READ_MAX_CPUS, 0, 0, &v) != 0)
		return -1;
	t->online = (int)v;
	if (field_int(c, o, p, "present", t->online, SESSION_READ_MAX_CPUS, F_NULL, 0, &v) != 0)
		return -1;
	t->present = (int)v;
	if (field_int(c, o, p, "llc_level", 1, 9, F_NULL, 0, &v) != 0)
		return -1;
	t->llc_level = (int)v;
	if (field_int(c, o, p, "big_cpus", 1, t->online, F_NULL, 0, &v) != 0)
		return -1;
	t->big_cpus = (int)v;
	if (field_str(c, o, p, "source", F_NULL, t->source, sizeof(t->source)) != 0)
		return -1;
	lv = json_object_get(o, "levels");
	field_path(q, sizeof(q), p, "levels");
	if (lv == NULL || field_type(c, lv, q, F_OBJ) != 0)
		return lv == NULL ? field_fail(c, q, "missing; expected an object of levels") : -1;
	for (l = 0; l < TOPO_NLEVELS; l++) {
		if (read_topo_unit(c, lv, q, l, t) != 0)
			return -1;
	}
	return 0;
}

int
session_read_fingerprint(struct field_ctx *c, const json_t *j, const char *P, struct host_info *h)
{
	long long v;
	size_t i;

	for (i = 0; i < sizeof(read_fp_counts) / sizeof(read_fp_counts[0]); i++) {
		if (json_object_get(j, read_fp_counts[i].key) == NULL)
			continue;
		if (field_int(c, j, P, read_fp_counts[i].key, 1, read_fp_counts[i].max, F_NULL, 0,
			      &v) != 0)
			return -1;
		*(int *)((char *)h + read_fp_counts[i].off) = (int)v;
	}
	for (i = 0; i < sizeof(read_fp_texts) / sizeof(read_fp_texts[0]); i++) {
		if (json_object_get(j, read_fp_texts[i].key) != NULL &&
		    field_str(c, j, P, read_fp_texts[i].key, F_NULL,
			      (char *)h + read_fp_texts[i].off, read_fp_texts[i].size) != 0)
			return -1;
	}
	return read_fp_smt(c, j, P, h) != 0 || read_fp_mitigations(c, j, P, h) != 0 ||
			       read_fp_topology(c, j, P, &h->topo) != 0
		       ? -1
		       : 0;
}

int
session_read_freq(struct field_ctx *c, const json_t *step, const char *P, struct step *st)
{
	double v;

	st->freq_mhz = 0;
	if (json_object_get(step, "freq_mhz") == NULL)
		return 0;
	if (field_num(c, step, P, "freq_mhz", 1, READ_MAX_MHZ, F_NULL, &v) != 0)
		return -1;
	st->freq_mhz = isnan(v) ? 0 : v;
	return 0;
}
