/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A process's task counters read again and again, on Linux (task_reader
 * in platform.h), through its kept thread list and files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/decode_linux.h"
#include "scaletop/error.h"
#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "linux_read.h"

/*
 * The running step's live contention reads every worker thread's status,
 * schedstat and stat once a second.  Each process's thread list is kept,
 * and each thread's files are kept open and read with pread at offset 0: 3
 * system calls a thread, where listing the task directory and opening and
 * closing each thread's files takes 11 a thread and 4 a process.  The list
 * is made again when the process's own stat shows another thread count,
 * or when a kept file reads ESRCH (a thread exited, and another may have
 * come with the count unchanged): the reading then lists at once and
 * starts again.  The descriptors are kept only while a quarter of the
 * backend's cap is taken (kept_fd_take_spare): the wait sampler reads
 * every thread every second and needs them more; past that a file is
 * opened, read and closed each time.  Decoding and the sum are
 * linux_task.c's and decode_task.c's, as task_counters_read.
 */

struct tr_thread {
	pid_t tid;
	int fd[TASK_FILES]; /* -1: not open */
};

struct tr_proc {
	pid_t pid;
	int statfd;  /* /proc/PID/stat, for the thread count; -1: not open */
	long listed; /* the count when listed; -1: list before the next reading */
	struct tr_thread *th;
	size_t nth;
};

struct task_reader {
	struct tr_proc *p;
	size_t np, cap;
	struct linbuf b;
};

struct task_reader *
task_reader_new(void)
{
	return calloc(1, sizeof(struct task_reader));
}

static void
tr_close(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		kept_fd_drop();
	}
	*fd = -1;
}

static void
tr_threads_free(struct tr_proc *p)
{
	size_t i;
	int k;

	for (i = 0; i < p->nth; i++)
		for (k = 0; k < TASK_FILES; k++)
			tr_close(&p->th[i].fd[k]);
	free(p->th);
	p->th = NULL;
	p->nth = 0;
}

void
task_reader_free(struct task_reader *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->np; i++) {
		tr_threads_free(&r->p[i]);
		tr_close(&r->p[i].statfd);
	}
	free(r->p);
	free(r->b.data);
	free(r);
}

/* The process's entry, added when new; NULL without memory. */
static struct tr_proc *
tr_find(struct task_reader *r, pid_t pid)
{
	struct tr_proc *v;
	size_t i;

	for (i = 0; i < r->np; i++)
		if (r->p[i].pid == pid)
			return &r->p[i];
	if (grow_array(&r->p, &r->cap, r->np + 1, sizeof(*r->p), 16) != 0)
		return NULL;
	v = &r->p[r->np++];
	memset(v, 0, sizeof(*v));
	v->pid = pid;
	v->statfd = -1;
	v->listed = -1;
	return v;
}

/* Reads a kept file (opened first, and kept if the cap allows): 0, or -1 with errno. */
static int
tr_pread(int *fd, const char *path, struct linbuf *b)
{
	int f = *fd, r, e;

	if (f < 0) {
		if ((f = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
		if (kept_fd_take_spare())
			*fd = f;
	}
	r = linbuf_pread(f, b);
	e = errno;
	if (*fd != f)
		close(f);
	errno = e;
	return r;
}

/* The process's thread count from its stat: >= 1, or -1 with errno (ESRCH: gone). */
static long
tr_count(struct tr_proc *p, struct linbuf *b)
{
	struct thread_stat st;
	char path[40];

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)p->pid);
	if (tr_pread(&p->statfd, path, b) != 0) {
		if (errno == ENOENT)
			errno = ESRCH;
		return -1;
	}
	if (thread_stat_decode(b->data, b->len, &st) != 0 || st.nthreads < 1)
		return -1;
	return (long)st.nthreads;
}

/* The thread list afresh: the threads still there keep their files. */
static int
tr_list(struct tr_proc *p, long count)
{
	struct tr_thread *v = NULL;
	size_t n = 0, cap = 0, i, j;
	pid_t *tids = NULL;
	size_t ntids = 0;
	int k;

	if (proc_thread_list(p->pid, &tids, &ntids) != 0)
		return -1;
	for (i = 0; i < ntids; i++) {
		if (grow_array(&v, &cap, n + 1, sizeof(*v), 8) != 0) {
			free(v);
			free(tids);
			return -1;
		}
		v[n].tid = tids[i];
		for (k = 0; k < TASK_FILES; k++)
			v[n].fd[k] = -1;
		for (j = 0; j < p->nth; j++) {
			if (p->th[j].tid != tids[i])
				continue;
			v[n] = p->th[j]; /* its files move over */
			p->th[j].tid = -1;
			for (k = 0; k < TASK_FILES; k++)
				p->th[j].fd[k] = -1;
		}
		n++;
	}
	free(tids);
	tr_threads_free(p);
	p->th = v;
	p->nth = n;
	p->listed = count;
	return 0;
}

/* One thread: 1 read, 0 gone (before it was kept), 2 a kept file gone (list again). */
static int
tr_read_one(struct tr_proc *p, struct tr_thread *t, struct linbuf *b, struct task_one *one)
{
	char path[80] = "";
	bool kept;
	int k;

	memset(one, 0, sizeof(*one));
	for (k = 0; k < TASK_FILES; k++) {
		kept = t->fd[k] >= 0;
		if (!kept)
			snprintf(path, sizeof(path), "/proc/%ld/task/%ld/%s", (long)p->pid,
				 (long)t->tid, task_file_names[k]);
		if (tr_pread(&t->fd[k], path, b) != 0) {
			if (k == TASK_FILE_SCHEDSTAT && errno == ENOENT && !kept)
				continue; /* no CONFIG_SCHED_INFO: the run delay is unknown */
			if (proc_gone(errno))
				return kept ? 2 : 0;
			return -1;
		}
		if (task_file_take(k, b->data, b->len, one) != 0)
			return -1;
	}
	return 1;
}

/* The sum over the kept list: 0, 2 when a kept file's thread is gone, -1 with errno. */
static int
tr_sum(struct tr_proc *p, struct linbuf *b, struct task_sum *sum)
{
	struct task_one one;
	size_t i;
	int r;

	task_sum_init(sum);
	for (i = 0; i < p->nth; i++) {
		r = tr_read_one(p, &p->th[i], b, &one);
		if (r == 2 || r < 0)
			return r;
		if (r == 1)
			task_sum_add(sum, &one);
	}
	return 0;
}

static void
tr_drop(struct task_reader *r, struct tr_proc *p)
{
	tr_threads_free(p);
	tr_close(&p->statfd);
	*p = r->p[--r->np];
}

int
task_reader_read(struct task_reader *r, pid_t pid, struct task_counters *out, char *err,
		 size_t errlen)
{
	struct task_sum sum;
	struct tr_proc *p;
	long count;
	int rc = 2, tries, e;

	memset(out, 0, sizeof(*out));
	task_sum_init(&sum);
	if ((p = tr_find(r, pid)) == NULL)
		return st_error(err, errlen, "out of memory reading process %ld", (long)pid);
	/* a kept file gone: list again and read again, a bounded number of times */
	for (tries = 0; rc == 2 && tries < 3; tries++) {
		if ((count = tr_count(p, &r->b)) < 0 ||
		    ((count != p->listed || tries > 0) && tr_list(p, count) != 0)) {
			rc = -1;
			break;
		}
		rc = tr_sum(p, &r->b, &sum);
	}
	if (rc != 0 || sum.c.nthreads == 0) {
		e = rc == -1 && errno != ENOENT ? errno : ESRCH;
		tr_drop(r, p);
		errno = e;
		return st_error(err, errlen, "cannot read the threads of process %ld: %s",
				(long)pid, e == ESRCH ? "it exited" : strerror(e));
	}
	task_sum_finish(&sum, sysconf(_SC_CLK_TCK), out);
	return 0;
}
