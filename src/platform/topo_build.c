/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A topology assembled from groups of CPUs (topo_build.h): each online CPU
 * takes its group's lowest online CPU as its leader, so a group listed once
 * per member counts once, and groups that overlap leave the level unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_build.h"

void
topo_list_format(const int *ids, int n, char *buf, size_t len)
{
	size_t used = 0;
	char item[32];
	int i = 0, j;

	if (len == 0)
		return;
	buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && ids[j + 1] == ids[j] + 1; j++)
			;
		if (j > i)
			snprintf(item, sizeof(item), "%s%d-%d", used ? "," : "", ids[i], ids[j]);
		else
			snprintf(item, sizeof(item), "%s%d", used ? "," : "", ids[i]);
		if (used + strlen(item) + 4 > len) {
			snprintf(buf + used, len - used, "%s", used + 4 <= len ? ",..." : "");
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s", item);
		i = j + 1;
	}
}

void
topo_build_whole(struct topology *t, const struct cpu_list *online, const struct cpu_list *present)
{
	struct topo_unit *u = &t->unit[TOPO_ALL];

	t->online = online->n;
	t->present = present != NULL && present->n >= online->n ? present->n : online->n;
	if (online->n == 0)
		return;
	u->count = 1;
	u->cpus = u->min_cpus = u->max_cpus = online->n;
	topo_list_format(online->id, online->n, u->first, sizeof(u->first));
}

int
topo_build_begin(struct topo_build *b, const struct cpu_list *online)
{
	int i;

	memset(b, 0, sizeof(*b));
	b->online = online;
	b->nid = online->n > 0 ? online->id[online->n - 1] + 1 : 0;
	if ((b->leader = malloc(((size_t)b->nid + 1) * sizeof(int))) == NULL)
		return -1;
	for (i = 0; i < b->nid; i++)
		b->leader[i] = -1;
	return 0;
}

/* A group is new (no member placed) or one seen before (every member under lead): else bad. */
static int
group_consistent(const struct topo_build *b, const struct cpu_list *members, int lead)
{
	int i, id, placed = 0, fresh = 0;

	for (i = 0; i < members->n; i++) {
		id = members->id[i];
		if (id >= b->nid || !cpu_list_has(b->online, id))
			continue;
		if (b->leader[id] < 0)
			fresh++;
		else if (b->leader[id] == lead)
			placed++;
		else
			return 0;
	}
	return placed == 0 || fresh == 0;
}

void
topo_build_group(struct topo_build *b, const struct cpu_list *members)
{
	int i, lead = -1, id;

	for (i = 0; i < members->n && lead < 0; i++) {
		if (cpu_list_has(b->online, members->id[i]))
			lead = members->id[i];
	}
	if (lead < 0)
		return; /* every member offline, or a memory-only node */
	if (!group_consistent(b, members, lead)) {
		b->bad = 1;
		return;
	}
	for (i = 0; i < members->n; i++) {
		id = members->id[i];
		if (id < b->nid && cpu_list_has(b->online, id))
			b->leader[id] = lead;
	}
}

/* The CPUs led by lead, as a list, into u->first. */
static void
level_first(const struct topo_build *b, int lead, struct topo_unit *u)
{
	int *ids = malloc((size_t)b->online->n * sizeof(int));
	int i, n = 0;

	if (ids == NULL)
		return;
	for (i = 0; i < b->online->n; i++) {
		if (b->leader[b->online->id[i]] == lead)
			ids[n++] = b->online->id[i];
	}
	topo_list_format(ids, n, u->first, sizeof(u->first));
	free(ids);
}

/* One thread of every core: the SMT groups' leaders. */
static void
level_cores(const struct topo_build *b, struct topology *t)
{
	struct topo_unit *u = &t->unit[TOPO_CORES];
	int *ids = malloc((size_t)b->online->n * sizeof(int));
	int i, id, n = 0;

	if (ids == NULL)
		return;
	for (i = 0; i < b->online->n; i++) {
		id = b->online->id[i];
		if (b->leader[id] == id)
			ids[n++] = id;
	}
	u->count = 1;
	u->cpus = u->min_cpus = u->max_cpus = n;
	topo_list_format(ids, n, u->first, sizeof(u->first));
	free(ids);
}

/* Each unit's size, counted at its leader's entry of size[]. */
static int
level_sizes(const struct topo_build *b, int *size)
{
	int i, id;

	for (i = 0; i < b->online->n; i++) {
		id = b->online->id[i];
		if (b->leader[id] < 0)
			return -1; /* a CPU in no group: the level is not known */
		size[b->leader[id]]++;
	}
	return 0;
}

static void
level_fill(const struct topo_build *b, const int *size, struct topo_unit *u)
{
	int i, id;

	for (i = 0; i < b->online->n; i++) {
		id = b->online->id[i];
		if (size[id] == 0)
			continue;
		if (u->count++ == 0 || size[id] < u->min_cpus)
			u->min_cpus = size[id];
		if (size[id] > u->max_cpus)
			u->max_cpus = size[id];
	}
	u->cpus = size[b->leader[b->online->id[0]]];
	level_first(b, b->leader[b->online->id[0]], u);
}

void
topo_build_level(struct topo_build *b, struct topology *t, enum topo_level l)
{
	int *size = calloc((size_t)b->nid + 1, sizeof(int));
	int i;

	memset(&t->unit[l], 0, sizeof(t->unit[l]));
	if (size != NULL && !b->bad && b->online->n > 0 && level_sizes(b, size) == 0) {
		level_fill(b, size, &t->unit[l]);
		if (l == TOPO_SMT)
			level_cores(b, t);
	}
	free(size);
	for (i = 0; i < b->nid; i++)
		b->leader[i] = -1;
	b->bad = 0;
}

void
topo_build_end(struct topo_build *b)
{
	free(b->leader);
	b->leader = NULL;
}

void
topo_build_count(struct topology *t, int ncpu, const char *source)
{
	struct cpu_list l;
	int i;

	memset(t, 0, sizeof(*t));
	cpu_list_init(&l);
	if (ncpu <= 0 || (l.id = malloc((size_t)ncpu * sizeof(int))) == NULL)
		return;
	for (i = 0; i < ncpu; i++)
		l.id[i] = i;
	l.n = l.cap = ncpu;
	topo_build_whole(t, &l, NULL);
	snprintf(t->source, sizeof(t->source), "%s", source);
	cpu_list_free(&l);
}
