/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BSDs' topology answers, decoded portably: FreeBSD's
 * kern.sched.topology_spec XML (the groups sched_ule prints) and
 * DragonFly's "cpus(0-3, 8)" sets.  A small scanner of that XML alone, not
 * a general parser: anything else is refused with EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/decode_linux.h"
#include "scaletop/grow.h"
#include "decode_line.h"
#include "topo_build.h"

#define SPEC_DEPTH_MAX 32
#define SPEC_GROUPS_MAX 16384

enum { FLAG_SMT = 1, FLAG_NODE = 2 };

/* One <group>, in document order (a parent before its children). */
struct spec_group {
	int cache_level;
	int flags;
	struct cpu_list cpus;
};

struct spec {
	const char *p, *end;
	struct spec_group *g;
	int n, cap;
	int open[SPEC_DEPTH_MAX]; /* the open groups' indexes */
	int depth;
};

/* Adds id to l, which must stay ascending. */
static int
cpuset_push(struct cpu_list *l, uint64_t id)
{
	if (id > DECODE_CPU_ID_MAX || (l->n > 0 && (int)id <= l->id[l->n - 1]))
		return decode_fail(EINVAL);
	if (grow_array_int(&l->id, &l->cap, l->n + 1, sizeof(*l->id), 16) != 0)
		return decode_fail(ENOMEM);
	l->id[l->n++] = (int)id;
	return 0;
}

int
bsd_cpuset_decode(const char *buf, size_t len, struct cpu_list *l)
{
	const char *p = buf, *end = buf + len;
	uint64_t a, b, id;

	l->n = 0;
	while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\0'))
		end--;
	if (end - p >= 5 && memcmp(p, "cpus(", 5) == 0) {
		if (end[-1] != ')')
			return decode_fail(EINVAL);
		p += 5;
		end--;
	}
	while (p < end) {
		while (p < end && (*p == ' ' || *p == ','))
			p++;
		if (p == end || digits_u64(&p, end, &a) != 0)
			return decode_fail(EINVAL);
		b = a;
		if (p < end && *p == '-' && (++p, digits_u64(&p, end, &b) != 0))
			return decode_fail(EINVAL);
		if (b < a || b > DECODE_CPU_ID_MAX)
			return decode_fail(EINVAL);
		for (id = a; id <= b; id++) {
			if (cpuset_push(l, id) != 0)
				return -1;
		}
		if (p < end && *p != ',' && *p != ' ')
			return decode_fail(EINVAL);
	}
	return 0;
}

/* The value of attribute name in the tag text [p, end), or NULL. */
static const char *
spec_attr(const char *p, const char *end, const char *name, size_t *vlen)
{
	size_t n = strlen(name);
	const char *q, *v;

	for (q = p; q + n + 2 <= end; q++) {
		if (memcmp(q, name, n) != 0 || q[n] != '=' || q[n + 1] != '"' ||
		    (q > p && q[-1] != ' '))
			continue;
		v = q + n + 2;
		for (q = v; q < end && *q != '"'; q++)
			;
		if (q == end)
			return NULL;
		*vlen = (size_t)(q - v);
		return v;
	}
	return NULL;
}

static int
spec_group_open(struct spec *s, const char *tag, const char *end)
{
	struct spec_group *g;
	const char *v;
	size_t vlen;
	uint64_t lv;

	if (s->depth >= SPEC_DEPTH_MAX || s->n >= SPEC_GROUPS_MAX)
		return decode_fail(EINVAL);
	if ((v = spec_attr(tag, end, "cache-level", &vlen)) == NULL ||
	    digits_u64(&v, v + vlen, &lv) != 0 || lv > 9)
		return decode_fail(EINVAL);
	if (grow_array_int(&s->g, &s->cap, s->n + 1, sizeof(*s->g), 16) != 0)
		return decode_fail(ENOMEM);
	g = &s->g[s->n];
	memset(g, 0, sizeof(*g));
	g->cache_level = (int)lv;
	s->open[s->depth++] = s->n++;
	return 0;
}

/* <cpu count="N" mask="...">0, 1, 2</cpu>: the list, which must have count CPUs. */
static int
spec_cpu(struct spec *s, const char *tag, const char *tend)
{
	struct spec_group *g;
	const char *v, *text = tend + 1, *close;
	size_t vlen;
	uint64_t count;

	if (s->depth == 0)
		return decode_fail(EINVAL);
	g = &s->g[s->open[s->depth - 1]];
	if ((v = spec_attr(tag, tend, "count", &vlen)) == NULL ||
	    digits_u64(&v, v + vlen, &count) != 0)
		return decode_fail(EINVAL);
	for (close = text; close < s->end && *close != '<'; close++)
		;
	if (s->end - close < 6 || memcmp(close, "</cpu>", 6) != 0 || g->cpus.n > 0 ||
	    bsd_cpuset_decode(text, (size_t)(close - text), &g->cpus) != 0 ||
	    (uint64_t)g->cpus.n != count || count == 0)
		return decode_fail(EINVAL);
	s->p = close + 6;
	return 0;
}

static int
spec_flag(struct spec *s, const char *tag, const char *end)
{
	const char *v;
	size_t vlen;
	int *flags;

	if (s->depth == 0 || (v = spec_attr(tag, end, "name", &vlen)) == NULL)
		return decode_fail(EINVAL);
	flags = &s->g[s->open[s->depth - 1]].flags;
	if ((vlen == 6 && memcmp(v, "THREAD", 6) == 0) || (vlen == 3 && memcmp(v, "SMT", 3) == 0))
		*flags |= FLAG_SMT;
	else if (vlen == 4 && memcmp(v, "NODE", 4) == 0)
		*flags |= FLAG_NODE;
	return 0;
}

/* One tag at s->p ('<'); its name decides what it does, the others are structure. */
static int
spec_tag(struct spec *s)
{
	const char *tag = s->p + 1, *end = memchr(tag, '>', (size_t)(s->end - tag));
	size_t n = 0;

	if (end == NULL)
		return decode_fail(EINVAL);
	s->p = end + 1;
	while (tag + n < end && tag[n] != ' ')
		n++;
	if (n == 5 && memcmp(tag, "group", 5) == 0)
		return spec_group_open(s, tag, end);
	if (n == 6 && memcmp(tag, "/group", 6) == 0) {
		if (s->depth == 0 || s->g[s->open[s->depth - 1]].cpus.n == 0)
			return decode_fail(EINVAL);
		s->depth--;
		return 0;
	}
	if (n == 3 && memcmp(tag, "cpu", 3) == 0)
		return spec_cpu(s, tag, end);
	if (n == 4 && memcmp(tag, "flag", 4) == 0)
		return spec_flag(s, tag, end);
	return 0; /* <groups>, <children>, <flags>, </flag> and their closers */
}

static int
spec_scan(struct spec *s)
{
	while (s->p < s->end) {
		if (*s->p != '<') {
			s->p++; /* blanks and a flag's words */
			continue;
		}
		if (spec_tag(s) != 0)
			return -1;
	}
	return s->n > 0 && s->depth == 0 ? 0 : decode_fail(EINVAL);
}

/* The groups with flag into a level; with smt, each CPU in none is a core of its own. */
static void
spec_level_flag(const struct spec *s, struct topo_build *b, struct topology *t, int flag,
		enum topo_level l)
{
	struct cpu_list one;
	int i, id, any = 0;

	for (i = 0; i < s->n; i++) {
		if (s->g[i].flags & flag) {
			topo_build_group(b, &s->g[i].cpus);
			any = 1;
		}
	}
	if (l == TOPO_SMT) {
		cpu_list_init(&one);
		one.id = &id;
		one.n = one.cap = 1;
		for (i = 0; i < b->online->n; i++) {
			id = b->online->id[i];
			if (b->leader[id] < 0)
				topo_build_group(b, &one);
		}
		any = 1;
	}
	if (any)
		topo_build_level(b, t, l);
}

/* The highest cache level's outermost groups; a group inside an earlier one is skipped. */
static void
spec_level_llc(const struct spec *s, struct topo_build *b, struct topology *t)
{
	int i, id, top = 0;

	for (i = 0; i < s->n; i++) {
		if (s->g[i].cache_level > top)
			top = s->g[i].cache_level;
	}
	if (top == 0)
		return;
	for (i = 0; i < s->n; i++) {
		id = s->g[i].cpus.id[0];
		if (s->g[i].cache_level == top && (id >= b->nid || b->leader[id] < 0))
			topo_build_group(b, &s->g[i].cpus);
	}
	topo_build_level(b, t, TOPO_LLC);
	if (t->unit[TOPO_LLC].count > 0)
		t->llc_level = top;
}

static void
spec_build(const struct spec *s, struct topology *t)
{
	const struct cpu_list *online = &s->g[0].cpus;
	struct topo_build b;

	if (topo_build_begin(&b, online) != 0)
		return;
	snprintf(t->source, sizeof(t->source), "kern.sched.topology_spec");
	topo_build_whole(t, online, NULL);
	spec_level_flag(s, &b, t, FLAG_SMT, TOPO_SMT);
	spec_level_llc(s, &b, t);
	spec_level_flag(s, &b, t, FLAG_NODE, TOPO_NODE);
	topo_build_end(&b);
}

int
topology_spec_decode(const char *buf, size_t len, struct topology *t)
{
	struct spec s;
	int i, r;

	memset(t, 0, sizeof(*t));
	memset(&s, 0, sizeof(s));
	s.p = buf;
	s.end = buf + len;
	while (s.end > s.p && s.end[-1] == '\0')
		s.end--; /* a sysctl string's NUL */
	r = spec_scan(&s);
	if (r == 0)
		spec_build(&s, t);
	for (i = 0; i < s.n; i++)
		cpu_list_free(&s.g[i].cpus);
	free(s.g);
	if (r == 0 && t->online == 0)
		return decode_fail(EINVAL);
	return r;
}
