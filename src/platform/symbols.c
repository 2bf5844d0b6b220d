/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symboliser (symbols.h): a process's mappings, each file's ELF symbols
 * read once and kept by device and inode (and shared by build ID), and the
 * kernel's symbols, turned into `object:symbol+0xOFF`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "symbols_priv.h"

/*
 * Portable: the reads are the backend's (proc_maps_read, kernel_symbols_read
 * in platform.h) and libelf's (elf_image.c); the objects are
 * sym_objects.c's; what is here is the processes' mappings and the
 * arithmetic.
 */

/* Where distributions put separate debug files, by build ID (Debian's *-dbgsym, libc6-dbg). */
#define SYM_DEBUG_DIR "/usr/lib/debug"

struct symboliser *
sym_new(void)
{
	struct symboliser *s = calloc(1, sizeof *s);

	const char *dir = getenv("SCALETOP_DEBUG_DIR");

	if (s != NULL)
		sym_set_debug_dir(s, dir != NULL ? dir : SYM_DEBUG_DIR);
	return s;
}

void
sym_set_debug_dir(struct symboliser *s, const char *dir)
{
	snprintf(s->debug_dir, sizeof s->debug_dir, "%s", dir != NULL ? dir : "");
}

void
sym_forget(struct symboliser *s, pid_t pid)
{
	size_t i;

	for (i = 0; i < s->nproc; i++) {
		if (s->proc[i].pid != pid)
			continue;
		map_list_free(&s->proc[i].maps);
		s->proc[i] = s->proc[--s->nproc];
		return;
	}
}

void
sym_free(struct symboliser *s)
{
	size_t i;

	if (s == NULL)
		return;
	sym_objects_free(s);
	for (i = 0; i < s->nproc; i++)
		map_list_free(&s->proc[i].maps);
	free(s->proc);
	symtab_free(&s->kernel);
	free(s->kmiss);
	free(s);
}

struct sym_proc *
sym_proc(struct symboliser *s, pid_t pid, int reread)
{
	struct sym_proc *p = NULL;
	size_t i;

	for (i = 0; i < s->nproc && p == NULL; i++)
		if (s->proc[i].pid == pid)
			p = &s->proc[i];
	if (p != NULL && !reread)
		return p;
	if (p == NULL) {
		if (grow_array(&s->proc, &s->capproc, s->nproc + 1, sizeof(*s->proc), 8) != 0)
			return NULL;
		p = &s->proc[s->nproc];
		memset(p, 0, sizeof *p);
		p->pid = pid;
	}
	s->st.maps_reads++;
	if (proc_maps_read(pid, &p->maps) < 0) {
		if (p == &s->proc[s->nproc])
			map_list_free(&p->maps);
		else
			sym_forget(s, pid);
		return NULL;
	}
	if (p == &s->proc[s->nproc])
		s->nproc++;
	return p;
}

int
sym_note_process(struct symboliser *s, pid_t pid)
{
	struct sym_proc *p;
	size_t i;

	for (i = 0; i < s->nproc; i++)
		if (s->proc[i].pid == pid)
			return 0;
	if ((p = sym_proc(s, pid, 0)) == NULL)
		return -1;
	/*
	 * Each object by its code's mapping (its data's name the same file): a
	 * file with none is data (a locale archive, shared memory), named as a
	 * mapping, never read as ELF.
	 */
	for (i = 0; i < p->maps.n; i++)
		if (p->maps.e[i].inode != 0 && (p->maps.e[i].flags & MAP_EXEC) != 0)
			(void)sym_object(s, pid, &p->maps, &p->maps.e[i]);
	return 0;
}

/*
 * An ELF address of object o: its symbol (demangled), or the object and
 * the address, which in an object without its full symbols is to be said
 * why (sym_next_unnamed).
 */
static void
sym_in_object(struct symboliser *s, const struct elf_image *img, struct sym_object *o, uint64_t v,
	      struct sym_answer *a)
{
	const struct symbol *y = symtab_find(&img->syms, v);
	int missing = 0;

	a->object = o->name;
	if (y != NULL) {
		a->how = SYM_SYMBOL;
		a->symbol = demangle_cached(&s->dm, symtab_name(&img->syms, y->name), &missing);
		a->offset = v - y->addr;
		if (missing && s->mangled == 0)
			s->mangled = 1;
	} else {
		a->how = SYM_OBJECT;
		a->offset = v;
		a->why = img->syms.n == 0 ? "the object has no symbol table" : NULL;
		if (o->unnamed == 0 && strncmp(img->table, ".symtab", 7) != 0)
			o->unnamed = 1;
	}
}

/* A file mapping: its object's ELF address, or the file offset when there is no ELF. */
static void
sym_in_file(struct symboliser *s, pid_t pid, const struct map_list *l, const struct map_entry *e,
	    uint64_t addr, struct sym_answer *a)
{
	struct sym_object *o = sym_object(s, pid, l, e);
	const struct elf_image *img = o != NULL ? sym_image(s, o) : NULL;
	uint64_t bias;

	if (img != NULL &&
	    elf_mapping_bias(img, e->start, e->end - e->start, e->offset, &bias) == 0) {
		sym_in_object(s, img, o, addr - bias, a);
		return;
	}
	/*
	 * A file's data that no ELF image maps (shared memory: /dev/zero,
	 * /dev/shm, a memfd) is a mapping, like an anonymous one, so that a lock
	 * in it is named by its waiters' call site; code stays its object's.
	 */
	a->how = (e->flags & MAP_EXEC) == 0 && img == NULL ? SYM_MAPPING : SYM_OBJECT;
	a->object = o != NULL ? o->name : sym_base_name(map_path(l, e));
	a->offset = addr - e->start + e->offset;
	a->why = o == NULL ? "too many objects" : o->loaded ? "no segment maps it" : o->why;
	if (a->how == SYM_OBJECT && o != NULL && !o->loaded && o->unnamed == 0)
		o->unnamed = 1;
}

/*
 * An anonymous mapping right after an object's last file mapping may be its
 * .bss: the object's address there, if a segment's memory holds it.
 */
static int
sym_in_bss(struct symboliser *s, pid_t pid, const struct map_list *l, const struct map_entry *e,
	   uint64_t addr, struct sym_answer *a)
{
	const struct map_entry *f;
	struct sym_object *o;
	const struct elf_image *img;
	uint64_t bias;

	if (e == l->e || e->inode != 0 || map_path(l, e)[0] != '\0')
		return 0;
	f = e - 1;
	if (f->inode == 0 || f->end != e->start)
		return 0;
	o = sym_object(s, pid, l, f);
	img = o != NULL ? sym_image(s, o) : NULL;
	if (img == NULL ||
	    elf_mapping_bias(img, f->start, f->end - f->start, f->offset, &bias) < 0 ||
	    !elf_vaddr_loaded(img, addr - bias))
		return 0;
	sym_in_object(s, img, o, addr - bias, a);
	return 1;
}

static int
sym_lookup(struct symboliser *s, pid_t pid, uint64_t addr, struct sym_answer *a, int reread)
{
	struct sym_proc *p;
	const struct map_entry *e;

	memset(a, 0, sizeof *a);
	a->addr = addr;
	s->st.lookups++;
	p = sym_proc(s, pid, 0);
	if (p == NULL)
		return -1;
	e = maps_find(&p->maps, addr);
	if (e == NULL && reread) { /* mapped since the maps were read? */
		p = sym_proc(s, pid, 1);
		if (p == NULL)
			return -1;
		e = maps_find(&p->maps, addr);
	}
	if (e != NULL)
		a->exec = (e->flags & MAP_EXEC) != 0;
	if (e == NULL) {
		a->how = SYM_UNMAPPED;
		a->why = "no mapping holds it";
		return 0;
	}
	if (e->inode != 0) {
		sym_in_file(s, pid, &p->maps, e, addr, a);
		return 0;
	}
	if (sym_in_bss(s, pid, &p->maps, e, addr, a))
		return 0;
	a->how = SYM_MAPPING;
	a->offset = addr - e->start;
	if (map_path(&p->maps, e)[0] != '\0') {
		a->object = map_path(&p->maps, e);
	} else {
		snprintf(p->anon, sizeof p->anon, "[anon:0x%llx]", (unsigned long long)e->start);
		a->object = p->anon;
	}
	return 0;
}

int
sym_user(struct symboliser *s, pid_t pid, uint64_t addr, struct sym_answer *a)
{
	return sym_lookup(s, pid, addr, a, 1);
}

int
sym_user_cached(struct symboliser *s, pid_t pid, uint64_t addr, struct sym_answer *a)
{
	return sym_lookup(s, pid, addr, a, 0);
}

/*
 * The kernel's table keeps only the symbols that were asked for: all of
 * /proc/kallsyms is some 120,000 symbols and 6 MB held (a monitor's whole
 * size twice over), while a sweep's call chains name a few hundred
 * functions.  A batch of addresses not yet covered costs one read of the
 * file (about 30 ms here), kept symbols none, and an address a read found
 * no symbol for none either: naming each frame of a window's paths read
 * the file again for every such one (7 more reads, some 40 ms of CPU
 * each, among 1024 workers that compute).
 */
static int
addr_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
sym_kernel_known(const struct symboliser *s, uint64_t addr)
{
	if (s->kernel.n > 0 && symtab_find(&s->kernel, addr) != NULL)
		return 1;
	return s->nkmiss > 0 && bsearch(&addr, s->kmiss, s->nkmiss, sizeof(addr), addr_cmp);
}

/* The addresses of want (sorted) that the read left unnamed, kept as known; -1 on ENOMEM. */
static int
sym_kernel_note_misses(struct symboliser *s, const uint64_t *want, size_t k)
{
	size_t i, n = s->nkmiss;
	uint64_t *m;

	for (i = 0; i < k; i++) {
		if (symtab_find(&s->kernel, want[i]) != NULL)
			continue;
		if (n == s->capkmiss) {
			if ((m = realloc(s->kmiss, (n ? 2 * n : 16) * sizeof(*m))) == NULL)
				return -1;
			s->kmiss = m;
			s->capkmiss = n ? 2 * n : 16;
		}
		s->kmiss[n++] = want[i];
	}
	if (n > s->nkmiss)
		qsort(s->kmiss, n, sizeof(*s->kmiss), addr_cmp);
	s->nkmiss = n;
	return 0;
}

/* Adds got's symbols to s->kernel, sorted after; -1 with ENOMEM. */
static int
sym_kernel_merge(struct symboliser *s, const struct symtab *got)
{
	const struct symbol *y;
	size_t i;
	int r = 0;

	for (i = 0; i < got->n && r == 0; i++) {
		y = &got->sym[i];
		r = symtab_add(&s->kernel, y->addr, y->size ? y->size : 1, y->type,
			       symtab_name(got, y->name), strlen(symtab_name(got, y->name)),
			       y->module != UINT32_MAX ? symtab_name(got, y->module) : NULL,
			       y->module != UINT32_MAX ? strlen(symtab_name(got, y->module)) : 0);
	}
	symtab_sort(&s->kernel);
	return r;
}

int
sym_kernel_prepare(struct symboliser *s, const uint64_t *addr, size_t n)
{
	struct symtab got = { 0 };
	uint64_t *want;
	size_t i, k = 0;
	int r;

	if (s->kernel_read < 0 || s->kernel_hidden) {
		errno = s->kernel_read < 0 ? s->kernel_errno : 0;
		return s->kernel_read < 0 ? -1 : 0;
	}
	if ((want = malloc((n ? n : 1) * sizeof(*want))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (!sym_kernel_known(s, addr[i]))
			want[k++] = addr[i];
	if (k == 0) {
		free(want);
		return 0;
	}
	qsort(want, k, sizeof(*want), addr_cmp);
	s->st.kernel_reads++;
	r = kernel_symbols_read_for(want, k, &got, &s->kernel_hidden);
	if (r < 0) {
		s->kernel_read = -1;
		s->kernel_errno = errno;
		free(want);
		symtab_free(&got);
		return -1;
	}
	s->kernel_read = 1;
	r = s->kernel_hidden ? 0 : sym_kernel_merge(s, &got);
	if (r == 0 && !s->kernel_hidden)
		r = sym_kernel_note_misses(s, want, k);
	symtab_free(&got);
	free(want);
	return r;
}

int
sym_kernel(struct symboliser *s, uint64_t addr, struct sym_answer *a)
{
	const struct symbol *y;

	memset(a, 0, sizeof *a);
	a->addr = addr;
	s->st.lookups++;
	if (!sym_kernel_known(s, addr) && sym_kernel_prepare(s, &addr, 1) < 0)
		return -1;
	if (s->kernel_hidden) {
		a->how = SYM_HIDDEN;
		a->object = "kernel";
		a->why = "the kernel hides its symbols' addresses (kptr_restrict, or not root)";
		return 0;
	}
	y = symtab_find(&s->kernel, addr);
	if (y == NULL) {
		a->how = SYM_UNMAPPED;
		a->why = "no kernel symbol covers it";
		return 0;
	}
	a->how = SYM_SYMBOL;
	a->symbol = symtab_name(&s->kernel, y->name);
	a->offset = addr - y->addr;
	a->object = "kernel";
	if (y->module != UINT32_MAX)
		a->object = symtab_name(&s->kernel, y->module);
	return 0;
}

char *
sym_format(const struct sym_answer *a, char *buf, size_t len)
{
	if (len == 0)
		return buf;
	switch (a->how) {
	case SYM_SYMBOL:
		if (a->offset == 0)
			snprintf(buf, len, "%s:%s", a->object, a->symbol);
		else
			snprintf(buf, len, "%s:%s+0x%llx", a->object, a->symbol,
				 (unsigned long long)a->offset);
		break;
	case SYM_OBJECT:
	case SYM_MAPPING:
		snprintf(buf, len, "%s+0x%llx", a->object, (unsigned long long)a->offset);
		break;
	case SYM_HIDDEN:
		snprintf(buf, len, "kernel address (hidden)");
		break;
	default:
		snprintf(buf, len, "0x%llx", (unsigned long long)a->addr);
		break;
	}
	return buf;
}

void
sym_get_stats(const struct symboliser *s, struct sym_stats *st)
{
	size_t i;

	*st = s->st;
	st->symbols = s->kernel.n;
	for (i = 0; i < s->nobj; i++)
		st->symbols += s->obj[i].img.syms.n;
}
