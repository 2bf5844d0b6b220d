/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The machine's topology in words: the boundary N where a level's unit is
 * full (one core's SMT threads, one LLC, one node, one socket, every core,
 * every CPU), for the N list and the verdict, and the one-line summary.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/topology.h"

const char *const topo_level_names[TOPO_NLEVELS] = {
	[TOPO_SMT] = "smt",       [TOPO_LLC] = "llc",     [TOPO_NODE] = "node",
	[TOPO_SOCKET] = "socket", [TOPO_CORES] = "cores", [TOPO_ALL] = "all",
};

/* One level's name as a verdict says it: "one LLC", "all 64 physical cores". */
static void
mark_name(const struct topology *t, enum topo_level l, char *buf, size_t len)
{
	const struct topo_unit *u = &t->unit[l];

	switch (l) {
	case TOPO_SMT:
		snprintf(buf, len, "one core's %d SMT threads", u->cpus);
		break;
	case TOPO_LLC:
		snprintf(buf, len, "one LLC");
		break;
	case TOPO_NODE:
		snprintf(buf, len, "one NUMA node");
		break;
	case TOPO_SOCKET:
		snprintf(buf, len, "one socket");
		break;
	case TOPO_CORES:
		snprintf(buf, len, "all %d physical cores", u->cpus);
		break;
	default:
		snprintf(buf, len, "all %d CPUs", u->cpus);
		break;
	}
}

/* The unit's CPUs after the names, for the smallest level closing at an N. */
static void
mark_cpus(const struct topology *t, enum topo_level l, char *buf, size_t len)
{
	const struct topo_unit *u = &t->unit[l];

	buf[0] = '\0';
	if (l >= TOPO_CORES || u->first[0] == '\0')
		return;
	if (l == TOPO_LLC && t->llc_level > 0)
		snprintf(buf, len, " (cpus %s share L%d)", u->first, t->llc_level);
	else
		snprintf(buf, len, " (cpus %s)", u->first);
}

/* Appends " = " and name to what, as far as it fits. */
static void
mark_join(struct topo_mark *m, const char *name)
{
	size_t used = strlen(m->what);

	snprintf(m->what + used, sizeof(m->what) - used, "%s%s", used ? " = " : "", name);
}

/* Which levels close at n; a whole-machine group drops the cores when it also has all CPUs. */
static unsigned
mark_levels_at(const struct topology *t, int n)
{
	unsigned set = 0;
	int l;

	for (l = 0; l < TOPO_NLEVELS; l++) {
		if (t->unit[l].count > 0 && t->unit[l].cpus == n)
			set |= 1u << l;
	}
	if ((set & (1u << TOPO_ALL)) && (set & (1u << TOPO_CORES)))
		set &= ~(1u << TOPO_CORES); /* no SMT: "all 8 CPUs" says it */
	return set;
}

/* The mark at n, from the levels that close there and the faster cores' count. */
static void
mark_make(const struct topology *t, int n, struct topo_mark *m)
{
	unsigned set = mark_levels_at(t, n);
	char name[64], cpus[TOPO_LIST_LEN + 32] = "";
	int l, first = -1;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (l = 0; l < TOPO_NLEVELS; l++) {
		if (!(set & (1u << l)))
			continue;
		if (first < 0)
			first = l;
		mark_name(t, (enum topo_level)l, name, sizeof(name));
		mark_join(m, name);
	}
	if (t->big_cpus == n) {
		snprintf(name, sizeof(name), "the %d P-core CPUs", n);
		mark_join(m, name);
		if (first < 0)
			first = TOPO_CORES;
	}
	m->level = (enum topo_level)first;
	if (!(set & ((1u << TOPO_CORES) | (1u << TOPO_ALL))))
		mark_cpus(t, m->level, cpus, sizeof(cpus));
	snprintf(m->what + strlen(m->what), sizeof(m->what) - strlen(m->what), "%s", cpus);
}

/* Whether n is a boundary: a known level's unit of more than one CPU is full at it. */
static int
mark_is_boundary(const struct topology *t, int n)
{
	int l;

	if (n <= 1)
		return 0;
	if (t->big_cpus == n && n < t->online)
		return 1;
	for (l = 0; l < TOPO_NLEVELS; l++) {
		if (t->unit[l].count > 0 && t->unit[l].cpus == n)
			return 1;
	}
	return 0;
}

int
topology_marks(const struct topology *t, struct topo_mark *m, int max)
{
	int cand[TOPO_NLEVELS + 1], nc = 0, nm = 0, i, j, l, v;

	if (t == NULL || t->online <= 0)
		return 0;
	for (l = 0; l < TOPO_NLEVELS; l++)
		cand[nc++] = t->unit[l].count > 0 ? t->unit[l].cpus : 0;
	cand[nc++] = t->big_cpus;
	for (i = 1; i < nc; i++) { /* insertion sort: a handful of values */
		for (j = i; j > 0 && cand[j - 1] > cand[j]; j--) {
			v = cand[j];
			cand[j] = cand[j - 1];
			cand[j - 1] = v;
		}
	}
	for (i = 0; i < nc && nm < max; i++) {
		if ((i > 0 && cand[i] == cand[i - 1]) || !mark_is_boundary(t, cand[i]))
			continue;
		mark_make(t, cand[i], &m[nm++]);
	}
	return nm;
}

const struct topo_mark *
topology_mark_at(const struct topo_mark *m, int nm, int n)
{
	int i;

	for (i = 0; i < nm; i++) {
		if (m[i].n == n)
			return &m[i];
	}
	return NULL;
}

/* Appends text to buf at *used, as far as it fits. */
static void
summary_add(char *buf, size_t len, size_t *used, const char *text)
{
	if (*used < len)
		*used += (size_t)snprintf(buf + *used, len - *used, "%s", text);
}

/* " x 4 LLCs" per unit of the level above, or " x 6 LLCs in all" when they do not divide. */
static void
summary_term(char *buf, size_t len, size_t *used, int count, int above, const char *what)
{
	char term[64];
	int per = above > 0 && count % above == 0 ? count / above : count;

	snprintf(term, sizeof(term), "%s%d %s%s%s", *used ? " x " : "", per, what,
		 per == 1 ? "" : "s", per == count && above > 1 ? " in all" : "");
	summary_add(buf, len, used, term);
}

char *
topology_summary(const struct topology *t, char *buf, size_t len)
{
	const struct topo_unit *u = t->unit;
	char more[96];
	size_t used = 0;
	int above = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (t->online <= 0) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	if (u[TOPO_SOCKET].count > 0)
		summary_term(buf, len, &used, above = u[TOPO_SOCKET].count, 0, "socket");
	if (u[TOPO_NODE].count > 0) {
		summary_term(buf, len, &used, u[TOPO_NODE].count, above, "node");
		above = u[TOPO_NODE].count;
	}
	if (u[TOPO_LLC].count > 0) {
		summary_term(buf, len, &used, u[TOPO_LLC].count, above, "LLC");
		above = u[TOPO_LLC].count;
		if (t->llc_level > 0) {
			snprintf(more, sizeof(more), " (L%d)", t->llc_level);
			summary_add(buf, len, &used, more);
		}
	}
	if (u[TOPO_CORES].count > 0) {
		summary_term(buf, len, &used, u[TOPO_CORES].cpus, above, "core");
		above = u[TOPO_CORES].cpus;
	}
	if (u[TOPO_SMT].count > 0 && u[TOPO_SMT].min_cpus != u[TOPO_SMT].max_cpus)
		snprintf(more, sizeof(more), "%s%d-%d threads", used ? " x " : "",
			 u[TOPO_SMT].min_cpus, u[TOPO_SMT].max_cpus);
	else if (u[TOPO_SMT].count > 0)
		snprintf(more, sizeof(more), "%s%d thread%s", used ? " x " : "",
			 u[TOPO_SMT].max_cpus, u[TOPO_SMT].max_cpus == 1 ? "" : "s");
	else
		snprintf(more, sizeof(more), "%s%d CPUs", used ? "; " : "", t->online);
	summary_add(buf, len, &used, more);
	if (t->present > t->online) {
		snprintf(more, sizeof(more), "; %d of %d CPUs online", t->online, t->present);
		summary_add(buf, len, &used, more);
	}
	if (t->big_cpus > 0) {
		snprintf(more, sizeof(more), "; %d P-core CPUs", t->big_cpus);
		summary_add(buf, len, &used, more);
	}
	return buf;
}
