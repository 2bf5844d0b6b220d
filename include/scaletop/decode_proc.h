/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the Linux text that names what a thread waits on, and of the
 * memory it waits on: a thread's syscall line (/proc/PID/task/TID/syscall),
 * a process's mappings (/proc/PID/maps), the kernel's symbols
 * (/proc/kallsyms) and a glibc mutex's words.
 */
#ifndef SCALETOP_DECODE_PROC_H
#define SCALETOP_DECODE_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/futex.h"
#include "scaletop/sample_types.h"

/*
 * Pure functions over a buffer and its length, as decode_linux.h's: no I/O,
 * no NUL terminator needed, nothing read past len, built on every OS so the
 * recorded fixtures are tested everywhere.  Errors as decode_linux.h says:
 * -1 with EINVAL (malformed or cut short), ERANGE (a number out of range) or
 * ENOMEM; the outputs are then safe to free.
 *
 * The symbol table (struct symtab) is shared by the kallsyms decoder and
 * the ELF reader (symbols.h): symbols sorted by address, their names in one
 * pool.
 */

/* --- syscall lines ------------------------------------------------------ */

/*
 * The architectures whose syscall numbers are known: x86_64's own table,
 * and arm64's, the generic table (asm-generic/unistd.h).  NATIVE is the
 * build's own, or UNKNOWN on others (the numbers are then decoded, but no
 * call is named and no futex recognised).
 */
enum syscall_arch { SYSCALL_ARCH_UNKNOWN, SYSCALL_ARCH_X86_64, SYSCALL_ARCH_ARM64 };
enum syscall_arch syscall_arch_native(void);

/*
 * One line of /proc/PID/task/TID/syscall: "running", "-1 SP PC" (blocked
 * outside a call; any negative number is taken so) or "NR A0 .. A5 SP PC",
 * the numbers in hex after NR, ended by '\n'.  The call is named from arch's
 * table, and a futex wait (futex(2) with FUTEX_WAIT, FUTEX_WAIT_BITSET or a
 * PI lock op, futex_wait, futex_waitv) fills the futex fields.
 */
int syscall_line_decode(const char *buf, size_t len, enum syscall_arch arch,
			struct syscall_line *out);
/* The name of call nr on arch, or NULL when the table does not have it. */
const char *syscall_name(enum syscall_arch arch, long nr);
/* "mutex", "bitset", "pi", "futex2", "none": static. */
const char *futex_kind_name(enum futex_kind k);

/*
 * futex_waitv's vector holds struct futex_waitv { u64 val; u64 uaddr; u32
 * flags; u32 __reserved; } per futex.  From the first entry's bytes (buf,
 * len, read at line->futex_addr), the line's futex becomes that entry's
 * address, value and privacy (futex_vector stays set: the lock is the first of
 * arg[1]).  0, or -1 with EINVAL when len is short or line is no waitv.
 */
#define FUTEX_WAITV_ENTRY 24
int futex_waitv_first(struct syscall_line *line, const unsigned char *buf, size_t len);

/* --- the owner of a glibc mutex ----------------------------------------- */

/*
 * glibc's pthread_mutex_t on x86_64 and aarch64 (struct __pthread_mutex_s,
 * nptl, 2.17 to 2.40 at least) starts with int __lock at offset 0, unsigned
 * __count at 4 and int __owner (the holder's TID) at 8.  Read at least
 * MUTEX_WORDS bytes from the futex address.
 */
#define MUTEX_WORDS 12
#define MUTEX_OWNER_OFFSET 8
/* The PI futex word's owner bits (FUTEX_TID_MASK). */
#define FUTEX_TID_BITS 0x3fffffffu

enum mutex_owner {
	MUTEX_OWNER_KNOWN,  /* *owner is the holder's TID */
	MUTEX_OWNER_FREE,   /* the word says unlocked now: it was released meanwhile */
	MUTEX_OWNER_UNKNOWN /* not a layout recognised: say "owner unknown" */
};

/*
 * Who holds the lock a waiter (line) waits on, from the len bytes read at
 * its futex address, recognised conservatively:
 *  - FUTEX_KIND_PI: the word's low 30 bits are the owner's TID (the kernel's
 *    rule), when not 0;
 *  - FUTEX_KIND_MUTEX: only when the waiter expects 2 (lll_lock_wait's
 *    "locked, with waiters"), the word is 1 or 2 (nptl's lowlevellock:
 *    0 free, 1 locked, 2 locked with waiters) and __owner is a positive TID.
 * Anything else is MUTEX_OWNER_UNKNOWN: a condvar, a semaphore, another
 * library's futex.  The caller should still check that the TID is a thread
 * of the process.
 */
enum mutex_owner mutex_owner_decode(const struct syscall_line *line, const unsigned char *buf,
				    size_t len, pid_t *owner);

/* --- symbol tables ------------------------------------------------------ */

struct symbol {
	uint64_t addr;
	uint64_t size;   /* 0: up to the next symbol (kallsyms; ELF labels) */
	uint32_t name;   /* offset into names */
	uint32_t module; /* offset into names of the module ("ext4", kallsyms), or UINT32_MAX */
	char type;       /* nm's letter: 'T', 't', 'D', 'b', ... */
	char versioned;  /* the name has a version ("memcpy@GLIBC_2.2.5"): an alias */
};

/* Symbols and their names; {0} is empty, symtab_free releases it. */
struct symtab {
	struct symbol *sym;
	size_t n;
	size_t cap;
	char *names;
	size_t nlen;
	size_t ncap;
	int sorted;
};

void symtab_free(struct symtab *t);
/* Appends a symbol (name of nlen bytes, module NULL or of mlen bytes); -1 with ENOMEM. */
int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, char type, const char *name,
	       size_t nlen, const char *module, size_t mlen);
/*
 * Sorts by address, a global before a local, a plain name before a
 * versioned alias and a sized symbol before a label at one address, and gives each size-0 symbol
 * the distance to the next address (the last keeps 0: it covers its own address only).
 */
void symtab_sort(struct symtab *t);
/*
 * The symbol that covers addr (its [addr, addr + size)), the innermost when
 * symbols nest, or NULL.  The table must be sorted.
 */
const struct symbol *symtab_find(const struct symtab *t, uint64_t addr);
static inline const char *
symtab_name(const struct symtab *t, uint32_t off)
{
	return t->names + off;
}

/* --- a thread's kernel stack --------------------------------------------- */

/*
 * /proc/PID/task/TID/stack into out: one frame a line, "[<ADDR>] NAME+0xOFF/0xLEN",
 * perhaps with " [MODULE]" after (the address is 0 unless kptr_restrict lets
 * root see it).  The offsets and the module are dropped; a frame the kernel
 * could not name ("[<0>] 0xffffffffc0a01234") is its address.  Frames past
 * KSTACK_FRAMES are dropped, a name past KSTACK_NAME_LEN - 1 cut.  An empty
 * file (a thread on a CPU) gives no frames and KSTACK_RUNNING.  EINVAL for a
 * line not of that form or a last line without its '\n' (cut short).
 */
int kstack_text_decode(const char *buf, size_t len, struct kstack *out);

/* --- /proc/kallsyms ------------------------------------------------------ */

/*
 * /proc/kallsyms ("ADDR TYPE NAME[\t[MODULE]]" a line) into t, sorted.
 * Undefined ('U') and absolute ('a', 'A') symbols are left out.  When every
 * address is 0 (kptr_restrict, or not root), t stays empty and *hidden is 1:
 * the kernel did not say where its symbols are, and nothing must be guessed.
 */
int kallsyms_decode(const char *buf, size_t len, struct symtab *t, int *hidden);
/*
 * The same, keeping only the symbols that cover the n addresses (ascending):
 * each one's latest symbol at or below it, sized to the next symbol's start,
 * each once, so a few hundred frames are named without the whole table (some
 * 120,000 symbols, 6 MB held).  One pass, no sort of the file.  Errors and
 * *hidden as kallsyms_decode.
 */
int kallsyms_decode_for(const char *buf, size_t len, const uint64_t *addr, size_t n,
			struct symtab *t, int *hidden);

/* --- /proc/PID/maps ------------------------------------------------------ */

#define MAP_READ 1u
#define MAP_WRITE 2u
#define MAP_EXEC 4u
#define MAP_SHARED_FLAG 8u

struct map_entry {
	uint64_t start, end; /* [start, end) */
	uint64_t offset;     /* file offset of start */
	uint64_t inode;      /* 0: not a file */
	uint32_t dev_major, dev_minor;
	unsigned flags; /* MAP_* */
	uint32_t path;  /* offset into the list's paths; "" for an anonymous mapping */
	int deleted;    /* the path ended with " (deleted)" (not kept in path) */
};

/* A process's mappings, ascending; {0} is empty, map_list_free releases it. */
struct map_list {
	struct map_entry *e;
	size_t n;
	size_t cap;
	char *paths;
	size_t plen;
	size_t pcap;
};

void map_list_free(struct map_list *l);
/*
 * /proc/PID/maps into l (emptied first): "START-END PERMS OFFSET MAJ:MIN
 * INODE [PATH]" a line, the path to the end of the line (it may hold
 * blanks; "[heap]", "[stack]" and such are kept as they are).  The entries
 * must ascend without overlapping, as the kernel prints them.
 */
int maps_decode(const char *buf, size_t len, struct map_list *l);
/* The mapping that holds addr (binary search), or NULL. */
const struct map_entry *maps_find(const struct map_list *l, uint64_t addr);
static inline const char *
map_path(const struct map_list *l, const struct map_entry *e)
{
	return l->paths + e->path;
}

#endif
