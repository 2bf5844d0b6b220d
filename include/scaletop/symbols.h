/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symboliser: names an address in a process (a futex word, a return
 * address) as `object:symbol+0xOFF`, or `object+0xVADDR` where no symbol
 * covers it, and a kernel address from /proc/kallsyms.
 */
#ifndef SCALETOP_SYMBOLS_H
#define SCALETOP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/decode_proc.h"

/*
 * One module for every caller (the lock census, the on-CPU sampler), so each
 * object's symbol table is read once: objects are cached by device and
 * inode, and an object met again under another name (same build ID) shares
 * the first one's table.
 *
 * ELF files are read with libelf (elfutils on Linux, the base system's on
 * the BSDs): the PT_LOAD segments turn a mapping's file offset into the
 * ELF virtual address (PIE, non-PIE and shared objects alike, and .bss,
 * which lies in the anonymous mapping after the file's last one), then
 * .symtab, else a separate debug file's (found by build ID, else by
 * .gnu_debuglink with its CRC checked), else .dynsym, names it; C++ names
 * are demangled (demangle.h).  A build without libelf (HAVE_GELF_H unset:
 * the BSD compile checks' sysroots have no libelf.h) names every file
 * address `object+0xFILEOFFSET` and says why.
 *
 * Objects are read through /proc/PID/root while the process runs: a
 * process noted when first seen (sym_note_process) has every object it
 * maps read then, so its frames are named after it exits.  An object first
 * asked about once its process is gone is read from the path that was
 * mapped, if that file is still the one mapped (same device and inode).
 *
 * Ownership: the symboliser owns every string it hands out.  A file's name
 * and its symbols', and the kernel's, stay valid until sym_free; a
 * mapping's name ("[heap]", "[anon:0x...]", SYM_MAPPING) only until the
 * next sym_user or sym_forget of that pid, since the maps are read again
 * then.  Copy the answer out (sym_format) to keep it.  Not thread-safe: one
 * caller at a time.
 */

/* --- one ELF object (elf_image.c) -------------------------------------- */

#define ELF_SEGMENTS_MAX 32
#define BUILD_ID_MAX 64

struct elf_segment {
	uint64_t vaddr, memsz;
	uint64_t offset, filesz;
};

struct elf_image {
	int type;                                 /* ET_EXEC (2) or ET_DYN (3), as e_type */
	struct elf_segment seg[ELF_SEGMENTS_MAX]; /* the PT_LOAD segments, in file order */
	int nseg;
	unsigned char build_id[BUILD_ID_MAX];
	size_t build_id_len; /* 0: the object has no NT_GNU_BUILD_ID note */
	struct symtab syms;  /* sorted */
	const char *table;   /* ".symtab", ".dynsym", "" (no symbols), or ".symtab (debug
				file)" when the symboliser took a debug file's: static */
	char debuglink[256]; /* .gnu_debuglink's debug file name, "" when none */
	uint32_t debuglink_crc;
};

/*
 * Reads path's segments, build ID and symbols into img (emptied first).
 * 0, or -1 with errno (that of open, ENOEXEC for a file that is not ELF,
 * ENOSYS when built without libelf) and a one-line reason in why.
 */
int elf_image_load(const char *path, struct elf_image *img, char *why, size_t whylen);
void elf_image_free(struct elf_image *img);
/*
 * The CRC-32 of path's bytes that .gnu_debuglink keeps of its debug file
 * (the IEEE polynomial, as zlib's crc32).  0, or -1 with errno.
 */
int elf_file_crc(const char *path, uint32_t *crc);

/*
 * The load bias of a mapping of img: the mapping [start, start + len) of
 * the file from offset off holds the ELF address v at v + *bias.  The
 * segment is the PT_LOAD whose file start lies in the mapping's first
 * bytes, else the one whose file range holds off (a segment split by
 * mprotect, as RELRO does).  0, or -1 when no segment matches.  Pure.
 */
int elf_mapping_bias(const struct elf_image *img, uint64_t start, uint64_t len, uint64_t off,
		     uint64_t *bias);
/* True when the ELF address v is inside a PT_LOAD segment's memory image (.bss included). */
int elf_vaddr_loaded(const struct elf_image *img, uint64_t v);

/* --- the symboliser (symbols.c) ---------------------------------------- */

enum sym_how {
	SYM_SYMBOL,   /* object:symbol+0xOFF (kernel: kernel:symbol+0xOFF, or module:...) */
	SYM_OBJECT,   /* object+0xOFF: in an object, no symbol covers it (OFF an ELF vaddr,
			 or a file offset when the object's ELF could not be read) */
	SYM_MAPPING,  /* [heap]+0xOFF, [anon:START]+0xOFF: from the mapping's start */
	SYM_UNMAPPED, /* no mapping holds it (or no kernel symbol): 0xADDR */
	SYM_HIDDEN    /* a kernel address, but the kernel hides its symbols' addresses */
};

struct sym_answer {
	enum sym_how how;
	const char *object; /* the object's file name (no directory), "[heap]", "kernel"... */
	const char *symbol; /* SYM_SYMBOL only, else NULL; C++ demangled, without the
			       parameter list (as perf report shows it) */
	uint64_t offset;    /* from the symbol, the object's address 0, or the mapping */
	uint64_t addr;      /* the address asked about */
	const char *why;    /* why it is not a symbol (no ELF, hidden, ...), or NULL */
	int exec;           /* the mapping that holds it is executable (code) */
};

struct symboliser;

struct symboliser *sym_new(void);
void sym_free(struct symboliser *s);
/*
 * Where separate debug files are looked for, for an object without
 * .symtab: DIR/.build-id/xx/rest.debug by build ID, and DIR/OBJDIR/NAME by
 * .gnu_debuglink (besides OBJDIR/NAME and OBJDIR/.debug/NAME).  The
 * environment's SCALETOP_DEBUG_DIR when set, else /usr/lib/debug; "" for
 * nowhere.  Set it before the first lookup: objects already read keep
 * their symbols.
 */
void sym_set_debug_dir(struct symboliser *s, const char *dir);
/*
 * A process first seen: its maps are read and every file object they map
 * is read now, while it runs (each object once for the symboliser's life,
 * by device and inode).  Again for a pid already noted, nothing.  0, or -1
 * with errno as sym_user.
 */
int sym_note_process(struct symboliser *s, pid_t pid);
/*
 * Why an object's addresses went unnamed, once an object for the
 * symboliser's life: the next object a lookup named only by offset (no
 * symbols, no ELF read, names left mangled) as one line into buf, e.g.
 * "libfoo.so: no symbols (stripped, no debug file found by build ID or
 * debuglink)".  1 when one was written, 0 when none is left.
 */
int sym_next_unnamed(struct symboliser *s, char *buf, size_t len);
/* Drops what is cached of pid's mappings (it exited, or its pid was reused). */
void sym_forget(struct symboliser *s, pid_t pid);

/*
 * Names addr in pid.  The process's mappings are read on first use and
 * again when addr is in none of them.  0 and *a, or -1 with errno when
 * the mappings cannot be read (ESRCH: gone; EACCES: not ours; ENOSYS: the
 * OS has no maps reader).
 */
int sym_user(struct symboliser *s, pid_t pid, uint64_t addr, struct sym_answer *a);
/*
 * As sym_user, but from the mappings already read, never again: for a scan
 * of many words of which most are no address (a stack), a miss is then
 * SYM_UNMAPPED and costs a binary search, not a read of the maps.
 */
int sym_user_cached(struct symboliser *s, pid_t pid, uint64_t addr, struct sym_answer *a);
/*
 * Names a kernel address from /proc/kallsyms.  Only the symbols asked for
 * are kept (the whole table is some 6 MB): an address no kept symbol
 * covers reads the file again.  0, or -1 with errno.
 */
int sym_kernel(struct symboliser *s, uint64_t addr, struct sym_answer *a);
/*
 * Makes the n kernel addresses' symbols kept, with one read of the file for
 * all of those not yet covered (none when all are): call it before naming
 * a batch.  0, or -1 with errno (the file cannot be read, ENOMEM).
 */
int sym_kernel_prepare(struct symboliser *s, const uint64_t *addr, size_t n);
/*
 * An answer as text into buf (always ended, cut to len): `object:symbol`,
 * `object:symbol+0x40`, `object+0x1234`, `[heap]+0x40`, `0x7f00dead`,
 * `kernel address (hidden)`.  Returns buf.
 */
char *sym_format(const struct sym_answer *a, char *buf, size_t len);

/* What the symboliser did, for the cost figures. */
struct sym_stats {
	unsigned long lookups;
	unsigned long maps_reads;
	unsigned long elf_loads;    /* objects read */
	unsigned long elf_shared;   /* objects met again by build ID */
	unsigned long kernel_reads; /* reads of the kernel's symbols */
	unsigned long debug_files;  /* objects whose symbols came from a debug file */
	size_t symbols;             /* symbols held, every object's and the kernel's */
};
void sym_get_stats(const struct symboliser *s, struct sym_stats *st);

#endif
