/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoder of /proc/PID/maps, a process's mappings, for turning an
 * address (a futex, a return address) into the object that holds it and
 * the offset in that object's file.  Pure; decode_proc.h.
 */
#include <stdlib.h>

#include "scaletop/decode_proc.h"
#include "scaletop/grow.h"
#include "decode_line.h"

/* A path longer than PATH_MAX is not one the kernel prints. */
#define MAP_PATH_MAX 4096

void
map_list_free(struct map_list *l)
{
	free(l->e);
	free(l->paths);
	memset(l, 0, sizeof *l);
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Hex digits (1 to 16) up to the byte stop. */
static int
map_hex(struct line *l, char stop, uint64_t *v)
{
	uint64_t x = 0;
	int nd = 0, d;

	while (l->p < l->end && (d = hexval(*l->p)) >= 0) {
		if (++nd > 16)
			return decode_fail(ERANGE);
		x = x << 4 | (uint64_t)d;
		l->p++;
	}
	if (nd == 0 || l->p == l->end || *l->p != stop)
		return decode_fail(EINVAL);
	l->p++;
	*v = x;
	return 0;
}

/* "rwxp": each of r, w, x is itself or '-', the last is 'p' or 's'. */
static int
map_perms(struct line *l, unsigned *flags)
{
	const char *p = l->p;

	if (l->end - p < 5 || p[4] != ' ')
		return decode_fail(EINVAL);
	if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
	    (p[2] != 'x' && p[2] != '-') || (p[3] != 'p' && p[3] != 's'))
		return decode_fail(EINVAL);
	*flags = (p[0] == 'r' ? MAP_READ : 0) | (p[1] == 'w' ? MAP_WRITE : 0) |
		 (p[2] == 'x' ? MAP_EXEC : 0) | (p[3] == 's' ? MAP_SHARED_FLAG : 0);
	l->p += 5;
	return 0;
}

/* Room for one more entry and n bytes of path; -1 with ENOMEM. */
static int
map_list_grow(struct map_list *l, size_t n)
{
	size_t cap;
	void *p;

	if (grow_array(&l->e, &l->cap, l->n + 1, sizeof(*l->e), 64) != 0)
		return -1;
	if (l->pcap - l->plen < n + 1) {
		cap = l->pcap ? l->pcap : 4096;
		while (cap - l->plen < n + 1)
			cap *= 2;
		p = realloc(l->paths, cap);
		if (p == NULL)
			return -1;
		l->paths = p;
		l->pcap = cap;
	}
	return 0;
}

/* The path: the rest of the line after the blanks, " (deleted)" taken off. */
static int
map_path_add(struct map_list *l, struct line *ln, struct map_entry *e)
{
	static const char del[] = " (deleted)";
	size_t n, dn = sizeof del - 1;

	line_skip_blanks(ln);
	n = (size_t)(ln->end - ln->p);
	if (n > MAP_PATH_MAX || memchr(ln->p, '\0', n) != NULL)
		return decode_fail(EINVAL);
	e->deleted = n > dn && memcmp(ln->end - dn, del, dn) == 0;
	if (e->deleted)
		n -= dn;
	if (map_list_grow(l, n) < 0)
		return -1;
	e->path = (uint32_t)l->plen;
	memcpy(l->paths + l->plen, ln->p, n);
	l->paths[l->plen + n] = '\0';
	l->plen += n + 1;
	return 0;
}

static int
map_line(struct map_list *l, struct line *ln)
{
	struct map_entry e;
	uint64_t maj, min;

	memset(&e, 0, sizeof e);
	if (map_hex(ln, '-', &e.start) < 0 || map_hex(ln, ' ', &e.end) < 0 ||
	    map_perms(ln, &e.flags) < 0 || map_hex(ln, ' ', &e.offset) < 0 ||
	    map_hex(ln, ':', &maj) < 0 || map_hex(ln, ' ', &min) < 0)
		return -1;
	if (!(ln->p < ln->end && is_digit(*ln->p)) || digits_u64(&ln->p, ln->end, &e.inode) < 0)
		return decode_fail(EINVAL);
	if (ln->p < ln->end && !is_blank(*ln->p))
		return decode_fail(EINVAL);
	if (e.start >= e.end || maj > 0xfff || min > 0xfffff)
		return decode_fail(e.start >= e.end ? EINVAL : ERANGE);
	if (l->n > 0 && e.start < l->e[l->n - 1].end)
		return decode_fail(EINVAL);
	e.dev_major = (uint32_t)maj;
	e.dev_minor = (uint32_t)min;
	if (map_path_add(l, ln, &e) < 0)
		return -1;
	l->e[l->n++] = e;
	return 0;
}

int
maps_decode(const char *buf, size_t len, struct map_list *l)
{
	const char *pos = buf, *end = buf + len;
	struct line ln;
	int r;

	l->n = 0;
	l->plen = 0;
	while ((r = line_next(&pos, end, &ln)) > 0)
		if (map_line(l, &ln) < 0)
			return -1;
	return r;
}

const struct map_entry *
maps_find(const struct map_list *l, uint64_t addr)
{
	size_t lo = 0, hi = l->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr < l->e[mid].start)
			hi = mid;
		else if (addr >= l->e[mid].end)
			lo = mid + 1;
		else
			return &l->e[mid];
	}
	return NULL;
}
