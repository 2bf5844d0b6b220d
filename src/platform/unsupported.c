/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What only the Linux backend reads so far, answered ENOSYS by every other
 * backend (FreeBSD, DragonFly, generic) from this one place.  (The process
 * table and the reaper: proctable_bsd.c and reaper_bsd.c on the BSDs,
 * noreaper.c for generic.)
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/oncpu.h"
#include "scaletop/platform.h"

/*
 * The kernel lock profile: FreeBSD's debug.lock.prof.stats needs a kernel
 * built with LOCK_PROFILING and its text is not decoded yet; DragonFly has
 * none that scaletop reads; no portable interface exists.
 *
 * A target's finer points: reading part of a process's threads
 * (thread_samples_read_from, thread_handle_read and proc_thread_list: the
 * BSDs read all of them in one sysctl, and the sampler then calls
 * thread_samples_read), a process's start time, and
 * cgroup v2, which is Linux's alone.
 *
 * On-CPU sampling with call chains (oncpu.h): Linux's perf_event.
 * FreeBSD's hwpmc(4) needs a kernel module and its own log format, and
 * DragonFly has no equivalent; neither is read yet.
 *
 * A thread's own run delay (the time it waited for a CPU): the BSDs keep
 * no such sum per thread (kinfo_proc has the CPU time, ki_runtime, not the
 * wait for one), so the loop counts all of a late tick's work as its own.
 */

int
platform_lock_profile(struct lockprof_entry **out, int *n)
{
	*out = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

int
thread_samples_read_from(pid_t pid, pid_t after, int max, thread_sample_cb cb, void *arg,
			 pid_t *next)
{
	(void)pid;
	(void)after;
	(void)max;
	(void)cb;
	(void)arg;
	*next = 0;
	errno = ENOSYS;
	return -1;
}

int
thread_handle_read(struct thread_handle *h, struct thread_sample *t)
{
	(void)h;
	memset(t, 0, sizeof(*t));
	errno = ENOSYS;
	return -1;
}

void
thread_handle_close(struct thread_handle *h)
{
	(void)h;
}

int
thread_handle_syscall(struct thread_handle *h, struct syscall_line *out)
{
	(void)h;
	(void)out;
	errno = ENOSYS;
	return -1;
}

int
proc_thread_list(pid_t pid, pid_t **tids, size_t *n)
{
	(void)pid;
	*tids = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

int
proc_start_ns(pid_t pid, uint64_t *start_ns)
{
	(void)pid;
	*start_ns = 0;
	errno = ENOSYS;
	return -1;
}

uint64_t
proc_clock_ns(void)
{
	return 0;
}

int
cgroup_dir(const char *path, char *out, size_t len)
{
	(void)path;
	if (len > 0)
		out[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int
cgroup_procs_read(const char *dir, pid_t **out, size_t *n)
{
	(void)dir;
	*out = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

int
cgroup_cpu_read(const char *dir, struct cgroup_cpu *out)
{
	(void)dir;
	out->have = 0;
	errno = ENOSYS;
	return -1;
}

struct oncpu *
oncpu_open(int hz, char *why, size_t whylen)
{
	(void)hz;
	snprintf(why, whylen, "on-CPU sampling is Linux's perf_event alone");
	errno = ENOSYS;
	return NULL;
}

int
oncpu_enable(struct oncpu *o, bool on)
{
	(void)o;
	(void)on;
	errno = ENOSYS;
	return -1;
}

int
oncpu_drain(struct oncpu *o, oncpu_sample_cb cb, void *arg, struct perf_decode_stats *st)
{
	(void)o;
	(void)cb;
	(void)arg;
	(void)st;
	errno = ENOSYS;
	return -1;
}

int
oncpu_ncpus(const struct oncpu *o)
{
	(void)o;
	return 0;
}

void
oncpu_close(struct oncpu *o)
{
	(void)o;
}

int
self_sched_open(void)
{
	errno = ENOSYS;
	return -1;
}

int
self_run_delay_read(int fd, uint64_t *ns)
{
	(void)fd;
	*ns = 0;
	errno = ENOSYS;
	return -1;
}

int
host_topology_read_root(const char *root, struct topology *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	errno = ENOSYS;
	return st_error(err, errlen,
			"--root '%s': a recorded Linux sysfs tree is read on Linux only; "
			"for FreeBSD's kern.sched.topology_spec use --topology-spec FILE",
			root);
}
