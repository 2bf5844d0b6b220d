/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The backend this build links, against the running system: two samples
 * 100 ms apart, the task counters of this very process while three extra
 * threads spin and sleep, and the CPU model.  What each backend can know
 * differs, so expectations are chosen by SCALETOP_OS, never skipped quietly.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/platform.h"
#include "../tap.h"

#define OS_IS(name) (strcmp(SCALETOP_OS, name) == 0)

static atomic_int stop_workers;

/* Burns CPU so the process's CPU time must grow. */
static void *
worker_spin(void *arg)
{
	volatile uint64_t n = 0;

	while (!atomic_load(&stop_workers))
		n++;
	return arg;
}

/* Blocks over and over, so voluntary switches must grow. */
static void *
worker_sleep(void *arg)
{
	while (!atomic_load(&stop_workers))
		sleep_ms(1);
	return arg;
}

static void
check_sorted(const struct raw_sample *s, const char *which)
{
	int i, sorted = 1;

	for (i = 1; i < s->ncpu; i++)
		sorted &= s->cpu[i - 1].id < s->cpu[i].id;
	ok(sorted, "%s: cpu[] sorted by id, no duplicates", which);
}

static int
online_count(const struct raw_sample *s)
{
	int i, n = 0;

	for (i = 0; i < s->ncpu; i++)
		n += !(s->cpu[i].flags & CPU_RAW_OFFLINE);
	return n;
}

/*
 * Busy states and each CPU's total never go back.  iowait alone is not
 * checked: on NO_HZ kernels it is known to step back, which is why the delta
 * code clamps it.
 */
static void
check_monotonic(const struct raw_sample *a, const struct raw_sample *b)
{
	static const enum cpu_state busy[] = { CPU_USER, CPU_NICE,    CPU_SYS,
					       CPU_IRQ,  CPU_SOFTIRQ, CPU_STEAL };
	const struct cpu_ticks *x, *y;
	uint64_t ta, tb;
	int i, s, back = 0, compared = 0;
	size_t k;

	for (i = 0; i < b->ncpu; i++) {
		y = &b->cpu[i];
		x = raw_sample_find(a, y->id);
		if (x == NULL || (x->flags | y->flags) & CPU_RAW_OFFLINE)
			continue;
		compared++;
		for (k = 0; k < sizeof(busy) / sizeof(busy[0]); k++)
			back += y->tick[busy[k]] < x->tick[busy[k]];
		for (s = 0, ta = tb = 0; s < CPU_NSTATES; s++) {
			ta += x->tick[s];
			tb += y->tick[s];
		}
		back += tb < ta;
	}
	ok(compared > 0, "%d CPUs online in both samples", compared);
	is_int(back, 0, "no busy state or CPU total went backwards");
	for (s = 0; s < SYS_NCOUNTERS; s++) {
		if (!(a->sys.have & b->sys.have & 1u << s))
			continue;
		ok(b->sys.count[s] >= a->sys.count[s], "%s did not go backwards (%llu -> %llu)",
		   sys_counter_names[s], (unsigned long long)a->sys.count[s],
		   (unsigned long long)b->sys.count[s]);
	}
}

#if defined(__linux__)
/* ctxt read by other means between the two samples, to tie the decoder to the kernel. */
static uint64_t
stdio_ctxt(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

/* PSI counts as available when its file can be read at all. */
static int
psi_readable(void)
{
	char line[256];
	FILE *f = fopen("/proc/pressure/cpu", "r");
	int r;

	if (f == NULL)
		return 0;
	r = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	return r;
}
#endif

static void
check_linux_sample(const struct raw_sample *a, const struct raw_sample *b, uint64_t mid_ctxt)
{
#if defined(__linux__)
	const unsigned want = 1u << SYS_CTXSW | 1u << SYS_INTR | 1u << SYS_SOFTIRQ | 1u << SYS_FORK;
	long onln = sysconf(_SC_NPROCESSORS_ONLN);
	int i, offline_ticks = 0;

	is_int(online_count(b), onln, "online entries match sysconf(_SC_NPROCESSORS_ONLN)");
	for (i = 0; i < b->ncpu; i++) {
		if (b->cpu[i].flags & CPU_RAW_OFFLINE)
			offline_ticks +=
				b->cpu[i].tick[CPU_IDLE] != 0 || b->cpu[i].tick[CPU_USER] != 0;
	}
	is_int(offline_ticks, 0, "offline entries carry no ticks");
	is_int(b->sys.have, want, "have ctxsw, intr, softirq, fork; no syscall counter");
	ok(b->sys.flags & SYS_HAVE_RUNQ, "run queue present");
	ok(b->sys.running >= 1, "at least this process is running (%u)", b->sys.running);
	ok(a->sys.count[SYS_CTXSW] <= mid_ctxt && mid_ctxt <= b->sys.count[SYS_CTXSW],
	   "ctxt read in between (%llu) lies between the samples", (unsigned long long)mid_ctxt);
	ok(b->sys.count[SYS_CTXSW] > a->sys.count[SYS_CTXSW], "context switches happened");
	if (psi_readable()) {
		ok(b->sys.flags & SYS_HAVE_PSI_SOME, "PSI readable here, so PSI some is set");
		ok(b->sys.psi_some_us >= a->sys.psi_some_us, "PSI some did not go backwards");
	} else {
		is_int(b->sys.flags & (SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL), 0,
		       "PSI unreadable here, so no PSI flag");
		diag("no readable /proc/pressure/cpu on this kernel");
	}
#else
	(void)a;
	(void)b;
	(void)mid_ctxt;
#endif
}

static void
test_sampler(void)
{
	char err[ST_ERRLEN] = "";
	struct raw_sample a, b;
	struct sampler *s;
	uint64_t mid_ctxt = 0, t0;

	s = sampler_open(err, sizeof(err));
	if (!ok(s != NULL, "sampler_open (%s)", s != NULL ? "ok" : err))
		return;
	raw_sample_init(&a);
	raw_sample_init(&b);
	t0 = mono_now_ns();
	is_int(sampler_read(s, &a, err, sizeof(err)), 0, "first read");
	if (err[0] != '\0')
		diag("%s", err);
	ok(a.mono_ns >= t0 && a.mono_ns <= mono_now_ns(), "mono_ns taken during the read");
	sleep_ms(50);
#if defined(__linux__)
	mid_ctxt = stdio_ctxt();
#endif
	sleep_ms(50);
	is_int(sampler_read(s, &b, err, sizeof(err)), 0, "second read");
	ok(b.mono_ns > a.mono_ns, "mono_ns increases");
	ok(b.mono_ns - a.mono_ns >= 100000000u, "samples ~100 ms apart (%.1f ms)",
	   (double)(b.mono_ns - a.mono_ns) / 1e6);
	ok(a.ncpu >= 1 && b.ncpu >= 1, "CPUs listed (%d, %d)", a.ncpu, b.ncpu);
	check_sorted(&a, "first");
	check_sorted(&b, "second");
	check_monotonic(&a, &b);
	ok(sampler_source(s) != NULL && sampler_source(s)[0] != '\0', "source: %s",
	   sampler_source(s) ? sampler_source(s) : "(null)");
	if (OS_IS("linux")) {
		is_str(sampler_source(s), "linux /proc/stat", "linux source name");
		ok(sampler_note(s) == NULL, "linux has no note to show");
		check_linux_sample(&a, &b, mid_ctxt);
	} else if (OS_IS("generic")) {
		is_int(b.ncpu, 1, "generic: one aggregate CPU");
		ok(sampler_note(s) != NULL, "generic: a note says per-CPU data is unavailable");
	} else {
		is_int(online_count(&b), sysconf(_SC_NPROCESSORS_ONLN),
		       "online entries match sysconf(_SC_NPROCESSORS_ONLN)");
	}
	raw_sample_free(&a);
	raw_sample_free(&b);
	sampler_close(s);
}

/* A pid that surely does not exist: a child we made and reaped. */
static pid_t
dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

#if defined(__linux__)
/* Whether this kernel fills schedstat: the first number is this thread's CPU time. */
static int
schedstat_works(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns > 0;
}
#endif

static uint64_t
process_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Waits 200 ms, and then until this process has used 50 ms of CPU since
 * cpu0, for at most 30 s: on a busy machine the spinning worker may get
 * little of 200 ms, and the check below needs 20 ms of it.
 */
static void
wait_for_spin(uint64_t cpu0)
{
	int waited = 200;

	sleep_ms(200);
	while (process_cpu_ns() < cpu0 + 50000000u && waited < 30000) {
		sleep_ms(10);
		waited += 10;
	}
	if (waited > 200)
		diag("waited %d ms for the spinning thread's 50 ms of CPU", waited);
}

static void
check_task_growth(const struct task_counters *c1, const struct task_counters *c2)
{
	uint64_t cpu1 = c1->user_ns + c1->sys_ns, cpu2 = c2->user_ns + c2->sys_ns;
	uint64_t after = process_cpu_ns();

	ok(c1->nthreads >= 4, "first read sums %d threads (>= 4)", c1->nthreads);
	ok(c2->nthreads >= 4, "second read sums %d threads (>= 4)", c2->nthreads);
	ok(c2->have & TASK_HAVE_CPU, "CPU time present");
	ok(c2->have & TASK_HAVE_CSW, "context switches present");
	ok(cpu2 >= cpu1 + 20000000u, "CPU time grew by %.1f ms while a thread spun",
	   (double)(cpu2 - cpu1) / 1e6);
	/* ticks are a rounded-down share of the exact runtime, so never above it */
	ok(cpu2 <= after + 10000000u, "summed CPU time (%.1f ms) within the process's (%.1f ms)",
	   (double)cpu2 / 1e6, (double)after / 1e6);
	ok(c2->vol_csw >= c1->vol_csw + 10, "voluntary switches grew by %llu while threads slept",
	   (unsigned long long)(c2->vol_csw - c1->vol_csw));
	ok(c2->invol_csw >= c1->invol_csw, "involuntary switches did not go backwards");
#if defined(__linux__)
	if (schedstat_works()) {
		ok(c2->have & TASK_HAVE_RUN_DELAY, "schedstat works here, so run delay present");
		ok(c2->run_delay_ns >= c1->run_delay_ns, "run delay did not go backwards");
	} else {
		is_int(c2->have & TASK_HAVE_RUN_DELAY, 0, "no schedstat here, so no run delay");
	}
#endif
}

static void
test_tasks(void)
{
	char err[ST_ERRLEN] = "";
	struct task_counters c1, c2;
	pthread_t tid[3];
	void *(*fn[3])(void *) = { worker_spin, worker_sleep, worker_sleep };
	int i, started = 0, r1, r2, e;
	uint64_t cpu0;
	pid_t gone;

	for (i = 0; i < 3; i++)
		started += pthread_create(&tid[i], NULL, fn[i], NULL) == 0;
	is_int(started, 3, "3 worker threads started");
	sleep_ms(20);
	cpu0 = process_cpu_ns();
	r1 = task_counters_read(getpid(), &c1, err, sizeof(err));
	wait_for_spin(cpu0);
	r2 = task_counters_read(getpid(), &c2, err, sizeof(err));
	e = errno;
	atomic_store(&stop_workers, 1);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);

	if (OS_IS("generic")) {
		is_int(r1, -1, "generic: task counters unsupported");
		is_int(e, ENOSYS, "generic: errno ENOSYS");
		ok(err[0] != '\0', "generic: a message says why (%s)", err);
	} else {
		is_int(r1, 0, "task_counters_read(self), first");
		if (!is_int(r2, 0, "task_counters_read(self), second"))
			diag("%s", err);
		if (r1 == 0 && r2 == 0)
			check_task_growth(&c1, &c2);
	}

	gone = dead_pid();
	ok(gone > 0, "a reaped child's pid");
	err[0] = '\0';
	errno = 0;
	is_int(task_counters_read(gone, &c1, err, sizeof(err)), -1, "a gone pid fails");
	is_int(errno, OS_IS("generic") ? ENOSYS : ESRCH, "  errno ESRCH (ENOSYS on generic)");
	ok(err[0] != '\0' && strchr(err, '\n') == NULL, "  one-line message: %s", err);
}

/* Open descriptors of this process (Linux's /proc/self/fd), the listing's own left out. */
static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

static atomic_int stop_brief;

/* Sleeps until stop_brief: a thread that exits between two readings. */
static void *
worker_brief(void *arg)
{
	while (!atomic_load(&stop_brief))
		sleep_ms(1);
	return arg;
}

/*
 * The kept reader against task_counters_read, on the same threads: the same
 * count and counters that grow; on Linux its files are kept (the process's
 * stat and three a thread), opened once, and a thread that exits is dropped
 * at the next reading, its files closed.
 */
static void
test_task_reader(void)
{
	char err[ST_ERRLEN] = "";
	struct task_reader *r = task_reader_new();
	struct task_counters c1, c2, plain;
	void *(*fn[3])(void *) = { worker_spin, worker_sleep, worker_sleep };
	int i, started = 0, fd0 = open_fds(), fd1, fd2, rc, lin = OS_IS("linux");
	pthread_t tid[3], brief;
	uint64_t cpu0;

	atomic_store(&stop_workers, 0);
	for (i = 0; i < 3; i++)
		started += pthread_create(&tid[i], NULL, fn[i], NULL) == 0;
	sleep_ms(20);
	cpu0 = process_cpu_ns();
	rc = task_reader_read(r, getpid(), &c1, err, sizeof(err));
	fd1 = open_fds();
	wait_for_spin(cpu0);
	if (OS_IS("generic")) {
		is_int(rc, -1, "reader: generic: unsupported, as task_counters_read");
	} else if (is_int(rc, 0, "reader: first reading") &&
		   is_int(task_reader_read(r, getpid(), &c2, err, sizeof(err)), 0,
			  "reader: second reading")) {
		fd2 = open_fds();
		check_task_growth(&c1, &c2);
		rc = task_counters_read(getpid(), &plain, err, sizeof(err));
		ok(rc == 0 && plain.nthreads == c2.nthreads && plain.have == c2.have &&
			   plain.vol_csw >= c2.vol_csw,
		   "reader: the same threads and counters as task_counters_read (%d, %d)",
		   plain.nthreads, c2.nthreads);
		if (lin) {
			is_int(fd1 - fd0, 1 + 3 * c1.nthreads,
			       "reader: stat and 3 files a thread kept");
			is_int(fd2, fd1, "reader: none opened again");
		}
		atomic_store(&stop_brief, 0);
		pthread_create(&brief, NULL, worker_brief, NULL);
		rc = task_reader_read(r, getpid(), &c2, err, sizeof(err));
		ok(rc == 0 && c2.nthreads == c1.nthreads + 1,
		   "reader: a fifth thread: the count changed, listed again (%d threads)",
		   c2.nthreads);
		if (lin)
			is_int(open_fds(), fd1 + 3, "reader: its 3 files kept");
		atomic_store(&stop_brief, 1);
		pthread_join(brief, NULL);
		rc = task_reader_read(r, getpid(), &c2, err, sizeof(err));
		ok(rc == 0 && c2.nthreads == c1.nthreads,
		   "reader: that thread gone: %d threads (%d)", c2.nthreads, c1.nthreads);
		if (lin)
			is_int(open_fds(), fd1, "reader: its files closed");
	}
	atomic_store(&stop_workers, 1);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (!OS_IS("generic")) {
		rc = task_reader_read(r, getpid(), &c2, err, sizeof(err));
		ok(rc == 0 && c2.nthreads == 1,
		   "reader: the workers joined: the main thread alone (%d)", c2.nthreads);
		errno = 0;
		rc = task_reader_read(r, dead_pid(), &c2, err, sizeof(err));
		ok(rc == -1 && errno == ESRCH && strchr(err, '\n') == NULL,
		   "reader: a gone pid: ESRCH and one line (%s)", err);
	}
	task_reader_free(r);
	if (lin)
		is_int(open_fds(), fd0, "reader: freed, nothing left open");
}

static void
test_cpu_model(void)
{
	char model[256];
	int r, clean = 1;
	size_t i;

	memset(model, 'x', sizeof(model));
	r = platform_cpu_model(model, sizeof(model));
	if (OS_IS("generic") && r != 0) {
		skip("the generic backend found no CPU model on this system", "cpu model");
		return;
	}
	is_int(r, 0, "platform_cpu_model");
	ok(memchr(model, '\0', sizeof(model)) != NULL, "model NUL-terminated");
	model[sizeof(model) - 1] = '\0';
	ok(model[0] != '\0', "model not empty: \"%s\"", model);
	for (i = 0; model[i] != '\0'; i++)
		clean &= (unsigned char)model[i] >= 0x20 && model[i] != 0x7f;
	ok(clean, "model has no control characters");
}

static const struct proc_link *
table_find(const struct proc_link *t, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].pid == pid)
			return &t[i];
	}
	return NULL;
}

/* A child in a group of its own, seen alive and then as a zombie. */
static void
test_proc_table(void)
{
	const struct proc_link *p;
	struct proc_link *t = NULL;
	size_t n = 0;
	pid_t kid;
	int r;

	r = proc_table_read(&t, &n);
	if (!OS_IS("linux")) {
		is_int(r, -1, "proc table: not read on this backend");
		is_int(errno, ENOSYS, "  errno ENOSYS");
		return;
	}
	is_int(r, 0, "proc table: read");
	p = table_find(t, n, getpid());
	ok(p != NULL && p->ppid == getppid() && p->pgid == getpgrp() && !p->zombie,
	   "proc table: this process, its parent and group");
	free(t);
	if ((kid = fork()) == 0) {
		setpgid(0, 0);
		_exit(0);
	}
	setpgid(kid, kid);
	sleep_ms(100); /* exited by now, not yet reaped */
	is_int(proc_table_read(&t, &n), 0, "proc table: read again");
	p = table_find(t, n, kid);
	ok(p != NULL && p->ppid == getpid() && p->pgid == kid && p->zombie,
	   "proc table: an unreaped child is a zombie in its own group");
	free(t);
	waitpid(kid, NULL, 0);
}

int
main(void)
{
	diag("backend: %s", SCALETOP_OS);
	test_sampler();
	test_tasks();
	test_task_reader();
	test_cpu_model();
	test_proc_table();
	return done_testing();
}
