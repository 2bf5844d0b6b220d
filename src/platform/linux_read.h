/*
 * Private to the Linux backend (linux_cpu.c, linux_task.c,
 * linux_lockstat.c, linux_introspect.c...): reading a /proc or /sys file whole into a buffer that
 * grows to fit, and the words that explain a decoder's errno.
 */
#ifndef SCALETOP_PLATFORM_LINUX_READ_H
#define SCALETOP_PLATFORM_LINUX_READ_H

#include <stddef.h>

/* A growing read buffer; {NULL, 0, 0} is empty, free(data) releases it. */
struct linbuf {
	char *data;
	size_t cap;
	size_t len;
};

/* Doubles the buffer (to LINBUF_INITIAL from empty); -1 with EFBIG past LINBUF_MAX, or ENOMEM. */
int linbuf_grow(struct linbuf *b);
/*
 * The whole file in one pread at offset 0, so the kernel generates one
 * consistent snapshot.  A read that fills the buffer may have been cut, so
 * the buffer grows and the read is redone.  0, or -1 with errno.
 */
int linbuf_pread(int fd, struct linbuf *b);
/*
 * Reads on from b->len to the end of the file (pread at b->len, so a file
 * read from its start needs no seek), growing the buffer: 0, or -1 with
 * errno, EFBIG once the buffer holds max bytes (0: LINBUF_MAX) and the file
 * goes on; b then holds its first ones.  For a seq_file, which hands out
 * about a page a read, and for one whose size is not known.
 */
int linbuf_read_rest(int fd, struct linbuf *b, size_t max);
/* Opens name under the directory dfd, reads it whole and closes it. */
int linbuf_read_at(int dfd, const char *name, struct linbuf *b);
/* Why a decoder failed, from its errno (decode_linux.h), for a message. */
const char *decode_why(int e);

#endif
