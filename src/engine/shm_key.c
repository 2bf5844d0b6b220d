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

/* One process's shared mappings (its maps with the others taken out), ascending. */
struct shm_proc {
	pid_t pid;
	unsigned long round; /* when its maps were last read */
	int unreadable;      /* errno of the last read, 0 when it worked */
	struct map_list ml;  /* shared entries only, and no paths */
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
shm_keys_free(struct shm_keys *k)
{
	size_t i;

	for (i = 0; k != NULL && i < k->n; i++)
		map_list_free(&k->p[i].ml);
	if (k != NULL)
		free(k->p);
	free(k);
}

void
shm_keys_round(struct shm_keys *k)
{
	k->round++;
}

static int
entry_is_shared(const struct map_entry *e)
{
	/* MAP_SHARED|MAP_ANONYMOUS shows as /dev/zero (deleted) with a shmem inode */
	return (e->flags & MAP_SHARED_FLAG) != 0 && e->inode != 0;
}

static void
entry_key(const struct map_entry *e, uint64_t addr, struct census_shared *where)
{
	where->dev = (uint64_t)e->dev_major << 32 | e->dev_minor;
	where->ino = e->inode;
	where->off = e->offset + (addr - e->start);
}

int
shm_key_in(const struct map_list *l, uint64_t addr, struct census_shared *where)
{
	const struct map_entry *e = maps_find(l, addr);

	if (e == NULL || !entry_is_shared(e))
		return 0;
	entry_key(e, addr, where);
	return 1;
}

/* Whether e maps the word of where. */
static int
entry_holds(const struct map_entry *e, const struct census_shared *where)
{
	struct census_shared k;

	entry_key(e, e->start, &k);
	return k.dev == where->dev && k.ino == where->ino && where->off >= k.off &&
	       where->off - k.off < e->end - e->start;
}

/* p's shared mappings read afresh from its maps, the rest dropped; -1 with errno. */
static int
proc_read(struct shm_proc *p, unsigned long round)
{
	size_t i, n = 0;

	p->round = round;
	if (proc_maps_read(p->pid, &p->ml) != 0) {
		p->unreadable = errno != 0 ? errno : EIO;
		p->ml.n = 0;
		errno = p->unreadable;
		return -1;
	}
	p->unreadable = 0;
	for (i = 0; i < p->ml.n; i++)
		if (entry_is_shared(&p->ml.e[i]))
			p->ml.e[n++] = p->ml.e[i];
	p->ml.n = n;
	/* the paths are not read here: 1024 processes' would be megabytes */
	free(p->ml.paths);
	p->ml.paths = NULL;
	p->ml.plen = p->ml.pcap = 0;
	return 0;
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

int
shm_key_of(struct shm_keys *k, pid_t pid, uint64_t addr, struct census_shared *where)
{
	struct shm_proc *p = proc_of(k, pid);
	int r;

	if (p == NULL)
		return -1;
	r = p->round != 0 ? shm_key_in(&p->ml, addr, where) : 0;
	/* a miss reads the maps again, once a tick: the process may have mapped it since */
	if (r == 0 && p->round != k->round) {
		if (proc_read(p, k->round) != 0)
			return -1;
		r = shm_key_in(&p->ml, addr, where);
	}
	if (r == 0 && p->unreadable != 0) {
		errno = p->unreadable;
		return -1;
	}
	return r;
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
		for (i = 0; p->round != 0 && i < p->ml.n; i++)
			if (entry_holds(&p->ml.e[i], where))
				return 1;
		if (p->round == k->round)
			break;
		if (proc_read(p, k->round) != 0)
			return -1;
	}
	return 0;
}
