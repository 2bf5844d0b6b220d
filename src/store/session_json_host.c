/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's fingerprint in the session's JSON (host.h): what decides
 * whether two snapshots measured the same thing.  Each member is written
 * always, null where the OS did not say, so a reader tells "unknown" from
 * "absent in an older file" only by the latter's lack of the member; both
 * load as unknown.
 */
#include <jansson.h>
#include <stdio.h>

#include "scaletop/format.h"
#include "scaletop/host.h"
#include "scaletop/session.h"
#include "scaletop/topology.h"
#include "snapshot_priv.h"

/*
 * Text from the kernel (the command line above all) is scrubbed to UTF-8
 * here, since jansson refuses anything else.  Read back by
 * session_read_host.c.
 */

static json_t *
fp_str(const char *s)
{
	char buf[sizeof(((struct host_info *)0)->kernel_cmdline)];

	if (s[0] == '\0')
		return json_null();
	snprintf(buf, sizeof(buf), "%s", s);
	utf8_scrub(buf);
	return json_string(buf);
}

static json_t *
fp_count(int v)
{
	return v > 0 ? json_integer(v) : json_null();
}

/* {"name": "text", ...} in name order; null when the OS lists none. */
static json_t *
fp_mitigations(const struct host_info *h)
{
	json_t *m;
	int i;

	if (h->nmitigations == 0)
		return json_null();
	if ((m = json_object()) == NULL)
		return NULL;
	for (i = 0; i < h->nmitigations; i++) {
		char name[HOST_MITIGATION_NAME_LEN];

		snprintf(name, sizeof(name), "%s", h->mitigations[i].name);
		utf8_scrub(name);
		if (json_object_set_new(m, name, fp_str(h->mitigations[i].text)) != 0) {
			json_decref(m);
			return NULL;
		}
	}
	return m;
}

/* One level: {"count", "cpus", "min_cpus", "max_cpus", "first"}; null when not known. */
static json_t *
fp_topo_unit(const struct topo_unit *u)
{
	if (u->count <= 0)
		return json_null();
	return json_pack("{s:i, s:i, s:i, s:i, s:s}", "count", u->count, "cpus", u->cpus,
			 "min_cpus", u->min_cpus, "max_cpus", u->max_cpus, "first", u->first);
}

/* The CPU topology (topology.h), its levels by name; null when nothing is known. */
static json_t *
fp_topology(const struct topology *t)
{
	json_t *o, *lv;
	int l;

	if (t->online <= 0)
		return json_null();
	if ((lv = json_object()) == NULL)
		return NULL;
	for (l = 0; l < TOPO_NLEVELS; l++) {
		if (json_object_set_new(lv, topo_level_names[l], fp_topo_unit(&t->unit[l])) != 0) {
			json_decref(lv);
			return NULL;
		}
	}
	o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "online", t->online, "present",
		      fp_count(t->present), "llc_level", fp_count(t->llc_level), "big_cpus",
		      fp_count(t->big_cpus), "source", fp_str(t->source), "levels", lv);
	return o;
}

int
session_json_fingerprint(json_t *host, const struct host_info *h)
{
	json_t *fp = json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"kernel_cmdline", fp_str(h->kernel_cmdline), "sockets", fp_count(h->sockets),
		"cores", fp_count(h->cores), "threads", fp_count(h->threads), "smt",
		h->smt != HOST_SMT_UNKNOWN ? json_string(host_smt_names[h->smt]) : json_null(),
		"numa_nodes", fp_count(h->numa_nodes), "freq_driver", fp_str(h->freq_driver),
		"governor", fp_str(h->governor), "freq_min_mhz", fp_count(h->freq_min_mhz),
		"freq_max_mhz", fp_count(h->freq_max_mhz), "hypervisor", fp_str(h->hypervisor),
		"clocksource", fp_str(h->clocksource), "scheduler", fp_str(h->scheduler), "boot_id",
		fp_str(h->boot_id), "mitigations", fp_mitigations(h), "topology",
		fp_topology(&h->topo));
	int rc;

	if (fp == NULL)
		return -1;
	rc = json_object_update(host, fp);
	json_decref(fp);
	return rc;
}

json_t *
session_json_freq(const struct step *st)
{
	return st->freq_mhz > 0 ? json_real(st->freq_mhz) : json_null();
}
