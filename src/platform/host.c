/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host identity from libstatgrab, plus what it lacks (the CPU model and the
 * fingerprint: linux_host.c, host_bsd.c) from the backend.
 */
#include <statgrab.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/platform.h"

static void
copy_field(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

static int
statgrab_failed(char *err, size_t errlen, const char *what)
{
	return st_error(err, errlen, "libstatgrab: %s failed: %s (%s)", what,
			sg_str_error(sg_get_error()), sg_get_error_arg());
}

int
host_info_read_id(struct host_info *h, char *err, size_t errlen)
{
	sg_host_info *hi;
	sg_mem_stats *mem;
	size_t n;

	memset(h, 0, sizeof(*h));
	if (sg_init(1) != SG_ERROR_NONE)
		return statgrab_failed(err, errlen, "sg_init");
	hi = sg_get_host_info_r(&n);
	if (hi == NULL || n == 0) {
		statgrab_failed(err, errlen, "sg_get_host_info");
		sg_shutdown();
		return -1;
	}
	copy_field(h->os_name, sizeof(h->os_name), hi->os_name);
	copy_field(h->os_release, sizeof(h->os_release), hi->os_release);
	copy_field(h->os_version, sizeof(h->os_version), hi->os_version);
	copy_field(h->platform, sizeof(h->platform), hi->platform);
	copy_field(h->hostname, sizeof(h->hostname), hi->hostname);
	h->ncpus = hi->ncpus > 0 ? (int)hi->ncpus : (int)sysconf(_SC_NPROCESSORS_CONF);
	sg_free_host_info(hi);

	mem = sg_get_mem_stats_r(&n);
	if (mem != NULL && n > 0)
		h->mem_total = mem->total;
	sg_free_mem_stats(mem);
	sg_shutdown();

	if (platform_cpu_model(h->cpu_model, sizeof(h->cpu_model)) != 0)
		copy_field(h->cpu_model, sizeof(h->cpu_model), "unknown");
	return 0;
}

int
host_info_read(struct host_info *h, char *err, size_t errlen)
{
	if (host_info_read_id(h, err, errlen) != 0)
		return -1;
	host_fingerprint_read(h);
	return 0;
}
