/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symboliser (symbols.c, elf_image.c) on ELF files this test builds
 * with the C compiler ($CC, else cc): a shared object, a non-PIE and a PIE
 * program linked to it, a stripped copy of the object (same build ID) and a
 * stripped variant with no build ID, and one whose .symtab is in a separate
 * debug file found by its build ID.  Each program first maps 200 pages
 * apart, so its maps are longer than the page a read of them returns.  Each program prints the
 * addresses of its globals and functions and of the object's, then waits; the test names each
 * address through the running program's maps.  Then a program whose process exited before its
 * objects were read (read from the mapped path while it is the same file; refused once it was
 * replaced), debug files found by .gnu_debuglink (beside, in .debug/, under the debug dir; a
 * wrong CRC refused), why an object went unnamed, and the demangler.  Also the kernel's
 * symbols, when the kernel shows them.  Linux only: it reads /proc.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "scaletop/symbols.h"
#include "../../src/platform/demangle.h"
#include "../tap.h"

static const char lib_c[] = "int lib_counter[16];\n"
			    "int lib_data = 42;\n"
			    "static int lib_hidden(int x) { return x * 3 + lib_data; }\n"
			    "int lib_fn(int x) { return lib_hidden(x) + 1; }\n"
			    "void *lib_hidden_addr(void) { return (void *)lib_hidden; }\n"
			    "void *lib_counter_addr(void) { return &lib_counter[5]; }\n"
			    "void *lib_data_addr(void) { return &lib_data; }\n"
			    "void *lib_fn_addr(void) { return (void *)lib_fn; }\n"
			    "#ifdef VARIANT\n"
			    "int lib_variant = VARIANT;\n"
			    "#endif\n";

/* prog_bss is 64 KiB, so most of it lies in the anonymous mapping after the file's. */
static const char prog_c[] =
	"#include <stdio.h>\n"
	"#include <sys/mman.h>\n"
	"#include <unistd.h>\n"
	"void *lib_hidden_addr(void); void *lib_counter_addr(void);\n"
	"void *lib_data_addr(void); void *lib_fn_addr(void);\n"
	"int prog_bss[16384];\n"
	"int prog_data = 7;\n"
	"const char prog_ro[] = \"read only\";\n"
	"int prog_fn(int x) { return x + prog_bss[x]; }\n"
	"int main(void) {\n"
	"	int local = prog_fn(1), i;\n"
	"	for (i = 0; i < 200; i++)\n"
	"		mmap(NULL, 4096, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,\n"
	"		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"	printf(\"%p %p %p %p %p %p %p %p %p %p\\n\", (void *)&prog_bss[12000],\n"
	"	       (void *)&prog_data, (void *)prog_fn, (void *)prog_ro, "
	"lib_counter_addr(),\n"
	"	       lib_data_addr(), lib_fn_addr(), lib_hidden_addr(), (void *)&local,\n"
	"	       (void *)&prog_bss[3]);\n"
	"	fflush(stdout);\n"
	"	for (;;) pause();\n"
	"}\n";

enum { A_BSS, A_DATA, A_FN, A_RO, A_LCOUNTER, A_LDATA, A_LFN, A_LHIDDEN, A_STACK, A_BSS3, NADDR };

static char dir[] = "/tmp/scaletop-symbols.XXXXXX";
static const char *cc;

static int
run(const char *cmd)
{
	int r = system(cmd);

	if (r != 0)
		diag("failed (%d): %s", r, cmd);
	return r;
}

static int
build(void)
{
	char cmd[4096], path[1024];

	snprintf(path, sizeof path, "%s/lib.c", dir);
	write_file(path, lib_c);
	snprintf(path, sizeof path, "%s/prog.c", dir);
	write_file(path, prog_c);
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir d1 d2 d3 && %s -O0 -shared -fPIC -o d1/libsymt.so lib.c && "
		 "%s -O0 -fno-pie -no-pie -o nopie prog.c -Ld1 -lsymt && "
		 "%s -O0 -fPIE -pie -o pie prog.c -Ld1 -lsymt && "
		 "cp d1/libsymt.so d2/ && strip d2/libsymt.so && "
		 "%s -O0 -shared -fPIC -Wl,--build-id=none -o d3u.so lib.c && "
		 "cp d3u.so d3/libsymt.so && strip d3/libsymt.so && "
		 "%s -O0 -shared -fPIC -DVARIANT=4 -o d4u.so lib.c && mkdir d4 && "
		 "cp d4u.so d4/libsymt.so && strip d4/libsymt.so && "
		 "%s -O0 -shared -fPIC -DVARIANT=5 -o d5u.so lib.c && mkdir -p d5 d6/.debug d7 d8 "
		 "dbg7/%s/d7 && objcopy --only-keep-debug d5u.so libsymt.so.debug && "
		 "strip -o d5/libsymt.so d5u.so && objcopy --add-gnu-debuglink=libsymt.so.debug "
		 "d5/libsymt.so && for d in d6 d7 d8; do cp d5/libsymt.so $d/; done && "
		 "cp libsymt.so.debug d5/ && cp libsymt.so.debug d6/.debug/ && "
		 "cp libsymt.so.debug dbg7/%s/d7/ && cp libsymt.so.debug d8/ && "
		 "printf x >>d8/libsymt.so.debug && mkdir nodebug",
		 dir, cc, cc, cc, cc, cc, cc, dir, dir);
	return run(cmd);
}

struct prog {
	pid_t pid;
	uint64_t a[NADDR];
};

static int
prog_start(struct prog *p, const char *exe, const char *libdir)
{
	char path[1024], lib[1024], line[1024];
	int fd[2], n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, exe);
	snprintf(lib, sizeof lib, "%s/%s", dir, libdir);
	if (pipe(fd) < 0)
		return -1;
	p->pid = fork();
	if (p->pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		setenv("LD_LIBRARY_PATH", lib, 1);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	n = fgets(line, sizeof line, f) != NULL
		    ? sscanf(line, "%lx %lx %lx %lx %lx %lx %lx %lx %lx %lx", &p->a[0], &p->a[1],
			     &p->a[2], &p->a[3], &p->a[4], &p->a[5], &p->a[6], &p->a[7], &p->a[8],
			     &p->a[9])
		    : 0;
	fclose(f);
	return n == NADDR ? 0 : -1;
}

static void
prog_stop(struct prog *p)
{
	kill(p->pid, SIGKILL);
	waitpid(p->pid, NULL, 0);
}

/* The name of addr in pid, in a static buffer. */
static const char *
name(struct symboliser *s, pid_t pid, uint64_t addr)
{
	static char buf[256];
	struct sym_answer a;

	if (sym_user(s, pid, addr, &a) < 0)
		snprintf(buf, sizeof buf, "error %s", strerror(errno));
	else
		sym_format(&a, buf, sizeof buf);
	return buf;
}

static void
test_program(struct symboliser *s, const char *exe)
{
	struct prog p;
	char want[128];

	if (prog_start(&p, exe, "d1") < 0) {
		ok(0, "%s: started and printed its addresses", exe);
		return;
	}
	snprintf(want, sizeof want, "%s:prog_bss+0xbb80", exe);
	is_str(name(s, p.pid, p.a[A_BSS]), want, "deep in .bss (its anonymous mapping)");
	snprintf(want, sizeof want, "%s:prog_bss+0xc", exe);
	is_str(name(s, p.pid, p.a[A_BSS3]), want, "the start of .bss");
	snprintf(want, sizeof want, "%s:prog_data", exe);
	is_str(name(s, p.pid, p.a[A_DATA]), want, ".data");
	snprintf(want, sizeof want, "%s:prog_fn+0x3", exe);
	is_str(name(s, p.pid, p.a[A_FN] + 3), want, "text, inside a function");
	snprintf(want, sizeof want, "%s:prog_ro", exe);
	is_str(name(s, p.pid, p.a[A_RO]), want, ".rodata");
	is_str(name(s, p.pid, p.a[A_LCOUNTER]), "libsymt.so:lib_counter+0x14",
	       "a shared object's .bss");
	is_str(name(s, p.pid, p.a[A_LDATA]), "libsymt.so:lib_data", "a shared object's .data");
	is_str(name(s, p.pid, p.a[A_LFN]), "libsymt.so:lib_fn", "a shared object's function");
	is_str(name(s, p.pid, p.a[A_LHIDDEN]), "libsymt.so:lib_hidden",
	       "a shared object's local function, from .symtab");
	ok(strncmp(name(s, p.pid, p.a[A_STACK]), "[stack]+0x", 10) == 0, "%s: the stack (%s)", exe,
	   name(s, p.pid, p.a[A_STACK]));
	is_str(name(s, p.pid, 0x1000), "0x1000", "an unmapped address");
	prog_stop(&p);
	sym_forget(s, p.pid);
}

/* The ELF address of sym in path's .symtab, or 0. */
static uint64_t
elf_symbol(const char *path, const char *sym)
{
	struct elf_image img;
	char why[256];
	uint64_t v = 0;
	size_t i;

	if (elf_image_load(path, &img, why, sizeof why) < 0)
		return 0;
	for (i = 0; i < img.syms.n; i++)
		if (strcmp(symtab_name(&img.syms, img.syms.sym[i].name), sym) == 0)
			v = img.syms.sym[i].addr;
	elf_image_free(&img);
	return v;
}

static void
test_stripped(struct symboliser *s)
{
	struct sym_stats st0, st1;
	struct prog p;
	char want[128], path[1024], why[300];
	uint64_t v;
	int k;

	/* d2: stripped, the build ID of d1's, whose .symtab was read above. */
	sym_get_stats(s, &st0);
	if (prog_start(&p, "pie", "d2") < 0) {
		ok(0, "pie with d2: started");
		return;
	}
	is_str(name(s, p.pid, p.a[A_LHIDDEN]), "libsymt.so:lib_hidden",
	       "stripped, same build ID: named from the unstripped copy's table");
	sym_get_stats(s, &st1);
	ok(st1.elf_shared > st0.elf_shared, "the stripped copy shares by build ID (%lu shared)",
	   st1.elf_shared);
	prog_stop(&p);
	sym_forget(s, p.pid);

	/* d3: stripped, no build ID: .dynsym only, the local function is an address. */
	if (prog_start(&p, "pie", "d3") < 0) {
		ok(0, "pie with d3: started");
		return;
	}
	snprintf(path, sizeof path, "%s/d3u.so", dir);
	v = elf_symbol(path, "lib_hidden");
	snprintf(want, sizeof want, "libsymt.so+0x%llx", (unsigned long long)v);
	ok(v != 0, "the unstripped d3 has lib_hidden at 0x%llx", (unsigned long long)v);
	is_str(name(s, p.pid, p.a[A_LHIDDEN]), want,
	       "stripped, no build ID: a local function is object+0xVADDR");
	is_str(name(s, p.pid, p.a[A_LFN]), "libsymt.so:lib_fn", "an exported one is in .dynsym");
	while ((k = sym_next_unnamed(s, why, sizeof why)) == 1 &&
	       strstr(why, "libsymt.so: only its exported symbols, .dynsym (stripped, no debug "
			   "file found by build ID or debuglink") != why)
		;
	ok(k == 1, "why is said once: %s", k == 1 ? why : "nothing");
	ok(sym_next_unnamed(s, why, sizeof why) == 0, "and not again");
	prog_stop(&p);
	sym_forget(s, p.pid);
}

/* d4: stripped, its .symtab in DIR/debug/.build-id/xx/rest.debug (objcopy --only-keep-debug). */
static void
test_debug_file(struct symboliser *plain)
{
	struct symboliser *s = sym_new();
	struct elf_image img;
	struct sym_stats st;
	struct prog p;
	char path[1024], cmd[2048], why[256], *q;
	size_t i;

	snprintf(path, sizeof path, "%s/d4u.so", dir);
	if (elf_image_load(path, &img, why, sizeof why) < 0 || img.build_id_len < 2) {
		ok(0, "d4u.so has a build ID (%s)", why);
		sym_free(s);
		return;
	}
	q = cmd + snprintf(cmd, sizeof cmd,
			   "cd %s && mkdir -p debug/.build-id/%02x && "
			   "objcopy --only-keep-debug d4u.so debug/.build-id/%02x/",
			   dir, img.build_id[0], img.build_id[0]);
	for (i = 1; i < img.build_id_len; i++)
		q += sprintf(q, "%02x", img.build_id[i]);
	sprintf(q, ".debug");
	elf_image_free(&img);
	if (run(cmd) != 0 || prog_start(&p, "pie", "d4") < 0) {
		ok(0, "the debug file was made and pie started with d4");
		sym_free(s);
		return;
	}
	snprintf(path, sizeof path, "%s/debug", dir);
	sym_set_debug_dir(s, path);
	is_str(name(s, p.pid, p.a[A_LHIDDEN]), "libsymt.so:lib_hidden",
	       "stripped: a local function named from the debug file found by build ID");
	sym_get_stats(s, &st);
	is_int((long long)st.debug_files, 1, "one object's symbols came from a debug file");
	ok(strncmp(name(plain, p.pid, p.a[A_LHIDDEN]), "libsymt.so+0x", 13) == 0,
	   "without that debug directory, it is object+0xVADDR (%s)",
	   name(plain, p.pid, p.a[A_LHIDDEN]));
	prog_stop(&p);
	sym_free(s);
	sym_forget(plain, p.pid);
}

static void
test_elf(void)
{
	struct elf_image img;
	char path[1024], why[256];

	snprintf(path, sizeof path, "%s/nopie", dir);
	ok(elf_image_load(path, &img, why, sizeof why) == 0 && img.type == 2 &&
		   strcmp(img.table, ".symtab") == 0 && img.build_id_len == 20,
	   "non-PIE: ET_EXEC, .symtab, a 20-byte build ID");
	elf_image_free(&img);
	snprintf(path, sizeof path, "%s/pie", dir);
	ok(elf_image_load(path, &img, why, sizeof why) == 0 && img.type == 3 && img.nseg >= 2,
	   "PIE: ET_DYN, its PT_LOAD segments");
	elf_image_free(&img);
	snprintf(path, sizeof path, "%s/d3/libsymt.so", dir);
	ok(elf_image_load(path, &img, why, sizeof why) == 0 && strcmp(img.table, ".dynsym") == 0 &&
		   img.build_id_len == 0,
	   "stripped: .dynsym, no build ID");
	elf_image_free(&img);
	snprintf(path, sizeof path, "%s/lib.c", dir);
	errno = 0;
	ok(elf_image_load(path, &img, why, sizeof why) < 0 && errno == ENOEXEC &&
		   strstr(why, "lib.c: not an ELF file") != NULL,
	   "a C source is not ELF: %s", why);
	errno = 0;
	ok(elf_image_load("/dev/null", &img, why, sizeof why) < 0 && errno == ENOEXEC,
	   "a device is not opened: %s", why);
	snprintf(path, sizeof path, "%s/none", dir);
	ok(elf_image_load(path, &img, why, sizeof why) < 0 && errno == ENOENT,
	   "a missing file: ENOENT (%s)", why);
}

/* A batch of kernel addresses costs one read of kallsyms, and only their symbols are kept. */
static void
test_kernel_batch(struct symboliser *s, const struct symtab *t)
{
	struct sym_stats st0, st1;
	struct sym_answer a;
	uint64_t addr[50];
	size_t i, k = 0, right = 0;

	for (i = 0; i < t->n && k < 50; i += t->n / 50 + 1)
		if (t->sym[i].type == 't' || t->sym[i].type == 'T')
			addr[k++] = t->sym[i].addr;
	sym_get_stats(s, &st0);
	ok(sym_kernel_prepare(s, addr, k) == 0, "%zu kernel addresses prepared", k);
	sym_get_stats(s, &st1);
	is_int((long long)(st1.kernel_reads - st0.kernel_reads), 1, "with one read of kallsyms");
	for (i = 0; i < k; i++)
		right += sym_kernel(s, addr[i], &a) == 0 && a.how == SYM_SYMBOL && a.offset == 0;
	is_int((long long)right, (long long)k, "each is named at its symbol's start");
	sym_get_stats(s, &st0);
	is_int((long long)(st0.kernel_reads - st1.kernel_reads), 0,
	       "naming them read nothing more");
	ok(st0.symbols < 200, "the table keeps what was asked for, not all %zu: %zu held", t->n,
	   st0.symbols);
	/* no kernel symbol lies below the kernel's text: once asked, that is known too */
	addr[0] = 0x1000;
	ok(sym_kernel_prepare(s, addr, 1) == 0, "an address no symbol covers prepared");
	sym_get_stats(s, &st1);
	ok(sym_kernel(s, addr[0], &a) == 0 && a.how == SYM_UNMAPPED, "it is answered unmapped");
	ok(sym_kernel(s, addr[0], &a) == 0 && a.how == SYM_UNMAPPED, "again");
	sym_get_stats(s, &st0);
	is_int((long long)(st0.kernel_reads - st1.kernel_reads), 0,
	       "naming it read kallsyms no more");
}

static void
test_kernel(struct symboliser *s)
{
	struct symtab t = { 0 };
	struct sym_answer a;
	char buf[256];
	uint64_t addr = 0;
	size_t i;
	int hidden = 0, r;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = kernel_symbols_read(&t, &hidden);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	diag("cost: /proc/kallsyms read and sorted, %zu symbols, in %.0f ms", t.n,
	     (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	if (r < 0) {
		ok(0, "kallsyms read (%s)", strerror(errno));
		return;
	}
	is_int(sym_kernel(s, 0xffffffff81000000ull, &a), 0, "a kernel address is answered");
	if (hidden) {
		is_int(a.how, SYM_HIDDEN, "kernel: hidden addresses say so");
		skip("the kernel hides its symbols' addresses (kptr_restrict, or not root)",
		     "kernel: schedule+0x4");
		return;
	}
	for (i = 0; i < t.n && addr == 0; i++)
		if (strcmp(symtab_name(&t, t.sym[i].name), "schedule") == 0)
			addr = t.sym[i].addr;
	sym_kernel(s, addr + 4, &a);
	is_str(sym_format(&a, buf, sizeof buf), "kernel:schedule+0x4", "kernel: schedule+0x4");
	test_kernel_batch(s, &t);
	symtab_free(&t);
}

/* Shared memory in a file that is no ELF: a mapping, so the census names its lock by call site. */
static void
test_shared_file(struct symboliser *s)
{
	char path[600];
	struct sym_answer a;
	void *p;
	int fd, r;

	snprintf(path, sizeof path, "%s/shared.bin", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 8192) != 0) {
		ok(0, "a file to share: %s", strerror(errno));
		return;
	}
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		ok(0, "the file is mapped: %s", strerror(errno));
		return;
	}
	r = sym_user(s, getpid(), (uint64_t)(uintptr_t)p + 4100, &a);
	ok(r == 0 && a.how == SYM_MAPPING && a.object != NULL &&
		   strstr(a.object, "shared.bin") != NULL && a.offset == 4100,
	   "a word in a shared file that is no ELF is a mapping's: %s+0x%llx",
	   a.object != NULL ? a.object : "?", (unsigned long long)a.offset);
	munmap(p, 8192);
}

/* p's maps read but none of its objects: then it exits before anything in it is named. */
static int
prog_seen_then_gone(struct symboliser *s, struct prog *p, const char *exe)
{
	struct sym_answer a;

	if (prog_start(p, exe, "d1") < 0)
		return -1;
	(void)sym_user_cached(s, p->pid, 0, &a);
	prog_stop(p);
	return 0;
}

static int
in_dir(const char *what)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, "cd %s && %s", dir, what);
	return run(cmd);
}

static void
test_exited(void)
{
	struct symboliser *s = sym_new();
	struct prog p, q;
	char why[300];

	if (in_dir("cp pie ex1 && cp pie ex2 && cp pie ex3") != 0 ||
	    prog_seen_then_gone(s, &p, "ex1") < 0 || prog_seen_then_gone(s, &q, "ex2") < 0) {
		ok(0, "ex1 and ex2 ran and exited");
		sym_free(s);
		return;
	}
	is_str(name(s, p.pid, p.a[A_FN] + 3), "ex1:prog_fn+0x3",
	       "exited, its file the same (device, inode): read from the mapped path");
	in_dir("cp pie ex2.new && mv ex2.new ex2"); /* a new inode: made before the old is freed */
	ok(strncmp(name(s, q.pid, q.a[A_FN]), "ex2+0x", 6) == 0,
	   "exited, its file replaced: not read, an offset (%s)", name(s, q.pid, q.a[A_FN]));
	ok(sym_next_unnamed(s, why, sizeof why) == 1 && strstr(why, "ex2: no symbols") == why &&
		   strstr(why, "not the one it mapped") != NULL,
	   "and why is said: %s", why);
	ok(sym_next_unnamed(s, why, sizeof why) == 0, "once");
	if (prog_seen_then_gone(s, &p, "ex3") < 0 || in_dir("mv ex3 ex3.away") != 0) {
		ok(0, "ex3 ran, exited and was moved away");
		sym_free(s);
		return;
	}
	ok(strncmp(name(s, p.pid, p.a[A_FN]), "ex3+0x", 6) == 0,
	   "exited, its file moved away: an offset (%s)", name(s, p.pid, p.a[A_FN]));
	if (in_dir("mv ex3.away ex3") != 0 || prog_start(&q, "ex3", "d1") < 0) {
		ok(0, "ex3 moved back and started again");
		sym_free(s);
		return;
	}
	is_str(name(s, q.pid, q.a[A_FN] + 3), "ex3:prog_fn+0x3",
	       "the same file in a live process: read then (the failure was not kept)");
	prog_stop(&q);
	sym_free(s);
}

/* The stripped libsymt.so of libdir, its debug file found by .gnu_debuglink (or not). */
static void
test_debuglink_in(const char *libdir, const char *debug_dir, int found, const char *what)
{
	struct symboliser *s = sym_new();
	struct prog p;
	char path[1024];
	const char *got;

	snprintf(path, sizeof path, "%s/%s", dir, debug_dir);
	sym_set_debug_dir(s, path);
	if (prog_start(&p, "pie", libdir) < 0) {
		ok(0, "pie with %s: started", libdir);
		sym_free(s);
		return;
	}
	got = name(s, p.pid, p.a[A_LHIDDEN]);
	if (found)
		is_str(got, "libsymt.so:lib_hidden", what);
	else
		ok(strncmp(got, "libsymt.so+0x", 13) == 0, "%s (%s)", what, got);
	prog_stop(&p);
	sym_free(s);
}

static void
test_debuglink(void)
{
	char path[1024];
	uint32_t crc = 0;
	int r;

	snprintf(path, sizeof path, "%s/crc.txt", dir);
	write_file(path, "123456789");
	r = elf_file_crc(path, &crc);
	ok(r == 0 && crc == 0xcbf43926u, "CRC-32 of 123456789: 0x%08x", crc);
	test_debuglink_in("d5", "nodebug", 1, "debuglink: the debug file beside the object");
	test_debuglink_in("d6", "nodebug", 1, "debuglink: in the object's .debug/ folder");
	test_debuglink_in("d7", "dbg7", 1,
			  "debuglink: under the debug dir, by the object's folder");
	test_debuglink_in("d8", "nodebug", 0, "debuglink: a debug file of another CRC is refused");
}

static void
test_demangle(void)
{
	static const char m[] = "_ZN5tpool19thread_pool_generic14wait_for_tasksERSt11unique_"
				"lockISt5mutexEPNS_11worker_dataE";
	struct demangle_cache c = { 0 };
	const char *r;
	int missing = 0;

	r = demangle_cached(&c, m, &missing);
	if (demangle_missing() == NULL) {
		is_str(r, "tpool::thread_pool_generic::wait_for_tasks",
		       "a C++ name demangled, without its parameters");
		ok(demangle_cached(&c, m, &missing) == r && !missing,
		   "kept: the same string again");
	} else {
		ok(r == m && missing, "no demangler: the name stands, and that is said");
	}
	is_str(demangle_cached(&c, "lib_fn", &missing), "lib_fn", "a C name stands");
	demangle_cache_free(&c);
}

int
main(void)
{
	struct symboliser *s = sym_new();
	struct sym_answer a;

	cc = getenv("CC") != NULL && getenv("CC")[0] != '\0' ? getenv("CC") : "cc";
	if (mkdtemp(dir) == NULL || build() != 0) {
		ok(0, "the test's ELF files were built with %s", cc);
		return done_testing();
	}
	test_elf();
	test_program(s, "nopie");
	test_program(s, "pie");
	test_stripped(s);
	test_debug_file(s);
	test_shared_file(s);
	test_exited();
	test_debuglink();
	test_demangle();
	errno = 0;
	ok(sym_user(s, 999999999, 0x1000, &a) < 0 && errno == ESRCH, "a process gone: ESRCH");
	test_kernel(s);
	sym_free(s);
	remove_tree(dir);
	return done_testing();
}
