/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the Linux backend (linux_cpu.c, linux_task.c,
 * linux_lockstat.c, linux_introspect.c...): reading a /proc or /sys file whole into a buffer that
 * grows to fit, and the words that explain a decoder's errno.
 */
#ifndef SCALETOP_PLATFORM_LINUX_READ_H
#define SCALETOP_PLATFORM_LINUX_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct task_one;

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
/* A CPU or node list file ("0-3,8") under dfd into l; 0, or -1 when missing or malformed. */
struct cpu_list;
int cpulist_read_at(int dfd, const char *name, struct cpu_list *l);
/* Opens path, reads it as linbuf_read_rest does (max as there) and closes it. */
int linbuf_read_path(const char *path, struct linbuf *b, size_t max);
/* Frees b's bytes, errno kept, and returns r: a reader's last line. */
int linbuf_release(struct linbuf *b, int r);
/*
 * A small file (a thread's stat, wchan, schedstat) in one pread at offset 0
 * into a fixed buffer: its length, or -1 with errno (EFBIG when it fills
 * buf, so may have been cut).  small_read_at opens name under dfd first and
 * closes it after.
 */
ssize_t small_pread(int fd, char *buf, size_t cap);
ssize_t small_read_at(int dfd, const char *name, char *buf, size_t cap);
/* close(fd), errno kept: the error of what went before it. */
void close_keep_errno(int fd);
/* Whether a /proc read failed because the process or thread has exited. */
bool proc_gone(int e);
/*
 * The descriptors the backend keeps open from one reading to the next (a
 * thread's files, linux_thread_files.c; a process's task counters,
 * linux_task_reader.c), all together, are capped at half of RLIMIT_NOFILE's
 * soft limit less a reserve, so the workload and everything else the
 * monitor opens keep theirs; past the cap a file is opened, read and closed
 * each time.  kept_fd_take: whether one more may be kept, and if so it is
 * counted; kept_fd_drop: a kept one was closed.
 */
bool kept_fd_take(void);
void kept_fd_drop(void);
/*
 * The same, for files read far less often than a thread's (the task
 * reader's, at most once a second): only while a quarter of the cap is
 * taken, so they never leave the wait sampler, which reads every thread
 * every second, opening its files each time.
 */
bool kept_fd_take_spare(void);

/*
 * A thread's task-counter files, in the order they are read: stat last,
 * since it is required, so a thread that exits part-way is noticed there
 * rather than summed in pieces.  task_file_take: what file `which` says,
 * into t, 0 or -1 with errno (a parse); status without the switch counts
 * leaves them unknown.  linux_task.c.
 */
enum { TASK_FILE_STATUS, TASK_FILE_SCHEDSTAT, TASK_FILE_STAT, TASK_FILES };
extern const char *const task_file_names[TASK_FILES];
int task_file_take(int which, const char *buf, size_t len, struct task_one *t);

/* Why a decoder failed, from its errno (decode_linux.h), for a message. */
const char *decode_why(int e);

#endif
