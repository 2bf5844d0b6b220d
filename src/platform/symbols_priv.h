/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symboliser's own state, shared by its two files: the lookups and the
 * kernel's symbols (symbols.c) and the object cache, which reads each ELF
 * file once, finds its debug file and says why one went unnamed
 * (sym_objects.c).  Not for anyone else: symbols.h is the interface.
 */
#ifndef SCALETOP_SYMBOLS_PRIV_H
#define SCALETOP_SYMBOLS_PRIV_H

#include "scaletop/symbols.h"
#include "demangle.h"

/* Objects kept at most; past it the oldest is not evicted, the new one is named by offset. */
#define SYM_OBJECTS_MAX 4096

struct sym_object {
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	char *name;   /* the file name, no directory */
	char *mapped; /* the path as the process mapped it */
	int loaded;   /* img holds its ELF */
	int alias;    /* index of the object whose image this one shares, or -1 */
	pid_t tried;  /* unloaded because that process was gone: read again from another */
	int unnamed;  /* an address in it was named by offset: 1 to say why, 2 said */
	char why[200];
	struct elf_image img;
};

struct sym_proc {
	pid_t pid;
	struct map_list maps;
	char anon[40]; /* "[anon:0x...]": the answer's object for an anonymous mapping */
};

struct symboliser {
	struct sym_object *obj;
	size_t nobj, capobj;
	struct sym_proc *proc;
	size_t nproc, capproc;
	struct symtab kernel;
	uint64_t *kmiss; /* addresses a read of kallsyms found no symbol for, sorted */
	size_t nkmiss, capkmiss;
	int kernel_read; /* 0 unread, 1 read, -1 failed (kernel_errno) */
	int kernel_errno;
	int kernel_hidden;
	struct demangle_cache dm;
	int mangled; /* a name was left mangled for want of a demangler: 1 to say, 2 said */
	char debug_dir[512];
	struct sym_stats st;
};

/* pid's cached mappings, read now when not yet (or again when reread is set); NULL on error. */
struct sym_proc *sym_proc(struct symboliser *s, pid_t pid, int reread);
/* The object of a file mapping of pid, read on first sight; NULL when none can be kept. */
struct sym_object *sym_object(struct symboliser *s, pid_t pid, const struct map_list *l,
			      const struct map_entry *e);
/* The image o's symbols are in (its own or that of its build ID's first), or NULL. */
const struct elf_image *sym_image(const struct symboliser *s, const struct sym_object *o);
void sym_objects_free(struct symboliser *s);
/* path's last part. */
const char *sym_base_name(const char *path);

#endif
