/*
 * The CPU model out of /proc/cpuinfo, whichever key the architecture prints
 * it under, made safe for a terminal.  Pure and portable; see decode_linux.h.
 */
#include <stdio.h>
#include <string.h>

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
