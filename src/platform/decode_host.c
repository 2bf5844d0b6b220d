/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host fingerprint's decoders (decode_host.h): a sysfs or sysctl value
 * made safe to print and to compare, Linux's SMT switch, the topology
 * counts, the sorted list of mitigations, and the BSDs' frequency levels and
 * SMT state.  Pure and portable, so they are tested on every OS.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "decode_line.h"

const char *const host_smt_names[HOST_SMT_NSTATES] = { "", "on", "off", "unsupported" };

int
host_text_decode(const char *buf, size_t len, char *out, size_t outlen)
{
	const char *nul = memchr(buf, '\0', len);
	size_t i, o = 0;

	if (outlen == 0)
		return decode_fail(EINVAL);
	if (nul != NULL)
		len = (size_t)(nul - buf);
	while (len > 0 && (buf[len - 1] == '\n' || is_blank(buf[len - 1])))
		len--;
	for (i = 0; i < len && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)buf[i];

		out[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[o] = '\0';
	return o > 0 ? 0 : decode_fail(EINVAL);
}

int
host_int_decode(const char *buf, size_t len, int *out)
{
	const char *p = buf, *end = buf + len;
	uint64_t v;

	if (len > 0 && end[-1] == '\n')
		end--;
	if (digits_u64(&p, end, &v) != 0)
		return -1;
	if (p != end)
		return decode_fail(EINVAL);
	if (v > INT_MAX)
		return decode_fail(ERANGE);
	*out = (int)v;
	return 0;
}

enum host_smt
host_smt_decode(const char *control, size_t clen, const char *active, size_t alen)
{
	char c[32], a[8];

	if (control == NULL || host_text_decode(control, clen, c, sizeof(c)) != 0)
		return HOST_SMT_UNKNOWN;
	if (strcmp(c, "notsupported") == 0 || strcmp(c, "notimplemented") == 0)
		return HOST_SMT_UNSUPPORTED;
	if (strcmp(c, "off") == 0 || strcmp(c, "forceoff") == 0)
		return HOST_SMT_OFF;
	if (strcmp(c, "on") != 0)
		return HOST_SMT_UNKNOWN;
	/* allowed, but every sibling may have been taken offline by hand */
	if (active != NULL && host_text_decode(active, alen, a, sizeof(a)) == 0 &&
	    strcmp(a, "0") == 0)
		return HOST_SMT_OFF;
	return HOST_SMT_ON;
}

struct topo_pair {
	int pkg, core;
};

static int
topo_cmp(const void *x, const void *y)
{
	const struct topo_pair *a = x, *b = y;

	if (a->pkg != b->pkg)
		return a->pkg < b->pkg ? -1 : 1;
	return a->core < b->core ? -1 : a->core > b->core;
}

void
host_topology_count(const int *pkg, const int *core, int n, int *sockets, int *cores)
{
	struct topo_pair *p = n > 0 ? malloc(sizeof(*p) * (size_t)n) : NULL;
	int i;

	*sockets = *cores = 0;
	if (p == NULL)
		return;
	for (i = 0; i < n; i++)
		p[i] = (struct topo_pair){ pkg[i], core[i] };
	qsort(p, (size_t)n, sizeof(*p), topo_cmp);
	*sockets = *cores = 1;
	for (i = 1; i < n; i++) {
		if (p[i].pkg != p[i - 1].pkg)
			(*sockets)++;
		if (topo_cmp(&p[i], &p[i - 1]) != 0)
			(*cores)++;
	}
	free(p);
}

int
host_mitigation_add(struct host_info *h, const char *name, const char *text, size_t tlen)
{
	struct host_mitigation m;
	int i;

	if (h->nmitigations >= HOST_MAX_MITIGATIONS)
		return decode_fail(ENOSPC);
	if (host_text_decode(name, strlen(name), m.name, sizeof(m.name)) != 0 ||
	    host_text_decode(text, tlen, m.text, sizeof(m.text)) != 0)
		return decode_fail(EINVAL);
	/* a directory's order is the file system's: sort, so two hosts line up */
	for (i = h->nmitigations; i > 0 && strcmp(h->mitigations[i - 1].name, m.name) > 0; i--)
		h->mitigations[i] = h->mitigations[i - 1];
	h->mitigations[i] = m;
	h->nmitigations++;
	return 0;
}

const char *
host_mitigation_find(const struct host_info *h, const char *name)
{
	int i;

	for (i = 0; i < h->nmitigations; i++) {
		if (strcmp(h->mitigations[i].name, name) == 0)
			return h->mitigations[i].text;
	}
	return NULL;
}

int
freq_levels_decode(const char *buf, size_t len, int *min_mhz, int *max_mhz)
{
	const char *p = buf, *end = buf + len;
	uint64_t mhz, mw;
	int n = 0;

	while (end > p && (end[-1] == '\0' || end[-1] == '\n' || is_blank(end[-1])))
		end--;
	while (p < end) {
		if (digits_u64(&p, end, &mhz) != 0 || p >= end || *p++ != '/' ||
		    digits_u64(&p, end, &mw) != 0)
			return decode_fail(EINVAL);
		if (mhz == 0 || mhz > INT_MAX)
			return decode_fail(ERANGE);
		if (n == 0 || (int)mhz < *min_mhz)
			*min_mhz = (int)mhz;
		if (n == 0 || (int)mhz > *max_mhz)
			*max_mhz = (int)mhz;
		n++;
		if (p < end && *p != ' ')
			return decode_fail(EINVAL);
		while (p < end && *p == ' ')
			p++;
	}
	return n > 0 ? 0 : decode_fail(EINVAL);
}

enum host_smt
bsd_smt_state(int threads_per_core, int ht_allowed)
{
	if (threads_per_core <= 0)
		return HOST_SMT_UNKNOWN;
	if (threads_per_core == 1)
		return HOST_SMT_UNSUPPORTED;
	return ht_allowed == 0 ? HOST_SMT_OFF : HOST_SMT_ON;
}

int
bsd_boottime_decode(const void *buf, size_t len, char *out, size_t outlen)
{
	int64_t s64;
	int32_t s32;
	long long sec;

	if (len == 2 * sizeof(s64)) {
		memcpy(&s64, buf, sizeof(s64));
		sec = (long long)s64;
	} else if (len == 2 * sizeof(s32)) {
		memcpy(&s32, buf, sizeof(s32));
		sec = (long long)s32;
	} else {
		errno = EINVAL;
		return -1;
	}
	if (sec <= 0) {
		errno = EINVAL;
		return -1;
	}
	snprintf(out, outlen, "boottime:%lld", sec);
	return 0;
}
