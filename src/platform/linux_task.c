/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-process reading on Linux, OS calls only: the summed counters of a
 * process's threads (/proc/PID/task/TID/{status,schedstat,stat}) and the
 * table of every process's parent and group (/proc/PID/stat).  A thread or
 * process that exits while it is read drops out; all parsing is in
 * decode_task.c.
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

/* One line naming the thread's file; why is strerror() for a read, decode_why() for a parse. */
static int
task_error(char *err, size_t errlen, long pid, const char *tid, const char *file, const char *what,
	   int e)
{
	const char *why = strcmp(what, "parse") == 0 ? decode_why(e) : strerror(e);

	st_error(err, errlen, "cannot %s /proc/%ld/task/%s/%s: %s: please report it", what, pid,
		 tid, file, why);
	errno = e;
	return -1;
}

/* A read failed: 0 if the thread exited meanwhile (it drops out), else -1 and a message. */
static int
task_lost(char *err, size_t errlen, long pid, const char *tid, const char *file)
{
	if (proc_gone(errno))
		return 0;
	return task_error(err, errlen, pid, tid, file, "read", errno);
}

const char *const task_file_names[TASK_FILES] = { "status", "schedstat", "stat" };

int
task_file_take(int which, const char *buf, size_t len, struct task_one *t)
{
	switch (which) {
	case TASK_FILE_STATUS:
		if (task_status_decode(buf, len, &t->status) == 0)
			t->have |= TASK_HAVE_CSW;
		else if (errno != ENOENT)
			return -1;
		return 0;
	case TASK_FILE_SCHEDSTAT:
		if (task_schedstat_decode(buf, len, &t->sched) != 0)
			return -1;
		t->have |= TASK_HAVE_RUN_DELAY;
		return 0;
	default:
		if (task_stat_decode(buf, len, &t->stat) != 0)
			return -1;
		t->have |= TASK_HAVE_CPU;
		return 0;
	}
}

/*
 * Reads one thread.  1 when read, 0 when it vanished, -1 with a message.
 * schedstat is absent without CONFIG_SCHED_INFO: the run delay is then
 * unknown.
 */
static int
task_read_one(int taskfd, const char *tid, long pid, struct linbuf *b, struct task_one *t,
	      char *err, size_t errlen)
{
	int tfd, i, r = 1;

	memset(t, 0, sizeof(*t));
	tfd = openat(taskfd, tid, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return task_lost(err, errlen, pid, tid, "");
	for (i = 0; i < TASK_FILES && r == 1; i++) {
		if (linbuf_read_at(tfd, task_file_names[i], b) != 0) {
			if (i == TASK_FILE_SCHEDSTAT && proc_gone(errno))
				continue;
			r = task_lost(err, errlen, pid, tid, task_file_names[i]);
		} else if (task_file_take(i, b->data, b->len, t) != 0)
			r = task_error(err, errlen, pid, tid, task_file_names[i], "parse", errno);
	}
	close(tfd);
	return r;
}

static int
task_open_dir(pid_t pid, char *err, size_t errlen)
{
	char path[64];
	int fd, e;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	e = errno;
	if (e == ENOENT || pid <= 0) {
		st_error(err, errlen, "no process with pid %ld: has the workload exited?",
			 (long)pid);
		e = ESRCH;
	} else
		st_error(err, errlen, "cannot open %s: %s: is /proc mounted with hidepid?", path,
			 strerror(e));
	errno = e;
	return -1;
}

static int
task_scan(DIR *dir, pid_t pid, struct task_sum *sum, char *err, size_t errlen)
{
	struct linbuf b = { NULL, 0, 0 };
	struct task_one t;
	struct dirent *de;
	int r = 0, e;

	for (;;) {
		errno = 0;
		de = readdir(dir);
		if (de == NULL)
			break;
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		r = task_read_one(dirfd(dir), de->d_name, (long)pid, &b, &t, err, errlen);
		if (r < 0)
			break;
		if (r == 1)
			task_sum_add(sum, &t);
		r = 0;
	}
	e = errno;
	if (r == 0 && e != 0)
		r = st_error(err, errlen, "cannot list /proc/%ld/task: %s", (long)pid, strerror(e));
	free(b.data);
	errno = e;
	return r;
}

int
task_counters_read(pid_t pid, struct task_counters *out, char *err, size_t errlen)
{
	struct task_sum sum;
	DIR *dir;
	int fd, r, e;

	memset(out, 0, sizeof(*out));
	task_sum_init(&sum);
	fd = task_open_dir(pid, err, errlen);
	if (fd < 0)
		return -1;
	dir = fdopendir(fd);
	if (dir == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return st_error(err, errlen, "cannot list /proc/%ld/task: %s", (long)pid,
				strerror(e));
	}
	r = task_scan(dir, pid, &sum, err, errlen);
	e = errno;
	closedir(dir);
	if (r != 0) {
		errno = e;
		return -1;
	}
	if (sum.c.nthreads == 0) {
		errno = ESRCH;
		return st_error(err, errlen, "process %ld exited while its threads were read",
				(long)pid);
	}
	task_sum_finish(&sum, sysconf(_SC_CLK_TCK), out);
	return 0;
}

/* --- the process table ------------------------------------------------------ */

/* One /proc/PID/stat into t; 0, or -1 when the process is gone or unreadable. */
static int
proc_link_read(int procfd, const char *name, struct linbuf *b, struct proc_link *t)
{
	char path[sizeof("/stat") + 20];
	struct task_stat st;

	if (strlen(name) > 20)
		return -1; /* not a pid */
	snprintf(path, sizeof(path), "%.20s/stat", name);
	if (linbuf_read_at(procfd, path, b) != 0 || task_stat_decode(b->data, b->len, &st) != 0)
		return -1;
	t->pid = (pid_t)strtol(name, NULL, 10);
	t->ppid = (pid_t)st.ppid;
	t->pgid = (pid_t)st.pgid;
	t->zombie = st.state == 'Z';
	return 0;
}

static bool
proc_is_pid_name(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return false;
	}
	return true;
}

/*
 * Reads one record for each process in /proc through one(procfd, name, buf,
 * record, arg), into a malloc'ed array of records of size elem (*out, *n):
 * the walk proc_table_read and proc_cpu_read share.  A process gone or
 * unreadable mid-walk is left out.
 */
typedef int (*proc_one_fn)(int procfd, const char *name, struct linbuf *b, void *rec, void *arg);

static int
proc_walk(size_t elem, proc_one_fn one, void *arg, void **out, size_t *n)
{
	struct linbuf b = { NULL, 0, 0 };
	char *t = NULL;
	size_t cap = 0, len = 0;
	struct dirent *de;
	DIR *dir;
	int e = 0;

	*out = NULL;
	*n = 0;
	if ((dir = opendir("/proc")) == NULL)
		return -1;
	while ((errno = 0, de = readdir(dir)) != NULL) {
		if (!proc_is_pid_name(de->d_name))
			continue;
		if (grow_array(&t, &cap, len + 1, elem, 256) != 0) {
			e = ENOMEM;
			break;
		}
		if (one(dirfd(dir), de->d_name, &b, t + len * elem, arg) == 0)
			len++;
	}
	if (e == 0)
		e = errno;
	closedir(dir);
	free(b.data);
	if (e != 0) {
		free(t);
		errno = e;
		return -1;
	}
	*out = t;
	*n = len;
	return 0;
}

static int
proc_link_one(int procfd, const char *name, struct linbuf *b, void *rec, void *arg)
{
	(void)arg;
	return proc_link_read(procfd, name, b, rec);
}

int
proc_table_read(struct proc_link **out, size_t *n)
{
	void *t;
	int rc = proc_walk(sizeof(**out), proc_link_one, NULL, &t, n);

	*out = t;
	return rc;
}

/* --- every process's CPU time (others.h) ------------------------------------ */

/* One /proc/PID/stat into t; 0, or -1 when the process is gone or unreadable. */
static int
proc_cpu_one(int procfd, const char *name, struct linbuf *b, long hz, struct proc_cpu *t)
{
	char path[sizeof("/stat") + 20];

	if (strlen(name) > 20)
		return -1;
	snprintf(path, sizeof(path), "%.20s/stat", name);
	if (linbuf_read_at(procfd, path, b) != 0)
		return -1;
	return proc_cpu_stat_decode(b->data, b->len, hz, t);
}

static int
proc_cpu_walk_one(int procfd, const char *name, struct linbuf *b, void *rec, void *arg)
{
	return proc_cpu_one(procfd, name, b, *(const long *)arg, rec);
}

int
proc_cpu_read(struct proc_cpu **out, size_t *n)
{
	long hz = sysconf(_SC_CLK_TCK);
	void *t;
	int rc = proc_walk(sizeof(**out), proc_cpu_walk_one, &hz, &t, n);

	*out = t;
	return rc;
}
