/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fallback sampler for OSes without a backend of their own: machine-wide
 * CPU totals and system counters from libstatgrab, shown as one CPU.  Only
 * the library calls live here; statgrab_decode does the mapping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <statgrab.h>

#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/platform.h"
#include "decode_bsd.h"
#include "topo_build.h"

struct sampler {
	int unused; /* libstatgrab keeps its own state; the handle marks sg_init done */
};

static int
generic_statgrab_error(char *err, size_t errlen, const char *what)
{
	return st_error(err, errlen,
			"libstatgrab %s failed: %s (%s); this OS has no scaletop backend "
			"and libstatgrab cannot read its CPU totals either",
			what, sg_str_error(sg_get_error()), sg_get_error_arg());
}

struct sampler *
sampler_open(char *err, size_t errlen)
{
	struct sampler *s;
	sg_error e;

	/*
	 * Ignoring init errors lets a component we never use (disks, network)
	 * fail without stopping us; sampler_read finds out whether CPU stats work.
	 */
	e = sg_init(1);
	if (e != SG_ERROR_NONE && e != SG_ERROR_INITIALISATION) {
		generic_statgrab_error(err, errlen, "sg_init");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		sg_shutdown();
		st_error(err, errlen, "generic sampler: out of memory");
		return NULL;
	}
	return s;
}

int
sampler_read(struct sampler *s, struct raw_sample *out, char *err, size_t errlen)
{
	sg_cpu_stats *st;
	size_t n = 0;
	int rc;

	st = sg_get_cpu_stats_r(&n);
	out->mono_ns = mono_now_ns();
	if (st == NULL || n == 0) {
		if (st != NULL)
			sg_free_cpu_stats(st);
		return generic_statgrab_error(err, errlen, "sg_get_cpu_stats_r");
	}
	rc = statgrab_decode(st, out);
	sg_free_cpu_stats(st);
	if (rc != 0)
		return st_error(err, errlen,
				"libstatgrab sg_get_cpu_stats_r: %s; "
				"report the OS and libstatgrab version",
				errno == ENOMEM ? "out of memory" : "every CPU total is 0");
	return 0;
}

const char *
sampler_note(const struct sampler *s)
{
	return "per-CPU data is not available on this OS: showing libstatgrab totals as one CPU";
}

const char *
sampler_source(const struct sampler *s)
{
	return "generic libstatgrab";
}

void
sampler_close(struct sampler *s)
{
	if (s == NULL)
		return;
	free(s);
	sg_shutdown();
}

int
task_counters_read(pid_t pid, struct task_counters *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	errno = ENOSYS;
	return st_error(err, errlen,
			"per-thread counters of pid %ld: not available with the generic "
			"libstatgrab backend; only system-wide contention figures are shown",
			(long)pid);
}

/* "model name\t: Foo" -> "Foo", when line starts with key. */
static int
cpuinfo_value(const char *line, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key), end;
	const char *v;

	if (strncmp(line, key, klen) != 0)
		return -1;
	v = line + klen;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v++ != ':')
		return -1;
	while (*v == ' ' || *v == '\t')
		v++;
	end = strcspn(v, "\r\n");
	while (end > 0 && (v[end - 1] == ' ' || v[end - 1] == '\t'))
		end--;
	if (end == 0)
		return -1;
	snprintf(buf, len, "%.*s", (int)end, v);
	return 0;
}

/*
 * There is no portable call for the CPU model; /proc/cpuinfo exists on Linux
 * and on the BSDs with a Linux-compatible procfs mounted.  Elsewhere host.c
 * says "unknown".
 */
int
platform_cpu_model(char *buf, size_t len)
{
	char line[512];
	FILE *f;
	int rc = -1;

	if (buf == NULL || len == 0)
		return -1;
	f = fopen("/proc/cpuinfo", "r");
	if (f == NULL)
		return -1;
	while (rc != 0 && fgets(line, sizeof(line), f) != NULL) {
		if (cpuinfo_value(line, "model name", buf, len) == 0 ||
		    cpuinfo_value(line, "cpu model", buf, len) == 0)
			rc = 0;
	}
	fclose(f);
	return rc;
}

/* libstatgrab knows nothing of SMT, mitigations or clocksources: only the CPUs' count is known. */
void
host_fingerprint_read(struct host_info *h)
{
	host_topology_read(&h->topo);
}

/* Only the count: libstatgrab says nothing of caches, nodes or packages. */
void
host_topology_read(struct topology *t)
{
	topo_build_count(t, (int)sysconf(_SC_NPROCESSORS_ONLN), "sysconf");
}

int
host_cpu_freq_mhz(double *mhz)
{
	(void)mhz;
	errno = ENOSYS;
	return -1;
}
