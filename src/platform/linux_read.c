/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the Linux backend reads /proc and /sys: each file whole, with pread at
 * offset 0 from a descriptor kept open, into a buffer that grows once to fit
 * and stays grown; no stdio and no reopening.  See linux_read.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "scaletop/decode_linux.h"
#include "linux_read.h"

/*
 * Starts small so that the growth path runs on every machine, tests included;
 * it grows once, to fit, and stays grown.
 */
#define LINBUF_INITIAL 1024
/* Far above /proc/stat for 8192 CPUs; a file this big is not one we know. */
#define LINBUF_MAX (64u << 20)

int
linbuf_grow(struct linbuf *b)
{
	size_t ncap = b->cap > 0 ? b->cap * 2 : LINBUF_INITIAL;
	char *p;

	if (ncap > LINBUF_MAX) {
		errno = EFBIG;
		return -1;
	}
	p = realloc(b->data, ncap);
	if (p == NULL) {
		errno = ENOMEM;
		return -1;
	}
	b->data = p;
	b->cap = ncap;
	return 0;
}

/*
 * A seq_file (/proc/cpuinfo, /proc/PID/maps, /proc/lock_stat) hands out
 * about a page a read, whatever the buffer: 4084 of 14253 bytes of a
 * process's maps came from one 1 MiB pread.  A short read of at least this
 * much may be such a piece, so reading goes on to the end; a shorter one is
 * the whole file (the small files a tick reads, stat and schedstat, are
 * read once).
 */
#define LINBUF_SEQ_PIECE 2048

int
linbuf_read_rest(int fd, struct linbuf *b, size_t max)
{
	ssize_t n;

	for (;;) {
		if (b->len == b->cap && max > 0 && b->cap >= max) {
			errno = EFBIG;
			return -1;
		}
		if (b->len == b->cap && linbuf_grow(b) != 0)
			return -1;
		n = pread(fd, b->data + b->len, b->cap - b->len, (off_t)b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		b->len += (size_t)n;
	}
}

/*
 * The whole file from offset 0, which makes the kernel generate the text
 * afresh.  A read that fills the buffer may have been cut, so the buffer
 * grows and the read is redone; one that may be a seq_file's piece is read
 * on to the end.
 */
int
linbuf_pread(int fd, struct linbuf *b)
{
	ssize_t n;

	if (b->cap == 0 && linbuf_grow(b) != 0)
		return -1;
	for (;;) {
		n = pread(fd, b->data, b->cap, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if ((size_t)n < b->cap) {
			b->len = (size_t)n;
			return n >= LINBUF_SEQ_PIECE ? linbuf_read_rest(fd, b, 0) : 0;
		}
		if (linbuf_grow(b) != 0)
			return -1;
	}
}

/* Opens name under the directory dfd, reads it whole and closes it. */
int
linbuf_read_at(int dfd, const char *name, struct linbuf *b)
{
	int fd, r;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = linbuf_pread(fd, b);
	close_keep_errno(fd);
	return r;
}

int
cpulist_read_at(int dfd, const char *name, struct cpu_list *l)
{
	struct linbuf b = { NULL, 0, 0 };
	int r = -1;

	if (linbuf_read_at(dfd, name, &b) == 0)
		r = cpulist_decode(b.data, b.len, l);
	free(b.data);
	return r;
}

int
linbuf_read_path(const char *path, struct linbuf *b, size_t max)
{
	int fd, r;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = linbuf_read_rest(fd, b, max);
	close_keep_errno(fd);
	return r;
}

int
linbuf_release(struct linbuf *b, int r)
{
	int e = errno;

	free(b->data);
	b->data = NULL;
	b->cap = b->len = 0;
	errno = e;
	return r;
}

ssize_t
small_pread(int fd, char *buf, size_t cap)
{
	ssize_t n;

	do
		n = pread(fd, buf, cap, 0);
	while (n < 0 && errno == EINTR);
	if (n >= 0 && (size_t)n == cap) {
		errno = EFBIG;
		return -1;
	}
	return n;
}

ssize_t
small_read_at(int dfd, const char *name, char *buf, size_t cap)
{
	ssize_t n;
	int fd;

	if ((fd = openat(dfd, name, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = small_pread(fd, buf, cap);
	close_keep_errno(fd);
	return n;
}

void
close_keep_errno(int fd)
{
	int e = errno;

	close(fd);
	errno = e;
}

bool
proc_gone(int e)
{
	return e == ENOENT || e == ESRCH;
}

const char *
decode_why(int e)
{
	switch (e) {
	case ERANGE:
		return "a number or CPU id is out of range";
	case ENOMEM:
		return "out of memory";
	default:
		return "unexpected format";
	}
}

/* Descriptors left for everything else the monitor opens. */
#define KEPT_FD_RESERVE 64

static int kept_fds;      /* descriptors kept open, all together */
static int kept_cap = -1; /* -1: not yet known */

static void
kept_fd_cap(void)
{
	struct rlimit rl;
	rlim_t lim = 1024;

	if (kept_cap < 0) {
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
			lim = rl.rlim_cur;
		if (lim == RLIM_INFINITY || lim > 1048576)
			lim = 1048576;
		kept_cap = lim / 2 > KEPT_FD_RESERVE ? (int)(lim / 2 - KEPT_FD_RESERVE) : 0;
	}
}

bool
kept_fd_take(void)
{
	kept_fd_cap();
	if (kept_fds >= kept_cap)
		return false;
	kept_fds++;
	return true;
}

bool
kept_fd_take_spare(void)
{
	kept_fd_cap();
	if (kept_fds >= kept_cap / 4)
		return false;
	kept_fds++;
	return true;
}

void
kept_fd_drop(void)
{
	if (kept_fds > 0)
		kept_fds--;
}
