/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symboliser's objects (symbols_priv.h): each ELF file a process maps,
 * read once and kept by device and inode for the symboliser's life (a
 * sweep), with its symbols from the file itself or a separate debug file.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif

#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "symbols_priv.h"

/*
 * A file is read through /proc/PID/root while its process runs, so a process
 * in a container has its own file read; a process noted when first seen
 * (sym_note_process) has all its objects read then, since a command of a
 * sweep has often exited when its window's frames and locks are named.  An
 * object first asked about after its process exited is read from the path
 * that was mapped if that file is still the one mapped (same device and
 * inode), and is tried again from another process otherwise.
 */

const char *
sym_base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b != NULL && b[1] != '\0' ? b + 1 : path;
}

/*
 * Takes the debug file at path's .symtab for img, when it has one, its
 * build ID (if both have one) is img's, and, for a debug link (crc set),
 * its CRC-32 is the link's.  1 when taken.
 */
static int
sym_take_debug(struct symboliser *s, struct elf_image *img, const char *path, const uint32_t *crc)
{
	struct elf_image dbg;
	char why[160];
	uint32_t got;
	int ok;

	if (crc != NULL && (elf_file_crc(path, &got) < 0 || got != *crc))
		return 0;
	if (elf_image_load(path, &dbg, why, sizeof why) < 0)
		return 0;
	ok = strcmp(dbg.table, ".symtab") == 0 && dbg.syms.n > 0 &&
	     (dbg.build_id_len == 0 || img->build_id_len == 0 ||
	      (dbg.build_id_len == img->build_id_len &&
	       memcmp(dbg.build_id, img->build_id, img->build_id_len) == 0));
	if (ok) {
		symtab_free(&img->syms);
		img->syms = dbg.syms;
		memset(&dbg.syms, 0, sizeof dbg.syms);
		img->table = ".symtab (debug file)";
		s->st.debug_files++;
	}
	elf_image_free(&dbg);
	return ok;
}

/* DIR/.build-id/xx/rest.debug, by img's build ID. */
static int
sym_debug_by_id(struct symboliser *s, struct elf_image *img)
{
	char path[1024];
	size_t i, n;

	if (img->build_id_len < 2)
		return 0;
	n = (size_t)snprintf(path, sizeof path, "%s/.build-id/%02x/", s->debug_dir,
			     img->build_id[0]);
	for (i = 1; i < img->build_id_len && n + 8 < sizeof path; i++)
		n += (size_t)snprintf(path + n, sizeof path - n, "%02x", img->build_id[i]);
	snprintf(path + n, sizeof path - n, ".debug");
	return sym_take_debug(s, img, path, NULL);
}

/*
 * By .gnu_debuglink, where gdb looks: beside the file read (read is the
 * path opened), in its .debug folder, and under the debug directory by the
 * mapped path's folder.
 */
static int
sym_debug_by_link(struct symboliser *s, struct elf_image *img, const char *read, const char *mapped)
{
	char path[4600];
	int rd = (int)(sym_base_name(read) - read), md = (int)(sym_base_name(mapped) - mapped);

	if (img->debuglink[0] == '\0' || strchr(img->debuglink, '/') != NULL)
		return 0;
	snprintf(path, sizeof path, "%.*s%s", rd, read, img->debuglink);
	if (strcmp(path, read) != 0 && sym_take_debug(s, img, path, &img->debuglink_crc))
		return 1;
	snprintf(path, sizeof path, "%.*s.debug/%s", rd, read, img->debuglink);
	if (sym_take_debug(s, img, path, &img->debuglink_crc))
		return 1;
	if (s->debug_dir[0] == '\0' || mapped[0] != '/')
		return 0;
	snprintf(path, sizeof path, "%s%.*s%s", s->debug_dir, md, mapped, img->debuglink);
	return sym_take_debug(s, img, path, &img->debuglink_crc);
}

/* An object without .symtab: a separate debug file's, by build ID, else by debug link. */
static void
sym_debug_file(struct symboliser *s, struct elf_image *img, const char *read, const char *mapped)
{
	if (strcmp(img->table, ".symtab") == 0)
		return;
	if (s->debug_dir[0] != '\0' && sym_debug_by_id(s, img))
		return;
	(void)sym_debug_by_link(s, img, read, mapped);
}

/* The object of another with the same build ID, or -1. */
static int
sym_same_build(const struct symboliser *s, size_t me)
{
	const struct elf_image *a = &s->obj[me].img, *b;
	size_t i;

	if (a->build_id_len == 0)
		return -1;
	for (i = 0; i < me; i++) {
		b = &s->obj[i].img;
		if (s->obj[i].loaded && s->obj[i].alias < 0 && b->build_id_len == a->build_id_len &&
		    memcmp(b->build_id, a->build_id, a->build_id_len) == 0)
			return (int)i;
	}
	return -1;
}

/* True when path is the very file o was mapped from (device and inode). */
static int
sym_same_file(const struct sym_object *o, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	return (uint64_t)st.st_ino == o->inode && (uint32_t)major(st.st_dev) == o->dev_major &&
	       (uint32_t)minor(st.st_dev) == o->dev_minor;
}

/*
 * Reads o through pid's root; when that fails because pid is gone, from
 * the mapped path if it is still the same file.  A failure for want of
 * the process is marked to be tried again from another.
 */
static void
sym_object_read(struct symboliser *s, struct sym_object *o, pid_t pid)
{
	char path[4200];
	int gone, same = 1, first;

	o->tried = 0;
	if (proc_object_path(pid, o->mapped, path, sizeof path) < 0)
		snprintf(path, sizeof path, "%s", o->mapped);
	o->loaded = elf_image_load(path, &o->img, o->why, sizeof o->why) == 0;
	gone = !o->loaded && kill(pid, 0) < 0 && errno == ESRCH;
	if (gone && (same = sym_same_file(o, o->mapped)) != 0) {
		snprintf(path, sizeof path, "%s", o->mapped);
		o->loaded = elf_image_load(path, &o->img, o->why, sizeof o->why) == 0;
	}
	if (!o->loaded && gone) {
		o->tried = pid;
		if (!same)
			snprintf(o->why, sizeof o->why,
				 "%s: its process exited and the file is not the one it mapped",
				 o->mapped);
		return;
	}
	if (!o->loaded)
		return;
	if ((first = sym_same_build(s, (size_t)(o - s->obj))) >= 0) {
		elf_image_free(&o->img);
		o->alias = first;
		s->st.elf_shared++;
	} else {
		sym_debug_file(s, &o->img, path, o->mapped);
	}
}

struct sym_object *
sym_object(struct symboliser *s, pid_t pid, const struct map_list *l, const struct map_entry *e)
{
	struct sym_object *o;
	size_t i;

	for (i = 0; i < s->nobj; i++) {
		o = &s->obj[i];
		if (o->inode != e->inode || o->dev_major != e->dev_major ||
		    o->dev_minor != e->dev_minor)
			continue;
		if (!o->loaded && o->tried != 0 && o->tried != pid)
			sym_object_read(s, o, pid);
		return o;
	}
	if (s->nobj >= SYM_OBJECTS_MAX)
		return NULL;
	if (grow_array(&s->obj, &s->capobj, s->nobj + 1, sizeof(*s->obj), 16) != 0)
		return NULL;
	o = &s->obj[s->nobj];
	memset(o, 0, sizeof *o);
	o->name = strdup(sym_base_name(map_path(l, e)));
	o->mapped = strdup(map_path(l, e));
	if (o->name == NULL || o->mapped == NULL) {
		free(o->name);
		free(o->mapped);
		return NULL;
	}
	o->dev_major = e->dev_major;
	o->dev_minor = e->dev_minor;
	o->inode = e->inode;
	o->alias = -1;
	s->nobj++;
	s->st.elf_loads++;
	sym_object_read(s, o, pid);
	return o;
}

const struct elf_image *
sym_image(const struct symboliser *s, const struct sym_object *o)
{
	if (!o->loaded)
		return NULL;
	return o->alias >= 0 ? &s->obj[o->alias].img : &o->img;
}

/* Why o's addresses are offsets, as a line into buf. */
static void
sym_unnamed_why(const struct symboliser *s, const struct sym_object *o, char *buf, size_t len)
{
	const struct elf_image *img = sym_image(s, o);

	if (!o->loaded)
		snprintf(buf, len, "%s: no symbols (not read: %s)", o->name, o->why);
	else
		snprintf(buf, len,
			 "%s: %s (stripped, no debug file found by build ID or debuglink%s%s)",
			 o->name,
			 img != NULL && img->syms.n > 0 ? "only its exported symbols, .dynsym"
							: "no symbols",
			 s->debug_dir[0] != '\0' ? " under " : "", s->debug_dir);
}

int
sym_next_unnamed(struct symboliser *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < s->nobj; i++) {
		if (s->obj[i].unnamed != 1)
			continue;
		s->obj[i].unnamed = 2;
		sym_unnamed_why(s, &s->obj[i], buf, len);
		return 1;
	}
	if (s->mangled == 1 && demangle_missing() != NULL) {
		s->mangled = 2;
		snprintf(buf, len, "%s", demangle_missing());
		return 1;
	}
	return 0;
}

void
sym_objects_free(struct symboliser *s)
{
	size_t i;

	for (i = 0; i < s->nobj; i++) {
		elf_image_free(&s->obj[i].img);
		free(s->obj[i].name);
		free(s->obj[i].mapped);
	}
	free(s->obj);
	demangle_cache_free(&s->dm);
}
