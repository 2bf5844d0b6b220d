/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoders of what names a lock (decode_syscall.c, decode_maps.c,
 * decode_kallsyms.c), the symbol table's lookup (symtab.c) and the
 * symboliser's text (sym_format), over the recorded text in
 * tests/fixtures/proc/ (its README) and hand-written edge cases.  Each decoder is handed an
 * exact-size heap copy, so a read past len is caught by the sanitizer build.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "scaletop/symbols.h"
#include "../tap.h"

static int
sc_str(const char *text, enum syscall_arch arch, struct syscall_line *s)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = syscall_line_decode(p, len, arch, s);

	free(p);
	return r;
}

static int
sc_fixture(const char *name, struct syscall_line *s)
{
	size_t len;
	char *text = fixture_read(name, &len);
	char *p = exact_copy(text, len);
	int r = syscall_line_decode(p, len, SYSCALL_ARCH_X86_64, s);

	free(p);
	free(text);
	return r;
}

static void
test_syscall_fixtures(void)
{
	struct syscall_line s;

	is_int(sc_fixture("proc/syscall_futex_wait", &s), 0, "futex wait: decoded");
	is_int(s.state, SYSCALL_IN, "futex wait: in a call");
	is_int(s.nr, 202, "futex wait: nr 202");
	is_str(s.name, "futex", "futex wait: named futex");
	is_int(s.futex, FUTEX_KIND_MUTEX, "futex wait: FUTEX_WAIT is the mutex kind");
	is_u64(s.futex_addr, 0x558b8c279160ull, "futex wait: the address is arg 0");
	is_int(s.futex_val, 2, "futex wait: expects 2 (locked, with waiters)");
	is_int(s.futex_private, 1, "futex wait: private");
	is_u64(s.sp, 0x7eff1dffae98ull, "futex wait: SP");
	is_u64(s.pc, 0x7eff25c5e12bull, "futex wait: PC");

	is_int(sc_fixture("proc/syscall_futex_bitset", &s), 0, "bitset: decoded");
	is_int(s.futex, FUTEX_KIND_BITSET, "bitset: 0x189 is FUTEX_WAIT_BITSET, flags masked");
	is_int(s.futex_op, 9, "bitset: op 9");
	is_u64(s.arg[5], 0xffffffffull, "bitset: the bitset is arg 5");

	is_int(sc_fixture("proc/syscall_clock_nanosleep", &s), 0, "nanosleep: decoded");
	is_str(s.name, "clock_nanosleep", "nanosleep: named");
	is_int(s.futex, FUTEX_KIND_NONE, "nanosleep: no futex");
	is_int(sc_fixture("proc/syscall_pause", &s), 0, "pause: decoded");
	is_str(s.name, "pause", "pause: named");

	is_int(sc_fixture("proc/syscall_running", &s), 0, "running: decoded");
	is_int(s.state, SYSCALL_RUNNING, "running: on a CPU");
	is_int(s.nr, -1, "running: no number");

	is_int(sc_fixture("proc/syscall_stopped", &s), 0, "stopped: decoded");
	is_int(s.state, SYSCALL_NONE, "stopped: -1 is blocked outside a call");
	is_u64(s.sp, 0x7ffda18456a8ull, "stopped: SP");
	is_u64(s.pc, 0x7f2f143b0ce4ull, "stopped: PC");
	ok(s.name == NULL && s.futex == FUTEX_KIND_NONE, "stopped: no call, no futex");
}

static void
test_syscall_ops(void)
{
	struct syscall_line s;

	is_int(sc_str("202 0x10 0x6 0x0 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s), 0,
	       "LOCK_PI: decoded");
	is_int(s.futex, FUTEX_KIND_PI, "LOCK_PI: the PI kind");
	is_int(sc_str("202 0x10 0x8d 0x0 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s), 0,
	       "LOCK_PI2|PRIVATE: decoded");
	is_int(s.futex, FUTEX_KIND_PI, "LOCK_PI2|PRIVATE: the PI kind");
	is_int(sc_str("202 0x10 0x81 0x1 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s), 0,
	       "WAKE: decoded");
	is_int(s.futex, FUTEX_KIND_NONE, "WAKE is not a wait");
	is_int(sc_str("454 0x7f00 0x1 0xffffffff 0x82 0x0 0x1 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s),
	       0, "futex_wait: decoded");
	ok(s.futex == FUTEX_KIND_FUTEX2 && s.futex_addr == 0x7f00 && s.futex_val == 1,
	   "futex_wait: futex2, its address and value");
	is_int(sc_str("449 0x7e00 0x3 0x0 0x0 0x1 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s), 0,
	       "futex_waitv: decoded");
	ok(s.futex == FUTEX_KIND_FUTEX2 && s.futex_vector && s.futex_addr == 0x7e00,
	   "futex_waitv: futex2, the vector's address");
	{
		unsigned char v[FUTEX_WAITV_ENTRY];
		uint64_t val = 3, uaddr = 0x55aa10;

		memset(v, 0, sizeof v);
		memcpy(v, &val, 8);
		memcpy(v + 8, &uaddr, 8);
		ok(futex_waitv_first(&s, v, sizeof v) == 0 && s.futex_addr == 0x55aa10 &&
			   s.futex_val == 3,
		   "futex_waitv: the vector's first futex becomes the lock");
		ok(futex_waitv_first(&s, v, 16) == -1 && errno == EINVAL,
		   "futex_waitv: a short vector is refused");
	}
	/* arm64: futex is 98 there; 202 is accept. */
	is_int(sc_str("98 0xaaaa0010 0x80 0x2 0x0 0x0 0x0 0xffff0 0xffff4\n", SYSCALL_ARCH_ARM64,
		      &s),
	       0, "arm64 futex: decoded");
	ok(s.futex == FUTEX_KIND_MUTEX && s.futex_addr == 0xaaaa0010, "arm64: 98 is futex");
	is_int(sc_str("202 0x3 0x0 0x0 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_ARM64, &s), 0,
	       "arm64 accept: decoded");
	ok(s.futex == FUTEX_KIND_NONE && s.name != NULL && strcmp(s.name, "accept") == 0,
	   "arm64: 202 is accept, not futex");
	is_int(sc_str("202 0x10 0x80 0x2 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_UNKNOWN, &s), 0,
	       "unknown arch: decoded");
	ok(s.futex == FUTEX_KIND_NONE && s.name == NULL, "unknown arch: no call named");
	is_str(syscall_name(SYSCALL_ARCH_X86_64, 11), "munmap", "x86_64 11 is munmap");
	is_str(syscall_name(SYSCALL_ARCH_ARM64, 215), "munmap", "arm64 215 is munmap");
	ok(syscall_name(SYSCALL_ARCH_X86_64, 99999) == NULL, "an unknown number has no name");
	is_str(futex_kind_name(FUTEX_KIND_BITSET), "bitset", "kind names");
}

static void
test_syscall_bad(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"running",
		"202 0x1 0x2\n",
		"202 0x1 0x2 0x3 0x4 0x5 0x6 0x7 0x8 0x9\n",
		"202 1 0x2 0x3 0x4 0x5 0x6 0x7 0x8\n",
		"-1 0x1\n",
		"-1 0x1 0x2 0x3\n",
		"x 0x1 0x2\n",
		"202 0x1 0x2 0x3 0x4 0x5 0x6 0x7 0xg\n",
		"-1 0x11111111111111111 0x2\n",
		"99999999999 0x1 0x2 0x3 0x4 0x5 0x6 0x7 0x8\n",
		"-1 0x1 0x2\n-1 0x1 0x2\n",
		"- 0x1 0x2\n",
		"-1 0x 0x2\n",
		"runningx\n",
	};
	struct syscall_line s;
	size_t i;
	int fails = 0;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		errno = 0;
		if (sc_str(bad[i], SYSCALL_ARCH_X86_64, &s) != -1 ||
		    (errno != EINVAL && errno != ERANGE)) {
			diag("accepted or wrong errno: '%s'", bad[i]);
			fails++;
		}
	}
	is_int(fails, 0, "malformed syscall lines are refused with EINVAL or ERANGE");
}

static void
test_mutex_owner(void)
{
	struct syscall_line s;
	unsigned char m[MUTEX_WORDS];
	uint32_t w;
	int32_t tid = 4711;
	pid_t owner;

	sc_str("202 0x10 0x80 0x2 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s);
	memset(m, 0, sizeof m);
	w = 2;
	memcpy(m, &w, 4);
	memcpy(m + 8, &tid, 4);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_KNOWN, "mutex: known");
	is_int(owner, 4711, "mutex: __owner at 8");
	w = 0;
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_FREE,
	       "mutex: word 0 is free");
	w = 7;
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_UNKNOWN,
	       "mutex: a word not 0, 1 or 2 is not glibc's mutex");
	w = 1;
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, 8, &owner), MUTEX_OWNER_UNKNOWN, "mutex: too short");
	tid = 0;
	memcpy(m + 8, &tid, 4);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_UNKNOWN,
	       "mutex: no __owner is unknown");
	sc_str("202 0x10 0x80 0x1 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_UNKNOWN,
	       "mutex: a waiter that does not expect 2 is not lll_lock's");
	sc_str("202 0x10 0x189 0x0 0x0 0x0 0xffffffff 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_UNKNOWN,
	       "bitset (a condvar): owner unknown");
	sc_str("202 0x10 0x86 0x0 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s);
	w = 0x80000000u | 1234; /* FUTEX_WAITERS | tid */
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, 4, &owner), MUTEX_OWNER_KNOWN, "PI: known");
	is_int(owner, 1234, "PI: the word's low 30 bits");
	w = 0x40000000u | 0x80000000u | 4321; /* FUTEX_OWNER_DIED | FUTEX_WAITERS | tid */
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, 4, &owner), MUTEX_OWNER_KNOWN, "PI, OWNER_DIED: known");
	is_int(owner, 4321, "PI, OWNER_DIED: the TID without the OWNER_DIED bit");
	w = 0x40000000u; /* OWNER_DIED alone: the owner died, none holds it */
	memcpy(m, &w, 4);
	is_int(mutex_owner_decode(&s, m, 4, &owner), MUTEX_OWNER_FREE,
	       "PI, OWNER_DIED and no TID: free");
	/* a word of 1: locked, no waiter marked yet (the waiter's exchange to 2 not yet done) */
	sc_str("202 0x10 0x80 0x2 0x0 0x0 0x0 0x1 0x2\n", SYSCALL_ARCH_X86_64, &s);
	w = 1;
	tid = 5150;
	memcpy(m, &w, 4);
	memcpy(m + 8, &tid, 4);
	is_int(mutex_owner_decode(&s, m, sizeof m, &owner), MUTEX_OWNER_KNOWN,
	       "mutex: a word of 1 (locked, no waiters) is known");
	is_int(owner, 5150, "mutex: a word of 1's __owner");
}

static void
test_maps(void)
{
	struct map_list l = { 0 };
	const struct map_entry *e;
	size_t len;
	char *text = fixture_read("proc/maps_pie_threads", &len);
	char *p = exact_copy(text, len);

	is_int(maps_decode(p, len, &l), 0, "maps: decoded");
	is_int((long long)l.n, 42, "maps: 42 mappings");
	e = maps_find(&l, 0x558b8c279160ull);
	ok(e != NULL && strcmp(map_path(&l, e), "/tmp/x/lh") == 0 && e->offset == 0x3000 &&
		   (e->flags & MAP_WRITE) && e->inode == 10953486 && e->dev_major == 0xfe,
	   "maps: &big_lock is in the program's rw-p mapping at offset 0x3000");
	e = maps_find(&l, 0x7eff25c5e12bull);
	ok(e != NULL && strcmp(map_path(&l, e), "/usr/lib/x86_64-linux-gnu/libc.so.6") == 0 &&
		   (e->flags & MAP_EXEC),
	   "maps: the waiters' PC is in libc's text");
	e = maps_find(&l, 0x7eff1dffae98ull);
	ok(e != NULL && map_path(&l, e)[0] == '\0' && e->inode == 0,
	   "maps: a thread's stack is anon");
	e = maps_find(&l, 0x558b97000000ull);
	ok(e != NULL && strcmp(map_path(&l, e), "[heap]") == 0, "maps: [heap]");
	ok(maps_find(&l, 0x1000) == NULL && maps_find(&l, 0x558b8c27a000ull) == NULL,
	   "maps: unmapped addresses are in none");
	ok(maps_find(&l, 0xffffffffff600000ull) != NULL, "maps: [vsyscall]");
	free(p);
	free(text);

	text = "7f00-7f10 rw-s 00000010 00:05 77 /dev/shm/my lock (deleted)\n";
	p = exact_copy(text, strlen(text));
	is_int(maps_decode(p, strlen(text), &l), 0, "maps: a path with blanks, deleted");
	ok(l.n == 1 && strcmp(map_path(&l, &l.e[0]), "/dev/shm/my lock") == 0 && l.e[0].deleted &&
		   (l.e[0].flags & MAP_SHARED_FLAG),
	   "maps: the path keeps its blanks, (deleted) is a flag");
	free(p);
	map_list_free(&l);
}

static void
test_maps_bad(void)
{
	static const char *const bad[] = {
		"7f00-7f10 rw-p 0 00:00 0",                             /* no newline */
		"7f10-7f00 rw-p 0 00:00 0\n",                           /* end before start */
		"7f00-7f10 rw-p 0 00:00 0\n7f08-7f20 r--p 0 00:00 0\n", /* overlap */
		"7f00-7f10 rwzp 0 00:00 0\n",
		"7f00 rw-p 0 00:00 0\n",
		"7f00-7f10 rw-p 0 00 0\n",
		"7f00-7f10 rw-p 0 00:00 x\n",
		"7f00-7f10 rw-p 0 00:00 1x\n",
		"17f0000000000000000-7f10 rw-p 0 00:00 0\n",
	};
	struct map_list l = { 0 };
	size_t i;
	char *p;
	int fails = 0, r;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = exact_copy(bad[i], strlen(bad[i]));
		errno = 0;
		r = maps_decode(p, strlen(bad[i]), &l);
		if (r != -1 || (errno != EINVAL && errno != ERANGE)) {
			diag("accepted: '%s'", bad[i]);
			fails++;
		}
		free(p);
	}
	is_int(fails, 0, "malformed maps are refused");
	map_list_free(&l);
}

/*
 * kallsyms_decode_for names every address as the whole table does: each
 * symbol's start, a byte in, its last byte, a gap, and addresses past the
 * last symbol and before the first; and keeps only the symbols asked for.
 */
static void
test_kallsyms_for(void)
{
	struct symtab all = { 0 }, some = { 0 };
	const struct symbol *a, *b;
	uint64_t want[200];
	size_t len, i, k = 0, same = 0;
	char *text = fixture_read("proc/kallsyms_sample", &len);
	char *p = exact_copy(text, len);
	int hidden = -1;

	kallsyms_decode(p, len, &all, &hidden);
	want[k++] = 0x1000;
	for (i = 0; i < all.n && k + 4 < 200; i++) {
		want[k++] = all.sym[i].addr;
		want[k++] = all.sym[i].addr + 1;
		if (all.sym[i].size > 1)
			want[k++] = all.sym[i].addr + all.sym[i].size - 1;
	}
	want[k++] = 0xffffffffffffff00ull;
	for (i = 1; i < k; i++) { /* ascending, as the caller gives them */
		size_t j;
		uint64_t v;

		for (j = i; j > 0 && want[j] < want[j - 1]; j--)
			v = want[j], want[j] = want[j - 1], want[j - 1] = v;
	}
	is_int(kallsyms_decode_for(p, len, want, k, &some, &hidden), 0, "kallsyms for: decoded");
	for (i = 0; i < k; i++) {
		a = symtab_find(&all, want[i]);
		b = symtab_find(&some, want[i]);
		same += (a == NULL && b == NULL) ||
			(a != NULL && b != NULL && a->addr == b->addr &&
			 strcmp(symtab_name(&all, a->name), symtab_name(&some, b->name)) == 0);
		if (!((a == NULL && b == NULL) || (a != NULL && b != NULL && a->addr == b->addr)))
			diag("0x%llx: %s against %s", (unsigned long long)want[i],
			     a ? symtab_name(&all, a->name) : "-",
			     b ? symtab_name(&some, b->name) : "-");
	}
	is_int((long long)same, (long long)k, "kallsyms for: each address named as by the table");
	ok(some.n <= all.n, "kallsyms for: at most the symbols asked for (%zu of %zu)", some.n,
	   all.n);
	is_int(kallsyms_decode_for(p, len, want, 1, &some, &hidden), 0,
	       "kallsyms for: an address below every symbol");
	is_int((long long)some.n, 0, "kallsyms for: keeps nothing");
	free(p);
	free(text);
	text = fixture_read("proc/kallsyms_hidden", &len);
	p = exact_copy(text, len);
	ok(kallsyms_decode_for(p, len, want, k, &some, &hidden) == 0 && hidden == 1 && some.n == 0,
	   "kallsyms for: hidden addresses say so");
	free(p);
	free(text);
	symtab_free(&all);
	symtab_free(&some);
}

static void
test_kallsyms(void)
{
	struct symtab t = { 0 };
	const struct symbol *y;
	size_t len;
	char *text = fixture_read("proc/kallsyms_sample", &len);
	char *p = exact_copy(text, len);
	int hidden = -1;

	is_int(kallsyms_decode(p, len, &t, &hidden), 0, "kallsyms: decoded");
	is_int(hidden, 0, "kallsyms: as root, addresses are shown");
	is_int((long long)t.n, 43, "kallsyms: 43 symbols");
	y = symtab_find(&t, 0xffffffff82266b50ull + 0x10);
	ok(y != NULL && strcmp(symtab_name(&t, y->name), "schedule") == 0 &&
		   y->size == 0xffffffff8226ef90ull - 0xffffffff82266b50ull,
	   "kallsyms: schedule+0x10, covering up to the next symbol");
	y = symtab_find(&t, 0xffffffff81000000ull);
	ok(y != NULL && y->type == 'T', "kallsyms: _stext's address names one of its aliases");
	y = symtab_find(&t, 0xffffffffc0201000ull);
	ok(y != NULL && y->module != UINT32_MAX &&
		   strcmp(symtab_name(&t, y->module), "__builtin__ftrace") == 0,
	   "kallsyms: a module's symbol keeps its module");
	ok(symtab_find(&t, 0x1000) == NULL, "kallsyms: a user address is no kernel symbol");
	free(p);
	free(text);

	text = fixture_read("proc/kallsyms_hidden", &len);
	p = exact_copy(text, len);
	is_int(kallsyms_decode(p, len, &t, &hidden), 0, "kallsyms hidden: decoded");
	ok(hidden == 1 && t.n == 0, "kallsyms hidden: every address 0 says hidden, no symbols");
	free(p);
	free(text);

	text = "ffffffff81000000 T a\nffffffff81000000 T\n";
	p = exact_copy(text, strlen(text));
	errno = 0;
	ok(kallsyms_decode(p, strlen(text), &t, &hidden) == -1 && errno == EINVAL,
	   "kallsyms: a line without a name is refused");
	free(p);
	text = "ffffffff81000000 T a\tmod\n";
	p = exact_copy(text, strlen(text));
	ok(kallsyms_decode(p, strlen(text), &t, &hidden) == -1, "kallsyms: a module needs [ ]");
	free(p);
	symtab_free(&t);
}

static void
test_symtab(void)
{
	struct symtab t = { 0 };
	const struct symbol *y;

	symtab_add(&t, 0x1000, 0x100, 'T', "outer", 5, NULL, 0);
	symtab_add(&t, 0x1040, 0x10, 't', "inner", 5, NULL, 0);
	symtab_add(&t, 0x2000, 0x8, 'D', "word", 4, NULL, 0);
	symtab_add(&t, 0x2000, 0x8, 'd', "word_alias", 10, NULL, 0);
	symtab_add(&t, 0x3000, 0x8, 'T', "fn@VERS_1", 9, NULL, 0);
	symtab_add(&t, 0x3000, 0x8, 'T', "fn", 2, NULL, 0);
	ok(symtab_find(&t, 0x1000) == NULL, "symtab: not sorted, no answer");
	symtab_sort(&t);
	y = symtab_find(&t, 0x1044);
	ok(y != NULL && strcmp(symtab_name(&t, y->name), "inner") == 0, "symtab: the innermost");
	y = symtab_find(&t, 0x1080);
	ok(y != NULL && strcmp(symtab_name(&t, y->name), "outer") == 0,
	   "symtab: past the inner one, the outer covers");
	y = symtab_find(&t, 0x2004);
	ok(y != NULL && strcmp(symtab_name(&t, y->name), "word") == 0, "symtab: a global first");
	y = symtab_find(&t, 0x3004);
	ok(y != NULL && strcmp(symtab_name(&t, y->name), "fn") == 0,
	   "symtab: a plain name before its versioned alias");
	ok(symtab_find(&t, 0x2008) == NULL && symtab_find(&t, 0x1100) == NULL &&
		   symtab_find(&t, 0xfff) == NULL,
	   "symtab: past a symbol's size, nothing");
	symtab_free(&t);
}

static void
test_format(void)
{
	struct sym_answer a;
	char buf[64];

	memset(&a, 0, sizeof a);
	a.how = SYM_SYMBOL;
	a.object = "ext4";
	a.symbol = "ext4_fn";
	a.offset = 0x10;
	is_str(sym_format(&a, buf, sizeof buf), "ext4:ext4_fn+0x10", "format: module:symbol+0xOFF");
	a.offset = 0;
	is_str(sym_format(&a, buf, sizeof buf), "ext4:ext4_fn", "format: no +0x0");
	a.how = SYM_OBJECT;
	a.object = "libc.so.6";
	a.offset = 0x85f16;
	is_str(sym_format(&a, buf, sizeof buf), "libc.so.6+0x85f16", "format: object+0xVADDR");
	a.how = SYM_MAPPING;
	a.object = "[heap]";
	a.offset = 0x40;
	is_str(sym_format(&a, buf, sizeof buf), "[heap]+0x40", "format: [heap]+0xOFF");
	a.how = SYM_UNMAPPED;
	a.addr = 0x7f00dead;
	is_str(sym_format(&a, buf, sizeof buf), "0x7f00dead", "format: an unmapped address");
	a.how = SYM_HIDDEN;
	is_str(sym_format(&a, buf, sizeof buf), "kernel address (hidden)", "format: hidden");
	a.how = SYM_OBJECT;
	is_str(sym_format(&a, buf, 5), "[hea", "format: cut to the buffer, ended");
}

int
main(void)
{
	test_syscall_fixtures();
	test_syscall_ops();
	test_syscall_bad();
	test_mutex_owner();
	test_maps();
	test_maps_bad();
	test_kallsyms();
	test_kallsyms_for();
	test_symtab();
	test_format();
	return done_testing();
}
