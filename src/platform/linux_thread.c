/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a --target and the wait sampler read on Linux, OS calls only: each
 * thread's state, wait channel and schedstat times
 * (/proc/PID/task/TID/{stat,wchan,schedstat}), the processes of a command
 * name (/proc/PID/comm), a process's start time, and a cgroup v2 group's
 * tasks and CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/decode_linux.h"
#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "linux_read.h"

/*
 * Each file is read with one openat relative to a directory opened once per
 * call, and only what the thread's state needs: the channel of a sleeper,
 * the times of a runnable thread.  A thread or process that exits while it
 * is read is skipped, as is normal.  Parsing is in decode_thread.c and
 * decode_cgroup.c.
 */

/* stat is about 300 bytes (the comm is at most 15); wchan and schedstat far less. */
#define SMALL_FILE 1024

static bool
pid_name(const char *s, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end == '\0' && errno == 0 && *v > 0 && *v <= INT_MAX;
}

/* --- threads ------------------------------------------------------------ */

/*
 * A thread's schedstat times, whatever its state: between two readings they
 * say how much of the interval it ran and waited for a CPU, which the state
 * letter at one instant cannot (a database backend runs and sleeps many
 * times between two readings).  A kernel without schedstats leaves them out.
 */
static void
thread_times(int taskfd, const char *tid, struct thread_sample *t)
{
	struct task_schedstat ss;
	char path[32], buf[128];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/schedstat", tid);
	if ((n = small_read_at(taskfd, path, buf, sizeof(buf))) < 0 ||
	    task_schedstat_decode(buf, (size_t)n, &ss) != 0 || ss.cpu_ns == 0)
		return;
	t->cpu_ns = ss.cpu_ns;
	t->run_delay_ns = ss.run_delay_ns;
	t->have |= THREAD_HAVE_TIMES;
}

/* Where a sleeping thread sleeps; "" when the kernel will not say. */
static void
thread_channel(int taskfd, const char *tid, struct thread_sample *t)
{
	char path[32], buf[128];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/wchan", tid);
	if ((n = small_read_at(taskfd, path, buf, sizeof(buf))) < 0 ||
	    wchan_decode(buf, (size_t)n, t->channel, sizeof(t->channel)) != 0)
		t->channel[0] = '\0';
}

/* One thread: 1 read, 0 gone (or unreadable: skipped, like a thread that exited). */
static int
thread_read_one(int taskfd, pid_t pid, pid_t tid, struct thread_sample *t)
{
	struct thread_stat st;
	char name[16], path[32], buf[SMALL_FILE];
	ssize_t n;

	memset(t, 0, sizeof(*t));
	snprintf(name, sizeof(name), "%ld", (long)tid);
	snprintf(path, sizeof(path), "%s/stat", name);
	if ((n = small_read_at(taskfd, path, buf, sizeof(buf))) < 0 ||
	    thread_stat_decode(buf, (size_t)n, &st) != 0)
		return 0;
	t->pid = pid;
	t->tid = tid;
	t->state = thread_state_of(st.state);
	thread_times(taskfd, name, t);
	if (t->state == THREAD_SLEEPING || t->state == THREAD_DISK)
		thread_channel(taskfd, name, t);
	return 1;
}

static int
tid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The tids in the task directory, ascending, malloc'ed. */
static int
thread_list(int taskfd, pid_t **out, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	pid_t *v = NULL;
	DIR *dir;
	long id;
	int fd;

	*n = 0;
	if ((fd = dup(taskfd)) < 0 || (dir = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((de = readdir(dir)) != NULL) {
		if (!pid_name(de->d_name, &id))
			continue;
		if (grow_array(&v, &cap, *n + 1, sizeof(*v), 64) != 0) {
			free(v);
			closedir(dir);
			return -1;
		}
		v[(*n)++] = (pid_t)id;
	}
	closedir(dir);
	qsort(v, *n, sizeof(*v), tid_cmp);
	*out = v;
	return 0;
}

static int
task_dir_open(pid_t pid)
{
	char path[48];
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && proc_gone(errno))
		errno = ESRCH;
	return fd;
}

int
thread_samples_read_from(pid_t pid, pid_t after, int max, thread_sample_cb cb, void *arg,
			 pid_t *next)
{
	struct thread_sample t;
	pid_t *tids = NULL;
	size_t n = 0, i;
	int fd, got = 0;

	*next = 0;
	if (pid <= 0) {
		errno = ESRCH;
		return -1;
	}
	if ((fd = task_dir_open(pid)) < 0)
		return -1;
	if (thread_list(fd, &tids, &n) != 0) {
		close(fd);
		return -1;
	}
	for (i = 0; i < n && got < max; i++) {
		if (tids[i] <= after)
			continue;
		*next = tids[i];
		if (thread_read_one(fd, pid, tids[i], &t) == 1) {
			cb(&t, arg);
			got++;
		}
	}
	if (i == n)
		*next = 0;
	free(tids);
	close(fd);
	return 0;
}

int
proc_thread_list(pid_t pid, pid_t **tids, size_t *n)
{
	int fd, r;

	*tids = NULL;
	*n = 0;
	if (pid <= 0) {
		errno = ESRCH;
		return -1;
	}
	if ((fd = task_dir_open(pid)) < 0)
		return -1;
	r = thread_list(fd, tids, n);
	close_keep_errno(fd);
	return r;
}

int
thread_samples_read(pid_t pid, thread_sample_cb cb, void *arg)
{
	pid_t next;

	return thread_samples_read_from(pid, 0, INT_MAX, cb, arg, &next);
}

/* --- processes ------------------------------------------------------------ */

/* Whether /proc/NAME/comm is comm; a process that exits meanwhile is not. */
static bool
comm_is(int procfd, const char *name, const char *comm)
{
	char path[40], buf[64], got[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%.20s/comm", name);
	if ((n = small_read_at(procfd, path, buf, sizeof(buf))) < 0 ||
	    comm_decode(buf, (size_t)n, got, sizeof(got)) != 0)
		return false;
	return strcmp(got, comm) == 0;
}

int
proc_comm(pid_t pid, char *out, size_t len)
{
	char path[40], buf[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	if ((n = small_read_at(AT_FDCWD, path, buf, sizeof(buf))) < 0)
		return -1;
	if (comm_decode(buf, (size_t)n, out, len) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
proc_find_comm(const char *comm, pid_t **out, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	pid_t *v = NULL;
	DIR *dir;
	long id;
	int e = 0;

	*out = NULL;
	*n = 0;
	if ((dir = opendir("/proc")) == NULL)
		return -1;
	while ((errno = 0, de = readdir(dir)) != NULL) {
		if (!pid_name(de->d_name, &id) || !comm_is(dirfd(dir), de->d_name, comm))
			continue;
		if (grow_array(&v, &cap, *n + 1, sizeof(*v), 16) != 0) {
			e = ENOMEM;
			break;
		}
		v[(*n)++] = (pid_t)id;
	}
	closedir(dir);
	if (e != 0) {
		free(v);
		*n = 0;
		errno = e;
		return -1;
	}
	*out = v;
	return 0;
}

static uint64_t
ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t h = hz > 0 ? (uint64_t)hz : 100;

	return ticks / h * 1000000000u + ticks % h * 1000000000u / h;
}

int
proc_start_ns(pid_t pid, uint64_t *start_ns)
{
	struct thread_stat st;
	char path[48], buf[SMALL_FILE];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((n = small_read_at(AT_FDCWD, path, buf, sizeof(buf))) < 0) {
		if (proc_gone(errno))
			errno = ESRCH;
		return -1;
	}
	if (thread_stat_decode(buf, (size_t)n, &st) != 0)
		return -1;
	*start_ns = ticks_ns(st.start_ticks);
	return 0;
}

uint64_t
proc_clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- cgroup v2 ------------------------------------------------------------ */

/* A v2 group's directory has cgroup.controllers; a v1 hierarchy's has not. */
static int
cgroup_check(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/cgroup.controllers", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (access(path, R_OK) == 0)
		return 0;
	if (errno == ENOENT && access(dir, F_OK) == 0)
		errno = EINVAL;
	return -1;
}

int
cgroup_dir(const char *path, char *out, size_t len)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	size_t i;
	int e = ENOENT;

	if (path[0] == '/') {
		if (snprintf(out, len, "%s", path) >= (int)len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return cgroup_check(out);
	}
	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		if (snprintf(out, len, "%s/%s", roots[i], path) >= (int)len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (cgroup_check(out) == 0)
			return 0;
		if (errno != ENOENT) {
			e = errno;
			break; /* out names the directory that is there but not a v2 group */
		}
	}
	errno = e;
	return -1;
}

/* dir/name read whole, into b. */
static int
cgroup_file(const char *dir, const char *name, struct linbuf *b)
{
	int fd, r;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	r = linbuf_read_at(fd, name, b);
	close(fd);
	return r;
}

int
cgroup_procs_read(const char *dir, pid_t **out, size_t *n)
{
	struct linbuf b = { NULL, 0, 0 };
	int r, e;

	*out = NULL;
	*n = 0;
	r = cgroup_file(dir, "cgroup.procs", &b);
	if (r == 0)
		r = pid_list_decode(b.data, b.len, out, n);
	e = errno;
	free(b.data);
	errno = e;
	return r;
}

int
cgroup_cpu_read(const char *dir, struct cgroup_cpu *out)
{
	struct linbuf b = { NULL, 0, 0 };
	struct sys_sample sys;
	int r, e;

	memset(out, 0, sizeof(*out));
	r = cgroup_file(dir, "cpu.stat", &b);
	if (r == 0)
		r = cgroup_cpustat_decode(b.data, b.len, out);
	e = errno;
	memset(&sys, 0, sizeof(sys));
	/* cpu.pressure is absent without CONFIG_PSI: the figure is then left out */
	if (r == 0 && cgroup_file(dir, "cpu.pressure", &b) == 0 &&
	    psi_decode(b.data, b.len, &sys) == 0) {
		out->psi_some_us = sys.psi_some_us;
		out->have |= CGROUP_HAVE_PSI;
	}
	free(b.data);
	errno = e;
	return r;
}

/* --- the calling thread ------------------------------------------------- */

/* A kept schedstat file read again at offset 0: 0, or -1 with errno. */
static int
self_schedstat(int fd, struct task_schedstat *ss)
{
	char buf[128];
	ssize_t n;

	do
		n = pread(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (task_schedstat_decode(buf, (size_t)n, ss) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
self_run_delay_read(int fd, uint64_t *ns)
{
	struct task_schedstat ss;

	if (self_schedstat(fd, &ss) != 0)
		return -1;
	*ns = ss.run_delay_ns;
	return 0;
}

/*
 * /proc/thread-self is the opening thread's, so the descriptor stays that
 * thread's whoever reads it.  A kernel without schedstats prints "0 0 0"
 * for a thread that has plainly run (this one), and says nothing.
 */
int
self_sched_open(void)
{
	struct task_schedstat ss;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (self_schedstat(fd, &ss) != 0 || ss.cpu_ns == 0) {
		close(fd);
		errno = ENOTSUP;
		return -1;
	}
	return fd;
}
