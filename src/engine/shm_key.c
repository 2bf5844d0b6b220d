/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared futexes' keys (shm_key.h): each waiting process's shared mappings,
 * read from its maps on first need and kept for the step, so a tick costs
 * a search, and 1024 processes one read each.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "shm_key.h"

/* One shared mapping: [start, end) of the process, offset off into the object dev:ino. */
struct shm_range {
	uint64_t start, end, off, dev, ino;
};

struct shm_proc {
	pid_t pid;
	unsigned long round; /* when its maps were last read */
	int unreadable;      /* errno of the last read, 0 when it worked */
	struct shm_range *r; /* ascending */
	size_t n, cap;
};

struct shm_keys {
	struct shm_proc *p; /* ascending by pid */
	size_t n, cap;
	unsigned long round;
};

struct shm_keys *
shm_keys_new(void)
{
	struct shm_keys *k = calloc(1, sizeof *k);

	if (k != NULL)
		k->round = 1;
	return k;
}

void
shm_keys_reset(struct shm_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->p[i].r);
	k->n = 0;
}

void
shm_keys_free(struct shm_keys *k)
{
	if (k == NULL)
		return;
	shm_keys_reset(k);
	free(k->p);
	free(k);
}

void
shm_keys_round(struct shm_keys *k)
{
	k->round++;
}

static void
range_key(const struct shm_range *r, uint64_t addr, struct census_shared *where)
{
	where->dev = r->dev;
	where->ino = r->ino;
	where->off = r->off + (addr - r->start);
}

static int
entry_is_shared(const struct map_entry *e)
{
	/* MAP_SHARED|MAP_ANONYMOUS shows as /dev/zero (deleted) with a shmem inode */
	return (e->flags & MAP_SHARED_FLAG) != 0 && e->inode != 0;
}

int
shm_key_in(const struct map_list *l, uint64_t addr, struct census_shared *where)
{
	const struct map_entry *e = maps_find(l, addr);
	struct shm_range r;

	if (e == NULL || !entry_is_shared(e))
		return 0;
	r.start = e->start;
	r.end = e->end;
	r.off = e->offset;
	r.dev = (uint64_t)e->dev_major << 32 | e->dev_minor;
	r.ino = e->inode;
	range_key(&r, addr, where);
	return 1;
}

/* p's shared mappings read afresh from its maps; -1 with errno. */
static int
proc_read(struct shm_proc *p, unsigned long round)
{
	struct map_list ml = { 0 };
	const struct map_entry *e;
	size_t i;
	int r = 0;

	p->round = round;
	p->n = 0;
	if (proc_maps_read(p->pid, &ml) != 0) {
		p->unreadable = errno != 0 ? errno : EIO;
		map_list_free(&ml);
		errno = p->unreadable;
		return -1;
	}
	p->unreadable = 0;
	for (i = 0; i < ml.n && r == 0; i++) {
		e = &ml.e[i];
		if (!entry_is_shared(e))
			continue;
		r = grow_array(&p->r, &p->cap, p->n + 1, sizeof(*p->r), 8);
		if (r == 0) {
			p->r[p->n].start = e->start;
			p->r[p->n].end = e->end;
			p->r[p->n].off = e->offset;
			p->r[p->n].dev = (uint64_t)e->dev_major << 32 | e->dev_minor;
			p->r[p->n].ino = e->inode;
			p->n++;
		}
	}
	map_list_free(&ml);
	return r;
}

/* pid's entry, made (unread, round 0) when new; NULL with ENOMEM. */
static struct shm_proc *
proc_of(struct shm_keys *k, pid_t pid)
{
	size_t lo = 0, hi = k->n, mid;
	struct shm_proc *p;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->p[mid].pid == pid)
			return &k->p[mid];
		if (k->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (grow_array(&k->p, &k->cap, k->n + 1, sizeof(*k->p), 16) != 0)
		return NULL;
	memmove(&k->p[lo + 1], &k->p[lo], (k->n - lo) * sizeof(*k->p));
	k->n++;
	p = &k->p[lo];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	return p;
}

static const struct shm_range *
range_at(const struct shm_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr < p->r[mid].start)
			hi = mid;
		else if (addr >= p->r[mid].end)
			lo = mid + 1;
		else
			return &p->r[mid];
	}
	return NULL;
}

int
shm_key_of(struct shm_keys *k, pid_t pid, uint64_t addr, struct census_shared *where)
{
	struct shm_proc *p = proc_of(k, pid);
	const struct shm_range *r;

	if (p == NULL)
		return -1;
	r = p->round != 0 ? range_at(p, addr) : NULL;
	/* a miss reads the maps again, once a tick: the process may have mapped it since */
	if (r == NULL && p->round != k->round) {
		if (proc_read(p, k->round) != 0)
			return -1;
		r = range_at(p, addr);
	}
	if (r == NULL && p->unreadable != 0) {
		errno = p->unreadable;
		return -1;
	}
	if (r == NULL)
		return 0;
	range_key(r, addr, where);
	return 1;
}

int
shm_keys_maps(struct shm_keys *k, pid_t pid, const struct census_shared *where)
{
	struct shm_proc *p = proc_of(k, pid);
	size_t i;
	int pass;

	if (p == NULL)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; p->round != 0 && i < p->n; i++)
			if (p->r[i].dev == where->dev && p->r[i].ino == where->ino &&
			    where->off >= p->r[i].off &&
			    where->off - p->r[i].off < p->r[i].end - p->r[i].start)
				return 1;
		if (p->round == k->round)
			break;
		if (proc_read(p, k->round) != 0)
			return -1;
	}
	return 0;
}
