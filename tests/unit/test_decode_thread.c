/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoders of what a --target and the wait sampler read (decode_thread.c,
 * decode_cgroup.c), over recorded fixtures (tests/fixtures/linux/README) and
 * hand-written edge cases.  Each is handed an exact-size heap copy, so a read
 * past len is caught by the sanitizer build.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_linux.h"
#include "../tap.h"

static int
stat_str(const char *text, struct thread_stat *st)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = thread_stat_decode(p, len, st);

	free(p);
	return r;
}

static int
stat_fixture(const char *name, struct thread_stat *st)
{
	size_t len;
	char *text = fixture_read(name, &len);
	int r = thread_stat_decode(text, len, st);

	free(text);
	return r;
}

static void
test_stat(void)
{
	struct thread_stat st;

	is_int(stat_fixture("linux/thread_stat_sleeping", &st), 0,
	       "stat: a sleeping thread decodes");
	is_int(st.state, 'S', "stat: its state S");
	is_u64(st.ppid, 12019, "stat: its parent");
	is_u64(st.nthreads, 3, "stat: 3 threads (field 20)");
	is_u64(st.start_ticks, 1431124, "stat: its start time (field 22)");
	is_int(stat_fixture("linux/thread_stat_running", &st), 0, "stat: a running process");
	is_int(st.state, 'R', "stat: its state R");
	is_u64(st.nthreads, 1, "stat: one thread");
	/* a comm with blanks and ')' and a negative priority (an RT thread) */
	is_int(stat_str("7 (a) (b) c) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 -51 0 4 0 99 0\n", &st), 0,
	       "stat: comm with ') ' and a negative priority");
	is_u64(st.nthreads, 4, "stat: threads counted after the last ')'");
	is_u64(st.start_ticks, 99, "stat: start time after the last ')'");
	errno = 0;
	is_int(stat_str("7 (a) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 4 0\n", &st), -1,
	       "stat: cut before the start time is refused");
	is_int(errno, EINVAL, "stat: ... EINVAL");
	is_int(stat_str("7 (a) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 x 0 99 0\n", &st), -1,
	       "stat: a word for the threads is refused");
	is_int(stat_str("7 (a) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 4 0 99 0", &st), -1,
	       "stat: no newline (cut short) is refused");
	is_int(stat_str("7 (a) SS 1 7\n", &st), -1, "stat: a state of two letters is refused");
}

static void
test_state(void)
{
	is_int(thread_state_of('R'), THREAD_RUNNABLE, "state: R is runnable (split later)");
	is_int(thread_state_of('S'), THREAD_SLEEPING, "state: S sleeping");
	is_int(thread_state_of('D'), THREAD_DISK, "state: D uninterruptible");
	is_int(thread_state_of('t'), THREAD_STOPPED, "state: t traced");
	is_int(thread_state_of('Z'), THREAD_ZOMBIE, "state: Z exited");
	is_int(thread_state_of('I'), THREAD_IDLE, "state: I idle");
	is_int(thread_state_of('?'), THREAD_OTHER, "state: anything else other");
}

static int
wchan_str(const char *text, size_t len, char *out, size_t outlen)
{
	char *p = exact_copy(text, len);
	int r = wchan_decode(p, len, out, outlen);

	free(p);
	return r;
}

static void
test_wchan(void)
{
	char out[THREAD_CHANNEL_LEN], small[8];
	size_t len;
	char *text = fixture_read("linux/thread_wchan_futex", &len);

	is_int(wchan_str(text, len, out, sizeof(out)), 0, "wchan: recorded futex wait decodes");
	is_str(out, "futex_do_wait", "wchan: the futex channel, no newline in the file");
	free(text);
	text = fixture_read("linux/thread_wchan_nanosleep", &len);
	is_int(wchan_str(text, len, out, sizeof(out)), 0, "wchan: recorded sleep decodes");
	is_str(out, "hrtimer_nanosleep", "wchan: the sleep channel");
	free(text);
	is_int(wchan_str("0", 1, out, sizeof(out)), 0, "wchan: 0 decodes");
	is_str(out, "", "wchan: 0 (running, or hidden) is no channel");
	is_int(wchan_str("do_epoll_wait\n", 14, out, sizeof(out)), 0,
	       "wchan: a newline is allowed");
	is_str(out, "do_epoll_wait", "wchan: ... and dropped");
	is_int(wchan_str("poll_schedule_timeout.constprop.0", 33, small, sizeof(small)), 0,
	       "wchan: a long name into a small buffer");
	is_str(small, "poll_sc", "wchan: ... is cut to fit");
	is_int(wchan_str("a b", 3, out, sizeof(out)), -1, "wchan: a blank is refused");
	is_int(wchan_str("", 0, out, sizeof(out)), -1, "wchan: empty is refused");
}

static void
test_comm(void)
{
	char out[32];
	size_t len;
	char *text = fixture_read("linux/proc_comm", &len);
	char *p;

	is_int(comm_decode(text, len, out, sizeof(out)), 0, "comm: recorded decodes");
	is_str(out, "python3", "comm: the name");
	free(text);
	p = exact_copy("my prog\n", 8);
	is_int(comm_decode(p, 8, out, sizeof(out)), 0, "comm: blanks are part of a name");
	is_str(out, "my prog", "comm: ... kept");
	free(p);
	p = exact_copy("name", 4);
	is_int(comm_decode(p, 4, out, sizeof(out)), -1, "comm: no newline is refused");
	free(p);
	p = exact_copy("a\nb\n", 4);
	is_int(comm_decode(p, 4, out, sizeof(out)), -1, "comm: two lines are refused");
	free(p);
}

static void
test_pids(void)
{
	pid_t *v;
	size_t n, len;
	char *text = fixture_read("linux/cgroup_procs", &len), *p;

	is_int(pid_list_decode(text, len, &v, &n), 0, "procs: recorded cgroup.procs decodes");
	is_int((long long)n, 12, "procs: 12 pids");
	ok(n == 12 && v[0] == 1 && v[11] == 15, "procs: first and last in order");
	free(v);
	free(text);
	is_int(pid_list_decode("", 0, &v, &n), 0, "procs: an empty group decodes");
	ok(n == 0 && v == NULL, "procs: ... to none");
	p = exact_copy("12\nx\n", 5);
	is_int(pid_list_decode(p, 5, &v, &n), -1, "procs: a word is refused");
	ok(v == NULL && n == 0, "procs: ... and nothing is kept");
	free(p);
	p = exact_copy("0\n", 2);
	is_int(pid_list_decode(p, 2, &v, &n), -1, "procs: pid 0 is refused");
	free(p);
	p = exact_copy("12", 2);
	is_int(pid_list_decode(p, 2, &v, &n), -1, "procs: a cut last line is refused");
	free(p);
}

static void
test_cpustat(void)
{
	struct cgroup_cpu c;
	struct sys_sample sys;
	size_t len;
	char *text = fixture_read("linux/cgroup_cpu_stat", &len), *p;

	memset(&c, 0, sizeof(c));
	is_int(cgroup_cpustat_decode(text, len, &c), 0, "cpu.stat: recorded decodes");
	is_u64(c.usage_us, 18177382291u, "cpu.stat: usage_usec");
	is_u64(c.user_us, 13668273197u, "cpu.stat: user_usec");
	is_u64(c.system_us, 4509109094u, "cpu.stat: system_usec");
	ok(c.have & CGROUP_HAVE_CPU, "cpu.stat: flagged");
	free(text);
	p = exact_copy("usage_usec 5\nuser_usec 3\n", 25);
	is_int(cgroup_cpustat_decode(p, 25, &c), -1, "cpu.stat: without system_usec refused");
	ok(!(c.have & CGROUP_HAVE_CPU), "cpu.stat: ... and not flagged");
	free(p);
	p = exact_copy("usage_usec 5 6\nuser_usec 3\nsystem_usec 2\n", 41);
	is_int(cgroup_cpustat_decode(p, 41, &c), -1, "cpu.stat: two numbers on a line refused");
	free(p);
	text = fixture_read("linux/cgroup_cpu_pressure", &len);
	memset(&sys, 0, sizeof(sys));
	is_int(psi_decode(text, len, &sys), 0, "cpu.pressure: recorded decodes as PSI");
	is_u64(sys.psi_some_us, 4379720735u, "cpu.pressure: the some total");
	free(text);
}

int
main(void)
{
	test_stat();
	test_state();
	test_wchan();
	test_comm();
	test_pids();
	test_cpustat();
	return done_testing();
}
