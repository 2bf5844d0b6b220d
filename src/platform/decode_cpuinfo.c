/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CPU model out of /proc/cpuinfo, whichever key the architecture prints
 * it under, made safe for a terminal (decode_linux.h); and, for the host's
 * fingerprint, its topology, hypervisor flag and mean frequency
 * (decode_host.h).  Pure and portable.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/decode_linux.h"
#include "decode_line.h"

/* In order of preference; see decode_linux.h for which system prints which. */
static const char *const cpuinfo_keys[] = {
	"model name", "Hardware", "cpu model", "cpu", "uarch", "Processor",
};
#define CPUINFO_NKEYS (sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]))

struct cpuinfo_value {
	const char *p;
	size_t len;
};

/* Splits "key<blanks>: value" with both sides trimmed; -1 if there is no ':'. */
static int
cpuinfo_split(struct line *l, struct cpuinfo_value *key, struct cpuinfo_value *val)
{
	const char *colon = memchr(l->p, ':', (size_t)(l->end - l->p));
	const char *k = colon;

	if (colon == NULL)
		return -1;
	while (k > l->p && is_blank(k[-1]))
		k--;
	key->p = l->p;
	key->len = (size_t)(k - l->p);
	l->p = colon + 1;
	line_skip_blanks(l);
	val->p = l->p;
	k = l->end;
	while (k > l->p && is_blank(k[-1]))
		k--;
	val->len = (size_t)(k - l->p);
	return 0;
}

/*
 * Copies a value for display: runs of blanks become one space (x86 pads model
 * names), and control bytes become '?' so no escape sequence reaches a terminal.
 */
static void
cpuinfo_copy(char *out, size_t outlen, const struct cpuinfo_value *v)
{
	size_t i, o = 0;

	for (i = 0; i < v->len && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)v->p[i];

		if (is_blank((char)c)) {
			if (o > 0 && out[o - 1] == ' ')
				continue;
			c = ' ';
		} else if (c < 0x20 || c == 0x7f)
			c = '?';
		out[o++] = (char)c;
	}
	out[o] = '\0';
}

int
cpuinfo_model(const char *buf, size_t len, char *out, size_t outlen)
{
	const char *pos = buf, *end = buf + len;
	struct cpuinfo_value key, val, best = { NULL, 0 }, impl = { NULL, 0 }, part = { NULL, 0 };
	size_t i, rank = CPUINFO_NKEYS;
	struct line l;
	char ibuf[32], pbuf[32];

	if (outlen == 0)
		return decode_fail(EINVAL);
	out[0] = '\0';
	/* a last line without '\n' ends the scan: it may be cut short */
	while (rank > 0 && line_next(&pos, end, &l) == 1) {
		if (cpuinfo_split(&l, &key, &val) != 0 || val.len == 0)
			continue;
		for (i = 0; i < rank; i++) {
			if (key_is(key.p, key.len, cpuinfo_keys[i])) {
				best = val;
				rank = i;
				break;
			}
		}
		if (impl.p == NULL && key_is(key.p, key.len, "CPU implementer"))
			impl = val;
		if (part.p == NULL && key_is(key.p, key.len, "CPU part"))
			part = val;
	}
	if (best.p != NULL) {
		cpuinfo_copy(out, outlen, &best);
		return 0;
	}
	if (impl.p == NULL || part.p == NULL)
		return decode_fail(ENOENT);
	cpuinfo_copy(ibuf, sizeof(ibuf), &impl);
	cpuinfo_copy(pbuf, sizeof(pbuf), &part);
	snprintf(out, outlen, "CPU implementer %s part %s", ibuf, pbuf);
	return 0;
}

/* "1996.249" in any locale (strtod would read a decimal comma); -1 if it is not a number. */
static double
cpuinfo_mhz(const struct cpuinfo_value *v)
{
	const char *p = v->p, *end = v->p + v->len, *frac;
	uint64_t whole, part = 0;
	double scale = 1;

	if (digits_u64(&p, end, &whole) != 0)
		return -1;
	if (p < end && *p == '.') {
		frac = ++p;
		if (p < end && digits_u64(&p, end, &part) != 0)
			return -1;
		for (; frac < p; frac++)
			scale *= 10;
	}
	return p == end ? (double)whole + (double)part / scale : -1;
}

/* Whether a "flags" value has the word "hypervisor". */
static int
cpuinfo_has_word(const struct cpuinfo_value *v, const char *word)
{
	size_t wl = strlen(word), i = 0, j;

	while (i < v->len) {
		for (j = i; j < v->len && !is_blank(v->p[j]); j++)
			;
		if (j - i == wl && memcmp(v->p + i, word, wl) == 0)
			return 1;
		i = j + 1;
	}
	return 0;
}

struct cpuinfo_ids {
	int *pkg, *core;
	int n, cap;
	int pkg_seen, core_seen; /* how many CPUs had each */
};

/* A new "processor" block: one more CPU, its ids unknown until its lines say. */
static int
cpuinfo_ids_next(struct cpuinfo_ids *ids)
{
	int *p, *c;

	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? ids->cap * 2 : 16;
		p = realloc(ids->pkg, sizeof(*p) * (size_t)ids->cap);
		if (p != NULL)
			ids->pkg = p;
		c = realloc(ids->core, sizeof(*c) * (size_t)ids->cap);
		if (c != NULL)
			ids->core = c;
		if (p == NULL || c == NULL)
			return decode_fail(ENOMEM);
	}
	ids->pkg[ids->n] = ids->core[ids->n] = 0;
	ids->n++;
	return 0;
}

static void
cpuinfo_host_line(struct cpuinfo_ids *ids, const struct cpuinfo_value *key,
		  const struct cpuinfo_value *val, struct cpuinfo_host *ci, double *mhz_sum,
		  int *nmhz)
{
	const char *p = val->p;
	uint64_t id;
	double mhz;

	if (key_is(key->p, key->len, "flags")) {
		if (ci->hypervisor != 1)
			ci->hypervisor = cpuinfo_has_word(val, "hypervisor");
	} else if (key_is(key->p, key->len, "cpu MHz") && (mhz = cpuinfo_mhz(val)) >= 0) {
		*mhz_sum += mhz;
		(*nmhz)++;
	} else if (ids->n > 0 && digits_u64(&p, val->p + val->len, &id) == 0 && id < INT_MAX) {
		if (key_is(key->p, key->len, "physical id")) {
			ids->pkg[ids->n - 1] = (int)id;
			ids->pkg_seen++;
		} else if (key_is(key->p, key->len, "core id")) {
			ids->core[ids->n - 1] = (int)id;
			ids->core_seen++;
		}
	}
}

int
cpuinfo_host_decode(const char *buf, size_t len, struct cpuinfo_host *ci)
{
	const char *pos = buf, *end = buf + len;
	struct cpuinfo_ids ids = { NULL, NULL, 0, 0, 0, 0 };
	struct cpuinfo_value key, val;
	double mhz_sum = 0;
	int nmhz = 0, rc = 0;
	struct line l;

	*ci = (struct cpuinfo_host){ 0, 0, 0, -1, 0 };
	while (rc == 0 && line_next(&pos, end, &l) == 1) {
		if (cpuinfo_split(&l, &key, &val) != 0)
			continue;
		if (key_is(key.p, key.len, "processor"))
			rc = cpuinfo_ids_next(&ids);
		else
			cpuinfo_host_line(&ids, &key, &val, ci, &mhz_sum, &nmhz);
	}
	ci->processors = ids.n;
	/* every CPU must say both, or the counts would invent a topology */
	if (rc == 0 && ids.n > 0 && ids.pkg_seen == ids.n && ids.core_seen == ids.n)
		host_topology_count(ids.pkg, ids.core, ids.n, &ci->sockets, &ci->cores);
	if (nmhz > 0)
		ci->mhz_mean = mhz_sum / nmhz;
	free(ids.pkg);
	free(ids.core);
	if (rc != 0)
		return rc;
	return ids.n > 0 ? 0 : decode_fail(EINVAL);
}
