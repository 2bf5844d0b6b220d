/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the Linux backend reads a file whole (src/platform/linux_read.h):
 * the buffer grows to fit, a read is redone from offset 0, and a decoder's
 * errno has words.  Built on Linux only, like the backend.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/platform/linux_read.h"
#include "../tap.h"

/* A file of len bytes in dir, each byte its offset mod 251. */
static int
write_sized(const char *dir, const char *name, size_t len)
{
	char path[512];
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	for (i = 0; i < len; i++)
		fputc((int)(i % 251), f);
	return fclose(f);
}

static int
bytes_ok(const struct linbuf *b, size_t len)
{
	size_t i;

	if (b->len != len)
		return 0;
	for (i = 0; i < len; i++) {
		if ((unsigned char)b->data[i] != i % 251)
			return 0;
	}
	return 1;
}

static void
test_read(const char *dir)
{
	struct linbuf b = { NULL, 0, 0 };
	int dfd, fd;

	ok(write_sized(dir, "big", 5000) == 0 && write_sized(dir, "small", 10) == 0 &&
		   write_sized(dir, "empty", 0) == 0,
	   "fixture files written");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ok(linbuf_read_at(dfd, "small", &b) == 0 && bytes_ok(&b, 10), "a small file, whole");
	ok(b.cap == 1024, "the buffer starts at 1 KiB");
	ok(linbuf_read_at(dfd, "big", &b) == 0 && bytes_ok(&b, 5000),
	   "a file bigger than the buffer, whole");
	ok(b.cap == 8192, "the buffer doubled until the file fit: %zu", b.cap);
	ok(linbuf_read_at(dfd, "empty", &b) == 0 && b.len == 0, "an empty file");
	fd = openat(dfd, "big", O_RDONLY);
	ok(linbuf_pread(fd, &b) == 0 && linbuf_pread(fd, &b) == 0 && bytes_ok(&b, 5000),
	   "pread from a kept descriptor reads from offset 0 each time");
	close(fd);
	errno = 0;
	ok(linbuf_read_at(dfd, "none", &b) == -1 && errno == ENOENT, "a missing file: ENOENT");
	close(dfd);
	free(b.data);
}

/*
 * A seq_file hands out about a page a read: this process's maps, made
 * longer than a few pages by mappings of its own, must come whole (a single
 * pread got 4084 of 14253 bytes).
 */
static void
test_seq_file(void)
{
	struct linbuf b = { NULL, 0, 0 };
	char *want = NULL, *p[256];
	size_t wlen = 0, cap = 0;
	ssize_t n;
	int fd, i;

	for (i = 0; i < 256; i++) /* every other page, so each is a mapping of its own */
		p[i] = mmap(NULL, 4096, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* both buffers made big first: an allocation between the two reads would change the maps */
	b.cap = 0;
	while (b.cap < (1u << 20) && linbuf_grow(&b) == 0)
		;
	cap = 1u << 20;
	want = malloc(cap);
	fd = open("/proc/self/maps", O_RDONLY);
	ok(fd >= 0 && want != NULL && linbuf_pread(fd, &b) == 0, "this process's maps read");
	/* the same file read with read(2) to its end, as cat does */
	lseek(fd, 0, SEEK_SET);
	while (want != NULL && wlen < cap && (n = read(fd, want + wlen, cap - wlen)) > 0)
		wlen += (size_t)n;
	ok(wlen > 8192, "the maps are longer than two pages (%zu bytes)", wlen);
	ok(b.len == wlen && want != NULL && memcmp(b.data, want, wlen) == 0,
	   "and came whole: %zu of %zu bytes", b.len, wlen);
	close(fd);
	for (i = 0; i < 256; i++)
		munmap(p[i], 4096);
	free(want);
	free(b.data);
}

static void
test_grow_cap(void)
{
	struct linbuf b = { NULL, 0, 0 };
	int r;

	while ((r = linbuf_grow(&b)) == 0)
		;
	ok(r == -1 && errno == EFBIG && b.cap == (64u << 20), "growth stops at 64 MiB with EFBIG");
	free(b.data);
}

static void
test_why(void)
{
	is_str(decode_why(ERANGE), "a number or CPU id is out of range", "decode_why: ERANGE");
	is_str(decode_why(ENOMEM), "out of memory", "decode_why: ENOMEM");
	is_str(decode_why(EINVAL), "unexpected format", "decode_why: anything else");
}

int
main(void)
{
	char dir[] = "/tmp/scaletop-linuxread.XXXXXX";

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp %s: %s\n", dir, strerror(errno));
		return 1;
	}
	test_read(dir);
	test_seq_file();
	test_grow_cap();
	test_why();
	remove_tree(dir);
	return done_testing();
}
