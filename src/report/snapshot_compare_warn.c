/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Why two snapshots may not be comparable: one warning line for each
 * difference that can change the result, naming the field and both
 * values.  compare still compares; the warnings say what to keep in mind.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/topology.h"
#include "scaletop/report.h"
#include "compare_priv.h"

/*
 * What an OS comparison changes on purpose (the kernel, its command line
 * and mitigations, the clocksource and scheduler it picked) and what says
 * another machine (CPU model, hypervisor) are not warnings: a kernel
 * engineer comparing 6.1 with 6.8 wants the difference, not a scolding.
 * They go on one "note:" line per snapshot, so nothing differs unsaid.
 * A field that either side does not know (older files, imports, another
 * OS) is not compared.
 */

/* Steps' mean frequencies further apart than this warn: turbo, thermal limits, a busy host. */
#define WARN_FREQ_PCT 5.0

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

static int
warn_workload(FILE *f, struct snapshot *const *v, int i)
{
	char a[700], b[700];

	cmp_workload(v[0], a, sizeof(a));
	cmp_workload(v[i], b, sizeof(b));
	if (strcmp(a, b) == 0 && strcmp(v[0]->s.wl.unit, v[i]->s.wl.unit) == 0)
		return 0;
	fprintf(f,
		"warning: %c ran %s %s, %c ran %s %s: the figures may not be "
		"comparable\n",
		'A', a, v[0]->s.wl.unit, (char)('A' + i), b, v[i]->s.wl.unit);
	return 1;
}

/* One warning when both values are known ("" is not) and differ. */
static int
warn_text(FILE *f, int i, const char *what, const char *field, const char *a, const char *b)
{
	if (a[0] == '\0' || b[0] == '\0' || strcmp(a, b) == 0)
		return 0;
	fprintf(f, "warning: %c differs from A in %s (%s): A %s, %c %s\n", (char)('A' + i), what,
		field, a, (char)('A' + i), b);
	return 1;
}

/* The same for a count, where 0 is unknown. */
static int
warn_count(FILE *f, int i, const char *what, const char *field, int a, int b)
{
	char x[24], y[24];

	if (a <= 0 || b <= 0)
		return 0;
	snprintf(x, sizeof(x), "%d", a);
	snprintf(y, sizeof(y), "%d", b);
	return warn_text(f, i, what, field, x, y);
}

/* And for seconds, where NaN is unknown. */
static int
warn_seconds(FILE *f, int i, const char *what, const char *field, double a, double b)
{
	char na[32], nb[32], x[40], y[40];

	if (!isfinite(a) || !isfinite(b))
		return 0;
	snapshot_number(na, sizeof(na), a);
	snapshot_number(nb, sizeof(nb), b);
	snprintf(x, sizeof(x), "%s s", na);
	snprintf(y, sizeof(y), "%s s", nb);
	return warn_text(f, i, what, field, x, y);
}

static void
warn_limits(const struct host_info *h, char *buf, size_t len)
{
	buf[0] = '\0';
	if (h->freq_min_mhz > 0 && h->freq_max_mhz > 0)
		snprintf(buf, len, "%d-%d MHz", h->freq_min_mhz, h->freq_max_mhz);
}

/* The mean of the steps' mean frequencies, over the steps that have one; 0: none. */
static double
warn_step_freq(const struct session *s)
{
	double sum = 0;
	int i, n = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].freq_mhz > 0) {
			sum += s->steps[i].freq_mhz;
			n++;
		}
	}
	return n > 0 ? sum / n : 0;
}

static int
warn_freq(FILE *f, struct snapshot *const *v, int i)
{
	double a = warn_step_freq(&v[0]->s), b = warn_step_freq(&v[i]->s);
	char x[24], y[24];

	if (a <= 0 || b <= 0 || fabs(b - a) <= a * WARN_FREQ_PCT / 100)
		return 0;
	snprintf(x, sizeof(x), "%.0f MHz", a);
	snprintf(y, sizeof(y), "%.0f MHz", b);
	return warn_text(f, i, "the CPUs' mean frequency over the steps", "steps[].freq_mhz", x, y);
}

/* The topologies' summaries, when both sides know one (older files do not). */
static int
warn_topology(FILE *f, int i, const struct host_info *a, const struct host_info *b)
{
	char x[256], y[256];

	if (a->topo.online <= 0 || b->topo.online <= 0)
		return 0;
	return warn_text(f, i, "topology", "host.topology",
			 topology_summary(&a->topo, x, sizeof(x)),
			 topology_summary(&b->topo, y, sizeof(y)));
}

/* What the machine and the run were: each difference that can change the figures. */
static int
warn_host(FILE *f, struct snapshot *const *v, int i)
{
	const struct host_info *a = &v[0]->s.host, *b = &v[i]->s.host;
	const struct sweep_settings *x = &v[0]->s.set, *y = &v[i]->s.set;
	char la[40], lb[40];
	int n = 0;

	n += warn_count(f, i, "CPUs", "host.ncpus", a->ncpus, b->ncpus);
	if (a->ncpus == b->ncpus)
		n += warn_count(f, i, "online CPUs", "host.threads", a->threads, b->threads);
	n += warn_text(f, i, "SMT", "host.smt", host_smt_names[a->smt], host_smt_names[b->smt]);
	n += warn_count(f, i, "NUMA nodes", "host.numa_nodes", a->numa_nodes, b->numa_nodes);
	n += warn_topology(f, i, a, b);
	n += warn_text(f, i, "cpufreq driver", "host.freq_driver", a->freq_driver, b->freq_driver);
	n += warn_text(f, i, "governor", "host.governor", a->governor, b->governor);
	warn_limits(a, la, sizeof(la));
	warn_limits(b, lb, sizeof(lb));
	n += warn_text(f, i, "frequency limits", "host.freq_min_mhz, host.freq_max_mhz", la, lb);
	n += warn_freq(f, v, i);
	n += warn_seconds(f, i, "step duration", "settings.duration_s", x->duration_s,
			  y->duration_s);
	n += warn_seconds(f, i, "warm-up", "settings.warmup_s", x->warmup_s, y->warmup_s);
	n += warn_text(f, i, "scaletop version", "tool.version", v[0]->meta.tool_version,
		       v[i]->meta.tool_version);
	return n;
}

/* The note line as it is built: its parts, ", " between them. */
struct note {
	char buf[2048];
	size_t len;
	int n;
	char b; /* the other snapshot's letter */
};

static void
note_put(struct note *nt, const char *text)
{
	int w;

	if (nt->len >= sizeof(nt->buf))
		return;
	w = snprintf(nt->buf + nt->len, sizeof(nt->buf) - nt->len, "%s", text);
	nt->len = w < 0 ? sizeof(nt->buf) : nt->len + (size_t)w;
}

/* Adds "what (A a, B b)", or "what" alone for a long value, when both are known and differ. */
static void
note_add(struct note *nt, const char *what, const char *a, const char *b, bool values)
{
	char tail[600];

	if (a[0] == '\0' || b[0] == '\0' || strcmp(a, b) == 0)
		return;
	tail[0] = '\0';
	if (values)
		snprintf(tail, sizeof(tail), " (A %.250s, %c %.250s)", a, nt->b, b);
	note_put(nt, nt->n++ ? ", " : "");
	note_put(nt, what);
	note_put(nt, tail);
}

/* An entry of x whose text in y differs or is missing. */
static bool
note_mitigation_differs(const struct host_mitigation *m, const struct host_info *y)
{
	const char *t = host_mitigation_find(y, m->name);

	return t == NULL || strcmp(t, m->text) != 0;
}

/* The vulnerabilities whose mitigation differs or that one side alone lists: up to four names. */
static void
note_mitigations(struct note *nt, const struct host_info *a, const struct host_info *b)
{
	const struct host_mitigation *m;
	int j, k = 0;

	if (a->nmitigations == 0 || b->nmitigations == 0)
		return;
	for (j = 0; j < a->nmitigations + b->nmitigations; j++) {
		/* b's entries count only when a lacks them: the others were seen from a */
		if (j < a->nmitigations) {
			m = &a->mitigations[j];
			if (!note_mitigation_differs(m, b))
				continue;
		} else {
			m = &b->mitigations[j - a->nmitigations];
			if (host_mitigation_find(a, m->name) != NULL)
				continue;
		}
		if (k++ < 4) {
			note_put(nt, k > 1 ? ", " : nt->n++ ? ", mitigations (" : "mitigations (");
			note_put(nt, m->name);
		}
	}
	if (k > 4) {
		char more[32];

		snprintf(more, sizeof(more), " and %d more", k - 4);
		note_put(nt, more);
	}
	if (k > 0)
		note_put(nt, ")");
}

static void
note_os(FILE *f, struct snapshot *const *v, int i)
{
	const struct host_info *a = &v[0]->s.host, *b = &v[i]->s.host;
	struct note nt = { "", 0, 0, (char)('A' + i) };

	note_add(&nt, "OS", a->os_name, b->os_name, true);
	note_add(&nt, "kernel", a->os_release, b->os_release, true);
	note_add(&nt, "kernel command line", a->kernel_cmdline, b->kernel_cmdline, false);
	note_mitigations(&nt, a, b);
	note_add(&nt, "clocksource", a->clocksource, b->clocksource, true);
	note_add(&nt, "scheduler", a->scheduler, b->scheduler, true);
	note_add(&nt, "CPU model", a->cpu_model, b->cpu_model, true);
	note_add(&nt, "hypervisor", a->hypervisor, b->hypervisor, true);
	if (nt.n > 0)
		fprintf(f,
			"note: %c differs from A in %s: what an OS or machine comparison "
			"compares\n",
			nt.b, nt.buf);
}

int
snapshot_compare_warn(FILE *f, struct snapshot *const *v, int k)
{
	int i, n = 0;

	for (i = 1; i < k; i++) {
		n += warn_workload(f, v, i);
		n += warn_host(f, v, i);
		note_os(f, v, i);
	}
	return n;
}
