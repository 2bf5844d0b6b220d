/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's fingerprint in a few lines, for `show`: only what the OS said,
 * and the mitigations summed up (how many are mitigated, and which are
 * vulnerable by name), since nineteen lines of them would bury the table.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/host.h"
#include "scaletop/report.h"
#include "scaletop/topology.h"

#define HT_CMDLINE_SHOWN 160

/* ", " between the parts of a line, or the line's title before its first part. */
static void
ht_part(FILE *f, int *nparts, const char *title)
{
	fputs(*nparts > 0 ? ", " : title, f);
	(*nparts)++;
}

static void
ht_count(FILE *f, int *np, const char *title, int v, const char *what)
{
	if (v <= 0)
		return;
	ht_part(f, np, title);
	fprintf(f, "%d %s%s", v, what, v == 1 ? "" : "s");
}

static void
ht_text(FILE *f, int *np, const char *title, const char *label, const char *v)
{
	if (v[0] == '\0')
		return;
	ht_part(f, np, title);
	fprintf(f, "%s%s", label, v);
}

static void
ht_end(FILE *f, int np)
{
	if (np > 0)
		fputc('\n', f);
}

static void
ht_cpus(FILE *f, const struct host_info *h)
{
	int np = 0;

	ht_count(f, &np, "cpus: ", h->sockets, "socket");
	ht_count(f, &np, "cpus: ", h->cores, "core");
	ht_count(f, &np, "cpus: ", h->threads, "thread");
	ht_text(f, &np, "cpus: ", "SMT ", host_smt_names[h->smt]);
	ht_count(f, &np, "cpus: ", h->numa_nodes, "NUMA node");
	ht_text(f, &np, "cpus: ", "hypervisor ", h->hypervisor);
	ht_end(f, np);
}

/* The policy and the frequency the steps ran at (the lowest and highest step mean). */
static void
ht_freq(FILE *f, const struct session *s)
{
	const struct host_info *h = &s->host;
	double lo = 0, hi = 0;
	int i, np = 0;

	ht_text(f, &np, "cpufreq: ", "", h->freq_driver);
	ht_text(f, &np, "cpufreq: ", "", h->governor);
	if (h->freq_min_mhz > 0 && h->freq_max_mhz > 0) {
		ht_part(f, &np, "cpufreq: ");
		fprintf(f, "%d-%d MHz", h->freq_min_mhz, h->freq_max_mhz);
	}
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].freq_mhz <= 0)
			continue;
		lo = lo == 0 || s->steps[i].freq_mhz < lo ? s->steps[i].freq_mhz : lo;
		hi = s->steps[i].freq_mhz > hi ? s->steps[i].freq_mhz : hi;
	}
	if (hi > 0) {
		ht_part(f, &np, "cpufreq: ");
		fprintf(f, lo < hi - 0.5 ? "steps ran at %.0f-%.0f MHz" : "steps ran at %.0f MHz",
			lo, hi);
	}
	ht_end(f, np);
}

static void
ht_kernel(FILE *f, const struct host_info *h)
{
	int np = 0;

	ht_text(f, &np, "kernel: ", "clocksource ", h->clocksource);
	ht_text(f, &np, "kernel: ", "scheduler ", h->scheduler);
	ht_text(f, &np, "kernel: ", "boot ", h->boot_id);
	ht_end(f, np);
	/* a boot loader's line can run to kilobytes: the file keeps it whole */
	if (h->kernel_cmdline[0] != '\0')
		fprintf(f, "cmdline: %.*s%s\n", HT_CMDLINE_SHOWN, h->kernel_cmdline,
			strlen(h->kernel_cmdline) > HT_CMDLINE_SHOWN ? "..." : "");
}

/* Linux's texts start with what they are; the BSDs' switches are numbers, listed as they are. */
static void
ht_mitigations(FILE *f, const struct host_info *h)
{
	int i, k = 0, mitigated = 0, unaffected = 0, vulnerable = 0;

	for (i = 0; i < h->nmitigations; i++) {
		const char *t = h->mitigations[i].text;

		unaffected += strncmp(t, "Not affected", 12) == 0;
		mitigated += strncmp(t, "Mitigation", 10) == 0;
		vulnerable += strncmp(t, "Vulnerable", 10) == 0;
	}
	if (h->nmitigations == 0)
		return;
	if (mitigated + unaffected + vulnerable == 0) {
		for (i = 0; i < h->nmitigations; i++)
			fprintf(f, "%s%s=%s", i ? ", " : "mitigations: ", h->mitigations[i].name,
				h->mitigations[i].text);
		fputc('\n', f);
		return;
	}
	fprintf(f, "mitigations: %d mitigated, %d not affected, %d vulnerable", mitigated,
		unaffected, vulnerable);
	for (i = 0; i < h->nmitigations; i++) {
		if (strncmp(h->mitigations[i].text, "Vulnerable", 10) == 0)
			fprintf(f, "%s%s", k++ ? ", " : " (", h->mitigations[i].name);
	}
	fputs(k ? ")\n" : "\n", f);
}

/* "topology: 2 sockets x 2 nodes x 4 LLCs (L3) x 8 cores x 2 threads", when known. */
static void
ht_topology(FILE *f, const struct host_info *h)
{
	char line[256];

	if (h->topo.online > 0)
		fprintf(f, "topology: %s\n", topology_summary(&h->topo, line, sizeof(line)));
}

void
snapshot_host_text(FILE *f, const struct session *s)
{
	ht_cpus(f, &s->host);
	ht_topology(f, &s->host);
	ht_freq(f, s);
	ht_kernel(f, &s->host);
	ht_mitigations(f, &s->host);
}
